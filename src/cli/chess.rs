//! `quandary chess ...`

use super::report::{status_word, Report};
use super::{write_file, Common, Export};
use clap::{Args, Subcommand};
use quandary::model::{lp, opb};
use quandary::puzzles::chess::{self, count, Army, Board, Formulation, Goal, Piece};
use quandary::solve::search::{Search, Status};
use quandary::Error;

#[derive(Subcommand)]
pub enum ChessVerb {
    /// Place the army so that no piece attacks another
    Solve(PuzzleArgs),
    /// Count every placement (exact)
    Count(PuzzleArgs),
    /// Is the placement unique? Shows a second one if not
    Unique(PuzzleArgs),
    /// The most pieces that fit: of one type (--type), of any mix (--any), or the army plus as
    /// many of --type as possible
    Max(MaxArgs),
    /// Peaceable armies: the largest m such that m white and m black pieces coexist on an n×n
    /// board with no piece attacking one of the other colour
    Peaceable(PeaceArgs),
    /// Print the model's size; export it as LP/OPB
    Model(ModelArgs),
}

#[derive(Args, Clone)]
pub struct BoardOpts {
    /// A board file (rows of '.', '#' and fixed piece letters), or ROWSxCOLS / N for an open board
    pub board: String,
    /// The army, e.g. B4N2 (letters Q R B N K with counts); overrides the file's `army:` line
    #[arg(long)]
    pub army: Option<String>,
    /// Holes stop the lines of queens, rooks and bishops (default: they do not, as in the seed)
    #[arg(long)]
    pub holes_block: bool,
    /// Which integer program to solve
    #[arg(long, value_enum, default_value_t = Formulation::Pairwise)]
    pub formulation: Formulation,
}

