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

/// A puzz.link (pzprjs) URL: `battleship/COLS/ROWS/DATA` and its fleet, `//c`, `//d` or
/// `//e` (the presets: 3 2 1, 4 3 2 1, 5 4 3 2 1) or a piece list, `/N/` then N pieces, each
/// its width and height (one base-36 digit each) and its cells row by row as bits, five to a
/// base-32 digit, trailing zeros left off. DATA holds the column counts and row counts, then
/// the cells, as two runs of items that pzprjs decodes apart: `g`..`z` skip 1 to 20 items, a
/// hex digit is a value, `-` and `+` prefix two and three hex digits, `.` is an unknown count,
/// or in a cell a ship part of unknown kind.
pub fn parse_puzzlink(url: &str) -> Result<Grid> {
    parse_puzzlink_with(url, None)
}

/// [`parse_puzzlink`], the fleet given (`--fleet`) instead of read from the URL: the URL's
/// own fleet, whatever it is, is not read then.
pub fn parse_puzzlink_with(url: &str, fleet: Option<Vec<usize>>) -> Result<Grid> {
    let bad = |why: String| Error::input(format!("puzz.link URL: {why}"));
    let start = url
        .find("battleship/")
        .ok_or_else(|| bad("no 'battleship/' in the URL".into()))?;
    let mut parts = url[start + "battleship/".len()..].splitn(3, '/');
    let cols: usize = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("the width after 'battleship/' is not a number".into()))?;
    let rows: usize = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("the height is not a number".into()))?;
    let rest = parts.next().unwrap_or("");
    let (data, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    if rows == 0
        || cols == 0
        || rows > crate::puzzles::battleship::MAX_SIDE
        || cols > crate::puzzles::battleship::MAX_SIDE
    {
        return Err(bad(format!("a {cols}×{rows} board is not allowed")));
    }
    let fleet = match fleet {
        Some(f) => f,
        None => url_fleet(tail).map_err(bad)?,
    };
    let chars: Vec<char> = data.chars().collect();
    let mut at = 0;
    let counts = url_items(&chars, &mut at, cols + rows).map_err(bad)?;
    let cells = url_items(&chars, &mut at, rows * cols).map_err(bad)?;
    if at < chars.len() {
        return Err(bad(format!(
            "{} characters left after the board's {} items",
            chars.len() - at,
            cols + rows + rows * cols
        )));
    }
    let count = |v: &Item| match v {
        Item::Value(x) => Some(*x as usize),
        Item::Blank | Item::Unknown => None,
    };
    let col_counts: Vec<Option<usize>> = counts[..cols].iter().map(count).collect();
    let row_counts: Vec<Option<usize>> = counts[cols..].iter().map(count).collect();
    let mut clues = Vec::with_capacity(rows * cols);
    for (idx, v) in cells.iter().enumerate() {
        clues.push(match v {
            Item::Blank => None,
            Item::Unknown => Some(Symbol::Ship),
            Item::Value(x) => match URL_SYMBOLS.get(*x as usize) {
                Some(s) => Some(*s),
                None => {
                    return Err(bad(format!(
                        "cell row {}, column {} holds code {x}, which is not a straight-ship clue",
                        idx / cols + 1,
                        idx % cols + 1
                    )))
                }
            },
        });
    }
    Grid::new(rows, cols, fleet, row_counts, col_counts, clues)
}

/// The cell clues of a URL by their codes 0 to 6.
const URL_SYMBOLS: [Symbol; 7] = [
    Symbol::Water,
    Symbol::Top,
    Symbol::Bottom,
    Symbol::Left,
    Symbol::Right,
    Symbol::Middle,
    Symbol::Sub,
];

/// One item of a URL's data: nothing given, a value, or `.` (an unknown count; a ship part of
/// unknown kind).
#[derive(Clone, Copy)]
enum Item {
    Blank,
    Value(u32),
    Unknown,
}

