//! Running the command-line program from the tests.
#![allow(dead_code)] // each test file uses what it needs

pub mod server;

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
/// status 1, one JSON object saying "unknown", the run's own clock (`stats.seconds`, which
/// every answer and every error object carries) within the limit + 10% + 0.5 s, and the wall
/// clock within 1.5 s more (starting and ending the process, even on a loaded machine).
/// Returns the JSON. For tests/limits.rs, whose tests run one at a time.
pub fn stopped_within(args: &[&str], limit: f64) -> serde_json::Value {
    let v = stopped(args, limit, limit * 1.1 + 2.0);
    own_clock_within(args, &v, limit);
    v
}

/// [`stopped_within`] for runs that share the machine with other tests: the wall clock only
/// as a coarse bound (5 s more).
pub fn stopped_by_its_own_clock(args: &[&str], limit: f64) -> serde_json::Value {
    let v = stopped(args, limit, limit * 1.1 + 5.5);
    own_clock_within(args, &v, limit);
    v
}

fn own_clock_within(args: &[&str], v: &serde_json::Value, limit: f64) {
    let reported = v["stats"]["seconds"]
        .as_f64()
        .unwrap_or_else(|| panic!("{args:?}: no stats.seconds in {v}"));
    assert!(
        reported <= limit * 1.1 + 0.5,
        "{args:?} reports {reported:.2} s under a {limit} s limit"
    );
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

/// A place marked on a drawn board: where, what it holds, what it can become.
#[derive(Debug, Clone)]
pub struct Place {
    pub at: String,
    pub value: String,
    pub choices: Vec<String>,
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

fn attribute(tag: &str, name: &str) -> String {
    let key = format!("{name}=\"");
    let start = tag.find(&key).expect(name) + key.len();
    let len = tag[start..].find('"').expect("the attribute's end");
    unescape(&tag[start..start + len])
}

/// The marked places of a board drawn for editing (`Puzzle::sketch`), read off its SVG as a
/// page reads them.
pub fn places(svg: &str) -> Vec<Place> {
    svg.split("class=\"edit\"")
        .skip(1)
        .map(|tag| Place {
            at: attribute(tag, "data-at"),
            value: attribute(tag, "data-value"),
            choices: attribute(tag, "data-choices")
                .split('|')
                .map(str::to_string)
                .collect(),
        })
        .collect()
}
