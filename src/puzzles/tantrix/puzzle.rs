//! Tantrix as a [`Puzzle`]: a challenge on a fixed board, or with no board a board search
//! (and, for counting, every layout up to translation and rotation).

use super::model::{self, TantrixModel};
use super::{
    parse_board, to_board_file, to_svg, to_text, verify, Board, BoardFile, Challenge, Colour, Hex,
    Placement,
};
use crate::error::{Error, Result};
use crate::puzzles::Files;
use crate::puzzles::Query;
use crate::puzzles::{Broken, Formulated, Place, Puzzle};
use std::rc::Rc;

/// The radius of the candidate region used by default for a board search: a hexagon of
/// about twice n cells (a loop of n tiles rarely strays further), and never less than needed
/// for the shape to fit.
pub fn default_radius(n: usize) -> i32 {
    let mut r = 1;
    while 3 * r * (r + 1) + 1 < 2 * n as i32 {
        r += 1;
    }
    r
}

/// The options of every Tantrix query.
#[derive(Clone, Debug, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct Options {
    /// The challenge number n ≥ 3 (default: the number of cells of the board; needed without
    /// a board)
    #[cfg_attr(feature = "cli", arg(long, short = 'n'))]
    #[serde(deserialize_with = "crate::puzzles::number_or_text")]
    pub challenge: Option<usize>,
    /// Override the designated colour (red, blue, yellow)
    #[cfg_attr(feature = "cli", arg(long))]
    pub colour: Option<String>,
    /// One variable per copy of a tile (the paper's C2) instead of per kind of tile (C2′)
    #[cfg_attr(feature = "cli", arg(long))]
    pub copies: bool,
    /// Leave out C6 (a place with two neighbours takes the loop through both)
    #[cfg_attr(feature = "cli", arg(long))]
    pub no_c6: bool,
    /// Loops ruled out in advance, by number of tiles: "3,4,5" is C7–C9 (the default); "none"
    #[cfg_attr(feature = "cli", arg(long, default_value = "3,4,5"))]
    pub short_loops: String,
    /// Leave out the degree rows (two designated lines per place, at most two of each other
    /// colour), which the paper does not have
    #[cfg_attr(feature = "cli", arg(long))]
    pub no_degree: bool,
    /// State connectivity in advance (layered reachability from one cell) instead of adding
    /// sub-loop cuts lazily
    #[cfg_attr(feature = "cli", arg(long))]
    pub reach: bool,
    /// Cut sub-loops only after each solve (the lazy method), not also during search
    #[cfg_attr(feature = "cli", arg(long))]
    pub lazy: bool,
    /// CaDiCaL engines racing on each solve, one thread each: a count (1-4) or configurations,
    /// comma-separated (default, sat, plain, unsat); the same flag as Gunport's
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value = "2", value_name = "K|NAMES")
    )]
    pub engines: crate::solve::Engines,
    /// No board: radius of the hexagon of candidate cells (default: about 2n cells)
    #[cfg_attr(feature = "cli", arg(long))]
    #[serde(deserialize_with = "crate::puzzles::number_or_text")]
    pub radius: Option<i32>,
    /// No board: the board found may have no holes
    #[cfg_attr(feature = "cli", arg(long))]
    pub hole_free: bool,
    /// No board, `count`: count layouts with holes too (by default only hole-free ones, as
    /// published)
    #[cfg_attr(feature = "cli", arg(long))]
    pub with_holes: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            challenge: None,
            colour: None,
            copies: false,
            no_c6: false,
            short_loops: "3,4,5".into(),
            no_degree: false,
            reach: false,
            lazy: false,
            engines: crate::solve::Engines(crate::solve::PORTFOLIO_CONFIGS[..2].to_vec()),
            radius: None,
            hole_free: false,
            with_holes: false,
        }
    }
}

impl Options {
    /// The model's switches.
    pub fn model(&self) -> Result<model::Options> {
        let short_loops = if self.short_loops.trim() == "none" {
            Vec::new()
        } else {
            self.short_loops
                .split(',')
                .filter(|t| !t.trim().is_empty())
                .map(|t| match t.trim().parse::<usize>() {
                    Ok(k) if (3..=8).contains(&k) => Ok(k),
                    _ => Err(Error::input(format!(
                        "--short-loops: '{t}' is not a loop length 3..8 (e.g. \"3,4,5\" or \"none\")"
                    ))),
                })
                .collect::<Result<_>>()?
        };
        Ok(model::Options {
            copies: self.copies,
            c6: !self.no_c6,
            short_loops,
            reach: self.reach,
            degree: !self.no_degree,
        })
    }

