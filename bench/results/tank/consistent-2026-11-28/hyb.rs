use crate::lines::Lines;
use crate::ct::Ct;
pub struct H<'a, 't> { pub n: usize, pub l: &'a Lines, pub ct: Ct<'t>, pub row: Vec<usize>, pub col: Vec<usize>, pub labs: Vec<usize>, pub nodes: u64, pub gacs: u64, pub kills: u64, pub every: usize }
impl<'a, 't> H<'a, 't> {
    pub fn go(&mut self, cell: usize) {
        let n = self.n; let l = self.l;
        self.nodes += 1;
        if cell == n * n { return; }
        let (i, j) = (cell / n, cell % n);
        if j == 0 && i >= 1 && i % self.every == 0 || (j == 0 && i == 1) {
            // GAC with the rows so far
            self.gacs += 1;
            let s = self.ct.save();
            let mut ok = true;
            for r in 0..i { let row: Vec<usize> = self.labs[r*n..(r+1)*n].to_vec(); if !self.ct.set_row(r, &row) { ok = false; break; } }
            if ok { self.go2(cell); } else { self.kills += 1; }
            self.ct.restore(&s);
            return;
        }
        self.go2(cell);
    }
    fn go2(&mut self, cell: usize) {
        let n = self.n; let l = self.l;
        let (i, j) = (cell / n, cell % n);
        let (r, c) = (self.row[i], self.col[j]);
        let mut m = l.mask[r] & l.crossing[c] & self.ct.dom[cell];
        while m != 0 {
            let lab = m.trailing_zeros() as usize; m &= m - 1;
            let rc = l.child(r, lab).unwrap();
            let cc = l.child(c, l.cross[lab] as usize).unwrap();
            if (j + 1..n).any(|d| l.ahead[rc * n + d] & l.crossing[self.col[d]] & self.ct.dom[i * n + d] == 0) { continue; }
            self.row[i] = rc; self.col[j] = cc; self.labs[cell] = lab;
            self.go(cell + 1);
            self.row[i] = r; self.col[j] = c;
        }
    }
}
