//! Battleship: published puzzles and their solutions, an independent brute-force count, the
//! verifier, the setter's operations and the readers' errors.

mod readers;

use quandary::puzzles::battleship::model::{BattleshipModel, Formulation};
use quandary::puzzles::battleship::setter::{self, ClueSession};
use quandary::puzzles::battleship::{formats, verify, Grid, Layout, Symbol};
use quandary::solve::search::{Search, Status};

const SOUND: [Formulation; 4] = [
    Formulation::Cell,
    Formulation::Ship,
    Formulation::ShipCells,
    Formulation::Runs,
];

fn data(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/data/battleship/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("data file")
}

/// The rows of `#`/`.` in `%` or `;` comment lines of a data file that look like a grid.
fn grid_rows(text: &str, prefix: char) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(str::trim)
        .filter(|l| !l.is_empty() && l.chars().all(|c| "#.".contains(c)))
        .map(String::from)
        .collect()
}

fn occupancy(rows: &[String]) -> Vec<bool> {
    rows.iter()
        .flat_map(|r| r.chars().map(|c| c == '#'))
        .collect()
}

/// Every solution of `p` up to `limit`, by backtracking over ship positions, longest ship
/// first, checked at the end by the verifier alone: no code shared with the models.
fn brute_force(p: &Grid, limit: usize) -> Vec<Vec<bool>> {
    let (rows, cols) = (p.rows, p.cols);
    let mut lengths: Vec<usize> = Vec::new();
    for (l, &n) in p.fleet.iter().enumerate().rev() {
        lengths.extend(std::iter::repeat_n(l + 1, n));
    }
    let mut positions: Vec<Vec<Vec<usize>>> = vec![Vec::new(); p.fleet.len() + 1];
    for (l, at) in positions.iter_mut().enumerate().skip(1) {
        for i in 0..rows {
            for j in 0..cols {
                if j + l <= cols {
                    at.push((0..l).map(|t| i * cols + j + t).collect());
                }
                if l > 1 && i + l <= rows {
                    at.push((0..l).map(|t| (i + t) * cols + j).collect());
                }
            }
        }
    }
    struct State<'a> {
        p: &'a Grid,
        lengths: Vec<usize>,
        positions: Vec<Vec<Vec<usize>>>,
        occ: Vec<bool>,
        row: Vec<usize>,
        col: Vec<usize>,
        found: Vec<Vec<bool>>,
        limit: usize,
    }
    fn go(s: &mut State, k: usize, from: usize) {
        if s.found.len() >= s.limit {
            return;
        }
        if k == s.lengths.len() {
            if verify::verify(s.p, &s.occ).is_ok() {
                s.found.push(s.occ.clone());
            }
            return;
        }
        let l = s.lengths[k];
        // Ships of equal length in increasing position order: each layout once.
        let start = if k > 0 && s.lengths[k - 1] == l {
            from
        } else {
            0
        };
        let cols = s.p.cols;
        for g in start..s.positions[l].len() {
            let cells = s.positions[l][g].clone();
            let touches = cells.iter().any(|&c| {
                let (i, j) = ((c / cols) as isize, (c % cols) as isize);
                (-1..=1).any(|di| {
                    (-1..=1).any(|dj| {
                        let (a, b) = (i + di, j + dj);
                        a >= 0
                            && b >= 0
                            && (a as usize) < s.p.rows
                            && (b as usize) < cols
                            && s.occ[a as usize * cols + b as usize]
                    })
                })
            });
            if touches || cells.iter().any(|&c| s.p.clues[c] == Some(Symbol::Water)) {
                continue;
            }
            for &c in &cells {
                s.occ[c] = true;
                s.row[c / cols] += 1;
                s.col[c % cols] += 1;
            }
            let fits = (0..s.p.rows).all(|i| s.p.row_counts[i].is_none_or(|r| s.row[i] <= r))
                && (0..cols).all(|j| s.p.col_counts[j].is_none_or(|c| s.col[j] <= c));
            if fits {
                go(s, k + 1, g + 1);
            }
            for &c in &cells {
                s.occ[c] = false;
                s.row[c / cols] -= 1;
                s.col[c % cols] -= 1;
            }
        }
    }
    let mut s = State {
        p,
        lengths,
        positions,
        occ: vec![false; rows * cols],
        row: vec![0; rows],
        col: vec![0; cols],
        found: Vec::new(),
        limit,
    };
    go(&mut s, 0, 0);
    s.found
}

