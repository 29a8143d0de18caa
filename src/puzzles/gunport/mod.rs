//! The Gunport problem (seed chapter 29, after Chlond & Bosch 2006 and Sands 1971): pack
//! dominoes on an m×n board so that no further domino fits, leaving as many single cells
//! (gunports, holes) as possible. A packing is maximal exactly when no two holes are neighbours.

pub mod budget;
pub mod dp;

use crate::error::{Error, Result};
use crate::geometry::{Grid, Symmetry as BoardSymmetry};
use crate::model::{Lit, Model, Sense, Var};
use crate::puzzles::Query;
use crate::puzzles::{
    Exact, Formulation as Formulated, Goal, Meaning, Phase, Place, Purpose, Puzzle,
};
use crate::solve::limits::Limits;
use crate::solve::search::Status;
use std::time::Instant;

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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

/// A symmetry that a search may demand of the packing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
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
        // A numbered domino and its place's counting variable name one domino.
        dominoes.dedup();
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
    pub fn target(&self, formulation: Formulation) -> Option<i64> {
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

impl GunportModel {
    /// The domino formulation numbers its dominoes, so one packing is many assignments of its
    /// variables. For counting, one variable per place of a domino, equal to the number of
    /// dominoes lying there (0 or 1), becomes the decisions: solutions are then packings.
    fn project_on_placements(&mut self) {
        let mut spots: Vec<Domino> = self.placements.iter().map(|p| p.1).collect();
        spots.sort();
        spots.dedup();
        let mut decisions = Vec::new();
        let mut named = Vec::new();
        for spot in spots {
            let [(r, c), (r2, _)] = spot;
            let kind = if r2 == r { "h" } else { "v" };
            let z = self.model.var(format!("z{kind}_{r}_{c}"));
            let mut terms = vec![(1, z.pos())];
            terms.extend(
                self.placements
                    .iter()
                    .filter(|p| p.1 == spot)
                    .map(|p| (-1, p.0.pos())),
            );
            self.model.add(
                "a place's domino, numbering aside (for counting)",
                terms,
                Sense::Eq,
                0,
            );
            decisions.push(z);
            named.push((z, spot));
        }
        self.decisions = decisions;
        self.placements.extend(named);
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

/// The packing's least image under the board's symmetries (its class's name).
impl Packing {
    pub fn canonical(&self) -> Vec<Domino> {
        let grid = Grid::new(self.m, self.n);
        grid.symmetries()
            .into_iter()
            .map(|g| {
                let mut ds: Vec<Domino> = self
                    .dominoes
                    .iter()
                    .map(|[a, b]| {
                        let (x, y) = (grid.map(g, *a), grid.map(g, *b));
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

impl serde::Serialize for Packing {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        serde_json::json!({
            "holes": self.holes().len(),
            "rows": self.rows(),
            "dominoes": self.dominoes.iter().map(|[a, b]| [a.0, a.1, b.0, b.1]).collect::<Vec<_>>(),
            "hole_cells": self.holes().iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>(),
        })
        .serialize(s)
    }
}

impl Gunport {
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
}

/// How a Gunport query is answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Pick: for `optimum` on a board of more than 150 cells with a side of at most 21 whose
    /// symmetric searches miss Pearce's value, the budget program refutes values from the top
    /// and SAT draws a packing at the first value not refuted; the integer program otherwise
    #[default]
    Auto,
    /// The integer program on the SAT backend
    Sat,
    /// `reach` only: the row-by-row dynamic program that keeps only partial packings within
    /// the charge budget (exact; reports the best packing's holes, draws none)
    Budget,
}

/// The options of every Gunport query.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default, rename_all = "kebab-case")]
pub struct Options {
    /// Which integer program to solve (default: strong; charge for `reach`)
    #[cfg_attr(feature = "cli", arg(long, value_enum))]
    pub formulation: Option<Formulation>,
    /// Count with the integer program even where the transfer-matrix program applies
    #[cfg_attr(feature = "cli", arg(long))]
    pub no_dp: bool,
    /// Count packings up to the board's rotations and reflections as well
    #[cfg_attr(feature = "cli", arg(long))]
    pub up_to_symmetry: bool,
    /// Only packings with this symmetry (answers then hold among those packings only)
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Symmetry::None))]
    pub symmetry: Symmetry,
    /// `auto`, `sat` (the integer program) or `budget` (a dynamic program over rows, for
    /// `reach`; for `optimum` it refutes values from the top, and SAT draws the packing)
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Method::Auto))]
    pub method: Method,
    /// CaDiCaL configurations, comma-separated (default, sat, plain, unsat); two or more are
    /// raced on as many threads
    #[cfg_attr(feature = "cli", arg(long, value_delimiter = ','))]
    pub configs: Vec<String>,
}

impl Options {
    /// The formulation asked for, or the default for the query.
    pub fn formulation_for(&self, query: Query) -> Formulation {
        self.formulation.unwrap_or(match query {
            Query::AtLeast(_) => Formulation::Charge,
            _ => Formulation::Strong,
        })
    }
}

impl Symmetry {
    /// The packings it stands for, in words.
    pub fn describe(self) -> Option<&'static str> {
        match self {
            Symmetry::None => None,
            Symmetry::HalfTurn => Some("half-turn-symmetric packings"),
            Symmetry::Mirror => Some("mirror-symmetric packings"),
            Symmetry::QuarterTurn => Some("quarter-turn-symmetric packings"),
        }
    }

    fn map(self) -> Option<BoardSymmetry> {
        match self {
            Symmetry::None => None,
            Symmetry::HalfTurn => Some(BoardSymmetry::HalfTurn),
            Symmetry::Mirror => Some(BoardSymmetry::Mirror),
            Symmetry::QuarterTurn => Some(BoardSymmetry::QuarterTurn),
        }
    }
}

