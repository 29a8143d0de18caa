//! The Gunport formulations as 0-1 programs: cell, strong, charge and domino.

use super::*;
use crate::error::{Error, Result};
use crate::model::{Kind, Lit, Model, Sense, Var};
use crate::puzzles::{Formulated, Goal, Meaning, Phase, Place};

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

    /// Adds the givens as rows, each a group a person names ("the hole given at (2,3)"),
    /// stated on the placements, so in every formulation: a hole has no domino over it, a
    /// covered cell at least one, a given domino is placed.
    pub fn fix(&mut self, givens: &[(usize, usize, super::Fix)]) {
        use super::Fix;
        for &(i, j, fix) in givens {
            let over: Vec<Var> = match fix {
                Fix::Hole | Fix::Covered => self
                    .placements
                    .iter()
                    .filter(|(_, d)| d.contains(&(i, j)))
                    .map(|&(v, _)| v)
                    .collect(),
                Fix::Right | Fix::Down => {
                    let other = if fix == Fix::Right {
                        (i, j + 1)
                    } else {
                        (i + 1, j)
                    };
                    self.placements
                        .iter()
                        .filter(|(_, d)| *d == [(i, j), other])
                        .map(|&(v, _)| v)
                        .collect()
                }
            };
            let what = match fix {
                Fix::Hole => "a hole",
                Fix::Covered => "a covered cell",
                Fix::Right => "a domino reaching right",
                Fix::Down => "a domino reaching down",
            };
            self.model.group(
                Kind::Given,
                Some(Place::Cell(i, j)),
                format!("{what} given at ({},{})", i + 1, j + 1),
            );
            let terms: Vec<(i64, Lit)> = over.iter().map(|v| (1, v.pos())).collect();
            match fix {
                Fix::Hole => self.model.add("given cells", terms, Sense::Eq, 0),
                _ => self.model.add("given cells", terms, Sense::Ge, 1),
            };
            self.model.end_group();
        }
    }

    pub fn decode(&self, (m, n): (usize, usize), assignment: &[bool]) -> Packing {
        let mut dominoes: Vec<Domino> = self
            .placements
            .iter()
            .filter(|(v, _)| assignment[v.index()])
            .map(|&(_, d)| d)
            .collect();
        dominoes.sort();
        // A numbered domino and its place's counting variable name one domino.
        dominoes.dedup();
        Packing { m, n, dominoes }
    }
}

