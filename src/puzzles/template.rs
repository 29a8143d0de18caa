//! A template for a new puzzle: Latin squares, in one file.
//!
//! An order-n Latin square fills an n×n grid with the symbols 1..n so that each appears once
//! in every row and every column; some cells may be given. There are 1, 2, 12, 576 and
//! 161,280 Latin squares of orders 1 to 5 (OEIS A002860), which the conformance suite checks.
//!
//! To add a puzzle, copy this file to `src/puzzles/<name>.rs` (or a folder), declare it in
//! `src/puzzles/mod.rs`, implement [`Puzzle`] for a unit type, and add its row to
//! [`crate::puzzles!`] (`src/puzzles/registered.rs`). Every generic verb (`solve`, `count`,
//! `unique`, `forced`, `explain`, `model`; `optimum` and `reach` when it has an objective),
//! JSON, SVG, time limits and verification of every answer then come from the runner, and
//! every front end offers it (the command line, the page, Python, batch jobs). Besides the
//! required hooks (`read`, `describe`, `formulate`, `verify`, `text`, `svg`) it shows the
//! three that make a board editable and explainable: `givens` (what the pictures of an
//! explanation's steps must show), `sketch` (the board drawn with its editable places) and
//! `edit` (one change written back as input for `read`). The template is registered as
//! `latin`, so the whole suite runs on it: the conformance tests (`tests/conformance.rs`, which
//! still want a puzzle's small instances and a spoiled solution), the board round trip
//! (`tests/editing.rs`), the page's offer and Python's `puzzles()`.
//!
//! ```
//! use quandary::puzzles::template::LatinSquare;
//! use quandary::puzzles::{Files, Puzzle};
//! use quandary::runner::{run, Limits, Query};
//!
//! let options = Default::default();
//! let square = LatinSquare::read(&["3".to_string()], &options, Files::Disk).unwrap();
//! let outcome = run::<LatinSquare>(&square, &options, Query::Count { cap: None }, &Limits::none()).unwrap();
//! assert_eq!(outcome.count, Some(12));
//! ```

use super::sketch::{self, Field, Input, Sketch, Spot, SpotShape};
use super::{Broken, Formulated, Givens, Goal, Meaning, Place, Puzzle};
use crate::error::{Error, Result};
use crate::geometry::Grid;
use crate::model::{Kind, Lit, Model, Var};
use crate::puzzles::Files;
use crate::puzzles::Query;

/// The largest order accepted.
pub const MAX_ORDER: usize = 30;

/// An instance: the order, and the given symbols (row-major, 0 for an empty cell).
pub struct Square {
    pub n: usize,
    pub given: Vec<usize>,
}

/// The options: a real puzzle names its formulations and switches here.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Maximise the sum of the symbols on the main diagonal (`optimum`, `reach`)
    #[cfg_attr(feature = "cli", arg(long))]
    pub diagonal: bool,
}

/// Latin squares as a [`Puzzle`].
pub struct LatinSquare;

