//! The command line: `quandary <puzzle> <verb> [input] [options]`.
//!
//! Every puzzle of the registry gets the generic verbs (solve, count, unique, forced, model;
//! optimum and reach where it has an objective) from one definition here; the few verbs only
//! one puzzle has are in [`extra`]. Every answer is a [`Report`], printed by [`emit`], and every
//! failure an [`Error`] whose exit status is fixed in one place.

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

mod batch;
mod certify;
mod own;
mod progress;
mod written;

use clap::{Arg, ArgAction, ArgMatches, Command};
use quandary::input::Files;
use quandary::model::{lp, opb};
use quandary::runner::registry::{self, Entry, OptionsIn};
use quandary::runner::{Limits, Query};
use quandary::solve::Engine;
use quandary::Error;
use std::time::Duration;
pub use written::{check_outputs, check_paths, emit, out_file, write_file, Output};

const EXIT_HELP: &str = "Exit status: 0 with an answer; 1 when a limit stopped the search (status \"unknown\"); 2 on bad input; 3 on an internal error (a solver answer the verifier rejects: please report it); 4 when `tantrix check` finds that the solution given breaks the rules.";

/// The longest `serve --max-time`, in seconds: a year.
const MAX_SERVE_TIME: u64 = 365 * 24 * 3600;

/// The generic verbs a puzzle has, with their help.
fn verbs(e: &dyn Entry) -> Vec<(&'static str, String)> {
    let noun = e.title();
    e.verbs()
        .into_iter()
        .map(|verb| {
            let about = match verb {
                "solve" => match e.solve_query() {
                    Query::Optimum => format!("{noun}: the optimum, with a proof"),
                    _ => format!("{noun}: one solution, or a proof that there is none"),
                },
                "count" => {
                    "Count every solution (every optimal one, where there is an objective)".into()
                }
                "unique" => "Is there exactly one solution? Shows a second one if not".into(),
                "forced" => {
                    "What every solution shares: the partial board that logic alone fills in".into()
                }
                "optimum" => "The best solution by the objective, with a proof".into(),
                "reach" => {
                    "Is there a solution worth at least V? Finds one or proves there is none".into()
                }
                "model" => {
                    "Print the integer program's size per constraint family; export it as LP/OPB"
                        .into()
                }
                "explain" => "The solution as a chain of small deductions, each with a minimal reason re-checked on engines of its own, and a difficulty (docs/explain.md)".into(),
                other => other.to_string(),
            };
            (verb, about)
        })
        .collect()
}

fn common_args(cmd: Command) -> Command {
    cmd.arg(
        Arg::new("json")
            .long("json")
            .action(ArgAction::SetTrue)
            .help("Print exactly one JSON object on stdout"),
    )
    .arg(
        Arg::new("svg")
            .long("svg")
            .value_name("FILE")
            .help("Write a picture of the answer to FILE (explain: a directory DIR, one picture a step)"),
    )
    .arg(time_limit_arg(
        "Stop after SECS seconds with status \"unknown\" (exit status 1)",
    ))
    .arg(
        Arg::new("backend")
            .long("backend")
            .value_name("ENGINE")
            .value_parser(["sat", "highs"])
            .default_value("sat")
            .help("sat: CaDiCaL, with the puzzle's restricted searches and exact methods first; highs: the MIP solver HiGHS on the full model alone, with its bounds, nodes and iterations in the statistics (a build with --features highs)"),
    )
    .arg(proof_arg())
}

/// `--proof DIR`, for the generic verbs and the own verbs that offer it.
fn proof_arg() -> Arg {
    Arg::new("proof")
        .long("proof")
        .value_name("DIR")
        .help("Certify every refutation: write each as a CNF with its DRAT proof into DIR, with certificate.json (the full SAT model only; see docs/certificates.md)")
}

