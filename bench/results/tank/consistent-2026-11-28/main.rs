mod lines;
mod gac;
mod inc;
mod ct;
mod hyb;
use lines::Lines;
use std::time::Instant;

fn cross_set(l: &Lines, m: u128) -> u128 { let mut o = 0u128; let mut b = m; while b != 0 { let x = b.trailing_zeros() as usize; b &= b-1; o |= 1u128 << l.cross[x]; } o }

struct S<'a> { n: usize, l: &'a Lines, aheadx: Vec<u128>, row: Vec<usize>, col: Vec<usize>, nodes: Vec<u64>, count: u64,
  memo: bool, full: bool, relax: bool, every: bool, wit: Vec<[u8;16]>, witness: bool, researches: u64, byoff: Vec<u64>, dead: Vec<Vec<u32>>, stamp: Vec<u32>, seen: Vec<u32>, gen: u32, kills: u64, checks: u64 }

impl<'a> S<'a> {
    // Is there a path for row i' through masks cross(ahead[col_j][i'])?
    fn row_exists(&mut self, ip: usize) -> bool {
        let n = self.n;
        self.gen += 1;
        let mut masks = [0u128; 16];
        for j in 0..n { masks[j] = self.aheadx[self.col[j] * n + ip]; }
        self.path(0, 0, &masks, ip)
    }
    fn path(&mut self, node: usize, d: usize, masks: &[u128; 16], ip: usize) -> bool {
        if d == self.n { return true; }
        if self.seen[node] == self.gen { return false; }
        let l = self.l;
        let mut m = l.mask[node] & masks[d];
        while m != 0 { let lab = m.trailing_zeros() as usize; m &= m-1;
            if self.path(l.child(node, lab).unwrap(), d+1, masks, ip) { self.wit[ip][d] = lab as u8; return true; } }
        self.seen[node] = self.gen; false
    }
    // Full GAC fixpoint over every line; true if consistent.
    fn gac(&mut self, cell: usize) -> bool {
        let n = self.n; let l = self.l;
        // domains in row-label terms for cells >= cell
        let mut dom = vec![u128::MAX; n*n];
        for c in 0..n*n { if c >= cell { dom[c] = l.ahead[0 * n + c % n]; } }
        // fixed cells are not in the domain (their effect is in the nodes)
        loop {
            let mut changed = false;
            // rows
            for ip in cell / n..n {
                let start_d = if ip == cell / n { cell % n } else { 0 };
                let start = if ip == cell / n { self.row[ip] } else { 0 };
                let ds: Vec<u128> = (start_d..n).map(|d| dom[ip*n+d]).collect();
                let sup = support(l, start, &ds);
                match sup { None => return false, Some(sup) => for (k, d) in (start_d..n).enumerate() { if sup[k] != dom[ip*n+d] { dom[ip*n+d] = sup[k]; changed = true; } } }
            }
            // columns
            for j in 0..n {
                let first_row = if j >= cell % n { cell / n } else { cell / n + 1 };
                if first_row >= n { continue; }
                let ds: Vec<u128> = (first_row..n).map(|ip| cross_set(l, dom[ip*n+j])).collect();
                let sup = support(l, self.col[j], &ds);
                match sup { None => return false, Some(sup) => for (k, ip) in (first_row..n).enumerate() { let x = cross_set(l, sup[k]); if x != dom[ip*n+j] { dom[ip*n+j] = x; changed = true; } } }
            }
            if !changed { return true; }
        }
    }
    fn go(&mut self, cell: usize) -> bool {
        let n = self.n; let l = self.l;
        self.nodes[cell] += 1;
        if cell == n * n { self.count += 1; return true; }
        let (i, j) = (cell / n, cell % n);
        if j == 0 && cell > 0 {
            if self.relax { self.checks += 1; for ip in i..n { if !self.row_exists(ip) { self.kills += 1; self.byoff[ip-i]+=1; return true; } } }
            self.stamp[i] += 1;
            self.go2(cell);
            return true;
        }
        self.go2(cell)
    }
    fn go2(&mut self, cell: usize) -> bool {
        let n = self.n; let l = self.l;
        let (i, j) = (cell / n, cell % n);
        let (r, c) = (self.row[i], self.col[j]);
        if self.memo && self.dead[i][r] == self.stamp[i] { return false; }
        let mut ok = false;
        let mut m = l.mask[r] & l.crossing[c];
        while m != 0 {
            let lab = m.trailing_zeros() as usize; m &= m - 1;
            let rc = l.child(r, lab).unwrap();
            let cc = l.child(c, l.cross[lab] as usize).unwrap();
            if (j + 1..n).any(|d| l.ahead[rc * n + d] & l.crossing[self.col[d]] == 0) { continue; }
            self.row[i] = rc; self.col[j] = cc;
            if self.full && cell + 1 < n*n {
                self.checks += 1;
                if !self.gac(cell + 1) { self.kills += 1; self.row[i] = r; self.col[j] = c; continue; }
            }
            if self.every && j + 1 < n {
                self.checks += 1;
                let mut dead = false;
                for ip in i+1..n {
                    if self.witness && (self.aheadx[cc * n + ip] >> self.wit[ip][j]) & 1 == 1 { continue; }
                    self.researches += 1;
                    if !self.row_exists(ip) { self.kills += 1; self.byoff[ip-i]+=1; dead = true; break; } }
                if dead { self.row[i] = r; self.col[j] = c; continue; }
            }
            ok |= self.go(cell + 1);
            self.row[i] = r; self.col[j] = c;
        }
        if !ok { self.dead[i][r] = self.stamp[i]; }
        ok
    }
}

