//! Chess avoidance: the seed's board and its maxima, classic counts and maxima, counter vs
//! model cross-checks, the verifier and bad input.

mod common;

use quandary::puzzles::chess::{self, count, verify, Aim, Army, Board, Formulation, Piece};
use quandary::solve::search::{Search, Status};

const SEED_BOARD: &str = "; seed chapter 60, Figure 60.1\n#..##\n.....\n.....\n";

fn seed() -> Board {
    Board::parse(SEED_BOARD).unwrap()
}

fn sat_count(
    board: &Board,
    army: Army,
    f: Formulation,
    holes_block: bool,
) -> (u64, Vec<Vec<Option<Piece>>>) {
    let cm = board.formulate(Aim::Exactly(army), f, holes_block);
    let mut s = Search::new(quandary::solve::default_backend(&cm.model), None);
    let mut found = Vec::new();
    let (status, n) = s.enumerate(&cm.decisions(), &[], None, |a| {
        let p = cm.decode(a);
        verify(board, &p, holes_block).unwrap();
        found.push(p);
        true
    });
    assert_eq!(status, Status::Solved);
    (n, found)
}

fn maximum(board: &Board, extra: Option<Piece>) -> i64 {
    let cm = board.formulate(
        Aim::Maximise {
            base: Army::default(),
            extra,
        },
        Formulation::Pairwise,
        false,
    );
    let obj = cm.model.objective.clone().unwrap();
    let mut s = Search::new(quandary::solve::default_backend(&cm.model), None);
    let (status, best) = s.optimise(|a| obj.value(a), true, None, 1);
    assert_eq!(status, Status::Optimal);
    let (v, a) = best.unwrap();
    verify(board, &cm.decode(&a), false).unwrap();
    v
}

#[test]
fn the_seeds_puzzle_has_exactly_the_published_placement() {
    let b = seed();
    let army = Army::parse("B4N2").unwrap();
    for f in [
        Formulation::Pairwise,
        Formulation::Bigm,
        Formulation::Clique,
    ] {
        let (n, found) = sat_count(&b, army, f, false);
        assert_eq!(n, 1, "{f:?}");
        // A bishop on the upper square and on the right of the middle row; along the bottom a
        // bishop, a knight, a bishop, a gap, a knight.
        let rows = b.rows_with(&found[0]);
        assert_eq!(rows[2], "BNB.N");
        assert_eq!(rows[1].chars().filter(|&c| c == 'B').count(), 1);
        assert!(rows[1].ends_with('B') || rows[1].contains('B'));
        assert_eq!(
            rows[0].matches('B').count() + rows[1].matches('B').count(),
            2
        );
    }
    assert_eq!(count::count(&b, army, false), Some(1));
}

#[test]
fn the_seeds_maxima() {
    let b = seed();
    for (p, m) in [
        (Piece::Bishop, 6),
        (Piece::Knight, 6),
        (Piece::King, 4),
        (Piece::Queen, 3),
        (Piece::Rook, 3),
    ] {
        assert_eq!(maximum(&b, Some(p)), m, "{p:?}");
    }
    assert_eq!(maximum(&b, None), 7);
}

#[test]
fn queens_knights_bishops_kings_on_open_boards() {
    let b8 = Board::rectangle(8, 8);
    assert_eq!(
        count::count(&b8, Army::of(Piece::Queen, 8), false),
        Some(92)
    );
    assert_eq!(
        count::count(&Board::rectangle(10, 10), Army::of(Piece::Queen, 10), false),
        Some(724)
    );
    let (n, _) = sat_count(
        &Board::rectangle(6, 6),
        Army::of(Piece::Queen, 6),
        Formulation::Pairwise,
        false,
    );
    assert_eq!(n, 4);
    assert_eq!(maximum(&b8, Some(Piece::Knight)), 32);
    assert_eq!(maximum(&b8, Some(Piece::Bishop)), 14);
    assert_eq!(maximum(&b8, Some(Piece::King)), 16);
}

#[test]
fn counter_and_model_agree_on_mixed_armies_and_holes() {
    let boards = [
        seed(),
        Board::parse("..#..\n.....\n#...#\n.....\n").unwrap(),
        Board::rectangle(4, 5),
    ];
    for b in &boards {
        for army in ["B2N2", "QK2", "R2B", "N3K", "Q2N"] {
            let a = Army::parse(army).unwrap();
            for holes_block in [false, true] {
                let (n, _) = sat_count(b, a, Formulation::Pairwise, holes_block);
                assert_eq!(
                    count::count(b, a, holes_block),
                    Some(n),
                    "{army} {holes_block}"
                );
            }
        }
    }
}

