//! The MIP backend: HiGHS (through the `highs` crate; feature `highs`), the kind of solver the
//! seeds used (CPLEX, AIMMS). It takes the same [`Model`] as the SAT backend, so every query
//! of [`super::search`] runs on it unchanged:
//!
//! - each variable is an integer column in `[0, 1]`, each row a row, each clause added
//!   between solves the row `sum(lits) >= 1`;
//! - every "infeasible" is confirmed by a second solve with presolve off: HiGHS 1.16's presolve
//!   once declared a feasible model infeasible (see `solve`);
//! - an assumption fixes its column's bounds for one solve;
//! - [`objective_at_most`](Backend::objective_at_most) hands out a *selector*: a literal
//!   outside the model whose assumption caps the objective row for that solve. Once the
//!   objective is asked for, every solve minimises it, so the first solve already returns the
//!   optimum; the bound-tightening solve that follows in [`super::search::Search::optimise`]
//!   proves that nothing better exists (a solve of its own, confirmed as above: the
//!   optimality rests on that refutation, not on HiGHS's own gap);
//! - the deadline becomes HiGHS's `time_limit`, and the run's cancel flag interrupts it
//!   through HiGHS's callback.
//!
//! HiGHS's gap tolerance is set to zero: "optimal" means proved, as it does for SAT.

use super::{Answer, Backend, EngineSize, MipStats, Relaxation};
use crate::model::{Constraint, Direction, Lit, Model, Sense};
use highs::{Col, HighsModelStatus, RowProblem};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Values above this are HiGHS's infinity in row bounds.
const INF: f64 = f64::INFINITY;

pub struct HighsBackend {
    /// Taken out while HiGHS solves (its `solve` consumes the model) and put back after.
    model: Option<highs::Model>,
    cols: Vec<Col>,
    rows: usize,
    /// The objective in minimisation form, over variables: `offset + sum(cost[v] * x_v)`.
    costs: Vec<f64>,
    offset: i64,
    least: i64,
    has_objective: bool,
    /// The row `sum(cost * x)` whose upper bound a selector sets; added when first asked for.
    objective_row: Option<i32>,
    /// Whether the objective is minimised in every solve (once it has been asked for).
    minimising: bool,
    /// The cap each selector stands for (selector `k` is variable `num_vars + k`).
    selectors: Vec<i64>,
    num_vars: usize,
    /// Infeasible answers confirmed by a second solve without presolve.
    confirmations: u64,
    values: Vec<bool>,
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
    stats: MipStats,
}

fn bounds(sense: Sense, rhs: i64) -> (f64, f64) {
    let r = rhs as f64;
    match sense {
        Sense::Le => (-INF, r),
        Sense::Ge => (r, INF),
        Sense::Eq => (r, r),
    }
}

impl HighsBackend {
    pub fn new(model: &Model) -> HighsBackend {
        let mut problem = RowProblem::default();
        let cols: Vec<Col> = (0..model.num_vars())
            .map(|_| problem.add_integer_column(0.0, 0..=1))
            .collect();
        add_rows(&mut problem, &cols, model);
        let (offset, per_var) = minimised(model);
        let least = offset + per_var.iter().filter(|&&w| w < 0).sum::<i64>();
        let costs: Vec<f64> = per_var.iter().map(|&w| w as f64).collect();
        let mut highs = problem.optimise(highs::Sense::Minimise);
        highs.set_option("mip_rel_gap", 0.0);
        highs.set_option("mip_abs_gap", 1e-6);
        HighsBackend {
            model: Some(highs),
            cols,
            rows: model.constraints.len(),
            costs,
            offset,
            least,
            has_objective: model.objective.is_some(),
            objective_row: None,
            minimising: false,
            selectors: Vec::new(),
            num_vars: model.num_vars(),
            confirmations: 0,
            values: vec![false; model.num_vars()],
            deadline: None,
            cancel: crate::guard::cancel_flag(),
            stats: MipStats::default(),
        }
    }

    fn highs(&mut self) -> &mut highs::Model {
        self.model
            .as_mut()
            .expect("the model is back after each solve")
    }

