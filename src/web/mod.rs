//! `quandary serve`: the page and its JSON API, a second front end beside the command line.
//! It talks only to the registry and the runner (no puzzle's own code), like the CLI.
//!
//! Sound as a server: it binds to 127.0.0.1 unless told otherwise; request bodies are capped
//! (413); every run's time limit is capped; at most as many searches run at once as there
//! are cores, the others are answered at once with 503; requests reach no file and no shell
//! (input texts are read inside [`quandary::input::sandboxed`]); bad requests get 400 with
//! the reader's message; a stop request cancels a run's search itself.

use quandary::model::{lp, opb};
use quandary::puzzles::registry::{self, Entry, OptionsIn};
use quandary::solve::answer::{Limits, Query};
use quandary::solve::budget;
use quandary::Error;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response, Server};

/// The page: HTML, CSS and script in one file, compiled into the binary.
const PAGE: &str = include_str!("page.html");

/// The largest request body read.
pub const MAX_BODY: usize = 1 << 20;

/// How the server is set up.
pub struct Settings {
    pub bind: String,
    pub port: u16,
    /// The longest time limit a request may ask for (and the limit when it asks none).
    pub max_time: Duration,
    /// How many searches may run at once.
    pub max_runs: usize,
}

/// What the request handlers share.
struct Shared {
    settings: Settings,
    running: AtomicUsize,
    /// The cancel flag of every run in progress, by the id its client gave.
    runs: Mutex<HashMap<String, Arc<AtomicBool>>>,
}

/// Serves until the process is stopped.
pub fn serve(settings: Settings) -> Result<(), Error> {
    let address = format!("{}:{}", settings.bind, settings.port);
    let server = Server::http(&address)
        .map_err(|e| Error::input(format!("cannot listen on {address}: {e}")))?;
    let local = server
        .server_addr()
        .to_ip()
        .map_or(address.clone(), |a| a.to_string());
    println!("quandary: serving on http://{local}/ (Ctrl-C stops)");
    if !is_loopback(&settings.bind) {
        eprintln!(
            "quandary: warning: bound to {}: anyone who can reach this machine can run searches on it",
            settings.bind
        );
    }
    let shared = Arc::new(Shared {
        settings,
        running: AtomicUsize::new(0),
        runs: Mutex::new(HashMap::new()),
    });
    for request in server.incoming_requests() {
        let shared = shared.clone();
        std::thread::spawn(move || handle(request, &shared));
    }
    Ok(())
}

fn is_loopback(bind: &str) -> bool {
    bind == "localhost"
        || bind
            .parse::<std::net::IpAddr>()
            .is_ok_and(|a| a.is_loopback())
}

/// An answer: status code and JSON (or the page).
struct Answer {
    code: u16,
    body: String,
    content_type: &'static str,
}

impl Answer {
    fn json(code: u16, v: Value) -> Answer {
        Answer {
            code,
            body: v.to_string(),
            content_type: "application/json",
        }
    }
    fn error(code: u16, message: impl Into<String>) -> Answer {
        Answer::json(code, json!({"status": "error", "error": message.into()}))
    }
}

fn handle(mut request: Request, shared: &Shared) {
    let answer = route(&mut request, shared);
    let header = Header::from_bytes(&b"Content-Type"[..], answer.content_type.as_bytes())
        .expect("a valid header");
    let response = Response::from_string(answer.body)
        .with_status_code(answer.code)
        .with_header(header);
    // The client may have gone; nothing to do then.
    let _ = request.respond(response);
}

fn route(request: &mut Request, shared: &Shared) -> Answer {
    let path = request.url().split('?').next().unwrap_or("").to_string();
    match (request.method(), path.as_str()) {
        (Method::Get, "/") => Answer {
            code: 200,
            body: PAGE.to_string(),
            content_type: "text/html; charset=utf-8",
        },
        (Method::Get, "/api/puzzles") => Answer::json(200, puzzles()),
        (Method::Post, "/api/run") => match body(request) {
            Ok(v) => run(&v, shared),
            Err(a) => a,
        },
        (Method::Post, "/api/stop") => match body(request) {
            Ok(v) => stop(&v, shared),
            Err(a) => a,
        },
        (_, "/" | "/api/puzzles" | "/api/run" | "/api/stop") => {
            Answer::error(405, "method not allowed")
        }
        _ => Answer::error(404, format!("no such page: {path}")),
    }
}

