//! Running the command-line program from the tests.
#![allow(dead_code)] // each test file uses what it needs

/// Runs `quandary args` in the crate's directory: exit status, stdout, stderr and wall-clock
/// seconds.
pub fn quandary(args: &[&str]) -> (i32, String, String, f64) {
    let started = std::time::Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_quandary"))
        .args(args)
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
