//! `quandary serve` over loopback: every puzzle's example through every question, bad input
//! (400 with the reader's words), an oversized body (413), overload (503 at once, and the
//! server answers afterwards), a stop request that ends a search, and no way to a file.

mod boards;

#[path = "../common/mod.rs"]
mod common;

use common::server::{alive, resident_mib, Server};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn every_example_answers_every_question_and_the_page_is_served() {
    let server = Server::start(&[]);
    let (code, page) = server.request("GET", "/", b"");
    assert_eq!(code, 200);
    assert!(page.contains("<title>quandary</title>") && page.contains("/api/run"));
    let (code, body) = server.request("GET", "/api/puzzles", b"");
    assert_eq!(code, 200);
    let list: Value = serde_json::from_str(&body).unwrap();
    let puzzles = list["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), quandary::runner::registry::PUZZLES.len());
    for p in puzzles {
        for verb in p["verbs"].as_array().unwrap() {
            let verb = verb.as_str().unwrap();
            // The chess example is an exact army: a maximum needs the piece type (any).
            let options = match (p["name"].as_str(), verb) {
                (Some("chess"), "optimum" | "reach") => json!({"any": true}),
                // The Latin square's objective is asked for.
                (Some("latin"), "optimum" | "reach") => json!({"diagonal": true}),
                _ => json!({}),
            };
            let mut request = json!({
                "puzzle": p["name"], "verb": verb, "words": p["example"],
                "options": options, "time_limit": 5, "at_least": 1,
            });
            // The own verbs take their flags as fields.
            match (p["name"].as_str(), verb) {
                (Some("battleship"), "generate") => {
                    request = json!({"puzzle": "battleship", "verb": verb, "rows": 6,
                                     "cols": 6, "fleet": "3 2 1", "seed": 1, "time_limit": 5});
                }
                (Some("gunport"), "sweep") => {
                    request = json!({"puzzle": "gunport", "verb": verb, "max_m": 4,
                                     "max_n": 4, "time_limit": 5});
                }
                (Some("chess"), "peaceable") => {
                    request = json!({"puzzle": "chess", "verb": verb, "words": ["5"],
                                     "time_limit": 5});
                }
                (Some("tantrix"), "check") => {
                    request["options"] = Value::Null;
                }
                (Some("battleship"), _)
                    if !["solve", "count", "unique", "forced", "model"].contains(&verb) =>
                {
                    request["options"] = Value::Null;
                }
                _ => {}
            }
            let (code, r) = server.run(request);
            assert_eq!(code, 200, "{} {verb}: {r}", p["name"]);
            if verb == "model" {
                assert!(r["lp"].as_str().unwrap().contains("Subject To"), "{r}");
                continue;
            }
            let status = r["status"].as_str().unwrap();
            assert!(
                ["solved", "optimal", "infeasible", "unknown", "rejected"].contains(&status),
                "{} {verb}: {r}",
                p["name"]
            );
            if verb == "solve" {
                assert!(r["svg"].as_str().unwrap().starts_with("<svg"), "{r}");
                assert!(r["summary"].is_string(), "verified: {r}");
            }
        }
    }
}

#[test]
fn bad_input_gets_400_with_the_readers_words_and_files_stay_out_of_reach() {
    let server = Server::start(&[]);
    for (puzzle, input, words) in [
        ("tank", json!({"words": ["abc"]}), "not a whole number"),
        ("gunport", json!({"words": ["0", "5"]}), "0"),
        ("chess", json!({"text": "army: Z9\n...\n"}), "line 1"),
        ("battleship", json!({"text": "size 0 0\n"}), "line 1"),
        ("tantrix", json!({"text": "0,0 99@0\n"}), "no tile 99"),
        (
            "chess",
            json!({"words": ["/etc/passwd"]}),
            "no such input here",
        ),
        ("battleship", json!({"words": ["-"]}), "standard input"),
        // Not even whether a directory exists on the server's disk is told.
        (
            "battleship",
            json!({"words": ["/tmp"]}),
            "no such input here",
        ),
        (
            "tantrix",
            json!({"words": ["Cargo.toml"]}),
            "no such input here",
        ),
        // Only the shipped puzzle files are there (compiled in), not the rest of data/.
        (
            "tantrix",
            json!({"words": ["data/tantrix/README.md"]}),
            "no such input here",
        ),
        (
            "chess",
            json!({"words": ["data/chess/../../Cargo.toml"]}),
            "no such input here",
        ),
    ] {
        let mut req = input.clone();
        req["puzzle"] = json!(puzzle);
        req["verb"] = json!("solve");
        let (code, r) = server.run(req);
        assert_eq!(code, 400, "{puzzle} {input}: {r}");
        let e = r["error"].as_str().unwrap();
        assert!(e.contains(words), "{puzzle} {input}: '{words}' not in {e}");
    }
    // A shipped puzzle file is read by its name, as on the command line from the repository.
    for (puzzle, word, says) in [
        ("tantrix", "data/tantrix/boards/free-15.txt", "challenge 15"),
        (
            "battleship",
            "data/battleship/brainbashers-15x15.txt",
            "15×15",
        ),
        ("chess", "data/chess/friedman-b4n2.txt", "B4N2"),
    ] {
        let (code, r) = server.run(json!({"puzzle": puzzle, "verb": "solve", "words": [word]}));
        assert_eq!(code, 200, "{word}: {r}");
        assert!(
            r["instance"].as_str().unwrap_or("").contains(says),
            "{word}: {r}"
        );
    }
    let (code, _) = server.request("POST", "/api/run", b"not json");
    assert_eq!(code, 400);
    let (code, r) = server.run(json!({"puzzle": "nonesuch"}));
    assert_eq!(code, 400, "{r}");
    let big = vec![b' '; (1 << 20) + 10];
    let (code, _) = server.request("POST", "/api/run", &big);
    assert_eq!(code, 413);
    let (code, _) = server.request("GET", "/etc/passwd", b"");
    assert_eq!(code, 404);
}

#[test]
fn overload_is_refused_at_once_and_a_stop_ends_a_search() {
    let server = std::sync::Arc::new(Server::start(&["--max-runs", "1"]));
    // A long search holds the one slot...
    let sent = Instant::now();
    let long = {
        let server = server.clone();
        std::thread::spawn(move || {
            server.run(json!({"id": "long", "puzzle": "tank", "verb": "solve",
                              "words": ["30"], "time_limit": 25}))
        })
    };
    server.wait_going("long");
    // ...so another is answered 503 at once.
    let started = Instant::now();
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "solve", "words": ["6"]}));
    assert_eq!(code, 503, "{r}");
    assert!(started.elapsed() < Duration::from_secs(1));
    // The stop request ends the long search itself, well before its limit.
    let stopped_at = Instant::now();
    let (code, body) = server.request("POST", "/api/stop", br#"{"id": "long"}"#);
    assert_eq!(code, 200);
    assert!(body.contains("true"), "{body}");
    let (code, r) = long.join().unwrap();
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["status"], "unknown", "{r}");
    assert_eq!(r["stats"]["stopped_by"], "a stop request", "{r}");
    // On the run's own clock: no longer than from the request to the stop, plus the stop.
    let ran = r["stats"]["seconds"].as_f64().expect("the run's seconds");
    let before_stop = (stopped_at - sent).as_secs_f64();
    assert!(
        ran - before_stop < 1.5,
        "ran {ran:.2} s, stopped {before_stop:.2} s after it was sent"
    );
    // And the server answers afterwards.
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "count", "words": ["5"]}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["count"], 2);
}

