//! The answer format every front end prints: [`Report`], one for every puzzle and verb, and
//! [`report`], which makes one from a run's outcome in the puzzle's words.

use crate::puzzles::Puzzle;
use crate::runner::{Facts, Outcome, Query};
use crate::solve::search::Status;
use serde::Serialize;

/// One answer, the same fields for every puzzle and verb; `--json` prints it as one object.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Report {
    pub puzzle: String,
    pub verb: String,
    /// The instance, in words ("Tank Attack 6×6").
    pub instance: String,
    #[serde(flatten)]
    pub facts: Facts,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<serde_json::Value>,
    /// A second solution, when `unique` finds one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_solution: Option<serde_json::Value>,
    /// The readable form: headline, then the board(s).
    #[serde(skip)]
    pub text: String,
    /// A picture of the answer, if there is one to draw.
    #[serde(skip)]
    pub svg: Option<String>,
    /// A picture of the second solution, when `unique` finds one.
    #[serde(skip)]
    pub other_svg: Option<String>,
    /// The solution in the puzzle's own file format, where it has one.
    #[serde(skip)]
    pub file: Option<String>,
}

impl std::ops::Deref for Report {
    type Target = Facts;
    fn deref(&self) -> &Facts {
        &self.facts
    }
}

impl std::ops::DerefMut for Report {
    fn deref_mut(&mut self) -> &mut Facts {
        &mut self.facts
    }
}

/// Every key a report's JSON may carry: the `--json` object's (the report's own fields, its
/// facts', an explanation's and a changed model's judgement, which are flattened into it) and
/// `error`, which a run a limit stopped carries ([`stopped_answer`]). Front ends offer these as
/// a report's attributes (Python's `Report`); tests/conformance.rs holds every report of
/// every generic verb it makes to them.
pub const FIELDS: &[&str] = &[
    "puzzle",
    "verb",
    "instance",
    "status",
    "scope",
    "in_scope",
    "cube",
    "count",
    "count_at_least",
    "classes",
    "classes_at_least",
    "unique",
    "objective",
    "bound",
    "summary",
    "forced",
    "details",
    "steps",
    "difficulty",
    "rating",
    "complete",
    "open",
    "costs",
    "changes",
    "verified",
    "violations",
    "violations_at",
    "verified_count",
    "stats",
    "solution",
    "other_solution",
    "error",
];

impl Report {
    /// A report with only its status; verbs fill in what they have.
    pub fn new(puzzle: &str, verb: &str, instance: String, status: Status) -> Report {
        // What the facts hold follows the verb where it is a counting one.
        let query = match Query::named(verb, None) {
            Some(q @ (Query::Count { .. } | Query::Unique)) => q,
            _ => Query::First,
        };
        Report {
            puzzle: puzzle.to_string(),
            verb: verb.to_string(),
            instance,
            facts: Facts::new(query, status),
            solution: None,
            other_solution: None,
            text: String::new(),
            svg: None,
            other_svg: None,
            file: None,
        }
    }

    /// One picture a step of its explanation (none without one), drawn when asked for: on a
    /// large board drawing them takes longer than a run's time limit should be overrun by
    /// ([`crate::explain::pictures`]).
    pub fn step_svgs(&self) -> Vec<String> {
        self.facts
            .explanation
            .as_ref()
            .map(crate::explain::pictures)
            .unwrap_or_default()
    }

    /// The process exit status: 0 answered, 1 stopped by a limit.
    /// 0 with an answer, 1 when a limit stopped the run, 4 when `tantrix check` rejects the
    /// solution given.
    pub fn exit_code(&self) -> i32 {
        if self.status == Status::Rejected {
            4
        } else if self.answered() {
            0
        } else {
            1
        }
    }
}

/// How a status reads in a headline.
pub fn status_word(s: Status) -> &'static str {
    match s {
        Status::Solved => "solved",
        Status::Optimal => "optimal",
        Status::Infeasible => "infeasible",
        Status::Unknown => {
            "unknown (stopped before the search ended: a time limit or a stop request)"
        }
        Status::Rejected => "rejected (the solution given breaks the rules)",
    }
}

