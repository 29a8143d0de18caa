//! Many runs: `quandary jobs` writes them, `quandary batch` runs them, `quandary merge`
//! combines their results. No scheduler: a batch runs its share of a job file on one machine,
//! and cluster engines (Slurm arrays, Kubernetes Indexed Jobs, GNU parallel) start as many
//! batches as they like, each picking its shard by an index.
//!
//! A job is one command line of quandary (`{"puzzle", "query", "args", "time_limit", "id"}`),
//! run as a child process of this program with `--json`: a job that panics, aborts, overruns
//! or is killed harms no other job and is recorded as such. Results are appended one line per
//! job and flushed, so a rerun resumes where a killed batch stopped.

use super::command;
use clap::ArgMatches;
use indicatif::{ProgressBar, ProgressStyle};
use quandary::runner::cubes::{self, Part};
use quandary::runner::registry::{self, OptionsIn};
use quandary::runner::Query;
use quandary::solve::search::Status;
use quandary::Error;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{IsTerminal, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One job of a job file.
#[derive(Clone, Debug)]
struct Job {
    /// Line number in the job file, from 1.
    line: usize,
    id: String,
    /// A fingerprint of the command it runs: a result is this job's only if it matches.
    hash: String,
    /// The command line after `quandary`, with `--json` (and `--time-limit`).
    argv: Vec<String>,
    time_limit: Option<f64>,
}

/// FNV-1a, 64 bits: a fingerprint stable across builds and platforms (not a security hash).
fn fingerprint(parts: &[String]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The words of a JSON value that stands for command-line words.
fn words_of(v: &Value, what: &str) -> Result<Vec<String>, String> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Number(n) => Ok(vec![n.to_string()]),
        Value::Array(a) => a
            .iter()
            .map(|w| match w {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                _ => Err(format!("\"{what}\" must hold strings or numbers")),
            })
            .collect(),
        _ => Err(format!("\"{what}\" must be a list of words")),
    }
}

/// A job line read: the command it stands for, checked by the command line's own parser.
fn read_job(line: usize, text: &str) -> Result<Job, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(o) = &v else {
        return Err("a job is a JSON object".into());
    };
    const KNOWN: [&str; 9] = [
        "id",
        "puzzle",
        "query",
        "verb",
        "input",
        "args",
        "at_least",
        "time_limit",
        "cube",
    ];
    if let Some(k) = o.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(format!(
            "unknown field \"{k}\" (a job has {})",
            KNOWN.join(", ")
        ));
    }
    let puzzle = v["puzzle"]
        .as_str()
        .ok_or("give \"puzzle\": one of tank, gunport, chess, battleship, tantrix")?;
    if registry::find(puzzle).is_none() {
        return Err(format!("no puzzle '{puzzle}'"));
    }
    let query = v["query"]
        .as_str()
        .or(v["verb"].as_str())
        .ok_or("give \"query\": the verb, as on the command line (solve, optimum, count, ...)")?;
    let mut argv = vec![puzzle.to_string(), query.to_string()];
    argv.extend(words_of(&v["input"], "input")?);
    match &v["args"] {
        Value::Object(flags) => {
            for (k, val) in flags {
                let flag = format!("--{}", k.trim_start_matches('-').replace('_', "-"));
                match val {
                    Value::Bool(true) => argv.push(flag),
                    Value::Bool(false) | Value::Null => {}
                    Value::Array(_) => {
                        for w in words_of(val, k)? {
                            argv.extend([flag.clone(), w]);
                        }
                    }
                    other => {
                        let w = words_of(other, k)?;
                        argv.push(flag);
                        argv.extend(w);
                    }
                }
            }
        }
        other => argv.extend(words_of(other, "args")?),
    }
    if let Some(n) = v.get("at_least") {
        argv.extend(["--at-least".into(), words_of(n, "at_least")?.concat()]);
    }
    let time_limit = match &v["time_limit"] {
        Value::Null => None,
        t => match t.as_f64() {
            Some(s) if s.is_finite() && s >= 0.0 => Some(s),
            _ => return Err(format!("time_limit {t} is not a number of seconds")),
        },
    };
    if let Some(t) = time_limit {
        argv.extend(["--time-limit".into(), t.to_string()]);
    }
    argv.push("--json".into());
    // The command line's own parser: a job that would not run is found now, not later.
    command()
        .try_get_matches_from(std::iter::once("quandary".to_string()).chain(argv.clone()))
        .map_err(|e| {
            let text = e.render().to_string();
            text.lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ")
                .to_string()
        })?;
    let hash = fingerprint(&argv);
    let id = match &v["id"] {
        Value::Null => format!("job-{hash}"),
        Value::String(s) if !s.is_empty() => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return Err("\"id\" must be a non-empty string or a number".into()),
    };
    Ok(Job {
        line,
        id,
        hash,
        argv,
        time_limit,
    })
}

