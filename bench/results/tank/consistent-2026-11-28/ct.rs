//! GAC on every row and column by compact tables (reversible sparse bitsets over the feasible lines).
use crate::lines::Lines;

pub struct Table {
    pub n: usize, pub nl: usize, pub w: usize,
    pub cross: Vec<u8>,
    /// supports[(pos*nl+lab)*w ..]
    pub sup: Vec<u64>,
    pub xtab: Vec<[u128; 256]>,
    pub lines: usize,
}

impl Table {
    pub fn new(l: &Lines) -> Table {
        let n = l.n; let nl = l.labels.len();
        let mut words: Vec<Vec<u8>> = Vec::new();
        fn walk(l: &Lines, node: usize, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            if cur.len() == l.n { out.push(cur.clone()); return; }
            let mut m = l.mask[node]; while m != 0 { let x = m.trailing_zeros() as usize; m &= m-1; cur.push(x as u8); walk(l, l.child(node, x).unwrap(), cur, out); cur.pop(); }
        }
        walk(l, 0, &mut vec![], &mut words);
        let w = words.len().div_ceil(64);
        let mut sup = vec![0u64; n * nl * w];
        for (t, wd) in words.iter().enumerate() { for (p, &x) in wd.iter().enumerate() { sup[(p * nl + x as usize) * w + t / 64] |= 1 << (t % 64); } }
        let mut xtab = vec![[0u128; 256]; 16];
        for (k, tb) in xtab.iter_mut().enumerate() { for b in 0..256usize { let mut o = 0u128; for bit in 0..8 { if b >> bit & 1 == 1 { let lab = k * 8 + bit; if lab < nl { o |= 1u128 << l.cross[lab]; } } } tb[b] = o; } }
        Table { n, nl, w, cross: l.cross.clone(), sup, xtab, lines: words.len() }
    }
    #[inline] pub fn xs(&self, m: u128) -> u128 { let mut o = 0u128; let mut m = m; let mut k = 0; while m != 0 { o |= self.xtab[k][(m & 0xff) as usize]; m >>= 8; k += 1; } o }
    #[inline] fn s(&self, pos: usize, lab: usize) -> &[u64] { let o = (pos * self.nl + lab) * self.w; &self.sup[o..o + self.w] }
}

pub struct Ct<'t> {
    t: &'t Table, n: usize,
    words: Vec<u64>,      // per line w words
    index: Vec<u32>,      // per line permutation of word ids
    limit: Vec<u32>,      // per line active count
    wtrail: Vec<(u8, u32, u64)>,
    pub dom: Vec<u128>,
    last: Vec<u128>,      // per line, per pos: domain (line terms) last seen
    resid: Vec<u32>,      // per line,pos,lab residue word
    pub nodes: u64, pub count: u64, pub updates: u64, pub wordops: u64,
    tmp: Vec<u64>,
    pub orops: u64, pub resmiss: u64, pub scans: u64,
}

