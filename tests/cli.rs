//! The command-line contract: exit statuses, one JSON object with --json, files written.

mod common;

fn quandary(args: &[&str]) -> (i32, String, String) {
    let (code, stdout, stderr, _) = common::quandary(args);
    (code, stdout, stderr)
}

use common::one_json;

#[test]
fn bad_sides_exit_2_with_a_one_line_error() {
    for bad in [
        &["tank", "solve", "0"][..],
        &["tank", "solve", "-3"],
        &["tank", "solve", "abc"],
        &["tank", "count", "1000000"],
        &["tank", "solve", "5", "--mark", "9,9"],
        &["tank", "solve", "5", "--fix", "9,9=1"],
        &["tank", "unique", "5", "--fix", "1,1=2", "--fix", "1,1=3"],
        &["tank", "solve", "5", "--time-limit", "-1"],
        &["tank", "frobnicate", "5"],
    ] {
        let (code, stdout, stderr) = quandary(bad);
        assert_eq!(code, 2, "{bad:?}: {stderr}");
        assert!(stdout.is_empty(), "{bad:?}");
        assert!(!stderr.contains("panicked"), "{bad:?}: {stderr}");
        assert!(stderr.contains("error"), "{bad:?}: {stderr}");
    }
}

#[test]
fn solve_json_has_status_solution_and_stats() {
    let (code, stdout, _) = quandary(&["tank", "solve", "4", "--json"]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["solution"], serde_json::json!(vec![vec![2; 4]; 4]));
    assert!(v["stats"]["seconds"].as_f64().is_some());
}

