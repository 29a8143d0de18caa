//! `quandary serve`: the page and its JSON API, a second front end beside the command line.
//! It talks only to the registry and the runner (no puzzle's own code), like the CLI.
//!
//! Sound as a server, since any page the user opens can reach a server on loopback:
//! - hyper's HTTP/1 server: a client has [`HEADER_TIMEOUT`] to send its request head, then
//!   a time for the body in proportion to its length (at most [`BODY_TIMEOUT`]); one request
//!   per connection; at most as many connections are held as the open-files limit allows (more wait in the kernel's queue), and running
//!   out of file descriptors pauses the accept loop instead of ending it;
//! - bodies are capped (413, decided from `Content-Length` before anything is read);
//! - every request must name this server in `Host` (no DNS rebinding); every API request must
//!   carry the server's token (`X-Quandary-Token`, a random value put in the page it serves),
//!   come with JSON as its content type and, if it says where it comes from (`Origin`), come
//!   from the page: a page of another site can neither send it nor read an answer;
//! - every verb (`model` too) takes one of `max_runs` search slots (503 at once when none is
//!   free), is bounded by `--max-time` and by an equal share of the memory limit;
//! - requests reach no file and no shell (every reader is handed
//!   [`quandary::input::Files::Only`] the texts the request sent); bad requests get 400 with the reader's message; a stop
//!   request (or the client going away) cancels a run's search itself.

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderMap, HeaderValue, CONTENT_LENGTH, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use quandary::guard;

use quandary::model::{lp, opb};
use quandary::runner::registry;
use quandary::runner::{Limits, Query};
use quandary::Error;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod answer;
mod bench;
mod boards;
mod drawing;
mod gate;
mod offer;
mod runs;

use answer::Answer;
use boards::Boards;
use gate::{check_api, check_host, is_loopback, new_token, Who};
use offer::puzzles;
use runs::Going;

/// The largest request body read.
pub const MAX_BODY: usize = 1 << 20;

/// The time a client has to send its request head (an idle connection is closed after it).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// The time a client has to send its request body: [`BODY_GRACE`] and its length at
/// [`BODY_RATE`] (a body of unstated length: as if it were [`MAX_BODY`]), at most this.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// The time every body has, however short.
pub const BODY_GRACE: Duration = Duration::from_secs(1);

/// The slowest pace a body may come at, in bytes a second (a page on this machine sends a
/// megabyte in milliseconds). A flat 30 s let 1,100 connections with the token, each
/// trickling a body to `/api/run`, hold every connection slot: a real request waited 27.9 s.
pub const BODY_RATE: u64 = 256 << 10;

/// Connections held at once at most; more wait in the kernel's queue until one ends. Fewer
/// where the process may open fewer files ([`connection_slots`]).
pub const MAX_CONNECTIONS: usize = 1024;

/// How many connections to hold: [`MAX_CONNECTIONS`], or what the open-files limit leaves
/// after 64 descriptors for the rest of the process (at least 8).
fn connection_slots() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct given.
    let files = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
        limit.rlim_cur as usize
    } else {
        256
    };
    files.saturating_sub(64).clamp(8, MAX_CONNECTIONS)
}

/// The largest LP or OPB text a `model` answer carries (the command line writes any size).
pub const MAX_MODEL_TEXT: usize = 8 << 20;

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
    /// The port listened on (the one given, or the one the system chose for 0).
    port: u16,
    /// The secret every API request carries; the page gets it from the server.
    token: String,
    /// The memory each run may build, and the memory the kept workbench boards may hold
    /// together: the memory limit shared equally among `max_runs` runs and the boards.
    memory_per_run: u64,
    /// The whole memory limit: an idle server holds no more (kept boards are evicted first).
    memory_limit: u64,
    running: AtomicUsize,
    /// Boards being drawn (`/api/board`), apart from the searches.
    drawing: AtomicUsize,
    /// Every run in progress with an id (the one its client gave): its cancel flag and what
    /// it reports.
    runs: Mutex<HashMap<String, Going>>,
    /// The workbench's boards kept between edits.
    boards: Boards,
}

