//! The optimum of `w × k` boards by a max-plus transfer matrix over the cells, one byte a
//! state, every state a frontier that can occur (no two holes side by side), on every core.
//!
//! Cells are taken row by row. The frontier is the last cell seen in each of the `w` columns:
//! *filled* (covered, nothing pending), the *down* cell of a vertical domino whose bottom is the
//! next cell of that column, or a *hole*; one more bit says that the cell just taken started a
//! horizontal domino the next cell must finish. A state keeps the most holes of any partial
//! packing that leaves it. After a whole row, the states with nothing pending (no *down*) are
//! the packings of the rows so far: their best is that board's optimum. Rules, from the problem
//! alone: every cell is a hole or covered by one domino, and no two holes are neighbours.
//!
//! **Only frontiers that can occur are stored.** Before cell `c` of a row the frontier is the
//! row's first `c` cells (`L`) and the row above's last `w − c` (`R`); neither holds two holes
//! side by side, so each is a word without "hole, hole". Such words are ranked densely (about
//! 0.18·3^w of them at width 19): `R` by its first letter, `L` by its last, so that taking a
//! cell moves one letter from the front of `R` to the end of `L` and a state's successors lie
//! in three contiguous runs. A state with the bit set has filled as the last letter of `L`, and
//! it has the same value as the state with *down* there (both come from the same states: a
//! domino starts at that cell), so it is not stored. Each step reads one array and writes
//! another: at width 19 some 230 MB each, at width 20 some 620 MB. A finished row read back
//! to front is the next row's `R`: rows are taken left to right and right to left in turn,
//! which the board's mirror symmetry allows.
//!
//! **Meeting in the middle.** The board `w × n` is its top `⌈n/2⌉` rows and its bottom
//! `⌊n/2⌋` rows; turned upside down, the bottom is itself a top part. So one pass over
//! `⌈n/2⌉` rows gives the best of both halves for every frontier, and the optimum is the best
//! sum over pairs of frontiers that fit together (a *down* above a *down*, no hole above a
//! hole), found by one more sweep like a row's. Kept tables of the rows in between let the run
//! trace an optimal packing back, row by row.
//!
//! Values are kept relative to a base that moves up with the best state; a state more than
//! [`KEPT_BELOW`] holes below the best would be dropped, which would make the answer inexact,
//! so the run counts such drops and says whether any happened (none has, on any board
//! measured).

use super::Domino;
use crate::guard;

mod board;
pub use board::board;

/// A frontier letter: filled, nothing pending.
const F: u8 = 0;
/// The top of a vertical domino whose bottom is the next cell of the column.
const D: u8 = 1;
/// A hole.
const H: u8 = 2;

/// The widest frontier: about 620 MB an array at width 20.
pub const MAX_WIDTH: usize = 20;

/// States this far below the best state of their row are dropped (and the drop counted).
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

/// The optimum of one board, from the two halves, and an optimal packing when asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardOptimum {
    /// The most holes.
    pub holes: i64,
    /// An optimal packing's dominoes on the board `width × length` (row, column), when traced.
    pub dominoes: Option<Vec<Domino>>,
    /// States dropped (see [`Optima::dropped`]); the answer is exact only when 0.
    pub dropped: u64,
}

/// Words of each length without two holes side by side, and their ranks.
struct Words {
    /// `count[k]`: words of length k.
    count: Vec<usize>,
}

impl Words {
    fn new(w: usize) -> Words {
        let mut count = vec![1usize; w + 1];
        for k in 1..=w {
            count[k] = 2 * count[k - 1] + if k >= 2 { 2 * count[k - 2] } else { 1 };
        }
        Words { count }
    }

    /// Words of length `k` that do not start with a hole (by symmetry, nor end with one).
    fn no_hole_first(&self, k: usize) -> usize {
        if k == 0 {
            1
        } else {
            2 * self.count[k - 1]
        }
    }

    /// The rank of a word read from its first letter: letter `d` at the front adds `d` times
    /// the count of the words after it.
    fn rank(&self, word: &[u8]) -> usize {
        let k = word.len();
        word.iter()
            .enumerate()
            .map(|(i, &d)| d as usize * self.count[k - 1 - i])
            .sum()
    }

    /// The word of length `k` with this rank.
    fn word(&self, mut rank: usize, k: usize) -> Vec<u8> {
        (0..k)
            .map(|i| {
                let c = self.count[k - 1 - i];
                let d = rank / c;
                rank -= d * c;
                d as u8
            })
            .collect()
    }

