//! What the server answers: a status code and a body (JSON, or the page), the same shape for
//! every route.

use serde_json::{json, Value};

/// An answer: status code and JSON (or the page).
pub(super) struct Answer {
    pub(super) code: u16,
    pub(super) body: String,
    pub(super) content_type: &'static str,
}

impl Answer {
    pub(super) fn json(code: u16, v: Value) -> Answer {
        Answer {
            code,
            body: v.to_string(),
            content_type: "application/json",
        }
    }
    pub(super) fn error(code: u16, message: impl Into<String>) -> Answer {
        // Clipped: an error names what was wrong without sending a whole input back.
        let message = quandary::error::clip(&message.into());
        Answer::json(code, json!({"status": "error", "error": message}))
    }
}
