//! Gunport's own verb: `sweep`, the optimum of every board in a range against the Sands and
//! Pearce formulas.

use super::{Kind, Outputs, OwnVerb, Param};
use crate::error::{Error, Result};
use crate::puzzles::gunport::{dp, Gunport, GunportProblem};
use crate::puzzles::Query;
use crate::runner::registry::options;
use crate::runner::report::{report, Report};
use crate::runner::run;
use crate::solve::limits::{bounded, Limits};
use crate::solve::search::Status;

pub(super) static VERBS: &[OwnVerb] = &[OwnVerb {
    name: "sweep",
    aliases: &[],
    about: "Prove the optimum of every board in a range against the Sands and Pearce formulas",
    params: &[
        Param::new("max-m", Kind::Whole, "Largest number of rows").default("10"),
        Param::new("max-n", Kind::Whole, "Largest number of columns").default("10"),
        Param::new("min", Kind::Whole, "Smallest side").default("1"),
        Param::new(
            "check-dp",
            Kind::Switch,
            "Also cross-check every board with the transfer-matrix program where it applies",
        ),
        Param::new(
            "csv",
            Kind::Switch,
            "Say the boards as CSV: m,n,optimum,pearce,sands,method,seconds",
        ),
    ],
    options: true,
    // A sweep draws no picture: `gunport solve M N --svg FILE` draws one board.
    outputs: Outputs {
        json: true,
        picture: false,
        time_limit: true,
        file: false,
        proof: false,
    },
    run: |call| {
        let o = options::<GunportProblem>(call.options)?;
        let a = &call.args;
        let sides = [
            a.whole("max-m").unwrap_or(10),
            a.whole("max-n").unwrap_or(10),
            a.whole("min").unwrap_or(1),
        ];
        let lines = if a.switch("csv") {
            Lines::Csv
        } else {
            Lines::Text
        };
        sweep(
            sides,
            a.switch("check-dp"),
            &o,
            lines,
            call.limits,
            call.line,
        )
    },
}];

/// How a sweep says its boards as it goes (each is in the report's details too).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lines {
    Text,
    Csv,
}

