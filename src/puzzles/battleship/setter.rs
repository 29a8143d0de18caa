//! What a setter needs, on one incremental SAT instance per puzzle: is the solution unique,
//! which clues are redundant (the paper's §5), a locally minimal clue set, and new puzzles.
//!
//! The model is built without clues; every cell gets an activation variable `a` and the
//! clauses `a → (the cell shows the target's symbol)`; the target solution is excluded by one
//! no-good clause. A set of clues then leaves the target unique exactly when the solver, with
//! those clues' activation variables assumed, finds nothing. Each question is one solve.

use super::model::{BattleshipModel, Formulation};
use super::{Grid, Layout, Symbol};
use crate::error::{Error, Result};
use crate::model::{Lit, Var};
use crate::solve::reasons::{self, Facts, Shrunk, Trial};
use crate::solve::sat::SatBackend;
use crate::solve::search::{Search, Status, Step};
use crate::solve::Backend;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A small deterministic generator (SplitMix64), so that `--seed` reproduces a puzzle.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// A clue: row, column (from 0) and symbol.
pub type Clue = (usize, usize, Symbol);

/// A limit stopped the search.
#[derive(Debug)]
pub struct Stopped;

/// Questions about one target solution under varying clue sets.
pub struct ClueSession {
    bm: BattleshipModel,
    search: Search<'static, SatBackend>,
    act: Vec<Var>,
    target: Layout,
    /// The clue each cell gives (the target's symbol, or [`Symbol::Ship`] where the puzzle
    /// says only "a part of a ship"), and the symbols of every other solution found so far: a
    /// witness that breaks exactly one clue of a set shows that clue necessary there.
    symbols: Vec<Symbol>,
    witnesses: Vec<Vec<Symbol>>,
    /// Per cell, a selector of "the solution differs from the target at the cell or next to
    /// it" (where a clue there is read from).
    near: Vec<Var>,
}

impl ClueSession {
    /// `p`'s counts and fleet, none of its clues; `target` solves `p`.
    pub fn new(
        p: &Grid,
        target: &Layout,
        formulation: Formulation,
        deadline: Option<Instant>,
        progress: bool,
    ) -> ClueSession {
        let n = p.rows * p.cols;
        let bare = p.with_clues(vec![None; n]);
        let mut bm = BattleshipModel::new(&bare, formulation, false);
        let act: Vec<Var> = (0..n)
            .map(|c| {
                bm.model
                    .var(format!("a_{}_{}", c / p.cols + 1, c % p.cols + 1))
            })
            .collect();
        let near: Vec<Var> = (0..n)
            .map(|c| {
                bm.model
                    .var(format!("near_{}_{}", c / p.cols + 1, c % p.cols + 1))
            })
            .collect();
        let mut backend = crate::solve::default_backend(&bm.model);
        // A puzzle's clue that names no part stays as weak as it is.
        let symbols: Vec<Symbol> = target
            .symbols()
            .into_iter()
            .zip(&p.clues)
            .map(|(s, clue)| match clue {
                Some(Symbol::Ship) => Symbol::Ship,
                _ => s,
            })
            .collect();
        let occupied = target.occupied();
        if bm.ship_at(0).is_some() {
            for c in 0..n {
                let mut clause = vec![near[c].negated()];
                clause.extend(
                    around(p, c, symbols[c])
                        .into_iter()
                        .map(|d| cell_lit(&bm, d, &occupied, false)),
                );
                backend.add_clause(&clause);
            }
        }
        for c in 0..n {
            for clause in bm.clue_clauses(c / p.cols, c % p.cols, symbols[c]) {
                let mut lits = vec![act[c].negated()];
                lits.extend(clause);
                backend.add_clause(&lits);
            }
        }
        let differs = bm.differs_from(target);
        backend.add_clause(&differs);
        // Every solution asked for agrees with the target on the clues assumed, and differs
        // from it somewhere, most often near a clue taken away: the search starts from the
        // target and repairs it.
        let agree: Vec<Lit> = differs.iter().map(|&l| !l).collect();
        backend.prefer(&agree);
        let mut search = Search::new(backend, deadline);
        if progress {
            search = search.with_progress("battleship");
        }
        ClueSession {
            bm,
            search,
            act,
            target: target.clone(),
            symbols,
            witnesses: Vec::new(),
            near,
        }
    }

