//! `quandary battleship ...`

use super::report::{status_word, Report};
use super::{write_file, Common, Export};
use clap::{Args, Subcommand};
use quandary::model::{lp, opb};
use quandary::puzzles::battleship::model::{BattleshipModel, Formulation};
use quandary::puzzles::battleship::{self as bs, formats, setter, verify, Layout, Puzzle};
use quandary::solve::search::{Search, Status};
use quandary::Error;

#[derive(Subcommand)]
pub enum BattleshipVerb {
    /// Solve a puzzle
    Solve(PuzzleArgs),
    /// Is the solution unique? Shows a second solution if not
    Unique(PuzzleArgs),
    /// Count the solutions
    Count(PuzzleArgs),
    /// Which given clues can each be removed with the solution staying unique (paper §5)
    Redundant(PuzzleArgs),
    /// A locally minimal clue set with the same unique solution, written as a puzzle file
    #[command(alias = "minimise")]
    Minimize(MinimizeArgs),
    /// A new puzzle with exactly one solution and no redundant clue
    Generate(GenerateArgs),
    /// Print a formulation's size (as the paper's Table 2); export it as LP/OPB
    Model(ModelArgs),
    /// Rewrite a puzzle (any format read) in quandary's own text format
    Convert(ConvertArgs),
}

#[derive(Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: Input,
    /// Write to FILE (default: print it)
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<String>,
}

#[derive(Args, Clone)]
pub struct Input {
    /// A puzzle file (our format, janko.at, CSPLib prob014, MiniZinc .dzn), a puzz.link URL,
    /// or - for standard input
    pub puzzle: String,
    /// Which puzzle of a CSPLib file (its id; the first by default)
    #[arg(long)]
    pub instance: Option<String>,
    /// The fleet as counts of ships of length 1, 2, 3, ... (e.g. "4 3 2 1"); overrides the input's
    #[arg(long)]
    pub fleet: Option<String>,
    /// Which integer program to solve
    #[arg(long, value_enum, default_value_t = Formulation::Runs)]
    pub formulation: Formulation,
}

#[derive(Args)]
pub struct PuzzleArgs {
    #[command(flatten)]
    pub input: Input,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct MinimizeArgs {
    #[command(flatten)]
    pub input: Input,
    /// Try the clues in a random order drawn from this seed (default: reading order)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the minimal puzzle to FILE (default: print it)
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<String>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct GenerateArgs {
    #[arg(long, default_value_t = 10)]
    pub rows: usize,
    #[arg(long, default_value_t = 10)]
    pub cols: usize,
    /// Counts of ships of length 1, 2, 3, ...
    #[arg(long, default_value = "4 3 2 1")]
    pub fleet: String,
    /// Random seed: the same seed gives the same puzzle
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which integer program to use
    #[arg(long, value_enum, default_value_t = Formulation::Runs)]
    pub formulation: Formulation,
    /// Write the puzzle to FILE (default: print it)
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<String>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct ModelArgs {
    #[command(flatten)]
    pub input: Input,
    #[command(flatten)]
    pub export: Export,
    /// Print exactly one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

pub fn run(verb: BattleshipVerb) -> Result<i32, Error> {
    match verb {
        BattleshipVerb::Solve(a) => find(a, "solve"),
        BattleshipVerb::Unique(a) => find(a, "unique"),
        BattleshipVerb::Count(a) => find(a, "count"),
        BattleshipVerb::Redundant(a) => redundant(a),
        BattleshipVerb::Minimize(a) => minimize(a),
        BattleshipVerb::Generate(a) => generate(a),
        BattleshipVerb::Model(a) => model(a),
        BattleshipVerb::Convert(a) => {
            let p = load(&a.input)?;
            let text = formats::to_quandary(&p, &format!("converted from {}", a.input.puzzle));
            match a.out {
                Some(f) => write_file(&f, &text)?,
                None => print!("{text}"),
            }
            Ok(0)
        }
    }
}

pub fn parse_fleet(text: &str) -> Result<Vec<usize>, Error> {
    text.split([' ', ',', ':'])
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<usize>().map_err(|_| {
                Error::input(format!(
                    "--fleet: '{t}' is not a count (give counts of ships of length 1, 2, 3, ..., e.g. \"4 3 2 1\")"
                ))
            })
        })
        .collect()
}

/// Reads the puzzle named on the command line.
pub fn load(input: &Input) -> Result<Puzzle, Error> {
    let text = if input.puzzle == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|source| {
            Error::Io {
                path: "standard input".into(),
                source,
            }
        })?;
        s
    } else if !std::path::Path::new(&input.puzzle).exists() && input.puzzle.contains("battleship/")
    {
        input.puzzle.clone()
    } else {
        std::fs::read_to_string(&input.puzzle).map_err(|source| Error::Io {
            path: input.puzzle.clone(),
            source,
        })?
    };
    let with_fleet = match &input.fleet {
        // A URL without a fleet is fine when --fleet gives one.
        Some(f) if formats::detect(&text) == formats::Format::PuzzLink && !text.contains("//") => {
            format!("{}//d", text.trim())
        }
        _ => text,
    };
    let (_, p) = formats::parse(&with_fleet, input.instance.as_deref())
        .map_err(|e| Error::input(format!("{}: {e}", input.puzzle)))?;
    match &input.fleet {
        None => Ok(p),
        Some(f) => Puzzle::new(
            p.rows,
            p.cols,
            parse_fleet(f)?,
            p.row_counts,
            p.col_counts,
            p.clues,
        ),
    }
}