/// The request body as JSON: 413 past [`MAX_BODY`], 400 if it is not JSON.
fn body(request: &mut Request) -> Result<Value, Answer> {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(Answer::error(
            413,
            format!("the request is larger than {} bytes", MAX_BODY),
        ));
    }
    let mut bytes = Vec::new();
    let read = request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes);
    if read.is_err() {
        return Err(Answer::error(400, "the request body could not be read"));
    }
    if bytes.len() > MAX_BODY {
        return Err(Answer::error(
            413,
            format!("the request is larger than {} bytes", MAX_BODY),
        ));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| Answer::error(400, format!("the request is not JSON: {e}")))
}

/// Every puzzle of the registry: what the page needs to offer it.
fn puzzles() -> Value {
    let list: Vec<Value> = registry::PUZZLES
        .iter()
        .map(|e| {
            let mut verbs = vec!["solve", "count", "unique", "forced"];
            if e.has_goal() {
                verbs.extend(["optimum", "reach"]);
            }
            verbs.push("model");
            json!({"name": e.name(), "title": e.title(), "about": e.about(),
                   "input": e.input(), "example": e.example(), "verbs": verbs,
                   "options": flags(*e)})
        })
        .collect();
    json!({ "puzzles": list })
}

/// A puzzle's options as the command line's flags, for the page to offer: name, help, the
/// values a choice takes, whether it is an on/off flag, its default.
fn flags(e: &dyn Entry) -> Vec<Value> {
    let cmd = e.options_args(clap::Command::new(e.name()));
    cmd.get_arguments()
        .filter_map(|a| {
            let long = a.get_long()?;
            let values: Vec<String> = a
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            let flag = matches!(a.get_action(), clap::ArgAction::SetTrue);
            let default = a
                .get_default_values()
                .first()
                .map(|d| d.to_string_lossy().into_owned());
            let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
            Some(json!({"flag": long, "help": help, "values": values,
                        "switch": flag, "default": default}))
        })
        .collect()
}

/// The options of a request: `"args"`, the command line's flags (`["--formulation", "cell"]`),
/// read by the same parser as the command line; or `"options"`, a JSON object.
fn options_in<'a>(
    e: &dyn Entry,
    v: &'a Value,
    parsed: &'a mut Option<clap::ArgMatches>,
) -> Result<OptionsIn<'a>, String> {
    match &v["args"] {
        Value::Null => {}
        Value::Array(a) => {
            let args: Vec<&str> = a
                .iter()
                .map(|w| w.as_str().ok_or("\"args\" must be a list of strings"))
                .collect::<Result<_, _>>()?;
            let cmd = e
                .options_args(clap::Command::new(e.name()))
                .no_binary_name(true);
            let m = cmd
                .try_get_matches_from(args)
                .map_err(|err| err.render().to_string())?;
            return Ok(OptionsIn::Matches(parsed.insert(m)));
        }
        _ => return Err("\"args\" must be a list of strings".into()),
    }
    match &v["options"] {
        Value::Null => Ok(OptionsIn::Default),
        o @ Value::Object(_) => Ok(OptionsIn::Json(o)),
        _ => Err("\"options\" must be an object".into()),
    }
}

/// The query a verb asks; `reach` needs `at_least`.
fn query_of(e: &dyn Entry, verb: &str, v: &Value) -> Result<Query, String> {
    Ok(match verb {
        "solve" => e.solve_query(),
        "count" => Query::Count,
        "unique" => Query::Unique,
        "forced" => Query::Forced,
        "optimum" if e.has_goal() => Query::Optimum,
        "reach" if e.has_goal() => Query::AtLeast(
            v["at_least"]
                .as_i64()
                .ok_or("reach needs \"at_least\": a whole number")?,
        ),
        other => return Err(format!("{} has no verb '{other}'", e.name())),
    })
}

