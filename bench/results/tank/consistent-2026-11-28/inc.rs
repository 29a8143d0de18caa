//! Incremental GAC on every row and column automaton (edges killed and revived on a trail).
use crate::lines::Lines;

pub struct Graph {
    pub n: usize,
    pub nl: usize,          // labels
    pub cross: Vec<u8>,
    pub src: Vec<u32>, pub dst: Vec<u32>, pub lab: Vec<u8>, pub depth_of_edge: Vec<u8>,
    pub out_start: Vec<u32>, pub out_edges: Vec<u32>,
    pub in_start: Vec<u32>, pub in_edges: Vec<u32>,
    /// edges at (depth, label): by_dl[(d*nl+l)] range into dl_edges
    pub dl_start: Vec<u32>, pub dl_edges: Vec<u32>,
    pub nodes: usize, pub root: usize, pub sink: usize,
    pub labels: Vec<(u8,u8)>,
}

impl Graph {
    pub fn new(l: &Lines) -> Graph {
        let n = l.n; let nl = l.labels.len(); let nodes = l.nodes();
        let mut depth = vec![usize::MAX; nodes]; depth[0] = 0;
        let mut order = vec![0usize]; let mut k = 0;
        let (mut src, mut dst, mut lab, mut de) = (vec![], vec![], vec![], vec![]);
        while k < order.len() { let u = order[k]; k += 1;
            let mut m = l.mask[u]; while m != 0 { let x = m.trailing_zeros() as usize; m &= m-1; let c = l.child(u, x).unwrap();
                if depth[c] == usize::MAX { depth[c] = depth[u] + 1; order.push(c); }
                src.push(u as u32); dst.push(c as u32); lab.push(x as u8); de.push(depth[u] as u8); } }
        let sink = *order.iter().find(|&&u| depth[u] == n).unwrap();
        let e = src.len();
        let group = |key: &dyn Fn(usize) -> usize, nk: usize| { let mut st = vec![0u32; nk + 1]; for i in 0..e { st[key(i) + 1] += 1; } for i in 0..nk { st[i+1] += st[i]; } let mut pos = st.clone(); let mut out = vec![0u32; e]; for i in 0..e { let kk = key(i); out[pos[kk] as usize] = i as u32; pos[kk] += 1; } (st, out) };
        let (out_start, out_edges) = group(&|i| src[i] as usize, nodes);
        let (in_start, in_edges) = group(&|i| dst[i] as usize, nodes);
        let (dl_start, dl_edges) = group(&|i| de[i] as usize * nl + lab[i] as usize, n * nl);
        Graph { n, nl, cross: l.cross.clone(), src, dst, lab, depth_of_edge: de, out_start, out_edges, in_start, in_edges, dl_start, dl_edges, nodes, root: 0, sink, labels: l.labels.clone() }
    }
}

#[derive(Clone)]
pub struct Engine<'g> {
    g: &'g Graph,
    n: usize,
    /// per line: alive edge bits, out/in counts, support counts per (pos, label)
    alive: Vec<u64>, outc: Vec<u16>, inc: Vec<u16>, sup: Vec<u32>,
    words: usize,
    trail: Vec<(u8, u32)>,
    pub dom: Vec<u128>,           // row-label terms, per cell
    queue: Vec<(u8, u8, u8)>,     // (line, pos, label) to remove
    pub nodes: u64, pub count: u64, pub kills: u64,
}

