//! The command line per puzzle: each one's verbs, bad input and files, and the restricted
//! searches that must never answer for the whole space.

use super::*;

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
