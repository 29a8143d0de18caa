//! Partial boards: the decisions forced in every solution, drawn for any puzzle from what its
//! decision variables mean ([`crate::puzzles::Meaning`]).
//!
//! A place shows what is forced true there, `·` where every decision there is forced false
//! (nothing goes there), and `?` where the solutions differ.

use super::answer::{Forced, ForcedSet};
use crate::puzzles::{Meaning, Place};
use std::collections::BTreeMap;
use svg::Node;

/// The places the decisions' meanings name, sorted and each once, and the rows and columns
/// they span on a square-cell board (`None` for hex boards): the board a partial solution or
/// an explanation's step is drawn on.
pub fn board(meanings: &[crate::puzzles::Meaning]) -> (Vec<Place>, Option<(usize, usize)>) {
    let mut places: Vec<Place> = meanings.iter().map(|m| m.place).collect();
    places.sort();
    places.dedup();
    let extent = places.iter().try_fold((0, 0), |(r0, c0), p| match *p {
        Place::Cell(r, c) => Some((r0.max(r + 1), c0.max(c + 1))),
        Place::Hex(..) => None,
    });
    (places, extent)
}

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
        None => hex_labels(&set.places, &marks, title),
    }
}

/// Hex cells (axial coordinates) with a label in each labelled cell, shaded; the others blank.
pub(crate) fn hex_labels(
    cells: &[Place],
    labels: &std::collections::BTreeMap<Place, String>,
    title: &str,
) -> String {
    let size = 26.0;
    let centre = |q: i32, r: i32| {
        let x = size * 3f64.sqrt() * (q as f64 + r as f64 / 2.0);
        let y = size * 1.5 * r as f64;
        (x, y)
    };
    let pts: Vec<(f64, f64, Place)> = cells
        .iter()
        .filter_map(|p| match *p {
            Place::Hex(q, r) => {
                let (x, y) = centre(q, r);
                Some((x, y, *p))
            }
            Place::Cell(..) => None,
        })
        .collect();
    let (mut x0, mut y0, mut x1, mut y1) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for &(x, y, _) in &pts {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let pad = size * 1.2;
    let (w, h) = (x1 - x0 + 2.0 * pad, y1 - y0 + 2.0 * pad);
    let mut doc = crate::render::svg::document(w, h, title);
    for (x, y, p) in pts {
        let (cx, cy) = (x - x0 + pad, y - y0 + pad);
        let corners: Vec<String> = (0..6)
            .map(|k| {
                let a = std::f64::consts::PI / 180.0 * (60.0 * k as f64 - 30.0);
                format!("{:.1},{:.1}", cx + size * a.cos(), cy + size * a.sin())
            })
            .collect();
        let label = labels.get(&p);
        doc.append(
            svg::node::element::Polygon::new()
                .set("points", corners.join(" "))
                .set(
                    "fill",
                    if label.is_some() {
                        "#cfe3c8"
                    } else {
                        "#ffffff"
                    },
                )
                .set("stroke", "#444"),
        );
        if let Some(l) = label {
            doc.append(crate::render::svg::centred_text(cx, cy, l, size * 0.5).set("fill", "#222"));
        }
    }
    doc.to_string()
}
