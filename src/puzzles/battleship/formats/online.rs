//! The formats of puzzle sites and programs: janko.at blocks, puzz.link (pzprjs) URLs and
//! game IDs of Boats (the Battleship of Simon Tatham's collection's unreleased part).

use super::*;
use crate::error::{Error, Result};
use crate::puzzles::battleship::{Grid, Symbol};

/// A janko.at block.
pub fn parse_janko(text: &str) -> Result<Grid> {
    let mut rows: Option<usize> = None;
    let mut cols: Option<usize> = None;
    let mut fleet: Option<Vec<usize>> = None;
    let mut clabels: Option<Vec<Option<usize>>> = None;
    let mut rlabels: Option<Vec<Option<usize>>> = None;
    let mut problem: Option<Vec<(usize, Vec<Option<Symbol>>)>> = None;
    let mut reading_problem = false;
    let mut puzzle_kind: Option<String> = None;
    for (n, raw) in text.lines().enumerate() {
        let n = n + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        let key = toks[0].to_ascii_lowercase();
        let keywords = [
            "begin", "end", "puzzle", "size", "rows", "cols", "ships", "clabels", "rlabels",
            "problem", "solution", "author", "solver", "source", "info", "unit", "moves",
        ];
        if reading_problem && !keywords.contains(&key.as_str()) {
            let mut cells = Vec::new();
            for t in &toks {
                cells.push(match *t {
                    "-" | "." => None,
                    "x" => Some(Symbol::Water),
                    "o" => Some(Symbol::Sub),
                    "n" => Some(Symbol::Top),
                    "s" => Some(Symbol::Bottom),
                    "w" => Some(Symbol::Left),
                    "e" => Some(Symbol::Right),
                    "m" => Some(Symbol::Middle),
                    other => {
                        return Err(at_line(
                            n,
                            format!(
                                "unknown symbol '{other}' in the problem grid (janko uses - x o n s w e m)"
                            ),
                        ))
                    }
                });
            }
            problem.get_or_insert_with(Vec::new).push((n, cells));
            continue;
        }
        reading_problem = false;
        let labels = |toks: &[&str]| -> Result<Vec<Option<usize>>> {
            toks.iter().map(|t| count_token(t, n)).collect()
        };
        match key.as_str() {
            "puzzle" => puzzle_kind = toks.get(1).map(|s| s.to_ascii_lowercase()),
            "size" => {
                let v = numbers(&toks[1..], n, "size")?;
                match v[..] {
                    [a] => (rows, cols) = (Some(a), Some(a)),
                    [a, b] => (rows, cols) = (Some(a), Some(b)),
                    _ => return Err(at_line(n, "size takes one or two numbers")),
                }
            }
            "rows" => rows = numbers(&toks[1..], n, "rows")?.first().copied(),
            "cols" => cols = numbers(&toks[1..], n, "cols")?.first().copied(),
            "ships" => fleet = Some(numbers(&toks[1..], n, "ships")?),
            "clabels" => clabels = Some(labels(&toks[1..])?),
            "rlabels" => rlabels = Some(labels(&toks[1..])?),
            "problem" => reading_problem = true,
            _ => {}
        }
    }
    if let Some(kind) = puzzle_kind {
        if !kind.starts_with("battleship") {
            return Err(Error::input(format!(
                "this janko.at block is a '{kind}' puzzle, not battleships"
            )));
        }
    }
    let clabels = clabels.ok_or_else(|| Error::input("no 'clabels' line (column counts)"))?;
    let rlabels = rlabels.ok_or_else(|| Error::input("no 'rlabels' line (row counts)"))?;
    let rows = rows.unwrap_or(rlabels.len());
    let cols = cols.unwrap_or(clabels.len());
    let fleet = fleet.ok_or_else(|| Error::input("no 'ships' line (the fleet)"))?;
    let clues = match problem {
        None => vec![None; rows * cols],
        Some(lines) => {
            if lines.len() != rows {
                return Err(Error::input(format!(
                    "the problem grid has {} rows, the board {rows}",
                    lines.len()
                )));
            }
            let mut clues = Vec::new();
            for (n, cells) in lines {
                if cells.len() != cols {
                    return Err(at_line(
                        n,
                        format!(
                            "{} cells in this row, the board has {cols} columns",
                            cells.len()
                        ),
                    ));
                }
                clues.extend(cells);
            }
            clues
        }
    };
    Grid::new(rows, cols, fleet, rlabels, clabels, clues)
}

