//! Merging results: the answer of every question in results files, the cubes (or parts) of a split
//! question combined into its answer after checking that they cover the whole space.

use super::results::{answered, result_lines, ResultLine};
use crate::error::{Error, Result};
use crate::runner::cubes::{self, Part};
use crate::runner::Query;
use crate::solve::search::Status;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// The command a result answers, without the words that only say how it ran (`--cube`,
/// `--part`, `--time-limit`, `--json`): results with the same key answer one question.
pub fn question(argv: &[String]) -> String {
    let mut out = Vec::new();
    let mut it = argv.iter();
    while let Some(w) = it.next() {
        match w.as_str() {
            "--cube" | "--part" | "--time-limit" => {
                it.next();
            }
            "--json" => {}
            _ => out.push(w.clone()),
        }
    }
    out.join(" ")
}

/// The results of results files, one per job. A job killed by a signal that ran again on
/// resume has its later result; any other job with two results is an error (one batch's
/// results merged twice). A torn last line is left out and `said`.
pub fn read_results(paths: &[String], said: &mut dyn FnMut(String)) -> Result<Vec<ResultLine>> {
    let mut out: Vec<ResultLine> = Vec::new();
    let mut seen: HashMap<String, (String, usize)> = HashMap::new();
    for path in paths {
        let text = crate::input::read_file(path)?;
        let read = result_lines(path, &text)?;
        if read.torn {
            said(format!("{path}: the last line is incomplete (a batch was stopped while writing it); left out (run the batch again to redo its job)"));
        }
        for (k, result) in read.lines {
            let at = format!("{path} line {k}");
            match seen.get(&result.id).cloned() {
                Some((_, index)) if out[index].status == "killed" => out[index] = result,
                Some((first, _)) => {
                    return Err(Error::input(format!(
                        "job \"{}\" has two results ({first} and {at}): merge each batch's results once",
                        result.id
                    )))
                }
                None => {
                    seen.insert(result.id.clone(), (at, out.len()));
                    out.push(result);
                }
            }
        }
    }
    Ok(out)
}

/// The answer of one question, from its one job or its cubes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Merged {
    /// The command, without how it ran ([`question`]).
    pub question: String,
    /// The job that answered it, when it ran as one job.
    pub id: Option<String>,
    /// The answer's status word, or how its job failed.
    pub status: String,
    pub objective: Option<i64>,
    pub count: Option<u128>,
    /// Solutions seen before a limit stopped some cube's count.
    pub count_at_least: Option<u128>,
    pub unique: Option<bool>,
    /// How many cubes answered it (none when it ran as one job).
    pub cubes: Option<usize>,
    /// The cube whose solution is the answer.
    pub from: Option<String>,
    /// Cubes a limit stopped before they answered.
    pub unanswered: Vec<String>,
    /// The share of the space no cube's result covers (jobs not run yet), if any: the answer
    /// then holds only where cubes answered, and is no refutation or count of the whole.
    pub uncovered: Option<String>,
    /// A restriction every cube's search had (e.g. symmetric boards only).
    pub within: Option<String>,
    /// Unanswered cubes replaced by finer ones that answered.
    pub replaced: usize,
    /// Seconds of all its jobs together, and of the longest.
    pub seconds: f64,
    pub longest: f64,
    /// The answer in one line.
    pub text: String,
}

impl Merged {
    /// Whether the question is answered (solved, optimal, infeasible).
    pub fn answered(&self) -> bool {
        answered(&self.status)
    }
}

/// Whether a job ended with a report of its own, answered or stopped by its limit (not
/// failed).
fn reported(s: &str) -> bool {
    answered(s) || s == "unknown"
}

/// Whether a result is a cube's.
fn cubed(r: &ResultLine) -> bool {
    r.outcome.report().is_some_and(|o| o.cube.is_some()) || r.argv.iter().any(|w| w == "--cube")
}