/// A run stopped before it had anything to report, as every front end answers it in JSON:
/// status `unknown`, the reason as `error`, the puzzle and verb where known, and the run's own
/// clock as `stats.seconds` where the caller keeps one; `None` for any other error. The one
/// place `Error::Stopped` becomes an answer (the command line's `--json`, the page, Python).
pub fn stopped_answer(
    e: &crate::error::Error,
    puzzle: Option<&str>,
    verb: Option<&str>,
    seconds: Option<f64>,
) -> Option<serde_json::Value> {
    let crate::error::Error::Stopped(why) = e else {
        return None;
    };
    let mut v = serde_json::json!({"status": "unknown", "error": why});
    if let Some(p) = puzzle {
        v["puzzle"] = serde_json::json!(p);
    }
    if let Some(verb) = verb {
        v["verb"] = serde_json::json!(verb);
    }
    if let Some(s) = seconds {
        v["stats"] = serde_json::json!({ "seconds": s });
    }
    Some(v)
}

/// How "unknown" reads in a headline when what stopped the run is known
/// ([`Stats::stopped_by`](super::answer::Stats)); [`status_word`] when not.
pub fn unknown_word(stopped_by: Option<&str>) -> String {
    match stopped_by {
        Some(by) => format!("unknown (stopped by {by} before the search ended)"),
        None => status_word(Status::Unknown).to_string(),
    }
}