#[test]
fn a_hole_blocks_a_line_only_when_asked() {
    let b = Board::parse("Q#Q\n").unwrap();
    assert!(b.attacks(Piece::Queen, 0, 2, false));
    assert!(!b.attacks(Piece::Queen, 0, 2, true));
    let placement = b.fixed.clone();
    assert!(verify(&b, &placement, false).is_err());
    assert!(verify(&b, &placement, true).is_ok());
}

#[test]
fn the_verifier_rejects_an_attacked_piece() {
    let b = Board::rectangle(3, 3);
    let mut p = vec![None; 9];
    p[0] = Some(Piece::Knight);
    // A knight on (0,0) and a bishop on (1,2), a knight's move away.
    p[5] = Some(Piece::Bishop);
    let why = verify(&b, &p, false).unwrap_err();
    assert!(why.contains("attacks"), "{why}");
    p[5] = None;
    // A rook on (2,2) instead: out of the knight's reach, and the knight is off its lines.
    p[8] = Some(Piece::Rook);
    assert!(verify(&b, &p, false).is_ok());
    // A bishop on (0,2) stands on the rook's file.
    p[2] = Some(Piece::Bishop);
    assert!(verify(&b, &p, false).is_err());
}

#[test]
fn bad_boards_and_armies_name_the_problem() {
    let e = Board::parse("...\n..\n").unwrap_err().to_string();
    assert!(e.contains("line 2"), "{e}");
    let e = Board::parse("..x\n").unwrap_err().to_string();
    assert!(e.contains("line 1") && e.contains("'x'"), "{e}");
    assert!(Board::parse("\n; only a comment\n").is_err());
    assert!(Army::parse("B4X2").is_err());
    assert!(Army::parse("").is_err());
    assert!(Army::parse("4B").is_err());
    assert!(Army::parse("Q99999999999999999999").is_err());
    assert_eq!(Army::parse("B4 N2").unwrap(), Army::parse("B4N2").unwrap());
    // Parsers never panic on short strings over a small alphabet.
    let alphabet = ['.', '#', 'Q', 'b', '\n', 'z', ' ', '9'];
    for a in alphabet {
        for b2 in alphabet {
            for c in alphabet {
                let s: String = [a, b2, c].iter().collect();
                let _ = Board::parse(&s);
                let _ = Army::parse(&s);
            }
        }
    }
    let _ = chess::MAX_CELLS;
}

/// The optimum of a peaceable-armies model by the runner's search, each army walked move by
/// move (chess::reach), not judged by the model.
fn peaceable_optimum(n: usize, piece: Piece, how: chess::PeaceModel) -> i64 {
    let (model, white, black) = chess::peaceable_model_by(n, piece, how);
    let obj = model.objective.clone().unwrap();
    let mut s = Search::new(quandary::solve::default_backend(&model), None);
    let (status, best) = s.optimise(|a| obj.value(a), true, None, 1);
    assert_eq!(status, Status::Optimal);
    let (v, a) = best.unwrap();
    let board = Board::rectangle(n, n);
    let whites: Vec<usize> = (0..n * n).filter(|&k| a[white[k].index()]).collect();
    let blacks: Vec<usize> = (0..n * n).filter(|&k| a[black[k].index()]).collect();
    assert_eq!(whites.len(), v as usize);
    // The colouring model holds every square its colours allow: black may have more.
    match how {
        chess::PeaceModel::Colouring => assert!(blacks.len() >= v as usize),
        _ => assert_eq!(blacks.len(), v as usize),
    }
    for &w in &whites {
        assert!(chess::reach(&board, piece, w, false)
            .iter()
            .all(|t| !blacks.contains(t)));
    }
    v
}

#[test]
fn peaceable_queens_match_oeis_a250000() {
    // A250000: 0, 0, 1, 2, 4, 5, 7, 9 for n = 1..8, by the pairwise model.
    for (n, m) in (1..=8).zip([0, 0, 1, 2, 4, 5, 7, 9]) {
        let v = peaceable_optimum(n, Piece::Queen, chess::PeaceModel::Pairwise);
        assert_eq!(v, m, "n = {n}");
    }
}

