//! The vocabulary of answers, shared by the runner and every front end: what an answer
//! established ([`Facts`], [`Outcome`]), including forced decisions and results that hold only
//! in a restricted part of the space ([`InScope`]). What is asked ([`Query`]) and what a
//! decision means ([`Meaning`], [`Place`]) belong to the puzzle trait, below.

pub use crate::explain::answer::{
    Cited, Difficulty, Explanation, Forced, Minimal, Step, StepBoard,
};
use crate::model::Size;
use crate::puzzles::{Place, Query};
use crate::solve::search::Status;
use crate::solve::EngineSize;
use serde::Serialize;

/// How an answer was obtained.
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
pub struct Stats {
    pub method: String,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<Size>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineSize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_calls: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lazy_rounds: Option<u64>,
    /// What the MIP backend reports (`--backend highs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mip: Option<crate::solve::MipStats>,
    /// Restricted phases tried before the answer, with how each ended.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<String>,
    /// What stopped a run that ended "unknown": "the time limit" or "a stop request".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<String>,
}

/// The forced decisions, and how far the search for them got.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct ForcedSet {
    /// Decisions proved to be forced.
    pub forced: Vec<Forced>,
    /// Places where every decision is forced false (nothing goes there).
    pub empty: Vec<Place>,
    /// Every place a decision refers to.
    #[serde(skip)]
    pub places: Vec<Place>,
    /// Rows and columns of a square-cell board (none for hex boards).
    #[serde(skip)]
    pub extent: Option<(usize, usize)>,
    /// Decisions not yet decided when a limit stopped the search (0 when complete).
    pub undecided: usize,
    /// Decisions in all.
    pub decisions: usize,
}

/// What a restricted search established inside its part of the space only.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct InScope {
    pub status: Status,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        deserialize_with = "count"
    )]
    pub count: Option<u128>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced: Option<ForcedSet>,
}

/// What an answer established, the same fields for every puzzle (reports print them as JSON).
/// Fields without a scope hold for the whole space: a result obtained in a restricted part of
/// it is in `in_scope`, never in `status`, `count` or `unique`.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Facts {
    #[serde(skip)]
    pub query: Query,
    /// `solved`, `optimal`, `infeasible`, or `unknown` (a limit stopped it).
    pub status: Status,
    /// The part of the space the user restricted the search to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_scope: Option<InScope>,
    /// The cube the search was restricted to (cube-and-conquer), with what combining needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cube: Option<super::cubes::CubeFacts>,
    /// The number of solutions, when counted to the end.
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        deserialize_with = "count"
    )]
    pub count: Option<u128>,
    /// Solutions seen when a limit stopped a count (a lower bound).
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        deserialize_with = "count"
    )]
    pub count_at_least: Option<u128>,
    /// With a count up to symmetry: the symmetry classes among the solutions counted.
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        deserialize_with = "count"
    )]
    pub classes: Option<u128>,
    /// Symmetry classes met when a limit stopped a count that meets one solution a class
    /// (a lower bound).
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        deserialize_with = "count"
    )]
    pub classes_at_least: Option<u128>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    /// The objective (puzzle's terms) of the first solution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<i64>,
    /// A proved bound on the objective (equal to it when optimal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<i64>,
    /// The verifier's summary of the first solution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced: Option<ForcedSet>,
    /// Figures particular to a method or verb.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
    /// `explain`: the steps, the difficulty and whether they reach the whole solution.
    #[serde(default, flatten, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Explanation>,
    /// A run on a changed model ([`super::opened`]): the changes, and what the puzzle's
    /// verifier says of its solutions.
    #[serde(default, flatten, skip_serializing_if = "Option::is_none")]
    pub judged: Option<Judged>,
    pub stats: Stats,
}

impl Facts {
    /// Nothing established yet but the status.
    pub fn new(query: Query, status: Status) -> Facts {
        Facts {
            query,
            status,
            scope: None,
            in_scope: None,
            cube: None,
            count: None,
            count_at_least: None,
            classes: None,
            classes_at_least: None,
            unique: None,
            objective: None,
            bound: None,
            summary: None,
            forced: None,
            details: None,
            explanation: None,
            judged: None,
            stats: Stats::default(),
        }
    }

    /// Whether the query was answered (in its scope): false when a limit stopped it.
    pub fn answered(&self) -> bool {
        match &self.in_scope {
            Some(s) => s.status != Status::Unknown,
            None => self.status != Status::Unknown,
        }
    }
}

/// The verifier's judgement of an answer on a changed model.
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
pub struct Judged {
    /// The changes the model was solved with, in words.
    pub changes: Vec<String>,
    /// Whether every board shown passes the puzzle's verifier (none when there is no board).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// The verifier's words for each board shown that it rejects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<String>,
    /// For each of `violations`, the places the broken rule concerns (ringed red on the
    /// board's picture).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations_at: Vec<Vec<crate::puzzles::Place>>,
    /// Of the solutions a count or a uniqueness check met, how many the verifier accepts.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "count"
    )]
    pub verified_count: Option<u128>,
}

/// The answer to a query: its facts, and the verified solutions (the first, and for
/// `Unique` a second one when there is one).
#[derive(Clone, Debug)]
pub struct Outcome<S> {
    pub facts: Facts,
    pub solutions: Vec<S>,
}

impl<S> Outcome<S> {
    pub(crate) fn new(query: Query, status: Status) -> Self {
        Outcome {
            facts: Facts::new(query, status),
            solutions: Vec::new(),
        }
    }
}

impl<S> std::ops::Deref for Outcome<S> {
    type Target = Facts;
    fn deref(&self) -> &Facts {
        &self.facts
    }
}

impl<S> std::ops::DerefMut for Outcome<S> {
    fn deref_mut(&mut self) -> &mut Facts {
        &mut self.facts
    }
}

/// Reads a count back from JSON. Counts are `u128`, but a count read back through a flattened
/// field is buffered, and serde's buffer holds integers up to `u64`: every count quandary has
/// reported fits.
pub(crate) fn count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u128>, D::Error> {
    <Option<u64> as serde::Deserialize>::deserialize(d).map(|c| c.map(u128::from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_judged_report_reads_back_from_its_json() {
        let mut f = Facts::new(Query::Count { cap: None }, Status::Solved);
        f.count = Some(13860);
        f.judged = Some(Judged {
            changes: vec!["dropped the family 'x'".into()],
            verified: Some(false),
            violations: vec!["the board: a rule broken".into()],
            violations_at: vec![vec![crate::puzzles::Place::Cell(1, 2)]],
            verified_count: Some(1),
        });
        let json = serde_json::to_value(&f).unwrap();
        assert_eq!(json["verified_count"], 1);
        assert_eq!(json["violations"][0], "the board: a rule broken");
        assert_eq!(
            json["violations_at"][0][0]["cell"],
            serde_json::json!([1, 2])
        );
        let back: Facts = serde_json::from_value(json).unwrap();
        let j = back.judged.expect("read back");
        assert_eq!((j.verified, j.verified_count), (Some(false), Some(1)));
    }
}
