//! The list of puzzles, and one report for every answer.
//!
//! Front ends (the command line, a web page, batch runs) talk to puzzles only through
//! [`Entry`], which erases each puzzle's types: words and options in, a [`Report`] out.
//! Adding a puzzle to [`PUZZLES`] gives it every generic verb.

pub use super::report::{plural, report, status_word, Report, FIELDS};
use crate::error::{Error, Result};
use crate::input::Files;
use crate::model::Model;
use crate::puzzles::Puzzle;
use crate::runner::{Limits, Query};
use crate::solve::Relaxation;
use std::marker::PhantomData;

/// The registry's list from the puzzles' registration rows ([`crate::puzzles!`]).
macro_rules! entries {
    ($($m:ident: $t:ident, own verbs: $own:ident, kept session: $kept:ident, data: [$($d:literal),*];)*) => {
        /// Every puzzle quandary knows, in the order the tour shows them.
        pub static PUZZLES: &[&dyn Entry] = &[$(&Registered::<crate::puzzles::$m::$t>::NEW),*];
    };
}
crate::puzzles!(entries);

/// The puzzle called `name`.
pub fn find(name: &str) -> Option<&'static dyn Entry> {
    PUZZLES.iter().copied().find(|e| e.name() == name)
}

/// Where a puzzle's options come from.
pub enum OptionsIn<'a> {
    /// The puzzle's defaults.
    Default,
    /// A JSON object of option values by flag name (absent ones take their defaults): the
    /// one wire shape, which the command line too sends, its flags converted at its edge.
    Json(&'a serde_json::Value),
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
    /// The values of its `--formulation` option ([`Puzzle::FORMULATIONS`]).
    fn formulations(&self) -> &'static [&'static str];
    /// The options only some questions read ([`Puzzle::VERB_OPTIONS`]).
    fn verb_options(&self) -> &'static [(&'static str, &'static [&'static str])];
    /// Whether the question `query` reads the option named `id` (its field name).
    fn reads_option(&self, query: Query, id: &str) -> bool {
        self.verb_options()
            .iter()
            .find(|(o, _)| *o == id)
            .is_none_or(|(_, verbs)| verbs.contains(&query.verb()))
    }
    /// The generic verbs this puzzle answers, in the order front ends list them (`optimum`
    /// and `reach` only with an objective; `model` last). The one list of them.
    fn verbs(&self) -> Vec<&'static str> {
        let mut v = vec!["solve", "count", "unique", "forced", "explain"];
        if self.has_goal() {
            v.extend(["optimum", "reach"]);
        }
        v.push("model");
        v
    }
    /// The query a generic verb asks of this puzzle: [`Query::named`] (the one mapping from
    /// verbs to queries), `solve` as this puzzle asks it, `optimum` and `reach` only with an
    /// objective (`reach` needs `at_least`). `Ok(None)` for `model` and for a verb that is not
    /// generic (an own verb).
    fn query(&self, verb: &str, at_least: Option<i64>) -> Result<Option<Query>> {
        if matches!(verb, "optimum" | "reach") && !self.has_goal() {
            return Ok(None);
        }
        if verb == "reach" && at_least.is_none() {
            return Err(Error::input(
                "reach needs the value to reach (--at-least V, or \"at_least\")",
            ));
        }
        Ok(match Query::named(verb, at_least) {
            Some(Query::First) => Some(self.solve_query()),
            q => q,
        })
    }
    /// Answers a query; with a cube, inside that cube only ([`crate::runner::cubes`]). The
    /// words' files are read through `files` only.
    fn run(
        &self,
        words: &[String],
        files: Files,
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
        files: Files,
        options: OptionsIn,
        query: Query,
    ) -> Result<Vec<crate::runner::Place>>;
    /// The 0-1 program of an instance, with a title naming the instance and formulation,
    /// and the objective's scale in the puzzle's terms.
    fn model(
        &self,
        words: &[String],
        files: Files,
        options: OptionsIn,
        query: Query,
    ) -> Result<Built>;
    /// The 0-1 program of an instance opened to be changed and solved as changed, each
    /// answer judged by the puzzle's verifier ([`crate::runner::opened`]).
    fn open(
        &self,
        words: &[String],
        files: Files,
        options: OptionsIn,
        query: Query,
    ) -> Result<Box<dyn crate::runner::opened::OpenModel>>;
    /// The instance drawn for editing ([`Puzzle::sketch`]), with its headline; `None` for a
    /// puzzle without such a board.
    fn sketch(
        &self,
        words: &[String],
        files: Files,
        options: OptionsIn,
    ) -> Result<Option<(String, crate::puzzles::sketch::Sketch)>>;
    /// The instance with one change made, as input ([`Puzzle::edit`]).
    fn edit(
        &self,
        words: &[String],
        files: Files,
        options: OptionsIn,
        at: &str,
        value: &str,
    ) -> Result<crate::puzzles::sketch::Input>;
    /// Adds the puzzle's option flags to a command.
    #[cfg(feature = "cli")]
    fn options_args(&self, cmd: clap::Command) -> clap::Command;
}

/// A puzzle's 0-1 program as [`Entry::model`] builds it.
pub struct Built {
    /// The instance and the formulation.
    pub title: String,
    pub model: Model,
    /// How the model's objective reads in the puzzle's terms (`None` without one).
    pub goal: Option<crate::puzzles::Goal>,
    /// What each variable means in the puzzle ("(2,3) is a bishop"), by index, where the
    /// formulation records it (its decisions); `None` for auxiliary variables.
    pub meanings: Vec<Option<String>>,
}

impl Built {
    /// The model as records (variables with their meanings, rows, objective):
    /// [`crate::model::records::records`].
    pub fn records(&self) -> serde_json::Value {
        crate::model::records::records(&self.model, &self.meanings)
    }
}

