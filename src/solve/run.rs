//! The runner: any [`Query`] for any [`Puzzle`], under one deadline, with every solution
//! verified, answered as one [`Outcome`].
//!
//! Order of work: the puzzle's exact method if it answers the query; else its restricted
//! phases (symmetric subspaces, each with a share of the time), which may contribute a
//! solution but never a refutation or a count; else the full model on the SAT backend.
//!
//! ```
//! use quandary::puzzles::tank::TankAttack;
//! use quandary::puzzles::Puzzle;
//! use quandary::solve::run::{run, Limits, Query};
//! use quandary::solve::search::Status;
//!
//! let options = Default::default();
//! let instance = TankAttack::read(&["5".to_string()], &options).unwrap();
//! let outcome = run::<TankAttack>(&instance, &options, Query::Count, &Limits::none()).unwrap();
//! assert_eq!((outcome.status, outcome.count), (Status::Solved, Some(2)));
//! ```

use super::search::{Search, Status, Step};
use super::{Backend, EngineSize};
use crate::error::{Error, Result};
use crate::model::{Lit, Size};
use crate::puzzles::{Exact, Formulation, Meaning, Place, Purpose, Puzzle};
use serde::Serialize;
use std::time::{Duration, Instant};

/// What is asked of a puzzle instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Query {
    /// One solution, or a proof that there is none.
    First,
    /// The best solution by the puzzle's objective, with a proof.
    Optimum,
    /// A solution worth at least this much (at most, for a minimised objective), or a proof
    /// that there is none.
    AtLeast(i64),
    /// Every solution (every optimal one, where there is an objective).
    Count,
    /// Is there exactly one solution (optimal one)? A second one is shown if not.
    Unique,
    /// The decisions that take the same value in every solution (optimal one).
    Forced,
}

impl Query {
    /// The verb that asks it on the command line.
    pub fn verb(self) -> &'static str {
        match self {
            Query::First => "solve",
            Query::Optimum => "optimum",
            Query::AtLeast(_) => "reach",
            Query::Count => "count",
            Query::Unique => "unique",
            Query::Forced => "forced",
        }
    }
}

/// One deadline for a whole run, model building included.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub started: Instant,
    pub deadline: Option<Instant>,
}

impl Limits {
    /// A run starting now that must end within `time_limit`, if given.
    pub fn new(time_limit: Option<Duration>) -> Limits {
        let started = Instant::now();
        Limits {
            started,
            deadline: time_limit.map(|t| started + t),
        }
    }

    /// A run with no limit.
    pub fn none() -> Limits {
        Limits::new(None)
    }

    /// The time left, if there is a limit.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}

/// How an answer was obtained.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    pub method: String,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<Size>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineSize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solver_calls: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lazy_rounds: Option<u64>,
    /// Restricted phases tried before the answer, with how each ended.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<String>,
}

/// A decision that takes the same value in every solution.
#[derive(Clone, Debug, Serialize)]
pub struct Forced {
    #[serde(flatten)]
    pub meaning: Meaning,
    /// The value it is forced to: true ("at place, says") or false ("at place, not says").
    pub value: bool,
}

/// The forced decisions, and how far the search for them got.
#[derive(Clone, Debug, Serialize)]
pub struct ForcedSet {
    /// Decisions proved to be forced.
    pub forced: Vec<Forced>,
    /// Places where every decision is forced false (nothing goes there).
    pub empty: Vec<Place>,
    /// Every place a decision refers to.
    #[serde(skip)]
    pub places: Vec<Place>,
    /// Rows and columns of a square-cell board (none for hex boards).
    #[serde(skip)]
    pub extent: Option<(usize, usize)>,
    /// Decisions not yet decided when a limit stopped the search (0 when complete).
    pub undecided: usize,
    /// Decisions in all.
    pub decisions: usize,
}

/// What a restricted search established inside its part of the space only.
#[derive(Clone, Debug, Serialize)]
pub struct InScope {
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced: Option<ForcedSet>,
}

