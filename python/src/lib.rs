//! `quandary._native`: the registry and the runner of the quandary library, for the Python
//! package (`python/quandary/__init__.py` builds the API on it). A front end like the command
//! line and the server: it names no puzzle and holds no puzzle logic; every answer is a
//! `Report` as `--json` prints it.
//!
//! A run goes on a thread of its own while the calling thread, detached from the interpreter
//! (the GIL released), waits for it and asks Python every 100 ms whether a signal came
//! (Ctrl-C, a notebook's stop button): then the run's cancel flag is raised, its partial
//! answer awaited (a stopped run answers within a fraction of a second) and handed back marked
//! as interrupted, for the Python side to raise `KeyboardInterrupt` with it.

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use quandary::guard::progress::Latest;
use quandary::runner::opened::OpenModel;
use quandary::runner::registry::{self, Entry};
use quandary::runner::{Limits, Query};
use quandary::Error;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

create_exception!(
    _native,
    InputError,
    PyValueError,
    "Bad input: a file, a word, a size or an option that cannot be a puzzle (the command line's exit status 2)."
);
create_exception!(
    _native,
    InternalError,
    PyRuntimeError,
    "A bug: a solver answer the independent verifier rejects (the command line's exit status 3). Please report it."
);

/// How often a waiting call asks Python whether a signal came.
const SIGNALS_EVERY: Duration = Duration::from_millis(100);

fn entry(puzzle: &str) -> PyResult<&'static dyn Entry> {
    registry::find(puzzle).ok_or_else(|| {
        let names: Vec<&str> = registry::PUZZLES.iter().map(|e| e.name()).collect();
        InputError::new_err(format!(
            "no puzzle '{puzzle}': the puzzles are {}",
            names.join(", ")
        ))
    })
}

fn to_py(e: Error) -> PyErr {
    match e {
        Error::Internal(_) => InternalError::new_err(e.to_string()),
        _ => InputError::new_err(e.to_string()),
    }
}

/// Every key a report may carry (the `--json` object's), from the report's own list.
#[pyfunction]
fn report_fields() -> Vec<&'static str> {
    quandary::runner::registry::FIELDS.to_vec()
}

/// The names of the puzzles.
#[pyfunction]
fn puzzles() -> Vec<&'static str> {
    registry::PUZZLES.iter().map(|e| e.name()).collect()
}

/// The verbs of a puzzle: the generic ones (those every puzzle's registry entry answers),
/// then its own ([`quandary::verbs`]).
#[pyfunction]
fn verbs(puzzle: &str) -> PyResult<Vec<&'static str>> {
    Ok(quandary::request::verbs(entry(puzzle)?))
}

/// An own verb's parameters: (name, kind, default, required, positional, help), for the
/// Python side's signatures and help.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn own_params(
    puzzle: &str,
    verb: &str,
) -> PyResult<
    Vec<(
        &'static str,
        &'static str,
        Option<&'static str>,
        bool,
        bool,
        &'static str,
    )>,
> {
    entry(puzzle)?;
    let v = quandary::verbs::find(puzzle, verb)
        .ok_or_else(|| InputError::new_err(format!("{puzzle} has no own verb '{verb}'")))?;
    Ok(v.params
        .iter()
        .map(|p| {
            let kind = match p.kind {
                quandary::verbs::Kind::Whole => "whole",
                quandary::verbs::Kind::Text => "text",
                quandary::verbs::Kind::Switch => "switch",
                quandary::verbs::Kind::Choice(_) => "choice",
                quandary::verbs::Kind::Texts => "texts",
            };
            (p.name, kind, p.default, p.required, p.positional, p.help)
        })
        .collect())
}

/// The values of a puzzle's `formulation` option (empty: it has one formulation).
#[pyfunction]
fn formulations(puzzle: &str) -> PyResult<Vec<&'static str>> {
    Ok(entry(puzzle)?.formulations().to_vec())
}

