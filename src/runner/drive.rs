//! A query on one formulation: the engines it names built (CaDiCaL alone, a portfolio, or
//! HiGHS on the model itself), the search operations run in stages (a first solution, the
//! objective's bounds, enumeration, forced decisions), each solution checked as it comes, and
//! the answer reported as an [`Outcome`].

use super::answer::{Forced, ForcedSet, InScope};
use super::{forced, Limits, Outcome, Query};
use crate::error::{Error, Result};
use crate::model::Lit;
use crate::puzzles::Formulated;
use crate::solve::search::{Search, Status, Step};
use crate::solve::Backend;

/// The error of a question about the objective (`optimum`, `reach`) on a formulation with
/// none; `give` says how to give one (the puzzle's [`Puzzle::GIVE_A_GOAL`]).
pub(super) fn without_goal<S>(query: Query, f: &Formulated<'_, S>, give: &str) -> Option<Error> {
    let goal_needed = matches!(query, Query::Optimum | Query::AtLeast(_));
    (goal_needed && f.goal.is_none()).then(|| {
        Error::input(format!(
            "'{}' needs an objective, and this instance has none{}",
            query.verb(),
            if give.is_empty() {
                String::new()
            } else {
                format!(" ({give})")
            }
        ))
    })
}

/// Runs a query on one formulation with the engines it names.
pub fn drive<S>(
    f: Formulated<'_, S>,
    query: Query,
    limits: &Limits,
    as_phase: bool,
) -> Result<Outcome<S>> {
    if limits.expired() {
        // Out of time before the engine is built: encoding the model would only overrun.
        let mut o = Outcome::new(query, Status::Unknown);
        o.stats.method = f.method.clone();
        o.stats.model = Some(f.model.size());
        if let Some(scope) = f.scope.clone() {
            restrict_to_scope(&mut o, scope);
        }
        return Ok(o);
    }
    let recorder = limits.recorder.clone();
    if let Some(rec) = &recorder {
        crate::solve::proof::note_method(rec, &f.method);
    }
    if limits.engine == crate::solve::Engine::Highs {
        return on_highs(f, query, limits, as_phase);
    }
    let engines = f.engines.as_slice();
    match engines {
        [] => {
            let b = crate::solve::sat::SatBackend::recorded(&f.model, "default", recorder);
            on_backend(b, f, query, limits, as_phase)
        }
        [one] => {
            let b = crate::solve::sat::SatBackend::recorded(&f.model, one, recorder);
            on_backend(b, f, query, limits, as_phase)
        }
        many => {
            let b = crate::solve::portfolio::Portfolio::recorded(&f.model, many, recorder);
            on_backend(b, f, query, limits, as_phase)
        }
    }
}

/// The full model on HiGHS, with the LP relaxation's value in the statistics.
#[cfg(feature = "highs")]
fn on_highs<S>(
    mut f: Formulated<'_, S>,
    query: Query,
    limits: &Limits,
    as_phase: bool,
) -> Result<Outcome<S>> {
    let lp = f
        .model
        .objective
        .is_some()
        .then(|| crate::solve::highs::relax(&f.model, limits.deadline));
    f.method = match f.method.strip_prefix("SAT (CaDiCaL)") {
        Some(rest) => format!("MIP (HiGHS){rest}"),
        None => format!("MIP (HiGHS) on the model of: {}", f.method),
    };
    let b = crate::solve::highs::HighsBackend::new(&f.model);
    let goal = f
        .goal
        .as_ref()
        .map(|g| (g.per_unit, g.at_zero, g.model_maximises()));
    let mut o = on_backend(b, f, query, limits, as_phase)?;
    let (status, bound) = (o.status, o.bound);
    if let (Some(mip), Some((per_unit, at_zero, maximises))) = (o.stats.mip.as_mut(), goal) {
        // Rounded to 1e-6: HiGHS's floating point shows 17.999999999999996 for 18.
        let puzzle = |model_value: f64| {
            let v = (model_value - at_zero as f64) / per_unit as f64;
            (v * 1e6).round() / 1e6
        };
        let sign = if maximises { -1.0 } else { 1.0 };
        mip.best_bound = mip.best_bound.map(|b| puzzle(sign * b));
        mip.lp_bound = lp.and_then(|r| r.value).map(puzzle);
        if status == Status::Optimal {
            // Proved by the search as a whole (the last solve may be the refutation of a
            // better value, which has no bound of its own).
            mip.best_bound = bound.map(|b| b as f64);
            mip.gap = Some(0.0);
        }
    }
    Ok(o)
}

