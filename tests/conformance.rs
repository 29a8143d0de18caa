//! The same checks for every puzzle, one macro line each: the example solves and verifies;
//! on small instances, count, uniqueness and forced cells agree with a plain enumeration of
//! every solution (each solution checked by the puzzle's verifier); the LP and OPB files are
//! written and the OPB file reads back with a second reader (rustsat's); and, for the puzzles
//! on the command line, the JSON and exit-status contract holds for every generic verb, with
//! a time limit that must stop it.

use quandary::model::{lp, opb};
use quandary::puzzles::{Files, Place, Puzzle};
use quandary::runner::registry::{options, OptionsIn};
use quandary::runner::{run, Limits, Query, Reasons};
use quandary::solve::sat::SatBackend;
use quandary::solve::search::{Search, Status};
use quandary::solve::Backend;
use serde_json::{json, Value};
use std::collections::BTreeSet;

mod common;

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| s.to_string()).collect()
}

fn read<P: Puzzle>(w: &[&str], o: &Value) -> (P::Instance, P::Options) {
    let o = options::<P>(OptionsIn::Json(o)).expect("options");
    let i = P::read(&words(w), &o, Files::Disk).expect("instance");
    (i, o)
}

/// The built-in example answers `solve` with a solution the verifier accepts.
fn example_solves<P: Puzzle>() {
    let o = P::Options::default();
    let i = P::read(&words(P::EXAMPLE), &o, Files::Disk).expect("the example reads");
    let out = run::<P>(&i, &o, P::SOLVE, &Limits::none()).expect("runs");
    assert!(
        matches!(out.status, Status::Solved | Status::Optimal),
        "{}: {:?}",
        P::NAME,
        out.status
    );
    assert!(P::verify(&i, &out.solutions[0]).is_ok());
    let svg = P::svg(&i, &o, &out.solutions[0], &[]);
    assert!(svg.starts_with("<svg"));
    // Centred by position, not by an attribute some renderers ignore.
    assert!(!svg.contains("dominant-baseline"), "{}", P::NAME);
    assert!(!P::text(&i, &out.solutions[0]).is_empty());
}

/// Every solution (every optimal one, where there is an objective), as the decisions' values,
/// by blocking clauses on the formulation: no runner involved.
fn enumerate_all<P: Puzzle>(i: &P::Instance, o: &P::Options) -> Vec<Vec<bool>> {
    enumerate_all_of::<P>(i, o, Query::Count { cap: None })
}

/// [`enumerate_all`] on the formulation `query` builds (`explain` may read its reasons off
/// another formulation than `count`'s).
fn enumerate_all_of<P: Puzzle>(i: &P::Instance, o: &P::Options, query: Query) -> Vec<Vec<bool>> {
    let optimum = match P::formulate(i, o, query).unwrap().goal {
        Some(_) => {
            run::<P>(i, o, Query::Optimum, &Limits::none())
                .unwrap()
                .objective
        }
        None => None,
    };
    let mut f = P::formulate(i, o, query).unwrap();
    let mut backend = SatBackend::new(&f.model);
    let assume = match (&f.goal, optimum) {
        (Some(g), Some(v)) => backend.objective_at_most(g.at_most_for(v)).unwrap(),
        _ => Vec::new(),
    };
    let mut search = Search::new(backend, None);
    if let Some(cuts) = f.cuts.take() {
        search = search.with_cuts(cuts);
    }
    let mut all = Vec::new();
    let (status, _) = search.enumerate(&f.decisions, &assume, None, |a| {
        let s = (f.decode)(a);
        if let Err(why) = P::verify(i, &s) {
            panic!("{}: the model admits a wrong solution: {why}", P::NAME);
        }
        // The whole assignment: forced cells may be read off other variables than the
        // ones solutions are counted on.
        all.push(a.to_vec());
        true
    });
    assert_eq!(status, Status::Solved);
    all
}

