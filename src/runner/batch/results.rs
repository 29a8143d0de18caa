//! Results files: one line per job a batch ran, appended as the job ends, typed.

use crate::error::{Error, Result};
use crate::runner::report::Report;
use crate::solve::search::Status;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One line of a results file: how a job ended and what it answered.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ResultLine {
    /// The job's id in its job file.
    pub id: String,
    /// The job's fingerprint ([`super::fingerprint`]): the line is the job's only if they agree.
    #[serde(default)]
    pub job: String,
    /// The job's line in its job file (results are merged in that order).
    #[serde(default = "unknown_line")]
    pub line: u64,
    /// The command it ran, after `quandary`.
    pub argv: Vec<String>,
    /// The report's status (`solved`, `optimal`, `infeasible`, `unknown`), or how the job
    /// failed: `error`, `crashed`, `killed`, `timeout`.
    #[serde(default = "error_word")]
    pub status: String,
    /// The process's exit status (none when a signal ended it).
    #[serde(default)]
    pub exit: Option<i32>,
    #[serde(default)]
    pub seconds: f64,
    /// Why a job failed, in words.
    #[serde(default)]
    pub message: Option<String>,
    /// What the job printed with `--json`.
    #[serde(default)]
    pub outcome: Output,
}

fn unknown_line() -> u64 {
    u64::MAX
}

fn error_word() -> String {
    "error".into()
}

/// What a job printed with `--json`: a report (every generic verb and own verb), the error
/// object of a run that failed, or anything else (nothing, for a job that crashed).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Output {
    Report(Box<Report>),
    Failed { status: String, error: String },
    Other(Value),
}

impl Default for Output {
    fn default() -> Output {
        Output::Other(Value::Null)
    }
}

impl Output {
    /// The last line of a job's standard output that is JSON (a report is printed last).
    pub fn of_stdout(stdout: &str) -> Output {
        stdout
            .lines()
            .rev()
            .find_map(|l| serde_json::from_str(l).ok())
            .unwrap_or_default()
    }

    /// The report, if the job printed one.
    pub fn report(&self) -> Option<&Report> {
        match self {
            Output::Report(r) => Some(r),
            _ => None,
        }
    }

