//! Many runs: `quandary jobs` writes them, `quandary batch` runs them, `quandary merge`
//! combines their results. No scheduler: a batch runs its share of a job file on one machine,
//! and cluster engines (Slurm arrays, Kubernetes Indexed Jobs, GNU parallel) start as many
//! batches as they like, each picking its shard by an index.
//!
//! A job is one command line of quandary (`{"puzzle", "query", "args", "time_limit", "id"}`),
//! run as a child process of this program with `--json`: a job that panics, aborts, overruns
//! or is killed harms no other job and is recorded as such. Results are appended one line per
//! job and flushed, so a rerun resumes where a killed batch stopped.
//!
//! The formats and what they answer (job lines, result lines, merging) are the library's
//! ([`quandary::runner::batch`]); here are the processes, files, signals and printing.

mod jobs;
mod run;

pub use jobs::jobs;
pub use run::{batch, follow_parent, FOLLOW_PARENT};

use super::command;
use clap::ArgMatches;
use quandary::runner::batch::{self as formats, Job, Merged};
use quandary::Error;
use std::collections::HashSet;

/// The command line's own parser, for the words of job lines: a job that would not run is
/// found when its file is read.
pub(super) struct Parser(std::cell::RefCell<clap::Command>);

impl Parser {
    /// The command line's parser, built once for all the lines of a job file (built anew for
    /// each line, it took about a millisecond a line: 10 s to resume 10,000 jobs).
    pub(super) fn new() -> Parser {
        Parser(std::cell::RefCell::new(command()))
    }

    /// Whether `argv` parses as a command line; if not, clap's first line of error.
    pub(super) fn parses(&self, argv: &[String]) -> Result<(), String> {
        self.0
            .borrow_mut()
            .try_get_matches_from_mut(
                std::iter::once("quandary".to_string()).chain(argv.iter().cloned()),
            )
            .map(|_| ())
            .map_err(|e| {
                let text = e.render().to_string();
                text.lines()
                    .next()
                    .unwrap_or("")
                    .trim_start_matches("error: ")
                    .to_string()
            })
    }
}

/// The jobs of a job file, with the number of lines skipped (each said on standard error).
pub(super) fn read_jobs(path: &str) -> Result<(Vec<Job>, usize), Error> {
    let text = quandary::input::read_file(path)?;
    let parser = Parser::new();
    let file = formats::read_jobs(&text, &|argv| parser.parses(argv));
    for (line, why) in &file.skipped {
        eprintln!("quandary: {path} line {line}: skipped: {why}");
    }
    Ok((file.jobs, file.skipped.len()))
}

/// `quandary merge`: the answer of every question in results files; the cubes of a split
/// question combined into its answer, after checking that they cover the whole space.
pub fn merge(m: &ArgMatches) -> Result<i32, Error> {
    let paths: Vec<String> = m
        .get_many::<String>("results")
        .expect("required")
        .cloned()
        .collect();
    let results = formats::read_results(&paths, &mut |said| eprintln!("quandary: {said}"))?;
    if results.is_empty() {
        // Nothing answered and no question known: an empty merge would print nothing and
        // exit 0, as if every question were answered.
        return Err(Error::input(format!(
            "{} hold no results: run the batch first (quandary batch JOBS.jsonl)",
            paths.join(", ")
        )));
    }
    if let Some(jobs_path) = m.get_one::<String>("jobs") {
        let have: HashSet<&str> = results.iter().map(|r| r.id.as_str()).collect();
        let missing: Vec<String> = read_jobs(jobs_path)?
            .0
            .into_iter()
            .filter(|j| !have.contains(j.id.as_str()))
            .map(|j| j.id)
            .collect();
        if !missing.is_empty() {
            return Err(Error::input(format!(
                "{} jobs of {jobs_path} have no result (first: \"{}\"); run their batch (again) first",
                missing.len(),
                missing[0]
            )));
        }
    }
    let rows = formats::merge(&results)?;
    let open = rows.iter().filter(|r| !r.answered()).count();
    if m.get_flag("json") {
        outln!(
            "{}",
            serde_json::json!({"answers": rows, "unanswered": open})
        );
    } else if m.get_flag("csv") {
        outln!("question,status,objective,count,unique,cubes,seconds,longest");
        for r in &rows {
            outln!("{}", csv_row(r));
        }
    } else {
        for r in &rows {
            outln!("{}", r.text);
        }
    }
    Ok(if open > 0 { 1 } else { 0 })
}

/// One answer as a CSV row (absent values empty).
fn csv_row(r: &Merged) -> String {
    fn or_empty<T: ToString>(v: &Option<T>) -> String {
        v.as_ref().map_or(String::new(), T::to_string)
    }
    format!(
        "\"{}\",{},{},{},{},{},{},{}",
        r.question.replace('"', "\"\""),
        r.status,
        or_empty(&r.objective),
        or_empty(&r.count),
        or_empty(&r.unique),
        or_empty(&r.cubes),
        r.seconds,
        r.longest
    )
}