/// A puzzle's title, what it is, what its input words are, and its example words.
#[pyfunction]
fn describe(puzzle: &str) -> PyResult<(&'static str, &'static str, &'static str, Vec<String>)> {
    let e = entry(puzzle)?;
    Ok((
        e.title(),
        e.about(),
        e.input(),
        e.example().iter().map(|w| w.to_string()).collect(),
    ))
}

/// What a run hands back: the report as `--json` prints it, the text the command line prints,
/// its pictures (the answer, then a second solution where it shows one), the explanation's
/// step pictures, and whether a signal stopped it.
type Answer = (String, String, Vec<String>, Vec<String>, bool);

/// A call's input and options as a request: a `text` is the only input file (`input`, put
/// before the words), as the page's is; otherwise words name files on disk.
fn request(
    puzzle: &str,
    words: Vec<String>,
    text: Option<String>,
    options: serde_json::Value,
) -> quandary::request::Request {
    quandary::request::Request {
        puzzle: puzzle.to_string(),
        words,
        text,
        disk: true,
        options,
        ..Default::default()
    }
}

/// The options of a call, a JSON object of flag names (`{"formulation": "cell"}`).
fn options_value(options: Option<String>) -> PyResult<serde_json::Value> {
    match options {
        None => Ok(serde_json::Value::Null),
        Some(o) => serde_json::from_str(&o)
            .map_err(|e| InputError::new_err(format!("the options are not JSON: {e}"))),
    }
}