/// `gunport sweep`: the optimum of every board in a range, one line (or JSON object, or CSV
/// row) each. `sides`: the largest number of rows, of columns, and the smallest side. With
/// `--method auto` each narrow side takes one pass of the optimum transfer matrix for every
/// length at once ([`gunport::tm`]), where its array fits the memory limit; other boards, and
/// every board with `--method sat` or `exact`, are asked of the runner one by one.
fn sweep(
    [max_m, max_n, lo]: [i64; 3],
    check_dp: bool,
    o: &crate::puzzles::gunport::Options,
    lines: Lines,
    limits: &Limits,
    line: &mut dyn FnMut(&str),
) -> Result<Report> {
    let g_max = Gunport::new(max_m, max_n)?;
    Gunport::new(lo, lo)?;
    if lo as usize > g_max.m.min(g_max.n) {
        return Err(Error::input(format!(
            "--min {lo} is larger than the largest board side asked for"
        )));
    }
    let started = limits.started;
    let (mut rows, mut failures, mut unknown) = (Vec::new(), 0, 0);
    match lines {
        Lines::Text => line("   m    n  holes  proof     sands  pearce  seconds  method; note"),
        Lines::Csv => line("m,n,optimum,pearce,sands,method,seconds"),
    }
    for m in lo as usize..=g_max.m {
        // One pass for every length of this width, when it fits.
        let pass = if o.plain()
            && m <= crate::puzzles::gunport::tm::MAX_WIDTH
            && crate::puzzles::gunport::tm::bytes(m) <= limits.memory_bytes()
        {
            let t = std::time::Instant::now();
            let optima = bounded(limits, "the transfer matrix", || {
                Ok(crate::puzzles::gunport::tm::optima(m, g_max.n))
            });
            match optima {
                Ok(Some(op)) if op.exact() => Some((op.holes, t.elapsed().as_secs_f64())),
                Ok(_) => None,
                Err(Error::Stopped(_)) => Some((Vec::new(), t.elapsed().as_secs_f64())),
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        for n in m.max(lo as usize)..=g_max.n {
            let g = Gunport::board(m, n);
            let (status, holes, method, seconds) = match &pass {
                Some((holes, seconds)) => match holes.get(n - 1) {
                    Some(&h) => (
                        Status::Optimal,
                        h,
                        format!(
                            "transfer matrix (width {m}, one pass for lengths 1..{})",
                            g_max.n
                        ),
                        *seconds,
                    ),
                    None => (
                        Status::Unknown,
                        -1,
                        "transfer matrix, stopped".into(),
                        *seconds,
                    ),
                },
                None => {
                    // One deadline for the whole sweep: boards after it answer "unknown" at once.
                    let board = Limits {
                        started: std::time::Instant::now(),
                        ..limits.clone()
                    };
                    let out = run::<GunportProblem>(&g, o, Query::Optimum, &board)?;
                    let r = report::<GunportProblem>(&g, o, out);
                    (
                        r.status,
                        r.objective.unwrap_or(-1),
                        r.stats.method.clone(),
                        r.stats.seconds,
                    )
                }
            };
            let proved = status == Status::Optimal;
            unknown += usize::from(!proved);
            let dp_value = check_dp
                .then(|| dp::optimum(m, n).map(|d| d.holes as i64))
                .flatten();
            let mut notes = Vec::new();
            if let (Some(d), true) = (dp_value, proved && d_differs(dp_value, holes)) {
                notes.push(format!("DYNAMIC PROGRAM SAYS {d}"));
            }
            if proved && g.sands().is_some_and(|s| s as i64 != holes) {
                notes.push("Sands fails".to_string());
            }
            if proved && m >= 2 && g.pearce() != holes {
                notes.push("Pearce fails".to_string());
                failures += 1;
            }
            let pearce = (m >= 2).then(|| g.pearce());
            let objective = proved.then_some(holes);
            match lines {
                Lines::Csv => line(&format!(
                    "{m},{n},{},{},{},\"{}\",{seconds:.3}",
                    objective.map_or(String::new(), |h| h.to_string()),
                    pearce.map_or(String::new(), |p| p.to_string()),
                    g.sands().map_or(String::new(), |s| s.to_string()),
                    method.replace('"', "'"),
                )),
                Lines::Text => line(&format!(
                    "{m:>4} {n:>4} {holes:>6}  {:<8} {:>6} {:>7} {:>8.3}  {}",
                    if proved { "optimal" } else { "unknown" },
                    g.sands().map_or("-".into(), |s| s.to_string()),
                    pearce.map_or("-".into(), |p| p.to_string()),
                    seconds,
                    [&[method.clone()][..], &notes].concat().join("; ")
                )),
            }
            rows.push(serde_json::json!({"m": m, "n": n, "status": status,
                "objective": objective, "sands": g.sands(), "pearce": pearce, "dp": dp_value,
                "method": method, "seconds": seconds, "notes": notes}));
        }
    }
    let status = if unknown == 0 {
        Status::Optimal
    } else {
        Status::Unknown
    };
    let mut r = Report::new(
        "gunport",
        "sweep",
        format!("Gunport boards {lo}..{}×{lo}..{}", g_max.m, g_max.n),
        status,
    );
    r.stats.seconds = started.elapsed().as_secs_f64();
    r.details = Some(serde_json::json!({ "boards": rows, "pearce_fails": failures }));
    if lines != Lines::Csv {
        r.text = format!(
            "\n{:.1} s; {unknown} not proved within the limit; Pearce's formula fails on {failures} (1×n boards are paths and excluded).",
            r.stats.seconds
        );
    }
    Ok(r)
}

fn d_differs(d: Option<i64>, holes: i64) -> bool {
    d.is_some_and(|d| d != holes)
}
