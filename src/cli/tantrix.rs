//! `quandary tantrix ...`

use super::report::Report;
use super::{write_file, Common, Export};
use clap::{Args, Subcommand};
use quandary::model::{lp, opb};
use quandary::puzzles::tantrix::free::{self, Found};
use quandary::puzzles::tantrix::model::{Options, TantrixModel};
use quandary::puzzles::tantrix::{
    parse_board, to_board_file, to_svg, to_text, verify, Board, Challenge, Colour, Placement,
};
use quandary::solve::search::Status;
use quandary::Error;

#[derive(Subcommand)]
pub enum TantrixVerb {
    /// Solve a challenge on a fixed board (a file of hex cells)
    Solve(SolveArgs),
    /// Check a solution file (cells with tile@turns) against the rules
    Check(CheckArgs),
    /// No board given: find a board shape and a solution; writes a board file
    Free(FreeArgs),
    /// Count all layouts of tiles 1..n with one loop, up to translation and rotation (n ≤ 10)
    Count(CountArgs),
    /// Print the model's size per constraint family; export it as LP/OPB
    Model(ModelArgs),
}

#[derive(Args, Clone)]
pub struct ChallengeOpts {
    /// The challenge number n ≥ 3 (default: the number of cells of the board)
    #[arg(long, short = 'n')]
    pub challenge: Option<usize>,
    /// Override the designated colour (red, blue, yellow)
    #[arg(long)]
    pub colour: Option<String>,
}

#[derive(Args, Clone)]
pub struct ModelOpts {
    /// One variable per copy of a tile (the paper's C2) instead of per kind of tile (C2′)
    #[arg(long)]
    pub copies: bool,
    /// Leave out C6 (a place with two neighbours takes the loop through both)
    #[arg(long)]
    pub no_c6: bool,
    /// Loops ruled out in advance, by number of tiles: "3,4,5" is C7–C9 (the default); "none"
    #[arg(long, default_value = "3,4,5")]
    pub short_loops: String,
    /// Leave out the degree rows (two designated lines per place, at most two of each other
    /// colour), which the paper does not have
    #[arg(long)]
    pub no_degree: bool,
    /// State connectivity in advance (layered reachability from one cell) instead of adding
    /// sub-loop cuts lazily
    #[arg(long)]
    pub reach: bool,
}

impl ModelOpts {
    fn options(&self) -> Result<Options, Error> {
        let short_loops = if self.short_loops.trim() == "none" {
            Vec::new()
        } else {
            self.short_loops
                .split(',')
                .filter(|t| !t.trim().is_empty())
                .map(|t| match t.trim().parse::<usize>() {
                    Ok(k) if (3..=8).contains(&k) => Ok(k),
                    _ => Err(Error::input(format!(
                        "--short-loops: '{t}' is not a loop length 3..8 (e.g. \"3,4,5\" or \"none\")"
                    ))),
                })
                .collect::<Result<_, _>>()?
        };
        Ok(Options {
            copies: self.copies,
            c6: !self.no_c6,
            short_loops,
            reach: self.reach,
            degree: !self.no_degree,
        })
    }
}

#[derive(Args, Clone)]
pub struct EngineOpts {
    /// CaDiCaL engines racing on each solve, one thread each, differently configured (1-4)
    #[arg(long, default_value_t = 2)]
    pub engines: usize,
}

impl EngineOpts {
    fn run(&self, common: &Common) -> Result<free::Run, Error> {
        if !(1..=4).contains(&self.engines) {
            return Err(Error::input(format!(
                "--engines {}: give 1 to 4",
                self.engines
            )));
        }
        Ok(free::Run {
            time_limit: common.time_limit()?,
            progress: true,
            engines: self.engines,
        })
    }
}

#[derive(Args)]
pub struct SolveArgs {
    /// Board file: one cell `q,r` per line (axial coordinates), `#` comments
    pub board: String,
    #[command(flatten)]
    pub challenge: ChallengeOpts,
    #[command(flatten)]
    pub model: ModelOpts,
    #[command(flatten)]
    pub engines: EngineOpts,
    /// Write the solution file (cells with tile@turns) to FILE
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<String>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct CheckArgs {
    /// Solution file: `q,r tile@turns` per line
    pub solution: String,
    #[command(flatten)]
    pub challenge: ChallengeOpts,
    /// Print exactly one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct FreeArgs {
    #[command(flatten)]
    pub challenge: ChallengeOpts,
    /// Radius of the hexagon of candidate cells (default: about 2n cells)
    #[arg(long)]
    pub radius: Option<i32>,
    /// The board may have no holes
    #[arg(long)]
    pub hole_free: bool,
    #[command(flatten)]
    pub model: ModelOpts,
    #[command(flatten)]
    pub engines: EngineOpts,
    /// Write the board file (with the solution) to FILE
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<String>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub challenge: ChallengeOpts,
    /// Count boards with holes too (by default only hole-free layouts, as published)
    #[arg(long)]
    pub with_holes: bool,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct ModelArgs {
    pub board: String,
    #[command(flatten)]
    pub challenge: ChallengeOpts,
    #[command(flatten)]
    pub model: ModelOpts,
    #[command(flatten)]
    pub export: Export,
    /// Print exactly one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

pub fn run(verb: TantrixVerb) -> Result<i32, Error> {
    match verb {
        TantrixVerb::Solve(a) => solve(a),
        TantrixVerb::Check(a) => check(a),
        TantrixVerb::Free(a) => free_board(a),
        TantrixVerb::Count(a) => count(a),
        TantrixVerb::Model(a) => model(a),
    }
}

fn read(path: &str) -> Result<quandary::puzzles::tantrix::BoardFile, Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_string(),
        source,
    })?;
    parse_board(&text).map_err(|e| Error::input(format!("{path}: {e}")))
}

