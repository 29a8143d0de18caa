//! The guard of a run's stages: what stops them (a deadline, a stop request, the memory
//! limit) and where they report their progress. It sits below everything that builds or
//! searches (the model, the engines, the puzzles' exact methods, the runner), which call
//! [`tick`], [`charge`] and [`progress::message`] from their loops.
//!
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

/// Progress of long runs, as a trait the library calls and a front end implements (the command
/// line draws a spinner; the page polls what a run reports). The library draws nothing itself.
///
/// A sink belongs to one run: it travels in the run's [`Limits`](crate::solve::limits::Limits) into
/// every stage of the run ([`guarded`]) and into the worker threads that enter a
/// stage, so that two runs at once (a server's) report each to its own. Code deep in a stage
/// calls `phase` and `message`; outside a stage of a run with a sink they do nothing.
pub mod progress {
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

    /// A sink that keeps what a run reported last, for a front end that asks now and then
    /// (the page's `/api/progress`, Python's `progress=` callback): the stage, its latest
    /// message, and how many reports came (so the asker passes on only what is new).
    #[derive(Default)]
    pub struct Latest(std::sync::Mutex<(String, String, u64)>);

    impl Latest {
        /// The stage, its latest message, and the number of reports so far.
        pub fn now(&self) -> (String, String, u64) {
            self.0.lock().map(|l| l.clone()).unwrap_or_default()
        }
    }

    impl Progress for Latest {
        fn phase(&self, name: &str) {
            if let Ok(mut l) = self.0.lock() {
                *l = (name.to_string(), String::new(), l.2 + 1);
            }
        }
        fn message(&self, text: &str) {
            if let Ok(mut l) = self.0.lock() {
                l.1 = text.to_string();
                l.2 += 1;
            }
        }
        fn finish(&self) {}
    }

    /// Reports the start of a phase to the current stage's run.
    pub fn phase(name: &str) {
        super::with_progress(|p| p.phase(name));
    }

    /// Reports what the current phase of the current stage's run has done.
    pub fn message(text: &str) {
        super::with_progress(|p| p.message(text));
    }
}

use std::cell::RefCell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Why a guarded stage was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// The deadline passed.
    Deadline,
    /// The run was asked to stop (its [`Bounds::cancel`] flag was raised).
    Cancelled,
    /// What the stage built would need more memory than the limit (or an allocation failed
    /// before the estimate reached it: then `estimate <= limit`).
    Memory {
        /// Estimated bytes when the stage was stopped (it would have needed more).
        estimate: u64,
        /// The bytes this run may use.
        limit: u64,
    },
    /// The process's resident size, read while the stage charged what it built, passed the
    /// cap its run was given ([`Bounds::resident`]): what was built took more than estimated.
    Resident {
        /// Resident bytes when the stage was stopped.
        resident: u64,
        /// The cap.
        limit: u64,
    },
}

/// What a guarded stage is held to. Shared (`Arc`) between the thread that opened the stage
/// and the worker threads that [`Handle::enter`] it, so a stop request reaches them all and
/// what they build is charged to one account.
struct Account {
    deadline: Option<Instant>,
    /// Where the run reports its progress.
    progress: Option<progress::Sink>,
    /// See [`Bounds::leave_to_exit`].
    leave_to_exit: bool,
    /// Raised by someone else (a server's stop request) to stop the run.
    cancel: Option<Arc<AtomicBool>>,
    limit: u64,
    bytes: AtomicU64,
    /// See [`Bounds::resident`].
    resident: Option<u64>,
    /// The bytes charged when the resident size was last read.
    looked: AtomicU64,
    /// The resident size seen over the cap during a search ([`resident_over`]); 0 if none.
    over: AtomicU64,
}

impl Account {
    fn why_stop(&self) -> Option<Interrupt> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            Some(Interrupt::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Interrupt::Deadline)
        } else {
            self.over_cap()
        }
    }

    /// Whether a search found the process over its resident cap ([`resident_over`]).
    fn over_cap(&self) -> Option<Interrupt> {
        match self.over.load(Ordering::Relaxed) {
            0 => None,
            resident => Some(Interrupt::Resident {
                resident,
                limit: self.resident.unwrap_or(0),
            }),
        }
    }
}