    /// The ranks of the words with no *down* (finished rows).
    fn closed(&self, w: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut word = vec![F; w];
        fn walk(words: &Words, word: &mut Vec<u8>, i: usize, out: &mut Vec<usize>) {
            if i == word.len() {
                out.push(words.rank(word));
                return;
            }
            for d in [F, H] {
                if d == H && i > 0 && word[i - 1] == H {
                    continue;
                }
                word[i] = d;
                walk(words, word, i + 1, out);
            }
        }
        walk(self, &mut word, 0, &mut out);
        out
    }

    /// The largest array a step writes.
    fn largest(&self, w: usize) -> usize {
        (0..=w)
            .map(|c| self.count[c] * self.count[w - c])
            .max()
            .unwrap_or(1)
    }
}

/// Bytes the one-pass program ([`optima`]) needs for `width`: two step arrays.
pub fn bytes(width: usize) -> u64 {
    2 * Words::new(width).largest(width) as u64
}

/// Bytes [`board`] needs for `width × length`: the two step arrays, and with `draw` a table
/// for each row of the top half (to trace a packing back), else two.
pub fn board_bytes(width: usize, length: usize, draw: bool) -> u64 {
    let words = Words::new(width);
    let tables = if draw { length.div_ceil(2) + 1 } else { 2 };
    2 * words.largest(width) as u64 + (tables * words.count[width]) as u64
}

/// `len` zeroed bytes, reserved fallibly (over the memory limit stops the stage), on huge pages
/// where the system allows them: the first touch of gigabytes of small pages costs seconds.
/// Written [`TOUCH`] bytes at a time, the guard asked between (a stop is not kept waiting).
fn zeroed(len: usize) -> Vec<u8> {
    let mut v = reserved(len);
    while v.len() < len {
        guard::check();
        let n = TOUCH.min(len - v.len());
        v.resize(v.len() + n, 0);
    }
    v
}

/// The most fresh memory touched between two questions to the guard: the kernel zeroes fresh
/// pages as they are first touched, and on this machine a gigabyte of them has taken from
/// under 0.5 s to 1.5 s (`gunport solve 19 19` stopped at 0.1 s once took 1.7 s to end, all
/// but a few percent of it in the kernel's page clearing).
const TOUCH: usize = 1 << 25;

/// An empty vector with room for `len` bytes, on huge pages where the system allows them.
fn reserved(len: usize) -> Vec<u8> {
    let mut v: Vec<u8> = Vec::new();
    if v.try_reserve_exact(len).is_err() {
        guard::out_of_memory();
    }
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = v.as_ptr() as usize;
        let aligned = start.div_ceil(PAGE) * PAGE;
        if len > 1 << 22 && aligned < start + len {
            // SAFETY: advice on pages inside this vector's reservation; a refusal is harmless.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    start + len - aligned,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    v
}

/// The cores to share work on `len` bytes among: one below `small`, else all.
fn cores(len: usize, small: usize) -> usize {
    if len < small {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |t| t.get())
    }
}

/// Runs `work(part)` for every part below `threads` (on this thread when there is one), and
/// passes on whatever stopped a worker (the deadline, a stop request, the memory limit).
fn on_cores(threads: usize, work: &(dyn Fn(usize) + Sync)) {
    if threads == 1 {
        work(0);
        return;
    }
    for answer in guard::spread(threads, work) {
        if let Err(why) = answer {
            guard::raise(why);
        }
    }
}

/// A copy of `values` in fresh memory, written by every core (the first touch of fresh pages
/// is most of the cost, and the cores take their faults side by side).
fn copied(values: &[u8]) -> Vec<u8> {
    let mut v = reserved(values.len());
    let threads = cores(values.len(), 1 << 24);
    let len = values.len();
    let to = Shared(v.as_mut_ptr());
    let run = |part: usize| {
        let (a, b) = (len * part / threads, len * (part + 1) / threads);
        for from in (a..b).step_by(TOUCH) {
            guard::check();
            let n = TOUCH.min(b - from);
            // SAFETY: each thread writes its own range of the reservation of `len` bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(values.as_ptr().add(from), to.get().add(from), n)
            };
        }
    };
    on_cores(threads, &run);
    // SAFETY: every byte below `len` was written above.
    unsafe { v.set_len(len) };
    v
}

