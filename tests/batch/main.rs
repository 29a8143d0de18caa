//! `quandary jobs`, `batch` and `merge`: sweeps and cube splits give the answers of direct
//! runs; batches resume, shard, and record every way a job can end; merge refutes only with
//! every cube and refuses overlapping ones; a batch stops at its own time limit; the recipes in
//! deploy/ run as written.

mod processes;

#[path = "../common/mod.rs"]
mod common;
use common::{one_json, quandary};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_quandary");

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("batch-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs quandary with extra environment variables: exit status, stdout, stderr.
fn with_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    for var in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_STEP",
        "JOB_COMPLETION_INDEX",
        "JOB_COMPLETIONS",
    ] {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `merge --json` of results files: the answers.
fn merged(results: &[&str]) -> Vec<Value> {
    let mut args = vec!["merge", "--json"];
    args.extend(results);
    let (code, out, err, _) = quandary(&args);
    assert!(code <= 1, "merge failed: {err}");
    one_json(&out)["answers"].as_array().unwrap().clone()
}

/// Writes the jobs of `command` (with `jobs`' flags first) to `file`.
fn jobs(file: &Path, command: &[&str]) {
    let mut args = vec!["jobs", "-o", s(file)];
    args.extend(command);
    let (code, _, err, _) = quandary(&args);
    assert_eq!(code, 0, "{err}");
}

/// Writes the jobs of `command` to DIR/NAME.jsonl, runs them (every one must answer) and
/// returns the results file.
fn run_jobs(dir: &Path, name: &str, command: &[&str]) -> PathBuf {
    let file = dir.join(format!("{name}.jsonl"));
    jobs(&file, command);
    let (code, out, err, _) = quandary(&["batch", s(&file)]);
    assert_eq!(code, 0, "every job answers: {out} {err}");
    dir.join(format!("{name}.results.jsonl"))
}

#[test]
fn a_sweep_through_batch_gives_the_direct_answers() {
    let dir = scratch("sweep");
    let file = dir.join("sweep.jsonl");
    jobs(
        &file,
        &["--ascending", "gunport", "optimum", "2..5", "3..5"],
    );
    assert_eq!(
        lines(&file).len(),
        9,
        "m ≤ n only: 2×3..2×5, 3×3..3×5, 4×4, 4×5, 5×5"
    );
    let (code, out, err, _) = quandary(&["batch", s(&file), "--jobs", "2"]);
    assert_eq!(code, 0, "{out} {err}");
    assert!(err.contains("optimal 9"), "{out} {err}");
    let results = dir.join("sweep.results.jsonl");
    for a in merged(&[s(&results)]) {
        let q = a["question"].as_str().unwrap();
        let words: Vec<&str> = q.split(' ').collect();
        let (_, direct, _, _) = quandary(&["gunport", "optimum", words[2], words[3], "--json"]);
        let direct = one_json(&direct);
        assert_eq!(a["status"], "optimal", "{a}");
        assert_eq!(a["objective"], direct["objective"], "{q}");
    }
    // A second run finds everything done.
    let (code, _, err, _) = quandary(&["batch", s(&file)]);
    assert_eq!(code, 0);
    assert!(err.contains("0 jobs run"), "{err}");
}

/// Splits `command` into `k` cubes, runs them, merges: the merged answer.
fn by_cubes(name: &str, k: &str, command: &[&str]) -> Value {
    let dir = scratch(name);
    let mut args = vec!["--cubes", k];
    args.extend(command);
    let results = run_jobs(&dir, "cubes", &args);
    let answers = merged(&[s(&results)]);
    assert_eq!(answers.len(), 1, "one question: {answers:?}");
    assert!(answers[0]["text"]
        .as_str()
        .unwrap()
        .contains("covering the whole space"));
    answers[0].clone()
}

#[test]
fn cubes_give_the_direct_answer_for_every_puzzle() {
    // Tank Attack 5×5 has exactly 2 boards; 3×3 none (tank.txt).
    let a = by_cubes("tank-count", "6", &["tank", "count", "5"]);
    assert_eq!((&a["status"], &a["count"]), (&"solved".into(), &2.into()));
    let a = by_cubes("tank-none", "4", &["tank", "solve", "3"]);
    assert_eq!(a["status"], "infeasible");
    // Gunport 6×6: 12 holes (Pearce); 4×5: 51 optimal packings of 6 holes (direct count).
    let a = by_cubes("gunport-opt", "5", &["gunport", "optimum", "6", "6"]);
    assert_eq!(
        (&a["status"], &a["objective"]),
        (&"optimal".into(), &12.into())
    );
    let (_, direct, _, _) = quandary(&["gunport", "count", "4", "5", "--json"]);
    let direct = one_json(&direct);
    let a = by_cubes("gunport-count", "7", &["gunport", "count", "4", "5"]);
    assert_eq!(a["count"], direct["count"]);
    assert_eq!(a["objective"], 6);
    let a = by_cubes(
        "gunport-reach",
        "3",
        &["gunport", "reach", "5", "5", "--at-least", "8"],
    );
    assert_eq!(a["status"], "infeasible", "5×5 has at most 7 holes");
    // The seed's chess puzzle and the puzz.link Battleship example are unique.
    let a = by_cubes(
        "chess",
        "4",
        &["chess", "unique", "data/chess/friedman-b4n2.txt"],
    );
    assert_eq!(
        (&a["status"], &a["unique"]),
        (&"solved".into(), &true.into())
    );
    let a = by_cubes(
        "battleship",
        "8",
        &[
            "battleship",
            "unique",
            "data/battleship/puzzlink-example.txt",
        ],
    );
    assert_eq!(a["unique"], true);
    let (_, direct, _, _) = quandary(&["tantrix", "count", "-n", "6", "--json"]);
    let a = by_cubes("tantrix", "4", &["tantrix", "count", "-n", "6"]);
    assert_eq!(a["count"], one_json(&direct)["count"]);
}

#[test]
fn a_cube_run_says_its_answer_holds_in_the_cube_only() {
    let (code, out, _, _) = quandary(&["tank", "count", "5", "--cube", "-1 +2", "--json"]);
    assert_eq!(code, 0);
    let v = one_json(&out);
    assert_eq!(v["status"], "unknown", "no global claim from one cube: {v}");
    assert_eq!(v["in_scope"]["status"], "infeasible");
    assert_eq!(v["cube"]["literals"], serde_json::json!([-1, 2]));
    let (code, _, err, _) = quandary(&["tank", "count", "5", "--cube", "+100000"]);
    assert_eq!(code, 2);
    assert!(err.contains("decision 100000 does not exist"), "{err}");
    let (code, _, err, _) = quandary(&["tank", "count", "5", "--cube", "+1 -1"]);
    assert_eq!(code, 2);
    assert!(err.contains("appears twice"), "{err}");
}

#[test]
fn merge_refutes_only_with_every_cube_and_refuses_overlaps() {
    let dir = scratch("coverage");
    let results = run_jobs(&dir, "c", &["--cubes", "4", "tank", "solve", "3"]);
    let file = dir.join("c.jsonl");
    let all = std::fs::read_to_string(&results).unwrap();
    let kept: Vec<&str> = all.lines().collect();
    // One cube missing: every other cube refuted is not a refutation.
    let missing = dir.join("missing.jsonl");
    std::fs::write(&missing, kept[..3].join("\n") + "\n").unwrap();
    // Its answer is open (exit 1), with the share no result covers named.
    let (code, out, _, _) = quandary(&["merge", s(&missing)]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("unknown"), "{out}");
    assert!(!out.contains("infeasible"), "{out}");
    assert!(out.contains("1 of 4 parts have no result"), "{out}");
    let (_, out, _, _) = quandary(&["merge", "--json", s(&missing)]);
    let v = &one_json(&out)["answers"][0];
    assert_eq!(v["status"], "unknown", "{v}");
    assert!(v["uncovered"].as_str().unwrap().contains("75.0000%"), "{v}");
    // A cube that overlaps another (its job edited to a wider cube).
    let mut wide: Value = serde_json::from_str(kept[3]).unwrap();
    let first = wide["outcome"]["cube"]["literals"][0].clone();
    wide["outcome"]["cube"]["literals"] = serde_json::json!([first]);
    let overlap = dir.join("overlap.jsonl");
    std::fs::write(&overlap, format!("{}\n{wide}\n", kept[..3].join("\n"))).unwrap();
    let (code, _, err, _) = quandary(&["merge", s(&overlap)]);
    assert_eq!(code, 2);
    assert!(err.contains("overlap"), "{err}");
    // With --jobs, a job without a result is named.
    let (code, _, err, _) = quandary(&["merge", "--jobs", s(&file), s(&missing)]);
    assert_eq!(code, 2);
    assert!(err.contains("have no result"), "{err}");
    // No results at all (a batch not run yet): refused by name, not an empty answer.
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let (code, out, err, _) = quandary(&["merge", s(&empty)]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("empty.jsonl hold no results"), "{err}");
    // All four: refuted.
    let (code, out, _, _) = quandary(&["merge", s(&results)]);
    assert_eq!(code, 0);
    assert!(out.contains("infeasible"), "{out}");
}

/// A search split with `--part K/N` (Tank Attack's) merges like cubes: the parts' counts add
/// up to the direct count once every part has answered; a part missing leaves the count open
/// and named; a part twice, or parts of two splits, are refused; a restriction the parts
/// share (symmetric boards) is said.
#[test]
fn parts_merge_to_the_direct_answer_and_only_when_all_are_there() {
    let dir = scratch("parts");
    let results = run_jobs(&dir, "p", &["tank", "count", "6", "--part", "1..3/3"]);
    let answers = merged(&[s(&results)]);
    assert_eq!(answers.len(), 1, "{answers:?}");
    let a = &answers[0];
    assert_eq!(a["question"], "tank count 6", "{a}");
    assert_eq!(a["status"], "solved", "{a}");
    assert_eq!(a["count"], 13, "the direct count (tests/tank/): {a}");
    assert!(a["within"].is_null(), "{a}");
    assert!(
        a["text"]
            .as_str()
            .unwrap()
            .contains("3 parts covering the whole space"),
        "{a}"
    );
    let all = std::fs::read_to_string(&results).unwrap();
    // The result lines in the order the jobs ended: found by their parts.
    let of_part = |k: &str| {
        all.lines()
            .find(|l| l.contains(&format!("\"{k}/3\"")))
            .unwrap()
    };
    // Part 2 missing: an open count, at least what the others found, the part named.
    let missing = dir.join("missing.jsonl");
    std::fs::write(&missing, format!("{}\n{}\n", of_part("1"), of_part("3"))).unwrap();
    let (code, out, _, _) = quandary(&["merge", s(&missing)]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("unknown"), "{out}");
    assert!(out.contains("1 of 3 parts have no result yet (2)"), "{out}");
    assert!(!out.contains("count 13"), "{out}");
    // Part 1 of a split into 2^64 - 1 parts: merged in memory linear in the results (it
    // listed every missing part: 789 MB at N = 10^8, out of memory at 2^64 - 1).
    let huge = dir.join("huge.jsonl");
    let line = of_part("1").replace("\"1/3\"", "\"1/18446744073709551615\"");
    std::fs::write(&huge, format!("{line}\n")).unwrap();
    let (code, out, err, _) = quandary(&["merge", s(&huge)]);
    assert_eq!(code, 1, "{out} {err}");
    assert!(
        out.contains("18446744073709551614 of 18446744073709551615 parts have no result yet (2, 3, 4, 5, 6, ...)"),
        "{out}"
    );
    // Part 1 twice (its line again under another job id): refused.
    let mut again: Value = serde_json::from_str(of_part("1")).unwrap();
    again["id"] = "again".into();
    let twice = dir.join("twice.jsonl");
    std::fs::write(&twice, format!("{all}{again}\n")).unwrap();
    let (code, _, err, _) = quandary(&["merge", s(&twice)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("part 1/3 has two results"), "{err}");
    // A part of another split of the same question: refused.
    let other = run_jobs(&dir, "q", &["tank", "count", "6", "--part", "1/2"]);
    let (code, _, err, _) = quandary(&["merge", s(&missing), s(&other)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("splits into 3 and into 2"), "{err}");
    // The quarter-turn-symmetric boards of 6×6, in two parts: 3, among those boards only.
    let sym = run_jobs(
        &dir,
        "sym",
        &[
            "tank",
            "count",
            "6",
            "--method",
            "gac",
            "--symmetry",
            "rot90",
            "--part",
            "1..2/2",
        ],
    );
    let a = &merged(&[s(&sym)])[0];
    assert_eq!(a["count"], 3, "{a}");
    assert_eq!(a["within"], "quarter-turn-symmetric boards", "{a}");
    assert!(
        a["text"]
            .as_str()
            .unwrap()
            .contains("[among quarter-turn-symmetric boards only]"),
        "{a}"
    );
}

#[test]
fn batches_resume_refuse_foreign_results_and_skip_bad_lines() {
    let dir = scratch("resume");
    let file = dir.join("j.jsonl");
    let good = [
        r#"{"id": "t4", "puzzle": "tank", "query": "solve", "input": ["4"]}"#,
        r#"{"id": "t5", "puzzle": "tank", "query": "count", "args": ["5"], "time_limit": 60}"#,
        r#"{"id": "g", "puzzle": "gunport", "query": "optimum", "input": [4, 4], "args": {"formulation": "cell"}}"#,
    ];
    let text = format!(
        "{}\n{{not json\n{}\n# a comment\n{}\n{{\"id\": \"t4\", \"puzzle\": \"tank\", \"query\": \"count\", \"input\": [\"5\"]}}\n{{\"puzzle\": \"tank\", \"query\": \"solve\", \"input\": [\"4\"], \"args\": {{\"wings\": true}}}}\n",
        good[0], good[1], good[2]
    );
    std::fs::write(&file, text).unwrap();
    let (code, out, err, _) = quandary(&["batch", s(&file), "--jobs", "1"]);
    assert_eq!(code, 1, "lines were skipped: {out} {err}");
    assert!(err.contains("line 2: skipped: not JSON"), "{err}");
    assert!(err.contains("3 lines of"), "{err}");
    assert!(
        err.contains("line 6: skipped: id \"t4\" is already the id of line 1"),
        "{err}"
    );
    assert!(
        err.contains("line 7: skipped:") && err.contains("wings"),
        "{err}"
    );
    let results = dir.join("j.results.jsonl");
    assert_eq!(lines(&results).len(), 3);
    // A batch killed while writing its last line: the torn line is cut off and redone.
    let whole = std::fs::read_to_string(&results).unwrap();
    let torn = &whole[..whole.len() - 20];
    std::fs::write(&results, torn).unwrap();
    let (code, _, err, _) = quandary(&["batch", s(&file)]);
    assert_eq!(code, 1, "lines were skipped: {err}");
    assert!(err.contains("last line is incomplete"), "{err}");
    assert!(err.contains("1 jobs run"), "{err}");
    assert_eq!(lines(&results).len(), 3);
    // The job file changed under the same ids: these results are another batch's.
    let changed = std::fs::read_to_string(&file)
        .unwrap()
        .replace(r#""input": ["4"]}"#, r#""input": ["6"]}"#);
    std::fs::write(&file, changed).unwrap();
    let (code, _, err, _) = quandary(&["batch", s(&file)]);
    assert_eq!(code, 2);
    assert!(err.contains("another batch"), "{err}");
    let (code, _, err, _) = quandary(&["batch", s(&file), "--out", s(&dir.join("new.jsonl"))]);
    assert!(err.contains("3 jobs run"), "{err}");
    assert_eq!(code, 1);
}

#[test]
fn every_way_a_job_ends_is_recorded() {
    let dir = scratch("ends");
    // A stand-in for quandary that misbehaves on cue, through the batch's program setting.
    let program = dir.join("misbehave.sh");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\ncase \"$3\" in\n  7) echo \"thread 'main' panicked at src/x.rs\" >&2; exit 101;;\n  8) kill -9 $$;;\n  9) sleep 30;;\n  *) exec {BIN} \"$@\";;\nesac\n"
        ),
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(&program)
        .status()
        .unwrap();
    let file = dir.join("j.jsonl");
    let job = |id: &str, n: &str| {
        format!(
            r#"{{"id": "{id}", "puzzle": "tank", "query": "solve", "input": ["{n}"], "time_limit": 1}}"#
        )
    };
    let text = [
        job("fine", "4"),
        job("panics", "7"),
        job("killed", "8"),
        job("overruns", "9"),
    ]
    .join("\n");
    std::fs::write(&file, text + "\n").unwrap();
    let started = std::time::Instant::now();
    let (code, out, err) = with_env(
        &["batch", s(&file), "--jobs", "4"],
        &[("QUANDARY_BATCH_PROGRAM", s(&program))],
    );
    assert_eq!(code, 1, "some jobs have no answer: {out} {err}");
    assert!(
        started.elapsed().as_secs_f64() < 20.0,
        "the overrun is killed after its grace"
    );
    let by_id = |id: &str| {
        lines(&dir.join("j.results.jsonl"))
            .into_iter()
            .find(|v| v["id"] == id)
            .unwrap_or_else(|| panic!("no result for {id}"))
    };
    assert_eq!(by_id("fine")["status"], "solved", "4×4 has a board");
    let p = by_id("panics");
    assert_eq!(p["status"], "crashed");
    assert!(p["message"].as_str().unwrap().contains("panicked"), "{p}");
    let k = by_id("killed");
    assert_eq!(k["status"], "killed");
    assert!(k["message"].as_str().unwrap().contains("signal 9"), "{k}");
    assert_eq!(by_id("overruns")["status"], "timeout");
    // A rerun tries the killed job again (its kill may have been the batch's own stop).
    let (_, _, err) = with_env(
        &["batch", s(&file)],
        &[("QUANDARY_BATCH_PROGRAM", s(&program))],
    );
    assert!(err.contains("1 jobs run"), "{err}");
    // Merge takes the later result of the job run again, and says what became of each.
    let (code, out, err, _) = quandary(&["merge", s(&dir.join("j.results.jsonl"))]);
    assert_eq!(code, 1, "{err}");
    for line in [
        "tank solve 4: solved",
        "tank solve 7: crashed",
        "tank solve 8: killed",
        "tank solve 9: timeout",
    ] {
        assert!(out.lines().any(|l| l.starts_with(line)), "{line}: {out}");
    }
}

/// Ten small jobs, for the shard tests.
fn ten_jobs(dir: &Path) -> PathBuf {
    let file = dir.join("ten.jsonl");
    jobs(&file, &["gunport", "optimum", "3", "1..10"]);
    file
}

fn ids(path: &Path) -> Vec<String> {
    let mut v: Vec<String> = lines(path)
        .iter()
        .map(|l| l["id"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn shards_split_the_jobs_by_flag_slurm_or_kubernetes_index() {
    let dir = scratch("shards");
    let file = ten_jobs(&dir);
    let (code, _, err, _) = quandary(&["batch", s(&file), "--shard", "1/3"]);
    assert_eq!(code, 0, "{err}");
    let by_flag = ids(&dir.join("ten.results-1-of-3.jsonl"));
    assert_eq!(by_flag.len(), 3, "jobs 1, 4, 7 of 0..9");
    // The Slurm array script as written, with the variables Slurm sets for task 7 of an array
    // 6-8 (its index 1 of 3).
    let slurm = dir.join("slurm");
    std::fs::create_dir_all(&slurm).unwrap();
    std::fs::copy(&file, slurm.join("ten.jsonl")).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/slurm-array.sh");
    let status = Command::new("bash")
        .arg(&script)
        .current_dir(&slurm)
        .env("JOBS", "ten.jsonl")
        .env("QUANDARY", BIN)
        .env("SLURM_ARRAY_TASK_ID", "7")
        .env("SLURM_ARRAY_TASK_MIN", "6")
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .env("SLURM_CPUS_PER_TASK", "1")
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(ids(&slurm.join("ten.results-1-of-3.jsonl")), by_flag);
    // The Kubernetes manifest's command, with its JOB_COMPLETIONS and the index Kubernetes
    // sets in pod 1.
    let manifest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/kubernetes-job.yaml"),
    )
    .unwrap();
    let completions = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("completions:"))
        .unwrap()
        .trim()
        .to_string();
    let env_value = manifest
        .split("name: JOB_COMPLETIONS")
        .nth(1)
        .and_then(|rest| rest.lines().nth(1))
        .and_then(|l| l.trim().strip_prefix("value:"))
        .unwrap()
        .trim()
        .trim_matches('"')
        .to_string();
    assert_eq!(
        completions, env_value,
        "JOB_COMPLETIONS must equal spec.completions"
    );
    let command_line = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("command:"))
        .unwrap();
    let words: Vec<String> = serde_json::from_str(command_line.trim()).unwrap();
    assert_eq!(&words[..2], ["quandary", "batch"]);
    let kube = dir.join("kube");
    std::fs::create_dir_all(&kube).unwrap();
    let jobs_path = kube.join("ten.jsonl");
    std::fs::copy(&file, &jobs_path).unwrap();
    let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    args[1] = s(&jobs_path);
    let (code, _, err) = with_env(
        &args,
        &[
            ("JOB_COMPLETION_INDEX", "1"),
            ("JOB_COMPLETIONS", &completions),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let n: usize = completions.parse().unwrap();
    let mine = ids(&kube.join(format!("ten.results-1-of-{n}.jsonl")));
    assert_eq!(mine.len(), (10 + n - 2) / n, "every {n}th job from job 1");
    // Without the count, the index alone is refused with a clear message.
    let (code, _, err) = with_env(&["batch", s(&jobs_path)], &[("JOB_COMPLETION_INDEX", "1")]);
    assert_eq!(code, 2);
    assert!(err.contains("JOB_COMPLETIONS"), "{err}");
    let (code, _, err, _) = quandary(&["batch", s(&file), "--shard", "3/3"]);
    assert_eq!(code, 2);
    assert!(err.contains("does not exist"), "{err}");
}

quandary_probe::needs_parallel! {
    #[test]
    fn the_gnu_parallel_recipe_gives_the_direct_answers() {
        if !common::tool_here("parallel", "--version", "apt-get install parallel") {
            return;
        }
        let dir = scratch("parallel");
        ten_jobs(&dir);
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/parallel.sh");
        let run = || {
            Command::new("bash")
                .arg(&script)
                .arg("--json")
                .current_dir(&dir)
                .env("JOBS", "ten.jsonl")
                .env("SHARDS", "3")
                .env("QUANDARY", BIN)
                .output()
                .unwrap()
        };
        let out = run();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let answers = one_json(&String::from_utf8_lossy(&out.stdout))["answers"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(answers.len(), 10);
        for a in &answers {
            let q: Vec<&str> = a["question"].as_str().unwrap().split(' ').collect();
            let (_, direct, _, _) = quandary(&["gunport", "optimum", q[2], q[3], "--json"]);
            assert_eq!(a["objective"], one_json(&direct)["objective"], "{a}");
        }
        assert!(dir.join("ten.joblog").exists());
        // Run again: the job log says every shard is done; the merge is the same.
        let again = run();
        assert!(again.status.success());
        assert_eq!(
            one_json(&String::from_utf8_lossy(&again.stdout))["answers"]
                .as_array()
                .unwrap()
                .len(),
            10
        );
    }
}

#[test]
fn a_hard_cube_split_again_replaces_it_in_the_merge() {
    let dir = scratch("refine");
    let results = run_jobs(&dir, "c", &["--cubes", "2", "tank", "solve", "3"]);
    // Pretend the second cube ran out of time.
    let text = std::fs::read_to_string(&results).unwrap();
    let mut rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    rows.sort_by_key(|l| l["line"].as_u64());
    rows[1]["status"] = "unknown".into();
    rows[1]["outcome"]["in_scope"]["status"] = "unknown".into();
    let hard = rows[1]["outcome"]["cube"]["literals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| format!("{:+}", l.as_i64().unwrap()))
        .collect::<Vec<_>>()
        .join(" ");
    let body: String = rows.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&results, body).unwrap();
    let (code, out, _, _) = quandary(&["merge", s(&results)]);
    assert_eq!(code, 1, "one cube unanswered: {out}");
    assert!(out.contains("1 cubes unanswered"), "{out}");
    // Split the hard cube into 4 and run those.
    let finer = run_jobs(
        &dir,
        "finer",
        &["--cubes", "4", "tank", "solve", "3", "--cube", &hard],
    );
    for job in lines(&dir.join("finer.jsonl")) {
        let cube = job["args"][2].as_str().unwrap().to_string();
        assert!(cube.starts_with(&hard), "{cube} refines {hard}");
    }
    let (code, out, err, _) = quandary(&["merge", s(&results), s(&finer)]);
    assert_eq!(code, 0, "{out} {err}");
    assert!(out.contains("tank solve 3: infeasible"), "{out}");
    assert!(
        out.contains("1 unanswered cubes replaced by finer ones"),
        "{out}"
    );
}

quandary_probe::needs_kubernetes_validate! {
/// deploy/kubernetes-job.yaml is a valid Job: `kubernetes-validate --strict` (from PyPI, the
/// Kubernetes API's own schemas, unknown fields refused) accepts it, and refuses a copy with
/// a misspelt field, so the check can fail. (It does not run the Job: no Kubernetes here.)
#[test]
fn the_kubernetes_manifest_is_a_valid_job() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/kubernetes-job.yaml");
    let validate = |file: &Path| {
        Command::new("kubernetes-validate")
            .arg("--strict")
            .arg(file)
            .output()
            .expect("kubernetes-validate runs")
    };
    let out = validate(&manifest);
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&manifest).unwrap();
    assert!(text.contains("parallelism:"));
    let bad = std::env::temp_dir().join(format!("quandary-k8s-{}.yaml", std::process::id()));
    std::fs::write(&bad, text.replace("parallelism:", "parallelismm:")).unwrap();
    let out = validate(&bad);
    let _ = std::fs::remove_file(&bad);
    assert!(!out.status.success(), "a misspelt field passed");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("parallelismm"), "{said}");
}
}