fn firsts(l: &Lines, n: usize, node: usize, d: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if d == n { out.push(cur.clone()); return; }
    let mut m = l.mask[node] & l.crossing[0];
    while m != 0 { let lab = m.trailing_zeros() as usize; m &= m-1;
        cur.push(lab); firsts(l, n, l.child(node, lab).unwrap(), d+1, cur, out); cur.pop(); }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a[1].parse().unwrap();
    let step: usize = a[2].parse().unwrap();
    if a[3]=="gac" {
        let l = Lines::new(n); let mut g = gac::Gac::new(&l);
        let t = Instant::now();
        let mut dom = vec![u128::MAX >> (128 - l.labels.len()); n*n];
        let all: u64 = (1u64 << (2*n)) - 1;
        if g.propagate(&mut dom, all) { g.search(&mut dom, &mut |_b| {}); }
        println!("gac n {n} count {} nodes {} passes {} time {:.2}", g.count, g.nodes, g.passes, t.elapsed().as_secs_f64());
        return;
    }
    if a[3]=="gacs" {
        let l = Lines::new(n); let mut g = gac::Gac::new(&l); g.rounds = a.get(4).map(|x| x.parse().unwrap()).unwrap_or(1000);
        let mut fs = Vec::new(); firsts(&l, n, 0, 0, &mut vec![], &mut fs);
        let t = Instant::now(); let mut done = 0;
        for f in fs.iter().step_by(step) {
            let mut dom = vec![u128::MAX >> (128 - l.labels.len()); n*n];
            for j in 0..n { dom[j] = 1u128 << f[j]; }
            let all: u64 = (1u64 << (2*n)) - 1;
            if g.propagate(&mut dom, all) { g.search(&mut dom, &mut |_b| {}); }
            done += 1;
        }
        println!("gacs n {n} step {step} done {done} count {} nodes {} passes {} time {:.2}", g.count, g.nodes, g.passes, t.elapsed().as_secs_f64());
        return;
    }
    if a[3]=="knuth" {
        let l = Lines::new(n); let mut g = gac::Gac::new(&l);
        let t = Instant::now(); let mut rng = 88172645463325252u64; let mut sum = 0.0; let mut v = Vec::new();
        let mut root = vec![u128::MAX >> (128 - l.labels.len()); n*n];
        let all: u64 = (1u64 << (2*n)) - 1; g.propagate(&mut root, all);
        for k in 0..step { let mut dom = root.clone(); let e = g.dive(&mut dom, &mut rng); sum += e; v.push(e); if (k+1) % 50 == 0 { println!("{} dives: mean {:.3e}", k+1, sum / (k+1) as f64); } }
        v.sort_by(|a,b| a.partial_cmp(b).unwrap());
        println!("knuth n {n} dives {step} mean {:.3e} median {:.3e} max {:.3e} passes {} time {:.2}", sum / step as f64, v[v.len()/2], v[v.len()-1], g.passes, t.elapsed().as_secs_f64());
        return;
    }
    if a[3]=="inc" {
        let l = Lines::new(n); let g = inc::Graph::new(&l);
        let t = Instant::now();
        let mut e = inc::Engine::new(&g);
        let ok = e.fix();
        println!("root ok {ok} {:.3}s edges {}", t.elapsed().as_secs_f64(), g.src.len());
        if ok { e.search(&mut |_b| {}); }
        println!("inc n {n} count {} nodes {} kills {} time {:.2}", e.count, e.nodes, e.kills, t.elapsed().as_secs_f64());
        return;
    }
    if a[3]=="incs" {
        let l = Lines::new(n); let g = inc::Graph::new(&l);
        let mut fs = Vec::new(); firsts(&l, n, 0, 0, &mut vec![], &mut fs);
        let t = Instant::now();
        let mut e = inc::Engine::new(&g); assert!(e.fix());
        let mut done = 0;
        for f in fs.iter().step_by(step) {
            let mark = e.trail_len(); let saved = e.dom.clone();
            let mut ok = true;
            for j in 0..n { if ok && e.dom[j] >> f[j] & 1 == 1 { ok = e.assign(j, f[j]); } else { ok = false; } }
            if ok { e.search(&mut |_b| {}); }
            e.undo(mark); e.dom.copy_from_slice(&saved); done += 1;
        }
        println!("incs n {n} step {step} done {done} count {} nodes {} kills {} time {:.2}", e.count, e.nodes, e.kills, t.elapsed().as_secs_f64());
        return;
    }
    if a[3]=="ct" || a[3]=="cts" {
        let l = Lines::new(n); let t0 = Instant::now(); let tb = ct::Table::new(&l);
        println!("table {} lines {} words {:.2}s", tb.lines, tb.w, t0.elapsed().as_secs_f64());
        let t = Instant::now();
        let mut e = ct::Ct::new(&tb);
        let all: u64 = (1u64 << (2*n)) - 1;
        assert!(e.propagate(all));
        if a[3] == "ct" { e.search(&mut |_b| {}); } else {
            let mut fs = Vec::new(); firsts(&l, n, 0, 0, &mut vec![], &mut fs);
            for f in fs.iter().step_by(step) {
                let saved = e.dom.clone();
                let mut ok = true; for j in 0..n { if e.dom[j] >> f[j] & 1 == 0 { ok = false; } }
                if ok { for j in 0..n { e.dom[j] = 1u128 << f[j]; } }
                // run a search on a clone to keep it simple
                if ok { let mut c = ct::Ct::new(&tb); c.dom.copy_from_slice(&e.dom); if c.propagate(all) { c.search(&mut |_b| {}); } e.nodes += c.nodes; e.count += c.count; e.updates += c.updates; e.wordops += c.wordops; e.orops += c.orops; e.resmiss += c.resmiss; e.scans += c.scans; }
                e.dom.copy_from_slice(&saved);
            }
        }
        println!("orops {} resmiss {} scans {}", e.orops, e.resmiss, e.scans); println!("{} n {n} count {} nodes {} updates {} wordops {} time {:.2}", a[3], e.count, e.nodes, e.updates, e.wordops, t.elapsed().as_secs_f64());
        return;
    }
    if a[3]=="hyb" {
        let l = Lines::new(n); let tb = ct::Table::new(&l);
        let every: usize = a.get(4).map(|x| x.parse().unwrap()).unwrap_or(1);
        let t = Instant::now();
        let mut fs = Vec::new(); firsts(&l, n, 0, 0, &mut vec![], &mut fs);
        let mut e = ct::Ct::new(&tb); assert!(e.propagate((1u64 << (2*n)) - 1));
        let mut h = hyb::H { n, l: &l, ct: e, row: vec![0; n], col: vec![0; n], labs: vec![0; n*n], nodes: 0, gacs: 0, kills: 0, every };
        let mut done = 0;
        for f in fs.iter().step_by(step) {
            let s0 = h.ct.save();
            h.row.fill(0); h.col.fill(0);
            for (j, &lab) in f.iter().enumerate() { h.row[0] = l.child(h.row[0], lab).unwrap(); h.col[j] = l.child(0, l.cross[lab] as usize).unwrap(); h.labs[j] = lab; }
            h.go(n); h.ct.restore(&s0); done += 1;
        }
        println!("hyb n {n} step {step} every {every} done {done} nodes {} gacs {} kills {} time {:.2}", h.nodes, h.gacs, h.kills, t.elapsed().as_secs_f64());
        return;
    }
    if a[3]=="giv" {
        // step = number of givens (every k-th cell of the board file b8.txt)
        let b: Vec<u32> = std::fs::read_to_string("/tmp/tx/b8.txt").unwrap().split_whitespace().map(|x| x.parse().unwrap()).collect();
        let l = Lines::new(n); let t0 = Instant::now(); let tb = ct::Table::new(&l);
        println!("table {} lines {} words {:.2}s", tb.lines, tb.w, t0.elapsed().as_secs_f64());
        let t = Instant::now();
        let mut e = ct::Ct::new(&tb);
        let mut rng = 12345u64; let mut cells: Vec<usize> = (0..n*n).collect();
        for k in (1..cells.len()).rev() { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; cells.swap(k, (rng % (k as u64 + 1)) as usize); }
        for &c in cells.iter().take(step) { let mut m = 0u128; for x in 0..l.labels.len() { if l.labels[x].0 as u32 == b[c] { m |= 1 << x; } } e.dom[c] &= m; }
        let all: u64 = (1u64 << (2*n)) - 1;
        let mut boards = 0;
        if e.propagate(all) { e.search(&mut |_b| { boards += 1; }); }
        println!("giv n {n} givens {step} count {} nodes {} updates {} time {:.2}", e.count, e.nodes, e.updates, t.elapsed().as_secs_f64());
        return;
    }
    if a[3]=="classes" { classes(&Lines::new(n), n); return; }
    let memo = a[3].contains('m'); let every = a[3].contains('e'); let full = a[3].contains('f'); let witness = a[3].contains('w'); let relax = a[3].contains('r');
    let l = Lines::new(n);
    let aheadx: Vec<u128> = l.ahead.iter().map(|&m| cross_set(&l, m)).collect();
    let mut fs = Vec::new(); firsts(&l, n, 0, 0, &mut vec![], &mut fs);
    let nn = l.nodes();
    let mut s = S { n, l: &l, aheadx, row: vec![0; n], col: vec![0; n], nodes: vec![0; n*n+1], count: 0, memo, full, relax, every, byoff: vec![0;n], wit: vec![[0u8;16]; n], witness, researches: 0,
       dead: vec![vec![0; nn]; n], stamp: vec![1; n], seen: vec![0; nn], gen: 0, kills: 0, checks: 0 };
    let t = Instant::now(); let mut done = 0;
    for f in fs.iter().step_by(step) {
        s.row.fill(0); s.col.fill(0);
        for (j, &lab) in f.iter().enumerate() { s.row[0] = l.child(s.row[0], lab).unwrap(); s.col[j] = l.child(0, l.cross[lab] as usize).unwrap(); }
        s.go(n); done += 1;
    }
    let tot: u64 = s.nodes.iter().sum();
    println!("{:?} researches {}", s.byoff, s.researches); println!("n {n} step {step} {} done {done} count {} nodes {} time {:.2} checks {} kills {}", a[3], s.count, tot, t.elapsed().as_secs_f64(), s.checks, s.kills);
    for i in 0..n { let r: u64 = s.nodes[i*n..(i+1)*n].iter().sum(); print!("row{i}:{:.3} ", r as f64 / tot as f64); } println!();
}
#[allow(dead_code)]
pub fn classes(l: &Lines, n: usize) {
    // depth of each node
    let mut depth = vec![0usize; l.nodes()];
    let mut stack = vec![0usize]; let mut seen = vec![false; l.nodes()]; seen[0]=true;
    while let Some(u) = stack.pop() { let mut m = l.mask[u]; while m!=0 { let lab = m.trailing_zeros() as usize; m&=m-1; let c = l.child(u,lab).unwrap(); if !seen[c] { seen[c]=true; depth[c]=depth[u]+1; stack.push(c);} } }
    for i in 0..n { for ip in i..n { let mut set = std::collections::HashSet::new(); let mut cnt=0; for u in 0..l.nodes() { if depth[u]==i { cnt+=1; set.insert(l.ahead[u*n+ip]); } } print!("{}->{}: {}/{}  ", i, ip, set.len(), cnt); } println!(); }
}

/// Labels of each position on some path from `start` through the domains; None if no path.
fn support(l: &Lines, start: usize, ds: &[u128]) -> Option<Vec<u128>> {
    let k = ds.len();
    let mut layers: Vec<Vec<usize>> = vec![vec![start]];
    for d in 0..k { let mut next = Vec::new(); for &u in &layers[d] { let mut m = l.mask[u] & ds[d]; while m != 0 { let lab = m.trailing_zeros() as usize; m &= m-1; let c = l.child(u, lab).unwrap(); if !next.contains(&c) { next.push(c); } } } layers.push(next); }
    if layers[k].is_empty() { return None; }
    let mut alive: Vec<usize> = layers[k].clone();
    let mut sup = vec![0u128; k];
    for d in (0..k).rev() { let mut prev = Vec::new(); for &u in &layers[d] { let mut m = l.mask[u] & ds[d]; let mut ok = false; while m != 0 { let lab = m.trailing_zeros() as usize; m &= m-1; let c = l.child(u, lab).unwrap(); if alive.contains(&c) { sup[d] |= 1u128 << lab; ok = true; } } if ok { prev.push(u); } } alive = prev; }
    Some(sup)
}