    /// The challenge: `--challenge`, else the board's size (which must agree with it).
    pub fn challenge(&self, cells: Option<usize>) -> Result<Challenge> {
        let colour = match &self.colour {
            None => None,
            Some(c) => Some(Colour::from_letter(c).ok_or_else(|| {
                Error::input(format!("--colour '{c}': give red, blue or yellow"))
            })?),
        };
        let n = match (self.challenge, cells) {
            (Some(n), _) => n,
            (None, Some(c)) => c,
            (None, None) => {
                return Err(Error::input(
                    "give a board file, or the challenge number with --challenge N",
                ))
            }
        };
        let ch = Challenge::new(n, colour)?;
        if let Some(c) = cells {
            if c != n {
                return Err(Error::input(format!(
                    "the board has {c} cells but challenge {n} has {n} tiles"
                )));
            }
        }
        Ok(ch)
    }
}

/// Where the tiles go: a fixed board, or a board to find.
pub enum Shape {
    Fixed { board: Board, name: String },
    Free { radius: i32, hole_free: bool },
}

/// A Tantrix instance.
pub struct Instance {
    pub challenge: Challenge,
    pub shape: Shape,
    /// Hole-free layouts only, when counting on no board.
    pub count_hole_free: bool,
}

/// A solution: the board and the tile on each of its cells.
#[derive(Clone, Debug)]
pub struct Solution {
    pub challenge: usize,
    pub colour: Colour,
    pub board: Board,
    pub placed: Vec<Placement>,
}

impl serde::Serialize for Solution {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let cells: Vec<serde_json::Value> = self
            .board
            .cells
            .iter()
            .zip(&self.placed)
            .map(|(h, p)| serde_json::json!({"q": h.q, "r": h.r, "tile": p.tile, "turns": p.rot}))
            .collect();
        serde_json::json!({"challenge": self.challenge, "colour": self.colour.name(),
            "cells": cells, "board_file": to_board_file(&self.board, Some(&self.placed), "")})
        .serialize(s)
    }
}

/// The built-in example: a board of 60 cells made by the board search.
pub const EXAMPLE_BOARD: &str = include_str!("../../../data/tantrix/boards/free-60.txt");

/// Tantrix on fixed boards as a [`Puzzle`].
pub struct TantrixPuzzle;