/// The jobs of a file; bad lines reported (with their numbers) and skipped.
fn read_jobs(path: &str) -> Result<(Vec<Job>, usize), Error> {
    let text = quandary::input::read_file(path)?;
    let mut jobs: Vec<Job> = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut skipped = 0;
    for (k, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        match read_job(k + 1, t) {
            Ok(job) => {
                if let Some(first) = ids.get(&job.id) {
                    eprintln!(
                        "quandary: {path} line {}: skipped: id \"{}\" is already the id of line {first}",
                        k + 1,
                        job.id
                    );
                    skipped += 1;
                    continue;
                }
                ids.insert(job.id.clone(), k + 1);
                jobs.push(job);
            }
            Err(why) => {
                eprintln!("quandary: {path} line {}: skipped: {why}", k + 1);
                skipped += 1;
            }
        }
    }
    Ok((jobs, skipped))
}

/// Which share of the jobs this batch runs: `(index, count, where it came from)`.
fn shard(arg: Option<&String>) -> Result<Option<(usize, usize, String)>, Error> {
    let number = |name: &str, s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| Error::input(format!("{name}={s} is not a whole number")))
    };
    let env = |name: &str| std::env::var(name).ok().filter(|s| !s.trim().is_empty());
    let (i, n, from) = if let Some(s) = arg {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| Error::input(format!("--shard {s}: write I/N, e.g. 0/4")))?;
        (
            number("--shard index", i)?,
            number("--shard count", n)?,
            format!("--shard {s}"),
        )
    } else if let Some(id) = env("SLURM_ARRAY_TASK_ID") {
        let count = env("SLURM_ARRAY_TASK_COUNT").ok_or_else(|| {
            Error::input("SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT")
        })?;
        let min =
            env("SLURM_ARRAY_TASK_MIN").map_or(Ok(0), |m| number("SLURM_ARRAY_TASK_MIN", &m))?;
        let step = env("SLURM_ARRAY_TASK_STEP")
            .map_or(Ok(1), |m| number("SLURM_ARRAY_TASK_STEP", &m))?
            .max(1);
        let id = number("SLURM_ARRAY_TASK_ID", &id)?;
        (
            id.checked_sub(min)
                .ok_or_else(|| Error::input("SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN"))?
                / step,
            number("SLURM_ARRAY_TASK_COUNT", &count)?,
            format!("Slurm array task {id}"),
        )
    } else if let Some(index) = env("JOB_COMPLETION_INDEX") {
        let count = env("JOB_COMPLETIONS").ok_or_else(|| {
            Error::input("JOB_COMPLETION_INDEX is set but not JOB_COMPLETIONS: set it in the Job's environment to spec.completions (see deploy/kubernetes-job.yaml), or give --shard I/N")
        })?;
        (
            number("JOB_COMPLETION_INDEX", &index)?,
            number("JOB_COMPLETIONS", &count)?,
            format!("Kubernetes completion index {index}"),
        )
    } else {
        return Ok(None);
    };
    if n == 0 || i >= n {
        return Err(Error::input(format!(
            "{from}: shard {i} of {n} does not exist (shards are 0 to N-1)"
        )));
    }
    Ok(Some((i, n, from)))
}

/// The result lines of a results file, with their line numbers (from 1), and the length of the
/// text up to the last whole line. A last line cut short (a batch killed while writing it) is
/// left out and said; any other line that is not a JSON object is an error.
fn result_lines(path: &str, text: &str, torn: &str) -> Result<(Vec<(usize, Value)>, usize), Error> {
    let mut out = Vec::new();
    let mut whole = 0;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (k, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            whole += line.len();
            continue;
        }
        match serde_json::from_str::<Value>(line.trim_end()) {
            Ok(v) if line.ends_with('\n') && v.is_object() => out.push((k + 1, v)),
            _ if k + 1 == lines.len() => {
                eprintln!("quandary: {path}: the last line is incomplete (a batch was stopped while writing it); {torn}");
                break;
            }
            _ => {
                return Err(Error::input(format!(
                    "{path} line {}: not a result line; is this a results file of quandary batch?",
                    k + 1
                )))
            }
        }
        whole += line.len();
    }
    Ok((out, whole))
}

