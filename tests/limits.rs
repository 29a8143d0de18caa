//! The time limit bounds the whole run. In a test file of its own, so that nothing else runs
//! beside it and the wall clock measures each run alone (cargo runs test files one after
//! another).

mod common;

use common::{one_json, quandary, quandary_env, stopped_within};
use std::sync::Mutex;

/// The tests of this file run one at a time (the harness would run them on parallel
/// threads), so that the wall clock measures each run alone.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Every verb of every puzzle, on instances whose model alone takes longer to build (or
/// whose exact method longer to run) than the limit: each run ends within the limit plus
/// 10% plus 0.5 s with exit status 1 and one JSON object saying "unknown" (or, for the verbs
/// without a partial answer, an error object with that status). Run one after another, so
/// that the wall clock measures each alone.
#[test]
fn every_verb_stops_at_the_limit_on_instances_too_large_to_build_in_time() {
    let _alone = alone();
    let limit = 2.0;
    let runs: &[&[&str]] = &[
        &["tank", "solve", "40"],
        &["tank", "count", "40"],
        &["tank", "unique", "40"],
        &["tank", "forced", "40"],
        // The exact search: collecting the first rows alone takes longer than the limit.
        &["tank", "solve", "12", "--method", "exact"],
        &["tank", "count", "10", "--method", "exact"],
        // 59: no side divisible by 3 (Sands' construction answers 60×60 at once).
        &["gunport", "solve", "59", "59"],
        &["gunport", "count", "60", "60"],
        &["gunport", "unique", "60", "60"],
        &["gunport", "forced", "60", "60"],
        &["gunport", "optimum", "59", "59"],
        &["gunport", "reach", "60", "60", "--at-least", "1200"],
        &[
            "gunport",
            "reach",
            "21",
            "60",
            "--at-least",
            "400",
            "--method",
            "budget",
        ],
        // The transfer-matrix count: 14×40 takes about 30 s (13×13 now takes 2 s, too near).
        &["gunport", "count", "14", "40"],
        &[
            "gunport", "sweep", "--max-m", "40", "--max-n", "40", "--min", "30",
        ],
        &["chess", "solve", "64", "--any"],
        &[
            "chess", "count", "64", "--army", "Q40", "--type", "Q", "--sat",
        ],
        &[
            "chess", "unique", "64", "--army", "Q40", "--type", "Q", "--sat",
        ],
        &[
            "chess", "forced", "64", "--army", "Q40", "--type", "Q", "--sat",
        ],
        &["chess", "optimum", "64", "--any"],
        &["chess", "reach", "64", "--any", "--at-least", "500"],
        &["chess", "peaceable", "32"],
        // explain, on every puzzle: its model and its engines built, then steps until the limit.
        &["tank", "explain", "40"],
        &["gunport", "explain", "59", "59"],
        &["chess", "explain", "64", "--army", "Q40"],
        &["tantrix", "explain", "data/tantrix/large/free-200.txt"],
        &[
            "battleship",
            "explain",
            "data/battleship/generated-30x20-seed3.txt",
        ],
        &["tantrix", "solve", "-n", "1000"],
        &["tantrix", "unique", "data/tantrix/large/free-200.txt"],
        &["tantrix", "forced", "data/tantrix/large/free-200.txt"],
        &["tantrix", "count", "-n", "10", "--colour", "red"],
        &[
            "battleship",
            "solve",
            "data/battleship/generated-30x20-seed3.txt",
            "--formulation",
            "cell",
        ],
        &[
            "battleship",
            "redundant",
            // Spare clues left (its generation was stopped): each needs a refutation.
            "data/battleship/generated/30x20-seed6.txt",
        ],
        &[
            "battleship",
            "minimize",
            // Spare clues left (its generation was stopped): each needs a refutation.
            "data/battleship/generated/30x20-seed6.txt",
        ],
        &[
            "battleship",
            "generate",
            "--rows",
            "200",
            "--cols",
            "200",
            "--fleet",
            "100,80,60,40,20",
            "--seed",
            "1",
        ],
    ];
    for run in runs {
        stopped_within(run, limit);
    }
}

/// `model` is a run like any other (it had no time limit and ran 100 s to 4 GB), and the
/// 60×60 domino model is stopped in every stage after building (it ran 32 s under a 10 s
/// limit). Both build gigabytes; what the run built is freed as it stops, which takes a
/// part of a second, hence the looser bound.
#[test]
fn model_and_the_largest_models_stop_at_the_limit() {
    let _alone = alone();
    let limit = 2.0;
    for run in [
        &["gunport", "model", "60", "60", "--formulation", "domino"][..],
        &["gunport", "solve", "60", "60", "--formulation", "domino"][..],
    ] {
        let mut args = run.to_vec();
        args.extend(["--json", "--time-limit", "2"]);
        let (code, out, err, seconds) = quandary(&args);
        assert_eq!(code, 1, "{args:?}: {out} {err}");
        assert_eq!(one_json(&out)["status"], "unknown", "{args:?}: {out}");
        assert!(
            seconds <= limit + 1.5,
            "{args:?} took {seconds:.2} s under a {limit} s limit"
        );
    }
}

