//! Cube-and-conquer: one question split into independent parts ("cubes"), each a partial
//! assignment of the formulation's decision variables, answered separately (by other
//! processes, other machines) and combined.
//!
//! A cube is a list of literals `+k` / `-k`: decision `k` (counted from 1, in the order the
//! formulation lists its decisions) true / false. [`split`] makes cubes that partition the
//! space by construction, over decisions at distinct places ([`split_decisions`]); [`coverage`] checks that a set of cubes it is given does, without
//! assuming where they came from: the cubes must be pairwise disjoint (any two disagree on a
//! decision) and their shares of the space (`2^-len` each) must add up to exactly 1. [`combine`]
//! turns the cubes' answers into the answer to the whole question.

use crate::puzzles::Query;
use crate::solve::search::Status;
use serde::{Deserialize, Serialize};

/// A partial assignment of decisions: `+k` decision `k` true, `-k` false (`k` from 1).
pub type Cube = Vec<i64>;

/// What a run restricted to a cube reports about it, so that its answer can be combined with
/// the other cubes' answers without trusting anything else.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CubeFacts {
    /// The cube's literals.
    pub literals: Cube,
    /// How many decision variables the formulation had (cubes of one question agree on it).
    pub decisions: usize,
    /// For optimisation: whether the puzzle's value is maximised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximise: Option<bool>,
    /// A restriction the search had besides the cube (e.g. symmetric boards only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
}

/// Reads a cube: literals separated by spaces or commas ("+1 -4 7").
pub fn parse(text: &str) -> Result<Cube, String> {
    let mut cube = Vec::new();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let lit: i64 = word.parse().map_err(|_| {
            format!("cube literal '{word}' is not +k or -k (k a decision number from 1)")
        })?;
        if lit == 0 {
            return Err("cube literal 0: decisions are numbered from 1".into());
        }
        if cube.iter().any(|&l: &i64| l.abs() == lit.abs()) {
            return Err(format!("decision {} appears twice in the cube", lit.abs()));
        }
        cube.push(lit);
    }
    Ok(cube)
}