/// The line model (each row, column and diagonal owned by one colour) has the pairwise model's
/// optimum for every slider: A250000 for queens to n = 7, ⌊n²/4⌋ for rooks, and the bishops'
/// values, each army checked by walking the moves (chess::reach), not by either model.
#[test]
fn the_line_model_of_peaceable_armies_agrees_with_the_pairwise_one() {
    use chess::PeaceModel;
    let optimum = peaceable_optimum;
    for (n, m) in [(1, 0), (2, 0), (3, 1), (4, 2), (5, 4), (6, 5), (7, 7)] {
        assert_eq!(
            optimum(n, Piece::Queen, PeaceModel::Lines),
            m,
            "queens, n = {n}"
        );
    }
    // A250000 to n = 8 by the colouring model (a(8) = 9).
    for (n, m) in [
        (1, 0),
        (2, 0),
        (3, 1),
        (4, 2),
        (5, 4),
        (6, 5),
        (7, 7),
        (8, 9),
    ] {
        assert_eq!(
            optimum(n, Piece::Queen, PeaceModel::Colouring),
            m,
            "queens by colouring, n = {n}"
        );
    }
    for n in 2..=6 {
        for how in [PeaceModel::Lines, PeaceModel::Colouring] {
            assert_eq!(
                optimum(n, Piece::Rook, how),
                (n * n / 4) as i64,
                "rooks, n = {n}, {how:?}"
            );
            assert_eq!(
                optimum(n, Piece::Bishop, how),
                optimum(n, Piece::Bishop, PeaceModel::Pairwise),
                "bishops, n = {n}, {how:?}"
            );
        }
    }
    // The line model's rows: 4·n² implications and n² square rows for queens, against the
    // pairwise model's row per attacking pair.
    let (lines, _, _) = chess::peaceable_model_by(10, Piece::Queen, PeaceModel::Lines);
    let (pairs, _, _) = chess::peaceable_model_by(10, Piece::Queen, PeaceModel::Pairwise);
    assert!(lines.constraints.len() * 3 < pairs.constraints.len());
}

#[test]
fn pieces_are_drawn_as_shapes_needing_no_font() {
    let b = seed();
    let army = Army::parse("B4N2").unwrap();
    let cm = b.formulate(Aim::Exactly(army), Formulation::Pairwise, false);
    let mut s = Search::new(quandary::solve::default_backend(&cm.model), None);
    let (status, a) = s.first();
    assert_eq!(status, Status::Solved);
    let svg = quandary::puzzles::chess::to_svg(&b, &cm.decode(&a.unwrap()), &[]);
    let paths = svg.matches("<path").count();
    assert_eq!(paths, 6, "one shape per piece: {svg}");
    assert_eq!(svg.matches("<title>bishop</title>").count(), 4);
    assert_eq!(svg.matches("<title>knight</title>").count(), 2);
    assert!(!svg.contains("<text"), "no piece depends on a font");
}

/// `chess peaceable` stopped by its limit says what stopped it, as the generic verbs do: in
/// `stats.stopped_by` and the headline, and a found m is not called the largest (it said
/// neither, and gave "m = 14" as if proved).
#[test]
fn a_stopped_peaceable_run_says_what_stopped_it() {
    let (code, out, _, _) =
        common::quandary(&["chess", "peaceable", "10", "--time-limit", "1", "--json"]);
    assert_eq!(code, 1, "{out}");
    let v = common::one_json(&out);
    assert_eq!(v["status"], "unknown", "{v}");
    assert_eq!(v["stats"]["stopped_by"], "the time limit", "{v}");
    let (_, text, _, _) = common::quandary(&["chess", "peaceable", "10", "--time-limit", "1"]);
    let headline = text.lines().next().unwrap_or_default();
    assert!(headline.contains("stopped by the time limit"), "{headline}");
    assert!(
        !headline.contains("m =") || headline.contains("not proved"),
        "{headline}"
    );
}

