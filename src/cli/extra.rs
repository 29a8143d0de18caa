//! Verbs only one puzzle has: flags here, work in the puzzle's module, output by `emit`.

use super::{emit, write_file, Output};
use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};
use quandary::puzzles::battleship::{self, verbs};
use quandary::puzzles::chess::{self, Piece};
use quandary::puzzles::gunport::{self, dp, Gunport, GunportProblem};
use quandary::puzzles::tantrix;
use quandary::runner::registry::{report, Report};
use quandary::runner::{self, Limits, Query};
use quandary::solve::search::Status;
use quandary::Error;

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

impl NoPicture {
    /// The limits of a run starting now.
    fn limits(&self) -> Result<Limits, Error> {
        Ok(super::run_limits(super::seconds(self.time_limit)?))
    }
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
        options: verbs::Options,
        #[command(flatten)]
        common: Common,
    },
    /// A locally minimal clue set with the same unique solution, written as a puzzle file
    #[command(alias = "minimise")]
    Minimize {
        /// A puzzle file or puzz.link URL
        puzzle: String,
        #[command(flatten)]
        options: verbs::Options,
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
        /// Write the puzzle to FILE (default: print it)
        #[arg(long, short = 'o')]
        out: Option<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Rewrite a puzzle (any format read) in quandary's own text format
    Convert {
        /// A puzzle file or puzz.link URL
        puzzle: String,
        /// Which puzzle of a CSPLib file (its id; the first by default)
        #[arg(long)]
        instance: Option<String>,
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

fn parsed<T: FromArgMatches>(m: &ArgMatches) -> Result<T, Error> {
    T::from_arg_matches(m).map_err(|e| Error::input(e.to_string()))
}

impl Common {
    fn output(&self) -> Output {
        Output {
            json: self.json,
            svg: self.svg.clone(),
            out: None,
        }
    }
    /// The limits of a run starting now (call it before reading the input).
    fn limits(&self) -> Result<Limits, Error> {
        Ok(super::run_limits(super::seconds(self.time_limit)?))
    }
}

/// Runs a puzzle's own verb.
pub fn run(puzzle: &str, m: &ArgMatches) -> Result<i32, Error> {
    match puzzle {
        "gunport" => match parsed::<GunportVerb>(m)? {
            GunportVerb::Sweep {
                max_m,
                max_n,
                min,
                check_dp,
                options,
                common,
            } => sweep(max_m, max_n, min, check_dp, &options, &common),
        },
        "chess" => match parsed::<ChessVerb>(m)? {
            ChessVerb::Peaceable { n, piece, common } => {
                super::check_outputs(&common.output(), None)?;
                emit(&peaceable(&n, piece, &common.limits()?)?, &common.output())
            }
        },
        "battleship" => battleship_verb(parsed(m)?),
        "tantrix" => match parsed::<TantrixVerb>(m)? {
            TantrixVerb::Check {
                solution,
                challenge,
                colour,
                json,
            } => check(&solution, challenge, colour, json),
        },
        _ => Err(Error::input(format!("{puzzle} has no such verb"))),
    }
}

fn battleship_verb(verb: BattleshipVerb) -> Result<i32, Error> {
    let read = |puzzle: &str, o: &verbs::Options| verbs::load(puzzle, o);
    match verb {
        BattleshipVerb::Redundant {
            puzzle,
            options,
            common,
        } => {
            let limits = common.limits()?;
            super::check_outputs(&common.output(), None)?;
            let p = read(&puzzle, &options)?;
            emit(&verbs::redundant(&p, &options, &limits)?, &common.output())
        }
        BattleshipVerb::Minimize {
            puzzle,
            options,
            seed,
            out,
            common,
        } => {
            let limits = common.limits()?;
            super::check_outputs(&common.output(), out.as_ref())?;
            let p = read(&puzzle, &options)?;
            let r = verbs::minimize(&p, &options, seed, &limits)?;
            puzzle_out(r, out, &common)
        }
        BattleshipVerb::Generate {
            rows,
            cols,
            fleet,
            seed,
            formulation,
            out,
            common,
        } => {
            let limits = common.limits()?;
            super::check_outputs(&common.output(), out.as_ref())?;
            let r = verbs::generate(rows, cols, &fleet, seed, formulation, &limits)?;
            puzzle_out(r, out, &common)
        }
        BattleshipVerb::Convert {
            puzzle,
            instance,
            out,
        } => {
            let o = verbs::Options {
                instance,
                ..Default::default()
            };
            let p = read(&puzzle, &o)?;
            let text = battleship::formats::to_quandary(&p, &format!("converted from {puzzle}"));
            match out {
                Some(f) => write_file(&f, &text)?,
                None => print!("{text}"),
            }
            Ok(0)
        }
    }
}

/// A new puzzle's report: its file written to `out`, or printed with the report.
fn puzzle_out(mut r: Report, out: Option<String>, common: &Common) -> Result<i32, Error> {
    if let Some(path) = &out {
        let file = r
            .solution
            .as_ref()
            .and_then(|s| s["puzzle"].as_str())
            .unwrap_or_default();
        write_file(path, file)?;
        r.text = r.text.replacen(file, &format!("(written to {path})\n"), 1);
    }
    emit(&r, &common.output())
}

/// Peaceable armies, through the runner's optimum.
fn peaceable(word: &str, piece: Piece, limits: &Limits) -> Result<Report, Error> {
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
    let o = runner::bounded(limits, "the peaceable-armies model", || {
        runner::drive(chess::peaceable(n, piece), Query::Optimum, limits, false)
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
            word_of(o.status),
            o.objective.unwrap_or(0),
            s.rows.join("\n")
        );
    } else {
        r.text = format!("{instance}: {}\n", word_of(o.status));
    }
    r.facts = o.facts;
    r.stats.seconds = limits.seconds();
    Ok(r)
}

fn word_of(s: Status) -> &'static str {
    quandary::runner::registry::status_word(s)
}

/// `gunport sweep`: the optimum of every board in a range, one line (or JSON object) each.
fn sweep(
    max_m: i64,
    max_n: i64,
    lo: i64,
    check_dp: bool,
    o: &gunport::Options,
    c: &NoPicture,
) -> Result<i32, Error> {
    let g_max = Gunport::new(max_m, max_n)?;
    Gunport::new(lo, lo)?;
    if lo as usize > g_max.m.min(g_max.n) {
        return Err(Error::input(format!(
            "--min {lo} is larger than the largest board side asked for"
        )));
    }
    let limits = c.limits()?;
    let started = limits.started;
    let (mut rows, mut failures, mut unknown) = (Vec::new(), 0, 0);
    if !c.json {
        outln!("   m    n  holes  proof     sands  pearce  seconds  note");
    }
    for m in lo as usize..=g_max.m {
        for n in m.max(lo as usize)..=g_max.n {
            let g = Gunport { m, n };
            // One deadline for the whole sweep: boards after it answer "unknown" at once.
            let board = Limits {
                started: std::time::Instant::now(),
                ..limits.clone()
            };
            let out = runner::run::<GunportProblem>(&g, o, Query::Optimum, &board)?;
            let r = report::<GunportProblem>(&g, o, out);
            let proved = r.status == Status::Optimal;
            let holes = r.objective.unwrap_or(-1);
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
            if c.json {
                rows.push(
                    serde_json::json!({"m": m, "n": n, "status": r.status, "objective": r.objective,
                    "sands": g.sands(), "pearce": pearce, "dp": dp_value,
                    "seconds": r.stats.seconds, "notes": notes}),
                );
            } else {
                outln!(
                    "{m:>4} {n:>4} {holes:>6}  {:<8} {:>6} {:>7} {:>8.3}  {}",
                    if proved { "optimal" } else { "unknown" },
                    g.sands().map_or("-".into(), |s| s.to_string()),
                    pearce.map_or("-".into(), |p| p.to_string()),
                    r.stats.seconds,
                    notes.join("; ")
                );
            }
        }
    }
    if c.json {
        outln!(
            "{}",
            serde_json::json!({"puzzle": "gunport", "verb": "sweep",
            "status": if unknown == 0 { "optimal" } else { "unknown" },
            "boards": rows, "stats": {"seconds": started.elapsed().as_secs_f64()}})
        );
    } else {
        outln!(
            "\n{:.1} s; {unknown} not proved within the limit; Pearce's formula fails on {failures} (1×n boards are paths and excluded).",
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if unknown > 0 { 1 } else { 0 })
}

fn d_differs(d: Option<i64>, holes: i64) -> bool {
    d.is_some_and(|d| d != holes)
}

/// `tantrix check`: exit 0 if the file is a solution, 4 if it breaks the rules.
fn check(
    path: &str,
    challenge: Option<usize>,
    colour: Option<String>,
    json: bool,
) -> Result<i32, Error> {
    let o = tantrix::puzzle::Options {
        challenge,
        colour,
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let (ch, result) = tantrix::puzzle::check(path, &o)?;
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
    emit(
        &r,
        &Output {
            json,
            svg: None,
            out: None,
        },
    )?;
    Ok(if result.is_ok() { 0 } else { 4 })
}
