//! `quandary merge`: the answer of every question in results files, cubes combined after
//! checking that they cover the space.

use super::*;
use clap::ArgMatches;
use quandary::runner::cubes::{self, Part};
use quandary::runner::Query;
use quandary::solve::search::Status;
use quandary::Error;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

/// One result line of a results file.
pub(super) struct Result1 {
    id: String,
    /// The job's line in its job file (results are listed in that order).
    line: u64,
    argv: Vec<String>,
    status: String,
    seconds: f64,
    outcome: Value,
    message: Option<String>,
}

/// The command a result answers, without the words that only say how it ran (`--cube`,
/// `--time-limit`, `--json`): results with the same key answer one question.
pub(super) fn question(argv: &[String]) -> String {
    let mut out = Vec::new();
    let mut it = argv.iter();
    while let Some(w) = it.next() {
        match w.as_str() {
            "--cube" | "--time-limit" => {
                it.next();
            }
            "--json" => {}
            _ => out.push(w.clone()),
        }
    }
    out.join(" ")
}

pub(super) fn read_results(paths: &[String]) -> Result<Vec<Result1>, Error> {
    let mut out: Vec<Result1> = Vec::new();
    let mut seen: HashMap<String, (String, usize)> = HashMap::new();
    for path in paths {
        let text = quandary::input::read_file(path)?;
        let (lines, _) = result_lines(
            path,
            &text,
            "left out (run the batch again to redo its job)",
        )?;
        for (k, v) in lines {
            let (Some(id), Some(argv)) = (v["id"].as_str(), v["argv"].as_array()) else {
                return Err(Error::input(format!(
                    "{path} line {}: a result without \"id\" and \"argv\"",
                    k
                )));
            };
            let at = format!("{path} line {}", k);
            let result = Result1 {
                id: id.to_string(),
                line: v["line"].as_u64().unwrap_or(u64::MAX),
                argv: argv
                    .iter()
                    .filter_map(|w| w.as_str().map(str::to_string))
                    .collect(),
                status: v["status"].as_str().unwrap_or("error").to_string(),
                seconds: v["seconds"].as_f64().unwrap_or(0.0),
                outcome: v["outcome"].clone(),
                message: v["message"].as_str().map(str::to_string),
            };
            match seen.get(id).cloned() {
                // A killed job runs again on resume: its later result replaces the kill.
                Some((_, index)) if out[index].status == "killed" => out[index] = result,
                Some((first, _)) => {
                    return Err(Error::input(format!(
                        "job \"{id}\" has two results ({first} and {at}): merge each batch's results once"
                    )))
                }
                None => {
                    seen.insert(id.to_string(), (at, out.len()));
                    out.push(result);
                }
            }
        }
    }
    Ok(out)
}

/// Whether a job ended with a report of its own, answered or stopped by its limit (not
/// failed).
pub(super) fn reported(s: &str) -> bool {
    answered(s) || s == "unknown"
}

/// A cube's answer, read off its result.
pub(super) fn part(r: &Result1) -> Part {
    let o = &r.outcome;
    let scoped = &o["in_scope"];
    let status = if !reported(&r.status) {
        Status::Unknown
    } else if scoped.is_object() {
        status_of(scoped["status"].as_str().unwrap_or(""))
    } else {
        status_of(o["status"].as_str().unwrap_or(""))
    };
    let num = |v: &Value| {
        v.as_u64()
            .map(u128::from)
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    };
    Part {
        cube: serde_json::from_value(o["cube"]["literals"].clone()).unwrap_or_default(),
        status,
        count: num(&scoped["count"]),
        count_at_least: num(&o["count_at_least"]),
        unique: scoped["unique"].as_bool(),
        objective: o["objective"].as_i64(),
        source: r.id.clone(),
    }
}

