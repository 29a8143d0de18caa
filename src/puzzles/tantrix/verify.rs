//! An independent check of a Tantrix solution, sharing nothing with the model but the tile
//! table and the board: the right tiles, matching edges, no designated line at the boundary,
//! and the designated lines forming a single loop through the whole board.

use super::{all_tiles, Board, Challenge, Placement, DIRS};
use crate::puzzles::{Broken, Place};
use std::collections::HashMap;

/// `Ok(loop length)` or what is wrong and where (the cells named).
pub fn verify(ch: &Challenge, board: &Board, placed: &[Placement]) -> Result<usize, Broken> {
    if placed.len() != board.cells.len() {
        return Err(format!(
            "{} placements for {} cells",
            placed.len(),
            board.cells.len()
        )
        .into());
    }
    if board.cells.len() != ch.n {
        return Err(format!(
            "the board has {} cells, challenge {} has {} tiles",
            board.cells.len(),
            ch.n,
            ch.n
        )
        .into());
    }
    let tiles = all_tiles();
    // Tiles used as many times as the challenge has them.
    let mut used: HashMap<usize, usize> = HashMap::new();
    for p in placed {
        *used.entry(p.tile).or_default() += 1;
    }
    let wanted = |t: usize| {
        ch.tiles
            .iter()
            .zip(&ch.counts)
            .find(|(x, _)| x.number == t)
            .map_or(0, |(_, &k)| k)
    };
    let times = |k: usize| match k {
        0 => "not".to_string(),
        1 => "once".to_string(),
        k => format!("{k} times"),
    };
    // A tile the challenge does not have is named first: it is the likelier mistake, and the
    // tile it replaced then shows up as missing.
    let mismatch = (1..=56)
        .map(|t| (t, used.get(&t).copied().unwrap_or(0), wanted(t)))
        .filter(|&(_, got, want)| got != want)
        .min_by_key(|&(t, _, want)| (want > 0, t));
    if let Some((t, got, want)) = mismatch {
        return Err(Broken::from(if want == 0 {
            format!(
                "tile {t} is used {}, but challenge {} does not have it",
                times(got),
                ch.n
            )
        } else {
            format!(
                "tile {t} is used {}, challenge {} uses it {}",
                times(got),
                ch.n,
                times(want)
            )
        }));
    }
    let pos: HashMap<(i32, i32), usize> = board
        .cells
        .iter()
        .enumerate()
        .map(|(c, h)| ((h.q, h.r), c))
        .collect();
    // Colour of the painted face of cell c on side s (clockwise from NE).
    let colour = |c: usize, s: usize| {
        let p = placed[c];
        tiles[p.tile - 1].edges[(s + 6 - p.rot % 6) % 6]
    };
    let next = |c: usize, s: usize| -> Option<usize> {
        let h = board.cells[c];
        pos.get(&(h.q + DIRS[s].0, h.r + DIRS[s].1)).copied()
    };
    for c in 0..board.cells.len() {
        let h = board.cells[c];
        for s in 0..6 {
            match next(c, s) {
                None if colour(c, s) == ch.colour => {
                    return Err(Broken::at(
                        format!(
                            "the {} line of cell {},{} ends at the board's boundary (side {s})",
                            ch.colour.name(),
                            h.q,
                            h.r
                        ),
                        [Place::Hex(h.q, h.r)],
                    ))
                }
                Some(d) if colour(d, (s + 3) % 6) != colour(c, s) => {
                    let g = board.cells[d];
                    return Err(Broken::at(
                        format!(
                            "cells {},{} and {},{} touch with {} against {}",
                            h.q,
                            h.r,
                            g.q,
                            g.r,
                            colour(c, s).name(),
                            colour(d, (s + 3) % 6).name()
                        ),
                        [Place::Hex(h.q, h.r), Place::Hex(g.q, g.r)],
                    ));
                }
                _ => {}
            }
        }
    }
    // Follow the designated line from cell 0 until it closes.
    let sides_of =
        |c: usize| -> Vec<usize> { (0..6).filter(|&s| colour(c, s) == ch.colour).collect() };
    let first = sides_of(0);
    if first.len() != 2 {
        return Err(Broken::at(
            "cell 0 does not carry the designated colour",
            [Place::Hex(board.cells[0].q, board.cells[0].r)],
        ));
    }
    let (mut c, mut out) = (0usize, first[1]);
    let mut seen = vec![false; board.cells.len()];
    let mut length = 0;
    loop {
        if seen[c] {
            break;
        }
        seen[c] = true;
        length += 1;
        let d = next(c, out).ok_or("the loop leaves the board")?;
        let into = (out + 3) % 6;
        let s = sides_of(d);
        out = if s[0] == into { s[1] } else { s[0] };
        c = d;
    }
    if c != 0 || length != board.cells.len() {
        let missed = seen.iter().filter(|&&s| !s).count();
        return Err(Broken::at(
            format!(
                "the {} lines form more than one loop: the loop through cell {},{} has {length} tiles, {missed} cells are on other loops",
                ch.colour.name(),
                board.cells[0].q,
                board.cells[0].r
            ),
            // The cells off the first loop.
            (0..board.cells.len())
                .filter(|&c| !seen[c])
                .map(|c| Place::Hex(board.cells[c].q, board.cells[c].r)),
        ));
    }
    Ok(length)
}