/// The calls the Battleship workbench makes: the example is unique; with one clue removed it
/// has several solutions; an added clue that the counts already imply is redundant; minimise
/// gives a unique puzzle with fewer clues; generate makes a unique puzzle from nothing; convert
/// gives a puzz.link URL that reads back to the same puzzle.
#[test]
fn the_workbench_calls_make_and_check_a_puzzle() {
    let server = Server::start(&[]);
    let example = "size 6 6\nfleet 3 2 1\nrows ? 3 0 ? 3 ?\ncols ? 1 2 ? ? 2\ngrid\n. . . . . ~\n......\n......\n< . . . . .\n......\n......\n";
    let ask = |verb: &str, text: &str| {
        let (code, r) = server.run(json!({"puzzle": "battleship", "verb": verb, "text": text}));
        assert_eq!(code, 200, "{verb}: {r}");
        r
    };
    assert_eq!(ask("unique", example)["unique"], true);
    let without = example.replace("< . . . . .", ". . . . . .");
    assert_eq!(ask("unique", &without)["unique"], false);
    // Row 3 holds no ship (count 0): a water clue there changes nothing.
    let extra = example.replace("......\n< .", ". . ~ . . .\n< .");
    let r = ask("redundant", &extra);
    let redundant = r["solution"]["redundant"].as_array().unwrap();
    assert!(
        redundant.contains(&json!({"row": 3, "col": 3, "clue": "water"})),
        "{r}"
    );
    let m = ask("minimize", &extra);
    let kept = m["solution"]["clues"].as_u64().unwrap();
    assert!(kept < 3, "{m}");
    let minimal = m["solution"]["puzzle"].as_str().unwrap().to_string();
    assert_eq!(ask("unique", &minimal)["unique"], true);
    let (code, g) = server.run(json!({"puzzle": "battleship", "verb": "generate",
        "rows": 8, "cols": 8, "fleet": "4 3 2 1", "seed": 7, "time_limit": 20}));
    assert_eq!(code, 200, "{g}");
    let made = g["solution"]["puzzle"].as_str().unwrap().to_string();
    assert_eq!(ask("unique", &made)["unique"], true);
    let url = g["solution"]["puzzlink"].as_str().unwrap().to_string();
    let back = server.run(json!({"puzzle": "battleship", "verb": "unique", "text": url}));
    assert_eq!(back.1["solution"], ask("unique", &made)["solution"]);
    let c = ask("convert", example);
    assert!(
        c["solution"]["puzzlink"]
            .as_str()
            .unwrap()
            .starts_with("https://puzz.link/p?battleship/6/6/"),
        "{c}"
    );
    // The Boats game ID it gives, sent as the text, is the same puzzle.
    let id = c["solution"]["boats"].as_str().unwrap().to_string();
    assert!(id.starts_with("6x6f3,3,2,1:"), "{c}");
    let (code, from_id) = server.run(json!({"puzzle": "battleship", "verb": "unique", "text": id}));
    assert_eq!(code, 200, "{from_id}");
    assert_eq!(from_id["solution"], ask("unique", example)["solution"]);
}

