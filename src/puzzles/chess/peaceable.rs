//! Peaceable armies: the model, its verifier and its picture.

use super::*;
use crate::model::{Lit, Model, Sense, Var};
use crate::puzzles::{Formulated, Goal, Meaning, Place};

/// Peaceable armies as SVG: the board's squares, white pieces drawn light with a dark edge,
/// black pieces dark, further armies in their colours.
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
            if let Some(a) = ARMY_MARKS.iter().position(|&m| m == ch) {
                pic.shape(
                    r,
                    c,
                    piece.outline(),
                    ARMY_COLOURS[a].1,
                    &format!("{} {}", ARMY_COLOURS[a].0, piece.name()),
                );
            }
        }
    }
    pic.finish()
}

/// Each army's name and fill, in the order of [`ARMY_MARKS`].
const ARMY_COLOURS: [(&str, &str); 10] = [
    ("white", "#fafafa"),
    ("black", "#111"),
    ("red", "#d62728"),
    ("green", "#2ca02c"),
    ("yellow", "#f2d43d"),
    ("orange", "#ff7f0e"),
    ("purple", "#7b3fa0"),
    ("cyan", "#17becf"),
    ("magenta", "#e377c2"),
    ("teal", "#1b7a72"),
];

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
    /// The lines' owners as the whole question (sliders): every line is coloured white or
    /// black, a square holds a white piece exactly when all its lines are white, a black one
    /// exactly when all are black, and there are at least as many black pieces as white ones
    /// (an army larger than m gives up pieces; swapping colours makes the black one the
    /// larger). The search decides 6n − 2 line colours instead of 2n² squares; the board's 8
    /// symmetries are broken by lex-leader rows over the colours
    /// ([`crate::model::symmetry::lex_leader`]). For the largest m only: it does not list
    /// every placement (a placement with a line free of pieces has more than one colouring).
    Colouring,
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

/// A white and a black variable for each square, row-major (`w_r_c`, `b_r_c`).
fn square_vars(model: &mut Model, n: usize) -> (Vec<Var>, Vec<Var>) {
    let mut colour = |c: char| -> Vec<Var> {
        (0..n * n)
            .map(|k| model.var(format!("{c}_{}_{}", k / n, k % n)))
            .collect()
    };
    let white = colour('w');
    let black = colour('b');
    (white, black)
}

