//! Measures the row-state counter of Tank Attack against the line search (issue 53).
fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let t = std::time::Instant::now();
    let (count, complete, states) = quandary::puzzles::tank::exact::count_by_states(n, &[]);
    println!("n={n} count={count} complete={complete} states={states} seconds={:.3}", t.elapsed().as_secs_f64());
}
