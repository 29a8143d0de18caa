//! One interface for every puzzle, and the registry that lists them.
//!
//! A puzzle says what its input is ([`Puzzle::Instance`], read by [`Puzzle::read`]), how it is
//! asked ([`Puzzle::Options`]), what an answer is ([`Puzzle::Solution`]), how to state it as a
//! 0-1 program ([`Puzzle::formulate`]), how to check an answer without that program
//! ([`Puzzle::verify`]) and how to draw one. Everything else (first solution, optimum, counts,
//! uniqueness, forced cells, time limits, verification of every answer, reports) is written
//! once, in [`crate::runner`], and serves every puzzle. A new puzzle is one module
//! implementing this trait plus one line in [`registry`](crate::runner::registry); [`template`] is a compiled example.

#[macro_use]
mod registered;
pub mod battleship;
pub mod chess;
pub mod gunport;
pub mod sketch;
pub mod tank;
pub mod tantrix;
pub mod template;

use crate::error::Result;
pub use crate::input::Files;
use crate::model::{Constraint, Model, Var};
use crate::solve::limits::Limits;

pub use crate::geometry::Place;

/// What a decision variable means, in the puzzle's words: "at `place`, `says`" when true.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Meaning {
    pub place: Place,
    pub says: String,
    /// What it says when false, if that is worth showing (e.g. "water").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub otherwise: Option<String>,
    /// What the place is called in sentences when the decision is true and when it is false
    /// ("ship", "water"), where the marks above are symbols; explanations use them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<(String, String)>,
}

impl Meaning {
    /// "At `place`, `says`" when true; nothing worth showing when false.
    pub fn at(place: Place, says: impl Into<String>) -> Meaning {
        Meaning {
            place,
            says: says.into(),
            otherwise: None,
            words: None,
        }
    }
}

/// What a verifier found wrong with a solution: the first broken rule in words, and the places
/// it speaks of, for a picture to ring ([`Puzzle::svg`]'s `marked`); none when the rule is about
/// no one place (a count of ships, a tile used twice).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    pub why: String,
    pub at: Vec<Place>,
}

impl Broken {
    /// The rule `why`, broken at `at`.
    pub fn at(why: impl Into<String>, at: impl IntoIterator<Item = Place>) -> Broken {
        Broken {
            why: why.into(),
            at: at.into_iter().collect(),
        }
    }
}

impl From<String> for Broken {
    fn from(why: String) -> Broken {
        Broken::at(why, [])
    }
}

impl From<&str> for Broken {
    fn from(why: &str) -> Broken {
        Broken::at(why, [])
    }
}

impl std::fmt::Display for Broken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

impl std::ops::Deref for Broken {
    type Target = str;
    fn deref(&self) -> &str {
        &self.why
    }
}

/// What is asked of a puzzle instance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Query {
    #[default]
    /// One solution, or a proof that there is none.
    First,
    /// The best solution by the puzzle's objective, with a proof.
    Optimum,
    /// A solution worth at least this much (at most, for a minimised objective), or a proof
    /// that there is none.
    AtLeast(i64),
    /// Every solution (every optimal one, where there is an objective); with a cap, the count
    /// stops after that many (then a lower bound, said so).
    Count { cap: Option<u64> },
    /// Is there exactly one solution (optimal one)? A second one is shown if not.
    Unique,
    /// The decisions that take the same value in every solution (optimal one).
    Forced,
    /// The solution (or what is forced) as a chain of small deductions from the givens and
    /// the rules, each with a minimal reason ([`crate::explain`]), looked for as the
    /// [`Reasons`] say.
    Explain(Reasons),
}

/// How `explain` looks for a step's reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reasons {
    /// Pools from the decision's neighbourhood out to every element, cached reasons, one
    /// global shrink a step, every decision the reason forces concluded at once; on a machine
    /// with two or more threads, two engines race ([`Reasons::Alone`] and
    /// [`Reasons::Counting`]) and the first to finish gives the explanation.
    #[default]
    Levels,
    /// [`Reasons::Levels`] on one engine, every row in clauses: the same steps every run
    /// (`--threads 1`). Difficulty ratings use it.
    Alone,
    /// [`Reasons::Levels`] on one engine that counts the "exactly" rows during search.
    Counting,
    /// The baseline the docs measure against (`--plain`): for every open decision a
    /// deletion-based minimal reason over every element, the cheapest taken, one decision a
    /// step.
    Plain,
}