/// Runs `work` on a thread of its own with a fresh cancel flag and a progress record, the
/// calling thread detached from the interpreter and asking it for signals meanwhile (see the
/// module's note); what the run reports goes to `progress(stage, message)` as it comes (at
/// most every 100 ms). A `progress` that raises stops the run, and its exception is the call's.
fn detached<R: Send + 'static>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(Arc<AtomicBool>, quandary::guard::progress::Sink) -> R + Send + 'static,
) -> PyResult<(R, bool)> {
    let cancel = Arc::new(AtomicBool::new(false));
    let reported = Arc::new(Latest::default());
    let (tx, rx) = mpsc::channel();
    let flag = cancel.clone();
    let sink: quandary::guard::progress::Sink = reported.clone();
    std::thread::Builder::new()
        .name("quandary run".into())
        .spawn(move || {
            let _ = tx.send(work(flag, sink));
        })
        .map_err(|e| InternalError::new_err(format!("cannot start the run's thread: {e}")))?;
    let mut interrupted = false;
    let mut said = 0;
    let mut failed: Option<PyErr> = None;
    // The receiver goes into each detached wait and comes back (a closure that runs detached
    // may only hold what can be sent between threads).
    let mut rx = Some(rx);
    loop {
        let waiting = rx.take().expect("the receiver is back after each wait");
        let (got, back) = py.detach(move || (waiting.recv_timeout(SIGNALS_EVERY), waiting));
        rx = Some(back);
        if let (Some(callback), None) = (progress, &failed) {
            let now = reported.now();
            if now.2 != said {
                said = now.2;
                if let Err(e) = callback.call1((now.0, now.1)) {
                    cancel.store(true, Ordering::Relaxed);
                    failed = Some(e);
                }
            }
        }
        match got {
            Ok(answer) => {
                return match failed {
                    Some(e) => Err(e),
                    None => Ok((answer, interrupted)),
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if !interrupted && py.check_signals().is_err() {
                    interrupted = true;
                    cancel.store(true, Ordering::Relaxed);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(InternalError::new_err(
                    "the run ended without an answer (a panic in quandary: please report it)",
                ))
            }
        }
    }
}

/// Answers `verb` on the instance the words (or `text`) give, with the puzzle's `options`
/// (a JSON object; for an own verb, its parameters and the puzzle's options together), within
/// `time_limit` seconds: a [`quandary::request::Request`] run as the page runs it. See
/// `quandary.run`.
#[pyfunction]
#[pyo3(signature = (puzzle, verb, words, text=None, options=None, time_limit=None, at_least=None, progress=None, cap=None))]
#[allow(clippy::too_many_arguments)] // the Python call's own arguments, one each
fn run(
    py: Python<'_>,
    puzzle: &str,
    verb: &str,
    words: Vec<String>,
    text: Option<String>,
    options: Option<String>,
    time_limit: Option<f64>,
    at_least: Option<i64>,
    progress: Option<Bound<'_, PyAny>>,
    cap: Option<u64>,
) -> PyResult<Answer> {
    entry(puzzle)?;
    if verb == "model" {
        return Err(InputError::new_err(
            "model is quandary.model(puzzle, *words, **options)",
        ));
    }
    let mut req = quandary::request::Request {
        verb: verb.to_string(),
        at_least,
        cap,
        ..request(puzzle, words, text, options_value(options)?)
    };
    // An own verb's keywords are its parameters, and the puzzle's options where it takes them.
    if quandary::request::query(&req).map_err(to_py)?.is_none() {
        if let serde_json::Value::Object(o) = std::mem::take(&mut req.options) {
            req.params = o;
        }
    }
    let limit = quandary::solve::limits::time_limit(time_limit).map_err(to_py)?;
    let (result, interrupted) = detached(py, progress.as_ref(), move |cancel, sink| {
        let limits = limits_of(limit, cancel, sink);
        let result = quandary::request::run(&req, &limits);
        quandary::request::answer(result, &req, Some(limits.seconds()))
    })?;
    answered(result, interrupted)
}

/// What a run hands back to Python: its answer (a report, or a stopped run's own object) as
/// JSON, its text, its pictures and an explanation's step pictures, and whether Ctrl-C
/// stopped it.
fn answered(
    a: quandary::error::Result<quandary::request::Answer>,
    interrupted: bool,
) -> PyResult<Answer> {
    let a = a.map_err(to_py)?;
    let pictures = a.svg.into_iter().chain(a.other_svg).collect();
    Ok((a.json.to_string(), a.text, pictures, a.steps, interrupted))
}

/// The limits of a run from Python: its time limit, the cancel flag Ctrl-C raises, the
/// progress record, and the memory limit held to the process's resident size.
fn limits_of(
    limit: Option<Duration>,
    cancel: Arc<AtomicBool>,
    sink: quandary::guard::progress::Sink,
) -> Limits {
    Limits::new(limit)
        .with_cancel(cancel)
        .with_progress(Some(sink))
        .with_resident_cap(quandary::guard::memory_limit())
}

/// An instance's 0-1 program, opened: built as `quandary PUZZLE model` builds it (for `count`,
/// or with `symmetry_breaking` for `solve`, whose rows it adds), then read, changed and solved
/// as changed (`quandary::runner::opened`). See `quandary.Model`.
#[pyfunction]
#[pyo3(signature = (puzzle, words, text=None, options=None, symmetry_breaking=false, time_limit=None, progress=None))]
#[allow(clippy::too_many_arguments)] // the Python call's own arguments, one each
fn open_model(
    py: Python<'_>,
    puzzle: &str,
    words: Vec<String>,
    text: Option<String>,
    options: Option<String>,
    symmetry_breaking: bool,
    time_limit: Option<f64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<OpenedModel> {
    let e = entry(puzzle)?;
    let options = options_value(options)?;
    let query = if symmetry_breaking {
        e.solve_query()
    } else {
        Query::Count { cap: None }
    };
    let req = request(puzzle, words, text, options);
    let limit = quandary::solve::limits::time_limit(time_limit).map_err(to_py)?;
    let (result, interrupted) = detached(py, progress.as_ref(), move |cancel, sink| {
        let limits = limits_of(limit, cancel, sink);
        quandary::runner::bounded(&limits, "building the model", || {
            quandary::request::with_input(&req, |e, words, files, options| {
                e.open(words, files, options, query)
            })
        })
    })?;
    if interrupted {
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            "stopped while building the model",
        ));
    }
    let opened = result.map_err(to_py)?;
    Ok(OpenedModel {
        puzzle: e.name(),
        inner: Arc::new(Mutex::new(opened)),
    })
}

/// A model opened by `open_model`: read (records, files, sizes), changed (`apply` a change as
/// JSON, `reset`), and solved as changed (`run`), each answer judged by the puzzle's verifier.
#[pyclass(module = "quandary._native")]
struct OpenedModel {
    puzzle: &'static str,
    inner: Arc<Mutex<Box<dyn OpenModel>>>,
}

impl OpenedModel {
    fn with<R>(&self, f: impl FnOnce(&mut Box<dyn OpenModel>) -> R) -> R {
        let mut m = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut m)
    }
}

