//! The 0-1 integer program: binary variables, literals, linear constraints with integer
//! coefficients and an optional linear objective. A model knows nothing about solvers; the
//! backends in [`crate::solve`] turn it into answers, and [`lp`] / [`opb`] write it out for
//! other solvers.

pub mod algebra;
pub mod change;
pub mod lp;
pub mod mps;
pub mod opb;
pub mod records;
pub mod symmetry;

use serde::Serialize;
use std::fmt;

/// A binary decision variable, an index into its model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

/// A variable or its negation (`1 - x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit {
    pub var: Var,
    pub negated: bool,
}

impl Var {
    pub fn index(self) -> usize {
        self.0 as usize
    }
    pub fn pos(self) -> Lit {
        Lit {
            var: self,
            negated: false,
        }
    }
    pub fn negated(self) -> Lit {
        Lit {
            var: self,
            negated: true,
        }
    }
}

impl From<Var> for Lit {
    fn from(v: Var) -> Lit {
        v.pos()
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit {
            var: self.var,
            negated: !self.negated,
        }
    }
}

impl Lit {
    /// The value of this literal under a full assignment of the model's variables.
    pub fn value(self, assignment: &[bool]) -> bool {
        assignment[self.var.index()] != self.negated
    }
}

/// The sense of a linear constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Sense {
    Le,
    Ge,
    Eq,
}

/// The sense as LP files write it (and the model's records).
impl fmt::Display for Sense {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sense::Le => "<=",
            Sense::Ge => ">=",
            Sense::Eq => "=",
        })
    }
}

/// `sum(coef * lit) sense rhs`, where a negated literal stands for `1 - x`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub terms: Vec<(i64, Lit)>,
    pub sense: Sense,
    pub rhs: i64,
    /// Which family of the formulation this row belongs to (e.g. "one value per cell").
    pub family: &'static str,
    /// The reason group this row belongs to ([`Model::groups`]), if any: what an explanation
    /// may cite. Rows of no group define auxiliary variables and always hold.
    pub group: Option<u32>,
}

impl Constraint {
    /// Whether a full assignment satisfies this row.
    pub fn holds(&self, assignment: &[bool]) -> bool {
        let lhs: i64 = self
            .terms
            .iter()
            .filter(|(_, l)| l.value(assignment))
            .map(|(c, _)| c)
            .sum();
        match self.sense {
            Sense::Le => lhs <= self.rhs,
            Sense::Ge => lhs >= self.rhs,
            Sense::Eq => lhs == self.rhs,
        }
    }

    /// The same row over variables only: negated literals become `-coef * x` with the
    /// constant moved to the right-hand side. Zero coefficients are dropped and repeated
    /// variables merged, so the result is what an LP file shows.
    pub fn over_vars(&self) -> (Vec<(i64, Var)>, i64) {
        let mut rhs = self.rhs;
        // Sorted by variable and merged in place: one allocation a row (a map per row made
        // sizing a 17-million-row model take seconds).
        let mut signed: Vec<(Var, i64)> = self
            .terms
            .iter()
            .map(|&(c, l)| {
                if l.negated {
                    rhs -= c;
                    (l.var, -c)
                } else {
                    (l.var, c)
                }
            })
            .collect();
        signed.sort_unstable_by_key(|t| t.0);
        let mut terms: Vec<(i64, Var)> = Vec::with_capacity(signed.len());
        for (v, c) in signed {
            match terms.last_mut() {
                Some(last) if last.1 == v => last.0 += c,
                _ => terms.push((c, v)),
            }
        }
        terms.retain(|&(c, _)| c != 0);
        (terms, rhs)
    }
}

/// What a reason group is, in an explanation: a given of the instance (a clue, a count) or a
/// rule of the puzzle; `Earlier` marks a conclusion of an earlier step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Given,
    Rule,
    Earlier,
}

