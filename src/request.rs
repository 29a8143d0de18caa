//! One request, as every front end has it: a puzzle, a verb (generic or the puzzle's own), the
//! input (words, and a text given itself), the puzzle's options as one JSON object keyed by
//! flag name, an own verb's parameters by name, and what a query needs besides (`at_least`,
//! `cap`). The page and Python read their calls into a [`Request`] and hand it to [`run`]; what
//! comes back is turned into what they send by [`answer`]. The rules of a request (which verbs
//! exist, which take a cap, how a text becomes the input, how an own verb's lines join its
//! text, how a stopped run answers) are written here once.
//!
//! Below this room: the registry and the runner (generic verbs), and the verbs table (own
//! verbs). Above it: the front ends, which keep only what is theirs (the page's HTTP fields,
//! Python's keywords and interrupts, the command line's flags).

use crate::error::{Error, Result};
use crate::input::Files;
use crate::puzzles::Query;
use crate::runner::registry::{self, Entry, OptionsIn, Report};
use crate::runner::Limits;
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// What a front end asks.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub puzzle: String,
    /// A generic verb (`solve`, `count`, ...) or one of the puzzle's own.
    pub verb: String,
    /// The input's words (file names, sizes, an own verb's positional parameters).
    pub words: Vec<String>,
    /// A puzzle's text given itself: the one input file there is, named `input`, put before
    /// the words ([`crate::input::text_as_input`]).
    pub text: Option<String>,
    /// Whether words may name files on disk (the command line, Python); the page's may name
    /// only the text given and the shipped puzzle files.
    pub disk: bool,
    /// The puzzle's options, a JSON object keyed by flag name (`null`: the defaults).
    pub options: Value,
    /// An own verb's parameters by name (the page's request fields, Python's keywords).
    pub params: Map<String, Value>,
    /// The value `reach` must reach.
    pub at_least: Option<i64>,
    /// For `count`: stop once this many solutions are met.
    pub cap: Option<u64>,
}

impl Request {
    /// The puzzle asked for, or an error listing the ones there are.
    pub fn entry(&self) -> Result<&'static dyn Entry> {
        registry::find(&self.puzzle).ok_or_else(|| {
            let names: Vec<&str> = registry::PUZZLES.iter().map(|e| e.name()).collect();
            Error::input(format!(
                "no puzzle '{}' (the puzzles: {})",
                crate::error::clip(&self.puzzle),
                names.join(", ")
            ))
        })
    }

    /// The input's words and the files they may name: the text given (as `input`, first);
    /// with no text, the disk where the front end allows it.
    fn input(&self) -> (Vec<String>, Option<HashMap<String, String>>) {
        let mut words = self.words.clone();
        let files = match &self.text {
            Some(t) if !t.trim().is_empty() => {
                Some(crate::input::text_as_input(t.clone(), &mut words))
            }
            _ if self.disk => None,
            _ => Some(HashMap::new()),
        };
        (words, files)
    }
}

/// The query a request's generic verb asks, `None` for an own verb and for `model` (a call of
/// its own: [`with_input`]); an error for a verb the puzzle does not have, and for a cap on any
/// verb but `count`.
pub fn query(req: &Request) -> Result<Option<Query>> {
    let entry = req.entry()?;
    if req.cap == Some(0) || (req.cap.is_some() && req.verb != "count") {
        return Err(Error::input(
            "cap: a whole number of solutions, 1 or more, for count only",
        ));
    }
    match entry.query(&req.verb, req.at_least)? {
        Some(q) => Ok(Some(q.capped(req.cap))),
        None if req.verb == "model" => Ok(None),
        None if crate::verbs::find(entry.name(), &req.verb).is_some() => Ok(None),
        None => {
            let mut all = verbs(entry);
            all.retain(|v| *v != "model");
            Err(Error::input(format!(
                "{} has no verb '{}' (its verbs: {})",
                entry.name(),
                crate::error::clip(&req.verb),
                all.join(", ")
            )))
        }
    }
}

