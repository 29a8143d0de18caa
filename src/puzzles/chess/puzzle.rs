//! Chess avoidance as a [`Puzzle`]: options, reading a board, the trait's hooks.

use super::*;
use crate::error::{Error, Result};
use crate::puzzles::Files;
use crate::puzzles::Query;
use crate::puzzles::{Exact, Formulated, Goal, Meaning, Place, Puzzle};
use crate::solve::limits::Limits;
use crate::solve::search::Status;

/// The options of every chess query.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct Options {
    /// The army, e.g. B4N2 (letters Q R B N K with counts); overrides the file's `army:` line
    #[cfg_attr(feature = "cli", arg(long))]
    pub army: Option<String>,
    /// Holes stop the lines of queens, rooks and bishops (default: they do not, as in the seed)
    #[cfg_attr(feature = "cli", arg(long))]
    pub holes_block: bool,
    /// Which integer program to solve
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Formulation::Pairwise))]
    pub formulation: Formulation,
    /// Count with the integer program (blocking clauses) instead of the exact counter
    #[cfg_attr(feature = "cli", arg(long))]
    pub sat: bool,
    /// Maximise: as many pieces of this type as fit, besides the army (`optimum`, `max`)
    #[cfg_attr(feature = "cli", arg(long = "type", value_enum, value_name = "T"))]
    #[serde(rename = "type")]
    pub piece: Option<Piece>,
    /// Maximise: as many pieces of any types as fit, besides the army
    #[cfg_attr(feature = "cli", arg(long))]
    pub any: bool,
}

/// A chess-avoidance instance: the board, what to place, and whether holes block lines.
pub struct Instance {
    pub board: Board,
    pub goal: Aim,
    pub holes_block: bool,
    /// No army named (an open board, `5x5`, with no `--army`): the board is drawn and edited
    /// (its army counts start at 0), and a question asked of it says how to give one.
    pub unarmed: bool,
}

/// What a question asked of a board with no army says.
const NO_ARMY: &str = "no army given: give one (the command line's --army, e.g. --army B4N2; the page's counts beside the board; Python's army=\"B4N2\") or an `army:` line in the board file";

/// A placement, with its board rows for people and scripts.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Solution {
    /// One string per row: `.` empty, `#` hole, a piece letter.
    pub rows: Vec<String>,
    pub army: String,
    #[serde(skip)]
    pub pieces: Vec<Option<Piece>>,
}

/// Reads the board word: an existing file, or `ROWSxCOLS` / `N` for an open board.
pub fn load_board(word: &str, files: Files) -> Result<Board> {
    let arg = word.trim();
    match files.read(arg) {
        Ok(text) => Board::parse(&text).map_err(|e| Error::input(format!("{arg}: {e}"))),
        Err(unread) => {
            let dims: Vec<&str> = arg.split(['x', 'X']).collect();
            let parsed: Option<Vec<usize>> = dims.iter().map(|d| d.parse().ok()).collect();
            match parsed.as_deref() {
                Some([n]) if (1..=64).contains(n) => Ok(Board::rectangle(*n, *n)),
                Some([r, c]) if (1..=64).contains(r) && (1..=64).contains(c) => {
                    Ok(Board::rectangle(*r, *c))
                }
                Some(_) => Err(Error::input(format!(
                    "board size '{arg}': sides must be 1 to 64"
                ))),
                None => Err(unread),
            }
        }
    }
}

impl Board {
    /// The army to place: `--army` if given, else the file's, else none (an exact army
    /// named nowhere is the reader's `unarmed`, refused when a question is asked); checked
    /// against the board's squares and fixed pieces.
    pub fn army_for(&self, given: Option<&str>) -> Result<Army> {
        let army = match given {
            Some(text) => Army::parse(text)?,
            None => self.army.unwrap_or_default(),
        };
        let squares = self.squares().len();
        if army.total() > squares {
            return Err(Error::input(format!(
                "the army {army} has {} pieces but the board has only {squares} squares",
                army.total()
            )));
        }
        let fixed = army_of(&self.fixed);
        if let Some(p) = PIECES
            .iter()
            .find(|p| fixed.0[p.index()] > army.0[p.index()])
        {
            return Err(Error::input(format!(
                "the board fixes {} {} but the army {army} has only {}",
                fixed.0[p.index()],
                p.letter(),
                army.0[p.index()]
            )));
        }
        Ok(army)
    }
}

