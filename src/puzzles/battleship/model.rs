//! The paper's two integer programs, row for row with its numbering.
//!
//! Cell-based (eqs. 1–25): `x[i][j][k] = 1` if cell (i, j) shows symbol k, `s[i][j][l] = 1` if
//! a ship of length l starts there. Ship-based (eqs. 26–31): one variable `y[g]` per "grid" g,
//! i.e. per position of one ship. Both read the clues as rows (2) and (30).
//!
//! Two details the paper leaves open are settled here, and said in docs/battleship.md:
//! - eq. (6) as printed has `x[i][j+1][2]` for the right end; the right end of a ship of length
//!   l starting at column j is column j+l-1, which is what is written here;
//! - with an unknown (`?`) row or column count, (3)–(4) no longer fix the number of ship cells
//!   and the cell model could add ships the fleet does not have; row (7b) then states that the
//!   ship cells number the fleet's cells. It is only added when a count is unknown.
//! - eq. (30) with M = 1 says only "a ship is here"; a clue also tells which part of a ship, so
//!   the row sums only the grids whose ship shows that symbol in the cell. A clue that says
//!   only "a part of a ship" ([`Symbol::Ship`]) is the paper's M = 1 as printed, and row (2)
//!   of the cell model then says the cell is not water.

use super::{placements, Grid, Layout, Ship, Symbol};
use crate::model::{Kind, Lit, Model, Sense, Var};
use crate::puzzles::Place;

/// "1 ship cell", "4 ship cells".
fn ship_cells(k: usize) -> String {
    format!("{k} ship cell{}", if k == 1 { "" } else { "s" })
}

/// A cell in an explanation's words, counted from 1.
fn at_cell(i: usize, j: usize) -> String {
    format!("({},{})", i + 1, j + 1)
}

impl Symbol {
    /// What a clue of this symbol says, for explanations.
    fn words(self) -> &'static str {
        match self {
            Symbol::Water => "water",
            Symbol::Left => "the left end of a ship",
            Symbol::Right => "the right end of a ship",
            Symbol::Top => "the top end of a ship",
            Symbol::Bottom => "the bottom end of a ship",
            Symbol::Middle => "the middle of a ship",
            Symbol::Sub => "a submarine",
            Symbol::Ship => "a part of a ship",
        }
    }
}

/// Which integer program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Formulation {
    /// Cell-based: seven symbols per cell (paper eqs. 1–25, eq. 6 split by direction)
    Cell,
    /// The cell-based model with eq. (6) as printed: unsound, kept to show why (see docs)
    CellPrinted,
    /// Ship-based: one variable per position of a ship (paper eqs. 26–31)
    Ship,
    /// Ship-based plus one variable per cell channelled to the ships covering it, with the
    /// row and column counts written over the cells (ours)
    ShipCells,
    /// Ours, the fastest: one variable per cell, no two diagonal neighbours occupied (so ships
    /// are straight runs), no run longer than the longest ship, and one variable per position
    /// of a ship that is true exactly when that position is a maximal run; the fleet counts
    /// those
    #[default]
    Runs,
}

impl Formulation {
    pub fn ship_based(self) -> bool {
        matches!(self, Formulation::Ship | Formulation::ShipCells)
    }

    /// Solutions are read off (and told apart by) the ship-cell variables.
    fn on_cells(self) -> bool {
        matches!(self, Formulation::Runs)
    }
}

/// A formulated puzzle: the model and how to read a solution off it.
pub struct BattleshipModel {
    pub model: Model,
    pub formulation: Formulation,
    rows: usize,
    cols: usize,
    /// Cell model: x[cell][k].
    x: Vec<[Var; 7]>,
    /// Ship model: the grids and their variables.
    grids: Vec<Ship>,
    y: Vec<Var>,
    /// Runs model: z[cell].
    z: Vec<Var>,
}

