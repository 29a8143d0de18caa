//! `--proof DIR`: a run whose refutations are certified ([`quandary::solve::proof`]), and the
//! manifest that says what was certified: `certificate.json`, beside the CNF and DRAT files
//! and `solution.txt` (the answer as printed).

use quandary::error::{Error, Result};
use quandary::runner::registry::{Entry, Report};
use quandary::solve::proof::Recorder;
use std::path::Path;

/// Runs `work` with a recorder writing into `dir`, then writes the manifest and says on
/// stderr what was certified.
pub fn run(
    dir: &str,
    entry: &dyn Entry,
    verb: &str,
    words: &[String],
    work: impl FnOnce(Recorder) -> (Result<Report>, Recorder),
) -> Result<Report> {
    let dir = Path::new(dir);
    let argv: Vec<String> = std::env::args().collect();
    let header = vec![
        "quandary certificate: this formula is unsatisfiable".to_string(),
        format!("command: {}", argv.join(" ")),
        format!("puzzle: {}", entry.name()),
        format!("query: {verb}"),
        format!("instance: {}", words.join(" ")),
    ];
    let replacing = check_dir(dir)?;
    let recorder = Recorder::new(dir, header)?;
    if replacing {
        eprintln!(
            "quandary: --proof: replacing the earlier certificate in {}",
            dir.display()
        );
    }
    clear_old(dir)?;
    let (report, recorder) = work(recorder);
    let report = report?;
    let refuted = recorder.refutations.iter().filter(|r| r.refuted).count();
    let complete = recorder.failures.is_empty() && refuted == recorder.refutations.len();
    let status = report.status.word();
    let claim = match (status, recorder.refutations.is_empty()) {
        ("unknown", _) => "none: the run did not settle the question",
        (_, true) => "no refutation was needed: the answer rests on the solution, which the puzzle's verifier checked",
        ("solved", false) | ("optimal", false) | ("infeasible", false) => {
            "each CNF below is unsatisfiable (checked by its DRAT proof); the last one is the refutation the answer's completeness rests on (no better value, no further solution, or no solution at all)"
        }
        _ => "each CNF below is unsatisfiable (checked by its DRAT proof)",
    };
    let manifest = serde_json::json!({
        "command": argv,
        "puzzle": entry.name(),
        "verb": verb,
        "instance": report.instance,
        "status": status,
        "certified": complete && !recorder.refutations.is_empty(),
        "claim": claim,
        "refutations": recorder.refutations,
        "models": recorder.models,
        "models_file": "models.txt: every model the engine found, one line each (v, every variable as a DIMACS literal, 0)",
        "failures": recorder.failures,
        "check": "a DRAT checker on each pair, e.g. `rate refutation-1.cnf refutation-1.drat` or `drat-trim refutation-1.cnf refutation-1.drat`",
        "trusted": "the translation of the puzzle into clauses (docs/certificates.md)",
        "report": report,
    });
    let text = serde_json::to_string_pretty(&manifest)
        .map_err(|e| Error::Internal(format!("the manifest: {e}")))?;
    let write = |name: &str, contents: &str| {
        let path = dir.join(name);
        quandary::output::write(&path, contents.as_bytes())
            .map_err(|e| Error::input(format!("--proof: cannot write {}: {e}", path.display())))
    };
    write("certificate.json", &(text + "\n"))?;
    write("solution.txt", &report.text)?;
    let n = recorder.refutations.len();
    let words = match (n, complete) {
        (0, _) => "no refutation to certify".to_string(),
        (_, true) => format!("{n} refutation(s), each written as CNF with a DRAT proof"),
        (_, false) => format!(
            "{n} refutation(s), {refuted} with a complete proof; NOT fully certified: {}",
            if recorder.failures.is_empty() {
                "the time limit stopped a proof".to_string()
            } else {
                recorder.failures.join("; ")
            }
        ),
    };
    eprintln!(
        "certificate: {words}; in {}",
        dir.join("certificate.json").display()
    );
    Ok(report)
}

/// Whether a certificate may be written into `dir`: a directory that does not exist yet, an
/// empty one, or one that holds an earlier certificate and nothing else (then `true`: its
/// files will be replaced). Anything else is refused, naming a file that would be in the way.
fn check_dir(dir: &Path) -> Result<bool> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => {
            return Err(Error::input(format!(
                "--proof: cannot read {}: {e}",
                dir.display()
            )))
        }
    };
    let names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    if names.is_empty() {
        return Ok(false);
    }
    let earlier = std::fs::read_to_string(dir.join("certificate.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .is_some_and(|v| v.get("claim").is_some() && v.get("refutations").is_some());
    let stranger = names.iter().find(|n| !is_ours(n));
    match (earlier, stranger) {
        (true, None) => Ok(true),
        (_, Some(name)) => Err(Error::input(format!(
            "--proof: {} holds {name}, which is not part of a quandary certificate; give a new or empty directory",
            dir.display()
        ))),
        (false, None) => Err(Error::input(format!(
            "--proof: {} holds certificate files but no readable certificate.json; give a new or empty directory",
            dir.display()
        ))),
    }
}

/// Whether a file name is one a certificate writes.
fn is_ours(name: &str) -> bool {
    (name.starts_with("refutation-") && (name.ends_with(".cnf") || name.ends_with(".drat")))
        || name == "certificate.json"
        || name == "models.txt"
        || name == "solution.txt"
}

/// Removes the files an earlier certificate left in `dir`, so that none is taken for this
/// run's.
fn clear_old(dir: &Path) -> Result<()> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::input(format!("--proof: cannot read {}: {e}", dir.display())))?;
    for e in entries.flatten() {
        if is_ours(&e.file_name().to_string_lossy()) {
            std::fs::remove_file(e.path()).map_err(|err| {
                Error::input(format!(
                    "--proof: cannot remove {}: {err}",
                    e.path().display()
                ))
            })?;
        }
    }
    Ok(())
}