/// The results already in a results file, by job id. A torn last line (a batch killed while
/// writing it) is cut off so that its job runs again; results of other jobs are refused.
fn resume(path: &str, jobs: &[Job]) -> Result<HashSet<String>, Error> {
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
    let (lines, good_len) = result_lines(path, &text, "its job runs again")?;
    for (k, v) in lines {
        let (Some(id), Some(hash)) = (v["id"].as_str(), v["job"].as_str()) else {
            return Err(Error::input(format!(
                "{path} line {}: a result without \"id\" and \"job\"; is this a results file of quandary batch?",
                k
            )));
        };
        match by_id.get(id) {
            Some(job) if job.hash == hash => {}
            Some(job) => {
                return Err(Error::input(format!(
                    "{path} line {}: job \"{id}\" was a different command there ({}) than in the job file now ({}): these results belong to another batch; give another --out",
                    k,
                    v["argv"].as_array().map_or(String::new(), |a| a.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" ")),
                    job.argv.join(" ")
                )))
            }
            None => {
                return Err(Error::input(format!(
                    "{path} line {}: job \"{id}\" is not in this job file (or not in this shard): these results belong to another batch; give another --out",
                    k
                )))
            }
        }
        // A job killed by a signal it was not sent by us (the batch itself interrupted, the
        // kernel's memory killer) is tried again.
        if v["status"] != "killed" {
            done.insert(id.to_string());
        }
    }
    if good_len < text.len() {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(good_len as u64));
        f.map_err(|source| Error::Io {
            path: path.into(),
            source,
        })?;
    }
    Ok(done)
}

