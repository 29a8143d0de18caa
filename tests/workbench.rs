//! The setter's workbench (one engine kept per board) against brute force: on small boards
//! every board (2^cells) is tried with the puzzle's verifier, and after each of a random
//! sequence of edits the workbench's answer must be what the boards say: no, one or several
//! solutions; the cells every solution shares; the clues whose removal alone keeps one.

use quandary::puzzles::battleship::{formats, verify, Grid, Layout, Symbol};
use quandary::runner::Limits;
use quandary::verbs::battleship::setting::Workbench;
use std::collections::BTreeSet;

/// Every layout of the fleet that meets the counts (no clues), as the symbol of each cell.
fn layouts(p: &Grid) -> Vec<Vec<Symbol>> {
    let n = p.rows * p.cols;
    assert!(n <= 20, "brute force over 2^{n} boards");
    let bare = p.with_clues(vec![None; n]);
    (0..1u32 << n)
        .filter_map(|b| {
            let occupied: Vec<bool> = (0..n).map(|c| b >> c & 1 == 1).collect();
            verify::verify(&bare, &occupied)
                .ok()
                .map(|_| Layout::from_occupancy(p.rows, p.cols, &occupied).symbols())
        })
        .collect()
}

fn meets(w: &[Symbol], clues: &[Option<Symbol>], except: Option<usize>) -> bool {
    clues
        .iter()
        .enumerate()
        .all(|(c, s)| Some(c) == except || s.is_none_or(|s| w[c] == s))
}

/// A small deterministic generator (the test's own).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Cells (row, col from 1) of a JSON list in the report's details.
fn cells(v: &serde_json::Value, cols: usize) -> BTreeSet<usize> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| {
                    let r = x["row"].as_u64().unwrap() as usize - 1;
                    let c = x["col"].as_u64().unwrap() as usize - 1;
                    r * cols + c
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Runs `edits` random edits on the board of `text`: each clears a cell or sets a clue,
/// mostly one of a layout the setter works towards (so that unique puzzles come up), and
/// compares every answer with the boards.
fn edits(text: &str, edits: usize, seed: u64) -> [usize; 3] {
    let (_, p) = formats::parse(text, None).expect("a puzzle");
    let all = layouts(&p);
    assert!(all.len() > 1, "a board with a choice of layouts");
    let n = p.rows * p.cols;
    let mut rng = Lcg(seed);
    let mut bench = Workbench::new();
    let mut clues: Vec<Option<Symbol>> = p.clues.clone();
    let mut seen = [0; 3];
    // The layout the setter works towards; now and then a clue of another, or any symbol.
    let goal = rng.below(all.len());
    let mut conflict: Vec<usize> = Vec::new();
    for e in 0..edits {
        // After a conflict the setter takes back one of the clues it names.
        if !conflict.is_empty() {
            clues[conflict[rng.below(conflict.len())]] = None;
        }
        let c = rng.below(n);
        clues[c] = match rng.below(10) {
            0..=2 => None,
            3 => Some(Symbol::CLUES[rng.below(7)]),
            4 => Some(all[rng.below(all.len())][c]),
            _ => Some(all[goal][c]),
        };
        let q = p.with_clues(clues.clone());
        let r = bench.check(&q, &Limits::none()).expect("answered");
        let d = r.details.clone().expect("details");
        let fits: Vec<&Vec<Symbol>> = all.iter().filter(|w| meets(w, &clues, None)).collect();
        let at = format!("edit {e} (seed {seed}): {clues:?}");
        match fits.len() {
            0 => {
                seen[0] += 1;
                assert_eq!(r.status.word(), "infeasible", "{at}");
                // The clues the refutation names admit no layout on their own.
                let named = cells(&d["conflict"], p.cols);
                let only: Vec<Option<Symbol>> = (0..n)
                    .map(|c| named.contains(&c).then(|| clues[c]).flatten())
                    .collect();
                assert!(!all.iter().any(|w| meets(w, &only, None)), "{at}");
                conflict = named.into_iter().collect();
            }
            1 => {
                conflict.clear();
                seen[1] += 1;
                assert_eq!(r.unique, Some(true), "{at}");
                let spare: BTreeSet<usize> = (0..n)
                    .filter(|&k| clues[k].is_some())
                    .filter(|&k| all.iter().filter(|w| meets(w, &clues, Some(k))).count() == 1)
                    .collect();
                assert_eq!(cells(&d["redundant"], p.cols), spare, "{at}");
                assert_eq!(d["clues_checked"], d["clues"], "{at}");
            }
            _ => {
                conflict.clear();
                seen[2] += 1;
                assert_eq!(r.unique, Some(false), "{at}");
            }
        }
        if !fits.is_empty() {
            // Forced: the cells where every layout that fits agrees, with its value.
            let forced: BTreeSet<(usize, bool)> = (0..n)
                .filter(|&c| fits.iter().all(|w| w[c].is_ship() == fits[0][c].is_ship()))
                .map(|c| (c, fits[0][c].is_ship()))
                .collect();
            let got: BTreeSet<(usize, bool)> = d["forced"]
                .as_array()
                .expect("forced cells")
                .iter()
                .map(|x| {
                    let r = x["row"].as_u64().unwrap() as usize - 1;
                    let c = x["col"].as_u64().unwrap() as usize - 1;
                    (r * p.cols + c, x["ship"].as_bool().unwrap())
                })
                .collect();
            assert_eq!(got, forced, "{at}");
            assert_eq!(d["forced_open"], 0, "{at}");
        }
    }
    seen
}

#[test]
fn every_answer_of_a_run_of_edits_is_what_the_boards_say() {
    // Counts given, and counts partly unknown.
    let full = "size 4 5\nfleet 2 1 1\nrows 2 1 3 1\ncols 2 0 2 0 3\ngrid\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n";
    let part = "size 4 5\nfleet 2 1 1\nrows 2 ? 3 ?\ncols ? ? 2 ? ?\ngrid\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n";
    let none = "size 4 5\nfleet 2 1 1\nrows ? ? ? ?\ncols ? ? ? ? ?\ngrid\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n";
    let mut seen = [0; 3];
    for (text, seed) in [(full, 1), (part, 2), (part, 3), (none, 4), (none, 5)] {
        let s = edits(text, 80, seed);
        for k in 0..3 {
            seen[k] += s[k];
        }
    }
    // The edits reached every kind of answer.
    assert!(
        seen.iter().all(|&k| k > 0),
        "none, unique, several: {seen:?}"
    );
}

#[test]
fn a_board_of_another_shape_gets_its_own_engine() {
    let a = "size 4 5\nfleet 2 1 1\nrows 2 1 3 1\ncols 2 0 2 0 3\ngrid\no . . . .\n. . . . .\n. . . . .\n. . . . .\n";
    let b = "size 4 5\nfleet 2 1 1\nrows 2 2 1 2\ncols 2 1 1 0 3\ngrid\n. . . . .\n. . o . .\n. . . . .\n. . . . .\n";
    let mut bench = Workbench::new();
    for text in [a, b, a] {
        let r = bench.check_text(text, &Limits::none()).expect("answered");
        assert_eq!(r.unique, Some(true), "{text}");
        // A change of counts builds again (no answer from the other board's engine).
        assert!(r.details.as_ref().unwrap()["built"].as_u64().unwrap() >= 1);
    }
}