/// The flags only `explain` has: how it looks for its steps' reasons.
fn explain_args(cmd: Command) -> Command {
    cmd.arg(
        Arg::new("threads")
            .long("threads")
            .value_name("N")
            .value_parser(clap::value_parser!(u32).range(1..))
            .help("1: one engine, the same steps every run (the one difficulty ratings use); 2 or more (the default where the machine has two threads): two engines race, one with the counting rows in clauses and one counting them during search, and the first to finish gives the steps"),
    )
    .arg(
        Arg::new("plain")
            .long("plain")
            .action(ArgAction::SetTrue)
            .help("The baseline: one deletion-based minimal reason per open decision over every given and rule, one decision a step (docs/explain.md measures against it)"),
    )
}

/// `--time-limit SECS`, with what it stops.
fn time_limit_arg(help: &'static str) -> Arg {
    Arg::new("time-limit")
        .long("time-limit")
        .value_name("SECS")
        .allow_hyphen_values(true)
        .value_parser(clap::value_parser!(f64))
        .help(help)
}

fn verb_command(e: &dyn Entry, name: &'static str, about: String) -> Command {
    // The options' own doc comment would become the verb's help: set the verb's after them.
    let mut cmd = e
        .options_args(Command::new(name))
        .about(about)
        .long_about(None)
        .arg(
            Arg::new("input")
                .num_args(0..)
                .allow_negative_numbers(true)
                .value_name("INPUT")
                .help(e.input()),
        );
    for (alias, verb) in e.aliases() {
        if *verb == name {
            cmd = cmd.visible_alias(*alias);
        }
    }
    // Options this verb's question does not read are not shown here (and refused if given).
    if let Ok(Some(query)) = e.query(name, Some(0)) {
        cmd = cmd.mut_args(|a| {
            if e.reads_option(query, a.get_id().as_str()) {
                a
            } else {
                a.hide(true)
            }
        });
    }
    match name {
        "model" => cmd
            .arg(Arg::new("lp").long("lp").value_name("FILE").help("Write the model as a CPLEX-LP file"))
            .arg(Arg::new("opb").long("opb").value_name("FILE").help("Write the model as an OPB (pseudo-Boolean) file"))
            .arg(Arg::new("mps").long("mps").value_name("FILE").help("Write the model as a free-MPS file (what every MIP solver reads; a maximisation is written as the minimisation of the negated objective)"))
            .arg(
                Arg::new("symmetry-breaking")
                    .long("symmetry-breaking")
                    .action(ArgAction::SetTrue)
                    .help("The model as `solve` builds it, with symmetry-breaking rows where the puzzle has them (valid for finding, not counting)"),
            )
            .arg(
                Arg::new("algebra")
                    .long("algebra")
                    .action(ArgAction::SetTrue)
                    .help("Each family in algebra, read off its rows: the shapes its rows take (sum_k x[i,j,k] = 1 for each i, j), with how many rows have each"),
            )
            .arg(
                Arg::new("relax")
                    .long("relax")
                    .action(ArgAction::SetTrue)
                    .help("Solve the LP relaxation (every variable in [0, 1]) with HiGHS and print its value beside the size (a build with --features highs)"),
            )
            .arg(time_limit_arg(
                "Stop building (and writing, and relaxing) after SECS seconds (exit status 1)",
            ))
            .arg(Arg::new("json").long("json").action(ArgAction::SetTrue).help("Print exactly one JSON object on stdout")),
        "reach" => common_args(cmd).arg(cube_arg()).arg(
            Arg::new("at-least")
                .long("at-least")
                .visible_alias("holes")
                .value_name("V")
                .required(true)
                .allow_hyphen_values(true)
                .value_parser(clap::value_parser!(i64))
                .help("The value to reach"),
        ),
        "forced" => common_args(cmd).arg(out_arg()),
        "count" => common_args(cmd).arg(out_arg()).arg(cube_arg()).arg(
            Arg::new("cap")
                .long("cap")
                .value_name("N")
                .value_parser(clap::value_parser!(u64).range(1..))
                .help("Stop counting at N solutions: the answer is then \"at least N\" (a method that counts without listing, such as a line search or the chess counter, still counts them all)"),
        ),
        "explain" => explain_args(common_args(cmd)).arg(out_arg()),
        _ => common_args(cmd).arg(out_arg()).arg(cube_arg()),
    }
}