impl BattleshipModel {
    /// Builds the model of `p`, with its clues when `with_clues`.
    pub fn new(p: &Grid, formulation: Formulation, with_clues: bool) -> BattleshipModel {
        let mut bm = match formulation {
            Formulation::Cell => cell_model(p, with_clues, false),
            Formulation::CellPrinted => cell_model(p, with_clues, true),
            Formulation::Ship => ship_model(p, with_clues, false),
            Formulation::ShipCells => ship_model(p, with_clues, true),
            Formulation::Runs => runs_model(p, with_clues),
        };
        bm.formulation = formulation;
        // On a board that is nearly all water (ships under a tenth of it), guess water first:
        // the whole 200×200 puzz.link board went from over 60 s to 11.6 s. On the paper's
        // 30×20 (ships a third of the board) it made `generate` 3× slower (45 s → 142 s).
        bm.model.guess_false = p.fleet_cells() * 10 < p.rows * p.cols;
        bm
    }

    /// The variables that tell solutions apart (two solutions with the same values here are
    /// the same placement of ships).
    pub fn projection(&self) -> Vec<Var> {
        if self.formulation.on_cells() {
            return self.z.clone();
        }
        match self.formulation.ship_based() {
            false => self.x.iter().map(|x| x[0]).collect(),
            true => self.y.clone(),
        }
    }

    /// The ship cells of a solution, row-major.
    pub fn occupancy(&self, assignment: &[bool]) -> Vec<bool> {
        if self.formulation.on_cells() {
            return self.z.iter().map(|z| assignment[z.index()]).collect();
        }
        match self.formulation.ship_based() {
            false => self.x.iter().map(|x| !assignment[x[0].index()]).collect(),
            true => {
                let mut occ = vec![false; self.rows * self.cols];
                for (g, v) in self.grids.iter().zip(&self.y) {
                    if assignment[v.index()] {
                        for (i, j, _) in g.cells() {
                            occ[i * self.cols + j] = true;
                        }
                    }
                }
                occ
            }
        }
    }

    pub fn decode(&self, assignment: &[bool]) -> Layout {
        Layout::from_occupancy(self.rows, self.cols, &self.occupancy(assignment))
    }

    /// What each projection variable means, for drawing forced cells.
    pub fn meanings(&self) -> Vec<crate::puzzles::Meaning> {
        use crate::puzzles::{Meaning, Place};
        let cell = |c: usize, says: &str, otherwise: &str| Meaning {
            place: Place::Cell(c / self.cols, c % self.cols),
            says: says.into(),
            otherwise: Some(otherwise.into()),
            words: Some(if says == "#" {
                ("ship".into(), "water".into())
            } else {
                ("water".into(), "ship".into())
            }),
        };
        if self.formulation.on_cells() {
            return (0..self.z.len()).map(|c| cell(c, "#", "~")).collect();
        }
        match self.formulation.ship_based() {
            false => (0..self.x.len()).map(|c| cell(c, "~", "#")).collect(),
            true => self
                .grids
                .iter()
                .map(|g| Meaning {
                    place: Place::Cell(g.row, g.col),
                    says: format!("{}{}", if g.horizontal { ">" } else { "v" }, g.len),
                    otherwise: None,
                    words: None,
                })
                .collect(),
        }
    }

    /// Clauses saying "cell (i, j) shows `symbol`" (given the rest of the model).
    pub fn clue_clauses(&self, i: usize, j: usize, symbol: Symbol) -> Vec<Vec<Lit>> {
        if self.formulation.on_cells() {
            return runs_clue(self, i, j, symbol);
        }
        match self.formulation.ship_based() {
            // A ship part of no kind: the cell is not water.
            false if symbol == Symbol::Ship => {
                vec![vec![self.x[i * self.cols + j][Symbol::Water.k()].negated()]]
            }
            false => vec![vec![self.x[i * self.cols + j][symbol.k()].pos()]],
            true => {
                if symbol == Symbol::Water {
                    self.covering(i, j, None)
                        .into_iter()
                        .map(|v| vec![v.negated()])
                        .collect()
                } else {
                    vec![self
                        .covering(i, j, Some(symbol))
                        .into_iter()
                        .map(|v| v.pos())
                        .collect()]
                }
            }
        }
    }

