//! CaDiCaL 3 through the C interface that `pindakaas-cadical` builds with `cc`: the engine the
//! SAT backend drives, with its named configurations, a stop callback, and IPASIR-UP — a
//! [`Watcher`](super::Watcher) of the puzzle's told of every assignment during search, which
//! may answer with a clause at once.
//!
//! Every call into C is in this file; what it requires of the caller (CaDiCaL's API contract:
//! `failed` only after "unsatisfiable", values only after "satisfiable", literals of declared
//! variables) is kept by [`super::sat::SatBackend`], its one user besides the certificates.

use pindakaas_cadical::{
    ccadical_add, ccadical_add_observed_var, ccadical_assume, ccadical_connect_external_propagator,
    ccadical_declare_more_variables, ccadical_disconnect_external_propagator, ccadical_failed,
    ccadical_init, ccadical_limit, ccadical_phase, ccadical_release, ccadical_set_option,
    ccadical_set_terminate, ccadical_solve, ccadical_val, ccadical_vars, CExternalPropagator,
};
use std::ffi::{c_int, c_void, CString};

/// What CaDiCaL asks, from time to time, during a solve: whether to stop.
pub type Terminate = Box<dyn FnMut() -> bool + Send>;

/// One CaDiCaL engine.
pub struct Cadical {
    ptr: *mut c_void,
    /// Kept alive (and at a fixed address) while CaDiCaL may call it.
    terminate: Option<Box<Terminate>>,
    watch: Option<Box<Watch>>,
}

// SAFETY: CaDiCaL's solver has no thread affinity; an engine is used by one thread at a time
// (`&mut self` for every call that changes it), and its callbacks are `Send`.
unsafe impl Send for Cadical {}

/// The options CaDiCaL's `plain` configuration turns off (its simplification options, the
/// ones marked 'P' in its options.hpp of version 3.0.1).
const PLAIN_OFF: [&str; 16] = [
    "compact",
    "congruence",
    "decompose",
    "deduplicate",
    "eagersubsume",
    "elim",
    "factorunbump",
    "fastelim",
    "inprobing",
    "inprocessing",
    "probe",
    "subsume",
    "sweep",
    "ternary",
    "transred",
    "vivify",
];

/// CaDiCaL's `sat` and `unsat` configurations (its config.cpp of version 3.0.1).
const SAT_CONFIG: [(&str, i32); 3] = [
    ("elimeffort", 10),
    ("stabilizeonly", 1),
    ("subsumeeffort", 60),
];
const UNSAT_CONFIG: [(&str, i32); 2] = [("stabilize", 0), ("walk", 0)];

extern "C" fn call_terminate(state: *mut c_void) -> c_int {
    // SAFETY: `state` is the `Box<Terminate>` the engine holds while it is set.
    let f = unsafe { &mut *(state as *mut Terminate) };
    c_int::from(f())
}