    /// The error a failed run printed.
    pub fn error(&self) -> Option<&str> {
        match self {
            Output::Failed { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The result lines of a results file's text, with their line numbers (from 1), the length of
/// the text up to the last whole line, and whether the last line was cut short (a batch killed
/// while writing it: it is left out). Any other line that is not a result is an error naming
/// its place in `path`.
#[derive(Debug, Default)]
pub struct ResultLines {
    pub lines: Vec<(usize, ResultLine)>,
    pub whole: usize,
    pub torn: bool,
}

/// Reads the result lines of `text`, the contents of `path` (see [`ResultLines`]).
pub fn result_lines(path: &str, text: &str) -> Result<ResultLines> {
    let mut out = ResultLines::default();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (k, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            out.whole += line.len();
            continue;
        }
        let read = serde_json::from_str::<Value>(line.trim_end());
        match read {
            Ok(v) if line.ends_with('\n') && v.is_object() => {
                let r: ResultLine = serde_json::from_value(v).map_err(|e| {
                    Error::input(format!(
                        "{path} line {}: not a result line of quandary batch: {e}",
                        k + 1
                    ))
                })?;
                if let Some(why) = unreadable_report(&r.outcome) {
                    return Err(Error::input(format!("{path} line {}: {why}", k + 1)));
                }
                out.lines.push((k + 1, r));
            }
            _ if k + 1 == lines.len() => {
                out.torn = true;
                break;
            }
            _ => {
                return Err(Error::input(format!(
                    "{path} line {}: not a result line; is this a results file of quandary batch?",
                    k + 1
                )))
            }
        }
        out.whole += line.len();
    }
    Ok(out)
}

/// What is wrong with an outcome that looks like a report (it names its puzzle and status)
/// but does not read as one: the field that does not read (a count of 2^200, or -5), and why.
/// Read as "no report", such a job's answer would be taken for no answer at all.
fn unreadable_report(outcome: &Output) -> Option<String> {
    let Output::Other(Value::Object(o)) = outcome else {
        return None;
    };
    if !o.contains_key("puzzle") || !o.contains_key("status") {
        return None;
    }
    let e = serde_json::from_value::<Report>(Value::Object(o.clone())).err()?;
    // The field that does not read: the one without which the rest does.
    let field = o.keys().find(|k| {
        let mut rest = o.clone();
        rest.remove(*k);
        serde_json::from_value::<Report>(Value::Object(rest)).is_ok()
    });
    Some(match field {
        Some(f) => format!("the job's report has a {f} that is not readable ({e})"),
        None => format!("the job's report is not readable ({e})"),
    })
}

/// Whether a status word is an answer (solved, optimal, infeasible).
pub fn answered(s: &str) -> bool {
    status_of(s) != Status::Unknown
}

/// A status word of a report (as `--json` writes it); anything else (a job that failed:
/// `error`, `crashed`, `killed`, `timeout`) is no answer.
pub fn status_of(s: &str) -> Status {
    [
        Status::Solved,
        Status::Optimal,
        Status::Infeasible,
        Status::Rejected,
    ]
    .into_iter()
    .find(|st| st.word() == s)
    .unwrap_or(Status::Unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lines_read_typed_and_a_torn_last_line_is_left_out() {
        // What `quandary tank count 5 --json` prints.
        let report = r#"{"puzzle":"tank","verb":"count","instance":"Tank Attack 5×5","status":"solved","count":2,"summary":"every tank is attacked by as many tanks as its value","details":{"first_rows":378},"stats":{"method":"exact line search","seconds":0.003414725},"solution":[[1,3,1,3,1],[4,3,1,3,4],[1,1,4,1,1],[4,3,1,3,4],[1,3,1,3,1]]}"#;
        let text = format!(
            "{{\"id\":\"a\",\"job\":\"f\",\"line\":1,\"argv\":[\"tank\",\"count\",\"5\"],\"status\":\"solved\",\"exit\":0,\"seconds\":0.1,\"message\":null,\"outcome\":{report}}}\n\
             {{\"id\":\"b\",\"job\":\"g\",\"line\":2,\"argv\":[\"tank\",\"solve\",\"x\"],\"status\":\"error\",\"exit\":2,\"seconds\":0,\"outcome\":{{\"status\":\"error\",\"error\":\"no\"}}}}\n\
             {{\"id\":\"c\",\"argv\":[]"
        );
        let r = result_lines("r.jsonl", &text).unwrap();
        assert!(r.torn);
        assert_eq!(r.lines.len(), 2);
        assert_eq!(r.whole, text.rfind('\n').unwrap() + 1);
        let a = &r.lines[0].1;
        let rep = a.outcome.report().expect("a report");
        assert_eq!((rep.status, rep.count), (Status::Solved, Some(2)));
        assert_eq!(r.lines[1].1.outcome.error(), Some("no"));
        // Back to text and read again: the same report.
        let again: ResultLine = serde_json::from_str(&serde_json::to_string(a).unwrap()).unwrap();
        assert_eq!(again.outcome.report().unwrap().count, Some(2));
        // A whole line that is not a result is an error with its place.
        let e = result_lines("r.jsonl", "{\"argv\": 3}\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("r.jsonl line 1"), "{e}");
        assert!(answered("infeasible") && !answered("killed") && !answered("unknown"));
        // A report whose count does not read (too large, negative) is named, not taken for
        // a job without an answer.
        for bad in [
            "1606938044258990275541962092341162602522202993782792835301376",
            "-5",
        ] {
            let line = text
                .lines()
                .next()
                .unwrap()
                .replace("\"count\":2", &format!("\"count\":{bad}"));
            let e = result_lines("r.jsonl", &format!("{line}\n"))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("r.jsonl line 1: the job's report has a count that is not readable"),
                "{e}"
            );
        }
    }
}
