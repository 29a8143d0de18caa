//! deploy/slurm-array.sh on a real Slurm: a one-node cluster (deploy/local-slurm.sh) started
//! for this test binary and stopped by its pid files when done, even on failure. The recipe
//! as docs/cluster.md writes it: `quandary jobs`, `sbatch deploy/slurm-array.sh` with the array
//! size given on the command line, `quandary merge`. Four cases on one cluster, in one test (a
//! cluster a test would be a second one on the same ports): an array equal to the same batch on
//! one machine, a split question merged to the exact count, a cancelled task resumed by
//! resubmitting the array, and a task killed past its `--time` never read as an answer.
//! Needs Slurm and munge (apt-get install slurm-wlm munge): reported ignored without them, and
//! failing under CI.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_quandary");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A one-node cluster in a scratch directory; dropping it stops its daemons.
struct Cluster {
    dir: PathBuf,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        let _ = std::fs::remove_dir_all(dir);
        // Ports of this run's own (two test runs at once would otherwise share a cluster).
        let port = 20000 + (std::process::id() % 10000) * 2;
        let out = Command::new(root().join("deploy/local-slurm.sh"))
            .args(["start", dir.to_str().unwrap()])
            .env("SLURM_LOCAL_PORT", port.to_string())
            .output()
            .expect("deploy/local-slurm.sh runs");
        let cluster = Cluster {
            dir: dir.to_path_buf(),
        };
        assert!(
            out.status.success(),
            "the cluster did not start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        cluster
    }

    /// A Slurm command (or quandary) talking to this cluster.
    fn command(&self, program: &str, workdir: &Path) -> Command {
        let mut c = Command::new(program);
        let path = std::env::var("PATH").unwrap_or_default();
        c.current_dir(workdir)
            .env("SLURM_CONF", self.dir.join("slurm.conf"))
            .env("PATH", format!("{path}:/usr/sbin"))
            .env("QUANDARY", BIN);
        c
    }

