//! Battleship's own verbs, a setter's: the clues that can each go (`redundant`), a locally
//! minimal clue set (`minimize`), a new puzzle (`generate`), the page's workbench over a
//! series of edits (`workbench`), and a puzzle in another format (`convert`).

pub mod setting;

use super::{Kind, Outputs, OwnVerb, Param};
use crate::error::{Error, Result};
use crate::input::Files;
use crate::puzzles::battleship::{self, model::Formulation, puzzle, BattleshipPuzzle};
use crate::runner::registry::options;
use crate::runner::report::Report;
use crate::solve::limits::Limits;
use crate::solve::search::Status;

const JSON_PICTURE_LIMIT: Outputs = Outputs {
    json: true,
    picture: true,
    time_limit: true,
    file: false,
    proof: false,
};

const PUZZLE: Param = Param::new(
    "puzzle",
    Kind::Text,
    "A puzzle file, puzz.link URL or Boats game ID",
)
.positional();

const FORMULATIONS: &[&str] = &["runs", "cell", "cell-printed", "ship", "ship-cells"];

pub(super) static VERBS: &[OwnVerb] = &[
    OwnVerb {
        name: "redundant",
        aliases: &[],
        about: "Which given clues can each be removed with the solution staying unique (paper §5)",
        params: &[PUZZLE],
        options: true,
        outputs: JSON_PICTURE_LIMIT,
        run: |call| {
            let o = options::<BattleshipPuzzle>(call.options)?;
            let p = puzzle::load(&call.args.needed("puzzle")?, &o, call.files)?;
            setting::redundant(&p, &o, call.limits)
        },
    },
    OwnVerb {
        name: "minimize",
        aliases: &["minimise"],
        about: "A locally minimal clue set with the same unique solution, written as a puzzle file",
        params: &[
            PUZZLE,
            Param::new(
                "seed",
                Kind::Whole,
                "Try the clues in a random order drawn from this seed (default: reading order)",
            ),
        ],
        options: true,
        outputs: Outputs {
            file: true,
            proof: false,
            ..JSON_PICTURE_LIMIT
        },
        run: |call| {
            let o = options::<BattleshipPuzzle>(call.options)?;
            let p = puzzle::load(&call.args.needed("puzzle")?, &o, call.files)?;
            let seed = call.args.whole("seed").map(seed_of).transpose()?;
            setting::minimize(&p, &o, seed, call.limits)
        },
    },
    OwnVerb {
        name: "generate",
        aliases: &[],
        about: "A new puzzle with exactly one solution and no redundant clue",
        params: &[
            Param::new("rows", Kind::Whole, "Rows of the board").required(),
            Param::new("cols", Kind::Whole, "Columns of the board").required(),
            Param::new("fleet", Kind::Text, "Counts of ships of length 1, 2, 3, ...").required(),
            Param::new(
                "seed",
                Kind::Whole,
                "Random seed: the same seed gives the same puzzle",
            )
            .default("1"),
            Param::new("formulation", Kind::Choice(FORMULATIONS), "Which integer program to use")
                .default("runs"),
            Param::new(
                "difficulty",
                Kind::Text,
                "A band of difficulty, by the dearest step of the puzzle's explanation: easy (at most 4), medium (5 to 12), hard (13 and up), a largest cost N, or A-B",
            ),
        ],
        options: false,
        outputs: Outputs {
            file: true,
            proof: false,
            ..JSON_PICTURE_LIMIT
        },
        run: |call| {
            let a = &call.args;
            let side = |name: &str| {
                let v = a.whole(name).unwrap_or(0);
                usize::try_from(v).map_err(|_| {
                    Error::input(format!("--{name} {v}: a board has a positive number of {name}"))
                })
            };
            let formulation: Formulation = serde_json::from_value(serde_json::Value::from(
                a.text("formulation").unwrap_or_else(|| "runs".into()),
            ))
            .map_err(|e| Error::input(format!("--formulation: {e}")))?;
            let band = a
                .text("difficulty")
                .as_deref()
                .map(setting::Band::parse)
                .transpose()?;
            let seed = seed_of(a.whole("seed").unwrap_or(1))?;
            setting::generate(
                side("rows")?,
                side("cols")?,
                &a.needed("fleet")?,
                seed,
                formulation,
                band,
                call.limits,
            )
        },
    },
    OwnVerb {
        name: "workbench",
        aliases: &[],
        about: "The page's workbench from the command line: each puzzle in turn (versions of one board as a setter edits it) answered as unique or not, with its forced cells and the clues that could each go, on one engine kept from one to the next",
        params: &[Param::new(
            "puzzles",
            Kind::Texts,
            "Puzzle files or puzz.link URLs, in the order of the edits",
        )
        .positional()],
        options: false,
        outputs: JSON_PICTURE_LIMIT,
        run: |call| workbench(&call.args.texts("puzzles"), call.files, call.limits, call.line),
    },
    OwnVerb {
        name: "convert",
        aliases: &[],
        about: "Rewrite a puzzle (any format read) in quandary's own text format, or with --to as a puzz.link URL or a Boats game ID",
        params: &[
            PUZZLE,
            Param::new(
                "instance",
                Kind::Text,
                "Which puzzle of a CSPLib file (its id; the first by default)",
            ),
            Param::new(
                "to",
                Kind::Choice(&["quandary", "puzzlink", "boats"]),
                "The format written: quandary's text, a puzz.link URL, or a Boats game ID",
            )
            .default("quandary"),
        ],
        options: false,
        outputs: Outputs {
            json: false,
            picture: false,
            time_limit: false,
            file: true,
            proof: false,
        },
        run: |call| {
            convert(
                &call.args.needed("puzzle")?,
                call.args.text("instance"),
                &call.args.text("to").unwrap_or_default(),
                call.files,
            )
        },
    },
];

