//! The SAT backend: CaDiCaL ([`super::cadical`]) with cardinality and pseudo-Boolean rows
//! compiled to CNF by rustsat's encodings.

use super::cadical::Cadical;
use super::{Answer, Backend, EngineSize};
use crate::model::{Constraint, Direction, Lit, Model, Objective, Sense};
use rustsat::encodings::card::{BoundUpper as _, BoundUpperIncremental as _, Totalizer};
use rustsat::encodings::pb::{BoundUpper as _, BoundUpperIncremental as _, DynamicPolyWatchdog};
use rustsat::encodings::{pb, CollectClauses, ConstraintEncodingError};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::constraints::PbConstraint;
use rustsat::types::Clause;
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

mod stop;
use stop::{Deadline, Pauses};

struct Sink<'a> {
    solver: &'a mut Cadical,
    /// A literal added to every clause (the negated guard of a guarded row).
    extra: Option<i32>,
    clauses: &'a mut usize,
    log: &'a mut Option<super::proof::ClauseLog>,
    /// For an encoding made while a search answers (the objective's bound), where the guard
    /// stops nothing for time: when to give up part-way ([`Until`]).
    until: Option<Until>,
}

/// When an encoding made during a search stops: at the search's deadline or a raised flag,
/// read every [`Until::EVERY`] clauses. It stops by answering the encoder "out of memory" with
/// `stopped` set, which tells the two apart.
struct Until {
    at: Option<Instant>,
    flags: [Option<Arc<AtomicBool>>; 2],
    seen: usize,
    stopped: bool,
}

impl Until {
    const EVERY: usize = 1024;

    fn reached(&mut self) -> bool {
        self.seen += 1;
        if !self.seen.is_multiple_of(Until::EVERY) {
            return false;
        }
        let raised = self
            .flags
            .iter()
            .flatten()
            .any(|f| f.load(Ordering::Relaxed));
        self.stopped = raised || self.at.is_some_and(|d| Instant::now() >= d);
        self.stopped
    }
}

impl CollectClauses for Sink<'_> {
    fn n_clauses(&self) -> usize {
        *self.clauses
    }
    fn extend_clauses<T>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory>
    where
        T: IntoIterator<Item = Clause>,
    {
        for cl in cl_iter {
            if self.until.as_mut().is_some_and(Until::reached) {
                return Err(rustsat::OutOfMemory::ExternalApi);
            }
            crate::guard::charge(clause_bytes(cl.len()));
            let extra = self.extra;
            let lits = || cl.iter().map(|l| l.to_ipasir()).chain(extra);
            self.solver.add_clause(lits());
            if let Some(log) = self.log.as_mut() {
                log.add(lits());
            }
            *self.clauses += 1;
        }
        Ok(())
    }
}

