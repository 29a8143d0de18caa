//! `quandary serve` over loopback: every puzzle's example through every question, bad input
//! (400 with the reader's words), an oversized body (413), overload (503 at once, and the
//! server answers afterwards), a stop request that ends a search, and no way to a file.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server on a free port, stopped when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_quandary"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Server { child, port }
    }

    /// One HTTP/1.0 request (so the answer is not chunked); the status code and the body.
    fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.0\r\nHost: localhost\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        // A server may answer (413) before reading all of a large body.
        let _ = s.write_all(body);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).into_owned();
        let code = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status line in {text:?}"));
        let body = text.split_once("\r\n\r\n").map_or("", |b| b.1).to_string();
        (code, body)
    }

    fn run(&self, v: Value) -> (u16, Value) {
        let (code, body) = self.request("POST", "/api/run", v.to_string().as_bytes());
        (
            code,
            serde_json::from_str(&body)
                .unwrap_or_else(|_| panic!("not JSON: {}", &body[..body.len().min(300)])),
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

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
    assert_eq!(puzzles.len(), 5);
    for p in puzzles {
        for verb in p["verbs"].as_array().unwrap() {
            let verb = verb.as_str().unwrap();
            // The chess example is an exact army: a maximum needs the piece type (any).
            let options = match (p["name"].as_str(), verb) {
                (Some("chess"), "optimum" | "reach") => json!({"any": true}),
                _ => json!({}),
            };
            let (code, r) = server.run(json!({
                "puzzle": p["name"], "verb": verb, "words": p["example"],
                "options": options, "time_limit": 5, "at_least": 1,
            }));
            assert_eq!(code, 200, "{} {verb}: {r}", p["name"]);
            if verb == "model" {
                assert!(r["lp"].as_str().unwrap().contains("Subject To"), "{r}");
                continue;
            }
            let status = r["status"].as_str().unwrap();
            assert!(
                ["solved", "optimal", "infeasible", "unknown"].contains(&status),
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
        (
            "tantrix",
            json!({"words": ["Cargo.toml"]}),
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
    let long = {
        let server = server.clone();
        std::thread::spawn(move || {
            server.run(json!({"id": "long", "puzzle": "tank", "verb": "solve",
                              "words": ["30"], "time_limit": 25}))
        })
    };
    std::thread::sleep(Duration::from_millis(500));
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
    assert!(
        stopped_at.elapsed() < Duration::from_secs(2),
        "stopped after {:?}",
        stopped_at.elapsed()
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
                                      "args": ["--formulation", "cell"]}));
    assert_eq!(code, 200, "{r}");
    assert!(
        r["stats"]["method"].as_str().unwrap().contains("cell"),
        "{r}"
    );
    let (code, r) = server.run(json!({"puzzle": "battleship", "verb": "solve", "text": url,
                                      "args": ["--formulation", "nonsense"]}));
    assert_eq!(code, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("nonsense"), "{r}");
}
