//! `quandary gunport ...`

use super::report::{status_word, Report};
use super::{write_file, Common, Export};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use quandary::model::{lp, opb};
use quandary::puzzles::gunport::{self, dp, Formulation, Gunport};
use quandary::solve::search::Status;
use quandary::Error;

#[derive(Subcommand)]
pub enum GunportVerb {
    /// The most holes on an M×N board, with a proof of optimality
    Solve(BoardArgs),
    /// The number of optimal packings
    Count(BoardArgs),
    /// Is the optimal packing unique?
    Unique(BoardArgs),
    /// Is there a packing with at least H holes? Finds one or proves there is none
    Reach(ReachArgs),
    /// Prove the optimum of every board in a range against the Sands and Pearce formulas
    Sweep(SweepArgs),
    /// Print a formulation's size; export it as LP/OPB
    Model(ModelArgs),
}

#[derive(Args)]
pub struct BoardArgs {
    /// Rows
    #[arg(allow_hyphen_values = true)]
    pub m: String,
    /// Columns
    #[arg(allow_hyphen_values = true)]
    pub n: String,
    /// Which integer program to solve
    #[arg(long, value_enum, default_value_t = Formulation::Strong)]
    pub formulation: Formulation,
    /// Count with the integer program even where the dynamic program applies
    #[arg(long)]
    pub no_dp: bool,
    /// Count packings up to the board's rotations and reflections as well
    #[arg(long)]
    pub up_to_symmetry: bool,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReachMethod {
    Sat,
    Budget,
}

#[derive(Args)]
pub struct ReachArgs {
    /// Rows
    #[arg(allow_hyphen_values = true)]
    pub m: String,
    /// Columns
    #[arg(allow_hyphen_values = true)]
    pub n: String,
    /// The number of holes to reach
    #[arg(long, allow_hyphen_values = true)]
    pub holes: i64,
    /// Which integer program to solve
    #[arg(long, value_enum, default_value_t = Formulation::Charge)]
    pub formulation: Formulation,
    /// `sat`: the integer program; `budget`: the row-by-row dynamic program that keeps only
    /// partial packings within the charge budget (exact, no time limit, no packing printed)
    #[arg(long, value_enum, default_value_t = ReachMethod::Sat)]
    pub method: ReachMethod,
    /// Only packings with this symmetry
    #[arg(long, value_enum, default_value_t = gunport::Symmetry::None)]
    pub symmetry: gunport::Symmetry,
    /// CaDiCaL configurations, comma-separated (default, sat, plain, unsat); two or more are
    /// raced on as many threads
    #[arg(long, value_delimiter = ',', default_value = "default")]
    pub configs: Vec<String>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct SweepArgs {
    /// Largest number of rows
    #[arg(long, default_value_t = 10)]
    pub max_m: i64,
    /// Largest number of columns
    #[arg(long, default_value_t = 10)]
    pub max_n: i64,
    /// Smallest side
    #[arg(long, default_value_t = 1)]
    pub min: i64,
    /// Also cross-check every board with the dynamic program where it applies
    #[arg(long)]
    pub check_dp: bool,
    /// Which integer program to solve
    #[arg(long, value_enum, default_value_t = Formulation::Strong)]
    pub formulation: Formulation,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct ModelArgs {
    #[arg(allow_hyphen_values = true)]
    pub m: String,
    #[arg(allow_hyphen_values = true)]
    pub n: String,
    #[arg(long, value_enum, default_value_t = Formulation::Strong)]
    pub formulation: Formulation,
    #[command(flatten)]
    pub export: Export,
    /// Print exactly one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

fn packing_json(p: &gunport::Packing) -> Result<serde_json::Value, Error> {
    let holes = gunport::verify(p).map_err(|why| {
        Error::input(format!(
            "internal error: the search returned a packing the verifier rejects ({why}); please report it"
        ))
    })?;
    Ok(serde_json::json!({
        "holes": holes,
        "rows": p.rows(),
        "dominoes": p.dominoes.iter().map(|[a, b]| [a.0, a.1, b.0, b.1]).collect::<Vec<_>>(),
        "hole_cells": p.holes().iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>(),
    }))
}

pub fn run(verb: GunportVerb) -> Result<i32, Error> {
    match verb {
        GunportVerb::Solve(a) => solve(a),
        GunportVerb::Count(a) => count(a, "count"),
        GunportVerb::Unique(a) => count(a, "unique"),
        GunportVerb::Reach(a) => reach(a),
        GunportVerb::Sweep(a) => sweep(a),
        GunportVerb::Model(a) => model(a),
    }
}

fn formulas(g: &Gunport) -> String {
    let sands = g.sands().map_or("-".to_string(), |s| s.to_string());
    format!("Sands {sands}, Pearce {}", g.pearce())
}

fn solve(a: BoardArgs) -> Result<i32, Error> {
    let g = Gunport::parse(&a.m, &a.n)?;
    let s = g.solve(a.formulation, a.common.time_limit()?);
    let mut text = format!("Gunport {}×{}: {}", g.m, g.n, status_word(s.status));
    if let Some(h) = s.holes {
        text += &format!(
            ", {h} holes{} ({})",
            if s.status == Status::Optimal {
                " (proved optimal)"
            } else {
                " (best found)"
            },
            formulas(&g)
        );
    }
    text.push('\n');
    emit_solved("solve", &s, text, &a.common)
}

/// The report of a SAT run: `text` first, then the packing (text, JSON, `--svg`) if any.
fn emit_solved(
    verb: &'static str,
    s: &gunport::Solved,
    mut text: String,
    common: &Common,
) -> Result<i32, Error> {
    let mut report = Report::new("gunport", verb, s.status);
    report.objective = s.holes;
    report.stats.seconds = s.stats.seconds;
    report.stats.method = s.method.clone();
    report.stats.model = Some(s.model_size);
    report.stats.engine = Some(s.engine_size);
    report.stats.solver_calls = Some(s.stats.solver_calls);
    if let Some(p) = &s.packing {
        report.solution = Some(packing_json(p)?);
        text += &format!("\n{}", gunport::to_text(p));
        if let Some(path) = &common.svg {
            write_file(path, &gunport::to_svg(p))?;
        }
    }
    report.text = text;
    Ok(report.emit(common.json))
}

fn reach(a: ReachArgs) -> Result<i32, Error> {
    let g = Gunport::parse(&a.m, &a.n)?;
    if a.holes < 0 || a.holes > g.cells() as i64 {
        return Err(Error::input(format!(
            "--holes {}: a {}×{} board has between 0 and {} holes",
            a.holes,
            g.m,
            g.n,
            g.cells()
        )));
    }
    if a.method == ReachMethod::Budget {
        return reach_by_budget(&g, &a);
    }
    let s = {
        for c in &a.configs {
            if !quandary::solve::PORTFOLIO_CONFIGS.contains(&c.as_str()) {
                return Err(Error::input(format!(
                    "--configs: unknown CaDiCaL configuration '{c}' (known: {})",
                    quandary::solve::PORTFOLIO_CONFIGS.join(", ")
                )));
            }
        }
        let configs: Vec<&str> = a.configs.iter().map(String::as_str).collect();
        g.reach(
            a.formulation,
            a.holes,
            a.symmetry,
            &configs,
            a.common.time_limit()?,
        )
    };
    let among = match a.symmetry {
        gunport::Symmetry::None => String::new(),
        sym => format!(" among {sym:?}-symmetric packings"),
    };
    let mut text = format!(
        "Gunport {}×{}, at least {} holes{among}: ",
        g.m, g.n, a.holes
    );
    text += &match s.status {
        Status::Infeasible => format!(
            "no packing has that many, so the optimum is at most {} (holes have the parity of mn; {}) [{:.1} s]\n",
            g.most_below(a.holes),
            formulas(&g),
            s.stats.seconds
        ),
        Status::Unknown => "not decided within the time limit\n".to_string(),
        _ => format!("found one with {} holes\n", s.holes.unwrap_or(0)),
    };
    emit_solved("reach", &s, text, &a.common)
}

fn reach_by_budget(g: &Gunport, a: &ReachArgs) -> Result<i32, Error> {
    if a.symmetry != gunport::Symmetry::None {
        return Err(Error::input(
            "--symmetry applies to --method sat only".to_string(),
        ));
    }
    let started = std::time::Instant::now();
    let o = gunport::budget::at_least(g.m, g.n, a.holes as usize, a.common.time_limit()?)
        .ok_or_else(|| {
        Error::input(format!(
            "--method budget: the narrower side may be at most {} (and the board more than one cell)",
            gunport::budget::MAX_WIDTH
        ))
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let status = match (o.holes, o.stopped) {
        (_, true) => Status::Unknown,
        (Some(_), false) => Status::Solved,
        (None, false) => Status::Infeasible,
    };
    let mut report = Report::new("gunport", "reach", status);
    report.objective = o.holes.map(|h| h as i64);
    report.stats.seconds = seconds;
    report.stats.method = "dynamic program over rows within the charge budget".into();
    report.details = Some(serde_json::json!({
        "peak_states": o.peak_states,
        "total_states": o.total_states,
    }));
    let verdict = match o.holes {
        None if o.stopped => "not decided within the time limit".to_string(),
        None => format!(
            "no packing has that many, so the optimum is at most {} (holes have the parity of mn; {})",
            g.most_below(a.holes),
            formulas(g)
        ),
        Some(h) => format!("the best packing within the budget has {h} holes"),
    };
    report.text = format!(
        "Gunport {}×{}, at least {} holes: {verdict}\n(states kept: {} at most after a row, {} in all)\n",
        g.m, g.n, a.holes, o.peak_states, o.total_states
    );
    Ok(report.emit(a.common.json))
}

fn count(a: BoardArgs, verb: &'static str) -> Result<i32, Error> {
    let g = Gunport::parse(&a.m, &a.n)?;
    if a.formulation == Formulation::Domino {
        return Err(Error::input(
            "the domino formulation numbers its dominoes, so it would count every packing once per numbering; count with --formulation cell or strong",
        ));
    }
    let c = g.count_optimal(
        a.formulation,
        !a.no_dp,
        a.up_to_symmetry,
        a.common.time_limit()?,
    );
    let done = c.status != Status::Unknown;
    let mut report = Report::new("gunport", verb, c.status);
    report.objective = c.holes;
    report.stats.method = c.method.clone();
    if let Some(s) = &c.stats {
        report.stats.seconds = s.seconds;
        report.stats.solver_calls = Some(s.solver_calls);
    }
    let mut text = format!("Gunport {}×{}: ", g.m, g.n);
    if done {
        let packings = u64::try_from(c.packings).unwrap_or(u64::MAX);
        if verb == "count" {
            report.count = Some(packings);
        } else {
            report.unique = Some(c.packings == 1);
        }
        text += &format!(
            "{} optimal packings of {} holes",
            c.packings,
            c.holes.unwrap_or(0)
        );
        if let Some(k) = c.classes {
            text += &format!(", {k} up to rotation and reflection");
        }
        if verb == "unique" {
            text += if c.packings == 1 {
                " (unique)"
            } else {
                " (not unique)"
            };
        }
    } else {
        text += status_word(c.status);
    }
    text.push('\n');
    report.text = text;
    let code = report.emit(a.common.json);
    if let (true, Some(k)) = (a.common.json, c.classes) {
        // Keep stdout one object: classes travel in stderr only for humans; JSON has them below.
        let _ = k;
    }
    Ok(code)
}

fn sweep(a: SweepArgs) -> Result<i32, Error> {
    let lo = a.min;
    let g_max = Gunport::new(a.max_m, a.max_n)?;
    let _ = Gunport::new(lo, lo)?;
    if lo as usize > g_max.m.min(g_max.n) {
        return Err(Error::input(format!(
            "--min {lo} is larger than the largest board side asked for"
        )));
    }
    let time_limit = a.common.time_limit()?;
    let boards: Vec<Gunport> = (lo as usize..=g_max.m)
        .flat_map(|m| (m.max(lo as usize)..=g_max.n).map(move |n| Gunport { m, n }))
        .collect();
    let bar = ProgressBar::new(boards.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} boards, {elapsed_precise} {msg}")
            .expect("valid template"),
    );
    let started = std::time::Instant::now();
    let mut failures = Vec::new();
    let mut unknown = 0;
    if !a.common.json {
        super::outln!("   m    n  holes  proof     sands  pearce  seconds  note");
    }
    for g in &boards {
        bar.set_message(format!("{}×{}", g.m, g.n));
        let s = g.solve(a.formulation, time_limit);
        let holes = s.holes.unwrap_or(-1);
        if let Some(p) = &s.packing {
            gunport::verify(p)
                .map_err(|why| Error::input(format!("internal error on {}×{}: {why}", g.m, g.n)))?;
        }
        let proved = s.status == Status::Optimal;
        if !proved {
            unknown += 1;
        }
        let dp_value = if a.check_dp {
            dp::optimum(g.m, g.n).map(|o| o.holes as i64)
        } else {
            None
        };
        let mut notes = Vec::new();
        if let (Some(d), true) = (dp_value, proved) {
            if d != holes {
                notes.push(format!("DYNAMIC PROGRAM SAYS {d}"));
            }
        }
        if proved {
            if g.sands().is_some_and(|s| s as i64 != holes) {
                notes.push("Sands fails".to_string());
            }
            if g.m >= 2 && g.pearce() != holes {
                notes.push("Pearce fails".to_string());
                failures.push((g.m, g.n, holes, g.pearce()));
            }
        }
        if a.common.json {
            bar.suspend(|| {
                super::outln!(
                    "{}",
                    serde_json::json!({"m": g.m, "n": g.n, "status": s.status, "objective": s.holes,
                        "sands": g.sands(), "pearce": (g.m >= 2).then(|| g.pearce()), "dp": dp_value,
                        "seconds": s.stats.seconds, "notes": notes})
                )
            });
        } else {
            bar.suspend(|| {
                super::outln!(
                    "{:>4} {:>4} {:>6}  {:<8} {:>6} {:>7} {:>8.3}  {}",
                    g.m,
                    g.n,
                    holes,
                    if proved { "optimal" } else { "unknown" },
                    g.sands().map_or("-".into(), |s| s.to_string()),
                    if g.m >= 2 {
                        g.pearce().to_string()
                    } else {
                        "-".into()
                    },
                    s.stats.seconds,
                    notes.join("; ")
                )
            });
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if !a.common.json {
        super::outln!(
            "\n{} boards in {:.1} s; {} not proved within the limit; Pearce's formula fails on {} (1×n boards are paths and excluded).",
            boards.len(),
            started.elapsed().as_secs_f64(),
            unknown,
            failures.len()
        );
    }
    Ok(if unknown > 0 { 1 } else { 0 })
}

fn model(a: ModelArgs) -> Result<i32, Error> {
    let g = Gunport::parse(&a.m, &a.n)?;
    let gm = g.formulate(a.formulation);
    let title = format!("Gunport {}x{}, {:?} formulation", g.m, g.n, a.formulation);
    if let Some(path) = &a.export.lp {
        write_file(path, &lp::to_lp(&gm.model, &title))?;
    }
    if let Some(path) = &a.export.opb {
        write_file(path, &opb::to_opb(&gm.model, &title))?;
    }
    super::print_model(&gm.model, "gunport", &title, a.json);
    Ok(0)
}
