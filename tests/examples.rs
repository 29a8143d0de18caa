//! Every example command in README.md and in the `--help` texts runs as written: it is
//! accepted (no "bad input", exit status 2), does not fail inside (3, or a panic), and ends:
//! each runs under a time limit (`--time-limit` added where the command takes one and gives
//! none) and the test waits for its end, within that limit and a margin. Commands run in a
//! scratch directory that sees the repository's `data/`, so the files they write land there.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_quandary");

/// The time limit an example runs under when it gives none (seconds).
const LIMIT: u64 = 30;

/// How long past its limit an example may take to end (building and freeing a model, writing
/// its files), on a machine other tests share.
const MARGIN: Duration = Duration::from_secs(20);

/// The example commands of a text: indented lines (code blocks, help texts) that start with
/// `quandary ` or `cargo run --release -- `, up to a `&&`, `|` or `#`; those with
/// placeholders (upper-case words such as FILE, or `[...]`) are templates, not examples.
fn examples(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for line in text.lines() {
        if !line.starts_with(' ') {
            continue;
        }
        let line = line.trim();
        let rest = line
            .strip_prefix("quandary ")
            .or_else(|| line.strip_prefix("cargo run --release -- "));
        let Some(rest) = rest else { continue };
        let rest = rest
            .split(" && ")
            .next()
            .unwrap()
            .split(" | ")
            .next()
            .unwrap()
            .split(" # ")
            .next()
            .unwrap();
        let words = shell_words(rest);
        let template = words.iter().any(|w| {
            w.contains('[')
                || w.contains("...")
                || (w.len() > 1
                    && w.chars()
                        .all(|c| c.is_ascii_uppercase() || c == '_' || c == '.'))
        });
        // A redirection writes a file: leave it off (the command's output is not checked).
        let words: Vec<String> = words.into_iter().take_while(|w| w != ">").collect();
        if !template && !words.is_empty() {
            out.push(words);
        }
    }
    out
}

/// Splits a command line at blanks, keeping "quoted words" and 'quoted words' whole.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (None, c) => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

/// A scratch directory with the repository's data and deploy folders linked in.
fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("examples");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for folder in ["data", "deploy", "docs"] {
        std::os::unix::fs::symlink(root.join(folder), dir.join(folder)).unwrap();
    }
    dir
}

/// Runs one example under a time limit and waits for its end: `None` if it is accepted and
/// ends in time, else what went wrong.
fn run(dir: &Path, words: &[String]) -> Option<String> {
    // `serve` listens for ever on a fixed port: checked by its own tests.
    if words.first().map(String::as_str) == Some("serve") {
        return None;
    }
    let mut words = words.to_vec();
    let given = words.iter().position(|w| w == "--time-limit");
    let limit = match given.and_then(|k| words.get(k + 1)?.parse::<f64>().ok()) {
        Some(l) => Duration::from_secs_f64(l),
        None => {
            if takes_a_time_limit(&words) {
                words.extend(["--time-limit".to_string(), LIMIT.to_string()]);
            }
            Duration::from_secs(LIMIT)
        }
    };
    let mut child = Command::new(BIN)
        .args(&words)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            // A build without the MIP backend refuses its examples, saying how to get it.
            let no_highs =
                !cfg!(feature = "highs") && err.contains("this build has no MIP backend");
            return match status.code() {
                Some(0 | 1 | 4) => None,
                Some(2) if no_highs => None,
                code => Some(format!("exit {code:?}: {}", err.trim())),
            };
        }
        if started.elapsed() > limit + MARGIN {
            let _ = child.kill();
            let _ = child.wait();
            return Some(format!(
                "still running {:.0} s after its start, under a {} s limit",
                started.elapsed().as_secs_f64(),
                limit.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether a command takes `--time-limit` (its verb's help lists it).
fn takes_a_time_limit(words: &[String]) -> bool {
    let mut path: Vec<&str> = words
        .iter()
        .take_while(|w| !w.starts_with('-'))
        .take(2)
        .map(String::as_str)
        .collect();
    path.push("--help");
    help(&path).contains("--time-limit")
}

fn help(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_example_in_the_readme_and_the_help_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts = vec![(
        "README.md".to_string(),
        std::fs::read_to_string(root.join("README.md")).unwrap(),
    )];
    let top = help(&["--help"]);
    // Every subcommand's help, and every verb's of every puzzle.
    let commands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() >= 8, "{top}");
    texts.push(("quandary --help".into(), top.clone()));
    for c in &commands {
        let text = help(&[c, "--help"]);
        let verbs: Vec<String> = text
            .lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next().map(String::from))
            .filter(|v| v != "help")
            .collect();
        texts.push((format!("quandary {c} --help"), text));
        for v in verbs {
            texts.push((format!("quandary {c} {v} --help"), help(&[c, &v, "--help"])));
        }
    }
    let dir = scratch();
    let mut ran = 0;
    let mut failures = Vec::new();
    for (source, text) in &texts {
        for words in examples(text) {
            ran += 1;
            if let Some(why) = run(&dir, &words) {
                failures.push(format!("{source}: quandary {}: {why}", words.join(" ")));
            }
        }
    }
    assert!(ran >= 30, "only {ran} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn example_lines_are_read_as_a_shell_would() {
    let e = examples(
        "    quandary battleship generate --fleet \"4 3 2 1\" -o new.txt   # a comment\n\
         quandary at the start of a sentence\n    quandary FILE\n    quandary gunport optimum 8 8 --proof cert/ && rate x y\n\
         $ nothing\n    quandary jobs gunport optimum 1..20 > census.jsonl\n",
    );
    assert_eq!(
        e,
        vec![
            vec![
                "battleship",
                "generate",
                "--fleet",
                "4 3 2 1",
                "-o",
                "new.txt"
            ],
            vec!["gunport", "optimum", "8", "8", "--proof", "cert/"],
            vec!["jobs", "gunport", "optimum", "1..20"],
        ]
    );
}
