//! Progress of long runs, as a trait the library calls and a front end implements (the command
//! line draws a spinner; a web page could stream it). The library draws nothing itself.
//!
//! One sink serves the whole process: [`install`] it once; until then reports go nowhere.

use std::sync::{Arc, OnceLock, RwLock};

/// Receives what a running search is doing.
pub trait Progress: Send + Sync {
    /// A new phase began (e.g. "tank, D4-symmetric boards").
    fn phase(&self, name: &str);
    /// What the phase has done so far (e.g. "12 solutions").
    fn message(&self, text: &str);
    /// The run is over: clear whatever was drawn.
    fn finish(&self);
}

fn sink() -> &'static RwLock<Option<Arc<dyn Progress>>> {
    static SINK: OnceLock<RwLock<Option<Arc<dyn Progress>>>> = OnceLock::new();
    SINK.get_or_init(|| RwLock::new(None))
}

/// Sends every later report to `progress`.
pub fn install(progress: Arc<dyn Progress>) {
    if let Ok(mut s) = sink().write() {
        *s = Some(progress);
    }
}

fn with(f: impl FnOnce(&dyn Progress)) {
    if let Ok(s) = sink().read() {
        if let Some(p) = s.as_ref() {
            f(p.as_ref());
        }
    }
}

/// Reports the start of a phase.
pub fn phase(name: &str) {
    with(|p| p.phase(name));
}

/// Reports what the current phase has done.
pub fn message(text: &str) {
    with(|p| p.message(text));
}

/// Reports the end of the run.
pub fn finish() {
    with(|p| p.finish());
}
