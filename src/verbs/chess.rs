//! Chess's own verb: `peaceable`, the largest m such that m white and m black pieces
//! coexist on an n×n board with no piece attacking one of the other colour.

use super::{Call, Kind, Outputs, OwnVerb, Param};
use crate::error::{Error, Result};
use crate::puzzles::chess::{self, Piece};
use crate::puzzles::Query;
use crate::runner::report::{status_word, unknown_word, Report};
use crate::runner::{bounded, drive, note_what_stopped, Outcome};
use crate::solve::limits::Limits;
use crate::solve::search::Status;

pub(super) static VERBS: &[OwnVerb] = &[OwnVerb {
    name: "peaceable",
    aliases: &[],
    about: "Peaceable armies: the largest m such that m white and m black pieces coexist on an n×n board with no piece attacking one of the other colour",
    params: &[
        Param::new("n", Kind::Text, "The side of the board (1 to 32)").positional(),
        Param::new("type", Kind::Choice(&["Q", "R", "B", "N", "K"]), "The piece type")
            .default("Q"),
        Param::new(
            "model",
            Kind::Choice(&["colouring", "lines", "pairwise"]),
            "How no piece attacks one of the other colour: `colouring` (every row, column and diagonal coloured white or black, each square holding what all its lines allow, the board's symmetries broken; the sliders' fastest), `lines` (each line owned by one colour, pieces chosen), or `pairwise` (a row per attacking pair; the knight's and king's always)",
        )
        .default("colouring"),
        Param::new(
            "armies",
            Kind::Whole,
            "The number of armies (1 to 10), each of m pieces, no piece attacking one of another army: 2 is OEIS A250000 for queens, k armies A306954 (3: A328283). Other than 2, a line-colouring model with one colour an army (the armies' order broken, not the board's symmetries), ascending",
        )
        .default("2"),
        Param::new(
            "at-least",
            Kind::Whole,
            "Ask one question instead of the largest m: do armies of at least K pieces each coexist? Solved (a board) or infeasible (a refutation)",
        ),
        Param::new(
            "part",
            Kind::Text,
            "With --at-least, two armies of queens or rooks: answer part P/M of the question only, its cubes (white rows a, white columns b, every pair from 0 to n, most room first) P, P + M, P + 2M, ...; `quandary merge` combines the M parts (docs/cluster.md)",
        ),
        Param::new(
            "count",
            Kind::Switch,
            "Then count the optimal placements, all of them and up to the 16 symmetries (the square's 8, each with the colours swapped or not): OEIS A260680 for queens",
        ),
    ],
    options: false,
    outputs: Outputs {
        json: true,
        picture: true,
        time_limit: true,
        file: false,
        proof: true,
    },
    run: |call: Call<'_>| {
        let piece: Piece = serde_json::from_value(serde_json::Value::from(
            call.args.text("type").unwrap_or_else(|| "Q".into()),
        ))
        .map_err(|e| Error::input(format!("--type: {e}")))?;
        let how: chess::PeaceModel = serde_json::from_value(serde_json::Value::from(
            call.args.text("model").unwrap_or_else(|| "colouring".into()),
        ))
        .map_err(|e| Error::input(format!("--model: {e}")))?;
        let count = call.args.switch("count");
        let armies = call.args.whole("armies").unwrap_or(2);
        let armies = usize::try_from(armies)
            .ok()
            .filter(|a| (1..=chess::ARMY_MARKS.len()).contains(a))
            .ok_or_else(|| {
                Error::input(format!(
                    "--armies {armies}: the number of armies is a whole number from 1 to {}",
                    chess::ARMY_MARKS.len()
                ))
            })?;
        if count && armies != 2 {
            return Err(Error::input(format!(
                "--count counts the optima of two armies; --armies {armies} finds the largest m only"
            )));
        }
        let part = crate::puzzles::parse_part(&call.args.text("part"))?;
        let at_least = match call.args.whole("at-least") {
            None if part.is_some() => {
                return Err(Error::input(
                    "--part splits one question: give it with --at-least K".to_string(),
                ))
            }
            None => None,
            Some(_) if count => {
                return Err(Error::input(
                    "--count counts the optima, --at-least asks one question: give one of them"
                        .to_string(),
                ))
            }
            Some(k) => Some(usize::try_from(k).map_err(|_| {
                Error::input(format!("--at-least {k}: give a whole number of pieces"))
            })?),
        };
        let n = side(&call.args.needed("n")?)?;
        if let Some(k) = at_least {
            return question(n, piece, armies, k, part, call.limits);
        }
        peaceable(n, piece, how, count, armies, call.limits)
    },
}];