impl<'g> Engine<'g> {
    pub fn new(g: &'g Graph) -> Self {
        let n = g.n; let e = g.src.len(); let words = e.div_ceil(64);
        let lines = 2 * n;
        let mut alive = vec![0u64; lines * words];
        for li in 0..lines { for i in 0..e { alive[li * words + i / 64] |= 1 << (i % 64); } }
        let mut outc = vec![0u16; lines * g.nodes]; let mut inc = vec![0u16; lines * g.nodes];
        let mut sup = vec![0u32; lines * n * g.nl];
        for li in 0..lines { for i in 0..e { outc[li * g.nodes + g.src[i] as usize] += 1; inc[li * g.nodes + g.dst[i] as usize] += 1; sup[(li * n + g.depth_of_edge[i] as usize) * g.nl + g.lab[i] as usize] += 1; } }
        let all = if g.nl == 128 { u128::MAX } else { (1u128 << g.nl) - 1 };
        let mut dom = vec![all; n * n];
        // labels with no edge at a position are out of the domain from the start
        let mut s = Engine { g, n, alive, outc, inc, sup, words, trail: Vec::new(), dom: vec![], queue: Vec::new(), nodes: 0, count: 0, kills: 0 };
        for c in 0..n * n { let (i, j) = (c / n, c % n); let mut m = 0u128; for l in 0..g.nl { if s.sup[(i * n + j) * g.nl + l] > 0 && s.sup[((n + j) * n + i) * g.nl + g.cross[l] as usize] > 0 { m |= 1 << l; } } dom[c] = m; }
        s.dom = dom;
        // remove from each line the labels the crossing line lacks
        for c in 0..n * n { let (i, j) = (c / n, c % n); for l in 0..g.nl { if s.dom[c] >> l & 1 == 0 {
            if s.sup[(i * n + j) * g.nl + l] > 0 { s.queue.push((i as u8, j as u8, l as u8)); }
            let xl = g.cross[l] as usize; if s.sup[((n + j) * n + i) * g.nl + xl] > 0 { s.queue.push(((n + j) as u8, i as u8, xl as u8)); } } } }
        s
    }
    #[inline] fn is_alive(&self, li: usize, e: usize) -> bool { self.alive[li * self.words + e / 64] >> (e % 64) & 1 == 1 }
    fn kill(&mut self, li: usize, e: usize) {
        // iterative to avoid deep recursion
        let mut stack: Vec<u32> = vec![e as u32];
        let g = self.g; let nn = g.nodes; let n = self.n;
        while let Some(e) = stack.pop() {
            let e = e as usize;
            if !self.is_alive(li, e) { continue; }
            self.alive[li * self.words + e / 64] &= !(1 << (e % 64));
            self.trail.push((li as u8, e as u32)); self.kills += 1;
            let (u, v) = (g.src[e] as usize, g.dst[e] as usize);
            let s = &mut self.sup[(li * n + g.depth_of_edge[e] as usize) * g.nl + g.lab[e] as usize];
            *s -= 1;
            if *s == 0 { self.queue_removal(li, g.depth_of_edge[e] as usize, g.lab[e] as usize); }
            let o = &mut self.outc[li * nn + u]; *o -= 1;
            if *o == 0 && u != g.root { for k in g.in_start[u]..g.in_start[u + 1] { let f = g.in_edges[k as usize] as usize; if self.is_alive(li, f) { stack.push(f as u32); } } }
            let ic = &mut self.inc[li * nn + v]; *ic -= 1;
            if *ic == 0 && v != g.sink { for k in g.out_start[v]..g.out_start[v + 1] { let f = g.out_edges[k as usize] as usize; if self.is_alive(li, f) { stack.push(f as u32); } } }
        }
    }
    /// label at (line, pos) lost its last support: take it from the cell and the crossing line
    fn queue_removal(&mut self, li: usize, pos: usize, l: usize) {
        let n = self.n;
        let (cell, rl) = if li < n { (li * n + pos, l) } else { (pos * n + (li - n), self.g.cross[l] as usize) };
        if self.dom[cell] >> rl & 1 == 1 {
            self.dom[cell] &= !(1u128 << rl);
            // the crossing line
            if li < n { self.queue.push(((n + pos) as u8, li as u8, self.g.cross[l])); } else { self.queue.push((pos as u8, (li - n) as u8, self.g.cross[l])); }
        }
    }
    /// Removes label l at (line, pos) from that line's graph.
    fn remove(&mut self, li: usize, pos: usize, l: usize) {
        let g = self.g; let key = pos * g.nl + l;
        for k in g.dl_start[key]..g.dl_start[key + 1] { let e = g.dl_edges[k as usize] as usize; if self.is_alive(li, e) { self.kill(li, e); } }
    }
    /// Runs the queue; false on a wipe-out.
    pub fn fix(&mut self) -> bool {
        while let Some((li, pos, l)) = self.queue.pop() {
            self.remove(li as usize, pos as usize, l as usize);
            if self.inc[li as usize * self.g.nodes + self.g.sink] == 0 { self.queue.clear(); return false; }
        }
        true
    }
    /// Assigns cell to row label l (removes the others).
    pub fn assign(&mut self, cell: usize, l: usize) -> bool {
        let n = self.n; let (i, j) = (cell / n, cell % n);
        let mut m = self.dom[cell] & !(1u128 << l);
        while m != 0 { let x = m.trailing_zeros() as usize; m &= m - 1;
            self.dom[cell] &= !(1u128 << x);
            self.queue.push((i as u8, j as u8, x as u8)); self.queue.push(((n + j) as u8, i as u8, self.g.cross[x])); }
        self.fix()
    }
    pub fn trail_len(&self) -> usize { self.trail.len() }
    pub fn undo(&mut self, mark: usize) {
        let g = self.g; let nn = g.nodes; let n = self.n;
        while self.trail.len() > mark {
            let (li, e) = self.trail.pop().unwrap(); let (li, e) = (li as usize, e as usize);
            self.alive[li * self.words + e / 64] |= 1 << (e % 64);
            self.sup[(li * n + g.depth_of_edge[e] as usize) * g.nl + g.lab[e] as usize] += 1;
            self.outc[li * nn + g.src[e] as usize] += 1; self.inc[li * nn + g.dst[e] as usize] += 1;
        }
    }
    pub fn search(&mut self, on_board: &mut dyn FnMut(&[u128])) {
        self.nodes += 1;
        let n = self.n;
        let mut best = usize::MAX; let mut bc = u32::MAX;
        for c in 0..n * n { let k = self.dom[c].count_ones(); if k > 1 && k < bc { bc = k; best = c; } }
        if best == usize::MAX { self.count += 1; on_board(&self.dom); return; }
        let saved = self.dom.clone(); let mark = self.trail.len();
        let mut m = saved[best];
        while m != 0 {
            let lab = m.trailing_zeros() as usize; m &= m - 1;
            if self.assign(best, lab) { self.search(on_board); }
            self.undo(mark); self.dom.copy_from_slice(&saved);
        }
    }
}