/// Count, unique and forced from the runner against the enumeration.
fn agree_with_enumeration<P: Puzzle>(w: &[&str], o: &Value) {
    let (i, o) = read::<P>(w, o);
    let all = enumerate_all::<P>(&i, &o);
    let n = all.len() as u128;
    let limits = Limits::none();
    let count = run::<P>(&i, &o, Query::Count { cap: None }, &limits).unwrap();
    assert_eq!(count.count, Some(n), "{} {w:?}: count", P::NAME);

    let unique = run::<P>(&i, &o, Query::Unique, &limits).unwrap();
    if n == 0 {
        assert_eq!(unique.status, Status::Infeasible);
    } else {
        assert_eq!(unique.unique, Some(n == 1), "{} {w:?}: unique", P::NAME);
        assert_eq!(unique.solutions.len(), n.min(2) as usize);
    }

    let forced = run::<P>(&i, &o, Query::Forced, &limits).unwrap();
    if n == 0 {
        assert_eq!(forced.status, Status::Infeasible);
        return;
    }
    // The variables forced cells are read off (the formulation of `forced`, over the same
    // model as the count's).
    let f = P::formulate(&i, &o, Query::Forced).unwrap();
    let value = |s: &Vec<bool>, k: usize| s[f.decisions[k].index()];
    let expected: BTreeSet<String> = (0..f.decisions.len())
        .filter(|&k| all.iter().all(|s| value(s, k) == value(&all[0], k)))
        .map(|k| json!([f.meanings[k], value(&all[0], k)]).to_string())
        .collect();
    let set = forced.facts.forced.expect("forced decisions");
    assert_eq!(set.undecided, 0);
    let got: BTreeSet<String> = set
        .forced
        .iter()
        .map(|x| json!([x.meaning, x.value]).to_string())
        .collect();
    assert_eq!(got, expected, "{} {w:?}: forced", P::NAME);
    if n == 1 {
        // A unique solution is forced everywhere.
        assert_eq!(set.forced.len(), f.decisions.len());
    }
}

/// `explain` on a small instance against the enumeration of every solution: each step's
/// conclusions are decisions of the model with the value they take in every solution (no
/// step concludes what some solution denies), each step cites a reason, and the steps of a
/// puzzle with one solution reach all of it (unless the 10 s limit stopped them); one with none
/// is said infeasible, with no steps.
/// (That each reason is minimal and forces its conclusion by itself is checked on Battleship's
/// boards in tests/explain.rs.)
fn explanations_hold_in_every_solution<P: Puzzle>(w: &[&str], o: &Value) {
    let (i, o) = read::<P>(w, o);
    // Within 10 s: the steps made by then are checked all the same (Tank 5×5 takes most of a
    // minute to finish).
    let limits = Limits::new(Some(std::time::Duration::from_secs(10)));
    let out = match run::<P>(&i, &o, Query::Explain(Reasons::Levels), &limits) {
        Ok(out) => out,
        // A formulation explain does not read reasons off is refused, saying so.
        Err(quandary::Error::Input(why)) if why.contains("formulation") => return,
        Err(e) => panic!("{} {w:?}: explain: {e}", P::NAME),
    };
    let all = enumerate_all_of::<P>(&i, &o, Query::Explain(Reasons::Levels));
    if all.is_empty() {
        assert_eq!(out.status, Status::Infeasible, "{} {w:?}", P::NAME);
        assert!(out.facts.explanation.is_none(), "{} {w:?}", P::NAME);
        return;
    }
    let stopped = out.status == Status::Unknown;
    let x = out.facts.explanation.expect("an explanation");
    let f = P::formulate(&i, &o, Query::Explain(Reasons::Levels)).unwrap();
    for (k, step) in x.steps.iter().enumerate() {
        assert!(
            !step.reason.is_empty(),
            "{} {w:?}: step {} has no reason",
            P::NAME,
            k + 1
        );
        assert!(
            !step.derived.is_empty(),
            "{} {w:?}: step {} concludes nothing",
            P::NAME,
            k + 1
        );
        for d in &step.derived {
            let at = f
                .meanings
                .iter()
                .position(|m| *m == d.meaning)
                .unwrap_or_else(|| {
                    panic!(
                        "{} {w:?}: step {} concludes about no decision: {:?}",
                        P::NAME,
                        k + 1,
                        d.meaning
                    )
                });
            let var = f.decisions[at].index();
            assert!(
                all.iter().all(|s| s[var] == d.value),
                "{} {w:?}: step {} concludes {:?} = {}, which a solution denies",
                P::NAME,
                k + 1,
                d.meaning,
                d.value
            );
        }
    }
    if all.len() == 1 && !stopped {
        assert!(
            x.complete,
            "{} {w:?}: a unique puzzle explained only in part",
            P::NAME
        );
    }
}

