use quandary::puzzles::tank::*;
use quandary::solve::search::Search;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: i64 = a[1].parse().unwrap();
    let g = match a[2].as_str() {
        "d4" => Some(Symmetric::D4),
        "rot" => Some(Symmetric::Rot180),
        "rot90" => Some(Symmetric::Rot90),
        "diag" => Some(Symmetric::Diagonal),
        "mirror" => Some(Symmetric::Mirror),
        _ => None,
    };
    let t = Tank::new(n).unwrap();
    let mut tm = t.formulate(Formulation::Strong, g.is_none());
    if let Some(g) = g {
        tm.restrict_to_symmetric(g);
    }
    let mut s = Search::new(quandary::solve::default_backend(&tm.model), None);
    let (st, sol) = s.first();
    println!("{n} {:?} {st:?} {:?}", g, s.elapsed());
    if let Some(sol) = sol {
        let b = tm.decode(&sol);
        print!("{}", to_text(&b));
        println!("{:?}", verify(&b));
    }
}