    fn add_row(&mut self, terms: &[(i64, crate::model::Var)], lo: f64, hi: f64) {
        let factors: Vec<(Col, f64)> = factors(&self.cols, terms).collect();
        self.rows += 1;
        self.highs().add_row(lo..=hi, factors);
    }

    /// The objective row (added on first use) and the costs set: every later solve minimises.
    fn prepare_objective(&mut self) {
        if self.objective_row.is_some() {
            return;
        }
        let terms: Vec<(Col, f64)> = self
            .cols
            .iter()
            .zip(&self.costs)
            .filter(|(_, &c)| c != 0.0)
            .map(|(&col, &c)| (col, c))
            .collect();
        // SAFETY: the live instance this backend owns.
        let row = unsafe { highs_sys::Highs_getNumRows(self.highs().as_ptr()) };
        for &(col, c) in &terms {
            self.highs().change_column_cost(col, c);
        }
        self.highs().add_row(-INF..=INF, terms);
        self.minimising = true;
        self.objective_row = Some(row);
    }

    /// What HiGHS says of the rows so far with `fixed` columns and the objective `cap`.
    fn run(&mut self, fixed: &[Lit], cap: Option<i64>) -> Answer {
        let left = match self.deadline {
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
                if left <= 0.0 {
                    return Answer::Unknown;
                }
                left
            }
            None => INF,
        };
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Answer::Unknown;
        }
        for &l in fixed {
            let col = self.cols[l.var.index()];
            let v = if l.negated { 0 } else { 1 };
            self.highs().change_column_bounds(col, v..=v);
        }
        if let Some(row) = self.objective_row {
            let hi = cap.map_or(INF, |c| (c - self.offset) as f64);
            let ptr = self.highs().as_mut_ptr();
            // SAFETY: `ptr` is the live HiGHS instance this backend owns; the row exists.
            unsafe { highs_sys::Highs_changeRowBounds(ptr, row, -INF, hi) };
        }
        let mut model = self
            .model
            .take()
            .expect("the model is back after each solve");
        model.set_option("time_limit", left);
        let cancel = self.cancel.clone();
        let interrupt = Interrupt::install(&mut model, cancel);
        let solved = model.solve();
        drop(interrupt);
        self.stats.solves += 1;
        let node_count = int64_info(&solved, c"mip_node_count");
        self.stats.nodes += node_count.max(0) as u64;
        let iterations = solved.simplex_iteration_count();
        self.stats.simplex_iterations += iterations.max(0) as u64;
        let status = solved.status();
        let answer = match status {
            HighsModelStatus::Optimal => {
                let columns = solved.get_solution().columns().to_vec();
                for (k, v) in self.values.iter_mut().enumerate() {
                    *v = columns[k] > 0.5;
                }
                Answer::Sat
            }
            HighsModelStatus::ModelEmpty => {
                for (k, v) in self.values.iter_mut().enumerate() {
                    *v = self.minimising && self.costs[k] < 0.0;
                }
                for &l in fixed {
                    self.values[l.var.index()] = !l.negated;
                }
                Answer::Sat
            }
            HighsModelStatus::Infeasible => Answer::Unsat,
            _ => Answer::Unknown,
        };
        if self.minimising {
            // In minimisation form, as `objective_at_most` takes it; the runner turns it into
            // the puzzle's terms.
            // An infeasible solve has no bound of its own (HiGHS says -inf): none is kept.
            let finite = |v: Result<f64, _>| v.ok().filter(|v: &f64| v.is_finite());
            let dual = finite(solved.double_info_value(c"mip_dual_bound"));
            self.stats.best_bound = dual.map(|d| d + self.offset as f64);
            self.stats.gap = finite(solved.double_info_value(c"mip_gap"));
        }
        let mut model: highs::Model = solved.into();
        for &l in fixed {
            let col = self.cols[l.var.index()];
            model.change_column_bounds(col, 0..=1);
        }
        self.model = Some(model);
        answer
    }
}