fn cube_arg() -> Arg {
    Arg::new("cube")
        .long("cube")
        .value_name("LITS")
        .allow_hyphen_values(true)
        .help("Search only the cube LITS of a question split by `quandary jobs --cubes K` (\"+1 -4\": decision 1 true, decision 4 false); the answer holds in the cube only")
}

fn out_arg() -> Arg {
    Arg::new("out")
        .long("out")
        .short('o')
        .value_name("FILE")
        .help("Write the solution to FILE in the puzzle's own file format, where it has one")
}

/// The whole command line, built from the registry.
pub fn command() -> Command {
    let mut cli = Command::new("quandary")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Solve, count, prove and generate puzzles by 0-1 integer programming")
        .after_help(EXIT_HELP)
        .subcommand_required(true)
        .arg_required_else_help(true);
    for e in registry::PUZZLES {
        let mut p = Command::new(e.name())
            .about(e.about())
            .subcommand_required(true)
            .arg_required_else_help(true);
        for (name, about) in verbs(*e) {
            p = p.subcommand(verb_command(*e, name, about));
        }
        p = own::commands(*e, p);
        cli = cli.subcommand(p);
    }
    cli.subcommand(
        Command::new("tour").about("Solve one built-in instance of every puzzle and print it"),
    )
    .subcommand(
        Command::new("jobs")
            .about("Write a job file (JSON lines) for `quandary batch`: a sweep, with A..B ranges in any word, or one question split into cubes")
            .after_help("Examples:\n  quandary jobs --ascending --time-limit 600 gunport optimum 1..20 1..20 > census.jsonl\n  quandary jobs --cubes 16 -o cubes.jsonl gunport reach 12 12 --at-least 45\n(jobs' own flags come before the puzzle: what follows it is the job's command)")
            .arg(
                Arg::new("command")
                    .required(true)
                    .num_args(2..)
                    .trailing_var_arg(true)
                    .allow_hyphen_values(true)
                    .value_name("PUZZLE VERB WORDS")
                    .help("A command line of quandary (after `quandary`); each word A..B (whole numbers) gives one job per value"),
            )
            .arg(Arg::new("cubes").long("cubes").value_name("K").value_parser(clap::value_parser!(usize)).help("Split the question into K cubes over its first decision variables (the board's first cells): one job each; `quandary merge` combines them"))
            .arg(Arg::new("ascending").long("ascending").action(ArgAction::SetTrue).help("Only combinations whose ranged values do not decrease (m ≤ n for boards m×n)"))
            .arg(Arg::new("time-limit").long("time-limit").value_name("SECS").value_parser(clap::value_parser!(f64)).help("Each job's time limit"))
            .arg(Arg::new("output").long("output").short('o').value_name("FILE").help("Write the jobs to FILE (default: standard output)")),
    )
    .subcommand(
        Command::new("batch")
            .about("Run the jobs of a job file, several at a time, resumably; results as JSON lines")
            .after_help("A rerun with the same --out skips the jobs already done. Without --shard, the shard comes from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT (Slurm job arrays) or JOB_COMPLETION_INDEX/JOB_COMPLETIONS (Kubernetes Indexed Jobs) when set. Exit status 0 when every job has an answer, 1 when some have none (stopped by a limit, failed), 2 on bad input.")
            .arg(Arg::new("jobs").required(true).value_name("JOBS.jsonl").help("One job per line: {\"id\", \"puzzle\", \"query\", \"args\", \"time_limit\"}"))
            .arg(Arg::new("out").long("out").value_name("RESULTS.jsonl").help("Where results go (default: JOBS.results.jsonl, or JOBS.results-I-of-N.jsonl for a shard)"))
            .arg(Arg::new("jobs-at-once").long("jobs").short('j').value_name("K").value_parser(clap::value_parser!(usize)).help("Jobs run at once (default: the number of cores)"))
            .arg(Arg::new("shard").long("shard").value_name("I/N").help("Run only jobs I, I+N, I+2N, ... (from 0)"))
            .arg(Arg::new("time-limit").long("time-limit").value_name("SECS").value_parser(clap::value_parser!(f64)).help("The whole batch's time limit (a scheduler's wall clock): no job starts after it, the jobs in flight then are stopped unrecorded, and the same command resumes")),
    )
    .subcommand(
        Command::new("merge")
            .about("The answers in results files of `quandary batch`; the cubes (or `--part` parts) of a split question combined, after checking they cover the whole space")
            .after_help("Exit status 0 when every question is answered, 1 when some are not (a limit stopped a cube, or cubes have no result yet), 2 when results cannot be merged (cubes overlapping, results of two batches).")
            .arg(Arg::new("results").required(true).num_args(1..).value_name("RESULTS.jsonl"))
            .arg(Arg::new("jobs").long("jobs").value_name("JOBS.jsonl").help("Also check that every job of this file has a result"))
            .arg(Arg::new("json").long("json").action(ArgAction::SetTrue).help("Print one JSON object"))
            .arg(Arg::new("csv").long("csv").action(ArgAction::SetTrue).help("Print a CSV table, one question per row")),
    )
    .subcommand(
        Command::new("serve")
            .about("Serve the page (every puzzle, every question) and its JSON API")
            .arg(
                Arg::new("port")
                    .long("port")
                    .value_parser(clap::value_parser!(u16))
                    .default_value("8080")
                    .help("TCP port (0: any free port, printed)"),
            )
            .arg(
                Arg::new("bind")
                    .long("bind")
                    .default_value("127.0.0.1")
                    .help(
                        "Address to listen on; anything but loopback lets others run searches here",
                    ),
            )
            .arg(
                Arg::new("max-time")
                    .long("max-time")
                    .value_name("SECS")
                    // Bounded: a limit near 2^64 seconds overflows every clock it is added to.
                    .value_parser(clap::value_parser!(u64).range(1..=MAX_SERVE_TIME))
                    .default_value("30")
                    .help("The longest time limit a request may ask for (1 to 31536000, a year)"),
            )
            .arg(
                Arg::new("max-runs")
                    .long("max-runs")
                    .value_parser(clap::value_parser!(usize))
                    .help("Searches at once (default: the number of cores); more get 503"),
            ),
    )
}

