//! Verbs only one puzzle has (`gunport sweep`, `chess peaceable`, `tantrix check`, and
//! Battleship's setter: `redundant`, `minimize`, `generate`, `convert`): their flags and their
//! work, reached through the registry ([`super::registry::Entry::own_verbs`] and
//! [`super::registry::Entry::run_own`]), so that the front ends name no puzzle. Each answers a
//! [`Report`] like the generic verbs; the front ends print it, write its picture and its file.
//!
//! The flags are the command line's (clap); the page sends the same flags as a JSON object,
//! turned into the same words ([`words_of_json`]). So this room needs the `cli` feature.

use super::report::{report, status_word, Report};
use super::{bounded, drive, run, Limits};
use crate::error::{Error, Result};
use crate::input::Files;
use crate::puzzles::battleship::{self, puzzle};
use crate::puzzles::chess::{self, Piece};
use crate::puzzles::gunport::{self, dp, Gunport, GunportProblem};
use crate::puzzles::{tantrix, Query};
use crate::solve::search::Status;
use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};

/// `--json`, `--svg`, `--time-limit` for the verbs here.
#[derive(Args)]
struct Common {
    /// Print exactly one JSON object on stdout
    #[arg(long)]
    json: bool,
    /// Write a picture of the answer to FILE
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// Stop after SECS seconds with status "unknown" (exit status 1)
    #[arg(long, value_name = "SECS", allow_hyphen_values = true)]
    time_limit: Option<f64>,
}

/// The flags of a verb that answers many instances and draws no picture.
#[derive(Args)]
struct NoPicture {
    /// Print exactly one JSON object on stdout
    #[arg(long)]
    json: bool,
    /// Stop after SECS seconds with status "unknown" (exit status 1)
    #[arg(long, value_name = "SECS", allow_hyphen_values = true)]
    time_limit: Option<f64>,
}

#[derive(Subcommand)]
enum GunportVerb {
    /// Prove the optimum of every board in a range against the Sands and Pearce formulas
    Sweep {
        /// Largest number of rows
        #[arg(long, default_value_t = 10, allow_hyphen_values = true)]
        max_m: i64,
        /// Largest number of columns
        #[arg(long, default_value_t = 10, allow_hyphen_values = true)]
        max_n: i64,
        /// Smallest side
        #[arg(long, default_value_t = 1, allow_hyphen_values = true)]
        min: i64,
        /// Also cross-check every board with the transfer-matrix program where it applies
        #[arg(long)]
        check_dp: bool,
        /// Print the boards as CSV: m,n,optimum,pearce,sands,method,seconds
        #[arg(long, conflicts_with = "json")]
        csv: bool,
        #[command(flatten)]
        options: gunport::Options,
        /// (A sweep draws no picture: `gunport solve M N --svg FILE` draws one board.)
        #[command(flatten)]
        common: NoPicture,
    },
}

#[derive(Subcommand)]
enum ChessVerb {
    /// Peaceable armies: the largest m such that m white and m black pieces coexist on an n×n
    /// board with no piece attacking one of the other colour
    Peaceable {
        /// The side of the board (1 to 32)
        n: String,
        /// The piece type
        #[arg(long = "type", value_enum, default_value_t = Piece::Queen)]
        piece: Piece,
        #[command(flatten)]
        common: Common,
    },
}