fn unique_solution(p: &Grid, f: Formulation) -> Layout {
    let u = setter::unique(p, f, None);
    assert_eq!(u.status, Status::Solved, "{f:?}");
    assert_eq!(u.solutions.len(), 1, "{f:?}: not unique");
    u.solutions[0].clone()
}

#[test]
fn the_puzzlink_example_has_its_published_unique_solution_in_every_formulation() {
    let text = data("puzzlink-example.txt");
    let url = text
        .lines()
        .find_map(|l| l.strip_prefix("; url "))
        .expect("url line");
    let (format, p) = formats::parse(url, None).expect("parses");
    assert_eq!(format, formats::Format::PuzzLink);
    let published = occupancy(&grid_rows(&text, ';'));
    assert_eq!(published.len(), 36);
    assert_eq!(verify::verify(&p, &published), Ok(6));
    for f in SOUND {
        assert_eq!(unique_solution(&p, f).occupied(), published, "{f:?}");
    }
    let all = brute_force(&p, 10);
    assert_eq!(
        all,
        vec![published],
        "brute force finds that solution alone"
    );
}

#[test]
fn the_csplib_instances_are_unique_and_agree_with_brute_force() {
    let text = data("csplib-prob014.pl");
    let instances = formats::parse_csplib(&text).expect("parses");
    assert_eq!(instances.len(), 20);
    for (n, (name, p)) in instances.iter().enumerate() {
        let runs = unique_solution(p, Formulation::Runs);
        let cell = unique_solution(p, Formulation::Cell);
        assert_eq!(runs, cell, "instance {name}");
        assert!(
            verify::verify(p, &runs.occupied()).is_ok(),
            "instance {name}"
        );
        if n < 6 {
            assert_eq!(
                brute_force(p, 2),
                vec![runs.occupied()],
                "instance {name}: brute force"
            );
        }
    }
}

/// The MiniZinc grids list ship numbers; some files list the board's columns as lines, so
/// the orientation whose line counts are the row counts is taken.
fn minizinc_solution(p: &Grid, text: &str) -> Vec<bool> {
    let n = p.rows;
    let lines: Vec<Vec<bool>> = text
        .lines()
        .filter_map(|l| l.strip_prefix('%'))
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == n && w.iter().all(|t| *t == "." || t.parse::<u32>().is_ok()))
        .map(|w| w.iter().map(|t| *t != ".").collect())
        .collect();
    assert_eq!(lines.len(), n, "published grid");
    let direct: Vec<bool> = lines.concat();
    let transposed: Vec<bool> = (0..n * n).map(|c| lines[c % n][c / n]).collect();
    let row_counts = |g: &[bool]| -> Vec<Option<usize>> {
        g.chunks(n)
            .map(|r| Some(r.iter().filter(|&&b| b).count()))
            .collect()
    };
    if row_counts(&direct) == p.row_counts {
        direct
    } else {
        transposed
    }
}

#[test]
fn the_minizinc_published_grids_are_solutions_and_the_12x12_has_exactly_two() {
    for name in [
        "sb_12_12_6_0.dzn",
        "sb_13_13_5_0.dzn",
        "sb_14_14_6_0.dzn",
        "sb_15_15_7_0.dzn",
    ] {
        let text = data(name);
        let (_, p) = formats::parse(&text, None).expect("parses");
        let published = minizinc_solution(&p, &text);
        assert!(verify::verify(&p, &published).is_ok(), "{name}");
        let solved = setter::unique(&p, Formulation::Runs, None);
        assert!(!solved.solutions.is_empty(), "{name}");
        for l in &solved.solutions {
            assert!(verify::verify(&p, &l.occupied()).is_ok(), "{name}");
        }
        if solved.solutions.len() == 1 {
            // Unique (sb_15): the published grid, by the paper's cell model too.
            assert_eq!(solved.solutions[0].occupied(), published, "{name}");
            assert_eq!(unique_solution(&p, Formulation::Cell).occupied(), published);
        }
    }
    let text = data("sb_12_12_6_0.dzn");
    let (_, p) = formats::parse(&text, None).expect("parses");
    let published = minizinc_solution(&p, &text);
    for f in [Formulation::Runs, Formulation::Cell, Formulation::ShipCells] {
        let bm = BattleshipModel::new(&p, f, true);
        let mut search = Search::new(quandary::solve::default_backend(&bm.model), None);
        let mut seen = Vec::new();
        let (status, count) = search.enumerate(&bm.projection(), &[], None, |a| {
            seen.push(bm.occupancy(a));
            true
        });
        assert_eq!((status, count), (Status::Solved, 2), "{f:?}");
        assert!(seen.contains(&published), "{f:?}");
    }
}