impl Query {
    /// `explain` asked with how its reasons are looked for: `plain` (`--plain`: the baseline,
    /// one engine) or a number of `threads` (`--threads 1`: one engine, the same steps every
    /// run); any other query as it is. The one reading of these flags for every front end.
    pub fn explaining(self, plain: bool, threads: Option<u32>) -> crate::error::Result<Query> {
        let Query::Explain(_) = self else {
            return Ok(self);
        };
        Ok(Query::Explain(match (plain, threads) {
            (true, Some(_)) => {
                return Err(crate::error::Error::input(
                    "--threads: --plain runs on one engine",
                ))
            }
            (_, Some(0)) => {
                return Err(crate::error::Error::input(
                    "--threads: 1 (one engine, the same steps every run) or more",
                ))
            }
            (true, None) => Reasons::Plain,
            (false, Some(1)) => Reasons::Alone,
            (false, _) => Reasons::Levels,
        }))
    }

    /// The verb that asks it on the command line.
    pub fn verb(self) -> &'static str {
        match self {
            Query::First => "solve",
            Query::Optimum => "optimum",
            Query::AtLeast(_) => "reach",
            Query::Count { .. } => "count",
            Query::Unique => "unique",
            Query::Forced => "forced",
            Query::Explain(_) => "explain",
        }
    }

    /// This query with a count's cap (`None` leaves it uncapped); other queries unchanged.
    pub fn capped(self, cap: Option<u64>) -> Query {
        match self {
            Query::Count { .. } => Query::Count { cap },
            q => q,
        }
    }

    /// The query a generic verb names: the one mapping from verbs to queries, the inverse of
    /// [`Query::verb`]. `solve` names the first solution (a puzzle whose `solve` asks for its
    /// optimum says so: [`crate::runner::registry::Entry::query`]); `reach` takes `at_least`
    /// (`None`: an error for the caller to name), `explain` the default [`Reasons`]; `None`
    /// for a verb that is not generic.
    pub fn named(verb: &str, at_least: Option<i64>) -> Option<Query> {
        Some(match verb {
            "solve" => Query::First,
            "optimum" => Query::Optimum,
            "reach" => Query::AtLeast(at_least?),
            "count" => Query::Count { cap: None },
            "unique" => Query::Unique,
            "forced" => Query::Forced,
            "explain" => Query::Explain(Reasons::Levels),
            _ => return None,
        })
    }
}

/// Which method answers, for a puzzle with an exact method of its own beside the integer
/// program (Tank Attack's line search, Gunport's budget program): one `--method` flag with
/// the same words wherever it appears.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The puzzle's own exact method where it is known to be the faster, the integer program
    /// otherwise
    #[default]
    Auto,
    /// The integer program on the SAT backend
    Sat,
    /// The puzzle's own exact method (Tank Attack: the line search; Gunport: the budget
    /// program, also called `budget`)
    #[cfg_attr(feature = "cli", value(alias = "budget"))]
    #[serde(alias = "budget")]
    Exact,
    /// Tank Attack's consistent search: every row and column kept consistent with the table
    /// of feasible lines (sides 2 to 9; the method for boards with givens)
    Gac,
}

/// The input words of a puzzle that takes exactly `N` of them; `usage` says what they are
/// ("one word, the side n of the n×n board").
pub fn words<'w, const N: usize>(words: &'w [String], usage: &str) -> Result<&'w [String; N]> {
    words.try_into().map_err(|_| {
        crate::error::Error::input(format!("give {usage} (got {} words)", words.len()))
    })
}

/// Why a formulation is built: to find (symmetry-breaking rows allowed: they keep an image of
/// every solution) or to enumerate (they would lose solutions, so they are left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Find,
    Enumerate,
}