/// Chess avoidance as a [`Puzzle`].
pub struct ChessAvoidance;

/// The seed's puzzle (chapter 60), the built-in example.
pub const SEED_BOARD: &str = include_str!("../../../data/chess/friedman-b4n2.txt");

impl Puzzle for ChessAvoidance {
    const NAME: &'static str = "chess";
    const TITLE: &'static str = "Chess avoidance";
    const ABOUT: &'static str =
        "Chess avoidance: place an army on a board with holes, no piece attacking another";
    const INPUT: &'static str =
        "A board file (rows of '.', '#' and fixed piece letters), or ROWSxCOLS / N for an open board";
    const EXAMPLE: &'static [&'static str] = &["data/chess/friedman-b4n2.txt"];
    const FORMULATIONS: &'static [&'static str] = &["pairwise", "bigm", "clique"];
    const NOUN: &'static str = "placement";
    const TOUR: Query = Query::Unique;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("max", "optimum")];
    const HAS_GOAL: bool = true;
    const GIVE_A_GOAL: &'static str = "give --type T or --any";
    const GOAL_NAME: &'static str = "pieces";

    type Instance = Instance;
    type Options = Options;
    type Solution = Solution;

    fn read(words: &[String], o: &Options, files: Files) -> Result<Instance> {
        let [word] =
            crate::puzzles::words(words, "one word, a board file or a size such as 8 or 5x6")?;
        // The built-in example reads from the binary, so the tour works from any folder.
        let board = if word == Self::EXAMPLE[0] && !files.exists(word) {
            Board::parse(SEED_BOARD)?
        } else {
            load_board(word, files)?
        };
        let unarmed = o.piece.is_none() && !o.any && o.army.is_none() && board.army.is_none();
        let goal = match (o.piece, o.any) {
            (None, false) => Aim::Exactly(board.army_for(o.army.as_deref())?),
            (Some(_), true) => return Err(Error::input("give at most one of --type T and --any")),
            // The base army comes from --army only: a file's `army:` line describes its puzzle,
            // not a floor for maxima.
            (extra, _) => Aim::Maximise {
                base: Board {
                    army: None,
                    ..board.clone()
                }
                .army_for(o.army.as_deref())?,
                extra,
            },
        };
        let board = match goal {
            Aim::Maximise { .. } => Board {
                army: None,
                ..board
            },
            Aim::Exactly(_) => board,
        };
        Ok(Instance {
            board,
            goal,
            holes_block: o.holes_block,
            unarmed,
        })
    }

    fn describe(i: &Instance) -> String {
        let what = match i.goal {
            Aim::Exactly(_) if i.unarmed => "no army given yet".to_string(),
            Aim::Exactly(a) => format!("army {a}"),
            Aim::Maximise { extra, base } => {
                let most = match extra {
                    Some(p) => format!("most {} pieces", p.letter()),
                    None => "most pieces of any type".into(),
                };
                if base.0.iter().all(|&k| k == 0) {
                    most
                } else {
                    format!("{most}, with the army {base}")
                }
            }
        };
        format!("Chess avoidance {}×{}, {what}", i.board.rows, i.board.cols)
    }

    fn formulate<'a>(i: &'a Instance, o: &Options, _: Query) -> Result<Formulated<'a, Solution>> {
        if i.unarmed {
            return Err(Error::input(NO_ARMY));
        }
        let mut cm = i.board.formulate(i.goal, o.formulation, i.holes_block);
        let meanings =
            cm.x.iter()
                .map(|&(sq, p, _)| Meaning {
                    words: Some((format!("a {}", p.name()), format!("not a {}", p.name()))),
                    ..Meaning::at(
                        Place::Cell(sq / i.board.cols, sq % i.board.cols),
                        p.letter().to_string(),
                    )
                })
                .collect();
        let goal = cm.model.objective.as_ref().map(|_| Goal {
            name: "pieces",
            maximise: true,
            per_unit: 1,
            at_zero: 0,
            proved_bound: None,
            step: 1,
        });
        let model = std::mem::take(&mut cm.model);
        let decisions = cm.decisions();
        let board = &i.board;
        let mut f = Formulated::new(
            model,
            decisions,
            meanings,
            move |a| {
                let pieces = cm.decode(a);
                Solution {
                    rows: board.rows_with(&pieces),
                    army: army_of(&pieces).to_string(),
                    pieces,
                }
            },
            crate::solve::sat_method(o.formulation),
        );
        f.goal = goal;
        Ok(f)
    }

    fn verify(i: &Instance, s: &Solution) -> std::result::Result<String, Broken> {
        verify(&i.board, &s.pieces, i.holes_block)?;
        let army = army_of(&s.pieces);
        match i.goal {
            Aim::Exactly(a) if a != army => {
                Err(format!("the placement holds {army}, not the army {a}").into())
            }
            Aim::Maximise { base, .. }
                if PIECES.iter().any(|p| army.0[p.index()] < base.0[p.index()]) =>
            {
                Err(format!("the placement holds {army}, less than the army {base}").into())
            }
            _ => Ok(format!("{army}, no piece attacks another")),
        }
    }

    fn text(_: &Instance, s: &Solution) -> String {
        s.rows.join("\n") + "\n"
    }

    fn sketch(i: &Instance, _: &Options) -> Option<crate::puzzles::sketch::Sketch> {
        use crate::puzzles::sketch::{Field, Sketch, Spot, SpotShape};
        let b = &i.board;
        let grid = crate::render::svg::GridPicture::new(b.rows, b.cols, "");
        let mut choices = vec![".".to_string(), "#".to_string()];
        choices.extend(PIECES.iter().map(|p| p.letter().to_string()));
        let mut spots = Vec::new();
        for r in 0..b.rows {
            for c in 0..b.cols {
                let k = r * b.cols + c;
                let value = match (b.square[k], b.fixed[k]) {
                    (false, _) => "#".to_string(),
                    (true, Some(p)) => p.letter().to_string(),
                    (true, None) => ".".to_string(),
                };
                let (x, y, w, h) = grid.cell_box(r, c);
                spots.push(Spot {
                    at: format!("cell {},{}", r + 1, c + 1),
                    value,
                    choices: choices.clone(),
                    click: 2,
                    shape: SpotShape::Rect(x, y, w, h),
                    ghost: false,
                    title: format!(
                        "square {},{}: click to cut a hole or restore the square; a key Q R B N K fixes a piece there, . clears it",
                        r + 1,
                        c + 1
                    ),
                });
            }
        }
        let army = match i.goal {
            Aim::Exactly(a) => a,
            Aim::Maximise { base, .. } => base,
        };
        let squares = b.squares().len() as i64;
        let side = |at: &str, label: &str, value: usize| Field {
            at: at.into(),
            label: label.into(),
            value: value as i64,
            min: 1,
            max: 64,
        };
        let mut fields = vec![
            side("rows", "Rows", b.rows),
            side("cols", "Columns", b.cols),
        ];
        for (p, glyph) in PIECES.iter().zip(["♕", "♖", "♗", "♘", "♔"]) {
            fields.push(Field {
                at: format!("army {}", p.letter()),
                label: format!("{glyph} {}s", p.name()),
                value: army.0[p.index()] as i64,
                min: 0,
                max: squares,
            });
        }
        Some(Sketch {
            svg: crate::render::svg::overlay(to_svg(b, &b.fixed, &[]), &spots),
            fields,
            help: "Click a square to cut a hole or restore it; with the pointer on a square, keys \
                   Q R B N K fix a piece there and . clears it; the army is counted beside the board"
                .into(),
            owns: vec!["army".into()],
        })
    }

    fn edit(
        i: &Instance,
        _: &Options,
        at: &str,
        value: &str,
    ) -> Result<crate::puzzles::sketch::Input> {
        use crate::puzzles::sketch;
        let mut b = i.board.clone();
        let mut army = match i.goal {
            Aim::Exactly(a) => a,
            Aim::Maximise { base, .. } => base,
        };
        if let Some(letter) = at.strip_prefix("army ") {
            let p = letter
                .chars()
                .next()
                .and_then(Piece::from_letter)
                .filter(|_| letter.len() == 1)
                .ok_or_else(|| sketch::unknown(Self::NAME, at))?;
            army.0[p.index()] = sketch::number(at, value, 0, MAX_CELLS as i64)? as usize;
        } else if at == "rows" || at == "cols" {
            let v = sketch::number(at, value, 1, 64)? as usize;
            let (rows, cols) = if at == "rows" {
                (v, b.cols)
            } else {
                (b.rows, v)
            };
            if rows * cols > MAX_CELLS {
                return Err(Error::input(format!(
                    "a {rows}×{cols} board has more than {MAX_CELLS} cells"
                )));
            }
            let mut grown = Board::rectangle(rows, cols);
            for r in 0..rows.min(b.rows) {
                for c in 0..cols.min(b.cols) {
                    grown.square[r * cols + c] = b.square[r * b.cols + c];
                    grown.fixed[r * cols + c] = b.fixed[r * b.cols + c];
                }
            }
            b = grown;
        } else {
            let (r, c) = sketch::cell(at, (b.rows, b.cols))?;
            let k = r * b.cols + c;
            match value.trim() {
                "." => (b.square[k], b.fixed[k]) = (true, None),
                "#" => (b.square[k], b.fixed[k]) = (false, None),
                v => {
                    let p = v
                        .chars()
                        .next()
                        .filter(|_| v.chars().count() == 1)
                        .and_then(Piece::from_letter)
                        .ok_or_else(|| {
                            Error::input(format!(
                                "{at}: '{}' is not '.', '#' or a piece letter (Q R B N K)",
                                crate::error::clip(v)
                            ))
                        })?;
                    (b.square[k], b.fixed[k]) = (true, Some(p));
                }
            }
        }
        // The army holds the pieces the board fixes: a piece fixed by a click joins it.
        let fixed = army_of(&b.fixed);
        for p in PIECES {
            army.0[p.index()] = army.0[p.index()].max(fixed.0[p.index()]);
        }
        let mut text = String::new();
        for r in 0..b.rows {
            for c in 0..b.cols {
                let k = r * b.cols + c;
                text.push(match (b.square[k], b.fixed[k]) {
                    (false, _) => '#',
                    (true, Some(p)) => p.letter(),
                    (true, None) => '.',
                });
            }
            text.push('\n');
        }
        Ok(sketch::Input {
            words: Vec::new(),
            text,
            options: vec![("army".into(), (army.total() > 0).then(|| army.to_string()))],
        })
    }

    fn svg(i: &Instance, _: &Options, s: &Solution, marked: &[Place]) -> String {
        to_svg(&i.board, &s.pieces, marked)
    }

    fn exact(
        i: &Instance,
        o: &Options,
        query: Query,
        _limits: &Limits,
    ) -> Option<Result<Exact<Solution>>> {
        if i.unarmed {
            return Some(Err(Error::input(NO_ARMY)));
        }
        let Aim::Exactly(army) = i.goal else {
            return None;
        };
        if !matches!(query, Query::Count { .. }) || o.sat {
            return None;
        }
        let n = count::count(&i.board, army, i.holes_block)?;
        Some(Ok(Exact {
            status: if n == 0 {
                Status::Infeasible
            } else {
                Status::Solved
            },
            solutions: Vec::new(),
            count: n as u128,
            objective: None,
            method: "exact bitset counter".into(),
            scope: None,
            agreement: None,
            details: None,
        }))
    }
}