/// Serves until the process is stopped.
pub fn serve(settings: Settings) -> Result<(), Error> {
    let address = format!("{}:{}", settings.bind, settings.port);
    let listener = std::net::TcpListener::bind(&address)
        .map_err(|e| Error::input(format!("cannot listen on {address}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| Error::input(format!("cannot listen on {address}: {e}")))?;
    let token = new_token();
    if is_loopback(&settings.bind) {
        println!("quandary: serving on http://{local}/ (Ctrl-C stops)");
    } else {
        println!("quandary: serving on http://{local}/?token={token} (Ctrl-C stops)");
        eprintln!(
            "quandary: warning: bound to {}: anyone who can reach this machine and has the address above (with its token) can run searches on it",
            settings.bind
        );
    }
    let (limit, _) = guard::memory_limit_and_source();
    let share = limit / (settings.max_runs.max(1) as u64 + 1);
    let shared = Arc::new(Shared {
        memory_per_run: share,
        memory_limit: limit,
        port: local.port(),
        token,
        settings,
        running: AtomicUsize::new(0),
        drawing: AtomicUsize::new(0),
        runs: Mutex::new(HashMap::new()),
        boards: Boards::new(share, limit),
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(accept_loop(listener, shared))
}

/// Accepts connections for ever, at most [`connection_slots`] held at once.
async fn accept_loop(listener: std::net::TcpListener, shared: Arc<Shared>) -> Result<(), Error> {
    use hyper::server::conn::http1;
    use hyper_util::rt::{TokioIo, TokioTimer};
    let cannot = |e: std::io::Error| Error::Internal(format!("cannot listen: {e}"));
    listener.set_nonblocking(true).map_err(cannot)?;
    let listener = tokio::net::TcpListener::from_std(listener).map_err(cannot)?;
    let slots = Arc::new(tokio::sync::Semaphore::new(connection_slots()));
    // A connection lives no longer than its longest run and the time to send and answer it.
    let lifetime = shared.settings.max_time + HEADER_TIMEOUT + BODY_TIMEOUT + HEADER_TIMEOUT;
    let mut said = false;
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return Ok(());
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors (or another passing failure): wait, then go on.
                if !said {
                    eprintln!("quandary: cannot accept a connection ({e}); waiting");
                    said = true;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        said = false;
        let shared = shared.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let service = hyper::service::service_fn(move |request| {
                let shared = shared.clone();
                async move { Ok::<_, std::convert::Infallible>(handle(request, shared).await) }
            });
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .keep_alive(false)
                .max_buf_size(64 << 10)
                .serve_connection(TokioIo::new(stream), service);
            let _ = tokio::time::timeout(lifetime, connection).await;
        });
    }
}

async fn handle(request: Request<Incoming>, shared: Arc<Shared>) -> Response<Full<Bytes>> {
    let answer = answer(request, shared).await;
    let mut response = Response::new(Full::new(Bytes::from(answer.body)));
    *response.status_mut() =
        StatusCode::from_u16(answer.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = response.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(answer.content_type));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("cache-control", HeaderValue::from_static("no-store"));
    for (name, value) in gate::NO_FRAMES {
        h.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// What a request is, read and checked; the work itself on a blocking thread.
async fn answer(request: Request<Incoming>, shared: Arc<Shared>) -> Answer {
    let (parts, body) = request.into_parts();
    let path = parts.uri.path().to_string();
    let who = Who {
        bind: &shared.settings.bind,
        port: shared.port,
        token: &shared.token,
    };
    if let Err(why) = check_host(&parts.headers, &who) {
        return Answer::error(421, why);
    }
    if parts.method == Method::GET && path == "/" {
        return gate::page(parts.uri.query().unwrap_or(""), &parts.headers, &who);
    }
    if path.starts_with("/api/") {
        if let Err(a) = check_api(&parts.method, &parts.headers, &who) {
            return a;
        }
    }
    // Only an API request, its token checked, has its body read: a body sent to any other
    // path is never waited for (a client trickling one to the page held its connection for
    // the whole body timeout).
    let bytes = if parts.method == Method::POST && path.starts_with("/api/") {
        match read_body(&parts.headers, body).await {
            Ok(b) => b,
            Err(a) => return a,
        }
    } else {
        Bytes::new()
    };
    let query = parts.uri.query().unwrap_or("").to_string();
    let method = parts.method.clone();
    // The client going away drops this future: the run it asked for is stopped.
    let cancel = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = RaiseOnDrop(cancel.clone());
    let work = tokio::task::spawn_blocking(move || {
        let answer = route(&method, &path, &query, &bytes, &shared, cancel);
        guard::give_back_memory();
        answer
    });
    work.await
        .unwrap_or_else(|_| Answer::error(500, "the request's work failed"))
}

/// Raises a run's cancel flag when the request that asked for it is dropped.
struct RaiseOnDrop(Arc<AtomicBool>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The request body, at most [`MAX_BODY`] bytes (413 past it, decided from `Content-Length`
/// before reading when the client states it), within [`BODY_GRACE`] and its length at [`BODY_RATE`].
async fn read_body(headers: &HeaderMap, body: Incoming) -> Result<Bytes, Answer> {
    let too_large = || Answer::error(413, format!("the request is larger than {MAX_BODY} bytes"));
    let stated = headers
        .get(CONTENT_LENGTH)
        .and_then(|l| l.to_str().ok())
        .map(|l| l.trim().parse::<u64>());
    let length = match stated {
        Some(Ok(n)) if n > MAX_BODY as u64 => return Err(too_large()),
        Some(Err(_)) => return Err(Answer::error(400, "Content-Length is not a number")),
        Some(Ok(n)) => n,
        None => MAX_BODY as u64,
    };
    let within =
        (BODY_GRACE + Duration::from_secs_f64(length as f64 / BODY_RATE as f64)).min(BODY_TIMEOUT);
    match tokio::time::timeout(within, Limited::new(body, MAX_BODY).collect()).await {
        Err(_) => Err(Answer::error(
            408,
            "the request body did not arrive in time",
        )),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Ok(Err(_)) => Err(Answer::error(400, "the request body could not be read")),
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
    }
}

fn route(
    method: &Method,
    path: &str,
    query: &str,
    body: &[u8],
    shared: &Shared,
    cancel: Arc<AtomicBool>,
) -> Answer {
    let json_body = || {
        serde_json::from_slice::<Value>(body)
            .map_err(|e| Answer::error(400, format!("the request is not JSON: {e}")))
    };
    match (method, path) {
        (&Method::GET, "/api/puzzles") => Answer::json(200, puzzles()),
        (&Method::GET, "/api/progress") => runs::progress(query, shared),
        (&Method::POST, "/api/run") => match json_body() {
            Ok(v) => run(&v, shared, cancel),
            Err(a) => a,
        },
        (&Method::POST, "/api/bench") => match json_body() {
            Ok(v) => bench::bench(&v, shared, cancel),
            Err(a) => a,
        },
        (&Method::POST, "/api/stop") => match json_body() {
            Ok(v) => runs::stop(&v, shared),
            Err(a) => a,
        },
        (&Method::POST, "/api/board") => match json_body() {
            Ok(v) => drawing::drawn(&v, shared, cancel),
            Err(a) => a,
        },
        (
            _,
            "/" | "/api/puzzles" | "/api/progress" | "/api/run" | "/api/bench" | "/api/stop"
            | "/api/board",
        ) => Answer::error(405, "method not allowed"),
        _ => Answer::error(404, format!("no such page: {path}")),
    }
}

/// `POST /api/run`: `{"puzzle", "verb", "words": [..] | "text": "...", "options": {..},
/// "time_limit": secs, "at_least": n, "id": "..."}` → the report the CLI prints with
/// `--json`, plus `text` and `svg`.
fn run(v: &Value, shared: &Shared, cancel: Arc<AtomicBool>) -> Answer {
    let req = match request_of(v) {
        Ok(r) => r,
        Err(a) => return a,
    };
    let started = match runs::start(v, shared, cancel) {
        Ok(s) => s,
        Err(a) => return a,
    };
    let limits = &started.limits;
    if req.verb == "model" {
        return model(&req, limits);
    }
    let result = quandary::request::run(&req, limits);
    match quandary::request::answer(result, &req, Some(limits.seconds())) {
        Ok(a) => Answer::json(200, a.whole()),
        Err(e) => failed(e, &req, limits),
    }
}

/// A `POST /api/run` body as a [`Request`](quandary::request::Request), checked before a
/// slot is taken: the fields' kinds, the puzzle and the verb, a generic verb's fields (an
/// unknown one is refused by name); an own verb's parameters are the body's other fields.
fn request_of(v: &Value) -> Result<quandary::request::Request, Answer> {
    let Some(puzzle) = v["puzzle"].as_str() else {
        let names: Vec<&str> = registry::PUZZLES.iter().map(|e| e.name()).collect();
        return Err(Answer::error(
            400,
            format!("give \"puzzle\": one of {}", names.join(", ")),
        ));
    };
    if !v["args"].is_null() {
        return Err(Answer::error(
            400,
            "\"args\" (the command line's words) is not read: send the options as \"options\": {\"flag\": value}",
        ));
    }
    let text = match &v["text"] {
        Value::Null => None,
        Value::String(t) => Some(t.clone()),
        _ => return Err(Answer::error(400, "\"text\" must be a string")),
    };
    let at_least = match &v["at_least"] {
        Value::Null => None,
        n => match n.as_i64() {
            Some(k) => Some(k),
            None => return Err(Answer::error(400, "at_least must be a whole number")),
        },
    };
    let cap = match &v["cap"] {
        Value::Null => None,
        n => match n.as_u64() {
            Some(k) => Some(k),
            None => {
                return Err(Answer::error(
                    400,
                    "cap must be a whole number of solutions, 1 or more, for count only",
                ))
            }
        },
    };
    let options = match &v["options"] {
        o @ (Value::Null | Value::Object(_)) => o.clone(),
        _ => return Err(Answer::error(400, "\"options\" must be an object")),
    };
    let mut req = quandary::request::Request {
        puzzle: puzzle.to_string(),
        verb: v["verb"].as_str().unwrap_or("solve").to_string(),
        words: words_of(v)?,
        text,
        disk: false,
        options,
        params: serde_json::Map::new(),
        at_least,
        cap,
    };
    let own = match quandary::request::query(&req) {
        Ok(query) => query.is_none() && req.verb != "model",
        Err(e) => return Err(Answer::error(400, e.to_string())),
    };
    if own {
        req.params = v
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| !offer::REQUEST_FIELDS.contains(&k.as_str()))
            .map(|(k, x)| (k.clone(), x.clone()))
            .collect();
    } else {
        known_fields(v, offer::REQUEST_FIELDS)?;
    }
    Ok(req)
}

/// A request's `words`: a list of strings, or none (400 for anything else).
fn words_of(v: &Value) -> Result<Vec<String>, Answer> {
    let bad = || Answer::error(400, "\"words\" must be a list of strings");
    match &v["words"] {
        Value::Null => Ok(Vec::new()),
        Value::Array(a) => a
            .iter()
            .map(|w| w.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// Refuses a request with a field outside `known` (a typo such as `time_limt` would
/// otherwise be ignored, and the run go on with the default).
fn known_fields(v: &Value, known: &[&str]) -> Result<(), Answer> {
    let Some(o) = v.as_object() else {
        return Err(Answer::error(400, "the request must be a JSON object"));
    };
    match o.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(Answer::error(
            400,
            format!("unknown field \"{k}\" (known: {})", known.join(", ")),
        )),
        None => Ok(()),
    }
}

/// The time limit a request asks for (`time_limit`), capped by `--max-time`.
fn time_limit(v: &Value, shared: &Shared) -> Result<Duration, Answer> {
    let max = shared.settings.max_time;
    let asked = match &v["time_limit"] {
        Value::Null => None,
        Value::Number(n) => n.as_f64(),
        other => {
            return Err(Answer::error(
                400,
                format!("time_limit must be a number of seconds, not {other}"),
            ))
        }
    };
    match asked {
        None => Ok(max),
        // Capped before it becomes a Duration (which cannot hold 1e300 seconds).
        Some(s) if s.is_finite() && s >= 0.0 => {
            Ok(Duration::from_secs_f64(s.min(max.as_secs_f64())))
        }
        Some(s) => Err(Answer::error(
            400,
            format!("time_limit {s} is not a number of seconds"),
        )),
    }
}

/// The model's size per family and its LP and OPB files (each up to [`MAX_MODEL_TEXT`]),
/// built within the run's limits like any other run.
fn model(req: &quandary::request::Request, limits: &Limits) -> Answer {
    let built = quandary::runner::bounded(limits, "building the model", || {
        let quandary::runner::registry::Built {
            title, model: m, ..
        } = quandary::request::with_input(req, |entry, words, files, options| {
            entry.model(words, files, options, Query::Count { cap: None })
        })?;
        let lp = lp::to_lp_within(&m, &title, MAX_MODEL_TEXT);
        let opb = opb::to_opb_within(&m, &title, MAX_MODEL_TEXT);
        Ok((title, m.size(), m.families(), lp, opb))
    });
    match built {
        Ok((title, size, families, lp, opb)) => {
            let families: Vec<Value> = families
                .iter()
                .map(|(f, k)| json!({"family": f, "rows": k}))
                .collect();
            let text = |t: Option<String>| {
                match t {
                Some(t) => json!(t),
                None => json!(format!(
                    "\\ over {MAX_MODEL_TEXT} bytes: larger than this server sends; write it with `quandary {} model ... --lp FILE`",
                    req.puzzle
                )),
            }
            };
            Answer::json(
                200,
                json!({"puzzle": req.puzzle, "verb": "model", "status": "solved",
                       "title": title, "stats": {"model": size, "seconds": limits.seconds()},
                       "families": families,
                       "lp": text(lp), "opb": text(opb)}),
            )
        }
        Err(e) => failed(e, req, limits),
    }
}

/// A run's error as the page's answer: a stopped run is an answer (status unknown, with its
/// own clock), an internal error a 500, any other a 400.
fn failed(e: Error, req: &quandary::request::Request, limits: &Limits) -> Answer {
    match quandary::request::answer(Err(e), req, Some(limits.seconds())) {
        Ok(stopped) => Answer::json(200, stopped.whole()),
        Err(e @ Error::Internal(_)) => Answer::error(500, e.to_string()),
        Err(e) => Answer::error(400, e.to_string()),
    }
}