impl Purpose {
    /// The purpose a query needs.
    pub fn of(query: Query) -> Purpose {
        match query {
            Query::First | Query::Optimum | Query::AtLeast(_) => Purpose::Find,
            Query::Count { .. } | Query::Unique | Query::Forced | Query::Explain(_) => {
                Purpose::Enumerate
            }
        }
    }
}

/// The objective in the puzzle's own terms (e.g. holes), whatever the model optimises.
///
/// The model's objective value of a solution worth `w` is `per_unit * w + at_zero`; a negative
/// `per_unit` lets a model minimise a quantity that falls as the puzzle's value rises.
pub struct Goal {
    /// What the value is called ("holes", "pieces").
    pub name: &'static str,
    /// Whether the puzzle wants the value large.
    pub maximise: bool,
    pub per_unit: i64,
    pub at_zero: i64,
    /// A value no solution can beat, proved outside the model (e.g. a published bound), which
    /// the search tries first: reaching it proves optimality at once.
    pub proved_bound: Option<i64>,
    /// Every two solutions' values differ by a multiple of this (1 when nothing is known).
    pub step: i64,
}

impl Goal {
    /// The value of the model's objective for a solution worth `value` in the puzzle's terms.
    pub fn model_value(&self, value: i64) -> i64 {
        self.per_unit * value + self.at_zero
    }

    /// The puzzle's value of a solution whose model objective is `model_value`.
    pub fn value(&self, model_value: i64) -> i64 {
        (model_value - self.at_zero) / self.per_unit
    }

    /// The bound on the model's objective in minimisation form (what
    /// [`crate::solve::Backend::objective_at_most`] takes) for solutions worth at least
    /// (maximising) or at most (minimising) `value`.
    pub fn at_most_for(&self, value: i64) -> i64 {
        let v = self.model_value(value);
        if self.model_maximises() {
            -v
        } else {
            v
        }
    }

    /// Whether the model itself maximises.
    pub fn model_maximises(&self) -> bool {
        self.maximise == (self.per_unit > 0)
    }
}

/// Lazy constraints: the rows a candidate assignment violates (none accepts it).
pub type LazyCuts<'a> = Box<dyn FnMut(&[bool]) -> Vec<Constraint> + 'a>;
/// Makes a [`Watcher`](crate::solve::Watcher) (one per engine): lazy cuts found during search.
pub type MakeWatcher<'a> = Box<dyn Fn() -> Box<dyn crate::solve::Watcher> + 'a>;
/// Reads a solution off an assignment.
pub type Decoder<'a, S> = Box<dyn Fn(&[bool]) -> S + 'a>;
/// Names a solution's symmetry class.
pub type ClassOf<'a, S> = Box<dyn Fn(&S) -> Vec<usize> + 'a>;
/// The number of solutions in a solution's symmetry class.
pub type ClassSize<'a, S> = Box<dyn Fn(&S) -> u128 + 'a>;
/// Checks a solution: a summary, or the rule it breaks.
pub type Check<'a, S> = Box<dyn Fn(&S) -> std::result::Result<String, String> + 'a>;

