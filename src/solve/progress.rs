//! Progress of long runs, as a trait the library calls and a front end implements (the command
//! line draws a spinner; the page polls what a run reports). The library draws nothing itself.
//!
//! A sink belongs to one run: it travels in the run's [`Limits`](super::answer::Limits) into
//! every stage of the run ([`super::budget::guarded`]) and into the worker threads that enter a
//! stage, so that two runs at once (a server's) report each to its own. Code deep in a stage
//! calls [`phase`] and [`message`]; outside a stage of a run with a sink they do nothing.

use std::sync::Arc;

/// Receives what a running search is doing.
pub trait Progress: Send + Sync {
    /// A new phase began (e.g. "tank, D4-symmetric boards").
    fn phase(&self, name: &str);
    /// What the phase has done so far (e.g. "12 solutions").
    fn message(&self, text: &str);
    /// The run is over: clear whatever was drawn.
    fn finish(&self);
}

/// A run's sink, shared.
pub type Sink = Arc<dyn Progress>;

/// Reports the start of a phase to the current stage's run.
pub fn phase(name: &str) {
    super::budget::with_progress(|p| p.phase(name));
}

/// Reports what the current phase of the current stage's run has done.
pub fn message(text: &str) {
    super::budget::with_progress(|p| p.message(text));
}
