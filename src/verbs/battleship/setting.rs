//! Battleship's setter verbs as reports (paper §5 and beyond): the clues that can each be
//! removed, a locally minimal clue set, a new puzzle. The work is the puzzle's
//! ([`crate::puzzles::battleship::setter`]); this room runs it within the run's limits and
//! answers a [`Report`] like every verb ([`crate::verbs`] reaches it from the front ends).

use crate::error::{Error, Result};
use crate::puzzles::battleship::model::Formulation;
use crate::puzzles::battleship::puzzle::{parse_fleet, BattleshipPuzzle, Options};
use crate::puzzles::battleship::{bench, formats, setter, to_svg, to_text, Grid, Layout};
use crate::puzzles::Puzzle;
use crate::runner::report::Report;
use crate::solve::limits::{bounded, Limits};
use crate::solve::search::Status;

/// A report of a setter's verb, its puzzle's layout checked; `stopped` says what a run
/// stopped by the time limit leaves undone (status unknown, exit status 1).
fn setter_report(
    verb: &str,
    p: &Grid,
    layout: &Layout,
    limits: &Limits,
    stopped: Option<String>,
) -> Result<Report> {
    BattleshipPuzzle::verify(p, layout).map_err(|why| {
        Error::Internal(format!("the setter's solution fails the verifier: {why}"))
    })?;
    let status = match stopped {
        Some(_) => Status::Unknown,
        None => Status::Solved,
    };
    let mut r = Report::new(
        BattleshipPuzzle::NAME,
        verb,
        BattleshipPuzzle::describe(p),
        status,
    );
    r.solution = serde_json::to_value(layout).ok();
    r.stats.seconds = limits.seconds();
    r.svg = Some(to_svg(p, Some(layout), &[]));
    if let Some(why) = stopped {
        r.details = Some(serde_json::json!({ "stopped": why }));
    }
    Ok(r)
}

/// The clues that can each be removed alone with the solution staying unique (paper §5). A
/// run stopped after the uniqueness check reports the clues it checked.
pub fn redundant(p: &Grid, o: &Options, limits: &Limits) -> Result<Report> {
    let found = bounded(limits, "the redundant-clue search", || {
        setter::redundant(p, o.formulation, limits.deadline)
    })?;
    let red = &found.redundant;
    let stopped = (found.checked < found.clues).then(|| {
        format!(
            "the time limit stopped the search after {} of the {} clues",
            found.checked, found.clues
        )
    });
    let mut r = setter_report("redundant", p, &found.layout, limits, stopped.clone())?;
    r.stats.method = crate::solve::sat_method(o.formulation);
    // The search starts by proving the puzzle unique: `count` and `unique` say so (they
    // count solutions, as for every verb); the clues found are in `details`.
    r.count = Some(1);
    r.unique = Some(true);
    let details = r.details.get_or_insert_with(|| serde_json::json!({}));
    details["redundant_clues"] = serde_json::json!(red.len());
    details["clues_checked"] = serde_json::json!(found.checked);
    details["clues"] = serde_json::json!(found.clues);
    if let Some(sol) = r.solution.as_mut() {
        sol["redundant"] = serde_json::json!(red
            .iter()
            .map(|&(i, j, s)| serde_json::json!({"row": i + 1, "col": j + 1, "clue": s.name()}))
            .collect::<Vec<_>>());
        sol["checked"] = serde_json::json!(found.checked);
    }
    r.text = match &stopped {
        None => format!(
            "{}: unique; {} of the clues can each be removed alone\n",
            r.instance,
            red.len()
        ),
        Some(why) => format!(
            "{}: unique; unknown beyond: {why}; {} of the {} checked can each be removed alone\n",
            r.instance,
            red.len(),
            found.checked
        ),
    };
    for (i, j, s) in red {
        r.text += &format!("  row {}, column {}: {}\n", i + 1, j + 1, s.name());
    }
    if red.len() > 1 {
        r.text += "(each alone; removing several at once may not keep the solution unique — see `minimize`)\n";
    }
    Ok(r)
}

