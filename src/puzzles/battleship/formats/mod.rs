//! Reading and writing puzzles. [`parse`] detects the format:
//!
//! - our own text format (documented in docs/battleship.md):
//!   ```text
//!   ; comments start with ';'
//!   size 6 6                  ; rows, columns
//!   fleet 3 2 1               ; ships of length 1, 2, 3, ...
//!   rows ? 3 0 ? 3 ?          ; ship cells per row, '?' unknown
//!   cols ? 1 2 ? ? 2
//!   grid                      ; '.' unknown, '~' water, 'o' submarine, '<' '>' '^' 'v' ends,
//!   . . . . . ~               ; '+' middle, '#' a ship part of no kind (spaces optional)
//!   ...
//!   ```
//! - a puzz.link / pzprjs URL `...?battleship/COLS/ROWS/...` (fleets `//c`, `//d`, `//e` or a
//!   piece list of straight ships);
//! - a janko.at block (`begin`, `puzzle battleships`, `size`, `ships`, `clabels`, `rlabels`,
//!   `problem`, `end`);
//! - CSPLib prob014 Prolog facts `problem(Id, Fleet, RowSums, ColSums, Hints).`;
//! - MiniZinc benchmark data (`.dzn` with `height`, `width`, `ship`, `hint`, `rowsum`, `colsum`);
//! - Essence′ parameters of Demystify's Solitaire Battleship model (`letting row_tallies be
//!   [...]`, with `width`, `height`, `num_types`, `column_tallies`, `hint`).

mod benchmarks;
mod online;

pub use benchmarks::{parse_csplib, parse_dzn, parse_essence};
pub use online::{
    parse_boats, parse_janko, parse_puzzlink, parse_puzzlink_with, to_boats, to_puzzlink,
};

use super::{Grid, Symbol};
use crate::error::{Error, Result};

/// The formats [`parse`] knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Quandary,
    PuzzLink,
    Janko,
    Csplib,
    Dzn,
    Essence,
    Boats,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Quandary => "quandary text",
            Format::PuzzLink => "puzz.link URL",
            Format::Janko => "janko.at block",
            Format::Csplib => "CSPLib prob014 facts",
            Format::Dzn => "MiniZinc data",
            Format::Essence => "Essence′ parameters",
            Format::Boats => "Boats game ID",
        }
    }
}

/// Which format a text is in.
pub fn detect(text: &str) -> Format {
    let t = text.trim_start();
    let lower = t.to_ascii_lowercase();
    if online::is_boats_id(t) {
        Format::Boats
    } else if lower.contains("battleship/") && !t.contains('\n') || lower.starts_with("http") {
        Format::PuzzLink
    } else if lower.lines().any(|l| l.trim() == "begin") {
        Format::Janko
    } else if lower.contains("problem(") {
        Format::Csplib
    } else if lower.contains("rowsum") && lower.contains("colsum") {
        Format::Dzn
    } else if lower.contains("letting") && lower.contains("row_tallies") {
        Format::Essence
    } else {
        Format::Quandary
    }
}

/// Reads a puzzle in any known format. A CSPLib file may hold many puzzles: `instance` picks
/// one by its id (the first by default).
pub fn parse(text: &str, instance: Option<&str>) -> Result<(Format, Grid)> {
    // A file of comments only that names a puzz.link URL (`; url https://puzz.link/...`), as
    // data/battleship/puzzlink-example.txt does, stands for that URL.
    let stated = text.trim_start_matches('\u{feff}');
    let all_comments = stated
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with(';'));
    let url = stated.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix(';')?.trim_start();
        rest.strip_prefix("url ").map(str::trim)
    });
    if let (true, Some(url)) = (all_comments, url) {
        return parse(url, instance);
    }
    let text = stated;
    let format = detect(text);
    if instance.is_some() && format != Format::Csplib {
        return Err(Error::input(
            "--instance picks a puzzle in a CSPLib file; this input holds just one",
        ));
    }
    let p = match format {
        Format::Quandary => parse_quandary(text)?,
        Format::PuzzLink => parse_puzzlink(text.trim())?,
        Format::Janko => parse_janko(text)?,
        Format::Dzn => parse_dzn(text)?,
        Format::Essence => parse_essence(text)?,
        Format::Boats => parse_boats(text)?,
        Format::Csplib => {
            let all = parse_csplib(text)?;
            match instance {
                None => {
                    all.into_iter().next().map(|(_, p)| p).ok_or_else(|| {
                        Error::input("no problem(...) fact found in the CSPLib file")
                    })?
                }
                Some(id) => all
                    .into_iter()
                    .find(|(i, _)| i == id)
                    .map(|(_, p)| p)
                    .ok_or_else(|| Error::input(format!("no problem with id {id} in the file")))?,
            }
        }
    };
    Ok((format, p))
}

