//! Tank Attack: known answers from the seed (chapter 26) and cross-checks between the
//! integer program on SAT, the exact line search and the consistent search.

mod consistent;

use quandary::puzzles::tank::{
    self, exact, gac, verify, Board, Formulation, Method, Options, Symmetric, Tank, TankAttack,
};
use quandary::runner::{run, Limits, Query};
use quandary::solve::search::Status;
use std::collections::BTreeSet;

/// What a query found: status and count (inside the scope, for a restricted search) and the
/// boards returned (verified by the runner).
struct Found {
    status: Status,
    count: u64,
    boards: Vec<Board>,
}

fn find(t: &Tank, query: Query, o: Options) -> Found {
    let out = run::<TankAttack>(t, &o, query, &Limits::none()).unwrap();
    let (status, count) = match &out.in_scope {
        Some(s) => (s.status, s.count),
        None => (out.status, out.count),
    };
    let count = match (query, status) {
        (Query::Count { .. }, _) => count.expect("a complete count") as u64,
        (_, Status::Infeasible) => 0,
        _ => out.solutions.len() as u64,
    };
    Found {
        status,
        count,
        boards: out.solutions,
    }
}

fn options(method: Method, formulation: Formulation) -> Options {
    Options {
        method,
        formulation,
        ..Options::default()
    }
}

fn all_boards_exact(n: usize) -> BTreeSet<Board> {
    let mut out = BTreeSet::new();
    let found = exact::search(n, None, &[], |b| {
        out.insert(b.to_vec());
        true
    });
    let (count, complete) = (found.count, found.complete);
    assert!(complete);
    assert_eq!(found.first_rows, Some(found.first_rows_done));
    assert_eq!(count as usize, out.len(), "each board is reached once");
    out
}

fn all_boards_sat(n: usize, formulation: Formulation) -> BTreeSet<Board> {
    all_boards_sat_counted(n, formulation, false)
}

/// With `counted`, the strong model's attack and order rows are checked by counting during
/// search (as from `COUNTED_FROM` on) rather than encoded.
fn all_boards_sat_counted(n: usize, formulation: Formulation, counted: bool) -> BTreeSet<Board> {
    let t = Tank::new(n as i64).unwrap();
    let mut tm = t.formulate(formulation, false);
    if counted {
        tm.model.counted = vec!["attackers equal value", "order variables"];
    }
    let mut search =
        quandary::solve::search::Search::new(quandary::solve::default_backend(&tm.model), None);
    let mut out = BTreeSet::new();
    let (status, _) = search.enumerate(tm.decisions(), &[], None, |a| {
        out.insert(tm.decode(a));
        true
    });
    assert_eq!(status, Status::Solved);
    out
}

#[test]
fn sides_one_to_three_are_infeasible_by_every_method() {
    for n in 1..=3 {
        let t = Tank::new(n).unwrap();
        for f in [Formulation::Seed, Formulation::Strong] {
            for query in [Query::First, Query::Count { cap: None }] {
                let found = find(&t, query, options(Method::Sat, f));
                assert_eq!(found.status, Status::Infeasible, "n = {n}, {f:?}");
                assert_eq!(found.count, 0);
            }
        }
        if n >= 2 {
            let found = find(
                &t,
                Query::Count { cap: None },
                options(Method::Exact, Formulation::Strong),
            );
            assert_eq!((found.status, found.count), (Status::Infeasible, 0));
        }
    }
}

#[test]
fn four_by_four_has_exactly_one_board_all_twos() {
    let all_twos = vec![vec![2; 4]; 4];
    for f in [Formulation::Seed, Formulation::Strong] {
        assert_eq!(all_boards_sat(4, f), BTreeSet::from([all_twos.clone()]));
    }
    assert_eq!(all_boards_exact(4), BTreeSet::from([all_twos]));
    let t = Tank::new(4).unwrap();
    let found = find(&t, Query::Unique, Options::default());
    assert_eq!((found.status, found.count), (Status::Solved, 1));
}