/// What an answer established, the same fields for every puzzle (reports print them as JSON).
/// Fields without a scope hold for the whole space: a result obtained in a restricted part of
/// it is in `in_scope`, never in `status`, `count` or `unique`.
#[derive(Clone, Debug, Serialize)]
pub struct Facts {
    #[serde(skip)]
    pub query: Query,
    /// `solved`, `optimal`, `infeasible`, or `unknown` (a limit stopped it).
    pub status: Status,
    /// The part of the space the user restricted the search to, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_scope: Option<InScope>,
    /// The number of solutions, when counted to the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u128>,
    /// Solutions seen when a limit stopped a count (a lower bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count_at_least: Option<u128>,
    /// With a count up to symmetry: the symmetry classes among the solutions counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classes: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    /// The objective (puzzle's terms) of the first solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<i64>,
    /// A proved bound on the objective (equal to it when optimal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<i64>,
    /// The verifier's summary of the first solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced: Option<ForcedSet>,
    /// Figures particular to a method or verb.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
    pub stats: Stats,
}

impl Facts {
    /// Nothing established yet but the status.
    pub fn new(query: Query, status: Status) -> Facts {
        Facts {
            query,
            status,
            scope: None,
            in_scope: None,
            count: None,
            count_at_least: None,
            classes: None,
            unique: None,
            objective: None,
            bound: None,
            summary: None,
            forced: None,
            details: None,
            stats: Stats::default(),
        }
    }

    /// Whether the query was answered (in its scope): false when a limit stopped it.
    pub fn answered(&self) -> bool {
        match &self.in_scope {
            Some(s) => s.status != Status::Unknown,
            None => self.status != Status::Unknown,
        }
    }
}

/// The answer to a query: its facts, and the verified solutions (the first, and for
/// `Unique` a second one when there is one).
#[derive(Clone, Debug)]
pub struct Outcome<S> {
    pub facts: Facts,
    pub solutions: Vec<S>,
}

impl<S> Outcome<S> {
    fn new(query: Query, status: Status) -> Self {
        Outcome {
            facts: Facts::new(query, status),
            solutions: Vec::new(),
        }
    }
}

impl<S> std::ops::Deref for Outcome<S> {
    type Target = Facts;
    fn deref(&self) -> &Facts {
        &self.facts
    }
}

impl<S> std::ops::DerefMut for Outcome<S> {
    fn deref_mut(&mut self) -> &mut Facts {
        &mut self.facts
    }
}

/// Answers `query` for one instance: exact method, restricted phases, full model, in that
/// order; verifies every solution (an answer the verifier rejects is an
/// [`Error::Internal`]).
pub fn run<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    query: Query,
    limits: &Limits,
) -> Result<Outcome<P::Solution>> {
    let mut outcome = match P::exact(instance, options, query, limits.deadline) {
        Some(exact) => from_exact(query, exact?),
        None => by_model::<P>(instance, options, query, limits)?,
    };
    outcome.stats.seconds = limits.seconds();
    super::progress::finish();
    for (k, s) in outcome.solutions.iter().enumerate() {
        match P::verify(instance, s) {
            Ok(summary) if k == 0 => outcome.facts.summary = Some(summary),
            Ok(_) => {}
            Err(why) => return Err(rejected_error(&outcome.facts.stats.method, &why)),
        }
    }
    Ok(outcome)
}

fn from_exact<S>(query: Query, e: Exact<S>) -> Outcome<S> {
    let mut o = Outcome::new(query, e.status);
    o.objective = e.objective;
    if e.status == Status::Optimal {
        o.bound = e.objective;
    }
    match query {
        Query::Count if e.status == Status::Unknown => o.count_at_least = Some(e.count),
        Query::Count => o.count = Some(e.count),
        Query::Unique if e.status != Status::Unknown => o.unique = Some(e.count == 1),
        _ => {}
    }
    if query == Query::Unique && e.status == Status::Infeasible {
        o.unique = None;
    }
    o.solutions = e.solutions;
    o.details = e.details;
    o.stats.method = e.method;
    o
}

