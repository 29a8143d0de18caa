//! Chess avoidance as 0-1 programs: the pairwise, big-M and clique formulations.

use super::*;
use crate::model::{Kind, Lit, Model, Sense, Var};
use crate::puzzles::Place;

/// Which integer program to build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Formulation {
    /// The seed's pairwise rows: `x[p,k] + a[q] <= 1` for every attack.
    #[default]
    Pairwise,
    /// Chlond's published form: per square, the attackers of q sum to at most `M (1 - a[q])`.
    Bigm,
    /// Pairwise rows for knights and kings; for lines, clique rows: on a line (a row, column or
    /// diagonal; split at holes with `--holes-block`), the sliding pieces that move along it on
    /// squares other than q, plus `a[q]`, sum to at most one.
    Clique,
}

/// The model of a board and army, with the map back to placements.
pub struct ChessModel {
    pub model: Model,
    /// x[(square position, piece)]: piece of that type on that square.
    pub(super) x: Vec<(usize, Piece, Var)>,
    pub(super) cells: usize,
}

impl ChessModel {
    pub fn decisions(&self) -> Vec<Var> {
        self.x.iter().map(|t| t.2).collect()
    }

    pub fn decode(&self, assignment: &[bool]) -> Vec<Option<Piece>> {
        let mut out = vec![None; self.cells];
        for &(sq, p, v) in &self.x {
            if assignment[v.index()] {
                out[sq] = Some(p);
            }
        }
        out
    }

    pub fn all(&self) -> Vec<Lit> {
        self.x.iter().map(|t| t.2.pos()).collect()
    }
}

/// What to place: an exact army, or as many pieces as possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// Exactly this army.
    Exactly(Army),
    /// At least this army, plus as many of `extra` as possible (`None`: any types).
    Maximise { base: Army, extra: Option<Piece> },
}

impl Board {
    pub fn formulate(&self, goal: Aim, formulation: Formulation, holes_block: bool) -> ChessModel {
        let mut model = Model::new();
        let squares = self.squares();
        let allowed: Vec<Piece> = match goal {
            Aim::Exactly(a) => PIECES
                .iter()
                .copied()
                .filter(|p| a.0[p.index()] > 0 || self.fixed.contains(&Some(*p)))
                .collect(),
            Aim::Maximise { base, extra } => PIECES
                .iter()
                .copied()
                .filter(|p| {
                    base.0[p.index()] > 0
                        || extra.is_none_or(|e| e == *p)
                        || self.fixed.contains(&Some(*p))
                })
                .collect(),
        };
        let mut x = Vec::new();
        let mut occ = vec![None; self.rows * self.cols];
        for &sq in &squares {
            let (r, c) = (sq / self.cols, sq % self.cols);
            let vars: Vec<Var> = allowed
                .iter()
                .map(|p| {
                    let v = model.var(format!("x_{}_{}_{}", r + 1, c + 1, p.letter()));
                    x.push((sq, *p, v));
                    v
                })
                .collect();
            // a[c] = sum_k x[c,k] <= 1: one piece per square; a is the row itself.
            let lits: Vec<Lit> = vars.iter().map(|v| v.pos()).collect();
            model.at_most_one("one piece per square", &lits);
            occ[sq] = Some(lits);
            if let Some(p) = self.fixed[sq] {
                let v = x
                    .iter()
                    .find(|t| t.0 == sq && t.1 == p)
                    .expect("allowed includes fixed")
                    .2;
                model.group(
                    Kind::Given,
                    Some(Place::Cell(r, c)),
                    format!("({},{}) holds the given {}", r + 1, c + 1, p.name()),
                );
                model.add("fixed piece", vec![(1, v.pos())], Sense::Eq, 1);
                model.end_group();
            }
        }
        match goal {
            Aim::Exactly(a) => {
                for p in &allowed {
                    let lits: Vec<Lit> =
                        x.iter().filter(|t| t.1 == *p).map(|t| t.2.pos()).collect();
                    let k = a.0[p.index()];
                    model.group(Kind::Given, None, roster("", k, *p));
                    model.cardinality("the army's roster", &lits, Sense::Eq, k as i64);
                }
            }
            Aim::Maximise { base, extra } => {
                for p in &allowed {
                    let lits: Vec<Lit> =
                        x.iter().filter(|t| t.1 == *p).map(|t| t.2.pos()).collect();
                    if base.0[p.index()] > 0 {
                        let sense = if extra == Some(*p) || extra.is_none() {
                            Sense::Ge
                        } else {
                            Sense::Eq
                        };
                        let k = base.0[p.index()];
                        let least = if sense == Sense::Ge { "at least " } else { "" };
                        model.group(Kind::Given, None, roster(least, k, *p));
                        model.cardinality(
                            "the army's roster",
                            &lits,
                            sense,
                            base.0[p.index()] as i64,
                        );
                    } else if extra.is_some_and(|e| e != *p) {
                        model.group(Kind::Given, None, roster("", 0, *p));
                        model.cardinality("the army's roster", &lits, Sense::Eq, 0);
                    }
                }
                model.end_group();
                // The pieces of the type maximised (of every type with none given), the army's
                // among them: with `--type Q --army B2` the objective counts queens only.
                let terms = x
                    .iter()
                    .filter(|t| extra.is_none_or(|e| e == t.1))
                    .map(|t| (1, t.2.pos()))
                    .collect();
                model.maximise(terms);
            }
        }
        model.end_group();
        let at = |sq: usize| (sq / self.cols, sq % self.cols);
        let words = |sq: usize| format!("({},{})", sq / self.cols + 1, sq % self.cols + 1);
        // Seed: x[p,k] + a[q] <= 1 whenever a type-k piece on p attacks q, for the types `keep`.
        let pairwise = |model: &mut Model, keep: &dyn Fn(Piece) -> bool| {
            for &(p, k, v) in x.iter().filter(|t| keep(t.1)) {
                model.group(
                    Kind::Rule,
                    Some(Place::Cell(at(p).0, at(p).1)),
                    format!("a {} at {} attacks no piece", k.name(), words(p)),
                );
                for &q in &squares {
                    if self.attacks(k, p, q, holes_block) {
                        let mut terms = vec![(1, v.pos())];
                        terms.extend(occ[q].as_ref().expect("a square").iter().map(|&l| (1, l)));
                        model.add("attacker forces target empty", terms, Sense::Le, 1);
                    }
                }
            }
        };
        match formulation {
            Formulation::Pairwise => pairwise(&mut model, &|_| true),
            Formulation::Clique => {
                pairwise(&mut model, &|k| matches!(k, Piece::Knight | Piece::King));
                // Every pair of squares on a line is joined by the line's sliders, so a slider
                // on the line and any other piece on it exclude each other, and so do two
                // sliders: one clique row per square of each line.
                for (line, sliders) in self.lines(holes_block) {
                    let (first, last) = (line[0], line[line.len() - 1]);
                    model.group(
                        Kind::Rule,
                        Some(Place::Cell(at(first).0, at(first).1)),
                        format!(
                            "a piece that slides along the line {}-{} is alone on it",
                            words(first),
                            words(last)
                        ),
                    );
                    for &q in &line {
                        let mut terms: Vec<(i64, Lit)> = x
                            .iter()
                            .filter(|&&(p, k, _)| {
                                p != q && line.contains(&p) && sliders.contains(&k)
                            })
                            .map(|t| (1, t.2.pos()))
                            .collect();
                        if terms.is_empty() {
                            continue;
                        }
                        terms.extend(occ[q].as_ref().expect("a square").iter().map(|&l| (1, l)));
                        model.add("one slider per line, alone (clique)", terms, Sense::Le, 1);
                    }
                }
            }
            Formulation::Bigm => {
                // Chlond: sum of the pieces attacking q <= M (1 - a[q]), M the number of terms.
                for &q in &squares {
                    let attackers: Vec<Lit> = x
                        .iter()
                        .filter(|&&(p, k, _)| self.attacks(k, p, q, holes_block))
                        .map(|t| t.2.pos())
                        .collect();
                    if attackers.is_empty() {
                        continue;
                    }
                    model.group(
                        Kind::Rule,
                        Some(Place::Cell(at(q).0, at(q).1)),
                        format!("no piece attacks a piece at {}", words(q)),
                    );
                    let big = attackers.len() as i64;
                    let mut terms: Vec<(i64, Lit)> = attackers.iter().map(|&l| (1, l)).collect();
                    terms.extend(occ[q].as_ref().expect("a square").iter().map(|&l| (big, l)));
                    model.add("attacked squares stay empty (big M)", terms, Sense::Le, big);
                }
            }
        }
        model.end_group();
        ChessModel {
            model,
            x,
            cells: self.rows * self.cols,
        }
    }
}

