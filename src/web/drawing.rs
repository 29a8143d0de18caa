//! `POST /api/board`: an instance drawn for editing, and one edit made to it, within a
//! drawing slot and the server's limits.

use super::answer::Answer;
use super::runs::Slot;
use super::{known_fields, words_of, Shared};
use quandary::runner::{registry, Limits};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// `POST /api/board` bounded like a run: a drawing slot (503 at once when every one is
/// taken: 200 draws at once of a 992-place Tantrix board held both cores for 30 s, a small run
/// waiting 13.7 s), the server's longest time limit, and a search slot's share of the memory.
pub(super) fn drawn(v: &Value, shared: &Shared, cancel: Arc<AtomicBool>) -> Answer {
    let _slot = match Slot::drawing(shared) {
        Ok(slot) => slot,
        Err(busy) => return busy,
    };
    let limits = Limits::new(Some(shared.settings.max_time))
        .with_cancel(cancel)
        .with_memory(shared.memory_per_run)
        .with_resident_cap(shared.memory_limit);
    quandary::runner::bounded(&limits, "drawing the board", || Ok(draw(v)))
        .unwrap_or_else(|e| Answer::error(503, e.to_string()))
}

/// The fields of `POST /api/board`.
const BOARD_FIELDS: &[&str] = &["puzzle", "words", "text", "options", "edit"];

/// `POST /api/board`: `{"puzzle", "words" | "text", "options", "edit": {"at", "value"}}` →
/// the instance drawn for editing (`svg` with its places marked, `fields`, `help`, `title`)
/// and the input it was drawn from (`words`, `text`, and `set`: the options the edit changed,
/// by flag name, `null` for back to the default). With `edit`, the change is made first and
/// the new input read again by the puzzle's reader, so an edit the puzzle cannot take is a 400
/// naming it, and the page keeps what it had.
fn draw(v: &Value) -> Answer {
    if let Err(a) = known_fields(v, BOARD_FIELDS) {
        return a;
    }
    let Some(puzzle) = v["puzzle"].as_str().filter(|p| registry::find(p).is_some()) else {
        return Answer::error(400, "give \"puzzle\": the name of a puzzle");
    };
    let mut req = quandary::request::Request {
        puzzle: puzzle.to_string(),
        words: match words_of(v) {
            Ok(w) => w,
            Err(a) => return a,
        },
        text: match &v["text"] {
            Value::Null => None,
            Value::String(t) => Some(t.clone()),
            _ => return Answer::error(400, "\"text\" must be a string"),
        },
        options: match &v["options"] {
            o @ (Value::Null | Value::Object(_)) => o.clone(),
            _ => return Answer::error(400, "\"options\" must be an object"),
        },
        ..Default::default()
    };
    let mut edit = None;
    if !v["edit"].is_null() {
        let fields = v["edit"].as_object().into_iter().flat_map(|o| o.keys());
        if let Some(k) = fields
            .into_iter()
            .find(|k| !["at", "value"].contains(&k.as_str()))
        {
            return Answer::error(
                400,
                format!("unknown field \"{k}\" in \"edit\" (known: at, value)"),
            );
        }
        let (Some(at), Some(value)) = (v["edit"]["at"].as_str(), v["edit"]["value"].as_str())
        else {
            return Answer::error(400, "\"edit\" must be {\"at\": place, \"value\": what}");
        };
        edit = Some((at, value));
    }
    match quandary::request::board(&mut req, edit) {
        Ok(Some(d)) => Answer::json(
            200,
            json!({"puzzle": req.puzzle, "title": d.title, "svg": d.sketch.svg,
                   "fields": d.sketch.fields, "help": d.sketch.help, "owns": d.sketch.owns,
                   "words": req.words, "text": req.text.unwrap_or_default(), "set": d.set}),
        ),
        Ok(None) => Answer::error(
            400,
            format!(
                "no board to draw for editing: this {} input has none, or more than {} places (edit it as text)",
                registry::find(&req.puzzle).map_or("", |e| e.title()),
                quandary::puzzles::sketch::MOST_PLACES
            ),
        ),
        Err(e) => Answer::error(400, e.to_string()),
    }
}
