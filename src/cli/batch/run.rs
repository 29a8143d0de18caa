//! `quandary batch`: run a job file's jobs (or a shard of them) as child processes, each result
//! appended to the results file as it ends, resumably, one batch per results file.

use super::*;
use clap::ArgMatches;
use indicatif::{ProgressBar, ProgressStyle};
use quandary::runner::batch::{Output, ResultLine};
use quandary::Error;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{IsTerminal, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The results already in a results file, by job id. A torn last line (a batch killed while
/// writing it) is cut off so that its job runs again; results of other jobs are refused.
pub(super) fn resume(path: &str, jobs: &[Job]) -> Result<HashSet<String>, Error> {
    let mut done = HashSet::new();
    let Ok(mut file) = std::fs::File::open(path) else {
        return Ok(done);
    };
    let mut text = String::new();
    file.read_to_string(&mut text).map_err(|source| Error::Io {
        path: path.into(),
        source,
    })?;
    let by_id: HashMap<&str, &Job> = jobs.iter().map(|j| (j.id.as_str(), j)).collect();
    let read = formats::result_lines(path, &text)?;
    if read.torn {
        eprintln!("quandary: {path}: the last line is incomplete (a batch was stopped while writing it); its job runs again");
    }
    for (k, r) in read.lines {
        if r.job.is_empty() {
            return Err(Error::input(format!(
                "{path} line {k}: a result without \"job\"; is this a results file of quandary batch?"
            )));
        }
        match by_id.get(r.id.as_str()) {
            Some(job) if job.hash == r.job => {}
            Some(job) => {
                return Err(Error::input(format!(
                    "{path} line {k}: job \"{}\" was a different command there ({}) than in the job file now ({}): these results belong to another batch; give another --out",
                    r.id,
                    r.argv.join(" "),
                    job.argv.join(" ")
                )))
            }
            None => {
                return Err(Error::input(format!(
                    "{path} line {k}: job \"{}\" is not in this job file (or not in this shard): these results belong to another batch; give another --out",
                    r.id
                )))
            }
        }
        // A job killed by a signal it was not sent by us (the batch itself interrupted, the
        // kernel's memory killer) is tried again.
        if r.status != "killed" {
            done.insert(r.id);
        }
    }
    if read.whole < text.len() {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(read.whole as u64));
        f.map_err(|source| Error::Io {
            path: path.into(),
            source,
        })?;
    }
    Ok(done)
}

/// Set in a job's environment: the quandary that runs the job dies with its parent, which may
/// be a wrapper program between the batch and it (`QUANDARY_BATCH_PROGRAM` that does not
/// `exec`): the batch's parent-death signal reaches the wrapper only, and the job went on
/// after a `kill -9` of its batch.
pub const FOLLOW_PARENT: &str = "QUANDARY_BATCH_JOB";

/// For a quandary started as a batch job ([`FOLLOW_PARENT`] set): dies when its parent does,
/// at once if it already has.
pub fn follow_parent() {
    #[cfg(target_os = "linux")]
    if std::env::var_os(FOLLOW_PARENT).is_some() {
        // SAFETY: prctl and getppid change and read only this process's own state.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // Adopted by init (or a subreaper) already: the parent died before the signal
            // was asked for.
            if libc::getppid() == 1 {
                libc::_exit(1);
            }
        }
    }
}

/// Has the child killed when the batch dies, however it dies (SIGKILL included): Linux's
/// parent-death signal. It is sent when the thread that started the child ends; each job's
/// thread waits for its child, so that is when the batch itself is gone.
pub(super) fn die_with_parent(cmd: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: getpid is async-signal-safe.
        let parent = unsafe { libc::getpid() };
        // SAFETY: the closure calls only async-signal-safe functions (prctl, getppid, _exit).
        unsafe {
            cmd.pre_exec(move || {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                // The batch died before the signal was asked for.
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}

/// Takes the results file for this batch alone (an advisory lock, held until the batch
/// exits); refused if another batch holds it.
pub(super) fn lock_results(file: &std::fs::File, path: &str) -> Result<(), Error> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor this process holds open.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(());
    }
    let e = std::io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Err(Error::input(format!(
            "{path} is being written by another quandary batch; wait for it to end (this batch would run its jobs again), or give another --out"
        )))
    } else {
        Err(Error::Io {
            path: path.to_string(),
            source: e,
        })
    }
}

