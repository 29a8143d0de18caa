//! Battleship (Solitaire Battleships): place a fleet of straight ships on a grid so that no two
//! ships touch, not even diagonally, matching the ship cells counted per row and column and the
//! symbols given in some cells. After Meuffels & den Hertog, "Solving the Battleship Puzzle as
//! an Integer Programming Problem", INFORMS Transactions on Education (the seed).
//!
//! - [`formats`]: our text format and the formats users have (puzz.link URLs, janko.at blocks,
//!   CSPLib prob014 Prolog facts, MiniZinc `.dzn` data), detected automatically.
//! - [`model`]: the paper's cell-based model (eqs. 1–25) and ship-based model (eqs. 26–31).
//! - [`setter`]: what setters need: redundant clues, minimal clue sets, new unique puzzles.
//! - [`verify`]: an independent check of a solution, sharing no code with the models.

pub mod bench;
pub mod formats;
pub mod model;
pub mod puzzle;
pub mod setter;
pub mod verify;

pub use puzzle::BattleshipPuzzle;

use crate::error::{Error, Result};

/// What a cell shows. The order is the paper's: k = 0 water, 1 left end, 2 right end, 3 top
/// end, 4 bottom end, 5 middle, 6 submarine. [`Symbol::Ship`] is a clue only, never what a
/// solved cell shows: "a part of a ship, which part not said" (as many published puzzles
/// give, Demystify's hint 8 among them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    Water,
    Left,
    Right,
    Top,
    Bottom,
    Middle,
    Sub,
    Ship,
}

impl Symbol {
    /// What a clue can say: the seven symbols a solved cell can show, in the paper's order, and
    /// [`Symbol::Ship`] last (so that `s as usize` indexes this).
    pub const CLUES: [Symbol; 8] = [
        Symbol::Water,
        Symbol::Left,
        Symbol::Right,
        Symbol::Top,
        Symbol::Bottom,
        Symbol::Middle,
        Symbol::Sub,
        Symbol::Ship,
    ];

    /// The paper's index k (of a symbol a solved cell can show; not of [`Symbol::Ship`]).
    pub fn k(self) -> usize {
        debug_assert!(
            self != Symbol::Ship,
            "a ship part of no kind has no index k"
        );
        self as usize
    }

    /// Whether a cell showing `shown` (a solved cell's symbol) agrees with this clue.
    pub fn admits(self, shown: Symbol) -> bool {
        match self {
            Symbol::Ship => shown.is_ship(),
            _ => self == shown,
        }
    }

    pub fn is_ship(self) -> bool {
        self != Symbol::Water
    }

    /// The character of our text format.
    pub fn char(self) -> char {
        match self {
            Symbol::Water => '~',
            Symbol::Left => '<',
            Symbol::Right => '>',
            Symbol::Top => '^',
            Symbol::Bottom => 'v',
            Symbol::Middle => '+',
            Symbol::Sub => 'o',
            Symbol::Ship => '#',
        }
    }

    pub fn from_char(c: char) -> Option<Symbol> {
        Symbol::CLUES.into_iter().find(|s| s.char() == c)
    }

    pub fn name(self) -> &'static str {
        match self {
            Symbol::Water => "water",
            Symbol::Left => "left end",
            Symbol::Right => "right end",
            Symbol::Top => "top end",
            Symbol::Bottom => "bottom end",
            Symbol::Middle => "middle",
            Symbol::Sub => "submarine",
            Symbol::Ship => "ship part",
        }
    }
}

/// A Battleship puzzle (the instance): the board, the fleet, the counts (`None` for an unknown count) and the clues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
    /// `fleet[l - 1]` ships of length `l`.
    pub fleet: Vec<usize>,
    pub row_counts: Vec<Option<usize>>,
    pub col_counts: Vec<Option<usize>>,
    /// Row-major; `None` where nothing is given.
    pub clues: Vec<Option<Symbol>>,
}

/// The largest board side accepted (the paper's largest example is 30×20).
pub const MAX_SIDE: usize = 200;