/// The board drawn for editing ([`Puzzle::sketch`]) is written back by [`Puzzle::edit`] as
/// input its reader takes again: each marked place set to the value it holds (an edit that
/// changes nothing) gives an instance drawn exactly as before. False where the instance has
/// no board to edit (a Tantrix challenge). (tests/editing.rs sets every place of every
/// registered puzzle to each of its choices.)
fn board_round_trip<P: Puzzle>(w: &[&str], o: &Value) -> bool {
    let (i, opts) = read::<P>(w, o);
    let Some(sketch) = P::sketch(&i, &opts) else {
        return false;
    };
    let marked = common::places(&sketch.svg);
    assert!(!marked.is_empty(), "{}: no marked places", P::NAME);
    for place in &marked {
        let input = P::edit(&i, &opts, &place.at, &place.value)
            .unwrap_or_else(|e| panic!("{} {} = {:?}: {e}", P::NAME, place.at, place.value));
        let mut given = o.clone();
        input.set_in(&mut given);
        let mut words = input.words.clone();
        let files = match input.text.is_empty() {
            true => Default::default(),
            false => quandary::input::text_as_input(input.text.clone(), &mut words),
        };
        let opts = options::<P>(OptionsIn::Json(&given)).expect("the edit's options");
        let again = P::read(&words, &opts, Files::Only(&files))
            .unwrap_or_else(|e| panic!("{} {} written back: {e}", P::NAME, place.at));
        let drawn = P::sketch(&again, &opts).map(|s| s.svg);
        assert_eq!(
            drawn.as_ref(),
            Some(&sketch.svg),
            "{} {}",
            P::NAME,
            place.at
        );
    }
    true
}

/// Every key of every report the generic verbs give on a small instance (and of a run stopped
/// before it had an answer) is among the report's own list of fields, which front ends offer
/// as a report's attributes (`quandary::runner::registry::FIELDS`, Python's `Report`).
fn reports_carry_listed_fields<P: Puzzle>(w: &[&str], o: &Value) {
    use quandary::runner::registry::{find, FIELDS};
    use quandary::runner::report;
    let e = find(P::NAME).expect("registered");
    let listed = |v: &Value, what: &str| {
        for key in v.as_object().expect("a JSON object").keys() {
            assert!(
                FIELDS.contains(&key.as_str()),
                "{} {what}: '{key}' is not listed",
                P::NAME
            );
        }
    };
    for verb in e.verbs().into_iter().filter(|v| *v != "model") {
        let query = e
            .query(verb, Some(1))
            .expect("a query")
            .expect("a generic verb");
        let files = Files::Disk;
        let r = match e.run(
            &words(w),
            files,
            OptionsIn::Json(o),
            query,
            &Limits::none(),
            None,
        ) {
            Ok(r) => r,
            // An instance without an objective where the puzzle may have one.
            Err(err @ quandary::Error::Input(_)) if matches!(verb, "optimum" | "reach") => {
                assert!(
                    err.to_string().contains("objective"),
                    "{} {verb}: {err}",
                    P::NAME
                );
                continue;
            }
            Err(err) => panic!("{} {verb}: {err}", P::NAME),
        };
        listed(&serde_json::to_value(&r).expect("JSON"), verb);
    }
    let stopped = quandary::error::Error::Stopped("the time limit".into());
    let v = report::stopped_answer(&stopped, Some(P::NAME), Some("solve"), Some(0.5));
    listed(&v.expect("a stopped answer"), "stopped");
}

