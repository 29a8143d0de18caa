//! The board as a setter edits it: the instance drawn before it is solved, with every place a
//! person can change marked on the picture ([`Spot`]s), the numbers beside the board (sizes,
//! counts of pieces or ships) as [`Field`]s, and an edit that writes the changed instance back
//! as input ([`Input`]), which the puzzle's own reader then reads again: an edit is checked as
//! any input is, and a front end keeps nothing but the input.

pub use crate::render::svg::{Spot, SpotShape};

/// The most places a board is drawn with for editing: a larger one (a 200×200 Battleship
/// board, a Tantrix board of thousands of places) is edited as text, not drawn (its picture
/// would be megabytes, built for every click).
pub const MOST_PLACES: usize = 10_000;

/// A puzzle's instance drawn for editing ([`crate::puzzles::Puzzle::sketch`]).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Sketch {
    /// The picture, its editable places marked (`class="edit"`, `data-at`, ...).
    pub svg: String,
    /// Numbers set beside the board.
    pub fields: Vec<Field>,
    /// How to edit it, in one sentence.
    pub help: String,
    /// The options the board edits (by flag name): a front end shows them on the board, not
    /// also as fields of their own.
    pub owns: Vec<String>,
}

/// A number of the instance set beside its board (a side, a count of pieces).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Field {
    /// What the edit is called ([`crate::puzzles::Puzzle::edit`]'s `at`).
    pub at: String,
    pub label: String,
    pub value: i64,
    pub min: i64,
    pub max: i64,
}

/// An instance written as input: the words, the text of a file (empty: none), and the options
/// the edit changed, by flag name (`None`: back to the default).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Input {
    pub words: Vec<String>,
    pub text: String,
    pub options: Vec<(String, Option<String>)>,
}

impl Input {
    /// Sets the options this edit changed in `options`, a JSON object of options by flag name
    /// (made one if it is not): a value set, `None` removed (back to the default). Returns the
    /// changes themselves as such an object, `null` for a removed one.
    pub fn set_in(
        &self,
        options: &mut serde_json::Value,
    ) -> serde_json::Map<String, serde_json::Value> {
        if !options.is_object() {
            *options = serde_json::json!({});
        }
        let mut set = serde_json::Map::new();
        if let Some(o) = options.as_object_mut() {
            for (flag, value) in &self.options {
                match value {
                    Some(v) => o.insert(flag.clone(), serde_json::json!(v)),
                    None => o.remove(flag),
                };
                set.insert(flag.clone(), serde_json::json!(value));
            }
        }
        set
    }
}

/// A whole number of an edit's value, in `lo..=hi`, or an error naming the edit.
pub fn number(at: &str, value: &str, lo: i64, hi: i64) -> crate::error::Result<i64> {
    match value.trim().parse::<i64>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(crate::error::Error::input(format!(
            "{at}: '{}' is not a whole number from {lo} to {hi}",
            crate::error::clip(value)
        ))),
    }
}

/// The cell of an edit's place `cell R,C` (1-based, as `--fix` gives it), 0-based, checked
/// against an m × n board.
pub fn cell(at: &str, (m, n): (usize, usize)) -> crate::error::Result<(usize, usize)> {
    let bad = || {
        crate::error::Error::input(format!(
            "'{}' is not a cell of this {m}×{n} board (give 'cell ROW,COL')",
            crate::error::clip(at)
        ))
    };
    let (r, c) = at
        .strip_prefix("cell ")
        .and_then(|rc| rc.split_once(','))
        .ok_or_else(bad)?;
    let (r, c) = (
        r.trim().parse::<usize>().map_err(|_| bad())?,
        c.trim().parse::<usize>().map_err(|_| bad())?,
    );
    if !(1..=m).contains(&r) || !(1..=n).contains(&c) {
        return Err(bad());
    }
    Ok((r - 1, c - 1))
}

/// An edit a puzzle does not know, named.
pub fn unknown(puzzle: &str, at: &str) -> crate::error::Error {
    crate::error::Error::input(format!(
        "{puzzle}: nothing called '{}' to edit",
        crate::error::clip(at)
    ))
}