    /// The literal "cell `c` (row-major) holds a ship", where one decides it (the cell and
    /// runs formulations; `None` on the ship-based ones).
    pub fn ship_at(&self, c: usize) -> Option<Lit> {
        if self.formulation.on_cells() {
            return Some(self.z[c].pos());
        }
        match self.formulation.ship_based() {
            false => Some(self.x[c][0].negated()),
            true => None,
        }
    }

    /// The literals that say "the solution differs from `layout`".
    pub fn differs_from(&self, layout: &Layout) -> Vec<Lit> {
        let occ = layout.occupied();
        if self.formulation.on_cells() {
            return self
                .z
                .iter()
                .zip(&occ)
                .map(|(z, &o)| if o { z.negated() } else { z.pos() })
                .collect();
        }
        match self.formulation.ship_based() {
            false => self
                .x
                .iter()
                .zip(&occ)
                .map(|(x, &o)| if o { x[0].pos() } else { x[0].negated() })
                .collect(),
            true => self
                .grids
                .iter()
                .zip(&self.y)
                .map(|(g, v)| {
                    if layout.ships.contains(g) {
                        v.negated()
                    } else {
                        v.pos()
                    }
                })
                .collect(),
        }
    }

    /// Ship model: the variables of the grids covering (i, j), with a symbol there that the
    /// clue `symbol` admits, if given.
    fn covering(&self, i: usize, j: usize, symbol: Option<Symbol>) -> Vec<Var> {
        self.grids
            .iter()
            .zip(&self.y)
            .filter(|(g, _)| {
                g.cells()
                    .iter()
                    .any(|&(a, b, s)| a == i && b == j && symbol.is_none_or(|t| t.admits(s)))
            })
            .map(|(_, &v)| v)
            .collect()
    }
}