/// The default method (ascending questions on the colouring model, 16 symmetries broken)
/// proves A250000 to n = 8 from the command line: each "m >= k?" answered, the last a no, the
/// board shown passes the verifier's walk of the moves.
#[test]
fn peaceable_by_ascending_questions_proves_a250000_to_8() {
    let a250000 = [0, 0, 1, 2, 4, 5, 7, 9];
    for (n, m) in (1..=8).zip(a250000) {
        let (code, out, err, _) =
            common::quandary(&["chess", "peaceable", &n.to_string(), "--json"]);
        assert_eq!(code, 0, "{out} {err}");
        let v = common::one_json(&out);
        let found = (v["status"].as_str(), v["objective"].as_i64());
        assert_eq!(found, (Some("optimal"), Some(m)), "n = {n}");
        let rows: Vec<String> = serde_json::from_value(v["solution"]["rows"].clone()).unwrap();
        let s = chess::PeaceableSolution { rows };
        let checked = chess::verify_peaceable(Piece::Queen, &s);
        assert_eq!(checked, Ok(m as usize), "n = {n}");
        if n == 1 {
            // A board with no line of two squares: the optimum model answers it.
            continue;
        }
        let asked = v["details"]["asked"].as_array().expect("the questions");
        let last = asked.last().expect("one question at least");
        let said = (last["at_least"].as_i64(), last["answer"].as_str());
        assert_eq!(said, (Some(m + 1), Some("no")), "n = {n}");
    }
}

/// `peaceable N --count` counts the optimal placements, all and up to the 16 symmetries:
/// A260680 (1, 1, 1, 10, 3, 35, 19, 71 for n = 1..8), and for n ≤ 4 the full count equals a
/// brute force over every placement of m white and m black queens, walked move by move.
#[test]
fn peaceable_optima_are_counted_as_a260680() {
    let a260680 = [1, 1, 1, 10, 3, 35, 19, 71];
    for (n, classes) in (1..=8).zip(a260680) {
        let (code, out, err, _) =
            common::quandary(&["chess", "peaceable", &n.to_string(), "--count", "--json"]);
        assert_eq!(code, 0, "{out} {err}");
        let v = common::one_json(&out);
        assert_eq!(v["classes"], classes, "n = {n}: {v}");
        let all = v["count"].as_u64().expect("a count");
        if n <= 4 {
            let m = v["objective"].as_u64().unwrap() as usize;
            assert_eq!(all, brute_force_placements(n, m), "n = {n}");
        }
        // Each class has at most 16 placements.
        assert!(
            all <= 16 * classes as u64 && all >= classes as u64,
            "n = {n}: {all}"
        );
    }
}

/// Counting one placement a class (the 16 symmetries broken by lex-leader rows over the
/// squares, each placement met standing for its class's size) gives the count and the classes
/// that enumerating every placement gives (each named by its least image): queens on 5×5 to
/// 7×7, knights on 4×4 and 5×5 (the pairwise model).
#[test]
fn counting_one_placement_a_class_agrees_with_counting_them_all() {
    use quandary::runner::{drive, Limits, Query};
    for (piece, n, m) in [
        (Piece::Queen, 5, 4),
        (Piece::Queen, 6, 5),
        (Piece::Queen, 7, 7),
        (Piece::Knight, 4, 6),
        (Piece::Knight, 5, 10),
    ] {
        let count = |one_per_class| {
            let f = chess::peaceable_exactly(n, piece, m, one_per_class);
            let o = drive(f, Query::Count { cap: None }, &Limits::none(), false).expect("a count");
            (o.facts.count, o.facts.classes)
        };
        let (all, classes) = count(false);
        assert!(all.is_some() && classes.is_some(), "{piece:?} {n}");
        assert_eq!(count(true), (all, classes), "{piece:?} on {n}×{n}");
    }
    // Stopped early (a cap of 3 classes on 6×6's 35): 3 classes met, and the placements they
    // stand for, at least 3 and at most 48.
    let f = chess::peaceable_exactly(6, Piece::Queen, 5, true);
    let o = drive(f, Query::Count { cap: Some(3) }, &Limits::none(), false).expect("a count");
    assert_eq!((o.facts.count, o.facts.classes), (None, None));
    assert_eq!(o.facts.classes_at_least, Some(3));
    let met = o.facts.count_at_least.expect("a lower bound");
    assert!((3..=48).contains(&met), "{met}");
}

