//! The engine an explanation asks: the formulation's model on SAT with each reason group
//! behind a selector, the elements a reason may cite (groups, the optimum, conclusions), and
//! the question the reason engine ([`crate::solve::reasons`]) shrinks reasons with.

use super::answer::Cited;
use super::words::says;
use crate::model::{Kind, Lit, Model, Sense, Var};
use crate::puzzles::{Formulated, Meaning};
use crate::solve::reasons::{self, Facts, Found, Shrunk, Trial};
use crate::solve::sat::SatBackend;
use crate::solve::search::{Search, Step as Solve};
use crate::solve::Backend;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What citing one element costs: an earlier conclusion or a given is a look at the board,
/// a rule a piece of reasoning.
pub fn cost(kind: Kind) -> u32 {
    match kind {
        Kind::Earlier | Kind::Given => 1,
        Kind::Rule => 2,
    }
}

/// How an engine holds the rows that count ("row 3 holds 4 ship cells", "exactly 2 ships of
/// length 3"): two ways, each faster on some puzzles (docs/explain.md, "Two engines race").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rows {
    /// Every row encoded in clauses (totalizers).
    Encoded,
    /// Grouped "exactly" rows of four or more literals checked by counting during search
    /// ([`crate::solve::counting`]), their selector a guard.
    Counted,
}

impl Rows {
    /// The engine's name in a progress report.
    pub(super) fn engine_name(self) -> &'static str {
        match self {
            Rows::Encoded => "clauses engine",
            Rows::Counted => "counting engine",
        }
    }
}

/// One engine: the model with its groups behind selectors, and the elements a reason may cite.
pub(super) struct Engine<'a> {
    pub(super) search: Search<'a, SatBackend>,
    /// Each element's assumption: a group's selector, the optimum's, or a conclusion.
    pub(super) lits: Vec<Lit>,
    pub(super) costs: Vec<u32>,
    pub(super) cited: Vec<Cited>,
    /// How many of the elements are groups (the first ones).
    pub(super) groups: usize,
    /// The formulation's model as written (its groups' rows unguarded), and the rows of each
    /// group: counter-assignments are checked against these directly.
    pub(super) model: Model,
    pub(super) rows_of: Vec<Vec<usize>>,
    /// What the last [`shrink`] met: for each element of its reason, an assignment of the
    /// rest where the conclusion fails (found when that element could not be dropped).
    pub(super) witnesses: Vec<(usize, Vec<bool>)>,
    /// Raised when the engine racing this one has finished: every solve stops.
    pub(super) race: Option<Arc<AtomicBool>>,
}