/// `n` items of `chars` from `at` on, as pzprjs reads one part of a URL: a run of blanks that
/// goes past the part's end ends with it.
fn url_items(chars: &[char], at: &mut usize, n: usize) -> std::result::Result<Vec<Item>, String> {
    let mut items = Vec::with_capacity(n);
    while items.len() < n && *at < chars.len() {
        let c = chars[*at];
        let hex = |from: usize, len: usize| -> std::result::Result<u32, String> {
            let s: String = chars.get(from..from + len).unwrap_or(&[]).iter().collect();
            u32::from_str_radix(&s, 16)
                .map_err(|_| format!("bad number after '{c}' at character {from}"))
        };
        let (item, width) = match c {
            'g'..='z' => {
                let run = (c as u8 - b'f') as usize;
                items.extend(std::iter::repeat_n(Item::Blank, run.min(n - items.len())));
                *at += 1;
                continue;
            }
            '0'..='9' | 'a'..='f' => (Item::Value(c.to_digit(16).expect("hex")), 1),
            '-' => (Item::Value(hex(*at + 1, 2)?), 3),
            '+' => (Item::Value(hex(*at + 1, 3)?), 4),
            '.' => (Item::Unknown, 1),
            other => return Err(format!("unexpected '{other}' at character {}", *at)),
        };
        items.push(item);
        *at += width;
    }
    items.resize(n, Item::Blank);
    Ok(items)
}

/// The fleet a URL names after its data (`tail`, from the `/` that ends the data): a preset
/// code or a piece list of straight ships.
fn url_fleet(tail: &str) -> std::result::Result<Vec<usize>, String> {
    let tail = tail.trim_end_matches('/');
    // `COLS/ROWS//e`, a board with no data at all, has its preset code after one slash.
    let preset = tail.strip_prefix("//").or_else(|| {
        tail.strip_prefix('/')
            .filter(|c| c.len() == 1 && !c.starts_with(|d: char| d.is_ascii_digit()))
    });
    if let Some(code) = preset {
        return match code {
            "c" => Ok(vec![3, 2, 1]),
            "d" => Ok(vec![4, 3, 2, 1]),
            "e" => Ok(vec![5, 4, 3, 2, 1]),
            other => Err(format!(
                "the fleet '//{}' is none of //c, //d, //e (ships of length 1 to 3, 4, 5) nor a piece list; give the fleet with --fleet",
                crate::error::clip(other)
            )),
        };
    }
    let mut words = tail.split('/').skip(1);
    let n: usize = match words.next() {
        None | Some("") => return Err(
            "the URL names no fleet (//c, //d, //e or a piece list /N/...); give it with --fleet"
                .into(),
        ),
        Some(w) => w.parse().map_err(|_| {
            format!(
                "the fleet's piece count '{}' is not a number",
                crate::error::clip(w)
            )
        })?,
    };
    let pieces: Vec<&str> = words.collect();
    if pieces.len() != n {
        return Err(format!(
            "the fleet names {n} pieces but {} follow",
            pieces.len()
        ));
    }
    let mut fleet: Vec<usize> = Vec::new();
    for (k, piece) in pieces.iter().enumerate() {
        let length = straight_length(piece).map_err(|why| {
            format!(
                "fleet piece {} ('{}'): {why}",
                k + 1,
                crate::error::clip(piece)
            )
        })?;
        if fleet.len() < length {
            fleet.resize(length, 0);
        }
        fleet[length - 1] += 1;
    }
    Ok(fleet)
}