    /// Whether the clue at `cell` is needed with the clues at `cells` (the others): a
    /// solution of them that differs from the target around it (`Some(true)`; only one that
    /// breaks the clue can), or a proof that none does (`Some(false)`: they imply the clue).
    /// `None` on a formulation that does not decide cells.
    pub fn needed(
        &mut self,
        cells: &[usize],
        cell: usize,
    ) -> std::result::Result<Option<bool>, Stopped> {
        if self.bm.ship_at(cell).is_none() {
            return Ok(None);
        }
        let mut assumptions: Vec<Lit> = cells.iter().map(|&c| self.act[c].pos()).collect();
        assumptions.push(self.near[cell].pos());
        match self.search.step(&assumptions) {
            Step::Found(a) => {
                self.witnesses.push(self.bm.decode(&a).symbols());
                Ok(Some(true))
            }
            Step::Exhausted => Ok(Some(false)),
            Step::Stopped => Err(Stopped),
        }
    }

    /// A solution other than the target that agrees with the target on `cells`, or `None`
    /// when there is none (the clues there make the target unique).
    pub fn other(&mut self, cells: &[usize]) -> std::result::Result<Option<Layout>, Stopped> {
        let assumptions: Vec<Lit> = cells.iter().map(|&c| self.act[c].pos()).collect();
        match self.search.step(&assumptions) {
            Step::Found(a) => {
                let other = self.bm.decode(&a);
                self.witnesses.push(other.symbols());
                Ok(Some(other))
            }
            Step::Exhausted => Ok(None),
            Step::Stopped => Err(Stopped),
        }
    }

    pub fn progress(&self, msg: String) {
        self.search.progress(msg);
    }

    pub fn target(&self) -> &Layout {
        &self.target
    }

    /// Removes clues greedily in `order` while the target stays unique: afterwards every
    /// clue left is necessary (removing clues only adds solutions, so one pass suffices).
    /// Each proof of uniqueness also names the clues it used; the others go at once. This is
    /// the reason engine's deletion ([`crate::solve::reasons::shrink`]), the clues the
    /// elements and uniqueness the conclusion; clues of `cells` not in `order` are kept
    /// untried.
    ///
    /// Every intermediate set leaves the target unique (a set is replaced only by one a proof
    /// showed unique), so a stopped pass still answers one: `Err` carries it, not shown
    /// minimal.
    pub fn minimise(
        &mut self,
        cells: &[usize],
        order: &[usize],
    ) -> std::result::Result<Vec<usize>, Vec<usize>> {
        let mut keep = match self.used(cells) {
            Ok(Some(used)) => used,
            Ok(None) => cells.to_vec(),
            Err(Stopped) => return Err(cells.to_vec()),
        };
        let rank = |c: usize| order.iter().position(|&o| o == c);
        keep.sort_by_key(|&c| rank(c).map_or((0, 0), |r| (1, r)));
        let untried = keep.iter().filter(|&&c| rank(c).is_none()).count();
        let mut say = |left: usize, needed: usize| {
            crate::guard::progress::message(&format!(
                "removing redundant clues: {left} kept, {needed} shown necessary"
            ));
        };
        // Clues are assumed in the order `cells` gives them, whatever order the shrink tries
        // them in: the order of assumptions steers the engine's search and the proofs it finds
        // (on generate's 30×20 seed 5, 189 s in this order, 253 s in reading order, 58 s in the
        // shrink's; the puzzle made differs too).
        let mut rank = vec![usize::MAX; self.act.len()];
        for (k, &c) in cells.iter().enumerate() {
            rank[c] = k;
        }
        let mut facts = KeepsUnique {
            session: self,
            rank,
        };
        match reasons::shrink(&mut facts, keep, untried, None, &mut say) {
            Shrunk::Minimal(keep) => Ok(keep),
            Shrunk::Hard(keep, _) | Shrunk::Stopped(keep) => Err(keep),
        }
    }

