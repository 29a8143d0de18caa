//! The vocabulary of questions and answers, shared by the runner, the puzzles and every front
//! end: what is asked ([`Query`]) under which [`Limits`], and what an answer established
//! ([`Facts`], [`Outcome`]), including forced decisions and results that hold only in a
//! restricted part of the space ([`InScope`]).

use super::search::Status;
use super::EngineSize;
use crate::model::Size;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where a decision variable sits on the board, for drawing partial boards (forced cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Place {
    /// Row and column of a rectangular grid, from 0.
    Cell(usize, usize),
    /// Axial coordinates of a hex cell.
    Hex(i32, i32),
}

/// What a decision variable means, in the puzzle's words: "at `place`, `says`" when true.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Meaning {
    pub place: Place,
    pub says: String,
    /// What it says when false, if that is worth showing (e.g. "water").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub otherwise: Option<String>,
}

impl Meaning {
    /// "At `place`, `says`" when true; nothing worth showing when false.
    pub fn at(place: Place, says: impl Into<String>) -> Meaning {
        Meaning {
            place,
            says: says.into(),
            otherwise: None,
        }
    }
}

/// What is asked of a puzzle instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Query {
    /// One solution, or a proof that there is none.
    First,
    /// The best solution by the puzzle's objective, with a proof.
    Optimum,
    /// A solution worth at least this much (at most, for a minimised objective), or a proof
    /// that there is none.
    AtLeast(i64),
    /// Every solution (every optimal one, where there is an objective).
    Count,
    /// Is there exactly one solution (optimal one)? A second one is shown if not.
    Unique,
    /// The decisions that take the same value in every solution (optimal one).
    Forced,
}

impl Query {
    /// The verb that asks it on the command line.
    pub fn verb(self) -> &'static str {
        match self {
            Query::First => "solve",
            Query::Optimum => "optimum",
            Query::AtLeast(_) => "reach",
            Query::Count => "count",
            Query::Unique => "unique",
            Query::Forced => "forced",
        }
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
    /// The engine of the full model.
    pub engine: super::Engine,
    /// Where the run reports its progress (none: it reports nowhere).
    pub progress: Option<crate::guard::progress::Sink>,
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
            engine: super::Engine::Sat,
            progress: None,
            recorder: None,
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

    /// The same run, allowed `bytes` of memory.
    pub fn with_memory(mut self, bytes: u64) -> Limits {
        self.memory = Some(bytes);
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
            progress: self.progress.clone(),
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

/// How an answer was obtained.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    pub method: String,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<Size>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineSize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solver_calls: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lazy_rounds: Option<u64>,
    /// What the MIP backend reports (`--backend highs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mip: Option<super::MipStats>,
    /// Restricted phases tried before the answer, with how each ended.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<String>,
}

/// A decision that takes the same value in every solution.
#[derive(Clone, Debug, Serialize)]
pub struct Forced {
    #[serde(flatten)]
    pub meaning: Meaning,
    /// The value it is forced to: true ("at place, says") or false ("at place, not says").
    pub value: bool,
}

/// The forced decisions, and how far the search for them got.
#[derive(Clone, Debug, Serialize)]
pub struct ForcedSet {
    /// Decisions proved to be forced.
    pub forced: Vec<Forced>,
    /// Places where every decision is forced false (nothing goes there).
    pub empty: Vec<Place>,
    /// Every place a decision refers to.
    #[serde(skip)]
    pub places: Vec<Place>,
    /// Rows and columns of a square-cell board (none for hex boards).
    #[serde(skip)]
    pub extent: Option<(usize, usize)>,
    /// Decisions not yet decided when a limit stopped the search (0 when complete).
    pub undecided: usize,
    /// Decisions in all.
    pub decisions: usize,
}

/// What a restricted search established inside its part of the space only.
#[derive(Clone, Debug, Serialize)]
pub struct InScope {
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced: Option<ForcedSet>,
}

/// What an answer established, the same fields for every puzzle (reports print them as JSON).
/// Fields without a scope hold for the whole space: a result obtained in a restricted part of
/// it is in `in_scope`, never in `status`, `count` or `unique`.
#[derive(Clone, Debug, Serialize)]
pub struct Facts {
    #[serde(skip)]
    pub query: Query,
    /// `solved`, `optimal`, `infeasible`, or `unknown` (a limit stopped it).
    pub status: Status,
    /// The part of the space the user restricted the search to, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_scope: Option<InScope>,
    /// The cube the search was restricted to (cube-and-conquer), with what combining needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube: Option<super::cubes::CubeFacts>,
    /// The number of solutions, when counted to the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u128>,
    /// Solutions seen when a limit stopped a count (a lower bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count_at_least: Option<u128>,
    /// With a count up to symmetry: the symmetry classes among the solutions counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classes: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    /// The objective (puzzle's terms) of the first solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<i64>,
    /// A proved bound on the objective (equal to it when optimal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<i64>,
    /// The verifier's summary of the first solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced: Option<ForcedSet>,
    /// Figures particular to a method or verb.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
    pub stats: Stats,
}

impl Facts {
    /// Nothing established yet but the status.
    pub fn new(query: Query, status: Status) -> Facts {
        Facts {
            query,
            status,
            scope: None,
            in_scope: None,
            cube: None,
            count: None,
            count_at_least: None,
            classes: None,
            unique: None,
            objective: None,
            bound: None,
            summary: None,
            forced: None,
            details: None,
            stats: Stats::default(),
        }
    }

    /// Whether the query was answered (in its scope): false when a limit stopped it.
    pub fn answered(&self) -> bool {
        match &self.in_scope {
            Some(s) => s.status != Status::Unknown,
            None => self.status != Status::Unknown,
        }
    }
}

/// The answer to a query: its facts, and the verified solutions (the first, and for
/// `Unique` a second one when there is one).
#[derive(Clone, Debug)]
pub struct Outcome<S> {
    pub facts: Facts,
    pub solutions: Vec<S>,
}

impl<S> Outcome<S> {
    pub(crate) fn new(query: Query, status: Status) -> Self {
        Outcome {
            facts: Facts::new(query, status),
            solutions: Vec::new(),
        }
    }
}

impl<S> std::ops::Deref for Outcome<S> {
    type Target = Facts;
    fn deref(&self) -> &Facts {
        &self.facts
    }
}

impl<S> std::ops::DerefMut for Outcome<S> {
    fn deref_mut(&mut self) -> &mut Facts {
        &mut self.facts
    }
}
