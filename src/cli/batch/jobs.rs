//! `quandary jobs`: write a job file from a command with ranges, or from a question split into
//! cubes.

use super::*;
use crate::cli::command;
use clap::ArgMatches;
use quandary::input::Files;
use quandary::runner::batch::{expand, read_job};
use quandary::runner::cubes::{self};
use quandary::runner::registry::{self, OptionsIn};
use quandary::runner::Query;
use quandary::Error;
use serde_json::json;

/// `quandary jobs`: writes the job file of a sweep (ranges `A..B` in any word) or of one
/// question split into cubes (`--cubes K`).
pub fn jobs(m: &ArgMatches) -> Result<i32, Error> {
    let words: Vec<String> = m
        .get_many::<String>("command")
        .expect("required")
        .cloned()
        .collect();
    let cubes = m.get_one::<usize>("cubes").copied();
    let mut limit = m.get_one::<f64>("time-limit").copied();
    let mut lines = Vec::new();
    for mut argv in expand(&words, m.get_flag("ascending"))? {
        // A --time-limit in the command becomes the job's own (the batch kills overruns).
        if let Some(k) = argv.iter().position(|w| w == "--time-limit") {
            let t = argv.get(k + 1).and_then(|t| t.parse().ok());
            if t.is_none() {
                return Err(Error::input("--time-limit needs a number of seconds"));
            }
            limit = limit.or(t);
            argv.drain(k..k + 2);
        }
        let parsed = command()
            .try_get_matches_from(std::iter::once("quandary".to_string()).chain(argv.clone()))
            .map_err(|e| {
                Error::input(format!(
                    "`{}`: {} (the flags of `quandary jobs` itself, --cubes, --ascending, --time-limit, -o, go before the puzzle)",
                    argv.join(" "),
                    e.render().to_string().lines().next().unwrap_or("")
                ))
            })?;
        let [puzzle, verb, rest @ ..] = argv.as_slice() else {
            return Err(Error::input(
                "give a puzzle and a verb, e.g. `gunport optimum 1..12 1..12`",
            ));
        };
        let job = |id: String, args: Vec<String>, cube: Option<(usize, usize)>| {
            let mut j = json!({"id": id, "puzzle": puzzle, "query": verb, "args": args});
            if let Some(t) = limit {
                j["time_limit"] = json!(t);
            }
            if let Some((i, k)) = cube {
                j["cube"] = json!({"index": i, "of": k});
            }
            j
        };
        let id = argv.join(" ");
        match cubes {
            None => lines.push(job(id, rest.to_vec(), None)),
            Some(k) => {
                let (entry, vm, query) = generic(&parsed).ok_or_else(|| {
                    Error::input("--cubes splits solve, count, unique, optimum and reach questions")
                })?;
                if query == Query::Forced {
                    return Err(Error::input(
                        "--cubes splits solve, count, unique, optimum and reach questions, not forced",
                    ));
                }
                // With --cube C, the cube C is split further (a hard cube of an earlier split):
                // each new cube is C plus decisions at places C does not fix.
                let within = match vm.try_get_one::<String>("cube").ok().flatten() {
                    Some(text) => {
                        cubes::parse(text).map_err(|e| Error::input(format!("--cube: {e}")))?
                    }
                    None => Vec::new(),
                };
                let input: Vec<String> = vm
                    .get_many::<String>("input")
                    .map(|w| w.cloned().collect())
                    .unwrap_or_default();
                let options = crate::cli::options_json(entry, vm);
                let places =
                    entry.decisions(&input, Files::Disk, OptionsIn::Json(&options), query)?;
                let fixed: Vec<_> = within
                    .iter()
                    .filter_map(|l| places.get(l.unsigned_abs() as usize - 1))
                    .collect();
                let free: Vec<usize> = cubes::split_decisions(&places)
                    .into_iter()
                    .filter(|&d| !fixed.contains(&&places[d]))
                    .collect();
                let split: Vec<cubes::Cube> = cubes::split(&free, k)
                    .map_err(Error::input)?
                    .into_iter()
                    .map(|c| within.iter().copied().chain(c).collect())
                    .collect();
                let rest: Vec<String> = match rest.iter().position(|w| w == "--cube") {
                    Some(at) => [&rest[..at], &rest[at + 2..]].concat(),
                    None => rest.to_vec(),
                };
                for (i, c) in split.iter().enumerate() {
                    let mut args = rest.to_vec();
                    args.extend(["--cube".to_string(), cubes::show(c)]);
                    lines.push(job(
                        format!("{id} / cube {} of {k}", i + 1),
                        args,
                        Some((i + 1, k)),
                    ));
                }
            }
        }
    }
    // Every job written is one `quandary batch` will run.
    let parser = Parser::new();
    for (k, l) in lines.iter().enumerate() {
        read_job(k + 1, &l.to_string(), &|argv| parser.parses(argv))
            .map_err(|why| Error::input(format!("job {} would not run: {why}", k + 1)))?;
    }
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    match m.get_one::<String>("output") {
        Some(path) if path != "-" => {
            crate::cli::write_file(path, &text)?;
            eprintln!("quandary: {} jobs written to {path}", lines.len());
        }
        _ => print!("{text}"),
    }
    Ok(0)
}

/// The puzzle, the verb's flags and the query of a generic verb's command line.
pub(super) fn generic(
    matches: &ArgMatches,
) -> Option<(&'static dyn registry::Entry, &ArgMatches, Query)> {
    let (name, pm) = matches.subcommand()?;
    let entry = registry::find(name)?;
    let (verb, vm) = pm.subcommand()?;
    let query = crate::cli::query_of(entry, verb, vm).ok()?;
    Some((entry, vm, query))
}
