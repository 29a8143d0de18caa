//! The LP and MPS files are portable: GLPK (`glpsol --lp` and `--freemps`, Debian package
//! glpk-utils, which .ci/run installs) reads the files of every formulation of every puzzle and
//! solves them to the same optimum as quandary (or, without an objective, finds them feasible
//! as quandary does); the MPS file minimises, so a maximisation reads negated there.
//!
//! Without glpsol on the machine the test says so and passes, except under CI (`CI` set),
//! where a missing glpsol fails it.

mod common;
use quandary::model::{lp, mps};
use quandary::puzzles::{Files, Puzzle};
use quandary::runner::registry::{options, OptionsIn};
use quandary::runner::{run, Limits, Query};
use serde_json::{json, Value};

fn glpsol_here() -> bool {
    common::tool_here("glpsol", "--version", "Debian package glpk-utils")
}

/// GLPK's status line and objective value for a model file, `format` its glpsol flag
/// (`lp`, `freemps`).
fn glpk(text: &str, format: &str, tag: &str) -> (String, Option<i64>) {
    let dir = std::env::temp_dir().join(format!("quandary-glpk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{tag}.{format}"));
    let out = dir.join(format!("{tag}.{format}.txt"));
    std::fs::write(&file, text).unwrap();
    let run = std::process::Command::new("glpsol")
        .args([
            &format!("--{format}"),
            file.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--tmlim",
            "120",
        ])
        .output()
        .unwrap();
    let report = std::fs::read_to_string(&out).unwrap_or_else(|_| {
        panic!(
            "{tag}: glpsol wrote no solution: {}",
            String::from_utf8_lossy(&run.stdout)
        )
    });
    let status = report
        .lines()
        .find_map(|l| l.strip_prefix("Status:"))
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let objective = report
        .lines()
        .find_map(|l| l.strip_prefix("Objective:"))
        .and_then(|l| l.split('=').nth(1))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse::<f64>().ok())
        .map(|v| v.round() as i64);
    (status, objective)
}

/// One formulation: GLPK must read it and agree with quandary (whose optimum is computed
/// with the puzzle's default formulation unless the options name another goal).
fn agrees<P: Puzzle>(words: &[&str], o: Value, tag: &str) {
    let reference = o.get("type").map_or(json!({}), |t| json!({ "type": t }));
    let reference = options::<P>(OptionsIn::Json(&reference)).unwrap();
    let o = options::<P>(OptionsIn::Json(&o)).unwrap();
    let w: Vec<String> = words.iter().map(|s| s.to_string()).collect();
    let i = P::read(&w, &o, Files::Disk).unwrap();
    let f = P::formulate(&i, &o, Query::Count { cap: None }).unwrap();
    let started = std::time::Instant::now();
    let (status, objective) = glpk(&lp::to_lp(&f.model, tag), "lp", tag);
    eprintln!(
        "{tag}: GLPK {status} in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(status, "INTEGER OPTIMAL", "{tag}");
    // The same model as MPS: the same optimum (negated where it maximises).
    let (mps_status, mps_objective) = glpk(&mps::to_mps(&f.model, tag), "freemps", tag);
    assert_eq!(mps_status, "INTEGER OPTIMAL", "{tag} (MPS)");
    let maximises = f
        .model
        .objective
        .as_ref()
        .is_some_and(|o| o.direction == quandary::model::Direction::Maximise);
    let lp_objective = objective.map(|v| if maximises { -v } else { v });
    assert_eq!(mps_objective, lp_objective, "{tag} (MPS)");
    if let Some(goal) = &f.goal {
        let best = run::<P>(&i, &reference, Query::Optimum, &Limits::none())
            .unwrap()
            .objective
            .unwrap();
        assert_eq!(objective, Some(goal.model_value(best)), "{tag}");
    }
}

quandary_probe::needs_glpsol! {
    #[test]
    fn glpk_reads_every_formulation_and_agrees() {
        use quandary::puzzles::battleship::{puzzle::EXAMPLE_URL, BattleshipPuzzle};
        use quandary::puzzles::chess::ChessAvoidance;
        use quandary::puzzles::gunport::GunportProblem;
        use quandary::puzzles::tank::TankAttack;
        use quandary::puzzles::tantrix::TantrixPuzzle;
        use quandary::puzzles::template::LatinSquare;
        if !glpsol_here() {
            return;
        }
        for f in ["seed", "strong"] {
            agrees::<TankAttack>(&["4"], json!({"formulation": f}), &format!("tank-{f}"));
        }
        for f in ["cell", "domino", "strong", "charge"] {
            agrees::<GunportProblem>(
                &["4", "4"],
                json!({"formulation": f}),
                &format!("gunport-{f}"),
            );
        }
        for f in ["pairwise", "bigm", "clique"] {
            let board = "data/chess/friedman-b4n2.txt";
            agrees::<ChessAvoidance>(&[board], json!({"formulation": f}), &format!("chess-{f}"));
            agrees::<ChessAvoidance>(
                &["5"],
                json!({"formulation": f, "type": "Q"}),
                &format!("chess-max-{f}"),
            );
        }
        for f in ["cell", "cell-printed", "ship", "ship-cells", "runs"] {
            agrees::<BattleshipPuzzle>(
                &[EXAMPLE_URL],
                json!({"formulation": f}),
                &format!("battleship-{f}"),
            );
        }
        let board = "data/tantrix/boards/discovery-05.txt";
        for (tag, o) in [
            ("tantrix", json!({})),
            (
                "tantrix-copies",
                json!({"copies": true, "no-c6": true, "short-loops": "none"}),
            ),
            ("tantrix-reach", json!({"reach": true})),
        ] {
            agrees::<TantrixPuzzle>(&[board], o, tag);
        }
        agrees::<LatinSquare>(&["3"], json!({}), "latin");
    }
}