/// A group of rows that a person names as one fact: "row 3 holds 4 ship cells" (a given),
/// "no two ships touch at the corner (4,5)" (a rule). Explanations cite groups, never rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Group {
    pub kind: Kind,
    /// Where it sits on the board, when it sits somewhere (a cell's clue; not the fleet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<crate::geometry::Place>,
    pub text: String,
}

/// Whether the objective is minimised or maximised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Minimise,
    Maximise,
}

/// A linear objective over literals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objective {
    pub direction: Direction,
    pub terms: Vec<(i64, Lit)>,
    /// A constant added to the sum.
    pub constant: i64,
}

impl Objective {
    /// The objective over variables only, as files write it: its terms (negated literals
    /// turned, repeated variables merged: [`Constraint::over_vars`]) and its whole constant
    /// (its own, less what the negated literals moved out).
    pub fn over_vars(&self) -> (Vec<(i64, Var)>, i64) {
        let row = Constraint {
            terms: self.terms.clone(),
            sense: Sense::Eq,
            rhs: 0,
            family: "objective",
            group: None,
        };
        let (terms, moved) = row.over_vars();
        (terms, self.constant - moved)
    }

    pub fn value(&self, assignment: &[bool]) -> i64 {
        self.constant
            + self
                .terms
                .iter()
                .filter(|(_, l)| l.value(assignment))
                .map(|(c, _)| c)
                .sum::<i64>()
    }
}

/// The size of a model, as the columns of Table 2 of the Battleship paper count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Size {
    pub variables: usize,
    pub constraints: usize,
    pub nonzeros: usize,
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} variables, {} constraints, {} nonzeros",
            self.variables, self.constraints, self.nonzeros
        )
    }
}

/// A 0-1 integer program.
#[derive(Clone, Debug, Default)]
pub struct Model {
    names: Vec<String>,
    pub constraints: Vec<Constraint>,
    pub objective: Option<Objective>,
    /// A hint for search, not part of the program: most variables are false in solutions
    /// (water on a Battleship board), so a solver should guess false first.
    pub guess_false: bool,
    /// A hint for search, not part of the program: families of cardinality rows (unit
    /// weights) a SAT engine should check by counting during search rather than encode
    /// (see `solve::counting`). Other backends and the exports take them as rows like any.
    pub counted: Vec<&'static str>,
    /// The reason groups rows belong to ([`Constraint::group`]), for explanations.
    pub groups: Vec<Group>,
    /// The group rows added now join ([`Model::group`]).
    current: Option<u32>,
}

/// Models with more rows and named variables than this (each an allocation of its own) are
/// freed away from the run that drops them.
const FREE_AWAY: usize = 1 << 20;

impl Drop for Model {
    /// Freeing millions of rows or variable names one by one takes a second or more, time a
    /// run stopped by its limit no longer has (Gunport's 60×60 domino model stopped at 10 s
    /// has 12.6 million names: the run ended at 11.3-12.5 s): a large model a limit stopped is
    /// left to the process's exit when the run says so
    /// ([`crate::guard::Bounds::leave_to_exit`]), else freed on a thread of its own.
    fn drop(&mut self) {
        if self.constraints.len() + self.names.len() <= FREE_AWAY {
            return;
        }
        let rows = (
            std::mem::take(&mut self.constraints),
            std::mem::take(&mut self.names),
        );
        if crate::guard::leaves_to_exit() && crate::guard::expired() {
            std::mem::forget(rows);
        } else {
            // If no thread can be started (memory is short), the rows are freed here.
            let _ = std::thread::Builder::new().spawn(move || {
                drop(rows);
                crate::guard::give_back_memory();
            });
        }
    }
}

impl Model {
    pub fn new() -> Model {
        Model::default()
    }

    /// A new binary variable. Names should be valid LP identifiers (letters, digits, `_`).
    pub fn var(&mut self, name: impl Into<String>) -> Var {
        let name = name.into();
        crate::guard::charge(name.len() as u64 + 24);
        self.names.push(name);
        Var((self.names.len() - 1) as u32)
    }

    pub fn name(&self, v: Var) -> &str {
        &self.names[v.index()]
    }

