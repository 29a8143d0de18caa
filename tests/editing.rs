//! Boards edited by clicks (`Puzzle::sketch`, `Puzzle::edit`, what the page's board sends):
//! every marked place of every puzzle's example set to each of its choices comes back, read
//! again by the puzzle's own reader, showing that choice; sizes and counts likewise; edits
//! that cannot be made are refused naming the place; random places and values never panic.

use quandary::input::Files;
use quandary::runner::registry::{self, Entry, OptionsIn};
use serde_json::{json, Value};
use std::collections::HashMap;

mod common;
use common::{places, Place};

/// A board as drawn: its title, its places, its fields (name, value).
type Drawn = (String, Vec<Place>, Vec<(String, i64)>);

/// An input as the page holds it: words, the pasted text, the options by flag name.
#[derive(Clone, Debug)]
struct Input {
    words: Vec<String>,
    text: String,
    options: Value,
}

impl Input {
    fn of(words: &[&str]) -> Input {
        Input {
            words: words.iter().map(|w| w.to_string()).collect(),
            text: String::new(),
            options: json!({}),
        }
    }
    fn files(&self) -> (Vec<String>, HashMap<String, String>) {
        let mut words = self.words.clone();
        let files = match self.text.is_empty() {
            true => HashMap::new(),
            false => quandary::input::text_as_input(self.text.clone(), &mut words),
        };
        (words, files)
    }
    fn sketch(&self, e: &dyn Entry) -> quandary::error::Result<Drawn> {
        let (words, files) = self.files();
        let (title, s) = e
            .sketch(&words, Files::Only(&files), OptionsIn::Json(&self.options))?
            .expect("a board to edit");
        let fields = s.fields.iter().map(|f| (f.at.clone(), f.value)).collect();
        Ok((title, places(&s.svg), fields))
    }
    fn edit(&self, e: &dyn Entry, at: &str, value: &str) -> quandary::error::Result<Input> {
        let (words, files) = self.files();
        let i = e.edit(
            &words,
            Files::Only(&files),
            OptionsIn::Json(&self.options),
            at,
            value,
        )?;
        let mut options = self.options.clone();
        for (flag, v) in i.options {
            match v {
                Some(v) => options[&flag] = json!(v),
                None => {
                    options.as_object_mut().unwrap().remove(&flag);
                }
            }
        }
        Ok(Input {
            words: i.words,
            text: i.text,
            options,
        })
    }
}

fn entry(name: &str) -> &'static dyn Entry {
    registry::find(name).expect(name)
}