    /// Whether a solution found earlier agrees with the target on every clue of `cells`.
    fn witnessed(&self, cells: &[usize]) -> bool {
        self.witnesses
            .iter()
            .any(|w| cells.iter().all(|&c| self.symbols[c].admits(w[c])))
    }

    /// When the clues at `cells` leave the target unique: the cells whose clues the proof
    /// used (unique on their own). `None` when another solution agrees on `cells`.
    fn used(&mut self, cells: &[usize]) -> std::result::Result<Option<Vec<usize>>, Stopped> {
        let assumptions: Vec<Lit> = cells.iter().map(|&c| self.act[c].pos()).collect();
        match self.search.step(&assumptions) {
            Step::Found(a) => {
                self.witnesses.push(self.bm.decode(&a).symbols());
                Ok(None)
            }
            Step::Exhausted => {
                let core = self.search.core(&assumptions);
                Ok(Some(
                    cells
                        .iter()
                        .zip(&assumptions)
                        .filter(|(_, a)| core.contains(a))
                        .map(|(&c, _)| c)
                        .collect(),
                ))
            }
            Step::Stopped => Err(Stopped),
        }
    }

    pub fn finish(&mut self) -> crate::solve::search::SearchStats {
        self.search.finish()
    }
}

/// A clue session asked whether clue cells keep the target unique: the question the reason
/// engine shrinks a clue set with; `rank`, the order clues are assumed in.
struct KeepsUnique<'s> {
    session: &'s mut ClueSession,
    rank: Vec<usize>,
}

impl Facts for KeepsUnique<'_> {
    type Counter = ();

    fn trial(&mut self, set: &[usize], _budget: Option<i32>) -> Trial<()> {
        let mut set = set.to_vec();
        set.sort_by_key(|&c| self.rank[c]);
        match self.session.used(&set) {
            Ok(Some(used)) => Trial::Forced(used),
            Ok(None) => Trial::Counter(()),
            Err(Stopped) => Trial::Stopped,
        }
    }

    fn refuted_before(&self, set: &[usize]) -> bool {
        self.session.witnessed(set)
    }
}

/// The solution of `p` and whether it is unique, the second solution if not.
pub struct Uniqueness {
    pub status: Status,
    pub solutions: Vec<Layout>,
}

/// Solves `p` and looks for a second solution (a no-good cut on the first).
pub fn unique(p: &Grid, formulation: Formulation, deadline: Option<Instant>) -> Uniqueness {
    let bm = BattleshipModel::new(p, formulation, true);
    let mut search = Search::new(crate::solve::default_backend(&bm.model), deadline);
    let (status, found) = search.unique(&bm.projection());
    Uniqueness {
        status,
        solutions: found.iter().map(|a| bm.decode(a)).collect(),
    }
}

fn clue_cells(p: &Grid) -> Vec<usize> {
    (0..p.rows * p.cols)
        .filter(|&c| p.clues[c].is_some())
        .collect()
}

/// `p`'s unique solution, or an error saying why there is none.
fn unique_target(p: &Grid, formulation: Formulation, deadline: Option<Instant>) -> Result<Layout> {
    let u = unique(p, formulation, deadline);
    match (u.status, u.solutions.len()) {
        (Status::Unknown, _) => Err(Error::Stopped(
            "the time limit stopped the uniqueness check; give more --time-limit".into(),
        )),
        (_, 0) => Err(Error::input("the puzzle has no solution")),
        (_, 1) => Ok(u.solutions.into_iter().next().expect("one")),
        _ => Err(Error::input(
            "the puzzle has more than one solution, so no clue is redundant; see `unique`",
        )),
    }
}

/// A session on `p`'s unique solution, or an error saying why there is none.
fn session_on(
    p: &Grid,
    formulation: Formulation,
    deadline: Option<Instant>,
) -> Result<ClueSession> {
    let target = unique_target(p, formulation, deadline)?;
    Ok(ClueSession::new(p, &target, formulation, deadline, true))
}