/// The Gunport problem as a [`Puzzle`].
pub struct GunportProblem;

impl Gunport {
    /// The runner's view of a model: decisions are the domino placements, the goal the holes.
    fn formulated<'a>(
        &self,
        mut gm: GunportModel,
        formulation: Formulation,
        scope: Option<String>,
    ) -> Formulated<'a, Packing> {
        // Millions of entries on large domino models: charged to the run and stopped by it.
        let where_: std::collections::HashMap<Var, Domino> = gm
            .placements
            .iter()
            .inspect(|_| crate::guard::charge(48))
            .copied()
            .collect();
        let meanings = gm
            .decisions
            .iter()
            .inspect(|_| crate::guard::charge(std::mem::size_of::<Meaning>() as u64))
            .map(|v| match where_.get(v) {
                Some([a, b]) => {
                    Meaning::at(Place::Cell(a.0, a.1), if a.0 == b.0 { "<>" } else { "^v" })
                }
                None => Meaning::at(Place::Cell(0, 0), "?"),
            })
            .collect();
        let goal = Goal {
            name: "holes",
            maximise: true,
            per_unit: gm.per_hole,
            at_zero: gm.at_zero,
            proved_bound: self.target(formulation),
            step: 2,
        };
        let model = std::mem::take(&mut gm.model);
        let size = *self;
        let mut f = Formulated::new(
            model,
            gm.decisions.clone(),
            meanings,
            move |a| gm.decode(size, a),
            crate::solve::sat_method(formulation),
        );
        f.goal = Some(goal);
        f.scope = scope;
        f
    }
}