#[derive(Subcommand)]
enum BattleshipVerb {
    /// Which given clues can each be removed with the solution staying unique (paper §5)
    Redundant {
        /// A puzzle file or puzz.link URL (see `battleship solve --help`)
        puzzle: String,
        #[command(flatten)]
        options: puzzle::Options,
        #[command(flatten)]
        common: Common,
    },
    /// A locally minimal clue set with the same unique solution, written as a puzzle file
    #[command(alias = "minimise")]
    Minimize {
        /// A puzzle file or puzz.link URL
        puzzle: String,
        #[command(flatten)]
        options: puzzle::Options,
        /// Try the clues in a random order drawn from this seed (default: reading order)
        #[arg(long)]
        seed: Option<u64>,
        /// Write the minimal puzzle to FILE (default: print it)
        #[arg(long, short = 'o')]
        out: Option<String>,
        #[command(flatten)]
        common: Common,
    },
    /// A new puzzle with exactly one solution and no redundant clue
    Generate {
        /// Rows of the board
        #[arg(long)]
        rows: usize,
        /// Columns of the board
        #[arg(long)]
        cols: usize,
        /// Counts of ships of length 1, 2, 3, ...
        #[arg(long)]
        fleet: String,
        /// Random seed: the same seed gives the same puzzle
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Which integer program to use
        #[arg(long, value_enum, default_value_t = battleship::model::Formulation::Runs)]
        formulation: battleship::model::Formulation,
        /// A band of difficulty, by the dearest step of the puzzle's explanation: easy (at
        /// most 4), medium (5 to 12), hard (13 and up), a largest cost N, or A-B
        #[arg(long)]
        difficulty: Option<String>,
        /// Write the puzzle to FILE (default: print it)
        #[arg(long, short = 'o')]
        out: Option<String>,
        #[command(flatten)]
        common: Common,
    },
    /// The page's workbench from the command line: each puzzle in turn (versions of one board
    /// as a setter edits it) answered as unique or not, with its forced cells and the clues
    /// that could each go, on one engine kept from one to the next
    Workbench {
        /// Puzzle files or puzz.link URLs, in the order of the edits
        #[arg(required = true)]
        puzzles: Vec<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Rewrite a puzzle (any format read) in quandary's own text format, or with --to as a
    /// puzz.link URL or a Boats game ID
    Convert {
        /// A puzzle file, puzz.link URL or Boats game ID
        puzzle: String,
        /// Which puzzle of a CSPLib file (its id; the first by default)
        #[arg(long)]
        instance: Option<String>,
        /// The format written: quandary's text, a puzz.link URL, or a Boats game ID
        #[arg(long, default_value = "quandary", value_parser = ["quandary", "puzzlink", "boats"])]
        to: String,
        /// Write to FILE (default: print it)
        #[arg(long, short = 'o')]
        out: Option<String>,
    },
}

#[derive(Subcommand)]
enum TantrixVerb {
    /// Check a solution file (cells with tile@turns) against the rules; exit status 4 if it
    /// breaks them
    Check {
        /// Solution file: `q,r tile@turns` per line
        solution: String,
        /// The challenge number (default: the number of cells)
        #[arg(long, short = 'n')]
        challenge: Option<usize>,
        /// Override the designated colour (red, blue, yellow)
        #[arg(long)]
        colour: Option<String>,
        /// Print exactly one JSON object on stdout
        #[arg(long)]
        json: bool,
    },
}

/// Adds a puzzle's own verbs to its command.
pub fn augment(puzzle: &str, cmd: Command) -> Command {
    match puzzle {
        "gunport" => GunportVerb::augment_subcommands(cmd),
        "chess" => ChessVerb::augment_subcommands(cmd),
        "battleship" => BattleshipVerb::augment_subcommands(cmd),
        "tantrix" => TantrixVerb::augment_subcommands(cmd),
        _ => cmd,
    }
}

fn parsed<T: FromArgMatches>(m: &ArgMatches) -> Result<T> {
    T::from_arg_matches(m).map_err(|e| Error::input(e.to_string()))
}

/// `base` with the verb's own time limit, if it gives one.
fn within(base: &Limits, time_limit: Option<f64>) -> Result<Limits> {
    if time_limit.is_none() {
        return Ok(base.clone());
    }
    let own =
        crate::solve::limits::time_limit(time_limit)?.and_then(|l| base.started.checked_add(l));
    let deadline = match (base.deadline, own) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    Ok(base.until(deadline))
}

/// Runs a puzzle's own verb; `m` holds the puzzle's matches (the verb is its subcommand).
/// `base` steers the run (a front end's deadline, stop flag, memory, progress), tightened by
/// the verb's own `--time-limit`; `line` receives lines a long verb reports as it goes (the
/// rows of a sweep).
pub fn run_verb(
    puzzle: &str,
    m: &ArgMatches,
    files: Files,
    base: &Limits,
    line: &mut dyn FnMut(&str),
) -> Result<Report> {
    match puzzle {
        "gunport" => match parsed::<GunportVerb>(m)? {
            GunportVerb::Sweep {
                max_m,
                max_n,
                min,
                check_dp,
                csv,
                options,
                common,
            } => sweep(
                [max_m, max_n, min],
                check_dp,
                &options,
                if csv {
                    Lines::Csv
                } else if common.json {
                    Lines::Json
                } else {
                    Lines::Text
                },
                &within(base, common.time_limit)?,
                line,
            ),
        },
        "chess" => match parsed::<ChessVerb>(m)? {
            ChessVerb::Peaceable { n, piece, common } => {
                peaceable(&n, piece, &within(base, common.time_limit)?)
            }
        },
        "battleship" => battleship_verb(parsed(m)?, files, base, line),
        "tantrix" => match parsed::<TantrixVerb>(m)? {
            TantrixVerb::Check {
                solution,
                challenge,
                colour,
                json: _,
            } => check(&solution, challenge, colour, files),
        },
        _ => Err(Error::input(format!("{puzzle} has no such verb"))),
    }
}

fn battleship_verb(
    verb: BattleshipVerb,
    files: Files,
    base: &Limits,
    line: &mut dyn FnMut(&str),
) -> Result<Report> {
    match verb {
        BattleshipVerb::Workbench { puzzles, common } => {
            let limits = within(base, common.time_limit)?;
            workbench(&puzzles, files, common.json, &limits, line)
        }
        BattleshipVerb::Redundant {
            puzzle,
            options,
            common,
        } => {
            let limits = within(base, common.time_limit)?;
            let p = puzzle::load(&puzzle, &options, files)?;
            super::setter::redundant(&p, &options, &limits)
        }
        BattleshipVerb::Minimize {
            puzzle,
            options,
            seed,
            out: _,
            common,
        } => {
            let limits = within(base, common.time_limit)?;
            let p = puzzle::load(&puzzle, &options, files)?;
            super::setter::minimize(&p, &options, seed, &limits)
        }
        BattleshipVerb::Generate {
            rows,
            cols,
            fleet,
            seed,
            formulation,
            difficulty,
            out: _,
            common,
        } => {
            let band = difficulty
                .as_deref()
                .map(super::setter::Band::parse)
                .transpose()?;
            let limits = within(base, common.time_limit)?;
            super::setter::generate(rows, cols, &fleet, seed, formulation, band, &limits)
        }
        BattleshipVerb::Convert {
            puzzle,
            instance,
            to,
            out: _,
        } => {
            let o = puzzle::Options {
                instance,
                ..Default::default()
            };
            let p = puzzle::load(&puzzle, &o, files)?;
            let ours = battleship::formats::to_quandary(&p, &format!("converted from {puzzle}"));
            let url = battleship::formats::to_puzzlink(&p);
            let boats = battleship::formats::to_boats(&p);
            let text = match to.as_str() {
                "puzzlink" => url.as_ref().map(|u| format!("{u}\n")).ok_or_else(|| {
                    crate::error::Error::input(format!(
                        "{puzzle}: a puzz.link URL cannot say this puzzle (its fleet is not \
                         3 2 1, 4 3 2 1 or 5 4 3 2 1, a count is over 4095, or a clue is a ship \
                         part of no kind)"
                    ))
                })?,
                "boats" => format!("{boats}\n"),
                _ => ours.clone(),
            };
            let mut r = Report::new(
                "battleship",
                "convert",
                <battleship::BattleshipPuzzle as crate::puzzles::Puzzle>::describe(&p),
                Status::Solved,
            );
            r.solution = Some(serde_json::json!({
                "puzzle": ours,
                "puzzlink": url,
                "boats": boats,
            }));
            r.file = Some(text.clone());
            r.text = text;
            Ok(r)
        }
    }
}

/// `battleship workbench`: the puzzles in turn on one [`super::setter::Workbench`], a line
/// each (text) or an entry each in `details.edits` (JSON); the report is the last one's.
fn workbench(
    puzzles: &[String],
    files: Files,
    json: bool,
    limits: &Limits,
    line: &mut dyn FnMut(&str),
) -> Result<Report> {
    let mut bench = super::setter::Workbench::new();
    let mut edits = Vec::new();
    let mut last = None;
    for (i, word) in puzzles.iter().enumerate() {
        let p = puzzle::load(word, &puzzle::Options::default(), files)?;
        let started = std::time::Instant::now();
        let r = bench.check(&p, limits)?;
        let seconds = started.elapsed().as_secs_f64();
        let d = r.details.clone().unwrap_or_default();
        let settled = d["forced"].as_array().map(Vec::len);
        let spare = d["redundant"].as_array().map(Vec::len);
        edits.push(serde_json::json!({
            "puzzle": word,
            "status": r.status.word(),
            "unique": r.unique,
            "seconds": seconds,
            "settled": settled,
            "redundant": spare,
            "solves": d["solves"],
            "remembered": d["remembered"],
            // Every question of the edit answered (none left open by a limit).
            "complete": r.answered()
                && d["forced_open"].as_u64().unwrap_or(0) == 0
                && (r.unique != Some(true) || d["clues_checked"] == d["clues"]),
        }));
        if !json {
            let headline = r.text.lines().next().unwrap_or_default();
            line(&format!(
                "edit {} ({word}), {seconds:.3} s: {headline}",
                i + 1
            ));
        }
        let stopped = !r.answered();
        last = Some(r);
        if stopped {
            break;
        }
    }
    let mut r = last.expect("at least one puzzle");
    r.stats.seconds = limits.seconds();
    r.details.get_or_insert_with(|| serde_json::json!({}))["edits"] = serde_json::json!(edits);
    Ok(r)
}

/// Peaceable armies, through the runner's optimum.
fn peaceable(word: &str, piece: Piece, limits: &Limits) -> Result<Report> {
    let n: usize = word
        .trim()
        .parse()
        .ok()
        .filter(|n| (1..=32).contains(n))
        .ok_or_else(|| {
            Error::input(format!(
                "board side '{word}' is not a whole number from 1 to 32"
            ))
        })?;
    let o = bounded(limits, "the peaceable-armies model", || {
        drive(chess::peaceable(n, piece), Query::Optimum, limits, false)
    })?;
    let instance = format!("peaceable {} armies on {n}×{n}", piece.letter());
    let mut r = Report::new("chess", "peaceable", instance.clone(), o.status);
    if let Some(s) = o.solutions.first() {
        chess::verify_peaceable(piece, s)
            .map_err(|why| Error::Internal(format!("peaceable armies fail the check: {why}")))?;
        r.solution = serde_json::to_value(s).ok();
        r.svg = Some(chess::peaceable_svg(piece, s));
        r.text = format!(
            "{instance}: {}, m = {}\n\n{}\n",
            status_word(o.status),
            o.objective.unwrap_or(0),
            s.rows.join("\n")
        );
    } else {
        r.text = format!("{instance}: {}\n", status_word(o.status));
    }
    r.facts = o.facts;
    r.stats.seconds = limits.seconds();
    Ok(r)
}

/// How a sweep prints its boards.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lines {
    Text,
    Json,
    Csv,
}