#[cfg(not(feature = "highs"))]
fn on_highs<S>(
    _f: Formulated<'_, S>,
    _query: Query,
    _limits: &Limits,
    _as_phase: bool,
) -> Result<Outcome<S>> {
    Err(Error::input(crate::solve::NO_HIGHS))
}

fn on_backend<S, B: Backend>(
    backend: B,
    mut f: Formulated<'_, S>,
    query: Query,
    limits: &Limits,
    as_phase: bool,
) -> Result<Outcome<S>> {
    let mut search = Search::new(backend, limits.deadline).with_progress(&f.method);
    if limits.recorder.is_some() {
        // The certificate covers the optimum itself, not a bound proved outside the model.
        search = search.proving_targets();
    }
    if let Some(cuts) = f.cuts.take() {
        search = search.with_cuts(cuts);
    }
    if let Some(make) = f.watcher.take() {
        search.backend.watch(&*make);
    }
    let o = Outcome::new(query, Status::Unknown);
    if let Some(why) = without_goal(query, &f, "") {
        return Err(why);
    }
    // From here the search watches the deadline and a stop request itself, and what it
    // found is kept and reported.
    crate::guard::answering(|| search_and_report(search, f, query, as_phase, o))
}

/// The search on a built engine, and its report (see [`on_backend`]).
fn search_and_report<S, B: Backend>(
    mut search: Search<'_, B>,
    f: Formulated<'_, S>,
    query: Query,
    as_phase: bool,
    mut o: Outcome<S>,
) -> Result<Outcome<S>> {
    let mut first = match objective_stage(&mut search, &f, query, as_phase, &mut o)? {
        Stage::Answered(first) => first,
        Stage::Enumerate(start) => enumeration_stage(&mut search, &f, query, start, &mut o)?,
    };
    if let Some(a) = first.take() {
        o.solutions.insert(0, (f.decode)(&a));
    }
    let stats = search.finish();
    o.stats.method = f.method.clone();
    o.stats.model = Some(f.model.size());
    o.stats.engine = Some(search.backend_size());
    o.stats.solver_calls = Some(stats.solver_calls);
    o.stats.mip = search.backend.mip_stats();
    o.stats.lazy_rounds = (stats.lazy_rounds > 0).then_some(stats.lazy_rounds);
    if let Some(scope) = f.scope.clone() {
        restrict_to_scope(&mut o, scope);
    }
    Ok(o)
}

/// Where the objective stage leaves a question.
enum Stage {
    /// Answered (or stopped): the status is in the outcome; the first solution, if any.
    Answered(Option<Vec<bool>>),
    /// Counting, uniqueness or forced cells go on, over the solutions these assumptions allow.
    Enumerate(Start),
}

/// What the enumeration stage starts from.
struct Start {
    /// Assumed in every solve: the optimum, where there is an objective.
    assumptions: Vec<Lit>,
    /// Whether the solutions enumerated are the optimal ones (proved).
    optimal: bool,
    /// A solution already found, if any.
    first: Option<Vec<bool>>,
}