pub(super) fn at_line(n: usize, e: impl std::fmt::Display) -> Error {
    Error::input(format!("line {n}: {e}"))
}

pub(super) fn count_token(tok: &str, line: usize) -> Result<Option<usize>> {
    if tok == "?" || tok == "-" {
        return Ok(None);
    }
    tok.parse::<usize>().map(Some).map_err(|_| {
        at_line(
            line,
            format!("'{tok}' is not a count (a number, or '?' for unknown)"),
        )
    })
}

pub(super) fn numbers(toks: &[&str], line: usize, what: &str) -> Result<Vec<usize>> {
    toks.iter()
        .map(|t| {
            t.parse::<usize>()
                .map_err(|_| at_line(line, format!("'{t}' in {what} is not a number")))
        })
        .collect()
}

/// Our own format.
pub fn parse_quandary(text: &str) -> Result<Grid> {
    let mut size: Option<(usize, usize)> = None;
    let mut fleet: Option<Vec<usize>> = None;
    let mut rows: Option<(usize, Vec<Option<usize>>)> = None;
    let mut cols: Option<(usize, Vec<Option<usize>>)> = None;
    let mut grid: Vec<(usize, Vec<Option<Symbol>>)> = Vec::new();
    let mut in_grid = false;
    // The line of each keyword seen, so that a repeated one is an error, not a silent winner.
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    for (n, raw) in text.lines().enumerate() {
        let n = n + 1;
        let line = raw.split(';').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        let key = toks[0].to_ascii_lowercase();
        if in_grid {
            let mut cells = Vec::new();
            for c in line.chars().filter(|c| !c.is_whitespace()) {
                if c == '.' {
                    cells.push(None);
                } else if let Some(s) = Symbol::from_char(c) {
                    cells.push(Some(s));
                } else {
                    return Err(at_line(
                        n,
                        format!(
                            "unknown symbol '{c}' in the grid (use . unknown, ~ water, o submarine, < > ^ v ends, + middle, # a ship part of no kind)"
                        ),
                    ));
                }
            }
            grid.push((n, cells));
            continue;
        }
        let once = if key == "columns" {
            "cols"
        } else {
            key.as_str()
        };
        if ["size", "fleet", "rows", "cols", "grid"].contains(&once) {
            if let Some(first) = seen.insert(once.to_string(), n) {
                return Err(at_line(
                    n,
                    format!("a second '{once}' line (the first is line {first}); give it once"),
                ));
            }
        }
        match key.as_str() {
            "battleship" | "battleships" if toks.len() == 1 => {}
            "size" => {
                let nums: Vec<&str> = toks[1..]
                    .iter()
                    .flat_map(|t| t.split(['x', '×']))
                    .filter(|t| !t.is_empty())
                    .collect();
                let v = numbers(&nums, n, "size")?;
                size = match v[..] {
                    [a] => Some((a, a)),
                    [a, b] => Some((a, b)),
                    _ => return Err(at_line(n, "size takes rows and columns, e.g. 'size 10 10'")),
                };
                if let Some((a, b)) = size {
                    if a == 0
                        || b == 0
                        || a > crate::puzzles::battleship::MAX_SIDE
                        || b > crate::puzzles::battleship::MAX_SIDE
                    {
                        return Err(at_line(
                            n,
                            format!(
                                "a {a}×{b} board: each side must be 1 to {}",
                                crate::puzzles::battleship::MAX_SIDE
                            ),
                        ));
                    }
                }
            }
            "fleet" => fleet = Some(numbers(&toks[1..], n, "the fleet")?),
            "rows" => {
                rows = Some((
                    n,
                    toks[1..]
                        .iter()
                        .map(|t| count_token(t, n))
                        .collect::<Result<_>>()?,
                ))
            }
            "cols" | "columns" => {
                cols = Some((
                    n,
                    toks[1..]
                        .iter()
                        .map(|t| count_token(t, n))
                        .collect::<Result<_>>()?,
                ))
            }
            "grid" => in_grid = true,
            _ => {
                return Err(at_line(
                    n,
                    format!(
                        "unknown line '{}' (expected size, fleet, rows, cols or grid)",
                        toks[0]
                    ),
                ))
            }
        }
    }
    let fleet = fleet.ok_or_else(|| {
        Error::input("no 'fleet' line: give the number of ships of length 1, 2, 3, ...")
    })?;
    // With a size, a missing 'rows' or 'cols' line means every count unknown (a blank board
    // of a chosen size and fleet, to fill in); without one, the counts give the size.
    let (rline, rows) = match (rows, size) {
        (Some(r), _) => r,
        (None, Some((r, _))) => (0, vec![None; r]),
        (None, None) => return Err(Error::input(
            "no 'rows' line with the row counts (or a 'size' line: then every count is unknown)",
        )),
    };
    let (cline, cols) = match (cols, size) {
        (Some(c), _) => c,
        (None, Some((_, c))) => (0, vec![None; c]),
        (None, None) => return Err(Error::input(
            "no 'cols' line with the column counts (or a 'size' line: then every count is unknown)",
        )),
    };
    let (r, c) = size.unwrap_or((rows.len(), cols.len()));
    if rows.len() != r {
        return Err(at_line(
            rline,
            format!("{} row counts for {r} rows", rows.len()),
        ));
    }
    if cols.len() != c {
        return Err(at_line(
            cline,
            format!("{} column counts for {c} columns", cols.len()),
        ));
    }
    let clues = if grid.is_empty() {
        vec![None; r * c]
    } else {
        if grid.len() != r {
            let last = grid.last().map_or(0, |g| g.0);
            return Err(at_line(
                last,
                format!("the grid has {} rows, the board {r}", grid.len()),
            ));
        }
        let mut clues = Vec::with_capacity(r * c);
        for (n, cells) in grid {
            if cells.len() != c {
                return Err(at_line(
                    n,
                    format!(
                        "{} cells in this grid row, the board has {c} columns",
                        cells.len()
                    ),
                ));
            }
            clues.extend(cells);
        }
        clues
    };
    Grid::new(r, c, fleet, rows, cols, clues)
}

