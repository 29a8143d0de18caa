//! Certificates (`--proof DIR`): every refutation is written as a CNF with a DRAT proof, and a
//! checker that is not ours accepts each one; a corrupted proof or formula is rejected; a
//! count's models are real and distinct; and the CNF's models, projected on the 0-1 program's
//! variables, are exactly the program's solutions (the encoding, checked on small instances).
//!
//! The checker is `rate` (crates.io, Johannes Altmanninger's DRAT/DPR checker; `.ci/run`
//! installs it with `cargo install`), found on PATH or named by QUANDARY_DRAT_CHECKER. Where
//! it is missing the checks of proofs say so and pass, except under CI (`CI` set).

mod common;
use common::quandary;
use quandary::model::{Lit, Model, Sense, Var};
use quandary::runner::registry::{self, OptionsIn};
use quandary::runner::Query;
use quandary::solve::sat::SatBackend;
use quandary::solve::search::{Search, Status};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("proof-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The DRAT checker, if this machine has one.
fn checker() -> Option<String> {
    let name = std::env::var("QUANDARY_DRAT_CHECKER").unwrap_or_else(|_| "rate".into());
    common::tool_here(&name, "--help", "cargo install rate").then_some(name)
}

/// Whether the checker accepts `proof` as a refutation of `cnf`.
fn verified(checker: &str, cnf: &Path, proof: &Path) -> bool {
    let out = std::process::Command::new(checker)
        .arg(cnf)
        .arg(proof)
        .output()
        .expect("the checker runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let yes = text.lines().any(|l| l.trim() == "s VERIFIED");
    // The checker's exit status must agree with what it printed.
    assert_eq!(yes, out.status.success(), "{text}");
    yes
}

/// Runs a verb with --proof; returns the manifest after checking that the answer is the one
/// expected and that every refutation is accepted by the checker.
fn certified(name: &str, args: &[&str], status: &str) -> (Value, PathBuf) {
    let dir = scratch(name);
    let mut all = args.to_vec();
    let d = dir.to_str().unwrap();
    all.extend(["--json", "--proof", d]);
    let (code, stdout, stderr, _) = quandary(&all);
    assert!(code == 0, "{args:?}: exit {code}: {stderr}");
    assert!(stderr.contains("certificate:"), "{stderr}");
    let report: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(report["status"], status, "{stdout}");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("certificate.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["certified"], true, "{manifest}");
    assert_eq!(manifest["report"]["status"], status);
    let refutations = manifest["refutations"].as_array().unwrap();
    assert!(!refutations.is_empty());
    if let Some(checker) = checker() {
        for r in refutations {
            let cnf = dir.join(r["cnf"].as_str().unwrap());
            let proof = dir.join(r["proof"].as_str().unwrap());
            assert!(verified(&checker, &cnf, &proof), "{}", cnf.display());
        }
    }
    (manifest, dir)
}

/// A CNF file: its clauses (the header's counts checked) and its comment lines.
fn read_cnf(path: &Path) -> (Vec<Vec<i32>>, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut comments = Vec::new();
    let mut clauses = Vec::new();
    let mut declared = None;
    let mut current = Vec::new();
    for line in text.lines() {
        if let Some(c) = line.strip_prefix("c ") {
            comments.push(c.to_string());
        } else if let Some(p) = line.strip_prefix("p cnf ") {
            let v: Vec<usize> = p.split_whitespace().map(|x| x.parse().unwrap()).collect();
            declared = Some((v[0], v[1]));
        } else {
            for w in line.split_whitespace() {
                let l: i32 = w.parse().unwrap();
                if l == 0 {
                    clauses.push(std::mem::take(&mut current));
                } else {
                    current.push(l);
                }
            }
        }
    }
    let (vars, n) = declared.expect("a p line");
    assert_eq!(clauses.len(), n, "{}", path.display());
    assert!(clauses
        .iter()
        .flatten()
        .all(|l| l.unsigned_abs() as usize <= vars));
    (clauses, comments)
}

fn satisfies(model: &[i32], clause: &[i32]) -> bool {
    clause
        .iter()
        .any(|&l| model[l.unsigned_abs() as usize - 1] == l)
}

#[test]
fn tank_3_infeasible_is_certified() {
    let (manifest, dir) = certified("tank3", &["tank", "solve", "3"], "infeasible");
    let (_, comments) = read_cnf(&dir.join("refutation-1.cnf"));
    // The header names the puzzle, the instance, the query and the formulation.
    for want in [
        "puzzle: tank",
        "query: solve",
        "instance: 3",
        "formulation: SAT (CaDiCaL), strong formulation",
    ] {
        assert!(comments.iter().any(|c| c == want), "{want}: {comments:?}");
    }
    assert_eq!(manifest["refutations"].as_array().unwrap().len(), 1);
}

quandary_probe::needs_rate! {
    #[test]
    fn a_corrupted_proof_or_formula_is_rejected() {
        let Some(checker) = checker() else { return };
        let (_, dir) = certified("corrupt", &["gunport", "optimum", "6", "6"], "optimal");
        let cnf = dir.join("refutation-1.cnf");
        let proof = dir.join("refutation-1.drat");
        assert!(verified(&checker, &cnf, &proof));
        // The proof without its lemmas' second half (the empty clause among them) proves nothing.
        let text = std::fs::read_to_string(&proof).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let cut = dir.join("cut.drat");
        std::fs::write(&cut, lines[..lines.len() / 2].join("\n") + "\n").unwrap();
        assert!(!verified(&checker, &cnf, &cut));
        // The formula with its first rows dropped is satisfiable: no proof can refute it.
        let (clauses, _) = read_cnf(&cnf);
        let kept = &clauses[clauses.len() / 2..];
        let max = clauses.iter().flatten().map(|l| l.abs()).max().unwrap();
        let mut weak = format!("p cnf {max} {}\n", kept.len());
        for c in kept {
            for l in c {
                weak.push_str(&format!("{l} "));
            }
            weak.push_str("0\n");
        }
        let weak_path = dir.join("weak.cnf");
        std::fs::write(&weak_path, weak).unwrap();
        assert!(!verified(&checker, &weak_path, &proof));
    }
}

#[test]
fn tank_5_count_2_is_certified_with_its_two_models() {
    // Tank Attack 5×5 has exactly 2 boards (tank.txt).
    let (manifest, dir) = certified("tank5", &["tank", "count", "5"], "solved");
    assert_eq!(manifest["report"]["count"], 2);
    let refutations = manifest["refutations"].as_array().unwrap();
    let last = refutations.last().unwrap();
    let (clauses, _) = read_cnf(&dir.join(last["cnf"].as_str().unwrap()));
    let model_clauses = last["model_clauses"].as_u64().unwrap() as usize;
    let blocking = &clauses[model_clauses..model_clauses + 2];
    assert_eq!(last["search_clauses"], 2, "one blocking clause per board");
    // The models found: each satisfies every clause of the model and falsifies exactly one
    // blocking clause, a different one each (two distinct boards).
    let models: Vec<Vec<i32>> = std::fs::read_to_string(dir.join("models.txt"))
        .unwrap()
        .lines()
        .map(|l| {
            l.split_whitespace()
                .skip(1)
                .map(|w| w.parse().unwrap())
                .filter(|&l: &i32| l != 0)
                .collect()
        })
        .collect();
    assert_eq!(models.len(), 2);
    let mut excluded = BTreeSet::new();
    for m in &models {
        assert!(clauses[..model_clauses].iter().all(|c| satisfies(m, c)));
        let falsified: Vec<usize> = (0..2).filter(|&k| !satisfies(m, &blocking[k])).collect();
        assert_eq!(falsified.len(), 1);
        excluded.insert(falsified[0]);
    }
    assert_eq!(excluded.len(), 2);
}

#[test]
fn gunport_8x8_optimum_is_certified() {
    // 8×8: 20 holes (Pearce's formula; Klostermeyer and Yeo proved it for sides ≤ 13).
    let (manifest, dir) = certified("gunport8", &["gunport", "optimum", "8", "8"], "optimal");
    assert_eq!(manifest["report"]["objective"], 20);
    // The last refutation assumes the objective bound (21 holes or more).
    let last = manifest["refutations"].as_array().unwrap().last().unwrap();
    assert!(last["assumptions"].as_u64().unwrap() > 0, "{last}");
    assert!(std::fs::read_to_string(dir.join("solution.txt"))
        .unwrap()
        .contains("optimal, 20 holes"));
}

/// Two engines racing (a portfolio, on threads of their own): the refutations are still
/// certified, whichever engine answers (the recorder travels with the run into the engines'
/// threads; it used to sit in a thread-local that only the caller's thread could see).
#[test]
fn a_portfolio_of_two_engines_still_certifies() {
    let (manifest, _) = certified(
        "portfolio",
        &["gunport", "optimum", "6", "6", "--configs", "default,sat"],
        "optimal",
    );
    assert_eq!(manifest["report"]["objective"], 12);
}

#[test]
fn the_seed_chess_puzzle_is_certified_unique() {
    let (manifest, _) = certified(
        "chess",
        &["chess", "unique", "data/chess/friedman-b4n2.txt"],
        "solved",
    );
    assert_eq!(manifest["report"]["unique"], true);
}

#[test]
fn a_battleship_puzzle_is_certified_unique() {
    let (manifest, _) = certified(
        "battleship",
        &[
            "battleship",
            "unique",
            "data/battleship/puzzlink-example.txt",
        ],
        "solved",
    );
    assert_eq!(manifest["report"]["unique"], true);
    // The uniqueness refutation holds the blocking clause of the one solution.
    let last = manifest["refutations"].as_array().unwrap().last().unwrap();
    assert!(last["search_clauses"].as_u64().unwrap() >= 1);
}

#[test]
fn a_solution_needs_no_refutation_and_says_so() {
    let dir = scratch("found");
    let (code, _, stderr, _) = quandary(&["tank", "solve", "5", "--proof", dir.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(stderr.contains("no refutation to certify"), "{stderr}");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("certificate.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["certified"], false);
    assert!(manifest["claim"]
        .as_str()
        .unwrap()
        .contains("no refutation was needed"));
}

// The encoding: CNF models projected on the program's variables = the program's solutions.

/// Every solution of the 0-1 program, by a plain backtracking search that checks the rows
/// directly (each row's least and greatest reachable sum), sharing no code with the SAT
/// encodings.
/// A row as (weight, variable, negated) terms, sense and right-hand side.
type Row = (Vec<(i64, usize, bool)>, Sense, i64);

fn program_solutions(model: &Model) -> BTreeSet<Vec<bool>> {
    let n = model.num_vars();
    let rows: Vec<Row> = model
        .constraints
        .iter()
        .map(|c| {
            let terms = c
                .terms
                .iter()
                .map(|&(w, l)| (w, l.var.index(), l.negated))
                .collect();
            (terms, c.sense, c.rhs)
        })
        .collect();
    let mut touching: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, (terms, _, _)) in rows.iter().enumerate() {
        for &(_, v, _) in terms {
            touching[v].push(k);
        }
    }
    let possible = |row: &Row, value: &[Option<bool>]| {
        let (mut lo, mut hi) = (0i64, 0i64);
        for &(w, v, neg) in &row.0 {
            match value[v] {
                Some(x) => {
                    if x != neg {
                        lo += w;
                        hi += w;
                    }
                }
                None => {
                    lo += w.min(0);
                    hi += w.max(0);
                }
            }
        }
        match row.1 {
            Sense::Le => lo <= row.2,
            Sense::Ge => hi >= row.2,
            Sense::Eq => lo <= row.2 && row.2 <= hi,
        }
    };
    fn walk(
        k: usize,
        value: &mut Vec<Option<bool>>,
        out: &mut BTreeSet<Vec<bool>>,
        ok: &dyn Fn(usize, &[Option<bool>]) -> bool,
    ) {
        if k == value.len() {
            out.insert(value.iter().map(|v| v.unwrap()).collect());
            return;
        }
        for x in [false, true] {
            value[k] = Some(x);
            if ok(k, value) {
                walk(k + 1, value, out, ok);
            }
        }
        value[k] = None;
    }
    let ok =
        |k: usize, value: &[Option<bool>]| touching[k].iter().all(|&r| possible(&rows[r], value));
    let mut out = BTreeSet::new();
    if rows.iter().all(|r| possible(r, &vec![None; n])) {
        walk(0, &mut vec![None; n], &mut out, &ok);
    }
    out
}

/// Every model of the CNF the SAT backend builds from `model`, projected on the program's
/// variables.
fn cnf_solutions(model: &Model) -> BTreeSet<Vec<bool>> {
    let all: Vec<Var> = (0..model.num_vars() as u32).map(Var).collect();
    let mut search = Search::new(SatBackend::new(model), None);
    let mut out = BTreeSet::new();
    let (status, _) = search.enumerate(&all, &[] as &[Lit], None, |a| {
        out.insert(a.to_vec());
        true
    });
    assert_eq!(status, Status::Solved);
    out
}

#[test]
fn the_cnf_has_exactly_the_programs_solutions_on_small_instances() {
    let cases: &[(&str, &[&str], &str)] = &[
        ("gunport", &["3", "3"], "{}"),
        ("gunport", &["3", "4"], r#"{"formulation":"cell"}"#),
        ("gunport", &["3", "4"], r#"{"formulation":"domino"}"#),
        ("gunport", &["3", "4"], r#"{"formulation":"charge"}"#),
        ("tank", &["4"], "{}"),
        ("tank", &["4"], r#"{"formulation":"seed"}"#),
        ("chess", &["4"], r#"{"army":"Q2"}"#),
        ("chess", &["4"], r#"{"army":"Q1R1B1"}"#),
        (
            "battleship",
            &["data/battleship/puzzlink-example.txt"],
            "{}",
        ),
        (
            "battleship",
            &["data/battleship/puzzlink-example.txt"],
            r#"{"formulation":"cell"}"#,
        ),
    ];
    for (puzzle, words, options) in cases {
        let entry = registry::find(puzzle).unwrap();
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let options: Value = serde_json::from_str(options).unwrap();
        let registry::Built { title, model, .. } = entry
            .model(
                &words,
                quandary::input::Files::Disk,
                OptionsIn::Json(&options),
                Query::First,
            )
            .unwrap();
        let program = program_solutions(&model);
        let cnf = cnf_solutions(&model);
        assert!(!program.is_empty() || *puzzle == "tank", "{title}");
        assert_eq!(cnf, program, "{title}: {} vs {}", cnf.len(), program.len());
        eprintln!("{title}: {} solutions, the same in both", program.len());
    }
}

/// Peaceable queens (A250000, n = 2..8) with `--proof`: the refutation of m + 1 is written and
/// accepted by the DRAT checker (the CNF holds the colouring model with its lex-leader rows:
/// docs/certificates.md says what that proves).
#[test]
fn peaceable_queens_to_8_are_certified() {
    let a250000 = [0, 1, 2, 4, 5, 7, 9];
    for (n, m) in (2..=8).zip(a250000) {
        let name = format!("peaceable{n}");
        let (manifest, _) = certified(&name, &["chess", "peaceable", &n.to_string()], "optimal");
        assert_eq!(manifest["report"]["objective"], m, "n = {n}");
        assert_eq!(manifest["refutations"].as_array().map(Vec::len), Some(1));
    }
}