/// The LP and OPB files are written; the OPB file reads back with rustsat's reader.
fn files_read_back<P: Puzzle>(w: &[&str], o: &Value) {
    let (i, o) = read::<P>(w, o);
    let f = P::formulate(&i, &o, Query::Count { cap: None }).unwrap();
    let text = lp::to_lp(&f.model, "conformance");
    assert!(text.contains("Subject To") && text.trim_end().ends_with("End"));
    let text = opb::to_opb(&f.model, "conformance");
    let read = rustsat::instances::SatInstance::<rustsat::instances::BasicVarManager>::from_opb(
        &mut std::io::Cursor::new(text.as_bytes()),
        Default::default(),
    );
    let inst = read.unwrap_or_else(|e| panic!("{}: the OPB file does not read back: {e}", P::NAME));
    let rows = inst.n_clauses() + inst.n_cards() + inst.n_pbs();
    assert!(
        rows >= f.model.constraints.len(),
        "{}: {rows} rows read back, {} written",
        P::NAME,
        f.model.constraints.len()
    );
}

/// The verifier rejects a solution spoiled by `spoil` (each puzzle says how to spoil one of
/// its solutions): a solution of each small instance that has one is checked, accepted, then
/// spoiled and checked again.
fn rejects_spoiled<P: Puzzle>(cases: &[(&[&str], Value)], spoil: fn(&mut P::Solution)) {
    let mut checked = 0;
    for (w, o) in cases {
        let (i, o) = read::<P>(w, o);
        let out = run::<P>(&i, &o, Query::First, &Limits::none()).expect("a run");
        let Some(mut s) = out.solutions.into_iter().next() else {
            continue;
        };
        assert!(
            P::verify(&i, &s).is_ok(),
            "{} {w:?}: the right one",
            P::NAME
        );
        spoil(&mut s);
        let verdict = P::verify(&i, &s);
        let Err(broken) = verdict else {
            panic!(
                "{} {w:?}: the verifier accepted a spoiled solution: {verdict:?}",
                P::NAME
            );
        };
        // The broken rule is found at a place, and the picture rings it (and only then).
        assert!(
            !broken.at.is_empty(),
            "{} {w:?}: the verifier names no place for '{}'",
            P::NAME,
            broken.why
        );
        let red = quandary::render::svg::BROKEN;
        assert!(P::svg(&i, &o, &s, &broken.at).contains(red), "{}", P::NAME);
        assert!(!P::svg(&i, &o, &s, &[]).contains(red), "{}", P::NAME);
        checked += 1;
    }
    assert!(checked > 0, "{}: no small instance had a solution", P::NAME);
}

/// The page and Python send a puzzle's options as one JSON object keyed by flag name (a
/// switch `true`, any other value as the command line writes it), the command line as flags:
/// every flag the command line offers, with each of its values (a choice's every value, a
/// free one's samples), reads the same both ways, or fails both ways.
fn flags_and_json_agree<P: Puzzle>()
where
    P::Options: std::fmt::Debug,
{
    let cmd =
        <P::Options as clap::Args>::augment_args(clap::Command::new(P::NAME)).no_binary_name(true);
    let samples = [
        "2",
        "10",
        "Q4R4",
        "1,1=hole",
        "2,3=4 1,1=2",
        "1/2",
        "default,sat",
        "x",
    ];
    let (mut flags, mut agreed) = (0, 0);
    for a in cmd.get_arguments() {
        let Some(long) = a.get_long() else { continue };
        flags += 1;
        let switch = matches!(a.get_action(), clap::ArgAction::SetTrue);
        let choices: Vec<String> = a
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_string())
            .collect();
        let values: Vec<Option<String>> = match (switch, choices.is_empty()) {
            (true, _) => vec![None],
            (false, false) => choices.into_iter().map(Some).collect(),
            (false, true) => samples.iter().map(|s| Some(s.to_string())).collect(),
        };
        let mut read = 0;
        for value in values {
            let mut args = vec![format!("--{long}")];
            let mut json = serde_json::Map::new();
            match &value {
                None => {
                    json.insert(long.to_string(), Value::Bool(true));
                }
                Some(v) => {
                    args.push(v.clone());
                    json.insert(long.to_string(), Value::String(v.clone()));
                }
            }
            let json = Value::Object(json);
            let from_flags = cmd
                .clone()
                .try_get_matches_from(&args)
                .map_err(|e| e.to_string())
                .and_then(|m| {
                    <P::Options as clap::FromArgMatches>::from_arg_matches(&m)
                        .map_err(|e| e.to_string())
                });
            let from_json = options::<P>(OptionsIn::Json(&json)).map_err(|e| e.to_string());
            match (from_flags, from_json) {
                (Ok(f), Ok(j)) => {
                    assert_eq!(format!("{f:?}"), format!("{j:?}"), "{} {args:?}", P::NAME);
                    read += 1;
                }
                (Err(_), Err(_)) => {}
                (f, j) => panic!("{} {args:?}: as flags {f:?}, as JSON {j:?}", P::NAME),
            }
        }
        agreed += usize::from(read > 0);
    }
    // Every flag has a value both read (else the samples missed it, and it went unchecked).
    assert_eq!(
        agreed,
        flags,
        "{}: flags with no value read both ways",
        P::NAME
    );
    // No flag at all: the command line's defaults are the JSON's (the command line sends only
    // the flags given, so a default of its own would be lost).
    let none = cmd
        .clone()
        .try_get_matches_from(Vec::<String>::new())
        .expect("no flags");
    let from_flags =
        <P::Options as clap::FromArgMatches>::from_arg_matches(&none).expect("defaults");
    let from_json = options::<P>(OptionsIn::Json(&json!({}))).expect("defaults");
    assert_eq!(
        format!("{from_flags:?}"),
        format!("{from_json:?}"),
        "{}: defaults",
        P::NAME
    );
}