/// Writes a puzzle in our own format.
pub fn to_quandary(p: &Grid, comment: &str) -> String {
    let mut out = String::new();
    for l in comment.lines() {
        out += &format!("; {l}\n");
    }
    let counts = |v: &[Option<usize>]| -> String {
        v.iter()
            .map(|c| c.map_or("?".to_string(), |c| c.to_string()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    out += &format!("size {} {}\n", p.rows, p.cols);
    out += &format!(
        "fleet {}\n",
        p.fleet
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    out += &format!("rows {}\n", counts(&p.row_counts));
    out += &format!("cols {}\n", counts(&p.col_counts));
    out += "grid\n";
    for i in 0..p.rows {
        let row: Vec<String> = (0..p.cols)
            .map(|j| p.clue(i, j).map_or('.', |s| s.char()).to_string())
            .collect();
        out += &row.join(" ");
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_and_a_fleet_alone_are_a_blank_board() {
        let p = parse_quandary("size 4 5\nfleet 2 1\n").unwrap();
        assert_eq!((p.rows, p.cols), (4, 5));
        assert!(p
            .row_counts
            .iter()
            .chain(&p.col_counts)
            .all(Option::is_none));
        assert!(p.clues.iter().all(Option::is_none));
        let e = parse_quandary("fleet 2 1\ncols 1 1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no 'rows' line"), "{e}");
    }

    const OWN: &str = "; the puzz.link example\nsize 6 6\nfleet 3 2 1\nrows ? 3 0 ? 3 ?\ncols ? 1 2 ? ? 2\ngrid\n. . . . . ~\n......\n......\n< . . . . .\n......\n......\n";

    #[test]
    fn the_formats_agree() {
        let own = parse_quandary(OWN).unwrap();
        let url = parse_puzzlink("https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c").unwrap();
        assert_eq!(own, url);
        assert_eq!(parse_quandary(&to_quandary(&own, "again")).unwrap(), own);
        let janko = "begin\npuzzle battleships\nsize 6\nships 3 2 1\nclabels - 1 2 - - 2\nrlabels - 3 0 - 3 -\nproblem\n- - - - - x\n- - - - - -\n- - - - - -\nw - - - - -\n- - - - - -\n- - - - - -\nend\n";
        assert_eq!(detect(janko), Format::Janko);
        assert_eq!(parse_janko(janko).unwrap(), own);
    }

    #[test]
    fn puzzlink_urls_are_written_as_they_are_read() {
        // cspuz's example, byte for byte: the last row count is unknown ('g'), and the run of
        // blank cells after it starts anew ('k').
        let url = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";
        let p = parse_puzzlink(url).unwrap();
        assert_eq!(to_puzzlink(&p).unwrap(), url);
        // Long skips, one- and two-digit counts, a ship part of unknown kind.
        let mut q = Grid::new(
            30,
            20,
            vec![4, 3, 2, 1],
            (0..30)
                .map(|i| (i % 3 == 0).then_some(i * 7 % 21))
                .collect(),
            (0..20).map(|j| (j % 4 == 1).then_some(j + 10)).collect(),
            vec![None; 600],
        )
        .unwrap();
        q.clues[0] = Some(Symbol::Sub);
        q.clues[599] = Some(Symbol::Middle);
        q.clues[333] = Some(Symbol::Left);
        q.clues[334] = Some(Symbol::Ship);
        let url = to_puzzlink(&q).unwrap();
        assert!(url.contains("-1b"), "{url}");
        assert_eq!(parse_puzzlink(&url).unwrap(), q, "{url}");
        // Any fleet: a piece list, shortest first, each along a row.
        let mut odd = p.clone();
        odd.fleet = vec![1];
        let url = to_puzzlink(&odd).unwrap();
        assert!(url.ends_with("/1/11g"), "{url}");
        assert_eq!(parse_puzzlink(&url).unwrap(), odd);
        let mut paper = q.clone();
        paper.fleet = vec![23, 29, 12, 9, 7];
        let url = to_puzzlink(&paper).unwrap();
        assert!(url.contains("/80/11g/"), "{url}");
        assert!(url.ends_with("/51v/51v"), "{url}");
        assert_eq!(parse_puzzlink(&url).unwrap(), paper);
        let mut long = p.clone();
        long.fleet = vec![0, 0, 0, 0, 0, 1];
        assert!(to_puzzlink(&long).unwrap().ends_with("/1/61vg"));
    }

    /// A URL written by hand with its fleet as a piece list (janko.at's 14×14 fleet 6 5 4 3 2,
    /// the ships standing up, longest first) reads as the same puzzle as its janko text.
    #[test]
    fn a_piece_list_reads_as_the_fleet_it_lists() {
        let mut pieces = String::from("/20");
        for (length, n) in [("5", 2), ("4", 3), ("3", 4), ("2", 5), ("1", 6)] {
            let bits = match length {
                "5" => "v",
                "4" => "u",
                "3" => "s",
                "2" => "o",
                _ => "g",
            };
            for _ in 0..n {
                pieces += &format!("/1{length}{bits}");
            }
        }
        let url = format!("https://puzz.link/p?battleship/14/14/3st0zzzzzzzzzu{pieces}");
        let from_url = parse_puzzlink(&url).unwrap();
        let dashes = |n: usize| vec!["-"; n].join(" ");
        let mut grid = vec![dashes(14); 14];
        grid[0] = format!("x {}", dashes(13));
        let janko = format!(
            "begin\npuzzle battleships\nsize 14\nships 6 5 4 3 2\nclabels 3 {}\nrlabels {}\nproblem\n{}\nend\n",
            dashes(13),
            dashes(14),
            grid.join("\n")
        );
        assert_eq!(from_url, parse_janko(&janko).unwrap());
        assert_eq!(from_url.fleet, vec![6, 5, 4, 3, 2]);
        // Written back, the same puzzle (the pieces shortest first, lying along a row).
        assert_eq!(
            parse_puzzlink(&to_puzzlink(&from_url).unwrap()).unwrap(),
            from_url
        );
    }

    /// What a URL's fleet cannot be, each refused saying why; `--fleet` stands in for it.
    #[test]
    fn fleets_quandary_cannot_take_are_refused_and_a_given_fleet_stands_in() {
        let plus = "https://puzz.link/p?battleship/7/7/ti5s1i5g3g4g5i2s5i/5/31s/31s/31s/31s/33bk";
        let e = parse_puzzlink(plus).unwrap_err().to_string();
        assert!(
            e.contains("fleet piece 5") && e.contains("straight ships only"),
            "{e}"
        );
        let given = parse_puzzlink_with(plus, Some(vec![0, 0, 4])).unwrap();
        assert_eq!(given.fleet, vec![0, 0, 4]);
        for (tail, says) in [
            ("", "names no fleet"),
            ("//x", "none of //c, //d, //e"),
            ("/3/11g", "names 3 pieces but 1 follow"),
            ("/1/2", "two base-36 digits"),
            ("/1/21g", "not a straight ship"),
            // Cells marked past a 3×1 piece (it read as a ship of length 3).
            (
                "/1/31vvvvvvvv",
                "fleet piece 1 ('31vvvvvvvv'): cells beyond its 3×1",
            ),
            ("/1/31v", "cells beyond its 3×1"),
        ] {
            let url = format!("https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w{tail}");
            let e = parse_puzzlink(&url).unwrap_err().to_string();
            assert!(e.contains(says), "{tail}: {e}");
            assert!(
                parse_puzzlink_with(&url, Some(vec![3, 2, 1])).is_ok(),
                "{tail}"
            );
        }
        // A cell '.' is a ship part of unknown kind, and is written back so.
        let url = "https://puzz.link/p?battleship/6/6/g12h2g30g3g.j0r3w//c";
        let p = parse_puzzlink(url).unwrap();
        assert_eq!(p.clue(0, 0), Some(Symbol::Ship));
        assert_eq!(to_puzzlink(&p).unwrap(), url);
    }

    /// Whatever follows `battleship/`, the reader answers (a puzzle or an error), never panics.
    #[test]
    fn fuzzed_urls_never_panic() {
        let alphabet: Vec<char> = "0123456789abcdefghijklmnopqrstuvwxyz/.-+".chars().collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let mut tail = String::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for k in 0..(x % 40) {
                let r = x.rotate_left(k as u32 * 5) ^ k;
                tail.push(alphabet[(r % alphabet.len() as u64) as usize]);
            }
            let _ = parse_puzzlink(&format!("https://puzz.link/p?battleship/{tail}"));
            let _ = parse_puzzlink(&format!("https://puzz.link/p?battleship/4/3/{tail}"));
        }
    }

    #[test]
    fn csplib_facts() {
        let text = "% c\nproblem(113,\n\t[4:1,3:2,2:3,1:4],\n\t[2,4,3,3,2,4,1,1,0,0],\n\t[0,5,0,2,2,3,1,3,2,2],\n\t[c@[7,10],w@[1,6]]).\n";
        let all = parse_csplib(text).unwrap();
        assert_eq!(all.len(), 1);
        let p = &all[0].1;
        assert_eq!(p.fleet, vec![4, 3, 2, 1]);
        assert_eq!(p.clue(6, 9), Some(Symbol::Sub));
        assert_eq!(p.clue(0, 5), Some(Symbol::Water));
    }

    #[test]
    fn errors_name_the_line() {
        let e =
            parse_quandary("size 2 2\nfleet 1\nrows 1 0\ncols 1 0\ngrid\n.z\n..\n").unwrap_err();
        assert!(e.to_string().contains("line 6"), "{e}");
        let e = parse_quandary("size 2 2\nfleet 1\nrows 1 1\ncols 1 0\n").unwrap_err();
        assert!(e.to_string().contains("inconsistent"), "{e}");
        let e = parse_csplib("problem(1,[1:1],[1,0],[1,0],[w@[3,1]]).").unwrap_err();
        assert!(e.to_string().contains("outside"), "{e}");
    }
}
