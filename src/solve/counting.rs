//! Cardinality rows checked by counting during search, in place of an encoding: a
//! [`Watcher`] that keeps, for each row `lo ≤ Σ lits ≤ hi`, the literals made true and false
//! so far. When `hi` are true, every other literal of the row is false; when all but `lo`
//! are false, the rest are true; either propagation names its reason (the literals counted),
//! and a row broken by an assignment is handed back as a clause at once. A row may have a
//! guard: it holds only while its guard is true, and its guard's negation joins every reason
//! it gives (explain's engine puts each reason group behind a selector).
//!
//! A model asks for it per family ([`crate::model::Model::counted`]): a row of a thousand
//! literals and bound 29 (Battleship's fleet on 30×20) is 30,000 totalizer clauses, most of
//! the engine, and the search spends its time propagating them. Counted rows are not in the
//! clause set, so a recorded run (DRAT certificates) encodes them as usual.

use super::Watcher;
use crate::model::{Lit, Var};

/// One counted row: `lo ≤ (true literals of lits) ≤ hi`, when `guard` (if any) is true.
#[derive(Clone)]
pub struct Row {
    pub lits: Vec<Lit>,
    pub lo: usize,
    pub hi: usize,
    pub guard: Option<Lit>,
}

/// Which row, and which of its literals, a variable's assignment touches.
#[derive(Clone, Copy)]
struct Occurrence {
    row: u32,
    /// The row's literal is the variable itself (not its negation).
    positive: bool,
    /// The variable is the row's guard, not one of its literals.
    guard: bool,
}

/// The rows, and what each has seen so far.
pub struct Counting {
    rows: Vec<Row>,
    /// Per variable (by index): its occurrences in rows.
    occurs: Vec<Vec<Occurrence>>,
    /// Per variable: 1 true, -1 false, 0 unassigned (as told).
    value: Vec<i8>,
    /// Per row: the row's literals made true, and made false, in the order told.
    trues: Vec<Vec<Lit>>,
    falses: Vec<Vec<Lit>>,
    /// Rows that reached a bound, to propagate from, each with the place in its literals
    /// to look on from.
    queue: Vec<(u32, u32)>,
    /// Per variable: the row whose bound forced it (valid while it stays assigned).
    forced_by: Vec<u32>,
}

impl Counting {
    pub fn new(rows: Vec<Row>) -> Counting {
        let n = rows
            .iter()
            .flat_map(|r| r.lits.iter().chain(&r.guard))
            .map(|l| l.var.index() + 1)
            .max()
            .unwrap_or(0);
        let mut occurs = vec![Vec::new(); n];
        for (r, row) in rows.iter().enumerate() {
            for l in &row.lits {
                occurs[l.var.index()].push(Occurrence {
                    row: r as u32,
                    positive: !l.negated,
                    guard: false,
                });
            }
            if let Some(g) = row.guard {
                occurs[g.var.index()].push(Occurrence {
                    row: r as u32,
                    positive: !g.negated,
                    guard: true,
                });
            }
        }
        let k = rows.len();
        Counting {
            rows,
            occurs,
            value: vec![0; n],
            trues: vec![Vec::new(); k],
            falses: vec![Vec::new(); k],
            queue: Vec::new(),
            forced_by: vec![0; n],
        }
    }

    fn value_of(&self, l: Lit) -> i8 {
        let v = self.value[l.var.index()];
        if l.negated {
            -v
        } else {
            v
        }
    }

    /// Whether row `r` holds now: it has no guard, or its guard is true.
    fn active(&self, r: usize) -> bool {
        self.rows[r].guard.is_none_or(|g| self.value_of(g) == 1)
    }

    /// The clause row `r` (active) breaks, if its counts so far break it ([`violated`]).
    fn breaks(&self, r: usize) -> Option<Vec<Lit>> {
        violated(&self.rows[r], &self.trues[r], &self.falses[r])
    }

    /// Whether row `r` (active) is at a bound, so that its open literals are forced.
    fn at_bound(&self, r: usize) -> bool {
        let row = &self.rows[r];
        self.trues[r].len() == row.hi
            || (row.lo > 0 && row.lits.len() - self.falses[r].len() == row.lo)
    }
}

