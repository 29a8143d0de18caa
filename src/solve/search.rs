//! Search operations, written once over [`Backend`] and used by every puzzle: first solution,
//! optimum with a proof of optimality, enumeration and counting projected on chosen variables,
//! uniqueness, lazy constraints, time limits and progress.

use super::{Answer, Backend};
use crate::model::{Constraint, Lit, Var};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A solution was found (no objective, or optimality not asked for).
    Solved,
    /// A solution was found and proved optimal.
    Optimal,
    /// Proved: no solution exists.
    Infeasible,
    /// A limit stopped the search before it decided.
    Unknown,
    /// `tantrix check`: the solution given breaks the rules (exit status 4).
    Rejected,
}

impl Status {
    /// The status as `--json` writes it ("solved", "optimal", ...).
    pub fn word(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Optimal => "optimal",
            Status::Infeasible => "infeasible",
            Status::Unknown => "unknown",
            Status::Rejected => "rejected",
        }
    }
}

/// Counters a search keeps; printed with `--json` as `stats`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SearchStats {
    pub solver_calls: u64,
    /// Rounds in which lazy constraints were added.
    pub lazy_rounds: u64,
    /// Lazy constraints added in all.
    pub lazy_constraints: u64,
    pub seconds: f64,
}

/// Decides which constraints a candidate solution violates; an empty answer accepts it.
pub type Cuts<'a> = Box<dyn FnMut(&[bool]) -> Vec<Constraint> + 'a>;

/// Drives one backend. Every solution it hands out has passed the lazy check, if one is set.
pub struct Search<'a, B: Backend> {
    pub backend: B,
    cuts: Option<Cuts<'a>>,
    started: Instant,
    deadline: Option<Instant>,
    pub stats: SearchStats,
    /// Whether a target handed to [`optimise`](Self::optimise) is trusted as proved.
    trust_targets: bool,
}

/// The result of one step: a solution, a proof that none is left, or a limit.
pub enum Step {
    Found(Vec<bool>),
    Exhausted,
    Stopped,
}

impl<'a, B: Backend> Search<'a, B> {
    /// A search on `backend` that stops at `deadline` (an instant, so that the time spent
    /// building the backend counts against it).
    pub fn new(mut backend: B, deadline: Option<Instant>) -> Self {
        let started = Instant::now();
        backend.set_deadline(deadline);
        Search {
            backend,
            cuts: None,
            started,
            deadline,
            stats: SearchStats::default(),
            trust_targets: true,
        }
    }

    /// Makes [`optimise`](Self::optimise) prove a reached target inside the model as well,
    /// for a recorded run whose certificate must not rest on a bound proved elsewhere.
    pub fn proving_targets(mut self) -> Self {
        self.trust_targets = false;
        self
    }

    /// Reports this search's progress, under the name `what`, to the installed
    /// [`progress`](crate::guard::progress) sink.
    pub fn with_progress(self, what: &str) -> Self {
        crate::guard::progress::phase(what);
        self
    }

    /// Sets the lazy-constraint check used by every later step.
    pub fn with_cuts(mut self, cuts: Cuts<'a>) -> Self {
        self.cuts = Some(cuts);
        self
    }

    pub fn progress(&self, message: String) {
        crate::guard::progress::message(&message);
    }

    /// The size of what the backend built.
    pub fn backend_size(&self) -> super::EngineSize {
        self.backend.engine_size()
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    pub fn finish(&mut self) -> SearchStats {
        self.stats.seconds = self.started.elapsed().as_secs_f64();
        self.stats.clone()
    }

    /// Whether the deadline has passed or the run was cancelled.
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || crate::guard::cancelled()
    }

    /// The next solution under `assumptions`, re-solving after lazy cuts until one passes.
    pub fn step(&mut self, assumptions: &[Lit]) -> Step {
        loop {
            if self.out_of_time() {
                return Step::Stopped;
            }
            self.stats.solver_calls += 1;
            match self.backend.solve(assumptions) {
                Answer::Unsat => return Step::Exhausted,
                Answer::Unknown => return Step::Stopped,
                Answer::Sat => {}
            }
            let assignment = self.backend.assignment();
            let cuts = match self.cuts.as_mut() {
                Some(check) => check(&assignment),
                None => Vec::new(),
            };
            if cuts.is_empty() {
                return Step::Found(assignment);
            }
            self.stats.lazy_rounds += 1;
            self.stats.lazy_constraints += cuts.len() as u64;
            self.progress(format!(
                "{} lazy rounds, {} cuts",
                self.stats.lazy_rounds, self.stats.lazy_constraints
            ));
            for c in &cuts {
                self.backend.add_constraint(c);
            }
        }
    }

