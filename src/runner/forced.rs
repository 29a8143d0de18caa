//! Partial boards: the decisions forced in every solution, drawn for any puzzle from what its
//! decision variables mean ([`crate::puzzles::Meaning`]).
//!
//! A place shows what is forced true there, `·` where every decision there is forced false
//! (nothing goes there), and `?` where the solutions differ.

use super::answer::{Forced, ForcedSet};
use crate::puzzles::{Meaning, Place};
use std::collections::BTreeMap;

pub use crate::explain::answer::board;

/// The forced set of decisions whose meanings are `meanings`, given those proved forced
/// (`out`) and how many were left undecided: places where every decision is forced false
/// (and none says anything when false) are empty.
pub fn set(meanings: &[Meaning], out: Vec<Forced>, undecided: usize) -> ForcedSet {
    let (places, extent) = board(meanings);
    let empty = if undecided == 0 {
        places
            .iter()
            .copied()
            .filter(|p| {
                let at = |m: &Meaning| m.place == *p;
                let total = meanings.iter().filter(|m| at(m)).count();
                let off = out.iter().filter(|x| !x.value && at(&x.meaning)).count();
                // A decision that says something when false (water, a covered cell) fills
                // its place.
                let fills = meanings.iter().any(|m| at(m) && m.otherwise.is_some());
                total == off && !fills
            })
            .collect()
    } else {
        Vec::new()
    };
    ForcedSet {
        forced: out,
        empty,
        places,
        extent,
        undecided,
        decisions: meanings.len(),
    }
}

/// What each place shows.
fn marks(set: &ForcedSet) -> BTreeMap<Place, String> {
    let mut out: BTreeMap<Place, String> = BTreeMap::new();
    for p in &set.empty {
        out.insert(*p, "·".into());
    }
    for f in set.forced.iter().filter(|f| !f.value) {
        if let Some(o) = &f.meaning.otherwise {
            out.insert(f.meaning.place, o.clone());
        }
    }
    for f in set.forced.iter().filter(|f| f.value) {
        let e = out.entry(f.meaning.place).or_default();
        if e.is_empty() || e == "·" {
            *e = f.meaning.says.clone();
        } else {
            *e = format!("{e}/{}", f.meaning.says);
        }
    }
    out
}

/// How many places are settled (the same in every solution), of how many.
pub fn settled(set: &ForcedSet) -> (usize, usize) {
    (marks(set).len(), set.places.len())
}

/// The partial board as text: a grid for square cells, one line a cell for hex cells.
pub fn text(set: &ForcedSet) -> String {
    let marks = marks(set);
    match set.extent {
        Some((rows, cols)) => {
            let grid: Vec<Vec<String>> = (0..rows)
                .map(|r| {
                    (0..cols)
                        .map(|c| {
                            let p = Place::Cell(r, c);
                            match marks.get(&p) {
                                Some(m) => m.clone(),
                                // Not a place of this board (a hole in a chess board).
                                None if !set.places.contains(&p) => "#".into(),
                                None => "?".into(),
                            }
                        })
                        .collect()
                })
                .collect();
            crate::render::text::grid(&grid)
        }
        None => set
            .places
            .iter()
            .map(|p| {
                let m = marks.get(p).map_or("?", String::as_str);
                match p {
                    Place::Hex(q, r) => format!("{q},{r}: {m}\n"),
                    Place::Cell(r, c) => format!("{r},{c}: {m}\n"),
                }
            })
            .collect(),
    }
}

/// The partial board as SVG: forced places shaded and labelled.
pub fn svg(set: &ForcedSet, title: &str) -> String {
    let marks = marks(set);
    match set.extent {
        Some((rows, cols)) => {
            let mut pic = crate::render::svg::GridPicture::new(rows, cols, title);
            for r in 0..rows {
                for c in 0..cols {
                    match marks.get(&Place::Cell(r, c)) {
                        Some(m) => {
                            pic.fill(r, c, "#cfe3c8");
                            pic.label_sized(r, c, m, "#222", 0.4);
                        }
                        None => pic.fill(r, c, "#ffffff"),
                    }
                }
            }
            pic.finish()
        }
        None => hex_picture(&set.places, &marks, title),
    }
}

pub(crate) use crate::explain::pictures::hex_picture;
