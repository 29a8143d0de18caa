//! Peaceable armies: the model, its verifier and its picture.

use super::*;
use crate::model::{Lit, Model, Sense, Var};
use crate::puzzles::{Formulated, Goal, Meaning, Place};

/// Peaceable armies as SVG: the board's squares, white pieces drawn light with a dark edge,
/// black pieces dark.
pub fn peaceable_svg(piece: Piece, s: &PeaceableSolution) -> String {
    let n = s.rows.len();
    let title = format!("Peaceable armies of {}", piece.name());
    let mut pic = crate::render::svg::GridPicture::new(n, n, &title);
    for (r, row) in s.rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            pic.fill(
                r,
                c,
                if (r + c) % 2 == 0 {
                    "#f0d9b5"
                } else {
                    "#b58863"
                },
            );
            match ch {
                'W' => pic.shape(
                    r,
                    c,
                    piece.outline(),
                    "#fafafa",
                    &format!("white {}", piece.name()),
                ),
                'B' => pic.shape(
                    r,
                    c,
                    piece.outline(),
                    "#111",
                    &format!("black {}", piece.name()),
                ),
                _ => {}
            }
        }
    }
    pic.finish()
}

/// How the peaceable-armies model says that no piece attacks one of the other colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PeaceModel {
    /// One row for every attacking (white square, black square) pair: O(n³) rows for queens.
    Pairwise,
    /// For the sliders (queen, rook, bishop): each line (row, column, diagonal) has an owner,
    /// a white piece only on lines white owns, a black one only on lines it does not: a line
    /// holding both colours holds a white and a black piece side by side, which attack, so no
    /// line may (blocking changes nothing). 4·n² + O(n) rows and 6n owners for queens. The
    /// knight and the king have no lines: their model is the pairwise one.
    Lines,
}

/// The lines a slider attacks along on an open n×n board, each as its squares (row-major), two
/// squares or more: rows and columns for the rook, diagonals for the bishop, all four for the
/// queen; none for the knight and the king.
fn lines(n: usize, piece: Piece) -> Vec<(String, Vec<usize>)> {
    let straight = matches!(piece, Piece::Queen | Piece::Rook);
    let diagonal = matches!(piece, Piece::Queen | Piece::Bishop);
    let mut out = Vec::new();
    if straight {
        for r in 0..n {
            out.push((format!("row_{r}"), (0..n).map(|c| r * n + c).collect()));
        }
        for c in 0..n {
            out.push((format!("col_{c}"), (0..n).map(|r| r * n + c).collect()));
        }
    }
    if diagonal {
        for d in 0..2 * n - 1 {
            // r - c = d - (n - 1), and r + c = d.
            let down: Vec<usize> = (0..n)
                .filter_map(|r| {
                    let c = r as i64 - (d as i64 - (n as i64 - 1));
                    (0..n as i64).contains(&c).then(|| r * n + c as usize)
                })
                .collect();
            let up: Vec<usize> = (0..n)
                .filter_map(|r| d.checked_sub(r).filter(|&c| c < n).map(|c| r * n + c))
                .collect();
            out.push((format!("diag_{d}"), down));
            out.push((format!("anti_{d}"), up));
        }
    }
    out.retain(|(_, squares)| squares.len() > 1);
    out
}

/// Peaceable armies: `m` white and `m` black pieces of one type on an open n×n board, no piece
/// attacking one of the other colour; the model maximises m. Returns the model with the white
/// and black variables (row-major).
pub fn peaceable_model(n: usize, piece: Piece) -> (Model, Vec<Var>, Vec<Var>) {
    peaceable_model_by(n, piece, PeaceModel::Pairwise)
}