impl Cadical {
    /// A fresh engine in one of [`super::PORTFOLIO_CONFIGS`] (an unknown name gives the default). Bounded
    /// variable addition (`factor`) is off: it would take variable numbers the encodings
    /// allocate later. Sweeping (`sweep`, new since CaDiCaL 2) is off: with it, Gunport 11×11
    /// and peaceable queens on 8×8 took 20-25% longer than on CaDiCaL 1.9.5, without it the
    /// same or less (docs/architecture.md, "The SAT engine"). `QUANDARY_CADICAL="name=value,..."` sets further
    /// options, for experiments.
    pub fn new(config: &str) -> Cadical {
        // SAFETY: a fresh solver, released in `drop`.
        let ptr = unsafe { ccadical_init() };
        let mut e = Cadical {
            ptr,
            terminate: None,
            watch: None,
        };
        e.set_option("factor", 0);
        e.set_option("sweep", 0);
        match config {
            "sat" => SAT_CONFIG.iter().for_each(|&(n, v)| e.set_option(n, v)),
            "unsat" => UNSAT_CONFIG.iter().for_each(|&(n, v)| e.set_option(n, v)),
            "plain" => PLAIN_OFF.iter().for_each(|n| e.set_option(n, 0)),
            // Not a CaDiCaL configuration: bounded variable elimination off, for refutations of
            // small formulas held together by symmetry-breaking rows (peaceable armies' cubes:
            // 10×10 "m >= 15?" in 121 cubes on two threads, 47 s against 56 s, the heaviest
            // cubes 30-40 % faster alone; docs/chess.md).
            "no-elim" => e.set_option("elim", 0),
            // Not portfolio members: engines asked thousands of short questions under
            // hundreds of assumptions (explain's). No "lucky" assignments tried before each
            // solve (each is a pass over the assumptions: CSPLib 1233 1.30 s with, 0.44 s
            // without). The re-checking engine also keeps its trail of assumptions between
            // solves (incremental lazy backtracking); the explaining engine does not, since its
            // cores then grow (docs/explain.md).
            //
            // The explaining engine that encodes every row also checks no learnt clause against
            // the few learnt before it (`eagersubsume`): with the two engines racing, one run
            // of CSPLib's median was 0.96 s with it on, 0.85 s off, the 15x15 set's the same;
            // this engine alone (`--threads 1`) it is 1.06 s against 0.98 s (docs/explain.md).
            "explain" => {
                e.set_option("lucky", 0);
                e.set_option("eagersubsume", 0);
            }
            "explain-counting" => e.set_option("lucky", 0),
            "assumptions" => {
                e.set_option("lucky", 0);
                e.set_option("ilb", 1);
            }
            _ => {}
        }
        if let Ok(extra) = std::env::var("QUANDARY_CADICAL") {
            for kv in extra.split(',') {
                if let Some((k, v)) = kv.split_once('=') {
                    e.set_option(k, v.parse().unwrap_or(0));
                }
            }
        }
        e
    }

    /// Bounds the next solve only (CaDiCaL's `limit`, e.g. "decisions"): past it the solve
    /// answers "unknown".
    pub fn limit(&mut self, name: &str, value: i32) {
        let name = CString::new(name).expect("no NUL in a limit's name");
        // SAFETY: `ptr` is a live solver; `name` outlives the call.
        unsafe { ccadical_limit(self.ptr, name.as_ptr(), value) }
    }

    /// Sets one of CaDiCaL's options (before any clause is added).
    pub fn set_option(&mut self, name: &str, value: i32) {
        let name = CString::new(name).expect("option names hold no NUL");
        // SAFETY: a valid solver and a NUL-terminated name.
        unsafe { ccadical_set_option(self.ptr, name.as_ptr(), value) }
    }

    /// Has the search try `lit` true first (a phase, not an assumption).
    pub fn phase(&mut self, lit: i32) {
        // SAFETY: a valid solver, and a literal of a declared variable (the caller's).
        unsafe { ccadical_phase(self.ptr, lit) }
    }

    /// Makes sure variables 1..=n exist.
    pub fn reserve(&mut self, n: i32) {
        // SAFETY: a valid solver.
        unsafe {
            let have = ccadical_vars(self.ptr);
            if n > have {
                ccadical_declare_more_variables(self.ptr, n - have);
            }
        }
    }

    pub fn add_clause(&mut self, lits: impl IntoIterator<Item = i32>) {
        for l in lits {
            debug_assert!(l != 0);
            // SAFETY: a valid solver; the clause is closed below.
            unsafe { ccadical_add(self.ptr, l) }
        }
        // SAFETY: as above.
        unsafe { ccadical_add(self.ptr, 0) }
    }

    /// `Some(true)`: satisfiable, `Some(false)`: unsatisfiable under the assumptions, `None`:
    /// stopped.
    pub fn solve(&mut self, assumptions: impl IntoIterator<Item = i32>) -> Option<bool> {
        // SAFETY: a valid solver; assumptions last for this solve.
        unsafe {
            for a in assumptions {
                ccadical_assume(self.ptr, a);
            }
            match ccadical_solve(self.ptr) {
                10 => Some(true),
                20 => Some(false),
                _ => None,
            }
        }
    }

    /// After a satisfiable solve: the literal's value (`None` if CaDiCaL leaves it open).
    pub fn value(&self, lit: i32) -> Option<bool> {
        // SAFETY: a valid solver after a satisfiable solve (the caller's contract).
        match unsafe { ccadical_val(self.ptr, lit) } {
            0 => None,
            v => Some(v == lit),
        }
    }