fn int64_info(solved: &highs::SolvedModel, name: &std::ffi::CStr) -> i64 {
    let mut value: i64 = -1;
    // SAFETY: the instance is live, `name` is a C string and `value` a valid i64 slot.
    let status =
        unsafe { highs_sys::Highs_getInt64InfoValue(solved.as_ptr(), name.as_ptr(), &mut value) };
    if status == highs_sys::STATUS_OK as highs_sys::HighsInt {
        value
    } else {
        -1
    }
}

/// HiGHS's MIP-interrupt callback, raised by the run's cancel flag, for the length of a solve.
struct Interrupt {
    _flag: Option<Arc<AtomicBool>>,
}

unsafe extern "C" fn on_callback(
    kind: std::os::raw::c_int,
    _message: *const std::os::raw::c_char,
    _out: *const highs_sys::HighsCallbackDataOut,
    data_in: *mut highs_sys::HighsCallbackDataIn,
    user: *mut std::os::raw::c_void,
) {
    if kind as u32 != highs_sys::kHighsCallbackMipInterrupt as u32 || data_in.is_null() {
        return;
    }
    // SAFETY: `user` is the flag installed below, kept alive until the solve returns.
    let flag = unsafe { &*(user as *const AtomicBool) };
    if flag.load(Ordering::Relaxed) {
        // SAFETY: HiGHS hands a valid input block for the interrupt callback.
        unsafe { (*data_in).user_interrupt = 1 };
    }
}

impl Interrupt {
    fn install(model: &mut highs::Model, flag: Option<Arc<AtomicBool>>) -> Interrupt {
        let Some(flag) = flag else {
            return Interrupt { _flag: None };
        };
        let ptr = model.as_mut_ptr();
        // SAFETY: the flag outlives the solve (this guard holds it until `solve` returns).
        unsafe {
            highs_sys::Highs_setCallback(
                ptr,
                Some(on_callback),
                Arc::as_ptr(&flag) as *mut std::os::raw::c_void,
            );
            highs_sys::Highs_startCallback(ptr, highs_sys::kHighsCallbackMipInterrupt as _);
        }
        Interrupt { _flag: Some(flag) }
    }
}

impl Backend for HighsBackend {
    fn add_constraint(&mut self, constraint: &Constraint) {
        let (terms, rhs) = constraint.over_vars();
        let (lo, hi) = bounds(constraint.sense, rhs);
        self.add_row(&terms, lo, hi);
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        let c = Constraint {
            terms: lits.iter().map(|&l| (1, l)).collect(),
            sense: Sense::Ge,
            rhs: 1,
            family: "clause",
            group: None,
        };
        self.add_constraint(&c);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Answer {
        let mut fixed: Vec<Lit> = Vec::new();
        let mut cap: Option<i64> = None;
        for &l in assumptions {
            if l.var.index() < self.num_vars {
                fixed.push(l);
            } else if !l.negated {
                let c = self.selectors[l.var.index() - self.num_vars];
                cap = Some(cap.map_or(c, |d: i64| d.min(c)));
            }
        }
        fixed.sort();
        fixed.dedup();
        if fixed.windows(2).any(|w| w[0].var == w[1].var) {
            return Answer::Unsat;
        }
        let answer = self.run(&fixed, cap);
        if answer != Answer::Unsat {
            return answer;
        }
        // HiGHS 1.16's presolve declared a feasible model infeasible (Tantrix free-20 with
        // C2', its log warning of "untransformed violations"): a refutation stands only once
        // a solve without presolve confirms it.
        self.confirmations += 1;
        self.highs().set_option("presolve", "off");
        let confirmed = self.run(&fixed, cap);
        self.highs().set_option("presolve", "choose");
        confirmed
    }

    fn assignment(&self) -> Vec<bool> {
        self.values.clone()
    }

    fn failed(&self, _assumption: Lit) -> bool {
        // HiGHS gives no core: every assumption is reported as used (a valid superset).
        true
    }

    fn objective_at_most(&mut self, bound: i64) -> Option<Vec<Lit>> {
        if !self.has_objective || bound < self.least {
            return None;
        }
        self.prepare_objective();
        self.selectors.push(bound);
        let var = crate::model::Var((self.num_vars + self.selectors.len() - 1) as u32);
        Some(vec![var.pos()])
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    fn engine_size(&self) -> EngineSize {
        EngineSize {
            variables: self.cols.len(),
            clauses: self.rows,
            cuts_in_search: 0,
        }
    }

    fn mip_stats(&self) -> Option<MipStats> {
        let mut s = self.stats.clone();
        s.confirmations = self.confirmations;
        Some(s)
    }
}

/// The model's rows, over its variables' columns.
fn add_rows(problem: &mut RowProblem, cols: &[Col], model: &Model) {
    for c in &model.constraints {
        let (terms, rhs) = c.over_vars();
        crate::guard::charge(24 * terms.len() as u64 + 64);
        let (lo, hi) = bounds(c.sense, rhs);
        problem.add_row(lo..=hi, factors(cols, &terms));
    }
}

/// A row's terms as HiGHS columns and coefficients.
fn factors<'a>(
    cols: &'a [Col],
    terms: &'a [(i64, crate::model::Var)],
) -> impl Iterator<Item = (Col, f64)> + 'a {
    terms.iter().map(|&(k, v)| (cols[v.index()], k as f64))
}