impl<'t> Ct<'t> {
    pub fn new(t: &'t Table) -> Self {
        let n = t.n; let w = t.w; let lines = 2 * n;
        let mut words = vec![u64::MAX; lines * w];
        let extra = w * 64 - t.lines; if extra > 0 { for li in 0..lines { words[li * w + w - 1] = u64::MAX >> extra; } }
        let index: Vec<u32> = (0..lines).flat_map(|_| 0..w as u32).collect();
        let all = if t.nl == 128 { u128::MAX } else { (1u128 << t.nl) - 1 };
        Ct { t, n, words, index, limit: vec![w as u32; lines], wtrail: Vec::new(), dom: vec![all; n * n], last: vec![all; lines * n], resid: vec![0; lines * n * t.nl], nodes: 0, count: 0, updates: 0, wordops: 0, tmp: vec![0u64; w], orops: 0, resmiss: 0, scans: 0 }
    }
    #[inline] fn line_dom(&self, li: usize, pos: usize) -> u128 { let n = self.n; if li < n { self.dom[li * n + pos] } else { self.t.xs(self.dom[pos * n + li - n]) } }
    /// curr &= !mask (invert=true) or curr &= mask
    fn and(&mut self, li: usize, mask: &[u64], invert: bool) {
        let w = self.t.w; let base = li * w; let mut i = self.limit[li] as usize;
        let mut k = 0;
        while k < i {
            let wi = self.index[base + k] as usize;
            let old = self.words[base + wi];
            let nw = if invert { old & !mask[wi] } else { old & mask[wi] };
            if nw != old { self.wtrail.push((li as u8, wi as u32, old)); self.words[base + wi] = nw;
                if nw == 0 { i -= 1; self.index.swap(base + k, base + i); continue; } }
            k += 1;
        }
        self.wordops += self.limit[li] as u64;
        self.limit[li] = i as u32;
    }
    /// Brings line li up to date with the domains; false on wipe-out. Removed labels go to `removed` (cells).
    fn update(&mut self, li: usize, dirty: &mut u64) -> bool {
        self.updates += 1;
        let n = self.n; let t = self.t; let w = t.w; let nl = t.nl;
        let mut tmp = std::mem::take(&mut self.tmp);
        for pos in 0..n {
            let d = self.line_dom(li, pos); let last = self.last[li * n + pos];
            if d == last { continue; }
            let removed = last & !d;
            let (labs, invert) = if removed.count_ones() <= d.count_ones() { (removed, true) } else { (d, false) };
            let base = li * w;
            for k in 0..self.limit[li] as usize { tmp[self.index[base + k] as usize] = 0; }
            let mut m = labs; while m != 0 { let x = m.trailing_zeros() as usize; m &= m - 1; let s = t.s(pos, x); self.orops += self.limit[li] as u64;
                for k in 0..self.limit[li] as usize { let wi = self.index[base + k] as usize; tmp[wi] |= s[wi]; } }
            self.and(li, &tmp, invert);
            self.last[li * n + pos] = d;
            if self.limit[li] == 0 { self.tmp = tmp; return false; }
        }
        self.tmp = tmp;
        // filter: every label of every position needs a line
        let base = li * w;
        for pos in 0..n {
            let d = self.line_dom(li, pos); let mut m = d; let mut keep = d;
            while m != 0 { let x = m.trailing_zeros() as usize; m &= m - 1;
                let s = t.s(pos, x); let r = &mut self.resid[(li * n + pos) * nl + x];
                if self.words[base + *r as usize] & s[*r as usize] != 0 { continue; }
                let mut found = false; self.resmiss += 1;
                for k in 0..self.limit[li] as usize { let wi = self.index[base + k] as usize; self.scans += 1; if self.words[base + wi] & s[wi] != 0 { *r = wi as u32; found = true; break; } }
                if !found { keep &= !(1u128 << x); }
            }
            if keep != d {
                self.last[li * n + pos] = keep;
                if li < n { self.dom[li * n + pos] = keep; *dirty |= 1 << (n + pos); } else { let c = pos * n + li - n; self.dom[c] = t.xs(keep); *dirty |= 1 << pos; }
            }
        }
        true
    }
    pub fn propagate(&mut self, mut dirty: u64) -> bool {
        let lines = 2 * self.n; let mut at = 0usize;
        while dirty != 0 {
            // round robin from `at`
            let rot = (dirty >> at) | (dirty << (lines - at)) & ((1u64 << lines) - 1);
            let li = (at + rot.trailing_zeros() as usize) % lines;
            dirty &= !(1u64 << li); at = (li + 1) % lines;
            if !self.update(li, &mut dirty) { return false; } }
        true
    }
    pub fn undo(&mut self, mark: usize, limits: &[u32]) {
        let w = self.t.w;
        while self.wtrail.len() > mark { let (li, wi, old) = self.wtrail.pop().unwrap(); self.words[li as usize * w + wi as usize] = old; }
        self.limit.copy_from_slice(limits);
    }
    pub fn search(&mut self, on_board: &mut dyn FnMut(&[u128])) {
        self.nodes += 1;
        let n = self.n;
        let mut best = usize::MAX; let mut bc = u32::MAX;
        for c in 0..n * n { let k = self.dom[c].count_ones(); if k > 1 && k < bc { bc = k; best = c; } }
        if best == usize::MAX { self.count += 1; on_board(&self.dom); return; }
        let saved = self.dom.clone(); let last = self.last.clone(); let limits = self.limit.clone(); let mark = self.wtrail.len();
        let (i, j) = (best / n, best % n);
        let mut m = saved[best];
        while m != 0 {
            let lab = m.trailing_zeros() as usize; m &= m - 1;
            self.dom[best] = 1u128 << lab;
            if self.propagate(1 << i | 1 << (n + j)) { self.search(on_board); }
            self.undo(mark, &limits); self.dom.copy_from_slice(&saved); self.last.copy_from_slice(&last);
        }
    }
}

pub struct Saved { dom: Vec<u128>, last: Vec<u128>, limit: Vec<u32>, mark: usize }
impl<'t> Ct<'t> {
    pub fn save(&self) -> Saved { Saved { dom: self.dom.clone(), last: self.last.clone(), limit: self.limit.clone(), mark: self.wtrail.len() } }
    pub fn restore(&mut self, s: &Saved) { self.undo(s.mark, &s.limit); self.dom.copy_from_slice(&s.dom); self.last.copy_from_slice(&s.last); }
    /// Sets row i to these labels and propagates.
    pub fn set_row(&mut self, i: usize, labs: &[usize]) -> bool {
        let n = self.n; let mut dirty = 1u64 << i;
        for j in 0..n { if self.dom[i * n + j] >> labs[j] & 1 == 0 { return false; } if self.dom[i*n+j] != 1u128 << labs[j] { self.dom[i * n + j] = 1u128 << labs[j]; dirty |= 1 << (n + j); } }
        self.propagate(dirty)
    }
}