/// The clause `row` breaks when `trues` of its literals are true and `falses` false, if they
/// break it: not all of the first `hi + 1` trues, or one of the first `n - lo + 1` falses
/// true; with its guard's negation.
fn violated(row: &Row, trues: &[Lit], falses: &[Lit]) -> Option<Vec<Lit>> {
    let mut clause: Vec<Lit> = if trues.len() > row.hi {
        trues[..=row.hi].iter().map(|&l| !l).collect()
    } else if row.lits.len() - falses.len() < row.lo {
        falses[..=row.lits.len() - row.lo].to_vec()
    } else {
        return None;
    };
    clause.extend(row.guard.map(|g| !g));
    Some(clause)
}

/// The first of `rows` that `assignment` (by variable index) breaks, as a clause it falsifies.
/// A row whose guard is false holds whatever its literals are.
pub fn broken(rows: &[Row], assignment: &[bool]) -> Option<Vec<Lit>> {
    rows.iter().find_map(|r| {
        if r.guard.is_some_and(|g| !g.value(assignment)) {
            return None;
        }
        let (t, f): (Vec<Lit>, Vec<Lit>) = r.lits.iter().partition(|l| l.value(assignment));
        violated(r, &t, &f)
    })
}

/// The variables whose lists (indexed by variable) are not empty.
fn listed<T>(lists: &[Vec<T>]) -> Vec<Var> {
    (0..lists.len())
        .filter(|&v| !lists[v].is_empty())
        .map(|v| Var(v as u32))
        .collect()
}

impl Watcher for Counting {
    fn watched(&self) -> Vec<Var> {
        listed(&self.occurs)
    }

    fn assign(&mut self, lit: Lit) -> Option<Vec<Lit>> {
        let v = lit.var.index();
        if v >= self.occurs.len() || self.occurs[v].is_empty() {
            return None;
        }
        self.value[v] = if lit.negated { -1 } else { 1 };
        let mut broken = None;
        for k in 0..self.occurs[v].len() {
            let o = self.occurs[v][k];
            let r = o.row as usize;
            let row_lit = Lit {
                var: lit.var,
                negated: !o.positive,
            };
            if o.guard {
                // The row starts to hold: it may be broken or at a bound already.
                if lit == row_lit {
                    if let Some(clause) = self.breaks(r) {
                        broken.get_or_insert(clause);
                    } else if self.at_bound(r) {
                        self.queue.push((o.row, 0));
                    }
                }
                continue;
            }
            let (lo, hi, n) = (self.rows[r].lo, self.rows[r].hi, self.rows[r].lits.len());
            // Whether the side this literal counts on has just reached its bound, and whether
            // it has passed it (each report of a broken row comes from the side that broke it:
            // the row's other literals, assigned before the solver backs off, report nothing).
            let (reached, passed) = if lit == row_lit {
                self.trues[r].push(row_lit);
                let t = self.trues[r].len();
                (t == hi, t > hi)
            } else {
                self.falses[r].push(row_lit);
                let open = n - self.falses[r].len();
                (lo > 0 && open == lo, open < lo)
            };
            // A guarded row whose guard is not true is only counted.
            if !self.active(r) {
                continue;
            }
            if passed {
                if broken.is_none() {
                    broken = self.breaks(r);
                }
            } else if reached {
                self.queue.push((o.row, 0));
            }
        }
        broken
    }

    fn undo(&mut self, lit: Lit) {
        let v = lit.var.index();
        if v >= self.occurs.len() || self.occurs[v].is_empty() {
            return;
        }
        self.value[v] = 0;
        for o in &self.occurs[v] {
            let r = o.row as usize;
            if o.guard {
                continue;
            }
            if lit.negated != o.positive {
                self.trues[r].pop();
            } else {
                self.falses[r].pop();
            }
        }
    }

