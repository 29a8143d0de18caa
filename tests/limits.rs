//! The time limit bounds the whole run. In a test file of its own, so that nothing else runs
//! beside it and the wall clock measures each run alone (cargo runs test files one after
//! another).

mod common;

use common::stopped_within;

/// Every verb of every puzzle, on instances whose model alone takes longer to build (or
/// whose exact method longer to run) than the limit: each run ends within the limit plus
/// 10% plus 0.5 s with exit status 1 and one JSON object saying "unknown" (or, for the verbs
/// without a partial answer, an error object with that status). Run one after another, so
/// that the wall clock measures each alone.
#[test]
fn every_verb_stops_at_the_limit_on_instances_too_large_to_build_in_time() {
    let limit = 2.0;
    let runs: &[&[&str]] = &[
        &["tank", "solve", "40"],
        &["tank", "count", "40"],
        &["tank", "unique", "40"],
        &["tank", "forced", "40"],
        // The exact search: collecting the first rows alone takes longer than the limit.
        &["tank", "solve", "12", "--method", "exact"],
        &["tank", "count", "10", "--method", "exact"],
        &["gunport", "solve", "60", "60"],
        &["gunport", "count", "60", "60"],
        &["gunport", "unique", "60", "60"],
        &["gunport", "forced", "60", "60"],
        &["gunport", "optimum", "60", "60"],
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
            "data/battleship/generated-30x20-seed3.txt",
        ],
        &[
            "battleship",
            "minimize",
            "data/battleship/generated-30x20-seed3.txt",
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
