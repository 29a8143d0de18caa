//! The engine's stop callback: when CaDiCaL asks whether to stop (the deadline, a raised
//! flag, the resident cap), and the pauses it allows for.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// CaDiCaL asks this, from time to time, whether to stop: at the deadline, or when another
/// engine raised the shared flag (a portfolio's race is won).
///
/// Some of CaDiCaL's steps never ask: garbage collection after a reduction, compacting its
/// variables, taking in a watcher's clauses. On a formula of a million clauses one such pause
/// lasts from 0.15 to 0.8 s (Tank Attack 40x40, `count` or `solve`), so a solve asked to stop
/// at the deadline could end that long after it. The engine therefore stops early, by twice the
/// longest pause it has shown so far (the longest time between two of its questions within
/// one solve): there, collecting and taking in clauses pause for 0.15 to 0.45 s, and
/// compacting, which also collects, for 0.65 to 0.8 s.
pub(super) struct Deadline {
    at: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    /// The run's cancel flag (the stage's, [`crate::guard::cancel_flag`]), taken when the engine is built.
    cancel: Option<Arc<AtomicBool>>,
    pauses: Arc<Pauses>,
    /// The solve and the instant of the last question.
    last: Option<(u64, Instant)>,
    /// When the process's resident size was last read.
    looked: Option<Instant>,
}

/// How often a search reads the process's resident size (against the run's cap).
const RESIDENT_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// The engine's pauses, shared by the backend (which counts its solves) and its [`Deadline`].
#[derive(Default)]
pub(super) struct Pauses {
    /// How many solves began: a question of a new solve starts a new measure.
    pub(super) solves: AtomicU64,
    /// The longest pause seen, in nanoseconds.
    pub(super) longest: AtomicU64,
}

impl Pauses {
    pub(super) fn longest(&self) -> Duration {
        Duration::from_nanos(self.longest.load(Ordering::Relaxed))
    }
}

impl Deadline {
    pub(super) fn new(
        at: Option<Instant>,
        stop: Option<Arc<AtomicBool>>,
        cancel: Option<Arc<AtomicBool>>,
        pauses: Arc<Pauses>,
    ) -> Deadline {
        Deadline {
            at,
            stop,
            cancel,
            pauses,
            last: None,
            looked: None,
        }
    }

    fn reached(&mut self) -> bool {
        let raised = |flag: &Option<Arc<AtomicBool>>| {
            flag.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
        };
        if raised(&self.stop) || raised(&self.cancel) {
            return true;
        }
        // The engine's own growth (learned clauses) is charged to no one: the process's
        // resident size is read every quarter of a second.
        let now = Instant::now();
        if self
            .looked
            .is_none_or(|t| now.saturating_duration_since(t) >= RESIDENT_EVERY)
        {
            self.looked = Some(now);
            if crate::guard::resident_over() {
                return true;
            }
        }
        let Some(at) = self.at else {
            return false;
        };
        let now = Instant::now();
        let solve = self.pauses.solves.load(Ordering::Relaxed);
        if let Some((s, then)) = self.last {
            if s == solve {
                let pause = now.saturating_duration_since(then).as_nanos();
                let pause = u64::try_from(pause).unwrap_or(u64::MAX);
                self.pauses.longest.fetch_max(pause, Ordering::Relaxed);
            }
        }
        self.last = Some((solve, now));
        now + 2 * self.pauses.longest() >= at
    }

    pub(super) fn boxed(mut self) -> crate::solve::cadical::Terminate {
        Box::new(move || self.reached())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deadline allows for twice the longest pause measured within one solve; the time
    /// between two solves is no pause.
    #[test]
    fn the_deadline_stops_early_by_twice_the_longest_pause() {
        let pauses = Arc::new(Pauses::default());
        let at = Instant::now() + Duration::from_millis(400);
        let mut d = Deadline::new(Some(at), None, None, pauses.clone());
        assert!(!d.reached(), "no pause measured yet, 400 ms ahead");
        // Between solves: not a pause.
        std::thread::sleep(Duration::from_millis(120));
        pauses.solves.fetch_add(1, Ordering::Relaxed);
        assert!(!d.reached());
        assert!(pauses.longest() < Duration::from_millis(100));
        // Within a solve: 120 ms or more, and twice that reaches past the deadline.
        std::thread::sleep(Duration::from_millis(120));
        assert!(d.reached(), "a pause of {:?} measured", pauses.longest());
        assert!(pauses.longest() >= Duration::from_millis(120));
        // No deadline: a pause alone never stops.
        let mut free = Deadline::new(None, None, None, pauses);
        assert!(!free.reached());
    }
}