#[pymethods]
impl OpenedModel {
    /// The instance and the formulation.
    fn title(&self) -> String {
        self.with(|m| m.title().to_string())
    }

    /// Rows per constraint family, in the order the model first uses them.
    fn families(&self) -> Vec<(String, usize)> {
        self.with(|m| {
            m.model()
                .families()
                .into_iter()
                .map(|(f, k)| (f.to_string(), k))
                .collect()
        })
    }

    /// Variables, constraints and nonzeros.
    fn size(&self) -> (usize, usize, usize) {
        self.with(|m| {
            let s = m.model().size();
            (s.variables, s.constraints, s.nonzeros)
        })
    }

    /// The variables with their meanings, the rows and the objective (JSON:
    /// `quandary::model::records`).
    fn records(&self) -> String {
        self.with(|m| quandary::model::records::records(m.model(), m.meanings()).to_string())
    }

    /// Each family in algebra, read off its rows (JSON: `quandary::model::algebra`).
    fn algebra(&self) -> String {
        self.with(|m| {
            serde_json::to_string(&quandary::model::algebra::families(m.model()))
                .unwrap_or_default()
        })
    }

    /// The model as changed, as a file: "lp", "opb" or "mps".
    fn file(&self, format: &str) -> PyResult<String> {
        self.with(|m| {
            let (model, title) = (m.model(), m.title());
            match format {
                "lp" => Ok(quandary::model::lp::to_lp(model, title)),
                "opb" => Ok(quandary::model::opb::to_opb(model, title)),
                "mps" => Ok(quandary::model::mps::to_mps(model, title)),
                other => Err(InputError::new_err(format!(
                    "a model is written as lp, opb or mps, not {other}"
                ))),
            }
        })
    }

    /// Makes one change (JSON: `quandary::model::change::Change`), or raises InputError
    /// naming what is wrong (the model unchanged).
    fn apply(&self, change: &str) -> PyResult<()> {
        let change: quandary::model::change::Change = serde_json::from_str(change)
            .map_err(|e| InputError::new_err(format!("a change: {e}")))?;
        self.with(|m| m.apply(change)).map_err(to_py)
    }

    /// Back to the model as built.
    fn reset(&self) {
        self.with(|m| m.reset())
    }

    /// The changes made, in order: each as JSON, and in words.
    fn changes(&self) -> Vec<(String, String)> {
        self.with(|m| {
            m.changes()
                .iter()
                .map(|c| (serde_json::to_string(c).unwrap_or_default(), c.describe()))
                .collect()
        })
    }

    /// `verb` (solve, count, unique, optimum) on the model as changed, within `time_limit`
    /// seconds; the answer as `run` gives it.
    #[pyo3(signature = (verb, time_limit=None, progress=None, cap=None))]
    fn run(
        &self,
        py: Python<'_>,
        verb: &str,
        time_limit: Option<f64>,
        progress: Option<Bound<'_, PyAny>>,
        cap: Option<u64>,
    ) -> PyResult<Answer> {
        let req = quandary::request::Request {
            puzzle: self.puzzle.to_string(),
            verb: verb.to_string(),
            cap,
            ..Default::default()
        };
        let query = quandary::request::query(&req)
            .map_err(to_py)?
            .ok_or_else(|| {
                InputError::new_err(format!(
                    "a changed model answers solve, count, unique and optimum, not {verb}"
                ))
            })?;
        let limit = quandary::solve::limits::time_limit(time_limit).map_err(to_py)?;
        let inner = self.inner.clone();
        let (result, interrupted) = detached(py, progress.as_ref(), move |cancel, sink| {
            let limits = limits_of(limit, cancel, sink);
            let m = inner.lock().unwrap_or_else(|e| e.into_inner());
            let result = m.run(query, &limits);
            quandary::request::answer(result, &req, Some(limits.seconds()))
        })?;
        answered(result, interrupted)
    }

