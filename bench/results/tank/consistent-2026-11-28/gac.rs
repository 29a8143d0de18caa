use crate::lines::Lines;

pub struct Gac<'a> {
    l: &'a Lines,
    n: usize,
    xtab: Vec<[u128; 256]>,
    mark: Vec<u32>,
    alive: Vec<u32>,
    stamp: u32,
    layers: Vec<Vec<u32>>,
    pub nodes: u64,
    pub count: u64,
    pub passes: u64,
    pub rounds: u32,
}

impl<'a> Gac<'a> {
    pub fn new(l: &'a Lines) -> Self {
        let n = l.n;
        let mut xtab = vec![[0u128; 256]; 16];
        for (k, t) in xtab.iter_mut().enumerate() {
            for b in 0..256usize {
                let mut o = 0u128;
                for bit in 0..8 {
                    if b >> bit & 1 == 1 {
                        let lab = k * 8 + bit;
                        if lab < l.labels.len() { o |= 1u128 << l.cross[lab]; }
                    }
                }
                t[b] = o;
            }
        }
        Gac { l, n, xtab, mark: vec![0; l.nodes()], alive: vec![0; l.nodes()], stamp: 0, layers: vec![Vec::new(); n + 1], nodes: 0, count: 0, passes: 0, rounds: 1000 }
    }
    #[inline]
    fn xs(&self, m: u128) -> u128 {
        let mut o = 0u128;
        let mut m = m; let mut k = 0;
        while m != 0 { o |= self.xtab[k][(m & 0xff) as usize]; m >>= 8; k += 1; }
        o
    }
    /// Supports of the labels of one line; false if none.
    fn line(&mut self, d: &[u128], sup: &mut [u128]) -> bool {
        self.passes += 1;
        let l = self.l; let n = self.n;
        self.stamp += 2;
        let (fw, bw) = (self.stamp, self.stamp + 1);
        self.layers[0].clear(); self.layers[0].push(0);
        for k in 0..n {
            let (a, b) = self.layers.split_at_mut(k + 1);
            let (cur, next) = (&a[k], &mut b[0]);
            next.clear();
            for &u in cur.iter() {
                let u = u as usize;
                let mut m = l.mask[u] & d[k];
                while m != 0 {
                    let lab = m.trailing_zeros() as usize; m &= m - 1;
                    let c = l.child(u, lab).unwrap();
                    if self.mark[c] != fw { self.mark[c] = fw; next.push(c as u32); }
                }
            }
            if next.is_empty() { return false; }
        }
        for &u in &self.layers[n] { self.alive[u as usize] = bw; }
        for k in (0..n).rev() {
            let mut s = 0u128;
            for &u in &self.layers[k] {
                let u = u as usize;
                let mut m = l.mask[u] & d[k];
                let mut ok = false;
                while m != 0 {
                    let lab = m.trailing_zeros() as usize; m &= m - 1;
                    let c = l.child(u, lab).unwrap();
                    if self.alive[c] == bw { s |= 1u128 << lab; ok = true; }
                }
                if ok { self.alive[u] = bw; }
            }
            sup[k] = s;
        }
        true
    }
    /// Propagates to a fixpoint from the dirty lines (bits 0..n rows, n..2n columns).
    pub fn propagate(&mut self, dom: &mut [u128], mut dirty: u64) -> bool {
        let n = self.n;
        let mut d = [0u128; 16]; let mut s = [0u128; 16];
        let mut round = 0; let mut next: u64 = 0;
        loop {
          if dirty == 0 { if next == 0 || round >= self.rounds { break; } dirty = next; next = 0; round += 1; }
            let line = dirty.trailing_zeros() as usize; dirty &= dirty - 1;
            if line < n {
                let i = line;
                d[..n].copy_from_slice(&dom[i * n..i * n + n]);
                if !self.line(&d[..n], &mut s[..n]) { return false; }
                for j in 0..n { if s[j] != dom[i * n + j] { dom[i * n + j] = s[j]; next |= 1 << (n + j); } }
            } else {
                let j = line - n;
                for i in 0..n { d[i] = self.xs(dom[i * n + j]); }
                if !self.line(&d[..n], &mut s[..n]) { return false; }
                for i in 0..n { let x = self.xs(s[i]); if x != dom[i * n + j] { dom[i * n + j] = x; next |= 1 << i; } }
            }
        }
        true
    }
    pub fn search(&mut self, dom: &mut Vec<u128>, on_board: &mut dyn FnMut(&[u128])) {
        self.nodes += 1;
        let n = self.n;
        // the unassigned cell with fewest labels
        let mut best = usize::MAX; let mut bc = u32::MAX;
        for c in 0..n * n { let k = dom[c].count_ones(); if k > 1 && k < bc { bc = k; best = c; } }
        if best == usize::MAX { self.count += 1; on_board(dom); return; }
        let (i, j) = (best / n, best % n);
        let mut m = dom[best];
        let saved = dom.clone();
        while m != 0 {
            let lab = m.trailing_zeros(); m &= m - 1;
            dom[best] = 1u128 << lab;
            if self.propagate(dom, 1 << i | 1 << (n + j)) { self.search(dom, on_board); }
            dom.copy_from_slice(&saved);
        }
    }
}
impl<'a> Gac<'a> {
    /// One random dive; returns the estimate of the tree size (Knuth).
    pub fn dive(&mut self, dom: &mut Vec<u128>, rng: &mut u64) -> f64 {
        let n = self.n;
        let mut est = 1.0f64; let mut prod = 1.0f64;
        loop {
            let mut best = usize::MAX; let mut bc = u32::MAX;
            for c in 0..n * n { let k = dom[c].count_ones(); if k > 1 && k < bc { bc = k; best = c; } }
            if best == usize::MAX { return est; }
            let (i, j) = (best / n, best % n);
            let saved = dom.clone();
            let mut kids: Vec<Vec<u128>> = Vec::new();
            let mut m = saved[best];
            while m != 0 { let lab = m.trailing_zeros(); m &= m - 1; dom.copy_from_slice(&saved); dom[best] = 1u128 << lab;
                if self.propagate(dom, 1 << i | 1 << (n + j)) { kids.push(dom.clone()); } }
            if kids.is_empty() { return est; }
            prod *= kids.len() as f64; est += prod;
            *rng ^= *rng << 13; *rng ^= *rng >> 7; *rng ^= *rng << 17;
            let k = (*rng % kids.len() as u64) as usize;
            dom.copy_from_slice(&kids[k]);
        }
    }
}
