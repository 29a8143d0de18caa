//! A formulation opened, changed and solved as changed (`quandary::runner::opened`): every
//! family of every puzzle's default formulation dropped in turn on a small instance gives the
//! right answer or a board the puzzle's verifier rejects, said so, never an error; a count
//! over a model with a family dropped finds every board among its solutions; a valid cut keeps
//! the count and a wrong one is caught; fixing a variable is the puzzle's own given.

use quandary::model::change::Change;
use quandary::puzzles::Files;
use quandary::runner::registry::{find, OptionsIn, Report};
use quandary::runner::{Limits, Query};
use quandary::solve::search::Status;
use std::time::Duration;

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| s.to_string()).collect()
}

/// The small instances: the puzzle, its words, and whether it counts (no objective).
const SMALL: &[(&str, &[&str], Query)] = &[
    ("tank", &["4"], Query::Count { cap: None }),
    ("gunport", &["3", "4"], Query::Optimum),
    (
        "battleship",
        &["https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c"],
        Query::Count { cap: None },
    ),
    (
        "chess",
        &["data/chess/friedman-b4n2.txt"],
        Query::Count { cap: None },
    ),
    (
        "tantrix",
        &["data/tantrix/boards/free-15.txt"],
        Query::First,
    ),
];

fn run(m: &dyn quandary::runner::opened::OpenModel, q: Query, cap: Option<u64>) -> Report {
    let limits = Limits::new(Some(Duration::from_secs(60)));
    m.run(q.capped(cap), &limits)
        .unwrap_or_else(|e| panic!("{}: {e}", m.title()))
}

#[test]
fn every_family_dropped_gives_the_answer_or_a_board_the_verifier_rejects() {
    for &(puzzle, w, query) in SMALL {
        let e = find(puzzle).unwrap();
        let open = || {
            e.open(
                &words(w),
                Files::Disk,
                OptionsIn::Default,
                Query::Count { cap: None },
            )
            .unwrap()
        };
        let whole = run(&*open(), query, None);
        assert_eq!(
            whole.judged.as_ref().unwrap().verified,
            Some(true),
            "{puzzle}"
        );
        let families: Vec<&str> = open().model().families().iter().map(|f| f.0).collect();
        for family in families {
            let mut m = open();
            m.apply(Change::Drop {
                family: family.to_string(),
                row: None,
            })
            .unwrap();
            let r = run(&*m, query, Some(2_000));
            let j = r.judged.clone().unwrap();
            eprintln!(
                "{puzzle} without '{family}': {} (verified {:?}, counted {:?} of {:?})",
                r.text.lines().next().unwrap_or(""),
                j.verified,
                j.verified_count,
                r.count
            );
            assert_eq!(j.changes, vec![format!("dropped the family '{family}'")]);
            assert!(
                r.text.contains("[on the model changed (dropped the family"),
                "{}",
                r.text
            );
            match j.verified {
                Some(true) => {
                    assert!(j.violations.is_empty());
                    // A board the verifier accepts from a model with fewer rows: for the
                    // optimum, the puzzle's optimum (no board beats it, and the relaxed
                    // optimum is at least it).
                    if query == Query::Optimum {
                        assert_eq!(r.objective, whole.objective, "{puzzle} {family}");
                    }
                }
                Some(false) => {
                    assert!(!j.violations.is_empty(), "{j:?}");
                    assert!(r.text.contains("the verifier rejects the "), "{}", r.text);
                    // The places of the broken rule are ringed on the board shown.
                    assert_eq!(j.violations_at.len(), j.violations.len());
                    let svg = r.svg.as_deref().unwrap_or("");
                    let rings = svg.matches(quandary::render::svg::BROKEN).count();
                    let first_board = j.violations[0].starts_with("the board:");
                    if first_board && !j.violations_at[0].is_empty() {
                        assert!(rings >= 1, "{puzzle} without '{family}': no ring");
                    }
                    if !first_board {
                        assert_eq!(rings, 0, "{puzzle} without '{family}'");
                    }
                }
                None => panic!("{puzzle} without '{family}': no board at all ({})", r.text),
            }
            // Every board is a solution of the model with a family fewer, found once each:
            // the boards among the solutions counted are the puzzle's.
            if matches!(query, Query::Count { .. }) && r.count.is_some() {
                assert_eq!(j.verified_count, whole.count, "{puzzle} without '{family}'");
            }
        }
    }
}

