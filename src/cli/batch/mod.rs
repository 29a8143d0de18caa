//! Many runs: `quandary jobs` writes them, `quandary batch` runs them, `quandary merge`
//! combines their results. No scheduler: a batch runs its share of a job file on one machine,
//! and cluster engines (Slurm arrays, Kubernetes Indexed Jobs, GNU parallel) start as many
//! batches as they like, each picking its shard by an index.
//!
//! A job is one command line of quandary (`{"puzzle", "query", "args", "time_limit", "id"}`),
//! run as a child process of this program with `--json`: a job that panics, aborts, overruns
//! or is killed harms no other job and is recorded as such. Results are appended one line per
//! job and flushed, so a rerun resumes where a killed batch stopped.

mod jobs;
mod merge;
mod run;

pub use jobs::jobs;
pub use merge::merge;
pub use run::batch;

use super::command;
use quandary::runner::registry::{self};
use quandary::solve::search::Status;
use quandary::Error;
use serde_json::Value;
use std::collections::HashMap;

/// One job of a job file.
#[derive(Clone, Debug)]
pub(super) struct Job {
    /// Line number in the job file, from 1.
    line: usize,
    id: String,
    /// A fingerprint of the command it runs: a result is this job's only if it matches.
    hash: String,
    /// The command line after `quandary`, with `--json` (and `--time-limit`).
    argv: Vec<String>,
    time_limit: Option<f64>,
}

/// FNV-1a, 64 bits: a fingerprint stable across builds and platforms (not a security hash).
pub(super) fn fingerprint(parts: &[String]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The words of a JSON value that stands for command-line words.
pub(super) fn words_of(v: &Value, what: &str) -> Result<Vec<String>, String> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Number(n) => Ok(vec![n.to_string()]),
        Value::Array(a) => a
            .iter()
            .map(|w| match w {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                _ => Err(format!("\"{what}\" must hold strings or numbers")),
            })
            .collect(),
        _ => Err(format!("\"{what}\" must be a list of words")),
    }
}

/// A job line read: the command it stands for, checked by the command line's own parser.
pub(super) fn read_job(line: usize, text: &str) -> Result<Job, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(o) = &v else {
        return Err("a job is a JSON object".into());
    };
    const KNOWN: [&str; 9] = [
        "id",
        "puzzle",
        "query",
        "verb",
        "input",
        "args",
        "at_least",
        "time_limit",
        "cube",
    ];
    if let Some(k) = o.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(format!(
            "unknown field \"{k}\" (a job has {})",
            KNOWN.join(", ")
        ));
    }
    let names: Vec<&str> = registry::PUZZLES.iter().map(|e| e.name()).collect();
    let puzzle = v["puzzle"]
        .as_str()
        .ok_or_else(|| format!("give \"puzzle\": one of {}", names.join(", ")))?;
    if registry::find(puzzle).is_none() {
        return Err(format!("no puzzle '{puzzle}'"));
    }
    let query = v["query"]
        .as_str()
        .or(v["verb"].as_str())
        .ok_or("give \"query\": the verb, as on the command line (solve, optimum, count, ...)")?;
    let mut argv = vec![puzzle.to_string(), query.to_string()];
    argv.extend(words_of(&v["input"], "input")?);
    match &v["args"] {
        Value::Object(flags) => {
            for (k, val) in flags {
                let flag = format!("--{}", k.trim_start_matches('-').replace('_', "-"));
                match val {
                    Value::Bool(true) => argv.push(flag),
                    Value::Bool(false) | Value::Null => {}
                    Value::Array(_) => {
                        for w in words_of(val, k)? {
                            argv.extend([flag.clone(), w]);
                        }
                    }
                    other => {
                        let w = words_of(other, k)?;
                        argv.push(flag);
                        argv.extend(w);
                    }
                }
            }
        }
        other => argv.extend(words_of(other, "args")?),
    }
    if let Some(n) = v.get("at_least") {
        argv.extend(["--at-least".into(), words_of(n, "at_least")?.concat()]);
    }
    let time_limit = match &v["time_limit"] {
        Value::Null => None,
        t => match t.as_f64() {
            Some(s) if s.is_finite() && s >= 0.0 => Some(s),
            _ => return Err(format!("time_limit {t} is not a number of seconds")),
        },
    };
    if let Some(t) = time_limit {
        argv.extend(["--time-limit".into(), t.to_string()]);
    }
    argv.push("--json".into());
    // The command line's own parser: a job that would not run is found now, not later.
    command()
        .try_get_matches_from(std::iter::once("quandary".to_string()).chain(argv.clone()))
        .map_err(|e| {
            let text = e.render().to_string();
            text.lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ")
                .to_string()
        })?;
    let hash = fingerprint(&argv);
    let id = match &v["id"] {
        Value::Null => format!("job-{hash}"),
        Value::String(s) if !s.is_empty() => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return Err("\"id\" must be a non-empty string or a number".into()),
    };
    Ok(Job {
        line,
        id,
        hash,
        argv,
        time_limit,
    })
}