struct Guard {
    account: Arc<Account>,
    ticks: u32,
    /// Inside [`answering`]: the deadline and a stop request are left to the search.
    answering: bool,
}

impl Guard {
    /// Why this thread should stop now: [`Account::why_stop`], less the deadline and a stop
    /// request while [`answering`].
    fn why_stop(&self) -> Option<Interrupt> {
        if self.answering {
            self.account.over_cap()
        } else {
            self.account.why_stop()
        }
    }
}

thread_local! {
    /// The stage this thread works in, if any.
    static GUARD: RefCell<Option<Guard>> = const { RefCell::new(None) };
}

/// What stops a run from outside: its deadline, a flag raised by a stop request (from any
/// thread), and the bytes it may build. The runner opens every stage with one
/// ([`guarded`]); [`crate::solve::limits::Limits`] carries it.
#[derive(Clone, Default)]
pub struct Bounds {
    pub deadline: Option<Instant>,
    pub cancel: Option<Arc<AtomicBool>>,
    /// Where the run reports its progress ([`progress`]).
    pub progress: Option<progress::Sink>,
    /// For a process that ends soon after its one run (the command line): large engines a
    /// limit stopped are not freed but left to the process's exit, which returns their memory
    /// at once (freeing millions of clauses one by one takes a large share of a second, time
    /// a stopped run no longer has). A server, which goes on, leaves this off.
    pub leave_to_exit: bool,
    /// Bytes; `None`: [`memory_limit`].
    pub memory: Option<u64>,
    /// The process's resident size past which the stage stops, read after every
    /// [`RESIDENT_LOOK`] bytes charged: the estimate of what is built is below what it takes
    /// (0.55 to 0.8 of the peak as calibrated), so a process's real size is read too. The
    /// command line gives its memory limit (its run is the process); a server its whole
    /// limit, which its runs share. `None`: not read (an inner guard takes the outer one's).
    pub resident: Option<u64>,
}

/// How many bytes a stage charges between two readings of the resident size.
pub const RESIDENT_LOOK: u64 = 16 << 20;

/// The stage a thread works in, as a value another thread can [`enter`](Handle::enter):
/// worker threads of an exact method share their caller's deadline, stop flag and memory
/// account.
#[derive(Clone)]
pub struct Handle(Arc<Account>);

/// The handle of this thread's stage (`None` outside a guard).
pub fn handle() -> Option<Handle> {
    GUARD.with(|g| g.borrow().as_ref().map(|g| Handle(g.account.clone())))
}

impl Handle {
    /// Runs `work` on this thread inside the stage: [`tick`], [`check`] and [`charge`] stop
    /// it as they would on the stage's own thread (the interruption is caught here and
    /// answered as `Err`, for the caller to pass on).
    pub fn enter<R>(&self, work: impl FnOnce() -> R) -> Result<R, Interrupt> {
        let before = GUARD.with(|g| {
            g.borrow_mut().replace(Guard {
                account: self.0.clone(),
                ticks: 0,
                answering: false,
            })
        });
        let result = catch_unwind(AssertUnwindSafe(work));
        GUARD.with(|g| *g.borrow_mut() = before);
        caught(result)
    }
}

/// Runs `work(i)` for each `i` below `threads` on threads of its own, each inside this
/// thread's stage (plain threads outside a guard), and waits for them all: the one way the
/// exact methods put workers to work. Each thread's result, or the interruption that stopped
/// it (the deadline, a stop request: the caller answers "stopped"); a thread over the memory
/// limit stops the stage here, on the caller's thread, as its own charge would.
pub fn spread<R: Send>(
    threads: usize,
    work: &(dyn Fn(usize) -> R + Sync),
) -> Vec<Result<R, Interrupt>> {
    let stage = handle();
    let answers: Vec<Result<R, Interrupt>> = std::thread::scope(|scope| {
        let stage = &stage;
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                scope.spawn(move || match stage {
                    Some(h) => h.enter(|| work(i)),
                    None => Ok(work(i)),
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(answer) => answer,
                // A worker's own panic (not an interruption) is the caller's panic.
                Err(panic) => resume_unwind(panic),
            })
            .collect()
    });
    if let Some(&why @ (Interrupt::Memory { .. } | Interrupt::Resident { .. })) =
        answers.iter().find_map(|a| a.as_ref().err())
    {
        raise(why);
    }
    answers
}

