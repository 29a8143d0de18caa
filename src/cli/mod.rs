//! The command line: parse arguments, call the library, print. Every puzzle follows one
//! contract: `quandary <puzzle> <verb> [args] [--json] [--svg FILE] [--time-limit SECS]`.

pub mod report;
pub mod tank;

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
        Command::Tour => tour(),
    }
}

fn tour() -> Result<i32, Error> {
    println!("quandary tour: one built-in instance of every puzzle\n");
    println!("== Tank Attack, 6×6 (seed chapter 26) ==");
    let code = tank::run(tank::TankVerb::Solve(tank::SolveArgs {
        n: "6".into(),
        opts: tank::TankOpts::default(),
        common: Common {
            json: false,
            svg: None,
            time_limit: None,
        },
    }))?;
    Ok(code)
}