/// Extra wall-clock time a job gets past its own time limit before the batch kills it.
pub(super) fn grace(limit: f64) -> Duration {
    Duration::try_from_secs_f64(limit * 0.25 + 5.0).unwrap_or(Duration::MAX)
}

/// Set when the batch is asked to stop (Ctrl-C, SIGTERM from a scheduler).
pub(super) static STOP: AtomicBool = AtomicBool::new(false);

/// Ctrl-C and SIGTERM stop the batch: the jobs in flight are killed (each runs in a process
/// group of its own, so a terminal's Ctrl-C reaches only the batch) and not recorded.
pub(super) fn stop_on_signals() {
    extern "C" fn on_stop(_: libc::c_int) {
        STOP.store(true, Ordering::SeqCst);
    }
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
    }
}

/// Kills a job's whole process group (a wrapper program and whatever it started).
pub(super) fn kill_group(child: &mut std::process::Child) {
    // SAFETY: kill(2) on the group this child leads (it was started with process_group(0)).
    unsafe {
        libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
    }
    let _ = child.kill();
}

/// This program, to run a job: on Linux its own file through /proc (the very build running
/// the batch, even when a rebuild has since replaced or removed the file at its path, which
/// left a long batch's next job unable to start), elsewhere its path.
fn own_program() -> std::path::PathBuf {
    let own = std::path::Path::new("/proc/self/exe");
    if cfg!(target_os = "linux") && own.exists() {
        return own.into();
    }
    std::env::current_exe().unwrap_or_else(|_| "quandary".into())
}

/// Runs one job as a child process of this program; `None` if the batch was stopped first
/// (a signal, or the batch's own time limit `until`): the job is then not recorded, and a
/// resume runs it again.
pub(super) fn run_job(
    job: &Job,
    memory_mb: Option<u64>,
    until: Option<Instant>,
) -> Option<ResultLine> {
    let started = Instant::now();
    // QUANDARY_BATCH_PROGRAM: run jobs through another program (a wrapper that starts
    // quandary in a container, say); by default this one.
    let exe = match std::env::var_os("QUANDARY_BATCH_PROGRAM") {
        Some(p) => std::path::PathBuf::from(p),
        None => own_program(),
    };
    let mut cmd = Command::new(exe);
    cmd.args(&job.argv)
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(mb) = memory_mb {
        cmd.env("QUANDARY_MEMORY_MB", mb.to_string());
    }
    // A quandary started by a wrapper (which gets the parent-death signal) follows the
    // wrapper when it dies ([`follow_parent`]).
    cmd.env(FOLLOW_PARENT, "1");
    die_with_parent(&mut cmd);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Some(ended(
                job,
                "error".into(),
                None,
                Some(format!("could not start: {e}")),
                0.0,
                Output::default(),
            ))
        }
    };
    let pipe = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = pipe(Box::new(child.stdout.take().expect("piped")));
    let err = pipe(Box::new(child.stderr.take().expect("piped")));
    let kill_at = job.time_limit.and_then(|t| {
        started.checked_add(Duration::try_from_secs_f64(t).ok()?.checked_add(grace(t))?)
    });
    let mut overran = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) => {}
            Err(_) => break None,
        }
        if STOP.load(Ordering::SeqCst) || until.is_some_and(|u| Instant::now() >= u) {
            kill_group(&mut child);
            let _ = child.wait();
            return None;
        }
        if kill_at.is_some_and(|k| Instant::now() >= k) {
            overran = true;
            kill_group(&mut child);
            break child.wait().ok();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // A job ended by the signal that is stopping the batch too (Slurm's scancel and its time
    // limit signal every process of the task, so the job may end first): the batch's own stop,
    // not an end of the job's, and not recorded, as the jobs in flight a stop kills are not
    // (it was recorded `killed`, under the batch's word that nothing in flight was).
    if let Some(signal) = status.and_then(|s| std::os::unix::process::ExitStatusExt::signal(&s)) {
        if [libc::SIGTERM, libc::SIGINT, libc::SIGHUP].contains(&signal) {
            let wait_until = Instant::now() + Duration::from_millis(500);
            while !STOP.load(Ordering::SeqCst) && Instant::now() < wait_until {
                std::thread::sleep(Duration::from_millis(10));
            }
            if STOP.load(Ordering::SeqCst) {
                return None;
            }
        }
    }
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let seconds = started.elapsed().as_secs_f64();
    let last_words = |s: &str| {
        let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(3)..].join(" / ")
    };
    let exit = status.and_then(|s| s.code());
    let outcome = Output::of_stdout(&stdout);
    // What the job printed says how it ended, unless it panicked (exit status 101).
    let said = (exit != Some(101)).then_some(&outcome);
    let (status, message) = if overran {
        (
            "timeout".to_string(),
            Some(format!(
                "killed after {seconds:.1} s: over its time limit of {} s plus {:.0} s",
                job.time_limit.unwrap_or(0.0),
                grace(job.time_limit.unwrap_or(0.0)).as_secs_f64()
            )),
        )
    } else if exit.is_none() {
        use std::os::unix::process::ExitStatusExt;
        let signal = status.and_then(|s| s.signal()).unwrap_or(0);
        (
            "killed".to_string(),
            Some(format!("ended by signal {signal}: {}", last_words(&stderr))),
        )
    } else if let Some(Output::Report(r)) = said {
        // A cube's question is the cube: its answer there is the job's answer.
        let status = match (&r.cube, &r.in_scope) {
            (Some(_), Some(scoped)) => scoped.status,
            _ => r.status,
        };
        (status.word().to_string(), None)
    } else if let Some(Output::Failed { status, error }) = said {
        (status.clone(), Some(error.clone()))
    } else if let Some(s) = said.and_then(|o| match o {
        Output::Other(v) => v["status"].as_str(),
        _ => None,
    }) {
        (s.to_string(), None)
    } else {
        let why = match exit {
            Some(101) => "panicked",
            _ => "ended without an answer",
        };
        (
            "crashed".to_string(),
            Some(format!(
                "{why} (exit status {}): {}",
                exit.unwrap_or(-1),
                last_words(&stderr)
            )),
        )
    };
    Some(ended(job, status, exit, message, seconds, outcome))
}