/// Has the child killed when the batch dies, however it dies (SIGKILL included): Linux's
/// parent-death signal. It is sent when the thread that started the child ends; each job's
/// thread waits for its child, so that is when the batch itself is gone.
fn die_with_parent(cmd: &mut Command) {
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
fn lock_results(file: &std::fs::File, path: &str) -> Result<(), Error> {
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

/// How one job ended.
struct Ended {
    status: String,
    exit: Option<i32>,
    outcome: Value,
    message: Option<String>,
    seconds: f64,
}

/// Extra wall-clock time a job gets past its own time limit before the batch kills it.
fn grace(limit: f64) -> Duration {
    Duration::try_from_secs_f64(limit * 0.25 + 5.0).unwrap_or(Duration::MAX)
}

/// Set when the batch is asked to stop (Ctrl-C, SIGTERM from a scheduler).
static STOP: AtomicBool = AtomicBool::new(false);

/// Ctrl-C and SIGTERM stop the batch: the jobs in flight are killed (each runs in a process
/// group of its own, so a terminal's Ctrl-C reaches only the batch) and not recorded.
fn stop_on_signals() {
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
fn kill_group(child: &mut std::process::Child) {
    // SAFETY: kill(2) on the group this child leads (it was started with process_group(0)).
    unsafe {
        libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
    }
    let _ = child.kill();
}

/// Runs one job as a child process of this program; `None` if the batch was stopped first.
fn run_job(job: &Job, memory_mb: Option<u64>) -> Option<Ended> {
    let started = Instant::now();
    // QUANDARY_BATCH_PROGRAM: run jobs through another program (a wrapper that starts
    // quandary in a container, say); by default this one.
    let exe = match std::env::var_os("QUANDARY_BATCH_PROGRAM") {
        Some(p) => std::path::PathBuf::from(p),
        None => std::env::current_exe().unwrap_or_else(|_| "quandary".into()),
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
    die_with_parent(&mut cmd);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Some(Ended {
                status: "error".into(),
                exit: None,
                outcome: Value::Null,
                message: Some(format!("could not start: {e}")),
                seconds: 0.0,
            })
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
        if STOP.load(Ordering::SeqCst) {
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
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let seconds = started.elapsed().as_secs_f64();
    let last_words = |s: &str| {
        let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(3)..].join(" / ")
    };
    let outcome: Value = stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .unwrap_or(Value::Null);
    let exit = status.and_then(|s| s.code());
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
    } else if let Some(s) = outcome["in_scope"]["status"]
        .as_str()
        .filter(|_| outcome["cube"].is_object() && exit != Some(101))
    {
        // A cube's question is the cube: its answer there is the job's answer.
        (s.to_string(), None)
    } else if let Some(s) = outcome["status"].as_str().filter(|_| exit != Some(101)) {
        let message = outcome["error"].as_str().map(str::to_string);
        (s.to_string(), message)
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
    Some(Ended {
        status,
        exit,
        outcome,
        message,
        seconds,
    })
}

/// `quandary batch`.
pub fn batch(m: &ArgMatches) -> Result<i32, Error> {
    let path = m.get_one::<String>("jobs").expect("required");
    let (all, skipped) = read_jobs(path)?;
    let shard = shard(m.get_one::<String>("shard"))?;
    let mine: Vec<Job> = match &shard {
        Some((i, n, _)) => all
            .iter()
            .enumerate()
            .filter(|(k, _)| k % n == *i)
            .map(|(_, j)| j.clone())
            .collect(),
        None => all.clone(),
    };
    let stem = path.strip_suffix(".jsonl").unwrap_or(path);
    let out = match (m.get_one::<String>("out"), &shard) {
        (Some(o), _) => o.clone(),
        (None, Some((i, n, _))) => format!("{stem}.results-{i}-of-{n}.jsonl"),
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
        shard.as_ref().map_or(String::new(), |(i, n, from)| format!(
            ", {} in shard {i} of {n} ({from})",
            mine.len()
        )),
        mine.len() - pending.len(),
        pending.len(),
        k
    );
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
                if failed_write.lock().expect("flag").is_some() || STOP.load(Ordering::SeqCst) {
                    break;
                }
                let Some(e) = run_job(job, memory_mb) else {
                    break;
                };
                let line = json!({"id": job.id, "job": job.hash, "line": job.line,
                    "argv": job.argv, "status": e.status, "exit": e.exit,
                    "seconds": (e.seconds * 1000.0).round() / 1000.0,
                    "message": e.message, "outcome": e.outcome});
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
    let open: usize = counts
        .iter()
        .filter(|(s, _)| !answered(s))
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

/// The words of a job generator's command with every `A..B` range expanded: one command per
/// combination (with `ascending`, only those whose ranged values do not decrease).
fn expand(words: &[String], ascending: bool) -> Result<Vec<Vec<String>>, Error> {
    // A range may carry a `/N` after it (`--part 1..40/40`), kept on every value.
    let range = |w: &str| -> Option<(i64, i64, String)> {
        let (w, tail) = match w.find('/') {
            Some(k) => (&w[..k], w[k..].to_string()),
            None => (w, String::new()),
        };
        let (a, b) = w.split_once("..")?;
        Some((a.parse().ok()?, b.parse().ok()?, tail))
    };
    let mut out: Vec<(Vec<String>, Vec<i64>)> = vec![(Vec::new(), Vec::new())];
    for w in words {
        match range(w) {
            Some((a, b, tail)) if a <= b && b - a <= 10_000 => {
                out = out
                    .into_iter()
                    .flat_map(|(ws, vs)| {
                        let tail = tail.clone();
                        (a..=b).filter_map(move |x| {
                            if ascending && vs.last().is_some_and(|&p| x < p) {
                                return None;
                            }
                            let mut ws = ws.clone();
                            ws.push(format!("{x}{tail}"));
                            let mut vs = vs.clone();
                            vs.push(x);
                            Some((ws, vs))
                        })
                    })
                    .collect();
            }
            Some((a, b, _)) => {
                return Err(Error::input(format!(
                    "range {a}..{b}: give A..B with A ≤ B and at most 10000 values"
                )))
            }
            None => out.iter_mut().for_each(|(ws, _)| ws.push(w.clone())),
        }
        if out.len() > 1_000_000 {
            return Err(Error::input("more than a million jobs: narrow the ranges"));
        }
    }
    Ok(out.into_iter().map(|(ws, _)| ws).collect())
}

/// `quandary jobs`: writes the job file of a sweep (ranges `A..B` in any word) or of one
/// question split into cubes (`--cubes K`).
pub fn jobs(m: &ArgMatches) -> Result<i32, Error> {
    let words: Vec<String> = m
        .get_many::<String>("command")
        .expect("required")
        .cloned()
        .collect();
    let cubes = m.get_one::<usize>("cubes").copied();
    let mut limit = m.get_one::<f64>("time-limit").copied();
    let mut lines = Vec::new();
    for mut argv in expand(&words, m.get_flag("ascending"))? {
        // A --time-limit in the command becomes the job's own (the batch kills overruns).
        if let Some(k) = argv.iter().position(|w| w == "--time-limit") {
            let t = argv.get(k + 1).and_then(|t| t.parse().ok());
            if t.is_none() {
                return Err(Error::input("--time-limit needs a number of seconds"));
            }
            limit = limit.or(t);
            argv.drain(k..k + 2);
        }
        let parsed = command()
            .try_get_matches_from(std::iter::once("quandary".to_string()).chain(argv.clone()))
            .map_err(|e| {
                Error::input(format!(
                    "`{}`: {} (the flags of `quandary jobs` itself, --cubes, --ascending, --time-limit, -o, go before the puzzle)",
                    argv.join(" "),
                    e.render().to_string().lines().next().unwrap_or("")
                ))
            })?;
        let [puzzle, verb, rest @ ..] = argv.as_slice() else {
            return Err(Error::input(
                "give a puzzle and a verb, e.g. `gunport optimum 1..12 1..12`",
            ));
        };
        let job = |id: String, args: Vec<String>, cube: Option<(usize, usize)>| {
            let mut j = json!({"id": id, "puzzle": puzzle, "query": verb, "args": args});
            if let Some(t) = limit {
                j["time_limit"] = json!(t);
            }
            if let Some((i, k)) = cube {
                j["cube"] = json!({"index": i, "of": k});
            }
            j
        };
        let id = argv.join(" ");
        match cubes {
            None => lines.push(job(id, rest.to_vec(), None)),
            Some(k) => {
                let (entry, vm, query) = generic(&parsed).ok_or_else(|| {
                    Error::input("--cubes splits solve, count, unique, optimum and reach questions")
                })?;
                if query == Query::Forced {
                    return Err(Error::input(
                        "--cubes splits solve, count, unique, optimum and reach questions, not forced",
                    ));
                }
                // With --cube C, the cube C is split further (a hard cube of an earlier split):
                // each new cube is C plus decisions at places C does not fix.
                let within = match vm.try_get_one::<String>("cube").ok().flatten() {
                    Some(text) => {
                        cubes::parse(text).map_err(|e| Error::input(format!("--cube: {e}")))?
                    }
                    None => Vec::new(),
                };
                let input: Vec<String> = vm
                    .get_many::<String>("input")
                    .map(|w| w.cloned().collect())
                    .unwrap_or_default();
                let places = entry.decisions(&input, OptionsIn::Matches(vm), query)?;
                let fixed: Vec<_> = within
                    .iter()
                    .filter_map(|l| places.get(l.unsigned_abs() as usize - 1))
                    .collect();
                let free: Vec<usize> = cubes::split_decisions(&places)
                    .into_iter()
                    .filter(|&d| !fixed.contains(&&places[d]))
                    .collect();
                let split: Vec<cubes::Cube> = cubes::split(&free, k)
                    .map_err(Error::input)?
                    .into_iter()
                    .map(|c| within.iter().copied().chain(c).collect())
                    .collect();
                let rest: Vec<String> = match rest.iter().position(|w| w == "--cube") {
                    Some(at) => [&rest[..at], &rest[at + 2..]].concat(),
                    None => rest.to_vec(),
                };
                for (i, c) in split.iter().enumerate() {
                    let mut args = rest.to_vec();
                    args.extend(["--cube".to_string(), cubes::show(c)]);
                    lines.push(job(
                        format!("{id} / cube {} of {k}", i + 1),
                        args,
                        Some((i + 1, k)),
                    ));
                }
            }
        }
    }
    // Every job written is one `quandary batch` will run.
    for (k, l) in lines.iter().enumerate() {
        read_job(k + 1, &l.to_string())
            .map_err(|why| Error::input(format!("job {} would not run: {why}", k + 1)))?;
    }
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    match m.get_one::<String>("output") {
        Some(path) if path != "-" => {
            super::write_file(path, &text)?;
            eprintln!("quandary: {} jobs written to {path}", lines.len());
        }
        _ => print!("{text}"),
    }
    Ok(0)
}

/// The puzzle, the verb's flags and the query of a generic verb's command line.
fn generic(matches: &ArgMatches) -> Option<(&'static dyn registry::Entry, &ArgMatches, Query)> {
    let (name, pm) = matches.subcommand()?;
    let entry = registry::find(name)?;
    let (verb, vm) = pm.subcommand()?;
    let query = super::query_of(entry, verb, vm)?;
    Some((entry, vm, query))
}

/// One result line of a results file.
struct Result1 {
    id: String,
    /// The job's line in its job file (results are listed in that order).
    line: u64,
    argv: Vec<String>,
    status: String,
    seconds: f64,
    outcome: Value,
    message: Option<String>,
}

/// The command a result answers, without the words that only say how it ran (`--cube`,
/// `--time-limit`, `--json`): results with the same key answer one question.
fn question(argv: &[String]) -> String {
    let mut out = Vec::new();
    let mut it = argv.iter();
    while let Some(w) = it.next() {
        match w.as_str() {
            "--cube" | "--time-limit" => {
                it.next();
            }
            "--json" => {}
            _ => out.push(w.clone()),
        }
    }
    out.join(" ")
}

fn read_results(paths: &[String]) -> Result<Vec<Result1>, Error> {
    let mut out: Vec<Result1> = Vec::new();
    let mut seen: HashMap<String, (String, usize)> = HashMap::new();
    for path in paths {
        let text = quandary::input::read_file(path)?;
        let (lines, _) = result_lines(
            path,
            &text,
            "left out (run the batch again to redo its job)",
        )?;
        for (k, v) in lines {
            let (Some(id), Some(argv)) = (v["id"].as_str(), v["argv"].as_array()) else {
                return Err(Error::input(format!(
                    "{path} line {}: a result without \"id\" and \"argv\"",
                    k
                )));
            };
            let at = format!("{path} line {}", k);
            let result = Result1 {
                id: id.to_string(),
                line: v["line"].as_u64().unwrap_or(u64::MAX),
                argv: argv
                    .iter()
                    .filter_map(|w| w.as_str().map(str::to_string))
                    .collect(),
                status: v["status"].as_str().unwrap_or("error").to_string(),
                seconds: v["seconds"].as_f64().unwrap_or(0.0),
                outcome: v["outcome"].clone(),
                message: v["message"].as_str().map(str::to_string),
            };
            match seen.get(id).cloned() {
                // A killed job runs again on resume: its later result replaces the kill.
                Some((_, index)) if out[index].status == "killed" => out[index] = result,
                Some((first, _)) => {
                    return Err(Error::input(format!(
                        "job \"{id}\" has two results ({first} and {at}): merge each batch's results once"
                    )))
                }
                None => {
                    seen.insert(id.to_string(), (at, out.len()));
                    out.push(result);
                }
            }
        }
    }
    Ok(out)
}

/// A status word of a report (as `--json` writes it); anything else (a job that failed:
/// `error`, `crashed`, `killed`, `timeout`) is no answer.
fn status_of(s: &str) -> Status {
    serde_json::from_value(json!(s)).unwrap_or(Status::Unknown)
}

/// Whether a status word is an answer (solved, optimal, infeasible).
fn answered(s: &str) -> bool {
    status_of(s) != Status::Unknown
}

/// Whether a job ended with a report of its own, answered or stopped by its limit (not
/// failed).
fn reported(s: &str) -> bool {
    answered(s) || s == "unknown"
}

/// A cube's answer, read off its result.
fn part(r: &Result1) -> Part {
    let o = &r.outcome;
    let scoped = &o["in_scope"];
    let status = if !reported(&r.status) {
        Status::Unknown
    } else if scoped.is_object() {
        status_of(scoped["status"].as_str().unwrap_or(""))
    } else {
        status_of(o["status"].as_str().unwrap_or(""))
    };
    let num = |v: &Value| {
        v.as_u64()
            .map(u128::from)
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    };
    Part {
        cube: serde_json::from_value(o["cube"]["literals"].clone()).unwrap_or_default(),
        status,
        count: num(&scoped["count"]),
        count_at_least: num(&o["count_at_least"]),
        unique: scoped["unique"].as_bool(),
        objective: o["objective"].as_i64(),
        source: r.id.clone(),
    }
}

/// `quandary merge`: the answer of every question in results files; the cubes of a split
/// question combined into its answer, after checking that they cover the whole space.
pub fn merge(m: &ArgMatches) -> Result<i32, Error> {
    let paths: Vec<String> = m
        .get_many::<String>("results")
        .expect("required")
        .cloned()
        .collect();
    let results = read_results(&paths)?;
    if let Some(jobs_path) = m.get_one::<String>("jobs") {
        let have: HashSet<&str> = results.iter().map(|r| r.id.as_str()).collect();
        let missing: Vec<String> = read_jobs(jobs_path)?
            .0
            .into_iter()
            .filter(|j| !have.contains(j.id.as_str()))
            .map(|j| j.id)
            .collect();
        if !missing.is_empty() {
            return Err(Error::input(format!(
                "{} jobs of {jobs_path} have no result (first: \"{}\"); run their batch (again) first",
                missing.len(),
                missing[0]
            )));
        }
    }
    // Questions in the order their first result appears.
    let mut order: Vec<String> = Vec::new();
    let mut groups: HashMap<String, Vec<&Result1>> = HashMap::new();
    let mut sorted: Vec<&Result1> = results.iter().collect();
    sorted.sort_by_key(|r| r.line);
    for r in sorted {
        let q = question(&r.argv);
        if !groups.contains_key(&q) {
            order.push(q.clone());
        }
        groups.entry(q).or_default().push(r);
    }
    let mut rows = Vec::new();
    for q in &order {
        let rs = &groups[q];
        let cubed = rs
            .iter()
            .filter(|r| r.outcome["cube"].is_object() || r.argv.iter().any(|w| w == "--cube"))
            .count();
        let row = if cubed == 0 {
            rs.iter().map(|r| single(q, r)).collect::<Vec<_>>()
        } else if cubed < rs.len() {
            return Err(Error::input(format!(
                "`{q}`: {} results are cubes and {} are not: results of two different batches?",
                cubed,
                rs.len() - cubed
            )));
        } else {
            vec![combined(q, rs)?]
        };
        rows.extend(row);
    }
    let open = rows
        .iter()
        .filter(|r| !answered(r["status"].as_str().unwrap_or("")))
        .count();
    if m.get_flag("json") {
        outln!("{}", json!({"answers": rows, "unanswered": open}));
    } else if m.get_flag("csv") {
        outln!("question,status,objective,count,unique,cubes,seconds,longest");
        for r in &rows {
            let field = |k: &str| match &r[k] {
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            outln!(
                "\"{}\",{},{},{},{},{},{},{}",
                field("question").replace('"', "\"\""),
                field("status"),
                field("objective"),
                field("count"),
                field("unique"),
                field("cubes"),
                field("seconds"),
                field("longest")
            );
        }
    } else {
        for r in &rows {
            outln!("{}", r["text"].as_str().unwrap_or(""));
        }
    }
    Ok(if open > 0 { 1 } else { 0 })
}

/// The answer of a question run as one job.
fn single(q: &str, r: &Result1) -> Value {
    let o = &r.outcome;
    let status = if reported(&r.status) {
        o["status"].as_str().unwrap_or(&r.status).to_string()
    } else {
        r.status.clone()
    };
    let mut text = format!("{q}: {status}");
    for (k, label) in [
        ("objective", "value"),
        ("count", "count"),
        ("unique", "unique"),
    ] {
        if !o[k].is_null() {
            text += &format!(", {label} {}", o[k]);
        }
    }
    if let Some(msg) = &r.message {
        text += &format!(" ({msg})");
    }
    json!({"question": q, "id": r.id, "status": status, "objective": o["objective"],
           "count": o["count"], "unique": o["unique"], "seconds": r.seconds,
           "longest": r.seconds, "text": text})
}

/// The answer of a question split into cubes, after the coverage check.
fn combined(q: &str, rs: &[&Result1]) -> Result<Value, Error> {
    // A cube left unanswered and split again (`jobs --cubes K ... --cube C`) is replaced by
    // its finer cubes once they have answers: it is set aside here, and the coverage check
    // below decides whether what remains covers the space.
    let all_parts: Vec<Part> = rs.iter().map(|r| part(r)).collect();
    let refined = |u: &Part| {
        u.status == Status::Unknown
            && all_parts.iter().any(|a| {
                a.status != Status::Unknown
                    && a.cube.len() > u.cube.len()
                    && u.cube.iter().all(|l| a.cube.contains(l))
            })
    };
    let keep: Vec<bool> = all_parts.iter().map(|p| !refined(p)).collect();
    let replaced = keep.iter().filter(|k| !**k).count();
    let rs: Vec<&Result1> = rs
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(r, _)| *r)
        .collect();
    let rs = rs.as_slice();
    let parts: Vec<Part> = all_parts
        .into_iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(p, _)| p)
        .collect();
    // The cube each job ran, from its own report (or, if it never reported, its command).
    let cube_of = |r: &Result1, p: &Part| -> Result<Vec<i64>, Error> {
        if r.outcome["cube"].is_object() {
            return Ok(p.cube.clone());
        }
        let k = r
            .argv
            .iter()
            .position(|w| w == "--cube")
            .expect("a cube job");
        cubes::parse(r.argv.get(k + 1).map_or("", |s| s.as_str()))
            .map_err(|e| Error::input(format!("job \"{}\": {e}", r.id)))
    };
    let mut all = Vec::new();
    for (r, p) in rs.iter().zip(&parts) {
        all.push(cube_of(r, p)?);
    }
    let sizes: HashSet<u64> = rs
        .iter()
        .filter_map(|r| r.outcome["cube"]["decisions"].as_u64())
        .filter(|&n| n > 0)
        .collect();
    if sizes.len() > 1 {
        return Err(Error::input(format!(
            "`{q}`: its cubes were run on formulations with different numbers of decisions ({sizes:?}): not one question"
        )));
    }
    let n = sizes.into_iter().next().unwrap_or(0) as usize;
    let n = if n == 0 {
        all.iter()
            .flatten()
            .map(|l| l.unsigned_abs() as usize)
            .max()
            .unwrap_or(0)
    } else {
        n
    };
    cubes::coverage(&all, n)
        .map_err(|why| Error::input(format!("`{q}`: will not merge: {why}")))?;
    let verb = rs[0].argv.get(1).map_or("", |s| s.as_str());
    let query = match verb {
        "count" => Query::Count,
        "unique" => Query::Unique,
        "optimum" => Query::Optimum,
        "reach" => Query::AtLeast(0),
        _ => match rs[0].outcome["cube"]["maximise"] {
            Value::Bool(_) => Query::Optimum,
            _ => Query::First,
        },
    };
    let maximise = rs
        .iter()
        .find_map(|r| r.outcome["cube"]["maximise"].as_bool());
    let c = cubes::combine(query, maximise, &parts);
    let total: f64 = rs.iter().map(|r| r.seconds).sum();
    let longest = rs.iter().map(|r| r.seconds).fold(0.0, f64::max);
    let within = rs.iter().find_map(|r| r.outcome["cube"]["within"].as_str());
    let status = json!(c.status).as_str().unwrap_or("unknown").to_string();
    let mut text = format!("{q}: {status}");
    if let Some(v) = c.objective {
        text += &format!(", value {v}");
    }
    if let Some(n) = c.count {
        text += &format!(", count {n}");
    }
    if let Some(n) = c.count_at_least {
        text += &format!(", at least {n} counted");
    }
    if let Some(u) = c.unique {
        text += &format!(", unique {u}");
    }
    text += &format!(
        " [{} cubes covering the whole space; {:.1} s in all, longest {:.1} s{}]",
        rs.len(),
        total,
        longest,
        match replaced {
            0 => String::new(),
            n => format!("; {n} unanswered cubes replaced by finer ones"),
        }
    );
    if let Some(w) = within {
        text += &format!(" [among {w} only]");
    }
    if !c.unanswered.is_empty() {
        let why: Vec<String> = rs
            .iter()
            .filter(|r| c.unanswered.contains(&r.id))
            .take(3)
            .map(|r| format!("{} ({})", r.id, r.message.as_deref().unwrap_or(&r.status)))
            .collect();
        text += &format!(
            "; {} cubes unanswered: {}",
            c.unanswered.len(),
            why.join("; ")
        );
    }
    Ok(
        json!({"question": q, "status": status, "objective": c.objective, "count": c.count,
              "count_at_least": c.count_at_least, "unique": c.unique, "cubes": rs.len(),
              "from": c.from, "unanswered": c.unanswered, "within": within, "replaced": replaced,
              "seconds": (total * 1000.0).round() / 1000.0, "longest": longest, "text": text}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_expand_in_order_and_ascending_keeps_non_decreasing() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let all = expand(&w("gunport optimum 1..3 2..3"), false).unwrap();
        assert_eq!(all.len(), 6);
        let up = expand(&w("gunport optimum 1..3 1..3"), true).unwrap();
        let pairs: Vec<String> = up.iter().map(|c| c[2..].join("x")).collect();
        assert_eq!(pairs, ["1x1", "1x2", "1x3", "2x2", "2x3", "3x3"]);
        assert!(expand(&w("tank solve 5..2"), false).is_err());
        let parts = expand(&w("tank count 7 --part 1..3/3"), false).unwrap();
        let last: Vec<&str> = parts.iter().map(|c| c[4].as_str()).collect();
        assert_eq!(last, ["1/3", "2/3", "3/3"]);
        // A word with a slash but no range is kept as it is.
        assert_eq!(expand(&w("x a/b"), false).unwrap(), [w("x a/b")]);
    }

    #[test]
    fn jobs_read_as_command_lines() {
        let j = read_job(
            3,
            r#"{"id": "a", "puzzle": "gunport", "query": "optimum", "input": [6, 6], "args": {"formulation": "cell"}, "time_limit": 5}"#,
        )
        .unwrap();
        assert_eq!(
            j.argv.join(" "),
            "gunport optimum 6 6 --formulation cell --time-limit 5 --json"
        );
        // The same command written as raw words has the same fingerprint.
        let k = read_job(
            4,
            r#"{"id": "b", "puzzle": "gunport", "query": "optimum", "args": ["6", "6", "--formulation", "cell"], "time_limit": 5}"#,
        )
        .unwrap();
        assert_eq!(j.hash, k.hash);
        for (bad, says) in [
            (r#"{"puzzle": "sudoku", "query": "solve"}"#, "no puzzle"),
            (r#"{"puzzle": "tank", "query": "fly", "input": [5]}"#, "fly"),
            (
                r#"{"puzzle": "tank", "query": "solve", "args": {"no-such": 1}}"#,
                "no-such",
            ),
            (
                r#"{"puzzle": "tank", "query": "solve", "time_limit": -1}"#,
                "time_limit",
            ),
            (
                r#"{"puzzle": "tank", "query": "solve", "colour": 1}"#,
                "unknown field",
            ),
            (r#"[1, 2]"#, "object"),
            (r#"{"puzzle": "#, "not JSON"),
        ] {
            let e = read_job(1, bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn questions_ignore_how_they_ran() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            question(&w("tank count 5 --cube +1 --time-limit 9 --json")),
            "tank count 5"
        );
    }
}
