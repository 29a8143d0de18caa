//! Verbs only one puzzle has (`gunport sweep`, `chess peaceable`, `tantrix check`, and
//! Battleship's setter: `redundant`, `minimize`, `generate`, `workbench`, `convert`): a room
//! above the runner, one file per puzzle that has such verbs, reached through one typed table
//! ([`OWN`], beside the registry's `PUZZLES`) and not by matching puzzle names.
//!
//! Each verb declares its parameters ([`Param`]: name, kind, default, help) and what a front
//! end adds for it ([`Outputs`]: JSON, a picture, a time limit, a file); its arguments arrive
//! as one JSON object ([`Args::read`], the one place they are checked), whether from the
//! command line (which builds its flags from the table), the page or Python. Each answers a
//! [`Report`] like the generic verbs. No clap here: the library core reaches every verb.

pub mod battleship;
mod chess;
mod gunport;
mod tantrix;

use crate::error::{Error, Result};
use crate::input::Files;
use crate::runner::registry::OptionsIn;
use crate::runner::report::Report;
use crate::solve::limits::Limits;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// One verb only one puzzle has.
pub struct OwnVerb {
    pub name: &'static str,
    /// Other names it answers to (`minimise`).
    pub aliases: &'static [&'static str],
    /// One sentence: what it answers.
    pub about: &'static str,
    pub params: &'static [Param],
    /// Whether it also takes the puzzle's options (those of its generic verbs).
    pub options: bool,
    pub outputs: Outputs,
    pub run: fn(Call<'_>) -> Result<Report>,
}

/// What a front end offers around a verb's own parameters.
#[derive(Clone, Copy)]
pub struct Outputs {
    /// Its answer as one JSON object (`--json`).
    pub json: bool,
    /// A picture of the answer (`--svg FILE`).
    pub picture: bool,
    /// A time limit (`--time-limit SECS`).
    pub time_limit: bool,
    /// A file in the puzzle's own format (`-o FILE`).
    pub file: bool,
    /// Certificates of its refutations (`--proof DIR`), as the generic verbs write them.
    pub proof: bool,
}

/// A parameter of an own verb.
pub struct Param {
    /// Its name as the command line spells it (`max-m`); JSON and Python may write `_`.
    pub name: &'static str,
    pub kind: Kind,
    pub help: &'static str,
    /// Its value when not given, written as the command line would.
    pub default: Option<&'static str>,
    pub required: bool,
    /// Given by position (the command line's words, a request's `words`), not by name.
    pub positional: bool,
    /// A one-letter name on the command line.
    pub short: Option<char>,
}

/// What a parameter holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A whole number (negative ones too: they are refused by the verb with a reason).
    Whole,
    /// Words (a path, a URL, a fleet "4 3 2 1").
    Text,
    /// On or off.
    Switch,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Several words (positional only).
    Texts,
}

impl Param {
    /// A parameter named `name`, optional with no default.
    pub const fn new(name: &'static str, kind: Kind, help: &'static str) -> Param {
        Param {
            name,
            kind,
            help,
            default: None,
            required: false,
            positional: false,
            short: None,
        }
    }
    pub const fn default(mut self, value: &'static str) -> Param {
        self.default = Some(value);
        self
    }
    pub const fn required(mut self) -> Param {
        self.required = true;
        self
    }
    pub const fn positional(mut self) -> Param {
        self.positional = true;
        self.required = true;
        self
    }
    pub const fn short(mut self, c: char) -> Param {
        self.short = Some(c);
        self
    }
}

/// One call of an own verb: its checked arguments and how to run it.
pub struct Call<'a> {
    pub args: Args,
    /// The puzzle's options, for a verb that takes them ([`OwnVerb::options`]).
    pub options: OptionsIn<'a>,
    pub files: Files<'a>,
    /// The run's deadline, stop flag, memory and progress, set by the front end.
    pub limits: &'a Limits,
    /// Receives lines a long verb reports as it goes (a sweep's rows, a workbench's edits);
    /// a front end that answers with one JSON object drops them (they are in the report).
    pub line: &'a mut dyn FnMut(&str),
}