/// Placements of m white and m black queens on n×n with no queen attacking one of the other
/// colour, by trying every pair of square sets (the verifier's walk judges each).
fn brute_force_placements(n: usize, m: usize) -> u64 {
    let cells = n * n;
    let subsets = |k: usize| -> Vec<u64> {
        (0u64..1 << cells)
            .filter(|s| s.count_ones() as usize == k)
            .collect()
    };
    let mut count = 0;
    for w in subsets(m) {
        for b in subsets(m) {
            if w & b != 0 {
                continue;
            }
            let rows: Vec<String> = (0..n)
                .map(|r| {
                    (0..n)
                        .map(|c| match (w >> (r * n + c) & 1, b >> (r * n + c) & 1) {
                            (1, _) => 'W',
                            (_, 1) => 'B',
                            _ => '.',
                        })
                        .collect()
                })
                .collect();
            let s = chess::PeaceableSolution { rows };
            if chess::verify_peaceable(Piece::Queen, &s).is_ok() {
                count += 1;
            }
        }
    }
    count
}

/// data/chess/peaceable.csv: every row's board passes the verifier of its piece and number of
/// armies with the row's m, and the values are OEIS's where published: A250000 (two armies of
/// queens), A260680 (where counted), A328283 (three), A306954 (k armies; T(6,4) excepted),
/// A355509 (two armies of knights).
#[test]
fn the_peaceable_data_file_holds_its_boards_and_the_published_values() {
    let a250000 = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24, 28, 32];
    let a260680 = [1, 1, 1, 10, 3, 35, 19, 71, 18, 380];
    let a328283 = [0, 0, 0, 1, 1, 2, 3, 4, 5, 7, 8, 10, 12, 14];
    let a355509 = [0, 2, 3, 6, 10, 14, 18, 24, 32, 40, 50, 60];
    let a306954: [&[usize]; 7] = [
        &[1],
        &[4, 0],
        &[9, 1, 0],
        &[16, 2, 1, 1],
        &[25, 4, 1, 1, 1],
        &[36, 5, 2, 1, 1, 1],
        &[49, 7],
    ];
    let text = std::fs::read_to_string("data/chess/peaceable.csv").expect("the data file");
    let mut lines = text.lines();
    // Fields split at commas outside double quotes (the method names have commas).
    let fields = |line: &str| -> Vec<String> {
        let (mut out, mut field, mut quoted) = (Vec::new(), String::new(), false);
        for c in line.chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => out.push(std::mem::take(&mut field)),
                c => field.push(c),
            }
        }
        out.push(field);
        out
    };
    let header = fields(lines.next().expect("a header"));
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let mut rows = 0;
    for line in lines {
        let f = fields(line);
        let f: Vec<&str> = f.iter().map(String::as_str).collect();
        let n: usize = f[col("n")].parse().unwrap();
        let m: usize = f[col("m")].parse().unwrap();
        let armies: usize = f[col("armies")].parse().unwrap();
        let piece: Piece = serde_json::from_value(serde_json::json!(f[col("piece")])).unwrap();
        match (piece, armies) {
            (Piece::Queen, 2) => assert_eq!(m, a250000[n - 1], "n = {n}"),
            (Piece::Queen, 3) => assert_eq!(m, a328283[n - 1], "n = {n}"),
            (Piece::Queen, k) => {
                // A306954's published terms, but T(6,4) = 2 (see the armies test above).
                let published = a306954.get(n - 1).and_then(|row| row.get(k - 1));
                match (n, k, published) {
                    (6, 4, _) => assert_eq!(m, 2),
                    (_, _, Some(&q)) => assert_eq!(m, q, "T({n},{k})"),
                    _ => assert!(f[col("published")].starts_with("not found") || k == n),
                }
            }
            (Piece::Knight, 2) => assert_eq!(m, a355509[n - 1], "knights, n = {n}"),
            _ => {}
        }
        if let Ok(classes) = f[col("optima_up_to_symmetry")].parse::<u64>() {
            assert_eq!((piece, armies), (Piece::Queen, 2));
            assert_eq!(classes, a260680[n - 1], "n = {n}");
        }
        let board = std::fs::read_to_string(format!("data/chess/{}", f[col("board")])).unwrap();
        let rows_of: Vec<String> = board
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect();
        assert_eq!(rows_of.len(), n, "n = {n}");
        let s = chess::PeaceableSolution { rows: rows_of };
        assert_eq!(chess::verify_armies(piece, armies, &s), Ok(m), "{line}");
        rows += 1;
    }
    assert!(rows >= 30, "{rows} rows");
}

