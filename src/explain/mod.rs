//! Explanations: a solution as a chain of small deductions (the `explain` query), written once
//! for every puzzle over the reason groups its formulation labels ([`crate::model::Group`]).
//!
//! Each group of rows (a clue, a count, a local rule) gets a selector variable; its rows hold
//! only where the selector is assumed true ([`Backend::add_guarded`]). Rows of no group define
//! auxiliary variables and always hold. An earlier conclusion is cited as the decision literal
//! itself. A step's reason is a set of these elements that, with the conclusion negated, is
//! unsatisfiable:
//!
//! 1. for every decision not yet concluded, the engine's failed assumptions give a core
//!    (`Search::core`; the shrink is [`crate::solve::reasons`], shared with Battleship's setter), which deletion shrinks to a subset-minimal one, trying to drop the
//!    dearest elements first (a minimal unsatisfiable subset, MUS);
//! 2. the cheapest of these is the step; for it, where the pool of elements is small enough,
//!    implicit hitting sets find the cheapest reason of all (an optimal unsatisfiable subset),
//!    and the step says which it has (`minimal`: `subset` or `smallest`);
//! 3. the step concludes every decision its reason forces, not only the one it was found for;
//! 4. before it is kept, two more engines, each built from a formulation of its own and
//!    sharing nothing with the first, re-check it: the reason forces each conclusion (one
//!    refutation each, on the one with every row in clauses) and every element of it is needed
//!    (dropping it admits an assignment, found by the one that counts and then checked row by
//!    row against the model, where some conclusion fails).
//!
//! A decision's cached reason stays a valid, minimal reason for the rest of the run (reasons
//! name their earlier conclusions explicitly); only the decisions near a new conclusion (sharing
//! a group with it) are looked at again, as only there can a cheaper reason have appeared.
//!
//! Where the puzzle has several solutions the sequence stops when nothing more is forced, and
//! says so (`complete` false). Where it has an objective, the optimum (proved by the runner
//! first, which then calls [`explain`]) is one more given.
//!
//! The room sits between the puzzles and the runner: it calls the puzzle's formulation and the
//! engines, never the runner.

pub mod answer;
mod engine;
pub mod pictures;
mod pools;
mod recheck;
mod sequence;
#[cfg(test)]
mod tests;
pub mod words;

pub use answer::{Cited, Difficulty, Explained, Explanation, Forced, Minimal, Step, StepBoard};
pub use engine::cost;
pub use pictures::pictures;
pub use words::{conclusion, place_text, reason_text, says, text};

use crate::error::{Error, Result};
use crate::puzzles::{Formulated, Puzzle, Query, Reasons};
use crate::solve::search::Status;
use engine::Rows;
use sequence::{Job, Setup};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The formulation `explain` reasons on, checked: it names reason groups and takes no
/// restriction. The runner reads its goal (to prove the optimum first) and hands it to
/// [`explain`].
pub fn prepare<'a, P: Puzzle>(
    instance: &'a P::Instance,
    options: &P::Options,
    query: Query,
) -> Result<Formulated<'a, P::Solution>> {
    let f = P::formulate(instance, options, query)?;
    if let Some(scope) = &f.scope {
        return Err(Error::input(format!(
            "explain reasons about every {}: it does not take a restriction to {scope}",
            P::NOUN
        )));
    }
    if f.model.groups.is_empty() {
        return Err(Error::input(format!(
            "explain: this formulation of {} names no reason groups; use the default formulation",
            P::TITLE
        )));
    }
    Ok(f)
}

/// Explains `instance` on `f`, its formulation from [`prepare`]: `optimum` the proved
/// optimum in the puzzle's terms where it has a goal, `reasons` how reasons are looked for,
/// `deadline` the run's.
pub fn explain<'a, P: Puzzle>(
    f: Formulated<'a, P::Solution>,
    instance: &'a P::Instance,
    options: &P::Options,
    reasons: Reasons,
    optimum: Option<i64>,
    deadline: Option<Instant>,
) -> Result<Explained<P::Solution>> {
    let optimum = optimum.and_then(|v| {
        let words = format!("the optimum is {v} {}", P::GOAL_NAME);
        f.goal.as_ref().map(|g| (g.at_most_for(v), words))
    });
    let job = Job::<P> {
        instance,
        options,
        query: Query::Explain(reasons),
        optimum,
        deadline,
    };
    let steps = AtomicUsize::new(0);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let alone = match reasons {
        Reasons::Levels if cores >= 2 => None,
        Reasons::Counting => Some(Rows::Counted),
        _ => Some(Rows::Encoded),
    };
    match alone {
        Some(rows) => {
            let setup = Setup {
                plain: reasons == Reasons::Plain,
                rows,
                race: None,
                shown_steps: &steps,
            };
            sequence::run(f, &job, setup)
        }
        None => {
            drop(f);
            race(&job, &steps)
        }
    }
}

/// Two engines race, one with every row in clauses and one counting the "exactly" rows; the
/// first to finish its sequence stops the other. Which is faster differs from puzzle to
/// puzzle, and by much (docs/explain.md, "Two engines race").
fn race<P: Puzzle>(job: &Job<P>, steps: &AtomicUsize) -> Result<Explained<P::Solution>> {
    let done = Arc::new(AtomicBool::new(false));
    let ran = crate::guard::spread(2, &|i| {
        let setup = Setup {
            plain: false,
            rows: [Rows::Encoded, Rows::Counted][i],
            race: Some(&done),
            shown_steps: steps,
        };
        let f = P::formulate(job.instance, job.options, job.query)?;
        let x = sequence::run(f, job, setup);
        // A finished sequence (or a failure) ends the race; one stopped by the other does not.
        if x.as_ref().map_or(true, |x| x.status != Status::Unknown) {
            done.store(true, Ordering::SeqCst);
        }
        x.map(|x| (x, Instant::now()))
    });
    let mut finished = Vec::new();
    let mut interrupt = None;
    for r in ran {
        match r {
            Ok(Ok(x)) => finished.push(x),
            Ok(Err(e)) => return Err(e),
            Err(why) => interrupt = Some(why),
        }
    }
    // The first finished; where none finished (a limit stopped both), the one that got
    // further.
    let best = finished
        .into_iter()
        .max_by_key(|(x, at)| {
            let steps = x.explanation.as_ref().map_or(0, |x| x.steps.len());
            (x.status != Status::Unknown, std::cmp::Reverse(*at), steps)
        })
        .map(|(x, _)| x);
    match (best, interrupt) {
        (Some(x), _) => Ok(x),
        (None, Some(why)) => crate::guard::raise(why),
        (None, None) => Err(Error::Internal("explain: no engine answered".into())),
    }
}