/// A puzz.link (pzprjs) URL.
pub fn parse_puzzlink(url: &str) -> Result<Grid> {
    let bad = |why: String| Error::input(format!("puzz.link URL: {why}"));
    let start = url
        .find("battleship/")
        .ok_or_else(|| bad("no 'battleship/' in the URL".into()))?;
    let rest = &url[start + "battleship/".len()..];
    let (body, fleet_code) = match rest.find("//") {
        Some(k) => (&rest[..k], Some(&rest[k + 2..])),
        None => (rest, None),
    };
    let mut parts = body.splitn(3, '/');
    let cols: usize = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("the width after 'battleship/' is not a number".into()))?;
    let rows: usize = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("the height is not a number".into()))?;
    let data = parts.next().unwrap_or("").trim_end_matches('/');
    if rows == 0
        || cols == 0
        || rows > crate::puzzles::battleship::MAX_SIDE
        || cols > crate::puzzles::battleship::MAX_SIDE
    {
        return Err(bad(format!("a {cols}×{rows} board is not allowed")));
    }
    let fleet = match fleet_code {
        Some("c") => vec![3, 2, 1],
        Some("d") => vec![4, 3, 2, 1],
        Some("e") => vec![5, 4, 3, 2, 1],
        Some(other) => {
            return Err(bad(format!(
                "the fleet '//{other}' is not one of the standard fleets //c, //d, //e; give the fleet with --fleet"
            )))
        }
        None => {
            return Err(bad(
                "the URL names no fleet (//c, //d or //e); give it with --fleet".into(),
            ))
        }
    };
    // Items: 'g'..'z' skip 1..20, hex digit, '-' + 2 hex, '+' + 3 hex, '.' a question mark.
    let chars: Vec<char> = data.chars().collect();
    let mut items: Vec<Option<i64>> = Vec::new();
    let mut k = 0;
    let total = cols + rows + rows * cols;
    while k < chars.len() && items.len() < total {
        let c = chars[k];
        let hex = |from: usize, n: usize| -> Result<i64> {
            let s: String = chars.get(from..from + n).unwrap_or(&[]).iter().collect();
            i64::from_str_radix(&s, 16)
                .map_err(|_| bad(format!("bad number after '{c}' at character {}", from)))
        };
        match c {
            'g'..='z' => {
                for _ in 0..(c as u8 - b'f') {
                    items.push(None);
                }
                k += 1;
            }
            '0'..='9' | 'a'..='f' => {
                items.push(Some(c.to_digit(16).expect("hex") as i64));
                k += 1;
            }
            '-' => {
                items.push(Some(hex(k + 1, 2)?));
                k += 3;
            }
            '+' => {
                items.push(Some(hex(k + 1, 3)?));
                k += 4;
            }
            '.' => {
                items.push(Some(-2));
                k += 1;
            }
            other => return Err(bad(format!("unexpected '{other}' at character {k}"))),
        }
    }
    items.resize(total, None);
    let count = |v: Option<i64>| -> Option<usize> { v.filter(|&x| x >= 0).map(|x| x as usize) };
    let col_counts: Vec<Option<usize>> = items[..cols].iter().map(|&v| count(v)).collect();
    let row_counts: Vec<Option<usize>> =
        items[cols..cols + rows].iter().map(|&v| count(v)).collect();
    let mut clues = Vec::with_capacity(rows * cols);
    for (idx, v) in items[cols + rows..].iter().enumerate() {
        clues.push(match v {
            None => None,
            Some(0) => Some(Symbol::Water),
            Some(1) => Some(Symbol::Top),
            Some(2) => Some(Symbol::Bottom),
            Some(3) => Some(Symbol::Left),
            Some(4) => Some(Symbol::Right),
            Some(5) => Some(Symbol::Middle),
            Some(6) => Some(Symbol::Sub),
            Some(x) => {
                return Err(bad(format!(
                    "cell row {}, column {} holds code {x}, which is not a straight-ship clue",
                    idx / cols + 1,
                    idx % cols + 1
                )))
            }
        });
    }
    Grid::new(rows, cols, fleet, row_counts, col_counts, clues)
}

/// Whether `text` is one game ID of Boats: `PARAMS:DESC` on one line, the parameters a width
/// (`15`, `15x10`) followed by Boats' letters (`f` fleet, `d` difficulty, `S`) and counts.
pub fn is_boats_id(text: &str) -> bool {
    let t = text.trim();
    let Some((params, _)) = t.split_once(':') else {
        return false;
    };
    !t.contains('\n')
        && params.starts_with(|c: char| c.is_ascii_digit())
        && params.contains('f')
        && params
            .chars()
            .all(|c| c.is_ascii_digit() || "xfdenthS,".contains(c))
}

