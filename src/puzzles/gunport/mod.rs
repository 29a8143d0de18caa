//! The Gunport problem (seed chapter 29, after Chlond & Bosch 2006 and Sands 1971): pack
//! dominoes on an m×n board so that no further domino fits, leaving as many single cells
//! (gunports, holes) as possible. A packing is maximal exactly when no two holes are neighbours.

pub mod budget;
pub mod dp;

use crate::error::{Error, Result};
use crate::model::{Lit, Model, Sense, Var};

/// The largest side accepted by the integer programs.
pub const MAX_SIDE: usize = 60;

/// A board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gunport {
    pub m: usize,
    pub n: usize,
}

/// A domino: two edge-adjacent cells, (row, col) 0-based.
pub type Domino = [(usize, usize); 2];

/// A packing: the board size and its dominoes; the holes are the uncovered cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packing {
    pub m: usize,
    pub n: usize,
    pub dominoes: Vec<Domino>,
}

/// Which integer program to build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Formulation {
    /// The seed's monomino model: h, v, μ per cell; one cover equation per cell; no two
    /// adjacent holes; maximise the holes.
    Cell,
    /// The earlier formulation: one variable per (domino number, placement) for each of the
    /// ⌊mn/2⌋ dominoes a board could hold.
    Domino,
    /// The cell model plus theorems as cuts: at least ⌈mn/3⌉ dominoes, and no 2×2 window with
    /// more than two holes.
    #[default]
    Strong,
    /// `strong` with the objective rewritten as a sum of local charges: every hole hands one
    /// unit to the dominoes around it, and the objective is the total shortfall of the
    /// dominoes below one unit each, in 24ths: 24(dominoes − holes) (see docs/gunport.md).
    Charge,
}

/// A symmetry that `reach` may demand of the packing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Symmetry {
    /// Any packing
    #[default]
    None,
    /// Packings that the half turn maps onto themselves
    HalfTurn,
    /// Packings symmetric in the vertical axis (left-right mirror)
    Mirror,
    /// Packings that the quarter turn maps onto themselves (square boards)
    QuarterTurn,
}

/// The model and the map back to dominoes.
pub struct GunportModel {
    pub model: Model,
    /// For every variable that places a domino: the domino.
    placements: Vec<(Var, Domino)>,
    /// The hole variables of the cell models (empty for the domino model).
    pub holes: Vec<Var>,
    /// Variables that determine a packing (solutions are counted on these).
    pub decisions: Vec<Var>,
    /// The objective's value is `per_hole * holes + at_zero` for every packing.
    per_hole: i64,
    at_zero: i64,
}

impl GunportModel {
    /// Restricts to packings that a symmetry of the board maps onto themselves (a heuristic
    /// for finding a packing fast: such a packing is a packing, but the optimum need not have
    /// the symmetry). `g` maps cells; the caller passes a symmetry of this board.
    pub fn restrict_to_symmetric(&mut self, g: &dyn Fn((usize, usize)) -> (usize, usize)) {
        let index: std::collections::HashMap<Domino, Var> =
            self.placements.iter().map(|&(v, d)| (d, v)).collect();
        let mut rows = Vec::new();
        for &(v, [a, b]) in &self.placements {
            let (x, y) = (g(a), g(b));
            let image = if x <= y { [x, y] } else { [y, x] };
            if let Some(&w) = index.get(&image) {
                if w != v {
                    rows.push(vec![(1, v.pos()), (-1, w.pos())]);
                }
            }
        }
        for t in rows {
            self.model.add("symmetric packing", t, Sense::Eq, 0);
        }
    }

    /// The objective's value of a packing with `holes` holes.
    pub fn value_of(&self, holes: i64) -> i64 {
        self.per_hole * holes + self.at_zero
    }

    /// The holes of a packing whose objective value is `value`.
    pub fn holes_of(&self, value: i64) -> i64 {
        (value - self.at_zero) / self.per_hole
    }

    /// Whether the model maximises (holes) rather than minimises (the charge shortfall).
    pub fn maximises(&self) -> bool {
        self.per_hole > 0
    }

    /// The bound to hand `Backend::objective_at_most` for packings with at least `holes` holes.
    pub fn at_least(&self, holes: i64) -> i64 {
        let v = self.value_of(holes);
        if self.maximises() {
            -v
        } else {
            v
        }
    }