    fn propagate(&mut self) -> Option<Lit> {
        while let Some(&(r, mut next)) = self.queue.last() {
            let row = &self.rows[r as usize];
            let at_hi = self.trues[r as usize].len() == row.hi;
            let at_lo = row.lo > 0 && row.lits.len() - self.falses[r as usize].len() == row.lo;
            let mut found = None;
            if (at_hi || at_lo) && self.active(r as usize) {
                // The next open literal of the row, made false (at its upper bound) or true.
                while let Some(&l) = row.lits.get(next as usize) {
                    next += 1;
                    if self.value_of(l) == 0 {
                        found = Some(l);
                        break;
                    }
                }
            }
            match found {
                Some(l) => {
                    self.queue.last_mut().expect("looked at").1 = next;
                    self.forced_by[l.var.index()] = r;
                    return Some(if at_hi { !l } else { l });
                }
                None => {
                    self.queue.pop();
                }
            }
        }
        None
    }

    fn reason(&mut self, lit: Lit) -> Vec<Lit> {
        let r = self.forced_by[lit.var.index()] as usize;
        let row = &self.rows[r];
        let mut out = vec![lit];
        // The literals counted when `lit` was forced: the first `hi` made true (or the
        // first n - lo made false), since the row's stacks only grow above them after.
        if row.lits.iter().any(|&l| l == !lit) {
            out.extend(self.trues[r][..row.hi].iter().map(|&l| !l));
        } else {
            let k = row.lits.len() - row.lo;
            out.extend(self.falses[r][..k].iter().copied());
        }
        out.extend(row.guard.map(|g| !g));
        out
    }
}

/// Several watchers as one (an engine takes one): each is told of its own variables, and
/// a propagation's reason is asked of the watcher that made it.
pub struct Watchers {
    all: Vec<Box<dyn Watcher>>,
    /// Per variable: the watchers told of it.
    told: Vec<Vec<u8>>,
    /// Per variable: the watcher that propagated it last.
    by: Vec<u8>,
}

impl Watchers {
    pub fn new(all: Vec<Box<dyn Watcher>>) -> Watchers {
        let mut told: Vec<Vec<u8>> = Vec::new();
        for (i, w) in all.iter().enumerate() {
            for v in w.watched() {
                if told.len() <= v.index() {
                    told.resize(v.index() + 1, Vec::new());
                }
                told[v.index()].push(i as u8);
            }
        }
        let n = told.len();
        Watchers {
            all,
            told,
            by: vec![0; n],
        }
    }
}

impl Watcher for Watchers {
    fn watched(&self) -> Vec<Var> {
        listed(&self.told)
    }

    fn assign(&mut self, lit: Lit) -> Option<Vec<Lit>> {
        let mut out = None;
        for &i in self.told.get(lit.var.index())? {
            if let Some(clause) = self.all[i as usize].assign(lit) {
                out.get_or_insert(clause);
            }
        }
        out
    }

    fn undo(&mut self, lit: Lit) {
        if let Some(ws) = self.told.get(lit.var.index()) {
            for &i in ws.iter().rev() {
                self.all[i as usize].undo(lit);
            }
        }
    }

    fn propagate(&mut self) -> Option<Lit> {
        for (i, w) in self.all.iter_mut().enumerate() {
            if let Some(l) = w.propagate() {
                self.by[l.var.index()] = i as u8;
                return Some(l);
            }
        }
        None
    }