/// [`peaceable_model`] with the attack rows written as `how` says.
pub fn peaceable_model_by(n: usize, piece: Piece, how: PeaceModel) -> (Model, Vec<Var>, Vec<Var>) {
    let board = Board::rectangle(n, n);
    let mut model = Model::new();
    let (white, black) = square_vars(&mut model, n);
    for k in 0..n * n {
        model.at_most_one("one piece per square", &[white[k].pos(), black[k].pos()]);
    }
    let lines = lines(n, piece);
    if how == PeaceModel::Colouring && !lines.is_empty() {
        return colouring_model(n, &lines, model, white, black, None);
    }
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

/// The colouring model's question "m ≥ k?" for a slider: white and black each at least `k`,
/// no objective, all 16 symmetries broken (the board's 8, each also with the colours swapped,
/// since the rows now treat the colours alike). `None` for the knight and the king.
pub fn peaceable_at_least(n: usize, piece: Piece, k: usize) -> Option<(Model, Vec<Var>, Vec<Var>)> {
    let lines = lines(n, piece);
    if lines.is_empty() {
        return None;
    }
    let mut model = Model::new();
    let (white, black) = square_vars(&mut model, n);
    Some(colouring_model(n, &lines, model, white, black, Some(k)))
}

/// [`PeaceModel::Colouring`]'s rows, over the white and black variables already made: with
/// `at_least` none, maximise white with black at least white; with `Some(k)`, both at least k.
fn colouring_model(
    n: usize,
    lines: &[(String, Vec<usize>)],
    mut model: Model,
    white: Vec<Var>,
    black: Vec<Var>,
    at_least: Option<usize>,
) -> (Model, Vec<Var>, Vec<Var>) {
    let owners: Vec<Var> = lines
        .iter()
        .map(|(name, _)| model.var(format!("white_owns_{name}")))
        .collect();
    let mut through: Vec<Vec<Lit>> = vec![Vec::new(); n * n];
    for ((_, squares), owner) in lines.iter().zip(&owners) {
        for &k in squares {
            through[k].push(owner.pos());
        }
    }
    for k in 0..n * n {
        crate::guard::tick();
        if through[k].is_empty() {
            // A square on no line (the 1×1 board) attacks nothing: one piece at most.
            model.at_most_one("one piece per square", &[white[k].pos(), black[k].pos()]);
            continue;
        }
        for &l in &through[k] {
            model.implies("a white piece's lines are white", white[k].pos(), l);
            model.implies("a black piece's lines are black", black[k].pos(), !l);
        }
        let mut all_white: Vec<Lit> = through[k].iter().map(|&l| !l).collect();
        all_white.push(white[k].pos());
        model.at_least_one("a square whose lines are all white holds white", &all_white);
        let mut all_black: Vec<Lit> = through[k].clone();
        all_black.push(black[k].pos());
        model.at_least_one("a square whose lines are all black holds black", &all_black);
    }
    let whites: Vec<Lit> = white.iter().map(|v| v.pos()).collect();
    let blacks: Vec<Lit> = black.iter().map(|v| v.pos()).collect();
    match at_least {
        Some(k) => {
            model.cardinality("at least k white", &whites, Sense::Ge, k as i64);
            model.cardinality("at least k black", &blacks, Sense::Ge, k as i64);
        }
        None => {
            let mut terms: Vec<(i64, Lit)> = blacks.iter().map(|&l| (1, l)).collect();
            terms.extend(whites.iter().map(|&l| (-1, l)));
            model.add("black at least as many as white", terms, Sense::Ge, 0);
        }
    }
    // The board's symmetries permute the lines: of each orbit of colourings, the least.
    let squares: Vec<Vec<usize>> = lines.iter().map(|(_, on)| on.clone()).collect();
    let maps = unit_maps(n, &squares);
    let order = comparison_order(n, lines);
    let x: Vec<Lit> = order.iter().map(|&i| owners[i].pos()).collect();
    // The identity last: its own image adds no row, its colour swap does (when asked).
    let count = maps.len();
    for (g, map) in maps.iter().enumerate().cycle().skip(1).take(count) {
        let image: Vec<Lit> = map.iter().map(|&j| owners[j].pos()).collect();
        let image: Vec<Lit> = order.iter().map(|&i| image[i]).collect();
        let mut images = vec![(format!("sym{g}"), image.clone())];
        if at_least.is_some() {
            images.push((format!("swap{g}"), image.iter().map(|&l| !l).collect()));
        }
        for (name, y) in images {
            crate::model::symmetry::lex_leader(
                &mut model,
                "board symmetry breaking (lex-leader)",
                &name,
                &x,
                &y,
            );
        }
    }
    if at_least.is_none() {
        model.maximise(whites.iter().map(|&l| (1, l)).collect());
    }
    (model, white, black)
}

/// Where each of the board's symmetries sends each unit (a set of squares: a line, or one
/// square), as the index of its image among `units`: one map a symmetry, in the order of
/// `Grid::symmetries` (the identity first).
fn unit_maps(n: usize, units: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let sorted = |on: &[usize]| {
        let mut on = on.to_vec();
        on.sort_unstable();
        on
    };
    let at: std::collections::HashMap<Vec<usize>, usize> = units
        .iter()
        .enumerate()
        .map(|(j, on)| (sorted(on), j))
        .collect();
    let grid = crate::geometry::Grid::new(n, n);
    grid.symmetries()
        .into_iter()
        .map(|s| {
            units
                .iter()
                .map(|on| {
                    let moved: Vec<usize> = on
                        .iter()
                        .map(|&k| {
                            let (r, c) = grid.map(s, (k / n, k % n));
                            r * n + c
                        })
                        .collect();
                    at[&sorted(&moved)]
                })
                .collect()
        })
        .collect()
}

/// The order line colourings are compared in: rows and columns from the board's edges inwards
/// (a row before its column), then the diagonals, longest first. It matters to the search: on
/// 9×9 (m >= 13?) 7.3–7.8 s against 8.4–9.6 s in the lines' own order (rows, columns,
/// diagonals) and 76 s with the diagonals first.
fn comparison_order(n: usize, lines: &[(String, Vec<usize>)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&i| {
        let (name, squares) = &lines[i];
        let at: i64 = name
            .rsplit('_')
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or(0);
        if name.starts_with("row") || name.starts_with("col") {
            let inward = (2 * at - n as i64 + 1).abs();
            (0, -inward, i64::from(name.starts_with("col")))
        } else {
            (1, -(squares.len() as i64), at)
        }
    });
    order
}

/// Peaceable armies as a runnable formulation: maximise m, the size of each army.
pub fn peaceable<'a>(n: usize, piece: Piece, how: PeaceModel) -> Formulated<'a, PeaceableSolution> {
    let (model, white, black) = peaceable_model_by(n, piece, how);
    let method = match (how, lines(n, piece).is_empty()) {
        (PeaceModel::Lines, false) => "SAT (CaDiCaL), peaceable-armies line model",
        (PeaceModel::Colouring, false) => {
            "SAT (CaDiCaL), peaceable-armies line-colouring model, board symmetry broken"
        }
        _ => "SAT (CaDiCaL), peaceable-armies pairwise model",
    };
    let mut f = formulated(n, model, vec![white, black], method);
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

/// "Do k white and k black pieces coexist?" as a runnable formulation: the colouring model
/// with both armies at least `k`, its 16 symmetries broken ([`peaceable_at_least`]); a solution
/// shows the larger of the two armies it allows, trimmed to equal sizes. `None` for the knight
/// and the king (no lines).
pub fn peaceable_k<'a>(
    n: usize,
    piece: Piece,
    k: usize,
) -> Option<Formulated<'a, PeaceableSolution>> {
    let (model, white, black) = peaceable_at_least(n, piece, k)?;
    let mut f = formulated(
        n,
        model,
        vec![white, black],
        "SAT (CaDiCaL), peaceable-armies line-colouring model, 16 symmetries broken, ascending",
    );
    // Variable elimination off: the refutations (the hard part) are 30-40 % faster without it
    // on 10×10's cubes, the same on 9×9 whole (docs/chess.md).
    f.engines = vec!["no-elim"];
    Some(f)
}