/// [`peaceable_model`] with the attack rows written as `how` says.
pub fn peaceable_model_by(n: usize, piece: Piece, how: PeaceModel) -> (Model, Vec<Var>, Vec<Var>) {
    let board = Board::rectangle(n, n);
    let mut model = Model::new();
    let white: Vec<Var> = (0..n * n)
        .map(|k| model.var(format!("w_{}_{}", k / n, k % n)))
        .collect();
    let black: Vec<Var> = (0..n * n)
        .map(|k| model.var(format!("b_{}_{}", k / n, k % n)))
        .collect();
    for k in 0..n * n {
        model.at_most_one("one piece per square", &[white[k].pos(), black[k].pos()]);
    }
    let lines = lines(n, piece);
    if how == PeaceModel::Lines && !lines.is_empty() {
        for (name, squares) in &lines {
            crate::guard::tick();
            let owner = model.var(format!("white_owns_{name}"));
            for &k in squares {
                model.implies(
                    "a white piece's lines are white's",
                    white[k].pos(),
                    owner.pos(),
                );
                model.implies(
                    "a black piece's lines are not white's",
                    black[k].pos(),
                    owner.negated(),
                );
            }
        }
    } else {
        for (p, w) in white.iter().enumerate() {
            for (q, b) in black.iter().enumerate() {
                if board.attacks(piece, p, q, false) {
                    model.at_most_one("no white piece attacks a black one", &[w.pos(), b.pos()]);
                }
            }
        }
    }
    let mut terms: Vec<(i64, Lit)> = white.iter().map(|v| (1, v.pos())).collect();
    terms.extend(black.iter().map(|v| (-1, v.pos())));
    model.add("armies of equal size", terms, Sense::Eq, 0);
    // Colour swap maps solutions onto solutions: put a white piece on the first occupied square
    // (if the first square holding any piece holds a black one, swap the colours).
    for k in 0..n * n {
        let mut terms = vec![(1, black[k].pos())];
        terms.extend((0..k).map(|j| (-1, white[j].pos())));
        terms.extend((0..k).map(|j| (-1, black[j].pos())));
        model.add("colour symmetry breaking", terms, Sense::Le, 0);
    }
    model.maximise(white.iter().map(|v| (1, v.pos())).collect());
    (model, white, black)
}

/// Peaceable armies as a runnable formulation: maximise m, the size of each army.
pub fn peaceable<'a>(n: usize, piece: Piece, how: PeaceModel) -> Formulated<'a, PeaceableSolution> {
    let (model, white, black) = peaceable_model_by(n, piece, how);
    let method = match (how, lines(n, piece).is_empty()) {
        (PeaceModel::Lines, false) => "SAT (CaDiCaL), peaceable-armies line model",
        _ => "SAT (CaDiCaL), peaceable-armies pairwise model",
    };
    let decisions: Vec<Var> = white.iter().chain(&black).copied().collect();
    let meanings = (0..2 * n * n)
        .map(|k| {
            Meaning::at(
                Place::Cell((k % (n * n)) / n, k % n),
                if k < n * n { "W" } else { "B" },
            )
        })
        .collect();
    let mut f = Formulated::new(
        model,
        decisions,
        meanings,
        move |x| {
            let at = |k: usize| {
                if x[white[k].index()] {
                    'W'
                } else if x[black[k].index()] {
                    'B'
                } else {
                    '.'
                }
            };
            PeaceableSolution {
                rows: (0..n)
                    .map(|r| (0..n).map(|c| at(r * n + c)).collect())
                    .collect(),
            }
        },
        method.into(),
    );
    f.goal = Some(Goal {
        name: "pieces a side",
        maximise: true,
        per_unit: 1,
        at_zero: 0,
        proved_bound: None,
        step: 1,
    });
    f
}

/// Two armies: `W` white, `B` black, `.` empty, one string a row.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PeaceableSolution {
    pub rows: Vec<String>,
}

/// The independent check of peaceable armies: equal sizes, and walking every white piece's
/// moves on the open board reaches no black piece.
pub fn verify_peaceable(piece: Piece, s: &PeaceableSolution) -> std::result::Result<usize, String> {
    let n = s.rows.len();
    let cells: Vec<char> = s.rows.iter().flat_map(|r| r.chars()).collect();
    let (w, b) = (
        cells.iter().filter(|&&c| c == 'W').count(),
        cells.iter().filter(|&&c| c == 'B').count(),
    );
    if w != b {
        return Err(format!("{w} white pieces but {b} black ones"));
    }
    let board = Board::rectangle(n, n);
    for k in (0..n * n).filter(|&k| cells[k] == 'W') {
        if let Some(t) = reach(&board, piece, k, false)
            .into_iter()
            .find(|&t| cells[t] == 'B')
        {
            return Err(format!(
                "the white piece on square {k} attacks the black one on {t}"
            ));
        }
    }
    Ok(w)
}
