//! Certificates: every refutation the SAT backend reaches while a run is recorded is written
//! out as a standalone CNF (DIMACS) and a clausal proof (DRAT) that a checker which shares no
//! code with quandary can check (docs/certificates.md says what that proves and what it does
//! not).
//!
//! How: while [`recording`](super::limits::Limits::recording), each [`super::sat::SatBackend`] keeps every clause it gives
//! CaDiCaL. When a solve answers "unsatisfiable", the clauses so far, plus the solve's
//! assumptions as unit clauses, are written as `refutation-K.cnf`, and a fresh CaDiCaL
//! engine with proof tracing on solves that file's formula, writing `refutation-K.drat`. The
//! proof is of the file as written: nothing of the incremental engine's state is trusted.
//!
//! CaDiCaL's proof tracing is reached through its own C interface (`ccadical_trace_proof`),
//! which `pindakaas-cadical` compiles into its library but does not declare: those two
//! functions are declared here.

use serde::Serialize;
use std::ffi::{c_char, c_int, c_void, CString};
use std::io::Write;
use std::os::fd::IntoRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use pindakaas_cadical::{
    ccadical_add, ccadical_init, ccadical_release, ccadical_set_option, ccadical_set_terminate,
    ccadical_solve,
};

extern "C" {
    fn ccadical_trace_proof(solver: *mut c_void, file: *mut c_void, name: *const c_char) -> c_int;
    fn ccadical_close_proof(solver: *mut c_void);
    fn fdopen(fd: c_int, mode: *const c_char) -> *mut c_void;
    fn fclose(file: *mut c_void) -> c_int;
}

/// One refutation written out.
#[derive(Clone, Debug, Serialize)]
pub struct Refutation {
    /// The formula, a file name in the proof directory.
    pub cnf: String,
    /// Its DRAT proof, a file name in the proof directory.
    pub proof: String,
    pub variables: usize,
    /// Clauses in the file, the units of the assumptions included.
    pub clauses: usize,
    /// Of those: the model's rows and their encodings, ...
    pub model_clauses: usize,
    /// ... the clauses the search added later (objective bounds, blocking clauses, cuts) ...
    pub search_clauses: usize,
    /// ... and the solve's assumptions, as unit clauses.
    pub assumptions: usize,
    /// Whether the proof-tracing engine refuted the file (false: it was stopped by the time
    /// limit, and the proof file is incomplete).
    pub refuted: bool,
    /// Seconds the proof-tracing solve took.
    pub seconds: f64,
}

/// Where a recorded run writes its certificates, and what it wrote.
pub struct Recorder {
    dir: PathBuf,
    /// Comment lines opening every CNF (without the leading "c ").
    header: Vec<String>,
    method: Option<String>,
    pub refutations: Vec<Refutation>,
    /// Models written to `models.txt`.
    pub models: usize,
    /// Refutations that could not be written or certified, in words.
    pub failures: Vec<String>,
}

