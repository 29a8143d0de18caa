//! Explanations checked by brute force: on small Battleship boards every board (2^cells) is
//! tried, each reason element is read from its words by the rules here (no model, no solver),
//! and each step must be sound (every board its reason admits has its conclusions), minimal
//! (dropping any element admits a board where a conclusion fails) and, where it says so,
//! the cheapest (no cheaper set of the elements available then forces its first conclusion).

use quandary::explain::{Cited, Explanation, Minimal};
use quandary::model::Kind;
use quandary::puzzles::battleship::{formats, BattleshipPuzzle};
use quandary::puzzles::Reasons;
use quandary::puzzles::{Place, Puzzle, Query};
use quandary::runner::{run, Limits};

/// A board: bit `r * cols + c` set for a ship cell.
struct Rules {
    rows: usize,
    cols: usize,
    longest: usize,
}

impl Rules {
    fn at(&self, b: u64, r: isize, c: isize) -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < self.rows
            && (c as usize) < self.cols
            && b >> (r as usize * self.cols + c as usize) & 1 == 1
    }

    /// The ships of a board as the puzzle counts them: a straight run of 1 to `longest`
    /// cells whose ends (both neighbours along it; all four for one cell) are water.
    fn ships(&self, b: u64) -> Vec<(usize, bool, isize, isize)> {
        let mut out = Vec::new();
        for r in 0..self.rows as isize {
            for c in 0..self.cols as isize {
                for (horizontal, dr, dc) in [(true, 0, 1), (false, 1, 0)] {
                    for len in 1..=self.longest as isize {
                        if len == 1 && !horizontal {
                            continue;
                        }
                        let cells = (0..len).all(|t| self.at(b, r + t * dr, c + t * dc));
                        let ends =
                            !self.at(b, r - dr, c - dc) && !self.at(b, r + len * dr, c + len * dc);
                        let sides = len > 1 || (!self.at(b, r - 1, c) && !self.at(b, r + 1, c));
                        if cells && ends && sides {
                            out.push((len as usize, horizontal, r, c));
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether a cited element holds on board `b`, read from its words.
    fn holds(&self, e: &Cited, b: u64) -> bool {
        let t = e.text.as_str();
        let num = |s: &str| -> Vec<isize> {
            s.split(|ch: char| !ch.is_ascii_digit())
                .filter(|w| !w.is_empty())
                .map(|w| w.parse().unwrap())
                .collect()
        };
        if let Some(rest) = t.strip_prefix("row ") {
            let n = num(rest);
            return (0..self.cols as isize)
                .filter(|&c| self.at(b, n[0] - 1, c))
                .count() as isize
                == n[1];
        }
        if let Some(rest) = t.strip_prefix("column ") {
            let n = num(rest);
            return (0..self.rows as isize)
                .filter(|&r| self.at(b, r, n[0] - 1))
                .count() as isize
                == n[1];
        }
        if let Some(rest) = t.strip_prefix("the fleet has ") {
            let n = num(rest);
            return self
                .ships(b)
                .iter()
                .filter(|s| s.0 as isize == n[1])
                .count() as isize
                == n[0];
        }
        if let Some(rest) =
            t.strip_prefix("ships do not touch at a corner in the square whose top left is ")
        {
            let n = num(rest);
            let (r, c) = (n[0] - 1, n[1] - 1);
            let down = self.at(b, r, c) && self.at(b, r + 1, c + 1);
            let up = self.at(b, r, c + 1) && self.at(b, r + 1, c);
            return !down && !up;
        }
        if let Some(rest) = t.strip_prefix("no ship in ") {
            let n = num(rest);
            let (line, max) = (n[0] - 1, n[1]);
            let along = if rest.starts_with("row") {
                self.cols
            } else {
                self.rows
            };
            let mut run = 0;
            for k in 0..along as isize {
                let occ = if rest.starts_with("row") {
                    self.at(b, line, k)
                } else {
                    self.at(b, k, line)
                };
                run = if occ { run + 1 } else { 0 };
                if run > max {
                    return false;
                }
            }
            return true;
        }
        let n = num(t);
        let (r, c) = (n[0] - 1, n[1] - 1);
        if t.ends_with(" is ship") {
            return self.at(b, r, c);
        }
        if t.ends_with(" is water") {
            return !self.at(b, r, c);
        }
        let shows = t.split(" shows ").nth(1).expect("a clue");
        if shows == "water" {
            return !self.at(b, r, c);
        }
        // (free neighbours, occupied neighbours, the ship cell it is: (horizontal, which))
        type Offsets = &'static [(isize, isize)];
        let (free, full): (Offsets, Offsets) = match shows {
            "a submarine" => (&[(-1, 0), (1, 0), (0, -1), (0, 1)], &[]),
            "the left end of a ship" => (&[(0, -1), (-1, 0), (1, 0)], &[(0, 1)]),
            "the right end of a ship" => (&[(0, 1), (-1, 0), (1, 0)], &[(0, -1)]),
            "the top end of a ship" => (&[(-1, 0), (0, -1), (0, 1)], &[(1, 0)]),
            "the bottom end of a ship" => (&[(1, 0), (0, -1), (0, 1)], &[(-1, 0)]),
            "the middle of a ship" => (&[], &[]),
            other => panic!("unknown clue '{other}'"),
        };
        if !self.at(b, r, c) || free.iter().any(|&(dr, dc)| self.at(b, r + dr, c + dc)) {
            return false;
        }
        if full.iter().any(|&(dr, dc)| !self.at(b, r + dr, c + dc)) {
            return false;
        }
        // Some ship shows this symbol here.
        self.ships(b).iter().any(|&(len, horizontal, sr, sc)| {
            let len = len as isize;
            let (dr, dc) = if horizontal { (0, 1) } else { (1, 0) };
            (0..len).any(|t| {
                (sr + t * dr, sc + t * dc) == (r, c)
                    && match shows {
                        "a submarine" => len == 1,
                        "the left end of a ship" => len > 1 && horizontal && t == 0,
                        "the right end of a ship" => len > 1 && horizontal && t == len - 1,
                        "the top end of a ship" => len > 1 && !horizontal && t == 0,
                        "the bottom end of a ship" => len > 1 && !horizontal && t == len - 1,
                        _ => len > 2 && t > 0 && t < len - 1,
                    }
            })
        })
    }
}

struct Explained {
    rules: Rules,
    x: Explanation,
    /// Every group of the puzzle's model (givens and rules), as a reason cites them.
    groups: Vec<Cited>,
}

fn explain(text: &str, reasons: Reasons) -> Explained {
    let (_, grid) = formats::parse(text, None).expect("puzzle");
    let rules = Rules {
        rows: grid.rows,
        cols: grid.cols,
        longest: grid.max_len(),
    };
    let options = Default::default();
    let query = Query::Explain(reasons);
    let o = run::<BattleshipPuzzle>(&grid, &options, query, &Limits::none()).expect("explained");
    let f = BattleshipPuzzle::formulate(&grid, &options, query).expect("model");
    let groups = f.model.groups.iter().map(Cited::from).collect();
    Explained {
        rules,
        x: o.facts.explanation.expect("an explanation"),
        groups,
    }
}

/// A set of elements as masks: groups (bit k for group k), cells said to be ship, water.
#[derive(Clone, Copy, Default)]
struct Set {
    groups: u64,
    ship: u64,
    water: u64,
    cost: u32,
}

impl Set {
    fn add(mut self, e: &Cited, groups: &[Cited], cols: usize) -> Set {
        self.cost += match e.kind {
            Kind::Rule => 2,
            _ => 1,
        };
        if e.kind == Kind::Earlier {
            let Some(Place::Cell(r, c)) = e.place else {
                panic!("a conclusion on a cell")
            };
            let bit = 1u64 << (r * cols + c);
            if e.text.ends_with(" is ship") {
                self.ship |= bit;
            } else {
                assert!(e.text.ends_with(" is water"), "{}", e.text);
                self.water |= bit;
            }
        } else {
            let k = groups
                .iter()
                .position(|g| g.kind == e.kind && g.text == e.text)
                .expect("a group of the model");
            self.groups |= 1 << k;
        }
        self
    }

    fn admits(&self, board: u64, holds: u64) -> bool {
        holds & self.groups == self.groups
            && board & self.ship == self.ship
            && board & self.water == 0
    }
}

/// Checks every step of the explanation of `text` (its reasons looked for as `reasons` says)
/// against every board.
fn check(text: &str, reasons: Reasons) -> Explanation {
    let Explained { rules, x, groups } = explain(text, reasons);
    let cells = rules.rows * rules.cols;
    assert!(
        cells <= 20 && groups.len() <= 64,
        "brute force over 2^{cells} boards"
    );
    // For every board, which groups hold on it.
    let holds: Vec<u64> = (0..1u64 << cells)
        .map(|b| {
            groups
                .iter()
                .enumerate()
                .filter(|(_, g)| rules.holds(g, b))
                .fold(0u64, |m, (k, _)| m | 1 << k)
        })
        .collect();
    let concl = |b: u64, d: &quandary::runner::Forced| match d.meaning.place {
        Place::Cell(r, c) => (b >> (r * rules.cols + c) & 1 == 1) == d.value,
        Place::Hex(..) => unreachable!(),
    };
    let mut seen: Vec<Cited> = Vec::new();
    let mut cheapest_checked = 0;
    for (i, s) in x.steps.iter().enumerate() {
        assert!(!s.derived.is_empty() && !s.reason.is_empty(), "step {i}");
        for e in s.reason.iter().filter(|e| e.kind == Kind::Earlier) {
            assert!(
                seen.contains(e),
                "step {i} cites '{}' before it is concluded",
                e.text
            );
        }
        let set = |skip: Option<usize>| {
            s.reason
                .iter()
                .enumerate()
                .filter(|&(k, _)| Some(k) != skip)
                .fold(Set::default(), |acc, (_, e)| {
                    acc.add(e, &groups, rules.cols)
                })
        };
        let whole = set(None);
        assert_eq!(
            whole.cost, s.cost,
            "step {i}: its cost is its elements' costs"
        );
        // Sound: every board the reason admits has every conclusion.
        for (b, &h) in holds.iter().enumerate() {
            if whole.admits(b as u64, h) {
                assert!(
                    s.derived.iter().all(|d| concl(b as u64, d)),
                    "step {i} is unsound"
                );
            }
        }
        // Minimal: without any one element, some board breaks a conclusion.
        for k in 0..s.reason.len() {
            let less = set(Some(k));
            let needed = holds.iter().enumerate().any(|(b, &h)| {
                less.admits(b as u64, h) && s.derived.iter().any(|d| !concl(b as u64, d))
            });
            assert!(needed, "step {i}: '{}' is not needed", s.reason[k].text);
        }
        // Cheapest, where it says so (checked for reasons of cost up to 4): no set of the
        // elements at hand (every group, the conclusions so far) costing less forces the
        // first conclusion.
        if s.minimal == Minimal::Smallest && s.cost <= 4 {
            let first = &s.derived[0];
            let against: Vec<(u64, u64)> = holds
                .iter()
                .enumerate()
                .filter(|&(b, _)| !concl(b as u64, first))
                .map(|(b, &h)| (b as u64, h))
                .collect();
            let at_hand: Vec<Set> = groups
                .iter()
                .chain(&seen)
                .map(|e| Set::default().add(e, &groups, rules.cols))
                .collect();
            fn cheaper(
                at_hand: &[Set],
                from: usize,
                acc: Set,
                bound: u32,
                against: &[(u64, u64)],
            ) -> bool {
                if acc.cost > 0 && !against.iter().any(|&(b, h)| acc.admits(b, h)) {
                    return true;
                }
                (from..at_hand.len()).any(|k| {
                    let e = at_hand[k];
                    acc.cost + e.cost < bound
                        && cheaper(
                            at_hand,
                            k + 1,
                            Set {
                                groups: acc.groups | e.groups,
                                ship: acc.ship | e.ship,
                                water: acc.water | e.water,
                                cost: acc.cost + e.cost,
                            },
                            bound,
                            against,
                        )
                })
            }
            assert!(
                !cheaper(&at_hand, 0, Set::default(), s.cost, &against),
                "step {i} says its reason is the cheapest, and a cheaper one exists"
            );
            cheapest_checked += 1;
        }
        for d in &s.derived {
            seen.push(Cited {
                kind: Kind::Earlier,
                place: Some(d.meaning.place),
                text: format!(
                    "{} is {}",
                    match d.meaning.place {
                        Place::Cell(r, c) => format!("({},{})", r + 1, c + 1),
                        Place::Hex(..) => unreachable!(),
                    },
                    if d.value { "ship" } else { "water" }
                ),
                cells: vec![d.meaning.place],
            });
        }
    }
    assert!(cheapest_checked > 0, "some step claims the cheapest reason");
    x
}

const SEED2: &str = "size 4 5\nfleet 2 1 1\nrows 2 1 3 1\ncols 2 0 2 0 3\ngrid\no . . . .\n. . . . .\n. . . . .\n. . . . .\n";
const SEED3: &str = "size 4 5\nfleet 2 1 1\nrows 2 2 1 2\ncols 2 1 1 0 3\ngrid\n. . . . .\n. . o . .\n. . . . .\n. . . . .\n";
const NO_CLUES: &str = "size 4 5\nfleet 2 1 1\nrows 2 1 3 1\ncols 2 2 1 0 2\ngrid\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n";

#[test]
fn every_step_is_sound_and_minimal_on_every_board() {
    // Each engine alone (the race gives whichever finishes first), and the race.
    let ways = [Reasons::Alone, Reasons::Counting, Reasons::Levels];
    for (text, reasons) in [SEED2, SEED3, NO_CLUES]
        .into_iter()
        .flat_map(|t| ways.map(|r| (t, r)))
    {
        let x = check(text, reasons);
        assert!(x.complete, "a unique puzzle is explained to the end");
        assert_eq!(x.open, 0);
        assert_eq!(x.difficulty.steps, x.steps.len());
        assert_eq!(
            x.difficulty.hardest,
            x.steps.iter().map(|s| s.cost).max().unwrap()
        );
    }
}

/// The outcome of `explain` on a Battleship puzzle given as text.
fn explained(
    text: &str,
    limits: &Limits,
) -> quandary::runner::Outcome<quandary::puzzles::battleship::Layout> {
    let (_, grid) = formats::parse(text, None).expect("puzzle");
    run::<BattleshipPuzzle>(
        &grid,
        &Default::default(),
        Query::Explain(Reasons::Levels),
        limits,
    )
    .expect("answered")
}

#[test]
fn a_puzzle_with_two_solutions_stops_where_nothing_more_is_forced() {
    // Two submarines, one in each row, in columns 1 and 3: two ways (opposite corners).
    let text = "size 2 3\nfleet 2\nrows 1 1\ncols 1 0 1\ngrid\n. . .\n. . .\n";
    let o = explained(text, &Limits::none());
    let x = o.facts.explanation.expect("explained");
    assert!(!x.complete);
    // Column 2 is water in both; the corners differ.
    let derived: Vec<_> = x.steps.iter().flat_map(|s| s.derived.clone()).collect();
    let mut places: Vec<Place> = derived.iter().map(|d| d.meaning.place).collect();
    places.sort();
    assert_eq!(places, vec![Place::Cell(0, 1), Place::Cell(1, 1)]);
    assert!(derived.iter().all(|d| !d.value));
    assert_eq!(x.open, 4);
}

#[test]
fn a_puzzle_with_no_solution_says_so() {
    // One submarine in column 2, and a clue says that cell is water.
    let text = "size 1 4\nfleet 1\nrows 1\ncols 0 1 0 0\ngrid\n. ~ . .\n";
    let o = explained(text, &Limits::none());
    assert_eq!(o.facts.status, quandary::solve::search::Status::Infeasible);
    assert!(o.facts.explanation.is_none());
}

#[test]
fn generate_makes_puzzles_in_the_band_asked_for() {
    use quandary::puzzles::battleship::model::Formulation;
    use quandary::verbs::battleship::setting::{generate, Band};
    for (name, band) in [
        ("easy", Band::parse("easy").unwrap()),
        ("medium", Band::parse("5-12").unwrap()),
    ] {
        let r = generate(
            8,
            8,
            "3 2 1",
            3,
            Formulation::Runs,
            Some(band),
            &Limits::none(),
        )
        .expect("generated");
        let d = &r.facts.details.as_ref().expect("details")["difficulty"];
        let hardest = d["hardest"].as_u64().expect("rated") as u32;
        assert!(band.least <= hardest && hardest <= band.most, "{name}: {d}");
        // The puzzle it wrote: unique by the cell formulation's own count, and its
        // explanation, made again, as hard as reported.
        let text = r.file.clone().expect("the puzzle file");
        let (_, grid) = formats::parse(&text, None).expect("readable");
        let cell = quandary::puzzles::battleship::puzzle::Options {
            formulation: Formulation::Cell,
            ..Default::default()
        };
        let count =
            run::<BattleshipPuzzle>(&grid, &cell, Query::Count { cap: None }, &Limits::none())
                .expect("counted");
        assert_eq!(count.facts.count, Some(1), "{name}: unique");
        // On the one engine ratings use: the same steps every run.
        let alone = Query::Explain(Reasons::Alone);
        let x = run::<BattleshipPuzzle>(&grid, &Default::default(), alone, &Limits::none())
            .expect("explained")
            .facts
            .explanation
            .expect("an explanation");
        assert_eq!(x.difficulty.hardest, hardest, "{name}");
    }
    assert!(Band::parse("extreme").is_err());
}

#[test]
fn the_chess_example_is_explained_to_its_one_placement() {
    use quandary::puzzles::chess::ChessAvoidance;
    let options = Default::default();
    let words = vec![format!(
        "{}/data/chess/friedman-b4n2.txt",
        env!("CARGO_MANIFEST_DIR")
    )];
    let files = quandary::input::Files::Disk;
    let i = ChessAvoidance::read(&words, &options, files).expect("the board");
    let o = run::<ChessAvoidance>(
        &i,
        &options,
        Query::Explain(Reasons::Levels),
        &Limits::none(),
    )
    .expect("explained");
    let x = o.facts.explanation.expect("explained");
    assert!(x.complete);
    // The six pieces the steps place are the unique solution's.
    let placed: Vec<(Place, String)> = x
        .steps
        .iter()
        .flat_map(|s| s.derived.iter())
        .filter(|d| d.value)
        .map(|d| (d.meaning.place, d.meaning.says.clone()))
        .collect();
    assert_eq!(placed.len(), 6);
    let solution = serde_json::to_value(&o.solutions[0]).unwrap();
    let rows: Vec<String> = serde_json::from_value(solution["rows"].clone()).unwrap();
    for (p, says) in placed {
        let Place::Cell(r, c) = p else {
            panic!("a square")
        };
        assert_eq!(rows[r].chars().nth(c).unwrap().to_string(), says);
    }
}

#[test]
fn a_time_limit_stops_an_explanation_with_the_steps_so_far() {
    let text = std::fs::read_to_string(format!(
        "{}/data/battleship/sb_15_15_7_0.dzn",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let started = std::time::Instant::now();
    let o = explained(&text, &Limits::new(Some(std::time::Duration::from_secs(2))));
    assert!(
        started.elapsed().as_secs_f64() < 4.0,
        "{:?}",
        started.elapsed()
    );
    assert_eq!(o.facts.status, quandary::solve::search::Status::Unknown);
    if let Some(x) = o.facts.explanation {
        assert!(!x.complete);
    }
}

/// A step's picture shows the puzzle as a person sees it: the counts beside the rows and
/// below the columns (an unknown one as ?) and the clues given, which the steps' reasons
/// cite, on every step, a clue given and not yet concluded in the clues' colours (the
/// pictures showed neither before).
#[test]
fn step_pictures_show_the_counts_and_the_clues_given() {
    // 2×3, two submarines, counts 1 ? / 1 0 1, a submarine given at (1,1).
    let text = "size 2 3\nfleet 2\nrows 1 ?\ncols 1 0 1\ngrid\no . .\n. . .\n";
    let o = explained(text, &Limits::none());
    let x = o.facts.explanation.expect("explained");
    let pictures = quandary::explain::pictures(&x);
    assert!(!pictures.is_empty());
    let texts = |svg: &str| -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| Some(t.split_once('>')?.1.split_once('<')?.0.trim().to_string()))
            .collect()
    };
    for svg in &pictures {
        let said = texts(svg);
        // Two row marks and three column marks, besides the cells' labels.
        for mark in ["?", "0"] {
            assert!(said.iter().any(|t| t == mark), "{mark} in {said:?}");
        }
        assert!(said.iter().filter(|t| *t == "1").count() >= 3, "{said:?}");
    }
    // The given submarine shows on every picture, concluded or not.
    for svg in &pictures {
        assert!(texts(svg).iter().any(|t| t == "o"), "{svg}");
    }
    // A step whose reason is a count has that count outlined where it is written: column 2
    // holds 0 ship cells, so its count below the board (row 2 of the picture's cells, the
    // margin) is outlined as well as its two cells.
    let k = x
        .steps
        .iter()
        .position(|s| s.reason.iter().any(|c| c.text.contains("column 2")))
        .expect("a step citing column 2's count");
    let outlines: Vec<&str> = pictures[k]
        .split("<rect")
        .skip(1)
        .filter(|r| r.contains("stroke=\"#c0392b\""))
        .collect();
    // Outlines sit 3 units inside a 40-unit cell from a 10-unit margin: x = 10 + 40c + 3.
    let at = |r: usize, c: usize| format!("x=\"{}\" y=\"{}\"", 10 + 40 * c + 3, 10 + 40 * r + 3);
    for (r, c) in [(0, 1), (1, 1), (2, 1)] {
        assert!(
            outlines.iter().any(|o| o.contains(&at(r, c))),
            "({r},{c}) outlined in step {}: {outlines:?}",
            k + 1
        );
    }
}

/// One difficulty per puzzle: `explain --threads 1` (one engine, every row in clauses) gives
/// the rating `unique --difficulty` gives, on Demystify's puzzles made for people, and says
/// so (`rating`); a default explanation whose steps came from the other engine of the race
/// (whose costs can differ: 9 of the 14 on 2026-11-27) says it is not the rating.
#[test]
fn one_engine_gives_the_puzzles_rating_and_a_race_says_when_it_does_not() {
    let json = |args: &[&str]| -> serde_json::Value {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_quandary"))
            .args(args)
            .arg("--json")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("quandary runs");
        serde_json::from_slice(&out.stdout).expect("one JSON object")
    };
    for name in [
        "conceptis-advanced-techniques",
        "dkmgames-tutorial",
        "tectonicpuzzel-place-water",
    ] {
        let file = format!("data/battleship/demystify/{name}.param");
        let alone = json(&["battleship", "explain", &file, "--threads", "1"]);
        let rated = json(&["battleship", "unique", &file, "--difficulty"]);
        assert_eq!(alone["rating"], true, "{name}: {alone}");
        assert_eq!(
            alone["difficulty"], rated["details"]["difficulty"],
            "{name}"
        );
        // One raced run, its flag and its headline together (which engine wins varies).
        let raced = quandary::runner::registry::find("battleship")
            .unwrap()
            .run(
                std::slice::from_ref(&file),
                quandary::input::Files::Disk,
                quandary::runner::registry::OptionsIn::Default,
                Query::Explain(Reasons::Levels),
                &Limits::none(),
                None,
            )
            .expect("explained");
        let x = raced.facts.explanation.as_ref().expect("an explanation");
        let says = raced.text.contains("one engine gives those: `--threads 1`");
        assert_eq!(says, !x.rating, "{name}: {}", raced.text);
        if x.rating {
            assert_eq!(
                serde_json::to_value(x.difficulty).unwrap(),
                alone["difficulty"],
                "{name}"
            );
        }
    }
}
