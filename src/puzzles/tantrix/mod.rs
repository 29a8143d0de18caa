//! Tantrix on fixed boards (Kino & Uno, Algorithms 5, 2012): put the challenge's tiles on the
//! given hex cells so that touching edges match and the lines of the designated colour form one
//! loop that never meets the board's boundary.
//!
//! Geometry (as `data/tantrix/`): pointy-top hexes in axial coordinates (q, r), q to the east,
//! r to the south-east; sides 0..5 = NE, E, SE, SW, W, NW, clockwise. Tile t turned k steps
//! clockwise shows on side i the colour its edge list has at (i − k) mod 6.

pub mod model;
pub mod puzzle;
pub mod verify;
pub mod watcher;

pub use puzzle::TantrixPuzzle;

use crate::error::{Error, Result};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Colour {
    Red,
    Blue,
    Yellow,
    Green,
    White,
}

impl Colour {
    pub fn from_letter(c: &str) -> Option<Colour> {
        match c.trim() {
            "R" | "r" | "red" => Some(Colour::Red),
            "B" | "b" | "blue" => Some(Colour::Blue),
            "Y" | "y" | "yellow" => Some(Colour::Yellow),
            "G" | "g" | "green" => Some(Colour::Green),
            "W" | "w" | "white" => Some(Colour::White),
            _ => None,
        }
    }
    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Blue => 'B',
            Colour::Yellow => 'Y',
            Colour::Green => 'G',
            Colour::White => 'W',
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
            Colour::White => "white",
        }
    }
    pub fn ink(self) -> &'static str {
        match self {
            Colour::Red => "#d62828",
            Colour::Blue => "#1d4ed8",
            Colour::Yellow => "#f2c200",
            Colour::Green => "#16a34a",
            Colour::White => "#ffffff",
        }
    }
}

/// A tile: its number, back colour and the colours of its six edges, clockwise on the face.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    pub number: usize,
    pub back: Colour,
    pub edges: [Colour; 6],
}

impl Tile {
    /// The colour on side `side` with the tile turned `rot` steps clockwise.
    pub fn side(&self, rot: usize, side: usize) -> Colour {
        self.edges[(side + 6 - rot % 6) % 6]
    }
}

const TILES_CSV: &str = include_str!("../../../data/tantrix/tiles.csv");

/// The 56 tiles of the game, by number (index 0 is tile 1).
pub fn all_tiles() -> Vec<Tile> {
    let mut out = Vec::new();
    for line in TILES_CSV.lines() {
        let f: Vec<&str> = line.split(',').collect();
        if line.starts_with('#') || f.len() != 8 || f[0] == "tile" {
            continue;
        }
        let colour = |s: &str| Colour::from_letter(s).expect("the tile table has known colours");
        out.push(Tile {
            number: f[0].parse().expect("the tile table numbers its tiles"),
            back: colour(f[1]),
            edges: std::array::from_fn(|i| colour(f[2 + i])),
        });
    }
    out
}

pub use crate::geometry::hex::{Hex, DIRS};

/// The largest challenge number accepted.
pub const MAX_CHALLENGE: usize = 1000;

/// A challenge: n tiles, the Discovery tiles 1..10 repeated, and the designated colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub n: usize,
    pub colour: Colour,
    /// The tiles in play (Discovery tiles, numbers 1..=min(n, 10)).
    pub tiles: Vec<Tile>,
    /// `counts[i]` copies of `tiles[i]` (the paper's C2′: ⌈(n + 1 − i) / 10⌉).
    pub counts: Vec<usize>,
}

