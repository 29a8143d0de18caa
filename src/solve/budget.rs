//! Stopping the work that happens outside the SAT engine's own search: building a model,
//! compiling its rows to clauses, an exact method's loops. The engine's search stops itself
//! at the deadline (CaDiCaL's terminate callback); everything else calls [`tick`] and
//! [`charge`] from its loops, and the runner wraps each stage in [`guarded`].
//!
//! While a stage runs under [`guarded`], a tick past the deadline, or a charge past the
//! memory that this machine can give, unwinds the stage (with
//! [`std::panic::resume_unwind`], which prints nothing) back to its guard, which answers
//! [`Interrupt`]. The stage's half-built model is dropped on the way; nothing is left
//! behind. Outside a guard both calls do nothing, so library code can call the builders
//! directly. Unwinding stops in Rust frames only: the checks are never made from inside a
//! C or C++ callback.

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Why a guarded stage was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// The deadline passed.
    Deadline,
    /// The run was asked to stop ([`cancellable`]).
    Cancelled,
    /// What the stage built would need more memory than the limit (or an allocation failed
    /// before the estimate reached it: then `estimate <= limit`).
    Memory {
        /// Estimated bytes when the stage was stopped (it would have needed more).
        estimate: u64,
        /// The bytes this run may use.
        limit: u64,
    },
}

#[derive(Clone, Copy)]
struct Guard {
    deadline: Option<Instant>,
    limit: u64,
    bytes: u64,
    ticks: u32,
}

