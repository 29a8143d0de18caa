//! The runs the server has going: the search slots (at most `max_runs` at once, 503 past
//! them), the drawing slots, and the runs listed by id for `GET /api/progress` and
//! `POST /api/stop`.

use super::answer::Answer;
use super::gate::query_value;
use super::{time_limit, Shared};
use quandary::guard::progress::{Latest, Progress};
use quandary::runner::Limits;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// One of the `max_runs` places for a search, held while it runs.
pub(super) struct Slot<'a>(&'a AtomicUsize);

impl<'a> Slot<'a> {
    /// A search slot, or the 503 answer when every slot is taken (never queued).
    fn take(shared: &'a Shared) -> Result<Slot<'a>, Answer> {
        Slot::of(&shared.running, shared.settings.max_runs, || {
            format!(
                "{} searches are running, as many as this server runs at once; try again shortly",
                shared.settings.max_runs
            )
        })
    }
    /// A slot for drawing a board (`/api/board`): as many as search slots, apart from them
    /// (a board is redrawn while its question runs), or 503 at once.
    pub(super) fn drawing(shared: &'a Shared) -> Result<Slot<'a>, Answer> {
        Slot::of(&shared.drawing, shared.settings.max_runs, || {
            format!(
                "{} boards are being drawn, as many as this server draws at once; try again shortly",
                shared.settings.max_runs
            )
        })
    }
    fn of(
        taken: &'a AtomicUsize,
        most: usize,
        busy: impl Fn() -> String,
    ) -> Result<Slot<'a>, Answer> {
        if taken.fetch_add(1, Ordering::SeqCst) >= most {
            taken.fetch_sub(1, Ordering::SeqCst);
            return Err(Answer::error(503, busy()));
        }
        Ok(Slot(taken))
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A run in progress: what stops it, when it started and what it reports (for
/// `/api/progress`: the same words the command line's spinner shows).
#[derive(Clone)]
pub(super) struct Going {
    cancel: Arc<AtomicBool>,
    started: std::time::Instant,
    progress: Arc<Latest>,
}

/// Lists a request's run under its `id`, if it gives one, for `/api/progress` and
/// `/api/stop` (409 if a run with that id is going); where the run reports its progress.
fn list<'a>(
    v: &Value,
    shared: &'a Shared,
    cancel: &Arc<AtomicBool>,
) -> Result<(Option<Listed<'a>>, Arc<Latest>), Answer> {
    let reported = Arc::new(Latest::default());
    reported.phase("starting");
    let going = Going {
        cancel: cancel.clone(),
        started: std::time::Instant::now(),
        progress: reported.clone(),
    };
    match v["id"].as_str().map(|id| Listed::new(shared, id, going)) {
        Some(None) => Err(Answer::error(
            409,
            "a run with that id is going; give each run its own id",
        )),
        Some(Some(listed)) => Ok((Some(listed), reported)),
        None => Ok((None, reported)),
    }
}

/// A run listed under its id while it runs, for `/api/stop` and `/api/progress`.
pub(super) struct Listed<'a> {
    shared: &'a Shared,
    id: String,
}

impl<'a> Listed<'a> {
    /// Lists the run; `None` if a run with that id is going.
    fn new(shared: &'a Shared, id: &str, going: Going) -> Option<Listed<'a>> {
        let mut runs = shared.runs.lock().ok()?;
        if runs.contains_key(id) {
            return None;
        }
        runs.insert(id.to_string(), going);
        Some(Listed {
            shared,
            id: id.to_string(),
        })
    }
}

impl Drop for Listed<'_> {
    fn drop(&mut self) {
        if let Ok(mut runs) = self.shared.runs.lock() {
            runs.remove(&self.id);
        }
    }
}

/// `GET /api/progress?id=ID`: what the run with that id reports now: its stage, its last
/// message, the seconds since it started; `"going": false` when no such run is going.
pub(super) fn progress(query: &str, shared: &Shared) -> Answer {
    let id = query_value(query, "id");
    let going = shared.runs.lock().ok().and_then(|r| r.get(id).cloned());
    match going {
        Some(g) => {
            let (stage, message, _) = g.progress.now();
            Answer::json(
                200,
                json!({"going": true, "stage": stage, "message": message,
                       "seconds": g.started.elapsed().as_secs_f64()}),
            )
        }
        None => Answer::json(200, json!({"going": false})),
    }
}

/// `POST /api/stop`: `{"id"}` raises that run's cancel flag.
pub(super) fn stop(v: &Value, shared: &Shared) -> Answer {
    let Some(id) = v["id"].as_str() else {
        return Answer::error(400, "give the \"id\" of the run to stop");
    };
    let going = shared.runs.lock().ok().and_then(|r| r.get(id).cloned());
    match going {
        Some(g) => {
            g.cancel.store(true, Ordering::Relaxed);
            Answer::json(200, json!({"stopped": true}))
        }
        None => Answer::json(
            200,
            json!({"stopped": false, "why": "no run with that id is going"}),
        ),
    }
}

/// A search request, started: its slot (503 at once when every one is taken, given back
/// however the run ends), its listing under its id (409 for an id already going), and its
/// limits: the request's time limit within the server's, its stop flag, a slot's share of the
/// memory, the server's whole limit on the resident size, and its progress record.
pub(super) struct Started<'a> {
    _slot: Slot<'a>,
    _listed: Option<Listed<'a>>,
    pub(super) limits: Limits,
}

pub(super) fn start<'a>(
    v: &Value,
    shared: &'a Shared,
    cancel: Arc<AtomicBool>,
) -> Result<Started<'a>, Answer> {
    let limit = time_limit(v, shared)?;
    let slot = Slot::take(shared)?;
    let (listed, reported) = list(v, shared, &cancel)?;
    let limits = Limits::new(Some(limit))
        .with_cancel(cancel)
        .with_memory(shared.memory_per_run)
        .with_resident_cap(shared.memory_limit)
        .with_progress(Some(reported));
    Ok(Started {
        _slot: slot,
        _listed: listed,
        limits,
    })
}
