//! Running the command-line program from the tests.
#![allow(dead_code)] // each test file uses what it needs

/// Runs `quandary args` in the crate's directory: exit status, stdout, stderr and wall-clock
/// seconds.
pub fn quandary(args: &[&str]) -> (i32, String, String, f64) {
    quandary_env(args, &[])
}

/// [`quandary`] with environment variables set.
pub fn quandary_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String, f64) {
    let started = std::time::Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_quandary"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().expect("exited normally, not by a signal"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed().as_secs_f64(),
    )
}

/// The one JSON object a `--json` run prints.
pub fn one_json(stdout: &str) -> serde_json::Value {
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "exactly one JSON line: {stdout}");
    serde_json::from_str(lines[0]).expect("valid JSON")
}

/// Runs `quandary args --json --time-limit LIMIT` on an instance the limit must stop: exit
/// status 1, one JSON object saying "unknown", and the run over within the limit + 10% +
/// 0.5 s of wall clock. Returns the JSON. For a test binary that runs nothing beside it
/// (tests/limits.rs).
pub fn stopped_within(args: &[&str], limit: f64) -> serde_json::Value {
    stopped(args, limit, limit * 1.1 + 0.5)
}

/// [`stopped_within`] for runs that share the machine with other tests: the run's own clock
/// (`stats.seconds`, which must be there) within the limit + 10% + 0.5 s, the wall clock only
/// as a coarse bound (5 s more), which a loaded machine cannot break.
pub fn stopped_by_its_own_clock(args: &[&str], limit: f64) -> serde_json::Value {
    let v = stopped(args, limit, limit * 1.1 + 5.5);
    let reported = v["stats"]["seconds"]
        .as_f64()
        .unwrap_or_else(|| panic!("{args:?}: no stats.seconds in {v}"));
    assert!(
        reported <= limit * 1.1 + 0.5,
        "{args:?} reports {reported:.2} s under a {limit} s limit"
    );
    v
}

fn stopped(args: &[&str], limit: f64, wall: f64) -> serde_json::Value {
    let limit_text = limit.to_string();
    let mut args = args.to_vec();
    args.extend(["--json", "--time-limit", &limit_text]);
    let (code, stdout, stderr, seconds) = quandary(&args);
    assert_eq!(code, 1, "{args:?}: {stdout} {stderr}");
    let v = one_json(&stdout);
    assert_eq!(v["status"], "unknown", "{args:?}: {v}");
    assert!(
        seconds <= wall,
        "{args:?} took {seconds:.2} s of wall clock under a {limit} s limit"
    );
    if let Some(reported) = v["stats"]["seconds"].as_f64() {
        assert!(
            reported <= seconds,
            "{args:?}: reports {reported} s of {seconds} s"
        );
    }
    v
}

/// Whether an outside program the tests check with is here (`program probe` succeeds). Under
/// CI (`CI` set) a missing one fails the test, since .ci/run installs it (`installed_by` says
/// how); elsewhere the check is skipped, saying so.
pub fn tool_here(program: &str, probe: &str, installed_by: &str) -> bool {
    let found = std::process::Command::new(program)
        .arg(probe)
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{program} is missing under CI: .ci/run installs it ({installed_by})"
        );
        eprintln!("SKIPPED: {program} is not installed here ({installed_by}); CI runs this check");
    }
    found
}