/// About what a clause of `len` literals costs: CaDiCaL's clause with its header, two
/// watches, its share of the occurrence lists while it preprocesses and of the clauses it
/// learns from it; and the encoder's own structures. Calibrated on peak memory: with these
/// figures the estimate was 0.8 of the peak for Tank Attack 12×12 and 0.55 for Tantrix free
/// boards of 60 tiles (whose lazy rounds learn much).
fn clause_bytes(len: usize) -> u64 {
    150 + 12 * len as u64
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// How the model's literals are named to CaDiCaL. CaDiCaL's first guess for a variable is
/// *true*; a model that states most of its variables are false in solutions
/// ([`Model::guess_false`]) has each of its own variables stand for its negation, so that the
/// first guess is the likely value. Encoding variables are never renamed.
#[derive(Clone, Copy)]
struct Naming {
    flip_below: u32,
}

impl Naming {
    fn negated(self, l: Lit) -> bool {
        l.negated != (l.var.0 < self.flip_below)
    }

    fn rs(self, l: Lit) -> rustsat::types::Lit {
        rustsat::types::Lit::new(l.var.0, self.negated(l))
    }

    fn ipasir(self, l: Lit) -> i32 {
        self.rs(l).to_ipasir()
    }

    /// A literal CaDiCaL knows, as a literal of the model (the renaming is its own inverse).
    fn back(self, l: rustsat::types::Lit) -> Lit {
        let l = Lit {
            var: crate::model::Var(l.var().idx32()),
            negated: l.is_neg(),
        };
        Lit {
            negated: self.negated(l),
            ..l
        }
    }
}

enum ObjectiveEncoding {
    Unit(Totalizer),
    Weighted(DynamicPolyWatchdog),
}

/// The objective as `offset + sum(weight * lit)` with positive weights, minimised.
struct PreparedObjective {
    offset: i64,
    /// The weights' common factor, divided out of the encoding.
    divisor: i64,
    encoding: ObjectiveEncoding,
}

pub struct SatBackend {
    /// Taken out only by `drop`, which hands a large engine to a thread of its own.
    solver: ManuallyDrop<Cadical>,
    vars: BasicVarManager,
    num_model_vars: usize,
    naming: Naming,
    clauses: usize,
    objective: Option<Objective>,
    prepared: Option<PreparedObjective>,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    cancel: Option<Arc<AtomicBool>>,
    /// The engine's pauses, which its deadline allows for.
    pauses: Arc<Pauses>,
    /// Every clause given to CaDiCaL, kept while the run is recorded ([`super::proof`]): each
    /// refutation is then certified.
    log: Option<super::proof::ClauseLog>,
    /// Where a recorded run's certificates go.
    recorder: Option<super::proof::Shared>,
    /// Whether a large engine its deadline stopped is left to the process's exit (taken from
    /// the stage it was built in).
    leave_to_exit: bool,
    /// Rows whose totalizer would be larger than this get a binary adder ([`adder_threshold`]).
    adder_above: i64,
    /// The model's families counted during search ([`Model::counted`]), and their rows so
    /// far; a recorded run encodes them instead.
    counted_families: Vec<&'static str>,
    counted: Vec<super::counting::Row>,
    /// The puzzle's watcher, if it gave one, until it is connected.
    puzzle_watcher: Option<Box<dyn super::Watcher>>,
    /// Whether the watchers are connected (at the first solve; rows of the counted families
    /// that come later are encoded).
    watching: bool,
    /// While a guarded row is added ([`Backend::add_guarded`]): its guard, whose negation
    /// joins each clause of its encoding (a counted row keeps the guard itself).
    guard: Option<Lit>,
    /// Whether the objective's encoding was stopped part-way by the deadline or a stop
    /// request: its encoder's state no longer matches the clauses given, so every later solve
    /// of this run answers "unknown" ([`SatBackend::steer`] clears it for the next run).
    stopped_encoding: bool,
}

/// The size of a row's totalizer, terms × the smaller distance of the bound from either end
/// (after moving negative weights to the other side), the measure [`ADDER_ABOVE`] bounds.
fn totalizer_size(c: &Constraint) -> i64 {
    let mut rhs = c.rhs;
    let mut total = 0;
    let mut terms = 0;
    for &(w, _) in &c.terms {
        if w < 0 {
            rhs -= w;
        }
        total += w.abs();
        terms += i64::from(w != 0);
    }
    terms * rhs.min(total - rhs).max(1)
}

/// Totalizers of all rows together above this size (terms × bound, summed) would take more
/// memory than a run should: Tank Attack's attack rows are n⁴/3 of it (4.8 million at n = 40,
/// 2.5 GB). Past it, the largest rows get binary adders until the rest fits.
const TOTALIZERS_IN_ALL: i64 = 2_000_000;

/// The row size above which this model's rows get binary adders: [`ADDER_ABOVE`], or lower
/// when the totalizers of all rows together would pass `budget` ([`TOTALIZERS_IN_ALL`]).
/// Rows of the `counted` families are not encoded, so they take none of the budget.
fn adder_threshold(model: &Model, budget: i64, counted: &[&str]) -> i64 {
    let mut sizes: Vec<i64> = model
        .constraints
        .iter()
        .filter(|c| !counted.contains(&c.family))
        .map(totalizer_size)
        .filter(|&s| s <= ADDER_ABOVE)
        .collect();
    let mut total: i64 = sizes.iter().sum();
    if total <= budget {
        return ADDER_ABOVE;
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let mut threshold = ADDER_ABOVE;
    for s in sizes {
        if total <= budget {
            break;
        }
        total -= s;
        threshold = s - 1;
    }
    threshold
}

impl SatBackend {
    pub fn new(model: &Model) -> SatBackend {
        SatBackend::with_config(model, "default")
    }

    /// CaDiCaL with one of its named configurations ("default", "plain", "sat", "unsat"), or one of
    /// ours ([`super::cadical::Cadical::new`]: "no-elim", "explain", ...).
    pub fn with_config(model: &Model, config: &str) -> SatBackend {
        SatBackend::recorded(model, config, None)
    }

    /// [`SatBackend::with_config`] for a recorded run: every refutation is certified into
    /// `recorder` (`None`: not recorded).
    pub fn recorded(
        model: &Model,
        config: &str,
        recorder: Option<super::proof::Shared>,
    ) -> SatBackend {
        SatBackend::build(model, config, recorder, TOTALIZERS_IN_ALL)
    }

    /// The engine of `model`, its rows' totalizers held to `budget` in all.
    fn build(
        model: &Model,
        config: &str,
        recorder: Option<super::proof::Shared>,
        budget: i64,
    ) -> SatBackend {
        let mut solver = ManuallyDrop::new(Cadical::new(config));
        let cancel = crate::guard::cancel_flag();
        let pauses = Arc::new(Pauses::default());
        solver.set_terminate(Some(
            Deadline::new(None, None, cancel.clone(), pauses.clone()).boxed(),
        ));
        let n = model.num_vars();
        let counted_families = if recorder.is_none() {
            model.counted.clone()
        } else {
            Vec::new()
        };
        let mut backend = SatBackend {
            solver,
            vars: BasicVarManager::from_next_free(rustsat::types::Var::new(n as u32)),
            num_model_vars: n,
            // A recorded run keeps the plain naming: its certificates speak of the model's
            // own variables.
            naming: Naming {
                flip_below: if model.guess_false && recorder.is_none() {
                    n as u32
                } else {
                    0
                },
            },
            clauses: 0,
            objective: model.objective.clone(),
            prepared: None,
            deadline: None,
            stop: None,
            cancel,
            pauses,
            log: recorder.is_some().then(Default::default),
            recorder,
            leave_to_exit: crate::guard::leaves_to_exit(),
            adder_above: ADDER_ABOVE,
            counted_families,
            counted: Vec::new(),
            puzzle_watcher: None,
            watching: false,
            guard: None,
            stopped_encoding: false,
        };
        if n > 0 {
            // Make sure CaDiCaL knows every model variable, even unconstrained ones.
            backend.solver.reserve(n as i32);
        }
        backend.adder_above = adder_threshold(model, budget, &backend.counted_families);
        for c in &model.constraints {
            backend.add_constraint(c);
        }
        if let Some(log) = backend.log.as_mut() {
            log.model_done();
        }
        backend
    }

    /// Bounds the next solve to `n` conflicts: past them it answers "unknown".
    pub fn limit_conflicts(&mut self, n: i32) {
        self.solver.limit("conflicts", n);
    }

    /// Connects the counting watcher over the counted rows, and the puzzle's watcher, to the
    /// engine (one watcher, as CaDiCaL takes one).
    fn connect(&mut self) {
        self.watching = true;
        let mut all: Vec<Box<dyn super::Watcher>> = Vec::new();
        if !self.counted.is_empty() {
            all.push(Box::new(super::counting::Counting::new(
                self.counted.clone(),
            )));
        }
        if let Some(w) = self.puzzle_watcher.take() {
            all.push(w);
        }
        let watcher: Box<dyn super::Watcher> = match all.len() {
            0 => return,
            1 => all.pop().expect("one"),
            _ => Box::new(super::counting::Watchers::new(all)),
        };
        let name = self.naming;
        self.solver.watch(
            watcher,
            Box::new(move |l| name.back(rustsat::types::Lit::from_ipasir(l).expect("not 0"))),
            Box::new(move |l| name.ipasir(l)),
        );
    }

    /// One solve of CaDiCaL under `assumptions`, counted as a new solve, so that its deadline
    /// measures pauses within it only.
    fn engine_solve(&mut self, assumptions: &[Lit]) -> Option<bool> {
        if self.stopped_encoding {
            return None;
        }
        self.pauses.solves.fetch_add(1, Ordering::Relaxed);
        let name = self.naming;
        self.solver
            .solve(assumptions.iter().map(|&l| name.ipasir(l)))
    }

    /// Hands an engine kept between runs (the setter's workbench) to the next run: its later
    /// solves stop at `deadline` or when `cancel` is raised, and no longer at the limits of
    /// the run that built it.
    pub fn steer(&mut self, deadline: Option<Instant>, cancel: Option<Arc<AtomicBool>>) {
        self.cancel = cancel;
        self.stop = None;
        // The pauses of the runs before (a busy machine, another board) are not this run's.
        self.pauses.longest.store(0, Ordering::Relaxed);
        // An objective encoding a run before stopped part-way was dropped with its encoder:
        // its clauses only tie its own fresh outputs to the inputs, so they bind nothing, and
        // the next bound asked for builds a new one.
        self.stopped_encoding = false;
        self.set_deadline(deadline);
    }

    /// Makes every later solve also stop as soon as `flag` is raised.
    pub fn stop_on(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
        self.set_deadline(self.deadline);
    }

    /// The literal each clause of a guarded row's encoding gets: its guard's negation.
    fn guard_clause_lit(&self) -> Option<i32> {
        self.guard.map(|g| -self.naming.ipasir(g))
    }

    fn sink(&mut self) -> (Sink<'_>, &mut BasicVarManager) {
        let extra = self.guard_clause_lit();
        (
            Sink {
                solver: &mut self.solver,
                extra,
                clauses: &mut self.clauses,
                log: &mut self.log,
                until: None,
            },
            &mut self.vars,
        )
    }

    fn push_clause(&mut self, lits: impl IntoIterator<Item = i32>) {
        let lits = lits.into_iter().chain(self.guard_clause_lit());
        match self.log.as_mut() {
            None => {
                crate::guard::charge(clause_bytes(lits.size_hint().0));
                self.solver.add_clause(lits);
            }
            Some(log) => {
                let lits: Vec<i32> = lits.collect();
                crate::guard::charge(clause_bytes(lits.len()));
                self.solver.add_clause(lits.iter().copied());
                log.add(lits);
            }
        }
        self.clauses += 1;
    }
}

/// Pseudo-Boolean rows whose totalizer would be larger than this (terms × bound) get a binary
/// adder (see `add_constraint`).
const ADDER_ABOVE: i64 = 100_000;

/// Engines with more clauses than this are freed on a thread of their own.
const FREE_AWAY: usize = 200_000;

impl Drop for SatBackend {
    /// Freeing an engine of millions of clauses takes a second or more, one clause at a
    /// time; a run stopped by its deadline must not spend that after the deadline, so a large
    /// engine is freed on a thread of its own while the run reports, or left to the process's
    /// exit when the run says so ([`crate::guard::Bounds::leave_to_exit`], the command line's
    /// one-run processes: the exit returns the memory at once).
    fn drop(&mut self) {
        // SAFETY: `solver` is taken exactly once, here, and never used again.
        let solver = unsafe { ManuallyDrop::take(&mut self.solver) };
        if self.clauses <= FREE_AWAY {
            drop(solver);
        } else if self.leave_to_exit
            && (self.deadline.is_some_and(|d| Instant::now() >= d) || crate::guard::expired())
        {
            std::mem::forget(solver);
        } else {
            // If no thread can be started (memory is short), the engine is freed here.
            let _ = std::thread::Builder::new().spawn(move || {
                drop(solver);
                crate::guard::give_back_memory();
            });
        }
    }
}

impl Backend for SatBackend {
    fn add_constraint(&mut self, c: &Constraint) {
        // Normalise to `sum(w * lit) sense rhs` with positive weights.
        let mut rhs = c.rhs;
        let mut terms: Vec<(i64, Lit)> = Vec::with_capacity(c.terms.len());
        for &(w, l) in &c.terms {
            debug_assert!(
                l.var.index() < self.num_model_vars,
                "variable outside the model"
            );
            match w.cmp(&0) {
                std::cmp::Ordering::Greater => terms.push((w, l)),
                std::cmp::Ordering::Less => {
                    rhs -= w;
                    terms.push((-w, !l));
                }
                std::cmp::Ordering::Equal => {}
            }
        }
        let total: i64 = terms.iter().map(|t| t.0).sum();
        let unit = terms.iter().all(|t| t.0 == 1);
        if unit
            && !self.watching
            && self.counted_families.contains(&c.family)
            && (0..=total).contains(&rhs)
        {
            let (lo, hi) = match c.sense {
                Sense::Le => (0, rhs),
                Sense::Ge => (rhs, total),
                Sense::Eq => (rhs, rhs),
            };
            self.counted.push(super::counting::Row {
                lits: terms.iter().map(|t| t.1).collect(),
                lo: lo as usize,
                hi: hi as usize,
                guard: self.guard,
            });
            return;
        }
        let name = self.naming;
        let ipasir = |l: Lit| name.ipasir(l);
        // Shapes that are plain clauses.
        match c.sense {
            Sense::Ge if rhs <= 0 => return,
            Sense::Le if rhs >= total => return,
            Sense::Ge if rhs > total => return self.push_clause([]),
            Sense::Le if rhs < 0 => return self.push_clause([]),
            Sense::Eq if rhs < 0 || rhs > total => return self.push_clause([]),
            Sense::Ge if unit && rhs == 1 => {
                return self.push_clause(terms.iter().map(|t| ipasir(t.1)));
            }
            Sense::Le if unit && rhs == total - 1 => {
                // Not all of them: one clause of negations.
                return self.push_clause(terms.iter().map(|t| -ipasir(t.1)));
            }
            Sense::Le if unit && rhs == 1 && terms.len() <= 8 => {
                for a in 0..terms.len() {
                    for b in a + 1..terms.len() {
                        self.push_clause([-ipasir(terms[a].1), -ipasir(terms[b].1)]);
                    }
                }
                return;
            }
            Sense::Eq if unit && rhs == 1 && terms.len() <= 8 => {
                self.push_clause(terms.iter().map(|t| ipasir(t.1)));
                for a in 0..terms.len() {
                    for b in a + 1..terms.len() {
                        self.push_clause([-ipasir(terms[a].1), -ipasir(terms[b].1)]);
                    }
                }
                return;
            }
            _ => {}
        }
        let lits = terms.iter().map(|&(w, l)| (name.rs(l), w as isize));
        let row = match c.sense {
            Sense::Le => PbConstraint::new_ub(lits, rhs as isize),
            Sense::Ge => PbConstraint::new_lb(lits, rhs as isize),
            Sense::Eq => PbConstraint::new_eq(lits, rhs as isize),
        };
        // rustsat's default (the generalized totalizer) propagates fully but grows with the
        // number of distinct partial sums: about terms × bound clauses. Past ADDER_ABOVE (or
        // this model's lower threshold, `adder_threshold`) a binary adder (terms × log(total)
        // clauses, weaker propagation) is used instead: Tank Attack's balance row at n = 12
        // took 760,000 clauses the other way.
        let adder = totalizer_size(c) > self.adder_above;
        let (mut sink, vars) = self.sink();
        let done = if adder {
            // Straight to the adder: rustsat's front door would hand a row of unit weights
            // to a totalizer whatever the encoding asked for.
            match <pb::BinaryAdder as pb::BoundBoth>::encode_constr(row, &mut sink, vars) {
                Ok(()) => Ok(()),
                Err(ConstraintEncodingError::Unsat) => sink.add_clause(Clause::new()),
                Err(ConstraintEncodingError::OutOfMemory(e)) => Err(e),
            }
        } else {
            pb::default_encode_pb_constraint(row, &mut sink, vars)
        };
        if done.is_err() {
            crate::guard::out_of_memory();
        }
    }

    fn failed(&self, assumption: Lit) -> bool {
        self.solver.failed(self.naming.ipasir(assumption))
    }

    fn refutes_by_propagation(&mut self, assumptions: &[Lit]) -> bool {
        if self.log.is_some() {
            // A recorded run certifies every refutation it answers; this one is only a hint.
            return false;
        }
        if !self.watching {
            self.connect();
        }
        // Assumptions are decisions to CaDiCaL: past them, not one decision of its own.
        self.solver.limit(
            "decisions",
            assumptions.len().min(i32::MAX as usize - 1) as i32,
        );
        self.engine_solve(assumptions) == Some(false)
    }

    fn add_guarded(&mut self, c: &Constraint, guard: Lit) {
        // Every clause of the row's encoding gets `not guard`: with the guard false they all
        // hold, with it true they say what the row says. (The encoding's own variables are
        // fresh and appear in this row's clauses only.)
        self.guard = Some(guard);
        self.add_constraint(c);
        self.guard = None;
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        let name = self.naming;
        self.push_clause(lits.iter().map(|&l| name.ipasir(l)));
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Answer {
        if !self.watching {
            self.connect();
        }
        let answer = self.engine_solve(assumptions);
        if answer == Some(true) && !self.counted.is_empty() {
            // Not expected (the counting watcher sees every assignment), but a model that
            // breaks a counted row is never answered: its clause goes in, and the engine is
            // asked again.
            let assignment = Backend::assignment(self);
            if let Some(clause) = super::counting::broken(&self.counted, &assignment) {
                self.add_clause(&clause);
                return self.solve(assumptions);
            }
        }
        match answer {
            Some(true) => {
                if self.log.is_some() {
                    let n = self.vars.n_used() as i32;
                    let model: Vec<i32> = (1..=n)
                        .map(|v| {
                            if self.solver.value(v) == Some(false) {
                                -v
                            } else {
                                v
                            }
                        })
                        .collect();
                    if let Some(rec) = &self.recorder {
                        super::proof::witness(rec, &model);
                    }
                }
                Answer::Sat
            }
            Some(false) => {
                if let (Some(log), Some(rec)) = (&self.log, &self.recorder) {
                    let units: Vec<i32> =
                        assumptions.iter().map(|&l| self.naming.ipasir(l)).collect();
                    let n = self.vars.n_used() as usize;
                    super::proof::certify(rec, log, n, &units, self.deadline);
                }
                Answer::Unsat
            }
            None => {
                // Stopped because the process grew past its resident cap: the stage stops
                // as too large, not as "unknown" (a deadline or a stop request is the
                // caller's to answer, with what it has).
                crate::guard::stop_if_over();
                Answer::Unknown
            }
        }
    }

    fn assignment(&self) -> Vec<bool> {
        (0..self.num_model_vars)
            .map(|v| {
                let l = crate::model::Var(v as u32).pos();
                self.solver.value(self.naming.ipasir(l)).unwrap_or(false)
            })
            .collect()
    }

    fn objective_at_most(&mut self, bound: i64) -> Option<Vec<Lit>> {
        if self.stopped_encoding {
            return Some(Vec::new());
        }
        if self.prepared.is_none() {
            let obj = self.objective.as_ref()?;
            let sign = match obj.direction {
                Direction::Minimise => 1,
                Direction::Maximise => -1,
            };
            let mut offset = obj.constant * sign;
            let mut weighted = Vec::new();
            for &(w, l) in &obj.terms {
                let w = w * sign;
                match w.cmp(&0) {
                    std::cmp::Ordering::Greater => weighted.push((l, w)),
                    std::cmp::Ordering::Less => {
                        offset += w;
                        weighted.push((!l, -w));
                    }
                    std::cmp::Ordering::Equal => {}
                }
            }
            // Divide the weights by their common factor, so that e.g. an objective of weight 2
            // per literal becomes a cardinality (a totalizer rather than a weighted encoding).
            let divisor = weighted.iter().fold(0, |g, t| gcd(g, t.1)).max(1);
            for t in &mut weighted {
                t.1 /= divisor;
            }
            let encoding = if weighted.iter().all(|t| t.1 == 1) {
                ObjectiveEncoding::Unit(weighted.iter().map(|t| self.naming.rs(t.0)).collect())
            } else {
                ObjectiveEncoding::Weighted(
                    weighted
                        .iter()
                        .map(|&(l, w)| (self.naming.rs(l), w as usize))
                        .collect(),
                )
            };
            self.prepared = Some(PreparedObjective {
                offset,
                divisor,
                encoding,
            });
        }
        let mut prepared = self.prepared.take().expect("prepared above");
        let ub = bound - prepared.offset;
        let result = if ub < 0 {
            None
        } else {
            // sum(w * l) <= ub  <=>  sum((w / d) * l) <= floor(ub / d).
            let ub = (ub / prepared.divisor) as usize;
            // Asked while a search answers, where the guard stops nothing for time: a large
            // objective's encoding (a totalizer over 59×59 cells: 0.7 s) watches the
            // deadline itself.
            let until = Until {
                at: self.deadline,
                flags: [self.stop.clone(), self.cancel.clone()],
                seen: 0,
                stopped: false,
            };
            let (mut sink, vars) = self.sink();
            sink.until = Some(until);
            let encoded = match &mut prepared.encoding {
                ObjectiveEncoding::Unit(t) => t.encode_ub_change(ub..=ub, &mut sink, vars),
                ObjectiveEncoding::Weighted(d) => d.encode_ub_change(ub..=ub, &mut sink, vars),
            };
            if encoded.is_err() {
                if sink.until.is_some_and(|u| u.stopped) {
                    // No bound to assume: every later solve answers "unknown".
                    self.stopped_encoding = true;
                    return Some(Vec::new());
                }
                crate::guard::out_of_memory();
            }
            let lits = match &mut prepared.encoding {
                ObjectiveEncoding::Unit(t) => t.enforce_ub(ub).expect("encoded above"),
                ObjectiveEncoding::Weighted(d) => d.enforce_ub(ub).expect("encoded above"),
            };
            Some(
                lits.into_iter()
                    // Encoding variables live beyond the model's; kept as literals over the
                    // backend's own numbering.
                    .map(|l| self.naming.back(l))
                    .collect(),
            )
        };
        self.prepared = Some(prepared);
        result
    }

    /// Not in a recorded run: a certificate is of the clauses written, and the watcher's
    /// clauses are not among them (the lazy cuts after each solve are).
    fn watch(&mut self, make: &dyn Fn() -> Box<dyn super::Watcher>) {
        if self.log.is_some() {
            return;
        }
        debug_assert!(!self.watching, "a watcher is given before the first solve");
        self.puzzle_watcher = Some(make());
        // Past the first solve (not done by the search) the watchers are connected anew.
        self.watching = false;
    }

    fn prefer(&mut self, lits: &[Lit]) {
        for &l in lits {
            let l = self.naming.ipasir(l);
            self.solver.phase(l);
        }
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.solver.set_terminate(Some(
            Deadline::new(
                deadline,
                self.stop.clone(),
                self.cancel.clone(),
                self.pauses.clone(),
            )
            .boxed(),
        ));
    }

    fn engine_size(&self) -> EngineSize {
        EngineSize {
            variables: self.vars.n_used() as usize,
            clauses: self.clauses,
            cuts_in_search: self.solver.watch_clauses(),
        }
    }
}

#[cfg(test)]
mod tests;
