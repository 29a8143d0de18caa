//! The setter's workbench: one engine per board, kept from one edit to the next.
//!
//! A setter places or removes a clue and asks at once three things: is the solution still
//! unique, which cells does every solution share, and which clues could each go. Cold, each
//! is a model built and solved from nothing. Here the board's counts and fleet are built once;
//! every (cell, symbol) pair gets a selector whose clauses are added the first time a clue
//! uses it, and every target solution a selector for "differs from it". An edit is then
//! a handful of solves under assumptions, with everything learned before still in the engine.
//!
//! Two kinds of facts outlive an edit, because they are about the board, not about the clues:
//! - every solution found (a layout of the fleet that meets the counts): it answers a later
//!   question at once when it meets the clues asked about (a second solution, a cell that
//!   is not forced, a clue that is needed);
//! - every proof that some clues leave only one layout: while the clues asked about contain
//!   them, the layout is unique, and any clue outside them is spare.
//!
//! The forced cells and the spare clues are shared among two engines of the same board, one
//! per core, as `redundant` shares its clues.

use super::model::{BattleshipModel, Formulation};
use super::setter::{around, cell_lit, lock};
use super::{Grid, Layout, Symbol};
use crate::model::{Lit, Var};
use crate::solve::sat::SatBackend;
use crate::solve::{Answer, Backend};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Targets an engine holds selectors for; the next one builds that engine again (the
/// solutions and proofs are kept).
const SELECTORS: usize = 64;

/// Selectors for one-off clauses ("the first solution differs around this clue"), each
/// retired after its solve; an engine with fewer than [`SCRATCH_LOW`] left is built again.
const SCRATCH: usize = 4096;
const SCRATCH_LOW: usize = 64;

/// Solutions and proofs remembered per board (the oldest go first).
const REMEMBERED: usize = 512;

/// A clue: its cell (row-major) and symbol.
type Clue = (usize, Symbol);

/// Everything of a board but its clues: what its engine is built from.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shape {
    rows: usize,
    cols: usize,
    fleet: Vec<usize>,
    row_counts: Vec<Option<usize>>,
    col_counts: Vec<Option<usize>>,
}

impl Shape {
    fn of(p: &Grid) -> Shape {
        Shape {
            rows: p.rows,
            cols: p.cols,
            fleet: p.fleet.clone(),
            row_counts: p.row_counts.clone(),
            col_counts: p.col_counts.clone(),
        }
    }
}

/// What an edit's clues leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No layout meets the clues.
    None,
    Unique,
    Several,
    /// A limit stopped the check before it knew.
    Unknown,
}

/// The workbench's answer to one board.
#[derive(Clone, Debug)]
pub struct Checked {
    pub verdict: Verdict,
    /// A solution (the solution when unique).
    pub solution: Option<Layout>,
    /// A second solution, when there are several.
    pub other: Option<Layout>,
    /// No solution: the cells of the clues the refutation used (together they admit none).
    pub conflict: Vec<usize>,
    /// Per cell, row-major: `Some(true)` a ship in every solution, `Some(false)` water in
    /// every one, `None` where solutions differ (or, when `open` > 0, where a limit stopped
    /// the search before it knew). `None` as a whole when there is no solution or a limit
    /// stopped the check before it looked.
    pub forced: Option<Vec<Option<bool>>>,
    /// Cells the forced-cell search left undecided when a limit stopped it.
    pub open: usize,
    /// When unique: the clue cells that could each be removed alone, among the `checked`
    /// decided of `clues`.
    pub redundant: Vec<usize>,
    pub checked: usize,
    pub clues: usize,
    /// Solver calls this check made, and answers it took from what earlier checks found.
    pub solves: usize,
    pub remembered: usize,
    /// Engines built for this check (the first check, another board's shape, selectors run out).
    pub built: usize,
}

/// What outlives an edit: facts about the board's shape, whatever its clues.
#[derive(Default)]
struct Memory {
    /// Solutions found, as the symbol of each cell.
    solutions: VecDeque<Vec<Symbol>>,
    /// Proofs: with these clues, this layout (its ship cells) is the only one.
    proofs: VecDeque<(Vec<bool>, Vec<Clue>)>,
    /// Proofs that some clues imply another (every layout meeting them meets it).
    implied: VecDeque<(Vec<Clue>, Clue)>,
}