/// Options as the command line's flags: the page offers each puzzle's flags with their values,
/// and a request's `args` are read by the command line's own parser.
#[test]
fn options_are_the_command_lines_flags() {
    let server = Server::start(&[]);
    let (_, body) = server.request("GET", "/api/puzzles", b"");
    let list: Value = serde_json::from_str(&body).unwrap();
    let battleship = list["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "battleship")
        .unwrap();
    let formulation = battleship["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["flag"] == "formulation")
        .expect("a --formulation flag");
    assert!(formulation["values"]
        .as_array()
        .unwrap()
        .contains(&json!("cell")));
    let url = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";
    let (code, r) = server.run(json!({"puzzle": "battleship", "verb": "solve", "text": url,
                                      "options": {"formulation": "cell"}}));
    assert_eq!(code, 200, "{r}");
    assert!(
        r["stats"]["method"].as_str().unwrap().contains("cell"),
        "{r}"
    );
    let (code, r) = server.run(json!({"puzzle": "battleship", "verb": "solve", "text": url,
                                      "options": {"formulation": "nonsense"}}));
    assert_eq!(code, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("nonsense"), "{r}");
    // Givens as the page's --fix box sends them: one word holding several, and as JSON.
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "unique", "words": ["5"],
                                      "options": {"fix": "1,2=4 3,3=4"}}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["unique"], true, "{r}");
    let (code, r) = server.run(
        json!({"puzzle": "gunport", "verb": "solve", "words": ["5", "5"],
                                      "options": {"fix": "1,1=right 3,3=o"}}),
    );
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["objective"], 7, "{r}");
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "solve", "words": ["5"],
                                      "options": {"fix": "9,9=1"}}));
    assert_eq!(code, 400, "{r}");
    assert!(
        r["error"].as_str().unwrap().contains("off the board"),
        "{r}"
    );
    // The command line's words are not a second shape for options: refused, saying what to send.
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "solve", "words": ["5"],
                                      "args": ["--fix", "1,1=2"]}));
    assert_eq!(code, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("\"options\""), "{r}");
    // A number option as the page's field sends it (text) and as a number: the same run.
    for challenge in [json!("3"), json!(3)] {
        let (code, r) = server.run(json!({"puzzle": "tantrix", "verb": "count",
                                          "options": {"challenge": challenge}}));
        assert_eq!(code, 200, "{r}");
        assert_eq!(r["status"], "solved", "{r}");
    }
    // explain's own keys, read off the options as Python's are: one engine, or the plain
    // baseline (which runs on one engine: the two together are refused, as on the command line).
    for options in [json!({"threads": 1}), json!({"plain": true})] {
        let (code, r) = server.run(json!({"puzzle": "tank", "verb": "explain", "words": ["4"],
                                          "options": options}));
        assert_eq!(code, 200, "{r}");
        assert!(r["steps"].as_array().is_some_and(|s| !s.is_empty()), "{r}");
    }
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "explain", "words": ["4"],
                                      "options": {"threads": 1, "plain": true}}));
    assert_eq!(code, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("--plain"), "{r}");
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "explain", "words": ["4"],
                                      "options": {"threads": "many"}}));
    assert_eq!(code, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("threads"), "{r}");
}