/// A puzzle instance stated as a 0-1 program, with everything the runner needs around it.
pub struct Formulated<'a, S> {
    pub model: Model,
    /// The decision variables: solutions are told apart (counted, blocked) by these alone.
    pub decisions: Vec<Var>,
    /// What each decision variable means (same order as `decisions`), for forced cells.
    pub meanings: Vec<Meaning>,
    /// What other variables mean, where the formulation has a word for them (Gunport's hole
    /// variables, whose decisions are the dominoes): for a person reading the model.
    pub also_means: Vec<(Var, Meaning)>,
    /// Block a solution by its true decisions only: exact when every solution sets the same
    /// number of decisions true (one placement per cell, say); a shorter clause.
    pub block_by_true_decisions: bool,
    /// Reads a solution off an assignment.
    pub decode: Decoder<'a, S>,
    pub cuts: Option<LazyCuts<'a>>,
    /// Finds some of the cuts during search, on partial assignments (the SAT backend).
    pub watcher: Option<MakeWatcher<'a>>,
    /// Names a solution's symmetry class (its least image, say): counts then also report
    /// the number of classes.
    pub classes: Option<ClassOf<'a, S>>,
    /// Set when the model keeps exactly one solution of each symmetry class (say, the
    /// lex-leader of every orbit): the size of a solution's class. A count then reports the
    /// solutions met as the classes, and the sum of their classes' sizes as all solutions;
    /// with [`Self::classes`] also set, the classes met must all differ (checked).
    pub class_size: Option<ClassSize<'a, S>>,
    /// The objective in the puzzle's terms, when the model has one.
    pub goal: Option<Goal>,
    /// CaDiCaL configurations to race (one thread each); empty for the default engine.
    pub engines: Vec<&'static str>,
    /// How the answer is obtained, for reports ("SAT (CaDiCaL), strong formulation").
    pub method: String,
    /// The puzzle's verifier, set by the runner: every solution an enumeration meets is
    /// checked, not only those it returns.
    pub check: Option<Check<'a, S>>,
    /// Set when the user restricted the search to part of the space (e.g. "D4-symmetric
    /// boards"): answers then hold there only, and reports say so.
    pub scope: Option<String>,
}

impl<'a, S> Formulated<'a, S> {
    /// A formulation with the default engine, no cuts, no objective and no restriction.
    pub fn new(
        model: Model,
        decisions: Vec<Var>,
        meanings: Vec<Meaning>,
        decode: impl Fn(&[bool]) -> S + 'a,
        method: String,
    ) -> Self {
        Formulated {
            model,
            decisions,
            meanings,
            also_means: Vec::new(),
            block_by_true_decisions: false,
            decode: Box::new(decode),
            cuts: None,
            watcher: None,
            classes: None,
            class_size: None,
            goal: None,
            engines: Vec::new(),
            method,
            check: None,
            scope: None,
        }
    }
}

/// Reads givens `ROW,COL=WHAT` (1-based cells of an m × n board), several in one word when
/// separated by spaces or semicolons, as `--fix` and the page give them: `what` reads WHAT at
/// a cell (1-based) or says why it cannot, `usage` ends every error ("give ROW,COL=..."),
/// `word` names a given for the error of a cell given twice. Returns 0-based cells in the
/// order given, each once.
pub fn read_givens<T: Copy + PartialEq>(
    words: &[String],
    (m, n): (usize, usize),
    usage: &str,
    what: impl Fn(&str, usize, usize) -> std::result::Result<T, &'static str>,
    word: impl Fn(T) -> String,
) -> Result<Vec<(usize, usize, T)>> {
    let mut out: Vec<(usize, usize, T)> = Vec::new();
    for given in words
        .iter()
        .flat_map(|w| w.split(|c: char| c == ';' || c.is_whitespace()))
        .filter(|g| !g.is_empty())
    {
        let bad =
            |why: &str| crate::error::Error::input(format!("--fix '{given}': {why}; {usage}"));
        let (cell, value) = given.split_once('=').ok_or_else(|| bad("no '='"))?;
        let (r, c) = cell
            .split_once(',')
            .ok_or_else(|| bad("no ',' in the cell"))?;
        let number = |t: &str| t.trim().parse::<usize>().ok();
        let (Some(r), Some(c)) = (number(r), number(c)) else {
            return Err(bad("the cell is not two whole numbers"));
        };
        if !(1..=m).contains(&r) || !(1..=n).contains(&c) {
            return Err(bad("the cell is off the board"));
        }
        let v = what(value.trim(), r, c).map_err(bad)?;
        let (i, j) = (r - 1, c - 1);
        match out.iter().find(|g| (g.0, g.1) == (i, j)) {
            Some(g) if g.2 == v => {}
            Some(g) => return Err(bad(&format!("cell {r},{c} is already given {}", word(g.2)))),
            None => out.push((i, j, v)),
        }
    }
    Ok(out)
}