impl Puzzle for GunportProblem {
    const NAME: &'static str = "gunport";
    const TITLE: &'static str = "Gunport";
    const ABOUT: &'static str =
        "Gunport: pack dominoes leaving the most holes, no two holes adjacent";
    const INPUT: &'static str = "Rows and columns of the board: M N";
    const EXAMPLE: &'static [&'static str] = &["7", "7"];
    const NOUN: &'static str = "packing";
    const SOLVE: Query = Query::Optimum;
    const HAS_GOAL: bool = true;
    const GOAL_NAME: &'static str = "holes";

    type Instance = Gunport;
    type Options = Options;
    type Solution = Packing;

    fn read(words: &[String], o: &Options) -> Result<Gunport> {
        let [m, n] =
            crate::puzzles::words(words, "two words, the rows M and columns N of the board")?;
        let g = Gunport::parse(m, n)?;
        if o.symmetry == Symmetry::QuarterTurn && g.m != g.n {
            return Err(Error::input(format!(
                "--symmetry quarter-turn needs a square board; {}×{} is not square",
                g.m, g.n
            )));
        }
        for c in &o.configs {
            if !crate::solve::PORTFOLIO_CONFIGS.contains(&c.as_str()) {
                return Err(Error::input(format!(
                    "--configs: unknown CaDiCaL configuration '{c}' (known: {})",
                    crate::solve::PORTFOLIO_CONFIGS.join(", ")
                )));
            }
        }
        Ok(g)
    }

    fn describe(g: &Gunport) -> String {
        format!("Gunport {}×{}", g.m, g.n)
    }

    fn formulate<'a>(g: &'a Gunport, o: &Options, query: Query) -> Result<Formulated<'a, Packing>> {
        let purpose = Purpose::of(query);
        let formulation = o.formulation_for(query);
        let mut gm = match purpose {
            Purpose::Find => g.formulate_for_proof(formulation),
            Purpose::Enumerate => g.formulate(formulation),
        };
        if purpose == Purpose::Enumerate && formulation == Formulation::Domino {
            gm.project_on_placements();
        }
        let grid = Grid::new(g.m, g.n);
        if let Some(sym) = o.symmetry.map() {
            gm.restrict_to_symmetric(&|p| grid.map(sym, p));
        }
        // Forced cells are cells: a hole (`o`) or covered (`#`) in every optimal packing,
        // whichever domino covers it. The cell formulations have a hole variable per cell.
        let holes = (query == Query::Forced && !gm.holes.is_empty()).then(|| gm.holes.clone());
        let mut f = g.formulated(gm, formulation, o.symmetry.describe().map(String::from));
        if let Some(holes) = holes {
            f.meanings = (0..holes.len())
                .map(|k| Meaning {
                    place: Place::Cell(k / g.n, k % g.n),
                    says: "o".into(),
                    otherwise: Some("#".into()),
                })
                .collect();
            f.decisions = holes;
            f.block_by_true_decisions = false;
        }
        if !o.configs.is_empty() {
            f.engines = o
                .configs
                .iter()
                .filter_map(|c| {
                    crate::solve::PORTFOLIO_CONFIGS
                        .iter()
                        .copied()
                        .find(|k| k == c)
                })
                .collect();
        }
        if o.up_to_symmetry {
            f.classes = Some(Box::new(|p: &Packing| {
                p.canonical()
                    .iter()
                    .flat_map(|[a, b]| [a.0, a.1, b.0, b.1])
                    .collect()
            }));
        }
        Ok(f)
    }

    fn verify(_: &Gunport, p: &Packing) -> std::result::Result<String, String> {
        verify(p).map(|h| format!("a maximal packing with {h} holes"))
    }

    fn text(_: &Gunport, p: &Packing) -> String {
        to_text(p)
    }

    fn svg(_: &Gunport, _: &Options, p: &Packing) -> String {
        to_svg(p)
    }

    fn exact(
        g: &Gunport,
        o: &Options,
        query: Query,
        limits: &Limits,
    ) -> Option<Result<Exact<Packing>>> {
        let enumerating = matches!(query, Query::Count | Query::Unique | Query::Forced);
        if enumerating && o.formulation_for(query) == Formulation::Domino {
            return Some(Err(Error::input(
                "the domino formulation numbers its dominoes, so it would count every packing once per numbering; count with --formulation cell or strong",
            )));
        }
        if let Query::AtLeast(h) = query {
            if h < 0 || h > g.cells() as i64 {
                return Some(Err(Error::input(format!(
                    "{h} holes: a {}×{} board has between 0 and {} holes",
                    g.m,
                    g.n,
                    g.cells()
                ))));
            }
        }
        match query {
            Query::Count if !o.no_dp && !o.up_to_symmetry && o.symmetry == Symmetry::None => {
                let d = dp::optimum(g.m, g.n)?;
                Some(Ok(Exact {
                    status: Status::Optimal,
                    solutions: Vec::new(),
                    count: d.packings,
                    objective: Some(d.holes as i64),
                    method: "transfer-matrix dynamic program".into(),
                    scope: None,
                    details: None,
                }))
            }
            Query::AtLeast(h) if o.method == Method::Budget => Some(budget_reach(g, o, h)),
            Query::Optimum if o.method == Method::Budget => {
                if g.m.min(g.n) > budget::MAX_WIDTH {
                    return Some(Err(Error::input(format!(
                        "--method budget: the narrower side may be at most {}",
                        budget::MAX_WIDTH
                    ))));
                }
                if o.symmetry != Symmetry::None {
                    return Some(Err(Error::input("--symmetry applies to --method sat only")));
                }
                settle_optimum(g, limits)
            }
            Query::Optimum
                if o.method == Method::Auto
                    && g.cells() > SETTLE_FROM_CELLS
                    && g.m.min(g.n) <= budget::MAX_WIDTH
                    && o.formulation.is_none()
                    && o.symmetry == Symmetry::None
                    && o.configs.is_empty() =>
            {
                settle_optimum(g, limits)
            }
            _ if o.method == Method::Budget => Some(Err(Error::input(
                "--method budget answers `reach` and `optimum` only",
            ))),
            _ => None,
        }
    }

    /// The optimum: packings with a mirror or half-turn symmetry that reach the proved bound
    /// mn - 2⌈mn/3⌉ (small, fast searches, each a quarter of the time left, or 10 s). Reaching
    /// the bound proves optimality whatever the symmetry; if none does, the full model decides.
    fn phases<'a>(g: &'a Gunport, o: &Options, query: Query) -> Vec<Phase<'a, Packing>> {
        let formulation = o.formulation_for(query);
        if query != Query::Optimum
            || o.symmetry != Symmetry::None
            || g.target(formulation).is_none()
        {
            return Vec::new();
        }
        let grid = Grid::new(g.m, g.n);
        [
            BoardSymmetry::Mirror,
            BoardSymmetry::HalfTurn,
            BoardSymmetry::Flip,
        ]
        .into_iter()
        .map(|sym| Phase {
            scope: format!("{}-symmetric packings", sym.name().replace(' ', "-")),
            share: 0.25,
            unlimited: Some(std::time::Duration::from_secs(10)),
            build: Box::new(move || {
                let mut gm = g.formulate(formulation);
                gm.restrict_to_symmetric(&|p| grid.map(sym, p));
                g.formulated(gm, formulation, None)
            }),
        })
        .collect()
    }

    fn remarks(g: &Gunport, query: Query, status: Status, restricted: bool) -> Option<String> {
        let sands = g
            .sands()
            .map_or("none (3 divides neither side)".to_string(), |s| {
                s.to_string()
            });
        let mut out = format!("Published values: Sands {sands}; Pearce {}", g.pearce());
        if let (Query::AtLeast(h), Status::Infeasible, false) = (query, status, restricted) {
            out = format!(
                "So the optimum is at most {} (holes have the parity of mn). {out}",
                g.most_below(h)
            );
        }
        Some(out)
    }
}