#[test]
fn a_valid_cut_keeps_the_count_a_wrong_one_is_caught_and_a_fixed_variable_is_a_given() {
    let e = find("tank").unwrap();
    let open = |w: &[&str], o: serde_json::Value| {
        e.open(
            &words(w),
            Files::Disk,
            OptionsIn::Json(&o),
            Query::Count { cap: None },
        )
        .unwrap()
    };
    let direct = |w: &[&str], o: serde_json::Value| {
        e.run(
            &words(w),
            Files::Disk,
            OptionsIn::Json(&o),
            Query::Count { cap: None },
            &Limits::none(),
            None,
        )
        .unwrap()
        .count
        .unwrap()
    };
    // Tank 5×5 has two boards (tests/tank/ counts them by brute force).
    let mut m = open(&["5"], serde_json::json!({}));
    let all = run(&*m, Query::Count { cap: None }, None).count.unwrap();
    assert_eq!(all, 2);
    // The variables by their meanings, from the records (the same names with every change: a
    // change adds no variable).
    let names = |meaning: &str| name_of(&*open(&["5"], serde_json::json!({})), meaning);
    // Valid: every cell takes at most one value (implied by the model's rows).
    let cut: Vec<(i64, String)> = (1..5)
        .map(|v| (1, names(&format!("(3,3) is {v}"))))
        .collect();
    m.apply(Change::AddRow {
        terms: cut,
        sense: "<=".into(),
        rhs: 1,
        family: "my cut".into(),
    })
    .unwrap();
    assert_eq!(run(&*m, Query::Count { cap: None }, None).count, Some(all));
    // Wrong: "(1,2) is 3" is not true of both boards (the other has a 4 there): the count
    // falls, which the unchanged count shows, and the board still found passes the verifier.
    m.apply(Change::AddRow {
        terms: vec![(1, names("(1,2) is 3"))],
        sense: ">=".into(),
        rhs: 1,
        family: "wrong cut".into(),
    })
    .unwrap();
    let cut = run(&*m, Query::Count { cap: None }, None);
    assert!(cut.count.unwrap() < all, "{}", cut.text);
    assert_eq!(cut.judged.as_ref().unwrap().verified_count, cut.count);
    m.reset();
    assert!(m.changes().is_empty());
    assert_eq!(run(&*m, Query::Count { cap: None }, None).count, Some(all));
    // Fixing the variable "(1,2) is 4" to 1 is the given `--fix 1,2=4` (and its count).
    let mut m = open(&["5"], serde_json::json!({}));
    m.apply(Change::Fix {
        name: names("(1,2) is 4"),
        value: 1,
    })
    .unwrap();
    let fixed = run(&*m, Query::Count { cap: None }, None);
    assert_eq!(
        fixed.count,
        Some(direct(&["5"], serde_json::json!({"fix": "1,2=4"})))
    );
    assert_eq!(fixed.status, Status::Solved);
}