/// The objective stage: the first solution, the optimum (with its proof) or a solution
/// reaching a value; for counting, uniqueness and forced cells where there is an objective,
/// the optimum first (the question is about the optimal solutions), then [`Stage::Enumerate`].
fn objective_stage<S, B: Backend>(
    search: &mut Search<'_, B>,
    f: &Formulated<'_, S>,
    query: Query,
    as_phase: bool,
    o: &mut Outcome<S>,
) -> Result<Stage> {
    let enumerating = matches!(query, Query::Count { .. } | Query::Unique | Query::Forced);
    let Some(goal) = &f.goal else {
        if matches!(query, Query::Count { .. } | Query::Unique) {
            return Ok(Stage::Enumerate(Start {
                assumptions: Vec::new(),
                optimal: false,
                first: None,
            }));
        }
        let (status, a) = search.first();
        o.status = status;
        return Ok(match (query, status) {
            (Query::Forced, Status::Solved) => Stage::Enumerate(Start {
                assumptions: Vec::new(),
                optimal: false,
                first: a,
            }),
            _ => Stage::Answered(a),
        });
    };
    let objective = f
        .model
        .objective
        .clone()
        .ok_or_else(|| Error::Internal("a formulation with a goal has no objective".into()))?;
    let model_value = |a: &[bool]| objective.value(a);
    let mut first = None;
    let mut assumptions = Vec::new();
    match query {
        Query::AtLeast(v) => match search.backend.objective_at_most(goal.at_most_for(v)) {
            None => o.status = Status::Infeasible,
            Some(lits) => match search.step(&lits) {
                Step::Found(a) => {
                    o.status = Status::Solved;
                    first = Some(a);
                }
                Step::Exhausted => o.status = Status::Infeasible,
                Step::Stopped => o.status = Status::Unknown,
            },
        },
        Query::First => {
            let (status, a) = search.first();
            o.status = status;
            first = a;
        }
        // A phase answers the optimum only by reaching a bound proved outside it.
        Query::Optimum if as_phase => {
            let probe = goal
                .proved_bound
                .and_then(|b| search.backend.objective_at_most(goal.at_most_for(b)));
            if let Some(lits) = probe {
                if let Step::Found(a) = search.step(&lits) {
                    o.status = Status::Optimal;
                    o.bound = goal.proved_bound;
                    first = Some(a);
                }
            }
        }
        _ => {
            let target = goal.proved_bound.map(|b| goal.model_value(b));
            let (status, best) = search.optimise(
                model_value,
                goal.model_maximises(),
                target,
                goal.step * goal.per_unit.abs(),
            );
            o.status = status;
            if let Some((v, a)) = best {
                if status == Status::Optimal {
                    o.bound = Some(goal.value(v));
                    assumptions = search
                        .backend
                        .objective_at_most(goal.at_most_for(goal.value(v)))
                        .unwrap_or_default();
                }
                first = Some(a);
            }
        }
    }
    if let Some(a) = &first {
        o.objective = Some(goal.value(model_value(a)));
    }
    if o.status == Status::Unknown && o.bound.is_none() {
        o.bound = goal.proved_bound;
    }
    Ok(match o.status {
        Status::Solved | Status::Optimal if enumerating => Stage::Enumerate(Start {
            assumptions,
            optimal: o.status == Status::Optimal,
            first,
        }),
        _ => Stage::Answered(first),
    })
}

/// The enumeration stage: count (stopped at its cap, if given), uniqueness (two
/// solutions at most) or forced cells over the solutions `start` allows; every solution met is
/// checked by the verifier. Returns the solution to report first.
fn enumeration_stage<S, B: Backend>(
    search: &mut Search<'_, B>,
    f: &Formulated<'_, S>,
    query: Query,
    start: Start,
    o: &mut Outcome<S>,
) -> Result<Option<Vec<bool>>> {
    let settled = if start.optimal {
        Status::Optimal
    } else {
        Status::Solved
    };
    let assumptions = start.assumptions;
    if query == Query::Forced {
        let a = start.first.expect("a solution before forced cells");
        let fs = forced(search, f, &assumptions, &a)?;
        o.status = if fs.undecided == 0 {
            settled
        } else {
            Status::Unknown
        };
        o.forced = Some(fs);
        return Ok(Some(a));
    }
    let limit = match query {
        Query::Unique => Some(2),
        Query::Count { cap } => cap,
        _ => None,
    };
    let mut kept: Vec<Vec<bool>> = Vec::new();
    let mut classes = std::collections::BTreeSet::new();
    let mut rejected: Option<String> = None;
    // With one solution kept a class: the solutions its classes stand for.
    let mut all: u128 = 0;
    let (decode, class_of, check) = (&f.decode, &f.classes, &f.check);
    let class_size = &f.class_size;
    let keep = |a: &[bool]| {
        if kept.len() < 2 {
            kept.push(a.to_vec());
        }
        if class_of.is_some() || check.is_some() || class_size.is_some() {
            let s = decode(a);
            if let Some(Err(why)) = check.as_ref().map(|c| c(&s)) {
                rejected = Some(why);
                return false;
            }
            if let Some(class_of) = class_of {
                classes.insert(class_of(&s));
            }
            if let Some(size) = class_size {
                all += size(&s);
            }
        }
        true
    };
    let (status, n) = if f.block_by_true_decisions {
        search.enumerate_positive(&f.decisions, &assumptions, limit, keep)
    } else {
        search.enumerate(&f.decisions, &assumptions, limit, keep)
    };
    if let Some(why) = rejected {
        return Err(rejected_error(&f.method, &why));
    }
    let n = n as u128;
    if f.class_size.is_some() && f.classes.is_some() && classes.len() as u128 != n {
        return Err(Error::Internal(format!(
            "{} keeps one solution a symmetry class, but its {n} solutions fall in {} classes",
            f.method,
            classes.len()
        )));
    }
    let complete = status == Status::Solved || (query == Query::Unique && n >= 2);
    o.status = match (complete, n) {
        (true, 0) => Status::Infeasible,
        (true, _) => settled,
        (false, _) => Status::Unknown,
    };
    if let Query::Count { cap } = query {
        // One solution a class: the solutions met are the classes, their sizes all of them.
        let (classes, n_all) = match f.class_size.is_some() {
            true => (Some(n), all),
            false => (f.classes.as_ref().map(|_| classes.len() as u128), n),
        };
        if complete {
            o.classes = classes;
            o.count = Some(n_all);
        } else {
            o.count_at_least = Some(n_all);
            if f.class_size.is_some() {
                o.classes_at_least = Some(n);
            }
            if cap.is_some_and(|c| n as u64 >= c) {
                o.stats.stopped_by = Some(match f.class_size.is_some() {
                    true => format!("the cap of {n} classes"),
                    false => format!("the cap of {n}"),
                });
            }
        }
    } else if complete && n > 0 {
        o.unique = Some(n == 1);
    }
    if query == Query::Unique && kept.len() > 1 {
        o.solutions.push((f.decode)(&kept[1]));
    }
    Ok(kept.into_iter().next().or(start.first))
}