#[test]
fn the_printed_eq_6_accepts_layouts_the_rules_forbid() {
    let (_, p) = formats::parse(&data("sb_12_12_6_0.dzn"), None).expect("parses");
    let bm = BattleshipModel::new(&p, Formulation::CellPrinted, true);
    let mut search = Search::new(quandary::solve::default_backend(&bm.model), None);
    let mut wrong = 0;
    search.enumerate(&bm.projection(), &[], Some(50), |a| {
        if verify::verify(&p, &bm.occupancy(a)).is_err() {
            wrong += 1;
        }
        true
    });
    assert!(
        wrong > 0,
        "eq. (6) as printed should admit a layout breaking the rules"
    );
}

#[test]
fn the_stored_30x20_puzzle_is_unique() {
    let (_, p) = formats::parse(&data("generated-30x20-seed3.txt"), None).expect("parses");
    assert_eq!((p.rows, p.cols, p.ships()), (30, 20, 80));
    let l = unique_solution(&p, Formulation::Runs);
    assert_eq!(verify::verify(&p, &l.occupied()), Ok(80));
}

#[test]
fn a_generated_puzzle_is_unique_and_every_clue_is_necessary() {
    for (rows, cols, seed) in [(10, 10, 1), (12, 9, 7)] {
        let g = setter::generate(
            rows,
            cols,
            &[4, 3, 2, 1],
            seed,
            Formulation::Runs,
            None,
            false,
        )
        .expect("generates");
        let again = setter::generate(
            rows,
            cols,
            &[4, 3, 2, 1],
            seed,
            Formulation::Runs,
            None,
            false,
        )
        .expect("generates");
        assert_eq!(g.puzzle, again.puzzle, "the seed reproduces the puzzle");
        let p = &g.puzzle;
        assert_eq!(verify::verify(p, &g.layout.occupied()), Ok(10));
        // Checked on another formulation than the generator's.
        assert_eq!(unique_solution(p, Formulation::Cell), g.layout);
        for (i, j, _) in p.given() {
            let mut clues = p.clues.clone();
            clues[i * cols + j] = None;
            let u = setter::unique(&p.with_clues(clues), Formulation::Cell, None);
            assert_eq!(u.solutions.len(), 2, "clue at {i},{j} should be necessary");
        }
    }
}

#[test]
fn redundant_clues_are_found_and_minimise_keeps_the_solution() {
    let g = setter::generate(10, 10, &[4, 3, 2, 1], 5, Formulation::Runs, None, false)
        .expect("generates");
    // Add every remaining cell of one row as a clue: all of them are redundant.
    let symbols = g.layout.symbols();
    let mut clues = g.puzzle.clues.clone();
    let mut added = Vec::new();
    for j in 0..10 {
        if clues[40 + j].is_none() {
            clues[40 + j] = Some(symbols[40 + j]);
            added.push((4, j, symbols[40 + j]));
        }
    }
    assert!(!added.is_empty());
    let p = g.puzzle.with_clues(clues);
    let found = setter::redundant(&p, Formulation::Runs, None).expect("unique");
    assert_eq!(found.layout, g.layout);
    assert_eq!(found.checked, found.clues);
    for a in &added {
        assert!(found.redundant.contains(a), "{a:?} is redundant");
    }
    // Every clue, against a cold uniqueness check without it on the cell formulation (no
    // session, no cores, no counted rows): redundant exactly when the solution stays unique.
    for (i, j, sym) in p.given() {
        let mut clues = p.clues.clone();
        clues[i * 10 + j] = None;
        let alone = setter::unique(&p.with_clues(clues), Formulation::Cell, None);
        assert_eq!(
            alone.solutions.len() == 1,
            found.redundant.contains(&(i, j, sym)),
            "clue at {i},{j}"
        );
    }
    let m = setter::minimise(&p, Formulation::ShipCells, Some(2), None).expect("ok");
    let (q, layout) = (m.puzzle, m.layout);
    assert!(m.minimal);
    assert_eq!(layout, g.layout);
    assert!(q.given().len() < p.given().len());
    assert_eq!(unique_solution(&q, Formulation::Cell), g.layout);
    let mut s = ClueSession::new(&q, &layout, Formulation::Runs, None, false);
    let cells: Vec<usize> = q.given().iter().map(|&(i, j, _)| i * 10 + j).collect();
    for &c in &cells {
        let without: Vec<usize> = cells.iter().copied().filter(|&d| d != c).collect();
        assert!(
            s.other(&without).expect("no limit").is_some(),
            "clue {c} necessary"
        );
    }
}