/// The jobs of a file; bad lines reported (with their numbers) and skipped.
pub(super) fn read_jobs(path: &str) -> Result<(Vec<Job>, usize), Error> {
    let text = quandary::input::read_file(path)?;
    let mut jobs: Vec<Job> = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut skipped = 0;
    for (k, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        match read_job(k + 1, t) {
            Ok(job) => {
                if let Some(first) = ids.get(&job.id) {
                    eprintln!(
                        "quandary: {path} line {}: skipped: id \"{}\" is already the id of line {first}",
                        k + 1,
                        job.id
                    );
                    skipped += 1;
                    continue;
                }
                ids.insert(job.id.clone(), k + 1);
                jobs.push(job);
            }
            Err(why) => {
                eprintln!("quandary: {path} line {}: skipped: {why}", k + 1);
                skipped += 1;
            }
        }
    }
    Ok((jobs, skipped))
}

/// Which share of the jobs this batch runs: `(index, count, where it came from)`.
pub(super) fn shard(arg: Option<&String>) -> Result<Option<(usize, usize, String)>, Error> {
    let number = |name: &str, s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| Error::input(format!("{name}={s} is not a whole number")))
    };
    let env = |name: &str| std::env::var(name).ok().filter(|s| !s.trim().is_empty());
    let (i, n, from) = if let Some(s) = arg {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| Error::input(format!("--shard {s}: write I/N, e.g. 0/4")))?;
        (
            number("--shard index", i)?,
            number("--shard count", n)?,
            format!("--shard {s}"),
        )
    } else if let Some(id) = env("SLURM_ARRAY_TASK_ID") {
        let count = env("SLURM_ARRAY_TASK_COUNT").ok_or_else(|| {
            Error::input("SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT")
        })?;
        let min =
            env("SLURM_ARRAY_TASK_MIN").map_or(Ok(0), |m| number("SLURM_ARRAY_TASK_MIN", &m))?;
        let step = env("SLURM_ARRAY_TASK_STEP")
            .map_or(Ok(1), |m| number("SLURM_ARRAY_TASK_STEP", &m))?
            .max(1);
        let id = number("SLURM_ARRAY_TASK_ID", &id)?;
        (
            id.checked_sub(min)
                .ok_or_else(|| Error::input("SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN"))?
                / step,
            number("SLURM_ARRAY_TASK_COUNT", &count)?,
            format!("Slurm array task {id}"),
        )
    } else if let Some(index) = env("JOB_COMPLETION_INDEX") {
        let count = env("JOB_COMPLETIONS").ok_or_else(|| {
            Error::input("JOB_COMPLETION_INDEX is set but not JOB_COMPLETIONS: set it in the Job's environment to spec.completions (see deploy/kubernetes-job.yaml), or give --shard I/N")
        })?;
        (
            number("JOB_COMPLETION_INDEX", &index)?,
            number("JOB_COMPLETIONS", &count)?,
            format!("Kubernetes completion index {index}"),
        )
    } else {
        return Ok(None);
    };
    if n == 0 || i >= n {
        return Err(Error::input(format!(
            "{from}: shard {i} of {n} does not exist (shards are 0 to N-1)"
        )));
    }
    Ok(Some((i, n, from)))
}

