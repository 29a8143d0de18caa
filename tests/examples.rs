//! Every example command in README.md, in docs/*.md and in the `--help` texts runs as
//! written: it is accepted (no "bad input", exit status 2), does not fail inside (3, or a
//! panic), and ends: each runs under a time limit (`--time-limit` added where the command takes
//! one and gives none, lowered where it gives a longer one; a batch's bounds the whole batch)
//! and the test waits for its end, within that limit and a margin. Commands run in order, in a
//! scratch directory holding a copy of the repository's `data/` and `deploy/`, so the files
//! they write (and later examples read) land there.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_quandary");

/// The time limit an example of the README or a help text runs under, at most (seconds): a
/// run longer than that is checked to start and to stop at its limit with a lawful exit (the
/// README's longest examples take 1–2 minutes; at 30 s this test took 192 s of CI's 45
/// minutes, at 12 s about half).
const LIMIT: u64 = 12;

/// The same for the examples of docs/*.md: there are more of them, and many record long runs
/// (a census, a cluster's batches) whose start is what can be checked here.
const DOCS_LIMIT: u64 = 8;

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
        // One upper-case letter is a placeholder where it stands for itself (`tank count N`),
        // not where it is a flag's value (`--type Q`).
        let template = words.iter().enumerate().any(|(k, w)| {
            let capitals = w
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c == '.');
            let flag_value = k > 0 && words[k - 1].starts_with('-');
            w.contains('[') || w.contains("...") || (capitals && (w.len() > 1 || !flag_value))
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

/// A scratch directory with copies of the repository's data and deploy folders (examples
/// write there: a results file beside its job file) and its docs linked in.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for folder in ["data", "deploy"] {
        copy_tree(&root.join(folder), &dir.join(folder));
    }
    std::os::unix::fs::symlink(root.join("docs"), dir.join("docs")).unwrap();
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Runs one example under a time limit of at most `cap` seconds and waits for its end: `None`
/// if it is accepted and ends in time, else what went wrong.
fn run(dir: &Path, words: &[String], cap: u64) -> Option<String> {
    // `serve` listens for ever on a fixed port: checked by its own tests.
    if words.first().map(String::as_str) == Some("serve") {
        return None;
    }
    let mut words = words.to_vec();
    let given = words.iter().position(|w| w == "--time-limit");
    let limit = match given.and_then(|k| Some((k + 1, words.get(k + 1)?.parse::<f64>().ok()?))) {
        Some((_, l)) if l <= cap as f64 => Duration::from_secs_f64(l),
        Some((k, _)) => {
            words[k] = cap.to_string();
            Duration::from_secs(cap)
        }
        None => {
            if takes_a_time_limit(&words) {
                words.extend(["--time-limit".to_string(), cap.to_string()]);
            }
            Duration::from_secs(cap)
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
    run_all(&texts, "examples", LIMIT, 30);
}

/// Runs the examples of `texts` in order, in one scratch directory, each under at most `cap`
/// seconds; fails naming every example that went wrong, or if fewer than `least` were found.
fn run_all(texts: &[(String, String)], name: &str, cap: u64, least: usize) {
    let dir = scratch(name);
    let mut ran = 0;
    let mut failures = Vec::new();
    for (source, text) in texts {
        for words in examples(text) {
            ran += 1;
            if let Some(why) = run(&dir, &words, cap) {
                failures.push(format!("{source}: quandary {}: {why}", words.join(" ")));
            }
        }
    }
    assert!(ran >= least, "only {ran} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_example_in_the_docs_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    let texts: Vec<(String, String)> = pages
        .iter()
        .map(|p| {
            let name = format!("docs/{}", p.file_name().unwrap().to_string_lossy());
            (name, std::fs::read_to_string(p).unwrap())
        })
        .collect();
    run_all(&texts, "doc-examples", DOCS_LIMIT, 25);
}

#[test]
fn example_lines_are_read_as_a_shell_would() {
    let e = examples(
        "    quandary battleship generate --fleet \"4 3 2 1\" -o new.txt   # a comment\n\
         quandary at the start of a sentence\n    quandary FILE\n    quandary gunport optimum 8 8 --proof cert/ && rate x y\n\
         $ nothing\n    quandary jobs gunport optimum 1..20 > census.jsonl\n\
             quandary tank count N\n    quandary chess peaceable 5 --type Q\n",
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
            vec!["chess", "peaceable", "5", "--type", "Q"],
        ]
    );
}

/// The rows of a Markdown table in `text`: cells trimmed, the header's separator left out.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("|--:"))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// Every figure a page quotes as "of this build" is the measured set the script wrote: the
/// same command, the same min, median and max as a row of a file in bench/results/figures/
/// (README.md, "How figures are given"), so no page keeps a number of its own.
#[test]
fn figures_of_this_build_are_the_measured_sets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // command -> every (min, median, max) measured for it, from every file.
    let mut measured: std::collections::HashMap<String, Vec<(String, String, String)>> =
        Default::default();
    for entry in std::fs::read_dir(root.join("bench/results/figures")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for row in table_rows(&text) {
            // | name | `quandary ...` | min | median | max | status |
            if row.len() == 6 && row[1].starts_with("`quandary ") {
                let set = (row[2].clone(), row[3].clone(), row[4].clone());
                let command = row[1].trim_matches('`').to_string();
                measured.entry(command).or_default().push(set);
            }
        }
    }
    assert!(
        measured.len() >= 20,
        "too few measured sets: {}",
        measured.len()
    );
    let mut quoted = 0;
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let Some(start) = text.find("## Figures of this build\n") else {
            continue;
        };
        let section = &text[start + 3..];
        let section = &section[..section.find("\n## ").unwrap_or(section.len())];
        for row in table_rows(section) {
            // | `quandary ...` | min | median | max | answer |
            if row.len() != 5 || !row[0].starts_with("`quandary ") {
                continue;
            }
            // The pages quote fleets in shell quotes; the script's file shows the words.
            let command = row[0].trim_matches('`').replace('"', "");
            let set = (row[1].clone(), row[2].clone(), row[3].clone());
            match measured.get(&command) {
                Some(sets) => assert!(
                    sets.contains(&set),
                    "{}: `{command}` is quoted as {set:?}, measured as {sets:?}",
                    path.display()
                ),
                None => panic!(
                    "{}: `{command}` has no measured set in bench/results/figures/",
                    path.display()
                ),
            }
            quoted += 1;
        }
    }
    assert!(quoted >= 25, "only {quoted} figures found quoted");
}