impl Grid {
    /// Refuses a board whose sides are out of range. Called before anything is allocated
    /// for a board of that size (by [`Grid::new`], and by whoever makes a board from bare
    /// sides, such as the generator).
    pub fn check_sides(rows: usize, cols: usize) -> Result<()> {
        if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(Error::input(format!(
                "a {rows}×{cols} board is not allowed: each side must be 1 to {MAX_SIDE}"
            )));
        }
        Ok(())
    }

    /// Checks sizes and counts; every reader ends here.
    pub fn new(
        rows: usize,
        cols: usize,
        fleet: Vec<usize>,
        row_counts: Vec<Option<usize>>,
        col_counts: Vec<Option<usize>>,
        clues: Vec<Option<Symbol>>,
    ) -> Result<Grid> {
        Grid::check_sides(rows, cols)?;
        if row_counts.len() != rows {
            return Err(Error::input(format!(
                "{} row counts given for {rows} rows",
                row_counts.len()
            )));
        }
        if col_counts.len() != cols {
            return Err(Error::input(format!(
                "{} column counts given for {cols} columns",
                col_counts.len()
            )));
        }
        if clues.len() != rows * cols {
            return Err(Error::input(format!(
                "{} grid cells given for a {rows}×{cols} board",
                clues.len()
            )));
        }
        let mut fleet = fleet;
        while fleet.last() == Some(&0) {
            fleet.pop();
        }
        if fleet.is_empty() {
            return Err(Error::input("the fleet is empty: give at least one ship"));
        }
        if fleet.len() > rows.max(cols) {
            return Err(Error::input(format!(
                "a ship of length {} cannot fit on a {rows}×{cols} board",
                fleet.len()
            )));
        }
        for (i, c) in row_counts.iter().enumerate() {
            if let Some(c) = *c {
                if c > cols {
                    return Err(Error::input(format!(
                        "row {} count {c} exceeds the {cols} cells of the row",
                        i + 1
                    )));
                }
            }
        }
        for (j, c) in col_counts.iter().enumerate() {
            if let Some(c) = *c {
                if c > rows {
                    return Err(Error::input(format!(
                        "column {} count {c} exceeds the {rows} cells of the column",
                        j + 1
                    )));
                }
            }
        }
        // Counted without wrapping: a count of 2^64 - 1 ships is refused, not wrapped round.
        let cells = fleet.iter().enumerate().try_fold(0usize, |sum, (i, n)| {
            (i + 1).checked_mul(*n)?.checked_add(sum)
        });
        let cells = match cells {
            Some(c) if c <= rows * cols => c,
            Some(c) => {
                return Err(Error::input(format!(
                    "the fleet has {c} ship cells but the board only {} cells",
                    rows * cols
                )))
            }
            None => {
                return Err(Error::input(format!(
                    "the fleet has more ship cells than a number can hold (the board has {})",
                    rows * cols
                )))
            }
        };
        let known = |v: &[Option<usize>]| -> Option<usize> { v.iter().copied().sum() };
        if let (Some(r), Some(c)) = (known(&row_counts), known(&col_counts)) {
            if r != c {
                return Err(Error::input(format!(
                    "inconsistent counts: the row counts add up to {r} but the column counts to {c}"
                )));
            }
        }
        for (what, v) in [("row", &row_counts), ("column", &col_counts)] {
            if let Some(t) = known(v) {
                if t != cells {
                    return Err(Error::input(format!(
                        "inconsistent counts: the {what} counts add up to {t} ship cells but the fleet has {cells}"
                    )));
                }
            }
        }
        Ok(Grid {
            rows,
            cols,
            fleet,
            row_counts,
            col_counts,
            clues,
        })
    }

    pub fn clue(&self, i: usize, j: usize) -> Option<Symbol> {
        self.clues[i * self.cols + j]
    }

    /// The longest ship's length.
    pub fn max_len(&self) -> usize {
        self.fleet.len()
    }

    /// Ship cells in all.
    pub fn fleet_cells(&self) -> usize {
        self.fleet
            .iter()
            .enumerate()
            .map(|(i, n)| (i + 1) * n)
            .sum()
    }

    pub fn ships(&self) -> usize {
        self.fleet.iter().sum()
    }

    /// Every given symbol as (row, column, symbol).
    pub fn given(&self) -> Vec<(usize, usize, Symbol)> {
        (0..self.rows * self.cols)
            .filter_map(|c| self.clues[c].map(|s| (c / self.cols, c % self.cols, s)))
            .collect()
    }

    /// The same puzzle with other clues.
    pub fn with_clues(&self, clues: Vec<Option<Symbol>>) -> Grid {
        Grid {
            clues,
            ..self.clone()
        }
    }

    /// A window of the board (rows `r0..r1`, columns `c0..c1`) holding every given ship
    /// cell and every row and column whose count is above zero, grown around them until it
    /// has `area` cells and room for the longest ship; `None` when it is not much smaller
    /// than the board (half of it or more). Every solution with its ships inside the window
    /// is a solution of the whole board: outside it there is nothing to satisfy.
    pub fn window(&self, area: usize) -> Option<[usize; 4]> {
        let needed_row = |i: usize| {
            self.row_counts[i].is_some_and(|c| c > 0)
                || (0..self.cols).any(|j| self.clue(i, j).is_some_and(Symbol::is_ship))
        };
        let needed_col = |j: usize| {
            self.col_counts[j].is_some_and(|c| c > 0)
                || (0..self.rows).any(|i| self.clue(i, j).is_some_and(Symbol::is_ship))
        };
        let span = |n: usize, needed: &dyn Fn(usize) -> bool| {
            let first = (0..n).find(|&k| needed(k));
            let last = (0..n).rev().find(|&k| needed(k));
            match (first, last) {
                (Some(a), Some(b)) => (a, b + 1),
                _ => (0, 0),
            }
        };
        let (mut r0, mut r1) = span(self.rows, &needed_row);
        let (mut c0, mut c1) = span(self.cols, &needed_col);
        let grow = |lo: &mut usize, hi: &mut usize, n: usize| {
            if *hi < n {
                *hi += 1;
            } else if *lo > 0 {
                *lo -= 1;
            }
        };
        let side = self.max_len() + 1;
        while (r1 - r0) * (c1 - c0) < area || r1 - r0 < side || c1 - c0 < side {
            let before = (r0, r1, c0, c1);
            grow(&mut r0, &mut r1, self.rows);
            grow(&mut c0, &mut c1, self.cols);
            if before == (r0, r1, c0, c1) {
                break;
            }
        }
        ((r1 - r0) * (c1 - c0) * 2 < self.rows * self.cols).then_some([r0, r1, c0, c1])
    }

    /// The puzzle inside a window (see [`Grid::window`]); `None` if that is no puzzle.
    pub fn inside(&self, [r0, r1, c0, c1]: [usize; 4]) -> Option<Grid> {
        let clues = (r0..r1)
            .flat_map(|i| (c0..c1).map(move |j| (i, j)))
            .map(|(i, j)| self.clue(i, j))
            .collect();
        Grid::new(
            r1 - r0,
            c1 - c0,
            self.fleet.clone(),
            self.row_counts[r0..r1].to_vec(),
            self.col_counts[c0..c1].to_vec(),
            clues,
        )
        .ok()
    }

    /// "4 3 2 1" style: ships of length 1, 2, 3, ...
    pub fn fleet_text(&self) -> String {
        let names: Vec<String> = self
            .fleet
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(i, n)| format!("{n}×{}", i + 1))
            .collect();
        names.join(" + ")
    }
}