impl Built {
    /// The LP relaxation (HiGHS), its value also in the puzzle's terms: a model may minimise
    /// `-holes` or a charge, while the puzzle asks for the most holes.
    pub fn relax(&self, deadline: Option<std::time::Instant>) -> Result<Relaxation> {
        crate::runner::opened::relaxation(&self.model, self.goal.as_ref(), deadline)
    }
}

/// An instance's 0-1 program for `query`, with its title and what its variables mean.
fn built<P: Puzzle>(instance: &P::Instance, options: &P::Options, query: Query) -> Result<Built> {
    let f = P::formulate(instance, options, query)?;
    let title = format!("{}, {}", P::describe(instance), f.method);
    let mut meanings = vec![None; f.model.num_vars()];
    let described = f.decisions.iter().zip(&f.meanings);
    for (v, m) in described.chain(f.also_means.iter().map(|(v, m)| (v, m))) {
        meanings[v.index()] = Some(crate::explain::says(m, true));
    }
    Ok(Built {
        title,
        model: f.model,
        goal: f.goal,
        meanings,
    })
}

/// The [`Entry`] of puzzle `P`.
pub struct Registered<P>(PhantomData<fn() -> P>);

impl<P> Registered<P> {
    pub const NEW: Registered<P> = Registered(PhantomData);
}

/// Refuses an option given to a question that does not read it: it would be silently
/// ignored. Given means set in the options' JSON (the command line sends only the flags it
/// was given) to something other than `null` or `false` (a form may send every field).
fn refuse_unread(e: &dyn Entry, query: Query, from: &OptionsIn) -> Result<()> {
    for (id, verbs) in e.verb_options() {
        if e.reads_option(query, id) {
            continue;
        }
        let flag = id.replace('_', "-");
        let given = match from {
            OptionsIn::Default => false,
            OptionsIn::Json(v) => v
                .get(&flag)
                .is_some_and(|x| !x.is_null() && *x != serde_json::Value::Bool(false)),
        };
        if given {
            return Err(Error::input(format!(
                "--{flag} applies to {}, not to {}",
                verbs.join(", "),
                query.verb()
            )));
        }
    }
    Ok(())
}

/// Reads a puzzle's options from where they come.
pub fn options<P: Puzzle>(from: OptionsIn) -> Result<P::Options> {
    match from {
        OptionsIn::Default => Ok(P::Options::default()),
        OptionsIn::Json(v) => serde_json::from_value(v.clone())
            .map_err(|e| Error::input(format!("{} options: {e}", P::NAME))),
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
    fn formulations(&self) -> &'static [&'static str] {
        P::FORMULATIONS
    }
    fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        P::ALIASES
    }
    fn verb_options(&self) -> &'static [(&'static str, &'static [&'static str])] {
        P::VERB_OPTIONS
    }
    fn run(
        &self,
        words: &[String],
        files: Files,
        from: OptionsIn,
        query: Query,
        limits: &Limits,
        cube: Option<&[i64]>,
    ) -> Result<Report> {
        refuse_unread(self, query, &from)?;
        let options = options::<P>(from)?;
        let instance = P::read(words, &options, files)?;
        let outcome = match cube {
            Some(cube) => crate::runner::run_cube::<P>(&instance, &options, query, limits, cube)?,
            None => crate::runner::run::<P>(&instance, &options, query, limits)?,
        };
        Ok(report::<P>(&instance, &options, outcome))
    }
    fn decisions(
        &self,
        words: &[String],
        files: Files,
        from: OptionsIn,
        query: Query,
    ) -> Result<Vec<crate::runner::Place>> {
        refuse_unread(self, query, &from)?;
        let options = options::<P>(from)?;
        let instance = P::read(words, &options, files)?;
        let places = P::formulate(&instance, &options, query)?
            .meanings
            .iter()
            .map(|m| m.place)
            .collect();
        Ok(places)
    }
    fn model(
        &self,
        words: &[String],
        files: Files,
        from: OptionsIn,
        query: Query,
    ) -> Result<Built> {
        let options = options::<P>(from)?;
        let instance = P::read(words, &options, files)?;
        built::<P>(&instance, &options, query)
    }
    fn open(
        &self,
        words: &[String],
        files: Files,
        from: OptionsIn,
        query: Query,
    ) -> Result<Box<dyn crate::runner::opened::OpenModel>> {
        let options = options::<P>(from)?;
        let instance = P::read(words, &options, files)?;
        let b = built::<P>(&instance, &options, query)?;
        Ok(Box::new(crate::runner::opened::Opened::<P> {
            instance,
            options,
            built_for: query,
            title: b.title,
            goal: b.goal,
            meanings: b.meanings,
            changed: crate::model::change::Changed::new(b.model),
        }))
    }
    fn sketch(
        &self,
        words: &[String],
        files: Files,
        from: OptionsIn,
    ) -> Result<Option<(String, crate::puzzles::sketch::Sketch)>> {
        let options = options::<P>(from)?;
        let instance = P::read(words, &options, files)?;
        Ok(P::sketch(&instance, &options).map(|s| (P::describe(&instance), s)))
    }
    fn edit(
        &self,
        words: &[String],
        files: Files,
        from: OptionsIn,
        at: &str,
        value: &str,
    ) -> Result<crate::puzzles::sketch::Input> {
        let options = options::<P>(from)?;
        let instance = P::read(words, &options, files)?;
        P::edit(&instance, &options, at, value)
    }
    #[cfg(feature = "cli")]
    fn options_args(&self, cmd: clap::Command) -> clap::Command {
        <P::Options as clap::Args>::augment_args(cmd)
    }
}