/// The flag that cancels this thread's run, if any (engines built now watch it).
pub fn cancel_flag() -> Option<Arc<AtomicBool>> {
    GUARD.with(|g| g.borrow().as_ref().and_then(|g| g.account.cancel.clone()))
}

/// Calls `f` with the progress sink of this thread's stage, if its run has one.
pub fn with_progress(f: impl FnOnce(&dyn progress::Progress)) {
    let sink = GUARD.with(|g| g.borrow().as_ref().and_then(|g| g.account.progress.clone()));
    if let Some(p) = sink {
        f(p.as_ref());
    }
}

/// Whether this thread's stage leaves stopped engines to the process's exit
/// ([`Bounds::leave_to_exit`]).
pub fn leaves_to_exit() -> bool {
    GUARD.with(|g| g.borrow().as_ref().is_some_and(|g| g.account.leave_to_exit))
}

/// Whether this thread's run was asked to stop.
pub fn cancelled() -> bool {
    GUARD.with(|g| {
        g.borrow().as_ref().is_some_and(|g| {
            g.account
                .cancel
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        })
    })
}

/// Runs `work`, a search that watches the deadline and stop requests itself (between solves,
/// and through its engine's stop callback) and answers with what it has found when they
/// come: a partial count, the best solution so far. Inside it, [`tick`], [`check`] and
/// [`charge`] stop the stage for memory only; were they to stop it for time too, a stop
/// request arriving between two solves would unwind past the partial answer (a deadline
/// rarely does, as the engine stops a little before it).
pub fn answering<R>(work: impl FnOnce() -> R) -> R {
    struct Restore(Option<bool>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(before) = self.0 {
                GUARD.with(|g| {
                    if let Some(g) = g.borrow_mut().as_mut() {
                        g.answering = before;
                    }
                });
            }
        }
    }
    let before = GUARD.with(|g| {
        g.borrow_mut()
            .as_mut()
            .map(|g| std::mem::replace(&mut g.answering, true))
    });
    let _restore = Restore(before);
    work()
}

/// How often [`tick`] reads the clock.
const TICKS_PER_CHECK: u32 = 256;