/// One ship: its first (top or left) cell, its length and its direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ship {
    pub row: usize,
    pub col: usize,
    pub len: usize,
    pub horizontal: bool,
}

impl Ship {
    /// The cells it occupies with the symbol each shows.
    pub fn cells(&self) -> Vec<(usize, usize, Symbol)> {
        (0..self.len)
            .map(|t| {
                let (i, j) = if self.horizontal {
                    (self.row, self.col + t)
                } else {
                    (self.row + t, self.col)
                };
                let s = match (self.len, t, self.horizontal) {
                    (1, _, _) => Symbol::Sub,
                    (_, 0, true) => Symbol::Left,
                    (_, 0, false) => Symbol::Top,
                    (l, t, true) if t == l - 1 => Symbol::Right,
                    (l, t, false) if t == l - 1 => Symbol::Bottom,
                    _ => Symbol::Middle,
                };
                (i, j, s)
            })
            .collect()
    }

    /// Whether it occupies any cell of rows `r0..=r1`, columns `c0..=c1`.
    pub fn meets(&self, r0: usize, r1: usize, c0: usize, c1: usize) -> bool {
        let (er, ec) = if self.horizontal {
            (self.row, self.col + self.len - 1)
        } else {
            (self.row + self.len - 1, self.col)
        };
        self.row <= r1 && er >= r0 && self.col <= c1 && ec >= c0
    }
}