/// `gunport sweep`: the optimum of every board in a range, one line (or JSON object, or CSV
/// row) each. `sides`: the largest number of rows, of columns, and the smallest side. With
/// `--method auto` each narrow side takes one pass of the optimum transfer matrix for every
/// length at once ([`gunport::tm`]), where its array fits the memory limit; other boards, and
/// every board with `--method sat` or `exact`, are asked of the runner one by one.
fn sweep(
    [max_m, max_n, lo]: [i64; 3],
    check_dp: bool,
    o: &gunport::Options,
    lines: Lines,
    limits: &Limits,
    line: &mut dyn FnMut(&str),
) -> Result<Report> {
    let g_max = Gunport::new(max_m, max_n)?;
    Gunport::new(lo, lo)?;
    if lo as usize > g_max.m.min(g_max.n) {
        return Err(Error::input(format!(
            "--min {lo} is larger than the largest board side asked for"
        )));
    }
    let started = limits.started;
    let (mut rows, mut failures, mut unknown) = (Vec::new(), 0, 0);
    match lines {
        Lines::Text => line("   m    n  holes  proof     sands  pearce  seconds  method; note"),
        Lines::Csv => line("m,n,optimum,pearce,sands,method,seconds"),
        Lines::Json => {}
    }
    for m in lo as usize..=g_max.m {
        // One pass for every length of this width, when it fits.
        let pass = if o.plain()
            && m <= gunport::tm::MAX_WIDTH
            && gunport::tm::bytes(m) <= limits.memory_bytes()
        {
            let t = std::time::Instant::now();
            let optima = bounded(limits, "the transfer matrix", || {
                Ok(gunport::tm::optima(m, g_max.n))
            });
            match optima {
                Ok(Some(op)) if op.exact() => Some((op.holes, t.elapsed().as_secs_f64())),
                Ok(_) => None,
                Err(Error::Stopped(_)) => Some((Vec::new(), t.elapsed().as_secs_f64())),
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        for n in m.max(lo as usize)..=g_max.n {
            let g = Gunport { m, n };
            let (status, holes, method, seconds) = match &pass {
                Some((holes, seconds)) => match holes.get(n - 1) {
                    Some(&h) => (
                        Status::Optimal,
                        h,
                        format!(
                            "transfer matrix (width {m}, one pass for lengths 1..{})",
                            g_max.n
                        ),
                        *seconds,
                    ),
                    None => (
                        Status::Unknown,
                        -1,
                        "transfer matrix, stopped".into(),
                        *seconds,
                    ),
                },
                None => {
                    // One deadline for the whole sweep: boards after it answer "unknown" at once.
                    let board = Limits {
                        started: std::time::Instant::now(),
                        ..limits.clone()
                    };
                    let out = run::<GunportProblem>(&g, o, Query::Optimum, &board)?;
                    let r = report::<GunportProblem>(&g, o, out);
                    (
                        r.status,
                        r.objective.unwrap_or(-1),
                        r.stats.method.clone(),
                        r.stats.seconds,
                    )
                }
            };
            let proved = status == Status::Optimal;
            unknown += usize::from(!proved);
            let dp_value = check_dp
                .then(|| dp::optimum(m, n).map(|d| d.holes as i64))
                .flatten();
            let mut notes = Vec::new();
            if let (Some(d), true) = (dp_value, proved && d_differs(dp_value, holes)) {
                notes.push(format!("DYNAMIC PROGRAM SAYS {d}"));
            }
            if proved && g.sands().is_some_and(|s| s as i64 != holes) {
                notes.push("Sands fails".to_string());
            }
            if proved && m >= 2 && g.pearce() != holes {
                notes.push("Pearce fails".to_string());
                failures += 1;
            }
            let pearce = (m >= 2).then(|| g.pearce());
            let objective = proved.then_some(holes);
            match lines {
                Lines::Json => rows.push(serde_json::json!({"m": m, "n": n, "status": status,
                    "objective": objective, "sands": g.sands(), "pearce": pearce, "dp": dp_value,
                    "method": method, "seconds": seconds, "notes": notes})),
                Lines::Csv => line(&format!(
                    "{m},{n},{},{},{},\"{}\",{seconds:.3}",
                    objective.map_or(String::new(), |h| h.to_string()),
                    pearce.map_or(String::new(), |p| p.to_string()),
                    g.sands().map_or(String::new(), |s| s.to_string()),
                    method.replace('"', "'"),
                )),
                Lines::Text => line(&format!(
                    "{m:>4} {n:>4} {holes:>6}  {:<8} {:>6} {:>7} {:>8.3}  {}",
                    if proved { "optimal" } else { "unknown" },
                    g.sands().map_or("-".into(), |s| s.to_string()),
                    pearce.map_or("-".into(), |p| p.to_string()),
                    seconds,
                    [vec![method], notes].concat().join("; ")
                )),
            }
        }
    }
    let status = if unknown == 0 {
        Status::Optimal
    } else {
        Status::Unknown
    };
    let mut r = Report::new(
        "gunport",
        "sweep",
        format!("Gunport boards {lo}..{}×{lo}..{}", g_max.m, g_max.n),
        status,
    );
    r.stats.seconds = started.elapsed().as_secs_f64();
    r.details = Some(serde_json::json!({ "boards": rows, "pearce_fails": failures }));
    if lines != Lines::Csv {
        r.text = format!(
            "\n{:.1} s; {unknown} not proved within the limit; Pearce's formula fails on {failures} (1×n boards are paths and excluded).",
            r.stats.seconds
        );
    }
    Ok(r)
}

fn d_differs(d: Option<i64>, holes: i64) -> bool {
    d.is_some_and(|d| d != holes)
}

/// `tantrix check`: status solved if the file is a solution, rejected (exit status 4) if it
/// breaks the rules.
fn check(
    path: &str,
    challenge: Option<usize>,
    colour: Option<String>,
    files: Files,
) -> Result<Report> {
    let o = tantrix::puzzle::Options {
        challenge,
        colour,
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let (ch, result) = tantrix::puzzle::check(path, &o, files)?;
    let status = if result.is_ok() {
        Status::Solved
    } else {
        Status::Rejected
    };
    let mut r = Report::new("tantrix", "check", path.to_string(), status);
    r.stats.method = "independent check".into();
    r.stats.seconds = started.elapsed().as_secs_f64();
    r.text = match &result {
        Ok(len) => format!(
            "{path}: a solution of challenge {} (one {} loop of {len} tiles)",
            ch.n,
            ch.colour.name()
        ),
        Err(why) => format!("{path}: not a solution: {why}"),
    };
    r.solution =
        Some(serde_json::json!({"valid": result.is_ok(), "reason": result.as_ref().err()}));
    Ok(r)
}

/// The fields of a server request that are the request's own (what to run, on what, within
/// what), not an own verb's flags; a generic verb takes no other field.
pub const REQUEST_FIELDS: &[&str] = &[
    "puzzle",
    "verb",
    "words",
    "text",
    "args",
    "options",
    "id",
    "time_limit",
    "at_least",
];

/// The words of the command line that a JSON request for an own verb stands for: each key
/// (but those the request itself uses: puzzle, verb, words, text, args, options, id,
/// time_limit, at_least) as `--key value` (`--key` alone for `true`; underscores become
/// dashes), then the request's `args`, then its words.
pub fn words_of_json(v: &serde_json::Value, words: &[String]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    if let Some(o) = v.as_object() {
        for (k, val) in o {
            if REQUEST_FIELDS.contains(&k.as_str()) {
                continue;
            }
            let flag = format!("--{}", k.replace('_', "-"));
            match val {
                serde_json::Value::Bool(true) => out.push(flag),
                serde_json::Value::Bool(false) | serde_json::Value::Null => {}
                serde_json::Value::String(s) => out.extend([flag, s.clone()]),
                serde_json::Value::Number(n) => out.extend([flag, n.to_string()]),
                _ => {
                    return Err(Error::input(format!(
                        "\"{k}\" must be a string, a number or true"
                    )))
                }
            }
        }
    }
    match &v["args"] {
        serde_json::Value::Null => {}
        serde_json::Value::Array(a) => {
            for w in a {
                let w = w
                    .as_str()
                    .ok_or_else(|| Error::input("\"args\" must be a list of strings"))?;
                out.push(w.to_string());
            }
        }
        _ => return Err(Error::input("\"args\" must be a list of strings")),
    }
    out.extend(words.iter().cloned());
    Ok(out)
}