#[test]
fn a_stopped_minimisation_answers_a_clue_set_that_is_still_unique() {
    let g = setter::generate(10, 10, &[4, 3, 2, 1], 5, Formulation::Runs, None, false)
        .expect("generates");
    let p = &g.puzzle;
    let cells: Vec<usize> = p.given().iter().map(|&(i, j, _)| i * 10 + j).collect();
    // A session whose deadline has passed stops at its first question: what it answers is
    // the set it started from, and that set must leave the solution unique.
    let past = Some(std::time::Instant::now());
    let mut s = ClueSession::new(p, &g.layout, Formulation::Runs, past, false);
    let partial = s.minimise(&cells, &cells).expect_err("stopped");
    assert_eq!(partial, cells);
    let mut clues = vec![None; 100];
    for &c in &partial {
        clues[c] = p.clues[c];
    }
    assert_eq!(
        unique_solution(&p.with_clues(clues), Formulation::Cell),
        g.layout
    );
    // A stopped uniqueness check has no partial answer: an error, exit status 1.
    let e = setter::redundant(p, Formulation::Runs, past)
        .err()
        .expect("stopped");
    assert_eq!(e.exit_code(), 1, "{e}");
}

#[test]
fn the_verifier_rejects_touching_ships_wrong_counts_and_wrong_clues() {
    let text = data("puzzlink-example.txt");
    let url = text.lines().find_map(|l| l.strip_prefix("; url ")).unwrap();
    let (_, p) = formats::parse(url, None).unwrap();
    let good = occupancy(&grid_rows(&text, ';'));
    assert!(verify::verify(&p, &good).is_ok());
    // Move the submarine from row 6, column 1 to row 5, column 3, beside the cruiser.
    let mut touching = good.clone();
    touching[30] = false;
    touching[24 + 2] = true;
    let why = verify::verify(&p, &touching).unwrap_err();
    assert!(why.contains("touch"), "{why}");
    // Same layout, other counts.
    let mut q = p.clone();
    q.row_counts[0] = Some(2);
    q.row_counts[1] = Some(2);
    let why = verify::verify(&q, &good).unwrap_err();
    assert!(why.contains("row 1"), "{why}");
    // A clue the layout contradicts.
    let mut clues = p.clues.clone();
    clues[2] = Some(Symbol::Sub);
    let why = verify::verify(&p.with_clues(clues), &good).unwrap_err();
    assert!(why.contains("row 1, column 3"), "{why}");
    // A ship part of no kind: any part of a ship keeps it, water does not.
    let ship_at = good.iter().position(|&b| b).expect("a ship cell");
    let water_at = good.iter().position(|&b| !b).expect("a water cell");
    let mut clues = p.clues.clone();
    clues[ship_at] = Some(Symbol::Ship);
    assert!(verify::verify(&p.with_clues(clues.clone()), &good).is_ok());
    clues[water_at] = Some(Symbol::Ship);
    let why = verify::verify(&p.with_clues(clues), &good).unwrap_err();
    let at = format!("row {}, column {}", water_at / 6 + 1, water_at % 6 + 1);
    assert!(why.contains(&at) && why.contains("ship part"), "{why}");
    // A bent ship.
    let mut bent = vec![false; 36];
    for c in [0, 1, 7] {
        bent[c] = true;
    }
    assert!(verify::verify(&p, &bent).is_err());
}