/// The limits of a run started from the command line now: its time limit, the spinner for
/// its progress, the first Ctrl-C as a stop request ([`interrupt_flag`]), and (one run per
/// process) stopped engines left to the process's exit.
pub fn run_limits(time_limit: Option<Duration>) -> Limits {
    // The run is the process: its resident size is held to the memory limit too.
    let limits = Limits::new(time_limit)
        .with_progress(progress::sink())
        .with_resident_cap(quandary::guard::memory_limit())
        .ending_the_process();
    match interrupt_flag() {
        Some(flag) => limits.with_cancel(flag),
        None => limits,
    }
}

/// Raised by the first SIGINT (Ctrl-C) the process gets.
static INTERRUPTED: std::sync::OnceLock<std::sync::Arc<std::sync::atomic::AtomicBool>> =
    std::sync::OnceLock::new();

/// The flag the first Ctrl-C raises: the run stops as the page's Stop stops it, and answers
/// with what it has (a partial count, the best board so far), exit status 1. The handler
/// then gives SIGINT back to the system, so a second Ctrl-C ends the process at once. A
/// batch job (run by `quandary batch`) keeps the default: its batch decides what a stopped
/// job means. `None` if the handler could not be installed.
fn interrupt_flag() -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    extern "C" fn on_interrupt(_: libc::c_int) {
        if let Some(flag) = INTERRUPTED.get() {
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
    if std::env::var_os(batch::FOLLOW_PARENT).is_some() {
        return None;
    }
    if let Some(flag) = INTERRUPTED.get() {
        return Some(flag.clone());
    }
    let flag = INTERRUPTED.get_or_init(Default::default).clone();
    // SAFETY: the handler only stores to an atomic that is set before it is installed.
    let installed = unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESETHAND;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut()) == 0
    };
    installed.then_some(flag)
}

/// The time limit of a command, checked.
pub fn time_limit(m: &ArgMatches) -> Result<Option<Duration>, Error> {
    seconds(m.try_get_one::<f64>("time-limit").ok().flatten().copied())
}

/// A `--time-limit` value, checked.
pub fn seconds(limit: Option<f64>) -> Result<Option<Duration>, Error> {
    quandary::solve::limits::time_limit(limit)
}