/// Which clues can each be removed alone with the solution staying unique.
pub struct Redundancy {
    pub layout: Layout,
    /// The redundant clues among those checked.
    pub redundant: Vec<Clue>,
    /// How many clues were checked, of how many; fewer when the deadline stopped the run.
    pub checked: usize,
    pub clues: usize,
}

/// The clues that can each be removed (one at a time) with the solution staying unique. A
/// run stopped by the deadline after the uniqueness check answers the clues it checked.
///
/// A proof that a set of clues leaves the target unique names the clues it used (a core):
/// every clue outside it can go alone too, since the clues left still hold the proof, so each
/// clue shown redundant decides every clue its proof did not use. The clues are shared
/// among workers, one per core, each with a session of its own.
pub fn redundant(
    p: &Grid,
    formulation: Formulation,
    deadline: Option<Instant>,
) -> Result<Redundancy> {
    let target = unique_target(p, formulation, deadline)?;
    let cells = clue_cells(p);
    // Per clue: decided redundant (true) or necessary (false).
    let decided: Mutex<Vec<Option<bool>>> = Mutex::new(vec![None; cells.len()]);
    let next = AtomicUsize::new(0);
    let work = |worker: usize| {
        let mut s = ClueSession::new(p, &target, formulation, deadline, worker == 0);
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= cells.len() {
                break;
            }
            if lock(&decided)[k].is_some() {
                continue;
            }
            let without: Vec<usize> = cells.iter().copied().filter(|&d| d != cells[k]).collect();
            // Asked around the clue where the formulation decides cells (faster, measured),
            // else as "another solution anywhere", whose proof decides more clues.
            let answer = match s.needed(&without, cells[k]) {
                Ok(Some(true)) => Ok(None),
                Ok(Some(false)) => Ok(Some(without.clone())),
                Ok(None) => s.used(&without),
                Err(Stopped) => Err(Stopped),
            };
            let mut decided = lock(&decided);
            match answer {
                Ok(None) => decided[k] = Some(false),
                Ok(Some(core)) => {
                    decided[k] = Some(true);
                    for (j, c) in cells.iter().enumerate() {
                        if decided[j].is_none() && !core.contains(c) {
                            decided[j] = Some(true);
                        }
                    }
                }
                Err(Stopped) => break,
            }
            let done = decided.iter().flatten().count();
            drop(decided);
            s.progress(format!("redundant clues: {done}/{} decided", cells.len()));
        }
        s.finish();
    };
    let workers = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .clamp(1, 4)
        .min(cells.len().max(1));
    // A worker stopped by a stop request or the deadline leaves its clues undecided.
    let _ = crate::guard::spread(workers, &work);
    let decided = decided.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut out = Redundancy {
        layout: target,
        redundant: Vec::new(),
        checked: decided.iter().flatten().count(),
        clues: cells.len(),
    };
    for (k, &c) in cells.iter().enumerate() {
        if decided[k] == Some(true) {
            out.redundant
                .push((c / p.cols, c % p.cols, p.clues[c].expect("a clue")));
        }
    }
    Ok(out)
}

/// The guarded value, also after a worker that held it panicked (what it held is still
/// consistent: every update is made whole under the lock).
pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A clue set with the same unique solution, from [`minimise`] or [`generate`].
pub struct Minimised {
    pub puzzle: Grid,
    pub layout: Layout,
    /// Whether every clue left was shown necessary (false when the deadline stopped the pass:
    /// the puzzle is still uniquely solvable, but may have clues to spare).
    pub minimal: bool,
}

/// A locally minimal clue set with the same unique solution: clues are dropped in reading
/// order (or shuffled by `seed`) while the solution stays unique.
pub fn minimise(
    p: &Grid,
    formulation: Formulation,
    seed: Option<u64>,
    deadline: Option<Instant>,
) -> Result<Minimised> {
    let mut s = session_on(p, formulation, deadline)?;
    let cells = clue_cells(p);
    let mut order = cells.clone();
    if let Some(seed) = seed {
        Rng::new(seed).shuffle(&mut order);
    }
    let (keep, minimal) = match s.minimise(&cells, &order) {
        Ok(keep) => (keep, true),
        Err(partial) => (partial, false),
    };
    s.finish();
    let mut clues = vec![None; p.rows * p.cols];
    for c in keep {
        clues[c] = p.clues[c];
    }
    Ok(Minimised {
        puzzle: p.with_clues(clues),
        layout: s.target.clone(),
        minimal,
    })
}

