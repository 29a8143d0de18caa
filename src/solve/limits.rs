//! What steers one run ([`Limits`]), passed to it and to everything it calls, and
//! [`bounded`], which runs a piece of work within them.

use crate::error::{Error, Result};
use crate::guard::{self, Interrupt};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A `--time-limit` value, checked: seconds, 0 or more; a limit longer than the clock can
/// hold (1e300 s) is no limit. The one reading of it, for every front end and verb.
pub fn time_limit(seconds: Option<f64>) -> Result<Option<Duration>> {
    match seconds {
        None => Ok(None),
        Some(s) if s.is_finite() && s >= 0.0 => Ok(Duration::try_from_secs_f64(s).ok()),
        Some(s) => Err(Error::input(format!(
            "--time-limit {s} is not a number of seconds (give 0 or more)"
        ))),
    }
}

/// What steers one run, passed to it and to nothing else: one deadline for the whole run
/// (model building included), the flag a stop request raises, the memory it may build, and
/// the engine its full model is solved on.
#[derive(Clone)]
pub struct Limits {
    pub started: Instant,
    pub deadline: Option<Instant>,
    /// Raised from any thread (a server's stop request) to stop the run.
    pub cancel: Option<Arc<AtomicBool>>,
    /// The bytes the run may build; `None`: [`crate::guard::memory_limit`].
    pub memory: Option<u64>,
    /// The process's resident size past which the run stops while it builds
    /// ([`crate::guard::Bounds::resident`]); `None`: not read.
    pub resident: Option<u64>,
    /// The engine of the full model.
    pub engine: super::Engine,
    /// Where the run reports its progress (none: it reports nowhere).
    pub progress: Option<crate::guard::progress::Sink>,
    /// Whether large engines a limit stopped are left to the process's exit
    /// ([`crate::guard::Bounds::leave_to_exit`]).
    pub leave_to_exit: bool,
    /// Where the run writes certificates of its refutations (`--proof`); a recorded run
    /// solves the full model alone, on the SAT backend.
    pub recorder: Option<super::proof::Shared>,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("deadline", &self.deadline)
            .field("cancel", &self.cancel)
            .field("memory", &self.memory)
            .field("engine", &self.engine)
            .field("progress", &self.progress.is_some())
            .field("recorded", &self.recorder.is_some())
            .finish()
    }
}

impl Limits {
    /// A run starting now that must end within `time_limit`, if given.
    pub fn new(time_limit: Option<Duration>) -> Limits {
        let started = Instant::now();
        Limits {
            started,
            // A limit past what the clock can hold is no limit.
            deadline: time_limit.and_then(|t| started.checked_add(t)),
            cancel: None,
            memory: None,
            resident: None,
            engine: super::Engine::Sat,
            progress: None,
            recorder: None,
            leave_to_exit: false,
        }
    }

    /// A run with no limit.
    pub fn none() -> Limits {
        Limits::new(None)
    }

