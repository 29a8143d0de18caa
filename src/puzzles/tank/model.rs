//! Tank Attack as 0-1 programs: the seed formulation and the strong one, symmetric boards.

use super::*;
use crate::error::{Error, Result};
use crate::geometry::{Grid, Symmetry};
use crate::model::{Kind, Lit, Model, Sense, Var};
use crate::puzzles::{Formulated, Meaning, Place};

/// The side from which the strong formulation's attack and order rows are counted during
/// search rather than encoded ([`Model::counted`]): memory under 1 GiB up to n = 40 at least
/// (docs/tank.md, "Memory").
pub const COUNTED_FROM: usize = 24;

/// Which integer program to build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Formulation {
    /// The seed's model as printed: one-hot values, `attackers = sum k x[i,j,k]`.
    Seed,
    #[default]
    /// The one-hot model plus order variables (`value >= t`), the attack rule as a cardinality
    /// equality, and the global balance identity (a valid redundant row).
    Strong,
}

/// The model of one instance, with the map from cells and values to variables.
pub struct TankModel {
    pub model: Model,
    n: usize,
    /// x[(i*n + j)*(n-1) + (k-1)]: cell (i,j) holds value k.
    x: Vec<Var>,
}

impl TankModel {
    /// The variable "cell (i,j) holds value k".
    pub fn x(&self, i: usize, j: usize, k: usize) -> Var {
        self.x[(i * self.n + j) * (self.n - 1) + (k - 1)]
    }

    /// The decision variables: solutions are counted as distinct assignments of these.
    pub fn decisions(&self) -> &[Var] {
        &self.x
    }

    /// The board an assignment describes.
    pub fn decode(&self, assignment: &[bool]) -> Board {
        let n = self.n;
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        (1..n)
                            .find(|&k| assignment[self.x(i, j, k).index()])
                            .unwrap_or(0) as u32
                    })
                    .collect()
            })
            .collect()
    }
}

/// The attack rule at one cell, for explanations.
fn attack_rule(i: usize, j: usize) -> String {
    format!(
        "the tank at ({},{}) is attacked by as many tanks as its value",
        i + 1,
        j + 1
    )
}

/// How many cells a tank of value `k` at (i,j) can reach on an n×n board (0 to 4).
pub(super) fn targets(n: usize, i: usize, j: usize, k: usize) -> i64 {
    [i >= k, i + k < n, j >= k, j + k < n]
        .iter()
        .filter(|&&b| b)
        .count() as i64
}

impl Tank {
    /// A validated instance: the side must be between 1 and [`MAX_SIDE`].
    pub fn new(n: i64) -> Result<Tank> {
        if n < 1 {
            return Err(Error::input(format!(
                "board side {n} is not a positive number; give the side n of an n×n board, 1 to {MAX_SIDE}"
            )));
        }
        if n as usize > MAX_SIDE {
            return Err(Error::input(format!(
                "board side {n} is too large: at most {MAX_SIDE} (the model would have {} variables)",
                n * n * (n - 1)
            )));
        }
        Ok(Tank {
            n: n as usize,
            givens: Vec::new(),
        })
    }