/// A random placement of the fleet (no counts, no clues): ships longest first, each at a
/// random free position the SAT solver confirms the rest of the fleet can still be placed
/// around.
pub fn random_layout(
    rows: usize,
    cols: usize,
    fleet: &[usize],
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Layout> {
    // Before the vectors below are allocated: a side of 10^9 must be refused, not allocated.
    Grid::check_sides(rows, cols)?;
    let open = Grid::new(
        rows,
        cols,
        fleet.to_vec(),
        vec![None; rows],
        vec![None; cols],
        vec![None; rows * cols],
    )?;
    let bm = BattleshipModel::new(&open, Formulation::Ship, false);
    let grids = super::placements(rows, cols, open.max_len());
    let yvars = bm.projection();
    let mut search = Search::new(crate::solve::default_backend(&bm.model), deadline);
    let mut chosen: Vec<Lit> = Vec::new();
    let mut blocked = vec![false; rows * cols];
    let mut last: Option<Vec<bool>> = None;
    for len in (1..=open.max_len()).rev() {
        for _ in 0..open.fleet[len - 1] {
            let mut candidates: Vec<usize> = (0..grids.len())
                .filter(|&g| {
                    grids[g].len == len
                        && grids[g]
                            .cells()
                            .iter()
                            .all(|&(i, j, _)| !blocked[i * cols + j])
                })
                .collect();
            rng.shuffle(&mut candidates);
            for &g in candidates.iter().take(12) {
                let mut a = chosen.clone();
                a.push(yvars[g].pos());
                match search.step(&a) {
                    Step::Found(x) => {
                        chosen = a;
                        last = Some(x);
                        for (i, j, _) in grids[g].cells() {
                            for di in -1isize..=1 {
                                for dj in -1isize..=1 {
                                    let (a, b) = (i as isize + di, j as isize + dj);
                                    if a >= 0
                                        && b >= 0
                                        && (a as usize) < rows
                                        && (b as usize) < cols
                                    {
                                        blocked[a as usize * cols + b as usize] = true;
                                    }
                                }
                            }
                        }
                        break;
                    }
                    Step::Exhausted => {}
                    Step::Stopped => {
                        return Err(Error::Stopped(
                            "the time limit stopped the layout search".into(),
                        ))
                    }
                }
            }
        }
    }
    let x = match last {
        Some(x) => x,
        None => match search.step(&chosen) {
            Step::Found(x) => x,
            Step::Exhausted => {
                return Err(Error::input(format!(
                    "the fleet {} does not fit on a {rows}×{cols} board without ships touching",
                    open.fleet_text()
                )))
            }
            Step::Stopped => {
                return Err(Error::Stopped(
                    "the time limit stopped the layout search".into(),
                ))
            }
        },
    };
    Ok(bm.decode(&x))
}

/// A new puzzle: a random layout, its row and column counts, clues added where a second
/// solution differs from the layout until none is left, then redundant clues removed.
pub struct Generated {
    pub puzzle: Grid,
    pub layout: Layout,
    /// Clues before the redundant ones were removed.
    pub clues_added: usize,
    /// How far the run got: a run stopped by the deadline answers what it had.
    pub stage: Stage,
}

/// How far a generation got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Stopped while adding clues: the puzzle so far has more than one solution.
    Ambiguous,
    /// Stopped while removing redundant clues: unique, but clues may be spare.
    Unique,
    /// Unique, and every clue necessary.
    Minimal,
}