/// Peaceable knights (the k-army model with two armies, ascending; knights have no lines): 18 a
/// side on 7×7, proved, as A355509's closed form ⌊(n − 1)²/2⌋ for n > 6 says (OEIS states it
/// without proof).
#[test]
fn peaceable_knights_on_7_by_7_are_18_a_side() {
    let (code, out, err, _) =
        common::quandary(&["chess", "peaceable", "7", "--type", "N", "--json"]);
    assert_eq!(code, 0, "{out} {err}");
    let v = common::one_json(&out);
    assert_eq!(
        (v["status"].as_str(), v["objective"].as_i64()),
        (Some("optimal"), Some(18))
    );
    let rows: Vec<String> = serde_json::from_value(v["solution"]["rows"].clone()).unwrap();
    let s = chess::PeaceableSolution { rows };
    assert_eq!(chess::verify_peaceable(Piece::Knight, &s), Ok(18));
}

/// The cubes a hard question "m >= k?" is split into (white rows a, white columns b, every
/// pair from 0 to n) answer it as the whole does: on 6×6 some cube has armies of 5 and every
/// cube refutes 6, as the whole model does; every board a cube gives passes the verifier.
#[test]
fn the_cubes_of_a_peaceable_question_answer_it_as_the_whole_does() {
    let n = 6;
    let solve = |f: quandary::puzzles::Formulated<'_, chess::PeaceableSolution>| {
        let mut s = Search::new(quandary::solve::default_backend(&f.model), None);
        let (status, a) = s.first();
        (status, a.map(|a| (f.decode)(&a)))
    };
    for (k, whole) in [(5, Status::Solved), (6, Status::Infeasible)] {
        assert_eq!(
            solve(chess::peaceable_k(n, Piece::Queen, k).unwrap()).0,
            whole
        );
        let mut yes = 0;
        for a in 0..=n {
            for b in 0..=n {
                let f = chess::peaceable_k_cube(n, Piece::Queen, k, (a, b)).unwrap();
                if let (Status::Solved, Some(s)) = solve(f) {
                    assert!(s.size() >= k);
                    assert_eq!(chess::verify_peaceable(Piece::Queen, &s), Ok(s.size()));
                    yes += 1;
                }
            }
        }
        assert_eq!(
            yes > 0,
            whole == Status::Solved,
            "k = {k}: {yes} cubes answer yes"
        );
    }
    assert!(chess::peaceable_k_cube(n, Piece::Bishop, 3, (0, 0)).is_none());
}

/// `chess peaceable N --armies K` from the command line: status, the largest m, and the board
/// checked by the verifier's walk of the moves.
fn armies_optimum(n: usize, k: usize, piece: &str) -> usize {
    let (code, out, err, _) = common::quandary(&[
        "chess",
        "peaceable",
        &n.to_string(),
        "--armies",
        &k.to_string(),
        "--type",
        piece,
        "--json",
    ]);
    assert_eq!(code, 0, "{n} {k}: {out} {err}");
    let v = common::one_json(&out);
    assert_eq!(v["status"], "optimal", "{n} {k}: {v}");
    let m = v["objective"].as_u64().unwrap() as usize;
    let rows: Vec<String> = serde_json::from_value(v["solution"]["rows"].clone()).unwrap();
    let s = chess::PeaceableSolution { rows };
    let piece: Piece = serde_json::from_value(serde_json::json!(piece)).unwrap();
    assert_eq!(chess::verify_armies(piece, k, &s), Ok(m), "{n} {k}: {s:?}");
    m
}