fn challenge(o: &ChallengeOpts, cells: Option<usize>) -> Result<Challenge, Error> {
    let colour = match &o.colour {
        None => None,
        Some(c) => Some(
            Colour::from_letter(c)
                .ok_or_else(|| Error::input(format!("--colour '{c}': give red, blue or yellow")))?,
        ),
    };
    let n = match (o.challenge, cells) {
        (Some(n), _) => n,
        (None, Some(c)) => c,
        (None, None) => return Err(Error::input("give the challenge number with --challenge N")),
    };
    let ch = Challenge::new(n, colour)?;
    if let Some(c) = cells {
        if c != n {
            return Err(Error::input(format!(
                "the board has {c} cells but challenge {n} has {n} tiles"
            )));
        }
    }
    Ok(ch)
}

fn solution_json(ch: &Challenge, board: &Board, placed: &[Placement]) -> serde_json::Value {
    let cells: Vec<serde_json::Value> = board
        .cells
        .iter()
        .zip(placed)
        .map(|(h, p)| serde_json::json!({"q": h.q, "r": h.r, "tile": p.tile, "turns": p.rot}))
        .collect();
    serde_json::json!({"challenge": ch.n, "colour": ch.colour.name(), "cells": cells,
        "board_file": to_board_file(board, Some(placed), "")})
}

fn report_found(
    verb: &'static str,
    ch: &Challenge,
    f: Found,
    out: Option<&str>,
    common: &Common,
    what: &str,
) -> Result<i32, Error> {
    let mut report = Report::new("tantrix", verb, f.status);
    report.stats.seconds = f.stats.seconds;
    report.stats.method = "SAT (CaDiCaL), Kino-Uno model with lazy sub-loop cuts".into();
    report.stats.model = Some(f.size);
    report.stats.solver_calls = Some(f.stats.solver_calls);
    report.stats.lazy_rounds = Some(f.stats.lazy_rounds);
    let head = format!(
        "Tantrix challenge {} ({} loop), {what}",
        ch.n,
        ch.colour.name()
    );
    match &f.solution {
        Some((board, placed)) => {
            if let Err(why) = verify::verify(ch, board, placed) {
                return Err(Error::input(format!(
                    "internal error: the solution found fails the check: {why}"
                )));
            }
            let file = to_board_file(
                board,
                Some(placed),
                &format!(
                    "Tantrix challenge {} ({} loop), found by quandary tantrix {verb}",
                    ch.n,
                    ch.colour.name()
                ),
            );
            if let Some(o) = out {
                write_file(o, &file)?;
            }
            if let Some(svg) = &common.svg {
                write_file(svg, &to_svg(board, Some(placed), ch.colour))?;
            }
            report.solution = Some(solution_json(ch, board, placed));
            report.text = format!(
                "{head}: solved after {} lazy round(s) of sub-loop cuts\n\n{}",
                f.stats.lazy_rounds,
                to_text(board, Some(placed))
            );
            if out.is_none() && !common.json {
                report.text.push_str(&format!("\n{file}"));
            }
        }
        None => {
            report.text = match f.status {
                Status::Infeasible => format!("{head}: no solution (proved)"),
                _ => format!("{head}: stopped by the time limit"),
            };
        }
    }
    Ok(report.emit(common.json))
}

fn solve(a: SolveArgs) -> Result<i32, Error> {
    let bf = read(&a.board)?;
    let ch = challenge(&a.challenge, Some(bf.board.len()))?;
    let opt = a.model.options()?;
    let f = free::solve_fixed(&ch, &bf.board, &opt, &a.engines.run(&a.common)?);
    report_found("solve", &ch, f, a.out.as_deref(), &a.common, "fixed board")
}