/// The part a result ran (`--part K/N`, a puzzle's own split of its search: K, K + N, ... of
/// its pieces, as Tank Attack's exact searches take it), as (K, N); `None` if it is none.
fn part_of(r: &ResultLine) -> Option<Result<(usize, usize)>> {
    let k = r.argv.iter().rposition(|w| w == "--part")?;
    let text = r.argv.get(k + 1).map_or("", |s| s.as_str());
    let read = text
        .split_once('/')
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
        .filter(|&(a, b): &(usize, usize)| a >= 1 && a <= b);
    Some(read.ok_or_else(|| {
        Error::input(format!(
            "job \"{}\": --part '{text}' is not a part K/N with 1 <= K <= N",
            r.id
        ))
    }))
}

/// The answers of every question among `results`, in the order of their jobs' lines.
pub fn merge(results: &[ResultLine]) -> Result<Vec<Merged>> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: HashMap<String, Vec<&ResultLine>> = HashMap::new();
    let mut sorted: Vec<&ResultLine> = results.iter().collect();
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
        let cubes = rs.iter().filter(|r| cubed(r)).count();
        let parts = rs.iter().filter(|r| part_of(r).is_some()).count();
        if cubes > 0 && parts > 0 {
            return Err(Error::input(format!(
                "`{q}`: {cubes} results are cubes and {parts} are parts (--part): one question split two ways"
            )));
        }
        let split = cubes + parts;
        if split == 0 {
            rows.extend(rs.iter().map(|r| single(q, r)));
        } else if split < rs.len() {
            return Err(Error::input(format!(
                "`{q}`: {} results are {} and {} are not: results of two different batches?",
                split,
                if cubes > 0 { "cubes" } else { "parts (--part)" },
                rs.len() - split
            )));
        } else if cubes > 0 {
            rows.push(combined(q, rs)?);
        } else {
            rows.push(by_parts(q, rs)?);
        }
    }
    Ok(rows)
}

/// A cube's answer, read off its result.
fn part(r: &ResultLine) -> Part {
    let o = r.outcome.report();
    let scoped = o.and_then(|o| o.in_scope.as_ref());
    let status = match (reported(&r.status), o, scoped) {
        (false, _, _) | (true, None, _) => Status::Unknown,
        (true, Some(_), Some(s)) => s.status,
        (true, Some(o), None) => o.status,
    };
    Part {
        cube: o
            .and_then(|o| o.cube.as_ref())
            .map(|c| c.literals.clone())
            .unwrap_or_default(),
        status,
        count: scoped.and_then(|s| s.count),
        count_at_least: o.and_then(|o| o.count_at_least),
        unique: scoped.and_then(|s| s.unique),
        objective: o.and_then(|o| o.objective),
        source: r.id.clone(),
    }
}

/// The answer of a question run as one job.
fn single(q: &str, r: &ResultLine) -> Merged {
    let o = r.outcome.report();
    let status = match o {
        Some(o) if reported(&r.status) => o.status.word().to_string(),
        _ => r.status.clone(),
    };
    let objective = o.and_then(|o| o.objective);
    let count = o.and_then(|o| o.count);
    let unique = o.and_then(|o| o.unique);
    let mut text = format!("{q}: {status}");
    if let Some(v) = objective {
        text += &format!(", value {v}");
    }
    if let Some(n) = count {
        text += &format!(", count {n}");
    }
    if let Some(u) = unique {
        text += &format!(", unique {u}");
    }
    if let Some(msg) = &r.message {
        text += &format!(" ({msg})");
    }
    Merged {
        question: q.to_string(),
        id: Some(r.id.clone()),
        status,
        objective,
        count,
        count_at_least: o.and_then(|o| o.count_at_least),
        unique,
        cubes: None,
        from: None,
        unanswered: Vec::new(),
        uncovered: None,
        within: None,
        replaced: 0,
        seconds: r.seconds,
        longest: r.seconds,
        text,
    }
}