/// Every placement of exactly `m` white and `m` black pieces with no piece attacking one of the
/// other colour, for counting the optima: the line model for the sliders (the pairwise one for
/// the knight and the king) with both armies held to `m`, its solutions told apart by their
/// squares. With `one_per_class`, the 16 symmetries (the square's 8, each with the colours
/// swapped or not) are broken by lex-leader rows over the squares, so that exactly one placement
/// of each class is a solution, and each solution stands for its class's size; without, no
/// symmetry is broken and each placement is named by its class.
pub fn peaceable_exactly<'a>(
    n: usize,
    piece: Piece,
    m: usize,
    one_per_class: bool,
) -> Formulated<'a, PeaceableSolution> {
    let how = match lines(n, piece).is_empty() {
        true => PeaceModel::Pairwise,
        false => PeaceModel::Lines,
    };
    let (mut model, white, black) = peaceable_model_by(n, piece, how);
    // Rows written for the largest m only: the colour swap's breaking and the objective.
    model
        .constraints
        .retain(|c| c.family != "colour symmetry breaking");
    model.objective = None;
    let whites: Vec<Lit> = white.iter().map(|v| v.pos()).collect();
    let blacks: Vec<Lit> = black.iter().map(|v| v.pos()).collect();
    model.cardinality("m white pieces", &whites, Sense::Eq, m as i64);
    model.cardinality("m black pieces", &blacks, Sense::Eq, m as i64);
    if one_per_class {
        // A placement read square by square (white, then black), false before true; each of
        // the 15 other symmetries' images of it no less.
        let read =
            |w: &[Lit], b: &[Lit]| -> Vec<Lit> { (0..n * n).flat_map(|k| [w[k], b[k]]).collect() };
        let x = read(&whites, &blacks);
        let squares: Vec<Vec<usize>> = (0..n * n).map(|k| vec![k]).collect();
        for (g, to) in unit_maps(n, &squares).into_iter().enumerate() {
            let w: Vec<Lit> = (0..n * n).map(|k| whites[to[k]]).collect();
            let b: Vec<Lit> = (0..n * n).map(|k| blacks[to[k]]).collect();
            let mut images = vec![(format!("swap{g}"), read(&b, &w))];
            if g > 0 {
                images.push((format!("sym{g}"), read(&w, &b)));
            }
            for (name, y) in images {
                crate::model::symmetry::lex_leader(
                    &mut model,
                    "one placement a class (lex-leader)",
                    &name,
                    &x,
                    &y,
                );
            }
        }
    }
    let method = format!(
        "SAT (CaDiCaL), peaceable-armies {} model, armies of exactly {m}, {}",
        if how == PeaceModel::Lines {
            "line"
        } else {
            "pairwise"
        },
        match one_per_class {
            true => "one placement a class of the 16 symmetries",
            false => "every placement",
        }
    );
    let mut f = formulated(n, model, vec![white, black], &method);
    f.block_by_true_decisions = true;
    f.classes = Some(Box::new(move |s: &PeaceableSolution| {
        orbit(n, s).into_iter().next().unwrap_or_default()
    }));
    if one_per_class {
        f.class_size = Some(Box::new(move |s: &PeaceableSolution| {
            orbit(n, s).len() as u128
        }));
    }
    f
}