/// `model` on an instance whose model takes longer to build than the limit ends within the
/// limit + 10% + 0.5 s, "unknown", exit status 1: building, sizing and freeing included (`battleship model` of an open 200×12 board with one ship of length 200,
/// 17 million rows, answered "solved" after 12 s under a 5 s limit). And the 200×200
/// Battleship board, whose model took 1.7 s to free after its limit.
#[test]
fn large_models_stop_at_the_limit_building_sizing_and_freeing_included() {
    let _alone = alone();
    let dir = std::env::temp_dir().join(format!("quandary-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let long = dir.join("long-ship.txt");
    let mut fleet = vec!["0"; 199];
    fleet.push("1");
    std::fs::write(
        &long,
        format!(
            "size 200 12\nfleet {}\nrows {}\ncols {}\n",
            fleet.join(" "),
            ["?"; 200].join(" "),
            ["?"; 12].join(" ")
        ),
    )
    .unwrap();
    let open = open_battleship_200(&dir);
    let long = long.to_string_lossy().to_string();
    // The largest models of the other puzzles build in well under the limit (tank 40 in
    // 0.14 s, chess 64 in 0.27 s, tantrix free-200 in 0.03 s, gunport 60×60's cell model in
    // 0.03 s; its domino model is in the test above), so none of them outlasts a limit.
    let runs: &[&[&str]] = &[
        &["battleship", "model", &long],
        &["battleship", "solve", &long],
        &["battleship", "count", &open],
    ];
    for run in runs {
        stopped_within(run, 2.0);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An open 200×200 Battleship board (no clue, every count unknown) written into `dir`: its path.
fn open_battleship_200(dir: &std::path::Path) -> String {
    let open = dir.join("open-200.txt");
    std::fs::write(
        &open,
        format!(
            "size 200 200\nfleet 40 30 20 10\nrows {}\ncols {}\n",
            ["?"; 200].join(" "),
            ["?"; 200].join(" ")
        ),
    )
    .unwrap();
    open.to_string_lossy().to_string()
}

/// What a run builds is estimated below what it takes (0.55 to 0.8 of the peak), and a SAT
/// engine's learned clauses are charged to no one: the process's resident size is read too,
/// while building and every quarter of a second of search. `tank solve 40` under a 500 MB
/// limit ran to its time limit at 637 MB resident; now it stops as too large, naming the
/// resident size.
#[test]
fn the_resident_size_is_held_to_the_memory_limit() {
    let _alone = alone();
    let run = &["tank", "solve", "40", "--time-limit", "30", "--json"];
    let (code, out, err, seconds) = quandary_env(run, &[("QUANDARY_MEMORY_MB", "500")]);
    assert_eq!(code, 2, "{out} {err}");
    assert!(
        err.contains("too large") && err.contains("resident") && err.contains("500 MiB"),
        "{err}"
    );
    assert!(seconds < 30.0, "took {seconds:.1} s");
}

/// A count its time limit stops keeps what it found: `chess count` on ten queens by SAT at
/// 0.5 s answers "unknown" with the placements found so far (381 on this machine). Reading
/// the resident size in the search's stop callback must not turn a stop into a bare
/// "stopped" (it did, for a moment, when the callback's check stopped for any reason).
#[test]
fn a_count_stopped_by_its_limit_keeps_its_partial_count() {
    let _alone = alone();
    let (code, out, err, _) = quandary(&[
        "chess",
        "count",
        "10",
        "--army",
        "Q10",
        "--type",
        "Q",
        "--sat",
        "--time-limit",
        "0.5",
        "--json",
    ]);
    assert_eq!(code, 1, "{out} {err}");
    let v = one_json(&out);
    assert_eq!(v["status"], "unknown", "{v}");
    assert!(v["count_at_least"].as_u64().is_some_and(|n| n > 0), "{v}");
}

/// A count a stop request ends keeps what it found, as one its time limit ends does: the
/// first Ctrl-C (SIGINT) of `chess count` on twelve queens by SAT answers "unknown" with
/// the placements found so far and exit status 1, soon after the signal. A stop request
/// arriving between two solves used to unwind past the count ("stopped … before an
/// answer"), on the command line and the page's Stop alike.
#[test]
fn a_count_stopped_by_a_stop_request_keeps_its_partial_count() {
    let _alone = alone();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_quandary"))
        .args([
            "chess", "count", "12", "--army", "Q12", "--type", "Q", "--sat", "--json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("quandary starts");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let signalled = std::time::Instant::now();
    // SAFETY: kill(2) on the child this test started and has not yet waited for.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0, "SIGINT sent");
    let out = child.wait_with_output().expect("quandary ends");
    let after = signalled.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let v = one_json(&stdout);
    assert_eq!(v["status"], "unknown", "{v}");
    assert!(v["count_at_least"].as_u64().is_some_and(|n| n > 0), "{v}");
    assert!(after < 2.0, "ended {after:.2} s after the stop request");
}

/// The exact methods whose tables grow large charge them to the run: under a low memory
/// limit the Tank line search (its list of first rows) and the Gunport budget program (its
/// state maps, built on worker threads) stop with the "too large" error, like a model would.
#[test]
fn exact_methods_stop_at_the_memory_limit() {
    let _alone = alone();
    for run in [
        &["tank", "count", "10", "--method", "exact", "--json"][..],
        &[
            "gunport", "reach", "19", "19", "--holes", "119", "--method", "budget", "--json",
        ][..],
        // `model` is bounded by the memory limit like every run (it grew to 4.1 GB).
        &[
            "gunport",
            "model",
            "60",
            "60",
            "--formulation",
            "domino",
            "--json",
        ][..],
    ] {
        let (code, out, err, seconds) = quandary_env(run, &[("QUANDARY_MEMORY_MB", "50")]);
        assert_eq!(code, 2, "{run:?}: {out} {err}");
        assert!(
            err.contains("too large") && err.contains("50 MiB"),
            "{run:?}: {err}"
        );
        assert!(seconds < 30.0, "{run:?} took {seconds:.1} s");
    }
}

/// Every formulation of every puzzle (as the puzzle's own `--formulation` flag offers them,
/// read from the registry), built by `model` (as counting builds it, and with
/// `--symmetry-breaking` as `solve` does) on a large instance under a 2 s limit: whether it is
/// built in time or stopped, the run's own clock (`stats.seconds`) stays within the limit +
/// 10% + 0.5 s. A loop that never looks at the clock shows here: Gunport's domino model,
/// projected on its placements for counting, took 16-25 s under a 10 s limit (a scan of every
/// placement for every place), and freeing its 12.6 million names another second.
#[test]
fn every_formulation_of_every_puzzle_is_built_within_the_limit() {
    let _alone = alone();
    let dir = std::env::temp_dir().join(format!("quandary-formulations-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let open = open_battleship_200(&dir);
    // Large instances, and for Gunport one its domino model builds within the limit, so that
    // the stages after building are reached too (30×30 took 8.1 s with the quadratic
    // projection, 1.2 s now; 60×60 is stopped while its variables are made).
    let large = |puzzle: &str| -> Vec<Vec<String>> {
        let instances: &[&[&str]] = match puzzle {
            "tank" => &[&["40"]],
            "gunport" => &[&["30", "30"], &["60", "60"]],
            "chess" => &[&["64", "--army", "Q40", "--type", "Q"]],
            "battleship" => &[&[&open]],
            "tantrix" => &[&["data/tantrix/large/free-200.txt"]],
            "latin" => &[&["30"]],
            other => panic!("no large instance named for the puzzle '{other}': add one here"),
        };
        instances
            .iter()
            .map(|words| words.iter().map(|w| w.to_string()).collect())
            .collect()
    };
    let limit = 2.0;
    let mut built = 0;
    for entry in quandary::runner::registry::PUZZLES {
        let flags = entry.options_args(clap::Command::new(entry.name()));
        let formulations: Vec<Option<String>> =
            match flags.get_arguments().find(|a| a.get_id() == "formulation") {
                Some(arg) => arg
                    .get_possible_values()
                    .iter()
                    .map(|v| Some(v.get_name().to_string()))
                    .collect(),
                None => vec![None],
            };
        // The registry's list (what Python's `quandary.formulations` and `compare` read) is
        // the flag's.
        let listed: Vec<Option<String>> = entry
            .formulations()
            .iter()
            .map(|f| Some(f.to_string()))
            .collect();
        match listed.is_empty() {
            true => assert_eq!(formulations, vec![None], "{}", entry.name()),
            false => assert_eq!(listed, formulations, "{}", entry.name()),
        }
        let instances = large(entry.name());
        for (formulation, words) in formulations
            .iter()
            .flat_map(|f| instances.iter().map(move |w| (f, w)))
        {
            for breaking in [false, true] {
                let mut args = vec![entry.name().to_string(), "model".into()];
                args.extend(words.iter().cloned());
                if let Some(f) = &formulation {
                    args.extend(["--formulation".into(), f.clone()]);
                }
                if breaking {
                    args.push("--symmetry-breaking".into());
                }
                args.extend(["--json".into(), "--time-limit".into(), limit.to_string()]);
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let (code, out, err, _) = quandary(&args);
                assert!(code == 0 || code == 1, "{args:?}: {code} {out} {err}");
                let v = one_json(&out);
                let seconds = v["stats"]["seconds"]
                    .as_f64()
                    .unwrap_or_else(|| panic!("{args:?}: no stats.seconds in {v}"));
                assert!(
                    seconds <= limit * 1.1 + 0.5,
                    "{args:?}: {seconds:.2} s on its own clock under a {limit} s limit"
                );
                built += 1;
            }
        }
    }
    assert!(built >= 2 * 5, "{built} models");
    let _ = std::fs::remove_dir_all(&dir);
}
