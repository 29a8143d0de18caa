//! Hostile input against a real `quandary serve` on loopback: requests that used to end the
//! server or make it hold memory past its limit (issue 48). Every loop here is bounded in
//! count and time, and talks only to 127.0.0.1.

mod common;

use common::server::{alive, Server};
use serde_json::json;
use std::sync::{Mutex, MutexGuard};

/// One test at a time: several measure time or memory, which the others' load would blur.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static ONE: Mutex<()> = Mutex::new(());
    ONE.lock().unwrap_or_else(|e| e.into_inner())
}

/// A generate request for a board of 10^9 × 10^9 (or 2^32 × 2^32, whose cell count wraps)
/// is answered 400 naming the allowed sides, and the server goes on: the generator allocated
/// the board before checking its sides, and the failed allocation ended the process.
#[test]
fn a_huge_generate_request_is_refused_and_the_server_lives() {
    let _one = one_at_a_time();
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

/// An empty Battleship board of `rows`×`cols` with `fleet` and no counts, as the workbench
/// gets it.
fn open_board(rows: usize, cols: usize, fleet: &str) -> String {
    let unknown = |n: usize| vec!["?"; n].join(" ");
    let row = vec!["."; cols].join(" ");
    format!(
        "size {rows} {cols}\nfleet {fleet}\nrows {}\ncols {}\ngrid\n{}\n",
        unknown(rows),
        unknown(cols),
        vec![row; rows].join("\n")
    )
}

/// POSTs a workbench edit; the status code and the JSON answer.
fn bench(server: &Server, board: &str, text: &str) -> (u16, serde_json::Value) {
    let v = json!({"puzzle": "battleship", "board": board, "text": text, "time_limit": 2});
    let (code, body) = server.request("POST", "/api/bench", v.to_string().as_bytes());
    let r = serde_json::from_str(&body).unwrap_or_else(|_| panic!("not JSON: {body}"));
    (code, r)
}

/// Kept workbench boards are charged to the memory limit: the boards kept hold at most one
/// run's share together (half the limit with one run), so a further board evicts the one used
/// least recently, a board larger than the share alone is answered and not kept, and the idle
/// server stays under its limit. They used to be kept uncharged (four boards, 2.3 GB idle
/// under a 2 GB limit).
#[test]
fn kept_workbench_boards_are_charged_to_the_memory_limit() {
    let _one = one_at_a_time();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_quandary"));
    command
        .args(["serve", "--port", "0", "--max-runs", "1"])
        .env("QUANDARY_MEMORY_MB", "900");
    let server = Server::from(command);
    // A 50×50 board is charged about 200 MB (twice what its check built): two fit the 450 MB
    // share, a third evicts the first.
    let board = open_board(50, 50, "4 3 2 1");
    for name in ["a", "b", "c"] {
        let (code, r) = bench(&server, name, &board);
        assert_eq!(code, 200, "{r}");
        assert_eq!(r["details"]["kept"], true, "{r}");
        let held = r["details"]["held_bytes"].as_u64().unwrap();
        assert!(held > 100 << 20 && held <= 450 << 20, "{r}");
    }
    // "c" and "b" are kept: an edit of "b" builds nothing; "a" was evicted: built anew.
    let (_, r) = bench(&server, "b", &board);
    assert_eq!(r["details"]["built"], 0, "{r}");
    let (_, r) = bench(&server, "a", &board);
    assert!(r["details"]["built"].as_u64().unwrap() >= 1, "{r}");
    let resident = common::server::resident_mib(&server);
    assert!(
        resident < 900,
        "{resident} MiB resident, over the 900 MiB limit"
    );
    drop(server);
    // Under a 300 MB limit the share is 150 MB: the same board is answered, not kept.
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_quandary"));
    command
        .args(["serve", "--port", "0", "--max-runs", "1"])
        .env("QUANDARY_MEMORY_MB", "300");
    let server = Server::from(command);
    for _ in 0..2 {
        let (code, r) = bench(&server, "a", &board);
        assert_eq!(code, 200, "{r}");
        assert_eq!(r["details"]["kept"], false, "{r}");
        assert_eq!(r["details"]["held_bytes"], 0, "{r}");
        assert!(r["details"]["built"].as_u64().unwrap() >= 1, "{r}");
    }
    assert!(common::server::resident_mib(&server) < 300);
}

/// 300 connections (to a server that may hold about 190) each send `head` and then trickle a
/// body after it, a byte every 200 ms, while a real request (`tank count 5`) is made: it is
/// answered, and within 5 s.
fn a_real_request_beside_trickling_bodies(server: &Server, head: &[u8]) {
    use std::io::Write;
    use std::time::{Duration, Instant};
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], server.port));
    let mut slow = Vec::new();
    for _ in 0..300 {
        if let Ok(mut s) = std::net::TcpStream::connect_timeout(&address, Duration::from_secs(2)) {
            let _ = s.write_all(head);
            slow.push(s);
        }
    }
    assert!(slow.len() >= 200, "only {} connections opened", slow.len());
    let started = Instant::now();
    let (code, r) = std::thread::scope(|scope| {
        let real =
            scope.spawn(|| server.run(json!({"puzzle": "tank", "verb": "count", "words": ["5"]})));
        // Trickle while the real request waits (at most 10 s).
        while !real.is_finished() && started.elapsed() < Duration::from_secs(10) {
            for s in &mut slow {
                let _ = s.write_all(b" ");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        real.join().unwrap()
    });
    assert_eq!((code, r["count"].as_u64()), (200, Some(2)), "{r}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "answered after {:?}",
        started.elapsed()
    );
}

/// Bodies sent to the page path without the token: the page path used to read such a body
/// before any check, for up to the 30 s body timeout, so the trickling connections held every
/// slot (a real request waited 28.9 s).
#[test]
fn a_slow_body_sent_to_the_page_does_not_hold_the_server() {
    let _one = one_at_a_time();
    let server = Server::with_open_files(256);
    let head = b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\nx";
    a_real_request_beside_trickling_bodies(&server, head);
}

/// The same with the token (any local user can read it), to `/api/run`. A body has a time in
/// proportion to its stated length (1 s and 256 KiB a second), not a flat 30 s (a real request
/// waited 27.9 s with 1,100 such connections).
#[test]
fn a_slow_body_sent_with_the_token_does_not_hold_the_server() {
    let _one = one_at_a_time();
    let server = Server::with_open_files(256);
    let head = format!(
        "POST /api/run HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-Quandary-Token: {}\r\nContent-Length: 100000\r\n\r\n{{",
        server.token
    );
    a_real_request_beside_trickling_bodies(&server, head.as_bytes());
}

/// Drawing a board takes a slot of its own pool (as many as search slots) and is bounded like
/// a run: 60 draws at once of a 992-place Tantrix board are answered at once with 503 beyond
/// the pool, and a small run meanwhile is answered within 5 s (200 such draws held both cores
/// for 30 s, a small run waiting 13.7 s, and 1.1 GB outside the memory limit).
#[test]
fn board_draws_take_slots_and_a_run_is_answered_beside_them() {
    let _one = one_at_a_time();
    use std::time::{Duration, Instant};
    let server = Server::start(&["--max-runs", "2"]);
    // 992 places of the hexagon of radius 18 (1,027 places), one "q,r" a line.
    let mut places = Vec::new();
    for q in -18i32..=18 {
        for r in -18i32..=18 {
            if (q + r).abs() <= 18 && places.len() < 992 {
                places.push(format!("{q},{r}"));
            }
        }
    }
    let text = places.join("\n") + "\n";
    let request = json!({"puzzle": "tantrix", "text": text}).to_string();
    let (code, one) = server.request("POST", "/api/board", request.as_bytes());
    assert_eq!(code, 200, "{one}");
    let started = Instant::now();
    let (codes, run) = std::thread::scope(|scope| {
        let draws: Vec<_> = (0..60)
            .map(|_| scope.spawn(|| server.request("POST", "/api/board", request.as_bytes()).0))
            .collect();
        std::thread::sleep(Duration::from_millis(100));
        let run = server.run(json!({"puzzle": "tank", "verb": "count", "words": ["5"]}));
        let ran = started.elapsed();
        let codes: Vec<u16> = draws.into_iter().map(|d| d.join().unwrap()).collect();
        (codes, (run, ran))
    });
    let ((code, r), ran) = run;
    assert_eq!((code, r["count"].as_u64()), (200, Some(2)), "{r}");
    assert!(
        ran < Duration::from_secs(5),
        "the run was answered after {ran:?}"
    );
    assert!(codes.iter().all(|c| [200, 503].contains(c)), "{codes:?}");
    assert!(codes.contains(&503), "no draw was refused: {codes:?}");
}

/// A request's mistakes are named, not passed over: a time limit that is not a number, an
/// unknown field (a typo of one the request may have), an option the puzzle does not have;
/// and an error message quotes at most a little of a large input.
#[test]
fn typos_and_wrong_types_are_refused_and_errors_stay_short() {
    let _one = one_at_a_time();
    let server = Server::start(&[]);
    let cases = [
        (
            json!({"puzzle": "tank", "verb": "count", "words": ["5"], "time_limit": "abc"}),
            "time_limit must be a number",
        ),
        (
            json!({"puzzle": "tank", "verb": "count", "words": ["5"], "time_limt": 3}),
            "unknown field \"time_limt\"",
        ),
        (
            json!({"puzzle": "battleship", "verb": "solve", "words": ["https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c"],
                   "options": {"formulaton": "cell"}}),
            "formulaton",
        ),
        (
            json!({"puzzle": "tank", "verb": "reach", "words": ["5"], "at_least": "many"}),
            "at_least must be a whole number",
        ),
        (
            json!({"puzzle": "battleship", "verb": "generate", "rows": 6, "cols": 6,
                   "fleet": "3 2 1", "sed": 4}),
            "no option 'sed'",
        ),
    ];
    for (request, needle) in cases {
        let (code, r) = server.run(request.clone());
        assert_eq!(code, 400, "{request}: {r}");
        let why = r["error"].as_str().unwrap_or_default();
        assert!(why.contains(needle), "{request}: {r}");
    }
    let (code, body) = server.request(
        "POST",
        "/api/bench",
        json!({"puzzle": "battleship", "board": "a", "text": "size 6 6", "time_limt": 3})
            .to_string()
            .as_bytes(),
    );
    assert_eq!(code, 400, "{body}");
    assert!(body.contains("time_limt"), "{body}");
    // A 60 KB fleet count is quoted by its start and its length.
    let blob = "7".repeat(60_000);
    let (code, r) = server.run(
        json!({"puzzle": "battleship", "verb": "generate", "rows": 6,
                                      "cols": 6, "fleet": blob}),
    );
    assert_eq!(code, 400, "{r}");
    let why = r["error"].as_str().unwrap_or_default();
    assert!(
        why.len() < 400 && why.contains("(60002 characters)"),
        "{why}"
    );
}

/// An open board of `rows`×12 with one ship of length `rows`: its runs model has millions
/// of rows (2.3 million at 100, 17 million at 200).
fn one_long_ship(rows: usize) -> String {
    let mut fleet = vec!["0"; rows - 1];
    fleet.push("1");
    format!(
        "size {rows} 12\nfleet {}\nrows {}\ncols {}\n",
        fleet.join(" "),
        vec!["?"; rows].join(" "),
        ["?"; 12].join(" ")
    )
}

/// `model` through the API ends within its time limit + 10% (building, sizing, freeing
/// included: a 200×12 model at 5 s used to answer after 12 s), and its LP and OPB texts stop
/// at the 8 MB the server sends instead of being built whole first (154 MB and 77 MB for the
/// 100×12 board, on top of the model).
#[test]
fn model_requests_end_within_their_limit_and_build_no_text_they_do_not_send() {
    let _one = one_at_a_time();
    let server = Server::start(&["--max-runs", "1"]);
    let limit = 3.0;
    let started = std::time::Instant::now();
    let (code, r) = server.run(json!({"puzzle": "battleship", "verb": "model",
                                      "text": one_long_ship(200), "time_limit": limit}));
    let took = started.elapsed().as_secs_f64();
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["status"], "unknown", "{r}");
    // The run's own clock within the limit + 10% + 0.5 s, as tests/limits.rs holds every verb;
    // the wall clock, which adds the request and the process's scheduling (CI once measured
    // 3.72 s against 3.6 here, right after a test whose server held gigabytes), more coarsely.
    let own = r["stats"]["seconds"]
        .as_f64()
        .unwrap_or_else(|| panic!("no own clock: {r}"));
    assert!(
        own < limit * 1.1 + 0.5,
        "the run took {own:.2} s by its own clock"
    );
    assert!(took < limit * 1.1 + 1.5, "answered after {took:.2} s");
    let server = Server::start(&["--max-runs", "1"]);
    let (code, r) = server.run(json!({"puzzle": "battleship", "verb": "model",
                                      "text": one_long_ship(100), "time_limit": 60}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["stats"]["model"]["constraints"], 2_297_078, "{r}");
    for text in ["lp", "opb"] {
        let t = r[text].as_str().unwrap_or_default();
        assert!(
            t.starts_with("\\ over 8388608 bytes"),
            "{text}: {}",
            &t[..t.len().min(100)]
        );
    }
    // The model alone peaks near 300 MB; with the whole texts it passed 480 MB.
    let peak = common::server::status_mib(&server, "VmHWM");
    assert!(peak < 420, "peak {peak} MiB");
}