impl Memory {
    /// About the bytes the remembered solutions and proofs hold.
    fn bytes(&self) -> u64 {
        let solutions: usize = self.solutions.iter().map(|s| s.len() + 24).sum();
        let proofs: usize = self
            .proofs
            .iter()
            .map(|(t, c)| t.len() + 16 * c.len() + 48)
            .sum();
        let implied: usize = self.implied.iter().map(|(c, _)| 16 * c.len() + 40).sum();
        (solutions + proofs + implied) as u64
    }

    fn remember(&mut self, layout: &Layout) {
        let symbols = layout.symbols();
        if !self.solutions.contains(&symbols) {
            if self.solutions.len() == REMEMBERED {
                self.solutions.pop_front();
            }
            self.solutions.push_back(symbols);
        }
    }

    fn prove(&mut self, target: &[bool], clues: Vec<Clue>) {
        if self.proofs.len() == REMEMBERED {
            self.proofs.pop_front();
        }
        self.proofs.push_back((target.to_vec(), clues));
    }

    /// A proof for `target` whose clues are all among `clues` but the one at `except`.
    fn proof_within(
        &self,
        target: &[bool],
        clues: &[Clue],
        except: Option<usize>,
    ) -> Option<Vec<Clue>> {
        self.proofs
            .iter()
            .find(|(t, k)| {
                t == target
                    && k.iter()
                        .all(|&(c, s)| Some(c) != except && clues.contains(&(c, s)))
            })
            .map(|(_, k)| k.clone())
    }

    fn imply(&mut self, clues: Vec<Clue>, clue: Clue) {
        if self.implied.len() == REMEMBERED {
            self.implied.pop_front();
        }
        self.implied.push_back((clues, clue));
    }

    /// Whether the other clues of `clues` imply its `k`th, by a proof remembered.
    fn implied(&self, clues: &[Clue], k: usize) -> bool {
        self.implied.iter().any(|(by, clue)| {
            *clue == clues[k] && by.iter().all(|b| *b != clues[k] && clues.contains(b))
        })
    }

    /// A solution other than `target` that meets every clue but the one at `except`.
    fn witness(&self, target: &[Symbol], clues: &[Clue], except: usize) -> bool {
        self.solutions.iter().any(|w| {
            w.as_slice() != target && clues.iter().all(|&(c, s)| c == except || s.admits(w[c]))
        })
    }
}

/// The SAT engine of one shape.
struct ShapeEngine {
    bm: BattleshipModel,
    backend: SatBackend,
    /// A selector per cell and symbol, and which of them have their clauses in.
    act: Vec<[Var; 8]>,
    added: Vec<[bool; 8]>,
    /// Selectors for "differs from a target" not yet given out, and those given out.
    free: Vec<Var>,
    targets: Vec<(Vec<bool>, Var)>,
    /// Selectors for one-off clauses not yet used.
    scratch: Vec<Var>,
    /// What building it charged to its run's memory account: the model and the clauses.
    bytes: u64,
}

/// A solve's outcome, its layout decoded.
enum Solved {
    Found(Layout),
    /// Unsatisfiable: the assumptions the proof used.
    Refuted(Vec<Lit>),
    Stopped,
}

impl ShapeEngine {
    fn new(p: &Grid) -> ShapeEngine {
        let before = crate::guard::charged();
        let n = p.rows * p.cols;
        let bare = p.with_clues(vec![None; n]);
        let mut bm = BattleshipModel::new(&bare, Formulation::Runs, false);
        let act: Vec<[Var; 8]> = (0..n)
            .map(|c| {
                Symbol::CLUES.map(|s| {
                    bm.model.var(format!(
                        "clue_{}_{}_{}",
                        c / p.cols + 1,
                        c % p.cols + 1,
                        s.char()
                    ))
                })
            })
            .collect();
        let free: Vec<Var> = (0..SELECTORS)
            .map(|t| bm.model.var(format!("differs_{t}")))
            .collect();
        let scratch: Vec<Var> = (0..SCRATCH)
            .map(|t| bm.model.var(format!("once_{t}")))
            .collect();
        let backend = crate::solve::default_backend(&bm.model);
        ShapeEngine {
            bm,
            backend,
            act,
            added: vec![[false; 8]; n],
            free,
            targets: Vec::new(),
            scratch,
            bytes: crate::guard::charged().saturating_sub(before),
        }
    }

