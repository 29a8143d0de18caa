//! Tank Attack as a [`Puzzle`]: options, the trait's hooks (the line search for small sides).

use super::*;
use crate::error::{Error, Result};
use crate::puzzles::Files;
pub use crate::puzzles::Method;
use crate::puzzles::Query;
use crate::puzzles::{Broken, Exact, Formulated, Phase, Place, Purpose, Puzzle};
use crate::solve::limits::Limits;
use crate::solve::search::Status;

/// How a Tank Attack query is answered.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct Options {
    /// Which method answers: `auto` (the consistent search for sides 6 to 8, and 5 with
    /// givens; the line search for the smaller sides; SAT beyond 8), `sat` (the integer program),
    /// `exact` (the line search over the feasible-line automaton, sides 2 to 12) or `gac` (the
    /// consistent search: every row and column kept consistent with the feasible lines, sides
    /// 2 to 8)
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Method::Auto))]
    pub method: Method,
    /// Which integer program the SAT method solves
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Formulation::Strong))]
    pub formulation: Formulation,
    /// Keep every symmetric copy when finding one board (no lex-leader rows)
    #[cfg_attr(feature = "cli", arg(long))]
    pub no_symmetry_breaking: bool,
    /// Look only at boards with this symmetry (answers then hold among those boards only);
    /// the same flag as Gunport's `--symmetry`
    #[cfg_attr(
        feature = "cli",
        arg(long, visible_alias = "symmetric", value_enum, value_name = "GROUP")
    )]
    #[serde(alias = "symmetric")]
    pub symmetry: Option<Symmetric>,
    /// In the SVG, ring cell ROW,COL (1-based) and shade the tanks attacking it
    #[cfg_attr(feature = "cli", arg(long, value_name = "ROW,COL"))]
    pub mark: Option<String>,
    /// Run only part K of N of the exact search (its first rows K, K + N, K + 2N, ...) or of
    /// the consistent search (the same first rows, or with givens its cubes K, K + N, ...); the
    /// answer holds for that part, and the parts' counts add up to the whole
    #[cfg_attr(feature = "cli", arg(long, value_name = "K/N"))]
    pub part: Option<String>,
    /// Fix cell ROW,COL (1-based) to VALUE: a puzzle's given (repeat it, or give several
    /// separated by spaces); `unique` then says whether the givens leave one board
    #[cfg_attr(feature = "cli", arg(long, value_name = "ROW,COL=VALUE"))]
    #[serde(deserialize_with = "crate::puzzles::one_or_many")]
    pub fix: Vec<String>,
}

/// Reads `--mark ROW,COL` (1-based) as a 0-based cell of an n×n board.
pub(super) fn parse_mark(mark: &Option<String>, n: usize) -> Result<Option<(usize, usize)>> {
    let Some(text) = mark else { return Ok(None) };
    let bad = || {
        Error::input(format!(
            "--mark '{text}' is not a cell: give ROW,COL with both between 1 and {n}"
        ))
    };
    let (r, c) = text.split_once(',').ok_or_else(bad)?;
    let r: usize = r.trim().parse().map_err(|_| bad())?;
    let c: usize = c.trim().parse().map_err(|_| bad())?;
    if r == 0 || c == 0 || r > n || c > n {
        return Err(bad());
    }
    Ok(Some((r - 1, c - 1)))
}

/// Whether the consistent search answers: asked for, or chosen by `auto` for a board of side
/// 6 to 8, or of side 5 to 8 with givens (where the line search, which loses its symmetry
/// reduction to givens, is the slower). Without givens it is 1.5 times as fast as the line
/// search on 6×6 and 3 times on 7×7; below 6 both take milliseconds (docs/tank.md).
fn consistent_search(t: &Tank, o: &Options) -> bool {
    let from = if t.givens.is_empty() {
        AUTO_GAC_FROM
    } else {
        AUTO_GAC_WITH_GIVENS_FROM
    };
    o.method == Method::Gac
        || (o.method == Method::Auto && o.symmetry.is_none() && (from..=AUTO_GAC_TO).contains(&t.n))
}

