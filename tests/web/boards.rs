//! The page's boards through the API: a workbench board keeps its engines between edits, and a board is drawn and edited (`POST /api/board`).

use super::*;

/// The workbench's own call: one board's engines answer its edits, each edit from what the
/// ones before learned; names of boards are checked; a fifth board evicts the one used least
/// recently; a newer edit of a board stops the check of an older one.
#[test]
fn a_workbench_board_keeps_its_engines_between_edits() {
    let server = Server::start(&[]);
    let bench = |v: Value| {
        let (code, body) = server.request("POST", "/api/bench", v.to_string().as_bytes());
        let r: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        (code, r)
    };
    let example = "size 6 6\nfleet 3 2 1\nrows ? 3 0 ? 3 ?\ncols ? 1 2 ? ? 2\ngrid\n. . . . . ~\n......\n......\n< . . . . .\n......\n......\n";
    let without = example.replace("< . . . . .", ". . . . . .");
    let (code, r) = bench(json!({"puzzle": "battleship", "board": "one", "text": example}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["unique"], true, "{r}");
    assert!(r["details"]["built"].as_u64().unwrap() >= 1, "{r}");
    assert_eq!(r["details"]["forced"].as_array().unwrap().len(), 36, "{r}");
    // The spare clues are those the command line's `redundant` finds.
    let (_, cold) =
        server.run(json!({"puzzle": "battleship", "verb": "redundant", "text": example}));
    assert_eq!(
        r["details"]["redundant"], cold["solution"]["redundant"],
        "{r}"
    );
    let (_, r) = bench(json!({"puzzle": "battleship", "board": "one", "text": without}));
    assert_eq!(r["unique"], false, "{r}");
    assert_eq!(r["details"]["built"], 0, "{r}");
    // Row 3 holds no ship: forced water there.
    let forced = r["details"]["forced"].as_array().unwrap();
    for col in 1..=6 {
        assert!(
            forced.contains(&json!({"row": 3, "col": col, "ship": false})),
            "{r}"
        );
    }
    // Back to the example: answered from what the first edit proved, with no solve.
    let (_, r) = bench(json!({"puzzle": "battleship", "board": "one", "text": example}));
    assert_eq!(r["unique"], true, "{r}");
    assert_eq!(r["details"]["solves"], 0, "{r}");
    assert!(r["details"]["remembered"].as_u64().unwrap() > 0, "{r}");
    // Names, texts and limits are checked.
    let long = "x".repeat(65);
    for bad in [
        json!({"board": "", "text": example}),
        json!({"board": "a b", "text": example}),
        json!({"board": long, "text": example}),
        json!({"board": 7, "text": example}),
        json!({"board": "one"}),
        json!({"puzzle": "battleship", "board": "one", "text": "size 6"}),
        json!({"puzzle": "battleship", "board": "one", "text": example, "time_limit": -1}),
    ] {
        let (code, r) = bench(bad.clone());
        assert_eq!(code, 400, "{bad}: {r}");
        assert!(r["error"].as_str().is_some_and(|e| !e.is_empty()), "{r}");
    }
    // Four more boards evict the first: its next edit builds engines again.
    for k in 0..4 {
        let (code, _) =
            bench(json!({"puzzle": "battleship", "board": format!("b{k}"), "text": example}));
        assert_eq!(code, 200);
    }
    let (_, r) = bench(json!({"puzzle": "battleship", "board": "one", "text": example}));
    assert!(r["details"]["built"].as_u64().unwrap() >= 1, "{r}");
    // A 30×20 puzzle with spare clues takes seconds to check; a newer edit of the same
    // board stops it and is answered.
    let big = include_str!("../../data/battleship/generated/30x20-seed6.txt");
    let older = std::thread::scope(|s| {
        let first = s.spawn(|| {
            bench(json!({"puzzle": "battleship", "board": "big", "text": big, "time_limit": 30, "id": "older"}))
        });
        // The newer edit comes while the older check is going (the server says so).
        server.wait_going("older");
        let (code, r) = bench(
            json!({"puzzle": "battleship", "board": "big", "text": without, "time_limit": 30}),
        );
        assert_eq!(code, 200, "{r}");
        assert_eq!(r["unique"], false, "{r}");
        first.join().unwrap()
    });
    assert_eq!(older.0, 200, "{}", older.1);
    let d = &older.1["details"];
    assert!(
        older.1["status"] == "unknown" || d["clues_checked"] != d["clues"],
        "the older check was stopped: {}",
        older.1
    );
    // By the check's own clock, well before its 30 s limit.
    let seconds = older.1["stats"]["seconds"].as_f64().unwrap_or(0.0);
    assert!(seconds < 20.0, "the older check ran {seconds} s");
    // A puzzle that keeps no boards is refused, naming those that do.
    let (code, r) = bench(json!({"puzzle": "tank", "board": "t", "text": "5"}));
    assert_eq!(code, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("battleship"), "{r}");
}

/// The page's board: `POST /api/board` draws an input with its places marked, and an edit
/// comes back as the input the page then holds (words, text, the options it set), read again
/// by the puzzle's reader; the options may be flags (`args`) or JSON; an edit the puzzle
/// cannot make, or a field the request does not take, is a 400 naming it; files stay out of
/// reach.
#[test]
fn the_board_is_drawn_and_edited_through_the_api() {
    let server = Server::start(&[]);
    let board = |v: Value| {
        let (code, body) = server.request("POST", "/api/board", v.to_string().as_bytes());
        (code, serde_json::from_str::<Value>(&body).expect("JSON"))
    };
    // An open chess board with no army yet, as the page's hint offers (`5x5`): drawn with its
    // army counts at 0 to fill in (it was refused, "no army given", with nothing to fill);
    // a count set on the board makes an army a question can be asked of.
    let (code, r) = board(json!({"puzzle": "chess", "words": ["5x5"]}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(
        r["svg"].as_str().unwrap().matches("class=\"edit\"").count(),
        25,
        "{r}"
    );
    let queens = r["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["at"] == "army Q")
        .cloned();
    assert_eq!(queens.map(|f| f["value"].clone()), Some(json!(0)), "{r}");
    let (code, r) =
        board(json!({"puzzle": "chess", "words": ["5x5"], "edit": {"at": "army Q", "value": "5"}}));
    assert_eq!((code, &r["set"]), (200, &json!({"army": "Q5"})), "{r}");
    let (code, r) = server.run(json!({"puzzle": "chess", "verb": "solve", "words": ["5x5"]}));
    assert_eq!(code, 400, "{r}");
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("the page's counts beside the board"),
        "{r}"
    );
    // A Tank Attack given, as one word holding the givens and as a list.
    for options in [
        json!({"options": {"fix": ["1,1=2"]}}),
        json!({"options": {"fix": "1,1=2"}}),
    ] {
        let mut req =
            json!({"puzzle": "tank", "words": ["5"], "edit": {"at": "cell 1,2", "value": "4"}});
        for (k, v) in options.as_object().unwrap() {
            req[k] = v.clone();
        }
        let (code, r) = board(req);
        assert_eq!(code, 200, "{r}");
        assert_eq!(r["set"], json!({"fix": "1,1=2 1,2=4"}));
        assert_eq!(r["words"], json!(["5"]));
        assert_eq!(r["title"], json!("Tank Attack 5×5, 2 givens"));
        assert!(r["svg"]
            .as_str()
            .unwrap()
            .contains("data-at=\"cell 1,2\" data-value=\"4\""));
        assert_eq!(r["owns"], json!(["fix"]));
    }
    // The chess example: a hole cut, written back as the board's text.
    let (code, r) = board(
        json!({"puzzle": "chess", "words": ["data/chess/friedman-b4n2.txt"],
        "edit": {"at": "cell 3,5", "value": "#"}}),
    );
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["text"], json!("#..##\n.....\n....#\n"));
    assert_eq!(r["set"], json!({"army": "B4N2"}));
    // Refused, by name: a value off the range, a domino off the board, an unknown field, a
    // file name.
    for (req, says) in [
        (
            json!({"puzzle": "tank", "words": ["5"], "edit": {"at": "cell 1,2", "value": "5"}}),
            "cell 1,2",
        ),
        (
            json!({"puzzle": "gunport", "words": ["3", "4"], "edit": {"at": "cell 1,4", "value": "right"}}),
            "leave the board",
        ),
        (
            json!({"puzzle": "tank", "words": ["5"], "edit": {"at": "cell 1,2"}}),
            "\"edit\" must be",
        ),
        (
            json!({"puzzle": "tank", "words": ["5"], "edits": []}),
            "edits",
        ),
        // Inside `edit` too, a field it does not take is refused (it was ignored).
        (
            json!({"puzzle": "tank", "words": ["5"], "edit": {"at": "cell 1,2", "value": "4", "vaule": "3"}}),
            "unknown field \"vaule\" in \"edit\"",
        ),
        (
            json!({"puzzle": "chess", "words": ["/etc/passwd"]}),
            "no such input here",
        ),
        (
            json!({"puzzle": "tantrix", "words": [], "options": {"challenge": 5}}),
            "no board to draw",
        ),
        // Too large to draw for every click: a 150×150 Battleship board. (Tantrix boards stop
        // at 1,000 places, challenge 1,000, in the reader: 7,000 places with the dashed ones.)
        (
            json!({"puzzle": "battleship", "text": format!("size 150 150\nfleet 1\nrows {}\ncols {}\n", "? ".repeat(150), "? ".repeat(150))}),
            "more than 10000 places",
        ),
    ] {
        let (code, r) = board(req.clone());
        assert_eq!(code, 400, "{req}: {r}");
        assert!(
            r["error"].as_str().unwrap_or("").contains(says),
            "{req}: {r}"
        );
    }
}