/// The length of a piece of a URL's piece list that is a straight ship (a row or a column of
/// cells, all of them part of it); why not otherwise.
fn straight_length(piece: &str) -> std::result::Result<usize, String> {
    let digits: Vec<char> = piece.chars().collect();
    let side = |k: usize| -> std::result::Result<usize, String> {
        match digits.get(k).and_then(|c| c.to_digit(36)) {
            Some(v) if v > 0 => Ok(v as usize),
            _ => Err("its width and height are not two base-36 digits above 0".into()),
        }
    };
    let (w, h) = (side(0)?, side(1)?);
    let mut bits = Vec::with_capacity(w * h);
    for c in &digits[2..] {
        let v = c
            .to_digit(32)
            .ok_or_else(|| format!("'{c}' is not a base-32 digit"))?;
        bits.extend((0..5).rev().map(|b| v >> b & 1 == 1));
    }
    // Cells marked past the piece's w×h are an error, checked before the list is cut to
    // that size (it was cut first, which made the check dead: `31vvvvvvvv` read as a ship
    // of length 3).
    if bits.len() > w * h && bits[w * h..].iter().any(|&b| b) {
        return Err(format!("cells beyond its {w}×{h}"));
    }
    bits.resize(w * h, false);
    let full = bits[..w * h].iter().all(|&b| b);
    match (w, h) {
        (l, 1) | (1, l) if full => Ok(l),
        _ => Err(format!(
            "a {w}×{h} piece that is not a straight ship; quandary's Battleship takes straight ships only"
        )),
    }
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

/// The puzzle as a puzz.link URL, which [`parse_puzzlink`] reads back (the fleet as a preset
/// code where one fits, else a piece list); `None` when a count is over 4095 or a ship is
/// longer than 35.
pub fn to_puzzlink(p: &Grid) -> Option<String> {
    let counts: Vec<Item> = p
        .col_counts
        .iter()
        .chain(&p.row_counts)
        .map(|c| c.map_or(Item::Blank, |v| Item::Value(v as u32)))
        .collect();
    let cells: Vec<Item> = p
        .clues
        .iter()
        .map(|c| match c {
            None => Item::Blank,
            Some(Symbol::Ship) => Item::Unknown,
            Some(s) => {
                let k = URL_SYMBOLS
                    .iter()
                    .position(|u| u == s)
                    .expect("every other symbol");
                Item::Value(k as u32)
            }
        })
        .collect();
    // The counts and the cells are written apart, each ending its own run of blanks, as
    // pzprjs reads them.
    let mut data = url_part(&counts)?;
    data += &url_part(&cells)?;
    Some(format!(
        "https://puzz.link/p?battleship/{}/{}/{data}{}",
        p.cols,
        p.rows,
        url_fleet_text(&p.fleet)?
    ))
}

/// One part of a URL's data, as [`url_items`] reads it: runs of blanks as `g`..`z`, values
/// in hex (`-` and `+` for two and three digits), `.` for unknown.
fn url_part(items: &[Item]) -> Option<String> {
    let mut data = String::new();
    let mut skip = 0usize;
    let flush = |data: &mut String, skip: &mut usize| {
        while *skip > 0 {
            let k = (*skip).min(20);
            data.push((b'f' + k as u8) as char);
            *skip -= k;
        }
    };
    for item in items {
        match *item {
            Item::Blank => skip += 1,
            Item::Unknown => {
                flush(&mut data, &mut skip);
                data.push('.');
            }
            Item::Value(v) => {
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
    Some(data)
}

/// A fleet as a URL writes it: a preset code where one fits, else a piece list of straight
/// ships, shortest first, each lying along a row (`None` for a ship longer than 35, which
/// one base-36 digit cannot say).
fn url_fleet_text(fleet: &[usize]) -> Option<String> {
    match fleet {
        [3, 2, 1] => return Some("//c".into()),
        [4, 3, 2, 1] => return Some("//d".into()),
        [5, 4, 3, 2, 1] => return Some("//e".into()),
        _ => {}
    }
    let digit = |v: u32, radix: u32| std::char::from_digit(v, radix);
    let mut out = format!("/{}", fleet.iter().sum::<usize>());
    for (k, &n) in fleet.iter().enumerate() {
        let length = k + 1;
        if n > 0 && length > 35 {
            return None;
        }
        let mut piece = format!("{}1", digit(length as u32, 36)?);
        let mut left = length;
        while left > 0 {
            let bits = left.min(5);
            piece.push(digit(((1u32 << bits) - 1) << (5 - bits), 32)?);
            left -= bits;
        }
        for _ in 0..n {
            out += &format!("/{piece}");
        }
    }
    Some(out)
}