#[derive(Args)]
pub struct PuzzleArgs {
    #[command(flatten)]
    pub board: BoardOpts,
    /// Count with the integer program (blocking clauses) instead of the exact counter
    #[arg(long)]
    pub sat: bool,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct MaxArgs {
    #[command(flatten)]
    pub board: BoardOpts,
    /// The piece type to add as many of as possible
    #[arg(long = "type", value_enum)]
    pub piece: Option<Piece>,
    /// Any mix of types
    #[arg(long)]
    pub any: bool,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct PeaceArgs {
    /// The side of the board
    #[arg(allow_hyphen_values = true)]
    pub n: String,
    /// The piece type
    #[arg(long = "type", value_enum, default_value_t = Piece::Queen)]
    pub piece: Piece,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct ModelArgs {
    #[command(flatten)]
    pub board: BoardOpts,
    #[command(flatten)]
    pub export: Export,
    /// Print exactly one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

/// Reads the board argument: an existing file, or `ROWSxCOLS` / `N` for an open board.
fn load_board(opts: &BoardOpts) -> Result<Board, Error> {
    let arg = opts.board.trim();
    let board = match std::fs::read_to_string(arg) {
        Ok(text) => Board::parse(&text).map_err(|e| Error::input(format!("{arg}: {e}")))?,
        Err(source) => {
            let dims: Vec<&str> = arg.split(['x', 'X']).collect();
            let parsed: Option<Vec<usize>> = dims.iter().map(|d| d.parse().ok()).collect();
            match parsed.as_deref() {
                Some([n]) if (1..=64).contains(n) => Board::rectangle(*n, *n),
                Some([r, c]) if (1..=64).contains(r) && (1..=64).contains(c) => {
                    Board::rectangle(*r, *c)
                }
                Some(_) => {
                    return Err(Error::input(format!(
                        "board size '{arg}': sides must be 1 to 64"
                    )))
                }
                None => {
                    return Err(Error::Io {
                        path: arg.to_string(),
                        source,
                    })
                }
            }
        }
    };
    Ok(board)
}

fn army(opts: &BoardOpts, board: &Board, required: bool) -> Result<Army, Error> {
    let army = match &opts.army {
        Some(text) => Army::parse(text)?,
        None => match board.army {
            Some(a) => a,
            None if required => return Err(Error::input(
                "no army given: add --army (e.g. --army B4N2) or an `army:` line to the board file",
            )),
            None => Army::default(),
        },
    };
    let squares = board.squares().len();
    if army.total() > squares {
        return Err(Error::input(format!(
            "the army {army} has {} pieces but the board has only {squares} squares",
            army.total()
        )));
    }
    let fixed = chess::army_of(&board.fixed);
    if let Some(p) = chess::PIECES
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

fn checked(
    board: &Board,
    p: &[Option<Piece>],
    holes_block: bool,
) -> Result<serde_json::Value, Error> {
    chess::verify(board, p, holes_block).map_err(|why| {
        Error::input(format!(
            "internal error: the search returned a placement the verifier rejects ({why}); please report it"
        ))
    })?;
    Ok(serde_json::json!({"rows": board.rows_with(p), "army": chess::army_of(p).to_string()}))
}

fn text_of(board: &Board, p: &[Option<Piece>]) -> String {
    board.rows_with(p).join("\n") + "\n"
}

pub fn run(verb: ChessVerb) -> Result<i32, Error> {
    match verb {
        ChessVerb::Solve(a) => find(a, "solve"),
        ChessVerb::Count(a) => find(a, "count"),
        ChessVerb::Unique(a) => find(a, "unique"),
        ChessVerb::Max(a) => max(a),
        ChessVerb::Peaceable(a) => peaceable(a),
        ChessVerb::Model(a) => model(a),
    }
}

fn find(a: PuzzleArgs, verb: &'static str) -> Result<i32, Error> {
    let board = load_board(&a.board)?;
    find_on(board, a, verb)
}

/// The seed's puzzle (chapter 60), built into the binary for the tour.
pub const SEED_BOARD: &str = include_str!("../../data/chess/friedman-b4n2.txt");

/// `solve`, `count` or `unique` on a board already read.
pub fn find_on(board: Board, a: PuzzleArgs, verb: &'static str) -> Result<i32, Error> {
    let army = army(&a.board, &board, true)?;
    let hb = a.board.holes_block;
    if verb == "count" && !a.sat {
        let started = std::time::Instant::now();
        if let Some(n) = count::count(&board, army, hb) {
            let mut report = Report::new(
                "chess",
                verb,
                if n == 0 {
                    Status::Infeasible
                } else {
                    Status::Solved
                },
            );
            report.count = Some(n);
            report.stats.seconds = started.elapsed().as_secs_f64();
            report.stats.method = "exact bitset counter".into();
            report.text = format!("{n} placements of {army}\n");
            return Ok(report.emit(a.common.json));
        }
    }
    let cm = board.formulate(Goal::Exactly(army), a.board.formulation, hb);
    let mut search = Search::new(
        quandary::solve::default_backend(&cm.model),
        a.common.time_limit()?,
    )
    .with_progress("chess");
    let limit = match verb {
        "solve" => Some(1),
        "unique" => Some(2),
        _ => None,
    };
    let mut found: Vec<Vec<Option<Piece>>> = Vec::new();
    let (status, n) = search.enumerate(&cm.decisions(), &[], limit, |x| {
        if found.len() < 2 {
            found.push(cm.decode(x));
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
    let mut report = Report::new("chess", verb, status);
    report.stats.seconds = stats.seconds;
    report.stats.method = quandary::solve::sat_method(a.board.formulation);
    report.stats.model = Some(cm.model.size());
    report.stats.solver_calls = Some(stats.solver_calls);
    let mut text = format!("{army}: ");
    match verb {
        "count" if status != Status::Unknown => {
            report.count = Some(n);
            text += &format!("{n} placements\n");
        }
        "unique" if status != Status::Unknown => {
            report.unique = Some(n == 1);
            text += match n {
                0 => "no placement\n",
                1 => "exactly one placement (unique)\n",
                _ => "not unique: two placements shown\n",
            };
        }
        _ => text += &format!("{}\n", status_word(status)),
    }
    if let Some(p) = found.first() {
        report.solution = Some(checked(&board, p, hb)?);
        text += &format!("\n{}", text_of(&board, p));
        if let Some(path) = &a.common.svg {
            write_file(path, &chess::to_svg(&board, p))?;
        }
    }
    if verb == "unique" {
        if let Some(p) = found.get(1) {
            report.other_solution = Some(checked(&board, p, hb)?);
            text += &format!("\n{}", text_of(&board, p));
        }
    }
    report.text = text;
    Ok(report.emit(a.common.json))
}

fn max(a: MaxArgs) -> Result<i32, Error> {
    let board = load_board(&a.board)?;
    // The base army comes from --army only: a file's `army:` line describes its puzzle, not
    // a floor for maxima.
    let opts = BoardOpts {
        army: a
            .board
            .army
            .clone()
            .or(Some(String::new()))
            .filter(|s| !s.is_empty()),
        ..a.board.clone()
    };
    let board = Board {
        army: None,
        ..board
    };
    let base = army(&opts, &board, false)?;
    let extra = match (a.piece, a.any) {
        (Some(p), false) => Some(p),
        (None, true) => None,
        _ => return Err(Error::input("give exactly one of --type T or --any")),
    };
    let hb = a.board.holes_block;
    let cm = board.formulate(Goal::Maximise { base, extra }, a.board.formulation, hb);
    let objective = cm.model.objective.clone().expect("max maximises");
    let mut search = Search::new(
        quandary::solve::default_backend(&cm.model),
        a.common.time_limit()?,
    )
    .with_progress("chess max");
    let (status, best) = search.optimise(|x| objective.value(x), true, None, 1, |_| {});
    let stats = search.finish();
    let mut report = Report::new("chess", "max", status);
    report.stats.seconds = stats.seconds;
    report.stats.method = quandary::solve::sat_method(a.board.formulation);
    report.stats.model = Some(cm.model.size());
    report.stats.solver_calls = Some(stats.solver_calls);
    let what = match extra {
        Some(p) => format!("{} pieces", p.letter()),
        None => "pieces of any type".into(),
    };
    let mut text = format!("most {what}: {}", status_word(status));
    if let Some((v, x)) = &best {
        let p = cm.decode(x);
        report.objective = Some(*v);
        report.solution = Some(checked(&board, &p, hb)?);
        text += &format!(", {v} ({})\n\n{}", chess::army_of(&p), text_of(&board, &p));
        if let Some(path) = &a.common.svg {
            write_file(path, &chess::to_svg(&board, &p))?;
        }
    } else {
        text.push('\n');
    }
    report.text = text;
    Ok(report.emit(a.common.json))
}

fn peaceable(a: PeaceArgs) -> Result<i32, Error> {
    let n: usize =
        a.n.trim()
            .parse()
            .ok()
            .filter(|n| (1..=32).contains(n))
            .ok_or_else(|| {
                Error::input(format!(
                    "board side '{}' is not a whole number from 1 to 32",
                    a.n
                ))
            })?;
    let (model, white, black) = chess::peaceable_model(n, a.piece);
    let objective = model.objective.clone().expect("maximises");
    let mut search = Search::new(
        quandary::solve::default_backend(&model),
        a.common.time_limit()?,
    )
    .with_progress("peaceable");
    let (status, best) = search.optimise(|x| objective.value(x), true, None, 1, |_| {});
    let stats = search.finish();
    let mut report = Report::new("chess", "peaceable", status);
    report.stats.seconds = stats.seconds;
    report.stats.method = "SAT (CaDiCaL), peaceable-armies model".into();
    report.stats.model = Some(model.size());
    report.stats.solver_calls = Some(stats.solver_calls);
    let mut text = format!(
        "peaceable {} armies on {n}×{n}: {}",
        a.piece.letter(),
        status_word(status)
    );
    if let Some((m, x)) = &best {
        report.objective = Some(*m);
        // Independent check: walk every white piece's moves; none may reach a black piece.
        let board = Board::rectangle(n, n);
        for w in (0..n * n).filter(|&k| x[white[k].index()]) {
            if let Some(b) = chess::reach(&board, a.piece, w, false)
                .into_iter()
                .find(|&t| x[black[t].index()])
            {
                return Err(Error::input(format!(
                    "internal error: the white piece on square {w} attacks the black one on {b}; please report it"
                )));
            }
        }
        let rows: Vec<String> = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        let k = r * n + c;
                        if x[white[k].index()] {
                            'W'
                        } else if x[black[k].index()] {
                            'B'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        text += &format!(", m = {m}\n\n{}\n", rows.join("\n"));
        report.solution = Some(serde_json::json!({"m": m, "rows": rows}));
    } else {
        text.push('\n');
    }
    report.text = text;
    Ok(report.emit(a.common.json))
}

fn model(a: ModelArgs) -> Result<i32, Error> {
    let board = load_board(&a.board)?;
    let army = army(&a.board, &board, true)?;
    let cm = board.formulate(
        Goal::Exactly(army),
        a.board.formulation,
        a.board.holes_block,
    );
    let title = format!(
        "Chess avoidance {}x{} board, army {army}, {:?} formulation",
        board.rows, board.cols, a.board.formulation
    );
    if let Some(path) = &a.export.lp {
        write_file(path, &lp::to_lp(&cm.model, &title))?;
    }
    if let Some(path) = &a.export.opb {
        write_file(path, &opb::to_opb(&cm.model, &title))?;
    }
    super::print_model(&cm.model, "chess", &title, a.json);
    Ok(0)
}
