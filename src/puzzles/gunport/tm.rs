//! The optimum of every board `w × k`, k = 1..rows, in one pass: a max-plus transfer matrix
//! over the cells, one byte a state, updated in place on every core.
//!
//! Cells are taken row by row. The frontier is the last cell seen in each of the `w` columns:
//! *filled* (covered, nothing pending), a *hole*, or the top of a vertical domino whose bottom
//! is the next cell of that column (*down*); one more bit says that the cell just taken
//! started a horizontal domino the next cell must finish. A state (frontier and bit) keeps the
//! most holes of any partial packing that leaves it. After each whole row k, the states with
//! nothing pending (no *down*, no bit) are the packings of the `w × k` board: their best is
//! its optimum. Rules, from the problem alone: every cell is a hole or covered by one domino,
//! and no two holes are neighbours.
//!
//! A cell's step changes one frontier digit and the bit, so the states fall into groups of six
//! that share every other digit; each group is read and written back in place (one array of
//! 2·3^w bytes: width 17 is 258 MB, 19 is 2.3 GB, 20 is 7 GB). Values are kept relative to a
//! base that moves up with the best state; a state more than [`KEPT_BELOW`] holes below the
//! best would be dropped, which would make the answer inexact, so the run counts such drops
//! and says whether any happened (none has, on any board measured).

use crate::guard;

const FILLED: usize = 0;
const HOLE: usize = 1;
const DOWN: usize = 2;

/// The widest frontier: 2·3^20 bytes (7 GB).
pub const MAX_WIDTH: usize = 20;

/// States this far below the best state of their step are dropped (and the drop counted).
pub const KEPT_BELOW: u8 = 100;

/// What the pass found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Optima {
    /// The narrow side.
    pub width: usize,
    /// `holes[k - 1]`: the most holes on the `width × k` board.
    pub holes: Vec<i64>,
    /// States dropped for lying [`KEPT_BELOW`] or more holes below the best: when not zero,
    /// the values are lower bounds only, not optima.
    pub dropped: u64,
}

impl Optima {
    /// Whether every value is an optimum (no state was dropped).
    pub fn exact(&self) -> bool {
        self.dropped == 0
    }
}

/// Bytes the pass needs for `width`.
pub fn bytes(width: usize) -> u64 {
    2 * 3u64.pow(width as u32)
}

/// The optima of `width × k` for k = 1..=rows. `None` when `width` is 0 or above
/// [`MAX_WIDTH`]. Runs in the caller's guarded stage: stopped by its deadline or stop request,
/// and its array charged to the run's memory.
pub fn optima(width: usize, rows: usize) -> Option<Optima> {
    if width == 0 || width > MAX_WIDTH {
        return None;
    }
    let w = width;
    let pow: Vec<usize> = (0..=w).map(|k| 3usize.pow(k as u32)).collect();
    let size = 2 * pow[w];
    guard::charge(size as u64);
    let mut values: Vec<u8> = Vec::new();
    if values.try_reserve_exact(size).is_err() {
        guard::out_of_memory();
    }
    values.resize(size, 0);
    // Stored value = holes − base + 1; 0 is no state.
    values[0] = 1;
    let mut base: i64 = 0;
    let mut dropped = 0u64;
    // The frontiers with nothing pending: every digit filled or a hole.
    let closed: Vec<usize> = (0..1usize << w)
        .map(|bits| (0..w).filter(|i| bits >> i & 1 == 1).map(|i| pow[i]).sum())
        .collect();
    let threads = if size < 1 << 16 {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |t| t.get())
    };
    let mut holes = Vec::with_capacity(rows);
    for r in 0..rows {
        guard::progress::message(&format!(
            "transfer matrix, width {w}: row {} of {rows}",
            r + 1
        ));
        for c in 0..w {
            guard::check();
            step(&mut values, &pow, w, c, threads);
        }
        let best = closed.iter().map(|&i| values[i]).max().unwrap_or(0);
        holes.push(if best == 0 {
            -1
        } else {
            best as i64 - 1 + base
        });
        // Keep room above the best: a row adds at most w holes.
        let top = values.iter().copied().max().unwrap_or(0);
        if top > 200 {
            let shift = top - KEPT_BELOW;
            for v in values.iter_mut() {
                if *v == 0 {
                    continue;
                }
                if *v <= shift {
                    *v = 0;
                    dropped += 1;
                } else {
                    *v -= shift;
                }
            }
            base += shift as i64;
        }
    }
    guard::release(size as u64);
    Some(Optima {
        width,
        holes,
        dropped,
    })
}

/// A pointer the worker threads share; each writes only its own groups of states.
#[derive(Clone, Copy)]
struct Shared(*mut u8);
// SAFETY: the threads of one step touch disjoint groups of states (see `step`).
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

