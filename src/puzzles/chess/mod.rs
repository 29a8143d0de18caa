//! Chess avoidance (seed chapter 60, after Chlond 2015; puzzles of Erich Friedman): place an
//! army of queens, rooks, bishops, knights and kings on a board with holes so that no piece
//! attacks another.

pub mod count;
mod model;
mod peaceable;
mod puzzle;
mod verify;

pub use model::{Aim, ChessModel, Formulation};
pub use peaceable::{
    armies_at_least, armies_k, peaceable, peaceable_at_least, peaceable_exactly, peaceable_k,
    peaceable_k_cube, peaceable_model, peaceable_model_by, peaceable_svg, verify_armies,
    verify_peaceable, PeaceModel, PeaceableSolution, ARMY_MARKS,
};
pub use puzzle::{load_board, ChessAvoidance, Instance, Options, Solution, SEED_BOARD};
pub use verify::{reach, verify};

use crate::error::{Error, Result};
use crate::puzzles::{Broken, Place};

/// The piece types, in the order used everywhere (`Q R B N K`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Piece {
    #[cfg_attr(feature = "cli", value(name = "Q"))]
    #[serde(rename = "Q")]
    Queen,
    #[cfg_attr(feature = "cli", value(name = "R"))]
    #[serde(rename = "R")]
    Rook,
    #[cfg_attr(feature = "cli", value(name = "B"))]
    #[serde(rename = "B")]
    Bishop,
    #[cfg_attr(feature = "cli", value(name = "N"))]
    #[serde(rename = "N")]
    Knight,
    #[cfg_attr(feature = "cli", value(name = "K"))]
    #[serde(rename = "K")]
    King,
}

pub const PIECES: [Piece; 5] = [
    Piece::Queen,
    Piece::Rook,
    Piece::Bishop,
    Piece::Knight,
    Piece::King,
];

impl Piece {
    pub fn letter(self) -> char {
        match self {
            Piece::Queen => 'Q',
            Piece::Rook => 'R',
            Piece::Bishop => 'B',
            Piece::Knight => 'N',
            Piece::King => 'K',
        }
    }

    pub fn from_letter(c: char) -> Option<Piece> {
        PIECES
            .iter()
            .copied()
            .find(|p| p.letter() == c.to_ascii_uppercase())
    }

    pub fn index(self) -> usize {
        PIECES.iter().position(|&p| p == self).expect("listed")
    }

    /// The piece's name, in words.
    pub fn name(self) -> &'static str {
        match self {
            Piece::Queen => "queen",
            Piece::Rook => "rook",
            Piece::Bishop => "bishop",
            Piece::Knight => "knight",
            Piece::King => "king",
        }
    }

    /// A silhouette of the piece as an SVG path in a 100×100 box (y down), on a common
    /// base: drawn as shapes, the pieces need no chess font (renderers without one drew
    /// nothing, or drew the font's glyphs off centre).
    fn outline(self) -> &'static str {
        match self {
            Piece::Queen => "M22 90H78V80H70L82 30L64 54L58 22L50 50L42 22L36 54L18 30L30 80H22Z",
            Piece::Rook => "M22 90H78V80H70L66 46H72V20H62V28H55V20H45V28H38V20H28V46H34L30 80H22Z",
            Piece::Bishop => {
                "M22 90H78V80H66C82 62 74 40 50 20C26 40 18 62 34 80H22ZM50 6A7 7 0 1 0 50.1 6Z"
            }
            Piece::Knight => {
                "M22 90H78V80H72C74 55 66 30 48 20L44 10L38 22C30 28 22 40 18 50L26 58L40 50C44 58 38 68 30 80H22Z"
            }
            Piece::King => "M22 90H78V80H68C76 64 82 46 62 38H38C18 46 24 64 32 80H22ZM46 6H54V14H62V22H54V34H46V22H38V14H46Z",
        }
    }
}

/// How many pieces of each type, indexed like [`PIECES`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Army(pub [usize; 5]);