/// Boards up to this many cells are left to the integer program, which settles them in
/// seconds (12×12 in 0.3 s).
const SETTLE_FROM_CELLS: usize = 150;

/// How long each symmetric search for a packing may take when the run has no time limit.
const SYMMETRIC_SEARCH: std::time::Duration = std::time::Duration::from_secs(20);

/// The optimum of a board whose symmetric searches missed the domino bound (Pearce's value):
/// the budget program refutes the values from the top down, and at the first value it does
/// not refute, SAT draws a packing: a symmetric one first (half-turn, mirror, flip; small
/// searches), else the full model. Each value below the top is first looked for by the
/// symmetric searches, since the budget program is slow to confirm a value it cannot refute.
/// `None` when the budget program says the top is reachable: the full model then finds it.
fn settle_optimum(g: &Gunport, limits: &Limits) -> Option<Result<Exact<Packing>>> {
    let top = g.domino_bound()?;
    let started = Instant::now();
    let remaining = || limits.remaining();
    let mut steps: Vec<serde_json::Value> = Vec::new();
    let mut refuted: Option<i64> = None;
    let unknown = |steps: Vec<serde_json::Value>, refuted: Option<i64>, why: &str| Exact {
        status: Status::Unknown,
        solutions: Vec::new(),
        count: 0,
        objective: None,
        method: format!("budget program and SAT, {why}"),
        scope: None,
        details: Some(serde_json::json!({
            "steps": steps,
            "at_most": refuted.map(|r| g.most_below(r)),
        })),
    };
    let mut h = top;
    loop {
        if h < 0 {
            return Some(Err(Error::Internal(format!(
                "the budget program refuted every value on {}×{}",
                g.m, g.n
            ))));
        }
        // Below the top: a symmetric packing at h settles it (h + 2 is refuted).
        if h < top {
            for sym in [
                BoardSymmetry::HalfTurn,
                BoardSymmetry::Mirror,
                BoardSymmetry::Flip,
            ] {
                let limit = remaining().map_or(SYMMETRIC_SEARCH, |r| (r / 4).min(SYMMETRIC_SEARCH));
                let t = Instant::now();
                let found = match packing_at(g, h, Some(sym), &limits.until(Some(t + limit))) {
                    Ok(found) => found,
                    Err(e) => return Some(Err(e)),
                };
                steps.push(serde_json::json!({
                    "holes": h,
                    "search": format!("{}-symmetric packings (SAT, charge formulation)", sym.name().replace(' ', "-")),
                    "found": found.is_some(),
                    "seconds": t.elapsed().as_secs_f64(),
                }));
                if let Some(p) = found {
                    return Some(Ok(settled(
                        g,
                        h,
                        p,
                        steps,
                        started,
                        &sym.name().replace(' ', "-"),
                    )));
                }
            }
        }
        let t = Instant::now();
        let r = budget::at_least(g.m, g.n, h as usize)?;
        steps.push(serde_json::json!({
            "holes": h,
            "search": "budget program",
            "refuted": r.holes.is_none() && !r.stopped,
            "seconds": t.elapsed().as_secs_f64(),
            "peak_states": r.peak_states,
        }));
        if r.stopped {
            return Some(Ok(unknown(steps, refuted, "stopped by the time limit")));
        }
        if r.holes.is_none() {
            refuted = Some(h);
            h = g.most_below(h);
            continue;
        }
        if h == top {
            // Reachable at the bound, but no symmetric packing: the full model's work.
            return None;
        }
        // h is reachable and h + 2 is not: draw a packing with the full model.
        let t = Instant::now();
        let found = match packing_at(g, h, None, limits) {
            Ok(found) => found,
            Err(e) => return Some(Err(e)),
        };
        steps.push(serde_json::json!({
            "holes": h,
            "search": "all packings (SAT, charge formulation)",
            "found": found.is_some(),
            "seconds": t.elapsed().as_secs_f64(),
        }));
        return Some(Ok(match found {
            Some(p) => settled(g, h, p, steps, started, "full"),
            None => unknown(
                steps,
                refuted,
                "the packing the budget program says exists was not drawn in time",
            ),
        }));
    }
}