fn cell_model(p: &Grid, with_clues: bool, as_printed: bool) -> BattleshipModel {
    let (rows, cols, big_l) = (p.rows, p.cols, p.max_len());
    let mut m = Model::new();
    let mut x: Vec<[Var; 7]> = Vec::with_capacity(rows * cols);
    for i in 0..rows {
        for j in 0..cols {
            x.push(std::array::from_fn(|k| {
                m.var(format!("x_{}_{}_{}", i + 1, j + 1, k))
            }));
        }
    }
    // s[cell][l - 1]; with eq. (6) split by direction, ships of length >= 2 get a horizontal
    // and a vertical start variable each, in sv[cell][l - 2].
    let mut s: Vec<Vec<Var>> = Vec::with_capacity(rows * cols);
    let mut sv: Vec<Vec<Var>> = Vec::with_capacity(rows * cols);
    for i in 0..rows {
        for j in 0..cols {
            s.push(
                (1..=big_l)
                    .map(|l| m.var(format!("s_{}_{}_{}", i + 1, j + 1, l)))
                    .collect(),
            );
            if !as_printed {
                sv.push(
                    (2..=big_l)
                        .map(|l| m.var(format!("sv_{}_{}_{}", i + 1, j + 1, l)))
                        .collect(),
                );
            }
        }
    }
    let inside =
        |i: isize, j: isize| i >= 0 && j >= 0 && (i as usize) < rows && (j as usize) < cols;
    // x(i, j, k) as a literal, or None outside the board (Remark 1: it is zero there).
    let xl = |i: isize, j: isize, k: usize| -> Option<Lit> {
        inside(i, j).then(|| x[i as usize * cols + j as usize][k].pos())
    };
    let ship_terms = |i: usize, j: usize| -> Vec<(i64, Lit)> {
        (1..7).map(|k| (1, x[i * cols + j][k].pos())).collect()
    };
    // (1) one symbol per cell.
    for c in &x {
        let lits: Vec<Lit> = c.iter().map(|v| v.pos()).collect();
        m.exactly_one("(1) one symbol per cell", &lits);
    }
    // (2) the given symbols.
    if with_clues {
        for (i, j, sym) in p.given() {
            // A ship part of no kind: any symbol but water.
            let (k, want) = match sym {
                Symbol::Ship => (Symbol::Water.k(), 0),
                _ => (sym.k(), 1),
            };
            m.add(
                "(2) given symbols",
                vec![(1, x[i * cols + j][k].pos())],
                Sense::Eq,
                want,
            );
        }
    }
    // (3), (4) counts.
    for i in 0..rows {
        if let Some(r) = p.row_counts[i] {
            let terms = (0..cols).flat_map(|j| ship_terms(i, j)).collect();
            m.add("(3) row counts", terms, Sense::Eq, r as i64);
        }
    }
    for j in 0..cols {
        if let Some(c) = p.col_counts[j] {
            let terms = (0..rows).flat_map(|i| ship_terms(i, j)).collect();
            m.add("(4) column counts", terms, Sense::Eq, c as i64);
        }
    }
    // (5) a submarine is a ship of length 1 starting here; (6) longer ships.
    for i in 0..rows {
        for j in 0..cols {
            let c = i * cols + j;
            m.add(
                "(5) submarines start ships of length 1",
                vec![(1, s[c][0].pos()), (-1, x[c][6].pos())],
                Sense::Eq,
                0,
            );
            for l in 2..=big_l {
                let (ii, jj, li) = (i as isize, j as isize, l as isize);
                let mut horizontal = vec![xl(ii, jj, 1), xl(ii, jj + li - 1, 2)];
                horizontal.extend((jj + 1..=jj + li - 2).map(|cc| xl(ii, cc, 5)));
                let mut vertical = vec![xl(ii, jj, 3), xl(ii + li - 1, jj, 4)];
                vertical.extend((ii + 1..=ii + li - 2).map(|r| xl(r, jj, 5)));
                let pattern = |start: Var, parts: &[Option<Lit>]| -> Vec<(i64, Lit)> {
                    let mut terms = vec![(l as i64, start.pos())];
                    terms.extend(parts.iter().flatten().map(|&lit| (-1, lit)));
                    terms
                };
                if as_printed {
                    let both: Vec<Option<Lit>> =
                        horizontal.iter().chain(&vertical).copied().collect();
                    m.add(
                        "(6) longer ships start here",
                        pattern(s[c][l - 1], &both),
                        Sense::Le,
                        0,
                    );
                } else {
                    let h = pattern(s[c][l - 1], &horizontal);
                    m.add("(6h) horizontal ships start here", h, Sense::Le, 0);
                    let v = pattern(sv[c][l - 2], &vertical);
                    m.add("(6v) vertical ships start here", v, Sense::Le, 0);
                }
            }
        }
    }
    // (7) the fleet.
    for l in 1..=big_l {
        let mut lits: Vec<Lit> = s.iter().map(|sc| sc[l - 1].pos()).collect();
        if l >= 2 {
            lits.extend(sv.iter().map(|sc| sc[l - 2].pos()));
        }
        m.cardinality(
            "(7) ships per length",
            &lits,
            Sense::Eq,
            p.fleet[l - 1] as i64,
        );
    }
    if p.row_counts.iter().any(|c| c.is_none()) || p.col_counts.iter().any(|c| c.is_none()) {
        let terms = (0..rows)
            .flat_map(|i| (0..cols).map(move |j| (i, j)))
            .flat_map(|(i, j)| ship_terms(i, j))
            .collect();
        m.add(
            "(7b) ship cells in all (unknown counts)",
            terms,
            Sense::Eq,
            p.fleet_cells() as i64,
        );
    }
    // (8), (9) no diagonal contact.
    for i in 0..rows {
        for j in 0..cols {
            for (di, fam) in [
                (1isize, "(8) no contact down-right"),
                (-1, "(9) no contact up-right"),
            ] {
                let (a, b) = (i as isize + di, j as isize + 1);
                if inside(a, b) {
                    let mut terms = ship_terms(i, j);
                    terms.extend(ship_terms(a as usize, b as usize));
                    m.add(fam, terms, Sense::Le, 1);
                }
            }
        }
    }
    // (10)–(21): what each symbol needs of its neighbours; (22)–(23) submarines apart.
    for i in 0..rows as isize {
        for j in 0..cols as isize {
            let here = |k: usize| xl(i, j, k).expect("inside");
            let mut needs = |fam: &'static str, k: usize, any_of: &[Option<Lit>]| {
                let mut terms = vec![(1, here(k))];
                terms.extend(any_of.iter().flatten().map(|&l| (-1, l)));
                m.add(fam, terms, Sense::Le, 0);
            };
            needs(
                "(10) left end: right or middle to the right",
                1,
                &[xl(i, j + 1, 2), xl(i, j + 1, 5)],
            );
            if j > 0 {
                needs("(11) left end: water to the left", 1, &[xl(i, j - 1, 0)]);
            }
            if j < cols as isize - 1 {
                needs("(12) right end: water to the right", 2, &[xl(i, j + 1, 0)]);
            }
            needs(
                "(13) right end: left or middle to the left",
                2,
                &[xl(i, j - 1, 1), xl(i, j - 1, 5)],
            );
            needs(
                "(14) top end: bottom or middle below",
                3,
                &[xl(i + 1, j, 4), xl(i + 1, j, 5)],
            );
            if i > 0 {
                needs("(15) top end: water above", 3, &[xl(i - 1, j, 0)]);
            }
            if i < rows as isize - 1 {
                needs("(16) bottom end: water below", 4, &[xl(i + 1, j, 0)]);
            }
            needs(
                "(17) bottom end: top or middle above",
                4,
                &[xl(i - 1, j, 3), xl(i - 1, j, 5)],
            );
            let up = [xl(i - 1, j, 3), xl(i - 1, j, 5)];
            let down = [xl(i + 1, j, 4), xl(i + 1, j, 5)];
            let left = [xl(i, j - 1, 1), xl(i, j - 1, 5)];
            let right = [xl(i, j + 1, 2), xl(i, j + 1, 5)];
            for (fam, a, b) in [
                ("(18) middle: above or right", up, right),
                ("(19) middle: above or left", up, left),
                ("(20) middle: below or left", down, left),
                ("(21) middle: below or right", down, right),
            ] {
                needs(fam, 5, &[a[0], a[1], b[0], b[1]]);
            }
            if j > 0 {
                let t = vec![(1, here(6)), (1, xl(i, j - 1, 6).expect("inside"))];
                m.add("(22) submarines apart in a row", t, Sense::Le, 1);
            }
            if i > 0 {
                let t = vec![(1, here(6)), (1, xl(i - 1, j, 6).expect("inside"))];
                m.add("(23) submarines apart in a column", t, Sense::Le, 1);
            }
        }
    }
    BattleshipModel {
        model: m,
        formulation: Formulation::Cell,
        rows,
        cols,
        x,
        grids: Vec::new(),
        y: Vec::new(),
        z: Vec::new(),
    }
}