fn by_model<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    query: Query,
    limits: &Limits,
) -> Result<Outcome<P::Solution>> {
    let mut tried = Vec::new();
    if Purpose::of(query) == Purpose::Find {
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
                deadline: budget.map(|b| Instant::now() + b),
            };
            let scope = phase.scope.clone();
            let mut f = (phase.build)();
            f.check = Some(Box::new(|s| P::verify(instance, s)));
            let method = f.method.clone();
            let mut o = drive(f, query, &phase_limits, true)?;
            let found = !o.solutions.is_empty();
            let hit = match query {
                Query::Optimum => o.status == Status::Optimal,
                _ => found,
            };
            tried.push(format!(
                "{scope}: {}",
                if hit { "answered" } else { "no answer" }
            ));
            if hit {
                o.stats.method = format!("{method}, {scope} tried first");
                o.stats.phases = tried;
                return Ok(o);
            }
        }
    }
    let mut f = P::formulate(instance, options, query)?;
    f.check = Some(Box::new(|s| P::verify(instance, s)));
    let mut o = drive(f, query, limits, false)?;
    o.stats.phases = tried;
    Ok(o)
}

/// Runs a query on one formulation with the engines it names.
pub fn drive<S>(
    f: Formulation<'_, S>,
    query: Query,
    limits: &Limits,
    as_phase: bool,
) -> Result<Outcome<S>> {
    let remaining = limits.remaining();
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
    match f.engines.as_slice() {
        [] => {
            let b = super::sat::SatBackend::new(&f.model);
            on_backend(b, f, query, remaining, as_phase)
        }
        [one] => {
            let b = super::sat::SatBackend::with_config(&f.model, one);
            on_backend(b, f, query, remaining, as_phase)
        }
        many => {
            let b = super::portfolio::Portfolio::new(&f.model, many);
            on_backend(b, f, query, remaining, as_phase)
        }
    }
}

