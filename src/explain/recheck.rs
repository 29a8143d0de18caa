//! The re-check of each step on two engines of its own, sharing nothing with the engine that
//! found the step: the reason forces every conclusion, and each of its elements is needed.

use super::engine::Engine;
use crate::model::{Lit, Var};
use crate::puzzles::Meaning;
use crate::solve::search::Step as Solve;
use crate::solve::Backend;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The engines that re-check each step, sharing nothing with the one that explains.
pub(super) struct Checker<'a> {
    /// Proves that a reason forces its conclusions (every row in clauses).
    pub(super) refuter: Engine<'a>,
    /// Finds an assignment without each element where a conclusion fails (counting).
    pub(super) finder: Engine<'a>,
}

impl Checker<'_> {
    /// Adds a conclusion as an element on both engines.
    pub(super) fn conclude(&mut self, lit: Lit, meaning: &Meaning) {
        self.refuter.conclude(lit, meaning);
        self.finder.conclude(lit, meaning);
    }

    /// Makes both engines stop as soon as `flag` is raised.
    pub(super) fn stop_on(&mut self, flag: &Arc<AtomicBool>) {
        self.refuter.search.backend.stop_on(flag.clone());
        self.finder.search.backend.stop_on(flag.clone());
    }
}

/// The re-check of a step on engines of its own: `reason` forces every literal of `derived`
/// (on the refuter; those of `refuted` it has refuted already, when they were found), and
/// without any one of its elements some literal of `derived` fails in an assignment that
/// the model's rows (read directly) accept: the explaining engine's own from `hints` where
/// it passes, else one the finder finds. `first` is the decision the reason was found for.
pub(super) fn recheck(
    checker: &mut Checker,
    reason: &[usize],
    derived: &[Lit],
    first: Lit,
    hints: &[(usize, Vec<bool>)],
    refuted: &[Lit],
) -> std::result::Result<(), String> {
    for &l in derived.iter().filter(|l| !refuted.contains(l)) {
        match checker.refuter.solve(reason, Some(l)) {
            Solve::Exhausted => {}
            Solve::Stopped => return Err("stopped".into()),
            Solve::Found(_) => return Err(format!("the reason does not force {l:?}")),
        }
    }
    for (i, &x) in reason.iter().enumerate() {
        let rest: Vec<usize> = reason
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &y)| y)
            .collect();
        let hint = hints.iter().find(|(y, _)| *y == x);
        // The explaining engine's own counter-assignment, where it has one, settles it when
        // the model's rows (read directly, no solver) accept it: an assignment of the rest
        // where a conclusion fails is all this check asks for, whoever found it.
        if let Some((_, a)) = hint {
            if checker.finder.satisfies(&rest, a) && derived.iter().any(|l| !l.value(a)) {
                continue;
            }
        }
        let needed = needed_without(&mut checker.finder, &rest, derived, first, hint)?;
        if !needed {
            return Err(format!(
                "'{}' is not needed: the rest forces the conclusion",
                checker.finder.cited[x].text
            ));
        }
    }
    Ok(())
}

/// Whether, without one element (`rest` the others), some literal of `derived` fails in an
/// assignment the model's rows accept, found by the finder; `hint` (the explaining engine's
/// own counter-assignment) sets its phases and the order conclusions are tried in.
fn needed_without(
    finder: &mut Engine,
    rest: &[usize],
    derived: &[Lit],
    first: Lit,
    hint: Option<&(usize, Vec<bool>)>,
) -> std::result::Result<bool, String> {
    // The conclusions the hint breaks are tried first (with no hint, the step's own
    // decision, the first): most others still follow without x.
    let mut order: Vec<Lit> = derived.to_vec();
    match hint {
        Some((_, a)) => order.sort_by_key(|l| l.value(a)),
        None => {
            if let Some(p) = order.iter().position(|&l| l == first) {
                order[..=p].rotate_right(1);
            }
        }
    }
    if let Some((_, a)) = hint {
        let phases: Vec<Lit> = a
            .iter()
            .enumerate()
            .map(|(v, &b)| {
                let var = Var(v as u32);
                if b {
                    var.pos()
                } else {
                    var.negated()
                }
            })
            .collect();
        finder.search.backend.prefer(&phases);
    }
    for &l in &order {
        match finder.solve(rest, Some(l)) {
            Solve::Exhausted => continue,
            Solve::Stopped => return Err("stopped".into()),
            Solve::Found(a) => {
                if !finder.satisfies(rest, &a) {
                    return Err("a counter-assignment breaks the rows it should keep".into());
                }
                if l.value(&a) {
                    return Err("a counter-assignment keeps the conclusion".into());
                }
                return Ok(true);
            }
        }
    }
    Ok(false)
}