    pub fn num_vars(&self) -> usize {
        self.names.len()
    }

    /// Adds `sum(terms) sense rhs`.
    pub fn add(
        &mut self,
        family: &'static str,
        terms: Vec<(i64, Lit)>,
        sense: Sense,
        rhs: i64,
    ) -> &mut Self {
        crate::guard::charge(16 * terms.len() as u64 + 56);
        self.constraints.push(Constraint {
            terms,
            sense,
            rhs,
            family,
            group: self.current,
        });
        self
    }

    /// Opens a reason group: rows added from now on, until [`Model::end_group`] or the next
    /// group, belong to it.
    pub fn group(
        &mut self,
        kind: Kind,
        place: Option<crate::geometry::Place>,
        text: impl Into<String>,
    ) -> u32 {
        self.groups.push(Group {
            kind,
            place,
            text: text.into(),
        });
        let g = (self.groups.len() - 1) as u32;
        self.current = Some(g);
        g
    }

    /// Rows added from now on belong to group `g` (opened earlier by [`Model::group`]).
    pub fn join(&mut self, g: u32) {
        self.current = Some(g);
    }

    /// Rows added from now on belong to no group.
    pub fn end_group(&mut self) {
        self.current = None;
    }

    /// Exactly one of `lits` is true.
    pub fn exactly_one(&mut self, family: &'static str, lits: &[Lit]) -> &mut Self {
        self.add(family, unit(lits), Sense::Eq, 1)
    }

    /// At most one of `lits` is true.
    pub fn at_most_one(&mut self, family: &'static str, lits: &[Lit]) -> &mut Self {
        self.add(family, unit(lits), Sense::Le, 1)
    }

    /// At least one of `lits` is true (a clause).
    pub fn at_least_one(&mut self, family: &'static str, lits: &[Lit]) -> &mut Self {
        self.add(family, unit(lits), Sense::Ge, 1)
    }

    /// `a` implies `b`, written as `a - b <= 0`.
    pub fn implies(&mut self, family: &'static str, a: Lit, b: Lit) -> &mut Self {
        self.add(family, vec![(1, a), (-1, b)], Sense::Le, 0)
    }

    /// `sum(lits) sense k`.
    pub fn cardinality(
        &mut self,
        family: &'static str,
        lits: &[Lit],
        sense: Sense,
        k: i64,
    ) -> &mut Self {
        self.add(family, unit(lits), sense, k)
    }

    pub fn minimise(&mut self, terms: Vec<(i64, Lit)>) {
        self.objective = Some(Objective {
            direction: Direction::Minimise,
            terms,
            constant: 0,
        });
    }

    pub fn maximise(&mut self, terms: Vec<(i64, Lit)>) {
        self.objective = Some(Objective {
            direction: Direction::Maximise,
            terms,
            constant: 0,
        });
    }

    /// Adds a constant to the objective (after `minimise`/`maximise`).
    pub fn objective_constant(&mut self, constant: i64) {
        if let Some(o) = self.objective.as_mut() {
            o.constant = constant;
        }
    }

    /// Variables, constraints and nonzeros (distinct variables per row, summed).
    pub fn size(&self) -> Size {
        Size {
            variables: self.num_vars(),
            constraints: self.constraints.len(),
            nonzeros: self
                .constraints
                .iter()
                .inspect(|_| crate::guard::tick())
                .map(|c| c.over_vars().0.len())
                .sum(),
        }
    }