pub fn generate(
    rows: usize,
    cols: usize,
    fleet: &[usize],
    seed: u64,
    formulation: Formulation,
    deadline: Option<Instant>,
    progress: bool,
) -> Result<Generated> {
    let mut rng = Rng::new(seed);
    let layout = random_layout(rows, cols, fleet, &mut rng, deadline)?;
    let (rc, cc) = layout.counts();
    let p = Grid::new(
        rows,
        cols,
        fleet.to_vec(),
        rc.into_iter().map(Some).collect(),
        cc.into_iter().map(Some).collect(),
        vec![None; rows * cols],
    )?;
    let mut s = ClueSession::new(&p, &layout, formulation, deadline, progress);
    let occ = layout.occupied();
    let symbols = layout.symbols();
    let with = |cells: &[usize]| {
        let mut clues = vec![None; rows * cols];
        for &c in cells {
            clues[c] = Some(symbols[c]);
        }
        p.with_clues(clues)
    };
    let mut cells: Vec<usize> = Vec::new();
    loop {
        let other = match s.other(&cells) {
            Ok(Some(other)) => other,
            Ok(None) => break,
            Err(Stopped) => {
                return Ok(Generated {
                    puzzle: with(&cells),
                    layout,
                    clues_added: cells.len(),
                    stage: Stage::Ambiguous,
                })
            }
        };
        let o = other.occupied();
        // One clue in each region (8-connected) where the other solution differs, since the
        // regions are independent ambiguities; a ship part tells more than water (an end or a
        // submarine fixes its neighbours too), so the clue goes on one if the region has any.
        let mut seen = vec![false; rows * cols];
        for start in 0..rows * cols {
            if seen[start] || o[start] == occ[start] {
                continue;
            }
            let mut region = vec![start];
            seen[start] = true;
            let mut k = 0;
            while k < region.len() {
                let (i, j) = ((region[k] / cols) as isize, (region[k] % cols) as isize);
                k += 1;
                for (di, dj) in [
                    (-1, -1),
                    (-1, 0),
                    (-1, 1),
                    (0, -1),
                    (0, 1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                ] {
                    let (a, b) = (i + di, j + dj);
                    if a < 0 || b < 0 || a as usize >= rows || b as usize >= cols {
                        continue;
                    }
                    let d = a as usize * cols + b as usize;
                    if !seen[d] && o[d] != occ[d] {
                        seen[d] = true;
                        region.push(d);
                    }
                }
            }
            let parts: Vec<usize> = region.iter().copied().filter(|&c| occ[c]).collect();
            let pool = if parts.is_empty() { &region } else { &parts };
            cells.push(pool[rng.below(pool.len())]);
        }
        s.progress(format!("adding clues: {}", cells.len()));
    }
    let added = cells.len();
    let mut order = cells.clone();
    rng.shuffle(&mut order);
    let (keep, stage) = match s.minimise(&cells, &order) {
        Ok(keep) => (keep, Stage::Minimal),
        Err(partial) => (partial, Stage::Unique),
    };
    s.finish();
    Ok(Generated {
        puzzle: with(&keep),
        layout,
        clues_added: added,
        stage,
    })
}

/// The literal "cell `c` is as in `target`" (`agree`) or "differs from it", on a formulation
/// that decides cells ([`BattleshipModel::ship_at`]).
pub(crate) fn cell_lit(bm: &BattleshipModel, c: usize, target: &[bool], agree: bool) -> Lit {
    let l = bm.ship_at(c).expect("a formulation that decides cells");
    if target[c] == agree {
        l
    } else {
        !l
    }
}

/// The cells a clue at `cell` is read from: the cell, and for a ship the four next to it
/// on the board (its symbol says which of them hold ships).
pub(crate) fn around(p: &Grid, cell: usize, symbol: Symbol) -> Vec<usize> {
    let (r, c) = (cell / p.cols, cell % p.cols);
    let mut out = vec![cell];
    // Which part of a ship a cell shows depends on its neighbours; that it is one does not.
    if symbol.is_ship() && symbol != Symbol::Ship {
        if r > 0 {
            out.push(cell - p.cols);
        }
        if r + 1 < p.rows {
            out.push(cell + p.cols);
        }
        if c > 0 {
            out.push(cell - 1);
        }
        if c + 1 < p.cols {
            out.push(cell + 1);
        }
    }
    out
}