/// The tour's Tantrix step: challenge 60 on a board made by `free` (shipped in the binary),
/// solved from its cells alone.
pub fn tour() -> Result<i32, Error> {
    const BOARD: &str = include_str!("../../data/tantrix/boards/free-60.txt");
    let bf = parse_board(BOARD)?;
    let ch = Challenge::new(bf.board.len(), None)?;
    let how = free::Run {
        progress: true,
        ..free::Run::default()
    };
    let f = free::solve_fixed(&ch, &bf.board, &Options::default(), &how);
    let common = Common {
        json: false,
        svg: None,
        time_limit: None,
    };
    report_found(
        "solve",
        &ch,
        f,
        None,
        &common,
        "fixed board data/tantrix/boards/free-60.txt",
    )
}

fn free_board(a: FreeArgs) -> Result<i32, Error> {
    let ch = challenge(&a.challenge, None)?;
    let opt = a.model.options()?;
    let radius = a.radius.unwrap_or_else(|| free::default_radius(ch.n));
    if !(1..=60).contains(&radius) {
        return Err(Error::input(format!("--radius {radius}: give 1 to 60")));
    }
    if 3 * radius * (radius + 1) + 1 < ch.n as i32 {
        return Err(Error::input(format!(
            "--radius {radius}: the hexagon has fewer than {} cells",
            ch.n
        )));
    }
    let f = free::solve_free(&ch, radius, a.hole_free, &opt, &a.engines.run(&a.common)?);
    let what = format!(
        "board found in a hexagon of radius {radius}{}",
        if a.hole_free { ", hole-free" } else { "" }
    );
    report_found("free", &ch, f, a.out.as_deref(), &a.common, &what)
}

fn check(a: CheckArgs) -> Result<i32, Error> {
    let bf = read(&a.solution)?;
    let placed = bf.placements.ok_or_else(|| {
        Error::input(format!(
            "{}: no tiles: a solution file gives 'q,r tile@turns' on every line",
            a.solution
        ))
    })?;
    let ch = challenge(&a.challenge, Some(bf.board.len()))?;
    let started = std::time::Instant::now();
    let result = verify::verify(&ch, &bf.board, &placed);
    let mut report = Report::new(
        "tantrix",
        "check",
        if result.is_ok() {
            Status::Solved
        } else {
            Status::Infeasible
        },
    );
    report.stats.method = "independent check".into();
    report.stats.seconds = started.elapsed().as_secs_f64();
    report.text = match &result {
        Ok(len) => format!(
            "{}: a solution of challenge {} (one {} loop of {len} tiles)",
            a.solution,
            ch.n,
            ch.colour.name()
        ),
        Err(why) => format!("{}: not a solution: {why}", a.solution),
    };
    report.solution = Some(serde_json::json!({"valid": result.is_ok(),
        "reason": result.as_ref().err()}));
    report.emit(a.json);
    Ok(if result.is_ok() { 0 } else { 1 })
}

fn count(a: CountArgs) -> Result<i32, Error> {
    let ch = challenge(&a.challenge, None)?;
    if ch.n > 10 {
        return Err(Error::input(format!(
            "count: challenge {} repeats tile 1; counting needs n ≤ 10",
            ch.n
        )));
    }
    let (status, k, stats) = free::count(&ch, !a.with_holes, a.common.time_limit()?, true);
    let mut report = Report::new("tantrix", "count", status);
    report.count = Some(k);
    report.stats.seconds = stats.seconds;
    report.stats.method = "SAT (CaDiCaL), board search, enumeration with lazy cuts".into();
    report.stats.solver_calls = Some(stats.solver_calls);
    report.stats.lazy_rounds = Some(stats.lazy_rounds);
    report.text = format!(
        "Tantrix tiles 1..{}, {} loop{}: {}{k} layouts up to translation and rotation",
        ch.n,
        ch.colour.name(),
        if a.with_holes { "" } else { ", hole-free" },
        if status == Status::Unknown {
            "at least "
        } else {
            ""
        }
    );
    Ok(report.emit(a.common.json))
}

fn model(a: ModelArgs) -> Result<i32, Error> {
    let bf = read(&a.board)?;
    let ch = challenge(&a.challenge, Some(bf.board.len()))?;
    let opt = a.model.options()?;
    let tm = TantrixModel::fixed(&ch, &bf.board, &opt);
    let title = format!(
        "Tantrix challenge {} ({} loop) on {}, {}",
        ch.n,
        ch.colour.name(),
        a.board,
        if opt.copies {
            "C2 (tile copies)"
        } else {
            "C2' (tile kinds)"
        }
    );
    if let Some(f) = &a.export.lp {
        write_file(f, &lp::to_lp(&tm.model, &title))?;
    }
    if let Some(f) = &a.export.opb {
        write_file(f, &opb::to_opb(&tm.model, &title))?;
    }
    super::print_model(&tm.model, "tantrix", &title, a.json);
    Ok(0)
}