/// The least side on which `auto` gives a board without givens to the consistent search.
const AUTO_GAC_FROM: usize = 6;

/// The least side on which `auto` gives a board with givens to the consistent search.
const AUTO_GAC_WITH_GIVENS_FROM: usize = 5;

/// The largest side `auto` gives the consistent search: at 9 its table alone takes 4.6 GB
/// (runs measured 5.4 to 8.7 GB), so there it runs only when asked for.
const AUTO_GAC_TO: usize = 8;

/// Tank Attack as a [`Puzzle`].
pub struct TankAttack;

impl Puzzle for TankAttack {
    const VERB_OPTIONS: &'static [(&'static str, &'static [&'static str])] = &[
        ("no_symmetry_breaking", &["solve"]),
        ("part", &["solve", "count", "unique"]),
    ];
    const NAME: &'static str = "tank";
    const TITLE: &'static str = "Tank Attack";
    const ABOUT: &'static str =
        "Tank Attack: every tank's value equals the number of tanks attacking it";
    const INPUT: &'static str = "The side n of the n×n board";
    const EXAMPLE: &'static [&'static str] = &["6"];
    const FORMULATIONS: &'static [&'static str] = &["seed", "strong"];
    const NOUN: &'static str = "board";

    type Instance = Tank;
    type Options = Options;
    type Solution = Board;

    fn read(words: &[String], options: &Options, _: Files) -> Result<Tank> {
        let [word] = crate::puzzles::words(words, "one word, the side n of the n×n board")?;
        let t = Tank::parse(word)?.with_givens(&options.fix)?;
        parse_mark(&options.mark, t.n)?;
        if crate::puzzles::parse_part(&options.part)?.is_some()
            && (options.method == Method::Sat
                || (options.symmetry.is_some() && options.method != Method::Gac))
        {
            return Err(Error::input(
                "--part splits the exact or the consistent search: it cannot go with --method sat, nor with --symmetry unless --method gac",
            ));
        }
        if options.method == Method::Gac && !(2..=gac::MAX_GAC_SIDE).contains(&t.n) {
            return Err(Error::input(format!(
                "--method gac handles sides 2 to {} (the table of feasible lines of 10 would hold 2.4 billion lines, about 160 GB); this board has side {}",
                gac::MAX_GAC_SIDE,
                t.n
            )));
        }
        let exact_asked = options.method == Method::Exact || options.part.is_some();
        if exact_asked && !(2..=exact::MAX_EXACT_SIDE).contains(&t.n) {
            return Err(Error::input(format!(
                "--method exact handles sides 2 to {}; this board has side {} (use --method sat)",
                exact::MAX_EXACT_SIDE,
                t.n
            )));
        }
        Ok(t)
    }

    fn describe(t: &Tank) -> String {
        match t.givens.len() {
            0 => format!("Tank Attack {0}×{0}", t.n),
            1 => format!("Tank Attack {0}×{0}, 1 given", t.n),
            g => format!("Tank Attack {0}×{0}, {g} givens", t.n),
        }
    }

    fn givens(t: &Tank) -> crate::puzzles::Givens {
        crate::puzzles::Givens {
            clues: t
                .givens
                .iter()
                .map(|&(i, j, v)| (crate::puzzles::Place::Cell(i, j), v.to_string()))
                .collect(),
            ..Default::default()
        }
    }

    fn formulate<'a>(t: &'a Tank, o: &Options, query: Query) -> Result<Formulated<'a, Board>> {
        let mut tm = t.formulate(
            o.formulation,
            Purpose::of(query) == Purpose::Find && !o.no_symmetry_breaking,
        );
        if let Some(g) = o.symmetry {
            tm.restrict_to_symmetric(g);
        }
        Ok(t.formulated(tm, o.formulation, o.symmetry))
    }

    fn verify(t: &Tank, board: &Board) -> std::result::Result<String, Broken> {
        verify(board, &t.givens).map(|()| {
            if t.givens.is_empty() {
                "every tank is attacked by as many tanks as its value".into()
            } else {
                "every tank is attacked by as many tanks as its value, and every given holds".into()
            }
        })
    }

    fn text(_: &Tank, board: &Board) -> String {
        to_text(board)
    }

    fn sketch(t: &Tank, _: &Options) -> Option<crate::puzzles::sketch::Sketch> {
        use crate::puzzles::sketch::{Field, Sketch, Spot, SpotShape};
        let n = t.n;
        let mut pic = crate::render::svg::GridPicture::new(n, n, &Self::describe(t));
        let mut spots = Vec::new();
        let choices: Vec<String> = std::iter::once(String::new())
            .chain((1..n).map(|v| v.to_string()))
            .collect();
        for i in 0..n {
            for j in 0..n {
                pic.fill(i, j, "#f4f1e8");
                let given = t.givens.iter().find(|g| (g.0, g.1) == (i, j));
                if let Some(g) = given {
                    pic.label(i, j, &g.2.to_string(), "#1f5fa8");
                }
                let (x, y, w, h) = pic.cell_box(i, j);
                spots.push(Spot {
                    at: format!("cell {},{}", i + 1, j + 1),
                    value: given.map(|g| g.2.to_string()).unwrap_or_default(),
                    choices: choices.clone(),
                    click: choices.len(),
                    shape: SpotShape::Rect(x, y, w, h),
                    ghost: false,
                    title: format!(
                        "cell {},{}: a given value 1 to {}, or none",
                        i + 1,
                        j + 1,
                        n - 1
                    ),
                });
            }
        }
        Some(Sketch {
            svg: crate::render::svg::overlay(pic.finish(), &spots),
            fields: vec![Field {
                at: "size".into(),
                label: "Side of the board".into(),
                value: n as i64,
                min: 1,
                max: MAX_SIDE as i64,
            }],
            help: format!(
                "Click a cell to give it a value (1 to {}; clicks cycle, keys type it), again to take it away",
                n.saturating_sub(1)
            ),
            owns: vec!["fix".into()],
        })
    }

    fn edit(t: &Tank, _: &Options, at: &str, value: &str) -> Result<crate::puzzles::sketch::Input> {
        use crate::puzzles::sketch;
        let (n, mut givens) = (t.n, t.givens.clone());
        let n = if at == "size" {
            let n = sketch::number(at, value, 1, MAX_SIDE as i64)? as usize;
            givens.retain(|g| g.0 < n && g.1 < n && (g.2 as usize) < n);
            n
        } else {
            let (i, j) = sketch::cell(at, (n, n))?;
            givens.retain(|g| (g.0, g.1) != (i, j));
            if !value.trim().is_empty() {
                let v = sketch::number(at, value, 1, n as i64 - 1)? as u32;
                givens.push((i, j, v));
                givens.sort();
            }
            n
        };
        let fix: Vec<String> = givens
            .iter()
            .map(|g| format!("{},{}={}", g.0 + 1, g.1 + 1, g.2))
            .collect();
        Ok(sketch::Input {
            words: vec![n.to_string()],
            text: String::new(),
            options: vec![("fix".into(), (!fix.is_empty()).then(|| fix.join(" ")))],
        })
    }

    fn svg(t: &Tank, o: &Options, board: &Board, marked: &[Place]) -> String {
        to_svg(
            board,
            parse_mark(&o.mark, t.n).ok().flatten(),
            &t.givens,
            marked,
        )
    }

    fn exact(
        t: &Tank,
        o: &Options,
        query: Query,
        _limits: &Limits,
    ) -> Option<Result<Exact<Board>>> {
        let consistent = consistent_search(t, o);
        // A symmetry the boards must have: the consistent search ties the cells to their
        // images; the line search has no such restriction (SAT answers).
        let applies =
            (2..=exact::MAX_EXACT_SIDE).contains(&t.n) && (o.symmetry.is_none() || consistent);
        let part = crate::puzzles::parse_part(&o.part).ok().flatten();
        let wanted = consistent
            || o.method == Method::Exact
            || part.is_some()
            || (o.method == Method::Auto && t.n <= exact::AUTO_EXACT_SIDE);
        let limit = match query {
            Query::First => Some(1),
            Query::Unique => Some(2),
            Query::Count { .. } | Query::Forced => None,
            _ => return None,
        };
        // Forced cells over the whole space only (a part's agreement is not the answer, nor
        // that of the symmetric boards: SAT answers there, saying so).
        if !(applies && wanted)
            || (query == Query::Forced && (part.is_some() || o.symmetry.is_some()))
        {
            return None;
        }
        let mut boards: Vec<Board> = Vec::new();
        let mut agreement = (query == Query::Forced).then(crate::puzzles::Agreement::default);
        let mut seen = 0u64;
        let on_board = |b: &[Vec<u32>]| {
            seen += 1;
            if boards.len() < 2 {
                boards.push(b.to_vec());
            }
            if let Some(a) = agreement.as_mut() {
                // What the model's decisions say: the value of each cell.
                a.add(b.iter().enumerate().flat_map(|(r, row)| {
                    row.iter()
                        .enumerate()
                        .map(move |(c, v)| (crate::puzzles::Place::Cell(r, c), v.to_string()))
                }));
            }
            limit.is_none_or(|l| seen < l)
        };
        // What each search splits into parts, and how many it has in all.
        let (count, complete, method, details, (search, pieces, total)) = if consistent {
            let generators = o.symmetry.map_or(&[][..], |g| g.generators());
            let out = gac::search(t.n, part, &t.givens, generators, on_board);
            let pieces = if out.by_first_rows {
                "the orbits led by its first rows"
            } else {
                "its cubes"
            };
            let details = serde_json::json!({
                "cubes": out.cubes, "cubes_done": out.cubes_done, "nodes": out.nodes,
                "feasible_lines": out.lines
            });
            let split = ("consistent search", pieces, Some(out.cubes));
            (
                out.count,
                out.complete,
                "consistent search",
                Some(details),
                split,
            )
        } else {
            let out = exact::search(t.n, part, &t.givens, on_board);
            let details = out.first_rows.map(
                |f| serde_json::json!({ "first_rows": f, "first_rows_done": out.first_rows_done }),
            );
            let split = (
                "exact search",
                "the orbits led by its first rows",
                out.first_rows,
            );
            (out.count, out.complete, "exact line search", details, split)
        };
        let scope = part.map(|(k, n)| {
            format!(
                "part {} of {n} of the {search} ({pieces} {}, {}, ... of {})",
                k + 1,
                k + 1,
                k + 1 + n,
                total.map_or("all".to_string(), |c| c.to_string())
            )
        });
        let scope = match (o.symmetry, scope) {
            (Some(g), Some(part)) => Some(format!("{}, {part}", g.describe())),
            (Some(g), None) => Some(g.describe().to_string()),
            (None, scope) => scope,
        };
        let status = if complete {
            if count == 0 {
                Status::Infeasible
            } else {
                Status::Solved
            }
        } else if limit.is_some_and(|l| count >= l) {
            Status::Solved
        } else {
            Status::Unknown
        };
        Some(Ok(Exact {
            status,
            solutions: boards,
            count: count as u128,
            objective: None,
            method: method.into(),
            details,
            scope,
            agreement,
        }))
    }

    /// Finding one board: boards with all eight symmetries, then quarter-turn-symmetric ones
    /// (small, fast searches; a board found there is a board) before the full model.
    fn phases<'a>(t: &'a Tank, o: &Options, query: Query) -> Vec<Phase<'a, Board>> {
        // Givens are seldom symmetric: then the whole model at once.
        if query != Query::First
            || o.method != Method::Auto
            || o.symmetry.is_some()
            || t.n < 4
            || !t.givens.is_empty()
        {
            return Vec::new();
        }
        let formulation = o.formulation;
        [Symmetric::D4, Symmetric::Rot90]
            .into_iter()
            .map(|g| Phase {
                scope: g.describe().to_string(),
                share: 1.0,
                unlimited: None,
                build: Box::new(move || {
                    let mut tm = t.formulate(formulation, false);
                    tm.restrict_to_symmetric(g);
                    t.formulated(tm, formulation, None)
                }),
            })
            .collect()
    }
}