/// The model's objective in minimisation form over variables: `offset + sum(cost[v] * x_v)`
/// (all zero without an objective).
fn minimised(model: &Model) -> (i64, Vec<i64>) {
    let mut per_var = vec![0i64; model.num_vars()];
    let Some(obj) = &model.objective else {
        return (0, per_var);
    };
    let sign = match obj.direction {
        Direction::Minimise => 1,
        Direction::Maximise => -1,
    };
    let mut offset = sign * obj.constant;
    for &(w, l) in &obj.terms {
        let w = w * sign;
        if l.negated {
            offset += w;
            per_var[l.var.index()] -= w;
        } else {
            per_var[l.var.index()] += w;
        }
    }
    (offset, per_var)
}

/// Solves the LP relaxation of `model` (within `deadline`).
pub fn relax(model: &Model, deadline: Option<Instant>) -> Relaxation {
    let started = Instant::now();
    let mut problem = RowProblem::default();
    // HiGHS minimises the minimisation form; the value is reported in the model's direction.
    let (offset, costs) = minimised(model);
    let sign = match model.objective.as_ref().map(|o| o.direction) {
        Some(Direction::Maximise) => -1.0,
        _ => 1.0,
    };
    let cols: Vec<Col> = costs
        .iter()
        .map(|&c| problem.add_column(c as f64, 0.0..=1.0))
        .collect();
    add_rows(&mut problem, &cols, model);
    let mut highs = problem.optimise(highs::Sense::Minimise);
    if let Some(d) = deadline {
        let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
        highs.set_option("time_limit", left.max(0.001));
    }
    let solved = highs.solve();
    let status = solved.status();
    let (value, fractional) = match status {
        HighsModelStatus::Optimal | HighsModelStatus::ModelEmpty => {
            let sol = solved.get_solution();
            let x = sol.columns();
            let frac = x.iter().filter(|v| (*v - v.round()).abs() > 1e-6).count();
            let v = model.objective.as_ref().map(|_| {
                let min_form: f64 = costs.iter().zip(x).map(|(&c, v)| c as f64 * v).sum();
                sign * (offset as f64 + min_form)
            });
            (v, frac)
        }
        _ => (None, 0),
    };
    Relaxation {
        maximise: sign < 0.0,
        variables: model.num_vars(),
        status: match status {
            HighsModelStatus::Optimal | HighsModelStatus::ModelEmpty => "optimal".into(),
            HighsModelStatus::Infeasible => "infeasible".into(),
            HighsModelStatus::ReachedTimeLimit => "unknown (time limit)".into(),
            other => format!("{other:?}").to_lowercase(),
        },
        value,
        fractional,
        simplex_iterations: solved.simplex_iteration_count(),
        seconds: started.elapsed().as_secs_f64(),
        goal: None,
    }
}