#[test]
fn five_by_five_has_exactly_two_boards_contrary_to_chlond() {
    let exact = all_boards_exact(5);
    assert_eq!(exact.len(), 2);
    for f in [Formulation::Seed, Formulation::Strong] {
        assert_eq!(all_boards_sat(5, f), exact, "{f:?}");
    }
    assert_eq!(all_boards_sat_counted(5, Formulation::Strong, true), exact);
    // The seed's figure: the centre holds 4, attacked by the four 1s next to it.
    for b in &exact {
        assert_eq!(b[2][2], 4);
        assert_eq!((b[1][2], b[3][2], b[2][1], b[2][3]), (1, 1, 1, 1));
        verify(b, &[]).unwrap();
    }
    // The two are mirror images in the main diagonal (threes and fours swapped).
    let mut it = exact.iter();
    let (a, b) = (it.next().unwrap(), it.next().unwrap());
    let transposed: Board = (0..5).map(|i| (0..5).map(|j| a[j][i]).collect()).collect();
    assert_eq!(&transposed, b);
}

fn seed_six() -> Board {
    let mut b = vec![vec![2; 6]; 6];
    for (i, j) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
        b[i][j] = 4;
    }
    b
}

#[test]
fn the_seeds_six_by_six_board_verifies_and_satisfies_both_models() {
    let board = seed_six();
    verify(&board, &[]).unwrap();
    let t = Tank::new(6).unwrap();
    for f in [Formulation::Seed, Formulation::Strong] {
        let tm = t.formulate(f, false);
        // Find the model's assignment for this board by fixing the x variables and solving.
        let mut model = tm.model.clone();
        for (i, row) in board.iter().enumerate() {
            for (j, &value) in row.iter().enumerate() {
                let v = tm.x(i, j, value as usize);
                model.add("fix", vec![(1, v.pos())], quandary::model::Sense::Eq, 1);
            }
        }
        let mut s =
            quandary::solve::search::Search::new(quandary::solve::default_backend(&model), None);
        let (status, a) = s.first();
        assert_eq!(status, Status::Solved, "{f:?}");
        let a = a.unwrap();
        assert!(tm.model.violated(&a).is_none());
        assert_eq!(tm.decode(&a), board);
    }
}

#[test]
fn the_verifier_rejects_a_board_with_one_cell_changed() {
    let mut board = seed_six();
    board[0][0] = 3;
    let why = verify(&board, &[]).unwrap_err();
    assert!(why.contains("cell (1, 1)"), "{why}");
    let mut board = vec![vec![2; 4]; 4];
    board[1][2] = 1;
    assert!(verify(&board, &[]).is_err());
    // Malformed boards are rejected, not panicked on.
    assert!(verify(&vec![], &[]).is_err());
    assert!(verify(&vec![vec![2, 2], vec![2]], &[]).is_err());
    assert!(verify(&vec![vec![0; 3]; 3], &[]).is_err());
}

fn transforms(b: &Board) -> Vec<Board> {
    let n = b.len();
    let rot = |b: &Board| -> Board {
        (0..n)
            .map(|i| (0..n).map(|j| b[n - 1 - j][i]).collect())
            .collect()
    };
    let tr = |b: &Board| -> Board { (0..n).map(|i| (0..n).map(|j| b[j][i]).collect()).collect() };
    let mut out = Vec::new();
    let mut cur = b.clone();
    for _ in 0..4 {
        out.push(cur.clone());
        out.push(tr(&cur));
        cur = rot(&cur);
    }
    out
}

/// All boards of 6×6, counted by the exact search, cross-checked three ways: every board
/// verifies, the set is closed under the square's symmetries, and the SAT model counts the same
/// symmetric boards in each symmetric subspace.
#[test]
fn six_by_six_count_is_consistent_across_methods() {
    let boards = all_boards_exact(6);
    assert_eq!(boards.len(), 13);
    for b in &boards {
        verify(b, &[]).unwrap();
        for image in transforms(b) {
            assert!(boards.contains(&image));
        }
    }
    let t = Tank::new(6).unwrap();
    for (group, pred) in [
        (
            Symmetric::D4,
            Box::new(|b: &Board| transforms(b).iter().all(|x| x == b))
                as Box<dyn Fn(&Board) -> bool>,
        ),
        (
            Symmetric::Rot180,
            Box::new(|b: &Board| (0..6).all(|i| (0..6).all(|j| b[i][j] == b[5 - i][5 - j]))),
        ),
        (
            Symmetric::Diagonal,
            Box::new(|b: &Board| (0..6).all(|i| (0..6).all(|j| b[i][j] == b[j][i]))),
        ),
    ] {
        let found = find(
            &t,
            Query::Count { cap: None },
            Options {
                method: Method::Sat,
                symmetry: Some(group),
                ..Options::default()
            },
        );
        let expected = boards.iter().filter(|b| pred(b)).count() as u64;
        assert_eq!(
            found.status,
            if expected == 0 {
                Status::Infeasible
            } else {
                Status::Solved
            }
        );
        assert_eq!(found.count, expected, "{group:?}");
    }
}