/// An own verb's arguments, checked against its parameters: every parameter has its value
/// (given, or its default) or is absent.
#[derive(Clone)]
pub struct Args(BTreeMap<&'static str, Value>);

impl Args {
    /// Reads `given` (names with `-` or `_`) for `verb`: an unknown name, a value of the
    /// wrong kind, a missing required parameter is an error naming it. `rest` receives the
    /// names the verb does not know when it takes the puzzle's options (they are the
    /// options', checked there); otherwise they are refused.
    pub fn read(
        puzzle: &str,
        verb: &OwnVerb,
        given: &Map<String, Value>,
        mut rest: Option<&mut Map<String, Value>>,
    ) -> Result<Args> {
        let mut values = BTreeMap::new();
        for (key, value) in given {
            let name = key.replace('_', "-");
            let Some(p) = verb.params.iter().find(|p| p.name == name) else {
                match rest.as_deref_mut() {
                    Some(rest) => {
                        rest.insert(name, value.clone());
                        continue;
                    }
                    None => {
                        return Err(Error::input(format!(
                            "{puzzle} {}: no option '{}' (it takes: {})",
                            verb.name,
                            crate::error::clip(key),
                            names(verb)
                        )))
                    }
                }
            };
            if value.is_null() || (p.kind == Kind::Switch && *value == Value::Bool(false)) {
                continue;
            }
            values.insert(p.name, checked(puzzle, verb, p, value)?);
        }
        for p in verb.params {
            if values.contains_key(p.name) {
                continue;
            }
            match (p.default, p.required) {
                (Some(d), _) => {
                    values.insert(p.name, checked(puzzle, verb, p, &Value::from(d))?);
                }
                (None, true) => {
                    return Err(Error::input(format!(
                        "{puzzle} {} needs {}",
                        verb.name,
                        if p.positional {
                            format!("its {} (a word)", p.name)
                        } else {
                            format!("--{}", p.name)
                        }
                    )))
                }
                (None, false) => {}
            }
        }
        Ok(Args(values))
    }

    /// A whole-number parameter's value.
    pub fn whole(&self, name: &str) -> Option<i64> {
        self.0.get(name).and_then(Value::as_i64)
    }
    /// A text or choice parameter's value.
    pub fn text(&self, name: &str) -> Option<String> {
        self.0.get(name).and_then(Value::as_str).map(String::from)
    }
    /// Whether a switch is on.
    pub fn switch(&self, name: &str) -> bool {
        self.0.get(name).and_then(Value::as_bool).unwrap_or(false)
    }
    /// A list parameter's words.
    pub fn texts(&self, name: &str) -> Vec<String> {
        match self.0.get(name) {
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(|w| w.as_str().map(String::from))
                .collect(),
            _ => Vec::new(),
        }
    }
    /// A required parameter's text (the table makes it present).
    fn needed(&self, name: &str) -> Result<String> {
        self.text(name)
            .ok_or_else(|| Error::Internal(format!("parameter '{name}' was not read")))
    }
}

/// The names a verb takes, for an error message.
fn names(verb: &OwnVerb) -> String {
    let listed: Vec<&str> = verb.params.iter().map(|p| p.name).collect();
    let mut s = listed.join(", ");
    if verb.options {
        s += ", and the puzzle's options";
    }
    s
}

/// One given value, checked against its parameter's kind and made canonical: a whole number
/// as a number, a text as a string (a number given for a text is taken as its digits).
fn checked(puzzle: &str, verb: &OwnVerb, p: &Param, v: &Value) -> Result<Value> {
    let wrong = |what: &str| {
        Error::input(format!(
            "{puzzle} {} --{}: {what}, not {}",
            verb.name,
            p.name,
            crate::error::clip(&v.to_string())
        ))
    };
    match p.kind {
        Kind::Whole => match v {
            Value::Number(n) if n.is_i64() => Ok(v.clone()),
            Value::String(s) => s
                .trim()
                .parse::<i64>()
                .map(Value::from)
                .map_err(|_| wrong("a whole number")),
            _ => Err(wrong("a whole number")),
        },
        Kind::Text => match v {
            Value::String(_) => Ok(v.clone()),
            Value::Number(n) => Ok(Value::from(n.to_string())),
            _ => Err(wrong("words")),
        },
        Kind::Switch => match v {
            Value::Bool(_) => Ok(v.clone()),
            _ => Err(wrong("true or false")),
        },
        Kind::Choice(words) => match v.as_str() {
            Some(w) if words.contains(&w) => Ok(v.clone()),
            _ => Err(wrong(&format!("one of {}", words.join(", ")))),
        },
        Kind::Texts => match v {
            Value::Array(a) if a.iter().all(Value::is_string) => Ok(v.clone()),
            Value::String(_) => Ok(Value::Array(vec![v.clone()])),
            _ => Err(wrong("a list of words")),
        },
    }
}

/// A board a front end keeps between a user's edits (the page's workbench): each edit is
/// answered by engines that remember what the edits before taught them. A puzzle offers one
/// in [`SESSIONS`].
pub trait Session: Send {
    /// Answers an edit: `text`, the board as the puzzle's readers know it.
    fn check(&mut self, text: &str, limits: &Limits) -> Result<Report>;
    /// About the bytes its engines hold between checks (what building them charged), for a
    /// front end that charges kept sessions to its memory limit.
    fn bytes(&self) -> u64;
    /// Drops its engines (the next check builds anew).
    fn forget(&mut self);
}

/// How a kept session of a puzzle's boards starts.
pub type StartSession = fn() -> Box<dyn Session>;

/// The own verbs and kept sessions of every puzzle, from its registration row
/// ([`crate::puzzles!`]): `VERBS` and `session` of the module named like the puzzle's, keyed by
/// the puzzle's own name (its [`Puzzle::NAME`](crate::puzzles::Puzzle::NAME)), so that no key
/// is written by hand.
macro_rules! own_tables {
    ($($m:ident: $t:ident, own verbs: $own:ident, kept session: $kept:ident, data: [$($d:literal),*];)*) => {
        /// Every puzzle's own verbs (none for a puzzle without any): the one table.
        pub static OWN: &[(&str, &[OwnVerb])] = &[$((
            <crate::puzzles::$m::$t as crate::puzzles::Puzzle>::NAME,
            own_verbs!($own $m),
        )),*];
        /// Every puzzle, with how a session of its boards starts if a front end may keep one.
        pub static SESSIONS: &[(&str, Option<StartSession>)] = &[$((
            <crate::puzzles::$m::$t as crate::puzzles::Puzzle>::NAME,
            kept_session!($kept $m),
        )),*];
    };
}
macro_rules! own_verbs {
    (yes $m:ident) => {
        self::$m::VERBS
    };
    (no $m:ident) => {
        &[]
    };
}
macro_rules! kept_session {
    (yes $m:ident) => {
        Some(self::$m::session as StartSession)
    };
    (no $m:ident) => {
        None
    };
}
crate::puzzles!(own_tables);

/// The puzzles whose boards a front end can keep.
pub fn kept() -> Vec<&'static str> {
    SESSIONS
        .iter()
        .filter(|(_, start)| start.is_some())
        .map(|(p, _)| *p)
        .collect()
}

