//! What a verb prints: readable text, or with `--json` exactly one JSON object.

use quandary::model::Size;
use quandary::solve::search::Status;
use quandary::solve::EngineSize;
use serde::Serialize;

#[derive(Serialize, Default)]
pub struct Stats {
    pub seconds: f64,
    pub method: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<Size>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineSize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solver_calls: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lazy_rounds: Option<u64>,
}

#[derive(Serialize)]
pub struct Report {
    pub puzzle: &'static str,
    pub verb: &'static str,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<serde_json::Value>,
    /// A second solution, shown when `unique` finds one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_solution: Option<serde_json::Value>,
    /// Figures particular to a method (e.g. the states a dynamic program kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
    pub stats: Stats,
    /// The readable form printed without `--json`.
    #[serde(skip)]
    pub text: String,
}

impl Report {
    pub fn new(puzzle: &'static str, verb: &'static str, status: Status) -> Report {
        Report {
            puzzle,
            verb,
            status,
            count: None,
            unique: None,
            objective: None,
            solution: None,
            other_solution: None,
            details: None,
            stats: Stats::default(),
            text: String::new(),
        }
    }

    /// Prints the report and returns the exit status: 1 when a limit stopped the search.
    pub fn emit(&self, json: bool) -> i32 {
        if json {
            super::outln!(
                "{}",
                serde_json::to_string(self).expect("reports serialise")
            );
        } else {
            super::outln!("{}", self.text.trim_end_matches('\n'));
            super::outln!("({} in {:.3} s)", self.stats.method, self.stats.seconds);
        }
        match self.status {
            Status::Unknown => 1,
            _ => 0,
        }
    }
}

pub fn status_word(s: Status) -> &'static str {
    match s {
        Status::Solved => "solved",
        Status::Optimal => "optimal",
        Status::Infeasible => "infeasible",
        Status::Unknown => "unknown (a limit stopped the search)",
    }
}
