//! The vocabulary of explanations: steps, what their reasons cite, how hard the whole is, and
//! the board their pictures are drawn on. The runner's answers carry them
//! ([`crate::runner::Facts::explanation`]).

use crate::model::Kind;
use crate::puzzles::{Meaning, Place};
use crate::solve::search::Status;
use serde::{Deserialize, Serialize};

/// A decision that takes the same value in every solution.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Forced {
    #[serde(flatten)]
    pub meaning: Meaning,
    /// The value it is forced to: true ("at place, says") or false ("at place, not says").
    pub value: bool,
}

/// What a step's reason cites.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cited {
    pub kind: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<Place>,
    pub text: String,
    /// The places whose decisions it speaks of (a row count: its row), for pictures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<Place>,
}

impl From<&crate::model::Group> for Cited {
    /// A group of the model as a reason cites it (its places not yet filled in).
    fn from(g: &crate::model::Group) -> Cited {
        Cited {
            kind: g.kind,
            place: g.place,
            text: g.text.clone(),
            cells: Vec::new(),
        }
    }
}

/// How minimal a step's reason is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Minimal {
    /// No element can be dropped (a minimal unsatisfiable subset).
    Subset,
    /// No reason for this conclusion costs less (an optimal unsatisfiable subset).
    Smallest,
}

/// One deduction: what it concludes, from what.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Step {
    pub derived: Vec<Forced>,
    pub reason: Vec<Cited>,
    /// The reason's cost: its elements' [`super::engine::cost`]s summed.
    pub cost: u32,
    pub minimal: Minimal,
    /// The step in words, as the text answer and the page's stepper say it ("(1,6) is water:
    /// (1,6) shows water"): for a notebook or a script, which would otherwise write it again.
    #[serde(default)]
    pub text: String,
}

/// How hard a puzzle is by its explanation: the dearest step it needs, and all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difficulty {
    pub hardest: u32,
    pub total: u32,
    pub steps: usize,
}

/// The explanation of a puzzle instance.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Explanation {
    pub steps: Vec<Step>,
    pub difficulty: Difficulty,
    /// Whether these are the steps the puzzle's difficulty rating takes (one engine with every
    /// row in clauses: `explain --threads 1`, `unique --difficulty`, `generate --difficulty`
    /// give the same). False when the engine counting the "exactly" rows won a race, whose
    /// steps (and so their costs) can differ, or for `--plain`.
    #[serde(default)]
    pub rating: bool,
    /// Whether the steps reach the whole solution. False for a puzzle with several solutions
    /// (the steps then reach what is forced) or when a limit stopped the run.
    pub complete: bool,
    /// Decisions shown on a board (true in the solution, or with a word for false) that the
    /// steps did not reach: not forced, or not reached before a limit.
    pub open: usize,
    /// How a step's cost is counted.
    pub costs: String,
    /// What the steps' pictures are drawn on ([`super::pictures`], for `--svg DIR` and the
    /// page's stepper): drawn only when asked for, since on a large board they take longer
    /// than a time limit should be overrun by.
    #[serde(skip)]
    pub board: StepBoard,
}

/// The board the pictures of an explanation's steps are drawn on.
#[derive(Clone, Debug, Default)]
pub struct StepBoard {
    /// Every place a decision speaks of.
    pub places: Vec<Place>,
    /// Rows and columns, for a board of square cells.
    pub extent: Option<(usize, usize)>,
    /// The instance, for the captions.
    pub title: String,
    /// The counts beside the rows and columns and the clues given, drawn on every step.
    pub givens: crate::puzzles::Givens,
}

/// The places the decisions' meanings name, sorted and each once, and the rows and columns
/// they span on a square-cell board (`None` for hex boards): the board a partial solution or
/// an explanation's step is drawn on.
pub fn board(meanings: &[Meaning]) -> (Vec<Place>, Option<(usize, usize)>) {
    let mut places: Vec<Place> = meanings.iter().map(|m| m.place).collect();
    places.sort();
    places.dedup();
    let extent = places.iter().try_fold((0, 0), |(r0, c0), p| match *p {
        Place::Cell(r, c) => Some((r0.max(r + 1), c0.max(c + 1))),
        Place::Hex(..) => None,
    });
    (places, extent)
}

/// What an explanation run ends with; the runner makes its answer of it.
pub struct Explained<S> {
    /// Solved when the steps ran to their end, infeasible when there is no solution, unknown
    /// when a limit stopped them.
    pub status: Status,
    /// The solution the steps explain (decoded, not yet verified).
    pub solution: Option<S>,
    pub explanation: Option<Explanation>,
    /// How the reasons were found, in words.
    pub method: String,
    pub model: Option<crate::model::Size>,
    pub solver_calls: u64,
}

impl<S> Explained<S> {
    /// An explanation run that ended before its first step with `status`.
    pub fn ended(status: Status) -> Explained<S> {
        Explained {
            status,
            solution: None,
            explanation: None,
            method: String::new(),
            model: None,
            solver_calls: 0,
        }
    }
}