/// A report of a new puzzle (its file text in `solution.puzzle`).
fn puzzle_report(
    verb: &str,
    q: &Grid,
    layout: &Layout,
    file: String,
    limits: &Limits,
    stopped: Option<String>,
    unique_shown: bool,
) -> Result<Report> {
    let headline = match &stopped {
        Some(why) => format!("unknown: {why}\n"),
        None => String::new(),
    };
    let unique = unique_shown;
    let mut r = setter_report(verb, q, layout, limits, stopped)?;
    r.stats.method = "SAT (CaDiCaL), one incremental instance with clue activation".into();
    // `count` and `unique` count solutions, as for every verb; the clues are in `details`.
    if unique {
        r.count = Some(1);
        r.unique = Some(true);
    }
    let details = r.details.get_or_insert_with(|| serde_json::json!({}));
    details["clues"] = serde_json::json!(q.given().len());
    // The new puzzle's file, for `-o FILE`.
    r.file = Some(file.clone());
    if let Some(sol) = r.solution.as_mut() {
        sol["puzzle"] = serde_json::json!(file);
        sol["puzzlink"] = serde_json::json!(formats::to_puzzlink(q));
        sol["clues"] = serde_json::json!(q.given().len());
    }
    r.svg = Some(to_svg(q, None, &[]));
    r.text = format!(
        "{}\n{headline}{file}\nsolution:\n{}",
        r.instance,
        to_text(q, layout)
    );
    Ok(r)
}

/// A locally minimal clue set with the same unique solution; the puzzle file is in
/// `solution.puzzle`. A run stopped part way answers a clue set that still leaves the
/// solution unique, not shown minimal.
pub fn minimize(p: &Grid, o: &Options, seed: Option<u64>, limits: &Limits) -> Result<Report> {
    let m = bounded(limits, "the clue minimisation", || {
        setter::minimise(p, o.formulation, seed, limits.deadline)
    })?;
    let kept = m.puzzle.given().len();
    let (note, stopped) = if m.minimal {
        (
            format!(
                "locally minimal clue set ({kept} of {} clues kept; every clue is necessary)",
                p.given().len()
            ),
            None,
        )
    } else {
        (
            format!(
                "unique solution with {kept} of {} clues; the time limit stopped the pass, so some clues may be spare",
                p.given().len()
            ),
            Some(format!(
                "the time limit stopped the pass with {kept} clues left: the solution is unique, but not every clue was shown necessary"
            )),
        )
    };
    let file = formats::to_quandary(&m.puzzle, &note);
    // Stopped or not, the clues left keep the solution unique.
    puzzle_report(
        "minimize", &m.puzzle, &m.layout, file, limits, stopped, true,
    )
}

/// A band of difficulty for `generate --difficulty`: the dearest step of a puzzle's
/// explanation between `least` and `most` (see [`crate::explain::cost`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    pub least: u32,
    pub most: u32,
}

impl Band {
    /// `easy` (every step costs at most 4: one line or clue and what is known next to it),
    /// `medium` (5 to 12), `hard` (13 and up), or `N` (at most N), or `A-B`.
    pub fn parse(text: &str) -> Result<Band> {
        let bad = || {
            Error::input(format!(
                "--difficulty {text}: give easy, medium, hard, a largest step cost N, or a band A-B"
            ))
        };
        Ok(match text.trim() {
            "easy" => Band { least: 0, most: 4 },
            "medium" => Band { least: 5, most: 12 },
            "hard" => Band {
                least: 13,
                most: u32::MAX,
            },
            t => match t.split_once('-') {
                // `A-`: A and up.
                Some((a, "")) => Band {
                    least: a.trim().parse().map_err(|_| bad())?,
                    most: u32::MAX,
                },
                Some((a, b)) => Band {
                    least: a.trim().parse().map_err(|_| bad())?,
                    most: b.trim().parse().map_err(|_| bad())?,
                },
                None => Band {
                    least: 0,
                    most: t.parse().map_err(|_| bad())?,
                },
            },
        })
    }

    /// The band as `--difficulty` takes it again: a named band where it is one, else `N`,
    /// `A-` or `A-B` (a puzzle's header said "--difficulty 13-4294967295" for `hard`).
    fn flag(self) -> String {
        match (self.least, self.most) {
            (0, 4) => "easy".into(),
            (5, 12) => "medium".into(),
            (13, u32::MAX) => "hard".into(),
            (0, m) => m.to_string(),
            (l, u32::MAX) => format!("{l}-"),
            (l, m) => format!("{l}-{m}"),
        }
    }

    fn words(self) -> String {
        match (self.least, self.most) {
            (0, m) => format!("hardest step at most {m}"),
            (l, u32::MAX) => format!("hardest step at least {l}"),
            (l, m) => format!("hardest step {l} to {m}"),
        }
    }
}

/// How a generated puzzle was brought into a band.
struct Banded {
    g: setter::Generated,
    seed: u64,
    difficulty: Option<crate::explain::Difficulty>,
    /// Cells of the solution shown as clues to make it easier.
    revealed: usize,
    seeds_tried: u64,
}