fn ship_model(p: &Grid, with_clues: bool, with_cells: bool) -> BattleshipModel {
    let (rows, cols) = (p.rows, p.cols);
    let grids = placements(rows, cols, p.max_len());
    let mut m = Model::new();
    let y: Vec<Var> = grids
        .iter()
        .map(|g| {
            m.var(format!(
                "y_{}{}_{}_{}",
                g.len,
                if g.horizontal { 'h' } else { 'v' },
                g.row + 1,
                g.col + 1
            ))
        })
        .collect();
    // Ours (ship-cells): z[cell] = 1 exactly when a ship covers the cell.
    let z: Vec<Var> = if with_cells {
        (0..rows * cols)
            .map(|c| m.var(format!("z_{}_{}", c / cols + 1, c % cols + 1)))
            .collect()
    } else {
        Vec::new()
    };
    if with_cells {
        let mut covering: Vec<Vec<Lit>> = vec![Vec::new(); rows * cols];
        for (g, v) in grids.iter().zip(&y) {
            for (i, j, _) in g.cells() {
                covering[i * cols + j].push(v.pos());
                m.implies(
                    "(c1) a covered cell is occupied",
                    v.pos(),
                    z[i * cols + j].pos(),
                );
            }
        }
        for (c, cov) in covering.iter().enumerate() {
            let mut lits = vec![z[c].negated()];
            lits.extend(cov);
            m.at_least_one("(c2) an occupied cell is covered", &lits);
        }
        counts_over_cells(&mut m, p, &z);
    }
    // (26), (27): ship cells per row and column.
    for i in 0..rows {
        if let Some(r) = p.row_counts[i].filter(|_| !with_cells) {
            let terms: Vec<(i64, Lit)> = grids
                .iter()
                .zip(&y)
                .filter_map(|(g, v)| {
                    let n = g.cells().iter().filter(|c| c.0 == i).count() as i64;
                    (n > 0).then(|| (n, v.pos()))
                })
                .collect();
            m.add("(26) row counts", terms, Sense::Eq, r as i64);
        }
    }
    for j in 0..cols {
        if let Some(c) = p.col_counts[j].filter(|_| !with_cells) {
            let terms: Vec<(i64, Lit)> = grids
                .iter()
                .zip(&y)
                .filter_map(|(g, v)| {
                    let n = g.cells().iter().filter(|c| c.1 == j).count() as i64;
                    (n > 0).then(|| (n, v.pos()))
                })
                .collect();
            m.add("(27) column counts", terms, Sense::Eq, c as i64);
        }
    }
    // (28) the fleet.
    for l in 1..=p.max_len() {
        let lits: Vec<Lit> = grids
            .iter()
            .zip(&y)
            .filter(|(g, _)| g.len == l)
            .map(|(_, v)| v.pos())
            .collect();
        m.cardinality(
            "(28) ships per length",
            &lits,
            Sense::Eq,
            p.fleet[l - 1] as i64,
        );
    }
    // (29) at most one ship meets each 2×2 window: no overlap, no contact. Each ship is
    // listed under the windows it meets (those starting one row or column before it, up to
    // its last cell), in the order of the grids.
    let (wrows, wcols) = (rows.saturating_sub(1).max(1), cols.saturating_sub(1).max(1));
    let mut windows: Vec<Vec<Lit>> = vec![Vec::new(); wrows * wcols];
    for (g, v) in grids.iter().zip(&y) {
        let (er, ec) = if g.horizontal {
            (g.row, g.col + g.len - 1)
        } else {
            (g.row + g.len - 1, g.col)
        };
        for wi in g.row.saturating_sub(1)..=er.min(wrows - 1) {
            for wj in g.col.saturating_sub(1)..=ec.min(wcols - 1) {
                if g.meets(wi, wi + 1, wj, wj + 1) {
                    windows[wi * wcols + wj].push(v.pos());
                }
            }
        }
    }
    for lits in &windows {
        if lits.len() > 1 {
            m.at_most_one("(29) one ship per 2x2 window", lits);
        }
    }
    let mut bm = BattleshipModel {
        model: m,
        formulation: Formulation::Ship,
        rows,
        cols,
        x: Vec::new(),
        grids,
        y,
        z: Vec::new(),
    };
    // (30) the given cells.
    if with_clues {
        for (i, j, sym) in p.given() {
            let (want, vars) = if sym == Symbol::Water {
                (0, bm.covering(i, j, None))
            } else {
                (1, bm.covering(i, j, Some(sym)))
            };
            let terms = vars.iter().map(|v| (1, v.pos())).collect();
            bm.model.add("(30) given cells", terms, Sense::Eq, want);
        }
    }
    bm
}

