//! Tantrix: the published counts of Discovery solutions, the checked solutions of
//! data/tantrix, fixed boards made by the board search, and the verifier.

use quandary::puzzles::tantrix::model::Options;
use quandary::puzzles::tantrix::puzzle::{self, Instance, Shape, TantrixPuzzle};
use quandary::puzzles::tantrix::verify::verify;
use quandary::puzzles::tantrix::{parse_board, Board, Challenge, Colour, Placement};
use quandary::runner::{run, Limits, Query};
use quandary::solve::search::Status;

/// The puzzle's options for the model's switches.
fn puzzle_options(o: &Options) -> puzzle::Options {
    let loops: Vec<String> = o.short_loops.iter().map(|k| k.to_string()).collect();
    puzzle::Options {
        copies: o.copies,
        no_c6: !o.c6,
        short_loops: if loops.is_empty() {
            "none".into()
        } else {
            loops.join(",")
        },
        no_degree: !o.degree,
        reach: o.reach,
        ..puzzle::Options::default()
    }
}

type Found = (Status, Option<(Board, Vec<Placement>)>);

/// One query through the runner (which verifies every solution it returns).
fn ask(
    instance: Instance,
    o: &Options,
    query: Query,
) -> (Status, Option<(Board, Vec<Placement>)>, u128) {
    let out = run::<TantrixPuzzle>(&instance, &puzzle_options(o), query, &Limits::none()).unwrap();
    let (status, count) = (out.status, out.count.unwrap_or(0));
    let sol = out
        .solutions
        .into_iter()
        .next()
        .map(|s| (s.board, s.placed));
    (status, sol, count)
}

fn solve_fixed(ch: &Challenge, board: &Board, o: &Options) -> Found {
    let shape = Shape::Fixed {
        board: board.clone(),
        name: "test board".into(),
    };
    let (status, sol, _) = ask(
        Instance {
            challenge: ch.clone(),
            shape,
            count_hole_free: false,
        },
        o,
        Query::First,
    );
    (status, sol)
}

fn solve_free(ch: &Challenge, radius: i32, hole_free: bool) -> Found {
    let shape = Shape::Free { radius, hole_free };
    let (status, sol, _) = ask(
        Instance {
            challenge: ch.clone(),
            shape,
            count_hole_free: false,
        },
        &Options::default(),
        Query::First,
    );
    (status, sol)
}

/// Layouts up to translation and rotation (tile 1 unturned at the origin).
fn count(ch: &Challenge, hole_free: bool) -> (Status, u128) {
    let shape = Shape::Free {
        radius: 1,
        hole_free: false,
    };
    let (status, _, k) = ask(
        Instance {
            challenge: ch.clone(),
            shape,
            count_hole_free: hole_free,
        },
        &Options::default(),
        Query::Count { cap: None },
    );
    (status, k)
}