/// A placement's images under the 16 symmetries, each as one number a square (0 empty,
/// 1 white, 2 black, read row by row), the least first.
fn orbit(n: usize, s: &PeaceableSolution) -> std::collections::BTreeSet<Vec<usize>> {
    let cells: Vec<char> = s.rows.iter().flat_map(|r| r.chars()).collect();
    let grid = crate::geometry::Grid::new(n, n);
    let mut images = std::collections::BTreeSet::new();
    for g in grid.symmetries() {
        for swap in [false, true] {
            let mut image = vec![0; n * n];
            for (k, &c) in cells.iter().enumerate() {
                let (r, col) = grid.map(g, (k / n, k % n));
                image[r * n + col] = match (c, swap) {
                    ('W', false) | ('B', true) => 1,
                    ('B', false) | ('W', true) => 2,
                    _ => 0,
                };
            }
            images.insert(image);
        }
    }
    images
}

/// [`peaceable_k`] inside one cube of its space: exactly `a` rows and `b` columns white (the
/// cubes over every `a` and `b` from 0 to n partition the colourings). `None` for pieces with
/// no rows and columns (the bishop, the knight, the king).
pub fn peaceable_k_cube<'a>(
    n: usize,
    piece: Piece,
    k: usize,
    (a, b): (usize, usize),
) -> Option<Formulated<'a, PeaceableSolution>> {
    if !matches!(piece, Piece::Queen | Piece::Rook) {
        return None;
    }
    let mut f = peaceable_k(n, piece, k)?;
    let owners = |prefix: &str| -> Vec<Lit> {
        (0..f.model.num_vars())
            .map(|i| Var(i as u32))
            .filter(|&v| f.model.name(v).starts_with(prefix))
            .map(|v| v.pos())
            .collect()
    };
    let (rows, cols) = (owners("white_owns_row_"), owners("white_owns_col_"));
    f.model
        .cardinality("cube: white rows", &rows, Sense::Eq, a as i64);
    f.model
        .cardinality("cube: white columns", &cols, Sense::Eq, b as i64);
    f.method = format!("{}, in cubes of white rows and columns", f.method);
    Some(f)
}

/// A model over each army's squares as a formulation: its solutions read as boards, as many
/// pieces of each army as the smallest army has (the first in reading order), since the
/// colouring models hold every square their colours allow.
fn formulated<'a>(
    n: usize,
    model: Model,
    armies: Vec<Vec<Var>>,
    method: &str,
) -> Formulated<'a, PeaceableSolution> {
    let decisions: Vec<Var> = armies.iter().flatten().copied().collect();
    let meanings = armies
        .iter()
        .enumerate()
        .flat_map(|(a, army)| {
            (0..army.len())
                .map(move |k| Meaning::at(Place::Cell(k / n, k % n), ARMY_MARKS[a].to_string()))
        })
        .collect();
    Formulated::new(
        model,
        decisions,
        meanings,
        move |x| {
            let on = |army: &[Var]| army.iter().filter(|v| x[v.index()]).count();
            let m = armies.iter().map(|a| on(a)).min().unwrap_or(0);
            let mut shown = vec!['.'; n * n];
            for (a, army) in armies.iter().enumerate() {
                let mut placed = 0;
                for (k, v) in army.iter().enumerate() {
                    if placed < m && x[v.index()] && shown[k] == '.' {
                        shown[k] = ARMY_MARKS[a];
                        placed += 1;
                    }
                }
            }
            PeaceableSolution {
                rows: shown.chunks(n.max(1)).map(|r| r.iter().collect()).collect(),
            }
        },
        method.into(),
    )
}

/// The marks of the armies on a board, in order: white, black, red, green, yellow, orange,
/// purple, cyan, magenta, teal; as many armies as marks at most.
pub const ARMY_MARKS: [char; 10] = ['W', 'B', 'R', 'G', 'Y', 'O', 'P', 'C', 'M', 'T'];