#[test]
fn eight_by_eight_board_is_found_and_verified() {
    let t = Tank::new(8).unwrap();
    let found = find(&t, Query::First, Options::default());
    assert_eq!(found.status, Status::Solved);
    verify(&found.boards[0], &[]).unwrap();
}

#[test]
fn side_parser_never_panics_and_names_the_problem() {
    for bad in [
        "0",
        "-3",
        "abc",
        "",
        " ",
        "4.5",
        "1e3",
        "99999999999999999999999",
        "41",
        "-",
        "+",
    ] {
        let e = Tank::parse(bad).unwrap_err().to_string();
        assert!(e.contains("board side"), "{bad}: {e}");
    }
    assert_eq!(Tank::parse(" 7 ").unwrap().n, 7);
    // Every short string of digits, signs and letters: an answer or an error, never a panic.
    let alphabet = ['0', '1', '9', '-', '+', 'x', ' ', '.'];
    for len in 0..4 {
        let mut idx = vec![0usize; len];
        loop {
            let s: String = idx.iter().map(|&i| alphabet[i]).collect();
            if let Ok(t) = Tank::parse(&s) {
                assert!((1..=tank::MAX_SIDE).contains(&t.n));
            }
            let mut k = 0;
            while k < len {
                idx[k] += 1;
                if idx[k] < alphabet.len() {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
            if k == len {
                break;
            }
        }
    }
}

/// The line automaton reads exactly the feasible lines: every sequence of values is checked by
/// counting its hits directly, and the automaton accepts as many words as there are such lines.
#[test]
fn the_line_automaton_reads_exactly_the_feasible_lines() {
    use quandary::puzzles::tank::lines::Lines;
    for n in 2..=6usize {
        let lines = Lines::new(n);
        let mut feasible = 0u128;
        let total = (n - 1).pow(n as u32);
        for code in 0..total {
            let mut c = code;
            let w: Vec<usize> = (0..n)
                .map(|_| {
                    let v = c % (n - 1) + 1;
                    c /= n - 1;
                    v
                })
                .collect();
            let hits: Vec<usize> = (0..n)
                .map(|p| (0..n).filter(|&q| q != p && q.abs_diff(p) == w[q]).count())
                .collect();
            let word: Option<Vec<usize>> = (0..n).map(|p| lines.label(w[p], hits[p])).collect();
            let ok = (0..n).all(|p| hits[p] <= w[p]);
            if ok {
                feasible += 1;
            }
            let accepted = word.is_some_and(|word| lines.accepts(&word));
            assert_eq!(accepted, ok, "n = {n}, line {w:?}, hits {hits:?}");
        }
        assert_eq!(lines.words(), feasible, "n = {n}");
    }
}

/// The parts of the exact search add up to the whole: 6×6 split three ways and seven ways.
#[test]
fn the_parts_of_the_exact_search_add_up_to_the_whole_count() {
    for parts in [3, 7] {
        let mut total = 0;
        let mut boards = BTreeSet::new();
        for k in 0..parts {
            let out = exact::search(6, Some((k, parts)), &[], |b| {
                assert!(boards.insert(b.to_vec()), "a board seen by two parts");
                true
            });
            assert!(out.complete);
            let firsts = out.first_rows.unwrap();
            assert!(firsts >= parts);
            // This part's share, every one searched to its end.
            assert_eq!(out.first_rows_done, (firsts - k).div_ceil(parts));
            total += out.count;
        }
        assert_eq!(total, 13);
        assert_eq!(boards, all_boards_exact(6));
    }
}

/// `forced` by the exact line search (the default up to side 8) gives the very forced set
/// the model's search gives, read off the boards it meets instead of a SAT call per
/// decision: equal to the SAT method's on 4×4 and 5×5; on 6×6, where the SAT method takes
/// minutes, equal to what the thirteen boards say (no cell the same in all; each value that
/// no board has at a cell forced false there).
#[test]
fn forced_cells_by_the_line_search_are_those_of_the_model() {
    let forced = |n: i64, method: Method| {
        let t = Tank::new(n).unwrap();
        let o = Options {
            method,
            ..Options::default()
        };
        let out = run::<TankAttack>(&t, &o, Query::Forced, &Limits::none()).unwrap();
        assert_eq!(out.status, Status::Solved, "{n} {method:?}");
        let set = out.forced.clone().expect("a forced set");
        assert_eq!(set.undecided, 0);
        // The search met every board, and says how many (the SAT method's search of the
        // decisions meets only some, and gives no count).
        match method {
            Method::Sat => assert_eq!(out.count, None),
            _ => {
                let all = match n {
                    4 => brute_force(4, &[]).len() as u128,
                    6 => all_boards_exact(6).len() as u128,
                    _ => {
                        let sat = Options {
                            method: Method::Sat,
                            ..Options::default()
                        };
                        run::<TankAttack>(&t, &sat, Query::Count { cap: None }, &Limits::none())
                            .unwrap()
                            .count
                            .expect("a count")
                    }
                };
                assert_eq!(out.count, Some(all), "{n}");
            }
        }
        (out.stats.method.clone(), set)
    };
    for n in [4, 5] {
        let (by_search, exact) = forced(n, Method::Auto);
        assert_eq!(by_search, "exact line search");
        let (_, sat) = forced(n, Method::Sat);
        assert_eq!(
            serde_json::to_value(&exact).unwrap(),
            serde_json::to_value(&sat).unwrap(),
            "{n}×{n}"
        );
    }
    let boards = all_boards_exact(6);
    let (_, exact) = forced(6, Method::Auto);
    let mut expected = Vec::new();
    for r in 0..6 {
        for c in 0..6 {
            let seen: BTreeSet<u32> = boards.iter().map(|b| b[r][c]).collect();
            assert!(seen.len() > 1, "({r},{c}) differs between boards");
            for v in (1..6).filter(|v| !seen.contains(v)) {
                expected.push((r, c, v.to_string()));
            }
        }
    }
    let got: Vec<(usize, usize, String)> = exact
        .forced
        .iter()
        .map(|f| {
            assert!(!f.value, "nothing is forced true on 6×6");
            match f.meaning.place {
                quandary::puzzles::Place::Cell(r, c) => (r, c, f.meaning.says.clone()),
                other => panic!("a tank decision at {other:?}"),
            }
        })
        .collect();
    assert_eq!(got, expected);
}

/// Every board of side n that shows the givens, by brute force: the free cells run through
/// every value, each board judged by the verifier alone (no automaton, no model).
fn brute_force(n: usize, givens: &[(usize, usize, u32)]) -> BTreeSet<Board> {
    let free: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter(|&(i, j)| !givens.iter().any(|g| (g.0, g.1) == (i, j)))
        .collect();
    let mut board = vec![vec![1u32; n]; n];
    for &(i, j, v) in givens {
        board[i][j] = v;
    }
    let mut out = BTreeSet::new();
    let values = (n - 1) as u64;
    for code in 0..values.pow(free.len() as u32) {
        let mut c = code;
        for &(i, j) in &free {
            board[i][j] = (c % values) as u32 + 1;
            c /= values;
        }
        if verify(&board, givens).is_ok() {
            out.insert(board.clone());
        }
    }
    out
}

/// A small deterministic generator, so that the cases are the same on every run.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// `count` of `n` with `givens`, by the given method, with the boards it returned.
fn count_with(n: usize, givens: &[(usize, usize, u32)], method: Method) -> (u64, Status) {
    let mut t = Tank::new(n as i64).unwrap();
    t.givens = givens.to_vec();
    let found = find(
        &t,
        Query::Count { cap: None },
        options(method, Formulation::Strong),
    );
    (found.count, found.status)
}

#[test]
fn givens_leave_the_boards_brute_force_finds_by_every_method() {
    // 4×4 with seven to nine givens (3^9 boards at most each) and 5×5 with sixteen to
    // eighteen (4^9): values at random, or copied from a board so that some cases have one.
    let mut seed = 0x5eed_u64;
    let boards5 = all_boards_exact(5);
    let mut nonzero = 0;
    for case in 0..24 {
        let n = if case < 16 { 4 } else { 5 };
        let cells = if n == 4 { 7 + case % 3 } else { 16 + case % 3 };
        let copy: Option<Board> = match (n, case % 2) {
            (4, 0) => Some(vec![vec![2; 4]; 4]),
            (5, 0) => boards5.iter().nth(case / 2 % 2).cloned(),
            _ => None,
        };
        let mut givens = Vec::new();
        while givens.len() < cells {
            let (i, j) = (
                (next(&mut seed) as usize) % n,
                (next(&mut seed) as usize) % n,
            );
            if givens
                .iter()
                .any(|g: &(usize, usize, u32)| (g.0, g.1) == (i, j))
            {
                continue;
            }
            let v = match &copy {
                Some(b) if !next(&mut seed).is_multiple_of(8) => b[i][j],
                _ => (next(&mut seed) % (n as u64 - 1)) as u32 + 1,
            };
            givens.push((i, j, v));
        }
        let truth = brute_force(n, &givens);
        nonzero += usize::from(!truth.is_empty());
        for method in [Method::Exact, Method::Sat, Method::Gac] {
            let (count, status) = count_with(n, &givens, method);
            assert_eq!(
                count as usize,
                truth.len(),
                "{n}×{n} with givens {givens:?} by {method:?}: {status:?}"
            );
        }
    }
    assert!(nonzero >= 4, "too few cases with a board: {nonzero}");
}

#[test]
fn givens_on_six_by_six_keep_the_boards_that_show_them() {
    // The thirteen boards, filtered by the givens, against the line search with givens (no
    // symmetry reduction then) and `unique` on the same givens.
    let all = all_boards_exact(6);
    let mut seed = 0x6_u64;
    for case in 0..8 {
        let from = all.iter().nth(case % all.len()).unwrap();
        let givens: Vec<(usize, usize, u32)> = (0..4 + case % 4)
            .map(|_| {
                let (i, j) = (
                    (next(&mut seed) % 6) as usize,
                    (next(&mut seed) % 6) as usize,
                );
                (i, j, from[i][j])
            })
            .fold(Vec::new(), |mut g, x| {
                if !g
                    .iter()
                    .any(|y: &(usize, usize, u32)| (y.0, y.1) == (x.0, x.1))
                {
                    g.push(x);
                }
                g
            });
        let want = all
            .iter()
            .filter(|b| givens.iter().all(|&(i, j, v)| b[i][j] == v))
            .count() as u64;
        assert!(want >= 1);
        assert_eq!(count_with(6, &givens, Method::Exact).0, want, "{givens:?}");
        let mut t = Tank::new(6).unwrap();
        t.givens = givens.clone();
        let unique = find(&t, Query::Unique, Options::default());
        assert_eq!(unique.boards.len() as u64, want.min(2), "{givens:?}");
    }
}

/// An 8×8 puzzle: twenty values of the quarter-turn board of docs/tank.md leave exactly
/// that board, which `unique` by `auto` (the consistent search, with givens) proves.
#[test]
fn an_eight_by_eight_puzzle_with_givens_is_proved_unique() {
    let board: Board = [
        "3 1 3 1 3 3 1 3",
        "1 4 4 3 1 3 4 1",
        "3 3 1 3 6 1 4 3",
        "3 1 6 2 2 3 3 1",
        "1 3 3 2 2 6 1 3",
        "3 4 1 6 3 1 3 3",
        "1 4 3 1 3 4 4 1",
        "3 1 3 3 1 3 1 3",
    ]
    .iter()
    .map(|r| r.split(' ').map(|v| v.parse().unwrap()).collect())
    .collect();
    verify(&board, &[]).unwrap();
    let mut seed = 0x8_u64;
    let mut givens: Vec<(usize, usize, u32)> = Vec::new();
    while givens.len() < 20 {
        let c = (next(&mut seed) % 64) as usize;
        let (i, j) = (c / 8, c % 8);
        if !givens.iter().any(|g| (g.0, g.1) == (i, j)) {
            givens.push((i, j, board[i][j]));
        }
    }
    let mut t = Tank::new(8).unwrap();
    t.givens = givens.clone();
    let found = find(&t, Query::Unique, Options::default());
    assert_eq!(found.status, Status::Solved);
    assert_eq!(found.boards, vec![board], "{givens:?}");
    let out = run::<TankAttack>(&t, &Options::default(), Query::Unique, &Limits::none()).unwrap();
    assert_eq!(out.stats.method, "consistent search");
}

#[test]
fn the_verifier_rejects_a_board_that_breaks_a_given() {
    let board = vec![vec![2; 4]; 4];
    verify(&board, &[(0, 0, 2), (3, 3, 2)]).unwrap();
    let why = verify(&board, &[(0, 0, 2), (1, 2, 3)]).unwrap_err();
    assert!(why.contains("(2, 3)") && why.contains("given"), "{why}");
}

#[test]
fn givens_are_read_and_refused_by_name() {
    let t = Tank::new(5).unwrap();
    let g = t
        .clone()
        .with_givens(&["1,2=4".into(), "3,3=4; 5,5=1".into()])
        .unwrap();
    assert_eq!(g.givens, vec![(0, 1, 4), (2, 2, 4), (4, 4, 1)]);
    assert_eq!(g.given(2, 2), Some(4));
    for (bad, names) in [
        ("6,1=2", "off the board"),
        ("1,1=5", "not a tank's value"),
        ("1,1=0", "not a tank's value"),
        ("1,1", "no '='"),
        ("11=2", "no ','"),
        ("a,b=2", "not two whole numbers"),
        ("1,1=2 1,1=3", "already given"),
        ("99999999999999999999,1=2", "not two whole numbers"),
    ] {
        let e = t
            .clone()
            .with_givens(&[bad.into()])
            .unwrap_err()
            .to_string();
        assert!(e.contains(names) && e.contains("--fix"), "{bad}: {e}");
    }
    // The same value twice is one given.
    let twice = t.with_givens(&["2,2=3 2,2=3".into()]).unwrap();
    assert_eq!(twice.givens.len(), 1);
}

/// data/tank/counts.csv, the published sequence, says what the searches find: for n = 2 to 6
/// the boards and their classes under the square's symmetries, recounted here by the line
/// search; for 7 the sum of the parts' counts of both complete runs in data/tank/7x7/ (the
/// line search's 48 parts, the consistent search's 20), every part there once and complete;
/// from 8 on no count is claimed.
#[test]
fn the_published_sequence_is_what_the_searches_find() {
    let root = env!("CARGO_MANIFEST_DIR");
    let csv = std::fs::read_to_string(format!("{root}/data/tank/counts.csv")).unwrap();
    let mut rows = csv.lines();
    assert_eq!(
        rows.next(),
        Some("n,boards,boards_up_to_symmetry,method,seconds,checked")
    );
    for row in rows {
        let f: Vec<&str> = row.split(',').collect();
        let n: usize = f[0].parse().unwrap();
        match n {
            2..=6 => {
                let boards = all_boards_exact(n);
                let classes: BTreeSet<Board> = boards
                    .iter()
                    .map(|b| transforms(b).into_iter().min().unwrap())
                    .collect();
                assert_eq!(f[1], boards.len().to_string(), "n = {n}");
                assert_eq!(f[2], classes.len().to_string(), "n = {n}");
            }
            7 => {
                // Both complete counts of 7×7, each from every part of its job file.
                for (file, parts, method) in [
                    ("parts", 48, "exact line search"),
                    ("gac-parts", 20, "consistent search"),
                ] {
                    let results = std::fs::read_to_string(format!(
                        "{root}/data/tank/7x7/{file}.results.jsonl"
                    ))
                    .unwrap();
                    let outcomes: Vec<serde_json::Value> = results
                        .lines()
                        .map(|l| serde_json::from_str(l).unwrap())
                        .collect();
                    let named: BTreeSet<String> = outcomes
                        .iter()
                        .map(|o| {
                            let argv = o["argv"].as_array().unwrap();
                            let at = argv.iter().position(|a| a == "--part").unwrap();
                            argv[at + 1].as_str().unwrap().to_string()
                        })
                        .collect();
                    let every: BTreeSet<String> =
                        (1..=parts).map(|k| format!("{k}/{parts}")).collect();
                    assert_eq!(named, every, "{file}: every part once");
                    assert_eq!(outcomes.len(), parts, "{file}");
                    let total: u64 = outcomes
                        .iter()
                        .map(|o| {
                            assert_eq!(o["outcome"]["in_scope"]["status"], "infeasible", "{o}");
                            assert_eq!(o["outcome"]["stats"]["method"], method, "{o}");
                            o["outcome"]["in_scope"]["count"].as_u64().unwrap()
                        })
                        .sum();
                    assert_eq!(f[1], total.to_string(), "{file}");
                }
                assert_eq!(f[2], "0");
            }
            1 => assert_eq!((f[1], f[2]), ("0", "0")),
            _ => assert_eq!((f[1], f[2]), ("", ""), "no count is claimed for n = {n}"),
        }
    }
}