thread_local! {
    static GUARD: Cell<Option<Guard>> = const { Cell::new(None) };
    /// Raised by someone else (a server's stop request) to stop this thread's run.
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` so that raising `flag` (from any thread) stops it as a deadline would: guarded
/// stages answer [`Interrupt::Cancelled`] and SAT engines built inside stop their search.
pub fn cancellable<R>(flag: Arc<AtomicBool>, f: impl FnOnce() -> R) -> R {
    crate::scoped::with(&CANCEL, flag, f)
}

/// The flag that cancels this thread's run, if any (engines built now watch it).
pub fn cancel_flag() -> Option<Arc<AtomicBool>> {
    CANCEL.with(|c| c.borrow().clone())
}

/// Whether this thread's run was asked to stop.
pub fn cancelled() -> bool {
    CANCEL.with(|c| {
        c.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

/// How often [`tick`] reads the clock.
const TICKS_PER_CHECK: u32 = 256;

/// Runs `stage` with a deadline and the memory limit ([`memory_limit`]); an interrupted
/// stage answers `Err`. Guards nest: the innermost one catches, and the outer one's memory
/// estimate grows by what the inner stage charged.
pub fn guarded<R>(deadline: Option<Instant>, stage: impl FnOnce() -> R) -> Result<R, Interrupt> {
    let outer = GUARD.with(|g| g.get());
    let deadline = match (deadline, outer.and_then(|o| o.deadline)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let limit = outer.map_or_else(memory_limit, |o| o.limit.saturating_sub(o.bytes));
    GUARD.with(|g| {
        g.set(Some(Guard {
            deadline,
            limit,
            bytes: 0,
            ticks: 0,
        }))
    });
    let result = catch_unwind(AssertUnwindSafe(stage));
    let used = GUARD.with(|g| g.get()).map_or(0, |g| g.bytes);
    GUARD.with(|g| {
        g.set(outer.map(|mut o| {
            o.bytes = o.bytes.saturating_add(used);
            o
        }))
    });
    match result {
        Ok(r) => Ok(r),
        Err(payload) => match payload.downcast::<Interrupt>() {
            Ok(why) => Err(*why),
            Err(other) => resume_unwind(other),
        },
    }
}

/// Stops the guarded stage if its deadline has passed (the clock is read every few hundred
/// calls, so a call costs a counter increment).
pub fn tick() {
    let stop = GUARD.with(|g| {
        let mut guard = g.get()?;
        guard.ticks += 1;
        let due = guard.ticks >= TICKS_PER_CHECK;
        if due {
            guard.ticks = 0;
        }
        g.set(Some(guard));
        if !due {
            None
        } else if guard.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Interrupt::Deadline)
        } else {
            cancelled().then_some(Interrupt::Cancelled)
        }
    });
    if let Some(why) = stop {
        resume_unwind(Box::new(why));
    }
}

/// Stops the guarded stage if its deadline has passed, reading the clock now: for loops
/// whose rounds are long (milliseconds), where [`tick`]'s sampling would answer late.
pub fn check() {
    if cancelled() {
        resume_unwind(Box::new(Interrupt::Cancelled));
    }
    if expired() {
        resume_unwind(Box::new(Interrupt::Deadline));
    }
}

/// Records that the guarded stage holds about `bytes` more; stops it if the total passes the
/// limit. Also a [`tick`].
pub fn charge(bytes: u64) {
    let stop = GUARD.with(|g| {
        let mut guard = g.get()?;
        guard.bytes = guard.bytes.saturating_add(bytes);
        g.set(Some(guard));
        (guard.bytes > guard.limit).then_some(Interrupt::Memory {
            estimate: guard.bytes,
            limit: guard.limit,
        })
    });
    if let Some(why) = stop {
        resume_unwind(Box::new(why));
    }
    tick();
}

/// An allocation failed that reported it (the encoders reserve memory fallibly): stops the
/// guarded stage as over the memory limit. Outside a guard this is a panic, as for any
/// other failed allocation.
pub fn out_of_memory() -> ! {
    let why = GUARD.with(|g| g.get()).map(|g| Interrupt::Memory {
        estimate: g.bytes,
        limit: g.limit,
    });
    match why {
        Some(why) => resume_unwind(Box::new(why)),
        None => panic!("out of memory while encoding a constraint"),
    }
}

/// Whether the innermost guard's deadline has passed (false outside a guard), or the run
/// was cancelled.
pub fn expired() -> bool {
    cancelled()
        || GUARD
            .with(|g| g.get())
            .and_then(|g| g.deadline)
            .is_some_and(|d| Instant::now() >= d)
}

/// The bytes one run may use for what it builds: 70% of the memory available now (Linux
/// `MemAvailable`), or of the address-space limit (`ulimit -v`) if that is lower; a fixed
/// 4 GiB where neither can be read. The environment variable `QUANDARY_MEMORY_MB` sets it.
pub fn memory_limit() -> u64 {
    memory_limit_and_source().0
}

/// [`memory_limit`] and where it comes from, in words.
pub fn memory_limit_and_source() -> (u64, &'static str) {
    if let Some(mb) = std::env::var("QUANDARY_MEMORY_MB")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
    {
        return (mb << 20, "set by QUANDARY_MEMORY_MB");
    }
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| field_kib(&s, "MemAvailable:"))
        .map(|kib| kib << 10);
    let address_space = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|s| address_space_limit(&s));
    let (usable, source) = match (available, address_space) {
        (Some(a), Some(b)) if b < a => (b, "70% of the address-space limit, ulimit -v"),
        (Some(a), _) => (a, "70% of the memory available"),
        (None, Some(b)) => (b, "70% of the address-space limit, ulimit -v"),
        (None, None) => (4 << 30, "70% of 4 GiB, as the memory available is unknown"),
    };
    (usable / 10 * 7, source)
}

fn field_kib(meminfo: &str, name: &str) -> Option<u64> {
    meminfo
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// The soft "Max address space" of `/proc/self/limits`, if it is a number of bytes.
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Bytes as "1.5 GiB" / "300 MiB".
pub fn bytes_in_words(bytes: u64) -> String {
    let gib = bytes as f64 / (1u64 << 30) as f64;
    if gib >= 1.0 {
        format!("{gib:.1} GiB")
    } else {
        format!("{} MiB", (bytes >> 20).max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_passed_deadline_stops_a_loop_and_nothing_else() {
        let past = Instant::now();
        let turns = Cell::new(0u32);
        let r = guarded(Some(past), || loop {
            turns.set(turns.get() + 1);
            tick();
        });
        assert_eq!(r, Err(Interrupt::Deadline));
        assert!(turns.get() <= TICKS_PER_CHECK);
        // Outside a guard, ticks do nothing.
        for _ in 0..10_000 {
            tick();
        }
        let later = Instant::now() + Duration::from_secs(60);
        assert_eq!(guarded(Some(later), || 7), Ok(7));
    }

    #[test]
    fn charges_past_the_limit_stop_with_the_estimate() {
        let r = guarded(None, || loop {
            charge(1 << 40);
        });
        match r {
            Err(Interrupt::Memory { estimate, limit }) => assert!(estimate > limit),
            other => panic!("expected a memory stop, got {other:?}"),
        }
    }

    #[test]
    fn the_inner_guard_catches_and_the_outer_goes_on() {
        let past = Instant::now();
        let outer = guarded(None, || {
            let inner = guarded(Some(past), || loop {
                tick();
            });
            assert_eq!(inner, Err(Interrupt::Deadline));
            "outer finished"
        });
        assert_eq!(outer, Ok("outer finished"));
    }

    #[test]
    fn a_raised_flag_cancels_the_stage() {
        let flag = Arc::new(AtomicBool::new(false));
        let raiser = flag.clone();
        let r = cancellable(flag, || {
            guarded(None, || {
                let mut turns = 0u64;
                loop {
                    turns += 1;
                    if turns == 1000 {
                        raiser.store(true, Ordering::Relaxed);
                    }
                    tick();
                }
            })
        });
        assert_eq!(r, Err(Interrupt::Cancelled));
        assert!(!cancelled(), "the flag is this run's only");
    }

    #[test]
    fn an_ordinary_panic_passes_through() {
        let r = std::panic::catch_unwind(|| guarded(None, || panic!("a real bug")));
        assert!(r.is_err());
    }

    #[test]
    fn limits_are_read_from_proc_files() {
        let meminfo = "MemTotal:       24000000 kB\nMemAvailable:   20000000 kB\n";
        assert_eq!(field_kib(meminfo, "MemAvailable:"), Some(20_000_000));
        let limits = "Limit                     Soft Limit           Hard Limit           Units\nMax address space         4294967296           unlimited            bytes\n";
        assert_eq!(address_space_limit(limits), Some(4294967296));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(unlimited), None);
    }
}
