//! Tank Attack (seed chapter 26, after Chlond 2008): every cell of an n×n board holds a tank
//! with a value in 1..n-1; a tank of value k attacks the tanks exactly k cells away in its row
//! and column; every tank's value must equal the number of tanks attacking it.

/// The largest side accepted: beyond it the one-hot model has more than 10^5 variables and
/// no method here finishes.
pub const MAX_SIDE: usize = 40;

/// A Tank Attack instance: the side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tank {
    pub n: usize,
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

/// The board as an SVG picture; `mark` (0-based) rings a cell and shades its attackers.
pub fn to_svg(board: &Board, mark: Option<(usize, usize)>) -> String {
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
            pic.label(i, j, &v.to_string(), "#222");
        }
    }
    if let Some((i, j)) = mark {
        pic.ring(i, j, "#1f5fa8");
    }
    pic.finish()
}