impl Army {
    /// Reads `B4N2`, `QQ`, `Q8 K2`: letters, each optionally followed by a count (default 1).
    pub fn parse(text: &str) -> Result<Army> {
        let mut army = [0usize; 5];
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.is_empty() {
            return Err(Error::input(
                "the army is empty: give letters Q R B N K with counts, e.g. B4N2",
            ));
        }
        let mut i = 0;
        while i < chars.len() {
            let piece = Piece::from_letter(chars[i])
                .filter(|_| chars[i].is_ascii_alphabetic())
                .ok_or_else(|| {
                    Error::input(format!(
                        "army '{text}': '{}' is not a piece letter (Q R B N K)",
                        chars[i]
                    ))
                })?;
            i += 1;
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let count = if i == start {
                1
            } else {
                let digits: String = chars[start..i].iter().collect();
                digits
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n <= 10_000)
                    .ok_or_else(|| {
                        Error::input(format!("army '{text}': count '{digits}' is too large"))
                    })?
            };
            army[piece.index()] += count;
        }
        Ok(Army(army))
    }

    pub fn total(&self) -> usize {
        self.0.iter().sum()
    }

    pub fn of(piece: Piece, count: usize) -> Army {
        let mut a = [0; 5];
        a[piece.index()] = count;
        Army(a)
    }
}

impl std::fmt::Display for Army {
    /// Letters and counts ("B4N2"); "empty" for no pieces at all.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.iter().all(|&k| k == 0) {
            return f.write_str("empty");
        }
        for p in PIECES {
            if self.0[p.index()] > 0 {
                write!(f, "{}{}", p.letter(), self.0[p.index()])?;
            }
        }
        Ok(())
    }
}

/// A board: a rectangle of cells, each a square or a hole, some squares holding fixed pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    /// `true` for a square, `false` for a hole; row-major.
    pub square: Vec<bool>,
    /// Pieces the solution must keep, row-major.
    pub fixed: Vec<Option<Piece>>,
    /// An army given in the file (`army: B4N2`).
    pub army: Option<Army>,
}

pub const MAX_CELLS: usize = 4096;

impl Board {
    pub fn rectangle(rows: usize, cols: usize) -> Board {
        Board {
            rows,
            cols,
            square: vec![true; rows * cols],
            fixed: vec![None; rows * cols],
            army: None,
        }
    }

    /// Reads a board: rows of `.` (square), `#` (hole) or a piece letter (a fixed piece on a
    /// square); blank lines and lines starting with `;` are skipped; a line `army: B4N2` gives
    /// the army. Errors name the line.
    pub fn parse(text: &str) -> Result<Board> {
        let mut grid: Vec<Vec<char>> = Vec::new();
        let mut army = None;
        let mut army_line = 0;
        for (k, raw) in text.lines().enumerate() {
            let line_no = k + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with(';') {
                continue;
            }
            if let Some(rest) = line.strip_prefix("army:") {
                if army.is_some() {
                    return Err(Error::input(format!(
                        "line {line_no}: a second `army:` line (the first is line {army_line}); give the army once"
                    )));
                }
                army = Some(
                    Army::parse(rest).map_err(|e| Error::input(format!("line {line_no}: {e}")))?,
                );
                army_line = line_no;
                continue;
            }
            let row: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
            for &c in &row {
                if c != '.' && c != '#' && Piece::from_letter(c).is_none() {
                    return Err(Error::input(format!(
                        "line {line_no}: '{c}' is not '.', '#' or a piece letter (Q R B N K)"
                    )));
                }
            }
            if let Some(first) = grid.first() {
                if row.len() != first.len() {
                    return Err(Error::input(format!(
                        "line {line_no}: {} cells, but the board's first row has {} (rows must be the same length; use '#' for holes)",
                        row.len(),
                        first.len()
                    )));
                }
            }
            grid.push(row);
        }
        if grid.is_empty() {
            return Err(Error::input("the board has no rows"));
        }
        let (rows, cols) = (grid.len(), grid[0].len());
        if rows * cols > MAX_CELLS {
            return Err(Error::input(format!(
                "the board has {} cells; at most {MAX_CELLS}",
                rows * cols
            )));
        }
        let cells: Vec<char> = grid.into_iter().flatten().collect();
        Ok(Board {
            rows,
            cols,
            square: cells.iter().map(|&c| c != '#').collect(),
            fixed: cells.iter().map(|&c| Piece::from_letter(c)).collect(),
            army,
        })
    }