    /// After [`Step::Exhausted`]: the assumptions of that step its proof used (a subset that
    /// is exhausted on its own).
    pub fn core(&self, assumptions: &[Lit]) -> Vec<Lit> {
        assumptions
            .iter()
            .copied()
            .filter(|&l| self.backend.failed(l))
            .collect()
    }

    /// A first solution, or a proof that there is none.
    pub fn first(&mut self) -> (Status, Option<Vec<bool>>) {
        match self.step(&[]) {
            Step::Found(a) => (Status::Solved, Some(a)),
            Step::Exhausted => (Status::Infeasible, None),
            Step::Stopped => (Status::Unknown, None),
        }
    }

    /// The optimum of the model's objective, by incremental bound tightening: after each
    /// solution of value v, the next solve assumes `objective <= v - 1` (in minimisation form).
    /// The last, unsatisfiable, solve is the proof of optimality. `value` evaluates the objective
    /// in the model's own direction.
    ///
    /// `target`, when given, is a bound proved outside the model (e.g. the domino bound of
    /// Gunport): no solution beats it. The first solve looks only for solutions that reach it;
    /// one that does is optimal at once: no solve is spent refuting a better value, which the
    /// model can find hard even when it holds the bound as a row (two encodings of one sum
    /// do not see each other by propagation). A search [`proving_targets`](Self::proving_targets)
    /// spends that solve. If none reaches the target, the search goes on from scratch.
    ///
    /// `step` is the objective's granularity: when every solution's value differs from every
    /// other's by a multiple of `step` (e.g. gunport holes, always ≡ mn mod 2), the next bound
    /// after a solution of value v asks for v + step, not v + 1, and no solve is spent proving
    /// that the values in between are impossible. Use 1 when nothing is known.
    pub fn optimise(
        &mut self,
        value: impl Fn(&[bool]) -> i64,
        maximise: bool,
        target: Option<i64>,
        step: i64,
    ) -> (Status, Option<(i64, Vec<bool>)>) {
        let mut best: Option<(i64, Vec<bool>)> = None;
        if let Some(t) = target {
            let minimised = if maximise { -t } else { t };
            if let Some(lits) = self.backend.objective_at_most(minimised) {
                self.progress(format!("looking for {t}"));
                // Under a time limit the probe gets half of it, so that a stopped run still
                // has time to find (and report) a good solution.
                let probe_deadline = self.deadline.map(|d| {
                    let now = Instant::now();
                    now + d.saturating_duration_since(now) / 2
                });
                self.backend.set_deadline(probe_deadline);
                let probe = self.step(&lits);
                self.backend.set_deadline(self.deadline);
                match probe {
                    Step::Found(a) => {
                        let v = value(&a);
                        best = Some((v, a));
                        let minimised = if maximise { -v } else { v };
                        if self.trust_targets && minimised <= if maximise { -t } else { t } {
                            return (Status::Optimal, best);
                        }
                        // Otherwise prove it: nothing better exists.
                        let Some(better) = self.backend.objective_at_most(minimised - step) else {
                            return (Status::Optimal, best);
                        };
                        match self.step(&better) {
                            Step::Exhausted => return (Status::Optimal, best),
                            Step::Stopped => return (Status::Unknown, best),
                            Step::Found(_) => {}
                        }
                    }
                    // The probe's own limit: go on with the ordinary search.
                    Step::Stopped if !self.out_of_time() => {}
                    Step::Stopped => return (Status::Unknown, None),
                    Step::Exhausted => {}
                }
            }
        }
        let mut assumptions = Vec::new();
        loop {
            match self.step(&assumptions) {
                Step::Found(a) => {
                    let v = value(&a);
                    self.progress(format!("best so far {v}"));
                    best = Some((v, a));
                    let minimised = if maximise { -v } else { v };
                    match self.backend.objective_at_most(minimised - step) {
                        Some(lits) => assumptions = lits,
                        None => return (Status::Optimal, best),
                    }
                }
                Step::Exhausted => {
                    return match best {
                        Some(b) => (Status::Optimal, Some(b)),
                        None => (Status::Infeasible, None),
                    }
                }
                Step::Stopped => {
                    return match best {
                        Some(b) => (Status::Unknown, Some(b)),
                        None => (Status::Unknown, None),
                    }
                }
            }
        }
    }