/// The inputs every puzzle's board is tried on: each registered puzzle's example, or a
/// smaller input of the same puzzle where its example is large; and one more chess board
/// (an army given as an option). A puzzle registered later is tried on its example.
fn starts() -> Vec<(&'static str, Input)> {
    let mut tantrix = Input::of(&[]);
    tantrix.text = "0,0\n1,0\n0,1\n1,-1\n".into();
    let mut chess = Input::of(&["3x4"]);
    chess.options = json!({"army": "N2"});
    let smaller = [
        ("tank", Input::of(&["4"])),
        ("gunport", Input::of(&["3", "4"])),
        ("tantrix", tantrix),
    ];
    for (name, _) in &smaller {
        entry(name);
    }
    let mut all: Vec<(&'static str, Input)> = registry::PUZZLES
        .iter()
        .map(|e| match smaller.iter().find(|(n, _)| *n == e.name()) {
            Some((_, input)) => (e.name(), input.clone()),
            None => (e.name(), Input::of(e.example())),
        })
        .collect();
    all.push(("chess", chess));
    all
}

#[test]
fn every_place_set_to_every_choice_reads_back_as_that_choice() {
    for (name, start) in starts() {
        let e = entry(name);
        let (_, before, _) = start.sketch(e).expect("the start draws");
        assert!(!before.is_empty(), "{name}: no places");
        let mut made = 0;
        for p in &before {
            assert!(
                p.choices.contains(&p.value),
                "{name} {}: value {:?} not among {:?}",
                p.at,
                p.value,
                p.choices
            );
            for c in &p.choices {
                let edited = match start.edit(e, &p.at, c) {
                    Ok(i) => i,
                    Err(err) => panic!("{name}: {} = {c:?} refused: {err}", p.at),
                };
                // The reader takes the written input back, and the place shows the choice
                // (a Gunport domino given at its left end or top is one of them).
                let (_, after, _) = edited
                    .sketch(e)
                    .unwrap_or_else(|err| panic!("{name}: {} = {c:?} reads back as: {err}", p.at));
                let now = after.iter().find(|q| q.at == p.at);
                match now {
                    Some(q) => assert_eq!(&q.value, c, "{name}: {} set to {c:?}", p.at),
                    // A Tantrix place taken off the board is a place beside it now, unless
                    // nothing of the board is left next to it.
                    None => assert!(name == "tantrix" && c == "out", "{name}: {} is gone", p.at),
                }
                // Nothing else changed.
                for q in &before {
                    if q.at == p.at {
                        continue;
                    }
                    if let Some(r) = after.iter().find(|r| r.at == q.at) {
                        assert_eq!(
                            r.value, q.value,
                            "{name}: {} = {c:?} changed {}",
                            p.at, q.at
                        );
                    }
                }
                made += 1;
            }
        }
        assert!(made > before.len(), "{name}: {made} edits");
    }
}

#[test]
fn sizes_and_counts_are_fields_that_resize_and_keep_what_fits() {
    // Tank: a given, then the board shrunk under it and grown again.
    let tank = entry("tank");
    let four = Input::of(&["4"]).edit(tank, "cell 4,4", "3").unwrap();
    assert_eq!(four.options["fix"], json!("4,4=3"));
    let five = four.edit(tank, "size", "5").unwrap();
    assert_eq!(five.words, ["5"]);
    assert_eq!(five.options["fix"], json!("4,4=3"));
    let three = five.edit(tank, "size", "3").unwrap();
    assert!(three.options.get("fix").is_none(), "{:?}", three.options);
    let (title, places, fields) = three.sketch(tank).unwrap();
    assert_eq!(title, "Tank Attack 3×3");
    assert_eq!(places.len(), 9);
    assert_eq!(fields, [("size".to_string(), 3)]);
    // Chess: columns added to the seed's board keep its holes; the army counted per piece.
    let chess = entry("chess");
    let seed = Input::of(&["data/chess/friedman-b4n2.txt"]);
    let wide = seed.edit(chess, "cols", "6").unwrap();
    assert_eq!(wide.text, "#..##.\n......\n......\n");
    assert_eq!(wide.options["army"], json!("B4N2"));
    let more = wide.edit(chess, "army Q", "1").unwrap();
    assert_eq!(more.options["army"], json!("Q1B4N2"));
    let (title, _, fields) = more.sketch(chess).unwrap();
    assert_eq!(title, "Chess avoidance 3×6, army Q1B4N2");
    assert!(fields.contains(&("army Q".to_string(), 1)), "{fields:?}");
    // Battleship: a ship of length 4 added to the fleet; rows cut keep the clues above.
    let bs = entry("battleship");
    let url = Input::of(&["https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c"]);
    let fleet = url.edit(bs, "fleet 4", "1").unwrap();
    assert!(fleet.text.contains("fleet 3 2 1 1\n"), "{}", fleet.text);
    let short = fleet.edit(bs, "rows", "5").unwrap();
    assert!(
        short.text.contains("size 5 6\n") && short.text.contains("rows ? 3 0 ? 3\n"),
        "{}",
        short.text
    );
    let (_, places, _) = short.sketch(bs).unwrap();
    let clue = places.iter().find(|p| p.at == "cell 4,1").unwrap();
    assert_eq!(clue.value, "<");
}

#[test]
fn edits_that_cannot_be_made_are_refused_naming_the_place() {
    let cases: &[(&str, Input, &str, &str, &str)] = &[
        ("tank", Input::of(&["4"]), "cell 1,1", "4", "cell 1,1"),
        ("tank", Input::of(&["4"]), "cell 5,1", "1", "cell 5,1"),
        ("tank", Input::of(&["4"]), "size", "41", "size"),
        ("tank", Input::of(&["4"]), "colour", "red", "colour"),
        (
            "gunport",
            Input::of(&["3", "4"]),
            "cell 1,4",
            "right",
            "cell 1,4",
        ),
        (
            "gunport",
            Input::of(&["3", "4"]),
            "cell 3,1",
            "down",
            "cell 3,1",
        ),
        ("gunport", Input::of(&["3", "4"]), "cell 1,1", "lid", "lid"),
        ("gunport", Input::of(&["3", "4"]), "rows", "0", "rows"),
        ("chess", army(&["4"]), "cell 1,1", "P", "'P'"),
        ("chess", army(&["4"]), "army X", "1", "army X"),
        ("chess", army(&["64"]), "rows", "65", "rows"),
        (
            "battleship",
            Input::of(&["https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c"]),
            "row 1",
            "7",
            "row 1",
        ),
        (
            "battleship",
            Input::of(&["https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c"]),
            "cell 1,1",
            "x",
            "cell 1,1",
        ),
        (
            "battleship",
            Input::of(&["https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c"]),
            "col 9",
            "1",
            "col 9",
        ),
    ];
    for (name, input, at, value, named) in cases {
        let err = input
            .edit(entry(name), at, value)
            .err()
            .unwrap_or_else(|| panic!("{name}: {at} = {value} was made"));
        assert!(
            err.to_string().contains(named),
            "{name}: {at} = {value}: {err}"
        );
    }
    // A Tantrix place far from the board is not added; a board of three (challenge 3, the
    // smallest) loses none.
    let mut three = Input::of(&[]);
    three.text = "0,0\n1,0\n0,1\n".into();
    let t = entry("tantrix");
    let far = three.edit(t, "hex 5,5", "in").unwrap_err().to_string();
    assert!(far.contains("not next to"), "{far}");
    let small = three.edit(t, "hex 0,0", "out").unwrap_err().to_string();
    assert!(small.contains("at least 3"), "{small}");
    // The largest board, 4,096 squares, grows no more.
    assert!(army(&["32x64"]).edit(entry("chess"), "rows", "64").is_ok());
    assert!(army(&["64x64"]).edit(entry("chess"), "cols", "65").is_err());
    // A piece fixed by a click joins the army.
    let fixed = army(&["4"]).edit(entry("chess"), "cell 2,2", "Q").unwrap();
    assert_eq!(fixed.options["army"], json!("Q1N1"));
    assert_eq!(fixed.text, "....\n.Q..\n....\n....\n");
}

/// An open chess board with one knight to place.
fn army(words: &[&str]) -> Input {
    let mut i = Input::of(words);
    i.options = json!({"army": "N1"});
    i
}

/// A tiny generator, so that the test needs no crate: xorshift.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &'a [&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

#[test]
fn random_edits_never_panic_and_every_accepted_one_reads_back() {
    let ats = [
        "cell 1,1",
        "cell 0,0",
        "cell 2,3",
        "cell 99,1",
        "cell -1,2",
        "cell 1",
        "cell a,b",
        "size",
        "rows",
        "cols",
        "row 1",
        "row 0",
        "col 3",
        "col 99",
        "fleet 1",
        "fleet 0",
        "fleet 999",
        "army Q",
        "army QQ",
        "army ",
        "hex 1,-1",
        "hex 0,0",
        "hex 99999999999,0",
        "",
        "cell 1,1,1",
        "cell ١,١",
    ];
    let values = [
        "",
        "1",
        "2",
        "3",
        "0",
        "-1",
        "99999999999999999999",
        "hole",
        "covered",
        "right",
        "down",
        "#",
        ".",
        "~",
        "<",
        "o",
        "Q",
        "K",
        "in",
        "out",
        "?",
        "1e3",
        " 2 ",
        "\u{0}",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (name, start) in starts() {
        let e = entry(name);
        let mut input = start;
        let mut accepted = 0;
        for k in 0..300 {
            // Every other edit a marked place of the board as drawn now, set to one of its
            // choices (a walk over the board); the others, junk.
            let (at, value) = if k % 2 == 0 {
                let (_, places, _) = input.sketch(e).expect("the walk's board draws");
                let p = &places[(rng.next() % places.len() as u64) as usize];
                let c = &p.choices[(rng.next() % p.choices.len() as u64) as usize];
                (p.at.clone(), c.clone())
            } else {
                (rng.pick(&ats).to_string(), rng.pick(&values).to_string())
            };
            if let Ok(next) = input.edit(e, &at, &value) {
                // What an edit writes, the reader takes back, or refuses by name (a Tantrix
                // board left with a place beside none), never by a panic.
                if next.sketch(e).is_ok() {
                    input = next;
                    accepted += 1;
                }
            }
        }
        // The random places and values hit real ones often enough to walk the board.
        assert!(
            accepted >= 100,
            "{name}: {accepted} of 300 random edits made"
        );
    }
}