/// A request that says its body is ~1 TB long and sends 2 bytes: answered (413 for the API,
/// the page for GET) and the server goes on. tiny_http 0.12 aborted the whole process here.
#[test]
fn a_lying_content_length_does_not_kill_the_server() {
    let mut server = Server::start(&[]);
    let (code, _) =
        server.raw(b"GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 999999999999\r\n\r\nab");
    assert!(code == 200 || code == 413 || code == 400, "{code}");
    let (code, body) = server.request_with(
        "POST",
        "/api/run",
        b"ab",
        &[("Content-Length", "999999999999")],
    );
    // The header given twice is refused as malformed (400) or its size as too large (413).
    assert!(code == 413 || code == 400, "{code} {body}");
    assert!(alive(&mut server), "the server died");
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "count", "words": ["5"]}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["count"], 2);
}

/// 300 connections that send nothing, to a server that may open 256 files: each is closed
/// after the header timeout, the accept loop waits instead of ending, and a real request is
/// answered.
#[test]
fn idle_connections_cannot_starve_or_end_the_server() {
    let mut server = Server::with_open_files(256);
    let mut idle = Vec::new();
    for _ in 0..300 {
        let address = std::net::SocketAddr::from(([127, 0, 0, 1], server.port));
        if let Ok(s) = TcpStream::connect_timeout(&address, Duration::from_secs(2)) {
            idle.push(s);
        }
    }
    assert!(idle.len() >= 200, "only {} connections opened", idle.len());
    let started = Instant::now();
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "count", "words": ["5"]}));
    assert_eq!(code, 200, "{r}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "answered after {:?}",
        started.elapsed()
    );
    drop(idle);
    assert!(alive(&mut server), "the server ended");
    let (code, _) = server.request("GET", "/api/puzzles", b"");
    assert_eq!(code, 200);
}