/// A clue that says only "a part of a ship" (`#`; Demystify's hint 8): on random clue sets of
/// such clues and water on the 6×6 puzz.link board (its counts and fleet), every formulation
/// finds what brute force over the fleet's positions, checked by the verifier, finds (no
/// solution, one, or more), and where the solution is unique, the redundant clues are those
/// without which a cold uniqueness check still finds one solution.
#[test]
fn a_ship_part_of_no_kind_is_read_solved_and_judged_as_brute_force_says() {
    let text = data("puzzlink-example.txt");
    let url = text.lines().find_map(|l| l.strip_prefix("; url ")).unwrap();
    let (_, p) = formats::parse(url, None).unwrap();
    let published = occupancy(&grid_rows(&text, ';'));
    // Our format reads '#' as that clue.
    let ours = "size 2 3\nfleet 1 1\nrows 2 1\ncols 1 1 1\ngrid\n# . ~\n. . #\n";
    let (_, q) = formats::parse(ours, None).expect("reads");
    assert_eq!(q.clues[0], Some(Symbol::Ship));
    assert_eq!(q.clues[5], Some(Symbol::Ship));
    let mut rng = setter::Rng::new(7);
    let (mut none, mut one, mut more) = (0, 0, 0);
    for _ in 0..40 {
        let mut clues = vec![None; 36];
        for _ in 0..1 + rng.below(6) {
            let c = rng.below(36);
            // Mostly true to the published solution; now and then a ship part on its water.
            clues[c] = Some(if published[c] || rng.below(8) == 0 {
                Symbol::Ship
            } else {
                Symbol::Water
            });
        }
        let p = p.with_clues(clues);
        let brute = brute_force(&p, 2);
        for f in SOUND {
            let u = setter::unique(&p, f, None);
            assert_eq!(u.solutions.len(), brute.len(), "{f:?} on {:?}", p.clues);
            if brute.len() == 1 {
                assert_eq!(u.solutions[0].occupied(), brute[0], "{f:?}");
            }
        }
        match brute.len() {
            0 => none += 1,
            1 => {
                one += 1;
                let found = setter::redundant(&p, Formulation::Runs, None).expect("unique");
                for (i, j, sym) in p.given() {
                    let mut clues = p.clues.clone();
                    clues[i * 6 + j] = None;
                    let alone = brute_force(&p.with_clues(clues), 2).len() == 1;
                    assert_eq!(
                        alone,
                        found.redundant.contains(&(i, j, sym)),
                        "clue at {i},{j} of {:?}",
                        p.clues
                    );
                }
            }
            _ => more += 1,
        }
    }
    // The sets met every case.
    assert!(none > 0 && one > 0 && more > 0, "{none} {one} {more}");
}

/// Small random edits of valid inputs: the readers answer with a value or an error, never a
/// panic, and an accepted puzzle has consistent counts.
#[test]
fn the_readers_never_panic_on_mangled_input() {
    let text = data("puzzlink-example.txt");
    let url = text.lines().find_map(|l| l.strip_prefix("; url ")).unwrap();
    let seeds = [
        url.to_string(),
        data("sb_12_12_6_0.dzn"),
        data("csplib-prob014.pl"),
        data("generated-30x20-seed3.txt"),
        data("demystify/conceptis-8x8.param"),
        "10x10f4dh,4,3,2,1:3,1,3,2,2,2,0,0,6,1,1,4,1,1,4,0,3,1,5,0,kWzzaWfClS".to_string(),
        "begin\npuzzle battleships\nsize 4\nships 2 1\nclabels 1 1 0 2\nrlabels 2 0 1 1\nproblem\n- - - -\n- x - -\n- - - -\n- - - o\nend\n".to_string(),
    ];
    let alphabet: Vec<char> =
        "0123456789 -?x.o<>^v+~#/\n|[],;:=@abcdefghijklmnopqrstuvwxyzWSTBLRCVQ"
            .chars()
            .collect();
    let mut rng = setter::Rng::new(42);
    for seed in &seeds {
        let chars: Vec<char> = seed.chars().collect();
        for _ in 0..300 {
            let mut t = chars.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(t.len().max(1));
                match rng.below(3) {
                    0 if at < t.len() => {
                        t.remove(at);
                    }
                    1 => t.insert(at.min(t.len()), alphabet[rng.below(alphabet.len())]),
                    _ if at < t.len() => t[at] = alphabet[rng.below(alphabet.len())],
                    _ => {}
                }
            }
            let t: String = t.into_iter().collect();
            if let Ok((_, p)) = formats::parse(&t, None) {
                assert_eq!(p.clues.len(), p.rows * p.cols);
                let rs: usize = p.row_counts.iter().flatten().sum();
                let cs: usize = p.col_counts.iter().flatten().sum();
                if p.row_counts.iter().all(Option::is_some)
                    && p.col_counts.iter().all(Option::is_some)
                {
                    assert_eq!(rs, cs, "{t}");
                    assert_eq!(rs, p.fleet_cells(), "{t}");
                }
            }
        }
    }
}

