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
use crate::geometry::{Grid, Symmetry};
use crate::guard;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The largest side. The table of 9 holds 92,718,159 lines (4.6 GB of supports; runs measured
/// 5.4 to 8.7 GB at their peak); that of 10 would hold 2,410,237,577 (about 160 GB).
pub const MAX_GAC_SIDE: usize = 9;

/// How many cubes the root is cut into, at least (when the tree is that wide).
const CUBES: usize = 256;

/// The feasible lines of one length as bitsets: for each (position, label), the lines carrying
/// that label there. Shared by rows and columns (a column reads crossing labels).
struct Table {
    n: usize,
    labels: usize,
    /// 64-line words per bitset.
    words: usize,
    /// The lines in all.
    lines: usize,
    /// `support[(pos * labels + label) * words ..][..words]`.
    support: Vec<u64>,
    /// For each byte of a label set and its place, the crossing labels: 16 × 256 sets.
    cross_bytes: Vec<u128>,
    /// Label → its value.
    value: Vec<u32>,
    /// Per feasible line: the lesser of its two readings (forward, backward) as a number
    /// ([`key`]) that compares as the readings do, for the edge filter ([`Engine::keep_from`]).
    least: Vec<u32>,
    /// Per feasible line, its labels (n bytes), for the lines' own tables.
    labels_of: Vec<u8>,
}

impl Table {
    fn new(lines: &Lines) -> Table {
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
    fn first_rows(&self, lines: &Lines) -> Vec<u8> {
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

    fn support(&self, pos: usize, label: usize) -> &[u64] {
        let at = (pos * self.labels + label) * self.words;
        &self.support[at..at + self.words]
    }

    /// A line of the table (by its place in `line`'s own table, if it has one).
    fn id(&self, own: Option<&Own>, q: usize) -> usize {
        own.map_or(q, |o| o.ids[q] as usize)
    }

    /// The crossing labels of a set of labels.
    fn crossed(&self, mut set: u128) -> u128 {
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
fn key(values: impl Iterator<Item = u32>) -> u32 {
    values.fold(0, |k, v| k << 3 | (v - 1))
}

/// A line's values (labels `w`) read forward and backward, as [`key`]s.
fn keys(value: &[u32], w: &[u8]) -> (u32, u32) {
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
struct Ties {
    /// Per cell, its images, each with whether it reads the cell's labels crossed; empty
    /// when the boards need have no symmetry.
    cells: Vec<Vec<(usize, bool)>>,
    /// The lines (rows 0..n, then columns) that read the same both ways.
    palindromes: Vec<usize>,
}

impl Ties {
    fn new(n: usize, symmetry: &[Symmetry]) -> Ties {
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

/// One worker's state: the domains, and per line the lines still possible.
#[derive(Clone)]
struct Engine<'t> {
    t: &'t Table,
    /// What the symmetries the boards must have tie together.
    ties: &'t Ties,
    /// Per cell, row-major: its labels (row terms).
    dom: Vec<u128>,
    /// Per line (rows 0..n, then columns) and position: the labels last propagated.
    seen: Vec<u128>,
    /// Per line, `words` words: the lines still possible (only the first `live` of `index`
    /// are non-zero).
    bits: Vec<u64>,
    index: Vec<u32>,
    live: Vec<u32>,
    /// Words changed, with their old values, to undo.
    trail: Vec<(u32, u64)>,
    /// Per (line, position, label): a word where a supporting line was last found.
    residue: Vec<u32>,
    scratch: Vec<u64>,
    nodes: u64,
    /// Per line: its own table (an index into `owns`), if it has been given one.
    own: Vec<Option<u32>>,
    owns: Vec<Own>,
    /// What each table change overwrote, newest last.
    swaps: Vec<Swap>,
}

/// When a line has at least this many words left and at most a quarter of their bits set, it
/// gets its own table over the lines it has left: dense words, a quarter as many or fewer.
/// Measured on 7×7 (`tank count 7 --part 1/500`, one run each): from 16 words 8.2 s, 32
/// 7.8 s, 64 8.1 s, 128 8.5 s, never 11.0 s; a half instead of a quarter 10.2 s, an eighth
/// 9.5 s (at 4 words).
const OWN_FROM_WORDS: usize = 32;

/// A line's own table: the feasible lines it had left when it was given it, in table order,
/// as the global table's supports restricted to them.
#[derive(Clone)]
struct Own {
    /// Place → the line's index in the global table.
    ids: Vec<u32>,
    words: usize,
    /// `support[(pos * labels + label) * words ..][..words]`.
    support: Vec<u64>,
}

/// What giving a line its own table overwrote: its words and their order, and the table it
/// had; undone when the search backs past it.
#[derive(Clone)]
struct Swap {
    line: usize,
    own: Option<u32>,
    /// The trail's length when the table changed.
    trail: usize,
    bits: Vec<u64>,
    index: Vec<u32>,
}

/// What a search node restores on the way back.
struct Mark {
    dom: Vec<u128>,
    seen: Vec<u128>,
    live: Vec<u32>,
    trail: usize,
    swaps: usize,
}

impl<'t> Engine<'t> {
    fn new(t: &'t Table, allowed: &[u128], ties: &'t Ties) -> Engine<'t> {
        let (n, w) = (t.n, t.words);
        let all = u128::MAX >> (128 - t.labels);
        let mut bits = vec![u64::MAX; 2 * n * w];
        let spare = w * 64 - t.lines;
        for line in 0..2 * n {
            bits[line * w + w - 1] = u64::MAX >> spare;
        }
        guard::charge((bits.len() * 8 + 2 * n * n * t.labels * 4) as u64);
        Engine {
            t,
            ties,
            dom: allowed.iter().map(|&a| a & all).collect(),
            seen: vec![all; 2 * n * n],
            bits,
            index: (0..2 * n).flat_map(|_| 0..w as u32).collect(),
            live: vec![w as u32; 2 * n],
            trail: Vec::new(),
            residue: vec![0; 2 * n * n * t.labels],
            scratch: vec![0; w],
            nodes: 0,
            own: vec![None; 2 * n],
            owns: Vec::new(),
            swaps: Vec::new(),
        }
    }

    fn mark(&self) -> Mark {
        Mark {
            dom: self.dom.clone(),
            seen: self.seen.clone(),
            live: self.live.clone(),
            trail: self.trail.len(),
            swaps: self.swaps.len(),
        }
    }

    fn back(&mut self, m: &Mark) {
        let w = self.t.words;
        while self.swaps.len() > m.swaps {
            let swap = self.swaps.pop().expect("longer than the mark");
            self.undo_to(swap.trail);
            let base = swap.line * w;
            self.bits[base..base + swap.bits.len()].copy_from_slice(&swap.bits);
            self.index[base..base + swap.index.len()].copy_from_slice(&swap.index);
            self.own[swap.line] = swap.own;
            let own = self.owns.pop().expect("a table per swap");
            guard::release((own.support.len() * 8 + own.ids.len() * 4) as u64);
        }
        self.undo_to(m.trail);
        self.live.copy_from_slice(&m.live);
        self.dom.copy_from_slice(&m.dom);
        self.seen.copy_from_slice(&m.seen);
    }

    fn undo_to(&mut self, trail: usize) {
        while self.trail.len() > trail {
            let (at, old) = self.trail.pop().expect("longer than the mark");
            self.bits[at as usize] = old;
        }
    }

    /// The table `line` reads now: its own, if it has one.
    fn own_of(&self, line: usize) -> Option<&Own> {
        self.own[line].map(|o| &self.owns[o as usize])
    }

    /// The lines of `line`'s table carrying `label` at `pos`.
    fn support(&self, line: usize, pos: usize, label: usize) -> &[u64] {
        match self.own_of(line) {
            None => self.t.support(pos, label),
            Some(o) => {
                let at = (pos * self.t.labels + label) * o.words;
                &o.support[at..at + o.words]
            }
        }
    }

    /// Gives `line` its own table over the lines it has left, dense, in table order.
    fn own_table(&mut self, line: usize) {
        let t = self.t;
        let (n, w, labels) = (t.n, t.words, t.labels);
        let base = line * w;
        let mut words: Vec<u32> = self.index[base..base + self.live[line] as usize].to_vec();
        words.sort_unstable();
        let own = self.own_of(line);
        let mut ids: Vec<u32> = Vec::new();
        for &wi in &words {
            let mut b = self.bits[base + wi as usize];
            while b != 0 {
                let q = wi as usize * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                ids.push(t.id(own, q) as u32);
            }
        }
        let nw = ids.len().div_ceil(64);
        guard::charge((n * labels * nw * 8 + ids.len() * 4) as u64);
        let mut support = vec![0u64; n * labels * nw];
        for (q, &id) in ids.iter().enumerate() {
            for (p, &l) in t.labels_of[id as usize * n..][..n].iter().enumerate() {
                support[(p * labels + l as usize) * nw + q / 64] |= 1 << (q % 64);
            }
        }
        self.swaps.push(Swap {
            line,
            own: self.own[line],
            trail: self.trail.len(),
            bits: self.bits[base..base + nw].to_vec(),
            index: self.index[base..base + nw].to_vec(),
        });
        for k in 0..nw {
            self.bits[base + k] = u64::MAX;
            self.index[base + k] = k as u32;
        }
        self.bits[base + nw - 1] = u64::MAX >> (nw * 64 - ids.len());
        self.live[line] = nw as u32;
        self.own[line] = Some(self.owns.len() as u32);
        self.owns.push(Own {
            ids,
            words: nw,
            support,
        });
    }

    /// The labels of a line's position, in that line's terms.
    fn at(&self, line: usize, pos: usize) -> u128 {
        let n = self.t.n;
        if line < n {
            self.dom[line * n + pos]
        } else {
            self.t.crossed(self.dom[pos * n + line - n])
        }
    }

    /// Keeps in `line` only the lines whose label at `pos` is in `keep`.
    fn cut(&mut self, line: usize, pos: usize, removed: u128, keep: u128) {
        let t = self.t;
        let w = t.words;
        let base = line * w;
        let live = self.live[line] as usize;
        // The smaller of the two sets builds the mask: lines with a removed label go, or
        // lines with a kept label stay.
        let (labels, drop) = if removed.count_ones() <= keep.count_ones() {
            (removed, true)
        } else {
            (keep, false)
        };
        for k in 0..live {
            self.scratch[self.index[base + k] as usize] = 0;
        }
        let mut m = labels;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let s = match self.own[line] {
                None => t.support(pos, l),
                Some(o) => {
                    let o = &self.owns[o as usize];
                    &o.support[(pos * t.labels + l) * o.words..][..o.words]
                }
            };
            for k in 0..live {
                let wi = self.index[base + k] as usize;
                self.scratch[wi] |= s[wi];
            }
        }
        self.narrow(line, |e, wi, old| {
            if drop {
                old & !e.scratch[wi]
            } else {
                old & e.scratch[wi]
            }
        });
    }

    /// Replaces each live word of `line` by what `keep` makes of it (a subset of its bits),
    /// on the trail, and drops the words left empty.
    fn narrow(&mut self, line: usize, keep: impl Fn(&Self, usize, u64) -> u64) {
        let base = line * self.t.words;
        let mut live = self.live[line] as usize;
        let mut k = 0;
        while k < live {
            let wi = self.index[base + k] as usize;
            let old = self.bits[base + wi];
            let new = keep(self, wi, old);
            if new != old {
                self.trail.push(((base + wi) as u32, old));
                self.bits[base + wi] = new;
                if new == 0 {
                    live -= 1;
                    self.index.swap(base + k, base + live);
                    continue;
                }
            }
            k += 1;
        }
        self.live[line] = live as u32;
    }

    /// Brings one line up to date with its cells and takes unsupported labels from them;
    /// false if no feasible line fits. Lines whose cells changed are added to `dirty`.
    fn update(&mut self, line: usize, dirty: &mut u64) -> bool {
        // A line of many words takes milliseconds (at 9, up to 1.4 million words): there the
        // clock is read each time, so that a deadline is kept.
        if self.live[line] as usize > 1 << 14 {
            guard::check();
        } else {
            guard::tick();
        }
        let t = self.t;
        let (n, w) = (t.n, t.words);
        for pos in 0..n {
            let now = self.at(line, pos);
            let before = self.seen[line * n + pos];
            if now != before {
                self.cut(line, pos, before & !now, now);
                self.seen[line * n + pos] = now;
                if self.live[line] == 0 {
                    return false;
                }
            }
        }
        let base = line * w;
        let live = self.live[line] as usize;
        if live >= OWN_FROM_WORDS {
            let set: usize = (0..live)
                .map(|k| self.bits[base + self.index[base + k] as usize].count_ones() as usize)
                .sum();
            if set * 4 <= live * 64 {
                self.own_table(line);
            }
        }
        let words = self.own_of(line).map_or(w, |o| o.words);
        for pos in 0..n {
            let now = self.at(line, pos);
            let mut keep = now;
            let mut m = now;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                let s = self.support(line, pos, l);
                let r = (line * n + pos) * t.labels + l;
                // A hint from a larger table the line had before may be out of range.
                let hint = self.residue[r] as usize;
                if hint < words && self.bits[base + hint] & s[hint] != 0 {
                    continue;
                }
                let found = (0..self.live[line] as usize)
                    .map(|k| self.index[base + k] as usize)
                    .find(|&wi| self.bits[base + wi] & s[wi] != 0);
                match found {
                    Some(wi) => self.residue[r] = wi as u32,
                    None => keep &= !(1 << l),
                }
            }
            if keep != now {
                self.seen[line * n + pos] = keep;
                let cell = if line < n {
                    self.dom[line * n + pos] = keep;
                    *dirty |= 1 << (n + pos);
                    line * n + pos
                } else {
                    self.dom[pos * n + line - n] = t.crossed(keep);
                    *dirty |= 1 << pos;
                    pos * n + line - n
                };
                self.tie(cell, dirty);
            }
        }
        true
    }

    /// Narrows the images of `cell` under the boards' symmetries to what its labels allow
    /// there, and theirs in turn; the lines of every cell narrowed are added to `dirty`.
    fn tie(&mut self, cell: usize, dirty: &mut u64) {
        if self.ties.cells.is_empty() {
            return;
        }
        let n = self.t.n;
        let mut stack = vec![cell];
        while let Some(c) = stack.pop() {
            for &(image, crossed) in &self.ties.cells[c] {
                let labels = if crossed {
                    self.t.crossed(self.dom[c])
                } else {
                    self.dom[c]
                };
                let new = self.dom[image] & labels;
                if new != self.dom[image] {
                    self.dom[image] = new;
                    *dirty |= 1 << (image / n) | 1 << (n + image % n);
                    stack.push(image);
                }
            }
        }
    }

    /// Propagates from the dirty lines (bit k: row k, bit n + k: column k) until nothing
    /// changes, taking the lines in turn; false if some cell or line has nothing left.
    fn propagate(&mut self, mut dirty: u64) -> bool {
        let lines = 2 * self.t.n;
        let mut at = 0;
        while dirty != 0 {
            let line = (at..lines)
                .chain(0..at)
                .find(|&l| dirty >> l & 1 == 1)
                .expect("a dirty line");
            dirty &= !(1 << line);
            at = (line + 1) % lines;
            if !self.update(line, &mut dirty) {
                return false;
            }
        }
        self.dom.iter().all(|&d| d != 0)
    }

    /// The undecided cell with the fewest labels, if any.
    fn branch_cell(&self) -> Option<usize> {
        (0..self.dom.len())
            .filter(|&c| self.dom[c].count_ones() > 1)
            .min_by_key(|&c| self.dom[c].count_ones())
    }

    /// Keeps in `line` only the feasible lines (by their place in the table) that `keep`
    /// accepts.
    fn keep_lines(&mut self, line: usize, keep: impl Fn(usize) -> bool) {
        self.narrow(line, |e, wi, old| {
            let mut new = old;
            let mut m = old;
            while m != 0 {
                let b = m.trailing_zeros() as usize;
                m &= m - 1;
                if !keep(e.t.id(e.own_of(line), wi * 64 + b)) {
                    new &= !(1 << b);
                }
            }
            new
        });
    }

    /// Keeps in `line` only the lines whose values, read either way, are at least `least`
    /// (a key of [`key`]).
    ///
    /// Once per first row on three lines, over every line of the table: so each word's mask
    /// is built by 64 comparisons without branches (at 9 a line has 92.7 million).
    fn keep_from(&mut self, line: usize, least: u32) {
        let t = self.t;
        let base = line * t.words;
        let ids = self.own[line].map(|o| &self.owns[o as usize].ids[..]);
        for k in 0..self.live[line] as usize {
            let wi = self.index[base + k] as usize;
            let lo = wi * 64;
            let mut m = 0u64;
            match ids {
                None => {
                    let hi = (lo + 64).min(t.lines);
                    for (b, &key) in t.least[lo..hi].iter().enumerate() {
                        m |= u64::from(key >= least) << b;
                    }
                }
                Some(ids) => {
                    let hi = (lo + 64).min(ids.len());
                    for (b, &q) in ids[lo..hi].iter().enumerate() {
                        m |= u64::from(t.least[q as usize] >= least) << b;
                    }
                }
            }
            self.scratch[wi] = m;
        }
        self.narrow(line, |e, wi, old| old & e.scratch[wi]);
    }

    /// Sets the top row to a first row of the symmetric search (labels, in order) and keeps in
    /// the other edges (the bottom row, the first and last columns) only the lines that read
    /// no less than it either way: a board whose top row is not least among its eight edge
    /// readings does not lead its orbit ([`super::exact::orbit_for`]), so none is lost.
    /// Propagates; false if nothing is left.
    fn lead(&mut self, top: &[u8]) -> bool {
        let n = self.t.n;
        for (cell, &l) in top.iter().enumerate() {
            self.dom[cell] &= 1 << l;
        }
        let least = key(top.iter().map(|&l| self.t.value[l as usize]));
        for line in [n - 1, n, 2 * n - 1] {
            self.keep_from(line, least);
            if self.live[line] == 0 {
                return false;
            }
        }
        self.dom.iter().all(|&d| d != 0) && self.propagate((1 << (2 * n)) - 1)
    }

    /// Sets `cell` to `label` and propagates.
    fn decide(&mut self, cell: usize, label: usize) -> bool {
        let n = self.t.n;
        self.dom[cell] &= 1 << label;
        let mut dirty = 1 << (cell / n) | 1 << (n + cell % n);
        self.tie(cell, &mut dirty);
        self.dom[cell] != 0 && self.propagate(dirty)
    }

    fn board(&self) -> Vec<Vec<u32>> {
        let n = self.t.n;
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| self.t.value[self.dom[i * n + j].trailing_zeros() as usize])
                    .collect()
            })
            .collect()
    }

    /// Every board below this node, to `found` (false: stop).
    fn search(&mut self, found: &mut dyn FnMut(&Engine) -> bool) -> bool {
        self.nodes += 1;
        guard::tick();
        let Some(cell) = self.branch_cell() else {
            return found(self);
        };
        let mark = self.mark();
        let mut labels = self.dom[cell];
        while labels != 0 {
            let l = labels.trailing_zeros() as usize;
            labels &= labels - 1;
            if self.decide(cell, l) && !self.search(found) {
                self.back(&mark);
                return false;
            }
            self.back(&mark);
        }
        true
    }
}

/// The root's first levels as cubes (lists of decisions), widened level by level until there
/// are [`CUBES`] or nothing is left to widen.
fn widen(root: &mut Engine) -> Vec<Vec<(usize, usize)>> {
    let mut cubes: Vec<Vec<(usize, usize)>> = vec![Vec::new()];
    while cubes.len() < CUBES {
        let mut next = Vec::new();
        let mut widened = false;
        for cube in &cubes {
            let mark = root.mark();
            let reached = cube.iter().all(|&(c, l)| root.decide(c, l));
            debug_assert!(reached, "a cube's decisions held when it was made");
            match root.branch_cell() {
                Some(cell) if reached => {
                    widened = true;
                    let inner = root.mark();
                    let mut labels = root.dom[cell];
                    while labels != 0 {
                        let l = labels.trailing_zeros() as usize;
                        labels &= labels - 1;
                        if root.decide(cell, l) {
                            let mut c = cube.clone();
                            c.push((cell, l));
                            next.push(c);
                        }
                        root.back(&inner);
                    }
                }
                _ => next.push(cube.clone()),
            }
            root.nodes += 1;
            root.back(&mark);
        }
        cubes = next;
        if !widened {
            break;
        }
    }
    cubes
}

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
    let mut root = Engine::new(&t, &allowed, &ties);
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
