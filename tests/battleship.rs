//! Battleship: published puzzles and their solutions, an independent brute-force count, the
//! verifier, the setter's operations and the readers' errors.

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

/// Demystify's Essence′ parameter files (`letting hint be [...]`) read as the same puzzle
/// written in our own format, by hand, from the codes its model states (0 water, 1 circle,
/// 2 middle, 3 top, 4 bottom, 5 right, 6 left, 7 no hint).
#[test]
fn an_essence_parameter_file_reads_as_the_same_puzzle_in_our_format() {
    let essence = "language ESSENCE' 1.0\n$ a comment\nletting LARGEST be 3\n\
        letting width be 5\nletting height be 4\nletting num_types be [2,1,1]\n\
        letting column_tallies be [1,1,1,2,2]\nletting row_tallies be [3,1,0,3]\n\
        letting hint be [ [6,7,7,7,1],\n [7,7,0,7,7],\n [7,7,7,7,7],\n [7,3,4,5,2] ]\n";
    let ours = "size 4 5\nfleet 2 1 1\nrows 3 1 0 3\ncols 1 1 1 2 2\ngrid\n\
        < . . . o\n. . ~ . .\n. . . . .\n. ^ v > +\n";
    let (format, a) = formats::parse(essence, None).expect("Essence′ parameters read");
    assert_eq!(format, formats::Format::Essence);
    let (_, b) = formats::parse(ours, None).expect("our format reads");
    assert_eq!(a, b);
}