/// What the army's roster says of one type, for explanations.
fn roster(least: &str, k: usize, p: Piece) -> String {
    let name = p.name();
    let plural = if k == 1 { "" } else { "s" };
    format!("the army has {least}{k} {name}{plural}")
}

impl Board {
    /// Maximal lines of squares (rows, columns, both diagonals; split at holes when they
    /// block), each with the piece types that slide along it.
    pub(super) fn lines(&self, holes_block: bool) -> Vec<(Vec<usize>, Vec<Piece>)> {
        let mut out = Vec::new();
        let (rows, cols) = (self.rows as i64, self.cols as i64);
        let dirs: [((i64, i64), [Piece; 2]); 4] = [
            ((0, 1), [Piece::Queen, Piece::Rook]),
            ((1, 0), [Piece::Queen, Piece::Rook]),
            ((1, 1), [Piece::Queen, Piece::Bishop]),
            ((1, -1), [Piece::Queen, Piece::Bishop]),
        ];
        for ((dr, dc), sliders) in dirs {
            for r in 0..rows {
                for c in 0..cols {
                    // Start only where the previous cell along the direction is off the board.
                    let (pr, pc) = (r - dr, c - dc);
                    if pr >= 0 && pc >= 0 && pr < rows && pc < cols {
                        continue;
                    }
                    let mut segment = Vec::new();
                    let (mut rr, mut cc) = (r, c);
                    while rr >= 0 && cc >= 0 && rr < rows && cc < cols {
                        let k = (rr * cols + cc) as usize;
                        if self.square[k] {
                            segment.push(k);
                        } else if holes_block && !segment.is_empty() {
                            out.push((std::mem::take(&mut segment), sliders.to_vec()));
                        }
                        rr += dr;
                        cc += dc;
                    }
                    if segment.len() >= 2 {
                        out.push((segment, sliders.to_vec()));
                    }
                }
            }
        }
        out.retain(|(l, _)| l.len() >= 2);
        out
    }
}