impl Puzzle for LatinSquare {
    const NAME: &'static str = "latin";
    const TITLE: &'static str = "Latin square";
    const ABOUT: &'static str = "Latin square: each symbol once in every row and column";
    const INPUT: &'static str =
        "The order n, optionally followed by the rows (digits, 0 for empty)";
    const EXAMPLE: &'static [&'static str] = &["4", "1000", "0200", "0030", "0004"];
    const NOUN: &'static str = "square";
    const HAS_GOAL: bool = true;
    const GOAL_NAME: &'static str = "diagonal sum";

    type Instance = Square;
    type Options = Options;
    type Solution = Vec<Vec<usize>>;

    fn read(words: &[String], _: &Options, _: Files) -> Result<Square> {
        let Some((first, rows)) = words.split_first() else {
            return Err(Error::input(
                "latin takes the order n, then optionally n rows",
            ));
        };
        let n: usize = first
            .parse()
            .ok()
            .filter(|n| (1..=MAX_ORDER).contains(n))
            .ok_or_else(|| {
                Error::input(format!(
                    "order '{first}' is not a whole number from 1 to {MAX_ORDER}"
                ))
            })?;
        if !rows.is_empty() && rows.len() != n {
            return Err(Error::input(format!(
                "give no rows or all {n} rows (got {})",
                rows.len()
            )));
        }
        let mut given = vec![0; n * n];
        for (r, row) in rows.iter().enumerate() {
            let digits: Vec<usize> = row
                .chars()
                .map(|c| c.to_digit(36).map(|d| d as usize).filter(|&d| d <= n))
                .collect::<Option<_>>()
                .ok_or_else(|| {
                    Error::input(format!(
                        "row {}: '{row}' has a symbol outside 0..{n}",
                        r + 1
                    ))
                })?;
            if digits.len() != n {
                return Err(Error::input(format!(
                    "row {}: {} symbols, expected {n}",
                    r + 1,
                    digits.len()
                )));
            }
            given[r * n..(r + 1) * n].copy_from_slice(&digits);
        }
        Ok(Square { n, given })
    }

    fn describe(s: &Square) -> String {
        format!("Latin square of order {}", s.n)
    }

    fn formulate<'a>(
        s: &'a Square,
        o: &Options,
        _: Query,
    ) -> Result<Formulated<'a, Self::Solution>> {
        let n = s.n;
        let grid = Grid::square(n);
        let mut model = Model::new();
        // x[cell * n + k]: the cell (row-major, as the grid numbers it) holds symbol k+1.
        let x: Vec<Var> = (0..grid.cells() * n)
            .map(|i| {
                let (r, c) = grid.cell(i / n);
                model.var(format!("x_{r}_{c}_{}", i % n + 1))
            })
            .collect();
        let at = |r: usize, c: usize, k: usize| x[grid.index((r, c)) * n + k].pos();
        // Each row in a reason group, in the words an explanation cites (rows and columns
        // counted from 1).
        for a in 0..n {
            for b in 0..n {
                let cell: Vec<Lit> = (0..n).map(|k| at(a, b, k)).collect();
                let here = Some(Place::Cell(a, b));
                model.group(
                    Kind::Rule,
                    here,
                    format!("({},{}) holds one symbol", a + 1, b + 1),
                );
                model.exactly_one("one symbol per cell", &cell);
                let row: Vec<Lit> = (0..n).map(|c| at(a, c, b)).collect();
                model.group(
                    Kind::Rule,
                    None,
                    format!("row {} holds {} once", a + 1, b + 1),
                );
                model.exactly_one("each symbol once per row", &row);
                let col: Vec<Lit> = (0..n).map(|r| at(r, a, b)).collect();
                model.group(
                    Kind::Rule,
                    None,
                    format!("column {} holds {} once", a + 1, b + 1),
                );
                model.exactly_one("each symbol once per column", &col);
            }
        }
        for (i, &g) in s.given.iter().enumerate() {
            if g > 0 {
                let (r, c) = grid.cell(i);
                model.group(
                    Kind::Given,
                    Some(Place::Cell(r, c)),
                    format!("({},{}) shows {g}", r + 1, c + 1),
                );
                model.add(
                    "given",
                    vec![(1, at(r, c, g - 1))],
                    crate::model::Sense::Eq,
                    1,
                );
            }
        }
        model.end_group();
        // The objective, in the model (the symbol's value on each diagonal cell) and in the
        // puzzle's terms (one unit a unit, nothing at zero, n² proved outside the model: a
        // cyclic square shifted so that its diagonal holds n everywhere reaches it).
        let goal = o.diagonal.then(|| {
            model.maximise(
                (0..n)
                    .flat_map(|d| (0..n).map(move |k| (d, k)))
                    .map(|(d, k)| (k as i64 + 1, at(d, d, k)))
                    .collect(),
            );
            Goal {
                name: "diagonal sum",
                maximise: true,
                per_unit: 1,
                at_zero: 0,
                proved_bound: Some((n * n) as i64),
                step: 1,
            }
        });
        let meanings = (0..grid.cells() * n)
            .map(|i| {
                let (r, c) = grid.cell(i / n);
                Meaning::at(Place::Cell(r, c), (i % n + 1).to_string())
            })
            .collect();
        let decisions = x.clone();
        let mut f = Formulated::new(
            model,
            decisions,
            meanings,
            move |a| {
                (0..n)
                    .map(|r| {
                        (0..n)
                            .map(|c| {
                                (0..n)
                                    .find(|&k| a[x[grid.index((r, c)) * n + k].index()])
                                    .map_or(0, |k| k + 1)
                            })
                            .collect()
                    })
                    .collect()
            },
            "SAT (CaDiCaL), one-hot model".into(),
        );
        f.block_by_true_decisions = true;
        f.goal = goal;
        Ok(f)
    }

    fn verify(s: &Square, rows: &Self::Solution) -> std::result::Result<String, Broken> {
        let n = s.n;
        if rows.len() != n || rows.iter().any(|r| r.len() != n) {
            return Err(format!("the square is not {n}×{n}").into());
        }
        let at = |r: usize, c: usize| rows[r][c];
        for i in 0..n {
            let mut in_row = vec![false; n + 1];
            let mut in_col = vec![false; n + 1];
            for j in 0..n {
                for (v, seen, what, cell) in [
                    (at(i, j), &mut in_row, "row", (i, j)),
                    (at(j, i), &mut in_col, "column", (j, i)),
                ] {
                    if v == 0 || v > n || seen[v] {
                        return Err(Broken::at(
                            format!("{what} {} repeats or lacks symbol {v}", i + 1),
                            [Place::Cell(cell.0, cell.1)],
                        ));
                    }
                    seen[v] = true;
                }
                let g = s.given[i * n + j];
                if g != 0 && at(i, j) != g {
                    return Err(Broken::at(
                        format!("cell ({}, {}) must hold the given {g}", i + 1, j + 1),
                        [Place::Cell(i, j)],
                    ));
                }
            }
        }
        Ok(format!(
            "every symbol once in each of the {n} rows and columns"
        ))
    }

    fn text(_: &Square, rows: &Self::Solution) -> String {
        let cells: Vec<Vec<String>> = rows
            .iter()
            .map(|r| r.iter().map(|v| v.to_string()).collect())
            .collect();
        crate::render::text::grid(&cells)
    }

    /// The givens, for the pictures of an explanation's steps (which cite them).
    fn givens(s: &Square) -> Givens {
        Givens {
            clues: (0..s.n * s.n)
                .filter(|&k| s.given[k] != 0)
                .map(|k| (Place::Cell(k / s.n, k % s.n), s.given[k].to_string()))
                .collect(),
            ..Default::default()
        }
    }

    /// The square as a setter edits it: each cell a place whose value is its given symbol
    /// (none for an empty cell), the order a field beside it.
    fn sketch(s: &Square, _: &Options) -> Option<Sketch> {
        let n = s.n;
        let mut pic = crate::render::svg::GridPicture::new(n, n, &Self::describe(s));
        let choices: Vec<String> = std::iter::once(String::new())
            .chain((1..=n).map(|v| v.to_string()))
            .collect();
        let mut spots = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let given = s.given[r * n + c];
                pic.fill(r, c, if given != 0 { "#dde6f0" } else { "#ffffff" });
                if given != 0 {
                    pic.label(r, c, &given.to_string(), "#1f5fa8");
                }
                let (x, y, w, h) = pic.cell_box(r, c);
                spots.push(Spot {
                    at: format!("cell {},{}", r + 1, c + 1),
                    value: if given == 0 {
                        String::new()
                    } else {
                        given.to_string()
                    },
                    choices: choices.clone(),
                    click: choices.len(),
                    shape: SpotShape::Rect(x, y, w, h),
                    ghost: false,
                    title: format!("cell {},{}: a given symbol 1 to {n}, or none", r + 1, c + 1),
                });
            }
        }
        Some(Sketch {
            svg: crate::render::svg::overlay(pic.finish(), &spots),
            fields: vec![Field {
                at: "order".into(),
                label: "Order of the square".into(),
                value: n as i64,
                min: 1,
                max: MAX_ORDER as i64,
            }],
            help: format!(
                "Click a cell to give it a symbol (1 to {n}; clicks cycle), again to take it away"
            ),
            owns: Vec::new(),
        })
    }

    /// One change written back as the words [`LatinSquare::read`] reads: a new order (the
    /// givens that still fit kept), or one cell's given set or taken away.
    fn edit(s: &Square, _: &Options, at: &str, value: &str) -> Result<Input> {
        let (mut n, mut given) = (s.n, s.given.clone());
        if at == "order" {
            let m = sketch::number(at, value, 1, MAX_ORDER as i64)? as usize;
            given = (0..m * m)
                .map(|k| (k / m, k % m))
                .map(|(r, c)| match r < n && c < n && s.given[r * n + c] <= m {
                    true => s.given[r * n + c],
                    false => 0,
                })
                .collect();
            n = m;
        } else {
            let (r, c) = sketch::cell(at, (n, n))?;
            given[r * n + c] = match value.trim() {
                "" => 0,
                v => sketch::number(at, v, 1, n as i64)? as usize,
            };
        }
        let mut words = vec![n.to_string()];
        if given.iter().any(|&g| g != 0) {
            // A symbol as one base-36 digit, as the reader takes it.
            let digit = |v: usize| char::from_digit(v as u32, 36).unwrap_or('0');
            words.extend(
                given
                    .chunks(n)
                    .map(|row| row.iter().map(|&v| digit(v)).collect()),
            );
        }
        Ok(Input {
            words,
            text: String::new(),
            options: Vec::new(),
        })
    }

    fn svg(s: &Square, _: &Options, rows: &Self::Solution, marked: &[Place]) -> String {
        let mut pic = crate::render::svg::GridPicture::new(s.n, s.n, &Self::describe(s));
        for (r, row) in rows.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                let given = s.given[r * s.n + c] != 0;
                pic.fill(r, c, if given { "#dde6f0" } else { "#ffffff" });
                pic.label(r, c, &v.to_string(), "#222");
            }
        }
        pic.ring_broken(marked);
        pic.finish()
    }
}