/// A new kept session of `puzzle`'s boards, if it offers them.
pub fn session(puzzle: &str) -> Option<Box<dyn Session>> {
    SESSIONS
        .iter()
        .find(|(p, _)| *p == puzzle)
        .and_then(|(_, start)| start.map(|start| start()))
}

/// The own verbs of a puzzle (none for a puzzle without any).
pub fn of(puzzle: &str) -> &'static [OwnVerb] {
    OWN.iter()
        .find(|(p, _)| *p == puzzle)
        .map_or(&[], |(_, verbs)| verbs)
}

/// A puzzle's own verb by its name or an alias.
pub fn find(puzzle: &str, verb: &str) -> Option<&'static OwnVerb> {
    of(puzzle)
        .iter()
        .find(|v| v.name == verb || v.aliases.contains(&verb))
}

/// A call's arguments as every front end has them: `given` by name (a request's fields,
/// Python's keywords, the command line's flags), `words` by position, and `options`, the
/// puzzle's options for a verb that takes them (the names the verb does not know are added to
/// them). Checked by [`Args::read`]; the puzzle's options come back as one JSON object, for
/// [`options_in`].
pub fn prepare(
    puzzle: &str,
    verb: &OwnVerb,
    mut given: Map<String, Value>,
    words: &[String],
    mut options: Map<String, Value>,
) -> Result<(Args, Value)> {
    with_words(verb, &mut given, words)?;
    let args = Args::read(puzzle, verb, &given, verb.options.then_some(&mut options))?;
    Ok((args, Value::Object(options)))
}

/// The puzzle's options [`prepare`] gave back, as a call takes them (none given: defaults).
pub fn options_in(options: &Value) -> OptionsIn<'_> {
    match options {
        Value::Object(o) if !o.is_empty() => OptionsIn::Json(options),
        _ => OptionsIn::Default,
    }
}

/// The parameters given by position, filled from a request's words in order (the last may
/// take all that are left, if it is a list).
fn with_words(verb: &OwnVerb, given: &mut Map<String, Value>, words: &[String]) -> Result<()> {
    let mut left = words;
    for p in verb.params.iter().filter(|p| p.positional) {
        match (p.kind, left) {
            (_, []) => break,
            (Kind::Texts, all) => {
                given.insert(p.name.into(), Value::from(all.to_vec()));
                left = &[];
            }
            (_, [first, rest @ ..]) => {
                given.insert(p.name.into(), Value::from(first.clone()));
                left = rest;
            }
        }
    }
    if let [extra, ..] = left {
        return Err(Error::input(format!(
            "{}: an extra word '{}'",
            verb.name,
            crate::error::clip(extra)
        )));
    }
    Ok(())
}
