//! Board geometry shared by the puzzles: the rectangular grid with its symmetries, and the hex
//! grid ([`hex`]).

pub mod hex;

/// Where a decision variable sits on the board, for drawing partial boards (forced cells).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Place {
    /// Row and column of a rectangular grid, from 0.
    Cell(usize, usize),
    /// Axial coordinates of a hex cell.
    Hex(i32, i32),
}

/// A rows × cols board of square cells, numbered row by row from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
}

impl Grid {
    pub fn new(rows: usize, cols: usize) -> Grid {
        Grid { rows, cols }
    }

    pub fn square(n: usize) -> Grid {
        Grid::new(n, n)
    }

    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The number of cell (r, c).
    pub fn index(&self, (r, c): (usize, usize)) -> usize {
        r * self.cols + c
    }

    /// The cell numbered `i`.
    pub fn cell(&self, i: usize) -> (usize, usize) {
        (i / self.cols, i % self.cols)
    }

    /// Every cell, row by row.
    pub fn all(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| (r, c)))
    }

    /// The up to four cells sharing a side with (r, c).
    pub fn neighbours(&self, (r, c): (usize, usize)) -> Vec<(usize, usize)> {
        let mut out = Vec::with_capacity(4);
        if r > 0 {
            out.push((r - 1, c));
        }
        if r + 1 < self.rows {
            out.push((r + 1, c));
        }
        if c > 0 {
            out.push((r, c - 1));
        }
        if c + 1 < self.cols {
            out.push((r, c + 1));
        }
        out
    }

    /// Whether the symmetry maps this board onto itself (quarter turns and diagonal
    /// reflections need a square board).
    pub fn has(&self, s: Symmetry) -> bool {
        self.rows == self.cols || !s.swaps_axes()
    }

    /// The board's symmetries, the identity first.
    pub fn symmetries(&self) -> Vec<Symmetry> {
        Symmetry::ALL.into_iter().filter(|&s| self.has(s)).collect()
    }

    /// The image of cell (r, c) under `s` (which must be a symmetry of this board).
    pub fn map(&self, s: Symmetry, (r, c): (usize, usize)) -> (usize, usize) {
        let (m, n) = (self.rows - 1, self.cols - 1);
        match s {
            Symmetry::Identity => (r, c),
            Symmetry::QuarterTurn => (c, n - r),
            Symmetry::HalfTurn => (m - r, n - c),
            Symmetry::ThreeQuarterTurn => (n - c, r),
            Symmetry::Mirror => (r, n - c),
            Symmetry::Flip => (m - r, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (n - c, m - r),
        }
    }
}

/// The eight symmetries of the square (the dihedral group D4), as maps of cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    Identity,
    /// A quarter turn clockwise.
    QuarterTurn,
    HalfTurn,
    ThreeQuarterTurn,
    /// Reflection in the vertical axis (left and right swap).
    Mirror,
    /// Reflection in the horizontal axis (top and bottom swap).
    Flip,
    /// Reflection in the main diagonal.
    Transpose,
    /// Reflection in the other diagonal.
    AntiTranspose,
}

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::QuarterTurn,
        Symmetry::HalfTurn,
        Symmetry::ThreeQuarterTurn,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Whether rows become columns (only square boards have such symmetries).
    pub fn swaps_axes(self) -> bool {
        matches!(
            self,
            Symmetry::QuarterTurn
                | Symmetry::ThreeQuarterTurn
                | Symmetry::Transpose
                | Symmetry::AntiTranspose
        )
    }

    /// How it reads in text ("quarter turn").
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::QuarterTurn => "quarter turn",
            Symmetry::HalfTurn => "half turn",
            Symmetry::ThreeQuarterTurn => "three-quarter turn",
            Symmetry::Mirror => "mirror",
            Symmetry::Flip => "flip",
            Symmetry::Transpose => "transpose",
            Symmetry::AntiTranspose => "anti-transpose",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symmetry_permutes_the_cells_and_four_turns_are_the_identity() {
        let g = Grid::square(5);
        for s in g.symmetries() {
            let mut images: Vec<usize> = g.all().map(|p| g.index(g.map(s, p))).collect();
            images.sort();
            assert_eq!(images, (0..25).collect::<Vec<_>>(), "{s:?}");
        }
        let p = (1, 3);
        let mut q = p;
        for _ in 0..4 {
            q = g.map(Symmetry::QuarterTurn, q);
        }
        assert_eq!(q, p);
        assert_ne!(g.map(Symmetry::QuarterTurn, p), p);
        let r = Grid::new(3, 5);
        assert_eq!(r.symmetries().len(), 4);
        assert_eq!(r.map(Symmetry::HalfTurn, (0, 0)), (2, 4));
        assert_eq!(r.neighbours((0, 0)), vec![(1, 0), (0, 1)]);
    }
}