    /// Runs a command to its end: (exit code, stdout, stderr).
    fn run(&self, program: &str, workdir: &Path, args: &[&str]) -> (i32, String, String) {
        let out = self
            .command(program, workdir)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{program}: {e}"));
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// `sbatch` of deploy/slurm-array.sh on job file `jobs` with `extra` options; returns the
    /// job id.
    fn sbatch(&self, workdir: &Path, jobs: &str, extra: &[&str]) -> String {
        let script = root().join("deploy/slurm-array.sh");
        let mut args = vec!["--parsable"];
        args.extend(extra);
        args.push(script.to_str().unwrap());
        let mut c = self.command("sbatch", workdir);
        c.env("JOBS", jobs).args(&args);
        let out = c.output().expect("sbatch runs");
        let id = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert!(
            !id.is_empty(),
            "sbatch {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        id.split(';').next().unwrap().to_string()
    }

    /// [`Cluster::sbatch`], then waits until every task has ended (`sbatch --wait` polls
    /// Slurm at intervals of seconds; squeue is asked every 0.3 s).
    fn sbatch_wait(&self, workdir: &Path, jobs: &str, extra: &[&str]) -> String {
        let id = self.sbatch(workdir, jobs, extra);
        self.wait_gone(&id, Duration::from_secs(300));
        id
    }

    /// The state Slurm records for a job or array task (`scontrol show job`).
    fn state(&self, id: &str) -> String {
        let (_, out, _) = self.run("scontrol", &self.dir, &["show", "job", id]);
        out.split_whitespace()
            .find_map(|w| w.strip_prefix("JobState="))
            .unwrap_or_default()
            .to_string()
    }

    /// Waits until no task of job `id` is pending or running.
    fn wait_gone(&self, id: &str, within: Duration) {
        let started = Instant::now();
        loop {
            let (_, out, _) = self.run("squeue", &self.dir, &["-h", "-j", id]);
            if out.trim().is_empty() {
                return;
            }
            assert!(started.elapsed() < within, "job {id} still queued: {out}");
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(root().join("deploy/local-slurm.sh"))
            .args(["stop", self.dir.to_str().unwrap()])
            .status();
    }
}

/// Every result line's id, in file order.
fn ids(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| v["id"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Every result line's (id, status), in file order.
fn statuses(file: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| {
            let field = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            (field("id"), field("status"))
        })
        .collect()
}

/// `quandary merge FILES... --jobs JOBS --json`: (exit code, each question with its status,
/// value and count, sorted).
fn merged(
    cluster: &Cluster,
    dir: &Path,
    files: &[String],
    jobs: &str,
) -> (i32, Vec<(String, String, String, String)>) {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--jobs", jobs, "--json"]);
    let (code, out, err) = cluster.run(BIN, dir, &args);
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("merge: {e}: {out} {err}"));
    let mut answers: Vec<(String, String, String, String)> = v["answers"]
        .as_array()
        .unwrap_or_else(|| panic!("{v}"))
        .iter()
        .map(|a| {
            (
                a["question"].as_str().unwrap_or_default().to_string(),
                a["status"].as_str().unwrap_or_default().to_string(),
                a["objective"].to_string(),
                a["count"].to_string(),
            )
        })
        .collect();
    answers.sort();
    (code, answers)
}

/// The results files of an array of `n` tasks on job file `jobs` (`JOBS.results-I-of-N.jsonl`).
fn shards(jobs: &str, n: usize) -> Vec<String> {
    let stem = jobs.trim_end_matches(".jsonl");
    (0..n)
        .map(|i| format!("{stem}.results-{i}-of-{n}.jsonl"))
        .collect()
}

quandary_probe::needs_slurm! {
#[test]
fn the_slurm_recipe_runs_on_a_real_slurm() {
    let scratch = std::env::temp_dir().join(format!("quandary-slurm-{}", std::process::id()));
    let cluster = Cluster::start(&scratch.join("cluster"));
    let work = scratch.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let (code, out, err) = cluster.run("sinfo", &work, &["-h", "-N", "-o", "%T %c"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("idle"), "the node: {out}");

    // 4 starts first (below): a task past its --time runs beside the other cases, on one of
    // the node's cores, until Slurm ends it about a minute in.
    let (code, _, err) = cluster.run(
        BIN,
        &work,
        &["jobs", "-o", "long.jsonl", "chess", "peaceable", "9", "--armies", "3"],
    );
    assert_eq!(code, 0, "{err}");
    let long = cluster.sbatch(
        &work,
        "long.jsonl",
        &["--array=0-0", "--time=1", "--cpus-per-task=1"],
    );

    // 1. The recipe as documented: a census as an array of 4 tasks, merged, equals the same
    //    batch run on one machine; the files land where docs/cluster.md says.
    let (code, _, err) = cluster.run(
        BIN,
        &work,
        &["jobs", "--ascending", "-o", "census.jsonl", "gunport", "optimum", "1..5", "1..5"],
    );
    assert_eq!(code, 0, "{err}");
    let id = cluster.sbatch_wait(&work, "census.jsonl", &["--array=0-3", "--cpus-per-task=1"]);
    for (i, file) in shards("census.jsonl", 4).iter().enumerate() {
        assert!(work.join(file).is_file(), "{file} (task {i})");
        let log = format!("quandary-{id}_{i}.log");
        assert!(work.join(&log).is_file(), "{log}");
    }
    assert_eq!(cluster.state(&format!("{id}_0")), "COMPLETED");
    let (code, on_slurm) = merged(&cluster, &work, &shards("census.jsonl", 4), "census.jsonl");
    assert_eq!(code, 0, "{on_slurm:?}");
    assert_eq!(on_slurm.len(), 15, "{on_slurm:?}");
    let (code, _, err) = cluster.run(BIN, &work, &["batch", "census.jsonl", "--out", "here.jsonl"]);
    assert_eq!(code, 0, "{err}");
    let (_, here) = merged(&cluster, &work, &["here.jsonl".into()], "census.jsonl");
    assert_eq!(on_slurm, here);
    assert!(on_slurm.contains(&("gunport optimum 5 5".into(), "optimal".into(), "7".into(), "null".into())), "{on_slurm:?}");

    // 2. A split question: Gunport 5×5's optimal packings counted in 8 cubes by an array of 4
    //    tasks, merged to the published count, 312.
    let (code, _, err) = cluster.run(
        BIN,
        &work,
        &["jobs", "--cubes", "8", "-o", "cubes.jsonl", "gunport", "count", "5", "5"],
    );
    assert_eq!(code, 0, "{err}");
    cluster.sbatch_wait(&work, "cubes.jsonl", &["--array=0-3", "--cpus-per-task=1"]);
    let (code, counted) = merged(&cluster, &work, &shards("cubes.jsonl", 4), "cubes.jsonl");
    assert_eq!(code, 0, "{counted:?}");
    assert_eq!(
        counted,
        vec![("gunport count 5 5".into(), "optimal".into(), "7".into(), "312".into())]
    );

    // 3. A task cancelled mid-run, then the same array submitted again: every job answered,
    //    none run twice to completion (each task skips what its results file holds).
    let (code, _, err) = cluster.run(
        BIN,
        &work,
        &["jobs", "-o", "armies.jsonl", "chess", "peaceable", "8", "--armies", "3..8"],
    );
    assert_eq!(code, 0, "{err}");
    let id = cluster.sbatch(&work, "armies.jsonl", &["--array=0-1", "--cpus-per-task=1"]);
    let files = shards("armies.jsonl", 2);
    let first = work.join(&files[0]);
    let started = Instant::now();
    while ids(&first).is_empty() {
        assert!(started.elapsed() < Duration::from_secs(120), "task 0 answered nothing");
        std::thread::sleep(Duration::from_millis(200));
    }
    let (code, _, err) = cluster.run("scancel", &work, &[&format!("{id}_0")]);
    assert_eq!(code, 0, "{err}");
    cluster.wait_gone(&id, Duration::from_secs(300));
    assert_eq!(cluster.state(&format!("{id}_0")), "CANCELLED");
    let before = ids(&first);
    assert!(before.len() < 3, "task 0 had finished before it was cancelled: {before:?}");
    cluster.sbatch_wait(&work, "armies.jsonl", &["--array=0-1", "--cpus-per-task=1"]);
    let after = ids(&first);
    assert_eq!(&after[..before.len()], &before[..], "the resumed task kept its results");
    // Each job answered exactly once, and nothing else recorded: the job the cancel caught in
    // flight is not recorded (Slurm signals the task's every process, so the job may end by the
    // signal before the batch stops it; it was recorded `killed`), and runs again on resubmission.
    let lines: Vec<(String, String)> = files
        .iter()
        .flat_map(|f| statuses(&work.join(f)))
        .collect();
    assert!(lines.iter().all(|(_, s)| s != "killed"), "{lines:?}");
    let mut answered: Vec<&str> = lines
        .iter()
        .filter(|(_, status)| status != "killed")
        .map(|(id, _)| id.as_str())
        .collect();
    let listed = answered.len();
    answered.sort();
    answered.dedup();
    assert_eq!((answered.len(), listed), (6, 6), "each job answered once: {lines:?}");
    let (code, armies) = merged(&cluster, &work, &files, "armies.jsonl");
    assert_eq!(code, 0, "{armies:?}");
    let values: Vec<String> = armies.iter().map(|a| format!("{} {}", a.1, a.2)).collect();
    // T(8,3..8) = 4, 3, 2, 1, 1, 1 (docs/chess.md), in the questions' order.
    assert_eq!(
        values,
        ["optimal 4", "optimal 3", "optimal 2", "optimal 1", "optimal 1", "optimal 1"],
        "{armies:?}"
    );

    // 4. A task killed past its --time: Slurm records TIMEOUT, and the job it was running
    //    (9×9, three armies: 435 s on one core) has no line in its results file: merge
    //    refuses a file with no results (exit 2).
    cluster.wait_gone(&long, Duration::from_secs(240));
    assert_eq!(cluster.state(&format!("{long}_0")), "TIMEOUT");
    let results = shards("long.jsonl", 1).remove(0);
    // The job was stopped with its task and is not recorded: merge refuses a file with no
    // results.
    let lines = statuses(&work.join(&results));
    assert!(lines.is_empty(), "{lines:?}");
    let (code, out, err) = cluster.run(BIN, &work, &["merge", &results, "--jobs", "long.jsonl"]);
    assert!(code == 2 && err.contains("no results"), "{out} {err}");

    drop(cluster);
    // Every daemon the cluster started is gone.
    for daemon in ["slurmctld", "slurmd", "munged"] {
        let pid = scratch.join("cluster").join(format!("{daemon}.pid"));
        assert!(!pid.exists(), "{} left behind", pid.display());
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
}