/// The optimum `h` settled by a packing (found among `kind` packings) and the budget
/// program's refutation of the next value.
fn settled(
    g: &Gunport,
    h: i64,
    p: Packing,
    steps: Vec<serde_json::Value>,
    started: Instant,
    kind: &str,
) -> Exact<Packing> {
    let above = h + 2;
    let method = format!(
        "a packing with {h} holes by SAT ({kind}{}), and the budget program's refutation of {above}{}",
        if kind == "full" { " model" } else { "-symmetric packings" },
        if above > g.domino_bound().unwrap_or(above) {
            " (the domino bound)".to_string()
        } else {
            String::new()
        },
    );
    Exact {
        status: Status::Optimal,
        solutions: vec![p],
        count: 1,
        objective: Some(h),
        method,
        scope: None,
        details: Some(serde_json::json!({
            "steps": steps,
            "seconds": started.elapsed().as_secs_f64(),
        })),
    }
}

/// A packing with at least `h` holes, among those with `sym` (or all), by SAT on the charge
/// formulation, until `end` if given.
fn packing_at(
    g: &Gunport,
    h: i64,
    sym: Option<BoardSymmetry>,
    limits: &Limits,
) -> Result<Option<Packing>> {
    let formulation = Formulation::Charge;
    let mut gm = g.formulate(formulation);
    if let Some(sym) = sym {
        let grid = Grid::new(g.m, g.n);
        gm.restrict_to_symmetric(&|p| grid.map(sym, p));
    }
    let f = g.formulated(gm, formulation, None);
    let o = crate::runner::drive(f, Query::AtLeast(h), limits, true)?;
    Ok(o.solutions.into_iter().next())
}

/// `reach` by the budget dynamic program.
fn budget_reach(g: &Gunport, o: &Options, holes: i64) -> Result<Exact<Packing>> {
    if o.symmetry != Symmetry::None {
        return Err(Error::input("--symmetry applies to --method sat only"));
    }
    let r = budget::at_least(g.m, g.n, holes as usize).ok_or_else(|| {
        Error::input(format!(
            "--method budget: the narrower side may be at most {} (and the board more than one cell)",
            budget::MAX_WIDTH
        ))
    })?;
    let status = match (r.holes, r.stopped) {
        (_, true) => Status::Unknown,
        (Some(_), false) => Status::Solved,
        (None, false) => Status::Infeasible,
    };
    Ok(Exact {
        status,
        solutions: Vec::new(),
        count: 0,
        objective: r.holes.map(|h| h as i64),
        method: "dynamic program over rows within the charge budget".into(),
        scope: None,
        details: Some(serde_json::json!({
            "peak_states": r.peak_states,
            "total_states": r.total_states,
        })),
    })
}