    pub fn decode(&self, size: Gunport, assignment: &[bool]) -> Packing {
        let mut dominoes: Vec<Domino> = self
            .placements
            .iter()
            .filter(|(v, _)| assignment[v.index()])
            .map(|&(_, d)| d)
            .collect();
        dominoes.sort();
        Packing {
            m: size.m,
            n: size.n,
            dominoes,
        }
    }
}

/// Every domino placement on the board, horizontal ones first, in row-major order.
fn placements(m: usize, n: usize) -> Vec<Domino> {
    let mut out = Vec::new();
    for r in 0..m {
        for c in 0..n.saturating_sub(1) {
            out.push([(r, c), (r, c + 1)]);
        }
    }
    for r in 0..m.saturating_sub(1) {
        for c in 0..n {
            out.push([(r, c), (r + 1, c)]);
        }
    }
    out
}

/// The neighbouring cell pairs (right and down).
fn adjacent_pairs(m: usize, n: usize) -> Vec<[(usize, usize); 2]> {
    placements(m, n)
}

impl Gunport {
    /// A validated board size.
    pub fn new(m: i64, n: i64) -> Result<Gunport> {
        for (name, v) in [("rows", m), ("columns", n)] {
            if v < 1 {
                return Err(Error::input(format!(
                    "{name} = {v}: a board needs at least one row and one column"
                )));
            }
            if v as usize > MAX_SIDE {
                return Err(Error::input(format!(
                    "{name} = {v}: at most {MAX_SIDE} for the integer programs"
                )));
            }
        }
        Ok(Gunport {
            m: m as usize,
            n: n as usize,
        })
    }

    /// Reads `M` and `N` from command-line words.
    pub fn parse(m: &str, n: &str) -> Result<Gunport> {
        let num = |name: &str, w: &str| -> Result<i64> {
            w.trim().parse::<i64>().map_err(|_| {
                Error::input(format!(
                    "{name} '{w}' is not a whole number between 1 and {MAX_SIDE}"
                ))
            })
        };
        Gunport::new(num("rows", m)?, num("columns", n)?)
    }

    pub fn cells(&self) -> usize {
        self.m * self.n
    }

    /// Sands (1971): when 3 divides m or n, the optimum is exactly mn/3.
    pub fn sands(&self) -> Option<usize> {
        (self.m.is_multiple_of(3) || self.n.is_multiple_of(3)).then(|| self.cells() / 3)
    }

    /// Pearce's conjectured optimum for every board: mn/3 when 3 | mn; (mn-4)/3 when m and n
    /// leave the same nonzero remainder mod 3; (mn-2)/3 when the remainders differ. For boards
    /// of at least 2 cells on each side this equals mn - 2⌈mn/3⌉.
    pub fn pearce(&self) -> i64 {
        let mn = self.cells() as i64;
        match (self.m % 3, self.n % 3) {
            (0, _) | (_, 0) => mn / 3,
            (a, b) if a == b => (mn - 4) / 3,
            _ => (mn - 2) / 3,
        }
    }

    /// The upper bound from the lower bound on dominoes: holes <= mn - 2⌈mn/3⌉. It is a
    /// theorem for boards with both sides at least 2 (Klostermeyer & Yeo); a single row is a
    /// path, where fewer dominoes suffice, so no bound is given there.
    pub fn domino_bound(&self) -> Option<i64> {
        if self.m < 2 || self.n < 2 {
            return None;
        }
        let mn = self.cells() as i64;
        Some(mn - 2 * ((mn + 2) / 3))
    }

    /// The largest number of holes below `holes` that a packing can leave by parity
    /// (holes = mn − 2·dominoes has the parity of mn).
    pub fn most_below(&self, holes: i64) -> i64 {
        holes - 1 - (holes - 1 - self.cells() as i64).rem_euclid(2)
    }

    /// The value to look for first: the proved bound, which the strong model contains.
    fn target(&self, formulation: Formulation) -> Option<i64> {
        match formulation {
            Formulation::Strong | Formulation::Charge => self.domino_bound(),
            _ => None,
        }
    }

    pub fn formulate(&self, formulation: Formulation) -> GunportModel {
        match formulation {
            Formulation::Cell => self.cell_model(false, false),
            Formulation::Strong => self.cell_model(true, false),
            Formulation::Charge => self.cell_model(true, true),
            Formulation::Domino => self.domino_model(),
        }
    }