impl<'a> Engine<'a> {
    /// The engine of a formulation (its cuts and watcher move into it). `optimum`: the
    /// optimal value in the model's minimisation form and its words, a given of its own.
    pub(super) fn new<S>(
        f: &mut Formulated<'a, S>,
        optimum: Option<(i64, String)>,
        deadline: Option<std::time::Instant>,
        config: &str,
        rows: Rows,
    ) -> Engine<'a> {
        let (mut base, grouped) = split_rows(&f.model, rows);
        let selectors: Vec<Var> = (0..f.model.groups.len())
            .map(|g| base.var(format!("explain_g{g}")))
            .collect();
        let opt_var = optimum.as_ref().map(|_| base.var("explain_optimum"));
        let mut backend = SatBackend::with_config(&base, config);
        for c in &grouped {
            let g = c.group.expect("grouped") as usize;
            backend.add_guarded(c, selectors[g].pos());
        }
        let mut lits: Vec<Lit> = selectors.iter().map(|v| v.pos()).collect();
        let mut cited: Vec<Cited> = f.model.groups.iter().map(Cited::from).collect();
        if let (Some((bound, words)), Some(v)) = (optimum, opt_var) {
            match backend.objective_at_most(bound) {
                Some(at_most) => {
                    for l in at_most {
                        backend.add_clause(&[v.negated(), l]);
                    }
                }
                None => backend.add_clause(&[v.negated()]),
            }
            lits.push(v.pos());
            cited.push(Cited {
                kind: Kind::Given,
                place: None,
                text: words,
                cells: Vec::new(),
            });
        }
        // A fact not assumed is off unless the search needs it on: a satisfiable solve (a
        // fact found needed, a decision not forced) then does no work for the rows of facts
        // that are not in force.
        let off: Vec<Lit> = selectors.iter().map(|v| v.negated()).collect();
        backend.prefer(&off);
        let mut search = Search::new(backend, deadline);
        if let Some(cuts) = f.cuts.take() {
            search = search.with_cuts(cuts);
        }
        if let Some(make) = f.watcher.take() {
            search.backend.watch(&*make);
        }
        let costs = cited.iter().map(|c| cost(c.kind)).collect();
        let mut rows_of = vec![Vec::new(); selectors.len()];
        for (i, c) in f.model.constraints.iter().enumerate() {
            if let Some(g) = c.group {
                rows_of[g as usize].push(i);
            }
        }
        Engine {
            search,
            lits,
            costs,
            cited,
            groups: selectors.len(),
            model: f.model.clone(),
            rows_of,
            witnesses: Vec::new(),
            race: None,
        }
    }

    /// Adds a conclusion as an element; its index.
    pub(super) fn conclude(&mut self, lit: Lit, meaning: &Meaning) -> usize {
        self.lits.push(lit);
        self.costs.push(cost(Kind::Earlier));
        self.cited.push(Cited {
            kind: Kind::Earlier,
            place: Some(meaning.place),
            text: says(meaning, !lit.negated),
            cells: vec![meaning.place],
        });
        self.lits.len() - 1
    }

    /// Solves with the elements `set` assumed, and `not` (a conclusion) false.
    pub(super) fn solve(&mut self, set: &[usize], not: Option<Lit>) -> Solve {
        let mut assume: Vec<Lit> = set.iter().map(|&e| self.lits[e]).collect();
        assume.extend(not.map(|l| !l));
        self.search.step(&assume)
    }

    /// Whether propagation alone refutes `set` with `not` false (no search; see
    /// [`Backend::refutes_by_propagation`]).
    pub(super) fn propagates(&mut self, set: &[usize], not: Lit) -> bool {
        let mut assume: Vec<Lit> = set.iter().map(|&e| self.lits[e]).collect();
        assume.push(!not);
        self.search.backend.refutes_by_propagation(&assume)
    }

    /// After an unsatisfiable [`Engine::solve`] of `set`: the elements its proof used.
    pub(super) fn core(&self, set: &[usize]) -> Vec<usize> {
        set.iter()
            .copied()
            .filter(|&e| self.search.backend.failed(self.lits[e]))
            .collect()
    }

    /// Whether the engine racing this one has finished first.
    pub(super) fn lost(&self) -> bool {
        self.race
            .as_ref()
            .is_some_and(|r| r.load(Ordering::Relaxed))
    }

    pub(super) fn cost_of(&self, set: &[usize]) -> u32 {
        set.iter().map(|&e| self.costs[e]).sum()
    }

    /// Whether element `x` holds under the full assignment `a`: a group's rows, read from the
    /// model as written, or a conclusion's literal.
    pub(super) fn holds(&self, x: usize, a: &[bool]) -> bool {
        if x < self.groups {
            self.rows_of[x]
                .iter()
                .all(|&i| self.model.constraints[i].holds(a))
        } else {
            self.lits[x].value(a)
        }
    }

    /// Whether `a` satisfies the rows of no group (definitions) and every element of `set`.
    pub(super) fn satisfies(&self, set: &[usize], a: &[bool]) -> bool {
        self.model
            .constraints
            .iter()
            .filter(|c| c.group.is_none())
            .all(|c| c.holds(a))
            && set.iter().all(|&x| self.holds(x, a))
    }
}

/// The model's rows of no group (always in force), with the "exactly" rows the engine counts
/// marked where it counts them, and apart from them the rows of the groups (each to be
/// guarded by its selector).
fn split_rows(model: &Model, rows: Rows) -> (Model, Vec<crate::model::Constraint>) {
    let mut base: Model = model.clone();
    let (grouped, background): (Vec<_>, Vec<_>) = std::mem::take(&mut base.constraints)
        .into_iter()
        .partition(|c| c.group.is_some());
    base.constraints = background;
    base.counted.clear();
    if rows == Rows::Counted {
        for c in &grouped {
            let unit = c.terms.iter().all(|t| t.0 == 1);
            if unit
                && c.sense == Sense::Eq
                && c.terms.len() >= 4
                && !base.counted.contains(&c.family)
            {
                base.counted.push(c.family);
            }
        }
    }
    (base, grouped)
}