impl Challenge {
    /// Challenge `n`, with its own designated colour unless `colour` is given.
    pub fn new(n: usize, colour: Option<Colour>) -> Result<Challenge> {
        if n < 3 {
            return Err(Error::input(format!(
                "challenge {n}: the challenge number is at least 3"
            )));
        }
        if n > MAX_CHALLENGE {
            return Err(Error::input(format!(
                "challenge {n}: at most {MAX_CHALLENGE} is accepted"
            )));
        }
        let all = all_tiles();
        let tiles: Vec<Tile> = all[..n.min(10)].to_vec();
        let counts: Vec<usize> = (1..=tiles.len()).map(|i| (n + 10 - i) / 10).collect();
        let back = if n.is_multiple_of(10) { 10 } else { n % 10 };
        let colour = colour.unwrap_or(all[back - 1].back);
        if !matches!(colour, Colour::Red | Colour::Blue | Colour::Yellow) {
            return Err(Error::input(format!(
                "colour {}: the Discovery tiles carry red, blue and yellow lines",
                colour.name()
            )));
        }
        Ok(Challenge {
            n,
            colour,
            tiles,
            counts,
        })
    }
}

/// A set of hex cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub cells: Vec<Hex>,
    index: HashMap<Hex, usize>,
}

impl Board {
    pub fn new(cells: Vec<Hex>) -> Result<Board> {
        let mut index = HashMap::new();
        for (i, &h) in cells.iter().enumerate() {
            if index.insert(h, i).is_some() {
                return Err(Error::input(format!("cell {},{} is given twice", h.q, h.r)));
            }
        }
        Ok(Board { cells, index })
    }
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    pub fn find(&self, h: Hex) -> Option<usize> {
        self.index.get(&h).copied()
    }
    /// The cell on side `side` of cell `c`, if on the board.
    pub fn neighbour(&self, c: usize, side: usize) -> Option<usize> {
        self.find(self.cells[c].neighbour(side))
    }
}

/// Tile number and clockwise turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Placement {
    pub tile: usize,
    pub rot: usize,
}

/// A board file: cells, and for a solution file a placement on every cell.
pub struct BoardFile {
    pub board: Board,
    pub placements: Option<Vec<Placement>>,
}

/// Reads a board: one cell per line as `q,r` (or `q r`), optionally followed by `t@k` for a
/// solution; `#` starts a comment. Tokens `(q,r):t@k` (the data README's form) are read too.
pub fn parse_board(text: &str) -> Result<BoardFile> {
    let mut cells = Vec::new();
    let mut placed: Vec<Option<Placement>> = Vec::new();
    // The line each cell was read on, for errors about the board as a whole.
    let mut line_of: Vec<usize> = Vec::new();
    let at = |n: usize, why: String| Error::input(format!("line {n}: {why}"));
    for (k, raw) in text.lines().enumerate() {
        let n = k + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if line.contains('(') {
            // (q,r):t@k tokens; anything before the first '(' (e.g. "n=3 colour=Y:") is a label.
            let body = &line[line.find('(').unwrap_or(0)..];
            for tok in body.split_whitespace() {
                let (c, p) = tok
                    .split_once(':')
                    .ok_or_else(|| at(n, format!("'{tok}' is not (q,r):tile@turns")))?;
                let c = c.trim_start_matches('(').trim_end_matches(')');
                cells.push(parse_hex(c).map_err(|e| at(n, e))?);
                line_of.push(n);
                placed.push(Some(parse_placement(p).map_err(|e| at(n, e))?));
            }
            continue;
        }
        let mut parts = line.split_whitespace().collect::<Vec<_>>();
        if parts.len() >= 2 && !parts[0].contains(',') {
            // "q r [t@k]"
            let joined = format!("{},{}", parts[0], parts[1]);
            let rest: Vec<&str> = parts[2..].to_vec();
            cells.push(parse_hex(&joined).map_err(|e| at(n, e))?);
            line_of.push(n);
            parts = rest;
        } else {
            cells.push(parse_hex(parts[0]).map_err(|e| at(n, e))?);
            line_of.push(n);
            parts.remove(0);
        }
        match parts[..] {
            [] => placed.push(None),
            [p] => placed.push(Some(parse_placement(p).map_err(|e| at(n, e))?)),
            _ => {
                return Err(at(
                    n,
                    format!("'{line}': expected 'q,r' or 'q,r tile@turns'"),
                ))
            }
        }
    }
    if cells.is_empty() {
        return Err(Error::input("no cells: give one 'q,r' per line"));
    }
    let mut first: HashMap<Hex, usize> = HashMap::new();
    for (&h, &n) in cells.iter().zip(&line_of) {
        if let Some(k) = first.insert(h, n) {
            return Err(at(
                n,
                format!("cell {},{} is given twice (first on line {k})", h.q, h.r),
            ));
        }
    }
    let board = Board::new(cells)?;
    let placements = if placed.iter().all(Option::is_some) {
        Some(placed.into_iter().flatten().collect())
    } else if placed.iter().all(Option::is_none) {
        None
    } else {
        let k = placed.iter().position(Option::is_none).unwrap_or(0);
        let (with, without) = if k == 0 {
            (placed.iter().position(Option::is_some).unwrap_or(0), 0)
        } else {
            (0, k)
        };
        return Err(at(
            line_of[without],
            format!(
                "no tile@turns here, but line {} has one: give a tile on every line or on none",
                line_of[with]
            ),
        ));
    };
    Ok(BoardFile { board, placements })
}

