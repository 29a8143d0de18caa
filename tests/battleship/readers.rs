//! Battleship's file formats: the published sets unique by two formulations, Boats game IDs, Essence parameters and puzz.link URLs read back, and wrong ones named.

use super::*;

/// Demystify's Essence′ parameter files (`letting hint be [...]`) read as the same puzzle
/// written in our own format, by hand, from the codes its model states (0 water, 1 circle,
/// 2 middle, 3 top, 4 bottom, 5 right, 6 left, 7 no hint).
#[test]
fn an_essence_parameter_file_reads_as_the_same_puzzle_in_our_format() {
    let essence = "language ESSENCE' 1.0\n$ a comment\nletting LARGEST be 3\n\
        letting width be 5\nletting height be 4\nletting num_types be [2,1,1]\n\
        letting column_tallies be [1,1,1,2,2]\nletting row_tallies be [3,1,0,3]\n\
        letting hint be [ [6,7,7,7,1],\n [7,7,0,7,7],\n [7,7,7,7,7],\n [7,3,4,5,2] ]\n";
    let ours = "size 4 5\nfleet 2 1 1\nrows 3 1 0 3\ncols 1 1 1 2 2\ngrid\n\
        < . . . o\n. . ~ . .\n. . . . .\n. ^ v > +\n";
    let (format, a) = formats::parse(essence, None).expect("Essence′ parameters read");
    assert_eq!(format, formats::Format::Essence);
    let (_, b) = formats::parse(ours, None).expect("our format reads");
    assert_eq!(a, b);
}