/// `quandary merge`: the answer of every question in results files; the cubes of a split
/// question combined into its answer, after checking that they cover the whole space.
pub fn merge(m: &ArgMatches) -> Result<i32, Error> {
    let paths: Vec<String> = m
        .get_many::<String>("results")
        .expect("required")
        .cloned()
        .collect();
    let results = read_results(&paths)?;
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
    // Questions in the order their first result appears.
    let mut order: Vec<String> = Vec::new();
    let mut groups: HashMap<String, Vec<&Result1>> = HashMap::new();
    let mut sorted: Vec<&Result1> = results.iter().collect();
    sorted.sort_by_key(|r| r.line);
    for r in sorted {
        let q = question(&r.argv);
        if !groups.contains_key(&q) {
            order.push(q.clone());
        }
        groups.entry(q).or_default().push(r);
    }
    let mut rows = Vec::new();
    for q in &order {
        let rs = &groups[q];
        let cubed = rs
            .iter()
            .filter(|r| r.outcome["cube"].is_object() || r.argv.iter().any(|w| w == "--cube"))
            .count();
        let row = if cubed == 0 {
            rs.iter().map(|r| single(q, r)).collect::<Vec<_>>()
        } else if cubed < rs.len() {
            return Err(Error::input(format!(
                "`{q}`: {} results are cubes and {} are not: results of two different batches?",
                cubed,
                rs.len() - cubed
            )));
        } else {
            vec![combined(q, rs)?]
        };
        rows.extend(row);
    }
    let open = rows
        .iter()
        .filter(|r| !answered(r["status"].as_str().unwrap_or("")))
        .count();
    if m.get_flag("json") {
        outln!("{}", json!({"answers": rows, "unanswered": open}));
    } else if m.get_flag("csv") {
        outln!("question,status,objective,count,unique,cubes,seconds,longest");
        for r in &rows {
            let field = |k: &str| match &r[k] {
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            outln!(
                "\"{}\",{},{},{},{},{},{},{}",
                field("question").replace('"', "\"\""),
                field("status"),
                field("objective"),
                field("count"),
                field("unique"),
                field("cubes"),
                field("seconds"),
                field("longest")
            );
        }
    } else {
        for r in &rows {
            outln!("{}", r["text"].as_str().unwrap_or(""));
        }
    }
    Ok(if open > 0 { 1 } else { 0 })
}

/// The answer of a question run as one job.
pub(super) fn single(q: &str, r: &Result1) -> Value {
    let o = &r.outcome;
    let status = if reported(&r.status) {
        o["status"].as_str().unwrap_or(&r.status).to_string()
    } else {
        r.status.clone()
    };
    let mut text = format!("{q}: {status}");
    for (k, label) in [
        ("objective", "value"),
        ("count", "count"),
        ("unique", "unique"),
    ] {
        if !o[k].is_null() {
            text += &format!(", {label} {}", o[k]);
        }
    }
    if let Some(msg) = &r.message {
        text += &format!(" ({msg})");
    }
    json!({"question": q, "id": r.id, "status": status, "objective": o["objective"],
           "count": o["count"], "unique": o["unique"], "seconds": r.seconds,
           "longest": r.seconds, "text": text})
}

/// The answer of a question split into cubes, after the coverage check.
pub(super) fn combined(q: &str, rs: &[&Result1]) -> Result<Value, Error> {
    // A cube left unanswered and split again (`jobs --cubes K ... --cube C`) is replaced by
    // its finer cubes once they have answers: it is set aside here, and the coverage check
    // below decides whether what remains covers the space.
    let all_parts: Vec<Part> = rs.iter().map(|r| part(r)).collect();
    let refined = |u: &Part| {
        u.status == Status::Unknown
            && all_parts.iter().any(|a| {
                a.status != Status::Unknown
                    && a.cube.len() > u.cube.len()
                    && u.cube.iter().all(|l| a.cube.contains(l))
            })
    };
    let keep: Vec<bool> = all_parts.iter().map(|p| !refined(p)).collect();
    let replaced = keep.iter().filter(|k| !**k).count();
    let rs: Vec<&Result1> = rs
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(r, _)| *r)
        .collect();
    let rs = rs.as_slice();
    let parts: Vec<Part> = all_parts
        .into_iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(p, _)| p)
        .collect();
    // The cube each job ran, from its own report (or, if it never reported, its command).
    let cube_of = |r: &Result1, p: &Part| -> Result<Vec<i64>, Error> {
        if r.outcome["cube"].is_object() {
            return Ok(p.cube.clone());
        }
        let k = r
            .argv
            .iter()
            .position(|w| w == "--cube")
            .expect("a cube job");
        cubes::parse(r.argv.get(k + 1).map_or("", |s| s.as_str()))
            .map_err(|e| Error::input(format!("job \"{}\": {e}", r.id)))
    };
    let mut all = Vec::new();
    for (r, p) in rs.iter().zip(&parts) {
        all.push(cube_of(r, p)?);
    }
    let sizes: HashSet<u64> = rs
        .iter()
        .filter_map(|r| r.outcome["cube"]["decisions"].as_u64())
        .filter(|&n| n > 0)
        .collect();
    if sizes.len() > 1 {
        return Err(Error::input(format!(
            "`{q}`: its cubes were run on formulations with different numbers of decisions ({sizes:?}): not one question"
        )));
    }
    let n = sizes.into_iter().next().unwrap_or(0) as usize;
    let n = if n == 0 {
        all.iter()
            .flatten()
            .map(|l| l.unsigned_abs() as usize)
            .max()
            .unwrap_or(0)
    } else {
        n
    };
    cubes::coverage(&all, n)
        .map_err(|why| Error::input(format!("`{q}`: will not merge: {why}")))?;
    let verb = rs[0].argv.get(1).map_or("", |s| s.as_str());
    let query = match verb {
        "count" => Query::Count,
        "unique" => Query::Unique,
        "optimum" => Query::Optimum,
        "reach" => Query::AtLeast(0),
        _ => match rs[0].outcome["cube"]["maximise"] {
            Value::Bool(_) => Query::Optimum,
            _ => Query::First,
        },
    };
    let maximise = rs
        .iter()
        .find_map(|r| r.outcome["cube"]["maximise"].as_bool());
    let c = cubes::combine(query, maximise, &parts);
    let total: f64 = rs.iter().map(|r| r.seconds).sum();
    let longest = rs.iter().map(|r| r.seconds).fold(0.0, f64::max);
    let within = rs.iter().find_map(|r| r.outcome["cube"]["within"].as_str());
    let status = json!(c.status).as_str().unwrap_or("unknown").to_string();
    let mut text = format!("{q}: {status}");
    if let Some(v) = c.objective {
        text += &format!(", value {v}");
    }
    if let Some(n) = c.count {
        text += &format!(", count {n}");
    }
    if let Some(n) = c.count_at_least {
        text += &format!(", at least {n} counted");
    }
    if let Some(u) = c.unique {
        text += &format!(", unique {u}");
    }
    text += &format!(
        " [{} cubes covering the whole space; {:.1} s in all, longest {:.1} s{}]",
        rs.len(),
        total,
        longest,
        match replaced {
            0 => String::new(),
            n => format!("; {n} unanswered cubes replaced by finer ones"),
        }
    );
    if let Some(w) = within {
        text += &format!(" [among {w} only]");
    }
    if !c.unanswered.is_empty() {
        let why: Vec<String> = rs
            .iter()
            .filter(|r| c.unanswered.contains(&r.id))
            .take(3)
            .map(|r| format!("{} ({})", r.id, r.message.as_deref().unwrap_or(&r.status)))
            .collect();
        text += &format!(
            "; {} cubes unanswered: {}",
            c.unanswered.len(),
            why.join("; ")
        );
    }
    Ok(
        json!({"question": q, "status": status, "objective": c.objective, "count": c.count,
              "count_at_least": c.count_at_least, "unique": c.unique, "cubes": rs.len(),
              "from": c.from, "unanswered": c.unanswered, "within": within, "replaced": replaced,
              "seconds": (total * 1000.0).round() / 1000.0, "longest": longest, "text": text}),
    )
}