/// Generates from `seed` on until a puzzle falls in `band`: a puzzle too hard gets the
/// first conclusion of its dearest steps shown as clues (it stays unique, and is then no
/// longer minimal) until its hardest step is in the band; one too easy is dropped for the
/// next seed.
fn banded(
    rows: usize,
    cols: usize,
    fleet: &[usize],
    seed: u64,
    formulation: Formulation,
    band: Band,
    limits: &Limits,
) -> Result<Banded> {
    let options = Options::default();
    let mut seed = seed;
    let mut tried = 0;
    loop {
        tried += 1;
        let mut g = bounded(limits, "the generation", || {
            setter::generate(rows, cols, fleet, seed, formulation, limits.deadline, true)
        })?;
        let mut revealed = 0;
        loop {
            if matches!(g.stage, setter::Stage::Ambiguous) || limits.expired() {
                return Ok(Banded {
                    g,
                    seed,
                    difficulty: None,
                    revealed,
                    seeds_tried: tried,
                });
            }
            let o = crate::runner::run::<BattleshipPuzzle>(
                &g.puzzle,
                &options,
                crate::puzzles::Query::Explain(crate::puzzles::Reasons::Alone),
                limits,
            )?;
            let Some(x) = o.facts.explanation.filter(|x| x.complete) else {
                return Ok(Banded {
                    g,
                    seed,
                    difficulty: None,
                    revealed,
                    seeds_tried: tried,
                });
            };
            let d = x.difficulty;
            if d.hardest < band.least {
                break;
            }
            if d.hardest <= band.most {
                return Ok(Banded {
                    g,
                    seed,
                    difficulty: Some(d),
                    revealed,
                    seeds_tried: tried,
                });
            }
            // Too hard: show the first cell each of the three dearest steps concludes.
            let mut dear: Vec<&crate::explain::Step> =
                x.steps.iter().filter(|s| s.cost > band.most).collect();
            dear.sort_by_key(|s| std::cmp::Reverse(s.cost));
            let symbols = g.layout.symbols();
            let mut clues = g.puzzle.clues.clone();
            for s in dear.iter().take(3) {
                if let crate::puzzles::Place::Cell(r, c) = s.derived[0].meaning.place {
                    let k = r * cols + c;
                    if clues[k].is_none() {
                        clues[k] = Some(symbols[k]);
                        revealed += 1;
                    }
                }
            }
            g.puzzle = g.puzzle.with_clues(clues);
        }
        seed += 1;
    }
}

/// A new puzzle with exactly one solution and no redundant clue; with a `band`, one whose
/// difficulty falls in it ([`banded`]). A run stopped part way answers what it had: clues
/// that do not yet fix the solution, or a unique puzzle whose clues were not all shown
/// necessary.
pub fn generate(
    rows: usize,
    cols: usize,
    fleet: &str,
    seed: u64,
    formulation: Formulation,
    band: Option<Band>,
    limits: &Limits,
) -> Result<Report> {
    let fleet_counts = parse_fleet(fleet)?;
    Grid::check_sides(rows, cols)?;
    let Some(band) = band else {
        let g = bounded(limits, "the generation", || {
            setter::generate(
                rows,
                cols,
                &fleet_counts,
                seed,
                formulation,
                limits.deadline,
                true,
            )
        })?;
        return generated(rows, cols, fleet, seed, g, None, limits);
    };
    let b = banded(rows, cols, &fleet_counts, seed, formulation, band, limits)?;
    generated(
        rows,
        cols,
        fleet,
        b.seed,
        b.g,
        Some((band, b.difficulty, b.revealed, b.seeds_tried)),
        limits,
    )
}

