//! The command-line contract: exit statuses, one JSON object with --json, files written.

#[path = "../common/mod.rs"]
mod common;
mod explain;
mod puzzles;

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