/// The board files (`.txt`) in data/tantrix/DIR, sorted by name.
fn board_files(dir: &str) -> Vec<String> {
    let dir = format!("{}/data/tantrix/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    names
}

fn data(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/data/tantrix/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("data file")
}

fn hole_free_count(n: usize, colour: Colour) -> u128 {
    let ch = Challenge::new(n, Some(colour)).unwrap();
    let (status, k) = count(&ch, true);
    // No layout at all is a complete count of zero.
    assert!(
        status == Status::Solved || (status == Status::Infeasible && k == 0),
        "{status:?}"
    );
    k
}

/// The checked solutions of data/tantrix/discovery-solutions.txt: (challenge, board, tiles).
fn discovery() -> Vec<(Challenge, Board, Vec<Placement>)> {
    data("discovery-solutions.txt")
        .lines()
        .filter(|l| l.starts_with("n="))
        .map(|line| {
            let n: usize = line[2..]
                .split_whitespace()
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let letter = line.split("colour=").nth(1).unwrap()[..1].to_string();
            let ch = Challenge::new(n, Colour::from_letter(&letter)).unwrap();
            let f = parse_board(line).unwrap();
            (ch, f.board, f.placements.unwrap())
        })
        .collect()
}

fn options() -> Vec<Options> {
    let d = Options::default();
    vec![
        d.clone(),
        Options {
            copies: true,
            ..d.clone()
        },
        Options {
            c6: false,
            short_loops: vec![],
            ..d.clone()
        },
        Options {
            copies: true,
            c6: false,
            short_loops: vec![],
            reach: false,
            degree: false,
        },
        Options {
            reach: true,
            ..d.clone()
        },
    ]
}

#[test]
fn published_hole_free_counts_up_to_9() {
    // data/tantrix/README: n = 3: 2 yellow; 4: 2 red; 5: 4 red; 6: 8 blue; 7: 32 red, 36 blue;
    // 8: 84 blue; 9: 114 yellow; and none in the other colours.
    assert_eq!(hole_free_count(3, Colour::Yellow), 2);
    assert_eq!(hole_free_count(3, Colour::Red), 0);
    assert_eq!(hole_free_count(4, Colour::Red), 2);
    assert_eq!(hole_free_count(4, Colour::Yellow), 0);
    assert_eq!(hole_free_count(5, Colour::Red), 4);
    assert_eq!(hole_free_count(6, Colour::Blue), 8);
    assert_eq!(hole_free_count(6, Colour::Red), 0);
    assert_eq!(hole_free_count(7, Colour::Red), 32);
    assert_eq!(hole_free_count(7, Colour::Blue), 36);
    assert_eq!(hole_free_count(8, Colour::Blue), 84);
    assert_eq!(hole_free_count(9, Colour::Yellow), 114);
}

#[test]
fn published_hole_free_counts_for_10() {
    // The full Discovery puzzle: 388 yellow, 1280 red, 952 blue.
    assert_eq!(hole_free_count(10, Colour::Yellow), 388);
    assert_eq!(hole_free_count(10, Colour::Red), 1280);
    assert_eq!(hole_free_count(10, Colour::Blue), 952);
}

#[test]
fn discovery_solutions_verify_and_their_boards_solve_in_every_formulation() {
    let all = discovery();
    assert_eq!(all.len(), 10);
    for (ch, board, placed) in &all {
        assert_eq!(verify(ch, board, placed), Ok(ch.n), "challenge {}", ch.n);
        for opt in options() {
            let found = solve_fixed(ch, board, &opt);
            assert_eq!(found.0, Status::Solved, "challenge {} {opt:?}", ch.n);
            let (b, p) = found.1.unwrap();
            assert_eq!(verify(ch, &b, &p), Ok(ch.n), "challenge {} {opt:?}", ch.n);
        }
    }
}

#[test]
fn a_board_without_a_loop_in_that_colour_is_proved_infeasible() {
    // No hole-free layout of tiles 1..4 has a yellow loop (count 0), so the red n = 4 board
    // has no yellow solution; the same in every formulation, with and without C6–C9.
    let (_, board, _) = discovery().into_iter().find(|(c, _, _)| c.n == 4).unwrap();
    let yellow = Challenge::new(4, Some(Colour::Yellow)).unwrap();
    for opt in options() {
        let found = solve_fixed(&yellow, &board, &opt);
        assert_eq!(found.0, Status::Infeasible, "{opt:?}");
    }
    // Ten cells in a row: every designated line would end at the boundary.
    let row = Board::new(
        (0..10)
            .map(|q| quandary::puzzles::tantrix::Hex::new(q, 0))
            .collect(),
    )
    .unwrap();
    let ch = Challenge::new(10, None).unwrap();
    assert_eq!(
        solve_fixed(&ch, &row, &Options::default()).0,
        Status::Infeasible
    );
}

#[test]
fn stored_boards_from_the_board_search_solve_and_verify() {
    let names = board_files("boards");
    assert!(names.len() >= 6, "boards stored: {names:?}");
    for name in names {
        let f = parse_board(&data(&format!("boards/{name}"))).unwrap();
        let ch = Challenge::new(f.board.len(), None).unwrap();
        // The stored solution passes the checker ...
        let stored = f.placements.expect("boards are stored with their solution");
        assert_eq!(verify(&ch, &f.board, &stored), Ok(ch.n), "{name}");
        // ... and the model, given only the cells, finds one too.
        let found = solve_fixed(&ch, &f.board, &Options::default());
        assert_eq!(found.0, Status::Solved, "{name}");
        let (b, p) = found.1.unwrap();
        assert_eq!(verify(&ch, &b, &p), Ok(ch.n), "{name}");
    }
}

#[test]
fn the_board_search_finds_a_board_and_a_hole_free_one() {
    for (n, hole_free) in [(12, false), (12, true), (20, false)] {
        let ch = Challenge::new(n, None).unwrap();
        let found = solve_free(&ch, puzzle::default_radius(n), hole_free);
        assert_eq!(found.0, Status::Solved, "n = {n}");
        let (b, p) = found.1.unwrap();
        assert_eq!(verify(&ch, &b, &p), Ok(n), "n = {n}");
        if hole_free {
            // No empty cell is enclosed: every empty neighbour reaches far away through empty
            // cells (checked by flood fill inside a generous box).
            let used: std::collections::HashSet<(i32, i32)> =
                b.cells.iter().map(|h| (h.q, h.r)).collect();
            let lim = n as i32 + 2;
            let mut seen = std::collections::HashSet::new();
            let mut stack: Vec<(i32, i32)> = vec![(lim, 0)];
            while let Some((q, r)) = stack.pop() {
                if q.abs() > lim || r.abs() > lim || used.contains(&(q, r)) {
                    continue;
                }
                if !seen.insert((q, r)) {
                    continue;
                }
                for (dq, dr) in [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)] {
                    stack.push((q + dq, r + dr));
                }
            }
            for &(q, r) in &used {
                for (dq, dr) in [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)] {
                    let e = (q + dq, r + dr);
                    assert!(used.contains(&e) || seen.contains(&e), "hole at {e:?}");
                }
            }
        }
    }
}