    fn cell_model(&self, strong: bool, charge: bool) -> GunportModel {
        let (m, n) = (self.m, self.n);
        let mut model = Model::new();
        let mu: Vec<Var> = (0..m * n)
            .map(|k| model.var(format!("mu_{}_{}", k / n, k % n)))
            .collect();
        let mut placed = Vec::new();
        for d in placements(m, n) {
            let [(r, c), (r2, _)] = d;
            let kind = if r2 == r { "h" } else { "v" };
            placed.push((model.var(format!("{kind}_{r}_{c}")), d));
        }
        // Seed: mu[r,c] + h[r,c] + h[r,c-1] + v[r,c] + v[r-1,c] = 1 for every cell.
        for r in 0..m {
            for c in 0..n {
                let mut lits = vec![mu[r * n + c].pos()];
                lits.extend(
                    placed
                        .iter()
                        .filter(|(_, d)| d.contains(&(r, c)))
                        .map(|(v, _)| v.pos()),
                );
                model.exactly_one("cover each cell once", &lits);
            }
        }
        // Seed: mu[r,c] + mu[r,c+1] <= 1 and mu[r,c] + mu[r+1,c] <= 1.
        for [a, b] in adjacent_pairs(m, n) {
            model.at_most_one(
                "no two adjacent holes",
                &[mu[a.0 * n + a.1].pos(), mu[b.0 * n + b.1].pos()],
            );
        }
        if strong {
            // Theorem (Klostermeyer & Yeo): a maximal packing has at least ⌈mn/3⌉ dominoes,
            // so sum mu = mn - 2 (dominoes) <= mn - 2⌈mn/3⌉.
            if let Some(bound) = self.domino_bound() {
                let lits: Vec<Lit> = mu.iter().map(|v| v.pos()).collect();
                model.cardinality("at least ceil(mn/3) dominoes", &lits, Sense::Le, bound);
            }
            // A 2×2 window holds at most two holes: two holes in it that are not neighbours
            // sit on a diagonal, and a third would neighbour one of them.
            for r in 0..m.saturating_sub(1) {
                for c in 0..n.saturating_sub(1) {
                    let w = [
                        mu[r * n + c].pos(),
                        mu[r * n + c + 1].pos(),
                        mu[(r + 1) * n + c].pos(),
                        mu[(r + 1) * n + c + 1].pos(),
                    ];
                    model.cardinality("at most two holes per 2x2 window", &w, Sense::Le, 2);
                }
            }
        }
        let (per_hole, at_zero) = if charge && m >= 2 && n >= 2 {
            let terms = self.charge_shortfall(&mut model, &mu, &placed);
            model.minimise(terms);
            let mn = (m * n) as i64;
            (-36, 12 * mn)
        } else {
            // Seed: maximise sum mu.
            model.maximise(mu.iter().map(|v| (1, v.pos())).collect());
            (1, 0)
        };
        let decisions = placed.iter().map(|p| p.0).collect();
        GunportModel {
            model,
            placements: placed,
            holes: mu,
            decisions,
            per_hole,
            at_zero,
        }
    }