/// Every domino placement on the board, horizontal ones first, in row-major order.
pub(super) fn placements(m: usize, n: usize) -> Vec<Domino> {
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
pub(super) fn adjacent_pairs(m: usize, n: usize) -> Vec<[(usize, usize); 2]> {
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
        Ok(Gunport::board(m as usize, n as usize))
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
        let mut gm = match formulation {
            Formulation::Cell => self.cell_model(false, false),
            Formulation::Strong => self.cell_model(true, false),
            Formulation::Charge => self.cell_model(true, true),
            Formulation::Domino => self.domino_model(),
        };
        gm.fix(&self.givens);
        gm
    }

    pub(super) fn cell_model(&self, strong: bool, charge: bool) -> GunportModel {
        let (m, n) = (self.m, self.n);
        let mut model = Model::new();
        let mu: Vec<Var> = (0..m * n)
            .map(|k| model.var(format!("mu_{}_{}", k / n + 1, k % n + 1)))
            .collect();
        let mut placed = Vec::new();
        for d in placements(m, n) {
            let [(r, c), (r2, _)] = d;
            let kind = if r2 == r { "h" } else { "v" };
            placed.push((model.var(format!("{kind}_{}_{}", r + 1, c + 1)), d));
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
        let at = |(r, c): (usize, usize)| format!("({},{})", r + 1, c + 1);
        for [a, b] in adjacent_pairs(m, n) {
            model.group(
                Kind::Rule,
                Some(Place::Cell(a.0, a.1)),
                format!("{} and {} are not both holes", at(a), at(b)),
            );
            model.at_most_one(
                "no two adjacent holes",
                &[mu[a.0 * n + a.1].pos(), mu[b.0 * n + b.1].pos()],
            );
        }
        model.end_group();
        if strong {
            // Theorem (Klostermeyer & Yeo): a maximal packing has at least ⌈mn/3⌉ dominoes,
            // so sum mu = mn - 2 (dominoes) <= mn - 2⌈mn/3⌉.
            if let Some(bound) = self.domino_bound() {
                let lits: Vec<Lit> = mu.iter().map(|v| v.pos()).collect();
                model.group(
                    Kind::Rule,
                    None,
                    format!(
                        "a maximal packing leaves at most {bound} holes (Klostermeyer and Yeo)"
                    ),
                );
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
                    model.group(
                        Kind::Rule,
                        Some(Place::Cell(r, c)),
                        format!(
                            "the square whose top left is {} holds at most two holes",
                            at((r, c))
                        ),
                    );
                    model.cardinality("at most two holes per 2x2 window", &w, Sense::Le, 2);
                }
            }
            model.end_group();
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
    pub(super) fn charge_shortfall(
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

    pub(super) fn domino_model(&self) -> GunportModel {
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
    pub(super) fn project_on_placements(&mut self) {
        // The numbered placements of each place, gathered in one pass (a scan of every
        // placement for every place took 16-25 s at 60×60, never looking at the clock).
        let mut by_spot: std::collections::BTreeMap<Domino, Vec<Var>> = Default::default();
        for &(x, spot) in &self.placements {
            crate::guard::tick();
            by_spot.entry(spot).or_default().push(x);
        }
        let mut decisions = Vec::new();
        let mut named = Vec::new();
        for (spot, numbered) in by_spot {
            let [(r, c), (r2, _)] = spot;
            let kind = if r2 == r { "h" } else { "v" };
            let z = self.model.var(format!("z{kind}_{}_{}", r + 1, c + 1));
            let mut terms = vec![(1, z.pos())];
            terms.extend(numbered.into_iter().map(|x| (-1, x.pos())));
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

impl Gunport {
    /// The formulation, with the symmetry-breaking rows where it has them (strong, charge):
    /// for questions about the optimum, never for counting.
    pub(super) fn formulate_for_proof(&self, formulation: Formulation) -> GunportModel {
        let mut gm = self.formulate(formulation);
        // Givens are seldom symmetric: the symmetry-breaking rows would cut their packings.
        if self.givens.is_empty()
            && matches!(formulation, Formulation::Strong | Formulation::Charge)
        {
            self.add_symmetry_breaking(&mut gm);
        }
        gm
    }

    pub(super) fn add_symmetry_breaking(&self, gm: &mut GunportModel) {
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

impl Gunport {
    /// The phase that searches the packings with symmetry `sym` in `formulation`: a quarter
    /// of the time left, or 10 s without a limit. The optimum's phases are three of these,
    /// and settling the optimum of a large board (`settle::settle_optimum`) runs the same
    /// phases at each value below the bound.
    pub(super) fn symmetric_phase(
        &self,
        formulation: Formulation,
        sym: crate::geometry::Symmetry,
    ) -> Phase<'_, Packing> {
        let grid = Grid::new(self.m, self.n);
        Phase {
            scope: format!("{}-symmetric packings", sym.name().replace(' ', "-")),
            share: 0.25,
            unlimited: Some(std::time::Duration::from_secs(10)),
            build: Box::new(move || {
                let mut gm = self.formulate(formulation);
                gm.restrict_to_symmetric(&|p| grid.map(sym, p));
                self.formulated(gm, formulation, None)
            }),
        }
    }

    /// The runner's view of a model: decisions are the domino placements, the goal the holes.
    pub(super) fn formulated<'a>(
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
                // Marked as the board draws them; in words for a person reading the model.
                Some([a, b]) => {
                    let (mark, end) = match a.0 == b.0 {
                        true => ("<>", "the left end of a domino lying across"),
                        false => ("^v", "the top of a standing domino"),
                    };
                    Meaning {
                        words: Some((end.to_string(), format!("not {end}"))),
                        ..Meaning::at(Place::Cell(a.0, a.1), mark)
                    }
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
        let size = (self.m, self.n);
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