macro_rules! conformance {
    ($module:ident, $p:ty, small: [$(($w:expr, $o:expr)),+ $(,)?], spoil: $spoil:expr) => {
        mod $module {
            use super::*;
            #[test]
            fn the_verifier_rejects_a_spoiled_solution() {
                rejects_spoiled::<$p>(&[$(($w, $o)),+], $spoil);
            }
            #[test]
            fn the_example_solves_and_verifies() {
                example_solves::<$p>();
            }
            #[test]
            fn count_unique_and_forced_agree_with_enumeration() {
                $(agree_with_enumeration::<$p>($w, &$o);)+
            }
            #[test]
            fn explanations_hold_in_every_solution() {
                $(super::explanations_hold_in_every_solution::<$p>($w, &$o);)+
            }
            #[test]
            fn model_files_are_written_and_read_back() {
                $(files_read_back::<$p>($w, &$o);)+
            }
            #[test]
            fn every_report_key_is_a_listed_field() {
                let cases: &[(&[&str], Value)] = &[$(($w, $o)),+];
                reports_carry_listed_fields::<$p>(cases[0].0, &cases[0].1);
            }
            #[test]
            fn the_board_is_written_back_as_it_was() {
                let drawn = [$(board_round_trip::<$p>($w, &$o)),+];
                assert!(drawn.contains(&true), "no small instance has a board to edit");
            }
            #[test]
            fn flags_and_json_give_equal_options() {
                flags_and_json_agree::<$p>();
            }
        }
    };
}

use quandary::puzzles::battleship::BattleshipPuzzle;
use quandary::puzzles::chess::ChessAvoidance;
use quandary::puzzles::gunport::GunportProblem;
use quandary::puzzles::tank::TankAttack;
use quandary::puzzles::tantrix::TantrixPuzzle;
use quandary::puzzles::template::LatinSquare;

conformance!(tank, TankAttack, small: [(&["3"], json!({})), (&["4"], json!({})), (&["5"], json!({}))],
    // A cell that says another number.
    spoil: |b| b[0][0] = b[0][0] % 4 + 1);
conformance!(gunport, GunportProblem, small: [
    (&["3", "3"], json!({})),
    (&["3", "4"], json!({"formulation": "cell"})),
    (&["4", "4"], json!({"formulation": "charge"})),
],
    // A domino taken away: its two cells become neighbouring holes.
    spoil: |p| { p.dominoes.pop(); });
conformance!(chess, ChessAvoidance, small: [
    (&["data/chess/friedman-b4n2.txt"], json!({})),
    (&["4"], json!({"army": "Q4"})),
    (&["3x4"], json!({"army": "B2N2", "formulation": "clique"})),
],
    // A copy of the first piece set on a square it reaches: the two attack each other.
    spoil: |s| {
        let k = s.pieces.iter().position(Option::is_some).expect("a piece");
        let piece = s.pieces[k].expect("a piece");
        let board = quandary::puzzles::chess::Board::parse(&s.rows.join("\n")).expect("a board");
        let t = quandary::puzzles::chess::reach(&board, piece, k, false)[0];
        s.pieces[t] = Some(piece);
    });