impl Shared {
    /// The pointer (a method, so that closures capture the whole `Shared`, which is `Sync`).
    fn get(self) -> *mut u8 {
        self.0
    }
}

/// Takes cell `c` of a row: every group of six states (digit c ∈ {filled, hole, down} × the
/// bit) is replaced by its successors.
fn step(values: &mut [u8], pow: &[usize], w: usize, c: usize, threads: usize) {
    let p = pow[c];
    let his = pow[w - c - 1];
    let ptr = Shared(values.as_mut_ptr());
    let run = |part: usize| {
        // Split the outer digits among the threads where there are enough of them, else the
        // inner ones (the last column).
        let (hi_range, lo_range) = if his >= threads {
            (his * part / threads..his * (part + 1) / threads, 0..p)
        } else {
            (0..his, p * part / threads..p * (part + 1) / threads)
        };
        for hi in hi_range {
            // SAFETY: groups with distinct (hi, lo) are disjoint; each thread has its own.
            unsafe { groups(ptr.get(), pow, w, c, hi * 3 * p, lo_range.clone()) };
            guard::tick();
        }
    };
    if threads == 1 {
        run(0);
    } else {
        for answer in guard::spread(threads, &run) {
            if let Err(why) = answer {
                guard::raise(why);
            }
        }
    }
}

/// The groups at `start + lo` for `lo` in `los` (digit c is 0 there).
///
/// # Safety
/// `values` holds 2·3^w bytes, and no other thread touches these groups meanwhile.
unsafe fn groups(
    values: *mut u8,
    pow: &[usize],
    w: usize,
    c: usize,
    start: usize,
    los: std::ops::Range<usize>,
) {
    let p = pow[c];
    let carry = pow[w];
    // Runs of `lo` that share digit c − 1 (the cell to the left, this row).
    let left = if c == 0 { p } else { pow[c - 1] };
    let mut lo = los.start;
    while lo < los.end {
        let run_end = ((lo / left + 1) * left).min(los.end);
        let left_hole = c > 0 && lo / left % 3 == HOLE;
        let len = run_end - lo;
        let at = start + lo;
        // SAFETY: the six runs lie inside the array and are disjoint (distinct digit c or bit).
        let (f0, h0, d0, f1, h1, d1) = unsafe {
            (
                std::slice::from_raw_parts_mut(values.add(at + FILLED * p), len),
                std::slice::from_raw_parts_mut(values.add(at + HOLE * p), len),
                std::slice::from_raw_parts_mut(values.add(at + DOWN * p), len),
                std::slice::from_raw_parts_mut(values.add(carry + at + FILLED * p), len),
                std::slice::from_raw_parts_mut(values.add(carry + at + HOLE * p), len),
                std::slice::from_raw_parts_mut(values.add(carry + at + DOWN * p), len),
            )
        };
        let last = c + 1 == w;
        for j in 0..len {
            let (a, b, d, e, f) = (f0[j], h0[j], d0[j], f1[j], h1[j]);
            // Filled, nothing pending: the bottom of a vertical domino (above: down, no bit),
            // or the end of a horizontal one (the bit; above: filled or a hole).
            f0[j] = d.max(e).max(f);
            // A hole: above filled, no bit, and no hole to the left.
            h0[j] = if left_hole { 0 } else { a + u8::from(a != 0) };
            // The top of a vertical domino, or the start of a horizontal one (not in the last
            // column): above filled or a hole, no bit.
            let start_of = a.max(b);
            d0[j] = start_of;
            f1[j] = if last { 0 } else { start_of };
            h1[j] = 0;
            d1[j] = 0;
        }
        lo = run_end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_small_board_agrees_with_the_counting_program() {
        // The counting transfer matrix (dp.rs) is written separately, state by state.
        for w in 1..=7 {
            let o = optima(w, 9).unwrap();
            assert!(o.exact());
            for k in 1..=9 {
                let d = crate::puzzles::gunport::dp::optimum(w, k).unwrap().holes as i64;
                assert_eq!(o.holes[k - 1], d, "{w}×{k}");
            }
        }
    }

    #[test]
    fn long_boards_keep_exact_values_past_a_byte() {
        // 4×100: 400 cells, more holes than a byte holds; Pearce's value holds for a side of
        // at most 13 (Klostermeyer and Yeo), and 4×100 is (400 − 4)/3 = 132 (both sides ≡ 1).
        let o = optima(4, 100).unwrap();
        assert!(o.exact());
        assert_eq!(o.holes[99], 132);
        assert_eq!(o.holes[2], 4);
    }

    #[test]
    fn the_width_is_bounded() {
        assert!(optima(0, 3).is_none());
        assert!(optima(MAX_WIDTH + 1, 3).is_none());
        assert_eq!(bytes(17), 2 * 129_140_163);
    }
}
