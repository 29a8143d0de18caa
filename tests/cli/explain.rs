//! `explain` and the workbench on the command line: steps, difficulty, pictures, refusals,
//! and a run of edits.

use super::*;

#[test]
fn explain_prints_steps_difficulty_and_pictures() {
    let dir = std::env::temp_dir().join(format!("quandary-explain-{}", std::process::id()));
    let dir_s = dir.to_string_lossy().to_string();
    let url = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";
    let (code, stdout, stderr) =
        quandary(&["battleship", "explain", url, "--json", "--svg", &dir_s]);
    assert_eq!(code, 0, "{stderr}");
    let v = one_json(&stdout);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["complete"], true);
    // A report reads back (batch results do): the explanation with it.
    let back: quandary::runner::registry::Report =
        serde_json::from_str(stdout.trim()).expect("the report reads back");
    let x = back
        .facts
        .explanation
        .as_ref()
        .expect("the explanation reads back");
    assert_eq!(x.steps.len(), v["steps"].as_array().unwrap().len());
    let steps = v["steps"].as_array().expect("steps");
    assert_eq!(v["difficulty"]["steps"], steps.len());
    let costs: Vec<u64> = steps.iter().map(|s| s["cost"].as_u64().unwrap()).collect();
    assert_eq!(v["difficulty"]["hardest"], *costs.iter().max().unwrap());
    assert_eq!(v["difficulty"]["total"], costs.iter().sum::<u64>());
    // The first step: the water clue at (1,6), a given, concludes that cell.
    let first = &steps[0];
    assert_eq!(
        first["derived"][0]["place"]["cell"],
        serde_json::json!([0, 5])
    );
    assert_eq!(first["derived"][0]["value"], false);
    assert_eq!(first["reason"][0]["kind"], "given");
    assert!(["subset", "smallest"].contains(&first["minimal"].as_str().unwrap()));
    // Every cell of the 6×6 board is concluded once.
    let derived: usize = steps
        .iter()
        .map(|s| s["derived"].as_array().unwrap().len())
        .sum();
    assert_eq!(derived, 36);
    // One picture a step, and the solution.
    for k in 1..=steps.len() {
        let pic = std::fs::read_to_string(dir.join(format!("step-{k:03}.svg"))).expect("a step");
        assert!(pic.starts_with("<svg"));
    }
    assert!(dir.join("solution.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
    // The text: one line a step.
    let (code, stdout, _) = quandary(&["battleship", "explain", url]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("  1. (1,6) is water: (1,6) shows water"),
        "{stdout}"
    );
    assert!(stdout.contains("difficulty: hardest step"), "{stdout}");
    // --plain is the baseline, for explain only (no other verb has the flag, nor shows it).
    let (code, _, stderr) = quandary(&["battleship", "unique", url, "--plain"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("unexpected argument '--plain'"), "{stderr}");
    let (_, help, _) = quandary(&["battleship", "unique", "--help"]);
    assert!(
        !help.contains("--plain") && !help.contains("--threads"),
        "{help}"
    );
    let (_, help, _) = quandary(&["battleship", "explain", "--help"]);
    assert!(
        help.contains("--plain") && help.contains("--threads"),
        "{help}"
    );
    assert!(
        help.starts_with("The solution as a chain of small deductions"),
        "{help}"
    );
    let (code, stdout, _) = quandary(&["battleship", "explain", url, "--plain", "--json"]);
    assert_eq!(code, 0);
    let p = one_json(&stdout);
    assert_eq!(p["complete"], true);
    // One decision a step.
    assert!(p["steps"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["derived"].as_array().unwrap().len() == 1));
    // --threads 1: one engine, the same steps twice; for explain only, and not with --plain.
    let (code, first, _) = quandary(&["battleship", "explain", url, "--threads", "1", "--json"]);
    assert_eq!(code, 0);
    let (_, again, _) = quandary(&["battleship", "explain", url, "--threads", "1", "--json"]);
    assert_eq!(one_json(&first)["steps"], one_json(&again)["steps"]);
    for (args, says) in [
        (
            &["battleship", "unique", url, "--threads", "1"][..],
            "unexpected argument '--threads'",
        ),
        (
            &["battleship", "explain", url, "--threads", "1", "--plain"][..],
            "one engine",
        ),
        (
            &["battleship", "explain", url, "--threads", "0"][..],
            "--threads",
        ),
    ] {
        let (code, _, stderr) = quandary(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn explain_says_why_the_centre_of_every_5x5_tank_board_is_4() {
    // Tank Attack 5×5 has two boards (docs/tank.md), mirror images; the centre holds 4 in both.
    let (code, stdout, stderr) = quandary(&["tank", "explain", "5", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let v = one_json(&stdout);
    assert_eq!(v["complete"], false, "two boards: not every cell is forced");
    let centre = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["derived"].as_array().unwrap().clone())
        .find(|d| d["place"]["cell"] == serde_json::json!([2, 2]))
        .expect("the centre is concluded");
    assert_eq!(centre["says"], "4");
    assert_eq!(centre["value"], true);
    // An explanation that does not reach the whole board draws no solution as if concluded
    // (a stopped one drew a full board under "a limit stopped them").
    let (code, stdout, _) = quandary(&["tank", "explain", "5", "--time-limit", "8"]);
    assert!(code == 0 || code == 1, "{stdout}");
    assert!(stdout.contains("(no board drawn"), "{stdout}");
    assert!(!stdout.contains("1 4 1 4 1"), "{stdout}");
}

#[test]
fn explain_refuses_what_it_cannot_explain_with_a_clear_error() {
    let url = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";
    for (args, says) in [
        (
            &["battleship", "explain", url, "--formulation", "cell"][..],
            "runs formulation",
        ),
        (&["tank", "explain", "5", "--symmetry", "d4"], "restriction"),
        // explain's parser has no --cube (it was refused after parsing).
        (
            &["battleship", "explain", url, "--cube", "1"],
            "unexpected argument '--cube'",
        ),
        (
            &[
                "battleship",
                "generate",
                "--rows",
                "6",
                "--cols",
                "6",
                "--fleet",
                "3 2 1",
                "--difficulty",
                "extreme",
            ],
            "--difficulty extreme",
        ),
    ] {
        let (code, stdout, stderr) = quandary(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// `battleship workbench`: versions of one board in turn, one entry an edit; the edit back to
/// the first board is answered from memory; a bad file among them exits 2 naming it.
#[test]
fn the_workbench_answers_a_run_of_edits() {
    let dir = std::env::temp_dir().join(format!("quandary-wb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let example = "size 6 6\nfleet 3 2 1\nrows ? 3 0 ? 3 ?\ncols ? 1 2 ? ? 2\ngrid\n. . . . . ~\n......\n......\n< . . . . .\n......\n......\n";
    let files: Vec<String> = [
        example.to_string(),
        example.replace("< . . . . .", ". . . . . ."),
        example.to_string(),
    ]
    .iter()
    .enumerate()
    .map(|(k, text)| {
        let path = dir.join(format!("edit{k}.txt"));
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    })
    .collect();
    let mut args = vec!["battleship", "workbench"];
    args.extend(files.iter().map(String::as_str));
    args.push("--json");
    let (code, stdout, stderr) = quandary(&args);
    assert_eq!(code, 0, "{stderr}");
    let v = one_json(&stdout);
    let edits = v["details"]["edits"].as_array().expect("one entry an edit");
    assert_eq!(edits.len(), 3, "{stdout}");
    assert_eq!(edits[0]["unique"], true);
    assert_eq!(edits[1]["unique"], false);
    assert_eq!(edits[2]["unique"], true);
    assert_eq!(edits[2]["solves"], 0, "answered from memory: {stdout}");
    assert!(edits.iter().all(|e| e["complete"] == true), "{stdout}");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "size 6\n").unwrap();
    let (code, _, stderr) =
        quandary(&["battleship", "workbench", &files[0], &bad.to_string_lossy()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("bad.txt"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
