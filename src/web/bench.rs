//! `POST /api/bench`: a workbench board checked by the engines the server keeps for it
//! (boards.rs keeps them; this file reads and checks the request).

use super::answer::Answer;
use super::boards;
use super::runs::start;
use super::{known_fields, words_of, Shared};
use serde_json::Value;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The fields of `POST /api/bench`.
const BENCH_FIELDS: &[&str] = &["puzzle", "board", "text", "words", "time_limit", "id"];

/// `POST /api/bench`: `{"puzzle": name, "board": id, "text": puzzle, "time_limit": secs}` →
/// the workbench's answer for that board ([`Boards::check`]), for a puzzle that keeps boards
/// ([`quandary::verbs::SESSIONS`]). `board` is the page's name for its board (1 to 64
/// letters, digits, `-` or `_`); an `id`, as for `/api/run`, lists the check for
/// `/api/progress` and `/api/stop`.
pub(super) fn bench(v: &Value, shared: &Shared, cancel: Arc<AtomicBool>) -> Answer {
    if let Err(a) = known_fields(v, BENCH_FIELDS) {
        return a;
    }
    let puzzle = match v["puzzle"].as_str() {
        Some(p) if quandary::verbs::kept().contains(&p) => p,
        other => return Answer::error(400, boards::no_session(other)),
    };
    let id = match v["board"].as_str() {
        Some(id)
            if (1..=64).contains(&id.len())
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
        {
            id
        }
        _ => {
            return Answer::error(
                400,
                "give \"board\": a name of 1 to 64 letters, digits, '-' or '_'",
            )
        }
    };
    let text = match bench_text(v) {
        Ok(t) => t,
        Err(a) => return a,
    };
    let started = match start(v, shared, cancel) {
        Ok(s) => s,
        Err(a) => return a,
    };
    match shared
        .boards
        .check(puzzle, id, &text, started.limits.clone())
    {
        Ok(out) => Answer::json(200, out),
        Err((code, why)) => Answer::error(code, why),
    }
}

/// The puzzle a workbench request checks: its `text`, or else its `words` as the command line
/// takes them: one naming a shipped puzzle file (`data/battleship/...`, compiled in) is that
/// file's text, others are the puzzle itself (a puzz.link URL, a Boats game ID).
fn bench_text(v: &Value) -> Result<String, Answer> {
    let give = || Answer::error(400, "give \"text\" (the puzzle as text) or \"words\"");
    if let Some(t) = v["text"].as_str().filter(|t| !t.trim().is_empty()) {
        return Ok(t.to_string());
    }
    let words = words_of(v)?;
    match words.as_slice() {
        [] => Err(give()),
        [one] if one.starts_with("data/") => quandary::input::shipped(one)
            .map(str::to_string)
            .ok_or_else(|| Answer::error(400, format!("no shipped puzzle file '{one}'"))),
        _ => Ok(words.join(" ")),
    }
}