#[test]
fn infeasible_count_and_unique_in_json() {
    let (code, stdout, _) = quandary(&["tank", "solve", "3", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(one_json(&stdout)["status"], "infeasible");

    let (code, stdout, _) = quandary(&["tank", "count", "5", "--json"]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    assert_eq!(
        (v["status"].as_str(), v["count"].as_u64()),
        (Some("solved"), Some(2))
    );

    let (code, stdout, _) = quandary(&["tank", "unique", "5", "--json", "--method", "sat"]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    assert_eq!(v["unique"], false);
    assert!(v["other_solution"].is_array());

    let (_, stdout, _) = quandary(&["tank", "unique", "4", "--json"]);
    assert_eq!(one_json(&stdout)["unique"], true);
}

#[test]
fn a_time_limit_gives_unknown_and_exit_1() {
    let (code, stdout, _) = quandary(&["tank", "count", "7", "--json", "--time-limit", "0.2"]);
    assert_eq!(code, 1);
    let v = one_json(&stdout);
    assert_eq!(v["status"], "unknown");
    assert!(
        v.get("count").is_none(),
        "an unfinished count is not reported as a count"
    );
}

/// A part searched to its end is "unknown" for the whole board but was not stopped; a run
/// the time limit stops says so, and how many of its cubes it finished.
#[test]
fn a_finished_part_is_not_said_to_be_stopped() {
    let (code, stdout, _) = quandary(&[
        "tank",
        "count",
        "5",
        "--part",
        "2/9",
        "--method",
        "gac",
        "--time-limit",
        "600",
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}");
    let v = one_json(&stdout);
    assert_eq!(v["status"], "unknown");
    assert!(v["stats"].get("stopped_by").is_none(), "{v}");
    let cubes = v["details"]["cubes"].as_u64().unwrap();
    assert_eq!(
        v["details"]["cubes_done"].as_u64(),
        Some((cubes - 1).div_ceil(9))
    );

    let (code, stdout, _) = quandary(&[
        "tank",
        "count",
        "7",
        "--method",
        "gac",
        "--time-limit",
        "1",
        "--json",
    ]);
    assert_eq!(code, 1);
    let v = one_json(&stdout);
    assert_eq!(v["stats"]["stopped_by"], "the time limit", "{v}");
    // The nodes of the cubes it finished are counted, though the limit unwound the workers
    // (none were, before): a finished cube means the first or the second first row finished
    // (two workers take them in order), and each of those takes six search nodes.
    if v["details"]["cubes_done"].as_u64().unwrap() >= 1 {
        assert!(v["details"]["nodes"].as_u64().unwrap() > 6, "{v}");
    }
}

#[test]
fn svg_lp_and_opb_files_are_written() {
    let dir = std::env::temp_dir().join(format!("quandary-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("t.svg");
    let (code, _, _) = quandary(&[
        "tank",
        "solve",
        "5",
        "--svg",
        svg.to_str().unwrap(),
        "--mark",
        "3,3",
    ]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.starts_with("<svg") && text.contains("<circle"),
        "{text}"
    );
    // The marked centre is attacked by exactly four tanks: four shaded cells.
    assert_eq!(text.matches("#d08a4f").count(), 4);

    let lp = dir.join("t.lp");
    let opb = dir.join("t.opb");
    let (code, stdout, _) = quandary(&[
        "tank",
        "model",
        "4",
        "--formulation",
        "seed",
        "--lp",
        lp.to_str().unwrap(),
        "--opb",
        opb.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    // Seed model for n = 4: 48 variables, 16 + 16 rows.
    assert!(stdout.contains("48 variables, 32 constraints"), "{stdout}");
    let lp = std::fs::read_to_string(&lp).unwrap();
    assert_eq!(lp.matches(" = 1\n").count(), 16);
    assert!(lp.contains("Binaries") && lp.trim_end().ends_with("End"));
    let opb = std::fs::read_to_string(&opb).unwrap();
    assert!(opb.starts_with("* #variable= 48 #constraint= 32"));

    let (code, _, stderr) = quandary(&["tank", "solve", "4", "--svg", "/nonexistent-dir/x.svg"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("/nonexistent-dir/x.svg"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tour_runs_every_puzzle() {
    let (code, stdout, _) = quandary(&["tour"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("Tank Attack 6×6: solved"), "{stdout}");
    assert!(
        stdout.contains("Gunport 7×7: optimal, 15 holes"),
        "{stdout}"
    );
}

#[test]
fn gunport_solve_count_and_bad_input() {
    let (code, stdout, _) = quandary(&["gunport", "solve", "5", "5", "--json"]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    assert_eq!(v["status"], "optimal");
    assert_eq!(v["objective"], 7);
    assert_eq!(v["solution"]["rows"].as_array().unwrap().len(), 5);

    let (code, stdout, _) = quandary(&["gunport", "count", "4", "4", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(one_json(&stdout)["count"], 100);

    let (code, stdout, _) = quandary(&["gunport", "unique", "3", "3", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(one_json(&stdout)["unique"], false);

    for bad in [
        &["gunport", "solve", "0", "5"][..],
        &["gunport", "solve", "5", "x"],
        &["gunport", "count", "4", "4", "--formulation", "domino"],
        &["gunport", "sweep", "--max-m", "0"],
        &["gunport", "reach", "5", "5", "--holes", "-1"],
        &["gunport", "reach", "5", "5", "--holes", "26"],
        &[
            "gunport",
            "reach",
            "5",
            "5",
            "--holes",
            "7",
            "--configs",
            "fast",
        ],
        &[
            "gunport",
            "reach",
            "5",
            "5",
            "--holes",
            "7",
            "--method",
            "budget",
            "--symmetry",
            "mirror",
        ],
        &[
            "gunport", "reach", "30", "30", "--holes", "7", "--method", "budget",
        ],
    ] {
        let (code, _, stderr) = quandary(bad);
        assert_eq!(code, 2, "{bad:?}");
        assert!(
            stderr.contains("error") && !stderr.contains("panicked"),
            "{stderr}"
        );
    }
}

#[test]
fn gunport_reach_finds_refutes_and_agrees_between_methods() {
    // `exact` is the shared name of the puzzle's own method; `budget` is Gunport's for it.
    for method in ["sat", "budget", "exact"] {
        // 7×7: the optimum is 15.
        let (code, stdout, _) = quandary(&[
            "gunport", "reach", "7", "7", "--holes", "15", "--method", method, "--json",
        ]);
        assert_eq!(code, 0, "{method}");
        let v = one_json(&stdout);
        assert_eq!(v["status"], "solved", "{method}");
        assert_eq!(v["objective"], 15, "{method}");
        let (code, stdout, _) = quandary(&[
            "gunport", "reach", "7", "7", "--holes", "17", "--method", method, "--json",
        ]);
        assert_eq!(code, 0, "{method}");
        let v = one_json(&stdout);
        assert_eq!(v["status"], "infeasible", "{method}");
        let named = v["stats"]["method"].as_str().unwrap().to_string();
        assert_eq!(
            method == "sat",
            !named.contains("dynamic program"),
            "{method}: {named}"
        );
    }
    let (code, stdout, _) = quandary(&[
        "gunport",
        "reach",
        "8",
        "8",
        "--holes",
        "20",
        "--symmetry",
        "half-turn",
        "--configs",
        "default,unsat",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    assert_eq!(v["solution"]["holes"], 20);
    let rows: Vec<String> = v["solution"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    // Half-turn symmetric: row r read backwards is row 7 − r with the halves swapped.
    for r in 0..8 {
        let turned: String = rows[7 - r]
            .chars()
            .rev()
            .map(|c| match c {
                '<' => '>',
                '>' => '<',
                '^' => 'v',
                'v' => '^',
                c => c,
            })
            .collect();
        assert_eq!(rows[r], turned);
    }
}

#[test]
fn gunport_sweep_prints_a_row_per_board() {
    let (code, stdout, _) = quandary(&[
        "gunport",
        "sweep",
        "--max-m",
        "3",
        "--max-n",
        "4",
        "--json",
        "--check-dp",
    ]);
    assert_eq!(code, 0);
    // One JSON object, a row per board in `boards`.
    let v = one_json(&stdout);
    let rows = v["details"]["boards"].as_array().unwrap();
    // m <= n: 1×1..1×4, 2×2..2×4, 3×3..3×4.
    assert_eq!(rows.len(), 9);
    for r in rows {
        assert_eq!(r["status"], "optimal");
        assert_eq!(r["objective"], r["dp"]);
    }
}

#[test]
fn chess_commands_and_bad_files() {
    let board = concat!(env!("CARGO_MANIFEST_DIR"), "/data/chess/friedman-b4n2.txt");
    let (code, stdout, _) = quandary(&["chess", "unique", board, "--json"]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    assert_eq!(v["unique"], true);
    assert_eq!(
        v["solution"]["rows"],
        serde_json::json!(["#B.##", "....B", "BNB.N"])
    );

    let (code, stdout, _) = quandary(&["chess", "count", "8", "--army", "Q8", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(one_json(&stdout)["count"], 92);

    let (code, stdout, _) = quandary(&["chess", "max", board, "--any", "--json"]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    assert_eq!(
        (v["status"].as_str(), v["objective"].as_i64()),
        (Some("optimal"), Some(7))
    );

    let (code, stdout, _) = quandary(&["chess", "peaceable", "6", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(one_json(&stdout)["objective"], 5);

    let dir = std::env::temp_dir().join(format!("quandary-chess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("ragged.txt", "...\n..\n", "line 2"),
        ("letters.txt", "..z\n", "'z'"),
        ("crowded.txt", "army: Q5\n..\n..\n", "only 4 squares"),
        ("fixed.txt", "army: B1\nNN\n..\n", "fixes 2 N"),
    ];
    for (name, text, needle) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let (code, _, stderr) = quandary(&["chess", "solve", path.to_str().unwrap()]);
        assert_eq!(code, 2, "{name}");
        assert!(
            stderr.contains(needle) && !stderr.contains("panicked"),
            "{name}: {stderr}"
        );
    }
    let (code, _, stderr) = quandary(&["chess", "solve", "4x4"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no army"), "{stderr}");
    let (code, _, _) = quandary(&["chess", "solve", "4x4", "--army", "X3"]);
    assert_eq!(code, 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn battleship_bad_files_exit_2_naming_the_line() {
    let dir = std::env::temp_dir().join(format!("quandary-bs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "size 3 3\nfleet 1 1\nrows 1 1 1\ncols 1 1 1\ngrid\n...\n.x.\n...\n",
            "line 7",
        ),
        ("size 3 3\nfleet 2\nrows 1 1 1\ncols 1 1 0\n", "inconsistent counts"),
        ("size 3 3\nfleet 1\nrows 1 1 0\ncols 1 1 0\n", "fleet"),
        ("size 0 3\nfleet 1\n", "line 1"),
        (
            "size 3 3\nfleet 1\nrows 1 0 0\ncols 1 0 0\ngrid\n....\n...\n...\n",
            "line 6",
        ),
        (
            "begin\npuzzle battleships\nsize 3\nships 1\nclabels 1 0 0\nrlabels 1 0 0\nproblem\n- - q\n- - -\n- - -\nend\n",
            "line 8",
        ),
        ("problem(1, [1:1], [1,0], [1,0], [w@[3,1]]).\n", "3"),
        // Counts whose ship cells overflow a number: refused, not wrapped round to a small
        // fleet.
        (
            "size 3 3\nfleet 18446744073709551615 1\nrows ? ? ?\ncols ? ? ?\n",
            "more ship cells than a number can hold",
        ),
        (
            "size 3 3\nfleet 1 9223372036854775808\nrows ? ? ?\ncols ? ? ?\n",
            "more ship cells than a number can hold",
        ),
    ];
    for (n, (text, needle)) in cases.iter().enumerate() {
        let file = dir.join(format!("bad{n}.txt"));
        std::fs::write(&file, text).unwrap();
        let (code, stdout, stderr) = quandary(&["battleship", "solve", file.to_str().unwrap()]);
        assert_eq!(code, 2, "case {n}: {stderr}");
        assert!(stdout.is_empty(), "case {n}");
        assert!(!stderr.contains("panicked"), "case {n}: {stderr}");
        assert!(stderr.contains(needle), "case {n}: {stderr}");
    }
    let (code, _, stderr) = quandary(&["battleship", "solve", "/no/such/file"]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn battleship_json_has_the_ship_rows_and_unique_shows_a_second_solution() {
    let (code, stdout, stderr) = quandary(&[
        "battleship",
        "unique",
        "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v = one_json(&stdout);
    assert_eq!(
        v["solution"]["ships"],
        serde_json::json!(["..#...", "#.#..#", "......", "##....", "...###", "#....."])
    );
    let dzn = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/battleship/sb_12_12_6_0.dzn"
    );
    let (code, stdout, stderr) = quandary(&["battleship", "unique", dzn, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let v = one_json(&stdout);
    assert!(v["other_solution"]["ships"].is_array(), "{stdout}");
    assert_ne!(v["solution"]["ships"], v["other_solution"]["ships"]);
}

#[test]
fn tantrix_solve_check_and_bad_input() {
    let dir = std::env::temp_dir().join(format!("quandary-tantrix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = format!(
        "{}/data/tantrix/boards/free-15.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = dir.join("sol.txt");
    let svg = dir.join("sol.svg");
    let (code, stdout, _) = quandary(&[
        "tantrix",
        "solve",
        &board,
        "--json",
        "-o",
        out.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(one_json(&stdout)["status"], "solved");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let (code, stdout, _) = quandary(&["tantrix", "check", out.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(one_json(&stdout)["solution"]["valid"], true);
    // A wrong solution: one tile turned.
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let k = lines.iter().position(|l| l.contains('@')).unwrap();
    let (head, rot) = lines[k].rsplit_once('@').unwrap();
    let turned = (rot.trim().parse::<usize>().unwrap() + 1) % 6;
    lines[k] = format!("{head}@{turned}");
    let wrong = dir.join("wrong.txt");
    std::fs::write(&wrong, lines.join("\n")).unwrap();
    let (code, stdout, _) = quandary(&["tantrix", "check", wrong.to_str().unwrap(), "--json"]);
    // Exit 4: the solution given breaks the rules (1 is kept for "a limit stopped it").
    assert_eq!(code, 4);
    assert_eq!(one_json(&stdout)["solution"]["valid"], false);
    // The status says so too (it said "solved").
    assert_eq!(one_json(&stdout)["status"], "rejected");

    let dup = dir.join("dup.txt");
    std::fs::write(&dup, "0,0\n1,0\n0,1\n1,0\n").unwrap();
    let garbage = dir.join("garbage.txt");
    std::fs::write(&garbage, "0,0\n1,zero\n").unwrap();
    for (bad, needle) in [
        (vec!["tantrix", "solve", dup.to_str().unwrap()], "twice"),
        (vec!["tantrix", "solve", &board, "-n", "16"], "15"),
        (vec!["tantrix", "free", "-n", "2"], "at least 3"),
        (
            vec!["tantrix", "solve", garbage.to_str().unwrap()],
            "line 2",
        ),
        (vec!["tantrix", "count", "-n", "11"], "10"),
        (
            vec!["tantrix", "solve", "/nonexistent/board.txt"],
            "board.txt",
        ),
    ] {
        let (code, _, stderr) = quandary(&bad);
        assert_eq!(code, 2, "{bad:?}: {stderr}");
        assert!(
            stderr.contains(needle) && !stderr.contains("panicked"),
            "{bad:?}: {stderr}"
        );
    }
}

#[test]
fn a_restricted_search_never_answers_for_the_whole_space() {
    // 6×6 has 13 boards; one of them has all eight symmetries.
    let (code, stdout, _) = quandary(&["tank", "count", "6", "--symmetric", "d4", "--json"]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    assert_eq!(v["scope"], "D4-symmetric boards");
    assert_eq!(v["in_scope"]["count"], 1);
    assert!(v.get("count").is_none(), "{v}");
    let (code, stdout, _) = quandary(&["tank", "unique", "6", "--symmetric", "d4"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("among D4-symmetric boards only"),
        "{stdout}"
    );
    let (_, stdout, _) = quandary(&["tank", "unique", "6", "--symmetric", "d4", "--json"]);
    let v = one_json(&stdout);
    assert!(
        v.get("unique").is_none() && v["in_scope"]["unique"] == true,
        "{v}"
    );
    // The consistent search on symmetric boards, whole and in parts: three mirror-symmetric
    // boards of 6×6, never a count of the whole space.
    let mirror = |more: &[&str]| {
        let words = [
            "tank",
            "count",
            "6",
            "--symmetry",
            "mirror",
            "--method",
            "gac",
        ];
        quandary(&[&words[..], more].concat())
    };
    let (code, stdout, _) = mirror(&["--json"]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    assert_eq!(v["scope"], "mirror-symmetric boards");
    assert_eq!(v["in_scope"]["count"], 3);
    assert_eq!(v["stats"]["method"], "consistent search");
    assert!(v.get("count").is_none(), "{v}");
    let (code, stdout, _) = mirror(&["--part", "1/2"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("[among mirror-symmetric boards, part 1 of 2 of the consistent search"),
        "{stdout}"
    );
    // --part splits a search of ours, not SAT's.
    let (code, _, stderr) = quandary(&[
        "tank",
        "count",
        "6",
        "--symmetry",
        "mirror",
        "--part",
        "1/2",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--part") && stderr.contains("--symmetry"),
        "{stderr}"
    );

    // 7×7 has a 15-hole packing, none of them half-turn symmetric: no claim about the optimum.
    let reach = [
        "gunport",
        "reach",
        "7",
        "7",
        "--holes",
        "15",
        "--symmetry",
        "half-turn",
    ];
    let (code, stdout, _) = quandary(&reach);
    assert_eq!(code, 0);
    assert!(!stdout.contains("at most"), "{stdout}");
    assert!(
        stdout.contains("half-turn-symmetric packings only"),
        "{stdout}"
    );
    let (_, stdout, _) = quandary(&[&reach[..], &["--json"]].concat());
    let v = one_json(&stdout);
    assert_eq!(
        (v["status"].as_str(), v["in_scope"]["status"].as_str()),
        (Some("unknown"), Some("infeasible"))
    );

    // Quarter turns need a square board; the exact method sides 2 to 12, the consistent
    // search 2 to 9, and it is Tank Attack's alone.
    for (bad, says) in [
        (
            &["tank", "count", "10", "--method", "gac"][..],
            "sides 2 to 9",
        ),
        (
            &["gunport", "solve", "4", "4", "--method", "gac"],
            "Tank Attack's",
        ),
    ] {
        let (code, _, stderr) = quandary(bad);
        assert_eq!(code, 2, "{bad:?}: {stderr}");
        assert!(stderr.contains(says), "{bad:?}: {stderr}");
    }
    for bad in [
        &[
            "gunport",
            "reach",
            "3",
            "5",
            "--holes",
            "3",
            "--symmetry",
            "quarter-turn",
        ][..],
        &["tank", "solve", "13", "--method", "exact"],
    ] {
        let (code, _, stderr) = quandary(bad);
        assert_eq!(code, 2, "{bad:?}: {stderr}");
    }
}

#[test]
fn forced_shows_what_every_solution_shares() {
    // The two 5×5 boards agree on 17 cells (the corners, the centre cross, ...).
    let (code, stdout, _) = quandary(&["tank", "forced", "5", "--json"]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    let forced = v["forced"]["forced"].as_array().unwrap();
    let cells = forced.iter().filter(|f| f["value"] == true).count();
    assert_eq!(cells, 17);
    // Both boards hold 4 in the centre.
    assert!(forced.iter().any(|f| f["value"] == true
        && f["place"] == serde_json::json!({"cell": [2, 2]})
        && f["says"] == "4"));
}

/// Gunport's forced cells are cells (a hole or covered in every optimal packing), not domino
/// placements: on 4×6 the four cells next to the corners' neighbours are covered in all 8-hole
/// packings, by whichever domino (the issue that reported it found the same four).
#[test]
fn gunport_forced_cells_are_cells() {
    let (code, stdout, _) = quandary(&["gunport", "forced", "4", "6", "--json"]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    let mut forced: Vec<(i64, i64, bool)> = v["forced"]["forced"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let c = &f["place"]["cell"];
            (
                c[0].as_i64().unwrap(),
                c[1].as_i64().unwrap(),
                f["value"] == true,
            )
        })
        .collect();
    forced.sort();
    assert_eq!(
        forced,
        vec![(0, 1, false), (0, 4, false), (3, 1, false), (3, 4, false)],
        "{v}"
    );
    assert_eq!(v["forced"]["decisions"], 24);
    assert!(v["forced"]["empty"].as_array().unwrap().is_empty(), "{v}");
}

#[test]
fn every_data_file_reads_with_the_verb_its_docs_name() {
    let root = env!("CARGO_MANIFEST_DIR");
    let files = |dir: &str| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(format!("{root}/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .map(|p| p.to_string_lossy().into_owned())
            .filter(|p| !p.ends_with(".md"))
            // Tables are read by their own tests (data/chess/peaceable.csv: tests/chess.rs).
            .filter(|p| !p.ends_with(".csv"))
            .collect();
        v.sort();
        v
    };
    let mut checked = 0;
    for (dir, verb) in [
        ("data/battleship", ["battleship", "solve"]),
        ("data/battleship/generated", ["battleship", "solve"]),
        ("data/chess", ["chess", "solve"]),
        ("data/tantrix/boards", ["tantrix", "check"]),
        ("data/tantrix/large", ["tantrix", "check"]),
        ("data/tantrix/cpsat-boards", ["tantrix", "check"]),
    ] {
        for f in files(dir) {
            let (code, stdout, stderr) = quandary(&[verb[0], verb[1], &f, "--json"]);
            assert_eq!(code, 0, "{verb:?} {f}: {stderr}");
            let v = one_json(&stdout);
            assert!(v["status"] == "solved", "{f}: {v}");
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked} files");
    // A directory is named as one, not read as something else.
    let dir = format!("{root}/data/battleship/generated");
    let (code, _, stderr) = quandary(&["battleship", "solve", &dir]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("a directory"), "{stderr}");
}

#[test]
fn svg_goes_to_stdout_with_a_dash_and_bad_paths_fail_before_the_search() {
    let (code, stdout, _) = quandary(&["tank", "solve", "4", "--svg", "-"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("<svg"), "{stdout}");
    let (code, _, _) = quandary(&["tank", "solve", "4", "--svg", "-", "--json"]);
    assert_eq!(code, 2);
    // An unwritable path is refused at once, before a search that would take long.
    let started = std::time::Instant::now();
    let (code, _, stderr) = quandary(&["tank", "count", "7", "--svg", "/nonexistent-dir/x.svg"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("/nonexistent-dir/x.svg"), "{stderr}");
    assert!(started.elapsed().as_secs_f64() < 5.0);
    // A count by the transfer-matrix program keeps no packing: the flag is not silently
    // ignored.
    let dir = std::env::temp_dir().join(format!("quandary-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("count.svg");
    let (code, _, stderr) =
        quandary(&["gunport", "count", "4", "4", "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(stderr.contains("no picture"), "{stderr}");
    assert!(!svg.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_stopped_count_reports_what_it_saw_in_json() {
    // 6×6 has 13 boards; the trie search needs seconds, and 0.3 s stops it.
    let (code, stdout, _) = quandary(&["tank", "count", "6", "--time-limit", "0.3", "--json"]);
    assert_eq!(code, 1);
    let v = one_json(&stdout);
    assert_eq!(v["status"], "unknown");
    assert!(v["count_at_least"].is_u64(), "{v}");
    assert!(v.get("count").is_none(), "{v}");
    assert!(v["stats"]["seconds"].as_f64().unwrap() >= 0.3, "{v}");
}

/// Writes `text` to a fresh file in the temporary directory and returns its path.
fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("quandary-inputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn repeated_or_contradictory_input_is_refused_naming_where() {
    let refused = |args: &[&str], words: &[&str]| {
        let (code, _, stderr) = quandary(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        for w in words {
            assert!(stderr.contains(w), "{args:?}: '{w}' not in {stderr}");
        }
    };
    let chess = temp_file(
        "two-armies.txt",
        "army: B4N2\n#..##\n.....\narmy: Q1\n.....\n",
    );
    refused(
        &["chess", "solve", &chess],
        &["line 4", "second `army:`", "line 1"],
    );
    let own = "size 6 6\nfleet 3 2 1\nrows ? 3 0 ? 3 ?\ncols ? 1 2 ? ? 2\nrows 1 1 1 1 1 1\ngrid\n......\n......\n......\n......\n......\n......\n";
    let battleship = temp_file("two-rows.txt", own);
    refused(
        &["battleship", "solve", &battleship],
        &["line 5", "second 'rows'", "line 3"],
    );
    let dzn = std::fs::read_to_string("data/battleship/sb_12_12_6_0.dzn")
        .unwrap()
        .replace("maxship = 6;", "maxship = 5;");
    let dzn = temp_file("maxship.dzn", &dzn);
    refused(
        &["battleship", "solve", &dzn],
        &["maxship = 5", "6 lengths"],
    );
    let fact = "problem(7,\n [2:1,1:2],\n [2,0,1,1],\n [1,1,1,1],\n []).\n";
    let csplib = temp_file("twice.pl", &format!("{fact}{fact}"));
    refused(
        &["battleship", "solve", &csplib],
        &["second problem 7", "line 6", "line 1"],
    );
    refused(
        &[
            "battleship",
            "solve",
            "https://puzz.link/p?nurikabe/5/5/g1h",
        ],
        &["not a Battleship URL"],
    );
}

#[test]
fn a_byte_order_mark_is_read_past_in_every_reader() {
    let bom = |name: &str, path: &str| {
        let text = std::fs::read_to_string(path).unwrap();
        temp_file(name, &format!("\u{feff}{text}"))
    };
    for (puzzle, verb, file) in [
        (
            "chess",
            "solve",
            bom("bom-chess.txt", "data/chess/friedman-b4n2.txt"),
        ),
        (
            "battleship",
            "solve",
            bom(
                "bom-battleship.txt",
                "data/battleship/generated-30x20-seed3.txt",
            ),
        ),
        (
            "battleship",
            "solve",
            bom("bom.dzn", "data/battleship/sb_12_12_6_0.dzn"),
        ),
        (
            "tantrix",
            "solve",
            bom("bom-tantrix.txt", "data/tantrix/boards/discovery-05.txt"),
        ),
        (
            "tantrix",
            "check",
            bom("bom-check.txt", "data/tantrix/boards/discovery-05.txt"),
        ),
    ] {
        let (code, _, stderr) = quandary(&[puzzle, verb, &file]);
        assert_eq!(code, 0, "{puzzle} {verb} {file}: {stderr}");
    }
}

#[test]
fn a_foreign_tile_is_named_and_an_empty_army_has_a_title() {
    let text = std::fs::read_to_string("data/tantrix/boards/discovery-05.txt")
        .unwrap()
        .replace("\n-1,-1 3@0", "\n-1,-1 11@0");
    let file = temp_file("tile-11.txt", &text);
    let (code, stdout, _) = quandary(&["tantrix", "check", &file]);
    assert_eq!(code, 4);
    assert!(
        stdout.contains("tile 11") && stdout.contains("does not have it"),
        "{stdout}"
    );
    let (code, stdout, _) = quandary(&["chess", "count", "4", "--army", "Q0", "--json"]);
    assert_eq!(code, 0);
    let v = one_json(&stdout);
    assert_eq!(v["instance"], "Chess avoidance 4×4, army empty");
    assert_eq!(v["count"], 1, "the empty placement");
}

#[test]
fn the_objective_counts_the_type_maximised_not_the_army_beside_it() {
    // Two bishops required, queens maximised: the objective is the number of queens.
    let (code, stdout, stderr) = quandary(&[
        "chess", "optimum", "6", "--type", "Q", "--army", "B2", "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v = one_json(&stdout);
    let rows = v["solution"]["rows"].as_array().unwrap();
    let count = |c: char| -> usize {
        rows.iter()
            .map(|r| r.as_str().unwrap().chars().filter(|&x| x == c).count())
            .sum()
    };
    assert_eq!(count('B'), 2);
    assert_eq!(v["objective"].as_u64(), Some(count('Q') as u64), "{v}");
    assert!(
        v["instance"].as_str().unwrap().contains("with the army B2"),
        "{v}"
    );
}

/// A build without the `highs` feature says how to get the MIP backend, for both ways of
/// asking for it, and exits 2.
#[cfg(not(feature = "highs"))]
#[test]
fn the_mip_backend_is_refused_by_a_build_without_it() {
    for args in [
        &["gunport", "optimum", "4", "4", "--backend", "highs"][..],
        &["gunport", "model", "4", "4", "--relax"][..],
    ] {
        let (code, _, stderr) = quandary(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains("--features highs"), "{stderr}");
    }
}

/// `--proof` certifies SAT refutations: with the MIP backend it is refused, not ignored.
#[test]
fn proof_and_the_mip_backend_do_not_mix() {
    let dir = std::env::temp_dir().join("quandary-proof-highs");
    let d = dir.to_str().unwrap();
    let (code, _, stderr) = quandary(&["tank", "solve", "4", "--backend", "highs", "--proof", d]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--proof"), "{stderr}");
}

/// A time limit too long for the clock (1e300 s) is no limit, not a crash; a negative one is
/// refused naming it.
#[test]
fn huge_and_negative_time_limits() {
    let (code, out, err) = quandary(&["tank", "count", "5", "--json", "--time-limit", "1e300"]);
    assert_eq!(code, 0, "{out} {err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["count"], 2);
    let (code, _, err) = quandary(&["tank", "count", "5", "--time-limit", "-1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--time-limit -1"), "{err}");
    let (code, out, err) = quandary(&["tank", "model", "4", "--time-limit", "1e300"]);
    assert_eq!(code, 0, "{out} {err}");
}

/// `--proof DIR` writes into a new or empty directory, or replaces an earlier certificate
/// (saying so); a directory holding anything else is refused and left as it was.
#[test]
fn proof_refuses_a_directory_that_is_not_a_certificate() {
    let dir = std::env::temp_dir().join(format!("quandary-proof-dir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    std::fs::write(dir.join("solution.txt"), "also mine").unwrap();
    let d = dir.to_str().unwrap();
    let (code, _, err) = quandary(&["tank", "unique", "4", "--proof", d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("notes.txt"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("solution.txt")).unwrap(),
        "also mine"
    );
    // An empty directory takes a certificate; a second run replaces it, saying so.
    std::fs::remove_file(dir.join("notes.txt")).unwrap();
    std::fs::remove_file(dir.join("solution.txt")).unwrap();
    let (code, out, err) = quandary(&["tank", "unique", "4", "--proof", d]);
    assert_eq!(code, 0, "{out} {err}");
    assert!(dir.join("certificate.json").exists());
    let (code, out, err) = quandary(&["tank", "unique", "4", "--proof", d]);
    assert_eq!(code, 0, "{out} {err}");
    assert!(err.contains("replacing the earlier certificate"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The setter's verbs keep `count` and `unique` for what they mean everywhere (solutions);
/// the clue counts go in `details`.
#[test]
fn setter_verbs_count_solutions_not_clues() {
    let url = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";
    let unique = |args: &[&str]| {
        let (code, out, err) = quandary(args);
        assert_eq!(code, 0, "{err}");
        let v = one_json(&out);
        assert_eq!(
            (v["count"].as_u64(), v["unique"].as_bool()),
            (Some(1), Some(true)),
            "{v}"
        );
        v
    };
    let v = unique(&["battleship", "redundant", url, "--json"]);
    assert!(v["details"]["redundant_clues"].is_u64(), "{v}");
    let v = unique(&["battleship", "minimize", url, "--json", "--seed", "2"]);
    assert_eq!(v["details"]["clues"], v["solution"]["clues"], "{v}");
}

/// A flag offered is a flag that works: `chess peaceable --svg` draws the armies, `gunport
/// sweep` offers no `--svg` (it answers many boards), `chess forced` marks the board's holes
/// as holes, not as undecided squares.
#[test]
fn offered_flags_work() {
    let svg = temp_file("peaceable.svg", "");
    std::fs::remove_file(&svg).unwrap();
    let (code, out, err) = quandary(&["chess", "peaceable", "5", "--svg", &svg]);
    assert_eq!(code, 0, "{out} {err}");
    let picture = std::fs::read_to_string(&svg).expect("the picture is written");
    assert!(
        picture.contains("<svg") && picture.contains("white queen"),
        "{picture}"
    );
    let (code, _, err) = quandary(&[
        "gunport", "sweep", "--max-m", "3", "--max-n", "3", "--svg", "x.svg",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--svg"), "{err}");
    let (code, out, _) = quandary(&["chess", "forced", "data/chess/friedman-b4n2.txt"]);
    assert_eq!(code, 0);
    let top = out
        .lines()
        .find(|l| l.contains('B') && l.contains('#'))
        .unwrap_or("");
    assert_eq!(
        top.split_whitespace().collect::<Vec<_>>(),
        ["#", "B", "·", "#", "#"],
        "{out}"
    );
}

/// Every reader takes `-` for standard input (only Battleship's did).
#[test]
fn every_reader_takes_standard_input() {
    let root = env!("CARGO_MANIFEST_DIR");
    for (args, file, says) in [
        (
            &["chess", "unique", "-"][..],
            "data/chess/friedman-b4n2.txt",
            "unique",
        ),
        (
            &["tantrix", "solve", "-"][..],
            "data/tantrix/boards/discovery-05.txt",
            "solved",
        ),
        (
            &["battleship", "unique", "-"][..],
            "data/battleship/puzzlink-example.txt",
            "unique",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_quandary"))
            .args(args)
            .current_dir(root)
            .stdin(std::fs::File::open(format!("{root}/{file}")).unwrap())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains(says), "{args:?}: {text}");
    }
}

/// `Report` reads back what `--json` printed (a script, or `quandary merge`, can take the
/// typed answer): for every kind of answer, the object read and printed again is the same.
#[test]
fn json_reports_read_back() {
    for args in [
        &["tank", "count", "5", "--json"][..],
        &["tank", "forced", "5", "--json"][..],
        &["gunport", "solve", "6", "6", "--json"][..],
        &["tank", "count", "6", "--symmetric", "d4", "--json"][..],
        &["chess", "unique", "data/chess/friedman-b4n2.txt", "--json"][..],
        &["tank", "count", "40", "--json", "--time-limit", "0.5"][..],
    ] {
        let (_, out, err) = quandary(args);
        let printed = one_json(&out);
        let report: quandary::runner::registry::Report = serde_json::from_value(printed.clone())
            .unwrap_or_else(|e| panic!("{args:?}: {e} {err}"));
        assert_eq!(serde_json::to_value(&report).unwrap(), printed, "{args:?}");
    }
}

#[test]
fn out_means_the_same_for_every_verb() {
    let dir = std::env::temp_dir().join(format!("quandary-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let at = |name: &str| dir.join(name).to_string_lossy().to_string();
    // An answer without a file format: refused, for a generic verb as for an own verb.
    let (code, _, stderr) = quandary(&["tank", "solve", "5", "--out", &at("tank.txt")]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("tank solve writes no file"), "{stderr}");
    // No answer to write: a note, and no file left behind.
    let (code, _, stderr) = quandary(&["tank", "solve", "2", "--out", &at("none.txt")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("nothing written"), "{stderr}");
    assert!(!dir.join("none.txt").exists());
    // A file: written, and named in the text instead of printed.
    let (code, stdout, stderr) = quandary(&[
        "battleship",
        "generate",
        "--rows",
        "6",
        "--cols",
        "6",
        "--fleet",
        "2 1",
        "--seed",
        "1",
        "-o",
        &at("new.txt"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("(written to"), "{stdout}");
    let written = std::fs::read_to_string(dir.join("new.txt")).unwrap();
    assert!(written.contains("size 6 6"), "{written}");
    // A generic verb's file: the solution in the puzzle's own format.
    let (code, _, stderr) = quandary(&[
        "tantrix",
        "solve",
        "data/tantrix/boards/free-60.txt",
        "--out",
        &at("solved.txt"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!std::fs::read_to_string(dir.join("solved.txt"))
        .unwrap()
        .is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

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

/// A Boats game ID is read from the command line as it is, and gives the same answer as the
/// file in our format made from it; a broken one is refused, naming the format and the fault.
#[test]
fn a_boats_game_id_on_the_command_line_is_read() {
    let id = "10x10f4dh:3,1,3,2,2,2,0,0,6,1,1,4,1,1,4,0,3,1,5,0,kWzzaWfClS";
    let (code, stdout, stderr) = quandary(&["battleship", "unique", id, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let v = one_json(&stdout);
    assert_eq!(v["unique"], serde_json::json!(true), "{stdout}");
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/battleship/boats/10x10-hard-seed3.txt"
    );
    let (code, stdout, stderr) = quandary(&["battleship", "unique", file, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(v["solution"], one_json(&stdout)["solution"]);
    // And back: the file converted to a Boats game ID is the ID it was made from.
    let (code, stdout, stderr) = quandary(&["battleship", "convert", file, "--to", "boats"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout.trim(),
        "10x10f4,4,3,2,1:3,1,3,2,2,2,0,0,6,1,1,4,1,1,4,0,3,1,5,0,kWzzaWfClS"
    );
    // A ship part of no kind is a '.' in a URL: converted and read back as the same puzzle.
    let shipless = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/battleship/krazydad/v1-book1-1.txt"
    );
    let (code, url, stderr) = quandary(&["battleship", "convert", shipless, "--to", "puzzlink"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(url.contains('.'), "{url}");
    let (_, from_file, _) = quandary(&["battleship", "convert", shipless]);
    let (code, from_url, stderr) = quandary(&["battleship", "convert", url.trim()]);
    assert_eq!(code, 0, "{stderr}");
    let board = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with(';'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(board(&from_url), board(&from_file));
    let broken = id.replace("ClS", "ClQ");
    let (code, stdout, stderr) = quandary(&["battleship", "solve", &broken]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("Boats game ID: 'Q' at character 50"),
        "{stderr}"
    );
}

/// Files the user names are checked before the work and never written twice or through a
/// link: `--lp` and `--opb` naming one file are refused, a directory that does not exist is
/// found before the model is built, `--svg` on a dangling link is refused with the link left
/// as it was and nothing created, and `explain --svg DIR` refuses a directory holding an
/// earlier explanation's pictures (the steps of two puzzles were mixed).
#[test]
fn output_files_are_checked_first_and_never_written_twice_or_through_links() {
    let dir = std::env::temp_dir().join(format!("quandary-outputs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = |name: &str| dir.join(name).to_string_lossy().to_string();
    let (code, _, stderr) = quandary(&[
        "tank",
        "model",
        "6",
        "--lp",
        &d("same.txt"),
        "--opb",
        &d("same.txt"),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("name the same file"), "{stderr}");
    assert!(!dir.join("same.txt").exists());
    let (code, _, stderr) = quandary(&[
        "tank",
        "model",
        "6",
        "--lp",
        &d("a.lp"),
        "--opb",
        &d("no/such/dir/a.opb"),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no/such/dir/a.opb"), "{stderr}");
    assert!(
        !dir.join("a.lp").exists(),
        "the LP file was written before the check"
    );
    // A dangling link given to --svg: refused, left as it was, its target not created.
    let link = dir.join("board.svg");
    std::os::unix::fs::symlink(dir.join("target.svg"), &link).unwrap();
    let (code, _, stderr) = quandary(&["tank", "solve", "5", "--svg", &d("board.svg")]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("symbolic link"), "{stderr}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(!dir.join("target.svg").exists());
    // --svg and -o naming one file.
    let (code, _, stderr) = quandary(&[
        "battleship",
        "generate",
        "--rows",
        "6",
        "--cols",
        "6",
        "--fleet",
        "3 2 1",
        "--svg",
        &d("new.txt"),
        "-o",
        &d("new.txt"),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("name the same file"), "{stderr}");
    // explain --svg into a directory that holds an earlier explanation.
    let url = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";
    let pictures = d("steps");
    let (code, _, stderr) = quandary(&["battleship", "explain", url, "--svg", &pictures]);
    assert_eq!(code, 0, "{stderr}");
    assert!(dir.join("steps/step-001.svg").exists());
    let (code, _, stderr) = quandary(&["battleship", "explain", url, "--svg", &pictures]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("earlier explanation"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An option only some questions read is shown only under their verbs, and refused under
/// another, naming where it applies, on the command line and through JSON options alike
/// (it used to be listed under every verb and silently ignored).
#[test]
fn an_option_is_shown_and_taken_only_where_it_is_read() {
    let (_, count_help, _) = quandary(&["gunport", "count", "--help"]);
    assert!(count_help.contains("--up-to-symmetry"), "{count_help}");
    let (_, solve_help, _) = quandary(&["gunport", "solve", "--help"]);
    assert!(!solve_help.contains("--up-to-symmetry"), "{solve_help}");
    assert!(solve_help.contains("--formulation"), "{solve_help}");
    for (args, says) in [
        (
            &["gunport", "solve", "4", "4", "--up-to-symmetry"][..],
            "--up-to-symmetry applies to count, not to optimum",
        ),
        (
            &["tank", "count", "5", "--no-symmetry-breaking"][..],
            "--no-symmetry-breaking applies to solve, not to count",
        ),
        (
            &[
                "battleship",
                "solve",
                "data/battleship/puzzlink-example.txt",
                "--difficulty",
            ][..],
            "--difficulty applies to unique, not to solve",
        ),
    ] {
        let (code, stdout, stderr) = quandary(args);
        assert_eq!(code, 2, "{args:?}: {stdout}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let (code, stdout, _) = quandary(&["gunport", "count", "4", "4", "--up-to-symmetry"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("16 classes"), "{stdout}");
    // Through the library with JSON options: a form's `false` is not a request.
    let entry = quandary::runner::registry::find("gunport").unwrap();
    let words = vec!["4".to_string(), "4".to_string()];
    let run = |options: serde_json::Value| {
        entry.run(
            &words,
            quandary::input::Files::Disk,
            quandary::runner::registry::OptionsIn::Json(&options),
            quandary::runner::Query::Optimum,
            &quandary::runner::Limits::none(),
            None,
        )
    };
    assert!(run(serde_json::json!({"up-to-symmetry": false})).is_ok());
    let refused = run(serde_json::json!({"up-to-symmetry": true})).unwrap_err();
    assert!(
        refused.to_string().contains("applies to count"),
        "{refused}"
    );
}

/// A question about the objective on an instance without one says how to give one, in the
/// puzzle's words (the runner used to carry chess's hint for every puzzle).
#[test]
fn optimum_without_an_objective_says_how_to_give_one() {
    for args in [
        &["chess", "optimum", "8", "--army", "Q2"][..],
        &[
            "chess",
            "reach",
            "data/chess/friedman-b4n2.txt",
            "--at-least",
            "3",
        ][..],
    ] {
        let (code, _, stderr) = quandary(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(
            stderr.contains("needs an objective") && stderr.contains("give --type T or --any"),
            "{args:?}: {stderr}"
        );
    }
}

/// `count --cap N` stops an enumeration at N solutions and says "at least N" (exit 1, as a
/// time limit does); a cap above the count changes nothing; the chess counter, which counts
/// without listing, answers exactly whatever the cap; a cap of 0 is refused.
#[test]
fn a_count_stops_at_its_cap_and_says_at_least() {
    // Three knights on 6×6: 4,752 placements (the exact counter, and SAT to the end).
    let (code, stdout, stderr) = quandary(&[
        "chess", "count", "6", "--army", "N3", "--sat", "--cap", "5", "--json",
    ]);
    assert_eq!(code, 1, "{stderr}");
    let v = one_json(&stdout);
    assert_eq!(v["status"], "unknown");
    assert_eq!(v["count_at_least"], 5);
    assert!(v.get("count").is_none(), "{v}");
    assert_eq!(v["stats"]["stopped_by"], "the cap of 5");
    let (code, stdout, _) = quandary(&["chess", "count", "6", "--army", "N3", "--cap", "5"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("exactly 4752 placements"), "{stdout}");
    // Four queens on 4×4: two placements, below the cap.
    let (code, stdout, _) = quandary(&[
        "chess", "count", "4", "--army", "Q4", "--sat", "--cap", "100", "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(one_json(&stdout)["count"], 2);
    let (code, _, stderr) = quandary(&["chess", "count", "4", "--army", "Q4", "--cap", "0"]);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, stderr) = quandary(&["chess", "solve", "4", "--army", "Q4", "--cap", "3"]);
    assert_eq!(code, 2, "{stderr}");
}

/// `model --algebra`: each family in algebra, read off its rows; the seed formulation of Tank
/// Attack writes "one value per cell" as the seed does (Σ_k x_{i,j,k} = 1 for every cell),
/// and Gunport's strong formulation its two kinds of neighbouring holes.
#[test]
fn model_algebra_reads_each_family_off_its_rows() {
    let (code, out, err) = quandary(&["tank", "model", "4", "--formulation", "seed", "--algebra"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("      16  one value per cell\n            sum_k x[i,j,k] = 1   for each i, j (16 rows)\n"),
        "{out}"
    );
    let (code, out, err) = quandary(&["gunport", "model", "4", "5", "--algebra", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let adjacent = v["families"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["family"] == "no two adjacent holes")
        .expect("the family");
    let shapes: Vec<(&str, u64)> = adjacent["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["latex"].as_str().unwrap(), s["rows"].as_u64().unwrap()))
        .collect();
    // 4×5: 4·4 pairs side by side, 3·5 one above the other.
    assert_eq!(
        shapes,
        vec![
            ("\\mu_{i,j} + \\mu_{i,j+1} \\le 1", 16),
            ("\\mu_{i,j} + \\mu_{i+1,j} \\le 1", 15)
        ]
    );
}