/// Every position of a ship of each length 1..=`max_len` on the board: the paper's grids
/// ("Grids_l"), in the order length, direction (horizontal first), row, column.
pub fn placements(rows: usize, cols: usize, max_len: usize) -> Vec<Ship> {
    let mut out = Vec::new();
    for len in 1..=max_len {
        for horizontal in [true, false] {
            if len == 1 && !horizontal {
                continue;
            }
            let (h, w) = if horizontal { (1, len) } else { (len, 1) };
            if h > rows || w > cols {
                continue;
            }
            for row in 0..=rows - h {
                for col in 0..=cols - w {
                    out.push(Ship {
                        row,
                        col,
                        len,
                        horizontal,
                    });
                }
            }
        }
    }
    out
}

/// A solution: where the ships are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub rows: usize,
    pub cols: usize,
    pub ships: Vec<Ship>,
}

impl Layout {
    /// Reads ships off a grid of occupied cells: a run to the right is a horizontal ship,
    /// otherwise a run downwards a vertical one.
    pub fn from_occupancy(rows: usize, cols: usize, occupied: &[bool]) -> Layout {
        let mut seen = vec![false; rows * cols];
        let mut ships = Vec::new();
        for i in 0..rows {
            for j in 0..cols {
                if !occupied[i * cols + j] || seen[i * cols + j] {
                    continue;
                }
                let mut right = 1;
                while j + right < cols && occupied[i * cols + j + right] {
                    right += 1;
                }
                let mut down = 1;
                while i + down < rows && occupied[(i + down) * cols + j] {
                    down += 1;
                }
                let ship = if right > 1 || down == 1 {
                    Ship {
                        row: i,
                        col: j,
                        len: right,
                        horizontal: true,
                    }
                } else {
                    Ship {
                        row: i,
                        col: j,
                        len: down,
                        horizontal: false,
                    }
                };
                for (a, b, _) in ship.cells() {
                    seen[a * cols + b] = true;
                }
                ships.push(ship);
            }
        }
        Layout { rows, cols, ships }
    }

    /// The symbol of every cell, row-major.
    pub fn symbols(&self) -> Vec<Symbol> {
        let mut out = vec![Symbol::Water; self.rows * self.cols];
        for s in &self.ships {
            for (i, j, sym) in s.cells() {
                out[i * self.cols + j] = sym;
            }
        }
        out
    }

    pub fn occupied(&self) -> Vec<bool> {
        self.symbols().iter().map(|s| s.is_ship()).collect()
    }

