//! The runner: any [`Query`] for any [`Puzzle`], under one deadline, with every solution
//! verified, answered as one [`Outcome`].
//!
//! Order of work: for the finding queries and uniqueness, the puzzle's restricted phases
//! first (symmetric subspaces, a window of the board, each with a share of the time: cheap,
//! and a solution found there is a solution), which may contribute a solution (or two: not
//! unique) but never a refutation or a count; then its
//! exact method if it answers the query; else the full model on the SAT backend.
//!
//! ```
//! use quandary::puzzles::tank::TankAttack;
//! use quandary::puzzles::{Files, Puzzle};
//! use quandary::runner::{run, Limits, Query};
//! use quandary::solve::search::Status;
//!
//! let options = Default::default();
//! let instance = TankAttack::read(&["5".to_string()], &options, Files::Disk).unwrap();
//! let outcome = run::<TankAttack>(&instance, &options, Query::Count { cap: None }, &Limits::none()).unwrap();
//! assert_eq!((outcome.status, outcome.count), (Status::Solved, Some(2)));
//! ```

pub mod answer;
pub mod batch;
pub mod cubes;
mod drive;
pub mod forced;
pub mod opened;
pub mod registry;
pub mod report;

use crate::error::{Error, Result};
use crate::guard::{self, Interrupt};
use crate::puzzles::{Exact, Purpose, Puzzle};
use crate::solve::search::Status;
use std::time::Instant;

pub use crate::puzzles::{Meaning, Place, Query, Reasons};
pub use crate::solve::limits::{bounded, too_large, Limits};
pub use answer::{Facts, Forced, ForcedSet, InScope, Judged, Outcome, Stats};
pub use drive::drive;
use drive::{rejected_error, restrict_to_scope, without_goal};

/// Answers `query` for one instance: restricted phases (finding and uniqueness), exact method, full
/// model, in that order; verifies every solution (an answer the verifier rejects is an
/// [`Error::Internal`]).
pub fn run<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    query: Query,
    limits: &Limits,
) -> Result<Outcome<P::Solution>> {
    // A recorded run ([`crate::solve::proof`]) certifies SAT refutations: it goes straight to the
    // full model, on one engine. So does a run on the MIP backend, whose point is what the
    // MIP solver makes of the model itself.
    if let Query::Explain(reasons) = query {
        let outcome = match stage(query, limits, "explaining", || {
            explained::<P>(instance, options, reasons, limits)
        })? {
            Err(stopped) => stopped,
            Ok(answered) => answered?,
        };
        return verified::<P>(instance, outcome, limits);
    }
    let model_only = limits.recorder.is_some() || limits.engine == crate::solve::Engine::Highs;
    let (found, tried) = if model_only {
        (None, Vec::new())
    } else {
        by_phases::<P>(instance, options, query, limits)?
    };
    let mut outcome = match found {
        Some(found) => found,
        None if limits.expired() => stopped(
            query,
            stopped_by(limits).unwrap_or(BY_DEADLINE),
            "the restricted searches tried first",
        ),
        None => match stage(query, limits, "the exact method", || {
            if model_only {
                return None;
            }
            let exact = P::exact(instance, options, query, limits)?;
            Some(exact.and_then(|e| with_forced::<P>(instance, options, query, e)))
        })? {
            Err(stopped) => stopped,
            Ok(Some(exact)) => exact?,
            Ok(None) => match stage(query, limits, "building and solving the model", || {
                by_model::<P>(instance, options, query, limits)
            })? {
                Err(stopped) => stopped,
                Ok(answered) => answered?,
            },
        },
    };
    if outcome.stats.phases.is_empty() {
        outcome.stats.phases = tried;
    }
    let mut outcome = verified::<P>(instance, outcome, limits)?;
    if query == Query::Unique && outcome.unique == Some(true) && P::rated(options) {
        let rating = rate::<P>(instance, options, limits)?;
        let details = outcome
            .facts
            .details
            .get_or_insert_with(|| serde_json::json!({}));
        details["difficulty"] = serde_json::to_value(rating).unwrap_or_default();
        outcome.stats.seconds = limits.seconds();
    }
    Ok(outcome)
}