    /// Enumerates solutions that differ on `projection`, blocking each one found. Stops after
    /// `limit` solutions if given. `on_solution` sees each; returning `false` stops early.
    /// The status is `Solved` when the enumeration is complete (every solution seen),
    /// `Unknown` when a limit or the callback stopped it.
    pub fn enumerate(
        &mut self,
        projection: &[Var],
        assumptions: &[Lit],
        limit: Option<u64>,
        on_solution: impl FnMut(&[bool]) -> bool,
    ) -> (Status, u64) {
        let block = |a: &[bool]| -> Vec<Lit> {
            projection
                .iter()
                .map(|&v| if a[v.index()] { v.negated() } else { v.pos() })
                .collect()
        };
        self.enumerate_blocking(assumptions, limit, block, on_solution)
    }

    /// As [`enumerate`](Self::enumerate), but each solution is blocked by the negation of its
    /// true `projection` variables only: a short clause, exact when every solution sets the
    /// same number of them true (e.g. one placement per cell of a fixed number of cells).
    pub fn enumerate_positive(
        &mut self,
        projection: &[Var],
        assumptions: &[Lit],
        limit: Option<u64>,
        on_solution: impl FnMut(&[bool]) -> bool,
    ) -> (Status, u64) {
        let block = |a: &[bool]| -> Vec<Lit> {
            projection
                .iter()
                .filter(|v| a[v.index()])
                .map(|v| v.negated())
                .collect()
        };
        self.enumerate_blocking(assumptions, limit, block, on_solution)
    }

    /// The enumeration loop: each solution found is shown to `on_solution`, then excluded by
    /// the clause `block` makes of it.
    fn enumerate_blocking(
        &mut self,
        assumptions: &[Lit],
        limit: Option<u64>,
        block: impl Fn(&[bool]) -> Vec<Lit>,
        mut on_solution: impl FnMut(&[bool]) -> bool,
    ) -> (Status, u64) {
        let mut count = 0u64;
        loop {
            if limit.is_some_and(|l| count >= l) {
                return (Status::Unknown, count);
            }
            match self.step(assumptions) {
                Step::Found(a) => {
                    count += 1;
                    self.progress(format!("{count} solutions"));
                    let clause = block(&a);
                    let go_on = on_solution(&a);
                    self.backend.add_clause(&clause);
                    if !go_on {
                        return (Status::Unknown, count);
                    }
                }
                Step::Exhausted => return (Status::Solved, count),
                Step::Stopped => return (Status::Unknown, count),
            }
        }
    }