/// Whether `k` armies of `q` queens each coexist on an n×n board, no queen attacking one of
/// another army, by brute force written apart from the model: the armies placed one by one,
/// each on squares no earlier army's queen reaches, the armies ordered by their first square.
fn armies_coexist_by_brute_force(n: usize, k: usize, q: usize) -> bool {
    let reaches = |a: usize, b: usize| {
        let (ra, ca, rb, cb) = (
            (a / n) as i64,
            (a % n) as i64,
            (b / n) as i64,
            (b % n) as i64,
        );
        a != b && (ra == rb || ca == cb || ra - ca == rb - cb || ra + ca == rb + cb)
    };
    let reach: Vec<u64> = (0..n * n)
        .map(|a| {
            (0..n * n)
                .filter(|&b| reaches(a, b))
                .fold(0, |m, b| m | 1 << b)
        })
        .collect();
    // Places army `army` (its pieces from square `from`, `left` still to place) avoiding
    // `banned` (squares held or reached by earlier armies), with `mine` its squares so far.
    fn place(
        n: usize,
        reach: &[u64],
        (k, q): (usize, usize),
        (army, left, from): (usize, usize, usize),
        banned: u64,
        mine: u64,
    ) -> bool {
        if left == 0 {
            if army + 1 == k {
                return true;
            }
            let reached = (0..n * n)
                .filter(|&s| mine >> s & 1 == 1)
                .fold(mine, |b, s| b | reach[s]);
            // The next army's first square comes after this army's first.
            let first = mine.trailing_zeros() as usize + 1;
            return place(n, reach, (k, q), (army + 1, q, first), banned | reached, 0);
        }
        (from..n * n).any(|s| {
            banned >> s & 1 == 0
                && place(
                    n,
                    reach,
                    (k, q),
                    (army, left - 1, s + 1),
                    banned,
                    mine | 1 << s,
                )
        })
    }
    place(n, &reach, (k, q), (0, q, 0), 0, 0)
}

/// `--armies K` reproduces the terms OEIS A306954 publishes (rows n = 1..6 and T(7,1),
/// T(7,2): the largest q such that k armies of q queens coexist), but one: T(6,4), which the
/// entry gives as 1, is 2 — the model proves it, its board passes the verifier, and a brute
/// force written apart finds 4 armies of 2 on 6×6 and refutes 4 armies of 3. The same brute
/// force confirms T(5,3) = 1 (the entry's value), so the entry's comment that T(k + p, k) does
/// not increase with k fails at p = 2: T(5,3) = 1 < T(6,4) = 2.
#[test]
fn k_peaceable_armies_reproduce_a306954_but_t_6_4_is_2() {
    let published = [
        vec![1],
        vec![4, 0],
        vec![9, 1, 0],
        vec![16, 2, 1, 1],
        vec![25, 4, 1, 1, 1],
        vec![36, 5, 2, 1, 1, 1],
        vec![49, 7],
    ];
    for (n, row) in (1..).zip(&published) {
        for (k, &q) in (1..).zip(row) {
            let got = armies_optimum(n, k, "Q");
            match (n, k) {
                (6, 4) => assert_eq!((q, got), (1, 2)),
                _ => assert_eq!(got, q, "T({n},{k})"),
            }
        }
    }
    assert!(armies_coexist_by_brute_force(6, 4, 2));
    assert!(!armies_coexist_by_brute_force(6, 4, 3));
    assert!(armies_coexist_by_brute_force(5, 3, 1));
    assert!(!armies_coexist_by_brute_force(5, 3, 2));
    // And the brute force agrees with the published 2 and 5 on 4×4 and 6×6 for two armies.
    assert!(armies_coexist_by_brute_force(4, 2, 2) && !armies_coexist_by_brute_force(4, 2, 3));
}

/// Three armies (OEIS A328283: 0, 0, 0, 1, 1, 2, 3 for n = 1..7) and the missing terms of
/// A306954 the model proves: T(7,4) = 2, T(8,4) = 3, T(8,5) = 2; knights and kings in three
/// armies are accepted too (their pairwise model), checked against the verifier.
#[test]
fn three_armies_match_a328283_and_the_missing_terms_are_proved() {
    for (n, q) in (1..=7).zip([0, 0, 0, 1, 1, 2, 3]) {
        assert_eq!(armies_optimum(n, 3, "Q"), q, "n = {n}");
    }
    assert_eq!(armies_optimum(7, 4, "Q"), 2);
    assert_eq!(armies_optimum(8, 4, "Q"), 3);
    assert_eq!(armies_optimum(8, 5, "Q"), 2);
    assert!(armies_optimum(5, 3, "N") >= 1);
    assert!(armies_optimum(5, 3, "K") >= 1);
}

