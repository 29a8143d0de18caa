//! The page in a real browser: headless Chromium driven through ChromeDriver's W3C WebDriver
//! API. Load the page, pick Battleship, paste the puzz.link example, solve, find the ships in
//! the picture; ask for forced cells; step through its explanation, and ask for hints; on the
//! workbench see its difficulty and explanation, remove a clue and see "unique" turn into
//! "several solutions"; pick Tantrix and solve its built-in board. Screenshots go to
//! target/browser/. Skipped, saying so, where Chromium or ChromeDriver is not installed
//! (`.ci/run` installs Debian's chromium and chromium-driver).
//!
//! The WebDriver calls are plain JSON over HTTP on loopback, made with the standard library:
//! the client crates (fantoccini, thirtyfour) bring an async runtime and a TLS stack whose
//! default builds need OpenSSL or cmake, which the project's build must not.

mod attacks;

use base64::Engine as _;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";

struct Killed(Child);
impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP/1.1 exchange (ChromeDriver refuses 1.0) with a JSON body, the connection closed
/// after it; the JSON answer, if one came.
fn try_http(port: u16, method: &str, path: &str, body: &Value) -> Option<Value> {
    let body = body.to_string();
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(60))).ok()?;
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    // Read the head, then the body by its Content-Length (or chunks): the driver may keep
    // the connection open.
    let mut bytes = Vec::new();
    let mut buf = [0u8; 65536];
    let split = loop {
        if let Some(k) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break k;
        }
        let n = s.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        bytes.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&bytes[..split]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let have = bytes.len() - split - 4;
        let done = match length {
            Some(n) => have >= n,
            None if chunked => bytes.ends_with(b"0\r\n\r\n"),
            None => false,
        };
        if done {
            break;
        }
        let n = s.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&buf[..n]);
    }
    let mut rest = std::str::from_utf8(&bytes[split + 4..]).ok()?;
    let mut body = String::new();
    if chunked {
        // Size line in hex, the chunk, CRLF; a zero size ends it.
        while let Some((size, tail)) = rest.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).ok()?;
            if n == 0 {
                break;
            }
            body.push_str(tail.get(..n)?);
            rest = tail.get(n + 2..)?;
        }
    } else {
        body = rest.to_string();
    }
    serde_json::from_str(&body).ok()
}

fn http(port: u16, method: &str, path: &str, body: &Value) -> Value {
    try_http(port, method, path, body)
        .unwrap_or_else(|| panic!("WebDriver {method} {path}: no JSON answer"))
}

/// A WebDriver session.
struct Browser {
    port: u16,
    session: String,
}

/// Ends the session (and its browser) however the test ends: a failed assertion must not
/// leave Chromium running.
impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        let _ = try_http(self.port, "DELETE", &path, &json!({}));
    }
}