/// Peaceable armies: the largest m, by ascending questions on the colouring model or the
/// runner's optimum on another model; with `count`, then every optimal placement counted.
/// Puts a board in the report, after the verifier of `armies` armies has passed it (an
/// internal error if it does not), with its picture.
fn show(r: &mut Report, piece: Piece, armies: usize, s: &chess::PeaceableSolution) -> Result<()> {
    chess::verify_armies(piece, armies, s)
        .map_err(|why| Error::Internal(format!("peaceable armies fail the check: {why}")))?;
    r.solution = serde_json::to_value(s).ok();
    r.svg = Some(chess::peaceable_svg(piece, s));
    Ok(())
}

/// The board's side, 1 to 32.
fn side(word: &str) -> Result<usize> {
    word.trim()
        .parse()
        .ok()
        .filter(|n| (1..=32).contains(n))
        .ok_or_else(|| {
            Error::input(format!(
                "board side '{word}' is not a whole number from 1 to 32"
            ))
        })
}

/// The instance's name in headlines and JSON.
fn instance(n: usize, piece: Piece, armies: usize) -> String {
    match armies {
        2 => format!("peaceable {} armies on {n}×{n}", piece.letter()),
        _ => format!("{armies} peaceable {} armies on {n}×{n}", piece.letter()),
    }
}

/// One question "m >= k?" (`--at-least`): the whole of it, or with `part` = (P − 1, M) the
/// cubes P, P + M, ... of its split (two armies of queens or rooks).
fn question(
    n: usize,
    piece: Piece,
    armies: usize,
    k: usize,
    part: Option<(usize, usize)>,
    limits: &Limits,
) -> Result<Report> {
    let name = format!("{}, m >= {k}?", instance(n, piece, armies));
    let split = armies == 2 && matches!(piece, Piece::Queen | Piece::Rook);
    let mut o = match part {
        Some(_) if !split => {
            return Err(Error::input(
                "--part splits the questions of two armies of queens or rooks (their cubes are white rows and columns)"
                    .to_string(),
            ))
        }
        Some((p, m)) => {
            let mut o = in_cubes(n, piece, k, p, m, limits)?;
            o.scope = Some(format!(
                "part {} of {m} of the cubes (white rows, white columns)",
                p + 1
            ));
            o
        }
        None => {
            // Two armies of sliders: the colouring model with its 16 symmetries broken;
            // otherwise the k-army model (the pairwise one for the knight and the king).
            let f = match (armies, chess::peaceable_k(n, piece, k)) {
                (2, Some(f)) => f,
                _ => chess::armies_k(n, piece, armies, k),
            };
            limits.phase(&format!("m >= {k}?"));
            let mut f = f;
            f.method = f.method.replace(", ascending", "");
            match ask(f, n, split.then_some(piece), k, limits) {
                Ok(o) => o,
                Err(Error::Stopped(_)) => Outcome::new(Query::First, Status::Unknown),
                Err(e) => return Err(e),
            }
        }
    };
    note_what_stopped(&mut o, limits);
    let mut r = Report::new("chess", "peaceable", name.clone(), o.status);
    let within = o
        .scope
        .as_ref()
        .map(|s| format!(" [in {s} only]"))
        .unwrap_or_default();
    r.text = match (o.status, o.solutions.first()) {
        (Status::Solved, Some(s)) => {
            show(&mut r, piece, armies, s)?;
            format!(
                "{name} yes: armies of {}{within}\n\n{}\n",
                s.size(),
                s.rows.join("\n")
            )
        }
        (Status::Infeasible, _) => format!("{name} no: infeasible{within}\n"),
        _ => format!(
            "{name} {}{within}\n",
            unknown_word(o.stats.stopped_by.as_deref())
        ),
    };
    r.facts = o.facts;
    r.stats.seconds = limits.seconds();
    Ok(r)
}