    /// The charge objective, in 24ths. Every hole hands 24 to the cells around it, all of
    /// them covered: an inner hole 6 to each of its four neighbours, a hole on an edge 9 to
    /// each neighbour along the edge and 6 to the one inward, a corner hole 12 to each of its
    /// two. The neighbours of a hole lie in different dominoes (a domino cannot touch one cell
    /// with both halves), so the dominoes receive 24·holes in all and the total shortfall,
    /// the sum over dominoes D of (24 − received(D)), is 24(dominoes − holes) = 12(mn − 3·holes):
    /// an exact rewrite of the number of holes.
    ///
    /// The cells around a domino form four slots: one beyond each end and the pair along each
    /// long side; a slot holds at most one hole (the pair are neighbours). With c(s) the most
    /// a slot can hand over, the shortfall is e(D) + sum over slots of (c(s) − handed(s)),
    /// where e(D) = 24 − sum c(s); each slot term is written with an indicator that is true
    /// exactly when D is placed and the slot hands over less than c(s). The shares are chosen
    /// so that e(D) >= 0 for every domino except a few next to the corners: all terms are then
    /// non-negative, and a packing near the bound has almost every term at zero, a local
    /// statement the solver propagates where a count of holes is global.
    fn charge_shortfall(
        &self,
        model: &mut Model,
        mu: &[Var],
        placed: &[(Var, Domino)],
    ) -> Vec<(i64, Lit)> {
        let (m, n) = (self.m as i64, self.n as i64);
        let on = |(r, c): (i64, i64)| r >= 0 && c >= 0 && r < m && c < n;
        // What a hole at x hands to its neighbour y.
        let gift = |x: (i64, i64), y: (i64, i64)| -> i64 {
            let off: Vec<(i64, i64)> = [(-1, 0), (1, 0), (0, -1), (0, 1)]
                .into_iter()
                .filter(|&(dr, dc)| !on((x.0 + dr, x.1 + dc)))
                .collect();
            match off.as_slice() {
                [] => 6,
                // Inward is the direction opposite the missing one.
                [(dr, dc)] if (y.0 - x.0, y.1 - x.1) == (-dr, -dc) => 6,
                [_] => 9,
                _ => 24 / (4 - off.len() as i64),
            }
        };
        let hole = |(r, c): (i64, i64)| mu[(r * n + c) as usize];
        let mut terms = Vec::new();
        for &(y, [(r1, c1), (r2, _)]) in placed {
            let (r, c) = (r1 as i64, c1 as i64);
            let across = (r2 - r1) as i64; // 0 horizontal, 1 vertical
            let (dr, dc) = (across, 1 - across); // along the domino
            let (sr, sc) = (1 - across, across); // to its side
            let (p, q) = ((r, c), (r + dr, c + dc)); // its two cells
                                                     // Each slot: (hole cell, the domino cell it touches).
            type Touch = ((i64, i64), (i64, i64));
            let slots: [Vec<Touch>; 4] = [
                vec![((r - dr, c - dc), p)],
                vec![((q.0 + dr, q.1 + dc), q)],
                vec![((p.0 - sr, p.1 - sc), p), ((q.0 - sr, q.1 - sc), q)],
                vec![((p.0 + sr, p.1 + sc), p), ((q.0 + sr, q.1 + sc), q)],
            ];
            let mut e = 24;
            for slot in slots {
                let cells: Vec<((i64, i64), i64)> = slot
                    .into_iter()
                    .filter(|&(x, _)| on(x))
                    .map(|(x, to)| (x, gift(x, to)))
                    .collect();
                let Some(best) = cells.iter().map(|t| t.1).max() else {
                    continue;
                };
                e -= best;
                // Placed and no hole in the slot: short by `best`.
                let none = model.var(format!("short_{}", model.num_vars()));
                model.implies("charge indicators", none.pos(), y.pos());
                let mut clause = vec![none.pos(), y.negated()];
                for &(x, _) in &cells {
                    model.implies("charge indicators", none.pos(), hole(x).negated());
                    clause.push(hole(x).pos());
                }
                model.at_least_one("charge indicators", &clause);
                terms.push((best, none.pos()));
                // Placed with its hole on a cell that hands over less.
                for &(x, g) in &cells {
                    if g < best {
                        let less = model.var(format!("less_{}", model.num_vars()));
                        model.implies("charge indicators", less.pos(), y.pos());
                        model.implies("charge indicators", less.pos(), hole(x).pos());
                        model.at_least_one(
                            "charge indicators",
                            &[less.pos(), y.negated(), hole(x).negated()],
                        );
                        terms.push((best - g, less.pos()));
                    }
                }
            }
            if e != 0 {
                terms.push((e, y.pos()));
            }
        }
        terms
    }

    fn domino_model(&self) -> GunportModel {
        let (m, n) = (self.m, self.n);
        let mut model = Model::new();
        let spots = placements(m, n);
        let count = m * n / 2;
        // y[d,p]: domino number d lies on placement p.
        let mut y: Vec<Vec<Var>> = Vec::with_capacity(count);
        for d in 0..count {
            y.push(
                (0..spots.len())
                    .map(|p| model.var(format!("y_{d}_{p}")))
                    .collect(),
            );
        }
        // Each numbered domino lies at most once.
        for row in &y {
            let lits: Vec<Lit> = row.iter().map(|v| v.pos()).collect();
            model.at_most_one("each domino placed at most once", &lits);
        }
        // Each cell is covered at most once.
        for r in 0..m {
            for c in 0..n {
                let lits: Vec<Lit> = spots
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.contains(&(r, c)))
                    .flat_map(|(p, _)| y.iter().map(move |row| row[p].pos()))
                    .collect();
                model.at_most_one("cover each cell at most once", &lits);
            }
        }
        // Maximality: of two neighbouring cells at least one is covered.
        for [a, b] in adjacent_pairs(m, n) {
            let lits: Vec<Lit> = spots
                .iter()
                .enumerate()
                .filter(|(_, s)| s.contains(&a) || s.contains(&b))
                .flat_map(|(p, _)| y.iter().map(move |row| row[p].pos()))
                .collect();
            model.at_least_one("no two adjacent holes", &lits);
        }
        // Maximise holes = mn - 2 (dominoes placed), i.e. minimise the dominoes. The objective
        // is written in holes so that every formulation reports the same number.
        let mut terms: Vec<(i64, Lit)> = Vec::new();
        for row in &y {
            terms.extend(row.iter().map(|v| (-2, v.pos())));
        }
        model.maximise(terms);
        model.objective_constant((m * n) as i64);
        let mut placements_out = Vec::new();
        for row in &y {
            for (p, v) in row.iter().enumerate() {
                placements_out.push((*v, spots[p]));
            }
        }
        let decisions = y.iter().flatten().copied().collect();
        GunportModel {
            model,
            placements: placements_out,
            holes: Vec::new(),
            decisions,
            per_hole: 1,
            at_zero: 0,
        }
    }
}

