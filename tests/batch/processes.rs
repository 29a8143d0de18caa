//! A batch's processes: it runs on when its program file is replaced, one batch per results file, jobs (behind a wrapper too) die with their batch, and time limits in job lines and on the batch.

use super::*;

/// The processes whose parent is `pid`, from /proc.
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: the fields after the last ')'.
        let rest = stat.rsplit_once(')').map_or("", |r| r.1);
        if rest.split_whitespace().nth(1) == Some(&pid.to_string()) {
            out.push(child);
        }
    }
    out
}

/// Whether a process is still running (gone, or a zombie waiting to be reaped, is not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(')').map(|r| r.1.trim().starts_with('Z')))
        .is_some_and(|zombie| !zombie)
}

/// A job file of one long job (`tank count 30`, 60 s) in `dir`.
fn long_job(dir: &Path) -> PathBuf {
    let file = dir.join("long.jsonl");
    std::fs::write(
        &file,
        r#"{"id":"long","puzzle":"tank","query":"count","args":["30"],"time_limit":60}"#
            .to_string()
            + "\n",
    )
    .unwrap();
    file
}

/// `quandary batch FILE --jobs 1` in the background, its jobs run through `program` if given.
fn start_batch(file: &Path, program: Option<&Path>) -> std::process::Child {
    let mut command = Command::new(BIN);
    command
        .args(["batch", s(file), "--jobs", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if let Some(p) = program {
        command.env("QUANDARY_BATCH_PROGRAM", p);
    }
    command.spawn().unwrap()
}

/// Whether a process has ended (or become a zombie) within 5 s.
fn gone_within_5_s(pid: u32) -> bool {
    for _ in 0..50 {
        if !running(pid) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    false
}

/// A batch's jobs run the build that runs the batch, even after its file was removed (a
/// rebuild replaces it): the next job used to fail with "could not start".
#[cfg(target_os = "linux")]
#[test]
fn a_batch_runs_on_when_its_program_file_is_replaced() {
    let dir = scratch("replaced");
    let program = dir.join("quandary-copy");
    std::fs::copy(BIN, &program).unwrap();
    let file = dir.join("two.jsonl");
    std::fs::write(
        &file,
        concat!(
            r#"{"id":"long","puzzle":"tank","query":"count","args":["30"],"time_limit":3}"#,
            "\n",
            r#"{"id":"quick","puzzle":"tank","query":"count","args":["5"]}"#,
            "\n"
        ),
    )
    .unwrap();
    let mut batch = Command::new(&program)
        .args(["batch", s(&file), "--jobs", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut started = false;
    for _ in 0..100 {
        if !children_of(batch.id()).is_empty() {
            started = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(started, "the batch started its first job");
    std::fs::remove_file(&program).unwrap();
    batch.wait().unwrap();
    let results = lines(&dir.join("two.results.jsonl"));
    assert_eq!(results.len(), 2);
    let quick = results.iter().find(|r| r["id"] == "quick").unwrap();
    assert_eq!(quick["status"], "solved", "{quick}");
    assert_eq!(quick["outcome"]["count"], 2, "{quick}");
}

/// A second batch on a results file that a batch is writing is refused (it would run every
/// job again and interleave its lines); a batch killed with SIGKILL takes its running job
/// with it.
#[test]
fn one_batch_per_results_file_and_jobs_die_with_their_batch() {
    let dir = scratch("lock");
    let file = long_job(&dir);
    let mut first = start_batch(&file, None);
    let mut job = Vec::new();
    for _ in 0..100 {
        job = children_of(first.id());
        if !job.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(job.len(), 1, "the batch started its job");
    let (code, _, err, _) = quandary(&["batch", s(&file), "--jobs", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("another quandary batch"), "{err}");
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(
        gone_within_5_s(job[0]),
        "the job {} outlived its batch",
        job[0]
    );
    // The file is free again: a batch of a quick job takes it.
    let quick = dir.join("quick.jsonl");
    std::fs::write(
        &quick,
        r#"{"id":"quick","puzzle":"tank","query":"count","args":["5"]}"#.to_string() + "\n",
    )
    .unwrap();
    let results = dir.join("long.results.jsonl");
    let (code, _, err, _) = quandary(&["batch", s(&quick), "--out", s(&results)]);
    assert_eq!(code, 0, "{err}");
}

/// A job run through a wrapper that does not `exec` (a shell script starting quandary as its
/// child) dies with its batch too: the batch's parent-death signal kills the wrapper, and
/// quandary, told it is a batch job, dies with the wrapper (it used to run on).
#[test]
fn a_job_behind_a_wrapper_dies_with_its_batch() {
    let dir = scratch("wrapped");
    let wrapper = dir.join("wrapper.sh");
    std::fs::write(&wrapper, format!("#!/bin/sh\n{BIN} \"$@\"\nexit $?\n")).unwrap();
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let file = long_job(&dir);
    let mut batch = start_batch(&file, Some(&wrapper));
    // The batch's child is the wrapper; the wrapper's child is the job.
    let mut job = Vec::new();
    for _ in 0..100 {
        job = children_of(batch.id())
            .into_iter()
            .flat_map(children_of)
            .collect();
        if !job.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(job.len(), 1, "the wrapper started the job");
    batch.kill().unwrap();
    batch.wait().unwrap();
    assert!(
        gone_within_5_s(job[0]),
        "the job {} outlived its batch",
        job[0]
    );
}

/// A job whose time limit no clock can hold (1e300 s) runs as a job with no limit and is
/// recorded; the batch used to panic on it (exit 101) and again on every resume.
#[test]
fn a_huge_time_limit_in_a_job_line_is_no_limit() {
    let dir = scratch("huge-limit");
    let file = dir.join("huge.jsonl");
    std::fs::write(
        &file,
        r#"{"id":"h","puzzle":"tank","query":"count","args":["5"],"time_limit":1e300}"#.to_string()
            + "\n",
    )
    .unwrap();
    let (code, _, err, _) = quandary(&["batch", s(&file)]);
    assert_eq!(code, 0, "{err}");
    let results = lines(&dir.join("huge.results.jsonl"));
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["outcome"]["count"], 2, "{}", results[0]);
}

#[test]
fn a_batch_time_limit_stops_the_batch_and_a_resume_goes_on() {
    let dir = scratch("batch-limit");
    // One quick job, then a long one (60 s of its own), then one that never starts.
    let file = dir.join("three.jsonl");
    std::fs::write(
        &file,
        [
            r#"{"id":"quick","puzzle":"tank","query":"count","args":["4"]}"#,
            r#"{"id":"long","puzzle":"tank","query":"count","args":["30"],"time_limit":60}"#,
            r#"{"id":"after","puzzle":"tank","query":"count","args":["3"]}"#,
        ]
        .join("\n")
            + "\n",
    )
    .unwrap();
    let out = dir.join("three.results.jsonl");
    let started = std::time::Instant::now();
    let (code, _, err) = with_env(
        &["batch", s(&file), "--jobs", "1", "--time-limit", "2"],
        &[],
    );
    let took = started.elapsed().as_secs_f64();
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("time limit (2 s) ended it after 1 of 3 jobs"),
        "{err}"
    );
    assert!(took < 8.0, "the batch ran {took:.1} s under a 2 s limit");
    // The quick job is recorded; the long one was stopped unrecorded, the last never began.
    assert_eq!(ids(&out), ["quick"]);
    // The same command resumes with the two left.
    let (code, _, err) = with_env(
        &["batch", s(&file), "--jobs", "1", "--time-limit", "2"],
        &[],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("1 done already"), "{err}");
    assert!(err.contains("running 2"), "{err}");
}