/// A pointer the worker threads share; each writes only its own part of the array.
#[derive(Clone, Copy)]
struct Shared(*mut u8);
// SAFETY: the threads of one step write disjoint parts (see `sweep`).
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

impl Shared {
    /// The pointer (a method, so that closures capture the whole `Shared`, which is `Sync`).
    fn get(self) -> *mut u8 {
        self.0
    }
}

/// What one sweep does with a letter of `R`: a cell of a row, or one column of the join.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sweep {
    /// Cell `c` of a row.
    Cell,
    /// One column of the join: the letter of the top half's frontier that fits the bottom's.
    Join,
}

/// A pass: its two step arrays, the word counts that index them, and the cores it uses.
struct Pass {
    w: usize,
    words: Words,
    threads: usize,
    /// The array read (`L` of length c, `R` of length w − c) and the one written.
    from: Vec<u8>,
    to: Vec<u8>,
    charged: u64,
}

impl Pass {
    fn new(w: usize) -> Pass {
        let words = Words::new(w);
        let size = words.largest(w);
        let charged = 2 * size as u64;
        guard::charge(charged);
        // Both at full length once: a step writes every entry of its part of `to` (words
        // `L`+filled, `L`+down, and `L`+hole where `L` does not end with a hole).
        let (from, to) = (zeroed(size), zeroed(size));
        let threads = cores(size, 1 << 16);
        Pass {
            w,
            words,
            threads,
            from,
            to,
            charged,
        }
    }

    /// Sweeps letter `c`: reads `from` (`L` of length c, `R` of length w − c), writes `to`
    /// (one letter more in `L`), and swaps them.
    fn sweep(&mut self, c: usize, kind: Sweep) {
        let w = self.w;
        let count = &self.words.count;
        let n = w - c;
        let rn = count[n - 1];
        let hn = self.words.no_hole_first(n - 1);
        let lc = count[c];
        // `L` ends filled below this rank (a domino may have started there), and does not end
        // with a hole below `lnh`.
        let lf = if c > 0 && kind == Sweep::Cell {
            count[c - 1]
        } else {
            0
        };
        let lnh = self.words.no_hole_first(c);
        let row_in = count[n];
        debug_assert!(count[c] * row_in <= self.from.len());
        debug_assert!(count[c + 1] * rn <= self.to.len());
        let shape = Shape {
            rn,
            hn,
            row_in,
            lc,
            lf,
            lnh,
        };
        let from = &self.from[..];
        let to = Shared(self.to.as_mut_ptr());
        let threads = self.threads;
        let run = |part: usize| {
            // Split the `L` ranks among the threads where there are enough of them, else the
            // `R` ranks.
            let (ls, js) = if lc >= 4 * threads {
                (lc * part / threads..lc * (part + 1) / threads, 0..rn)
            } else {
                (0..lc, rn * part / threads..rn * (part + 1) / threads)
            };
            // Check the clock about every 64K values written.
            let every = (65_536 / rn.max(1)).max(1);
            let mut l = ls.start;
            while l < ls.end {
                let upto = (l + every).min(ls.end);
                // SAFETY: `from` holds count[c]·count[n] values (read only); the values
                // written for (l, js) are disjoint from every other thread's (distinct l, or
                // distinct js) and lie inside `to` (count[c+1]·rn ≤ its length).
                unsafe {
                    let (x, y, ls) = (from.as_ptr(), to.get(), l..upto);
                    // The last cells of a row have short `R'` and many `L`: loops of a
                    // known length there, with no call per `L`.
                    let whole = js == (0..rn) && kind == Sweep::Cell;
                    match rn {
                        1 if whole => kernel_short::<1, 1>(x, y, &shape, ls),
                        3 if whole => kernel_short::<3, 2>(x, y, &shape, ls),
                        8 if whole => kernel_short::<8, 6>(x, y, &shape, ls),
                        22 if whole => kernel_short::<22, 16>(x, y, &shape, ls),
                        _ => kernel(x, y, &shape, ls, js.clone(), kind),
                    }
                };
                guard::tick();
                l = upto;
            }
        };
        on_cores(threads, &run);
        std::mem::swap(&mut self.from, &mut self.to);
    }

    /// One whole row: afterwards `from` is indexed by the row's word (read back to front, the
    /// next row's `R`).
    fn row(&mut self) {
        for c in 0..self.w {
            guard::check();
            self.sweep(c, Sweep::Cell);
        }
    }

