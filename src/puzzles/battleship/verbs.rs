//! Battleship as a [`Puzzle`], and the setter's verbs (redundant clues, minimal clue sets,
//! new puzzles) answered as [`Report`]s like every other query.

use super::model::{BattleshipModel, Formulation};
use super::{formats, setter, to_svg, to_text, verify, Grid, Layout, Symbol};
use crate::error::{Error, Result};
use crate::puzzles::Query;
use crate::puzzles::{Formulated, Phase, Puzzle};
use crate::runner::registry::Report;
use crate::solve::limits::{bounded, Limits};
use crate::solve::search::Status;

/// The options of every Battleship query.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default, rename_all = "kebab-case")]
pub struct Options {
    /// Which puzzle of a CSPLib file (its id; the first by default)
    #[cfg_attr(feature = "cli", arg(long))]
    pub instance: Option<String>,
    /// The fleet as counts of ships of length 1, 2, 3, ... (e.g. "4 3 2 1"); overrides the
    /// input's
    #[cfg_attr(feature = "cli", arg(long))]
    pub fleet: Option<String>,
    /// Which integer program to solve
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Formulation::Runs))]
    pub formulation: Formulation,
}

/// Reads a fleet: counts of ships of length 1, 2, 3, ...
pub fn parse_fleet(text: &str) -> Result<Vec<usize>> {
    text.split([' ', ',', ':'])
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<usize>().map_err(|_| {
                Error::input(format!(
                    "--fleet: '{t}' is not a count (give counts of ships of length 1, 2, 3, ..., e.g. \"4 3 2 1\")"
                ))
            })
        })
        .collect()
}

/// Reads a puzzle from a file, a puzz.link URL, or standard input (`-`), in any format known.
pub fn load(word: &str, o: &Options) -> Result<Grid> {
    let text = if word == "-" {
        crate::input::stdin()?
    } else if std::path::Path::new(word).is_dir() {
        return Err(Error::input(format!(
            "{word}: a directory, not a puzzle file"
        )));
    } else if !crate::input::exists(word) && word.contains("battleship/") {
        word.to_string()
    } else if !crate::input::exists(word) && word.contains("://") {
        return Err(Error::input(format!(
            "{word}: not a Battleship URL; quandary reads puzz.link URLs of the form https://puzz.link/p?battleship/..."
        )));
    } else {
        crate::input::read_file(word)?
    };
    let with_fleet = match &o.fleet {
        // A URL without a fleet is fine when --fleet gives one.
        Some(_) if formats::detect(&text) == formats::Format::PuzzLink && !text.contains("//") => {
            format!("{}//d", text.trim())
        }
        _ => text,
    };
    let (_, p) = formats::parse(&with_fleet, o.instance.as_deref())
        .map_err(|e| Error::input(format!("{word}: {e}")))?;
    match &o.fleet {
        None => Ok(p),
        Some(f) => Grid::new(
            p.rows,
            p.cols,
            parse_fleet(f)?,
            p.row_counts,
            p.col_counts,
            p.clues,
        ),
    }
}

impl serde::Serialize for Layout {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let symbols = self.symbols();
        serde_json::json!({
            "ships": self.ship_rows(),
            "symbols": (0..self.rows).map(|i| (0..self.cols).map(|j| {
                let s = symbols[i * self.cols + j];
                if s == Symbol::Water { '.' } else { s.char() }
            }).collect::<String>()).collect::<Vec<_>>(),
            "fleet": self.ships.iter().map(|s| serde_json::json!({
                "row": s.row + 1, "col": s.col + 1, "length": s.len,
                "direction": if s.len == 1 { "none" } else if s.horizontal { "horizontal" } else { "vertical" },
            })).collect::<Vec<_>>(),
            "ship_count": self.ships.len(),
        })
        .serialize(s)
    }
}

/// Battleship as a [`Puzzle`].
pub struct BattleshipPuzzle;

/// The puzz.link example of the seed, the built-in example.
pub const EXAMPLE_URL: &str = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";