/// Three runs stopped by their time limit, each of which builds an engine of about a
/// gigabyte: afterwards the server is back near its starting size (it used to keep every
/// stopped engine, 1.2 GB each, until it exited).
#[test]
fn stopped_runs_give_their_memory_back() {
    let server = Server::start(&["--max-runs", "1"]);
    for _ in 0..3 {
        let (code, r) = server
            .run(json!({"puzzle": "tank", "verb": "count", "words": ["40"], "time_limit": 3}));
        assert_eq!(code, 200, "{r}");
        assert_eq!(r["status"], "unknown", "{r}");
    }
    // A large engine is freed on a thread of its own: give it a few seconds, with a small
    // run now and then (each run ends by handing free memory back).
    let mut mib = resident_mib(&server);
    for _ in 0..20 {
        if mib < 300 {
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
        server.run(json!({"puzzle": "tank", "verb": "count", "words": ["4"]}));
        mib = resident_mib(&server);
    }
    assert!(mib < 300, "{mib} MiB resident after three stopped runs");
}

/// What a page of another site can send: no token, text/plain, its own Origin or Host.
/// Each is refused before anything runs; the page's own requests go through.
#[test]
fn requests_from_other_pages_are_refused() {
    let server = Server::start(&[]);
    let body = json!({"puzzle": "tank", "verb": "count", "words": ["5"]}).to_string();
    let body = body.as_bytes();
    // A cross-origin "simple" request: text/plain, no token (a browser sends it without
    // asking first).
    let (code, r) = server.request_with(
        "POST",
        "/api/run",
        body,
        &[
            ("X-Quandary-Token", ""),
            ("Content-Type", "text/plain"),
            ("Origin", "http://evil.example"),
        ],
    );
    assert_eq!(code, 403, "{r}");
    // With the token but from another origin, or as text/plain, or to another host name
    // (DNS rebinding): refused too.
    let (code, r) = server.request_with(
        "POST",
        "/api/run",
        body,
        &[("Origin", "http://evil.example")],
    );
    assert_eq!(code, 403, "{r}");
    let (code, r) =
        server.request_with("POST", "/api/run", body, &[("Content-Type", "text/plain")]);
    assert_eq!(code, 415, "{r}");
    let (code, r) = server.request_with("GET", "/", b"", &[("Host", "evil.example")]);
    assert_eq!(code, 421, "{r}");
    let host = format!("localhost:{}", server.port);
    let origin = format!("http://{host}");
    let (code, r) = server.request_with(
        "POST",
        "/api/run",
        body,
        &[("Host", &host), ("Origin", &origin)],
    );
    assert_eq!(code, 200, "{r}");
}

/// The page is never shown in another site's frame, and is not given to a navigation another
/// site started (a link, a script sending a window there): that gets a page with no token that
/// offers a link instead. The user's own navigation (`none`), the page's own (`same-origin`) and
/// a client that says nothing (a program) get the page.
#[test]
fn the_page_is_not_framed_nor_opened_by_other_sites() {
    let server = Server::start(&[]);
    let head = |headers: &[(&str, &str)]| {
        let mut bytes = "GET / HTTP/1.0\r\nHost: localhost\r\n".to_string();
        for (k, v) in headers {
            bytes.push_str(&format!("{k}: {v}\r\n"));
        }
        bytes.push_str("\r\n");
        let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        std::io::Write::write_all(&mut s, bytes.as_bytes()).unwrap();
        let mut out = String::new();
        std::io::Read::read_to_string(&mut s, &mut out).unwrap();
        out
    };
    for (site, given) in [
        (None, true),
        (Some("none"), true),
        (Some("same-origin"), true),
        (Some("cross-site"), false),
        (Some("same-site"), false),
        (Some("CROSS-SITE"), false),
    ] {
        let headers: Vec<(&str, &str)> = site.map(|s| ("Sec-Fetch-Site", s)).into_iter().collect();
        let answer = head(&headers);
        let lower = answer.to_ascii_lowercase();
        assert!(
            lower.contains("\r\nx-frame-options: deny\r\n"),
            "{site:?}: {answer}"
        );
        assert!(
            lower.contains("\r\ncontent-security-policy: frame-ancestors 'none'\r\n"),
            "{site:?}: {answer}"
        );
        assert_eq!(answer.contains("const TOKEN"), given, "{site:?}: {answer}");
        let status = if given { " 200 " } else { " 403 " };
        assert!(
            answer.lines().next().unwrap_or("").contains(status),
            "{site:?}: {answer}"
        );
        if !given {
            assert!(answer.contains("Open quandary here"), "{answer}");
        }
    }
}

/// The workbench takes a puzzle as the command line does: a shipped file by its name (the page's
/// "Load a shipped puzzle" list), a puzz.link URL as a word, or the text. Every shipped
/// Battleship file named at the top of data/battleship is checked (it used to be read as the
/// text "data/battleship/...", a puzz.link URL that is not one).
#[test]
fn the_workbench_reads_shipped_puzzles_by_name() {
    let server = Server::start(&[]);
    let (_, list) = server.request("GET", "/api/puzzles", b"");
    let list: Value = serde_json::from_str(&list).unwrap();
    let battleship = list["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "battleship")
        .unwrap()
        .clone();
    let shipped: Vec<&str> = battleship["shipped"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter(|f| f.matches('/').count() == 2)
        .collect();
    assert!(shipped.len() >= 4, "{shipped:?}");
    for (k, file) in shipped.iter().enumerate() {
        let board = format!("shipped-{k}");
        let request =
            json!({"puzzle": "battleship", "board": board, "words": [file], "time_limit": 20});
        let (code, body) = server.request("POST", "/api/bench", request.to_string().as_bytes());
        let r: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(code, 200, "{file}: {r}");
        assert!(
            r["status"] != "error" && r["status"] != "unknown" && r["unique"].is_boolean(),
            "{file}: {r}"
        );
    }
    for (words, says) in [
        (
            json!(["data/battleship/no-such.txt"]),
            "no shipped puzzle file",
        ),
        (json!([]), "the puzzle as text"),
        (json!([7]), "list of strings"),
    ] {
        let request = json!({"puzzle": "battleship", "board": "b", "words": words});
        let (code, body) = server.request("POST", "/api/bench", request.to_string().as_bytes());
        assert_eq!(code, 400, "{words}: {body}");
        assert!(body.contains(says), "{words}: {body}");
    }
    // A URL given as a word is the puzzle itself.
    let url = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";
    let request = json!({"puzzle": "battleship", "board": "url", "words": [url]});
    let (code, body) = server.request("POST", "/api/bench", request.to_string().as_bytes());
    let r: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((code, &r["unique"]), (200, &json!(true)), "{r}");
}

/// `model` is a run like the others: it takes a search slot (503 when none is free) and its
/// time limit stops building a model that would take minutes and gigabytes.
#[test]
fn model_requests_are_bounded_like_every_run() {
    let server = std::sync::Arc::new(Server::start(&["--max-runs", "1", "--max-time", "60"]));
    let long = {
        let server = server.clone();
        std::thread::spawn(move || {
            server.run(json!({"id": "holder", "puzzle": "tank", "verb": "count",
                              "words": ["30"], "time_limit": 20}))
        })
    };
    server.wait_going("holder");
    let (code, r) = server.run(json!({"puzzle": "chess", "verb": "model", "words": ["8"]}));
    assert_eq!(code, 503, "{r}");
    server.request("POST", "/api/stop", br#"{"id": "holder"}"#);
    long.join().unwrap();
    let started = Instant::now();
    let (code, r) = server.run(
        json!({"puzzle": "gunport", "verb": "model", "words": ["60", "60"],
                                      "options": {"formulation": "domino"}, "time_limit": 2}),
    );
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["status"], "unknown", "{r}");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "model", "words": ["4"]}));
    assert_eq!(code, 200, "{r}");
    assert!(r["lp"].as_str().unwrap().contains("Subject To"), "{r}");
}

