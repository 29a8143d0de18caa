use quandary::puzzles::tank::*;
fn main(){
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse().unwrap();
    let count = args.get(2).is_some();
    let t0 = std::time::Instant::now();
    let (c, done) = exact::search(n, |b| { verify(&b.to_vec()).unwrap(); if !count { println!("{b:?}"); } count });
    println!("{c} {done} {:?}", t0.elapsed());
}