/// The question "do `armies` armies of `q` pieces each coexist, no piece attacking one of
/// another army?" (OEIS A306954 for queens) as a model, with each army's square variables.
/// For the sliders, the colouring model with one colour an army: each line takes at most one
/// army's colour (a line no piece stands on may take none), a piece stands only on lines of its
/// army's colour, and a square whose lines all have one army's colour holds that army's piece.
/// For the knight and the king, one row a square and army for every attacked square: the piece
/// there, or none of another army. The armies are interchangeable: their permutations are
/// broken by precedence ([`crate::model::symmetry::value_precedence`]: army a + 1 appears only
/// after army a, over the lines in [`comparison_order`], or the squares row by row), and the
/// board's 8 symmetries by lex-leader rows over the same order.
pub fn armies_at_least(n: usize, piece: Piece, armies: usize, q: usize) -> (Model, Vec<Vec<Var>>) {
    let mut model = Model::new();
    let squares: Vec<Vec<Var>> = ARMY_MARKS[..armies]
        .iter()
        .map(|mark| {
            let mark = mark.to_ascii_lowercase();
            (0..n * n)
                .map(|k| model.var(format!("{mark}_{}_{}", k / n, k % n)))
                .collect()
        })
        .collect();
    let lines = lines(n, piece);
    let on_square = |k: usize| -> Vec<Lit> { squares.iter().map(|army| army[k].pos()).collect() };
    // The units the armies' colours are given to, in the order they are compared in: squares
    // row by row for the knight and the king, lines for the sliders; each with its literals
    // "army a has this unit" and the squares it covers (for the board's symmetries).
    let (units, slots): (Vec<Vec<usize>>, Vec<Vec<Lit>>) = if lines.is_empty() {
        let board = Board::rectangle(n, n);
        for k in 0..n * n {
            crate::guard::tick();
            model.at_most_one("one piece per square", &on_square(k));
            for t in (0..n * n).filter(|&t| board.attacks(piece, k, t, false)) {
                for a in 0..armies {
                    let mut pair = vec![squares[a][k].pos()];
                    pair.extend((0..armies).filter(|&b| b != a).map(|b| squares[b][t].pos()));
                    model.at_most_one("no piece attacks one of another army", &pair);
                }
            }
        }
        (
            (0..n * n).map(|k| vec![k]).collect(),
            (0..n * n).map(on_square).collect(),
        )
    } else {
        let colours: Vec<Vec<Lit>> = lines
            .iter()
            .map(|(name, _)| {
                ARMY_MARKS[..armies]
                    .iter()
                    .map(|mark| model.var(format!("{mark}_owns_{name}")).pos())
                    .collect()
            })
            .collect();
        let mut through: Vec<Vec<usize>> = vec![Vec::new(); n * n];
        for (l, (_, on)) in lines.iter().enumerate() {
            model.at_most_one("a line has one army's colour at most", &colours[l]);
            for &k in on {
                through[k].push(l);
            }
        }
        for k in 0..n * n {
            crate::guard::tick();
            if through[k].is_empty() {
                model.at_most_one("one piece per square", &on_square(k));
                continue;
            }
            for a in 0..armies {
                let mut all: Vec<Lit> = Vec::new();
                for &l in &through[k] {
                    model.implies(
                        "a piece's lines have its army's colour",
                        squares[a][k].pos(),
                        colours[l][a],
                    );
                    all.push(!colours[l][a]);
                }
                all.push(squares[a][k].pos());
                model.at_least_one(
                    "a square whose lines all have one colour holds that army",
                    &all,
                );
            }
        }
        comparison_order(n, &lines)
            .into_iter()
            .map(|l| (lines[l].1.clone(), colours[l].clone()))
            .unzip()
    };
    // Symmetry breaking, every row of one kind: the unit-by-army matrix read unit by unit is
    // no less, lexicographically with true above false, than its image under the symmetry.
    // Precedence is that for the armies' permutations; lex-leader rows over the negated
    // literals are that for the board's 8 symmetries. Both keep the greatest of each orbit of
    // the group they make together, so together they keep it too.
    crate::model::symmetry::value_precedence(
        &mut model,
        "army symmetry breaking (precedence)",
        "armies",
        &slots,
    );
    let x: Vec<Lit> = slots.iter().flatten().map(|&l| !l).collect();
    for (g, map) in unit_maps(n, &units).iter().enumerate() {
        let y: Vec<Lit> = map
            .iter()
            .flat_map(|&j| slots[j].iter().map(|&l| !l))
            .collect();
        crate::model::symmetry::lex_leader(
            &mut model,
            "board symmetry breaking (lex-leader)",
            &format!("sym{g}"),
            &x,
            &y,
        );
    }
    for (a, army) in squares.iter().enumerate() {
        let lits: Vec<Lit> = army.iter().map(|v| v.pos()).collect();
        let family = match a {
            0 => "at least q pieces in army W",
            1 => "at least q pieces in army B",
            _ => "at least q pieces in each further army",
        };
        model.cardinality(family, &lits, Sense::Ge, q as i64);
    }
    (model, squares)
}