    /// After an unsatisfiable solve: whether its proof used this assumption.
    pub fn failed(&self, lit: i32) -> bool {
        // SAFETY: a valid solver after an unsatisfiable solve (the caller's contract).
        unsafe { ccadical_failed(self.ptr, lit) != 0 }
    }

    /// Sets (or, with `None`, removes) the stop callback.
    pub fn set_terminate(&mut self, f: Option<Terminate>) {
        match f {
            None => {
                // SAFETY: a valid solver; no callback left to call.
                unsafe { ccadical_set_terminate(self.ptr, std::ptr::null_mut(), None) };
                self.terminate = None;
            }
            Some(f) => {
                let mut boxed = Box::new(f);
                let state = &mut *boxed as *mut Terminate as *mut c_void;
                // SAFETY: the box stays in `self` (at the same address) until replaced, and is
                // replaced only after CaDiCaL was given the new one.
                unsafe { ccadical_set_terminate(self.ptr, state, Some(call_terminate)) };
                self.terminate = Some(boxed);
            }
        }
    }
}

impl Drop for Cadical {
    fn drop(&mut self) {
        // SAFETY: released once; the callbacks' boxes are dropped after it.
        unsafe {
            if self.watch.is_some() {
                ccadical_disconnect_external_propagator(self.ptr);
            }
            ccadical_release(self.ptr);
        }
    }
}

/// The propagator's state (IPASIR-UP): the watcher, the observed literals as it was told of
/// them, by decision level, and the clauses it asked for that CaDiCaL has not yet taken.
struct Watch {
    watcher: Box<dyn super::Watcher>,
    /// From CaDiCaL's literals to the model's and back (the backend's naming).
    to_model: Box<dyn Fn(i32) -> crate::model::Lit + Send>,
    to_engine: Box<dyn Fn(crate::model::Lit) -> i32 + Send>,
    /// The value told for each variable (by CaDiCaL's index), to skip repeated notices.
    told: Vec<i8>,
    trail: Vec<i32>,
    /// Where each decision level above 0 starts on `trail`.
    levels: Vec<usize>,
    /// Clauses waiting for CaDiCaL, in its literals; `next` is the place in the first.
    pending: std::collections::VecDeque<Vec<i32>>,
    next: usize,
    /// Clauses handed over.
    clauses: u64,
    /// The reason clause being handed over, in CaDiCaL's literals, and the place in it.
    reason: Option<(Vec<i32>, usize)>,
}

impl Watch {
    fn told(&mut self, lit: i32) -> &mut i8 {
        let v = lit.unsigned_abs() as usize;
        if self.told.len() <= v {
            self.told.resize(v + 1, 0);
        }
        &mut self.told[v]
    }

    fn assign(&mut self, lit: i32) {
        if *self.told(lit) != 0 {
            // CaDiCaL repeats root-level notices after some of its steps.
            return;
        }
        *self.told(lit) = if lit > 0 { 1 } else { -1 };
        self.trail.push(lit);
        let model_lit = (self.to_model)(lit);
        if let Some(clause) = self.watcher.assign(model_lit) {
            let clause = clause.into_iter().map(|l| (self.to_engine)(l)).collect();
            self.pending.push_back(clause);
        }
    }

    fn backtrack(&mut self, level: usize) {
        while self.levels.len() > level {
            let start = self.levels.pop().expect("a level above the target");
            while self.trail.len() > start {
                let lit = self.trail.pop().expect("above the level's start");
                *self.told(lit) = 0;
                let model_lit = (self.to_model)(lit);
                self.watcher.undo(model_lit);
            }
        }
    }
}

/// The callbacks, each given the `Watch` as its data.
mod callbacks {
    use super::Watch;
    use std::ffi::{c_int, c_void};

    unsafe fn watch<'a>(data: *mut c_void) -> &'a mut Watch {
        // SAFETY (for every callback): `data` is the engine's boxed `Watch`, alive while the
        // propagator is connected, and CaDiCaL calls back on the solving thread only.
        unsafe { &mut *(data as *mut Watch) }
    }

    pub unsafe extern "C" fn notify_assignment(data: *mut c_void, lits: *const i32, n: usize) {
        let w = unsafe { watch(data) };
        let lits = unsafe { std::slice::from_raw_parts(lits, n) };
        for &l in lits {
            w.assign(l);
        }
    }