/// Cubes p, p + m, p + 2m, ... of the question "m >= k?" (two armies), one after another: a
/// board in one of them answers yes, all refuted no.
fn in_cubes(
    n: usize,
    piece: Piece,
    k: usize,
    p: usize,
    m: usize,
    limits: &Limits,
) -> Result<Outcome<chess::PeaceableSolution>> {
    let mut status = Status::Infeasible;
    let mut found = None;
    let mut calls = 0;
    let mut method = String::new();
    for &cube in cube_order(n).iter().skip(p).step_by(m) {
        let Some(f) = chess::peaceable_k_cube(n, piece, k, cube) else {
            break;
        };
        method.clone_from(&f.method);
        let o = bounded(limits, "the peaceable-armies model", || {
            drive(f, Query::First, limits, false)
        });
        match o {
            Ok(o) => {
                calls += o.stats.solver_calls.unwrap_or(1);
                match (o.status, o.solutions.into_iter().next()) {
                    (Status::Infeasible, _) => continue,
                    (Status::Solved, Some(s)) => {
                        status = Status::Solved;
                        found = Some(s);
                    }
                    _ => status = Status::Unknown,
                }
            }
            Err(Error::Stopped(_)) => status = Status::Unknown,
            Err(e) => return Err(e),
        }
        break;
    }
    let mut o = Outcome::new(Query::First, status);
    o.solutions.extend(found);
    o.stats.solver_calls = Some(calls);
    o.stats.method = method;
    Ok(o)
}

/// The cubes of a question "m >= k?" on n×n: every (white rows a, white columns b) from 0 to n,
/// the ones with the most room for both armies (min(ab, (n − a)(n − b))) first.
fn cube_order(n: usize) -> Vec<(usize, usize)> {
    let mut cubes: Vec<(usize, usize)> =
        (0..=n).flat_map(|a| (0..=n).map(move |b| (a, b))).collect();
    cubes.sort_by_key(|&(a, b)| std::cmp::Reverse((a * b).min((n - a) * (n - b))));
    cubes
}

fn peaceable(
    n: usize,
    piece: Piece,
    how: chess::PeaceModel,
    count: bool,
    armies: usize,
    limits: &Limits,
) -> Result<Report> {
    let ascending = match how {
        chess::PeaceModel::Colouring => chess::peaceable_k(n, piece, 1).is_some(),
        _ => false,
    };
    // Knights and kings (no lines): the k-army model with its symmetries broken, asked
    // ascending, unless another model is asked for by name.
    let pairwise_only = how == chess::PeaceModel::Colouring && !ascending;
    let mut o = if armies != 2 || pairwise_only {
        ascend(n, None, limits, |q| {
            Some(chess::armies_k(n, piece, armies, q))
        })?
    } else if ascending {
        ascend(n, Some(piece), limits, |k| chess::peaceable_k(n, piece, k))?
    } else {
        bounded(limits, "the peaceable-armies model", || {
            drive(
                chess::peaceable(n, piece, how),
                Query::Optimum,
                limits,
                false,
            )
        })?
    };
    note_what_stopped(&mut o, limits);
    let instance = instance(n, piece, armies);
    let mut r = Report::new("chess", "peaceable", instance.clone(), o.status);
    // A run stopped says what stopped it, in the headline and in `stats.stopped_by`, as the
    // generic verbs do (it said neither).
    let status = match o.status {
        Status::Unknown => unknown_word(o.stats.stopped_by.as_deref()),
        other => status_word(other).to_string(),
    };
    if let Some(s) = o.solutions.first() {
        show(&mut r, piece, armies, s)?;
        let m = o.objective.unwrap_or(0);
        let m = match o.status {
            Status::Optimal => format!("m = {m}"),
            _ => format!("m = {m} found, not proved the largest"),
        };
        r.text = format!("{instance}: {status}, {m}\n\n{}\n", s.rows.join("\n"));
    } else {
        r.text = format!("{instance}: {status}\n");
    }
    if count && o.status == Status::Optimal {
        let m = o.objective.unwrap_or(0) as usize;
        let counted = count_optima(n, piece, m, limits)?;
        let said = match (counted.count, counted.classes) {
            (Some(all), Some(classes)) => {
                format!("{classes} optimal placements up to the 16 symmetries, {all} in all")
            }
            _ => format!(
                "optimal placements: at least {} met ({} classes of the 16 symmetries), the count {}",
                counted.count_at_least.unwrap_or(0),
                counted.classes_at_least.unwrap_or(0),
                unknown_word(counted.stats.stopped_by.as_deref())
            ),
        };
        let mut lines = r.text.splitn(2, '\n');
        let head = lines.next().unwrap_or_default().to_string();
        let rest = lines.next().unwrap_or_default().to_string();
        r.text = format!("{head}; {said}\n{rest}");
        o.facts.count = counted.count;
        o.facts.count_at_least = counted.count_at_least;
        o.facts.classes = counted.classes;
        o.facts.classes_at_least = counted.classes_at_least;
        if counted.status == Status::Unknown {
            o.facts.stats.stopped_by = counted.stats.stopped_by.clone();
        }
    }
    r.facts = o.facts;
    r.stats.seconds = limits.seconds();
    Ok(r)
}