fn checked(p: &Puzzle, l: &Layout) -> Result<serde_json::Value, Error> {
    checked_from(p, l, Formulation::ShipCells)
}

fn checked_from(p: &Puzzle, l: &Layout, f: Formulation) -> Result<serde_json::Value, Error> {
    let ships = verify::verify(p, &l.occupied()).map_err(|why| {
        if f == Formulation::CellPrinted {
            Error::input(format!(
                "the cell model with eq. (6) as printed in the paper accepted a layout that breaks the rules ({why}): eq. (6) lets a ship start borrow middles of other ships; see docs/battleship.md and use --formulation cell"
            ))
        } else {
            Error::input(format!(
                "internal error: the search returned a solution the verifier rejects ({why}); please report it"
            ))
        }
    })?;
    let symbols = l.symbols();
    Ok(serde_json::json!({
        "ships": l.ship_rows(),
        "symbols": (0..p.rows).map(|i| (0..p.cols).map(|j| {
            let s = symbols[i * p.cols + j];
            if s == bs::Symbol::Water { '.' } else { s.char() }
        }).collect::<String>()).collect::<Vec<_>>(),
        "fleet": l.ships.iter().map(|s| serde_json::json!({
            "row": s.row + 1, "col": s.col + 1, "length": s.len,
            "direction": if s.len == 1 { "none" } else if s.horizontal { "horizontal" } else { "vertical" },
        })).collect::<Vec<_>>(),
        "ship_count": ships,
    }))
}

fn header(p: &Puzzle) -> String {
    format!(
        "Battleship {}×{}, fleet {} ({} clues)",
        p.rows,
        p.cols,
        p.fleet_text(),
        p.given().len()
    )
}

fn find(a: PuzzleArgs, verb: &'static str) -> Result<i32, Error> {
    let p = load(&a.input)?;
    let bm = BattleshipModel::new(&p, a.input.formulation, true);
    let mut search = Search::new(
        quandary::solve::default_backend(&bm.model),
        a.common.time_limit()?,
    )
    .with_progress("battleship");
    let limit = match verb {
        "solve" => Some(1),
        "unique" => Some(2),
        _ => None,
    };
    let mut found: Vec<Layout> = Vec::new();
    let (status, n) = search.enumerate(&bm.projection(), &[], limit, |x| {
        if found.len() < 2 {
            found.push(bm.decode(x));
        }
        true
    });
    let stats = search.finish();
    let complete = status == Status::Solved;
    let status = if complete && n == 0 {
        Status::Infeasible
    } else if complete || limit.is_some_and(|l| n >= l) {
        Status::Solved
    } else {
        Status::Unknown
    };
    let mut report = Report::new("battleship", verb, status);
    report.stats.seconds = stats.seconds;
    report.stats.method = quandary::solve::sat_method(a.input.formulation);
    report.stats.model = Some(bm.model.size());
    report.stats.solver_calls = Some(stats.solver_calls);
    let mut text = format!("{}: ", header(&p));
    match verb {
        "count" if status != Status::Unknown => {
            report.count = Some(n);
            text += &format!("{n} solutions\n");
        }
        "count" => text += &format!("at least {n} solutions (stopped)\n"),
        "unique" if status != Status::Unknown => {
            report.unique = Some(n == 1);
            text += match n {
                0 => "no solution\n",
                1 => "exactly one solution (unique)\n",
                _ => "not unique: two solutions shown\n",
            };
        }
        _ => text += &format!("{}\n", status_word(status)),
    }
    if let Some(l) = found.first() {
        report.solution = Some(checked_from(&p, l, a.input.formulation)?);
        text += &format!("\n{}", bs::to_text(&p, l));
        if let Some(path) = &a.common.svg {
            write_file(path, &bs::to_svg(&p, Some(l)))?;
        }
    }
    if verb == "unique" {
        if let Some(l) = found.get(1) {
            report.other_solution = Some(checked_from(&p, l, a.input.formulation)?);
            text += &format!("\nanother solution:\n{}", bs::to_text(&p, l));
        }
    }
    report.text = text;
    Ok(report.emit(a.common.json))
}