impl Puzzle for TantrixPuzzle {
    const VERB_OPTIONS: &'static [(&'static str, &'static [&'static str])] =
        &[("with_holes", &["count"])];
    const NAME: &'static str = "tantrix";
    const TITLE: &'static str = "Tantrix";
    const ABOUT: &'static str =
        "Tantrix on fixed boards: tiles on hex cells, the designated colour one loop";
    const INPUT: &'static str = "A board file (one cell `q,r` per line); none with --challenge N: find a board (`solve`) or count every layout (`count`, n ≤ 10)";
    const EXAMPLE: &'static [&'static str] = &["data/tantrix/boards/free-60.txt"];
    const NOUN: &'static str = "loop";
    const ALIASES: &'static [(&'static str, &'static str)] = &[("free", "solve")];

    type Instance = Instance;
    type Options = Options;
    type Solution = Solution;

    fn read(words: &[String], o: &Options, files: Files) -> Result<Instance> {
        o.model()?;
        match words {
            [] => {
                let challenge = o.challenge(None)?;
                let radius = o.radius.unwrap_or_else(|| default_radius(challenge.n));
                if !(1..=60).contains(&radius) {
                    return Err(Error::input(format!("--radius {radius}: give 1 to 60")));
                }
                if 3 * radius * (radius + 1) + 1 < challenge.n as i32 {
                    return Err(Error::input(format!(
                        "--radius {radius}: the hexagon has fewer than {} cells",
                        challenge.n
                    )));
                }
                Ok(Instance {
                    challenge,
                    shape: Shape::Free {
                        radius,
                        hole_free: o.hole_free,
                    },
                    count_hole_free: !o.with_holes,
                })
            }
            [path] => {
                let bf = board_file(path, files)?;
                let challenge = o.challenge(Some(bf.board.len()))?;
                Ok(Instance {
                    challenge,
                    shape: Shape::Fixed {
                        board: bf.board,
                        name: path.clone(),
                    },
                    count_hole_free: false,
                })
            }
            _ => Err(Error::input(format!(
                "tantrix takes at most one word, a board file (got {})",
                words.len()
            ))),
        }
    }

    fn describe(i: &Instance) -> String {
        let ch = &i.challenge;
        let on = match &i.shape {
            Shape::Fixed { name, .. } => format!("on {name}"),
            Shape::Free { radius, hole_free } => format!(
                "no board (search in a hexagon of radius {radius}{})",
                if *hole_free { ", hole-free" } else { "" }
            ),
        };
        format!(
            "Tantrix challenge {} ({} loop) {on}",
            ch.n,
            ch.colour.name()
        )
    }

    fn formulate<'a>(
        i: &'a Instance,
        o: &Options,
        query: Query,
    ) -> Result<Formulated<'a, Solution>> {
        let opt = o.model()?;
        let ch = &i.challenge;
        let enumerating = matches!(query, Query::Count { .. } | Query::Unique | Query::Forced);
        let mut tm = match &i.shape {
            Shape::Fixed { board, .. } => TantrixModel::fixed(ch, board, &opt),
            Shape::Free { radius, hole_free } => {
                if enumerating {
                    if ch.n > 10 {
                        return Err(Error::input(format!(
                            "counting layouts: challenge {} repeats tile 1; it needs n ≤ 10",
                            ch.n
                        )));
                    }
                    // Tile 1 sits unturned at the origin and the loop passes through it, so
                    // no cell is further than n/2 away: this region holds every layout once.
                    let region = Hex::ball((ch.n / 2) as i32);
                    TantrixModel::free(ch, &region, i.count_hole_free, &opt)
                } else {
                    TantrixModel::free(ch, &Hex::ball(*radius), *hole_free, &opt)
                }
            }
        };
        let meanings = tm.meanings();
        let decisions = tm.placement_vars();
        let model = std::mem::take(&mut tm.model);
        let tm = Rc::new(tm);
        let for_cuts = Rc::clone(&tm);
        let (n, colour) = (ch.n, ch.colour);
        let mut f = Formulated::new(
            model,
            decisions,
            meanings,
            move |a| {
                let (board, placed) = tm.solution(a);
                Solution {
                    challenge: n,
                    colour,
                    board,
                    placed,
                }
            },
            "SAT (CaDiCaL), Kino-Uno model with lazy sub-loop cuts".into(),
        );
        if !o.lazy {
            let for_watch = Rc::clone(&for_cuts);
            f.watcher = Some(Box::new(move || Box::new(for_watch.watcher())));
            f.method = "SAT (CaDiCaL), Kino-Uno model with sub-loop cuts during search".into();
        }
        f.cuts = Some(Box::new(move |a| for_cuts.cuts(a)));
        f.block_by_true_decisions = true;
        // Enumeration makes many short calls: one engine; a single hard solve: a race.
        f.engines = if enumerating {
            o.engines.0[..1].to_vec()
        } else {
            o.engines.0.clone()
        };
        if let (Shape::Free { .. }, true) = (&i.shape, enumerating) {
            f.method =
                "SAT (CaDiCaL), board search with tile 1 at the origin, enumeration with lazy cuts"
                    .into();
        }
        Ok(f)
    }

    fn verify(i: &Instance, s: &Solution) -> std::result::Result<String, Broken> {
        verify::verify(&i.challenge, &s.board, &s.placed).map(|len| {
            format!(
                "one {} loop through all {len} tiles",
                i.challenge.colour.name()
            )
        })
    }

    fn text(_: &Instance, s: &Solution) -> String {
        // The tokens read `tile@turns`: a tour or a notebook shows no other key to them.
        format!(
            "{}(each place: tile@turns, the tile's number in the set and how many sixths of a turn clockwise it is turned; docs/tantrix.md)\n",
            to_text(&s.board, Some(&s.placed))
        )
    }

    fn sketch(i: &Instance, _: &Options) -> Option<crate::puzzles::sketch::Sketch> {
        use crate::puzzles::sketch::{Sketch, Spot, SpotShape};
        let Shape::Fixed { board, .. } = &i.shape else {
            return None;
        };
        // Each place has at most six neighbours: a bound on what is drawn, before drawing.
        if 7 * board.len() > crate::puzzles::sketch::MOST_PLACES {
            return None;
        }
        // The places next to the board, where it can grow: drawn with it, dashed.
        let mut ghosts: Vec<Hex> = Vec::new();
        for h in &board.cells {
            for side in 0..6 {
                let g = h.neighbour(side);
                if board.find(g).is_none() && !ghosts.contains(&g) {
                    ghosts.push(g);
                }
            }
        }
        let all = Board::new(board.cells.iter().chain(&ghosts).copied().collect()).ok()?;
        let spot = |h: &Hex, inside: bool| Spot {
            at: format!("hex {},{}", h.q, h.r),
            value: if inside { "in" } else { "out" }.into(),
            choices: vec!["in".into(), "out".into()],
            click: 2,
            shape: SpotShape::Polygon(super::svg_hex_corners(*h)),
            ghost: !inside,
            title: format!(
                "place {},{}: click to {} the board",
                h.q,
                h.r,
                if inside { "take it off" } else { "add it to" }
            ),
        };
        let spots: Vec<Spot> = board
            .cells
            .iter()
            .map(|h| spot(h, true))
            .chain(ghosts.iter().map(|h| spot(h, false)))
            .collect();
        Some(Sketch {
            svg: crate::render::svg::overlay(to_svg(&all, None, i.challenge.colour, &[]), &spots),
            fields: Vec::new(),
            help: format!(
                "Click a place to take it off the board, a dashed one to add it; the challenge is the number of places ({} now)",
                board.len()
            ),
            owns: vec!["challenge".into()],
        })
    }

    fn edit(
        i: &Instance,
        _: &Options,
        at: &str,
        value: &str,
    ) -> Result<crate::puzzles::sketch::Input> {
        let Shape::Fixed { board, .. } = &i.shape else {
            return Err(Error::input(
                "no board to edit: give a board file (one 'q,r' per line)",
            ));
        };
        let bad = || crate::puzzles::sketch::unknown(Self::NAME, at);
        let (q, r) = at
            .strip_prefix("hex ")
            .and_then(|h| h.split_once(','))
            .ok_or_else(bad)?;
        let h = match (q.trim().parse::<i32>(), r.trim().parse::<i32>()) {
            (Ok(q), Ok(r)) if q.abs() <= 1000 && r.abs() <= 1000 => Hex::new(q, r),
            _ => return Err(bad()),
        };
        let mut cells = board.cells.clone();
        match value.trim() {
            "in" if board.find(h).is_none() => {
                if !(0..6).any(|s| board.find(h.neighbour(s)).is_some()) {
                    return Err(Error::input(format!(
                        "{at}: not next to the board (add places beside it)"
                    )));
                }
                cells.push(h)
            }
            "in" => {}
            "out" => cells.retain(|&c| c != h),
            other => {
                return Err(Error::input(format!(
                    "{at}: '{}' is not in or out",
                    crate::error::clip(other)
                )))
            }
        }
        if cells.len() < 3 {
            return Err(Error::input(
                "a board needs at least 3 places: the smallest challenge is 3",
            ));
        }
        let text = to_board_file(&Board::new(cells)?, None, "");
        Ok(crate::puzzles::sketch::Input {
            words: Vec::new(),
            text,
            options: vec![("challenge".into(), None)],
        })
    }

    fn svg(i: &Instance, _: &Options, s: &Solution, marked: &[Place]) -> String {
        to_svg(&s.board, Some(&s.placed), i.challenge.colour, marked)
    }

    fn file(i: &Instance, s: &Solution) -> Option<String> {
        Some(to_board_file(
            &s.board,
            Some(&s.placed),
            &format!("{}, solved by quandary", Self::describe(i)),
        ))
    }
}

/// Reads a board or solution file; the built-in example is read from the binary when its
/// file is not at hand, so the tour works from any folder.
fn board_file(path: &str, files: Files) -> Result<BoardFile> {
    let text = match files.read(path) {
        Err(_) if path == TantrixPuzzle::EXAMPLE[0] => EXAMPLE_BOARD.to_string(),
        read => read?,
    };
    parse_board(&text).map_err(|e| Error::input(format!("{path}: {e}")))
}

/// Checks a solution file against the rules: `Ok` with the loop's length, or why not.
pub fn check(
    path: &str,
    o: &Options,
    files: Files,
) -> Result<(Challenge, std::result::Result<usize, String>)> {
    let bf = board_file(path, files)?;
    let placed = bf.placements.ok_or_else(|| {
        Error::input(format!(
            "{path}: no tiles: a solution file gives 'q,r tile@turns' on every line"
        ))
    })?;
    let ch = o.challenge(Some(bf.board.len()))?;
    let result = verify::verify(&ch, &bf.board, &placed).map_err(|b| b.why);
    Ok((ch, result))
}