conformance!(battleship, BattleshipPuzzle, small: [
    (&[quandary::puzzles::battleship::puzzle::EXAMPLE_URL], json!({})),
    (&["data/battleship/sb_12_12_6_0.dzn"], json!({"formulation": "cell"})),
    (&["data/battleship/sb_12_12_6_0.dzn"], json!({})),
],
    // A submarine set diagonally beside the first ship's first cell: ships touch.
    spoil: |l| {
        let (r, c) = (l.ships[0].row, l.ships[0].col);
        let row = if r + 1 < l.rows { r + 1 } else { r - 1 };
        let col = if c + 1 < l.cols { c + 1 } else { c - 1 };
        l.ships.push(quandary::puzzles::battleship::Ship { row, col, len: 1, horizontal: true });
    });
conformance!(tantrix, TantrixPuzzle, small: [
    (&["data/tantrix/boards/discovery-05.txt"], json!({})),
    (&[], json!({"challenge": 5, "colour": "red"})),
    (&[], json!({"challenge": 4, "colour": "yellow"})),
],
    // A tile turned by one side: its colours no longer match its neighbours'.
    spoil: |s| s.placed[0].rot = (s.placed[0].rot + 1) % 6);
conformance!(template, LatinSquare, small: [
    (&["3"], json!({})),
    (&["4", "1000", "0200", "0030", "0004"], json!({})),
    (&["2", "11", "00"], json!({})),
],
    // A cell that repeats its neighbour's symbol.
    spoil: |sq| sq[0][0] = sq[0][1]);

#[test]
fn latin_square_counts_are_the_published_ones() {
    // OEIS A002860: 1, 2, 12, 576 Latin squares of orders 1 to 4.
    for (n, want) in [(1, 1u128), (2, 2), (3, 12), (4, 576)] {
        let (i, o) = read::<LatinSquare>(&[&n.to_string()], &json!({}));
        let out = run::<LatinSquare>(&i, &o, Query::Count { cap: None }, &Limits::none()).unwrap();
        assert_eq!(out.count, Some(want), "order {n}");
    }
}

/// The template's objective through the runner: the largest diagonal sum is n² (a cyclic square
/// shifted to hold n on its diagonal), and with 1 given in the corner of an order-3 square it
/// is 6: 7 would need 3 at (2, 2) and (3, 3), leaving row 1 no place for its 3 (worked by hand).
/// Every optimal square passes the verifier; `reach` past the optimum is refuted.
#[test]
fn the_templates_objective_is_optimised_by_the_runner() {
    for (words, best) in [
        (&["4"][..], 16),
        (&["5"][..], 25),
        (&["3", "100", "000", "000"][..], 6),
    ] {
        let (i, o) = read::<LatinSquare>(words, &json!({"diagonal": true}));
        let out = run::<LatinSquare>(&i, &o, Query::Optimum, &Limits::none()).unwrap();
        assert_eq!(
            (out.status, out.objective),
            (Status::Optimal, Some(best)),
            "{words:?}"
        );
        let square = &out.solutions[0];
        assert!(LatinSquare::verify(&i, square).is_ok());
        let trace: usize = (0..square.len()).map(|d| square[d][d]).sum();
        assert_eq!(trace as i64, best, "{words:?}: {square:?}");
        let more = run::<LatinSquare>(&i, &o, Query::AtLeast(best + 1), &Limits::none()).unwrap();
        assert_eq!(more.status, Status::Infeasible, "{words:?}");
    }
}

#[test]
fn forced_cells_of_a_unique_puzzle_are_its_solution() {
    // The seed's chess puzzle has one placement: forced shows every piece of it.
    let (i, o) = read::<ChessAvoidance>(&["data/chess/friedman-b4n2.txt"], &json!({}));
    let out = run::<ChessAvoidance>(&i, &o, Query::Forced, &Limits::none()).unwrap();
    let set = out.facts.forced.unwrap();
    let mut pieces: Vec<(usize, usize, String)> = set
        .forced
        .iter()
        .filter(|f| f.value)
        .map(|f| match f.meaning.place {
            Place::Cell(r, c) => (r, c, f.meaning.says.clone()),
            Place::Hex(..) => unreachable!(),
        })
        .collect();
    pieces.sort();
    let rows = ["#B.##", "....B", "BNB.N"];
    let mut want = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch.is_ascii_uppercase() {
                want.push((r, c, ch.to_string()));
            }
        }
    }
    assert_eq!(pieces, want);
}