/// A time limit too long for a clock is capped by the server's, not a crash; two runs may
/// not share an id.
#[test]
fn odd_time_limits_and_shared_ids_are_answered() {
    let server = std::sync::Arc::new(Server::start(&[]));
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "count", "words": ["5"],
                                      "time_limit": 1e300}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["count"], 2);
    let long = {
        let server = server.clone();
        std::thread::spawn(move || {
            server.run(json!({"id": "same", "puzzle": "tank", "verb": "count",
                              "words": ["30"], "time_limit": 20}))
        })
    };
    server.wait_going("same");
    let (code, r) = server.run(json!({"id": "same", "puzzle": "tank", "verb": "count",
                                      "words": ["5"]}));
    assert_eq!(code, 409, "{r}");
    let (_, body) = server.request("POST", "/api/stop", br#"{"id": "same"}"#);
    assert!(body.contains("true"), "{body}");
    let (code, r) = long.join().unwrap();
    assert_eq!((code, r["status"].as_str()), (200, Some("unknown")), "{r}");
}

/// Every long search stops within 2 s of a stop request, exact methods on worker threads
/// included (the Tank line search, the Gunport budget program), and the server answers
/// afterwards.
#[test]
fn a_stop_ends_every_kind_of_search() {
    let server = std::sync::Arc::new(Server::start(&["--max-runs", "1", "--max-time", "120"]));
    let cases = [
        json!({"puzzle": "tank", "verb": "count", "words": ["7"]}),
        json!({"puzzle": "gunport", "verb": "solve", "words": ["19", "19"]}),
        json!({"puzzle": "gunport", "verb": "reach", "words": ["19", "19"], "at_least": 119,
               "options": {"method": "budget"}}),
        json!({"puzzle": "chess", "verb": "count", "words": ["10"], "options": {"army": "Q4R4"}}),
        json!({"puzzle": "tantrix", "verb": "count", "options": {"challenge": "10"}}),
        json!({"puzzle": "chess", "verb": "count", "words": ["12"],
               "options": {"army": "Q12", "type": "Q", "sat": true}}),
    ];
    for (k, case) in cases.into_iter().enumerate() {
        let id = format!("case-{k}");
        let mut request = case.clone();
        request["id"] = json!(id);
        request["time_limit"] = json!(100);
        let sent = Instant::now();
        let run = {
            let server = server.clone();
            std::thread::spawn(move || server.run(request))
        };
        // Started (the server's own word), then given a moment of work to stop.
        server.wait_going(&id);
        std::thread::sleep(Duration::from_millis(500));
        let stopped_at = Instant::now();
        let (_, body) = server.request(
            "POST",
            "/api/stop",
            json!({"id": id}).to_string().as_bytes(),
        );
        assert!(body.contains("true"), "{case}: {body}");
        let (code, r) = run.join().unwrap();
        assert_eq!(code, 200, "{case}: {r}");
        assert_eq!(r["status"], "unknown", "{case}: {r}");
        // Said as a stop, not as a limit; a count by SAT keeps what it found.
        assert_eq!(r["stats"]["stopped_by"], "a stop request", "{case}: {r}");
        if case["options"]["sat"] == true {
            assert!(
                r["count_at_least"].as_u64().is_some_and(|n| n > 0),
                "{case}: {r}"
            );
        }
        // On the run's own clock: it ran no longer than from the request to the stop, plus
        // the time it took to stop (at most the true delay, whatever the test thread's).
        let ran = r["stats"]["seconds"].as_f64().expect("the run's seconds");
        let before_stop = (stopped_at - sent).as_secs_f64();
        assert!(
            ran - before_stop < 1.5,
            "{case}: ran {ran:.2} s, stopped {before_stop:.2} s after it was sent"
        );
    }
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "count", "words": ["5"]}));
    assert_eq!((code, r["count"].as_u64()), (200, Some(2)), "{r}");
}