/// Runs `stage` within `bounds` (the deadline, a stop flag, the memory limit); an interrupted
/// stage answers `Err`. Guards nest: the innermost one catches, its deadline is the earlier
/// of the two, it inherits the outer stop flag when it has none, and the outer one's memory
/// account grows by what the inner stage charged.
pub fn guarded<R>(bounds: &Bounds, stage: impl FnOnce() -> R) -> Result<R, Interrupt> {
    let outer = GUARD.with(|g| g.borrow().as_ref().map(|g| g.account.clone()));
    let deadline = match (bounds.deadline, outer.as_ref().and_then(|o| o.deadline)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let cancel = bounds
        .cancel
        .clone()
        .or_else(|| outer.as_ref().and_then(|o| o.cancel.clone()));
    let limit = match &outer {
        Some(o) => o.limit.saturating_sub(o.bytes.load(Ordering::Relaxed)),
        None => bounds.memory.unwrap_or_else(memory_limit),
    };
    let progress = bounds
        .progress
        .clone()
        .or_else(|| outer.as_ref().and_then(|o| o.progress.clone()));
    let leave_to_exit = bounds.leave_to_exit || outer.as_ref().is_some_and(|o| o.leave_to_exit);
    let resident = bounds
        .resident
        .or_else(|| outer.as_ref().and_then(|o| o.resident));
    let account = Arc::new(Account {
        deadline,
        progress,
        leave_to_exit,
        cancel,
        limit: bounds.memory.map_or(limit, |m| m.min(limit)),
        bytes: AtomicU64::new(0),
        resident,
        looked: AtomicU64::new(0),
        over: AtomicU64::new(0),
    });
    // The stage is entered like a worker thread enters it.
    let result = Handle(account.clone()).enter(stage);
    if let Some(o) = outer {
        o.bytes
            .fetch_add(account.bytes.load(Ordering::Relaxed), Ordering::Relaxed);
    }
    result
}

fn caught<R>(result: std::thread::Result<R>) -> Result<R, Interrupt> {
    match result {
        Ok(r) => Ok(r),
        Err(payload) => match payload.downcast::<Interrupt>() {
            Ok(why) => Err(*why),
            Err(other) => resume_unwind(other),
        },
    }
}

/// Stops the guarded stage if its deadline has passed or its run was cancelled (the clock
/// is read every few hundred calls, so a call costs a counter increment).
pub fn tick() {
    let stop = GUARD.with(|g| {
        let mut g = g.borrow_mut();
        let guard = g.as_mut()?;
        guard.ticks += 1;
        if guard.ticks < TICKS_PER_CHECK {
            return None;
        }
        guard.ticks = 0;
        guard.why_stop()
    });
    if let Some(why) = stop {
        resume_unwind(Box::new(why));
    }
}

/// Stops the guarded stage if its deadline has passed, reading the clock now: for loops
/// whose rounds are long (milliseconds), where [`tick`]'s sampling would answer late.
pub fn check() {
    let stop = GUARD.with(|g| g.borrow().as_ref().and_then(Guard::why_stop));
    if let Some(why) = stop {
        resume_unwind(Box::new(why));
    }
}

/// Records that the guarded stage holds about `bytes` more; stops it if the total passes the
/// limit. Also a [`tick`] (a [`check`] when the charge is large).
pub fn charge(bytes: u64) {
    let stop = GUARD.with(|g| {
        let g = g.borrow();
        let a = &g.as_ref()?.account;
        let total = a
            .bytes
            .fetch_add(bytes, Ordering::Relaxed)
            .saturating_add(bytes);
        if total > a.limit {
            return Some(Interrupt::Memory {
                estimate: total,
                limit: a.limit,
            });
        }
        let cap = a.resident?;
        let looked = a.looked.load(Ordering::Relaxed);
        if total < looked.saturating_add(RESIDENT_LOOK) {
            return None;
        }
        a.looked.store(total, Ordering::Relaxed);
        let resident = resident_bytes()?;
        (resident > cap).then_some(Interrupt::Resident {
            resident,
            limit: cap,
        })
    });
    if let Some(why) = stop {
        resume_unwind(Box::new(why));
    }
    // A large charge stands for work in proportion (a row of thousands of terms built, its
    // pages touched): the clock is read at once rather than in a few hundred charges.
    if bytes >= LARGE_CHARGE {
        check();
    } else {
        tick();
    }
}

/// A charge from which [`charge`] reads the clock at once (64 KiB).
const LARGE_CHARGE: u64 = 64 << 10;

/// The bytes this thread's stage has charged so far (0 outside a guard): how a caller that
/// keeps what it built past the stage (a workbench's engine) knows its size.
pub fn charged() -> u64 {
    GUARD.with(|g| {
        g.borrow()
            .as_ref()
            .map_or(0, |g| g.account.bytes.load(Ordering::Relaxed))
    })
}

/// Whether the process's resident size is over the cap of this thread's stage
/// ([`Bounds::resident`]); if so the stage is marked, and its next [`tick`] or [`check`]
/// stops it as too large. For a search that grows outside what is charged (a SAT engine's
/// learned clauses), asked from its stop callback now and then.
pub fn resident_over() -> bool {
    GUARD.with(|g| {
        let g = g.borrow();
        let Some(a) = g.as_ref().map(|g| &g.account) else {
            return false;
        };
        let Some(cap) = a.resident else { return false };
        match resident_bytes() {
            Some(r) if r > cap => {
                a.over.store(r, Ordering::Relaxed);
                true
            }
            _ => false,
        }
    })
}

/// Stops the guarded stage as too large if [`resident_over`] marked it; any other reason to
/// stop (the deadline, a stop request) is left to the caller, who answers with what it has.
pub fn stop_if_over() {
    let why = GUARD.with(|g| g.borrow().as_ref()?.account.over_cap());
    if let Some(why) = why {
        resume_unwind(Box::new(why));
    }
}

/// The process's resident bytes (Linux; `None` elsewhere).
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * u64::try_from(page).ok()?)
}