// --- The command-line contract, for every registered puzzle -------------------------------

use common::{one_json, quandary};

/// `solve` on the example: exit 0, one JSON object with the common fields.
fn cli_example(name: &str) {
    let e = quandary::runner::registry::find(name).unwrap();
    let mut args = vec![name, "solve"];
    args.extend(e.example());
    args.push("--json");
    let (code, stdout, stderr, _) = quandary(&args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    let v = one_json(&stdout);
    assert_eq!(v["puzzle"], name);
    assert!(v["status"] == "solved" || v["status"] == "optimal", "{v}");
    assert!(v["solution"].is_object() || v["solution"].is_array(), "{v}");
    assert!(v["stats"]["seconds"].is_f64() && v["stats"]["method"].is_string());
    assert!(v["instance"].is_string() && v["summary"].is_string());
}

/// Every generic verb on an instance under a time limit that must stop it: exit 1,
/// status "unknown", one JSON object, and the run ends within the limit (+10%, +0.5 s).
fn cli_limit(name: &str, hard: &[&str]) {
    let e = quandary::runner::registry::find(name).unwrap();
    // Every generic verb the registry lists, explain included (model has a test of its own).
    let verbs: Vec<&str> = e.verbs().into_iter().filter(|v| *v != "model").collect();
    assert!(verbs.contains(&"explain"), "{verbs:?}");
    // No time at all: every search must stop at once, whatever the instance; the instances
    // are ones whose model is built well within the half second allowed, by the run's own
    // clock (the wall clock is only a coarse bound: other tests share the two cores).
    let limit = 0.0;
    for verb in verbs {
        let mut args = vec![name, verb];
        args.extend(hard);
        if verb == "reach" {
            args.extend(["--at-least", "1"]);
        }
        common::stopped_by_its_own_clock(&args, limit);
    }
}

macro_rules! cli_contract {
    ($module:ident, $name:expr, hard: [$($w:expr),+]) => {
        mod $module {
            #[test]
            fn the_example_answers_in_one_json_object() {
                crate::cli_example($name);
            }
            #[test]
            fn every_generic_verb_stops_at_the_limit_with_exit_1() {
                crate::cli_limit($name, &[$($w),+]);
            }
        }
    };
}

mod cli {
    cli_contract!(tank, "tank", hard: ["10"]);
    // The transfer-matrix count has no deadline (boards up to 14 wide): a wider board.
    cli_contract!(gunport, "gunport", hard: ["16", "16"]);
    // The exact counter has no deadline: the SAT count is the one a limit must stop.
    cli_contract!(chess, "chess", hard: ["12", "--army", "Q10", "--type", "Q", "--sat"]);
    cli_contract!(battleship, "battleship", hard: ["data/battleship/generated-30x20-seed3.txt"]);
    cli_contract!(tantrix, "tantrix", hard: ["data/tantrix/boards/free-50.txt"]);
}

#[test]
fn generate_under_a_limit_exits_1_and_a_verifier_rejection_exits_3() {
    let (code, stdout, stderr, _) = quandary(&[
        "battleship",
        "generate",
        "--rows",
        "30",
        "--cols",
        "20",
        "--fleet",
        "23 29 12 9 7",
        "--time-limit",
        "1",
        "--json",
    ]);
    assert_eq!(code, 1, "{stdout} {stderr}");
    assert_eq!(one_json(&stdout)["status"], "unknown");
    // Eq. (6) as printed admits layouts that break the rules: counting with it makes the
    // verifier reject a solver answer, an internal error (exit 3), never "bad input".
    let (code, _, stderr, _) = quandary(&[
        "battleship",
        "count",
        "data/battleship/sb_12_12_6_0.dzn",
        "--formulation",
        "cell-printed",
    ]);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains("verifier rejects") && stderr.contains("as printed"),
        "{stderr}"
    );
}
