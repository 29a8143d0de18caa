//! The SAT backend's unit tests: steering and deadlines, and rows past the totalizer budget.

use super::*;
use std::time::Duration;

/// An engine handed to the next run forgets the pauses of the runs before.
#[test]
fn a_steered_engine_forgets_the_pauses_before() {
    let mut m = Model::new();
    let x = m.var("x").pos();
    m.add("one", vec![(1, x)], Sense::Eq, 1);
    let mut b = SatBackend::build(&m, "default", None, TOTALIZERS_IN_ALL);
    b.pauses.longest.store(5_000_000_000, Ordering::Relaxed);
    let deadline = Instant::now() + Duration::from_secs(3);
    b.set_deadline(Some(deadline));
    assert_eq!(b.solve(&[]), Answer::Unknown, "a 5 s pause seen, 3 s left");
    b.steer(Some(deadline), None);
    assert_eq!(b.pauses.longest(), Duration::ZERO);
    assert_eq!(b.solve(&[]), Answer::Sat);
}

/// The objective's encoding, made while a search answers (where the guard stops nothing
/// for time), stops at the deadline part-way: no bound to assume, and every later solve
/// answers "unknown" (its encoder no longer matches its clauses). Without a deadline the
/// same bound is encoded and holds.
#[test]
fn the_objective_encoding_stops_at_the_deadline() {
    let mut m = Model::new();
    let x: Vec<Lit> = (0..3000).map(|i| m.var(format!("x{i}")).pos()).collect();
    m.maximise(x.iter().map(|&l| (1, l)).collect());
    let mut late = SatBackend::build(&m, "default", None, TOTALIZERS_IN_ALL);
    late.set_deadline(Some(Instant::now()));
    let started = Instant::now();
    // At least 1000 true: a totalizer over 3000 inputs with bound 2000 of their negations.
    assert_eq!(late.objective_at_most(-1000), Some(Vec::new()));
    assert!(started.elapsed() < Duration::from_millis(200));
    assert_eq!(late.solve(&[]), Answer::Unknown);
    assert_eq!(late.objective_at_most(-1500), Some(Vec::new()));
    assert_eq!(late.solve(&[]), Answer::Unknown);
    // Handed to a next run (a kept engine), it encodes the bound afresh and answers.
    late.steer(None, None);
    let bound = late.objective_at_most(-2990).expect("reachable");
    assert!(!bound.is_empty());
    assert_eq!(late.solve(&bound), Answer::Sat);
    let a = late.assignment();
    assert!(x.iter().filter(|l| a[l.var.index()]).count() >= 2990);
    let mut on_time = SatBackend::build(&m, "default", None, TOTALIZERS_IN_ALL);
    let bound = on_time.objective_at_most(-1000).expect("reachable");
    assert!(!bound.is_empty());
    assert_eq!(on_time.solve(&bound), Answer::Sat);
    let a = on_time.assignment();
    assert!(x.iter().filter(|l| a[l.var.index()]).count() >= 1000);
}

/// Every assignment of `n` variables that satisfies every row of `m`, by brute force.
fn brute_count(m: &Model, n: usize) -> usize {
    (0..1u32 << n)
        .filter(|bits| {
            let a: Vec<bool> = (0..n).map(|k| bits >> k & 1 == 1).collect();
            m.constraints.iter().all(|c| c.holds(&a))
        })
        .count()
}

/// Solutions of `m` on the variables `x` by SAT, its rows' totalizers held to `budget`,
/// each solution blocked in turn.
fn sat_count(m: &Model, x: &[Lit], budget: i64) -> usize {
    let mut b = SatBackend::build(m, "default", None, budget);
    let mut count = 0;
    while b.solve(&[]) == Answer::Sat {
        let a = b.assignment();
        assert!(m.constraints.iter().all(|c| c.holds(&a)));
        count += 1;
        let block: Vec<Lit> = x
            .iter()
            .map(|&l| if a[l.var.index()] { !l } else { l })
            .collect();
        b.add_clause(&block);
    }
    count
}

#[test]
fn rows_past_the_budget_get_adders_and_still_mean_what_they_say() {
    // Three overlapping windows of unit weights, equalities and bounds, on 12 variables.
    let mut m = Model::new();
    let x: Vec<Lit> = (0..12).map(|k| m.var(format!("x{k}")).pos()).collect();
    m.add("a", x[..8].iter().map(|&l| (1, l)).collect(), Sense::Eq, 4);
    m.add("b", x[4..].iter().map(|&l| (1, l)).collect(), Sense::Eq, 3);
    m.add(
        "c",
        x[2..10].iter().map(|&l| (1, l)).collect(),
        Sense::Le,
        5,
    );
    m.add("d", x.iter().map(|&l| (1, l)).collect(), Sense::Ge, 5);
    // Within the budget: totalizers; past it (a budget of 1): adders for every row.
    assert_eq!(adder_threshold(&m, TOTALIZERS_IN_ALL, &[]), ADDER_ABOVE);
    let threshold = adder_threshold(&m, 1, &[]);
    assert!(
        threshold < 24,
        "{threshold}: the smallest row is 8 terms × 3"
    );
    let truth = brute_count(&m, 12);
    assert!(truth > 0);
    assert_eq!(sat_count(&m, &x, TOTALIZERS_IN_ALL), truth);
    assert_eq!(sat_count(&m, &x, 1), truth);
    // And a contradiction stays one.
    m.add("e", x[..8].iter().map(|&l| (1, l)).collect(), Sense::Ge, 5);
    assert_eq!(brute_count(&m, 12), 0);
    assert_eq!(sat_count(&m, &x, 1), 0);
}