    /// The same run, stopped when `flag` is raised.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Limits {
        self.cancel = Some(flag);
        self
    }

    /// The bytes this run may build: its own limit, else the process's
    /// ([`crate::guard::memory_limit`]).
    pub fn memory_bytes(&self) -> u64 {
        self.memory.unwrap_or_else(crate::guard::memory_limit)
    }

    /// The same run, allowed `bytes` of memory.
    pub fn with_memory(mut self, bytes: u64) -> Limits {
        self.memory = Some(bytes);
        self
    }

    /// The same run, stopped while it builds if the process's resident size passes `bytes`.
    pub fn with_resident_cap(mut self, bytes: u64) -> Limits {
        self.resident = Some(bytes);
        self
    }

    /// The same run, reporting its progress to `sink`.
    pub fn with_progress(mut self, sink: Option<crate::guard::progress::Sink>) -> Limits {
        self.progress = sink;
        self
    }

    /// The same run, recorded: every refutation it reaches is certified into `recorder`.
    pub fn recording(mut self, recorder: super::proof::Shared) -> Limits {
        self.recorder = Some(recorder);
        self
    }

    /// Reports the start of a phase of this run.
    pub fn phase(&self, name: &str) {
        if let Some(p) = &self.progress {
            p.phase(name);
        }
    }

    /// Reports that this run is over.
    pub fn finish(&self) {
        if let Some(p) = &self.progress {
            p.finish();
        }
    }

    /// The same run, in a process that ends after it: stopped engines are left to the exit.
    pub fn ending_the_process(mut self) -> Limits {
        self.leave_to_exit = true;
        self
    }

    /// The same run, its full model on `engine`.
    pub fn on(mut self, engine: super::Engine) -> Limits {
        self.engine = engine;
        self
    }

    /// The same run with an earlier deadline (a phase's share of the time).
    pub fn until(&self, deadline: Option<Instant>) -> Limits {
        Limits {
            deadline,
            ..self.clone()
        }
    }

    /// What a guarded stage of this run is held to ([`crate::guard::guarded`]).
    pub fn bounds(&self) -> crate::guard::Bounds {
        crate::guard::Bounds {
            deadline: self.deadline,
            cancel: self.cancel.clone(),
            memory: self.memory,
            resident: self.resident,
            progress: self.progress.clone(),
            leave_to_exit: self.leave_to_exit,
        }
    }

    /// The time left, if there is a limit.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Whether a stop request was made.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Whether the deadline has passed or the run was cancelled.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || self.cancelled()
    }

    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}

/// Runs work that is not a [`run`](crate::runner::run) (a setter's verb, a sweep) under the run's deadline and
/// the memory limit: stopped by the deadline, it is [`Error::Stopped`] (exit status 1,
/// naming `what`); over the memory limit, the [`too_large`] error.
pub fn bounded<R>(limits: &Limits, what: &str, work: impl FnOnce() -> Result<R>) -> Result<R> {
    match guard::guarded(&limits.bounds(), work) {
        Ok(r) => r,
        Err(Interrupt::Deadline) => Err(Error::Stopped(format!(
            "the time limit stopped {what} before it had an answer"
        ))),
        Err(Interrupt::Cancelled) => Err(Error::Stopped(format!(
            "a stop request stopped {what} before it had an answer"
        ))),
        Err(Interrupt::Memory { estimate, limit }) => Err(too_large(estimate, limit)),
        Err(Interrupt::Resident { resident, limit }) => Err(too_large_resident(resident, limit)),
    }
}

/// The error for a run whose process passed its resident cap while building: the estimate of
/// what it built was lower than what it took.
pub fn too_large_resident(resident: u64, limit: u64) -> Error {
    let source = guard::memory_limit_and_source().1;
    Error::input(format!(
        "this instance is too large: the process reached {} resident (what it built and what its search learned, more than estimated), over the {} it may use ({source}); try a smaller size or another formulation",
        guard::bytes_in_words(resident),
        guard::bytes_in_words(limit)
    ))
}

/// The error for a model that would not fit in memory.
pub fn too_large(estimate: u64, limit: u64) -> Error {
    let passed = estimate > limit;
    let (estimate, limit, source) = (
        guard::bytes_in_words(estimate),
        guard::bytes_in_words(limit),
        guard::memory_limit_and_source().1,
    );
    let what = if passed {
        format!("what it built (model, clauses, an exact method's tables) passed an estimated {estimate}, over the {limit} this run may use")
    } else {
        format!("an allocation failed while its model was built (estimated {estimate} so far; this run may use {limit})")
    };
    let source = if std::env::var_os("QUANDARY_MEMORY_MB").is_some() {
        source.to_string()
    } else {
        format!("{source}; the environment variable QUANDARY_MEMORY_MB sets the limit")
    };
    Error::input(format!(
        "this instance is too large: {what} ({source}); try a smaller size or another formulation"
    ))
}