impl Browser {
    /// A WebDriver command: its value, or the error it answered.
    fn try_call(&self, method: &str, path: &str, body: Value) -> Result<Value, Value> {
        let v = http(
            self.port,
            method,
            &format!("/session/{}{path}", self.session),
            &body,
        );
        match v["value"]["error"].is_string() {
            true => Err(v["value"].clone()),
            false => Ok(v["value"].clone()),
        }
    }
    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        self.try_call(method, path, body)
            .unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"))
    }
    fn goto(&self, url: &str) {
        self.call("POST", "/url", json!({ "url": url }));
    }
    fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
    }
    fn element(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(|id| id.as_str())
            .expect("an element id")
            .to_string()
    }
    /// Clicks the element; found afresh if the page redrew it meanwhile (the workbench
    /// redraws its grid after every check).
    fn click(&self, css: &str) {
        for _ in 0..50 {
            let e = self.element(css);
            match self.try_call("POST", &format!("/element/{e}/click"), json!({})) {
                Ok(_) => return,
                Err(e) if e["error"] == "stale element reference" => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Err(e) => panic!("WebDriver click {css}: {e}"),
            }
        }
        panic!("{css} kept going stale");
    }
    fn type_into(&self, css: &str, text: &str) {
        let e = self.element(css);
        self.call("POST", &format!("/element/{e}/clear"), json!({}));
        self.call(
            "POST",
            &format!("/element/{e}/value"),
            json!({ "text": text }),
        );
    }
    /// Chooses `value` in a select and tells the page, as a user's choice would.
    fn choose(&self, id: &str, value: &str) {
        self.run(&format!(
            "const s = document.getElementById('{id}'); s.value = '{value}'; s.dispatchEvent(new Event('change'));"
        ));
    }
    /// Presses Run, waits until the answer is drawn and the button is back, and returns the
    /// headline.
    fn run_and_read(&self, what: &str) -> String {
        self.click("#go");
        self.wait_for(
            "return document.getElementById('go').disabled === false && document.querySelector('#picture svg') !== null",
            what,
        );
        let headline = self.run("return document.getElementById('headline').textContent");
        headline.as_str().expect("text").to_string()
    }
    /// Waits until `script` returns true.
    fn wait_for(&self, script: &str, what: &str) {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(60) {
            if self.run(script) == json!(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("waited 60 s for {what}");
    }
    /// A picture of one element (the board's section, say), for docs/web.md.
    fn element_screenshot(&self, css: &str, name: &str) {
        let e = self.element(css);
        save_png(
            &self.call("GET", &format!("/element/{e}/screenshot"), json!({})),
            name,
        );
    }
    /// A picture of the whole window.
    fn screenshot(&self, name: &str) {
        save_png(&self.call("GET", "/screenshot", json!({})), name);
    }
}

/// Writes a screenshot WebDriver gave (base64 PNG) to target/browser/NAME.
fn save_png(b64: &Value, name: &str) {
    let png = base64::engine::general_purpose::STANDARD
        .decode(b64.as_str().expect("base64"))
        .expect("a PNG");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

/// What a browser test holds: the server, ChromeDriver, the session (dropped first) and the
/// page's address.
struct Page {
    b: Browser,
    url: String,
    _driver: Killed,
    _server: Killed,
}

/// Starts the server and a headless Chromium on its page; `None` (said) where the browser is
/// not installed, which fails under CI.
fn open_page() -> Option<Page> {
    if !std::path::Path::new(CHROMIUM).exists() || !std::path::Path::new(DRIVER).exists() {
        // Under CI a missing browser fails the test: .ci/run installs it.
        assert!(
            std::env::var_os("CI").is_none(),
            "no {CHROMIUM} or {DRIVER} under CI: .ci/run installs them"
        );
        eprintln!("SKIPPED: no {CHROMIUM} or {DRIVER} (apt-get install chromium chromium-driver); CI runs this check");
        return None;
    }
    let mut server = Command::new(env!("CARGO_BIN_EXE_quandary"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _server = Killed(server);
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .expect("the URL")
        .to_string();
    let port = free_port();
    let _driver = Killed(
        Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let started = Instant::now();
    let created = loop {
        let ready = try_http(port, "GET", "/status", &json!({}));
        if ready.is_some_and(|r| r["value"]["ready"] == json!(true)) {
            break http(
                port,
                "POST",
                "/session",
                &json!({"capabilities": {"alwaysMatch": {"browserName": "chrome",
                        "goog:chromeOptions": {"binary": CHROMIUM, "args": [
                            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                            "--no-first-run", "--disable-background-networking",
                            "--disable-component-update", "--disable-sync",
                            "--window-size=1400,1100"]}}}}),
            );
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no ChromeDriver"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let session = created["value"]["sessionId"]
        .as_str()
        .unwrap_or_else(|| panic!("no session: {created}"))
        .to_string();
    let b = Browser { port, session };

    b.goto(&url);
    let listed = format!(
        "return document.getElementById('puzzle').options.length === {}",
        quandary::runner::registry::PUZZLES.len()
    );
    b.wait_for(&listed, "the puzzle list");
    Some(Page {
        b,
        url,
        _driver,
        _server,
    })
}

quandary_probe::needs_chromium! {
    #[test]
    fn the_page_solves_proves_and_edits_in_headless_chromium() {
        let Some(page) = open_page() else { return };
        let b = &page.b;
        // Battleship: paste the puzz.link example, solve, find its 10 ship cells in the picture.
        b.choose("puzzle", "battleship");
        b.type_into("#words", "");
        b.type_into(
            "#text",
            "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c",
        );
        b.choose("verb", "solve");
        let headline = b.run_and_read("the picture");
        let ships = b.run(
            "return document.querySelectorAll('#picture svg [fill=\"#222\"], #picture svg [fill=\"#1f3b73\"]').length",
        );
        assert_eq!(ships, json!(10), "3 submarines, 2 destroyers, 1 cruiser");
        assert!(headline.contains("solved"), "{headline}");
        // The board as text is shown under the picture (it went into the input box, which
        // shared its id, and was never seen).
        let board = b.run("return document.getElementById('answer-text').textContent");
        let board = board.as_str().unwrap_or_default();
        assert!(
            board.lines().filter(|l| !l.trim().is_empty()).count() >= 6,
            "{board}"
        );
        let pasted = b.run("return document.getElementById('text').value");
        assert_eq!(
            pasted,
            json!("https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c")
        );
        b.screenshot("battleship-solve.png");
        // Forced cells: every cell is settled in a unique puzzle.
        b.choose("verb", "forced");
        let text = b.run_and_read("forced cells");
        assert!(text.contains("36 of 36 places are the same"), "{text}");
        // Explain: a stepper through the steps, each with its picture; Next goes on.
        b.choose("verb", "explain");
        let headline = b.run_and_read("the explanation");
        assert!(headline.contains("steps"), "{headline}");
        b.wait_for(
            "return document.getElementById('steps').dataset.step === '1' && document.querySelector('#steps svg') !== null",
            "step 1 of the explanation, drawn",
        );
        b.click("#steps .step-next");
        b.wait_for(
            "return document.getElementById('steps').dataset.step === '2'",
            "step 2 after Next",
        );
        b.screenshot("battleship-explain.png");
        // Hint: the first step, then (pressed again) the next.
        b.click("#hint");
        b.wait_for(
            "return document.getElementById('steps').dataset.step === '1' && document.getElementById('go').disabled === false",
            "a hint",
        );
        b.click("#hint");
        b.wait_for(
            "return document.getElementById('steps').dataset.step === '2'",
            "the next hint",
        );
        // The workbench is the board: the example checked as drawn, unique, with a
        // difficulty; the '<' clue at row 4, column 1 clicked away (six clicks cycle it back
        // to blank): several solutions, two drawn, counted, what they agree on shaded; undone
        // (six times): unique again.
        let checked = |state: &str| {
            format!("const s = document.getElementById('check-status'); return s.dataset.done === '1' && s.dataset.state === '{state}'")
        };
        b.wait_for(
            "const s = document.getElementById('check-status'); return s.dataset.state === 'unique' && s.dataset.hardest !== ''",
            "the workbench's first check, with a difficulty",
        );
        let status = b.run("return document.getElementById('check-status').textContent");
        assert!(
            status
                .as_str()
                .unwrap_or("")
                .contains("difficulty: hardest step"),
            "{status}"
        );
        for v in [">", "^", "v", "+", "#", "."] {
            click_place(b, "cell 4,1", v);
        }
        b.wait_for(
            "const s = document.getElementById('check-status'); return s.dataset.state === 'several' && s.dataset.done === '1' && s.dataset.count !== ''",
            "several solutions after removing a clue, counted",
        );
        assert_eq!(
            b.run("return document.querySelectorAll('#check-pictures svg').length"),
            json!(2),
            "a solution and a second one"
        );
        assert!(
            b.run("return document.querySelectorAll('#board svg .mark').length")
                .as_u64()
                .unwrap_or(0)
                > 0,
            "the cells every solution agrees on are shaded"
        );
        let count = b.run("return document.getElementById('check-status').dataset.count");
        let status = b.run("return document.getElementById('check-status').textContent");
        eprintln!("the example without its clue: {status} ({count})");
        b.run("document.getElementById('edit').scrollIntoView()");
        b.screenshot("workbench.png");
        for _ in 0..6 {
            b.click("#undo");
        }
        b.wait_for(&checked("unique"), "unique again after six undos");
        assert_eq!(
            b.run("return document.querySelector('#board [data-at=\"cell 4,1\"]').dataset.value"),
            json!("<")
        );
        // The paper's size: a generated 30×20 puzzle (every clue necessary) loaded into the
        // workbench, then edits one at a time, each timed by the page from the edit to its drawn
        // answer (`data-ms`): a clue taken away (several solutions), then put back (unique).
        // Printed for docs/web.md, not asserted: a timed test would fail on a busy machine.
        let big = include_str!("../../data/battleship/generated/30x20-seed3.txt");
        // From the edit to the first answer drawn (unique or several, forced cells shaded)
        // and to the whole check (with the count and the second solution).
        let ms = |b: &Browser| {
            let first = b.run("return Number(document.getElementById('check-status').dataset.first)");
            let all = b.run("return Number(document.getElementById('check-status').dataset.ms)");
            (
                first.as_u64().expect("the first answer's time"),
                all.as_u64().expect("the check's time"),
            )
        };
        b.run(&format!("loadText({})", json!(big)));
        board_drawn(b, 30 * 20 + 30 + 20, "the 30×20 puzzle drawn, its counts too");
        b.wait_for(&checked("unique"), "the 30×20 puzzle checked");
        let load = ms(b);
        let clues = b.run(
            "return [...document.querySelectorAll('#board .edit')].filter((e) => e.dataset.at.startsWith('cell') && e.dataset.value !== '.').slice(0, 5).map((e) => [e.dataset.at, e.dataset.value])",
        );
        let mut removed = Vec::new();
        let mut restored = Vec::new();
        for clue in clues.as_array().expect("clue cells") {
            let (at, value) = (clue[0].as_str().unwrap(), clue[1].as_str().unwrap());
            b.run(&format!("sketch({{at: '{at}', value: '.'}})"));
            b.wait_for(&checked("several"), "a clue of the 30×20 puzzle taken away");
            removed.push(ms(b));
            b.run(&format!("sketch({{at: '{at}', value: {}}})", json!(value)));
            b.wait_for(&checked("unique"), "the clue put back");
            restored.push(ms(b));
        }
        b.run("document.getElementById('edit').scrollIntoView()");
        b.screenshot("workbench-30x20.png");
        eprintln!(
            "workbench on data/battleship/generated/30x20-seed3.txt, ms from edit to (first answer, whole check): load {load:?}; clue taken away {removed:?}; put back {restored:?}"
        );
        // Generate with a seed and a band: a new puzzle loaded onto the board, unique; the
        // same seed makes the same puzzle again.
        b.choose("puzzle", "battleship");
        b.type_into("#words", "");
        b.type_into("#text", "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c");
        board_drawn(b, 48, "the example again");
        b.type_into("#g-seed", "7");
        b.click("#g-generate");
        b.wait_for(
            "return document.getElementById('text').value.includes('size 6 6') && document.getElementById('board').dataset.state === 'drawn'",
            "a generated puzzle on the board",
        );
        b.wait_for(&checked("unique"), "the generated puzzle checked");
        let note = b.run("return document.getElementById('board-note').textContent");
        assert!(
            note.as_str().unwrap_or("").contains("--seed 7")
                && note.as_str().unwrap_or("").contains("every clue is necessary"),
            "{note}"
        );
        let made = b.run("return document.getElementById('text').value");
        b.click("#undo");
        b.wait_for(
            "return document.getElementById('text').value.includes('puzz.link') || document.getElementById('text').value === ''",
            "undo back to the example",
        );
        b.click("#g-generate");
        b.wait_for(
            "return document.getElementById('text').value.includes('size 6 6')",
            "the same seed again",
        );
        assert_eq!(b.run("return document.getElementById('text').value"), made);
        // A verb only one puzzle has offers its own flags as fields: Battleship's generate
        // with its rows, columns and fleet makes a puzzle (it used to answer the parser's
        // "required arguments were not provided").
        b.choose("puzzle", "battleship");
        b.type_into("#words", "");
        b.choose("verb", "generate");
        b.type_into("#opts [data-flag=\"rows\"]", "6");
        b.type_into("#opts [data-flag=\"cols\"]", "6");
        b.type_into("#opts [data-flag=\"fleet\"]", "3 2 1");
        let headline = b.run_and_read("a generated puzzle");
        assert!(headline.contains("6×6"), "{headline}");
        // Gunport's sweep, with its ranges as fields: its table's rows are shown.
        b.choose("puzzle", "gunport");
        b.type_into("#words", "");
        b.choose("verb", "sweep");
        b.type_into("#opts [data-flag=\"max-m\"]", "4");
        b.type_into("#opts [data-flag=\"max-n\"]", "4");
        b.click("#go");
        b.wait_for(
            "return document.getElementById('go').disabled === false && document.getElementById('answer-text').textContent.includes('4')",
            "the sweep's rows",
        );
        let rows = b.run("return document.getElementById('answer-text').textContent");
        assert!(rows.as_str().unwrap_or("").lines().count() >= 4, "{rows}");
        // Tantrix: its built-in board, solved.
        b.choose("puzzle", "tantrix");
        b.choose("verb", "solve");
        let headline = b.run_and_read("the Tantrix loop");
        assert!(headline.contains("solved"), "{headline}");
        b.run("window.scrollTo(0, 0)");
        b.screenshot("tantrix-solve.png");
        // A long run shows its stage and progress while it runs, and the words change: Gunport
        // 19×19 at 119 holes by the budget program, reporting its rows; then stopped.
        b.choose("puzzle", "gunport");
        b.type_into("#words", "19 19");
        b.choose("verb", "reach");
        b.type_into("#at-least", "119");
        b.run("const m = document.querySelector('#opts [data-flag=\"method\"]'); m.value = 'exact'; m.dispatchEvent(new Event('change'));");
        b.type_into("#limit", "60");
        b.click("#go");
        let mut seen = std::collections::BTreeSet::new();
        let started = Instant::now();
        while seen.len() < 3 && started.elapsed() < Duration::from_secs(40) {
            let h = b.run("return document.getElementById('headline').textContent");
            let h = h.as_str().unwrap_or("").to_string();
            if let Some((_, what)) = h.split_once(" — ") {
                seen.insert(what.to_string());
            }
            std::thread::sleep(Duration::from_millis(300));
        }
        b.run("window.scrollTo(0, 0)");
        b.screenshot("gunport-progress.png");
        b.click("#stop");
        b.wait_for(
            "return document.getElementById('go').disabled === false",
            "the stopped run's answer",
        );
        assert!(
            seen.len() >= 3 && seen.iter().any(|s| s.contains("row program: row")),
            "the page did not show the run's progress changing: {seen:?}"
        );
    }
}

/// Clicks the place `at` of the drawn board and waits until the board is drawn again with
/// `value` there.
fn click_place(b: &Browser, at: &str, value: &str) {
    b.click(&format!("#board [data-at=\"{at}\"]"));
    b.wait_for(
        &format!(
            "const e = document.querySelector('#board [data-at=\"{at}\"]'); return e !== null && e.dataset.value === '{value}'"
        ),
        &format!("{at} drawn as '{value}'"),
    );
}

/// Types `value` into the board's field `at` and leaves it, as a person would.
fn set_field(b: &Browser, at: &str, value: &str) {
    b.run(&format!(
        "const i = document.querySelector('#board-fields input[data-at=\"{at}\"]'); i.value = '{value}'; i.dispatchEvent(new Event('change'));"
    ));
}

/// Waits until the board is drawn with `places` marked places.
fn board_drawn(b: &Browser, places: usize, what: &str) {
    b.wait_for(
        &format!("return document.getElementById('board').dataset.state === 'drawn' && document.querySelectorAll('#board svg .edit').length === {places}"),
        what,
    );
}

quandary_probe::needs_chromium! {
    #[test]
    fn every_puzzle_is_edited_on_its_drawn_board() {
        let Some(page) = open_page() else { return };
        let b = &page.b;
        let js = |s: &str| b.run(s);
        // Tank Attack 5×5: a given 4 at (1,2), clicked on (four clicks: 1, 2, 3, 4), makes
        // the board unique (tests/tank/ counts it by brute force).
        b.choose("puzzle", "tank");
        b.type_into("#words", "5");
        board_drawn(b, 25, "the 5×5 board");
        for v in ["1", "2", "3", "4"] {
            click_place(b, "cell 1,2", v);
        }
        assert_eq!(js("return puzzleOpts.fix"), json!("1,2=4"));
        // Its options are labelled in words, the givens are on the board, not a field.
        let labels = js("return [...document.querySelectorAll('#opts label')].map((l) => l.textContent).join('|')");
        let labels = labels.as_str().unwrap_or_default();
        assert!(!labels.split('|').any(|l| l.starts_with("--")), "{labels}");
        assert!(labels.contains("Which method answers"), "{labels}");
        assert_eq!(js("return document.querySelector('#opts [data-flag=\"fix\"]')"), json!(null));
        b.choose("verb", "unique");
        let headline = b.run_and_read("unique with the given");
        assert!(headline.contains("1 given") && headline.contains("unique"), "{headline}");
        b.element_screenshot("#edit", "edit-tank.png");
        // The link holds the board and the question: opened afresh it shows them, and Run
        // answers.
        let link = js("return location.href");
        let link = link.as_str().expect("the address").to_string();
        assert!(link.starts_with(&page.url) && link.contains("#state="), "{link}");
        // Undo takes the given back a step at a time; redo puts it back.
        b.click("#undo");
        b.wait_for("return puzzleOpts.fix === '1,2=3'", "undo: the given back to 3");
        b.click("#undo");
        b.wait_for("return puzzleOpts.fix === '1,2=2'", "undo: 2");
        b.click("#redo");
        b.wait_for("return puzzleOpts.fix === '1,2=3'", "redo: 3");
        b.goto("about:blank");
        b.goto(&link);
        // Opened, it draws the board and asks its question only when Run is pressed.
        b.wait_for(
            "return document.getElementById('puzzle').value === 'tank' && document.getElementById('headline').textContent.includes('press Run')",
            "the shared link's board, its question waiting",
        );
        let headline = b.run_and_read("the shared link's answer");
        assert!(headline.contains("unique"), "{headline}");
        assert_eq!(js("return document.getElementById('words').value"), json!("5"));
        assert_eq!(js("return puzzleOpts.fix"), json!("1,2=4"));
        board_drawn(b, 25, "the shared link's board");
        assert_eq!(
            js("return document.querySelector('#board [data-at=\"cell 1,2\"]').dataset.value"),
            json!("4")
        );
        // Keys: with the pointer on a cell, Delete takes its given away.
        b.run("hovered = document.querySelector('#board [data-at=\"cell 1,2\"]'); document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Delete'}));");
        b.wait_for("return puzzleOpts.fix === undefined", "the given deleted by a key");
        // Without it, the check finds several boards; what they share and how many come
        // from one exact search (`forced` counts the boards it met), not a second for `count`.
        b.wait_for(
            "const s = document.getElementById('check-status'); return s.dataset.done === '1' && s.dataset.state === 'several'",
            "the 5×5 board without givens checked",
        );
        assert_eq!(js("return document.getElementById('check-status').dataset.count"), json!("2"));
        assert_eq!(
            js("return document.getElementById('check-status').dataset.asked"),
            json!("unique,forced")
        );

        // Gunport 3×4 with a hole fixed in its corner: 4 holes at most (brute force in
        // tests/gunport.rs agrees with the command line).
        b.choose("puzzle", "gunport");
        b.type_into("#words", "3 4");
        board_drawn(b, 12, "the 3×4 board");
        click_place(b, "cell 1,1", "hole");
        assert_eq!(js("return puzzleOpts.fix"), json!("1,1=hole"));
        // An option only `count` reads is offered under `count` only.
        b.choose("verb", "count");
        let offered = "return document.querySelector('#opts [data-flag=\"up-to-symmetry\"]') !== null";
        assert_eq!(b.run(offered), json!(true));
        b.choose("verb", "solve");
        assert_eq!(b.run(offered), json!(false));
        let headline = b.run_and_read("Gunport with a hole given");
        assert!(headline.contains("1 given") && headline.contains("4 holes"), "{headline}");
        // A size changed in its field redraws the board at once, keeping the given.
        set_field(b, "cols", "5");
        b.wait_for("return document.querySelectorAll('#board .edit').length === 15", "a 3×5 board");
        assert_eq!(js("return document.getElementById('words').value"), json!("3 5"));
        // The check's forced places: the six cells covered in every packing shaded as a
        // piece's (and saying so on hover), not marked with a symbol; the given hole not
        // marked again (`gunport forced 3 5 --fix 1,1=hole` prints them).
        b.wait_for(
            "const s = document.getElementById('check-status'); return s.dataset.done === '1' && s.dataset.state === 'several' && document.getElementById('words').value === '3 5'",
            "the 3×5 board with its hole checked",
        );
        assert_eq!(
            js("return [...document.querySelectorAll('#board svg rect.mark')].filter((r) => r.textContent === 'covered in every solution').length"),
            json!(6)
        );
        assert_eq!(js("return document.querySelectorAll('#board svg text.mark').length"), json!(0));
        b.element_screenshot("#edit", "edit-gunport.png");

        // Chess: the seed's board with a square cut out by a click, and a knight fewer.
        b.choose("puzzle", "chess");
        board_drawn(b, 15, "the seed's chess board");
        click_place(b, "cell 2,1", "#");
        let text = js("return document.getElementById('text').value");
        assert_eq!(text, json!("#..##\n#....\n.....\n"));
        set_field(b, "army N", "1");
        b.wait_for("return puzzleOpts.army === 'B4N1'", "the army B4N1");
        b.choose("verb", "solve");
        let headline = b.run_and_read("the edited chess board solved");
        assert!(headline.contains("army B4N1"), "{headline}");
        b.element_screenshot("#edit", "edit-chess.png");

        // Battleship: the puzz.link example; the '<' at row 4, column 1 clicked back to no
        // clue (six clicks: > ^ v + # .) leaves several solutions, as the workbench says.
        b.choose("puzzle", "battleship");
        b.type_into("#words", "");
        b.type_into("#text", "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c");
        board_drawn(b, 48, "the puzz.link example drawn, its counts too");
        // A redraw asked for just after a click (the typing pausing, say) keeps the click:
        // the second request reads the input once the click's change is written back.
        b.run("document.querySelector('#board [data-at=\"cell 4,1\"]').dispatchEvent(new MouseEvent('click', {bubbles: true})); sketch();");
        b.wait_for(
            "const e = document.querySelector('#board [data-at=\"cell 4,1\"]'); return document.getElementById('board').dataset.seq === String(sketchSeq) && e !== null && e.dataset.value === '>'",
            "the click kept under a redraw asked for at once",
        );
        for v in ["^", "v", "+", "#", "."] {
            click_place(b, "cell 4,1", v);
        }
        // With `unique --difficulty` ticked, the workbench's other checks (count, forced),
        // which do not read it, still run: each is sent only the options it reads.
        b.choose("verb", "unique");
        b.click("#opts [data-flag=\"difficulty\"]");
        b.wait_for(
            "const s = document.getElementById('check-status'); return s.dataset.done === '1' && s.dataset.state === 'several' && s.dataset.count !== ''",
            "the check counted with --difficulty ticked",
        );
        // Its counts are places too: six beside the rows, six below the columns.
        assert_eq!(
            js("return document.querySelectorAll('#board [data-at^=\"row \"], #board [data-at^=\"col \"]').length"),
            json!(12)
        );
        b.choose("verb", "unique");
        let headline = b.run_and_read("Battleship edited");
        assert!(headline.contains("not unique"), "{headline}");
        b.element_screenshot("#edit", "edit-battleship.png");
        // A shipped puzzle chosen from the list is checked by the workbench as a pasted one
        // is (the page used to send the file's name as the puzzle's text).
        b.choose("shipped", "data/battleship/sb_12_12_6_0.dzn");
        board_drawn(b, 12 * 12 + 24, "the shipped 12×12 puzzle drawn, its counts too");
        b.wait_for(
            "const s = document.getElementById('check-status'); return s.dataset.done === '1' && ['unique', 'several', 'none'].includes(s.dataset.state)",
            "the workbench's answer for the shipped puzzle",
        );
        // A puzzle pasted while the size box still holds the example's URL replaces it (the
        // two together were "got 2 words", and the board went away).
        b.choose("puzzle", "battleship");
        assert!(
            js("return document.getElementById('words').value").as_str().unwrap_or("").contains("puzz.link"),
            "the example's URL in the size box"
        );
        b.type_into("#text", "size 5 5\nfleet 2 1\n");
        board_drawn(b, 25 + 10, "the pasted 5×5 board, a blank one of its size and fleet");
        assert_eq!(js("return document.getElementById('words').value"), json!(""));
        // The pointer on the board takes the keys from the paste box that still has the focus
        // (they were typed into the puzzle's text).
        assert_eq!(js("return document.activeElement.id"), json!("text"));
        js("document.querySelector('#board [data-at=\"cell 1,1\"]').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))");
        assert_eq!(js("return document.activeElement.id === 'text'"), json!(false));
        // Another puzzle chosen: the answer of this one is not left beside its board.
        b.choose("puzzle", "gunport");
        assert_eq!(js("return document.getElementById('picture').innerHTML"), json!(""));
        b.choose("puzzle", "battleship");
        b.type_into("#text", "size 5 5\nfleet 2 1\n");
        board_drawn(b, 25 + 10, "the blank 5×5 board again");
        // Counts typed on one row and then the next, within the moment that gathers digits
        // into a number: each kept ("1" then "4" became "14", refused and lost).
        b.run("hovered = document.querySelector('#board [data-at=\"row 1\"]'); document.dispatchEvent(new KeyboardEvent('keydown', {key: '1'})); hovered = document.querySelector('#board [data-at=\"row 2\"]'); document.dispatchEvent(new KeyboardEvent('keydown', {key: '4'}));");
        b.wait_for(
            "const a = document.querySelector('#board [data-at=\"row 1\"]'), c = document.querySelector('#board [data-at=\"row 2\"]'); return a !== null && c !== null && a.dataset.value === '1' && c.dataset.value === '4'",
            "row 1 counted 1 and row 2 counted 4",
        );

        // Tantrix: three places pasted, a fourth added by clicking beside them: challenge 4.
        b.choose("puzzle", "tantrix");
        b.type_into("#words", "");
        b.type_into("#text", "0,0\n1,0\n0,1\n");
        b.wait_for(
            "return document.querySelectorAll('#board [data-value=\"in\"]').length === 3",
            "three places drawn",
        );
        click_place(b, "hex 1,-1", "in");
        b.choose("verb", "solve");
        let headline = b.run_and_read("Tantrix on the grown board");
        assert!(headline.contains("challenge 4") && headline.contains("solved"), "{headline}");
        b.element_screenshot("#edit", "edit-tantrix.png");
        // A file of the user's, opened: read by the page and drawn (chess: the seed's board).
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/chess/friedman-b4n2.txt");
        b.choose("puzzle", "chess");
        let input = b.element("#file");
        b.call(
            "POST",
            &format!("/element/{input}/value"),
            json!({ "text": file.to_string_lossy() }),
        );
        b.wait_for(
            "return document.getElementById('text').value.includes('army: B4N2') && document.querySelectorAll('#board .edit').length === 15",
            "the opened file drawn",
        );
        b.choose("puzzle", "tantrix");
        // A shipped board, chosen from the list: drawn with its fifteen places.
        b.choose("shipped", "data/tantrix/boards/free-15.txt");
        b.wait_for(
            "return document.querySelectorAll('#board [data-value=\"in\"]').length === 15",
            "the shipped board drawn",
        );
        assert_eq!(
            b.run("return document.getElementById('words').value"),
            json!("data/tantrix/boards/free-15.txt")
        );
    }
}