/// An option of several values, given as one string or a list: `"fix": "1,1=2 3,3=4"` as well
/// as `"fix": ["1,1=2", "3,3=4"]` (Python, the page's JSON).
pub fn one_or_many<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Vec<String>, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Given {
        One(String),
        Many(Vec<String>),
    }
    Ok(match <Given as serde::Deserialize>::deserialize(d)? {
        Given::One(s) => vec![s],
        Given::Many(v) => v,
    })
}

/// A number option given as a JSON number or as the command line writes it (`"n": 10` as well
/// as `"n": "10"`: the page sends its fields' text), `null` for none.
pub fn number_or_text<'de, D, T>(d: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: std::str::FromStr + serde::Deserialize<'de>,
    T::Err: std::fmt::Display,
{
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Given<T> {
        Number(T),
        Text(String),
    }
    match <Option<Given<T>> as serde::Deserialize>::deserialize(d)? {
        None => Ok(None),
        Some(Given::Number(n)) => Ok(Some(n)),
        Some(Given::Text(t)) if t.trim().is_empty() => Ok(None),
        Some(Given::Text(t)) => t.trim().parse().map(Some).map_err(|e| {
            serde::de::Error::custom(format!("'{}' is not a number: {e}", crate::error::clip(&t)))
        }),
    }
}

/// What a puzzle gives a person to solve it from, drawn on its pictures ([`Puzzle::givens`]).
#[derive(Clone, Debug, Default)]
pub struct Givens {
    /// A number (or other mark) beside each row, if the puzzle has them (`None`: unknown).
    pub rows: Vec<Option<String>>,
    /// The same below each column.
    pub cols: Vec<Option<String>>,
    /// Clues given in cells, as the marks the solution's cells show.
    pub clues: Vec<(Place, String)>,
}

/// What a puzzle's dedicated exact method answered (a dynamic program, a trie search, a
/// counter); the runner verifies its solutions like any other.
pub struct Exact<S> {
    pub status: crate::solve::search::Status,
    pub solutions: Vec<S>,
    /// Solutions counted; complete unless the status is unknown.
    pub count: u128,
    /// The optimum or best value found, in the puzzle's terms.
    pub objective: Option<i64>,
    pub method: String,
    /// Figures particular to the method.
    pub details: Option<serde_json::Value>,
    /// The part of the space the answer covers, when the method was asked for one part only
    /// (its status, count and uniqueness then hold inside that part; see `Outcome::in_scope`).
    pub scope: Option<String>,
    /// For `forced`: what the solutions the method met say, folded (complete when the
    /// status is).
    pub agreement: Option<Agreement>,
}

/// What every solution says and what some solution says, as the (place, says) pairs of
/// [`Meaning`]s, folded over the solutions an exact method meets: a decision is forced true
/// when every solution says it, false when none does. The runner reads the forced decisions
/// of the model's own meanings from it, so the answer is the one a search of the model
/// gives, without the search.
#[derive(Default)]
pub struct Agreement {
    always: Option<std::collections::BTreeSet<(Place, String)>>,
    ever: std::collections::BTreeSet<(Place, String)>,
}

impl Agreement {
    /// Folds in one solution, given as what it says at each place.
    pub fn add(&mut self, says: impl IntoIterator<Item = (Place, String)>) {
        let this: std::collections::BTreeSet<(Place, String)> = says.into_iter().collect();
        self.always = Some(match self.always.take() {
            None => this.clone(),
            Some(a) => a.intersection(&this).cloned().collect(),
        });
        self.ever.extend(this);
    }

    /// Whether the decision meaning `m` takes one value in every solution folded in, and
    /// which; `None` if it differs between them (or none was folded in).
    pub fn forced(&self, m: &Meaning) -> Option<bool> {
        let always = self.always.as_ref()?;
        let key = (m.place, m.says.clone());
        if always.contains(&key) {
            Some(true)
        } else if self.ever.contains(&key) {
            None
        } else {
            Some(false)
        }
    }
}