/// `explain` ([`crate::explain`]): where the puzzle has a goal, the optimum proved first (by
/// [`run`]), then the steps.
fn explained<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    reasons: Reasons,
    limits: &Limits,
) -> Result<Outcome<P::Solution>> {
    let query = Query::Explain(reasons);
    let f = crate::explain::prepare::<P>(instance, options, query)?;
    let optimum = match f.goal {
        None => None,
        Some(_) => {
            let o = run::<P>(instance, options, Query::Optimum, limits)?;
            match (o.status, o.objective) {
                (Status::Optimal, Some(v)) => Some(v),
                (Status::Infeasible, _) => return Ok(Outcome::new(query, Status::Infeasible)),
                _ => return Ok(Outcome::new(query, Status::Unknown)),
            }
        }
    };
    let x = crate::explain::explain::<P>(f, instance, options, reasons, optimum, limits.deadline)?;
    let mut outcome = Outcome::new(query, x.status);
    outcome.solutions.extend(x.solution);
    outcome.explanation = x.explanation;
    if !x.method.is_empty() {
        outcome.stats.method = x.method;
        outcome.stats.model = x.model;
        outcome.stats.solver_calls = Some(x.solver_calls);
    }
    Ok(outcome)
}

/// A unique instance's difficulty by its explanation on one engine ([`Reasons::Alone`], the
/// same every run), or why there is none: `None` when a limit stopped the explanation first.
pub fn rate<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    limits: &Limits,
) -> Result<Option<crate::explain::Difficulty>> {
    let o = run::<P>(instance, options, Query::Explain(Reasons::Alone), limits)?;
    Ok(match (&o.facts.explanation, o.facts.status) {
        (Some(x), Status::Solved) if x.complete => Some(x.difficulty),
        _ => None,
    })
}

/// Answers `query` inside one cube of a split question (cube-and-conquer, see
/// [`cubes`]): the full model with the cube's decisions fixed, and no restricted
/// phases or exact method (neither knows about cubes). The answer holds in the cube only: it
/// is reported in `in_scope`, with the cube and what combining needs in `cube`.
pub fn run_cube<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    query: Query,
    limits: &Limits,
    cube: &[i64],
) -> Result<Outcome<P::Solution>> {
    if matches!(query, Query::Forced | Query::Explain(_)) {
        return Err(Error::input(format!(
            "--cube applies to solve, count, unique, optimum and reach, not to {}",
            query.verb()
        )));
    }
    let mut facts = None;
    let work = || -> Result<Outcome<P::Solution>> {
        let mut f = P::formulate(instance, options, query)?;
        let n = f.decisions.len();
        if let Some(l) = cube.iter().find(|l| l.unsigned_abs() as usize > n) {
            return Err(Error::input(format!(
                "--cube: decision {} does not exist; this formulation has {n} decisions",
                l.abs()
            )));
        }
        for &l in cube {
            let var = f.decisions[l.unsigned_abs() as usize - 1];
            f.model.add(
                "cube",
                vec![(1, var.pos())],
                crate::model::Sense::Eq,
                i64::from(l > 0),
            );
        }
        let within = f.scope.take();
        let this = describe(cube);
        f.scope = Some(match &within {
            Some(s) => format!("{this} of {s}"),
            None => this,
        });
        facts = Some(cubes::CubeFacts {
            literals: cube.to_vec(),
            decisions: n,
            maximise: f.goal.as_ref().map(|g| g.maximise),
            within,
        });
        f.check = Some(Box::new(|s| P::verify(instance, s).map_err(|b| b.why)));
        drive(f, query, limits, false)
    };
    let mut outcome = match stage(query, limits, "building and solving the model", work)? {
        Err(stopped) => stopped,
        Ok(answered) => answered?,
    };
    if outcome.scope.is_none() {
        // Stopped before the model was built: still an answer about the cube only.
        outcome.scope = Some(describe(cube));
    }
    outcome.facts.cube = facts.or_else(|| {
        Some(cubes::CubeFacts {
            literals: cube.to_vec(),
            decisions: 0,
            maximise: None,
            within: None,
        })
    });
    verified::<P>(instance, outcome, limits)
}

/// A cube in a scope's words.
fn describe(cube: &[i64]) -> String {
    match cube {
        [] => "the cube of the whole space".into(),
        _ => format!("the cube {}", cubes::show(cube)),
    }
}

