//! The list of puzzles, and one report for every answer.
//!
//! Front ends (the command line, a web page, batch runs) talk to puzzles only through
//! [`Entry`], which erases each puzzle's types: words and options in, a [`Report`] out.
//! Adding a puzzle to [`PUZZLES`] gives it every generic verb.

use crate::error::{Error, Result};
use crate::model::Model;
use crate::puzzles::Puzzle;
use crate::runner::{Facts, Limits, Outcome, Query};
use crate::solve::search::Status;
use serde::Serialize;
use std::marker::PhantomData;

/// Every puzzle quandary knows, in the order the tour shows them.
pub static PUZZLES: &[&dyn Entry] = &[
    &Registered::<crate::puzzles::tank::TankAttack>::NEW,
    &Registered::<crate::puzzles::gunport::GunportProblem>::NEW,
    &Registered::<crate::puzzles::chess::ChessAvoidance>::NEW,
    &Registered::<crate::puzzles::battleship::BattleshipPuzzle>::NEW,
    &Registered::<crate::puzzles::tantrix::TantrixPuzzle>::NEW,
];

/// The puzzle called `name`.
pub fn find(name: &str) -> Option<&'static dyn Entry> {
    PUZZLES.iter().copied().find(|e| e.name() == name)
}

/// Where a puzzle's options come from.
pub enum OptionsIn<'a> {
    /// The puzzle's defaults.
    Default,
    /// A JSON object of option names and values (absent ones take their defaults).
    Json(&'a serde_json::Value),
    /// Parsed command-line flags.
    #[cfg(feature = "cli")]
    Matches(&'a clap::ArgMatches),
}

/// A puzzle with its types erased: what front ends use.
pub trait Entry: Sync {
    fn name(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn about(&self) -> &'static str;
    /// What the input words are.
    fn input(&self) -> &'static str;
    fn example(&self) -> &'static [&'static str];
    /// The query the `solve` verb asks (the optimum for puzzles that are optimisation problems).
    fn solve_query(&self) -> Query;
    /// What the tour asks of the example.
    fn tour_query(&self) -> Query;
    /// Whether the puzzle can have an objective (then `optimum` and `reach` apply).
    fn has_goal(&self) -> bool;
    /// Other names of generic verbs, as (alias, verb).
    fn aliases(&self) -> &'static [(&'static str, &'static str)];
    /// The generic verbs this puzzle answers, in the order front ends list them (`optimum`
    /// and `reach` only with an objective; `model` last). The one list of them.
    fn verbs(&self) -> Vec<&'static str> {
        let mut v = vec!["solve", "count", "unique", "forced"];
        if self.has_goal() {
            v.extend(["optimum", "reach"]);
        }
        v.push("model");
        v
    }
    /// The query a generic verb asks (`reach` needs `at_least`): the one mapping from verbs to
    /// queries. `Ok(None)` for `model` and for a verb that is not generic (an own verb).
    fn query(&self, verb: &str, at_least: Option<i64>) -> Result<Option<Query>> {
        Ok(Some(match verb {
            "solve" => self.solve_query(),
            "count" => Query::Count,
            "unique" => Query::Unique,
            "forced" => Query::Forced,
            "optimum" if self.has_goal() => Query::Optimum,
            "reach" if self.has_goal() => Query::AtLeast(at_least.ok_or_else(|| {
                Error::input("reach needs the value to reach (--at-least V, or \"at_least\")")
            })?),
            _ => return Ok(None),
        }))
    }
    /// Adds the puzzle's own verbs (with their flags) to a command: `gunport sweep`, `chess
    /// peaceable`, `tantrix check`, Battleship's setter ([`super::own`]).
    #[cfg(feature = "cli")]
    fn own_verbs(&self, cmd: clap::Command) -> clap::Command {
        super::own::augment(self.name(), cmd)
    }
    /// Runs an own verb: `m` holds the puzzle's matches, the verb its subcommand
    /// ([`super::own::run_verb`]).
    #[cfg(feature = "cli")]
    fn run_own(
        &self,
        m: &clap::ArgMatches,
        base: &Limits,
        line: &mut dyn FnMut(&str),
    ) -> Result<Report> {
        super::own::run_verb(self.name(), m, base, line)
    }
    /// Answers a query; with a cube, inside that cube only ([`crate::runner::cubes`]).
    fn run(
        &self,
        words: &[String],
        options: OptionsIn,
        query: Query,
        limits: &Limits,
        cube: Option<&[i64]>,
    ) -> Result<Report>;
    /// Where each decision variable of the formulation answering `query` sits on the board
    /// (what cubes split on, one decision per place).
    fn decisions(
        &self,
        words: &[String],
        options: OptionsIn,
        query: Query,
    ) -> Result<Vec<crate::runner::Place>>;
    /// The 0-1 program of an instance, with a title naming the instance and formulation.
    fn model(&self, words: &[String], options: OptionsIn, query: Query) -> Result<(String, Model)>;
    /// Adds the puzzle's option flags to a command.
    #[cfg(feature = "cli")]
    fn options_args(&self, cmd: clap::Command) -> clap::Command;
}

