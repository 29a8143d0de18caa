//! Backends turn a [`crate::model::Model`] into answers; [`search`] builds every search
//! operation (first solution, optimum with proof, enumeration, uniqueness, lazy constraints)
//! once on top of the [`Backend`] interface.

pub mod cadical;
pub mod counting;
#[cfg(feature = "highs")]
pub mod highs;
pub mod limits;
pub mod portfolio;
pub mod proof;
pub mod reasons;
pub mod sat;
pub mod search;

use crate::model::{Constraint, Lit, Model, Var};
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
    /// Adds a constraint that holds in every later solve where `guard` is true (assumed, say)
    /// and is void where it is false: explanations switch reason groups on and off this way.
    fn add_guarded(&mut self, constraint: &Constraint, guard: Lit) {
        for row in Model::guarded(constraint, guard) {
            self.add_constraint(&row);
        }
    }
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
    /// Has a [`Watcher`] (made by `make`, one per engine) reason during every later solve.
    /// Backends that cannot ignore it: a watcher only finds early what the search's lazy cuts
    /// find after a solve.
    fn watch(&mut self, make: &dyn Fn() -> Box<dyn Watcher>) {
        let _ = make;
    }
    /// What a MIP solver reports of its work so far (none for SAT).
    fn mip_stats(&self) -> Option<MipStats> {
        None
    }
    /// Whether propagation alone refutes `assumptions` (no search): `true` only when it
    /// does; `false` when it does not or the backend cannot tell (then no answer is lost, only
    /// a shortcut). Explanations use it to look for local reasons cheaply.
    fn refutes_by_propagation(&mut self, assumptions: &[Lit]) -> bool {
        let _ = assumptions;
        false
    }
    /// A hint for later solves, not a constraint: try these literals true first (the next
    /// solution is expected near an assignment known already).
    fn prefer(&mut self, lits: &[Lit]) {
        let _ = lits;
    }
}

/// A puzzle's reasoning during search (IPASIR-UP on the SAT backend). It is told of each
/// assignment to the variables it watches, in order, and of each one undone (the last told
/// first). When the assignments so far admit no solution it answers with a clause over watched
/// variables that they falsify and that every solution satisfies (a lazy cut found early).
pub trait Watcher: Send {
    /// The variables it is told about.
    fn watched(&self) -> Vec<Var>;
    /// `lit` became true.
    fn assign(&mut self, lit: Lit) -> Option<Vec<Lit>>;
    /// `lit`, told last of those still standing, is undone.
    fn undo(&mut self, lit: Lit);
    /// A literal over a watched variable, not yet assigned, that the watcher's rule forces
    /// under the assignment it was told (propagation); `None` when there is none.
    fn propagate(&mut self) -> Option<Lit> {
        None
    }
    /// Why `lit` (given by [`Watcher::propagate`] and still assigned) holds: a clause that
    /// contains `lit`, every other literal of it false now, that every solution satisfies.
    fn reason(&mut self, lit: Lit) -> Vec<Lit> {
        vec![lit]
    }
}

/// What a MIP backend reports: its work over all solves of a run and the bounds of the last.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MipStats {
    /// MIP solves run (a search makes one per question it asks the backend).
    pub solves: u64,
    /// Branch-and-bound nodes, summed over the solves.
    pub nodes: u64,
    /// Simplex iterations (every LP of the branch and bound), summed over the solves.
    pub simplex_iterations: u64,
    /// "Infeasible" answers re-solved without presolve before they were trusted (their
    /// solves, nodes and iterations are in the sums above).
    pub confirmations: u64,
    /// The objective's LP relaxation (every variable in [0, 1], the model's rows, no cuts),
    /// in the puzzle's terms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lp_bound: Option<f64>,
    /// The last solve's dual bound (in the puzzle's terms once the runner has converted it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_bound: Option<f64>,
    /// The last solve's relative gap between its best solution and its dual bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
}

/// The engine a run's full model is solved on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// CaDiCaL with encodings ([`sat`]), with the puzzle's restricted phases and exact methods
    /// tried first.
    #[default]
    Sat,
    /// HiGHS's branch and bound on the 0-1 program itself (feature `highs`): the model alone,
    /// as the seeds ran theirs.
    Highs,
}

/// What a build without the HiGHS backend says when asked for it.
pub const NO_HIGHS: &str = "this build has no MIP backend: the command line and the page need `cargo build --release --features highs`, the Python package `pip install ./python --config-settings=build-args=\"--features highs\"` (either needs cmake and libclang, e.g. `apt-get install cmake libclang-dev`)";

/// Whether this build has the HiGHS backend.
pub const HAS_HIGHS: bool = cfg!(feature = "highs");

/// The size of what a backend built from a model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EngineSize {
    pub variables: usize,
    pub clauses: usize,
    /// Clauses a [`Watcher`] added during search (not counted in `clauses`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cuts_in_search: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Builds the default backend (CaDiCaL with encodings) for a model.