/// After how long a run without `--time-limit` says how to bound it.
const HINT_AFTER_SECS: u64 = 10;

/// Runs the command line; the result is the process's exit status.
pub fn main() -> i32 {
    let started = std::time::Instant::now();
    batch::follow_parent();
    let matches = match command().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let json = matches
        .subcommand()
        .and_then(|(_, p)| p.subcommand())
        .is_some_and(|(_, v)| v.try_get_one::<bool>("json").ok().flatten() == Some(&true));
    // A server's concurrent runs would draw over each other: no spinner there.
    if matches.subcommand_name() != Some("serve") {
        progress::install();
    }
    let verb = matches.subcommand().and_then(|(_, p)| p.subcommand());
    if let Some((_, vm)) = verb {
        let limited = ["time-limit", "time_limit"]
            .iter()
            .any(|id| vm.try_get_one::<f64>(id).ok().flatten().is_some());
        let limitable = ["time-limit", "time_limit"]
            .iter()
            .any(|id| vm.try_get_one::<f64>(id).is_ok());
        if limitable && !limited {
            progress::hint_after(
                Duration::from_secs(HINT_AFTER_SECS),
                format!("no --time-limit given and still running after {HINT_AFTER_SECS} s: Ctrl-C stops it and reports what it found (a second Ctrl-C ends it at once); --time-limit SECS bounds a run"),
            );
        }
    }
    match run(&matches) {
        Ok(code) => code,
        Err(e) => {
            progress::finish();
            eprintln!("quandary: error: {e}");
            if json {
                let seconds = started.elapsed().as_secs_f64();
                let answer =
                    quandary::runner::report::stopped_answer(&e, None, None, Some(seconds))
                        .unwrap_or_else(|| {
                            serde_json::json!({"status": "error", "error": e.to_string(),
                            "stats": {"seconds": seconds}})
                        });
                outln!("{answer}");
            }
            e.exit_code()
        }
    }
}

fn run(matches: &ArgMatches) -> Result<i32, Error> {
    let (name, pm) = matches.subcommand().expect("a subcommand is required");
    if name == "tour" {
        return tour();
    }
    match name {
        "jobs" => return batch::jobs(pm),
        "batch" => return batch::batch(pm),
        "merge" => return batch::merge(pm),
        _ => {}
    }
    if name == "serve" {
        let (_, sm) = matches.subcommand().expect("a subcommand");
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        crate::web::serve(crate::web::Settings {
            bind: sm.get_one::<String>("bind").expect("default").clone(),
            port: *sm.get_one::<u16>("port").expect("default"),
            max_time: Duration::from_secs(*sm.get_one::<u64>("max-time").expect("default")),
            max_runs: sm
                .get_one::<usize>("max-runs")
                .copied()
                .unwrap_or(cores)
                .max(1),
        })?;
        return Ok(0);
    }
    let entry = registry::find(name).expect("subcommands come from the registry");
    let (verb, vm) = pm.subcommand().expect("a verb is required");
    if !verbs(entry).iter().any(|(v, _)| *v == verb) {
        return own::run(entry, pm);
    }
    let words: Vec<String> = vm
        .get_many::<String>("input")
        .map(|w| w.cloned().collect())
        .unwrap_or_default();
    let options = options_json(entry, vm);
    let options = OptionsIn::Json(&options);
    if verb == "model" {
        return model(entry, &words, options, vm);
    }
    let limits = run_limits(time_limit(vm)?);
    let mut output = Output::from(vm);
    output.svg_dir = verb == "explain";
    check_outputs(&output, vm.try_get_one::<String>("out").ok().flatten())?;
    let query = query_of(entry, verb, vm)?;
    let cube = match vm.try_get_one::<String>("cube").ok().flatten() {
        Some(text) => Some(
            quandary::runner::cubes::parse(text)
                .map_err(|e| Error::input(format!("--cube: {e}")))?,
        ),
        None => None,
    };
    let asked_highs = vm
        .try_get_one::<String>("backend")
        .ok()
        .flatten()
        .map(String::as_str)
        == Some("highs");
    if asked_highs && vm.try_get_one::<String>("proof").ok().flatten().is_some() {
        return Err(Error::input(
            "--proof certifies SAT refutations; it cannot be used with --backend highs",
        ));
    }
    let limits = limits.on(backend(vm)?);
    let query = explaining(query, vm)?;
    let run =
        |limits: &Limits| entry.run(&words, Files::Disk, options, query, limits, cube.as_deref());
    let report = match vm.try_get_one::<String>("proof").ok().flatten() {
        None => run(&limits)?,
        Some(dir) => certify::run(dir, entry, verb, &words, |recorder| {
            let shared = quandary::solve::proof::shared(recorder);
            let limits = limits.clone().recording(shared.clone());
            let report = run(&limits);
            drop(limits);
            (report, quandary::solve::proof::take(shared))
        })?,
    };
    let mut report = report;
    if let Some(path) = vm.try_get_one::<String>("out").ok().flatten() {
        output.out = Some(out_file(&mut report, path)?);
    }
    emit(&report, &output)
}