/// The largest m by ascending questions "m >= k?" on the colouring model: each answer with
/// armies of size m asks next for m + 1; the refutation of m + 1 proves m the largest (the
/// last solve is the proof, certified when the run is recorded).
fn ascend<'a>(
    n: usize,
    cubes: Option<Piece>,
    limits: &Limits,
    question: impl Fn(usize) -> Option<crate::puzzles::Formulated<'a, chess::PeaceableSolution>>,
) -> Result<Outcome<chess::PeaceableSolution>> {
    let mut best = chess::PeaceableSolution::empty(n);
    let mut asked = Vec::new();
    let mut method;
    let mut calls = 0;
    let status = loop {
        let k = best.size() + 1;
        let Some(f) = question(k) else {
            return Err(Error::Internal("no colouring model for this piece".into()));
        };
        method = f.method.clone();
        limits.phase(&format!("m >= {k}?"));
        let started = std::time::Instant::now();
        let built = ask(f, n, cubes, k, limits);
        let o = match built {
            Ok(o) => o,
            // Stopped while building: what was found stands, unproved.
            Err(Error::Stopped(_)) => break Status::Unknown,
            Err(e) => return Err(e),
        };
        calls += o.stats.solver_calls.unwrap_or(1);
        method.clone_from(&o.stats.method);
        let seconds = (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0;
        let mut said = |answer: &str| {
            asked.push(serde_json::json!({"at_least": k, "answer": answer, "seconds": seconds}))
        };
        match (o.status, o.solutions.into_iter().next()) {
            (Status::Solved, Some(s)) if s.size() >= k => {
                said(&format!("yes, armies of {}", s.size()));
                best = s;
            }
            (Status::Infeasible, _) => {
                said("no");
                break Status::Optimal;
            }
            (Status::Solved, Some(s)) => {
                return Err(Error::Internal(format!(
                    "the model for m >= {k} answered armies of {}",
                    s.size()
                )))
            }
            _ => {
                said("unknown");
                break Status::Unknown;
            }
        }
    };
    let mut o = Outcome::new(Query::Optimum, status);
    o.objective = Some(best.size() as i64);
    o.solutions.push(best);
    o.stats.method = method;
    o.stats.solver_calls = Some(calls);
    o.details = Some(serde_json::json!({ "asked": asked }));
    Ok(o)
}

/// Every placement of m white and m black pieces, counted (and its classes under the 16
/// symmetries), by enumeration on the line model with both armies held to m.
fn count_optima(n: usize, piece: Piece, m: usize, limits: &Limits) -> Result<crate::runner::Facts> {
    limits.phase("counting the optimal placements");
    let counted = bounded(limits, "counting the optimal placements", || {
        drive(
            chess::peaceable_exactly(n, piece, m, true),
            Query::Count { cap: None },
            limits,
            false,
        )
    });
    let mut o = match counted {
        Ok(o) => o,
        Err(Error::Stopped(_)) => Outcome::new(Query::Count { cap: None }, Status::Unknown),
        Err(e) => return Err(e),
    };
    note_what_stopped(&mut o, limits);
    Ok(o.facts)
}

/// One question "m >= k?". From 10×10 up, for queens and rooks, and when no certificate is being
/// written, its space is split into cubes by the number of white rows and white columns (every
/// pair from 0 to n: a partition), the cubes with the most room for both armies first, solved
/// on two threads. For its first 3 s one thread asks the question whole instead (most
/// questions, every yes and the easy noes, end there), while the other starts on the cubes;
/// the first answer that settles the question stops the other thread's run. A recorded run
/// asks the question whole, so that one refutation is its proof.
fn ask(
    whole: crate::puzzles::Formulated<'_, chess::PeaceableSolution>,
    n: usize,
    cubes: Option<Piece>,
    k: usize,
    limits: &Limits,
) -> Result<Outcome<chess::PeaceableSolution>> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;
    let piece = match cubes {
        Some(piece @ (Piece::Queen | Piece::Rook)) if n >= 10 && limits.recorder.is_none() => piece,
        _ => {
            return bounded(limits, "the peaceable-armies model", || {
                drive(whole, Query::First, limits, false)
            })
        }
    };
    let method = format!(
        "{}, in cubes of white rows and columns on two threads",
        whole.method
    );
    // Both threads' runs stop on `stop`: raised by an answer that settles the question, and
    // by the run's own stop request (forwarded while the threads work).
    let stop = Arc::new(AtomicBool::new(false));
    let steered = limits.clone().with_cancel(stop.clone());
    let budget = std::time::Instant::now() + std::time::Duration::from_secs(3);
    let first = steered.until(Some(limits.deadline.map_or(budget, |d| d.min(budget))));
    let cubes = cube_order(n);
    let next = AtomicUsize::new(0);
    let working = AtomicBool::new(true);
    let settled = || stop.store(true, Ordering::SeqCst);
    let answer: std::sync::Mutex<(Option<chess::PeaceableSolution>, bool, u64, Option<Error>)> =
        std::sync::Mutex::new((None, false, 0, None));
    let work = || loop {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let i = next.fetch_add(1, Ordering::SeqCst);
        let Some(&cube) = cubes.get(i) else { return };
        let Some(f) = chess::peaceable_k_cube(n, piece, k, cube) else {
            return;
        };
        let o = bounded(&steered, "the peaceable-armies model", || {
            drive(f, Query::First, &steered, false)
        });
        let mut a = answer.lock().unwrap_or_else(|e| e.into_inner());
        match o {
            Ok(o) => {
                a.2 += o.stats.solver_calls.unwrap_or(1);
                match (o.status, o.solutions.into_iter().next()) {
                    (Status::Infeasible, _) => {}
                    (Status::Solved, Some(s)) => {
                        a.0 = Some(s);
                        settled();
                    }
                    _ => {
                        a.1 = true;
                        settled();
                    }
                }
            }
            Err(e) => {
                if !matches!(e, Error::Stopped(_)) {
                    a.3 = Some(e);
                }
                a.1 = true;
                settled();
            }
        }
    };
    let whole_answer = std::thread::scope(|scope| {
        let forward = scope.spawn(|| {
            while working.load(Ordering::SeqCst) {
                if limits.expired() {
                    settled();
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        });
        let other = scope.spawn(work);
        let tried = bounded(&first, "the peaceable-armies model", || {
            drive(whole, Query::First, &first, false)
        });
        let whole_answer = match tried {
            Ok(o) if o.status != Status::Unknown => Some(Ok(o)),
            Err(e) if !matches!(e, Error::Stopped(_)) => Some(Err(e)),
            _ => None,
        };
        if whole_answer.is_some() {
            settled();
        } else {
            work();
        }
        let _ = other.join();
        working.store(false, Ordering::SeqCst);
        let _ = forward.join();
        whole_answer
    });
    if let Some(whole) = whole_answer {
        return whole;
    }
    let (found, stopped, calls, error) = answer.into_inner().unwrap_or_else(|e| e.into_inner());
    let status = match (&found, stopped, error) {
        (Some(_), _, _) => Status::Solved,
        (None, _, Some(e)) => return Err(e),
        (None, true, None) => Status::Unknown,
        (None, false, None) => Status::Infeasible,
    };
    let mut o = Outcome::new(Query::First, status);
    o.solutions.extend(found);
    o.stats.solver_calls = Some(calls);
    o.stats.method = method;
    Ok(o)
}