/// `POST /api/run`: `{"puzzle", "verb", "words": [..] | "text": "...", "options": {..},
/// "time_limit": secs, "at_least": n, "id": "..."}` → the report the CLI prints with
/// `--json`, plus `text` and `svg`.
fn run(v: &Value, shared: &Shared) -> Answer {
    let Some(name) = v["puzzle"].as_str() else {
        return Answer::error(
            400,
            "give \"puzzle\": one of tank, gunport, chess, battleship, tantrix",
        );
    };
    let Some(entry) = registry::find(name) else {
        return Answer::error(400, format!("no puzzle '{name}'"));
    };
    let verb = v["verb"].as_str().unwrap_or("solve");
    let mut words: Vec<String> = match &v["words"] {
        Value::Null => Vec::new(),
        Value::Array(a) => match a.iter().map(|w| w.as_str().map(str::to_string)).collect() {
            Some(w) => w,
            None => return Answer::error(400, "\"words\" must be a list of strings"),
        },
        _ => return Answer::error(400, "\"words\" must be a list of strings"),
    };
    let mut files = HashMap::new();
    match &v["text"] {
        Value::Null => {}
        Value::String(t) if t.trim().is_empty() => {}
        Value::String(t) => {
            files.insert("input".to_string(), t.clone());
            words.insert(0, "input".to_string());
        }
        _ => return Answer::error(400, "\"text\" must be a string"),
    }
    let mut parsed = None;
    let options = match options_in(entry, v, &mut parsed) {
        Ok(o) => o,
        Err(e) => return Answer::error(400, e),
    };
    let max = shared.settings.max_time;
    let limit = match v["time_limit"].as_f64() {
        None => max,
        Some(s) if s.is_finite() && s >= 0.0 => Duration::from_secs_f64(s).min(max),
        Some(s) => return Answer::error(400, format!("time_limit {s} is not a number of seconds")),
    };
    if verb == "model" {
        return quandary::input::sandboxed(files, || model(entry, &words, options));
    }
    let setter = name == "battleship" && SETTER_VERBS.contains(&verb);
    let query = match query_of(entry, verb, v) {
        Ok(q) => Some(q),
        Err(_) if setter => None,
        Err(e) => return Answer::error(400, e),
    };
    // A slot for the search, or 503 at once. The slot is given back however the run ends.
    let Some(_slot) = Slot::take(shared) else {
        return Answer::error(
            503,
            format!(
                "{} searches are running, as many as this server runs at once; try again shortly",
                shared.settings.max_runs
            ),
        );
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let _listed = v["id"]
        .as_str()
        .map(|id| Listed::new(shared, id, cancel.clone()));
    let limits = Limits::new(Some(limit));
    let result = budget::cancellable(cancel, || {
        quandary::input::sandboxed(files, || match query {
            Some(query) => entry.run(&words, options, query, &limits, None),
            None => setter_verb(verb, &words, options, v, &limits),
        })
    });
    match result {
        Ok(report) => {
            let mut out = serde_json::to_value(&report).unwrap_or_else(|_| json!({}));
            out["text"] = json!(report.text);
            out["svg"] = json!(report.svg);
            Answer::json(200, out)
        }
        Err(Error::Stopped(why)) => Answer::json(
            200,
            json!({"status": "unknown", "error": why, "puzzle": name}),
        ),
        Err(e @ Error::Internal(_)) => Answer::error(500, e.to_string()),
        Err(e) => Answer::error(400, e.to_string()),
    }
}

/// The Battleship setter's verbs the workbench uses, beside the generic ones.
const SETTER_VERBS: [&str; 4] = ["redundant", "minimize", "generate", "convert"];

/// A Battleship setter's verb: the command line's `battleship redundant / minimize /
/// generate / convert`, answered as a report (`convert`: the puzzle as quandary's text format
/// and as a puzz.link URL, in `solution`).
fn setter_verb(
    verb: &str,
    words: &[String],
    options: OptionsIn,
    v: &Value,
    limits: &Limits,
) -> Result<registry::Report, Error> {
    use quandary::puzzles::battleship::{formats, verbs, BattleshipPuzzle};
    use quandary::puzzles::Puzzle;
    let o = registry::options::<BattleshipPuzzle>(options)?;
    let seed = v["seed"].as_u64();
    if verb == "generate" {
        let side = |k: &str| {
            v[k].as_u64()
                .map(|n| n as usize)
                .ok_or_else(|| Error::input(format!("generate needs \"{k}\": a whole number")))
        };
        let fleet = v["fleet"].as_str().unwrap_or("4 3 2 1");
        return verbs::generate(
            side("rows")?,
            side("cols")?,
            fleet,
            seed.unwrap_or(1),
            o.formulation,
            limits,
        );
    }
    let [word] = words else {
        return Err(Error::input("give the puzzle as \"text\""));
    };
    let p = verbs::load(word, &o)?;
    match verb {
        "redundant" => verbs::redundant(&p, &o, limits),
        "minimize" => verbs::minimize(&p, &o, seed, limits),
        _ => {
            let mut r = registry::Report::new(
                "battleship",
                "convert",
                BattleshipPuzzle::describe(&p),
                quandary::solve::search::Status::Solved,
            );
            r.solution = Some(json!({
                "puzzle": formats::to_quandary(&p, "from the quandary page"),
                "puzzlink": formats::to_puzzlink(&p),
            }));
            Ok(r)
        }
    }
}

/// One of the `max_runs` places for a search, held while it runs.
struct Slot<'a>(&'a Shared);