impl Puzzle for BattleshipPuzzle {
    const NAME: &'static str = "battleship";
    const TITLE: &'static str = "Battleship";
    const ABOUT: &'static str =
        "Battleship: place a fleet from row and column counts and a few given cells";
    const INPUT: &'static str = "A puzzle file (our format, janko.at, CSPLib prob014, MiniZinc .dzn), a puzz.link URL, or - for standard input";
    const EXAMPLE: &'static [&'static str] = &[EXAMPLE_URL];
    const TOUR: Query = Query::Unique;

    type Instance = Grid;
    type Options = Options;
    type Solution = Layout;

    fn read(words: &[String], o: &Options) -> Result<Grid> {
        let [word] = crate::puzzles::words(words, "one word, a puzzle file, a puzz.link URL or -")?;
        load(word, o)
    }

    fn describe(p: &Grid) -> String {
        let clues = p.given().len();
        format!(
            "Battleship {}×{}, fleet {} ({clues} {})",
            p.rows,
            p.cols,
            p.fleet_text(),
            if clues == 1 { "clue" } else { "clues" }
        )
    }

    fn formulate<'a>(p: &'a Grid, o: &Options, _: Query) -> Result<Formulated<'a, Layout>> {
        let mut bm = BattleshipModel::new(p, o.formulation, true);
        let meanings = bm.meanings();
        let decisions = bm.projection();
        let model = std::mem::take(&mut bm.model);
        let method = match o.formulation {
            Formulation::CellPrinted => "SAT (CaDiCaL), cell formulation with eq. (6) as printed in the paper (unsound: it lets a ship start borrow middles of other ships; see docs/battleship.md and use --formulation cell)".to_string(),
            f => crate::solve::sat_method(f),
        };
        Ok(Formulated::new(
            model,
            decisions,
            meanings,
            move |a| bm.decode(a),
            method,
        ))
    }

    /// On a board much larger than its fleet and clues (puzz.link boards without counts,
    /// say), a window around what is given, then a larger one: the whole board's model can
    /// be millions of clauses where the window's is small. For one solution, or two (then
    /// the puzzle is not unique).
    fn phases<'a>(p: &'a Grid, o: &Options, query: Query) -> Vec<Phase<'a, Layout>> {
        if !matches!(query, Query::First | Query::Unique) {
            return Vec::new();
        }
        let mut windows: Vec<[usize; 4]> = Vec::new();
        for factor in [4, 16] {
            if let Some(w) = p.window(factor * p.fleet_cells()) {
                if !windows.contains(&w) {
                    windows.push(w);
                }
            }
        }
        windows
            .into_iter()
            .filter_map(|w| Some((w, p.inside(w)?)))
            .map(|([r0, r1, c0, c1], inner)| {
                let formulation = o.formulation;
                let (rows, cols) = (p.rows, p.cols);
                Phase {
                    scope: format!(
                        "ships inside rows {}-{}, columns {}-{}",
                        r0 + 1,
                        r1,
                        c0 + 1,
                        c1
                    ),
                    share: 0.2,
                    unlimited: Some(std::time::Duration::from_secs(5)),
                    build: Box::new(move || {
                        let mut bm = BattleshipModel::new(&inner, formulation, true);
                        let decisions = bm.projection();
                        let meanings = bm.meanings();
                        let model = std::mem::take(&mut bm.model);
                        let width = inner.cols;
                        Formulated::new(
                            model,
                            decisions,
                            meanings,
                            move |a| {
                                let inside = bm.occupancy(a);
                                let mut occupied = vec![false; rows * cols];
                                for (k, &o) in inside.iter().enumerate() {
                                    occupied[(r0 + k / width) * cols + c0 + k % width] = o;
                                }
                                Layout::from_occupancy(rows, cols, &occupied)
                            },
                            crate::solve::sat_method(formulation),
                        )
                    }),
                }
            })
            .collect()
    }

    fn verify(p: &Grid, l: &Layout) -> std::result::Result<String, String> {
        verify::verify(p, &l.occupied()).map(|ships| format!("{ships} ships, every rule holds"))
    }

    fn text(p: &Grid, l: &Layout) -> String {
        to_text(p, l)
    }

    fn svg(p: &Grid, _: &Options, l: &Layout) -> String {
        to_svg(p, Some(l))
    }
}

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
    r.svg = Some(to_svg(p, Some(layout)));
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
    r.svg = Some(to_svg(q, None));
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

/// A new puzzle with exactly one solution and no redundant clue. A run stopped part way
/// answers what it had: clues that do not yet fix the solution, or a unique puzzle whose
/// clues were not all shown necessary.
pub fn generate(
    rows: usize,
    cols: usize,
    fleet: &str,
    seed: u64,
    formulation: Formulation,
    limits: &Limits,
) -> Result<Report> {
    let fleet_counts = parse_fleet(fleet)?;
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
    let file = formats::to_quandary(
        &g.puzzle,
        &format!(
            "generated by quandary battleship generate --rows {rows} --cols {cols} --fleet \"{fleet}\" --seed {seed}\n{note}"
        ),
    );
    let unique = !matches!(g.stage, setter::Stage::Ambiguous);
    puzzle_report(
        "generate", &g.puzzle, &g.layout, file, limits, stopped, unique,
    )
}
