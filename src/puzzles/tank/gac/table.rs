//! The feasible lines of one side as bitsets ([`Table`]), and what the symmetries a board must
//! have tie together ([`Ties`]): what every worker of the consistent search reads.

use super::super::lines::Lines;
use crate::geometry::{Grid, Symmetry};
use crate::guard;

/// The feasible lines of one length as bitsets: for each (position, label), the lines carrying
/// that label there. Shared by rows and columns (a column reads crossing labels).
pub(super) struct Table {
    pub(super) n: usize,
    pub(super) labels: usize,
    /// 64-line words per bitset.
    pub(super) words: usize,
    /// The lines in all.
    pub(super) lines: usize,
    /// `support[(pos * labels + label) * words ..][..words]`.
    pub(super) support: Vec<u64>,
    /// For each byte of a label set and its place, the crossing labels: 16 × 256 sets.
    pub(super) cross_bytes: Vec<u128>,
    /// Label → its value.
    pub(super) value: Vec<u32>,
    /// Per feasible line: the lesser of its two readings (forward, backward) as a number
    /// ([`key`]) that compares as the readings do, for the edge filter ([`Worker::keep_from`]).
    pub(super) least: Vec<u32>,
    /// Per feasible line, its labels (n bytes), for the lines' own tables.
    pub(super) labels_of: Vec<u8>,
}

impl Table {
    pub(super) fn new(lines: &Lines) -> Table {
        let n = lines.n;
        let labels = lines.labels.len();
        // The accepted words, in label order, by a walk of the automaton (sized in advance:
        // at 9 they take 834 MB, and a growing vector would briefly need twice that).
        let count = usize::try_from(lines.words()).expect("the table's lines fit in memory");
        guard::charge((count * n) as u64);
        let mut words_of: Vec<u8> = Vec::with_capacity(count * n);
        let mut word = vec![0u8; n];
        let mut stack: Vec<(usize, usize, u128)> = vec![(0, 0, lines.mask[0])];
        while let Some(top) = stack.last_mut() {
            let (node, depth, rest) = *top;
            if rest == 0 {
                stack.pop();
                continue;
            }
            let label = rest.trailing_zeros() as usize;
            top.2 &= rest - 1;
            word[depth] = label as u8;
            let child = lines.child(node, label).expect("label of the node's mask");
            if depth + 1 == n {
                words_of.extend_from_slice(&word);
                guard::tick();
            } else {
                stack.push((child, depth + 1, lines.mask[child]));
            }
        }
        debug_assert_eq!(words_of.len(), count * n);
        let words = count.div_ceil(64);
        guard::charge((n * labels * words * 8) as u64);
        let mut support = vec![0u64; n * labels * words];
        for (t, w) in words_of.chunks(n).enumerate() {
            guard::tick();
            for (p, &l) in w.iter().enumerate() {
                support[(p * labels + l as usize) * words + t / 64] |= 1 << (t % 64);
            }
        }
        let value: Vec<u32> = lines.labels.iter().map(|&(v, _)| v as u32).collect();
        guard::charge((count * 4) as u64);
        let least = words_of
            .chunks(n)
            .map(|w| {
                let (forward, backward) = keys(&value, w);
                forward.min(backward)
            })
            .collect();
        let mut cross_bytes = vec![0u128; 16 * 256];
        for place in 0..16 {
            for byte in 0..256usize {
                for bit in 0..8 {
                    let l = place * 8 + bit;
                    if byte >> bit & 1 == 1 && l < labels {
                        cross_bytes[place * 256 + byte] |= 1 << lines.cross[l];
                    }
                }
            }
        }
        Table {
            n,
            labels,
            words,
            lines: count,
            support,
            cross_bytes,
            value,
            least,
            labels_of: words_of,
        }
    }

