//! The explaining engine's shrink and the re-check, on a small Battleship puzzle.

use super::engine::{Engine, Rows};
use super::recheck::{recheck, Checker};
use super::*;
use crate::model::Var;
use crate::puzzles::battleship::{formats, BattleshipPuzzle};
use crate::solve::reasons::{Found, Shrunk};
use crate::solve::search::Step as Solve;

const NO_CLUES: &str = "size 4 5\nfleet 2 1 1\nrows 2 1 3 1\ncols 2 2 1 0 2\ngrid\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n";

/// On the puzzle with no clues: an explaining engine holding the rows as `rows` says, a
/// checker, the decisions, every element, and a solution.
fn engines(
    rows: Rows,
) -> (
    Engine<'static>,
    Checker<'static>,
    Vec<Var>,
    Vec<usize>,
    Vec<bool>,
) {
    // The engines borrow the puzzle; a test's engines may keep it to the end.
    let grid = Box::leak(Box::new(formats::parse(NO_CLUES, None).expect("puzzle").1));
    let options = Box::leak(Box::default());
    let query = Query::Explain(Reasons::Levels);
    let engine = |rows, config| {
        let mut f = BattleshipPuzzle::formulate(grid, options, query).expect("model");
        Engine::new(&mut f, None, None, config, rows)
    };
    let mut explaining = engine(rows, "explain");
    let checker = Checker {
        refuter: engine(Rows::Encoded, "assumptions"),
        finder: engine(Rows::Counted, "assumptions"),
    };
    let f = BattleshipPuzzle::formulate(grid, options, query).expect("model");
    let all: Vec<usize> = (0..explaining.lits.len()).collect();
    let Solve::Found(a) = explaining.solve(&all, None) else {
        panic!("the puzzle has a solution");
    };
    (explaining, checker, f.decisions, all, a)
}

#[test]
fn the_recheck_passes_a_minimal_reason_and_rejects_a_wrong_one() {
    let (mut explaining, mut checker, decisions, all, a) = engines(Rows::Encoded);
    let v = decisions[0];
    let l = if a[v.index()] { v.pos() } else { v.negated() };
    // A subset-minimal reason for the first cell passes.
    let Found::Reason(reason) = explaining.minimal_reason(&all, Some(l)) else {
        panic!("the puzzle is unique: every cell is forced");
    };
    assert_eq!(recheck(&mut checker, &reason, &[l], l, &[], &[]), Ok(()));
    // With the shrink's own counter-assignments as hints, the rows accept each of them
    // and the finder is not asked at all.
    let hints = std::mem::take(&mut explaining.witnesses);
    assert!(reason.iter().all(|x| hints.iter().any(|(y, _)| y == x)));
    let asked = checker.finder.search.stats.solver_calls;
    assert_eq!(recheck(&mut checker, &reason, &[l], l, &hints, &[]), Ok(()));
    assert_eq!(checker.finder.search.stats.solver_calls, asked);
    // Every element forces the cell, but not every one is needed.
    let why = recheck(&mut checker, &all, &[l], l, &[], &[]).expect_err("not minimal");
    assert!(why.contains("is not needed"), "{why}");
    // A hint does not make it so: a solution (where the cell keeps its value) offered
    // for every element is turned down by the rows, and the finder finds none.
    let false_hints: Vec<(usize, Vec<bool>)> = all.iter().map(|&x| (x, a.clone())).collect();
    let why = recheck(&mut checker, &all, &[l], l, &false_hints, &[]).expect_err("not minimal");
    assert!(why.contains("is not needed"), "{why}");
    // Nor the solution with the cell flipped (the cell fails, but its row's count
    // breaks).
    let mut flipped = a.clone();
    flipped[v.index()] = !flipped[v.index()];
    let false_hints: Vec<(usize, Vec<bool>)> = all.iter().map(|&x| (x, flipped.clone())).collect();
    let why = recheck(&mut checker, &all, &[l], l, &false_hints, &[]).expect_err("not minimal");
    assert!(why.contains("is not needed"), "{why}");
    // Nothing forces nothing.
    let why = recheck(&mut checker, &[], &[l], l, &[], &[]).expect_err("no reason");
    assert!(why.contains("does not force"), "{why}");
    // The reason does not force the cell's other value.
    let why = recheck(&mut checker, &reason, &[l, !l], l, &[], &[]).expect_err("both values");
    assert!(why.contains("does not force"), "{why}");
}