fn redundant(a: PuzzleArgs) -> Result<i32, Error> {
    let p = load(&a.input)?;
    let started = std::time::Instant::now();
    let (layout, red) = setter::redundant(&p, a.input.formulation, a.common.time_limit()?)?;
    let mut report = Report::new("battleship", "redundant", Status::Solved);
    report.stats.seconds = started.elapsed().as_secs_f64();
    report.stats.method = quandary::solve::sat_method(a.input.formulation);
    report.count = Some(red.len() as u64);
    let mut sol = checked(&p, &layout)?;
    sol["redundant"] = serde_json::json!(red
        .iter()
        .map(|&(i, j, s)| serde_json::json!({"row": i + 1, "col": j + 1, "clue": s.name()}))
        .collect::<Vec<_>>());
    report.solution = Some(sol);
    let mut text = format!(
        "{}: unique; {} of the clues can each be removed alone\n",
        header(&p),
        red.len()
    );
    for (i, j, s) in &red {
        text += &format!("  row {}, column {}: {}\n", i + 1, j + 1, s.name());
    }
    if red.len() > 1 {
        text += "(each alone; removing several at once may not keep the solution unique — see `minimize`)\n";
    }
    report.text = text;
    Ok(report.emit(a.common.json))
}

fn minimize(a: MinimizeArgs) -> Result<i32, Error> {
    let p = load(&a.input)?;
    let started = std::time::Instant::now();
    let (q, layout) = setter::minimise(&p, a.input.formulation, a.seed, a.common.time_limit()?)?;
    let file = formats::to_quandary(
        &q,
        &format!(
            "locally minimal clue set ({} of {} clues kept; every clue is necessary)",
            q.given().len(),
            p.given().len()
        ),
    );
    emit_puzzle(
        &q,
        &layout,
        file,
        a.out.as_deref(),
        &a.common,
        "minimize",
        started,
    )
}

fn emit_puzzle(
    q: &Puzzle,
    layout: &Layout,
    file: String,
    out: Option<&str>,
    common: &Common,
    verb: &'static str,
    started: std::time::Instant,
) -> Result<i32, Error> {
    let mut report = Report::new("battleship", verb, Status::Solved);
    report.stats.seconds = started.elapsed().as_secs_f64();
    report.stats.method = "SAT (CaDiCaL), one incremental instance with clue activation".into();
    report.count = Some(q.given().len() as u64);
    let mut sol = checked(q, layout)?;
    sol["puzzle"] = serde_json::json!(file);
    report.solution = Some(sol);
    if let Some(path) = out {
        write_file(path, &file)?;
    }
    if let Some(path) = &common.svg {
        write_file(path, &bs::to_svg(q, None))?;
    }
    report.text = format!(
        "{}\n{}\nsolution:\n{}",
        header(q),
        if out.is_some() { String::new() } else { file },
        bs::to_text(q, layout)
    );
    Ok(report.emit(common.json))
}

fn generate(a: GenerateArgs) -> Result<i32, Error> {
    let fleet = parse_fleet(&a.fleet)?;
    let started = std::time::Instant::now();
    let g = setter::generate(
        a.rows,
        a.cols,
        &fleet,
        a.seed,
        a.formulation,
        a.common.time_limit()?,
        true,
    )?;
    let file = formats::to_quandary(
        &g.puzzle,
        &format!(
            "generated by quandary battleship generate --rows {} --cols {} --fleet \"{}\" --seed {}\nunique solution; every clue is necessary ({} clues added, {} kept)",
            a.rows,
            a.cols,
            a.fleet,
            a.seed,
            g.clues_added,
            g.puzzle.given().len()
        ),
    );
    emit_puzzle(
        &g.puzzle,
        &g.layout,
        file,
        a.out.as_deref(),
        &a.common,
        "generate",
        started,
    )
}

fn model(a: ModelArgs) -> Result<i32, Error> {
    let p = load(&a.input)?;
    let bm = BattleshipModel::new(&p, a.input.formulation, true);
    let title = format!(
        "{}, {} formulation",
        header(&p),
        format!("{:?}", a.input.formulation).to_lowercase()
    );
    if let Some(path) = &a.export.lp {
        write_file(path, &lp::to_lp(&bm.model, &title))?;
    }
    if let Some(path) = &a.export.opb {
        write_file(path, &opb::to_opb(&bm.model, &title))?;
    }
    super::print_model(&bm.model, "battleship", &title, a.json);
    Ok(0)
}