/// The variable of `m` that means `meaning`, by the model's records.
fn name_of(m: &dyn quandary::runner::opened::OpenModel, meaning: &str) -> String {
    let records = quandary::model::records::records(m.model(), m.meanings());
    records["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["meaning"] == meaning)
        .unwrap_or_else(|| panic!("no variable means {meaning}"))["name"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_fixed_variable_is_the_puzzles_own_given_in_gunport_and_battleship() {
    // Gunport 3×5 with a hole fixed at (1,1), and with the given `--fix 1,1=hole`: the same
    // optimum and the same number of optimal packings.
    let e = find("gunport").unwrap();
    let w = words(&["3", "5"]);
    let mut m = e
        .open(
            &w,
            Files::Disk,
            OptionsIn::Default,
            Query::Count { cap: None },
        )
        .unwrap();
    m.apply(Change::Fix {
        name: name_of(&*m, "(1,1) is a hole"),
        value: 1,
    })
    .unwrap();
    let given = serde_json::json!({"fix": "1,1=hole"});
    for q in [Query::Optimum, Query::Count { cap: None }] {
        let direct = e
            .run(
                &w,
                Files::Disk,
                OptionsIn::Json(&given),
                q,
                &Limits::none(),
                None,
            )
            .unwrap();
        let fixed = run(&*m, q, None);
        assert_eq!(
            (fixed.objective, fixed.count),
            (direct.objective, direct.count),
            "{}",
            fixed.text
        );
    }
    // Battleship: the puzz.link example's clue "(4,1) shows the left end of a ship" taken out
    // (its five rows of the given cells dropped) leaves several solutions; the clue as four
    // fixed variables ((4,1) and (4,2) ship, (3,1) and (5,1) water) puts it back: one
    // solution, as the puzzle has.
    let e = find("battleship").unwrap();
    let w = words(&["https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c"]);
    let mut m = e
        .open(
            &w,
            Files::Disk,
            OptionsIn::Default,
            Query::Count { cap: None },
        )
        .unwrap();
    let cells = [((4, 1), 1), ((4, 2), 1), ((3, 1), 0), ((5, 1), 0)];
    let names: Vec<(String, i64)> = cells
        .iter()
        .map(|&((r, c), v)| (name_of(&*m, &format!("({r},{c}) is ship")), v))
        .collect();
    let records = quandary::model::records::records(m.model(), m.meanings());
    let clue_rows: Vec<usize> = records["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["family"] == "(30r) given cells")
        .enumerate()
        .filter(|(_, r)| {
            let terms = r["terms"].as_array().unwrap();
            terms.iter().any(|t| {
                let n = t[1].as_str().unwrap();
                names.iter().any(|(x, _)| x == n) || n.ends_with("_4_1") && n.starts_with('y')
            })
        })
        .map(|(k, _)| k)
        .collect();
    assert_eq!(clue_rows.len(), 5, "{clue_rows:?}");
    for &k in clue_rows.iter().rev() {
        m.apply(Change::Drop {
            family: "(30r) given cells".into(),
            row: Some(k),
        })
        .unwrap();
    }
    let without = run(&*m, Query::Count { cap: None }, None);
    assert!(without.count.unwrap() > 1, "{}", without.text);
    for (name, value) in names {
        m.apply(Change::Fix { name, value }).unwrap();
    }
    let direct = e
        .run(
            &w,
            Files::Disk,
            OptionsIn::Default,
            Query::Count { cap: None },
            &Limits::none(),
            None,
        )
        .unwrap();
    assert_eq!(direct.count, Some(1));
    assert_eq!(
        run(&*m, Query::Count { cap: None }, None).count,
        direct.count
    );
}

/// The seed's lesson on a board: without the attack rows the model places pieces that attack
/// each other; the verifier names the two squares, the JSON carries them, and the picture
/// rings them in red (a ring on each, nowhere else).
#[test]
fn the_attack_rows_dropped_the_picture_rings_the_two_pieces_that_attack() {
    let e = find("chess").unwrap();
    let mut m = e
        .open(
            &words(&["data/chess/friedman-b4n2.txt"]),
            Files::Disk,
            OptionsIn::Default,
            Query::First,
        )
        .unwrap();
    m.apply(Change::Drop {
        family: "attacker forces target empty".into(),
        row: None,
    })
    .unwrap();
    let r = run(&*m, Query::First, None);
    let j = r.judged.clone().unwrap();
    assert_eq!(j.verified, Some(false), "{}", r.text);
    assert!(
        j.violations[0].contains(" attacks the "),
        "{:?}",
        j.violations
    );
    let at = &j.violations_at[0];
    assert_eq!(at.len(), 2, "{at:?}");
    let svg = r.svg.expect("a picture");
    let red = format!("stroke=\"{}\"", quandary::render::svg::BROKEN);
    assert_eq!(svg.matches(&red).count(), 2, "{svg}");
    // The places are the ones the sentence names (rows and columns counted from 1).
    for p in at {
        let quandary::puzzles::Place::Cell(row, col) = *p else {
            panic!("{p:?}")
        };
        let said = format!("row {}, column {}", row + 1, col + 1);
        assert!(
            j.violations[0].contains(&said),
            "{said} in {}",
            j.violations[0]
        );
    }
    let json = serde_json::to_value(&r.facts).unwrap();
    assert_eq!(json["violations_at"][0].as_array().map(Vec::len), Some(2));
}