/// A bad number of armies, and `--count` with other than two, are clear errors.
#[test]
fn a_bad_number_of_armies_is_a_clear_error() {
    for (args, says) in [
        (
            &["chess", "peaceable", "6", "--armies", "0"][..],
            "from 1 to 10",
        ),
        (
            &["chess", "peaceable", "6", "--armies", "11"][..],
            "from 1 to 10",
        ),
        (
            &["chess", "peaceable", "6", "--armies", "3", "--count"][..],
            "two armies",
        ),
    ] {
        let (code, out, err, _) = common::quandary(args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// The verifier of k armies rejects a board where a piece attacks one of another army, and
/// armies of unequal size.
#[test]
fn the_armies_verifier_rejects_an_attack_and_unequal_armies() {
    let board = |rows: &[&str]| chess::PeaceableSolution {
        rows: rows.iter().map(|r| r.to_string()).collect(),
    };
    let attack = chess::verify_armies(Piece::Queen, 3, &board(&["W..", "...", "R.B"]));
    assert!(attack.unwrap_err().contains("attacks"));
    let unequal = chess::verify_armies(Piece::Queen, 3, &board(&["W.W", "...", ".R."]));
    assert!(unequal.unwrap_err().contains("army"));
    // W and B are a knight's move apart, as are W and R; B and R share a diagonal.
    assert_eq!(
        chess::verify_armies(Piece::Queen, 3, &board(&["W..", "..B", ".R."])),
        Err("the piece of army B on square 5 attacks the one of army R on 7".into())
    );
    assert_eq!(
        chess::verify_armies(Piece::Knight, 3, &board(&["W..", "..B", ".R."])),
        Err("the piece of army W on square 0 attacks the one of army B on 5".into())
    );
    assert_eq!(
        chess::verify_armies(Piece::Queen, 3, &board(&["W..", "..R", ".B."])),
        Err("the piece of army R on square 5 attacks the one of army B on 7".into())
    );
}

/// One question asked whole (`--at-least`) and in parts (`--part P/M`, its cubes P, P + M, ...)
/// through `quandary jobs`, `batch` and `merge`: on 7×7 "m >= 8?" is refuted by the four parts
/// together and "m >= 7?" answered yes, as the whole question is.
#[test]
fn a_peaceable_question_split_into_parts_merges_to_the_whole_answer() {
    let dir = std::env::temp_dir().join(format!("quandary-peaceable-parts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (k, whole) in [("8", "infeasible"), ("7", "solved")] {
        let (code, out, err, _) =
            common::quandary(&["chess", "peaceable", "7", "--at-least", k, "--json"]);
        assert!(code == 0 || code == 1, "{out} {err}");
        assert_eq!(common::one_json(&out)["status"], whole, "{out}");
        let jobs = dir.join(format!("p{k}.jsonl"));
        let jobs = jobs.to_str().unwrap();
        let results = jobs.replace(".jsonl", ".results.jsonl");
        let parts = [
            "chess",
            "peaceable",
            "7",
            "--at-least",
            k,
            "--part",
            "1..4/4",
        ];
        let mut args = vec!["jobs", "-o", jobs];
        args.extend(parts);
        let (code, _, err, _) = common::quandary(&args);
        assert_eq!(code, 0, "{err}");
        let (code, _, err, _) = common::quandary(&["batch", jobs, "--jobs", "2"]);
        assert!(code == 0 || code == 1, "{err}");
        let (code, out, err, _) = common::quandary(&["merge", &results, "--json"]);
        assert!(code == 0 || code == 1, "{out} {err}");
        let merged = common::one_json(&out);
        let merged = merged["answers"][0].clone();
        assert_eq!(merged["status"], whole, "{merged}");
        assert!(
            merged["text"]
                .as_str()
                .unwrap_or_default()
                .contains("4 parts covering the whole space"),
            "{merged}"
        );
    }
    // A part of a question the cubes cannot split, and a part without a question, are errors.
    for (args, says) in [
        (
            &[
                "chess",
                "peaceable",
                "7",
                "--at-least",
                "3",
                "--armies",
                "3",
                "--part",
                "1/2",
            ][..],
            "two armies",
        ),
        (
            &["chess", "peaceable", "7", "--part", "1/2"][..],
            "--at-least",
        ),
        (
            &[
                "chess",
                "peaceable",
                "7",
                "--at-least",
                "3",
                "--part",
                "3/2",
            ][..],
            "K/N",
        ),
    ] {
        let (code, _, err, _) = common::quandary(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