/// The engine `--backend` names; HiGHS only in a build that has it.
fn backend(vm: &ArgMatches) -> Result<Engine, Error> {
    match vm
        .try_get_one::<String>("backend")
        .ok()
        .flatten()
        .map(String::as_str)
    {
        Some("highs") if quandary::solve::HAS_HIGHS => Ok(Engine::Highs),
        Some("highs") => Err(Error::input(format!(
            "--backend highs: {}",
            quandary::solve::NO_HIGHS
        ))),
        _ => Ok(Engine::Sat),
    }
}

/// The puzzle's options given on the command line, as the one wire shape every front end
/// sends: a JSON object keyed by flag name, a switch `true`, a flag's value its text (a
/// repeated flag, a list of them). Flags left out are left out (the options' defaults, as for
/// the page and Python); tests/conformance.rs holds every flag and value, and no flag at all,
/// to give equal options both ways.
pub(crate) fn options_json(entry: &dyn Entry, vm: &ArgMatches) -> serde_json::Value {
    use clap::parser::ValueSource;
    let mut json = serde_json::Map::new();
    for arg in entry
        .options_args(Command::new(entry.name()))
        .get_arguments()
    {
        let (id, Some(long)) = (arg.get_id().as_str(), arg.get_long()) else {
            continue;
        };
        // Not a flag of this verb (an own verb without the puzzle's options), or not given.
        let Ok(Some(raw)) = vm.try_get_raw(id) else {
            continue;
        };
        if vm.value_source(id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let value = match arg.get_action() {
            ArgAction::SetTrue => serde_json::Value::Bool(true),
            _ => {
                let texts: Vec<serde_json::Value> = raw
                    .map(|v| serde_json::Value::String(v.to_string_lossy().into_owned()))
                    .collect();
                match <[serde_json::Value; 1]>::try_from(texts) {
                    Ok([one]) => one,
                    Err(many) => serde_json::Value::Array(many),
                }
            }
        };
        json.insert(long.to_string(), value);
    }
    serde_json::Value::Object(json)
}

/// The query a generic verb asks, by the request room's rules ([`quandary::request::query`]:
/// the registry's mapping, `--at-least` for `reach`, `--cap` for `count` only), after clap.
fn query_of(entry: &dyn Entry, verb: &str, vm: &ArgMatches) -> Result<Query, Error> {
    let req = quandary::request::Request {
        puzzle: entry.name().to_string(),
        verb: verb.to_string(),
        at_least: vm.try_get_one::<i64>("at-least").ok().flatten().copied(),
        cap: vm.try_get_one::<u64>("cap").ok().flatten().copied(),
        ..Default::default()
    };
    quandary::request::query(&req)?
        .ok_or_else(|| Error::Internal(format!("'{verb}' is not a generic verb")))
}

/// `explain`'s query with how its reasons are looked for: `--plain` and `--threads` are its
/// own flags (no other verb's parser has them).
fn explaining(query: Query, vm: &ArgMatches) -> Result<Query, Error> {
    let plain = vm.try_get_one::<bool>("plain").ok().flatten() == Some(&true);
    let threads = vm.try_get_one::<u32>("threads").ok().flatten().copied();
    query.explaining(plain, threads)
}

/// A puzzle's own verb, run through the registry and printed like every answer (a sweep's
/// rows as they come); its file (a new puzzle, a converted one) written to `-o FILE` if given.
fn model(
    entry: &dyn Entry,
    words: &[String],
    options: OptionsIn,
    m: &ArgMatches,
) -> Result<i32, Error> {
    let query = if m.get_flag("symmetry-breaking") {
        entry.solve_query()
    } else {
        Query::Count { cap: None }
    };
    // A run like any other: the time limit and the memory limit bound building the model
    // and writing its files, whose paths are checked first.
    let files: Vec<&String> = ["lp", "opb"]
        .iter()
        .filter_map(|f| m.get_one::<String>(f))
        .collect();
    check_paths(&files, ("--lp", "--opb"))?;
    if let Some(path) = m.get_one::<String>("mps") {
        check_paths(&[path], ("--mps", "--mps"))?;
    }
    let limits = run_limits(time_limit(m)?);
    let built = quandary::runner::bounded(&limits, "building the model", || {
        entry.model(words, Files::Disk, options, query)
    })?;
    let (title, model) = (&built.title, &built.model);
    let (size, families, algebra) =
        quandary::runner::bounded(&limits, "measuring and writing the model", || {
            if let Some(path) = m.get_one::<String>("lp") {
                write_file(path, &lp::to_lp(model, title))?;
            }
            if let Some(path) = m.get_one::<String>("opb") {
                write_file(path, &opb::to_opb(model, title))?;
            }
            if let Some(path) = m.get_one::<String>("mps") {
                write_file(path, &quandary::model::mps::to_mps(model, title))?;
            }
            let algebra = m
                .get_flag("algebra")
                .then(|| quandary::model::algebra::families(model));
            Ok((model.size(), model.families(), algebra))
        })?;
    let relaxation = if m.get_flag("relax") {
        Some(built.relax(limits.deadline)?)
    } else {
        None
    };
    if m.get_flag("json") {
        let families: Vec<serde_json::Value> = match &algebra {
            Some(a) => a
                .iter()
                .map(|f| serde_json::to_value(f).expect("plain data"))
                .collect(),
            None => families
                .iter()
                .map(|(f, k)| serde_json::json!({"family": f, "rows": k}))
                .collect(),
        };
        let mut out = serde_json::json!({"puzzle": entry.name(), "verb": "model", "status": "solved",
            "title": title, "stats": {"model": size, "seconds": limits.seconds()},
            "families": families});
        if let Some(r) = &relaxation {
            out["relaxation"] = serde_json::to_value(r).expect("plain data");
        }
        outln!("{out}");
    } else {
        outln!("{title}: {size}");
        if let Some(r) = &relaxation {
            outln!("LP relaxation: {}", r.describe());
        }
        for (k, (family, rows)) in families.iter().enumerate() {
            outln!("  {rows:>6}  {family}");
            let Some(f) = algebra.as_ref().and_then(|a| a.get(k)) else {
                continue;
            };
            for s in &f.shapes {
                let each = match (s.for_each.as_str(), s.rows) {
                    (_, 1) => "(1 row)".to_string(),
                    ("", n) => format!("({n} rows)"),
                    (ix, n) => format!("for each {ix} ({n} rows)"),
                };
                outln!("            {}   {each}", s.text);
            }
            if f.other_rows > 0 {
                outln!("            ... {} rows of other shapes", f.other_rows);
            }
        }
    }
    Ok(0)
}

/// One built-in instance of every puzzle, asked what its tour asks (`solve`, or `unique`).
fn tour() -> Result<i32, Error> {
    outln!("quandary tour: one built-in instance of every puzzle\n");
    let mut code = 0;
    for e in registry::PUZZLES {
        let words: Vec<String> = e.example().iter().map(|w| w.to_string()).collect();
        outln!("== {} ({} {}) ==", e.title(), e.name(), words.join(" "));
        let report = e.run(
            &words,
            Files::Disk,
            OptionsIn::Default,
            e.tour_query(),
            &run_limits(None),
            None,
        )?;
        code = code.max(emit(&report, &Output::default())?);
        outln!("");
    }
    Ok(code)
}