/// The decisions with one value in every solution (under `assumptions`): each candidate's
/// negation is tried; a solution found drops every candidate it disagrees with, an
/// unsatisfiable answer proves the candidate forced.
fn forced<S, B: Backend>(
    search: &mut Search<'_, B>,
    f: &Formulated<'_, S>,
    assumptions: &[Lit],
    first: &[bool],
) -> Result<ForcedSet> {
    let value = |a: &[bool], k: usize| a[f.decisions[k].index()];
    let mut open: Vec<bool> = vec![true; f.decisions.len()];
    let mut out = Vec::new();
    let mut undecided = 0;
    for k in 0..f.decisions.len() {
        if !open[k] {
            continue;
        }
        let v = value(first, k);
        let var = f.decisions[k];
        let mut assume = assumptions.to_vec();
        assume.push(if v { var.negated() } else { var.pos() });
        match search.step(&assume) {
            Step::Found(a) => {
                if let Some(Err(why)) = f.check.as_ref().map(|c| c(&(f.decode)(&a))) {
                    return Err(rejected_error(&f.method, &why));
                }
                for (j, o) in open.iter_mut().enumerate() {
                    if *o && value(&a, j) != value(first, j) {
                        *o = false;
                    }
                }
            }
            Step::Exhausted => {
                out.push(Forced {
                    meaning: f.meanings[k].clone(),
                    value: v,
                });
                search.progress(format!("{} forced", out.len()));
            }
            Step::Stopped => {
                undecided = (k..f.decisions.len()).filter(|&j| open[j]).count();
                break;
            }
        }
    }
    Ok(forced::set(&f.meanings, out, undecided))
}

pub(super) fn rejected_error(method: &str, why: &str) -> Error {
    Error::Internal(format!(
        "{method} returned a solution that the verifier rejects: {why}"
    ))
}

/// Moves what holds only inside a restricted part of the space out of the global fields.
pub(super) fn restrict_to_scope<S>(o: &mut Outcome<S>, scope: String) {
    o.in_scope = Some(InScope {
        status: o.status,
        count: o.count.take(),
        unique: o.unique.take(),
        forced: o.forced.take(),
    });
    o.status = if o.solutions.is_empty() {
        Status::Unknown
    } else {
        Status::Solved
    };
    let seen = o
        .in_scope
        .as_ref()
        .and_then(|s| s.count)
        .or(o.count_at_least);
    o.count_at_least = seen.filter(|&n| n > 0);
    o.bound = None;
    o.scope = Some(scope);
}
