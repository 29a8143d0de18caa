//! Hostile input against a real `quandary serve` on loopback: requests that used to end the
//! server or make it hold memory past its limit (issue 48). Every loop here is bounded in
//! count and time, and talks only to 127.0.0.1.

mod common;

use common::server::{alive, Server};
use serde_json::json;

/// A generate request for a board of 10^9 × 10^9 (or 2^32 × 2^32, whose cell count wraps)
/// is answered 400 naming the allowed sides, and the server goes on: the generator allocated
/// the board before checking its sides, and the failed allocation ended the process.
#[test]
fn a_huge_generate_request_is_refused_and_the_server_lives() {
    let mut server = Server::start(&[]);
    for side in [1_000_000_000u64, 1 << 32] {
        let (code, r) = server.run(json!({"puzzle": "battleship", "verb": "generate",
                                          "rows": side, "cols": side, "fleet": "1"}));
        assert_eq!(code, 400, "{r}");
        let why = r["error"].as_str().unwrap_or_default();
        assert!(why.contains("each side must be 1 to"), "{r}");
        assert!(
            alive(&mut server),
            "the server ended on a {side}×{side} board"
        );
    }
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "count", "words": ["5"]}));
    assert_eq!((code, r["count"].as_u64()), (200, Some(2)), "{r}");
}