/// The report of a generated puzzle (brought into a band, if one was asked for).
fn generated(
    rows: usize,
    cols: usize,
    fleet: &str,
    seed: u64,
    g: setter::Generated,
    band: Option<(Band, Option<crate::explain::Difficulty>, usize, u64)>,
    limits: &Limits,
) -> Result<Report> {
    let kept = g.puzzle.given().len();
    let (note, stopped) = match g.stage {
        setter::Stage::Minimal => (
            format!(
                "unique solution; every clue is necessary ({} clues added, {kept} kept)",
                g.clues_added
            ),
            None,
        ),
        setter::Stage::Unique => (
            format!(
                "unique solution; the time limit stopped the removal of spare clues ({} added, {kept} kept)",
                g.clues_added
            ),
            Some("the time limit stopped the removal of spare clues: the puzzle has one solution, but some clues may be spare".to_string()),
        ),
        setter::Stage::Ambiguous => (
            format!(
                "NOT YET A PUZZLE: the time limit stopped the generation with {kept} clues, which leave more than one solution"
            ),
            Some(format!(
                "the time limit stopped the generation while adding clues: the {kept} clues so far leave more than one solution"
            )),
        ),
    };
    let (note, stopped, flag) = match band {
        None => (note, stopped, String::new()),
        Some((b, Some(d), revealed, _)) => {
            let first = if revealed > 0 {
                format!(
                    "unique solution; {} clues of a minimal set ({} added) and {revealed} cells of the solution shown to ease it, so not every clue is necessary",
                    kept - revealed,
                    g.clues_added
                )
            } else {
                note
            };
            (
                format!(
                    "{first}; difficulty: hardest step {}, total {} over {} steps (band: {})",
                    d.hardest,
                    d.total,
                    d.steps,
                    b.words()
                ),
                stopped,
                format!(" --difficulty {}", b.flag()),
            )
        }
        Some((b, None, _, _)) => (
            format!(
                "{note}; NOT YET IN THE BAND ({}): a limit stopped the rating",
                b.words()
            ),
            stopped.or_else(|| {
                Some(format!(
                    "a limit stopped the search for a puzzle with {}",
                    b.words()
                ))
            }),
            String::new(),
        ),
    };
    let file = formats::to_quandary(
        &g.puzzle,
        &format!(
            "generated by quandary battleship generate --rows {rows} --cols {cols} --fleet \"{fleet}\" --seed {seed}{flag}\n{note}"
        ),
    );
    let unique = !matches!(g.stage, setter::Stage::Ambiguous);
    let mut r = puzzle_report(
        "generate", &g.puzzle, &g.layout, file, limits, stopped, unique,
    )?;
    if let Some((b, d, revealed, tried)) = band {
        let details = r.details.get_or_insert_with(|| serde_json::json!({}));
        details["difficulty"] = serde_json::to_value(d).unwrap_or_default();
        details["band"] = serde_json::json!({"least": b.least, "most": b.most});
        details["revealed"] = serde_json::json!(revealed);
        details["seeds_tried"] = serde_json::json!(tried);
    }
    Ok(r)
}

/// Boards up to this many cells keep their engine between edits; a larger board is answered
/// from a fresh engine each time (an engine kept outside any run holds memory no run's limit
/// counts).
pub const KEPT_CELLS: usize = 2500;

/// One board's workbench, kept by a front end between the setter's edits (the page keeps one
/// per board it shows): each edit is answered by the board's engine, with what it learned
/// from the edits before ([`crate::puzzles::battleship::bench`]).
#[derive(Default)]
pub struct Workbench {
    bench: Option<bench::Bench>,
}

impl Workbench {
    pub fn new() -> Workbench {
        Workbench::default()
    }

    /// Answers the puzzle `text` (any format the Battleship readers know) as the workbench
    /// shows it: unique or not, the forced cells, and when unique the clues that could each
    /// go (`details`). A limit stops the check with what it decided by then (status unknown
    /// when uniqueness itself was not decided).
    pub fn check_text(&mut self, text: &str, limits: &Limits) -> Result<Report> {
        let (_, p) = formats::parse(text, None)?;
        self.check(&p, limits)
    }

    /// About the bytes the board's engines and what they remember hold between checks (what
    /// building them charged to the run that built them): a front end that keeps workbenches
    /// charges them to its memory limit by this.
    pub fn bytes(&self) -> u64 {
        self.bench.as_ref().map_or(0, |b| b.bytes())
    }

    /// Drops the board's engines and what they remember (the next check builds anew).
    pub fn forget(&mut self) {
        self.bench = None;
    }

    /// [`Workbench::check_text`] for a board read already.
    pub fn check(&mut self, p: &Grid, limits: &Limits) -> Result<Report> {
        let slot = &mut self.bench;
        let checked = bounded(limits, "the workbench's check", || {
            // Taken out while it works: a run interrupted inside leaves no half-updated bench.
            let mut b = match slot.take() {
                Some(b) if b.fits(p) => b,
                _ => bench::Bench::new(p),
            };
            let c = b.check(p, limits.deadline, limits.cancel.clone());
            if p.rows * p.cols <= KEPT_CELLS {
                *slot = Some(b);
            }
            Ok(c)
        })?;
        workbench_report(p, &checked, limits)
    }
}

