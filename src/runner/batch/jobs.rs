//! Job files: what a job line says, the command it stands for, its fingerprint; ranges
//! expanded into jobs; which shard of a job file a batch runs.

use crate::error::{Error, Result};
use crate::runner::registry;
use serde_json::Value;
use std::collections::HashMap;

/// One job of a job file.
#[derive(Clone, Debug)]
pub struct Job {
    /// Line number in the job file, from 1.
    pub line: usize,
    pub id: String,
    /// A fingerprint of the command it runs: a result is this job's only if it matches.
    pub hash: String,
    /// The command line after `quandary`, with `--json` (and `--time-limit`).
    pub argv: Vec<String>,
    pub time_limit: Option<f64>,
}

/// FNV-1a, 64 bits: a fingerprint stable across builds and platforms (not a security hash).
pub fn fingerprint(parts: &[String]) -> String {
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
pub fn words_of(v: &Value, what: &str) -> std::result::Result<Vec<String>, String> {
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

/// The fields a job line may have.
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

/// A job line read: the command it stands for. `parses` is the command line's own parser
/// (`Err` with its first line of complaint), so a job that would not run is found now, not
/// when its turn comes.
pub fn read_job(
    line: usize,
    text: &str,
    parses: &dyn Fn(&[String]) -> std::result::Result<(), String>,
) -> std::result::Result<Job, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(o) = &v else {
        return Err("a job is a JSON object".into());
    };
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
    parses(&argv)?;
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

/// A job file read: its jobs, and the lines skipped, each with its number and why.
#[derive(Debug, Default)]
pub struct JobFile {
    pub jobs: Vec<Job>,
    pub skipped: Vec<(usize, String)>,
}

/// The jobs of a job file's text; bad lines (and a second use of an id) are skipped and said.
pub fn read_jobs(
    text: &str,
    parses: &dyn Fn(&[String]) -> std::result::Result<(), String>,
) -> JobFile {
    let mut file = JobFile::default();
    let mut ids: HashMap<String, usize> = HashMap::new();
    for (k, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        match read_job(k + 1, t, parses) {
            Ok(job) => {
                if let Some(first) = ids.get(&job.id) {
                    file.skipped.push((
                        k + 1,
                        format!("id \"{}\" is already the id of line {first}", job.id),
                    ));
                    continue;
                }
                ids.insert(job.id.clone(), k + 1);
                file.jobs.push(job);
            }
            Err(why) => file.skipped.push((k + 1, why)),
        }
    }
    file
}

/// The words of a job generator's command with every `A..B` range expanded: one command per
/// combination (with `ascending`, only those whose ranged values do not decrease).
pub fn expand(words: &[String], ascending: bool) -> Result<Vec<Vec<String>>> {
    // A range may carry a `/N` after it (`--part 1..40/40`), kept on every value.
    let range = |w: &str| -> Option<(i64, i64, String)> {
        let (w, tail) = match w.find('/') {
            Some(k) => (&w[..k], w[k..].to_string()),
            None => (w, String::new()),
        };
        let (a, b) = w.split_once("..")?;
        Some((a.parse().ok()?, b.parse().ok()?, tail))
    };
    let mut out: Vec<(Vec<String>, Vec<i64>)> = vec![(Vec::new(), Vec::new())];
    for w in words {
        match range(w) {
            Some((a, b, tail)) if a <= b && b - a <= 10_000 => {
                out = out
                    .into_iter()
                    .flat_map(|(ws, vs)| {
                        let tail = tail.clone();
                        (a..=b).filter_map(move |x| {
                            if ascending && vs.last().is_some_and(|&p| x < p) {
                                return None;
                            }
                            let mut ws = ws.clone();
                            ws.push(format!("{x}{tail}"));
                            let mut vs = vs.clone();
                            vs.push(x);
                            Some((ws, vs))
                        })
                    })
                    .collect();
            }
            Some((a, b, _)) => {
                return Err(Error::input(format!(
                    "range {a}..{b}: give A..B with A ≤ B and at most 10000 values"
                )))
            }
            None => out.iter_mut().for_each(|(ws, _)| ws.push(w.clone())),
        }
        if out.len() > 1_000_000 {
            return Err(Error::input("more than a million jobs: narrow the ranges"));
        }
    }
    Ok(out.into_iter().map(|(ws, _)| ws).collect())
}

/// Which share of the jobs a batch runs: job k (from 0) is this batch's when k mod `count` is
/// `index`; `from` says where that came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
    pub from: String,
}

/// The shard a batch runs: `--shard I/N` if given, else the cluster's own index (a Slurm array
/// task, a Kubernetes Indexed Job's completion index) from `env`; `None` for all jobs.
pub fn shard(arg: Option<&str>, env: &dyn Fn(&str) -> Option<String>) -> Result<Option<Shard>> {
    let number = |name: &str, s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| Error::input(format!("{name}={s} is not a whole number")))
    };
    let env = |name: &str| env(name).filter(|s| !s.trim().is_empty());
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
    Ok(Some(Shard {
        index: i,
        count: n,
        from,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn ranges_expand_in_order_and_ascending_keeps_non_decreasing() {
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
    fn jobs_read_as_command_lines_and_bad_lines_are_said() {
        let any = |_: &[String]| Ok(());
        let j = read_job(
            3,
            r#"{"id": "a", "puzzle": "gunport", "query": "optimum", "input": [6, 6], "args": {"formulation": "cell"}, "time_limit": 5}"#,
            &any,
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
            &any,
        )
        .unwrap();
        assert_eq!(j.hash, k.hash);
        for (bad, says) in [
            (r#"{"puzzle": "sudoku", "query": "solve"}"#, "no puzzle"),
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
            let e = read_job(1, bad, &any).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
        // What the parser refuses is refused, in its words.
        let refuse = |a: &[String]| Err(format!("unexpected '{}'", a[1]));
        let e = read_job(1, r#"{"puzzle": "tank", "query": "fly"}"#, &refuse).unwrap_err();
        assert!(e.contains("fly"), "{e}");
        let file = read_jobs(
            "# a comment\n{\"id\": \"x\", \"puzzle\": \"tank\", \"query\": \"solve\", \"input\": 5}\n\n{\"id\": \"x\", \"puzzle\": \"tank\", \"query\": \"count\", \"input\": 5}\nnot json\n",
            &any,
        );
        assert_eq!(file.jobs.len(), 1);
        assert_eq!(file.jobs[0].line, 2);
        let skipped: Vec<usize> = file.skipped.iter().map(|(k, _)| *k).collect();
        assert_eq!(skipped, [4, 5]);
        assert!(file.skipped[0].1.contains("already the id of line 2"));
    }

    #[test]
    fn shards_come_from_the_flag_or_the_cluster() {
        let none = |_: &str| None;
        assert_eq!(shard(None, &none).unwrap(), None);
        let s = shard(Some("1/4"), &none).unwrap().unwrap();
        assert_eq!((s.index, s.count), (1, 4));
        assert!(shard(Some("4/4"), &none).is_err());
        assert!(shard(Some("x"), &none).is_err());
        let slurm = |k: &str| match k {
            "SLURM_ARRAY_TASK_ID" => Some("7".to_string()),
            "SLURM_ARRAY_TASK_COUNT" => Some("4".to_string()),
            "SLURM_ARRAY_TASK_MIN" => Some("1".to_string()),
            "SLURM_ARRAY_TASK_STEP" => Some("2".to_string()),
            _ => None,
        };
        let s = shard(None, &slurm).unwrap().unwrap();
        assert_eq!((s.index, s.count), (3, 4));
        let k8s = |k: &str| (k == "JOB_COMPLETION_INDEX").then(|| "2".to_string());
        let e = shard(None, &k8s).unwrap_err().to_string();
        assert!(e.contains("JOB_COMPLETIONS"), "{e}");
    }
}
