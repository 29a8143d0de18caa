//! Tank Attack (seed chapter 26, after Chlond 2008): every cell of an n×n board holds a tank
//! with a value in 1..n-1; a tank of value k attacks the tanks exactly k cells away in its row
//! and column; every tank's value must equal the number of tanks attacking it.

/// The largest side accepted: beyond it the one-hot model has more than 10^5 variables and
/// no method here finishes.
pub const MAX_SIDE: usize = 40;

/// A Tank Attack instance: the side of the board and the values a setter fixed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tank {
    pub n: usize,
    /// Cells whose value is given (`--fix ROW,COL=VALUE`): (row, column, value), 0-based cells,
    /// in the order given, no cell twice. Empty for the bare puzzle.
    pub givens: Vec<(usize, usize, u32)>,
}

impl Tank {
    /// Reads givens `ROW,COL=VALUE` (1-based), several in one word when separated by spaces
    /// or semicolons, as `--fix` and the page give them.
    pub fn with_givens(mut self, words: &[String]) -> crate::error::Result<Tank> {
        let n = self.n;
        let usage = format!(
            "give ROW,COL=VALUE with ROW and COL from 1 to {n} and VALUE from 1 to {}, e.g. --fix 1,2=3",
            n.saturating_sub(1)
        );
        let value = |v: &str, _, _| match v.parse::<u32>() {
            Ok(v) if (1..n as u32).contains(&v) => Ok(v),
            _ => Err("the value is not a tank's value on this board"),
        };
        self.givens = crate::puzzles::read_givens(words, (n, n), &usage, value, |v| {
            format!("the value {v}")
        })?;
        Ok(self)
    }

    /// The given value of cell (i, j), if any.
    pub fn given(&self, i: usize, j: usize) -> Option<u32> {
        self.givens
            .iter()
            .find(|g| (g.0, g.1) == (i, j))
            .map(|g| g.2)
    }
}

/// A board of values, row by row.
pub type Board = Vec<Vec<u32>>;

/// The tanks that attack cell (i,j) (0-based), for drawing.
pub fn attackers_of(board: &Board, i: usize, j: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (a, row) in board.iter().enumerate() {
        for (b, &v) in row.iter().enumerate() {
            if (a == i) != (b == j) && a.abs_diff(i) + b.abs_diff(j) == v as usize {
                out.push((a, b));
            }
        }
    }
    out
}

pub mod exact;
pub mod gac;
pub mod lines;
mod model;
mod puzzle;
mod verify;

pub use model::{Formulation, Symmetric, TankModel};
pub use puzzle::{Method, Options, TankAttack};
pub use verify::verify;

/// The board as text: one row per line, values aligned.
pub fn to_text(board: &Board) -> String {
    let rows: Vec<Vec<String>> = board
        .iter()
        .map(|r| r.iter().map(|v| v.to_string()).collect())
        .collect();
    crate::render::text::grid(&rows)
}

/// The board as an SVG picture; `mark` (0-based) rings a cell and shades its attackers; the
/// `givens` are drawn in blue, as on the other puzzles' pictures; the cells in `marked` are
/// ringed red (a broken rule's).
pub fn to_svg(
    board: &Board,
    mark: Option<(usize, usize)>,
    givens: &[(usize, usize, u32)],
    marked: &[crate::puzzles::Place],
) -> String {
    let n = board.len();
    let mut pic = crate::render::svg::GridPicture::new(n, n, &format!("Tank Attack {n}×{n}"));
    let shaded: Vec<(usize, usize)> = mark
        .map(|(i, j)| attackers_of(board, i, j))
        .unwrap_or_default();
    for (i, row) in board.iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            let colour = if shaded.contains(&(i, j)) {
                "#d08a4f"
            } else {
                "#f4f1e8"
            };
            pic.fill(i, j, colour);
            let given = givens.iter().any(|g| (g.0, g.1) == (i, j));
            pic.label(i, j, &v.to_string(), if given { "#1f5fa8" } else { "#222" });
        }
    }
    if let Some((i, j)) = mark {
        pic.ring(i, j, "#1f5fa8");
    }
    pic.ring_broken(marked);
    pic.finish()
}