/// A search restricted to part of the space, tried before the full model. It can contribute
/// a solution (and, where it reaches a proved bound, an optimum; two solutions: not unique),
/// never a refutation or count.
pub struct Phase<'a, S> {
    /// The part of the space, e.g. "D4-symmetric boards".
    pub scope: String,
    /// Its share of the time left when it starts (0 < share <= 1).
    pub share: f64,
    /// Its time when the run has no limit.
    pub unlimited: Option<std::time::Duration>,
    pub build: Box<dyn FnOnce() -> Formulated<'a, S> + 'a>,
}

/// What options must also be to serve the command line: clap flags (with the `cli` feature).
#[cfg(feature = "cli")]
pub trait OptionFlags: clap::Args + clap::FromArgMatches {}
#[cfg(feature = "cli")]
impl<T: clap::Args + clap::FromArgMatches> OptionFlags for T {}
/// What options must also be to serve the command line: nothing without the `cli` feature.
#[cfg(not(feature = "cli"))]
pub trait OptionFlags {}
#[cfg(not(feature = "cli"))]
impl<T> OptionFlags for T {}

/// A puzzle: its input, options, answers, model, verifier and pictures.
pub trait Puzzle: 'static {
    /// The name used on the command line ("tank").
    const NAME: &'static str;
    /// The name people use ("Tank Attack").
    const TITLE: &'static str;
    /// One line on the rules.
    const ABOUT: &'static str;
    /// What the input words are, for help texts.
    const INPUT: &'static str;
    /// An example input (the words given on the command line), used by the tour and tests.
    const EXAMPLE: &'static [&'static str];
    /// What one solution is called ("board", "packing").
    const NOUN: &'static str = "solution";
    /// What the `solve` verb asks: one solution, or the optimum for optimisation puzzles.
    const SOLVE: Query = Query::First;
    /// What the tour asks of the example (a puzzle with a unique answer shows it is unique).
    const TOUR: Query = Self::SOLVE;
    /// Whether some instances or options give the model an objective.
    const HAS_GOAL: bool = false;
    /// Other names of generic verbs, as (alias, verb): e.g. ("max", "optimum").
    const ALIASES: &'static [(&'static str, &'static str)] = &[];
    /// The values of its `--formulation` option, the default's first among equals as the
    /// flag lists them (empty: one formulation). tests/limits.rs holds them to the flag's.
    const FORMULATIONS: &'static [&'static str] = &[];
    /// The unit of the objective in headlines ("holes"); empty for a bare number.
    const GOAL_NAME: &'static str = "";
    /// How to give an instance an objective where it may have none (for `optimum` and
    /// `reach`), said when it has none; empty if every instance with a goal has one.
    const GIVE_A_GOAL: &'static str = "";
    /// Options that only some questions read, as (the option's field name, the verbs of the
    /// queries that read it, as [`Query::verb`] names them). An option not listed is read by
    /// every question. The command line shows such an option only under those verbs, and
    /// every front end refuses it under another (it would be silently ignored there).
    const VERB_OPTIONS: &'static [(&'static str, &'static [&'static str])] = &[];

    /// The input, parsed and validated.
    type Instance: Send + Sync;
    /// The formulation and its switches; [`Default`] is what the command line defaults to.
    type Options: Default + Clone + Send + Sync + serde::de::DeserializeOwned + OptionFlags;
    type Solution: serde::Serialize + Clone + Send;

    /// Reads an instance from the words a user gave (a size, a file name, a URL, ...): every
    /// input format the puzzle reads is recognised here. Bad input is an [`Error::Input`]
    /// naming what is wrong and where. Files the words name are read through `files` only
    /// (a server request's own texts, or the disk).
    ///
    /// [`Error::Input`]: crate::Error::Input
    fn read(words: &[String], options: &Self::Options, files: Files) -> Result<Self::Instance>;

    /// A short name of the instance for headlines ("Tank Attack 6×6").
    fn describe(instance: &Self::Instance) -> String;

    /// The instance as a 0-1 program for `query`. [`Purpose::of`] the query says whether
    /// symmetry-breaking rows may be added. Bad combinations of options are input errors.
    fn formulate<'a>(
        instance: &'a Self::Instance,
        options: &Self::Options,
        query: Query,
    ) -> Result<Formulated<'a, Self::Solution>>;

    /// Checks a solution against the rules, sharing no code with the model. `Ok` carries a
    /// one-line summary ("117 holes"), `Err` the first broken rule and the places it concerns.
    fn verify(
        instance: &Self::Instance,
        solution: &Self::Solution,
    ) -> std::result::Result<String, Broken>;

    /// A solution as text for a terminal.
    fn text(instance: &Self::Instance, solution: &Self::Solution) -> String;

    /// A solution as an SVG picture, the places in `marked` ringed in red (where the verifier
    /// found a rule broken, [`Broken::at`]; usually none).
    fn svg(
        instance: &Self::Instance,
        options: &Self::Options,
        solution: &Self::Solution,
        marked: &[Place],
    ) -> String;

    /// The solution as a file the puzzle's own reader takes back (e.g. a solved board), if
    /// the puzzle has such a format; `solve --out FILE` writes it.
    fn file(_instance: &Self::Instance, _solution: &Self::Solution) -> Option<String> {
        None
    }

    /// A dedicated exact method for this query, if it applies (None: use the model).
    fn exact(
        _instance: &Self::Instance,
        _options: &Self::Options,
        _query: Query,
        _limits: &Limits,
    ) -> Option<Result<Exact<Self::Solution>>> {
        None
    }

    /// Restricted searches tried before the full model for `query` (First, Optimum, AtLeast,
    /// Unique).
    fn phases<'a>(
        _instance: &'a Self::Instance,
        _options: &Self::Options,
        _query: Query,
    ) -> Vec<Phase<'a, Self::Solution>> {
        Vec::new()
    }

    /// Whether `unique` also rates a unique instance's difficulty by its explanation (an
    /// option of the puzzle's, e.g. Battleship's `--difficulty`).
    fn rated(_options: &Self::Options) -> bool {
        false
    }

    /// What the puzzle gives a person besides the board: numbers beside rows and columns
    /// and clues in cells, for the pictures of an explanation's steps (which would otherwise
    /// cite counts and clues the picture does not show).
    fn givens(_instance: &Self::Instance) -> Givens {
        Givens::default()
    }

    /// The instance drawn for a setter to edit, before it is solved: each place a person can
    /// change marked on the picture, the numbers beside the board as fields
    /// ([`sketch::Sketch`]); `None` if the puzzle has no such board.
    fn sketch(_instance: &Self::Instance, _options: &Self::Options) -> Option<sketch::Sketch> {
        None
    }

    /// The instance with one change made, written back as input for [`Puzzle::read`] to read
    /// again: `at` names a place of [`Puzzle::sketch`]'s picture or one of its fields,
    /// `value` what it becomes. A change the puzzle cannot make is an input error naming it.
    fn edit(
        _instance: &Self::Instance,
        _options: &Self::Options,
        at: &str,
        _value: &str,
    ) -> Result<sketch::Input> {
        Err(sketch::unknown(Self::NAME, at))
    }

    /// A line under the headline, e.g. published values to compare with.
    /// `query` is what was asked, `status` how it ended, `restricted` whether the search was
    /// limited to part of the space.
    fn remarks(
        _instance: &Self::Instance,
        _query: Query,
        _status: crate::solve::search::Status,
        _restricted: bool,
    ) -> Option<String> {
        None
    }
}

/// Reads `--part K/N` (a puzzle's own split of its search: pieces K, K + N, K + 2N, ...) as
/// (K − 1, N).
pub fn parse_part(part: &Option<String>) -> Result<Option<(usize, usize)>> {
    let Some(text) = part else { return Ok(None) };
    let bad = || {
        crate::error::Error::input(format!(
            "--part '{text}' is not a part: give K/N with 1 <= K <= N, e.g. 3/40"
        ))
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok(Some((k - 1, n)))
}