/// The runs model (ours). Cells `z`; no two diagonal neighbours both occupied, which leaves
/// straight runs as the only shapes; no run longer than the longest ship; `y[g]` is true
/// exactly when grid g is a maximal run (its cells occupied, the cells just before and after
/// it free, and for a submarine all four neighbours free), so each ship is counted once, by
/// length, in (28).
fn runs_model(p: &Grid, with_clues: bool) -> BattleshipModel {
    let (rows, cols, big_l) = (p.rows, p.cols, p.max_len());
    let grids = placements(rows, cols, big_l);
    let mut m = Model::new();
    let z: Vec<Var> = (0..rows * cols)
        .map(|c| m.var(format!("z_{}_{}", c / cols + 1, c % cols + 1)))
        .collect();
    let at = |i: isize, j: isize| -> Option<usize> {
        (i >= 0 && j >= 0 && (i as usize) < rows && (j as usize) < cols)
            .then(|| i as usize * cols + j as usize)
    };
    // Explanations cite each 2x2 square's corner rule, and the run rule by row and column.
    for i in 0..rows.saturating_sub(1) {
        for j in 0..cols.saturating_sub(1) {
            let c = i * cols + j;
            m.group(
                Kind::Rule,
                Some(Place::Cell(i, j)),
                format!(
                    "ships do not touch at a corner in the square whose top left is {}",
                    at_cell(i, j)
                ),
            );
            m.at_least_one(
                "(r1) no diagonal contact",
                &[z[c].negated(), z[c + cols + 1].negated()],
            );
            m.at_least_one(
                "(r1) no diagonal contact",
                &[z[c + 1].negated(), z[c + cols].negated()],
            );
        }
    }
    // (r2) no run of L+1 cells.
    for (di, dj, lines, along, name) in [(0, 1, rows, cols, "row"), (1, 0, cols, rows, "column")] {
        for line in 0..lines {
            if along <= big_l {
                continue;
            }
            m.group(
                Kind::Rule,
                None,
                format!("no ship in {name} {} is longer than {big_l}", line + 1),
            );
            for t0 in 0..along - big_l {
                let (i, j) = if di == 0 { (line, t0) } else { (t0, line) };
                let run: Vec<Lit> = (0..=big_l)
                    .map(|t| z[(i + t * di) * cols + j + t * dj].negated())
                    .collect();
                m.at_least_one("(r2) no run longer than the longest ship", &run);
            }
        }
    }
    m.end_group();
    let y: Vec<Var> = grids
        .iter()
        .map(|g| {
            m.var(format!(
                "y_{}{}_{}_{}",
                g.len,
                if g.horizontal { 'h' } else { 'v' },
                g.row + 1,
                g.col + 1
            ))
        })
        .collect();
    for (g, v) in grids.iter().zip(&y) {
        let (i, j) = (g.row as isize, g.col as isize);
        let l = g.len as isize;
        let mut free: Vec<usize> = Vec::new();
        if g.horizontal {
            free.extend(at(i, j - 1));
            free.extend(at(i, j + l));
        } else {
            free.extend(at(i - 1, j));
            free.extend(at(i + l, j));
        }
        if g.len == 1 {
            free.extend(at(i - 1, j));
            free.extend(at(i + 1, j));
        }
        let cells: Vec<usize> = g.cells().iter().map(|&(a, b, _)| a * cols + b).collect();
        let mut back = vec![v.pos()];
        for &c in &cells {
            m.implies("(r3) a ship is a run", v.pos(), z[c].pos());
            back.push(z[c].negated());
        }
        for &c in &free {
            m.implies("(r3) a ship is a run", v.pos(), z[c].negated());
            back.push(z[c].pos());
        }
        m.at_least_one("(r4) a maximal run is a ship", &back);
    }
    counts_over_cells(&mut m, p, &z);
    // Every ship cell is in exactly one maximal run, so the ships' lengths sum to the ship
    // cells. When the row counts are all given and sum to the fleet's cells, "at most f(l)
    // ships of each length l" then leaves exactly f(l) of each: were one length short,
    // another would be over. The rows say "at most", and a SAT engine checks them by
    // counting during search (docs/battleship.md, "The fleet, counted"), which on 30×20
    // halves the time of a solve against totalizers for "exactly".
    let counts_fix_cells = p.row_counts.iter().all(|r| r.is_some())
        && p.row_counts.iter().flatten().sum::<usize>() == p.fleet_cells();
    let fleet_sense = if counts_fix_cells {
        Sense::Le
    } else {
        Sense::Eq
    };
    for l in 1..=big_l {
        let lits: Vec<Lit> = grids
            .iter()
            .zip(&y)
            .filter(|(g, _)| g.len == l)
            .map(|(_, v)| v.pos())
            .collect();
        let f = p.fleet[l - 1];
        m.group(
            Kind::Given,
            None,
            format!(
                "the fleet has {}{f} ship{} of length {l}",
                if fleet_sense == Sense::Le {
                    "at most "
                } else {
                    ""
                },
                if f == 1 { "" } else { "s" }
            ),
        );
        m.cardinality("(28) ships per length", &lits, fleet_sense, f as i64);
    }
    m.end_group();
    m.counted.push("(28) ships per length");
    let mut bm = BattleshipModel {
        model: m,
        formulation: Formulation::Runs,
        rows,
        cols,
        x: Vec::new(),
        grids,
        y,
        z,
    };
    if with_clues {
        for (i, j, sym) in p.given() {
            bm.model.group(
                Kind::Given,
                Some(Place::Cell(i, j)),
                format!("{} shows {}", at_cell(i, j), sym.words()),
            );
            for clause in runs_clue(&bm, i, j, sym) {
                let terms = clause.iter().map(|&l| (1, l)).collect();
                bm.model.add("(30r) given cells", terms, Sense::Ge, 1);
            }
        }
        bm.model.end_group();
    }
    bm
}