#[test]
fn the_verifier_rejects_wrong_solutions() {
    let (ch, board, placed) = discovery().into_iter().find(|(c, _, _)| c.n == 10).unwrap();
    assert!(verify(&ch, &board, &placed).is_ok());
    // One tile turned a step.
    for c in 0..placed.len() {
        let mut p = placed.clone();
        p[c].rot = (p[c].rot + 1) % 6;
        let e = verify(&ch, &board, &p).unwrap_err();
        assert!(
            e.contains("touch") || e.contains("boundary"),
            "cell {c}: {e}"
        );
    }
    // Two tiles swapped, turns kept.
    let mut p = placed.clone();
    p.swap(0, 1);
    assert!(verify(&ch, &board, &p).is_err());
    // A tile replaced by another number: wrong tile counts.
    let mut p = placed.clone();
    p[0].tile = if p[0].tile == 1 { 2 } else { 1 };
    assert!(verify(&ch, &board, &p).unwrap_err().contains("used"));
    // The right tiles for another colour.
    let red = Challenge::new(10, Some(Colour::Red)).unwrap();
    let yellow = discovery()
        .into_iter()
        .find(|(c, _, _)| c.n == 10 && c.colour == Colour::Yellow)
        .unwrap();
    assert!(verify(&red, &yellow.1, &yellow.2).is_err());
    // Two loops: challenge 20 (red) uses tiles 1..10 twice; two far-apart copies of the red
    // n = 10 solution match everywhere but their lines form two loops.
    let (_, b10, p10) = discovery()
        .into_iter()
        .find(|(c, _, _)| c.n == 10 && c.colour == Colour::Red)
        .unwrap();
    let mut cells = b10.cells.clone();
    cells.extend(
        b10.cells
            .iter()
            .map(|h| quandary::puzzles::tantrix::Hex::new(h.q + 20, h.r)),
    );
    let twice = Board::new(cells).unwrap();
    let p20: Vec<Placement> = p10.iter().chain(p10.iter()).copied().collect();
    let ch20 = Challenge::new(20, None).unwrap();
    assert_eq!(ch20.colour, Colour::Red);
    let e = verify(&ch20, &twice, &p20).unwrap_err();
    assert!(e.contains("more than one loop"), "{e}");
}

#[test]
fn hole_counts_for_10_match_the_published_figures() {
    // data/tantrix/README: without the no-hole rule, n = 10 has 23,360 red and 2,440 blue loops.
    for (colour, want) in [(Colour::Blue, 2440), (Colour::Red, 23360)] {
        let ch = Challenge::new(10, Some(colour)).unwrap();
        let (status, k) = count(&ch, false);
        assert_eq!(status, Status::Solved);
        assert_eq!(k, want, "{colour:?}");
    }
}