/// "1 board", "2 boards".
pub fn plural(n: u128, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if noun.ends_with('s') {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

/// The report of an outcome: headline, boards, JSON fields and picture, the same way for
/// every puzzle.
pub fn report<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    o: Outcome<P::Solution>,
) -> Report {
    let described = P::describe(instance);
    let mut r = Report::new(P::NAME, o.query.verb(), described.clone(), o.status);
    let noun = P::NOUN;
    let (status, count, unique) = match &o.in_scope {
        Some(s) => (s.status, s.count, s.unique),
        None => (o.status, o.count, o.unique),
    };
    let value = |v: i64| match P::GOAL_NAME {
        "" => v.to_string(),
        name => format!("{v} {name}"),
    };
    let unknown = unknown_word(o.stats.stopped_by.as_deref());
    let headline = match (o.query, status) {
        // Never from a run: only `tantrix check` reports it.
        (_, Status::Rejected) => status_word(status).to_string(),
        (_, Status::Unknown) if o.solutions.is_empty() => match o.count_at_least {
            Some(0) if matches!(o.query, Query::Count { .. }) => {
                format!("none found yet; {}", unknown)
            }
            Some(n) if matches!(o.query, Query::Count { .. }) => {
                format!("at least {}; {}", plural(n, noun), unknown)
            }
            _ => unknown.clone(),
        },
        (Query::Count { .. }, Status::Unknown) => format!(
            "at least {}; {}",
            plural(o.count_at_least.unwrap_or(0), noun),
            unknown
        ),
        (Query::Count { .. }, _) => {
            let mut h = format!("exactly {}", plural(count.unwrap_or(0), noun));
            if let (Some(v), true) = (o.objective, P::HAS_GOAL) {
                h = format!("{h}, all optimal with {}", value(v));
            }
            if let Some(k) = o.classes {
                h += &format!(", {} up to rotation and reflection", plural(k, "class"));
            }
            h
        }
        (Query::Unique, Status::Infeasible) => format!("no {noun} at all"),
        (Query::Unique, Status::Unknown) => {
            format!("one {noun} found; a limit stopped the search for a second")
        }
        (Query::Unique, _) if unique == Some(true) => {
            let rated = o.details.as_ref().and_then(|d| d.get("difficulty"));
            match rated {
                None => format!("exactly one {noun} (unique)"),
                Some(serde_json::Value::Null) => format!(
                    "exactly one {noun} (unique); a limit stopped its difficulty rating"
                ),
                Some(d) => format!(
                    "exactly one {noun} (unique); difficulty: hardest step {}, total {} over {} steps",
                    d["hardest"], d["total"], d["steps"]
                ),
            }
        }
        (Query::Unique, _) => format!("not unique: two {noun}s shown"),
        (Query::Forced | Query::Explain(_), Status::Infeasible) => format!("no {noun} at all"),
        (Query::Explain(_), s) => match &o.explanation {
            None => status_word(s).to_string(),
            Some(x) => {
                let d = x.difficulty;
                let mut h = format!(
                    "{} steps, hardest {}, total {}",
                    d.steps, d.hardest, d.total
                );
                h += &match (x.complete, s) {
                    (true, _) => format!("; they reach the whole {noun}"),
                    (false, Status::Unknown) => format!(
                        "; a limit stopped them with {} decisions of the {noun} open",
                        x.open
                    ),
                    (false, _) => format!(
                        "; nothing more is forced ({} decisions of the {noun} shown are not the same in every {noun})",
                        x.open
                    ),
                };
                if !x.rating && x.complete {
                    h += "; not the steps of the puzzle's rating (one engine gives those: `--threads 1`, Python's threads=1)";
                }
                h
            }
        },
        (Query::Forced, s) => {
            let fs = o
                .forced
                .as_ref()
                .or(o.in_scope.as_ref().and_then(|i| i.forced.as_ref()));
            let (settled, places) = fs.map_or((0, 0), crate::runner::forced::settled);
            let mut h = format!(
                "{settled} of {places} places are the same in every {noun} (? where they differ)"
            );
            if let Some(n) = o.count {
                h += &format!("; {n} {noun}{} in all", if n == 1 { "" } else { "s" });
            }
            if s == Status::Unknown {
                h += &format!(
                    "; {} decisions undecided when a limit stopped the search",
                    fs.map_or(0, |f| f.undecided)
                );
            }
            h
        }
        (_, Status::Infeasible) => match o.query {
            Query::AtLeast(v) => format!("infeasible: no {noun} reaches {}", value(v)),
            _ => format!("infeasible: no {noun} exists"),
        },
        (_, Status::Optimal) => format!(
            "optimal, {} (proved)",
            value(o.objective.unwrap_or_default())
        ),
        (_, Status::Unknown) => match o.objective {
            Some(v) => format!("{}; best found {}", unknown, value(v)),
            None => format!("{}; a {noun} was found", unknown),
        },
        (Query::AtLeast(v), Status::Solved) => format!(
            "at least {}: found one with {}",
            value(v),
            value(o.objective.unwrap_or_default())
        ),
        (_, Status::Solved) => match o.objective {
            Some(v) => format!("solved, {}", value(v)),
            None => "solved".to_string(),
        },
    };
    let scope_note = match &o.scope {
        Some(s) => format!(" [among {s} only; other {noun}s are not searched]"),
        None => String::new(),
    };
    r.text = format!("{described}: {headline}{scope_note}\n");
    if let Some(remark) = P::remarks(instance, o.query, o.status, o.scope.is_some()) {
        r.text += &format!("{remark}\n");
    }
    if let Some(x) = &o.explanation {
        r.text += &format!("\n{}", crate::explain::text(x));
    }
    if let Some(fs) = o
        .forced
        .as_ref()
        .or(o.in_scope.as_ref().and_then(|i| i.forced.as_ref()))
    {
        r.text += &format!("\n{}", crate::runner::forced::text(fs));
        r.svg = Some(crate::runner::forced::svg(
            fs,
            &format!("{described}: forced decisions"),
        ));
    } else if o.explanation.as_ref().is_some_and(|x| !x.complete) {
        // An explanation that does not reach the whole board (stopped, or nothing more is
        // forced): its steps say what is known. A solution drawn here would show as concluded
        // what no step concluded (the solution is still in the JSON).
        r.text += "\n(no board drawn: the steps above do not reach the whole of it)\n";
    } else {
        for s in o.solutions.iter().take(2) {
            r.text += &format!("\n{}", P::text(instance, s));
        }
        if let Some(s) = o.solutions.first() {
            r.svg = Some(P::svg(instance, options, s, &[]));
            r.file = P::file(instance, s);
        }
        r.other_svg = o
            .solutions
            .get(1)
            .map(|s| P::svg(instance, options, s, &[]));
    }
    let json = |s: &P::Solution| serde_json::to_value(s).unwrap_or(serde_json::Value::Null);
    r.solution = o.solutions.first().map(json);
    r.other_solution = o.solutions.get(1).map(json);
    r.facts = o.facts;
    r
}