    /// Reads the side from a command-line word.
    pub fn parse(word: &str) -> Result<Tank> {
        let word = word.trim();
        let n: i64 = word.parse().map_err(|_| {
            let digits = word.strip_prefix('-').unwrap_or(word);
            if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
                return Error::input(format!(
                    "board side {word} is far out of range; give the side n of an n×n board, 1 to {MAX_SIDE}"
                ));
            }
            Error::input(format!(
                "board side '{word}' is not a whole number; give the side n of an n×n board, 1 to {MAX_SIDE}"
            ))
        })?;
        Tank::new(n)
    }

    /// Builds the chosen formulation. `break_symmetry` adds lex-leader rows for the board's
    /// rotations and reflections: they keep at least one board of every symmetry class, so they
    /// serve `solve` but never `count`.
    pub fn formulate(&self, formulation: Formulation, break_symmetry: bool) -> TankModel {
        let n = self.n;
        let mut model = Model::new();
        let mut x = Vec::with_capacity(n * n * n.saturating_sub(1));
        for i in 0..n {
            for j in 0..n {
                for k in 1..n {
                    x.push(model.var(format!("x_{}_{}_{k}", i + 1, j + 1)));
                }
            }
        }
        let tm = TankModel { model, n, x };
        let mut tm = tm;
        if n == 1 {
            // Values run over 1..n-1, which is empty: the one cell cannot hold a value.
            tm.model.add("one value per cell", Vec::new(), Sense::Eq, 1);
            return tm;
        }
        let cells: Vec<(usize, usize)> = (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).collect();
        // Seed: sum_k x[i,j,k] = 1.
        for &(i, j) in &cells {
            let lits: Vec<Lit> = (1..n).map(|k| tm.x(i, j, k).pos()).collect();
            tm.model.exactly_one("one value per cell", &lits);
        }
        let attackers = |tm: &TankModel, i: usize, j: usize| -> Vec<Lit> {
            let mut a: Vec<Lit> = (0..n)
                .filter(|&p| p != j)
                .map(|p| tm.x(i, p, j.abs_diff(p)).pos())
                .collect();
            a.extend(
                (0..n)
                    .filter(|&q| q != i)
                    .map(|q| tm.x(q, j, i.abs_diff(q)).pos()),
            );
            a
        };
        match formulation {
            Formulation::Seed => {
                // Seed: sum_p x[i,p,|j-p|] + sum_q x[q,j,|i-q|] = sum_k k x[i,j,k].
                for &(i, j) in &cells {
                    let mut terms: Vec<(i64, Lit)> =
                        attackers(&tm, i, j).into_iter().map(|l| (1, l)).collect();
                    terms.extend((1..n).map(|k| (-(k as i64), tm.x(i, j, k).pos())));
                    tm.model
                        .group(Kind::Rule, Some(Place::Cell(i, j)), attack_rule(i, j));
                    tm.model.add("attackers equal value", terms, Sense::Eq, 0);
                    tm.model.end_group();
                }
            }
            Formulation::Strong => {
                // Order variables y[i,j,t] <=> value >= t, for t = 2..n-1:
                // sum_{k>=t} x[i,j,k] - y[i,j,t] = 0.
                let mut y = vec![Vec::new(); n * n];
                for &(i, j) in &cells {
                    for t in 2..n {
                        let v = tm.model.var(format!("y_{}_{}_{t}", i + 1, j + 1));
                        let mut terms: Vec<(i64, Lit)> =
                            (t..n).map(|k| (1, tm.x(i, j, k).pos())).collect();
                        terms.push((-1, v.pos()));
                        tm.model.add("order variables", terms, Sense::Eq, 0);
                        y[i * n + j].push(v);
                    }
                }
                // The rule as a cardinality equality: attackers = 1 + sum_t y[i,j,t].
                for &(i, j) in &cells {
                    let mut terms: Vec<(i64, Lit)> =
                        attackers(&tm, i, j).into_iter().map(|l| (1, l)).collect();
                    terms.extend(y[i * n + j].iter().map(|v| (-1, v.pos())));
                    tm.model
                        .group(Kind::Rule, Some(Place::Cell(i, j)), attack_rule(i, j));
                    tm.model.add("attackers equal value", terms, Sense::Eq, 1);
                    tm.model.end_group();
                }
                // From COUNTED_FROM on, a SAT engine checks the attack and order rows by
                // counting during search: their clauses would be most of the memory (n = 40:
                // 9.5 million clauses, 1.8 GB; counted, 0.6 GB). Below it clauses are
                // faster (6×6, full model: 14 s against 31 s counted).
                if n >= COUNTED_FROM {
                    tm.model.counted.push("attackers equal value");
                    tm.model.counted.push("order variables");
                }
                // Balance: summing the rule over all cells, the values add up to the number of
                // (tank, target) pairs, sum_ij value = sum_ij targets(i,j,value). In order
                // variables, targets(value) = targets(1) - sum_t d_t y_t with
                // d_t = targets(t-1) - targets(t) >= 0, so
                // sum_ij sum_t (1 + d_t) y[i,j,t] = sum_ij (targets(i,j,1) - 1).
                let mut terms = Vec::new();
                let mut rhs = 0;
                for &(i, j) in &cells {
                    rhs += targets(n, i, j, 1) - 1;
                    for (idx, t) in (2..n).enumerate() {
                        let d = targets(n, i, j, t - 1) - targets(n, i, j, t);
                        terms.push((1 + d, y[i * n + j][idx].pos()));
                    }
                }
                tm.model.group(
                    Kind::Rule,
                    None,
                    "summed over the board, the values equal the (tank, target) pairs",
                );
                tm.model
                    .add("balance of values and targets", terms, Sense::Eq, rhs);
                tm.model.end_group();
            }
        }
        for &(i, j, v) in &self.givens {
            tm.model.group(
                Kind::Given,
                Some(Place::Cell(i, j)),
                format!("the given {v} at ({},{})", i + 1, j + 1),
            );
            tm.model.add(
                "given values",
                vec![(1, tm.x(i, j, v as usize).pos())],
                Sense::Eq,
                1,
            );
            tm.model.end_group();
        }
        // Lex-leader rows keep one board of each orbit; givens are not symmetric.
        if break_symmetry && n >= 2 && self.givens.is_empty() {
            tm.add_symmetry_breaking();
        }
        tm
    }
}