impl Packing {
    /// The uncovered cells, row-major.
    pub fn holes(&self) -> Vec<(usize, usize)> {
        let mut covered = vec![false; self.m * self.n];
        for d in &self.dominoes {
            for &(r, c) in d {
                if r < self.m && c < self.n {
                    covered[r * self.n + c] = true;
                }
            }
        }
        (0..self.m * self.n)
            .filter(|&k| !covered[k])
            .map(|k| (k / self.n, k % self.n))
            .collect()
    }

    /// One string per row: `o` a hole, `<` `>` a horizontal domino, `^` `v` a vertical one.
    pub fn rows(&self) -> Vec<String> {
        let mut g = vec![vec!['o'; self.n]; self.m];
        for [a, b] in &self.dominoes {
            if a.0 == b.0 {
                g[a.0][a.1] = '<';
                g[b.0][b.1] = '>';
            } else {
                g[a.0][a.1] = '^';
                g[b.0][b.1] = 'v';
            }
        }
        g.into_iter().map(|r| r.into_iter().collect()).collect()
    }
}

/// The independent check: reads the rules off the packing, sharing nothing with the models.
/// `Err` names the first problem.
pub fn verify(p: &Packing) -> std::result::Result<usize, String> {
    let mut owner: Vec<Option<usize>> = vec![None; p.m * p.n];
    for (k, [a, b]) in p.dominoes.iter().enumerate() {
        for &(r, c) in [a, b] {
            if r >= p.m || c >= p.n {
                return Err(format!(
                    "domino {} covers ({r}, {c}), outside the board",
                    k + 1
                ));
            }
        }
        let touching =
            (a.0 == b.0 && a.1.abs_diff(b.1) == 1) || (a.1 == b.1 && a.0.abs_diff(b.0) == 1);
        if !touching {
            return Err(format!(
                "domino {} joins ({}, {}) and ({}, {}), which are not neighbours",
                k + 1,
                a.0,
                a.1,
                b.0,
                b.1
            ));
        }
        for &(r, c) in [a, b] {
            if let Some(other) = owner[r * p.n + c] {
                return Err(format!(
                    "cell ({r}, {c}) is covered twice, by dominoes {} and {}",
                    other + 1,
                    k + 1
                ));
            }
            owner[r * p.n + c] = Some(k);
        }
    }
    let hole = |r: usize, c: usize| owner[r * p.n + c].is_none();
    for r in 0..p.m {
        for c in 0..p.n {
            if hole(r, c) && ((c + 1 < p.n && hole(r, c + 1)) || (r + 1 < p.m && hole(r + 1, c))) {
                return Err(format!(
                    "holes at ({r}, {c}) and a neighbour: another domino fits, the packing is not maximal"
                ));
            }
        }
    }
    Ok(owner.iter().filter(|o| o.is_none()).count())
}

