//! The formats of benchmark sets: CSPLib prob014 Prolog facts, MiniZinc data files and the
//! Essence′ parameter files of Demystify's Solitaire Battleship model.

use super::*;
use crate::error::{Error, Result};
use crate::puzzles::battleship::{Grid, Symbol};

/// Every `problem(Id, Fleet, RowSums, ColSums, Hints).` fact of a CSPLib prob014 file.
pub fn parse_csplib(text: &str) -> Result<Vec<(String, Grid)>> {
    let clean = strip_comments(text, '%');
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
    let clean = strip_comments(text, '%');
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
    use Symbol::*;
    let codes = [
        None,
        Some(Water),
        Some(Sub),
        Some(Left),
        Some(Right),
        Some(Top),
        Some(Bottom),
        Some(Middle),
    ];
    let clues = decode_hints(&hint, width, &codes, |bad| {
        Error::input(format!("MiniZinc data: {bad} is not 0..7"))
    })?;
    Grid::new(
        height,
        width,
        fleet,
        rowsum.into_iter().map(Some).collect(),
        colsum.into_iter().map(Some).collect(),
        clues,
    )
}

/// An Essence′ parameter file for Demystify's `solitaire_battleship.eprime` (after Barbara
/// Smith's model): `letting width be 10`, `letting num_types be [4,3,2,1]` (ships of length 1,
/// 2, …), `row_tallies`, `column_tallies`, and `hint`, a matrix of 0 water, 1 circle, 2 middle,
/// 3 top, 4 bottom, 5 right, 6 left, 7 no hint, 8 some part of a ship ([`Symbol::Ship`]). `$`
/// starts a comment.
pub fn parse_essence(text: &str) -> Result<Grid> {
    let clean = strip_comments(text, '$');
    let mut vals: std::collections::HashMap<String, (usize, Vec<usize>)> = Default::default();
    let mut pieces = clean.split("letting");
    let head = pieces.next().unwrap_or("");
    let head_words: Vec<&str> = head.split_whitespace().collect();
    if !(head_words.is_empty() || head_words.first() == Some(&"language")) {
        return Err(at_line(
            1,
            "an Essence′ parameter file holds `letting NAME be VALUE` statements",
        ));
    }
    let mut line = 1 + head.matches('\n').count();
    for piece in pieces {
        let at = line;
        line += piece.matches('\n').count();
        let (name, value) = piece
            .trim()
            .split_once(char::is_whitespace)
            .and_then(|(n, rest)| Some((n, rest.trim_start().strip_prefix("be")?)))
            .ok_or_else(|| at_line(at, "expected `letting NAME be VALUE`"))?;
        if let Some(bad) = value
            .chars()
            .find(|c| !(c.is_ascii_digit() || c.is_whitespace() || ",[]".contains(*c)))
        {
            return Err(at_line(
                at,
                format!(
                    "'{name}': '{bad}' is not allowed here; a value is a count or a matrix of counts"
                ),
            ));
        }
        let numbers = value
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<usize>()
                    .map_err(|_| at_line(at, format!("'{name}': '{s}' is too large")))
            })
            .collect::<Result<Vec<_>>>()?;
        if vals.insert(name.to_string(), (at, numbers)).is_some() {
            return Err(at_line(at, format!("'{name}' is given twice")));
        }
    }
    let get = |k: &str| -> Result<&(usize, Vec<usize>)> {
        vals.get(k)
            .ok_or_else(|| Error::input(format!("Essence′ parameters: no `letting {k} be ...`")))
    };
    let one = |k: &str| -> Result<usize> {
        match get(k)? {
            (_, v) if v.len() == 1 => Ok(v[0]),
            (at, _) => Err(at_line(*at, format!("'{k}' must be one number"))),
        }
    };
    let height = one("height")?;
    let width = one("width")?;
    let fleet = get("num_types")?.1.clone();
    if vals.contains_key("LARGEST") {
        let largest = one("LARGEST")?;
        if largest != fleet.len() {
            return Err(at_line(
                get("LARGEST")?.0,
                format!(
                    "LARGEST is {largest} but num_types lists {} lengths",
                    fleet.len()
                ),
            ));
        }
    }
    let (at, hint) = get("hint")?;
    if hint.len() != height.saturating_mul(width) {
        return Err(at_line(
            *at,
            format!(
                "hint has {} entries for a {height}×{width} board",
                hint.len()
            ),
        ));
    }
    use Symbol::*;
    let codes = [
        Some(Water),
        Some(Sub),
        Some(Middle),
        Some(Top),
        Some(Bottom),
        Some(Right),
        Some(Left),
        None,
        Some(Ship),
    ];
    let clues = decode_hints(hint, width, &codes, |bad| {
        at_line(*at, format!("{bad} is not 0..8"))
    })?;
    Grid::new(
        height,
        width,
        fleet,
        get("row_tallies")?.1.iter().map(|&n| Some(n)).collect(),
        get("column_tallies")?.1.iter().map(|&n| Some(n)).collect(),
        clues,
    )
}

/// `text` with each line cut at its first `marker` (a comment), lines kept (so line numbers
/// stay).
fn strip_comments(text: &str, marker: char) -> String {
    text.lines()
        .map(|l| l.split(marker).next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A board's clues from a row-major matrix of hint codes, `table[code]` the clue of each code
/// (`None`: no clue); a code past the table is refused by `bad`, given "hint 8 at row 1,
/// column 2".
fn decode_hints(
    hint: &[usize],
    width: usize,
    table: &[Option<Symbol>],
    bad: impl Fn(String) -> Error,
) -> Result<Vec<Option<Symbol>>> {
    hint.iter()
        .enumerate()
        .map(|(n, &h)| {
            table.get(h).copied().ok_or_else(|| {
                bad(format!(
                    "hint {h} at row {}, column {}",
                    n / width + 1,
                    n % width + 1
                ))
            })
        })
        .collect()
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