/// The result lines of a results file, with their line numbers (from 1), and the length of the
/// text up to the last whole line. A last line cut short (a batch killed while writing it) is
/// left out and said; any other line that is not a JSON object is an error.
pub(super) fn result_lines(
    path: &str,
    text: &str,
    torn: &str,
) -> Result<(Vec<(usize, Value)>, usize), Error> {
    let mut out = Vec::new();
    let mut whole = 0;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (k, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            whole += line.len();
            continue;
        }
        match serde_json::from_str::<Value>(line.trim_end()) {
            Ok(v) if line.ends_with('\n') && v.is_object() => out.push((k + 1, v)),
            _ if k + 1 == lines.len() => {
                eprintln!("quandary: {path}: the last line is incomplete (a batch was stopped while writing it); {torn}");
                break;
            }
            _ => {
                return Err(Error::input(format!(
                    "{path} line {}: not a result line; is this a results file of quandary batch?",
                    k + 1
                )))
            }
        }
        whole += line.len();
    }
    Ok((out, whole))
}

/// Whether a status word is an answer (solved, optimal, infeasible).
pub(super) fn answered(s: &str) -> bool {
    status_of(s) != Status::Unknown
}

/// A status word of a report (as `--json` writes it); anything else (a job that failed:
/// `error`, `crashed`, `killed`, `timeout`) is no answer.
pub(super) fn status_of(s: &str) -> Status {
    serde_json::from_value(serde_json::json!(s)).unwrap_or(Status::Unknown)
}

#[cfg(test)]
mod tests {
    use super::jobs::expand;
    use super::merge::question;
    use super::*;

    #[test]
    fn ranges_expand_in_order_and_ascending_keeps_non_decreasing() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let all = expand(&w("gunport optimum 1..3 2..3"), false).unwrap();
        assert_eq!(all.len(), 6);
        let up = expand(&w("gunport optimum 1..3 1..3"), true).unwrap();
        let pairs: Vec<String> = up.iter().map(|c| c[2..].join("x")).collect();
        assert_eq!(pairs, ["1x1", "1x2", "1x3", "2x2", "2x3", "3x3"]);
        assert!(expand(&w("tank solve 5..2"), false).is_err());
        let parts = expand(&w("tank count 7 --part 1..3/3"), false).unwrap();
        let last: Vec<&str> = parts.iter().map(|c| c[4].as_str()).collect();
        assert_eq!(last, ["1/3", "2/3", "3/3"]);
        // A word with a slash but no range is kept as it is.
        assert_eq!(expand(&w("x a/b"), false).unwrap(), [w("x a/b")]);
    }

    #[test]
    fn jobs_read_as_command_lines() {
        let j = read_job(
            3,
            r#"{"id": "a", "puzzle": "gunport", "query": "optimum", "input": [6, 6], "args": {"formulation": "cell"}, "time_limit": 5}"#,
        )
        .unwrap();
        assert_eq!(
            j.argv.join(" "),
            "gunport optimum 6 6 --formulation cell --time-limit 5 --json"
        );
        // The same command written as raw words has the same fingerprint.
        let k = read_job(
            4,
            r#"{"id": "b", "puzzle": "gunport", "query": "optimum", "args": ["6", "6", "--formulation", "cell"], "time_limit": 5}"#,
        )
        .unwrap();
        assert_eq!(j.hash, k.hash);
        for (bad, says) in [
            (r#"{"puzzle": "sudoku", "query": "solve"}"#, "no puzzle"),
            (r#"{"puzzle": "tank", "query": "fly", "input": [5]}"#, "fly"),
            (
                r#"{"puzzle": "tank", "query": "solve", "args": {"no-such": 1}}"#,
                "no-such",
            ),
            (
                r#"{"puzzle": "tank", "query": "solve", "time_limit": -1}"#,
                "time_limit",
            ),
            (
                r#"{"puzzle": "tank", "query": "solve", "colour": 1}"#,
                "unknown field",
            ),
            (r#"[1, 2]"#, "object"),
            (r#"{"puzzle": "#, "not JSON"),
        ] {
            let e = read_job(1, bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn questions_ignore_how_they_ran() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            question(&w("tank count 5 --cube +1 --time-limit 9 --json")),
            "tank count 5"
        );
    }
}