/// Boards invariant under a group of the square's symmetries. Restricting `solve` to them
/// is a heuristic: a symmetric board is a board, but a board need not be symmetric.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Symmetric {
    /// All eight rotations and reflections (generated by the transpose and a mirror).
    D4,
    /// Invariant under the quarter turn.
    Rot90,
    /// Invariant under the half turn.
    Rot180,
    /// Invariant under reflection in the main diagonal.
    Diagonal,
    /// Invariant under reflection in the vertical axis.
    Mirror,
}

impl Symmetric {
    /// Generators of the group, as symmetries of the square.
    pub(super) fn generators(self) -> &'static [Symmetry] {
        match self {
            Symmetric::D4 => &[Symmetry::Transpose, Symmetry::Mirror],
            Symmetric::Rot90 => &[Symmetry::QuarterTurn],
            Symmetric::Rot180 => &[Symmetry::HalfTurn],
            Symmetric::Diagonal => &[Symmetry::Transpose],
            Symmetric::Mirror => &[Symmetry::Mirror],
        }
    }

    /// The boards it stands for, in words ("D4-symmetric boards").
    pub fn describe(self) -> &'static str {
        match self {
            Symmetric::D4 => "D4-symmetric boards",
            Symmetric::Rot90 => "quarter-turn-symmetric boards",
            Symmetric::Rot180 => "half-turn-symmetric boards",
            Symmetric::Diagonal => "diagonally symmetric boards",
            Symmetric::Mirror => "mirror-symmetric boards",
        }
    }
}

impl TankModel {
    /// Adds rows `x[c,k] = x[g(c),k]` for each generator g of the group.
    pub fn restrict_to_symmetric(&mut self, group: Symmetric) {
        let n = self.n;
        let grid = Grid::square(n);
        for &g in group.generators() {
            for (i, j) in grid.all() {
                let (a, b) = grid.map(g, (i, j));
                if (a, b) == (i, j) {
                    continue;
                }
                for k in 1..n {
                    let terms = vec![(1, self.x(i, j, k).pos()), (-1, self.x(a, b, k).pos())];
                    self.model.add("symmetric board", terms, Sense::Eq, 0);
                }
            }
        }
    }

    /// `value(a) <= value(b)` through the one-hot variables: value(a) >= t implies
    /// value(b) >= t, i.e. sum_{k>=t} x[a,k] - sum_{k>=t} x[b,k] <= 0.
    pub(super) fn value_at_most(&mut self, a: (usize, usize), b: (usize, usize)) {
        let n = self.n;
        for t in 2..n {
            let mut terms: Vec<(i64, Lit)> =
                (t..n).map(|k| (1, self.x(a.0, a.1, k).pos())).collect();
            terms.extend((t..n).map(|k| (-1, self.x(b.0, b.1, k).pos())));
            self.model.add("symmetry breaking", terms, Sense::Le, 0);
        }
    }

    /// Rotate the board so that (0,0) holds the least corner value, then transpose if needed so
    /// that value(0,1) <= value(1,0); the transpose fixes (0,0) and swaps the other two
    /// off-diagonal corners, so both rows hold together for some image of every board.
    pub(super) fn add_symmetry_breaking(&mut self) {
        let m = self.n - 1;
        for c in [(0, m), (m, 0), (m, m)] {
            self.value_at_most((0, 0), c);
        }
        if self.n >= 3 {
            self.value_at_most((0, 1), (1, 0));
        }
    }
}

impl Tank {
    /// The runner's view of a model built by [`Tank::formulate`].
    pub(super) fn formulated<'a>(
        &self,
        tm: TankModel,
        formulation: Formulation,
        symmetric: Option<Symmetric>,
    ) -> Formulated<'a, Board> {
        let n = self.n;
        let meanings = (0..n * n)
            .flat_map(|c| {
                (1..n).map(move |k| Meaning::at(Place::Cell(c / n, c % n), k.to_string()))
            })
            .collect();
        let decisions = tm.decisions().to_vec();
        let model = tm.model.clone();
        let mut f = Formulated::new(
            model,
            decisions,
            meanings,
            move |a| tm.decode(a),
            crate::solve::sat_method(formulation),
        );
        f.block_by_true_decisions = true;
        f.scope = symmetric.map(|g| g.describe().to_string());
        f
    }
}