    /// One string per row, `#` for a ship cell and `.` for water.
    pub fn ship_rows(&self) -> Vec<String> {
        let occ = self.occupied();
        (0..self.rows)
            .map(|i| {
                (0..self.cols)
                    .map(|j| if occ[i * self.cols + j] { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }

    /// The complete puzzle this layout solves with no clue given.
    pub fn counts(&self) -> (Vec<usize>, Vec<usize>) {
        let occ = self.occupied();
        let rows = (0..self.rows)
            .map(|i| (0..self.cols).filter(|&j| occ[i * self.cols + j]).count())
            .collect();
        let cols = (0..self.cols)
            .map(|j| (0..self.rows).filter(|&i| occ[i * self.cols + j]).count())
            .collect();
        (rows, cols)
    }
}

/// The solved grid with ship shapes, counts on the right and below; clue cells in brackets.
pub fn to_text(p: &Grid, layout: &Layout) -> String {
    let symbols = layout.symbols();
    let mut out = String::new();
    for i in 0..p.rows {
        let mut line = String::new();
        for j in 0..p.cols {
            let s = symbols[i * p.cols + j];
            let c = match (s, p.clue(i, j)) {
                (Symbol::Water, Some(_)) => '~',
                (Symbol::Water, None) => '.',
                _ => s.char(),
            };
            if p.clue(i, j).is_some() {
                line.push('[');
                line.push(c);
                line.push(']');
            } else {
                line.push(' ');
                line.push(c);
                line.push(' ');
            }
        }
        out += &format!("{line}  {}\n", count_text(p.row_counts[i]));
    }
    let mut foot = String::new();
    for j in 0..p.cols {
        foot += &format!("{:^3}", count_text(p.col_counts[j]));
    }
    out += foot.trim_end();
    out.push('\n');
    out
}

/// The side of a cell of [`to_svg`]'s pictures, and the margin around the board.
const SVG_CELL: f64 = 32.0;
const SVG_MARGIN: f64 = 8.0;

/// Where cell (i, j) is on [`to_svg`]'s pictures: x, y, width, height. Column `cols` holds the
/// row counts, row `rows` the column counts.
pub fn svg_cell_box(i: usize, j: usize) -> (f64, f64, f64, f64) {
    (
        SVG_MARGIN + j as f64 * SVG_CELL,
        SVG_MARGIN + i as f64 * SVG_CELL,
        SVG_CELL,
        SVG_CELL,
    )
}

fn count_text(c: Option<usize>) -> String {
    c.map_or("?".to_string(), |c| c.to_string())
}

/// A picture like the paper's figures: ships drawn with rounded ends, round submarines and
/// square middles; given cells shaded; counts on the right and below; the cells in `marked`
/// ringed red (a broken rule's).
pub fn to_svg(p: &Grid, layout: Option<&Layout>, marked: &[crate::puzzles::Place]) -> String {
    use svg::node::element::{Circle, Path, Rectangle, Text};
    use svg::Node;
    let (cell, m) = (SVG_CELL, SVG_MARGIN);
    let w = p.cols as f64 * cell + 2.0 * m + cell;
    let h = p.rows as f64 * cell + 2.0 * m + cell;
    let mut doc = crate::render::svg::document(
        w,
        h,
        &format!("Battleship {}×{}, fleet {}", p.rows, p.cols, p.fleet_text()),
    );
    let origin = |i: usize, j: usize| (m + j as f64 * cell, m + i as f64 * cell);
    for i in 0..p.rows {
        for j in 0..p.cols {
            let (x, y) = origin(i, j);
            let fill = if p.clue(i, j).is_some() {
                "#dde6f0"
            } else {
                "white"
            };
            doc.append(
                Rectangle::new()
                    .set("x", x)
                    .set("y", y)
                    .set("width", cell)
                    .set("height", cell)
                    .set("fill", fill)
                    .set("stroke", "#888")
                    .set("stroke-width", 1),
            );
        }
    }
    let symbols: Vec<Option<Symbol>> = match layout {
        Some(l) => l.symbols().into_iter().map(Some).collect(),
        None => p.clues.clone(),
    };
    let r = cell * 0.4;
    for i in 0..p.rows {
        for j in 0..p.cols {
            let (x, y) = origin(i, j);
            let (cx, cy) = (x + cell / 2.0, y + cell / 2.0);
            let ink = if p.clue(i, j).is_some() {
                "#1f3b73"
            } else {
                "#222"
            };
            let square = || {
                Rectangle::new()
                    .set("x", cx - r)
                    .set("y", cy - r)
                    .set("width", 2.0 * r)
                    .set("height", 2.0 * r)
                    .set("fill", ink)
            };
            // A half-disc on the rounded side, a half-square on the other.
            let end = |dx: f64, dy: f64| -> Path {
                // (dx, dy) points from the rounded end into the ship.
                let (px, py) = (-dy, dx);
                let d = format!(
                    "M {} {} A {r} {r} 0 0 1 {} {} L {} {} L {} {} Z",
                    cx + px * r,
                    cy + py * r,
                    cx - px * r,
                    cy - py * r,
                    cx - px * r + dx * r,
                    cy - py * r + dy * r,
                    cx + px * r + dx * r,
                    cy + py * r + dy * r
                );
                Path::new().set("d", d).set("fill", ink)
            };
            match symbols[i * p.cols + j] {
                None => {}
                Some(Symbol::Water) if p.clue(i, j).is_some() => {
                    let d = format!(
                        "M {} {cy} q {} {} {} 0 t {} 0",
                        cx - r,
                        r / 2.0,
                        -r / 2.0,
                        r,
                        r
                    );
                    doc.append(
                        Path::new()
                            .set("d", d)
                            .set("fill", "none")
                            .set("stroke", "#3a6fb0")
                            .set("stroke-width", 2),
                    );
                }
                Some(Symbol::Water) => {}
                Some(Symbol::Sub) => doc.append(
                    Circle::new()
                        .set("cx", cx)
                        .set("cy", cy)
                        .set("r", r)
                        .set("fill", ink),
                ),
                Some(Symbol::Middle) => doc.append(square()),
                // A part of a ship, which part not said: the square with rounded corners.
                Some(Symbol::Ship) => doc.append(square().set("rx", r * 0.6)),
                Some(Symbol::Left) => doc.append(end(1.0, 0.0)),
                Some(Symbol::Right) => doc.append(end(-1.0, 0.0)),
                Some(Symbol::Top) => doc.append(end(0.0, 1.0)),
                Some(Symbol::Bottom) => doc.append(end(0.0, -1.0)),
            }
        }
    }
    let label = |x: f64, y: f64, t: String| -> Text {
        crate::render::svg::centred_text(x, y, &t, cell * 0.5)
    };
    for i in 0..p.rows {
        let (x, y) = origin(i, p.cols);
        doc.append(label(
            x + cell / 2.0,
            y + cell / 2.0,
            count_text(p.row_counts[i]),
        ));
    }
    for j in 0..p.cols {
        let (x, y) = origin(p.rows, j);
        doc.append(label(
            x + cell / 2.0,
            y + cell / 2.0,
            count_text(p.col_counts[j]),
        ));
    }
    for place in marked {
        if let crate::puzzles::Place::Cell(i, j) = *place {
            let (x, y) = origin(i, j);
            doc.append(
                Circle::new()
                    .set("cx", x + cell / 2.0)
                    .set("cy", y + cell / 2.0)
                    .set("r", cell * 0.46)
                    .set("fill", "none")
                    .set("stroke", crate::render::svg::BROKEN)
                    .set("stroke-width", 3),
            );
        }
    }
    doc.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_count_as_the_paper_says() {
        // Eq. (34): 9IJ - 10I - 10J grids for ships of lengths 1..5 (plus AIMMS's objective).
        for (i, j) in [(10, 10), (15, 10), (30, 20)] {
            assert_eq!(placements(i, j, 5).len(), 9 * i * j - 10 * i - 10 * j);
        }
    }

    #[test]
    fn ship_symbols() {
        let s = Ship {
            row: 1,
            col: 2,
            len: 3,
            horizontal: false,
        };
        let syms: Vec<Symbol> = s.cells().iter().map(|c| c.2).collect();
        assert_eq!(syms, [Symbol::Top, Symbol::Middle, Symbol::Bottom]);
        assert!(s.meets(3, 4, 0, 2));
        assert!(!s.meets(4, 5, 0, 9));
    }

    #[test]
    fn layout_round_trip() {
        let occ: Vec<bool> = "#.##\n#...\n..#.\n"
            .lines()
            .flat_map(|l| l.chars().map(|c| c == '#').collect::<Vec<_>>())
            .collect();
        let l = Layout::from_occupancy(3, 4, &occ);
        assert_eq!(l.ships.len(), 3);
        assert_eq!(l.occupied(), occ);
    }
}