/// A board far larger than its fleet (the puzz.link case `battleship/200/200//e`: no counts,
/// no clues) is answered inside a window of the board; two solutions there mean "not unique".
#[test]
fn a_large_empty_board_is_answered_inside_a_window() {
    use quandary::puzzles::battleship::BattleshipPuzzle;
    use quandary::puzzles::Puzzle as _;
    use quandary::runner::{run, Limits, Query};
    let o = Default::default();
    let p = BattleshipPuzzle::read(
        &["https://puzz.link/p?battleship/200/200//e".to_string()],
        &o,
        quandary::puzzles::Files::Disk,
    )
    .unwrap();
    // 35 ship cells: a window of at least 140 cells, sides at least 6.
    let w = p.window(4 * p.fleet_cells()).expect("a window");
    assert_eq!(w, [0, 12, 0, 12]);
    let first = run::<BattleshipPuzzle>(&p, &o, Query::First, &Limits::none()).unwrap();
    assert_eq!(first.status, Status::Solved);
    assert!(
        first.stats.method.contains("tried first"),
        "{}",
        first.stats.method
    );
    let occupied = first.solutions[0].occupied();
    assert!(verify::verify(&p, &occupied).is_ok());
    let unique = run::<BattleshipPuzzle>(&p, &o, Query::Unique, &Limits::none()).unwrap();
    assert_eq!(unique.unique, Some(false));
    assert_eq!(unique.solutions.len(), 2);
    assert_ne!(unique.solutions[0], unique.solutions[1]);
    for s in &unique.solutions {
        assert!(verify::verify(&p, &s.occupied()).is_ok());
    }
}

/// The window is a restriction, not a rule: when nothing fits inside it (here, water given
/// over the top-left 10×10 of a 30×30 board, one carrier), the whole board is solved.
#[test]
fn a_window_without_a_solution_falls_back_to_the_whole_board() {
    use quandary::puzzles::battleship::BattleshipPuzzle;
    use quandary::runner::{run, Limits, Query};
    let n = 30;
    let mut clues = vec![None; n * n];
    for i in 0..10 {
        for j in 0..10 {
            clues[i * n + j] = Some(Symbol::Water);
        }
    }
    let p = Grid::new(
        n,
        n,
        vec![0, 0, 0, 0, 1],
        vec![None; n],
        vec![None; n],
        clues,
    )
    .unwrap();
    assert_eq!(p.window(4 * 5), Some([0, 6, 0, 6]));
    let o = Default::default();
    let first = run::<BattleshipPuzzle>(&p, &o, Query::First, &Limits::none()).unwrap();
    assert_eq!(first.status, Status::Solved);
    assert!(
        first.stats.phases.iter().all(|p| p.ends_with("no answer")),
        "{:?}",
        first.stats.phases
    );
    assert!(!first.stats.phases.is_empty());
    assert!(verify::verify(&p, &first.solutions[0].occupied()).is_ok());
    // A row count above zero pulls the window over that row; all counts given: no window.
    let counted = Grid::new(
        6,
        40,
        vec![1],
        vec![Some(1), None, None, None, None, None],
        vec![None; 40],
        vec![None; 240],
    )
    .unwrap();
    assert_eq!(counted.window(4), Some([0, 3, 0, 2]));
    let full = Grid::new(
        2,
        2,
        vec![1],
        vec![Some(1), Some(0)],
        vec![Some(1), Some(0)],
        vec![None; 4],
    )
    .unwrap();
    assert_eq!(full.window(4), None);
}