/// The packing as text, one row per line.
pub fn to_text(p: &Packing) -> String {
    let mut out = String::new();
    for row in p.rows() {
        let cells: Vec<String> = row.chars().map(|c| c.to_string()).collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

/// The packing as SVG: dominoes as copper tiles, holes as small cells.
pub fn to_svg(p: &Packing) -> String {
    let mut pic = crate::render::svg::GridPicture::new(
        p.m,
        p.n,
        &format!("Gunport {}×{}: {} holes", p.m, p.n, p.holes().len()),
    );
    for r in 0..p.m {
        for c in 0..p.n {
            pic.fill(r, c, "#f4f1e8");
        }
    }
    for [a, b] in &p.dominoes {
        pic.tile(*a, *b, "#c27c3e");
    }
    for (r, c) in p.holes() {
        pic.small_square(r, c, "#333");
    }
    pic.finish()
}

use crate::solve::search::{Search, SearchStats, Status, Step};
use crate::solve::Backend;
use std::time::Duration;

/// The optimum found by the integer program.
pub struct Solved {
    pub status: Status,
    pub packing: Option<Packing>,
    pub holes: Option<i64>,
    pub model_size: crate::model::Size,
    pub engine_size: crate::solve::EngineSize,
    pub stats: SearchStats,
    pub method: String,
}

/// The optimal packings counted.
pub struct Counted {
    pub status: Status,
    pub holes: Option<i64>,
    /// Complete when status is `Solved` or `Optimal`.
    pub packings: u128,
    /// With symmetry classes asked for: the number of classes.
    pub classes: Option<u64>,
    pub method: String,
    pub stats: Option<SearchStats>,
}

/// A map of the board's cells onto themselves.
type CellMap = Box<dyn Fn((usize, usize)) -> (usize, usize)>;

/// The board's symmetries as maps of cells: the identity, the half turn, both mirrors, and for
/// square boards the quarter turns and diagonal reflections.
fn symmetries(m: usize, n: usize) -> Vec<CellMap> {
    let mut out: Vec<CellMap> = vec![
        Box::new(|p| p),
        Box::new(move |(r, c)| (m - 1 - r, n - 1 - c)),
        Box::new(move |(r, c)| (m - 1 - r, c)),
        Box::new(move |(r, c)| (r, n - 1 - c)),
    ];
    if m == n {
        out.push(Box::new(|(r, c)| (c, r)));
        out.push(Box::new(move |(r, c)| (n - 1 - c, n - 1 - r)));
        out.push(Box::new(move |(r, c)| (c, n - 1 - r)));
        out.push(Box::new(move |(r, c)| (n - 1 - c, r)));
    }
    out
}

impl Packing {
    /// The least image of this packing under the board's symmetries (its class's name).
    pub fn canonical(&self) -> Vec<Domino> {
        symmetries(self.m, self.n)
            .iter()
            .map(|g| {
                let mut ds: Vec<Domino> = self
                    .dominoes
                    .iter()
                    .map(|[a, b]| {
                        let (x, y) = (g(*a), g(*b));
                        if x <= y {
                            [x, y]
                        } else {
                            [y, x]
                        }
                    })
                    .collect();
                ds.sort();
                ds
            })
            .min()
            .expect("the identity is always there")
    }
}

impl Gunport {
    /// The most holes, with a proof of optimality, by incremental bound tightening.
    ///
    /// With the strong formulation, whose bound mn - 2⌈mn/3⌉ is a theorem, it first looks for
    /// a packing that reaches the bound among packings with a mirror or half-turn symmetry
    /// (small, fast searches, each given a share of the time). Reaching the bound proves
    /// optimality whatever the symmetry; if no symmetric packing reaches it, the full model
    /// decides.
    pub fn solve(&self, formulation: Formulation, time_limit: Option<Duration>) -> Solved {
        let started = std::time::Instant::now();
        if let Some(target) = self.target(formulation) {
            let (m, n) = (self.m, self.n);
            let maps: [(&str, CellMap); 3] = [
                ("mirror", Box::new(move |(r, c)| (r, n - 1 - c))),
                ("half turn", Box::new(move |(r, c)| (m - 1 - r, n - 1 - c))),
                ("mirror", Box::new(move |(r, c)| (m - 1 - r, c))),
            ];
            for (name, g) in maps {
                let budget = match time_limit {
                    Some(t) => t.saturating_sub(started.elapsed()) / 4,
                    None => Duration::from_secs(10),
                };
                let mut gm = self.formulate(formulation);
                gm.restrict_to_symmetric(&g);
                let mut search =
                    Search::new(crate::solve::default_backend(&gm.model), Some(budget))
                        .with_progress(&format!("gunport, {name}-symmetric packings"));
                let Some(at_target) = search.backend.objective_at_most(gm.at_least(target)) else {
                    break;
                };
                if let Step::Found(a) = search.step(&at_target) {
                    let mut stats = search.finish();
                    stats.seconds = started.elapsed().as_secs_f64();
                    return Solved {
                        status: Status::Optimal,
                        holes: Some(target),
                        packing: Some(gm.decode(*self, &a)),
                        model_size: gm.model.size(),
                        engine_size: search.backend_size(),
                        stats,
                        method: format!(
                            "SAT (CaDiCaL), strong formulation, {name}-symmetric packings reaching the proved bound"
                        ),
                    };
                }
            }
        }
        let remaining = time_limit.map(|t| t.saturating_sub(started.elapsed()));
        let mut solved = self.prove(formulation, remaining);
        solved.stats.seconds = started.elapsed().as_secs_f64();
        solved
    }

    /// The optimum of the full model with a proof, by incremental bound tightening. The strong
    /// formulation adds symmetry-breaking rows here (valid for the optimum, not for counting):
    /// the top half holds at least as many holes as the bottom half, the left half at least as
    /// many as the right half, and on square boards the top half at least as many as the left
    /// half. The mirror in the horizontal axis swaps the top and bottom counts and keeps the
    /// left and right ones, the vertical mirror does the converse, and the transpose swaps the
    /// pairs, so every packing has an image that satisfies all three.
    pub fn prove(&self, formulation: Formulation, time_limit: Option<Duration>) -> Solved {
        let started = std::time::Instant::now();
        let gm = self.formulate_for_proof(formulation);
        let remaining = time_limit.map(|t| t.saturating_sub(started.elapsed()));
        let mut search = Search::new(crate::solve::default_backend(&gm.model), remaining)
            .with_progress("gunport");
        let (status, best) = self.maximise_holes(&mut search, &gm, formulation);
        let mut stats = search.finish();
        stats.seconds = started.elapsed().as_secs_f64();
        Solved {
            status,
            holes: best.as_ref().map(|b| b.0),
            packing: best.map(|b| gm.decode(*self, &b.1)),
            model_size: gm.model.size(),
            engine_size: search.backend_size(),
            stats,
            method: crate::solve::sat_method(formulation),
        }
    }

    /// Maximises the holes: a first probe at the proved bound (strong formulation), then bound
    /// tightening in steps of two, since holes = mn - 2 (dominoes) always has the parity of mn.
    /// Decides whether some packing leaves at least `holes` holes: `Solved` with such a packing,
    /// `Infeasible` when there is none (a proof that the optimum is below `holes`), `Unknown`
    /// when the time limit stops the search. The strong and charge formulations add the
    /// symmetry-breaking rows of `prove` (an image of any such packing satisfies them).
    pub fn reach(
        &self,
        formulation: Formulation,
        holes: i64,
        symmetry: Symmetry,
        configs: &[&str],
        time_limit: Option<Duration>,
    ) -> Solved {
        let started = std::time::Instant::now();
        let mut gm = self.formulate_for_proof(formulation);
        let (m, n) = (self.m, self.n);
        match symmetry {
            Symmetry::None => {}
            Symmetry::HalfTurn => gm.restrict_to_symmetric(&|(r, c)| (m - 1 - r, n - 1 - c)),
            Symmetry::Mirror => gm.restrict_to_symmetric(&|(r, c)| (r, n - 1 - c)),
            Symmetry::QuarterTurn if m == n => gm.restrict_to_symmetric(&|(r, c)| (c, n - 1 - r)),
            Symmetry::QuarterTurn => {
                gm.model.add(
                    "no quarter-turn symmetry on a non-square board",
                    vec![],
                    Sense::Ge,
                    1,
                );
            }
        }
        let label = format!("gunport, at least {holes} holes");
        let at_least = gm.at_least(holes);
        let (status, assignment, mut stats, engine_size) = match configs {
            [] | [_] => {
                let config = configs.first().copied().unwrap_or("default");
                let backend = crate::solve::sat::SatBackend::with_config(&gm.model, config);
                decide(
                    Search::new(backend, time_limit).with_progress(&label),
                    at_least,
                )
            }
            _ => {
                let backend = crate::solve::portfolio::Portfolio::new(&gm.model, configs);
                decide(
                    Search::new(backend, time_limit).with_progress(&label),
                    at_least,
                )
            }
        };
        let packing = assignment.map(|a| gm.decode(*self, &a));
        stats.seconds = started.elapsed().as_secs_f64();
        Solved {
            status,
            holes: packing.as_ref().map(|p| p.holes().len() as i64),
            packing,
            model_size: gm.model.size(),
            engine_size,
            stats,
            method: crate::solve::sat_method(formulation),
        }
    }

    /// Returns the holes of the best packing found and its assignment.
    fn maximise_holes<B: Backend>(
        &self,
        search: &mut Search<'_, B>,
        gm: &GunportModel,
        formulation: Formulation,
    ) -> (Status, Option<(i64, Vec<bool>)>) {
        let objective = gm.model.objective.clone().expect("gunport models optimise");
        let (status, best) = search.optimise(
            |a| objective.value(a),
            gm.maximises(),
            self.target(formulation).map(|h| gm.value_of(h)),
            2 * gm.per_hole.abs(),
            |_| {},
        );
        (status, best.map(|(v, a)| (gm.holes_of(v), a)))
    }

    /// The formulation, with the symmetry-breaking rows where it has them (strong, charge):
    /// for questions about the optimum, never for counting.
    fn formulate_for_proof(&self, formulation: Formulation) -> GunportModel {
        let mut gm = self.formulate(formulation);
        if matches!(formulation, Formulation::Strong | Formulation::Charge) {
            self.add_symmetry_breaking(&mut gm);
        }
        gm
    }

    fn add_symmetry_breaking(&self, gm: &mut GunportModel) {
        let (m, n) = (self.m, self.n);
        let mu = |r: usize, c: usize| gm.holes[r * n + c];
        let region = |rows: std::ops::Range<usize>, cols: std::ops::Range<usize>| -> Vec<Var> {
            rows.flat_map(|r| cols.clone().map(move |c| (r, c)))
                .map(|(r, c)| mu(r, c))
                .collect()
        };
        let top = region(0..m / 2, 0..n);
        let bottom = region(m.div_ceil(2)..m, 0..n);
        let left = region(0..m, 0..n / 2);
        let right = region(0..m, n.div_ceil(2)..n);
        let mut rows = vec![(top.clone(), bottom), (left.clone(), right)];
        if m == n {
            rows.push((top, left));
        }
        for (more, fewer) in rows {
            let mut terms: Vec<(i64, Lit)> = more.iter().map(|v| (1, v.pos())).collect();
            terms.extend(fewer.iter().map(|v| (-1, v.pos())));
            gm.model.add("symmetry breaking", terms, Sense::Ge, 0);
        }
    }

    /// Counts the optimal packings: by the dynamic program when the board is narrow enough
    /// and no symmetry classes are asked for, else by SAT (optimise, then enumerate the packings
    /// that reach the optimum).
    pub fn count_optimal(
        &self,
        formulation: Formulation,
        use_dp: bool,
        up_to_symmetry: bool,
        time_limit: Option<Duration>,
    ) -> Counted {
        if use_dp && !up_to_symmetry {
            if let Some(o) = dp::optimum(self.m, self.n) {
                return Counted {
                    status: Status::Optimal,
                    holes: Some(o.holes as i64),
                    packings: o.packings,
                    classes: None,
                    method: "transfer-matrix dynamic program".into(),
                    stats: None,
                };
            }
        }
        let gm = self.formulate(formulation);
        let mut search = Search::new(crate::solve::default_backend(&gm.model), time_limit)
            .with_progress("gunport count");
        let (status, best) = self.maximise_holes(&mut search, &gm, formulation);
        let method = crate::solve::sat_method(formulation);
        let Some((holes, _)) = best.filter(|_| status == Status::Optimal) else {
            let stats = search.finish();
            return Counted {
                status,
                holes: None,
                packings: 0,
                classes: None,
                method,
                stats: Some(stats),
            };
        };
        let at_optimum = search
            .backend
            .objective_at_most(gm.at_least(holes))
            .expect("the optimum was reached");
        let mut classes = std::collections::BTreeSet::new();
        let (enum_status, count) = search.enumerate(&gm.decisions, &at_optimum, None, |a| {
            if up_to_symmetry {
                classes.insert(gm.decode(*self, a).canonical());
            }
            true
        });
        let stats = search.finish();
        Counted {
            status: if enum_status == Status::Solved {
                Status::Optimal
            } else {
                Status::Unknown
            },
            holes: Some(holes),
            packings: count as u128,
            classes: up_to_symmetry.then_some(classes.len() as u64),
            method,
            stats: Some(stats),
        }
    }
}

/// One solver call under the objective bound `at_least` (from `GunportModel::at_least`).
fn decide<B: Backend>(
    mut search: Search<'_, B>,
    at_least: i64,
) -> (
    Status,
    Option<Vec<bool>>,
    SearchStats,
    crate::solve::EngineSize,
) {
    let (status, assignment) = match search.backend.objective_at_most(at_least) {
        None => (Status::Infeasible, None),
        Some(lits) => match search.step(&lits) {
            Step::Found(a) => (Status::Solved, Some(a)),
            Step::Exhausted => (Status::Infeasible, None),
            Step::Stopped => (Status::Unknown, None),
        },
    };
    let stats = search.finish();
    let size = search.backend_size();
    (status, assignment, stats, size)
}