    /// A literal that, assumed, makes one of `lits` true: the literal itself for one, else
    /// a one-off selector of their clause ([`ShapeEngine::retire`] it after the solve).
    fn one_of(&mut self, lits: &[Lit]) -> Option<(Lit, Option<Var>)> {
        if let [l] = lits {
            return Some((*l, None));
        }
        let v = self.scratch.pop()?;
        let mut clause = vec![v.negated()];
        clause.extend_from_slice(lits);
        self.backend.add_clause(&clause);
        Some((v.pos(), Some(v)))
    }

    fn retire(&mut self, v: Option<Var>) {
        if let Some(v) = v {
            self.backend.add_clause(&[v.negated()]);
        }
    }

    /// The selectors of `clues`, their clauses added where new.
    fn assumptions(&mut self, cols: usize, clues: &[Clue]) -> Vec<Lit> {
        clues
            .iter()
            .map(|&(c, s)| {
                let a = self.act[c][s as usize];
                if !self.added[c][s as usize] {
                    for clause in self.bm.clue_clauses(c / cols, c % cols, s) {
                        let mut lits = vec![a.negated()];
                        lits.extend(clause);
                        self.backend.add_clause(&lits);
                    }
                    // Marked once all are in: a run stopped while adding them adds them
                    // again next time (a clause twice is harmless).
                    self.added[c][s as usize] = true;
                }
                a.pos()
            })
            .collect()
    }

    /// The selector of "differs from `target`", or `None` when every selector is given out.
    fn differs(&mut self, target: &Layout) -> Option<Var> {
        let occupied = target.occupied();
        if let Some((_, v)) = self.targets.iter().find(|(o, _)| *o == occupied) {
            return Some(*v);
        }
        let v = self.free.pop()?;
        let mut clause = vec![v.negated()];
        clause.extend(self.bm.differs_from(target));
        self.backend.add_clause(&clause);
        self.targets.push((occupied, v));
        Some(v)
    }

    /// Later solves try every cell as in `target` first.
    fn lean(&mut self, target: &[bool]) {
        let lits: Vec<Lit> = (0..target.len())
            .map(|c| cell_lit(&self.bm, c, target, true))
            .collect();
        self.backend.prefer(&lits);
    }

    fn solve(&mut self, assumptions: &[Lit], solves: &AtomicUsize) -> Solved {
        solves.fetch_add(1, Ordering::Relaxed);
        match self.backend.solve(assumptions) {
            Answer::Sat => Solved::Found(self.bm.decode(&self.backend.assignment())),
            Answer::Unsat => Solved::Refuted(
                assumptions
                    .iter()
                    .copied()
                    .filter(|&l| self.backend.failed(l))
                    .collect(),
            ),
            Answer::Unknown => Solved::Stopped,
        }
    }
}

/// The clues among `clues` whose selectors (`assumptions`, in the same order) are in `core`.
fn clues_in(clues: &[Clue], assumptions: &[Lit], core: &[Lit]) -> Vec<Clue> {
    clues
        .iter()
        .zip(assumptions)
        .filter(|(_, a)| core.contains(a))
        .map(|(&cs, _)| cs)
        .collect()
}

/// One board's engines and what they found so far.
pub struct Bench {
    shape: Shape,
    /// One engine per worker, built when first needed.
    engines: Vec<ShapeEngine>,
    memory: Memory,
    /// What the checks so far charged to their runs' memory accounts (engines built, clauses
    /// added to them), less what engines dropped since were built with.
    charged: u64,
    /// The limits of the check under way.
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
}

/// How many engines share the forced cells and the spare clues.
fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, |t| t.get().clamp(1, 2))
}

impl Bench {
    /// A bench for boards shaped as `p` (its engines are built at the first check).
    pub fn new(p: &Grid) -> Bench {
        Bench {
            shape: Shape::of(p),
            engines: Vec::new(),
            memory: Memory::default(),
            charged: 0,
            deadline: None,
            cancel: None,
        }
    }

    /// About the bytes this bench holds between checks: what its checks charged to their
    /// runs (its engines and the clauses added to them; not what CaDiCaL learned), and what
    /// it remembers. A front end that keeps benches charges them to its memory limit by this.
    pub fn bytes(&self) -> u64 {
        self.charged + self.memory.bytes()
    }

    /// Whether `p` has this bench's counts and fleet (only its clues differ).
    pub fn fits(&self, p: &Grid) -> bool {
        self.shape == Shape::of(p)
    }