    /// The rows of this row joined to `guard`: each holds when `guard` is true, and every
    /// assignment with `guard` false satisfies them (big-M rows; an equation gives two).
    pub fn guarded(c: &Constraint, guard: Lit) -> Vec<Constraint> {
        let lo: i64 = c.terms.iter().map(|t| t.0.min(0)).sum();
        let hi: i64 = c.terms.iter().map(|t| t.0.max(0)).sum();
        let mut out = Vec::new();
        let mut push = |sense: Sense| {
            let mut terms = c.terms.clone();
            match sense {
                // lhs - (hi - rhs)·¬guard <= rhs
                Sense::Le if hi > c.rhs => terms.push((-(hi - c.rhs), !guard)),
                // lhs + (rhs - lo)·¬guard >= rhs
                Sense::Ge if lo < c.rhs => terms.push((c.rhs - lo, !guard)),
                _ => return,
            }
            out.push(Constraint {
                terms,
                sense,
                rhs: c.rhs,
                family: c.family,
                group: c.group,
            });
        };
        match c.sense {
            Sense::Eq => {
                push(Sense::Le);
                push(Sense::Ge);
            }
            s => push(s),
        }
        out
    }

    /// The first constraint a full assignment violates, if any.
    pub fn violated(&self, assignment: &[bool]) -> Option<&Constraint> {
        self.constraints.iter().find(|c| !c.holds(assignment))
    }

    /// Rows per family, in the order families first appear.
    pub fn families(&self) -> Vec<(&'static str, usize)> {
        let mut out: Vec<(&'static str, usize)> = Vec::new();
        for c in &self.constraints {
            crate::guard::tick();
            match out.iter_mut().find(|(f, _)| *f == c.family) {
                Some((_, n)) => *n += 1,
                None => out.push((c.family, 1)),
            }
        }
        out
    }
}

fn unit(lits: &[Lit]) -> Vec<(i64, Lit)> {
    lits.iter().map(|&l| (1, l)).collect()
}

/// For the LP and OPB writers: charges a text's growth to the run that writes it (in steps of
/// a MiB, by its capacity), so a text too large for the memory limit stops the run; and says
/// whether it has passed `cap` bytes (a writer with a cap then gives up).
pub(crate) fn text_grown(out: &String, charged: &mut usize, cap: Option<usize>) -> bool {
    let now = out.capacity();
    if now >= *charged + (1 << 20) {
        crate::guard::charge((now - *charged) as u64);
        *charged = now;
    }
    cap.is_some_and(|c| out.len() > c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guarded_row_holds_when_its_guard_is_off_and_means_the_row_when_on() {
        let mut m = Model::new();
        let x: Vec<Var> = (0..3).map(|i| m.var(format!("x{i}"))).collect();
        let g = m.var("g");
        let rows = [
            (
                vec![(2, x[0].pos()), (-1, x[1].negated()), (3, x[2].pos())],
                Sense::Le,
                2,
            ),
            (
                vec![(1, x[0].pos()), (1, x[1].pos()), (1, x[2].pos())],
                Sense::Ge,
                2,
            ),
            (
                vec![(1, x[0].pos()), (-2, x[1].pos()), (1, x[2].negated())],
                Sense::Eq,
                0,
            ),
        ];
        for (terms, sense, rhs) in rows {
            let c = Constraint {
                terms,
                sense,
                rhs,
                family: "t",
                group: None,
            };
            let guarded = Model::guarded(&c, g.pos());
            for bits in 0..16u32 {
                let a: Vec<bool> = (0..4).map(|i| bits >> i & 1 == 1).collect();
                let all = guarded.iter().all(|r| r.holds(&a));
                if a[3] {
                    assert_eq!(all, c.holds(&a), "{c:?} at {a:?}");
                } else {
                    assert!(all, "{c:?} at {a:?}");
                }
            }
        }
    }

    #[test]
    fn negated_literals_move_to_the_right_hand_side() {
        let mut m = Model::new();
        let a = m.var("a");
        let b = m.var("b");
        m.add("t", vec![(3, a.pos()), (2, b.negated())], Sense::Le, 4);
        let (terms, rhs) = m.constraints[0].over_vars();
        assert_eq!(terms, vec![(3, a), (-2, b)]);
        assert_eq!(rhs, 2);
        assert!(m.constraints[0].holds(&[false, false]));
        assert!(!m.constraints[0].holds(&[true, false]));
        assert!(m.constraints[0].holds(&[true, true]));
        assert_eq!(m.size().nonzeros, 2);
    }
}