/// The outcome with its time, and every solution checked by the puzzle's verifier (the
/// first one's summary kept): a solution it rejects is an [`Error::Internal`].
fn verified<P: Puzzle>(
    instance: &P::Instance,
    mut outcome: Outcome<P::Solution>,
    limits: &Limits,
) -> Result<Outcome<P::Solution>> {
    outcome.stats.seconds = limits.seconds();
    limits.finish();
    note_what_stopped(&mut outcome, limits);
    for (k, s) in outcome.solutions.iter().enumerate() {
        match P::verify(instance, s) {
            Ok(summary) if k == 0 => outcome.facts.summary = Some(summary),
            Ok(_) => {}
            Err(why) => return Err(rejected_error(&outcome.facts.stats.method, &why)),
        }
    }
    Ok(outcome)
}

/// Runs one stage of a run under its deadline and the memory limit ([`guard::guarded`]). A
/// stage stopped by the deadline answers "unknown", naming where it stopped; one stopped by
/// memory is an error naming the estimate and the limit.
fn stage<S, R>(
    query: Query,
    limits: &Limits,
    what: &str,
    work: impl FnOnce() -> R,
) -> Result<std::result::Result<R, Outcome<S>>> {
    limits.phase(what);
    match guard::guarded(&limits.bounds(), work) {
        Ok(r) => Ok(Ok(r)),
        Err(Interrupt::Deadline) => Ok(Err(stopped(query, BY_DEADLINE, what))),
        Err(Interrupt::Cancelled) => Ok(Err(stopped(query, BY_REQUEST, what))),
        Err(Interrupt::Memory { estimate, limit }) => Err(too_large(estimate, limit)),
        Err(Interrupt::Resident { resident, limit }) => {
            Err(crate::solve::limits::too_large_resident(resident, limit))
        }
    }
}

/// Records in `stats.stopped_by` what stopped a run that ended "unknown" (the time limit or a
/// stop request), for every verb's headline and JSON: the runner's own, and the own verbs that
/// drive a formulation themselves (`chess peaceable`).
pub fn note_what_stopped<S>(outcome: &mut Outcome<S>, limits: &Limits) {
    // A part of the space searched to its end is "unknown" for the whole space, but nothing
    // stopped it.
    let in_scope_unknown = outcome
        .in_scope
        .as_ref()
        .is_none_or(|s| s.status == Status::Unknown);
    if outcome.status == Status::Unknown && in_scope_unknown && outcome.stats.stopped_by.is_none() {
        outcome.stats.stopped_by = stopped_by(limits).map(String::from);
    }
}

/// What stopped a run that ended "unknown": a stop request if one came, else its time limit
/// if it has one (the engine stops a little before the deadline, so the clock alone does not
/// tell); `None` if neither (a budget of rounds).
fn stopped_by(limits: &Limits) -> Option<&'static str> {
    if limits.cancelled() {
        Some(BY_REQUEST)
    } else {
        limits.deadline.map(|_| BY_DEADLINE)
    }
}

/// What stopped a run, as its method and `stats.stopped_by` say it.
const BY_DEADLINE: &str = "the time limit";
const BY_REQUEST: &str = "a stop request";

/// The outcome of a run stopped (`by` the time limit or a stop request) in `what`, before
/// any answer.
fn stopped<S>(query: Query, by: &str, what: &str) -> Outcome<S> {
    let mut o = Outcome::new(query, Status::Unknown);
    o.stats.method = format!("stopped by {by} during {what}, before an answer");
    o.stats.stopped_by = Some(by.to_string());
    o
}