    /// The first rows of the symmetric search, n labels each, in table order: the lines that
    /// read no less forward than backward and whose every label's crossing label can begin a
    /// column. The same list, in the same order, as the line search's
    /// ([`super::exact::first_rows`], which finds it by a search: 12 s at 9, where this pass
    /// takes 2 s), so that `--part K/N` names the same first rows under both methods.
    pub(super) fn first_rows(&self, lines: &Lines) -> Vec<u8> {
        let n = self.n;
        let starts = |l: u8| lines.mask[0] >> lines.cross[l as usize] & 1 == 1;
        let mut firsts = Vec::new();
        for w in self.labels_of.chunks(n) {
            guard::tick();
            let (forward, backward) = keys(&self.value, w);
            if forward <= backward && w.iter().all(|&l| starts(l)) {
                firsts.extend_from_slice(w);
            }
        }
        guard::charge(firsts.len() as u64);
        firsts
    }

    pub(super) fn support(&self, pos: usize, label: usize) -> &[u64] {
        let at = (pos * self.labels + label) * self.words;
        &self.support[at..at + self.words]
    }

    /// A line of the table (by its place in `line`'s own table, if it has one).
    pub(super) fn id(&self, own: Option<&Own>, q: usize) -> usize {
        own.map_or(q, |o| o.ids[q] as usize)
    }

    /// The crossing labels of a set of labels.
    pub(super) fn crossed(&self, mut set: u128) -> u128 {
        let mut out = 0;
        let mut place = 0;
        while set != 0 {
            out |= self.cross_bytes[place * 256 + (set & 0xff) as usize];
            set >>= 8;
            place += 1;
        }
        out
    }
}

/// Values read in order as a number that compares as the reading does: a digit of three bits
/// per value (value − 1, so values 1 to 8: sides up to [`MAX_GAC_SIDE`]), the first most
/// significant.
pub(super) fn key(values: impl Iterator<Item = u32>) -> u32 {
    values.fold(0, |k, v| k << 3 | (v - 1))
}

/// A line's values (labels `w`) read forward and backward, as [`key`]s.
pub(super) fn keys(value: &[u32], w: &[u8]) -> (u32, u32) {
    let digits = w.iter().map(|&l| value[l as usize]);
    (key(digits.clone()), key(digits.rev()))
}

/// What the symmetries a board must have tie together. A symmetry maps each line onto a line,
/// read the same way or reversed, and its labels (each line's own terms: hits along it) onto
/// the image's; so a cell's labels are its image cell's (crossed, as a row reads them, when
/// rows become columns), and a line mapped onto itself reversed reads the same both ways.
/// (Two lines mapped one onto the other need no tie of their own: their cells are tied, and a
/// line's set of feasible lines is what its cells allow. Kept equal through the table as well,
/// they gave the same nodes on 7×7 and on the mirror-symmetric boards of 8×8.)
#[derive(Default)]
pub(super) struct Ties {
    /// Per cell, its images, each with whether it reads the cell's labels crossed; empty
    /// when the boards need have no symmetry.
    pub(super) cells: Vec<Vec<(usize, bool)>>,
    /// The lines (rows 0..n, then columns) that read the same both ways.
    pub(super) palindromes: Vec<usize>,
}

impl Ties {
    pub(super) fn new(n: usize, symmetry: &[Symmetry]) -> Ties {
        if symmetry.is_empty() {
            return Ties::default();
        }
        let grid = Grid::square(n);
        let cells = (0..n * n)
            .map(|c| {
                symmetry
                    .iter()
                    .map(|&g| (grid.index(grid.map(g, grid.cell(c))), g.swaps_axes()))
                    .collect()
            })
            .collect();
        // A line's cells, in its order: row k is line k, column k line n + k.
        let cell_of = |line: usize, p: usize| {
            if line < n {
                (line, p)
            } else {
                (p, line - n)
            }
        };
        let mut palindromes = Vec::new();
        for &g in symmetry {
            for line in 0..2 * n {
                let onto_itself_reversed =
                    (0..n).all(|p| grid.map(g, cell_of(line, p)) == cell_of(line, n - 1 - p));
                if onto_itself_reversed && !palindromes.contains(&line) {
                    palindromes.push(line);
                }
            }
        }
        Ties { cells, palindromes }
    }
}

/// A line's own table: the feasible lines it had left when it was given it, in table order,
/// as the global table's supports restricted to them.
#[derive(Clone)]
pub(super) struct Own {
    /// Place → the line's index in the global table.
    pub(super) ids: Vec<u32>,
    pub(super) words: usize,
    /// `support[(pos * labels + label) * words ..][..words]`.
    pub(super) support: Vec<u64>,
}