/// A cube as [`parse`] reads it ("+1 -4 +7"); the empty cube (the whole space) is "".
pub fn show(cube: &[i64]) -> String {
    cube.iter()
        .map(|l| format!("{l:+}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Which decisions to split on: one per place (cell), the places in the order the formulation
/// first names them (for grid puzzles: reading order, so the first rows). Splitting on two
/// decisions of one place (two values of one cell, two dominoes over one cell) would make
/// cubes that contradict themselves and leave the rest of the space in few cubes.
pub fn split_decisions<P: PartialEq>(places: &[P]) -> Vec<usize> {
    let mut seen: Vec<&P> = Vec::new();
    let mut chosen = Vec::new();
    for (k, p) in places.iter().enumerate() {
        if !seen.contains(&p) {
            seen.push(p);
            chosen.push(k);
        }
        if chosen.len() >= 20 {
            break;
        }
    }
    chosen
}

/// `k` cubes over the decisions `on` (indices from 0, as [`split_decisions`] picks them): the
/// space is halved on the first, then each half on the second, and so on, breadth first, until
/// there are `k` cubes (depths differ by at most one); at most `2^on.len()`.
pub fn split(on: &[usize], k: usize) -> Result<Vec<Cube>, String> {
    if k == 0 {
        return Err("--cubes 0: give at least one cube".into());
    }
    let most: usize = 1 << on.len().min(20);
    if k > most {
        return Err(format!(
            "--cubes {k}: this formulation has {} places to split on, so at most {most} cubes",
            on.len()
        ));
    }
    let mut queue: std::collections::VecDeque<Cube> = [Vec::new()].into();
    while queue.len() < k {
        let c = queue.pop_front().expect("never empty");
        let next = on[c.len()] as i64 + 1;
        let mut t = c.clone();
        t.push(next);
        let mut f = c;
        f.push(-next);
        queue.push_back(t);
        queue.push_back(f);
    }
    Ok(queue.into_iter().collect())
}

/// Checks that `cubes` are disjoint parts of the space of `decisions` decisions: every literal
/// names a decision and any two cubes contradict each other on some decision (else says what
/// is wrong: the overlapping pair). `Ok(None)` when their shares add up to the whole space;
/// `Ok(Some(share))` saying the share no cube covers (cubes not run yet, say): the answers
/// then hold in the covered part only.
pub fn coverage(cubes: &[Cube], decisions: usize) -> Result<Option<String>, String> {
    if cubes.is_empty() {
        return Err("no cubes".into());
    }
    for c in cubes {
        if let Some(l) = c
            .iter()
            .find(|l| l.unsigned_abs() as usize > decisions || **l == 0)
        {
            return Err(format!(
                "cube {} names decision {}, but there are {decisions}",
                show(c),
                l.abs()
            ));
        }
    }
    // Shares as fractions over 2^depth, depth the longest cube (cubes here are short).
    let depth = cubes.iter().map(Vec::len).max().unwrap_or(0);
    if depth > 100 {
        return Err("cubes longer than 100 literals are not supported".into());
    }
    let whole: u128 = 1 << depth;
    let share = |c: &Cube| whole >> c.len();
    if let Some((a, b)) = overlapping(cubes) {
        return Err(format!(
            "cubes {} and {} overlap (neither rules the other out), so answers would be counted twice",
            show(a),
            show(b)
        ));
    }
    // Disjoint cubes whose shares add up to the whole cover every assignment.
    let total: u128 = cubes.iter().map(share).sum();
    if total < whole {
        return Ok(Some(format!(
            "the cubes cover {} of the space: {} of {} parts have no result",
            fraction(total, whole),
            whole - total,
            whole
        )));
    }
    Ok(None)
}

/// Two cubes that do not rule each other out, if any. Cubes that take their decisions in one
/// order (as [`split`] makes them: each a path from the root of one binary tree) are disjoint
/// exactly when no cube's signs are a prefix of another's; sorted, such a pair stands side by
/// side, so the check takes a sort (2^15 cubes took 5 s pair by pair). Other cubes (written by
/// hand) are compared pair by pair.
fn overlapping(cubes: &[Cube]) -> Option<(&Cube, &Cube)> {
    let longest = cubes.iter().max_by_key(|c| c.len())?;
    let one_order = cubes
        .iter()
        .all(|c| c.iter().zip(longest).all(|(l, m)| l.abs() == m.abs()));
    if one_order {
        let mut sorted: Vec<&Cube> = cubes.iter().collect();
        let signs = |c: &Cube| c.iter().map(|&l| l > 0).collect::<Vec<bool>>();
        sorted.sort_by_cached_key(|c| signs(c));
        return sorted
            .windows(2)
            .find(|w| signs(w[1]).starts_with(&signs(w[0])))
            .map(|w| (w[0], w[1]));
    }
    cubes.iter().enumerate().find_map(|(i, a)| {
        cubes[i + 1..]
            .iter()
            .find(|b| !a.iter().any(|l| b.contains(&-l)))
            .map(|b| (a, b))
    })
}

fn fraction(part: u128, whole: u128) -> String {
    format!("{:.4}%", 100.0 * part as f64 / whole as f64)
}

/// One cube's answer, read off its report.
#[derive(Clone, Debug)]
pub struct Part {
    pub cube: Cube,
    /// The status inside the cube (solved, optimal, infeasible, unknown).
    pub status: Status,
    pub count: Option<u128>,
    /// Solutions seen before a limit stopped a count.
    pub count_at_least: Option<u128>,
    pub unique: Option<bool>,
    /// The value of the cube's best solution (its proved optimum when `status` is optimal).
    pub objective: Option<i64>,
    /// Where this part's answer comes from (a job id), for messages.
    pub source: String,
}

/// The answer to the whole question, combined from its cubes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Combined {
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u128>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count_at_least: Option<u128>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<i64>,
    /// The cube whose solution is the answer (optimum, first solution found).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Cubes a limit stopped before they answered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unanswered: Vec<String>,
}

/// Combines the answers of cubes that partition the space (check with [`coverage`] first):
/// a solution in any cube is a solution; every cube refuted is a refutation; counts add up
/// (for an objective: the counts of the cubes whose optimum is the best); the optimum is the
/// best of the cubes' optima, proved when every cube is settled.
pub fn combine(query: Query, maximise: Option<bool>, parts: &[Part]) -> Combined {
    let unanswered: Vec<String> = parts
        .iter()
        .filter(|p| p.status == Status::Unknown)
        .map(|p| p.source.clone())
        .collect();
    let settled = unanswered.is_empty();
    let found: Vec<&Part> = parts
        .iter()
        .filter(|p| matches!(p.status, Status::Solved | Status::Optimal) || p.objective.is_some())
        .collect();
    let better = |a: i64, b: i64| {
        if maximise == Some(false) {
            a < b
        } else {
            a > b
        }
    };
    let best = found
        .iter()
        .fold(None::<&Part>, |acc, p| match (acc, p.objective) {
            (None, _) => Some(p),
            (Some(a), Some(v)) if a.objective.is_none_or(|w| better(v, w)) => Some(p),
            (a, _) => a,
        });
    let mut c = Combined {
        status: Status::Unknown,
        count: None,
        count_at_least: None,
        unique: None,
        objective: best.and_then(|p| p.objective),
        from: best.map(|p| p.source.clone()),
        unanswered,
    };
    // With an objective, counts and uniqueness are about the optimal solutions: only the
    // cubes whose own optimum is the best contribute.
    let counted = |p: &&Part| match (maximise, c.objective) {
        (Some(_), Some(v)) => p.objective == Some(v),
        _ => true,
    };
    match query {
        Query::First | Query::AtLeast(_) => {
            c.status = match (best, settled) {
                (Some(_), _) => Status::Solved,
                (None, true) => Status::Infeasible,
                (None, false) => Status::Unknown,
            };
        }
        Query::Optimum => {
            c.status = match (best, settled) {
                (Some(_), true) => Status::Optimal,
                (None, true) => Status::Infeasible,
                _ => Status::Unknown,
            };
        }
        Query::Count { .. } => {
            let n: u128 = parts
                .iter()
                .filter(counted)
                .map(|p| p.count.or(p.count_at_least).unwrap_or(0))
                .sum();
            if settled {
                c.status = match (n, maximise.is_some()) {
                    (0, _) => Status::Infeasible,
                    (_, true) => Status::Optimal,
                    _ => Status::Solved,
                };
                c.count = Some(n);
            } else {
                c.count_at_least = Some(n);
            }
        }
        Query::Unique => {
            // Each cube says 0, 1 or "at least 2".
            let seen: u128 = parts
                .iter()
                .filter(counted)
                .map(|p| match (p.status, p.unique) {
                    (Status::Infeasible, _) => 0,
                    (_, Some(true)) => 1,
                    (_, Some(false)) => 2,
                    _ => u128::from(p.objective.is_some() || p.status == Status::Solved),
                })
                .sum();
            if seen >= 2 {
                c.status = Status::Solved;
                c.unique = Some(false);
            } else if settled {
                c.status = if seen == 0 {
                    Status::Infeasible
                } else {
                    Status::Solved
                };
                c.unique = (seen == 1).then_some(true);
            }
        }
        Query::Forced | Query::Explain(_) => {}
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_partitions_the_space_for_any_k() {
        let on: Vec<usize> = (0..10).collect();
        for k in 1..=33 {
            let cubes = split(&on, k).unwrap();
            assert_eq!(cubes.len(), k);
            coverage(&cubes, 10).unwrap();
        }
        assert!(split(&on[..3], 9).is_err());
        assert_eq!(split(&on[..3], 8).unwrap().len(), 8);
    }

    #[test]
    fn splits_take_one_decision_per_place() {
        // Three values for each of three cells: decisions 0, 3, 6 are the first of each cell.
        let places = [0, 0, 0, 1, 1, 1, 2, 2, 2];
        assert_eq!(split_decisions(&places), vec![0, 3, 6]);
        let cubes = split(&split_decisions(&places), 4).unwrap();
        assert_eq!(cubes[0], vec![1, 4]);
        coverage(&cubes, 9).unwrap();
    }

    #[test]
    fn overlaps_found_by_sorting_are_those_found_pair_by_pair() {
        // Random sets of nodes of one binary tree of depth 4 (decisions 3, 1, 4, 2 in that
        // order), each against the pair-by-pair check.
        let order = [3i64, 1, 4, 2];
        let nodes: Vec<Cube> = (0..=4)
            .flat_map(|depth| {
                (0..1u32 << depth).map(move |bits| {
                    (0..depth)
                        .map(|k| match bits >> k & 1 {
                            1 => order[k],
                            _ => -order[k],
                        })
                        .collect()
                })
            })
            .collect();
        let mut seed = 12345u64;
        for _ in 0..2000 {
            let cubes: Vec<Cube> = nodes
                .iter()
                .filter(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    seed >> 62 == 0
                })
                .cloned()
                .collect();
            let pairwise = cubes.iter().enumerate().any(|(i, a)| {
                cubes[i + 1..]
                    .iter()
                    .any(|b| !a.iter().any(|l| b.contains(&-l)))
            });
            assert_eq!(overlapping(&cubes).is_some(), pairwise, "{cubes:?}");
        }
        // 2^15 cubes of a split: disjoint, the whole space.
        let cubes = split(&(0..15).collect::<Vec<_>>(), 1 << 15).unwrap();
        assert_eq!(coverage(&cubes, 15), Ok(None));
    }

    #[test]
    fn coverage_finds_missing_and_overlapping_cubes() {
        let mut cubes = split(&[0, 1, 2, 3, 4], 8).unwrap();
        let gone = cubes.pop().unwrap();
        let e = coverage(&cubes, 5).unwrap().unwrap();
        assert!(e.contains("1 of 8 parts have no result"), "{e}");
        cubes.push(vec![gone[0]]); // wider than the missing cube: overlaps others
        assert!(coverage(&cubes, 5).unwrap_err().contains("overlap"));
        assert_eq!(coverage(&[vec![1], vec![-1, 2], vec![-1, -2]], 2), Ok(None));
        assert!(coverage(&[vec![1], vec![-1, 3]], 2)
            .unwrap_err()
            .contains("decision 3"));
    }

    #[test]
    fn parse_reads_what_show_writes() {
        let c = vec![1, -4, 7];
        assert_eq!(parse(&show(&c)).unwrap(), c);
        assert_eq!(parse(&show(&[])).unwrap(), Vec::<i64>::new());
        assert_eq!(parse("1,-4,+7").unwrap(), c);
        assert!(parse("1 -1").is_err());
        assert!(parse("0").is_err());
        assert!(parse("x").is_err());
    }

    fn part(status: Status, count: Option<u128>, objective: Option<i64>) -> Part {
        Part {
            cube: vec![],
            status,
            count,
            count_at_least: None,
            unique: None,
            objective,
            source: format!("{status:?}"),
        }
    }

    #[test]
    fn combine_counts_only_the_optimal_cubes() {
        let parts = [
            part(Status::Optimal, Some(3), Some(5)),
            part(Status::Optimal, Some(4), Some(4)),
            part(Status::Infeasible, None, None),
            part(Status::Optimal, Some(2), Some(5)),
        ];
        let c = combine(Query::Count { cap: None }, Some(true), &parts);
        assert_eq!(
            (c.status, c.count, c.objective),
            (Status::Optimal, Some(5), Some(5))
        );
        let o = combine(Query::Optimum, Some(false), &parts);
        assert_eq!((o.status, o.objective), (Status::Optimal, Some(4)));
    }

    #[test]
    fn combine_refutes_only_when_every_cube_is_refuted() {
        let no = part(Status::Infeasible, None, None);
        let open = part(Status::Unknown, None, None);
        assert_eq!(
            combine(Query::First, None, &[no.clone(), no.clone()]).status,
            Status::Infeasible
        );
        let c = combine(Query::First, None, &[no.clone(), open]);
        assert_eq!(c.status, Status::Unknown);
        assert_eq!(c.unanswered, vec!["Unknown".to_string()]);
        let yes = part(Status::Solved, None, None);
        assert_eq!(
            combine(Query::First, None, &[no, yes]).status,
            Status::Solved
        );
    }

    #[test]
    fn combine_uniqueness_adds_up_across_cubes() {
        let mut one = part(Status::Solved, None, None);
        one.unique = Some(true);
        let no = part(Status::Infeasible, None, None);
        let c = combine(Query::Unique, None, &[one.clone(), no.clone()]);
        assert_eq!((c.status, c.unique), (Status::Solved, Some(true)));
        let c = combine(Query::Unique, None, &[one.clone(), one]);
        assert_eq!(c.unique, Some(false));
        let c = combine(Query::Unique, None, &[no.clone(), no]);
        assert_eq!((c.status, c.unique), (Status::Infeasible, None));
    }
}