/// A long run reports its stage and progress while it runs (`/api/progress`, which the page
/// polls), per run id; the report changes as the run goes on.
#[test]
fn a_long_run_reports_its_progress() {
    let server = std::sync::Arc::new(Server::start(&["--max-time", "60"]));
    let run = {
        let server = server.clone();
        std::thread::spawn(move || {
            server.run(
                json!({"id": "watched", "puzzle": "gunport", "verb": "reach",
                              "words": ["19", "19"], "at_least": 119,
                              "options": {"method": "budget"}, "time_limit": 30}),
            )
        })
    };
    let mut seen = std::collections::BTreeSet::new();
    let started = Instant::now();
    while seen.len() < 3 && started.elapsed() < Duration::from_secs(25) {
        let (code, body) = server.request("GET", "/api/progress?id=watched", b"");
        assert_eq!(code, 200, "{body}");
        let p: Value = serde_json::from_str(&body).unwrap();
        if p["going"] == true {
            seen.insert(format!("{}: {}", p["stage"], p["message"]));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    server.request("POST", "/api/stop", br#"{"id": "watched"}"#);
    let (code, _) = run.join().unwrap();
    assert_eq!(code, 200);
    assert!(seen.len() >= 3, "the reports did not change: {seen:?}");
    assert!(
        seen.iter().any(|s| s.contains("row program: row")),
        "{seen:?}"
    );
    // Another id has nothing to report.
    let (_, body) = server.request("GET", "/api/progress?id=nobody", b"");
    assert!(body.contains("\"going\":false"), "{body}");
}

/// The memory limit is shared among the server's slots and its kept workbench boards: with
/// 300 MB and two slots, each run may build 100 MB (the third share is the boards'), and a run
/// that needs more is refused as too large (each run used to get the whole limit, so two at
/// once could take twice of it).
#[test]
fn runs_share_the_memory_limit() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_quandary"));
    command
        .args(["serve", "--port", "0", "--max-runs", "2"])
        .env("QUANDARY_MEMORY_MB", "300");
    let server = Server::from(command);
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "count", "words": ["40"],
                                      "time_limit": 20}));
    assert_eq!(code, 400, "{r}");
    let why = r["error"].as_str().unwrap();
    assert!(why.contains("too large") && why.contains("100 MiB"), "{r}");
    let (code, r) = server.run(json!({"puzzle": "tank", "verb": "count", "words": ["5"]}));
    assert_eq!((code, r["count"].as_u64()), (200, Some(2)), "{r}");
}

/// Bound beyond loopback, the server gives its page (and so its token) only to a request that
/// carries the token printed at the start; the API still needs it in a header.
#[test]
fn beyond_loopback_the_page_needs_the_printed_token() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quandary"))
        .args(["serve", "--port", "0", "--bind", "0.0.0.0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let address = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    let (port, token) = address
        .trim_start_matches("http://0.0.0.0:")
        .split_once("/?token=")
        .unwrap_or_else(|| panic!("no token in {address}"));
    // Only loopback is ever asked here.
    let server = Server {
        child,
        port: port.parse().unwrap(),
        token: token.to_string(),
    };
    let (code, _) = server.request("GET", "/", b"");
    assert_eq!(code, 403);
    let (code, page) = server.request("GET", &format!("/?token={token}"), b"");
    assert_eq!(code, 200);
    assert!(page.contains(token));
    let (code, r) = server.request_with("GET", "/api/puzzles", b"", &[("X-Quandary-Token", "")]);
    assert_eq!(code, 403, "{r}");
}