/// Every verb a puzzle answers: its generic verbs ([`Entry::verbs`], `model` last among them),
/// then its own ([`crate::verbs::of`]).
pub fn verbs(entry: &dyn Entry) -> Vec<&'static str> {
    let mut all = entry.verbs();
    all.extend(crate::verbs::of(entry.name()).iter().map(|v| v.name));
    all
}

/// Answers a request within `limits`: a generic verb through the runner, an own verb through
/// its table (its parameters checked there; the lines it reports as it goes put before its
/// text). `explain` takes its own keys `plain` and `threads` out of the options.
pub fn run(req: &Request, limits: &Limits) -> Result<Report> {
    let entry = req.entry()?;
    let query = query(req)?;
    if req.verb == "model" {
        return Err(Error::input(
            "model builds the 0-1 program: a call of its own, not a run",
        ));
    }
    let (words, texts) = req.input();
    let files = files_of(&texts);
    let Some(query) = query else {
        let verb = crate::verbs::find(entry.name(), &req.verb)
            .ok_or_else(|| Error::Internal(format!("no own verb '{}'", req.verb)))?;
        let rest = match &req.options {
            Value::Object(o) if !o.is_empty() && !verb.options => {
                return Err(Error::input(format!(
                    "{} {} takes no options (its parameters are named on their own)",
                    entry.name(),
                    verb.name
                )))
            }
            Value::Object(o) => o.clone(),
            _ => Map::new(),
        };
        let (args, rest) =
            crate::verbs::prepare(entry.name(), verb, req.params.clone(), &words, rest)?;
        let mut lines: Vec<String> = Vec::new();
        let mut report = (verb.run)(crate::verbs::Call {
            args,
            options: crate::verbs::options_in(&rest),
            files,
            limits,
            line: &mut |l| lines.push(l.to_string()),
        })?;
        if !lines.is_empty() {
            report.text = format!("{}\n{}", lines.join("\n"), report.text);
        }
        return Ok(report);
    };
    if !req.params.is_empty() {
        let names: Vec<&str> = req.params.keys().map(String::as_str).collect();
        return Err(Error::input(format!(
            "{} takes no parameter {} (its options go in \"options\")",
            req.verb,
            names.join(", ")
        )));
    }
    let mut options = req.options.clone();
    let query = explaining(query, &mut options)?;
    entry.run(&words, files, options_in(&options)?, query, limits, None)
}

/// A request's input and options as the registry reads them, for the calls that are not a
/// run (`model`, a board drawn or edited, a model opened): `f` gets the puzzle, the words,
/// the files they may name and the options.
pub fn with_input<R>(
    req: &Request,
    f: impl FnOnce(&'static dyn Entry, &[String], Files, OptionsIn) -> Result<R>,
) -> Result<R> {
    let entry = req.entry()?;
    let (words, texts) = req.input();
    f(entry, &words, files_of(&texts), options_in(&req.options)?)
}

/// Where a request's words are read: the texts it carried (and the shipped files), or the
/// disk ([`Request::input`]).
fn files_of(texts: &Option<HashMap<String, String>>) -> Files<'_> {
    match texts {
        Some(t) => Files::Only(t),
        None => Files::Disk,
    }
}

/// A board drawn for editing ([`board`]): its title, the sketch, and the options an edit
/// changed (by flag name, `null` for back to the default).
pub struct Drawn {
    pub title: String,
    pub sketch: crate::puzzles::sketch::Sketch,
    pub set: Map<String, Value>,
}

/// The request's instance drawn for editing; with `edit` (place, value), that change made
/// first and written back into the request (its words, text and options), then read again by
/// the puzzle's reader, so an edit the puzzle cannot take is an error naming it and the
/// request is left as it was. `None`: this input has no board to draw.
pub fn board(req: &mut Request, edit: Option<(&str, &str)>) -> Result<Option<Drawn>> {
    let mut set = Map::new();
    if let Some((at, value)) = edit {
        let changed = with_input(req, |e, words, files, options| {
            e.edit(words, files, options, at, value)
        })?;
        set = changed.set_in(&mut req.options);
        req.words = changed.words;
        req.text = (!changed.text.is_empty()).then_some(changed.text);
    }
    let sketched = with_input(req, |e, words, files, options| {
        e.sketch(words, files, options)
    })?;
    Ok(sketched.map(|(title, sketch)| Drawn { title, sketch, set }))
}