/// The [`Entry`] of puzzle `P`.
pub struct Registered<P>(PhantomData<fn() -> P>);

impl<P> Registered<P> {
    pub const NEW: Registered<P> = Registered(PhantomData);
}

/// Reads a puzzle's options from where they come.
pub fn options<P: Puzzle>(from: OptionsIn) -> Result<P::Options> {
    match from {
        OptionsIn::Default => Ok(P::Options::default()),
        OptionsIn::Json(v) => serde_json::from_value(v.clone())
            .map_err(|e| Error::input(format!("{} options: {e}", P::NAME))),
        #[cfg(feature = "cli")]
        OptionsIn::Matches(m) => <P::Options as clap::FromArgMatches>::from_arg_matches(m)
            .map_err(|e| Error::input(e.to_string())),
    }
}

impl<P: Puzzle> Entry for Registered<P> {
    fn name(&self) -> &'static str {
        P::NAME
    }
    fn title(&self) -> &'static str {
        P::TITLE
    }
    fn about(&self) -> &'static str {
        P::ABOUT
    }
    fn input(&self) -> &'static str {
        P::INPUT
    }
    fn example(&self) -> &'static [&'static str] {
        P::EXAMPLE
    }
    fn solve_query(&self) -> Query {
        P::SOLVE
    }
    fn has_goal(&self) -> bool {
        P::HAS_GOAL
    }
    fn tour_query(&self) -> Query {
        P::TOUR
    }
    fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        P::ALIASES
    }
    fn run(
        &self,
        words: &[String],
        from: OptionsIn,
        query: Query,
        limits: &Limits,
        cube: Option<&[i64]>,
    ) -> Result<Report> {
        let options = options::<P>(from)?;
        let instance = P::read(words, &options)?;
        let outcome = match cube {
            Some(cube) => crate::runner::run_cube::<P>(&instance, &options, query, limits, cube)?,
            None => crate::runner::run::<P>(&instance, &options, query, limits)?,
        };
        Ok(report::<P>(&instance, &options, outcome))
    }
    fn decisions(
        &self,
        words: &[String],
        from: OptionsIn,
        query: Query,
    ) -> Result<Vec<crate::runner::Place>> {
        let options = options::<P>(from)?;
        let instance = P::read(words, &options)?;
        let places = P::formulate(&instance, &options, query)?
            .meanings
            .iter()
            .map(|m| m.place)
            .collect();
        Ok(places)
    }
    fn model(&self, words: &[String], from: OptionsIn, query: Query) -> Result<(String, Model)> {
        let options = options::<P>(from)?;
        let instance = P::read(words, &options)?;
        let f = P::formulate(&instance, &options, query)?;
        let title = format!("{}, {}", P::describe(&instance), f.method);
        Ok((title, f.model))
    }
    #[cfg(feature = "cli")]
    fn options_args(&self, cmd: clap::Command) -> clap::Command {
        <P::Options as clap::Args>::augment_args(cmd)
    }
}

/// One answer, the same fields for every puzzle and verb; `--json` prints it as one object.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Report {
    pub puzzle: String,
    pub verb: String,
    /// The instance, in words ("Tank Attack 6×6").
    pub instance: String,
    #[serde(flatten)]
    pub facts: Facts,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<serde_json::Value>,
    /// A second solution, when `unique` finds one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_solution: Option<serde_json::Value>,
    /// The readable form: headline, then the board(s).
    #[serde(skip)]
    pub text: String,
    /// A picture of the answer, if there is one to draw.
    #[serde(skip)]
    pub svg: Option<String>,
    /// The solution in the puzzle's own file format, where it has one.
    #[serde(skip)]
    pub file: Option<String>,
}

impl std::ops::Deref for Report {
    type Target = Facts;
    fn deref(&self) -> &Facts {
        &self.facts
    }
}

impl std::ops::DerefMut for Report {
    fn deref_mut(&mut self) -> &mut Facts {
        &mut self.facts
    }
}

impl Report {
    /// A report with only its status; verbs fill in what they have.
    pub fn new(puzzle: &str, verb: &str, instance: String, status: Status) -> Report {
        let query = match verb {
            "count" => Query::Count,
            "unique" => Query::Unique,
            _ => Query::First,
        };
        Report {
            puzzle: puzzle.to_string(),
            verb: verb.to_string(),
            instance,
            facts: Facts::new(query, status),
            solution: None,
            other_solution: None,
            text: String::new(),
            svg: None,
            file: None,
        }
    }

    /// The process exit status: 0 answered, 1 stopped by a limit.
    /// 0 with an answer, 1 when a limit stopped the run, 4 when `tantrix check` rejects the
    /// solution given.
    pub fn exit_code(&self) -> i32 {
        if self.status == Status::Rejected {
            4
        } else if self.answered() {
            0
        } else {
            1
        }
    }
}

/// How a status reads in a headline.
pub fn status_word(s: Status) -> &'static str {
    match s {
        Status::Solved => "solved",
        Status::Optimal => "optimal",
        Status::Infeasible => "infeasible",
        Status::Unknown => "unknown (a limit stopped the search)",
        Status::Rejected => "rejected (the solution given breaks the rules)",
    }
}

