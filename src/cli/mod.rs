//! The command line: parse arguments, call the library, print. Every puzzle follows one
//! contract: `quandary <puzzle> <verb> [args] [--json] [--svg FILE] [--time-limit SECS]`.

/// `println!` for results: a closed stdout (e.g. piped into `head`) ends the program quietly
/// instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        if writeln!(out, $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}
pub(crate) use outln;

pub mod battleship;
pub mod chess;
pub mod gunport;
pub mod report;
pub mod tank;
pub mod tantrix;

use clap::{Args, Parser, Subcommand};
use quandary::Error;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "quandary",
    version,
    about = "Solve, count, prove and generate puzzles by 0-1 integer programming",
    after_help = "Exit status: 0 with an answer, 1 when a limit stopped the search (status \"unknown\"), 2 on bad input."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Tank Attack: every tank's value equals the number of tanks attacking it
    Tank {
        #[command(subcommand)]
        verb: tank::TankVerb,
    },
    /// Chess avoidance: place an army on a board with holes, no piece attacking another
    Chess {
        #[command(subcommand)]
        verb: chess::ChessVerb,
    },
    /// Gunport: pack dominoes leaving the most holes, no two holes adjacent
    Gunport {
        #[command(subcommand)]
        verb: gunport::GunportVerb,
    },
    /// Battleship: place a fleet from row and column counts and a few given cells
    Battleship {
        #[command(subcommand)]
        verb: battleship::BattleshipVerb,
    },
    /// Tantrix on fixed boards: tiles on hex cells, the designated colour one loop
    Tantrix {
        #[command(subcommand)]
        verb: tantrix::TantrixVerb,
    },
    /// Solve one built-in instance of every puzzle and print it
    Tour,
}

/// Options every verb takes.
#[derive(Args, Clone, Debug)]
pub struct Common {
    /// Print exactly one JSON object on stdout
    #[arg(long)]
    pub json: bool,
    /// Write a picture of the solution to FILE
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
    /// Stop after SECS seconds with status "unknown" (exit status 1)
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<f64>,
}

impl Common {
    pub fn time_limit(&self) -> Result<Option<Duration>, Error> {
        match self.time_limit {
            None => Ok(None),
            Some(s) if s.is_finite() && s >= 0.0 => Ok(Some(Duration::from_secs_f64(s))),
            Some(s) => Err(Error::input(format!(
                "--time-limit {s} is not a number of seconds (give 0 or more)"
            ))),
        }
    }
}

/// Options of the `model` verb: export files.
#[derive(Args, Clone, Debug)]
pub struct Export {
    /// Write the model as a CPLEX-LP file
    #[arg(long, value_name = "FILE")]
    pub lp: Option<String>,
    /// Write the model as an OPB (pseudo-Boolean) file
    #[arg(long, value_name = "FILE")]
    pub opb: Option<String>,
}

pub fn write_file(path: &str, contents: &str) -> Result<(), Error> {
    std::fs::write(path, contents).map_err(|source| Error::Io {
        path: path.to_string(),
        source,
    })
}

/// Runs a parsed command; the result is the process's exit status.
pub fn run(cli: Cli) -> Result<i32, Error> {
    match cli.command {
        Command::Tank { verb } => tank::run(verb),
        Command::Gunport { verb } => gunport::run(verb),
        Command::Chess { verb } => chess::run(verb),
        Command::Battleship { verb } => battleship::run(verb),
        Command::Tantrix { verb } => tantrix::run(verb),
        Command::Tour => tour(),
    }
}

fn tour() -> Result<i32, Error> {
    outln!("quandary tour: one built-in instance of every puzzle\n");
    outln!("== Tank Attack, 6×6 (seed chapter 26) ==");
    let code = tank::run(tank::TankVerb::Solve(tank::SolveArgs {
        n: "6".into(),
        opts: tank::TankOpts::default(),
        common: Common {
            json: false,
            svg: None,
            time_limit: None,
        },
    }))?;
    outln!("\n== Gunport, 7×7 (seed chapter 29, Figure 29.1) ==");
    let code2 = gunport::run(gunport::GunportVerb::Solve(gunport::BoardArgs {
        m: "7".into(),
        n: "7".into(),
        formulation: quandary::puzzles::gunport::Formulation::Strong,
        no_dp: false,
        up_to_symmetry: false,
        common: Common {
            json: false,
            svg: None,
            time_limit: None,
        },
    }))?;
    outln!("\n== Chess avoidance, four bishops and two knights (seed chapter 60) ==");
    let seed_board = quandary::puzzles::chess::Board::parse(chess::SEED_BOARD)?;
    let code3 = chess::find_on(
        seed_board,
        chess::PuzzleArgs {
            board: chess::BoardOpts {
                board: "data/chess/friedman-b4n2.txt".into(),
                army: None,
                holes_block: false,
                formulation: quandary::puzzles::chess::Formulation::Pairwise,
            },
            sat: false,
            common: Common {
                json: false,
                svg: None,
                time_limit: None,
            },
        },
        "unique",
    )?;
    outln!("\n== Battleship, the puzz.link example (seed: Meuffels & den Hertog) ==");
    let code4 = battleship::run(battleship::BattleshipVerb::Unique(battleship::PuzzleArgs {
        input: battleship::Input {
            puzzle: "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c".into(),
            instance: None,
            fleet: None,
            formulation: quandary::puzzles::battleship::model::Formulation::Runs,
        },
        common: Common {
            json: false,
            svg: None,
            time_limit: None,
        },
    }))?;
    outln!("\n== Tantrix, challenge 60 on a fixed board (seed: Kino & Uno) ==");
    let code5 = tantrix::tour()?;
    Ok(code.max(code2).max(code3).max(code4).max(code5))
}

/// Prints a model's size and its rows per family (or one JSON object).
pub fn print_model(model: &quandary::model::Model, puzzle: &str, title: &str, json: bool) {
    let size = model.size();
    if json {
        let families: Vec<serde_json::Value> = model
            .families()
            .iter()
            .map(|(f, k)| serde_json::json!({"family": f, "rows": k}))
            .collect();
        outln!(
            "{}",
            serde_json::json!({"puzzle": puzzle, "verb": "model", "status": "solved",
                "title": title, "stats": {"model": size}, "families": families})
        );
    } else {
        outln!("{title}: {size}");
        for (family, rows) in model.families() {
            outln!("  {rows:>6}  {family}");
        }
    }
}