/// A game ID of Boats (Lennard Sprong's Battleship for Simon Tatham's Portable Puzzle
/// Collection, in x-sheep/puzzles-unreleased): `WxHfNdD[S][,n1,...,nN]:DESC`, the fleet's
/// largest length N (default 4) and how many ships of each length from 1 up (default N, N-1,
/// …, 1); DESC the W column counts then the H row counts, comma-separated (`-` hidden), then
/// the given cells row by row, a lowercase letter skipping 1 ('a') to 26 ('z') cells and a
/// capital giving one: `W` water, `S` submarine, `T` `B` top and bottom ends, `L` `R` left and
/// right ends, `C` middle, `V` a ship part of no kind.
pub fn parse_boats(text: &str) -> Result<Grid> {
    let bad = |why: String| Error::input(format!("Boats game ID: {why}"));
    let t = text.trim();
    let (params, desc) = t
        .split_once(':')
        .ok_or_else(|| bad("no ':' between the parameters and the puzzle".into()))?;
    // A number at the start of `s`: its value and what follows.
    let number = |s: &str, what: &str| -> Result<(usize, usize)> {
        let digits = s.chars().take_while(char::is_ascii_digit).count();
        s[..digits]
            .parse::<usize>()
            .map(|v| (v, digits))
            .map_err(|_| bad(format!("{what} is not a number in '{params}'")))
    };
    let max = crate::puzzles::battleship::MAX_SIDE;
    let (cols, used) = number(params, "the width")?;
    let mut rest = &params[used..];
    let mut rows = cols;
    if let Some(r) = rest.strip_prefix('x') {
        let (h, used) = number(r, "the height")?;
        rows = h;
        rest = &r[used..];
    }
    if rows == 0 || cols == 0 || rows > max || cols > max {
        return Err(bad(format!(
            "a {cols}×{rows} board is not allowed: each side must be 1 to {max}"
        )));
    }
    let mut largest = 4;
    if let Some(r) = rest.strip_prefix('f') {
        let (n, used) = number(r, "the fleet's largest length")?;
        if n == 0 || n > max {
            return Err(bad(format!(
                "a fleet whose longest ship has length {n} is not allowed (1 to {max})"
            )));
        }
        largest = n;
        rest = &r[used..];
    }
    if let Some(r) = rest.strip_prefix('d') {
        // The difficulty the generator was asked for says nothing about the puzzle itself.
        rest = r.strip_prefix(['e', 'n', 't', 'h']).unwrap_or(r);
    }
    rest = rest.strip_prefix('S').unwrap_or(rest);
    let fleet: Vec<usize> = if rest.is_empty() {
        (1..=largest).rev().collect()
    } else {
        let counts = rest
            .strip_prefix(',')
            .ok_or_else(|| bad(format!("'{rest}' in the parameters is not understood")))?;
        let fleet: Vec<usize> = counts
            .split(',')
            .map(|c| c.parse::<usize>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| bad(format!("the fleet '{counts}' is not a list of numbers")))?;
        if fleet.len() != largest {
            return Err(bad(format!(
                "the fleet lists {} lengths, but its longest ship has length {largest}",
                fleet.len()
            )));
        }
        fleet
    };
    let mut counts: Vec<Option<usize>> = Vec::with_capacity(cols + rows);
    let mut clues: Vec<Option<Symbol>> = vec![None; rows * cols];
    let mut at = 0;
    let chars: Vec<char> = desc.chars().collect();
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        let counts_done = counts.len() == cols + rows;
        match c {
            ',' => k += 1,
            '0'..='9' | '-' if !counts_done => {
                if c == '-' {
                    counts.push(None);
                    k += 1;
                } else {
                    let digits = chars[k..].iter().take_while(|d| d.is_ascii_digit()).count();
                    let s: String = chars[k..k + digits].iter().collect();
                    let v = s.parse::<usize>().map_err(|_| {
                        bad(format!(
                            "the count '{s}' at character {} is too large",
                            k + 1
                        ))
                    })?;
                    counts.push(Some(v));
                    k += digits;
                }
            }
            'a'..='z' | 'A'..='Z' if counts_done => {
                if c.is_ascii_lowercase() {
                    at += (c as u8 - b'a') as usize + 1;
                } else {
                    let symbol = match c {
                        'W' => Symbol::Water,
                        'S' => Symbol::Sub,
                        'T' => Symbol::Top,
                        'B' => Symbol::Bottom,
                        'L' => Symbol::Left,
                        'R' => Symbol::Right,
                        'C' => Symbol::Middle,
                        'V' => Symbol::Ship,
                        other => {
                            return Err(bad(format!(
                            "'{other}' at character {} is not a cell of Boats (W S T B L R C V)",
                            k + 1
                        )))
                        }
                    };
                    let cell = clues.get_mut(at).ok_or_else(|| {
                        bad(format!(
                            "the given cell at character {} lies past the {cols}×{rows} board",
                            k + 1
                        ))
                    })?;
                    *cell = Some(symbol);
                    at += 1;
                }
                k += 1;
            }
            other if !counts_done => {
                return Err(bad(format!(
                    "{} counts for {cols} columns and {rows} rows, then '{other}' at character {}",
                    counts.len(),
                    k + 1
                )))
            }
            other => {
                return Err(bad(format!(
                    "'{other}' at character {} after the {} counts",
                    k + 1,
                    cols + rows
                )))
            }
        }
    }
    if counts.len() != cols + rows {
        return Err(bad(format!(
            "{} counts, but {cols} columns and {rows} rows need {}",
            counts.len(),
            cols + rows
        )));
    }
    if at > rows * cols {
        return Err(bad(format!(
            "the cells run past the {cols}×{rows} board ({at} of {})",
            rows * cols
        )));
    }
    let row_counts = counts.split_off(cols);
    Grid::new(rows, cols, fleet, row_counts, counts, clues)
}