#[test]
fn the_board_reader_never_panics_on_mangled_input() {
    let seeds = [
        data("discovery-solutions.txt"),
        data("boards/free-15.txt"),
        "# a board\n0,0\n1,0\n0 1\n".to_string(),
    ];
    let alphabet: Vec<char> = "0123456789 -,@:()#\nnx=R".chars().collect();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut below = |k: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % k.max(1) as u64) as usize
    };
    let mut accepted = 0;
    for seed in &seeds {
        let chars: Vec<char> = seed.chars().collect();
        for _ in 0..400 {
            let mut t = chars.clone();
            for _ in 0..1 + below(4) {
                let at = below(t.len());
                match below(3) {
                    0 if at < t.len() => {
                        t.remove(at);
                    }
                    1 => t.insert(at.min(t.len()), alphabet[below(alphabet.len())]),
                    _ if at < t.len() => t[at] = alphabet[below(alphabet.len())],
                    _ => {}
                }
            }
            let t: String = t.into_iter().collect();
            match parse_board(&t) {
                Ok(f) => {
                    accepted += 1;
                    // Whatever was read, the checker answers without panicking.
                    if let (Some(p), Ok(ch)) = (&f.placements, Challenge::new(f.board.len(), None))
                    {
                        let _ = verify(&ch, &f.board, p);
                    }
                }
                Err(e) => {
                    let e = e.to_string();
                    assert!(e.contains("line ") || e.contains("no cells"), "{e}")
                }
            }
        }
    }
    assert!(accepted > 0);
}

#[test]
fn large_stored_boards_carry_checked_solutions() {
    // data/tantrix/large: boards of n = 125, 150, 200 from the board search (solving them
    // again is left to bench/tantrix.py); their stored solutions must pass the checker.
    for n in [125, 150, 200] {
        let f = parse_board(&data(&format!("large/free-{n}.txt"))).unwrap();
        let ch = Challenge::new(n, None).unwrap();
        assert_eq!(
            verify(&ch, &f.board, &f.placements.unwrap()),
            Ok(n),
            "n = {n}"
        );
    }
}

#[test]
fn boards_made_by_cp_sat_carry_checked_solutions_and_solve_from_their_cells() {
    // data/tantrix/cpsat-boards: hole-free boards made by CP-SAT's free-shape search
    // (bench/tantrix.py --make-cpsat-boards), the benchmark set of boards we did not make.
    // Every stored solution passes our checker; the smaller half is solved again here from
    // the cells alone (all of them: `python3 bench/tantrix.py --cpsat-set`).
    let names = board_files("cpsat-boards");
    assert!(names.len() >= 30, "boards stored: {}", names.len());
    for name in names {
        let f = parse_board(&data(&format!("cpsat-boards/{name}"))).unwrap();
        let ch = Challenge::new(f.board.len(), None).unwrap();
        let stored = f.placements.expect("stored with CP-SAT's solution");
        assert_eq!(verify(&ch, &f.board, &stored), Ok(ch.n), "{name}");
        if ch.n <= 30 {
            let (status, found) = solve_fixed(&ch, &f.board, &Options::default());
            assert_eq!(status, Status::Solved, "{name}");
            let (b, p) = found.unwrap();
            assert_eq!(verify(&ch, &b, &p), Ok(ch.n), "{name}");
        }
    }
}

/// The sub-loop cuts found during search (the default) and the lazy method alone (`--lazy`)
/// count the same solutions on every Discovery board of 3 to 10 tiles, and on the CP-SAT-made
/// boards of 15 to 18 tiles; the counts are independent of how the cuts arrive.
#[test]
fn cuts_during_search_and_after_each_solve_count_alike() {
    let mut boards: Vec<(Challenge, Board)> = discovery()
        .into_iter()
        .filter(|(ch, _, _)| ch.n <= 10)
        .map(|(ch, b, _)| (ch, b))
        .collect();
    for name in board_files("cpsat-boards") {
        let path = format!(
            "{}/data/tantrix/cpsat-boards/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let f = parse_board(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let n = f.board.cells.len();
        if n <= 18 {
            boards.push((Challenge::new(n, None).unwrap(), f.board));
        }
    }
    assert!(boards.len() >= 10, "{} boards", boards.len());
    for (ch, board) in boards {
        let counts: Vec<u128> = [false, true]
            .into_iter()
            .map(|lazy| {
                let instance = Instance {
                    challenge: ch.clone(),
                    shape: Shape::Fixed {
                        board: board.clone(),
                        name: "test board".into(),
                    },
                    count_hole_free: false,
                };
                let o = puzzle::Options {
                    lazy,
                    ..puzzle::Options::default()
                };
                let out = run::<TantrixPuzzle>(
                    &instance,
                    &o,
                    Query::Count { cap: None },
                    &Limits::none(),
                )
                .unwrap();
                assert_eq!(out.status, Status::Solved, "n = {}", ch.n);
                out.count.unwrap()
            })
            .collect();
        assert!(counts[0] >= 1, "n = {}: no solution counted", ch.n);
        assert_eq!(counts[0], counts[1], "n = {}: during search vs lazy", ch.n);
    }
}