    /// Builds the first `k` engines where missing or out of selectors.
    fn engines(&mut self, p: &Grid, k: usize) -> usize {
        let mut built = 0;
        let charged = &mut self.charged;
        self.engines.retain(|e| {
            let keep = !e.free.is_empty() && e.scratch.len() >= SCRATCH_LOW;
            if !keep {
                *charged = charged.saturating_sub(e.bytes);
            }
            keep
        });
        while self.engines.len() < k {
            self.engines.push(ShapeEngine::new(p));
            built += 1;
        }
        built
    }

    /// Answers `p` (shaped as this bench, see [`Bench::fits`]): unique or not, the forced
    /// cells, and when unique the clues that could each go. Solves stop at `deadline` or
    /// when `cancel` is raised; what was decided by then is answered.
    pub fn check(
        &mut self,
        p: &Grid,
        deadline: Option<Instant>,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Checked {
        let before = crate::guard::charged();
        let checked = self.answer(p, deadline, cancel);
        self.charged += crate::guard::charged().saturating_sub(before);
        checked
    }

    /// [`Bench::check`]'s work.
    fn answer(
        &mut self,
        p: &Grid,
        deadline: Option<Instant>,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Checked {
        debug_assert!(self.fits(p));
        self.deadline = deadline;
        self.cancel = cancel.clone();
        let n = p.rows * p.cols;
        let clues: Vec<Clue> = (0..n).filter_map(|c| p.clues[c].map(|s| (c, s))).collect();
        let mut out = Checked {
            verdict: Verdict::Unknown,
            solution: None,
            other: None,
            conflict: Vec::new(),
            forced: None,
            redundant: Vec::new(),
            checked: 0,
            open: 0,
            clues: clues.len(),
            solves: 0,
            remembered: 0,
            built: 0,
        };
        let stopped = {
            let cancel = cancel.clone();
            move || {
                deadline.is_some_and(|d| Instant::now() >= d)
                    || cancel.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
            }
        };
        // Solutions found before that meet these clues.
        let known: Vec<Layout> = self
            .memory
            .solutions
            .iter()
            .filter(|w| clues.iter().all(|&(c, s)| s.admits(w[c])))
            .take(2)
            .map(|w| {
                let occupied: Vec<bool> = w.iter().map(|s| s.is_ship()).collect();
                Layout::from_occupancy(p.rows, p.cols, &occupied)
            })
            .collect();
        out.remembered += known.len();
        let solves = AtomicUsize::new(0);
        let mut proof: Option<Vec<Clue>> = None;
        if known.len() < 2 {
            out.built += self.engines(p, 1);
            for e in &mut self.engines {
                e.backend.steer(deadline, cancel.clone());
            }
            let e = &mut self.engines[0];
            let assumptions = e.assumptions(p.cols, &clues);
            // A first solution.
            let first = match known.first() {
                Some(l) => l.clone(),
                None if stopped() => return out,
                None => match e.solve(&assumptions, &solves) {
                    Solved::Found(l) => {
                        self.memory.remember(&l);
                        l
                    }
                    Solved::Refuted(core) => {
                        out.verdict = Verdict::None;
                        out.conflict = clues_in(&clues, &assumptions, &core)
                            .into_iter()
                            .map(|(c, _)| c)
                            .collect();
                        out.solves = solves.into_inner();
                        return out;
                    }
                    Solved::Stopped => return out,
                },
            };
            let target = first.occupied();
            out.solution = Some(first.clone());
            // A second one, or a proof that there is none (and the clues it used).
            if let Some(k) = self.memory.proof_within(&target, &clues, None) {
                out.remembered += 1;
                proof = Some(k);
            } else {
                // The second solution is looked for near the first.
                e.lean(&target);
                let Some(d) = e.differs(&first) else {
                    return out;
                };
                if stopped() {
                    return out;
                }
                let mut with = assumptions.clone();
                with.push(d.pos());
                match e.solve(&with, &solves) {
                    Solved::Found(l) => {
                        self.memory.remember(&l);
                        out.other = Some(l);
                    }
                    Solved::Refuted(core) => {
                        let k = clues_in(&clues, &assumptions, &core);
                        self.memory.prove(&target, k.clone());
                        proof = Some(k);
                    }
                    Solved::Stopped => return out,
                }
            }
        } else {
            out.solution = known.first().cloned();
            out.other = known.get(1).cloned();
        }
        let first = out.solution.clone().expect("a first solution");
        if out.other.is_some() {
            out.verdict = Verdict::Several;
            out.forced = self.forced(p, &clues, &first, &stopped, &solves, &mut out);
        } else {
            out.verdict = Verdict::Unique;
            let target = first.occupied();
            out.forced = Some(target.iter().map(|&s| Some(s)).collect());
            let proof = proof.expect("a proof of uniqueness");
            self.redundant(p, &clues, &first, proof, &stopped, &solves, &mut out);
        }
        out.solves = solves.into_inner();
        out
    }

    /// Runs `work(engine, worker)` on every engine at once, each on a thread of its own (in
    /// the caller's stage), with the board's memory shared; answers whether every worker
    /// finished (none was stopped).
    fn spread(
        &mut self,
        p: &Grid,
        out: &mut Checked,
        work: &(dyn Fn(&mut ShapeEngine, &Mutex<Memory>) -> bool + Sync),
    ) -> bool {
        out.built += self.engines(p, workers());
        let engines: Vec<Mutex<ShapeEngine>> = self
            .engines
            .drain(..)
            .map(|mut e| {
                e.backend.steer(self.deadline, self.cancel.clone());
                Mutex::new(e)
            })
            .collect();
        let memory = Mutex::new(std::mem::take(&mut self.memory));
        let finished =
            crate::guard::spread(engines.len(), &|i| work(&mut lock(&engines[i]), &memory));
        self.memory = memory.into_inner().unwrap_or_else(|e| e.into_inner());
        self.engines = engines
            .into_iter()
            .map(|e| e.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect();
        finished.iter().all(|f| matches!(f, Ok(true)))
    }

    /// The cells every solution meeting `clues` shares, with several solutions: each cell the
    /// solutions known agree on is tried the other way; a solution found rules out every
    /// cell where it differs. Stopped, the cells proved so far (`out.open` says how many
    /// more were still in question).
    fn forced(
        &mut self,
        p: &Grid,
        clues: &[Clue],
        first: &Layout,
        stopped: &(dyn Fn() -> bool + Sync),
        solves: &AtomicUsize,
        out: &mut Checked,
    ) -> Option<Vec<Option<bool>>> {
        let n = p.rows * p.cols;
        let target = first.occupied();
        let mut same: Vec<bool> = vec![true; n];
        for w in &self.memory.solutions {
            if clues.iter().all(|&(c, s)| s.admits(w[c])) {
                for c in 0..n {
                    if w[c].is_ship() != target[c] {
                        same[c] = false;
                    }
                }
            }
        }
        let same = Mutex::new(same);
        let proven = Mutex::new(vec![false; n]);
        let next = AtomicUsize::new(0);
        // On engines of their own with the clues as units, not the board's (where clues are
        // assumptions): the solver simplifies with them, and the solves that find a layout
        // are several times faster (measured: seed 5, a clue taken away, 56.2 → 16.6 s).
        let memory = Mutex::new(std::mem::take(&mut self.memory));
        let (deadline, cancel) = (self.deadline, self.cancel.clone());
        let done = crate::guard::spread(workers(), &|_| {
            let bm = BattleshipModel::new(p, Formulation::Runs, true);
            let mut backend = crate::solve::default_backend(&bm.model);
            backend.steer(deadline, cancel.clone());
            // Solutions far from the first rule out more cells each (measured: fewer and
            // faster solves than leaning towards it).
            let away: Vec<Lit> = (0..n).map(|c| cell_lit(&bm, c, &target, false)).collect();
            backend.prefer(&away);
            loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                if c >= n {
                    return true;
                }
                if !lock(&same)[c] {
                    continue;
                }
                if stopped() {
                    return false;
                }
                solves.fetch_add(1, Ordering::Relaxed);
                match backend.solve(&[cell_lit(&bm, c, &target, false)]) {
                    Answer::Sat => {
                        let l = bm.decode(&backend.assignment());
                        let occupied = l.occupied();
                        let mut same = lock(&same);
                        for d in 0..n {
                            if occupied[d] != target[d] {
                                same[d] = false;
                            }
                        }
                        drop(same);
                        lock(&memory).remember(&l);
                    }
                    Answer::Unsat => lock(&proven)[c] = true,
                    Answer::Unknown => return false,
                }
            }
        });
        self.memory = memory.into_inner().unwrap_or_else(|e| e.into_inner());
        let finished = done.iter().all(|f| matches!(f, Ok(true)));
        let same = same.into_inner().unwrap_or_else(|e| e.into_inner());
        let proven = proven.into_inner().unwrap_or_else(|e| e.into_inner());
        // Stopped: the cells proved so far, and how many are still open.
        let settled = |c: usize| same[c] && (finished || proven[c]);
        out.open = (0..n).filter(|&c| same[c] && !settled(c)).count();
        Some((0..n).map(|c| settled(c).then_some(target[c])).collect())
    }

    /// With `first` unique under `clues` (by a proof that used `proof`): which clues could
    /// each go. A clue outside a proof of uniqueness goes, and so does one that other clues
    /// imply by a proof remembered; a solution known that meets every other clue keeps it;
    /// otherwise one solve decides it: is there a solution of the other clues that differs
    /// from the first around this clue? Only a solution that breaks the clue can (any other
    /// meets every clue, so it is the first), so this asks exactly whether the clue is
    /// needed, and asks it where the answer lies.
    #[allow(clippy::too_many_arguments)]
    fn redundant(
        &mut self,
        p: &Grid,
        clues: &[Clue],
        first: &Layout,
        proof: Vec<Clue>,
        stopped: &(dyn Fn() -> bool + Sync),
        solves: &AtomicUsize,
        out: &mut Checked,
    ) {
        let symbols = first.symbols();
        let target = first.occupied();
        let decided: Vec<Option<bool>> = clues
            .iter()
            .map(|cs| (!proof.contains(cs)).then_some(true))
            .collect();
        let decided = Mutex::new(decided);
        let spare_outside = |decided: &mut Vec<Option<bool>>, proof: &[Clue]| {
            for (j, cs) in clues.iter().enumerate() {
                if decided[j].is_none() && !proof.contains(cs) {
                    decided[j] = Some(true);
                }
            }
        };
        let remembered = AtomicUsize::new(0);
        let next = AtomicUsize::new(0);
        self.spread(p, out, &|e, memory| {
            let assumptions = e.assumptions(p.cols, clues);
            // A second solution is looked for near the first.
            e.lean(&target);
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= clues.len() {
                    return true;
                }
                if lock(&decided)[k].is_some() {
                    continue;
                }
                let cell = clues[k].0;
                {
                    let memory = lock(memory);
                    if memory.witness(&symbols, clues, cell) {
                        remembered.fetch_add(1, Ordering::Relaxed);
                        lock(&decided)[k] = Some(false);
                        continue;
                    }
                    if let Some(proof) = memory.proof_within(&target, clues, Some(cell)) {
                        remembered.fetch_add(1, Ordering::Relaxed);
                        let mut decided = lock(&decided);
                        decided[k] = Some(true);
                        spare_outside(&mut decided, &proof);
                        continue;
                    }
                    if memory.implied(clues, k) {
                        remembered.fetch_add(1, Ordering::Relaxed);
                        lock(&decided)[k] = Some(true);
                        continue;
                    }
                }
                if stopped() {
                    return false;
                }
                let mut with: Vec<Lit> = assumptions
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .map(|(_, &a)| a)
                    .collect();
                // Another solution of the clues but this one differs from the first around
                // it (the clue's symbol is read off its cell and the four next to it), so
                // the question is asked there: "differs around here" (faster, measured).
                let around = around(p, cell, clues[k].1)
                    .into_iter()
                    .map(|c| cell_lit(&e.bm, c, &target, false))
                    .collect::<Vec<Lit>>();
                let Some((l, once)) = e.one_of(&around) else {
                    return false;
                };
                with.push(l);
                let answer = e.solve(&with, solves);
                e.retire(once);
                match answer {
                    Solved::Found(l) => {
                        lock(memory).remember(&l);
                        lock(&decided)[k] = Some(false);
                    }
                    Solved::Refuted(core) => {
                        // The clues the proof used imply this one.
                        let implying = clues_in(clues, &assumptions, &core);
                        lock(memory).imply(implying, clues[k]);
                        lock(&decided)[k] = Some(true);
                    }
                    Solved::Stopped => return false,
                }
            }
        });
        let decided = decided.into_inner().unwrap_or_else(|e| e.into_inner());
        out.remembered += remembered.into_inner();
        out.checked = decided.iter().flatten().count();
        out.redundant = clues
            .iter()
            .zip(&decided)
            .filter(|(_, d)| **d == Some(true))
            .map(|(&(c, _), _)| c)
            .collect();
    }
}