/// The answer of a question split into cubes, after the coverage check.
fn combined(q: &str, rs: &[&ResultLine]) -> Result<Merged> {
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
    let rs: Vec<&ResultLine> = rs
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(r, _)| *r)
        .collect();
    let parts: Vec<Part> = all_parts
        .into_iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(p, _)| p)
        .collect();
    let facts = |r: &ResultLine| r.outcome.report().and_then(|o| o.cube.clone());
    // The cube each job ran, from its own report (or, if it never reported, its command).
    let mut all = Vec::new();
    for (r, p) in rs.iter().zip(&parts) {
        if facts(r).is_some() {
            all.push(p.cube.clone());
            continue;
        }
        let k = r
            .argv
            .iter()
            .position(|w| w == "--cube")
            .ok_or_else(|| Error::Internal(format!("job \"{}\" is no cube", r.id)))?;
        let cube = cubes::parse(r.argv.get(k + 1).map_or("", |s| s.as_str()))
            .map_err(|e| Error::input(format!("job \"{}\": {e}", r.id)))?;
        all.push(cube);
    }
    let sizes: HashSet<usize> = rs
        .iter()
        .filter_map(|r| facts(r).map(|c| c.decisions))
        .filter(|&n| n > 0)
        .collect();
    if sizes.len() > 1 {
        return Err(Error::input(format!(
            "`{q}`: its cubes were run on formulations with different numbers of decisions ({sizes:?}): not one question"
        )));
    }
    let n = match sizes.into_iter().next() {
        Some(n) => n,
        None => all
            .iter()
            .flatten()
            .map(|l| l.unsigned_abs() as usize)
            .max()
            .unwrap_or(0),
    };
    let uncovered = cubes::coverage(&all, n)
        .map_err(|why| Error::input(format!("`{q}`: will not merge: {why}")))?;
    let maximise = rs.iter().find_map(|r| facts(r).and_then(|c| c.maximise));
    let within = rs.iter().find_map(|r| facts(r).and_then(|c| c.within));
    let split = Split {
        pieces: "cubes",
        uncovered,
        within,
        maximise,
        replaced,
    };
    Ok(finish(q, &rs, &parts, split))
}

/// How a question was split, for [`finish`].
struct Split {
    /// What its pieces are called ("cubes", "parts").
    pieces: &'static str,
    /// The share no piece's result covers, if any.
    uncovered: Option<String>,
    /// A restriction every piece's search had.
    within: Option<String>,
    maximise: Option<bool>,
    /// Unanswered pieces replaced by finer ones.
    replaced: usize,
}

/// The answer of a question split into pieces that cover its space (or `split.uncovered`
/// says what they leave): `parts`, the pieces' answers, combined; `rs`, their results.
fn finish(q: &str, rs: &[&ResultLine], parts: &[Part], split: Split) -> Merged {
    let Split {
        pieces,
        uncovered,
        within,
        maximise,
        replaced,
    } = split;
    // The share no piece covers (its jobs not run yet) is one more part without an answer.
    let mut parts = parts.to_vec();
    if let Some(share) = &uncovered {
        parts.push(Part {
            cube: Vec::new(),
            status: Status::Unknown,
            count: None,
            count_at_least: None,
            unique: None,
            objective: None,
            source: share.clone(),
        });
    }
    let verb = rs[0].argv.get(1).map_or("", |s| s.as_str());
    // The parts' verb, as the registry maps it (a `solve` with a value to maximise asks for
    // the optimum; `reach`'s value does not matter to combining).
    let query = match Query::named(verb, Some(0)) {
        Some(q @ (Query::Count { .. } | Query::Unique | Query::Optimum | Query::AtLeast(_))) => q,
        _ if maximise.is_some() => Query::Optimum,
        _ => Query::First,
    };
    let mut c = cubes::combine(query, maximise, &parts);
    c.unanswered.retain(|u| Some(u) != uncovered.as_ref());
    let total: f64 = rs.iter().map(|r| r.seconds).sum();
    let longest = rs.iter().map(|r| r.seconds).fold(0.0, f64::max);
    let status = c.status.word().to_string();
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
        " [{} {pieces} covering {}; {:.1} s in all, longest {:.1} s{}]",
        rs.len(),
        if uncovered.is_some() {
            "part of the space"
        } else {
            "the whole space"
        },
        total,
        longest,
        match replaced {
            0 => String::new(),
            n => format!("; {n} unanswered {pieces} replaced by finer ones"),
        }
    );
    if let Some(w) = &within {
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
            "; {} {pieces} unanswered: {}",
            c.unanswered.len(),
            why.join("; ")
        );
    }
    if let Some(share) = &uncovered {
        text += &format!("; {share} (the same batch command resumes the rest)");
    }
    Merged {
        question: q.to_string(),
        id: None,
        status,
        objective: c.objective,
        count: c.count,
        count_at_least: c.count_at_least,
        unique: c.unique,
        cubes: Some(rs.len()),
        from: c.from,
        unanswered: c.unanswered,
        uncovered,
        within,
        replaced,
        seconds: (total * 1000.0).round() / 1000.0,
        longest,
        text,
    }
}

