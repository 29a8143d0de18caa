//! Backends turn a [`Model`](crate::model::Model) into answers; [`search`] builds every search
//! operation (first solution, optimum with proof, enumeration, uniqueness, lazy constraints)
//! once on top of the [`Backend`] interface.

pub mod answer;
pub mod budget;
pub mod cubes;
pub mod portfolio;
pub mod progress;
pub mod proof;
pub mod run;
pub mod sat;
pub mod search;

use crate::model::{Constraint, Lit, Model};
use std::time::Instant;

/// What one call to a backend's `solve` found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Sat,
    Unsat,
    /// A limit (time, interruption) stopped the engine before it decided.
    Unknown,
}

/// An engine that decides a 0-1 program incrementally: constraints can be added between
/// solves, and each solve may assume literals true for that call only.
pub trait Backend {
    /// Adds a constraint over the model's variables for all later solves.
    fn add_constraint(&mut self, constraint: &Constraint);
    /// Adds a clause (at least one literal true) for all later solves.
    fn add_clause(&mut self, lits: &[Lit]);
    /// Decides the constraints so far, with `assumptions` true for this call only.
    fn solve(&mut self, assumptions: &[Lit]) -> Answer;
    /// After `Answer::Sat`: the values of the model's variables.
    fn assignment(&self) -> Vec<bool>;
    /// After `Answer::Unsat`: whether the proof used this assumption. The assumptions it used
    /// (an unsatisfiable core, not necessarily minimal) are unsatisfiable on their own.
    fn failed(&self, assumption: Lit) -> bool;
    /// Prepares the model's objective (as minimisation) for bound tightening and returns
    /// literals that, assumed, force `objective <= bound`. `None` if no assignment can reach the
    /// bound (below the objective's least possible value).
    fn objective_at_most(&mut self, bound: i64) -> Option<Vec<Lit>>;
    /// Stops every later solve at this instant (it answers `Unknown`).
    fn set_deadline(&mut self, deadline: Option<Instant>);
    /// Engine-specific size of what was built (e.g. SAT variables and clauses).
    fn engine_size(&self) -> EngineSize;
}

/// The size of what a backend built from a model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct EngineSize {
    pub variables: usize,
    pub clauses: usize,
}

/// Builds the default backend (CaDiCaL with encodings) for a model.
pub fn default_backend(model: &Model) -> sat::SatBackend {
    sat::SatBackend::new(model)
}

/// The CaDiCaL configurations a portfolio of `engines` races, in order.
pub const PORTFOLIO_CONFIGS: [&str; 4] = ["default", "sat", "plain", "unsat"];

/// A portfolio of `engines` (1 to 4) differently configured CaDiCaL engines on one model, each
/// solve raced on as many threads.
pub fn portfolio_backend(model: &Model, engines: usize) -> portfolio::Portfolio {
    let k = engines.clamp(1, PORTFOLIO_CONFIGS.len());
    portfolio::Portfolio::new(model, &PORTFOLIO_CONFIGS[..k])
}

/// How a result obtained on the default backend is described to users, e.g.
/// "SAT (CaDiCaL), strong formulation".
pub fn sat_method(formulation: impl std::fmt::Debug) -> String {
    format!(
        "SAT (CaDiCaL), {} formulation",
        format!("{formulation:?}").to_lowercase()
    )
}