/// The outcome of an exact method; for `forced`, the decisions of the model's own
/// formulation read from the solutions the method met ([`crate::puzzles::Agreement`]), so
/// that the answer is the one the model's search gives. A method stopped before the end
/// proves nothing forced: every decision is then undecided.
fn with_forced<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    query: Query,
    mut e: Exact<P::Solution>,
) -> Result<Outcome<P::Solution>> {
    let agreement = e.agreement.take();
    let met = e.count;
    let mut o = from_exact(query, e);
    if let (Query::Forced, Some(agreement)) = (query, agreement) {
        if o.status == Status::Infeasible {
            return Ok(o);
        }
        // The agreement is folded over every solution the method met, and a complete method
        // met them all: how many is the count, which the page then need not search for.
        if o.status != Status::Unknown {
            o.count = Some(met);
        }
        // The report shows one board under the partial one, as the model's search does.
        o.solutions.truncate(1);
        let f = P::formulate(instance, options, query)?;
        let complete = o.status != Status::Unknown;
        let out: Vec<Forced> = f
            .meanings
            .iter()
            .filter_map(|m| {
                let value = agreement.forced(m).filter(|_| complete)?;
                Some(Forced {
                    meaning: m.clone(),
                    value,
                })
            })
            .collect();
        let undecided = if complete { 0 } else { f.meanings.len() };
        o.forced = Some(forced::set(&f.meanings, out, undecided));
    }
    Ok(o)
}

fn from_exact<S>(query: Query, e: Exact<S>) -> Outcome<S> {
    let mut o = Outcome::new(query, e.status);
    o.objective = e.objective;
    if e.status == Status::Optimal {
        o.bound = e.objective;
    }
    match query {
        Query::Count { .. } if e.status == Status::Unknown => o.count_at_least = Some(e.count),
        Query::Count { .. } => o.count = Some(e.count),
        Query::Unique if matches!(e.status, Status::Solved | Status::Optimal) => {
            o.unique = Some(e.count == 1)
        }
        _ => {}
    }
    o.solutions = e.solutions;
    o.details = e.details;
    o.stats.method = e.method;
    if let Some(scope) = e.scope {
        restrict_to_scope(&mut o, scope);
    }
    o
}

/// What the phases found (if one answered), and what each said.
type Phased<S> = (Option<Outcome<S>>, Vec<String>);

/// The restricted phases, for the finding queries and uniqueness: the outcome of the first
/// that answers.
fn by_phases<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    query: Query,
    limits: &Limits,
) -> Result<Phased<P::Solution>> {
    let mut tried = Vec::new();
    if Purpose::of(query) != Purpose::Find && query != Query::Unique {
        return Ok((None, tried));
    }
    for phase in P::phases(instance, options, query) {
        if limits.expired() {
            break;
        }
        let budget = match limits.remaining() {
            Some(r) => Some(r.mul_f64(phase.share.clamp(0.0, 1.0))),
            None => phase.unlimited,
        };
        let phase_limits = Limits {
            started: Instant::now(),
            ..limits.until(budget.and_then(|b| Instant::now().checked_add(b)))
        };
        let scope = phase.scope.clone();
        limits.phase(&format!("building the model for {scope}"));
        let build = phase.build;
        let attempt = guard::guarded(&phase_limits.bounds(), || {
            let mut f = build();
            f.check = Some(Box::new(|s| P::verify(instance, s).map_err(|b| b.why)));
            let method = f.method.clone();
            drive(f, query, &phase_limits, true).map(|o| (o, method))
        });
        // A phase stopped by its share of the time, or by memory, has no answer; the full
        // model is tried next (and meets the memory limit itself, if it must).
        let (mut o, method) = match attempt {
            Ok(done) => done?,
            Err(_) => {
                tried.push(format!("{scope}: stopped"));
                continue;
            }
        };
        let hit = match query {
            Query::Optimum => o.status == Status::Optimal,
            // Two solutions inside the restriction are two solutions: not unique. One is not
            // an answer (there may be others outside it).
            Query::Unique => o.solutions.len() > 1,
            _ => !o.solutions.is_empty(),
        };
        tried.push(format!(
            "{scope}: {}",
            if hit { "answered" } else { "no answer" }
        ));
        if hit {
            o.stats.method = format!("{method}, {scope} tried first");
            o.stats.phases = tried;
            return Ok((Some(o), Vec::new()));
        }
    }
    Ok((None, tried))
}

fn by_model<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    query: Query,
    limits: &Limits,
) -> Result<Outcome<P::Solution>> {
    let mut f = P::formulate(instance, options, query)?;
    if let Some(why) = without_goal(query, &f, P::GIVE_A_GOAL) {
        return Err(why);
    }
    f.check = Some(Box::new(|s| P::verify(instance, s).map_err(|b| b.why)));
    drive(f, query, limits, false)
}