/// The answer of a question split with `--part K/N`, after checking that its parts are the
/// N parts of one split, each once: parts 1..N together are the whole search, as cubes are.
fn by_parts(q: &str, rs: &[&ResultLine]) -> Result<Merged> {
    let mut of = None;
    let mut seen: HashMap<usize, &str> = HashMap::new();
    for r in rs {
        let (k, n) = part_of(r).expect("a part")?;
        match of {
            Some(m) if m != n => {
                return Err(Error::input(format!(
                    "`{q}`: will not merge: its parts come from splits into {m} and into {n} (job \"{}\"): not one split",
                    r.id
                )))
            }
            _ => of = Some(n),
        }
        if let Some(first) = seen.insert(k, &r.id) {
            return Err(Error::input(format!(
                "`{q}`: will not merge: part {k}/{n} has two results (jobs \"{first}\" and \"{}\")",
                r.id
            )));
        }
    }
    let n = of.expect("at least one part");
    // In time and memory linear in the results, whatever N says (a split into 2^64 - 1
    // parts listed every missing one, out of memory).
    let missing = n - seen.len();
    let uncovered = (missing > 0).then(|| {
        let shown: Vec<String> = (1..=n)
            .filter(|k| !seen.contains_key(k))
            .take(5)
            .map(|k| k.to_string())
            .collect();
        format!(
            "{missing} of {n} parts have no result yet ({}{})",
            shown.join(", "),
            if missing > 5 { ", ..." } else { "" }
        )
    });
    let parts: Vec<Part> = rs.iter().map(|r| part(r)).collect();
    // A part's scope is the part, after the restriction every part shares (if any): "mirror-
    // symmetric boards, part 2 of 16 of the consistent search (...)".
    let within = rs
        .iter()
        .find_map(|r| r.outcome.report().and_then(|o| o.scope.clone()))
        .and_then(|scope| {
            let shared = match scope.split_once(", part ") {
                Some((before, _)) => before.to_string(),
                None if scope.starts_with("part ") => String::new(),
                None => scope,
            };
            (!shared.is_empty()).then_some(shared)
        });
    let maximise = rs
        .iter()
        .find_map(|r| r.outcome.report().and_then(|o| o.cube.as_ref()?.maximise));
    let split = Split {
        pieces: "parts",
        uncovered,
        within,
        maximise,
        replaced: 0,
    };
    Ok(finish(q, rs, &parts, split))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::batch::status_of;

    #[test]
    fn questions_ignore_how_they_ran() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            question(&w("tank count 5 --cube +1 --time-limit 9 --json")),
            "tank count 5"
        );
    }

    #[test]
    fn status_words_read_back() {
        for s in [
            Status::Solved,
            Status::Optimal,
            Status::Infeasible,
            Status::Unknown,
            Status::Rejected,
        ] {
            assert_eq!(status_of(s.word()), s);
            assert_eq!(serde_json::json!(s), s.word());
        }
    }
}
