//! The consistent search (`--method gac`): a search over cell labels that keeps every row and
//! every column *generalized-arc-consistent* with the table of feasible lines.
//!
//! Each cell holds a set of labels (value, hits along its row), as in the line search
//! ([`super::exact`]); its column reads the crossing label (value, value − row hits). Each of
//! the 2n lines keeps the set of feasible lines (every word the automaton of
//! [`super::lines`] accepts, 192,934 of them at n = 7) that still fit its cells, as a
//! reversible sparse bitset (the compact-table technique of constraint programming): when a
//! cell loses labels the line's set is cut by the precomputed bitset of each (position, label),
//! and a label that no remaining line of a row or column carries is taken from the cell, which
//! wakes the crossing line, until nothing changes. Every label left at every cell is then on a
//! feasible row and on a feasible column through the other cells' sets. The search branches on
//! a cell with the fewest labels left; a board is reached when every cell has one label, and
//! it is legal by construction (its rows and columns are feasible lines whose hits add up to
//! the values).
//!
//! A line whose remaining lines have thinned out (at least [`OWN_FROM_WORDS`] words, at most a
//! quarter of their bits set) is given its own table over just those lines, dense, undone
//! when the search backs past it: the words to cut and to scan shrink fourfold or more.
//!
//! The propagation is costly per node (a line holds up to 3,015 words of 64 lines at n = 7,
//! 62,146 at n = 8, whose table takes 139 MB, and 1,448,722 at n = 9, 4.6 GB), but it cuts
//! the tree by orders of magnitude (docs/tank.md: 8,411 nodes where the line search visits
//! 60 million on the same first rows), and givens cut it further: it is the method for
//! puzzles with givens, where the line search loses its symmetry reduction.
//!
//! Symmetry: without givens the search starts from the line search's first rows (each least
//! among the edge readings that start at the top corners) and reports each orbit of the
//! square's symmetries once, from its leading board, with all its images, as the line search
//! does. At each first row the other edges (the bottom row, the first and last columns) keep
//! only the lines that read no less than the top row either way, so the readings are compared
//! while filling, through the tables. With givens, or on the boards a symmetry maps onto
//! themselves (each cell tied to its images: same labels, crossed where rows become columns),
//! every board is searched and counted as itself, and the root's first branchings are the
//! cubes.
//! The cubes are shared by the cores and split by `--part K/N` (cubes K, K + N, ...), so the
//! parts' counts add up to the whole.

use super::lines::Lines;
use crate::geometry::Symmetry;
use crate::guard;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

mod table;
mod worker;

use table::{Table, Ties};
use worker::{widen, Worker};

/// The largest side. The table of 9 holds 92,718,159 lines (4.6 GB of supports; runs measured
/// 5.4 to 8.7 GB at their peak); that of 10 would hold 2,410,237,577 (about 160 GB).
pub const MAX_GAC_SIDE: usize = 9;

/// How many cubes the root is cut into, at least (when the tree is that wide).
const CUBES: usize = 256;

/// What a search reports besides its boards.
pub struct Outcome {
    /// Boards seen (all of them, when complete).
    pub count: u64,
    /// Whether the search (or the part) ran to its end.
    pub complete: bool,
    /// Cubes the root was cut into, for `--part`.
    pub cubes: usize,
    /// Cubes of this run (all of them, or this part's) searched to their end: with `cubes`,
    /// how far a stopped run got.
    pub cubes_done: usize,
    /// Whether the cubes are the line search's first rows (no givens: each orbit of the
    /// square's symmetries searched from its leading board) rather than the root's branches.
    pub by_first_rows: bool,
    /// Search nodes visited (when a time limit stopped the run: the root's and those of the
    /// cubes each worker left, not of the cube it was stopped in).
    pub nodes: u64,
    /// Feasible lines of the side (the table's size).
    pub lines: usize,
}