/// Each puzzle of `data/battleship/{dir}` (files ending in `ext`, `count` of them, read as
/// `format`) is unique, by two formulations, and its solution passes the verifier.
fn published_set_is_unique(dir: &str, ext: &str, count: usize, format: formats::Format) {
    let path = format!("{}/data/battleship/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<_> = std::fs::read_dir(&path)
        .unwrap()
        .map(|e| format!("{dir}/{}", e.unwrap().file_name().into_string().unwrap()))
        .filter(|n| n.ends_with(ext))
        .collect();
    names.sort();
    assert_eq!(names.len(), count, "{names:?}");
    each_is_unique(&names, format);
}

/// Each of the puzzles `names` (under `data/battleship/`, read as `format`) is unique, by two
/// formulations, and its solution passes the verifier.
fn each_is_unique(names: &[String], format: formats::Format) {
    for name in names {
        let (read_as, p) = formats::parse(&data(name), None).expect("parses");
        assert_eq!(read_as, format, "{name}");
        let runs = unique_solution(&p, Formulation::Runs);
        let cell = unique_solution(&p, Formulation::Cell);
        assert_eq!(runs.occupied(), cell.occupied(), "{name}");
        assert!(verify::verify(&p, &runs.occupied()).is_ok(), "{name}");
    }
}

/// The published puzzles Demystify explains (data/battleship/demystify: conceptis,
/// dkmgames, puzzler.com, tectonicpuzzel and one of Savile Row's; three of them with hint 8,
/// a ship part of no kind).
#[test]
fn the_demystify_puzzles_are_unique_by_two_formulations() {
    published_set_is_unique("demystify", ".param", 14, formats::Format::Essence);
}

/// The two published 15×15 puzzles at hand: puzzle-battleships.com's and BrainBashers' (five
/// of its clues ship parts of no kind).
#[test]
fn the_published_15x15_puzzles_are_unique_by_two_formulations() {
    let names = ["puzzle-battleships-15x15.txt", "brainbashers-15x15.txt"].map(String::from);
    each_is_unique(&names, formats::Format::Quandary);
}

/// Twelve published KrazyDad 10×10 puzzles (data/battleship/krazydad), 4 to 8 clues each,
/// some of them ship parts of no kind.
#[test]
fn the_krazydad_puzzles_are_unique_by_two_formulations() {
    published_set_is_unique("krazydad", ".txt", 12, formats::Format::Quandary);
}

/// Forty-five puzzles made by Boats, a Battleship generator for people (data/battleship/boats:
/// twenty 10×10, twenty 15×15 and five 30×20 with the paper's fleet, each solvable by Boats'
/// own step-by-step solver), read in our format.
#[test]
fn the_boats_puzzles_are_unique_by_two_formulations() {
    published_set_is_unique("boats", ".txt", 45, formats::Format::Quandary);
}

/// Each Boats puzzle's game ID (its header's `; its game ID:` line) reads as the same puzzle as
/// the file's own lines in our format: two readers, one transcription checked by the other.
#[test]
fn each_boats_game_id_reads_as_its_file() {
    let dir = format!("{}/data/battleship/boats", env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = format!(
            "boats/{}",
            entry.unwrap().file_name().into_string().unwrap()
        );
        let text = data(&name);
        let id = text
            .lines()
            .find_map(|l| l.strip_prefix("; its game ID: "))
            .unwrap_or_else(|| panic!("{name} states its game ID"));
        let (format, from_id) = formats::parse(id, None).expect("the game ID reads");
        assert_eq!(format, formats::Format::Boats, "{name}");
        let (_, from_file) = formats::parse(&text, None).expect("the file reads");
        assert_eq!(from_id, from_file, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 45);
}

/// A Boats game ID written by hand from Boats' own description of its format reads as the same
/// puzzle in our format (default fleet 4 3 2 1 for `f4`, counts columns first, `-` hidden).
#[test]
fn a_boats_game_id_reads_as_the_same_puzzle_in_our_format() {
    let id = "5x4f3,2,1,1:1,1,1,2,-,3,1,0,3,aWbSaWiTRC";
    let ours = "size 4 5\nfleet 2 1 1\nrows 3 1 0 3\ncols 1 1 1 2 ?\ngrid\n\
        . ~ . . o\n. ~ . . .\n. . . . .\n. ^ > + .\n";
    let (format, a) = formats::parse(id, None).expect("Boats game ID reads");
    assert_eq!(format, formats::Format::Boats);
    let (_, b) = formats::parse(ours, None).expect("our format reads");
    assert_eq!(a, b);
    // No fleet given: Boats' default for the longest length N is N, N-1, ..., 1 ships.
    let (_, d) = formats::parse("4x4f2:2,0,2,0,2,0,2,0,", None).expect("reads");
    assert_eq!(d.fleet, vec![2, 1]);
}

/// Every puzzle under data/battleship, whatever its format (all twenty CSPLib instances among
/// them), written as a Boats game ID reads back as the same puzzle.
#[test]
fn every_puzzle_reads_back_from_its_boats_game_id() {
    let root = format!("{}/data/battleship", env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    let mut checked = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let puzzles: Vec<_> = if formats::detect(&text) == formats::Format::Csplib {
            formats::parse_csplib(&text)
                .unwrap()
                .into_iter()
                .map(|(_, p)| p)
                .collect()
        } else {
            match formats::parse(&text, None) {
                Ok((_, p)) => vec![p],
                // Not a puzzle (a licence or notes file).
                Err(_) => continue,
            }
        };
        for p in puzzles {
            let id = formats::to_boats(&p);
            let (format, back) = formats::parse(&id, None).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(format, formats::Format::Boats, "{id}");
            assert_eq!(back, p, "{}: {id}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 140, "{checked}");
}

/// Wrong Boats game IDs are refused with what is wrong.
#[test]
fn wrong_boats_game_ids_name_the_fault() {
    let cases = [
        ("0x4f3:1", "a 0×4 board is not allowed"),
        ("5x999f3:1", "a 5×999 board is not allowed"),
        ("5x4f3,2,1:1,1,1,2,2,3,1,0,3", "the fleet lists 2 lengths"),
        (
            "5x4f3,2,1,1:1,1,1,2,2,3,1,0",
            "8 counts, but 5 columns and 4 rows need 9",
        ),
        (
            "5x4f3,2,1,1:1,1,1,2,2,3,1,0,3,aQ",
            "'Q' at character 20 is not a cell of Boats",
        ),
        (
            "5x4f3,2,1,1:1,1,1,2,2,3,1,0,3,zW",
            "lies past the 5×4 board",
        ),
        (
            "5x4f3,2,1,1:1,1,1,2,W,3,1,0,3",
            "4 counts for 5 columns and 4 rows, then 'W'",
        ),
        (
            "5x4f3,2,1,1:1,1,1,2,2,3,1,0,99999999999999999999999",
            "is too large",
        ),
    ];
    for (id, want) in cases {
        match formats::parse(id, None) {
            Ok(_) => panic!("{id} was accepted"),
            Err(e) => assert!(e.to_string().contains(want), "{id}: {e}"),
        }
    }
}

/// Wrong Essence′ parameters are refused with the line and what is wrong.
#[test]
fn wrong_essence_parameters_name_the_line_and_the_fault() {
    let good = "letting width be 2\nletting height be 2\nletting num_types be [1]\n\
        letting column_tallies be [1,0]\nletting row_tallies be [1,0]\n\
        letting hint be [[7,7],[7,7]]\n";
    assert!(formats::parse(good, None).is_ok());
    let cases = [
        (
            good.replace("[[7,7],[7,7]]", "[[7,9],[7,7]]"),
            "line 6: hint 9 at row 1, column 2",
        ),
        (
            good.replace("[[7,7],[7,7]]", "[[7,7],[7]]"),
            "line 6: hint has 3 entries for a 2×2",
        ),
        (
            good.replace("letting height be 2\n", ""),
            "no `letting height be ...`",
        ),
        (
            format!("{good}letting width be 3\n"),
            "line 7: 'width' is given twice",
        ),
        (
            good.replace("be [1,0]\nletting row", "be [1,-1]\nletting row"),
            "line 4: 'column_tallies': '-'",
        ),
        (
            format!("letting LARGEST be 2\n{good}"),
            "line 1: LARGEST is 2 but num_types lists 1",
        ),
        (
            good.replace("width be 2", "width 2"),
            "line 1: expected `letting NAME be VALUE`",
        ),
        (
            good.replace(
                "[1,0]\nletting row_tallies be [1,0]",
                "[1,0]\nletting row_tallies be [0,0]",
            ),
            "row",
        ),
        (
            good.replace("letting height be 2", "letting height be [2,2]"),
            "line 2: 'height' must be one number",
        ),
    ];
    for (text, needle) in cases {
        let e = formats::parse(&text, None).expect_err(needle).to_string();
        assert!(e.contains(needle), "{needle}: {e}");
    }
}

/// Every Battleship puzzle under data/battleship (every fleet, every instance of the CSPLib
/// file) converts to a puzz.link URL that reads back as the same puzzle.
#[test]
fn every_puzzle_in_data_reads_back_from_its_puzzlink_url() {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).expect("data folder") {
            let path = e.expect("entry").path();
            if path.is_dir() {
                files(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut all = Vec::new();
    files(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/battleship")),
        &mut all,
    );
    let mut puzzles: Vec<(String, Grid)> = Vec::new();
    for path in &all {
        let text = std::fs::read_to_string(path).expect("text");
        let name = path.display().to_string();
        if formats::detect(&text) == formats::Format::Csplib {
            for (id, p) in formats::parse_csplib(&text).expect("CSPLib") {
                puzzles.push((format!("{name} {id}"), p));
            }
        } else {
            let (_, p) = formats::parse(&text, None).unwrap_or_else(|e| panic!("{name}: {e}"));
            puzzles.push((name, p));
        }
    }
    assert!(puzzles.len() >= 140, "only {} puzzles read", puzzles.len());
    let fleets: std::collections::BTreeSet<Vec<usize>> =
        puzzles.iter().map(|(_, p)| p.fleet.clone()).collect();
    assert!(fleets.len() >= 4, "{fleets:?}");
    for (name, p) in &puzzles {
        let url = formats::to_puzzlink(p).unwrap_or_else(|| panic!("{name}: no URL"));
        let back = formats::parse_puzzlink(&url).unwrap_or_else(|e| panic!("{name}: {url}: {e}"));
        assert_eq!(&back, p, "{name}: {url}");
    }
}