impl Recorder {
    /// A recorder writing into `dir` (created if missing), each CNF opening with `header`.
    pub fn new(dir: &Path, header: Vec<String>) -> crate::error::Result<Recorder> {
        std::fs::create_dir_all(dir).map_err(|e| {
            crate::error::Error::input(format!("--proof: cannot create {}: {e}", dir.display()))
        })?;
        Ok(Recorder {
            dir: dir.to_path_buf(),
            header,
            method: None,
            refutations: Vec::new(),
            models: 0,
            failures: Vec::new(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// A recorder shared by the threads of one run (a portfolio's engines solve on threads of
/// their own); it travels in the run's [`Limits`](super::limits::Limits) into every stage.
pub type Shared = std::sync::Arc<std::sync::Mutex<Recorder>>;

/// Shares `recorder` for a run ([`super::limits::Limits::recording`]).
pub fn shared(recorder: Recorder) -> Shared {
    std::sync::Arc::new(std::sync::Mutex::new(recorder))
}

/// The recorder back from a run that is over.
pub fn take(shared: Shared) -> Recorder {
    match std::sync::Arc::try_unwrap(shared) {
        Ok(m) => m.into_inner().unwrap_or_else(|e| e.into_inner()),
        // Another thread still holds it (it cannot, once the run returned): take its contents.
        Err(arc) => {
            let mut guard = arc.lock().unwrap_or_else(|e| e.into_inner());
            let dir = guard.dir.clone();
            std::mem::replace(
                &mut *guard,
                Recorder {
                    dir,
                    header: Vec::new(),
                    method: None,
                    refutations: Vec::new(),
                    models: 0,
                    failures: Vec::new(),
                },
            )
        }
    }
}

/// Calls `f` with the recorder.
fn with_recorder<R>(shared: &Shared, f: impl FnOnce(&mut Recorder) -> R) -> R {
    let mut rec = shared.lock().unwrap_or_else(|e| e.into_inner());
    f(&mut rec)
}

/// Records the formulation a certificate's CNF files come from.
pub fn note_method(shared: &Shared, method: &str) {
    with_recorder(shared, |rec| rec.method = Some(method.to_string()));
}

pub fn witness(shared: &Shared, model: &[i32]) {
    with_recorder(shared, |rec| {
        let path = rec.dir.join("models.txt");
        let mut line = String::from("v");
        for l in model {
            line.push(' ');
            line.push_str(&l.to_string());
        }
        line.push_str(" 0\n");
        let written = crate::output::append(&path).and_then(|mut f| f.write_all(line.as_bytes()));
        match written {
            Ok(()) => rec.models += 1,
            Err(e) => rec
                .failures
                .push(format!("cannot write {}: {e}", path.display())),
        }
    });
}

/// The clauses a SAT engine was given, kept while recording.
#[derive(Default)]
pub struct ClauseLog {
    /// The clauses, each ended by 0 (as in DIMACS).
    lits: Vec<i32>,
    clauses: usize,
    /// How many of the first clauses are the model's (rows and their encodings).
    model_clauses: usize,
}

impl ClauseLog {
    pub fn add(&mut self, clause: impl IntoIterator<Item = i32>) {
        self.lits.extend(clause);
        self.lits.push(0);
        self.clauses += 1;
    }

    /// Marks the clauses so far as the model's.
    pub fn model_done(&mut self) {
        self.model_clauses = self.clauses;
    }
}

struct Stop {
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
}

extern "C" fn terminate(state: *mut c_void) -> c_int {
    // SAFETY: `state` is the `Stop` that `certify` keeps alive for the whole solve.
    let stop = unsafe { &*(state as *const Stop) };
    let late = stop.deadline.is_some_and(|d| Instant::now() >= d);
    let cancelled = stop
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(Ordering::Relaxed));
    c_int::from(late || cancelled)
}

/// Certifies that `log`'s clauses over `variables` variables, with `assumptions` (DIMACS
/// literals) as units, are unsatisfiable: writes the CNF and a DRAT proof into the recorder's
/// directory. Does nothing when no run is recorded.
pub fn certify(
    shared: &Shared,
    log: &ClauseLog,
    variables: usize,
    assumptions: &[i32],
    deadline: Option<Instant>,
) {
    with_recorder(shared, |rec| {
        let k = rec.refutations.len() + rec.failures.len() + 1;
        match write_and_prove(rec, k, log, variables, assumptions, deadline) {
            Ok(refutation) => rec.refutations.push(refutation),
            Err(why) => rec.failures.push(format!("refutation {k}: {why}")),
        }
    });
}

fn write_and_prove(
    rec: &Recorder,
    k: usize,
    log: &ClauseLog,
    variables: usize,
    assumptions: &[i32],
    deadline: Option<Instant>,
) -> Result<Refutation, String> {
    let cnf = format!("refutation-{k}.cnf");
    let proof = format!("refutation-{k}.drat");
    let clauses = log.clauses + assumptions.len();
    let search_clauses = log.clauses - log.model_clauses;
    let cnf_path = rec.dir.join(&cnf);
    let write = || -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(crate::output::create(&cnf_path)?);
        for line in &rec.header {
            writeln!(out, "c {line}")?;
        }
        if let Some(m) = &rec.method {
            writeln!(out, "c formulation: {m}")?;
        }
        writeln!(
            out,
            "c refutation {k}: the model's {} clauses (its rows and their encodings), then {search_clauses} clauses the search added (objective bounds, blocking clauses, cuts), then {} assumptions as unit clauses",
            log.model_clauses,
            assumptions.len()
        )?;
        writeln!(out, "p cnf {variables} {clauses}")?;
        let mut line = String::new();
        for &l in &log.lits {
            if l == 0 {
                line.push('0');
                writeln!(out, "{line}")?;
                line.clear();
            } else {
                line.push_str(&l.to_string());
                line.push(' ');
            }
        }
        for a in assumptions {
            writeln!(out, "{a} 0")?;
        }
        out.flush()
    };
    write().map_err(|e| format!("cannot write {}: {e}", cnf_path.display()))?;

    let proof_path = rec.dir.join(&proof);
    let c_path = CString::new(proof_path.to_string_lossy().as_bytes())
        .map_err(|_| "the proof path holds a NUL byte".to_string())?;
    let started = Instant::now();
    let stop = Stop {
        deadline,
        cancel: crate::guard::cancel_flag(),
    };
    // SAFETY: the engine is used on this thread only and released before `stop` and `c_path`
    // go; proof tracing starts right after initialisation (CaDiCaL requires it) and is closed
    // before the file is.
    // Opened here, never through a link planted in the directory (crate::output), and
    // handed to C as a stream that owns the descriptor from now on.
    let fd = crate::output::create(&proof_path)
        .map_err(|e| format!("cannot write {}: {e}", proof_path.display()))?
        .into_raw_fd();
    let answer = unsafe {
        let file = fdopen(fd, c"w".as_ptr());
        if file.is_null() {
            libc::close(fd);
            return Err(format!("cannot write {}", proof_path.display()));
        }
        let solver = ccadical_init();
        // A text proof (CaDiCaL writes binary DRAT by default): every checker reads it.
        ccadical_set_option(solver, c"binary".as_ptr(), 0);
        ccadical_trace_proof(solver, file, c_path.as_ptr());
        for &l in &log.lits {
            ccadical_add(solver, l);
        }
        for &a in assumptions {
            ccadical_add(solver, a);
            ccadical_add(solver, 0);
        }
        ccadical_set_terminate(solver, &stop as *const Stop as *mut c_void, Some(terminate));
        let answer = ccadical_solve(solver);
        ccadical_close_proof(solver);
        fclose(file);
        ccadical_release(solver);
        answer
    };
    let refuted = match answer {
        20 => true,
        0 => false,
        _ => {
            return Err(format!(
                "{cnf} has a model: the incremental engine's refutation does not hold for the clauses written (an internal error)"
            ))
        }
    };
    Ok(Refutation {
        cnf,
        proof,
        variables,
        clauses,
        model_clauses: log.model_clauses,
        search_clauses,
        assumptions: assumptions.len(),
        refuted,
        seconds: started.elapsed().as_secs_f64(),
    })
}