/// A seed given as a whole number: not negative.
fn seed_of(s: i64) -> Result<u64> {
    u64::try_from(s).map_err(|_| Error::input(format!("--seed {s}: a seed is not negative")))
}

/// `battleship convert`: the puzzle in quandary's text, as a puzz.link URL and as a Boats
/// game ID (all three in the JSON), the one asked for as the text and the file.
fn convert(puzzle: &str, instance: Option<String>, to: &str, files: Files) -> Result<Report> {
    let o = puzzle::Options {
        instance,
        ..Default::default()
    };
    let p = puzzle::load(puzzle, &o, files)?;
    let ours = battleship::formats::to_quandary(&p, &format!("converted from {puzzle}"));
    let url = battleship::formats::to_puzzlink(&p);
    let boats = battleship::formats::to_boats(&p);
    let text = match to {
        "puzzlink" => url.as_ref().map(|u| format!("{u}\n")).ok_or_else(|| {
            crate::error::Error::input(format!(
                "{puzzle}: a puzz.link URL cannot say this puzzle (a ship is longer than \
                 35, or a count over 4095)"
            ))
        })?,
        "boats" => format!("{boats}\n"),
        _ => ours.clone(),
    };
    let mut r = Report::new(
        "battleship",
        "convert",
        <BattleshipPuzzle as crate::puzzles::Puzzle>::describe(&p),
        Status::Solved,
    );
    r.solution = Some(serde_json::json!({
        "puzzle": ours,
        "puzzlink": url,
        "boats": boats,
    }));
    r.file = Some(text.clone());
    r.text = text;
    Ok(r)
}

/// `battleship workbench`: the puzzles in turn on one [`setting::Workbench`], a line
/// each as it goes and an entry each in `details.edits`; the report is the last one's.
fn workbench(
    puzzles: &[String],
    files: Files,
    limits: &Limits,
    line: &mut dyn FnMut(&str),
) -> Result<Report> {
    let mut bench = setting::Workbench::new();
    let mut edits = Vec::new();
    let mut last = None;
    for (i, word) in puzzles.iter().enumerate() {
        let p = puzzle::load(word, &puzzle::Options::default(), files)?;
        let started = std::time::Instant::now();
        let r = bench.check(&p, limits)?;
        let seconds = started.elapsed().as_secs_f64();
        let d = r.details.clone().unwrap_or_default();
        let settled = d["forced"].as_array().map(Vec::len);
        let spare = d["redundant"].as_array().map(Vec::len);
        edits.push(serde_json::json!({
            "puzzle": word,
            "status": r.status.word(),
            "unique": r.unique,
            "seconds": seconds,
            "settled": settled,
            "redundant": spare,
            "solves": d["solves"],
            "remembered": d["remembered"],
            // Every question of the edit answered (none left open by a limit).
            "complete": r.answered()
                && d["forced_open"].as_u64().unwrap_or(0) == 0
                && (r.unique != Some(true) || d["clues_checked"] == d["clues"]),
        }));
        let headline = r.text.lines().next().unwrap_or_default();
        line(&format!(
            "edit {} ({word}), {seconds:.3} s: {headline}",
            i + 1
        ));
        let stopped = !r.answered();
        last = Some(r);
        if stopped {
            break;
        }
    }
    let mut r = last.expect("at least one puzzle");
    r.stats.seconds = limits.seconds();
    r.details.get_or_insert_with(|| serde_json::json!({}))["edits"] = serde_json::json!(edits);
    Ok(r)
}

/// A kept workbench board ([`setting::Workbench`]): Battleship's [`super::Session`].
pub fn session() -> Box<dyn super::Session> {
    Box::new(setting::Workbench::new())
}

impl super::Session for setting::Workbench {
    fn check(&mut self, text: &str, limits: &Limits) -> Result<Report> {
        self.check_text(text, limits)
    }
    fn bytes(&self) -> u64 {
        setting::Workbench::bytes(self)
    }
    fn forget(&mut self) {
        setting::Workbench::forget(self)
    }
}