fn workbench_report(p: &Grid, c: &bench::Checked, limits: &Limits) -> Result<Report> {
    use bench::Verdict;
    let status = match c.verdict {
        Verdict::None => Status::Infeasible,
        Verdict::Unique | Verdict::Several => Status::Solved,
        Verdict::Unknown => Status::Unknown,
    };
    for l in c.solution.iter().chain(&c.other) {
        BattleshipPuzzle::verify(p, l).map_err(|why| {
            Error::Internal(format!(
                "the workbench's solution fails the verifier: {why}"
            ))
        })?;
    }
    let mut r = Report::new(
        BattleshipPuzzle::NAME,
        "workbench",
        BattleshipPuzzle::describe(p),
        status,
    );
    r.stats.seconds = limits.seconds();
    r.stats.method = "SAT (CaDiCaL), one engine per board kept between edits".into();
    r.stats.solver_calls = Some(c.solves as u64);
    r.unique = match c.verdict {
        Verdict::Unique => Some(true),
        Verdict::Several => Some(false),
        _ => None,
    };
    if c.verdict == Verdict::Unique {
        r.count = Some(1);
    }
    if c.verdict == Verdict::None {
        r.count = Some(0);
    }
    r.solution = c
        .solution
        .as_ref()
        .and_then(|l| serde_json::to_value(l).ok());
    r.other_solution = c.other.as_ref().and_then(|l| serde_json::to_value(l).ok());
    let cell = |k: usize| serde_json::json!({"row": k / p.cols + 1, "col": k % p.cols + 1});
    let forced: Option<Vec<serde_json::Value>> = c.forced.as_ref().map(|f| {
        f.iter()
            .enumerate()
            .filter_map(|(k, v)| {
                v.map(|ship| {
                    let mut x = cell(k);
                    x["ship"] = serde_json::json!(ship);
                    x
                })
            })
            .collect()
    });
    let redundant: Vec<serde_json::Value> = c
        .redundant
        .iter()
        .map(|&k| {
            let mut x = cell(k);
            x["clue"] = serde_json::json!(p.clues[k].map(|s| s.name()));
            x
        })
        .collect();
    let unique = c.verdict == Verdict::Unique;
    r.details = Some(serde_json::json!({
        "forced": forced,
        "redundant": if unique { serde_json::json!(redundant) } else { serde_json::Value::Null },
        "forced_open": c.open,
        "clues_checked": c.checked,
        "clues": c.clues,
        "conflict": c.conflict.iter().map(|&k| cell(k)).collect::<Vec<_>>(),
        "solves": c.solves,
        "remembered": c.remembered,
        "built": c.built,
    }));
    let settled = c.forced.as_ref().map(|f| f.iter().flatten().count());
    let mut text = format!("{}: ", r.instance);
    text += &match c.verdict {
        Verdict::None => format!(
            "no solution; the clues at {} admit none together",
            c.conflict
                .iter()
                .map(|&k| format!("({},{})", k / p.cols + 1, k % p.cols + 1))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Verdict::Unique if c.checked < c.clues => format!(
            "unique; {} of the {} clues checked can each be removed alone; unknown beyond: a limit stopped the check",
            c.redundant.len(),
            c.checked
        ),
        Verdict::Unique => format!(
            "unique; {} of the {} clues can each be removed alone",
            c.redundant.len(),
            c.clues
        ),
        Verdict::Several => match settled {
            Some(s) if c.open > 0 => format!(
                "several solutions; {s} of {} cells shown the same in every one, {} more undecided: a limit stopped the search",
                p.rows * p.cols,
                c.open
            ),
            Some(s) => format!(
                "several solutions; {s} of {} cells are the same in every one",
                p.rows * p.cols
            ),
            None => "several solutions; the time limit stopped the search for forced cells"
                .to_string(),
        },
        Verdict::Unknown => "unknown: the time limit stopped the uniqueness check".into(),
    };
    text += &format!(
        " ({} solver calls, {} answers remembered from earlier edits{})\n",
        c.solves,
        c.remembered,
        match c.built {
            0 => String::new(),
            1 => ", an engine built".to_string(),
            k => format!(", {k} engines built"),
        }
    );
    if let Some(l) = &c.solution {
        text += &to_text(p, l);
    }
    r.text = text;
    r.svg = Some(to_svg(p, c.solution.as_ref(), &[]));
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::Band;

    #[test]
    fn a_band_is_written_as_the_flag_that_reads_it_back() {
        for text in ["easy", "medium", "hard", "7", "3-9", "20-"] {
            let band = Band::parse(text).unwrap();
            assert_eq!(band.flag(), text);
            assert_eq!(Band::parse(&band.flag()).unwrap(), band);
        }
        assert_eq!(Band::parse("13-").unwrap(), Band::parse("hard").unwrap());
    }
}