    pub unsafe extern "C" fn notify_new_decision_level(data: *mut c_void) {
        let w = unsafe { watch(data) };
        w.levels.push(w.trail.len());
    }

    pub unsafe extern "C" fn notify_backtrack(data: *mut c_void, level: usize, _restart: bool) {
        unsafe { watch(data) }.backtrack(level);
    }

    pub unsafe extern "C" fn check_found_model(_: *mut c_void, _: *const c_int, _: usize) -> bool {
        // Complete solutions are checked by the search's lazy cuts, after the solve.
        true
    }

    pub unsafe extern "C" fn no_literal(_: *mut c_void) -> c_int {
        0
    }

    pub unsafe extern "C" fn propagate(data: *mut c_void) -> c_int {
        let w = unsafe { watch(data) };
        match w.watcher.propagate() {
            Some(lit) => (w.to_engine)(lit),
            None => 0,
        }
    }

    pub unsafe extern "C" fn add_reason_clause_lit(data: *mut c_void, lit: c_int) -> c_int {
        let w = unsafe { watch(data) };
        if w.reason.is_none() {
            let clause = w.watcher.reason((w.to_model)(lit));
            let clause = clause.into_iter().map(|l| (w.to_engine)(l)).collect();
            w.reason = Some((clause, 0));
        }
        let (clause, next) = w.reason.as_mut().expect("set above");
        if let Some(&l) = clause.get(*next) {
            *next += 1;
            return l;
        }
        w.reason = None;
        0
    }

    pub unsafe extern "C" fn has_external_clause(
        data: *mut c_void,
        forgettable: *mut bool,
    ) -> bool {
        let w = unsafe { watch(data) };
        // The clauses hold in every solution: CaDiCaL keeps them.
        unsafe { *forgettable = false };
        !w.pending.is_empty()
    }

    pub unsafe extern "C" fn add_external_clause_lit(data: *mut c_void) -> c_int {
        let w = unsafe { watch(data) };
        let Some(clause) = w.pending.front() else {
            return 0;
        };
        if let Some(&l) = clause.get(w.next) {
            w.next += 1;
            return l;
        }
        w.pending.pop_front();
        w.next = 0;
        w.clauses += 1;
        0
    }
}

impl Cadical {
    /// Connects a watcher (IPASIR-UP) over the variables it names. `to_model` and
    /// `to_engine` translate literals between the model and this engine.
    pub fn watch(
        &mut self,
        watcher: Box<dyn super::Watcher>,
        to_model: Box<dyn Fn(i32) -> crate::model::Lit + Send>,
        to_engine: Box<dyn Fn(crate::model::Lit) -> i32 + Send>,
    ) {
        let observed: Vec<i32> = watcher
            .watched()
            .iter()
            .map(|v| to_engine(v.pos()).abs())
            .collect();
        let mut w = Box::new(Watch {
            watcher,
            to_model,
            to_engine,
            told: Vec::new(),
            trail: Vec::new(),
            levels: Vec::new(),
            pending: Default::default(),
            next: 0,
            clauses: 0,
            reason: None,
        });
        let prop = CExternalPropagator {
            data: &mut *w as *mut Watch as *mut c_void,
            is_lazy: false,
            are_reasons_forgettable: true,
            notify_assignment: callbacks::notify_assignment,
            notify_new_decision_level: callbacks::notify_new_decision_level,
            notify_backtrack: callbacks::notify_backtrack,
            check_found_model: callbacks::check_found_model,
            decide: callbacks::no_literal,
            propagate: callbacks::propagate,
            add_reason_clause_lit: callbacks::add_reason_clause_lit,
            has_external_clause: callbacks::has_external_clause,
            add_external_clause_lit: callbacks::add_external_clause_lit,
        };
        // SAFETY: the box lives in `self` until the propagator is disconnected in `drop`.
        unsafe {
            if self.watch.is_some() {
                ccadical_disconnect_external_propagator(self.ptr);
            }
            ccadical_connect_external_propagator(self.ptr, prop);
            for v in observed {
                ccadical_add_observed_var(self.ptr, v);
            }
        }
        self.watch = Some(w);
    }

    /// Clauses the watcher gave during search so far.
    pub fn watch_clauses(&self) -> u64 {
        self.watch.as_ref().map_or(0, |w| w.clauses)
    }
}
