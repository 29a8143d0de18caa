//! `quandary tank ...`

use super::report::{status_word, Report};
use super::{write_file, Common, Export};
use clap::{Args, Subcommand};
use quandary::model::{lp, opb};
use quandary::puzzles::tank::{self, Formulation, Method, Tank, Want};
use quandary::solve::search::Status;
use quandary::Error;

#[derive(Subcommand)]
pub enum TankVerb {
    /// Find one legal n×n board, or prove there is none
    Solve(SolveArgs),
    /// Count every legal n×n board (exact)
    Count(SolveArgs),
    /// Is there exactly one legal n×n board? Shows a second one if not
    Unique(SolveArgs),
    /// Print the integer program's size; export it as LP/OPB
    Model(ModelArgs),
}

#[derive(Args, Clone, Debug, Default)]
pub struct TankOpts {
    /// Which engine answers
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    pub method: Method,
    /// Which integer program the SAT method solves
    #[arg(long, value_enum, default_value_t = Formulation::Strong)]
    pub formulation: Formulation,
    /// Keep every symmetric copy in `solve` (no lex-leader rows)
    #[arg(long)]
    pub no_symmetry_breaking: bool,
    /// Look only at boards with this symmetry (SAT; a heuristic for `solve`: finding none
    /// there proves nothing about other boards)
    #[arg(long, value_enum, value_name = "GROUP")]
    pub symmetric: Option<tank::Symmetric>,
    /// In the SVG, ring cell ROW,COL (1-based) and shade the tanks attacking it
    #[arg(long, value_name = "ROW,COL")]
    pub mark: Option<String>,
}

#[derive(Args)]
pub struct SolveArgs {
    /// The side n of the n×n board
    #[arg(allow_hyphen_values = true)]
    pub n: String,
    #[command(flatten)]
    pub opts: TankOpts,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct ModelArgs {
    /// The side n of the n×n board
    #[arg(allow_hyphen_values = true)]
    pub n: String,
    /// Which integer program to build
    #[arg(long, value_enum, default_value_t = Formulation::Strong)]
    pub formulation: Formulation,
    /// Add the lex-leader symmetry-breaking rows (valid for finding one board, not counting)
    #[arg(long)]
    pub symmetry_breaking: bool,
    #[command(flatten)]
    pub export: Export,
    /// Print exactly one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

fn parse_mark(mark: &Option<String>, n: usize) -> Result<Option<(usize, usize)>, Error> {
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

/// Every board the command line prints has passed the independent verifier first.
fn checked(board: &tank::Board) -> Result<serde_json::Value, Error> {
    tank::verify(board).map_err(|why| {
        Error::input(format!(
            "internal error: the search returned a board the verifier rejects ({why}); please report it"
        ))
    })?;
    Ok(serde_json::json!(board))
}

pub fn run(verb: TankVerb) -> Result<i32, Error> {
    let (verb_name, want, args) = match verb {
        TankVerb::Model(m) => return model(m),
        TankVerb::Solve(a) => ("solve", Want::First, a),
        TankVerb::Count(a) => ("count", Want::All, a),
        TankVerb::Unique(a) => ("unique", Want::Two, a),
    };
    let instance = Tank::parse(&args.n)?;
    let mark = parse_mark(&args.opts.mark, instance.n)?;
    let time_limit = args.common.time_limit()?;
    let found = instance.find(tank::Query {
        want,
        method: args.opts.method,
        formulation: args.opts.formulation,
        break_symmetry: !args.opts.no_symmetry_breaking,
        symmetric: args.opts.symmetric,
        time_limit,
    });
    let n = instance.n;
    let mut report = Report::new("tank", verb_name, found.status);
    report.stats.seconds = found.seconds;
    report.stats.method = found.method.clone();
    report.stats.model = found.model_size;
    report.stats.engine = found.engine_size;
    report.stats.solver_calls = found.solver_calls;
    if let Some(b) = found.boards.first() {
        report.solution = Some(checked(b)?);
        if let Some(path) = &args.common.svg {
            write_file(path, &tank::to_svg(b, mark))?;
        }
    }
    let mut text = String::new();
    match want {
        Want::First => {
            text += &format!("Tank Attack {n}×{n}: {}", status_word(found.status));
            if let (Some(g), Status::Infeasible) = (args.opts.symmetric, found.status) {
                text += &format!(" among boards with {g:?} symmetry (other boards may exist)");
            }
            text.push('\n');
        }
        Want::All => {
            let complete = found.status != Status::Unknown;
            report.count = complete.then_some(found.count);
            text += &if complete {
                format!("Tank Attack {n}×{n}: exactly {} boards\n", found.count)
            } else {
                format!(
                    "Tank Attack {n}×{n}: at least {} boards; {}\n",
                    found.count,
                    status_word(found.status)
                )
            };
        }
        Want::Two => {
            let decided = found.status != Status::Unknown;
            let unique = decided.then_some(found.count == 1);
            report.unique = unique;
            text += &format!(
                "Tank Attack {n}×{n}: {}\n",
                match (found.status, found.count) {
                    (Status::Infeasible, _) => "no board at all".to_string(),
                    (Status::Unknown, 1) =>
                        "one board found; a limit stopped the search for a second".into(),
                    (Status::Unknown, _) => status_word(found.status).into(),
                    (_, 1) => "exactly one board (unique)".into(),
                    _ => "not unique: two boards shown".into(),
                }
            );
            if let Some(b) = found.boards.get(1) {
                report.other_solution = Some(checked(b)?);
            }
        }
    }
    for b in found
        .boards
        .iter()
        .take(if want == Want::Two { 2 } else { 1 })
    {
        text.push('\n');
        text += &tank::to_text(b);
    }
    report.text = text;
    Ok(report.emit(args.common.json))
}

fn model(args: ModelArgs) -> Result<i32, Error> {
    let instance = Tank::parse(&args.n)?;
    let tm = instance.formulate(args.formulation, args.symmetry_breaking);
    let title = format!(
        "Tank Attack {0}x{0}, {1:?} formulation",
        instance.n, args.formulation
    );
    if let Some(path) = &args.export.lp {
        write_file(path, &lp::to_lp(&tm.model, &title))?;
    }
    if let Some(path) = &args.export.opb {
        write_file(path, &opb::to_opb(&tm.model, &title))?;
    }
    super::print_model(&tm.model, "tank", &title, args.json);
    Ok(0)
}