pub fn default_backend(model: &Model) -> sat::SatBackend {
    sat::SatBackend::new(model)
}

/// The CaDiCaL configurations a portfolio of `engines` races, in order.
pub const PORTFOLIO_CONFIGS: [&str; 4] = ["default", "sat", "plain", "unsat"];

/// The CaDiCaL engines a search races, one thread each: `--engines K` (the first K of
/// [`PORTFOLIO_CONFIGS`], 1 to 4) or `--engines NAME,NAME` (those configurations). One flag,
/// one meaning, for every puzzle that offers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Engines(pub Vec<&'static str>);

impl std::str::FromStr for Engines {
    type Err = String;
    fn from_str(text: &str) -> std::result::Result<Engines, String> {
        let known = PORTFOLIO_CONFIGS.join(", ");
        if let Ok(k) = text.trim().parse::<usize>() {
            return match k {
                1..=4 => Ok(Engines(PORTFOLIO_CONFIGS[..k].to_vec())),
                _ => Err(format!(
                    "--engines {k}: give 1 to 4, or names among {known}"
                )),
            };
        }
        text.split(',')
            .map(|name| {
                PORTFOLIO_CONFIGS
                    .iter()
                    .copied()
                    .find(|c| *c == name.trim())
                    .ok_or_else(|| {
                        format!(
                            "--engines: unknown CaDiCaL configuration '{name}' (known: {known})"
                        )
                    })
            })
            .collect::<std::result::Result<Vec<_>, _>>()
            .map(Engines)
    }
}

impl<'de> serde::Deserialize<'de> for Engines {
    /// A count or names, as on the command line (`2`, `"2"`, `"default,sat"`).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Engines, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let text = match &v {
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::String(s) => s.clone(),
            other => {
                return Err(serde::de::Error::custom(format!(
                    "engines: {other} is not a count or names"
                )))
            }
        };
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// How a result obtained on the default backend is described to users, e.g.
/// "SAT (CaDiCaL), strong formulation".
pub fn sat_method(formulation: impl std::fmt::Debug) -> String {
    format!(
        "SAT (CaDiCaL), {} formulation",
        format!("{formulation:?}").to_lowercase()
    )
}

/// What the LP relaxation of a model says: every variable in `[0, 1]`, the same rows, the
/// objective (if any) optimised in its own direction.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Relaxation {
    /// "optimal", "infeasible", or how else HiGHS ended.
    pub status: String,
    /// The LP optimum of the model's own objective, in its own direction (`None` without an
    /// objective or an optimum).
    pub value: Option<f64>,
    /// Whether the model maximises its objective.
    pub maximise: bool,
    /// Variables with a fractional value (beyond 1e-6) at the LP solution HiGHS returned.
    pub fractional: usize,
    pub variables: usize,
    pub simplex_iterations: i64,
    pub seconds: f64,
    /// The value in the puzzle's terms, where the caller knows them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<GoalBound>,
}

/// The LP optimum read as the puzzle's value: a bound on every solution's (from above when
/// the puzzle maximises).
#[derive(Clone, Debug, serde::Serialize)]
pub struct GoalBound {
    /// What the value counts ("holes").
    pub name: String,
    pub value: f64,
    /// Whether the puzzle wants it large (the bound is then from above).
    pub maximise: bool,
}

impl Relaxation {
    /// One line: status, value (in the puzzle's terms where known) and how fractional the LP
    /// solution is.
    pub fn describe(&self) -> String {
        let model = |v: f64| {
            format!(
                "{} of the objective {v:.4}",
                if self.maximise { "maximum" } else { "minimum" }
            )
        };
        let value = match (self.value, &self.goal) {
            (Some(v), Some(g)) => format!(
                ", {} {:.4} {} ({})",
                if g.maximise { "at most" } else { "at least" },
                g.value,
                g.name,
                model(v)
            ),
            (Some(v), None) => format!(", {}", model(v)),
            (None, _) => String::new(),
        };
        format!(
            "{}{value}; {} of {} variables fractional, {} simplex iterations, {:.3} s (HiGHS)",
            self.status, self.fractional, self.variables, self.simplex_iterations, self.seconds
        )
    }
}

/// Solves the LP relaxation of `model` with HiGHS, within `deadline`; an error naming how to
/// get the backend in a build without it.
pub fn lp_relaxation(model: &Model, deadline: Option<Instant>) -> crate::error::Result<Relaxation> {
    #[cfg(feature = "highs")]
    {
        Ok(highs::relax(model, deadline))
    }
    #[cfg(not(feature = "highs"))]
    {
        let _ = (model, deadline);
        Err(crate::error::Error::input(format!("--relax: {NO_HIGHS}")))
    }
}