/// The consistent search on side n (2 ≤ n ≤ [`MAX_GAC_SIDE`]) with givens (row, column,
/// value), 0-based, over the boards that each of `symmetry` maps onto themselves (all boards
/// when it is empty). `on_board` sees every legal board; returning false stops the search.
/// `part` = (k, parts) runs only the cubes k, k + parts, ... of the root's cut.
pub fn search(
    n: usize,
    part: Option<(usize, usize)>,
    givens: &[(usize, usize, u32)],
    symmetry: &[Symmetry],
    on_board: impl FnMut(&[Vec<u32>]) -> bool + Send,
) -> Outcome {
    assert!(
        (2..=MAX_GAC_SIDE).contains(&n),
        "the consistent search takes sides 2..={MAX_GAC_SIDE}"
    );
    let automaton = Lines::new(n);
    let t = Table::new(&automaton);
    let mut allowed = vec![u128::MAX; n * n];
    for &(i, j, v) in givens {
        allowed[i * n + j] = (0..t.labels)
            .filter(|&l| t.value[l] == v)
            .fold(0, |m, l| m | 1 << l);
    }
    // A symmetric board's cell holds, at its image, the same labels (read crossed when the
    // symmetry turns rows into columns: row hits become column hits).
    let ties = Ties::new(n, symmetry);
    let mut root = Worker::new(&t, &allowed, &ties);
    let lines = t.lines;
    // Without givens or symmetry the cubes are the first rows of the symmetric reduction.
    let by_first_rows = givens.is_empty() && symmetry.is_empty();
    let mut outcome = Outcome {
        count: 0,
        complete: true,
        cubes: 0,
        cubes_done: 0,
        by_first_rows,
        nodes: 1,
        lines,
    };
    let mut dirty = (1 << (2 * n)) - 1;
    for c in 0..n * n {
        root.tie(c, &mut dirty);
    }
    for &line in &ties.palindromes {
        root.keep_lines(line, |q| {
            let w = &t.labels_of[q * n..][..n];
            (0..n / 2).all(|p| w[p] == w[n - 1 - p])
        });
    }
    if !root.propagate(dirty) {
        outcome.cubes = 1;
        outcome.cubes_done = 1;
        return outcome;
    }
    // Without givens, the line search's first rows are the cubes (each least among the
    // readings that start at the top corners) and each orbit is reported once, from its
    // leading board, with all its images: the symmetric reduction of the line search, here
    // checked at the boards only. With givens or a symmetry the boards must have, the root's
    // first levels: nodes widened level by level until there are enough or nothing is left to
    // widen, and every board is counted as itself.
    // The first rows stay packed, n labels each: at 9 there are 46 million of them.
    let (firsts, branches) = if by_first_rows {
        (t.first_rows(&automaton), Vec::new())
    } else {
        (Vec::new(), widen(&mut root))
    };
    let all_cubes = if by_first_rows {
        firsts.len() / n
    } else {
        branches.len()
    };
    outcome.cubes = all_cubes;
    // This part's cubes: first, first + step, ...
    let (first, step) = part.unwrap_or((0, 1));
    let mine = all_cubes.saturating_sub(first).div_ceil(step);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let count = AtomicU64::new(0);
    let nodes = AtomicU64::new(root.nodes);
    let stopped = AtomicBool::new(false);
    let on_board = Mutex::new(on_board);
    let threads = std::thread::available_parallelism()
        .map(|t| t.get())
        .unwrap_or(1)
        .clamp(1, 8);
    let root = &root;
    let answers = guard::spread(threads, &|_| {
        let mut e = root.clone();
        e.nodes = 0;
        // Its own copy of the bitsets, and of any own tables the root's propagation made.
        let owned: usize = e
            .owns
            .iter()
            .map(|o| o.support.len() * 8 + o.ids.len() * 4)
            .sum();
        guard::charge((e.bits.len() * 8 + owned) as u64);
        loop {
            let j = next.fetch_add(1, Ordering::Relaxed);
            if j >= mine || stopped.load(Ordering::Relaxed) {
                break;
            }
            let k = first + j * step;
            let mark = e.mark();
            let reached = if by_first_rows {
                e.lead(&firsts[k * n..][..n])
            } else {
                branches[k].iter().all(|&(c, l)| e.decide(c, l))
            };
            if reached {
                let more = e.search(&mut |leaf| {
                    let board = leaf.board();
                    let boards = if by_first_rows {
                        super::exact::orbit_for(&board).unwrap_or_default()
                    } else {
                        vec![board]
                    };
                    let mut f = on_board.lock().expect("board callback");
                    for b in &boards {
                        count.fetch_add(1, Ordering::Relaxed);
                        if !f(b) {
                            stopped.store(true, Ordering::Relaxed);
                            return false;
                        }
                    }
                    !stopped.load(Ordering::Relaxed)
                });
                if !more {
                    stopped.store(true, Ordering::Relaxed);
                }
            }
            e.back(&mark);
            // Counted cube by cube: a time limit unwinds the worker from inside a cube.
            nodes.fetch_add(std::mem::take(&mut e.nodes), Ordering::Relaxed);
            if stopped.load(Ordering::Relaxed) {
                // This cube may not have been searched to its end.
                break;
            }
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            guard::progress::message(&format!(
                "consistent search: {d} of {mine} cubes, {} boards",
                count.load(Ordering::Relaxed)
            ));
        }
    });
    outcome.cubes_done = done.into_inner();
    outcome.count = count.into_inner();
    outcome.nodes = nodes.into_inner();
    outcome.complete = !stopped.into_inner() && answers.iter().all(Result::is_ok);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's first rows are the line search's, in its order.
    #[test]
    fn the_first_rows_are_the_line_searchs() {
        for n in 2..=7 {
            let lines = Lines::new(n);
            let table = Table::new(&lines);
            let found = super::super::exact::first_rows(&lines).expect("no guard to stop it");
            assert_eq!(table.first_rows(&lines), found, "side {n}");
        }
    }
}