/// Returns memory freed to the system. The allocator keeps freed memory for reuse (in one
/// arena per thread that allocated), so a server would otherwise stay at the size of its
/// largest runs for good; called when a request ends and when a large engine has been freed
/// on a thread of its own.
pub fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator's arenas.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Records that the guarded stage freed about `bytes` of what it had charged.
pub fn release(bytes: u64) {
    GUARD.with(|g| {
        if let Some(g) = g.borrow().as_ref() {
            let a = &g.account.bytes;
            let _ = a.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                Some(b.saturating_sub(bytes))
            });
        }
    });
}

/// Stops the guarded stage for `why`: a worker thread's interruption ([`Handle::enter`])
/// passed on by the thread that waited for it.
pub fn raise(why: Interrupt) -> ! {
    resume_unwind(Box::new(why))
}

/// An allocation failed that reported it (the encoders reserve memory fallibly): stops the
/// guarded stage as over the memory limit. Outside a guard this is a panic, as for any
/// other failed allocation.
pub fn out_of_memory() -> ! {
    let why = GUARD.with(|g| {
        g.borrow().as_ref().map(|g| Interrupt::Memory {
            estimate: g.account.bytes.load(Ordering::Relaxed),
            limit: g.account.limit,
        })
    });
    match why {
        Some(why) => resume_unwind(Box::new(why)),
        None => panic!("out of memory while encoding a constraint"),
    }
}

/// Whether the innermost guard's deadline has passed (false outside a guard), or the run
/// was cancelled.
pub fn expired() -> bool {
    GUARD.with(|g| {
        g.borrow()
            .as_ref()
            .and_then(|g| g.account.why_stop())
            .is_some()
    })
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

    fn until(deadline: Option<Instant>) -> Bounds {
        Bounds {
            deadline,
            ..Bounds::default()
        }
    }

    #[test]
    fn a_passed_deadline_stops_a_loop_and_nothing_else() {
        let past = Instant::now();
        let turns = std::cell::Cell::new(0u32);
        let r = guarded(&until(Some(past)), || loop {
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
        assert_eq!(guarded(&until(Some(later)), || 7), Ok(7));
    }

    #[test]
    fn charges_past_the_limit_stop_with_the_estimate() {
        let r = guarded(&Bounds::default(), || loop {
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
        let outer = guarded(&Bounds::default(), || {
            let inner = guarded(&until(Some(past)), || loop {
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
        let bounds = Bounds {
            cancel: Some(flag),
            ..Bounds::default()
        };
        let r = guarded(&bounds, || {
            let mut turns = 0u64;
            loop {
                turns += 1;
                if turns == 1000 {
                    raiser.store(true, Ordering::Relaxed);
                }
                tick();
            }
        });
        assert_eq!(r, Err(Interrupt::Cancelled));
        assert!(!cancelled(), "the flag is this run's only");
    }

    #[test]
    fn worker_threads_that_enter_the_stage_see_its_stop_and_share_its_account() {
        let flag = Arc::new(AtomicBool::new(false));
        let bounds = Bounds {
            cancel: Some(flag.clone()),
            memory: Some(1000),
            ..Bounds::default()
        };
        let r = guarded(&bounds, || {
            let handle = handle().expect("inside a guard");
            // Two workers charge 400 bytes each: under the limit together.
            std::thread::scope(|s| {
                for _ in 0..2 {
                    let h = handle.clone();
                    s.spawn(move || h.enter(|| charge(400)).expect("within the limit"));
                }
            });
            // A third one passes the shared limit.
            let third = std::thread::scope(|s| {
                let h = handle.clone();
                s.spawn(move || h.enter(|| charge(400))).join().unwrap()
            });
            assert_eq!(
                third,
                Err(Interrupt::Memory {
                    estimate: 1200,
                    limit: 1000
                })
            );
            // A stop raised from here reaches a worker that loops on tick().
            flag.store(true, Ordering::Relaxed);
            let stopped = std::thread::scope(|s| {
                let h = handle.clone();
                s.spawn(move || {
                    h.enter(|| loop {
                        tick();
                    })
                })
                .join()
                .unwrap()
            });
            assert_eq!(stopped, Err(Interrupt::Cancelled));
            "done"
        });
        assert_eq!(r, Ok("done"));
        assert!(handle().is_none(), "no stage outside the guard");
    }

    #[test]
    fn an_ordinary_panic_passes_through() {
        let r = std::panic::catch_unwind(|| guarded(&Bounds::default(), || panic!("a real bug")));
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