/// The puzzle's options as a request carries them: a JSON object keyed by flag name (`null`
/// or `{}`: the defaults).
fn options_in(options: &Value) -> Result<OptionsIn<'_>> {
    match options {
        Value::Null => Ok(OptionsIn::Default),
        Value::Object(o) if o.is_empty() => Ok(OptionsIn::Default),
        o @ Value::Object(_) => Ok(OptionsIn::Json(o)),
        _ => Err(Error::input("the options must be a JSON object")),
    }
}

/// `explain`'s own keys, `plain` and `threads` (the command line's `--plain`, `--threads 1`),
/// taken out of the options and read into the query; for another verb they stay, and the
/// puzzle's options refuse them by name.
fn explaining(query: Query, options: &mut Value) -> Result<Query> {
    let Query::Explain(_) = query else {
        return Ok(query);
    };
    let Some(o) = options.as_object_mut() else {
        return Ok(query);
    };
    let plain = match o.remove("plain") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => b,
        Some(v) => return Err(Error::input(format!("plain: true or false, not {v}"))),
    };
    let threads = match o.remove("threads") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|t| u32::try_from(t).ok())
                .ok_or_else(|| Error::input(format!("threads: a whole number, not {v}")))?,
        ),
    };
    query.explaining(plain, threads)
}

/// What a front end sends back for a request: the report as JSON (or a stopped run's own
/// object), its text, its pictures (the answer's, then a second solution's), and an
/// explanation's pictures, one a step.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub json: Value,
    pub text: String,
    pub svg: Option<String>,
    pub other_svg: Option<String>,
    pub steps: Vec<String>,
    /// Whether the run stopped before it had a report (`json` is then the stopped object).
    pub stopped: bool,
}

impl Answer {
    /// The answer as one JSON object (the page's): the report's fields with `text`, `svg`,
    /// `other_svg`, and `step_svgs` for an explanation; a stopped run's object as it is.
    pub fn whole(self) -> Value {
        let mut out = self.json;
        if self.stopped {
            return out;
        }
        out["text"] = json!(self.text);
        out["svg"] = json!(self.svg);
        out["other_svg"] = json!(self.other_svg);
        if !self.steps.is_empty() {
            out["step_svgs"] = json!(self.steps);
        }
        out
    }
}

/// A run's result as an [`Answer`]: a report, or a run stopped before it had one (status
/// unknown, the reason, and `seconds`, the run's own clock where there is one:
/// [`crate::runner::report::stopped_answer`]); any other error stays an error.
pub fn answer(result: Result<Report>, req: &Request, seconds: Option<f64>) -> Result<Answer> {
    match result {
        Ok(report) => {
            let json = serde_json::to_value(&report)
                .map_err(|e| Error::Internal(format!("the report as JSON: {e}")))?;
            let steps = if report.facts.explanation.is_some() {
                report.step_svgs()
            } else {
                Vec::new()
            };
            Ok(Answer {
                json,
                text: report.text,
                svg: report.svg,
                other_svg: report.other_svg,
                steps,
                stopped: false,
            })
        }
        Err(e) => {
            let stopped = crate::runner::report::stopped_answer(
                &e,
                Some(&req.puzzle),
                Some(&req.verb),
                seconds,
            );
            match stopped {
                Some(v) => Ok(Answer {
                    text: v["error"].as_str().unwrap_or_default().to_string(),
                    json: v,
                    svg: None,
                    other_svg: None,
                    steps: Vec::new(),
                    stopped: true,
                }),
                None => Err(e),
            }
        }
    }
}