impl<'a> Slot<'a> {
    fn take(shared: &'a Shared) -> Option<Slot<'a>> {
        let before = shared.running.fetch_add(1, Ordering::SeqCst);
        if before >= shared.settings.max_runs {
            shared.running.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Slot(shared))
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A run's cancel flag listed under its id while it runs, for `/api/stop`.
struct Listed<'a> {
    shared: &'a Shared,
    id: String,
}

impl<'a> Listed<'a> {
    fn new(shared: &'a Shared, id: &str, flag: Arc<AtomicBool>) -> Listed<'a> {
        if let Ok(mut runs) = shared.runs.lock() {
            runs.insert(id.to_string(), flag);
        }
        Listed {
            shared,
            id: id.to_string(),
        }
    }
}

impl Drop for Listed<'_> {
    fn drop(&mut self) {
        if let Ok(mut runs) = self.shared.runs.lock() {
            runs.remove(&self.id);
        }
    }
}

/// The model's size per family and its LP and OPB files.
fn model(entry: &dyn Entry, words: &[String], options: OptionsIn) -> Answer {
    match entry.model(words, options, Query::Count) {
        Ok((title, m)) => {
            let families: Vec<Value> = m
                .families()
                .iter()
                .map(|(f, k)| json!({"family": f, "rows": k}))
                .collect();
            Answer::json(
                200,
                json!({"puzzle": entry.name(), "verb": "model", "status": "solved",
                       "title": title, "stats": {"model": m.size()}, "families": families,
                       "lp": lp::to_lp(&m, &title), "opb": opb::to_opb(&m, &title)}),
            )
        }
        Err(e) => Answer::error(400, e.to_string()),
    }
}

/// `POST /api/stop`: `{"id"}` raises that run's cancel flag.
fn stop(v: &Value, shared: &Shared) -> Answer {
    let Some(id) = v["id"].as_str() else {
        return Answer::error(400, "give the \"id\" of the run to stop");
    };
    let flag = shared.runs.lock().ok().and_then(|r| r.get(id).cloned());
    match flag {
        Some(f) => {
            f.store(true, Ordering::Relaxed);
            Answer::json(200, json!({"stopped": true}))
        }
        None => Answer::json(
            200,
            json!({"stopped": false, "why": "no run with that id is going"}),
        ),
    }
}
