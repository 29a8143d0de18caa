//! The Gunport problem (seed chapter 29, after Chlond & Bosch 2006 and Sands 1971): pack
//! dominoes on an m×n board so that no further domino fits, leaving as many single cells
//! (gunports, holes) as possible. A packing is maximal exactly when no two holes are neighbours.

pub mod budget;
pub mod dp;
mod model;
mod puzzle;
mod settle;
pub mod tm;
mod verify;

pub use model::GunportModel;
pub use puzzle::{GunportProblem, Method, Options};
pub use verify::{verify, verify_givens};

use crate::geometry::Grid;

/// The largest side accepted by the integer programs.
pub const MAX_SIDE: usize = 60;

/// A board size, and the cells a setter fixed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gunport {
    pub m: usize,
    pub n: usize,
    /// Cells fixed by `--fix ROW,COL=WHAT` (0-based cells, in the order given, no cell twice):
    /// then every question is asked of the packings that show them. Empty for the problem.
    pub givens: Vec<(usize, usize, Fix)>,
}

/// What a given says of its cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fix {
    /// A hole (`o`, `hole`).
    Hole,
    /// Covered by some domino (`#`, `covered`).
    Covered,
    /// Covered by the domino reaching to the cell on its right (`right`).
    Right,
    /// Covered by the domino reaching to the cell below (`down`).
    Down,
}

impl Fix {
    /// The word that gives it.
    pub fn word(self) -> &'static str {
        match self {
            Fix::Hole => "hole",
            Fix::Covered => "covered",
            Fix::Right => "right",
            Fix::Down => "down",
        }
    }
}

impl Gunport {
    /// A board of m × n without givens.
    pub fn board(m: usize, n: usize) -> Gunport {
        Gunport {
            m,
            n,
            givens: Vec::new(),
        }
    }

    /// Reads givens `ROW,COL=WHAT` (1-based; WHAT `hole` or `o`, `covered` or `#`, `right`,
    /// `down`), several in one word when separated by spaces or semicolons.
    pub fn with_givens(mut self, words: &[String]) -> crate::error::Result<Gunport> {
        let (m, n) = (self.m, self.n);
        let usage = format!(
            "give ROW,COL=WHAT with ROW from 1 to {m}, COL from 1 to {n} and WHAT one of hole (o), \
             covered (#), right, down, e.g. --fix 1,2=hole"
        );
        let what = |w: &str, r: usize, c: usize| match w {
            "hole" | "o" => Ok(Fix::Hole),
            "covered" | "#" => Ok(Fix::Covered),
            "right" if c < n => Ok(Fix::Right),
            "down" if r < m => Ok(Fix::Down),
            "right" | "down" => Err("that domino would leave the board"),
            _ => Err("unknown WHAT"),
        };
        self.givens =
            crate::puzzles::read_givens(words, (m, n), &usage, what, |f| f.word().to_string())?;
        Ok(self)
    }
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

/// The packing as SVG: dominoes as copper tiles, holes as small cells, the cells in `marked`
/// ringed red (a broken rule's).
pub fn to_svg(p: &Packing, marked: &[crate::puzzles::Place]) -> String {
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
    pic.ring_broken(marked);
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