    /// The array after a whole row (or the join): one value per word of length w.
    fn finished(&self) -> &[u8] {
        &self.from[..self.words.count[self.w]]
    }

    /// Moves the values down by `shift` when the best is near the top of a byte; returns
    /// the states dropped.
    fn rebase(&mut self, base: &mut i64) -> u64 {
        let finished = &mut self.from[..self.words.count[self.w]];
        let top = finished.iter().copied().max().unwrap_or(0);
        if top <= 200 {
            return 0;
        }
        let shift = top - KEPT_BELOW;
        let mut dropped = 0;
        for v in finished.iter_mut() {
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
        *base += shift as i64;
        dropped
    }
}

/// The sizes one sweep works with (see [`Pass::sweep`]).
struct Shape {
    /// Words `R'` after the letter taken (the row length of the array written).
    rn: usize,
    /// Those that do not start with a hole.
    hn: usize,
    /// Words `R` (the row length of the array read).
    row_in: usize,
    /// Words `L`.
    lc: usize,
    /// `L` of rank below this ends filled, and its bit state is row `l + lf` (0: no bit).
    lf: usize,
    /// `L` of rank below this does not end with a hole.
    lnh: usize,
}

/// One sweep's work on the `L` ranks `ls` and the `R'` ranks `js`: reads row `l` of `x`
/// (`F`, `D` and `H` before `R'` at offsets 0, `rn`, `2·rn`), writes `L`+filled, `L`+down and
/// `L`+hole at rows `l`, `lc + l`, `2·lc + l` of `y`.
///
/// # Safety
/// `x` holds `lc·row_in` values and `y` `(2·lc + lnh)·rn`; no other thread writes the values
/// at these (l, j) meanwhile.
unsafe fn kernel(
    x: *const u8,
    y: *mut u8,
    s: &Shape,
    ls: std::ops::Range<usize>,
    js: std::ops::Range<usize>,
    kind: Sweep,
) {
    let Shape {
        rn,
        hn,
        row_in,
        lc,
        lf,
        lnh,
    } = *s;
    let h_end = hn.clamp(js.start, js.end);
    for l in ls {
        // SAFETY (every access below): l < lc, j < rn, and the bounds above.
        unsafe {
            let xr = x.add(l * row_in);
            let (xf, xd, xh) = (xr, xr.add(rn), xr.add(2 * rn));
            let yf = y.add(l * rn);
            let yd = y.add((lc + l) * rn);
            let yh = y.wrapping_add((2 * lc + l) * rn);
            match kind {
                Sweep::Cell => {
                    // Filled: the bottom of a vertical domino (above: down), or the end of a
                    // horizontal one (the bit; above filled or a hole).
                    if l < lf {
                        let br = x.add((l + lf) * row_in);
                        let (bf, bh) = (br, br.add(2 * rn));
                        for j in js.start..h_end {
                            *yf.add(j) = (*xd.add(j)).max(*bf.add(j)).max(*bh.add(j));
                        }
                        for j in h_end..js.end {
                            *yf.add(j) = (*xd.add(j)).max(*bf.add(j));
                        }
                    } else {
                        std::ptr::copy_nonoverlapping(xd.add(js.start), yf.add(js.start), js.len());
                    }
                    // Down (and the start of a horizontal domino): above filled or a hole.
                    for j in js.start..h_end {
                        *yd.add(j) = (*xf.add(j)).max(*xh.add(j));
                    }
                    std::ptr::copy_nonoverlapping(xf.add(h_end), yd.add(h_end), js.end - h_end);
                    // A hole: above filled, and no hole to the left.
                    if l < lnh {
                        for j in js.clone() {
                            let v = *xf.add(j);
                            *yh.add(j) = v + u8::from(v != 0);
                        }
                    }
                }
                Sweep::Join => {
                    // The top's letter against the bottom's: down on down, filled on filled or
                    // a hole, a hole on filled.
                    std::ptr::copy_nonoverlapping(xd.add(js.start), yd.add(js.start), js.len());
                    for j in js.start..h_end {
                        *yf.add(j) = (*xf.add(j)).max(*xh.add(j));
                    }
                    std::ptr::copy_nonoverlapping(xf.add(h_end), yf.add(h_end), js.end - h_end);
                    if l < lnh {
                        std::ptr::copy_nonoverlapping(xf.add(js.start), yh.add(js.start), js.len());
                    }
                }
            }
        }
    }
}

/// [`kernel`] for a row's cell where `R'` has `RN` words, `HN` of them not starting with a
/// hole, and every `R'` rank is this thread's.
///
/// # Safety
/// As for [`kernel`], with `s.rn == RN` and `s.hn == HN`.
unsafe fn kernel_short<const RN: usize, const HN: usize>(
    x: *const u8,
    y: *mut u8,
    s: &Shape,
    ls: std::ops::Range<usize>,
) {
    debug_assert!(s.rn == RN && s.hn == HN);
    let Shape {
        row_in,
        lc,
        lf,
        lnh,
        ..
    } = *s;
    for l in ls {
        // SAFETY: l < lc, and the rows read and written lie inside the arrays (see `kernel`).
        unsafe {
            let xr = std::slice::from_raw_parts(x.add(l * row_in), 2 * RN + HN);
            let yf = &mut *(y.add(l * RN) as *mut [u8; RN]);
            let yd = &mut *(y.add((lc + l) * RN) as *mut [u8; RN]);
            if l < lf {
                let b = std::slice::from_raw_parts(x.add((l + lf) * row_in), 2 * RN + HN);
                for j in 0..RN {
                    let h = if j < HN { b[2 * RN + j] } else { 0 };
                    yf[j] = xr[RN + j].max(b[j]).max(h);
                }
            } else {
                yf.copy_from_slice(&xr[RN..2 * RN]);
            }
            for j in 0..RN {
                let h = if j < HN { xr[2 * RN + j] } else { 0 };
                yd[j] = xr[j].max(h);
            }
            if l < lnh {
                let yh = &mut *(y.add((2 * lc + l) * RN) as *mut [u8; RN]);
                for j in 0..RN {
                    let v = xr[j];
                    yh[j] = v + u8::from(v != 0);
                }
            }
        }
    }
}

impl Drop for Pass {
    fn drop(&mut self) {
        guard::release(self.charged);
    }
}

/// The optima of `width × k` for k = 1..=rows in one pass. `None` when `width` is 0 or above
/// [`MAX_WIDTH`]. Runs in the caller's guarded stage: stopped by its deadline or stop request,
/// and its arrays charged to the run's memory.
pub fn optima(width: usize, rows: usize) -> Option<Optima> {
    if width == 0 || width > MAX_WIDTH {
        return None;
    }
    let mut pass = Pass::new(width);
    // Stored value = holes − base + 1; 0 is no state. Above the board: a filled row.
    pass.from[0] = 1;
    let mut base: i64 = 0;
    let mut dropped = 0u64;
    let closed = pass.words.closed(width);
    let mut holes = Vec::with_capacity(rows);
    for r in 0..rows {
        guard::progress::message(&format!(
            "transfer matrix, width {width}: row {} of {rows}",
            r + 1
        ));
        pass.row();
        let best = closed.iter().map(|&i| pass.from[i]).max().unwrap_or(0);
        holes.push(if best == 0 {
            -1
        } else {
            best as i64 - 1 + base
        });
        dropped += pass.rebase(&mut base);
    }
    Some(Optima {
        width,
        holes,
        dropped,
    })
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
                let b = board(w, k, true).unwrap();
                assert_eq!(b.holes, d, "{w}×{k} by halves");
                let p = super::super::Packing {
                    m: k,
                    n: w,
                    dominoes: b.dominoes.expect("a traced packing"),
                };
                let v = super::super::verify(&p);
                assert!(v.is_ok(), "{w}×{k}: {v:?}");
                assert_eq!(p.m * p.n - 2 * p.dominoes.len(), d as usize, "{w}×{k}");
            }
        }
    }

    #[test]
    fn words_are_ranked_densely() {
        let words = Words::new(6);
        assert_eq!(&words.count[..5], &[1, 3, 8, 22, 60]);
        for k in 0..=6 {
            for r in 0..words.count[k] {
                let word = words.word(r, k);
                assert!(word.windows(2).all(|p| p != [H, H]), "{word:?}");
                assert_eq!(words.rank(&word), r);
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
        assert_eq!(board(4, 100, false).unwrap().holes, 132);
    }

    #[test]
    fn the_width_is_bounded() {
        assert!(optima(0, 3).is_none());
        assert!(optima(MAX_WIDTH + 1, 3).is_none());
        assert!(board(MAX_WIDTH + 1, 3, false).is_none());
        assert_eq!(Words::new(3).count[3], 22);
    }
}
