//! The command line of the verbs only one puzzle has: each verb's flags built from its table
//! of parameters ([`quandary::verbs`]), its matches turned back into the one JSON object of
//! arguments every front end gives.

use super::{check_outputs, emit, out_file, run_limits, time_limit, Output};
use clap::{Arg, ArgAction, ArgMatches, Command};
use quandary::input::Files;
use quandary::runner::registry::{Entry, OptionsIn};
use quandary::verbs::{self, Args, Call, Kind, OwnVerb, Param};
use quandary::Error;

/// Adds a puzzle's own verbs to its command.
pub fn commands(e: &dyn Entry, mut cmd: Command) -> Command {
    for v in verbs::of(e.name()) {
        cmd = cmd.subcommand(command(e, v));
    }
    cmd
}

/// One own verb's command: its parameters, the puzzle's options if it takes them, and the
/// outputs it offers.
fn command(e: &dyn Entry, v: &OwnVerb) -> Command {
    let mut cmd = Command::new(v.name);
    if v.options {
        cmd = e.options_args(cmd);
    }
    // The options' own doc comment would become the verb's help: set the verb's after them.
    cmd = cmd
        .about(v.about)
        .long_about(None)
        .visible_aliases(v.aliases);
    for p in v.params {
        cmd = cmd.arg(arg(p));
    }
    let o = v.outputs;
    if o.json {
        cmd = cmd.arg(
            Arg::new("json")
                .long("json")
                .action(ArgAction::SetTrue)
                .help("Print exactly one JSON object on stdout"),
        );
    }
    if o.picture {
        cmd = cmd.arg(
            Arg::new("svg")
                .long("svg")
                .value_name("FILE")
                .help("Write a picture of the answer to FILE"),
        );
    }
    if o.time_limit {
        cmd = cmd.arg(super::time_limit_arg(
            "Stop after SECS seconds with status \"unknown\" (exit status 1)",
        ));
    }
    if o.proof {
        cmd = cmd.arg(super::proof_arg());
    }
    if o.file {
        cmd = cmd.arg(
            Arg::new("out")
                .long("out")
                .short('o')
                .value_name("FILE")
                .help("Write the answer to FILE (default: print it)"),
        );
    }
    cmd
}

/// A parameter as a flag (or a positional word).
fn arg(p: &Param) -> Arg {
    let mut a = Arg::new(p.name).help(p.help);
    if !p.positional {
        a = a.long(p.name);
    }
    if let Some(c) = p.short {
        a = a.short(c);
    }
    a = match p.kind {
        Kind::Switch => a.action(ArgAction::SetTrue),
        Kind::Whole => a.allow_hyphen_values(true),
        Kind::Text => a,
        Kind::Choice(words) => a.value_parser(clap::builder::PossibleValuesParser::new(words)),
        Kind::Texts => a.num_args(1..),
    };
    if let Some(d) = p.default {
        a = a.default_value(d);
    }
    a.required(p.required && p.default.is_none())
}

/// The matches of an own verb as its arguments' JSON object (what the page and Python send).
fn given(v: &OwnVerb, m: &ArgMatches) -> serde_json::Map<String, serde_json::Value> {
    let mut out = serde_json::Map::new();
    for p in v.params {
        let value = match p.kind {
            Kind::Switch => serde_json::Value::Bool(m.get_flag(p.name)),
            Kind::Texts => match m.get_many::<String>(p.name) {
                Some(words) => serde_json::Value::from(words.cloned().collect::<Vec<_>>()),
                None => continue,
            },
            _ => match m.get_one::<String>(p.name) {
                Some(w) => serde_json::Value::from(w.clone()),
                None => continue,
            },
        };
        out.insert(p.name.to_string(), value);
    }
    out
}

/// Runs an own verb from the command line: prints its lines as it goes (unless the answer is
/// one JSON object), then its report; writes its picture and its file.
pub fn run(entry: &dyn Entry, pm: &ArgMatches) -> Result<i32, Error> {
    let (name, vm) = pm.subcommand().expect("a verb is required");
    let v = verbs::find(entry.name(), name).expect("own verbs come from the table");
    let mut output = Output::from(vm);
    let out = vm.try_get_one::<String>("out").ok().flatten().cloned();
    check_outputs(&output, out.as_ref())?;
    let args = Args::read(entry.name(), v, &given(v, vm), None)?;
    let limits = run_limits(if v.outputs.time_limit {
        time_limit(vm)?
    } else {
        None
    });
    let json = output.json;
    let mut line = |l: &str| {
        if !json {
            outln!("{l}");
        }
    };
    let options = crate::cli::options_json(entry, vm);
    let mut call = |limits: &quandary::runner::Limits| {
        (v.run)(Call {
            args: args.clone(),
            options: OptionsIn::Json(&options),
            files: Files::Disk,
            limits,
            line: &mut line,
        })
    };
    let proof = v
        .outputs
        .proof
        .then(|| vm.try_get_one::<String>("proof").ok().flatten())
        .flatten();
    let mut report = match proof {
        None => call(&limits)?,
        Some(dir) => {
            // The instance, as the verb's arguments ("n=8 type=Q").
            let words: Vec<String> = given(v, vm)
                .iter()
                .map(|(k, value)| match value {
                    serde_json::Value::String(s) => format!("{k}={s}"),
                    other => format!("{k}={other}"),
                })
                .collect();
            super::certify::run(dir, entry, name, &words, |recorder| {
                let shared = quandary::solve::proof::shared(recorder);
                let limits = limits.clone().recording(shared.clone());
                let report = call(&limits);
                drop(limits);
                (report, quandary::solve::proof::take(shared))
            })?
        }
    };
    if let Some(path) = out {
        output.out = Some(out_file(&mut report, &path)?);
    }
    emit(&report, &output)
}