/// Clauses for "cell (i, j) shows `symbol`" in the runs model: the cell itself and the
/// neighbours the symbol fixes as units, and one clause over the ships that show it there.
/// (26c)/(27c): the given row and column counts over the cell variables `z` (row-major).
fn counts_over_cells(m: &mut Model, p: &Grid, z: &[Var]) {
    let (rows, cols) = (p.rows, p.cols);
    for i in 0..rows {
        if let Some(r) = p.row_counts[i] {
            let lits: Vec<Lit> = (0..cols).map(|j| z[i * cols + j].pos()).collect();
            m.group(
                Kind::Given,
                None,
                format!("row {} holds {}", i + 1, ship_cells(r)),
            );
            m.cardinality("(26c) row counts over cells", &lits, Sense::Eq, r as i64);
        }
    }
    for j in 0..cols {
        if let Some(c) = p.col_counts[j] {
            let lits: Vec<Lit> = (0..rows).map(|i| z[i * cols + j].pos()).collect();
            m.group(
                Kind::Given,
                None,
                format!("column {} holds {}", j + 1, ship_cells(c)),
            );
            m.cardinality("(27c) column counts over cells", &lits, Sense::Eq, c as i64);
        }
    }
    m.end_group();
}

fn runs_clue(bm: &BattleshipModel, i: usize, j: usize, symbol: Symbol) -> Vec<Vec<Lit>> {
    let (rows, cols) = (bm.rows as isize, bm.cols as isize);
    let z = |a: isize, b: isize| -> Option<Var> {
        (a >= 0 && b >= 0 && a < rows && b < cols).then(|| bm.z[(a * cols + b) as usize])
    };
    let (a, b) = (i as isize, j as isize);
    let here = bm.z[i * bm.cols + j];
    if symbol == Symbol::Water {
        return vec![vec![here.negated()]];
    }
    let mut out = vec![vec![here.pos()]];
    // (free neighbours, occupied neighbours) as offsets.
    type Offsets = &'static [(isize, isize)];
    let (free, full): (Offsets, Offsets) = match symbol {
        Symbol::Sub => (&[(-1, 0), (1, 0), (0, -1), (0, 1)], &[]),
        Symbol::Left => (&[(0, -1), (-1, 0), (1, 0)], &[(0, 1)]),
        Symbol::Right => (&[(0, 1), (-1, 0), (1, 0)], &[(0, -1)]),
        Symbol::Top => (&[(-1, 0), (0, -1), (0, 1)], &[(1, 0)]),
        Symbol::Bottom => (&[(1, 0), (0, -1), (0, 1)], &[(-1, 0)]),
        _ => (&[], &[]),
    };
    for &(di, dj) in free {
        if let Some(v) = z(a + di, b + dj) {
            out.push(vec![v.negated()]);
        }
    }
    for &(di, dj) in full {
        match z(a + di, b + dj) {
            Some(v) => out.push(vec![v.pos()]),
            None => out.push(vec![]),
        }
    }
    out.push(
        bm.covering(i, j, Some(symbol))
            .into_iter()
            .map(|v| v.pos())
            .collect(),
    );
    out
}