fn parse_hex(s: &str) -> std::result::Result<Hex, String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("'{s}' is not a cell q,r"))?;
    let num = |t: &str| -> std::result::Result<i32, String> {
        let v: i32 = t
            .trim()
            .parse()
            .map_err(|_| format!("'{s}' is not a cell q,r of integers"))?;
        if v.abs() > 100_000 {
            return Err(format!("'{s}': coordinates beyond ±100000"));
        }
        Ok(v)
    };
    Ok(Hex::new(num(a)?, num(b)?))
}

fn parse_placement(s: &str) -> std::result::Result<Placement, String> {
    let (t, k) = s
        .split_once('@')
        .ok_or_else(|| format!("'{s}' is not tile@turns"))?;
    let tile: usize = t
        .trim()
        .parse()
        .map_err(|_| format!("'{s}': '{t}' is not a tile number"))?;
    let rot: usize = k
        .trim()
        .parse()
        .map_err(|_| format!("'{s}': '{k}' is not a number of turns 0..5"))?;
    if !(1..=56).contains(&tile) {
        return Err(format!("'{s}': there is no tile {tile} (tiles are 1..56)"));
    }
    if rot > 5 {
        return Err(format!("'{s}': turns are 0..5"));
    }
    Ok(Placement { tile, rot })
}

/// A board file for `cells` (and a solution file when `placements` is given).
pub fn to_board_file(board: &Board, placements: Option<&[Placement]>, comment: &str) -> String {
    let mut out = String::new();
    for line in comment.lines() {
        out.push_str(&format!("# {line}\n"));
    }
    for (c, h) in board.cells.iter().enumerate() {
        match placements {
            Some(p) => out.push_str(&format!("{},{} {}@{}\n", h.q, h.r, p[c].tile, p[c].rot)),
            None => out.push_str(&format!("{},{}\n", h.q, h.r)),
        }
    }
    out
}

