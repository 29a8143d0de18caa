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
//!   . . . . . ~               ; '+' middle (spaces optional)
//!   ...
//!   ```
//! - a puzz.link / pzprjs URL `...?battleship/COLS/ROWS/...` (fleets `//c`, `//d`, `//e`);
//! - a janko.at block (`begin`, `puzzle battleships`, `size`, `ships`, `clabels`, `rlabels`,
//!   `problem`, `end`);
//! - CSPLib prob014 Prolog facts `problem(Id, Fleet, RowSums, ColSums, Hints).`;
//! - MiniZinc benchmark data (`.dzn` with `height`, `width`, `ship`, `hint`, `rowsum`, `colsum`).

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
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Quandary => "quandary text",
            Format::PuzzLink => "puzz.link URL",
            Format::Janko => "janko.at block",
            Format::Csplib => "CSPLib prob014 facts",
            Format::Dzn => "MiniZinc data",
        }
    }
}

/// Which format a text is in.
pub fn detect(text: &str) -> Format {
    let t = text.trim_start();
    let lower = t.to_ascii_lowercase();
    if lower.contains("battleship/") && !t.contains('\n') || lower.starts_with("http") {
        Format::PuzzLink
    } else if lower.lines().any(|l| l.trim() == "begin") {
        Format::Janko
    } else if lower.contains("problem(") {
        Format::Csplib
    } else if lower.contains("rowsum") && lower.contains("colsum") {
        Format::Dzn
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

fn at_line(n: usize, e: impl std::fmt::Display) -> Error {
    Error::input(format!("line {n}: {e}"))
}

fn count_token(tok: &str, line: usize) -> Result<Option<usize>> {
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

fn numbers(toks: &[&str], line: usize, what: &str) -> Result<Vec<usize>> {
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
                            "unknown symbol '{c}' in the grid (use . unknown, ~ water, o submarine, < > ^ v ends, + middle)"
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
                    if a == 0 || b == 0 || a > super::MAX_SIDE || b > super::MAX_SIDE {
                        return Err(at_line(
                            n,
                            format!(
                                "a {a}×{b} board: each side must be 1 to {}",
                                super::MAX_SIDE
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
    let (rline, rows) = rows.ok_or_else(|| Error::input("no 'rows' line with the row counts"))?;
    let (cline, cols) =
        cols.ok_or_else(|| Error::input("no 'cols' line with the column counts"))?;
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
    if rows == 0 || cols == 0 || rows > super::MAX_SIDE || cols > super::MAX_SIDE {
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

/// A small reader of Prolog terms: integers, lists, `A:B`, `T@[I,J]`.
struct Terms<'a> {
    s: &'a [u8],
    k: usize,
}

impl Terms<'_> {
    fn ws(&mut self) {
        while self.k < self.s.len() && (self.s[self.k] as char).is_whitespace() {
            self.k += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.s.get(self.k) == Some(&c)).then(|| self.k += 1)
    }
    fn int(&mut self) -> Option<i64> {
        self.ws();
        let start = self.k;
        while self.k < self.s.len() && self.s[self.k].is_ascii_digit() {
            self.k += 1;
        }
        std::str::from_utf8(&self.s[start..self.k])
            .ok()?
            .parse()
            .ok()
    }
    fn word(&mut self) -> Option<char> {
        self.ws();
        let c = *self.s.get(self.k)?;
        c.is_ascii_alphabetic().then(|| {
            self.k += 1;
            c as char
        })
    }
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.eat(b'[')?;
        let mut out = Vec::new();
        if self.eat(b']').is_some() {
            return Some(out);
        }
        loop {
            out.push(item(self)?);
            if self.eat(b']').is_some() {
                return Some(out);
            }
            self.eat(b',')?;
        }
    }
}

/// The puzzle as a puzz.link URL, which [`parse_puzzlink`] reads back; `None` when the fleet
/// is not one of the standard fleets a URL can name (//c, //d, //e) or a count is over 4095.
pub fn to_puzzlink(p: &Grid) -> Option<String> {
    let fleet = match p.fleet.as_slice() {
        [3, 2, 1] => "c",
        [4, 3, 2, 1] => "d",
        [5, 4, 3, 2, 1] => "e",
        _ => return None,
    };
    let code = |s: Symbol| match s {
        Symbol::Water => 0,
        Symbol::Top => 1,
        Symbol::Bottom => 2,
        Symbol::Left => 3,
        Symbol::Right => 4,
        Symbol::Middle => 5,
        Symbol::Sub => 6,
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

/// Every `problem(Id, Fleet, RowSums, ColSums, Hints).` fact of a CSPLib prob014 file.
pub fn parse_csplib(text: &str) -> Result<Vec<(String, Grid)>> {
    let clean: String = text
        .lines()
        .map(|l| l.split('%').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let mut lines_of: std::collections::HashMap<i64, usize> = Default::default();
    let mut from = 0;
    while let Some(k) = clean[from..].find("problem(") {
        let at = from + k;
        let line = clean[..at].lines().count() + 1;
        let mut t = Terms {
            s: clean.as_bytes(),
            k: at + "problem(".len(),
        };
        let bad = || {
            at_line(
                line,
                "cannot read this problem(Id, Fleet, RowSums, ColSums, Hints) fact",
            )
        };
        let id = t.int().ok_or_else(bad)?;
        if let Some(first) = lines_of.insert(id, line) {
            return Err(at_line(
                line,
                format!("a second problem {id} (the first is at line {first}); ids must differ"),
            ));
        }
        t.eat(b',').ok_or_else(bad)?;
        let fleet_pairs = t
            .list(|t| {
                let len = t.int()?;
                t.eat(b':')?;
                Some((len as usize, t.int()? as usize))
            })
            .ok_or_else(bad)?;
        t.eat(b',').ok_or_else(bad)?;
        let rows = t.list(|t| t.int().map(|v| v as usize)).ok_or_else(bad)?;
        t.eat(b',').ok_or_else(bad)?;
        let cols = t.list(|t| t.int().map(|v| v as usize)).ok_or_else(bad)?;
        t.eat(b',').ok_or_else(bad)?;
        let mut unknown: Option<char> = None;
        let hints = t
            .list(|t| {
                let c = t.word()?;
                t.eat(b'@')?;
                let ij = t.list(|t| t.int())?;
                if ij.len() != 2 {
                    return None;
                }
                if !"wcmtblr".contains(c) {
                    unknown = Some(c);
                }
                Some((c, ij[0], ij[1]))
            })
            .ok_or_else(|| match unknown {
                Some(c) => at_line(
                    line,
                    format!("unknown hint type '{c}' (CSPLib uses w c m t b l r)"),
                ),
                None => bad(),
            })?;
        if let Some(c) = unknown {
            return Err(at_line(
                line,
                format!("problem {id}: unknown hint type '{c}' (CSPLib uses w c m t b l r)"),
            ));
        }
        t.eat(b')').ok_or_else(bad)?;
        let longest = fleet_pairs.iter().map(|p| p.0).max().unwrap_or(0);
        if fleet_pairs.iter().any(|p| p.0 == 0) {
            return Err(at_line(
                line,
                format!("problem {id}: a ship of length 0 in the fleet"),
            ));
        }
        let mut fleet = vec![0; longest];
        for (len, n) in fleet_pairs {
            fleet[len - 1] += n;
        }
        let (r, c) = (rows.len(), cols.len());
        let mut clues = vec![None; r * c];
        for (h, i, j) in hints {
            if i < 1 || j < 1 || i as usize > r || j as usize > c {
                return Err(at_line(
                    line,
                    format!("problem {id}: hint {h}@[{i},{j}] is outside the {r}×{c} board"),
                ));
            }
            clues[(i as usize - 1) * c + j as usize - 1] = Some(match h {
                'w' => Symbol::Water,
                'c' => Symbol::Sub,
                'm' => Symbol::Middle,
                't' => Symbol::Top,
                'b' => Symbol::Bottom,
                'l' => Symbol::Left,
                _ => Symbol::Right,
            });
        }
        let p = Grid::new(
            r,
            c,
            fleet,
            rows.into_iter().map(Some).collect(),
            cols.into_iter().map(Some).collect(),
            clues,
        )
        .map_err(|e| at_line(line, format!("problem {id}: {e}")))?;
        out.push((id.to_string(), p));
        from = t.k;
    }
    Ok(out)
}

/// MiniZinc benchmark data for `sb.mzn` (Solitaire Battleships).
pub fn parse_dzn(text: &str) -> Result<Grid> {
    let clean: String = text
        .lines()
        .map(|l| l.split('%').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut vals: std::collections::HashMap<String, String> = Default::default();
    for stmt in clean.split(';') {
        if let Some((k, v)) = stmt.split_once('=') {
            if vals
                .insert(k.trim().to_string(), v.trim().to_string())
                .is_some()
            {
                return Err(Error::input(format!(
                    "MiniZinc data: '{}' is given twice",
                    k.trim()
                )));
            }
        }
    }
    let get = |k: &str| -> Result<&String> {
        vals.get(k)
            .ok_or_else(|| Error::input(format!("MiniZinc data: no '{k} = ...;'")))
    };
    let ints = |k: &str| -> Result<Vec<usize>> {
        get(k)?
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse()
                    .map_err(|_| Error::input(format!("MiniZinc data: '{k}' holds '{s}'")))
            })
            .collect()
    };
    let height = *ints("height")?
        .first()
        .ok_or_else(|| Error::input("MiniZinc data: height is empty"))?;
    let width = *ints("width")?
        .first()
        .ok_or_else(|| Error::input("MiniZinc data: width is empty"))?;
    let fleet = ints("ship")?;
    if vals.contains_key("maxship") {
        let maxship = ints("maxship")?;
        if maxship != [fleet.len()] {
            return Err(Error::input(format!(
                "MiniZinc data: maxship = {} but 'ship' lists {} lengths",
                vals["maxship"],
                fleet.len()
            )));
        }
    }
    let rowsum = ints("rowsum")?;
    let colsum = ints("colsum")?;
    let hint = ints("hint")?;
    if hint.len() != height * width {
        return Err(Error::input(format!(
            "MiniZinc data: hint has {} entries for a {height}×{width} board",
            hint.len()
        )));
    }
    let clues = hint
        .iter()
        .enumerate()
        .map(|(n, &h)| match h {
            0 => Ok(None),
            1 => Ok(Some(Symbol::Water)),
            2 => Ok(Some(Symbol::Sub)),
            3 => Ok(Some(Symbol::Left)),
            4 => Ok(Some(Symbol::Right)),
            5 => Ok(Some(Symbol::Top)),
            6 => Ok(Some(Symbol::Bottom)),
            7 => Ok(Some(Symbol::Middle)),
            other => Err(Error::input(format!(
                "MiniZinc data: hint {other} at row {}, column {} is not 0..7",
                n / width + 1,
                n % width + 1
            ))),
        })
        .collect::<Result<Vec<_>>>()?;
    Grid::new(
        height,
        width,
        fleet,
        rowsum.into_iter().map(Some).collect(),
        colsum.into_iter().map(Some).collect(),
        clues,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let url = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";
        let p = parse_puzzlink(url).unwrap();
        // puzz.link's own editor wrote 6 skipped items as "gk" (1 + 5); one letter, "l", is
        // the same.
        let ours = to_puzzlink(&p).unwrap();
        assert_eq!(ours, url.replace("gk", "l"));
        assert_eq!(parse_puzzlink(&ours).unwrap(), p);
        // Long skips, two- and three-digit counts, every symbol.
        let mut big = Grid::new(
            30,
            20,
            vec![4, 3, 2, 1],
            (0..30).map(|i| (i % 3 == 0).then_some(i * 9)).collect(),
            (0..20).map(|j| (j % 4 == 1).then_some(j)).collect(),
            vec![None; 600],
        );
        if let Ok(q) = big.as_mut() {
            q.clues[0] = Some(Symbol::Sub);
            q.clues[599] = Some(Symbol::Middle);
            q.clues[333] = Some(Symbol::Left);
        }
        if let Ok(q) = big {
            let url = to_puzzlink(&q).unwrap();
            assert_eq!(parse_puzzlink(&url).unwrap(), q, "{url}");
        }
        let odd = parse_puzzlink(url)
            .map(|p| p.with_clues(p.clues.clone()))
            .map(|mut p| {
                p.fleet = vec![1];
                p
            })
            .unwrap();
        assert_eq!(
            to_puzzlink(&odd),
            None,
            "no URL for a fleet puzz.link cannot name"
        );
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
