//! One worker of the consistent search ([`Worker`]): the cells' label sets, each line's set
//! of feasible lines still possible, propagation to a fixed point, and the marks it backs up
//! to; and the root's first levels cut into cubes ([`widen`]).

use super::table::{key, Own, Table, Ties};
use super::CUBES;
use crate::guard;

/// One worker's state: the domains, and per line the lines still possible.
#[derive(Clone)]
pub(super) struct Worker<'t> {
    pub(super) t: &'t Table,
    /// What the symmetries the boards must have tie together.
    pub(super) ties: &'t Ties,
    /// Per cell, row-major: its labels (row terms).
    pub(super) dom: Vec<u128>,
    /// Per line (rows 0..n, then columns) and position: the labels last propagated.
    pub(super) seen: Vec<u128>,
    /// Per line, `words` words: the lines still possible (only the first `live` of `index`
    /// are non-zero).
    pub(super) bits: Vec<u64>,
    pub(super) index: Vec<u32>,
    pub(super) live: Vec<u32>,
    /// Words changed, with their old values, to undo.
    pub(super) trail: Vec<(u32, u64)>,
    /// Per (line, position, label): a word where a supporting line was last found.
    pub(super) residue: Vec<u32>,
    pub(super) scratch: Vec<u64>,
    pub(super) nodes: u64,
    /// Per line: its own table (an index into `owns`), if it has been given one.
    pub(super) own: Vec<Option<u32>>,
    pub(super) owns: Vec<Own>,
    /// What each table change overwrote, newest last.
    pub(super) swaps: Vec<Swap>,
}

/// When a line has at least this many words left and at most a quarter of their bits set, it
/// gets its own table over the lines it has left: dense words, a quarter as many or fewer.
/// Measured on 7×7 (`tank count 7 --part 1/500`, one run each): from 16 words 8.2 s, 32
/// 7.8 s, 64 8.1 s, 128 8.5 s, never 11.0 s; a half instead of a quarter 10.2 s, an eighth
/// 9.5 s (at 4 words).
pub(super) const OWN_FROM_WORDS: usize = 32;

/// What giving a line its own table overwrote: its words and their order, and the table it
/// had; undone when the search backs past it.
#[derive(Clone)]
pub(super) struct Swap {
    pub(super) line: usize,
    pub(super) own: Option<u32>,
    /// The trail's length when the table changed.
    pub(super) trail: usize,
    pub(super) bits: Vec<u64>,
    pub(super) index: Vec<u32>,
}

/// What a search node restores on the way back.
pub(super) struct Mark {
    pub(super) dom: Vec<u128>,
    pub(super) seen: Vec<u128>,
    pub(super) live: Vec<u32>,
    pub(super) trail: usize,
    pub(super) swaps: usize,
}

impl<'t> Worker<'t> {
    pub(super) fn new(t: &'t Table, allowed: &[u128], ties: &'t Ties) -> Worker<'t> {
        let (n, w) = (t.n, t.words);
        let all = u128::MAX >> (128 - t.labels);
        let mut bits = vec![u64::MAX; 2 * n * w];
        let spare = w * 64 - t.lines;
        for line in 0..2 * n {
            bits[line * w + w - 1] = u64::MAX >> spare;
        }
        guard::charge((bits.len() * 8 + 2 * n * n * t.labels * 4) as u64);
        Worker {
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

    pub(super) fn mark(&self) -> Mark {
        Mark {
            dom: self.dom.clone(),
            seen: self.seen.clone(),
            live: self.live.clone(),
            trail: self.trail.len(),
            swaps: self.swaps.len(),
        }
    }

    pub(super) fn back(&mut self, m: &Mark) {
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

    pub(super) fn undo_to(&mut self, trail: usize) {
        while self.trail.len() > trail {
            let (at, old) = self.trail.pop().expect("longer than the mark");
            self.bits[at as usize] = old;
        }
    }

    /// The table `line` reads now: its own, if it has one.
    pub(super) fn own_of(&self, line: usize) -> Option<&Own> {
        self.own[line].map(|o| &self.owns[o as usize])
    }

    /// The lines of `line`'s table carrying `label` at `pos`.
    pub(super) fn support(&self, line: usize, pos: usize, label: usize) -> &[u64] {
        match self.own_of(line) {
            None => self.t.support(pos, label),
            Some(o) => {
                let at = (pos * self.t.labels + label) * o.words;
                &o.support[at..at + o.words]
            }
        }
    }

    /// Gives `line` its own table over the lines it has left, dense, in table order.
    pub(super) fn own_table(&mut self, line: usize) {
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
    pub(super) fn at(&self, line: usize, pos: usize) -> u128 {
        let n = self.t.n;
        if line < n {
            self.dom[line * n + pos]
        } else {
            self.t.crossed(self.dom[pos * n + line - n])
        }
    }

    /// Keeps in `line` only the lines whose label at `pos` is in `keep`.
    pub(super) fn cut(&mut self, line: usize, pos: usize, removed: u128, keep: u128) {
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
    pub(super) fn narrow(&mut self, line: usize, keep: impl Fn(&Self, usize, u64) -> u64) {
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
    pub(super) fn update(&mut self, line: usize, dirty: &mut u64) -> bool {
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
    pub(super) fn tie(&mut self, cell: usize, dirty: &mut u64) {
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
    pub(super) fn propagate(&mut self, mut dirty: u64) -> bool {
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
    pub(super) fn branch_cell(&self) -> Option<usize> {
        (0..self.dom.len())
            .filter(|&c| self.dom[c].count_ones() > 1)
            .min_by_key(|&c| self.dom[c].count_ones())
    }

    /// Keeps in `line` only the feasible lines (by their place in the table) that `keep`
    /// accepts.
    pub(super) fn keep_lines(&mut self, line: usize, keep: impl Fn(usize) -> bool) {
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
    pub(super) fn keep_from(&mut self, line: usize, least: u32) {
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
    pub(super) fn lead(&mut self, top: &[u8]) -> bool {
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
    pub(super) fn decide(&mut self, cell: usize, label: usize) -> bool {
        let n = self.t.n;
        self.dom[cell] &= 1 << label;
        let mut dirty = 1 << (cell / n) | 1 << (n + cell % n);
        self.tie(cell, &mut dirty);
        self.dom[cell] != 0 && self.propagate(dirty)
    }

    pub(super) fn board(&self) -> Vec<Vec<u32>> {
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
    pub(super) fn search(&mut self, found: &mut dyn FnMut(&Worker) -> bool) -> bool {
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
pub(super) fn widen(root: &mut Worker) -> Vec<Vec<(usize, usize)>> {
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