impl Engine<'_> {
    /// The elements of `pool` a refutation of `concl` used (with `None`: of the pool's having
    /// a solution): a reason, not minimal yet.
    pub(super) fn core_of(&mut self, pool: &[usize], concl: Option<Lit>) -> Found<Vec<bool>> {
        reasons::core(
            &mut Asking {
                engine: self,
                concl,
            },
            pool,
        )
    }

    /// Shrinks `core` (forcing `concl`) to a subset-minimal reason, dearest elements tried
    /// first, each trial held to `budget` conflicts when one is given, starting after its first
    /// `start` elements (proved necessary by an earlier shrink). With `progress`, what is left
    /// is reported after that text at each trial. The counter-assignments that showed each
    /// element necessary are kept in `witnesses`.
    pub(super) fn shrink(
        &mut self,
        mut core: Vec<usize>,
        concl: Option<Lit>,
        budget: Option<i32>,
        start: usize,
        progress: Option<&str>,
    ) -> Shrunk {
        dearest_first(&self.costs, &mut core);
        self.witnesses.clear();
        let mut say = |left: usize, needed: usize| {
            if let Some(text) = progress {
                crate::guard::progress::message(&format!(
                    "{text}: {left} elements left, {needed} needed"
                ));
            }
        };
        reasons::shrink(
            &mut Asking {
                engine: self,
                concl,
            },
            core,
            start,
            budget,
            &mut say,
        )
    }

    /// [`Engine::shrink`] with no budget: the reason, or `None` if a limit stopped it.
    pub(super) fn shrink_fully(
        &mut self,
        core: Vec<usize>,
        concl: Option<Lit>,
    ) -> Option<Vec<usize>> {
        match self.shrink(core, concl, None, 0, None) {
            Shrunk::Minimal(r) => Some(r),
            Shrunk::Hard(..) | Shrunk::Stopped(_) => None,
        }
    }

    /// A subset-minimal subset of `pool` forcing `concl` ([`reasons::minimal`]: the core,
    /// then deletion, dearest elements first), its elements' counter-assignments kept in
    /// `witnesses`.
    pub(super) fn minimal_reason(
        &mut self,
        pool: &[usize],
        concl: Option<Lit>,
    ) -> Found<Vec<bool>> {
        self.witnesses.clear();
        let costs = self.costs.clone();
        let order = |r: &mut Vec<usize>| dearest_first(&costs, r);
        reasons::minimal(
            &mut Asking {
                engine: self,
                concl,
            },
            pool,
            &order,
        )
    }

    /// The cheapest reason for `concl` in `pool` costing at most `bound`
    /// ([`reasons::smallest`]).
    pub(super) fn smallest_reason(
        &mut self,
        pool: &[usize],
        concl: Lit,
        bound: u32,
        rounds: usize,
    ) -> reasons::Cheaper {
        let costs = self.costs.clone();
        let mut asking = Asking {
            engine: self,
            concl: Some(concl),
        };
        reasons::smallest(&mut asking, pool, &costs, bound, rounds)
    }
}

/// Puts a reason's elements in the order a shrink tries to drop them: the dearest first.
fn dearest_first(costs: &[u32], reason: &mut [usize]) {
    reason.sort_by_key(|&x| (std::cmp::Reverse(costs[x]), x));
}

/// An engine asked whether elements force one conclusion (with `None`: whether they have no
/// solution at all).
struct Asking<'e, 'a> {
    engine: &'e mut Engine<'a>,
    concl: Option<Lit>,
}

impl Facts for Asking<'_, '_> {
    type Counter = Vec<bool>;

    fn trial(&mut self, set: &[usize], budget: Option<i32>) -> Trial<Vec<bool>> {
        let e = &mut *self.engine;
        if let Some(b) = budget {
            e.search.backend.limit_conflicts(b);
        }
        match e.solve(set, self.concl) {
            Solve::Exhausted => Trial::Forced(e.core(set)),
            Solve::Found(a) => Trial::Counter(a),
            Solve::Stopped if budget.is_some() && !e.search.out_of_time() && !e.lost() => {
                Trial::OverBudget
            }
            Solve::Stopped => Trial::Stopped,
        }
    }

    fn necessary(&mut self, x: usize, counter: Vec<bool>) {
        self.engine.witnesses.push((x, counter));
    }

    fn broken(&self, pool: &[usize], counter: &Vec<bool>) -> Option<Vec<usize>> {
        Some(
            pool.iter()
                .copied()
                .filter(|&x| !self.engine.holds(x, counter))
                .collect(),
        )
    }
}