    fn reason(&mut self, lit: Lit) -> Vec<Lit> {
        let i = self.by[lit.var.index()] as usize;
        self.all[i].reason(lit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(n: u32) -> Vec<Lit> {
        (0..n).map(|v| Var(v).pos()).collect()
    }

    #[test]
    fn at_the_upper_bound_the_rest_are_false_with_the_trues_as_reason() {
        let mut c = Counting::new(vec![Row {
            lits: lits(5),
            lo: 0,
            hi: 2,
            guard: None,
        }]);
        assert_eq!(c.assign(Var(0).pos()), None);
        assert_eq!(c.propagate(), None);
        assert_eq!(c.assign(Var(3).pos()), None);
        let p = c.propagate().expect("a literal forced false");
        assert!(p.negated);
        let reason = c.reason(p);
        assert_eq!(reason, vec![p, Var(0).negated(), Var(3).negated()]);
        // A third true breaks the row: the clause says "not all three".
        let broken = c.assign(Var(4).pos()).expect("the row is broken");
        assert_eq!(broken.len(), 3);
        assert!(broken.iter().all(|l| l.negated));
        c.undo(Var(4).pos());
        c.undo(Var(3).pos());
        c.queue.clear();
        assert_eq!(c.assign(Var(2).negated()), None);
        assert_eq!(c.propagate(), None);
    }

    #[test]
    fn at_the_lower_bound_the_rest_are_true() {
        let mut c = Counting::new(vec![Row {
            lits: vec![Var(0).pos(), Var(1).negated(), Var(2).pos()],
            lo: 2,
            hi: 3,
            guard: None,
        }]);
        // Var 1 true makes its (negated) literal false: two open, two needed.
        assert_eq!(c.assign(Var(1).pos()), None);
        let p = c.propagate().expect("forced");
        assert_eq!(p, Var(0).pos());
        assert_eq!(c.reason(p), vec![Var(0).pos(), Var(1).negated()]);
        assert_eq!(c.assign(Var(0).pos()), None);
        let q = c.propagate().expect("forced");
        assert_eq!(q, Var(2).pos());
        let broken = c.assign(Var(2).negated()).expect("broken");
        assert_eq!(broken, vec![Var(1).negated(), Var(2).pos()]);
    }

    #[test]
    fn a_broken_row_is_reported_by_the_side_that_broke_it_only() {
        // At most one of four: the second true breaks it.
        let mut c = Counting::new(vec![Row {
            lits: lits(4),
            lo: 0,
            hi: 1,
            guard: None,
        }]);
        assert_eq!(c.assign(Var(0).pos()), None);
        c.queue.clear();
        assert!(c.assign(Var(1).pos()).is_some());
        // Before the solver backs off, a false on the same row reports nothing again (a
        // repeated report is a repeated clause to the solver, and slowed explain by half).
        assert_eq!(c.assign(Var(2).negated()), None);
        // Another true does: it passes the bound itself.
        assert!(c.assign(Var(3).pos()).is_some());
    }

    #[test]
    fn broken_names_a_falsified_clause() {
        let rows = [Row {
            lits: lits(4),
            lo: 1,
            hi: 2,
            guard: None,
        }];
        let all_true = [true; 4];
        let clause = broken(&rows, &all_true).expect("four trues break at most two");
        assert!(clause.iter().all(|l| !l.value(&all_true)));
        let none = [false; 4];
        let clause = broken(&rows, &none).expect("none breaks at least one");
        assert!(clause.iter().all(|l| !l.value(&none)));
        assert_eq!(broken(&rows, &[true, false, true, false]), None);
    }

    #[test]
    fn a_guarded_row_holds_only_under_its_guard() {
        // At most one of vars 0..3, guarded by var 3.
        let guard = Var(3).pos();
        let mut c = Counting::new(vec![Row {
            lits: lits(3),
            lo: 0,
            hi: 1,
            guard: Some(guard),
        }]);
        // Unguarded: two trues break nothing and force nothing.
        assert_eq!(c.assign(Var(0).pos()), None);
        assert_eq!(c.propagate(), None);
        assert_eq!(c.assign(Var(1).pos()), None);
        assert_eq!(c.propagate(), None);
        // The guard comes true: the row is broken, and the clause names the guard.
        let clause = c.assign(guard).expect("broken under its guard");
        assert_eq!(clause, vec![Var(0).negated(), Var(1).negated(), !guard]);
        c.undo(guard);
        c.undo(Var(1).pos());
        c.queue.clear();
        // With one true, the guard's arrival forces the rest false, the guard in the reason.
        assert_eq!(c.assign(guard), None);
        let p = c.propagate().expect("forced under the guard");
        assert_eq!(p, Var(1).negated());
        assert_eq!(c.reason(p), vec![p, Var(0).negated(), !guard]);
        // The guard false: an assignment breaking the counts is no longer broken.
        let rows = [c.rows[0].clone()];
        assert_eq!(broken(&rows, &[true, true, false, false]), None);
        assert!(broken(&rows, &[true, true, false, true]).is_some());
    }
}