/// [`armies_at_least`] as a runnable formulation.
pub fn armies_k<'a>(
    n: usize,
    piece: Piece,
    armies: usize,
    q: usize,
) -> Formulated<'a, PeaceableSolution> {
    let (model, squares) = armies_at_least(n, piece, armies, q);
    let how = if lines(n, piece).is_empty() {
        "pairwise"
    } else {
        "line-colouring"
    };
    formulated(
        n,
        model,
        squares,
        &format!(
            "SAT (CaDiCaL), {armies} peaceable armies, {how} model, the armies' permutations and the board's symmetries broken, ascending"
        ),
    )
}

impl PeaceableSolution {
    /// The pieces of each colour (the white ones counted).
    pub fn size(&self) -> usize {
        self.rows
            .iter()
            .map(|r| r.chars().filter(|&c| c == 'W').count())
            .sum()
    }

    /// The empty n×n board.
    pub fn empty(n: usize) -> PeaceableSolution {
        PeaceableSolution {
            rows: vec![".".repeat(n); n],
        }
    }
}

/// Two armies: `W` white, `B` black, `.` empty, one string a row.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PeaceableSolution {
    pub rows: Vec<String>,
}

/// The independent check of peaceable armies: equal sizes, and walking every white piece's
/// moves on the open board reaches no black piece.
pub fn verify_peaceable(piece: Piece, s: &PeaceableSolution) -> std::result::Result<usize, String> {
    verify_armies(piece, 2, s)
}

/// The independent check of `armies` peaceable armies (marked by the first `armies` of
/// [`ARMY_MARKS`]): every army the same size, and walking every piece's moves on the open board
/// reaches no piece of another army. Returns the size of an army.
pub fn verify_armies(
    piece: Piece,
    armies: usize,
    s: &PeaceableSolution,
) -> std::result::Result<usize, String> {
    let n = s.rows.len();
    let marks = &ARMY_MARKS[..armies.min(ARMY_MARKS.len())];
    let cells: Vec<char> = s.rows.iter().flat_map(|r| r.chars()).collect();
    if let Some((r, row)) = s
        .rows
        .iter()
        .enumerate()
        .find(|(_, r)| r.chars().count() != n)
    {
        return Err(format!(
            "row {} has {} squares on a board of {n} rows",
            r + 1,
            row.chars().count()
        ));
    }
    if let Some(k) = (0..cells.len()).find(|&k| cells[k] != '.' && !marks.contains(&cells[k])) {
        return Err(format!(
            "square {k} holds '{}', not one of {armies} armies",
            cells[k]
        ));
    }
    let sizes: Vec<usize> = marks
        .iter()
        .map(|m| cells.iter().filter(|&c| c == m).count())
        .collect();
    if let Some(a) = (1..sizes.len()).find(|&a| sizes[a] != sizes[0]) {
        return Err(match (armies, a) {
            (2, _) => format!("{} white pieces but {} black ones", sizes[0], sizes[1]),
            _ => format!(
                "army {} has {} pieces but army {} has {}",
                marks[0], sizes[0], marks[a], sizes[a]
            ),
        });
    }
    let board = Board::rectangle(n, n);
    for k in (0..n * n).filter(|&k| cells[k] != '.') {
        if let Some(t) = reach(&board, piece, k, false)
            .into_iter()
            .find(|&t| cells[t] != '.' && cells[t] != cells[k])
        {
            return Err(match armies {
                2 => format!("the white piece on square {k} attacks the black one on {t}"),
                _ => format!(
                    "the piece of army {} on square {k} attacks the one of army {} on {t}",
                    cells[k], cells[t]
                ),
            });
        }
    }
    Ok(sizes.first().copied().unwrap_or(0))
}