    pub fn squares(&self) -> Vec<usize> {
        (0..self.rows * self.cols)
            .filter(|&k| self.square[k])
            .collect()
    }

    fn at(&self, r: i64, c: i64) -> Option<usize> {
        (r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols)
            .then(|| r as usize * self.cols + c as usize)
    }

    /// Whether a piece of type `piece` on square `p` attacks square `q`. Holes never hold
    /// pieces; with `holes_block` a hole also stops a sliding piece's line.
    pub fn attacks(&self, piece: Piece, p: usize, q: usize, holes_block: bool) -> bool {
        if p == q {
            return false;
        }
        let (pr, pc) = ((p / self.cols) as i64, (p % self.cols) as i64);
        let (qr, qc) = ((q / self.cols) as i64, (q % self.cols) as i64);
        let (dr, dc) = (qr - pr, qc - pc);
        let line = dr == 0 || dc == 0;
        let diagonal = dr.abs() == dc.abs();
        let slides = match piece {
            Piece::Queen => line || diagonal,
            Piece::Rook => line,
            Piece::Bishop => diagonal,
            Piece::Knight => {
                return (dr.abs(), dc.abs()) == (1, 2) || (dr.abs(), dc.abs()) == (2, 1)
            }
            Piece::King => return dr.abs() <= 1 && dc.abs() <= 1,
        };
        if !slides {
            return false;
        }
        if holes_block {
            let (sr, sc) = (dr.signum(), dc.signum());
            let (mut r, mut c) = (pr + sr, pc + sc);
            while (r, c) != (qr, qc) {
                match self.at(r, c) {
                    Some(k) if !self.square[k] => return false,
                    _ => {}
                }
                r += sr;
                c += sc;
            }
        }
        true
    }

    /// The pieces of a placement as rows of text: the board's notation, with a piece letter on
    /// each occupied square (readable back as a board of fixed pieces).
    pub fn rows_with(&self, placement: &[Option<Piece>]) -> Vec<String> {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        let k = r * self.cols + c;
                        if !self.square[k] {
                            '#'
                        } else {
                            placement[k].map_or('.', |p| p.letter())
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// The placement's army.
pub fn army_of(placement: &[Option<Piece>]) -> Army {
    let mut a = [0; 5];
    for p in placement.iter().flatten() {
        a[p.index()] += 1;
    }
    Army(a)
}

/// The placement as SVG: squares light, holes dark, pieces as drawn silhouettes, the squares
/// in `marked` ringed (a broken rule's).
pub fn to_svg(board: &Board, placement: &[Option<Piece>], marked: &[Place]) -> String {
    let mut pic = crate::render::svg::GridPicture::new(board.rows, board.cols, "Chess avoidance");
    for r in 0..board.rows {
        for c in 0..board.cols {
            let k = r * board.cols + c;
            if !board.square[k] {
                pic.fill(r, c, "#3a3a3a");
                continue;
            }
            pic.fill(
                r,
                c,
                if (r + c) % 2 == 0 {
                    "#f0d9b5"
                } else {
                    "#b58863"
                },
            );
            if let Some(p) = placement[k] {
                let colour = if board.fixed[k].is_some() {
                    "#1f5fa8"
                } else {
                    "#111"
                };
                let title = match board.fixed[k] {
                    Some(_) => format!("{} (given)", p.name()),
                    None => p.name().to_string(),
                };
                pic.shape(r, c, p.outline(), colour, &title);
            }
        }
    }
    pic.ring_broken(marked);
    pic.finish()
}