/// "1 board", "2 boards".
pub fn plural(n: u128, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if noun.ends_with('s') {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

/// The report of an outcome: headline, boards, JSON fields and picture, the same way for
/// every puzzle.
pub fn report<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    o: Outcome<P::Solution>,
) -> Report {
    let described = P::describe(instance);
    let mut r = Report::new(P::NAME, o.query.verb(), described.clone(), o.status);
    let noun = P::NOUN;
    let (status, count, unique) = match &o.in_scope {
        Some(s) => (s.status, s.count, s.unique),
        None => (o.status, o.count, o.unique),
    };
    let value = |v: i64| match P::GOAL_NAME {
        "" => v.to_string(),
        name => format!("{v} {name}"),
    };
    let headline = match (o.query, status) {
        // Never from a run: only `tantrix check` reports it.
        (_, Status::Rejected) => status_word(status).to_string(),
        (_, Status::Unknown) if o.solutions.is_empty() => match o.count_at_least {
            Some(n) if o.query == Query::Count => format!(
                "at least {}; {}",
                plural(n, noun),
                status_word(Status::Unknown)
            ),
            _ => status_word(Status::Unknown).to_string(),
        },
        (Query::Count, Status::Unknown) => format!(
            "at least {}; {}",
            plural(o.count_at_least.unwrap_or(0), noun),
            status_word(Status::Unknown)
        ),
        (Query::Count, _) => {
            let mut h = format!("exactly {}", plural(count.unwrap_or(0), noun));
            if let (Some(v), true) = (o.objective, P::HAS_GOAL) {
                h = format!("{h}, all optimal with {}", value(v));
            }
            if let Some(k) = o.classes {
                h += &format!(", {} up to rotation and reflection", plural(k, "class"));
            }
            h
        }
        (Query::Unique, Status::Infeasible) => format!("no {noun} at all"),
        (Query::Unique, Status::Unknown) => {
            format!("one {noun} found; a limit stopped the search for a second")
        }
        (Query::Unique, _) if unique == Some(true) => format!("exactly one {noun} (unique)"),
        (Query::Unique, _) => format!("not unique: two {noun}s shown"),
        (Query::Forced, Status::Infeasible) => format!("no {noun} at all"),
        (Query::Forced, s) => {
            let fs = o
                .forced
                .as_ref()
                .or(o.in_scope.as_ref().and_then(|i| i.forced.as_ref()));
            let (settled, places) = fs.map_or((0, 0), crate::runner::forced::settled);
            let mut h = format!(
                "{settled} of {places} places are the same in every {noun} (? where they differ)"
            );
            if s == Status::Unknown {
                h += &format!(
                    "; {} decisions undecided when a limit stopped the search",
                    fs.map_or(0, |f| f.undecided)
                );
            }
            h
        }
        (_, Status::Infeasible) => match o.query {
            Query::AtLeast(v) => format!("infeasible: no {noun} reaches {}", value(v)),
            _ => format!("infeasible: no {noun} exists"),
        },
        (_, Status::Optimal) => format!(
            "optimal, {} (proved)",
            value(o.objective.unwrap_or_default())
        ),
        (_, Status::Unknown) => match o.objective {
            Some(v) => format!("{}; best found {}", status_word(Status::Unknown), value(v)),
            None => format!("{}; a {noun} was found", status_word(Status::Unknown)),
        },
        (Query::AtLeast(v), Status::Solved) => format!(
            "at least {}: found one with {}",
            value(v),
            value(o.objective.unwrap_or_default())
        ),
        (_, Status::Solved) => match o.objective {
            Some(v) => format!("solved, {}", value(v)),
            None => "solved".to_string(),
        },
    };
    let scope_note = match &o.scope {
        Some(s) => format!(" [among {s} only; other {noun}s are not searched]"),
        None => String::new(),
    };
    r.text = format!("{described}: {headline}{scope_note}\n");
    if let Some(remark) = P::remarks(instance, o.query, o.status, o.scope.is_some()) {
        r.text += &format!("{remark}\n");
    }
    if let Some(fs) = o
        .forced
        .as_ref()
        .or(o.in_scope.as_ref().and_then(|i| i.forced.as_ref()))
    {
        r.text += &format!("\n{}", crate::runner::forced::text(fs));
        r.svg = Some(crate::runner::forced::svg(
            fs,
            &format!("{described}: forced decisions"),
        ));
    } else {
        for s in o.solutions.iter().take(2) {
            r.text += &format!("\n{}", P::text(instance, s));
        }
        if let Some(s) = o.solutions.first() {
            r.svg = Some(P::svg(instance, options, s));
            r.file = P::file(instance, s);
        }
    }
    let json = |s: &P::Solution| serde_json::to_value(s).unwrap_or(serde_json::Value::Null);
    r.solution = o.solutions.first().map(json);
    r.other_solution = o.solutions.get(1).map(json);
    r.facts = o.facts;
    r
}