/// Each puzzle of `data/battleship/{dir}` (files ending in `ext`, `count` of them, read as
/// `format`) is unique, by two formulations, and its solution passes the verifier.
fn published_set_is_unique(dir: &str, ext: &str, count: usize, format: formats::Format) {
    let path = format!("{}/data/battleship/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<_> = std::fs::read_dir(&path)
        .unwrap()
        .map(|e| format!("{dir}/{}", e.unwrap().file_name().into_string().unwrap()))
        .filter(|n| n.ends_with(ext))
        .collect();
    names.sort();
    assert_eq!(names.len(), count, "{names:?}");
    each_is_unique(&names, format);
}

/// Each of the puzzles `names` (under `data/battleship/`, read as `format`) is unique, by two
/// formulations, and its solution passes the verifier.
fn each_is_unique(names: &[String], format: formats::Format) {
    for name in names {
        let (read_as, p) = formats::parse(&data(name), None).expect("parses");
        assert_eq!(read_as, format, "{name}");
        let runs = unique_solution(&p, Formulation::Runs);
        let cell = unique_solution(&p, Formulation::Cell);
        assert_eq!(runs.occupied(), cell.occupied(), "{name}");
        assert!(verify::verify(&p, &runs.occupied()).is_ok(), "{name}");
    }
}

/// The published puzzles Demystify explains (data/battleship/demystify: conceptis,
/// dkmgames, puzzler.com, tectonicpuzzel and one of Savile Row's; three of them with hint 8,
/// a ship part of no kind).
#[test]
fn the_demystify_puzzles_are_unique_by_two_formulations() {
    published_set_is_unique("demystify", ".param", 14, formats::Format::Essence);
}

/// The two published 15×15 puzzles at hand: puzzle-battleships.com's and BrainBashers' (five
/// of its clues ship parts of no kind).
#[test]
fn the_published_15x15_puzzles_are_unique_by_two_formulations() {
    let names = ["puzzle-battleships-15x15.txt", "brainbashers-15x15.txt"].map(String::from);
    each_is_unique(&names, formats::Format::Quandary);
}

/// Twelve published KrazyDad 10×10 puzzles (data/battleship/krazydad), 4 to 8 clues each,
/// some of them ship parts of no kind.
#[test]
fn the_krazydad_puzzles_are_unique_by_two_formulations() {
    published_set_is_unique("krazydad", ".txt", 12, formats::Format::Quandary);
}

/// Forty-five puzzles made by Boats, a Battleship generator for people (data/battleship/boats:
/// twenty 10×10, twenty 15×15 and five 30×20 with the paper's fleet, each solvable by Boats'
/// own step-by-step solver), read in our format.
#[test]
fn the_boats_puzzles_are_unique_by_two_formulations() {
    published_set_is_unique("boats", ".txt", 45, formats::Format::Quandary);
}

/// Each Boats puzzle's game ID (its header's `; its game ID:` line) reads as the same puzzle as
/// the file's own lines in our format: two readers, one transcription checked by the other.
#[test]
fn each_boats_game_id_reads_as_its_file() {
    let dir = format!("{}/data/battleship/boats", env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = format!(
            "boats/{}",
            entry.unwrap().file_name().into_string().unwrap()
        );
        let text = data(&name);
        let id = text
            .lines()
            .find_map(|l| l.strip_prefix("; its game ID: "))
            .unwrap_or_else(|| panic!("{name} states its game ID"));
        let (format, from_id) = formats::parse(id, None).expect("the game ID reads");
        assert_eq!(format, formats::Format::Boats, "{name}");
        let (_, from_file) = formats::parse(&text, None).expect("the file reads");
        assert_eq!(from_id, from_file, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 45);
}

/// A Boats game ID written by hand from Boats' own description of its format reads as the same
/// puzzle in our format (default fleet 4 3 2 1 for `f4`, counts columns first, `-` hidden).
#[test]
fn a_boats_game_id_reads_as_the_same_puzzle_in_our_format() {
    let id = "5x4f3,2,1,1:1,1,1,2,-,3,1,0,3,aWbSaWiTRC";
    let ours = "size 4 5\nfleet 2 1 1\nrows 3 1 0 3\ncols 1 1 1 2 ?\ngrid\n\
        . ~ . . o\n. ~ . . .\n. . . . .\n. ^ > + .\n";
    let (format, a) = formats::parse(id, None).expect("Boats game ID reads");
    assert_eq!(format, formats::Format::Boats);
    let (_, b) = formats::parse(ours, None).expect("our format reads");
    assert_eq!(a, b);
    // No fleet given: Boats' default for the longest length N is N, N-1, ..., 1 ships.
    let (_, d) = formats::parse("4x4f2:2,0,2,0,2,0,2,0,", None).expect("reads");
    assert_eq!(d.fleet, vec![2, 1]);
}

/// Every puzzle under data/battleship, whatever its format (all twenty CSPLib instances among
/// them), written as a Boats game ID reads back as the same puzzle.
#[test]
fn every_puzzle_reads_back_from_its_boats_game_id() {
    let root = format!("{}/data/battleship", env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    let mut checked = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let puzzles: Vec<_> = if formats::detect(&text) == formats::Format::Csplib {
            formats::parse_csplib(&text)
                .unwrap()
                .into_iter()
                .map(|(_, p)| p)
                .collect()
        } else {
            match formats::parse(&text, None) {
                Ok((_, p)) => vec![p],
                // Not a puzzle (a licence or notes file).
                Err(_) => continue,
            }
        };
        for p in puzzles {
            let id = formats::to_boats(&p);
            let (format, back) = formats::parse(&id, None).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(format, formats::Format::Boats, "{id}");
            assert_eq!(back, p, "{}: {id}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 140, "{checked}");
}

/// Wrong Boats game IDs are refused with what is wrong.
#[test]
fn wrong_boats_game_ids_name_the_fault() {
    let cases = [
        ("0x4f3:1", "a 0×4 board is not allowed"),
        ("5x999f3:1", "a 5×999 board is not allowed"),
        ("5x4f3,2,1:1,1,1,2,2,3,1,0,3", "the fleet lists 2 lengths"),
        (
            "5x4f3,2,1,1:1,1,1,2,2,3,1,0",
            "8 counts, but 5 columns and 4 rows need 9",
        ),
        (
            "5x4f3,2,1,1:1,1,1,2,2,3,1,0,3,aQ",
            "'Q' at character 20 is not a cell of Boats",
        ),
        (
            "5x4f3,2,1,1:1,1,1,2,2,3,1,0,3,zW",
            "lies past the 5×4 board",
        ),
        (
            "5x4f3,2,1,1:1,1,1,2,W,3,1,0,3",
            "4 counts for 5 columns and 4 rows, then 'W'",
        ),
        (
            "5x4f3,2,1,1:1,1,1,2,2,3,1,0,99999999999999999999999",
            "is too large",
        ),
    ];
    for (id, want) in cases {
        match formats::parse(id, None) {
            Ok(_) => panic!("{id} was accepted"),
            Err(e) => assert!(e.to_string().contains(want), "{id}: {e}"),
        }
    }
}

/// Wrong Essence′ parameters are refused with the line and what is wrong.
#[test]
fn wrong_essence_parameters_name_the_line_and_the_fault() {
    let good = "letting width be 2\nletting height be 2\nletting num_types be [1]\n\
        letting column_tallies be [1,0]\nletting row_tallies be [1,0]\n\
        letting hint be [[7,7],[7,7]]\n";
    assert!(formats::parse(good, None).is_ok());
    let cases = [
        (
            good.replace("[[7,7],[7,7]]", "[[7,9],[7,7]]"),
            "line 6: hint 9 at row 1, column 2",
        ),
        (
            good.replace("[[7,7],[7,7]]", "[[7,7],[7]]"),
            "line 6: hint has 3 entries for a 2×2",
        ),
        (
            good.replace("letting height be 2\n", ""),
            "no `letting height be ...`",
        ),
        (
            format!("{good}letting width be 3\n"),
            "line 7: 'width' is given twice",
        ),
        (
            good.replace("be [1,0]\nletting row", "be [1,-1]\nletting row"),
            "line 4: 'column_tallies': '-'",
        ),
        (
            format!("letting LARGEST be 2\n{good}"),
            "line 1: LARGEST is 2 but num_types lists 1",
        ),
        (
            good.replace("width be 2", "width 2"),
            "line 1: expected `letting NAME be VALUE`",
        ),
        (
            good.replace(
                "[1,0]\nletting row_tallies be [1,0]",
                "[1,0]\nletting row_tallies be [0,0]",
            ),
            "row",
        ),
        (
            good.replace("letting height be 2", "letting height be [2,2]"),
            "line 2: 'height' must be one number",
        ),
    ];
    for (text, needle) in cases {
        let e = formats::parse(&text, None).expect_err(needle).to_string();
        assert!(e.contains(needle), "{needle}: {e}");
    }
}

/// Every Battleship puzzle under data/battleship (every fleet, every instance of the CSPLib
/// file) converts to a puzz.link URL that reads back as the same puzzle.
#[test]
fn every_puzzle_in_data_reads_back_from_its_puzzlink_url() {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).expect("data folder") {
            let path = e.expect("entry").path();
            if path.is_dir() {
                files(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut all = Vec::new();
    files(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/battleship")),
        &mut all,
    );
    let mut puzzles: Vec<(String, Grid)> = Vec::new();
    for path in &all {
        let text = std::fs::read_to_string(path).expect("text");
        let name = path.display().to_string();
        if formats::detect(&text) == formats::Format::Csplib {
            for (id, p) in formats::parse_csplib(&text).expect("CSPLib") {
                puzzles.push((format!("{name} {id}"), p));
            }
        } else {
            let (_, p) = formats::parse(&text, None).unwrap_or_else(|e| panic!("{name}: {e}"));
            puzzles.push((name, p));
        }
    }
    assert!(puzzles.len() >= 140, "only {} puzzles read", puzzles.len());
    let fleets: std::collections::BTreeSet<Vec<usize>> =
        puzzles.iter().map(|(_, p)| p.fleet.clone()).collect();
    assert!(fleets.len() >= 4, "{fleets:?}");
    for (name, p) in &puzzles {
        let url = formats::to_puzzlink(p).unwrap_or_else(|| panic!("{name}: no URL"));
        let back = formats::parse_puzzlink(&url).unwrap_or_else(|e| panic!("{name}: {url}: {e}"));
        assert_eq!(&back, p, "{name}: {url}");
    }
}