    /// Another solver's answer judged: `values` gives each variable (by index) 0 or 1; the
    /// answer as `run` gives it, with `verified` and `violations`.
    fn judge(&self, values: Vec<bool>) -> PyResult<Answer> {
        let result = self.with(|m| m.judge(&values));
        let req = quandary::request::Request {
            puzzle: self.puzzle.to_string(),
            verb: "judge".to_string(),
            ..Default::default()
        };
        answered(quandary::request::answer(result, &req, None), false)
    }

    /// The LP relaxation of the model as changed (HiGHS): a JSON object as `model --relax
    /// --json` gives under `relaxation`. A wheel built without the MIP backend raises
    /// InputError saying how to build one.
    #[pyo3(signature = (time_limit=None))]
    fn relax(&self, py: Python<'_>, time_limit: Option<f64>) -> PyResult<String> {
        let limit = quandary::solve::limits::time_limit(time_limit).map_err(to_py)?;
        let inner = self.inner.clone();
        let (result, interrupted) = detached(py, None, move |cancel, sink| {
            let limits = limits_of(limit, cancel, sink);
            let m = inner.lock().unwrap_or_else(|e| e.into_inner());
            let r = m.relax(limits.deadline)?;
            serde_json::to_string(&r).map_err(|e| Error::Internal(format!("the relaxation: {e}")))
        })?;
        if interrupted {
            return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
                "stopped while relaxing the model",
            ));
        }
        result.map_err(to_py)
    }
}

/// The instance drawn for editing (`Puzzle::sketch`): its title, SVG, number fields (JSON) and
/// help; with `edit` (place, value), that change made first and written back as input, whose
/// words, text and changed options (JSON) come back too, read again by the puzzle's reader.
#[pyfunction]
#[pyo3(signature = (puzzle, words, text=None, options=None, edit=None))]
#[allow(clippy::type_complexity)] // the Python call's answer, one tuple
fn board(
    puzzle: &str,
    words: Vec<String>,
    text: Option<String>,
    options: Option<String>,
    edit: Option<(String, String)>,
) -> PyResult<(
    String,
    String,
    String,
    String,
    Vec<String>,
    Option<String>,
    String,
)> {
    let e = entry(puzzle)?;
    let mut req = request(puzzle, words, text, options_value(options)?);
    let edit = edit
        .as_ref()
        .map(|(at, value)| (at.as_str(), value.as_str()));
    let quandary::request::Drawn { title, sketch, set } = quandary::request::board(&mut req, edit)
        .map_err(to_py)?
        .ok_or_else(|| {
            InputError::new_err(format!(
                "no board to draw for editing: this {} input has none, or more than {} places",
                e.title(),
                quandary::puzzles::sketch::MOST_PLACES
            ))
        })?;
    let fields = serde_json::to_string(&sketch.fields).unwrap_or_default();
    Ok((
        title,
        sketch.svg,
        fields,
        sketch.help,
        req.words,
        req.text,
        serde_json::Value::Object(set).to_string(),
    ))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(report_fields, m)?)?;
    m.add_function(wrap_pyfunction!(verbs, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add_function(wrap_pyfunction!(formulations, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(open_model, m)?)?;
    m.add_class::<OpenedModel>()?;
    m.add_function(wrap_pyfunction!(own_params, m)?)?;
    m.add_function(wrap_pyfunction!(board, m)?)?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("InternalError", m.py().get_type::<InternalError>())?;
    Ok(())
}