/// A drawing in text: one line per row r, cells shifted half a cell per row as on the board,
/// each cell showing `tile@turns` (or `..` on an empty board).
pub fn to_text(board: &Board, placements: Option<&[Placement]>) -> String {
    let rmin = board.cells.iter().map(|h| h.r).min().unwrap_or(0);
    let rmax = board.cells.iter().map(|h| h.r).max().unwrap_or(0);
    // Screen column of a cell: 2q + r (in half cells).
    let x = |h: &Hex| 2 * h.q + h.r;
    let xmin = board.cells.iter().map(x).min().unwrap_or(0);
    let mut out = String::new();
    for r in rmin..=rmax {
        let mut row: Vec<(i32, String)> = board
            .cells
            .iter()
            .enumerate()
            .filter(|(_, h)| h.r == r)
            .map(|(c, h)| {
                let label = match placements {
                    Some(p) => format!("{:>2}@{}", p[c].tile, p[c].rot),
                    None => " .. ".to_string(),
                };
                (x(h), label)
            })
            .collect();
        row.sort();
        let mut line = String::new();
        for (xx, label) in row {
            let col = ((xx - xmin) * 3) as usize;
            while line.chars().count() < col {
                line.push(' ');
            }
            line.push_str(&label);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// An SVG of the board with each tile's three lines drawn in colour, the designated colour
/// thicker.
/// The corners of cell `h` on [`to_svg`]'s pictures (which use these coordinates as they are).
pub fn svg_hex_corners(h: Hex) -> Vec<(f64, f64)> {
    let w = 3f64.sqrt() * SVG_HEX;
    let (cx, cy) = (
        w * (h.q as f64 + h.r as f64 / 2.0),
        1.5 * SVG_HEX * h.r as f64,
    );
    (0..6)
        .map(|k| {
            let a = (60.0 * k as f64 - 90.0_f64).to_radians();
            (cx + SVG_HEX * a.cos(), cy + SVG_HEX * a.sin())
        })
        .collect()
}

/// The radius of a cell on [`to_svg`]'s pictures.
const SVG_HEX: f64 = 40.0;

/// The board as SVG: tiles drawn with their lines (the designated colour's wider), or blank
/// cells; the cells in `marked` ringed red (a broken rule's).
pub fn to_svg(
    board: &Board,
    placements: Option<&[Placement]>,
    designated: Colour,
    marked: &[crate::puzzles::Place],
) -> String {
    use svg::node::element::{Circle, Path, Polygon, Rectangle};
    use svg::Document;
    let tiles = all_tiles();
    let size = SVG_HEX;
    let w = 3f64.sqrt() * size;
    let centre = |h: &Hex| (w * (h.q as f64 + h.r as f64 / 2.0), 1.5 * size * h.r as f64);
    let pts: Vec<(f64, f64)> = board.cells.iter().map(centre).collect();
    let pad = size * 1.2;
    let xmin = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min) - pad;
    let xmax = pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max) + pad;
    let ymin = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min) - pad;
    let ymax = pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max) + pad;
    let mut doc = Document::new()
        .set("viewBox", (xmin, ymin, xmax - xmin, ymax - ymin))
        .set("width", (xmax - xmin).round())
        .set("height", (ymax - ymin).round());
    doc = doc.add(
        Rectangle::new()
            .set("x", xmin)
            .set("y", ymin)
            .set("width", xmax - xmin)
            .set("height", ymax - ymin)
            .set("fill", "#f4f1ea"),
    );
    // Corner k of a pointy-top hex at angle 60k − 90 degrees; side i (NE, E, ...) runs from
    // corner i to corner i + 1, its midpoint at angle 60i − 60.
    let corner = |(cx, cy): (f64, f64), k: usize| {
        let a = (60.0 * k as f64 - 90.0).to_radians();
        (cx + size * a.cos(), cy + size * a.sin())
    };
    let mid = |(cx, cy): (f64, f64), side: usize| {
        let a = (60.0 * side as f64 - 60.0).to_radians();
        let d = size * 3f64.sqrt() / 2.0;
        (cx + d * a.cos(), cy + d * a.sin())
    };
    for (c, &p) in pts.iter().enumerate() {
        let corners: Vec<String> = (0..6)
            .map(|k| {
                let (x, y) = corner(p, k);
                format!("{x:.2},{y:.2}")
            })
            .collect();
        doc = doc.add(
            Polygon::new()
                .set("points", corners.join(" "))
                .set(
                    "fill",
                    if placements.is_some() {
                        "#1a1a1a"
                    } else {
                        "#ddd"
                    },
                )
                .set("stroke", "#777")
                .set("stroke-width", 1.5),
        );
        let Some(pl) = placements else { continue };
        let tile = &tiles[pl[c].tile - 1];
        let mut drawn = Vec::new();
        for a in 0..6 {
            let colour = tile.side(pl[c].rot, a);
            if drawn.contains(&colour) {
                continue;
            }
            drawn.push(colour);
            let b = (a + 1..6)
                .find(|&b| tile.side(pl[c].rot, b) == colour)
                .expect("each colour is on two sides");
            let (ax, ay) = mid(p, a);
            let (bx, by) = mid(p, b);
            // Adjacent sides: a tight arc; two apart: a wide arc; opposite: straight.
            let gap = (b - a).min(6 - (b - a));
            let d = match gap {
                3 => format!("M {ax:.2} {ay:.2} L {bx:.2} {by:.2}"),
                _ => {
                    let k = if gap == 1 { 0.45 } else { 0.15 };
                    let (qx, qy) = (
                        p.0 + ((ax + bx) / 2.0 - p.0) * k,
                        p.1 + ((ay + by) / 2.0 - p.1) * k,
                    );
                    format!("M {ax:.2} {ay:.2} Q {qx:.2} {qy:.2} {bx:.2} {by:.2}")
                }
            };
            let width = if colour == designated { 9 } else { 6 };
            doc = doc.add(
                Path::new()
                    .set("d", d)
                    .set("fill", "none")
                    .set("stroke", colour.ink())
                    .set("stroke-width", width)
                    .set("stroke-linecap", "butt"),
            );
        }
        doc = doc.add(
            Circle::new()
                .set("cx", p.0)
                .set("cy", p.1)
                .set("r", 7)
                .set("fill", "#1a1a1a"),
        );
        doc = doc.add(
            crate::render::svg::centred_text(p.0, p.1, &tile.number.to_string(), 9.0)
                .set("fill", "#fff"),
        );
    }
    for place in marked {
        let crate::puzzles::Place::Hex(q, r) = *place else {
            continue;
        };
        let p = centre(&Hex { q, r });
        doc = doc.add(
            Circle::new()
                .set("cx", p.0)
                .set("cy", p.1)
                .set("r", size * 0.8)
                .set("fill", "none")
                .set("stroke", crate::render::svg::BROKEN)
                .set("stroke-width", 4),
        );
    }
    doc.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifty_six_tiles_each_with_three_colours_twice() {
        let t = all_tiles();
        assert_eq!(t.len(), 56);
        for tile in &t {
            for c in tile.edges {
                assert_eq!(tile.edges.iter().filter(|&&d| d == c).count(), 2);
            }
            // No rotation maps a tile to itself.
            for k in 1..6 {
                assert!((0..6).any(|i| tile.side(k, i) != tile.side(0, i)));
            }
        }
    }

    #[test]
    fn challenge_counts_and_colours() {
        let c = Challenge::new(23, None).unwrap();
        assert_eq!(c.counts, vec![3, 3, 3, 2, 2, 2, 2, 2, 2, 2]);
        assert_eq!(c.counts.iter().sum::<usize>(), 23);
        assert_eq!(c.colour, Colour::Yellow); // tile 3's back
        assert_eq!(Challenge::new(10, None).unwrap().colour, Colour::Red);
        assert_eq!(Challenge::new(7, None).unwrap().colour, Colour::Blue);
        assert!(Challenge::new(2, None).is_err());
    }

    #[test]
    fn boards_read_in_both_forms() {
        let b = parse_board("# a board\n0,0\n1 0\n0,1 # last\n").unwrap();
        assert_eq!(b.board.len(), 3);
        assert!(b.placements.is_none());
        let s = parse_board("n=3 colour=Y: (0,0):1@0 (0,1):3@0 (1,0):2@2\n").unwrap();
        assert_eq!(s.placements.unwrap()[2], Placement { tile: 2, rot: 2 });
        assert!(parse_board("0,0\n0,0\n").is_err());
        assert!(parse_board("0;0\n").is_err());
        assert!(parse_board("0,0 1@7\n").is_err());
        assert!(parse_board("0,0 1@1\n1,0\n").is_err());
    }
}