fn on_backend<S, B: Backend>(
    backend: B,
    mut f: Formulation<'_, S>,
    query: Query,
    time_limit: Option<Duration>,
    as_phase: bool,
) -> Result<Outcome<S>> {
    let mut search = Search::new(backend, time_limit).with_progress(&f.method);
    if let Some(cuts) = f.cuts.take() {
        search = search.with_cuts(cuts);
    }
    let mut o = Outcome::new(query, Status::Unknown);
    let goal_needed = matches!(query, Query::Optimum | Query::AtLeast(_));
    if goal_needed && f.goal.is_none() {
        return Err(Error::input(format!(
            "'{}' needs an objective, and this instance has none (for chess: give --type T or --any)",
            query.verb()
        )));
    }
    // For counting, uniqueness and forced cells where there is an objective: the question is
    // about the optimal solutions, so find the optimum first and assume it.
    let mut assumptions: Vec<Lit> = Vec::new();
    let mut first: Option<Vec<bool>> = None;
    if let Some(goal) = &f.goal {
        let objective =
            f.model.objective.clone().ok_or_else(|| {
                Error::Internal("a formulation with a goal has no objective".into())
            })?;
        let model_value = |a: &[bool]| objective.value(a);
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
                    |_| {},
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
    } else if query != Query::Count && query != Query::Unique {
        let (status, a) = search.first();
        o.status = status;
        first = a;
    } else {
        o.status = Status::Solved;
    }
    let enumerate_on = matches!(query, Query::Count | Query::Unique | Query::Forced);
    let ready = o.status == Status::Solved || o.status == Status::Optimal;
    if enumerate_on && ready {
        let optimal = o.status == Status::Optimal;
        let settled = if optimal {
            Status::Optimal
        } else {
            Status::Solved
        };
        match query {
            Query::Forced => {
                let a = first.clone().expect("a solution before forced cells");
                let fs = forced(&mut search, &f, &assumptions, &a)?;
                o.status = if fs.undecided == 0 {
                    settled
                } else {
                    Status::Unknown
                };
                o.forced = Some(fs);
            }
            _ => {
                let limit = (query == Query::Unique).then_some(2);
                let mut kept: Vec<Vec<bool>> = Vec::new();
                let mut classes = std::collections::BTreeSet::new();
                let mut rejected: Option<String> = None;
                let (decode, class_of, check) = (&f.decode, &f.classes, &f.check);
                let keep = |a: &[bool]| {
                    if kept.len() < 2 {
                        kept.push(a.to_vec());
                    }
                    if class_of.is_some() || check.is_some() {
                        let s = decode(a);
                        if let Some(Err(why)) = check.as_ref().map(|c| c(&s)) {
                            rejected = Some(why);
                            return false;
                        }
                        if let Some(class_of) = class_of {
                            classes.insert(class_of(&s));
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
                let complete = status == Status::Solved || (query == Query::Unique && n >= 2);
                o.status = match (complete, n) {
                    (true, 0) => Status::Infeasible,
                    (true, _) => settled,
                    (false, _) => Status::Unknown,
                };
                if query == Query::Count {
                    if complete && f.classes.is_some() {
                        o.classes = Some(classes.len() as u128);
                    }
                    if complete {
                        o.count = Some(n);
                    } else {
                        o.count_at_least = Some(n);
                    }
                } else if complete && n > 0 {
                    o.unique = Some(n == 1);
                }
                if !kept.is_empty() {
                    first = Some(kept[0].clone());
                }
                if query == Query::Unique && kept.len() > 1 {
                    o.solutions.push((f.decode)(&kept[1]));
                }
            }
        }
    }
    if let Some(a) = &first {
        o.solutions.insert(0, (f.decode)(a));
    }
    let stats = search.finish();
    o.stats.method = f.method.clone();
    o.stats.model = Some(f.model.size());
    o.stats.engine = Some(search.backend_size());
    o.stats.solver_calls = Some(stats.solver_calls);
    o.stats.lazy_rounds = (stats.lazy_rounds > 0).then_some(stats.lazy_rounds);
    if let Some(scope) = f.scope.clone() {
        restrict_to_scope(&mut o, scope);
    }
    Ok(o)
}

/// The decisions with one value in every solution (under `assumptions`): each candidate's
/// negation is tried; a solution found drops every candidate it disagrees with, an
/// unsatisfiable answer proves the candidate forced.
fn forced<S, B: Backend>(
    search: &mut Search<'_, B>,
    f: &Formulation<'_, S>,
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
    let mut places: Vec<Place> = f.meanings.iter().map(|m| m.place).collect();
    places.sort();
    places.dedup();
    let empty = if undecided == 0 {
        places
            .iter()
            .copied()
            .filter(|p| {
                let at = |m: &Meaning| m.place == *p;
                let total = f.meanings.iter().filter(|m| at(m)).count();
                let off = out.iter().filter(|x| !x.value && at(&x.meaning)).count();
                total == off
            })
            .collect()
    } else {
        Vec::new()
    };
    let extent = places.iter().try_fold((0, 0), |(r0, c0), p| match *p {
        Place::Cell(r, c) => Some((r0.max(r + 1), c0.max(c + 1))),
        Place::Hex(..) => None,
    });
    Ok(ForcedSet {
        forced: out,
        empty,
        places,
        extent,
        undecided,
        decisions: f.decisions.len(),
    })
}

fn rejected_error(method: &str, why: &str) -> Error {
    Error::Internal(format!(
        "{method} returned a solution that the verifier rejects: {why}"
    ))
}

/// Moves what holds only inside a restricted part of the space out of the global fields.
fn restrict_to_scope<S>(o: &mut Outcome<S>, scope: String) {
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