/// The result line of a job that ended so.
fn ended(
    job: &Job,
    status: String,
    exit: Option<i32>,
    message: Option<String>,
    seconds: f64,
    outcome: Output,
) -> ResultLine {
    ResultLine {
        id: job.id.clone(),
        job: job.hash.clone(),
        line: job.line as u64,
        argv: job.argv.clone(),
        status,
        exit,
        seconds: (seconds * 1000.0).round() / 1000.0,
        message,
        outcome,
    }
}

/// `quandary batch`.
pub fn batch(m: &ArgMatches) -> Result<i32, Error> {
    let path = m.get_one::<String>("jobs").expect("required");
    let (all, skipped) = read_jobs(path)?;
    let shard = formats::shard(m.get_one::<String>("shard").map(String::as_str), &|name| {
        std::env::var(name).ok()
    })?;
    let mine: Vec<Job> = match &shard {
        Some(sh) => all
            .iter()
            .enumerate()
            .filter(|(k, _)| k % sh.count == sh.index)
            .map(|(_, j)| j.clone())
            .collect(),
        None => all.clone(),
    };
    let stem = path.strip_suffix(".jsonl").unwrap_or(path);
    let out = match (m.get_one::<String>("out"), &shard) {
        (Some(o), _) => o.clone(),
        (None, Some(sh)) => format!("{stem}.results-{}-of-{}.jsonl", sh.index, sh.count),
        (None, None) => format!("{stem}.results.jsonl"),
    };
    // One writer per results file: a second batch on it (a resubmitted array job) would run
    // every job again and interleave its lines with ours.
    let file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&out)
        .map_err(|source| Error::Io {
            path: out.clone(),
            source,
        })?;
    lock_results(&file, &out)?;
    let done = resume(&out, &mine)?;
    let pending: Vec<Job> = mine
        .iter()
        .filter(|j| !done.contains(&j.id))
        .cloned()
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let k = m
        .get_one::<usize>("jobs-at-once")
        .copied()
        .unwrap_or(cores)
        .max(1);
    // Each child takes its share of the memory limit, unless the user set one.
    let memory_mb = std::env::var("QUANDARY_MEMORY_MB")
        .is_err()
        .then(|| quandary::guard::memory_limit() / (1 << 20) / k as u64);
    eprintln!(
        "quandary: {} jobs in {path}{}; {} done already in {out}; running {} ({} at a time)",
        all.len(),
        shard.as_ref().map_or(String::new(), |sh| format!(
            ", {} in shard {} of {} ({})",
            mine.len(),
            sh.index,
            sh.count,
            sh.from
        )),
        mine.len() - pending.len(),
        pending.len(),
        k
    );
    // The batch's own time limit (a scheduler's wall-clock allowance): no job starts after
    // it, and the jobs in flight then are stopped and left for a resume.
    let limit = super::super::time_limit(m)?;
    let until = limit.and_then(|l| Instant::now().checked_add(l));
    let over = || until.is_some_and(|u| Instant::now() >= u);
    let file = Mutex::new(file);
    stop_on_signals();
    let counts: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(pending.len() as u64);
        b.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} jobs, {elapsed} (about {eta} left) {msg}",
            )
            .expect("valid template"),
        );
        b.enable_steady_tick(Duration::from_millis(500));
        Some(b)
    } else {
        None
    };
    let queue = Mutex::new(pending.iter());
    let failed_write: Mutex<Option<Error>> = Mutex::new(None);
    let finished = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..k.min(pending.len().max(1)) {
            s.spawn(|| loop {
                let Some(job) = queue.lock().expect("queue").next() else {
                    break;
                };
                if failed_write.lock().expect("flag").is_some()
                    || STOP.load(Ordering::SeqCst)
                    || over()
                {
                    break;
                }
                let Some(e) = run_job(job, memory_mb, until) else {
                    break;
                };
                let line = serde_json::to_string(&e).unwrap_or_default();
                let written = {
                    let mut f = file.lock().expect("file");
                    writeln!(f, "{line}")
                        .and_then(|()| f.flush())
                        .and_then(|()| f.sync_data())
                };
                if let Err(source) = written {
                    *failed_write.lock().expect("flag") = Some(Error::Io {
                        path: out.clone(),
                        source,
                    });
                    break;
                }
                let summary = {
                    let mut c = counts.lock().expect("counts");
                    *c.entry(e.status.clone()).or_default() += 1;
                    c.iter()
                        .map(|(k, v)| format!("{k} {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let n = finished.fetch_add(1, Ordering::SeqCst) + 1;
                match &bar {
                    Some(b) => {
                        b.set_message(summary);
                        b.inc(1);
                    }
                    None => eprintln!(
                        "[{n}/{}] {}: {} ({:.1} s)",
                        pending.len(),
                        job.id,
                        e.status,
                        e.seconds
                    ),
                }
            });
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(e) = failed_write.into_inner().expect("flag") {
        return Err(e);
    }
    let counts = counts.into_inner().expect("counts");
    if STOP.load(Ordering::SeqCst) {
        let n = finished.load(Ordering::SeqCst);
        eprintln!(
            "quandary: stopped after {n} of {} jobs; the jobs in flight were not recorded; the same command resumes",
            pending.len()
        );
        return Ok(130);
    }
    if over() && finished.load(Ordering::SeqCst) < pending.len() {
        let n = finished.load(Ordering::SeqCst);
        eprintln!(
            "quandary: the batch's time limit ({} s) ended it after {n} of {} jobs; the jobs in flight were not recorded; the same command resumes",
            limit.map_or(0.0, |l| l.as_secs_f64()),
            pending.len()
        );
        return Ok(1);
    }
    let open: usize = counts
        .iter()
        .filter(|(s, _)| !formats::answered(s))
        .map(|(_, n)| n)
        .sum();
    eprintln!(
        "quandary: {} jobs run, results in {out}: {}",
        pending.len(),
        if counts.is_empty() {
            "nothing to do".to_string()
        } else {
            counts
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    if skipped > 0 {
        eprintln!(
            "quandary: {skipped} lines of {path} were skipped (see above): mend them and run again"
        );
    }
    Ok(if open > 0 || skipped > 0 { 1 } else { 0 })
}