/// The puzzle as a Boats game ID, which [`parse_boats`] reads back (Boats itself reads it
/// where it knows every symbol: it shows a ship part of no kind as `V` too).
pub fn to_boats(p: &Grid) -> String {
    let fleet: Vec<String> = p.fleet.iter().map(usize::to_string).collect();
    let counts: Vec<String> = p
        .col_counts
        .iter()
        .chain(&p.row_counts)
        .map(|c| c.map_or("-".to_string(), |n| n.to_string()))
        .collect();
    let mut cells = String::new();
    let mut skip = 0;
    for clue in &p.clues {
        let Some(s) = clue else {
            skip += 1;
            continue;
        };
        while skip > 0 {
            let n = skip.min(26);
            cells.push((b'a' + n as u8 - 1) as char);
            skip -= n;
        }
        cells.push(match s {
            Symbol::Water => 'W',
            Symbol::Sub => 'S',
            Symbol::Top => 'T',
            Symbol::Bottom => 'B',
            Symbol::Left => 'L',
            Symbol::Right => 'R',
            Symbol::Middle => 'C',
            Symbol::Ship => 'V',
        });
    }
    format!(
        "{}x{}f{},{}:{},{cells}",
        p.cols,
        p.rows,
        p.fleet.len(),
        fleet.join(","),
        counts.join(",")
    )
}

/// The puzzle as a puzz.link URL, which [`parse_puzzlink`] reads back; `None` when the fleet
/// is not one of the standard fleets a URL can name (//c, //d, //e), a count is over 4095, or
/// a clue is a ship part of no kind (a URL has no code for it).
pub fn to_puzzlink(p: &Grid) -> Option<String> {
    let fleet = match p.fleet.as_slice() {
        [3, 2, 1] => "c",
        [4, 3, 2, 1] => "d",
        [5, 4, 3, 2, 1] => "e",
        _ => return None,
    };
    // A URL has no code for a ship part of no kind.
    if p.clues.contains(&Some(Symbol::Ship)) {
        return None;
    }
    let code = |s: Symbol| match s {
        Symbol::Water => 0,
        Symbol::Top => 1,
        Symbol::Bottom => 2,
        Symbol::Left => 3,
        Symbol::Right => 4,
        Symbol::Middle => 5,
        Symbol::Sub => 6,
        Symbol::Ship => unreachable!("refused above"),
    };
    let items: Vec<Option<usize>> = p
        .col_counts
        .iter()
        .chain(&p.row_counts)
        .copied()
        .chain(p.clues.iter().map(|c| c.map(code)))
        .collect();
    let mut data = String::new();
    let mut skip = 0;
    let flush = |data: &mut String, skip: &mut usize| {
        while *skip > 0 {
            let k = (*skip).min(20);
            data.push((b'f' + k as u8) as char);
            *skip -= k;
        }
    };
    for item in items {
        match item {
            None => skip += 1,
            Some(v) => {
                flush(&mut data, &mut skip);
                match v {
                    0..=15 => data.push_str(&format!("{v:x}")),
                    16..=255 => data.push_str(&format!("-{v:02x}")),
                    256..=4095 => data.push_str(&format!("+{v:03x}")),
                    _ => return None,
                }
            }
        }
    }
    flush(&mut data, &mut skip);
    Some(format!(
        "https://puzz.link/p?battleship/{}/{}/{data}//{fleet}",
        p.cols, p.rows
    ))
}