#[test]
fn a_shrink_stopped_by_its_budget_resumes_to_a_minimal_reason() {
    let (mut explaining, mut checker, decisions, all, a) = engines(Rows::Counted);
    let mut stops = 0;
    for &v in &decisions {
        let l = if a[v.index()] { v.pos() } else { v.negated() };
        let Found::Reason(mut core) = explaining.core_of(&all, Some(l)) else {
            panic!("the puzzle is unique: every cell is forced");
        };
        // From no conflict at all upwards, each shrink starting where the last stopped.
        let (mut budget, mut start) = (0, 0);
        let reason = loop {
            match explaining.shrink(core.clone(), Some(l), Some(budget), start, None) {
                Shrunk::Minimal(r) => break r,
                Shrunk::Hard(part, proved) => {
                    assert!(proved >= start && proved <= part.len());
                    (core, start) = (part, proved);
                    stops += 1;
                    budget = budget * 2 + 1;
                }
                Shrunk::Stopped(_) => panic!("no time limit was set"),
            }
        };
        assert_eq!(recheck(&mut checker, &reason, &[l], l, &[], &[]), Ok(()));
    }
    // The budgets did stop some shrinks, so the resumption was exercised.
    assert!(stops > 0);
}

/// What a shrink says while it runs: each trial reports what is left of the core and how
/// much of it is proved needed, after the text it was given.
#[test]
fn a_shrink_reports_what_is_left_at_each_trial() {
    struct Kept(std::sync::Mutex<Vec<String>>);
    impl crate::guard::progress::Progress for Kept {
        fn phase(&self, _: &str) {}
        fn message(&self, text: &str) {
            self.0.lock().expect("not poisoned").push(text.to_string());
        }
        fn finish(&self) {}
    }
    let (mut explaining, _, decisions, all, a) = engines(Rows::Counted);
    let v = decisions[0];
    let l = if a[v.index()] { v.pos() } else { v.negated() };
    let Found::Reason(core) = explaining.core_of(&all, Some(l)) else {
        panic!("the puzzle is unique: every cell is forced");
    };
    let kept = Arc::new(Kept(Default::default()));
    let bounds = crate::guard::Bounds {
        progress: Some(kept.clone()),
        ..Default::default()
    };
    let text = "3 steps; shrinking a reason for (1,1) (counting engine)";
    let shrunk = crate::guard::guarded(&bounds, || {
        explaining.shrink(core.clone(), Some(l), None, 0, Some(text))
    });
    let Ok(Shrunk::Minimal(reason)) = shrunk else {
        panic!("no limit was set");
    };
    let said = kept.0.lock().expect("not poisoned").clone();
    assert_eq!(
        said[0],
        format!("{text}: {} elements left, 0 needed", core.len())
    );
    // One message a trial: at least one for each element the reason keeps.
    assert!(said.len() >= reason.len(), "{said:?}");
    // What is left only shrinks, and never below the reason; what is needed only grows.
    let counts: Vec<(usize, usize)> = said
        .iter()
        .map(|m| {
            let rest = m.strip_prefix(text).expect("the text first");
            let words: Vec<&str> = rest.split_whitespace().collect();
            assert_eq!(
                [words[0], words[2], words[3], words[5]],
                [":", "elements", "left,", "needed"]
            );
            (
                words[1].parse().expect("left"),
                words[4].parse().expect("needed"),
            )
        })
        .collect();
    assert!(counts
        .windows(2)
        .all(|w| w[1].0 <= w[0].0 && w[1].1 >= w[0].1));
    assert!(counts
        .iter()
        .all(|&(left, needed)| left >= reason.len() && needed < left));
    // Without a text, nothing is said.
    let shrunk = crate::guard::guarded(&bounds, || {
        explaining.shrink(core.clone(), Some(l), None, 0, None)
    });
    assert!(matches!(shrunk, Ok(Shrunk::Minimal(_))));
    assert_eq!(kept.0.lock().expect("not poisoned").len(), said.len());
}