    /// Uniqueness: the first solution and, if there is one, a second that differs on
    /// `projection`. `Solved` with one solution means proved unique.
    pub fn unique(&mut self, projection: &[Var]) -> (Status, Vec<Vec<bool>>) {
        let mut found = Vec::new();
        let (status, _) = self.enumerate(projection, &[], Some(2), |a| {
            found.push(a.to_vec());
            true
        });
        let status = match (status, found.len()) {
            (_, 2) => Status::Solved,
            (Status::Solved, 0) => Status::Infeasible,
            (s, _) => s,
        };
        (status, found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Model, Sense};
    use crate::solve::sat::SatBackend;

    fn three_of_five() -> (Model, Vec<Var>) {
        let mut m = Model::new();
        let xs: Vec<Var> = (0..5).map(|i| m.var(format!("x{i}"))).collect();
        let lits: Vec<Lit> = xs.iter().map(|v| v.pos()).collect();
        m.cardinality("three", &lits, Sense::Eq, 3);
        (m, xs)
    }

    #[test]
    fn counts_all_subsets_of_size_three() {
        let (m, xs) = three_of_five();
        let mut s = Search::new(SatBackend::new(&m), None);
        let (status, n) = s.enumerate(&xs, &[], None, |a| {
            assert_eq!(a.iter().filter(|&&b| b).count(), 3);
            true
        });
        assert_eq!((status, n), (Status::Solved, 10));
    }

    #[test]
    fn optimum_is_proved_both_ways() {
        let (mut m, xs) = three_of_five();
        // weights 1..5: the best three are {5,4,3} = 12 for max, {1,2,3} = 6 for min.
        let terms: Vec<(i64, Lit)> = xs
            .iter()
            .enumerate()
            .map(|(i, v)| (i as i64 + 1, v.pos()))
            .collect();
        m.maximise(terms.clone());
        let obj = m.objective.clone().unwrap();
        let mut s = Search::new(SatBackend::new(&m), None);
        let (status, best) = s.optimise(|a| obj.value(a), true, None, 1);
        assert_eq!(status, Status::Optimal);
        assert_eq!(best.unwrap().0, 12);

        m.minimise(terms);
        let obj = m.objective.clone().unwrap();
        let mut s = Search::new(SatBackend::new(&m), None);
        let (status, best) = s.optimise(|a| obj.value(a), false, None, 1);
        assert_eq!((status, best.unwrap().0), (Status::Optimal, 6));
    }

    #[test]
    fn a_solution_at_a_proved_target_is_optimal_without_a_further_solve() {
        let (mut m, xs) = three_of_five();
        let terms: Vec<(i64, Lit)> = xs
            .iter()
            .enumerate()
            .map(|(i, v)| (i as i64 + 1, v.pos()))
            .collect();
        m.maximise(terms);
        let obj = m.objective.clone().unwrap();
        let mut s = Search::new(SatBackend::new(&m), None);
        let (status, best) = s.optimise(|a| obj.value(a), true, Some(12), 1);
        assert_eq!((status, best.unwrap().0), (Status::Optimal, 12));
        assert_eq!(
            s.stats.solver_calls, 1,
            "the target was reached by the first solve"
        );
        // A recorded run proves the target in the model too: one more (refuting) solve.
        let mut s = Search::new(SatBackend::new(&m), None).proving_targets();
        let (status, best) = s.optimise(|a| obj.value(a), true, Some(12), 1);
        assert_eq!((status, best.unwrap().0), (Status::Optimal, 12));
        assert_eq!(s.stats.solver_calls, 2);
        // Without the target the same optimum takes a refutation after the last solution.
        let mut s = Search::new(SatBackend::new(&m), None);
        let (status, _) = s.optimise(|a| obj.value(a), true, None, 1);
        assert_eq!(status, Status::Optimal);
        assert!(s.stats.solver_calls >= 2);
    }

    #[test]
    fn lazy_cuts_are_applied_until_accepted() {
        let (m, xs) = three_of_five();
        let forbid0 = xs[0];
        let mut s = Search::new(SatBackend::new(&m), None).with_cuts(Box::new(move |a| {
            if a[forbid0.index()] {
                vec![Constraint {
                    terms: vec![(1, forbid0.pos())],
                    sense: Sense::Eq,
                    rhs: 0,
                    family: "cut",
                    group: None,
                }]
            } else {
                Vec::new()
            }
        }));
        let (status, n) = s.enumerate(&xs, &[], None, |a| !a[0]);
        assert_eq!((status, n), (Status::Solved, 4));
    }

    #[test]
    fn uniqueness_finds_a_second_solution() {
        let mut m = Model::new();
        let a = m.var("a");
        let b = m.var("b");
        m.exactly_one("one", &[a.pos(), b.pos()]);
        let mut s = Search::new(SatBackend::new(&m), None);
        let (status, sols) = s.unique(&[a, b]);
        assert_eq!((status, sols.len()), (Status::Solved, 2));
        m.add("fix", vec![(1, a.pos())], Sense::Eq, 1);
        let mut s = Search::new(SatBackend::new(&m), None);
        let (status, sols) = s.unique(&[a, b]);
        assert_eq!((status, sols.len()), (Status::Solved, 1));
    }
}
