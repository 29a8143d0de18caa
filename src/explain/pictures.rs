//! The pictures of an explanation's steps, on the board the decisions' places make: places
//! concluded before the step pale with their mark, the step's conclusions shaded, the places
//! its reason speaks of outlined in red, the puzzle's counts and given clues on every one.
//! The runner's report gives them ([`crate::runner::report::Report::step_svgs`]), drawn when
//! asked for.

use super::answer::{Explanation, Forced, Step};
use super::words::conclusion;
use crate::model::Kind;
use crate::puzzles::{Givens, Place};
use crate::render::svg::GridPicture;
use std::collections::BTreeMap;

/// One picture a step of `x`.
pub fn pictures(x: &Explanation) -> Vec<String> {
    let board = &x.board;
    let mut known: BTreeMap<Place, String> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, s) in x.steps.iter().enumerate() {
        let now: BTreeMap<Place, String> = s
            .derived
            .iter()
            .filter_map(|d| mark(d).map(|m| (d.meaning.place, m)))
            .collect();
        let caption = format!(
            "{}, step {}: {}",
            board.title,
            i + 1,
            conclusion(&s.derived)
        );
        out.push(match board.extent {
            Some((rows, cols)) => grid(
                (rows, cols),
                &board.places,
                &board.givens,
                s,
                (&now, &known),
                &caption,
            ),
            None => {
                // Hex boards: the conclusions and what is known, labelled.
                let mut labels = known.clone();
                labels.extend(now.clone());
                hex_picture(&board.places, &labels, &caption)
            }
        });
        known.extend(now);
    }
    out
}

/// What a conclusion shows at its place: its mark when true, its word for false if it has one.
fn mark(d: &Forced) -> Option<String> {
    match (d.value, &d.meaning.otherwise) {
        (true, _) => Some(d.meaning.says.clone()),
        (false, Some(o)) => Some(o.clone()),
        (false, None) => None,
    }
}

/// A step on a board of square cells: `now` its conclusions' marks, `known` the earlier ones'.
fn grid(
    (rows, cols): (usize, usize),
    places: &[Place],
    givens: &Givens,
    step: &Step,
    (now, known): (&BTreeMap<Place, String>, &BTreeMap<Place, String>),
    caption: &str,
) -> String {
    let given: BTreeMap<Place, &String> = givens.clues.iter().map(|(p, m)| (*p, m)).collect();
    let mut pic = GridPicture::with_margins(
        rows,
        cols,
        caption,
        !givens.rows.is_empty(),
        !givens.cols.is_empty(),
    );
    for (r, n) in givens.rows.iter().enumerate() {
        pic.beside_row(r, n.as_deref().unwrap_or("?"));
    }
    for (c, n) in givens.cols.iter().enumerate() {
        pic.below_column(c, n.as_deref().unwrap_or("?"));
    }
    for r in 0..rows {
        for c in 0..cols {
            let p = Place::Cell(r, c);
            let (fill, label) = match (now.get(&p), known.get(&p)) {
                (Some(m), _) => ("#f2c14e", Some(m)),
                (None, Some(m)) => ("#e4e4e4", Some(m)),
                // A clue given and not yet concluded: the clues' blue.
                (None, None) if given.contains_key(&p) => ("#dde6f0", None),
                (None, None) if places.contains(&p) => ("#ffffff", None),
                (None, None) => ("#888888", None),
            };
            pic.fill(r, c, fill);
            // A clue given shows as given (in blue ink), concluded or not: a conclusion there
            // may say less ("a ship") than the clue ("its end").
            match (given.get(&p), label) {
                (Some(m), _) => pic.label_sized(r, c, m, "#1f3b73", 0.4),
                (None, Some(m)) => pic.label_sized(r, c, m, "#222", 0.4),
                (None, None) => {}
            }
        }
    }
    for p in step.reason.iter().flat_map(|c| c.cells.iter()) {
        if let Place::Cell(r, c) = *p {
            pic.outline(r, c, "#c0392b");
        }
    }
    // A given count the reason cites (a given about one whole row or column, sitting on no
    // cell) is outlined where it is written, beside its row or below its column.
    for c in step
        .reason
        .iter()
        .filter(|c| c.kind == Kind::Given && c.place.is_none())
    {
        let cells: Vec<(usize, usize)> = c
            .cells
            .iter()
            .filter_map(|p| match *p {
                Place::Cell(r, c) => Some((r, c)),
                Place::Hex(..) => None,
            })
            .collect();
        let Some(&(r0, c0)) = cells.first() else {
            continue;
        };
        if !givens.rows.is_empty() && cells.len() == cols && cells.iter().all(|x| x.0 == r0) {
            pic.outline(r0, cols, "#c0392b");
        } else if !givens.cols.is_empty() && cells.len() == rows && cells.iter().all(|x| x.1 == c0)
        {
            pic.outline(rows, c0, "#c0392b");
        }
    }
    pic.finish()
}

/// Hex places with a label in each labelled one, shaded; the others blank
/// ([`crate::render::svg::hex_labels`]).
pub fn hex_picture(places: &[Place], labels: &BTreeMap<Place, String>, title: &str) -> String {
    let axial = |p: &Place| match *p {
        Place::Hex(q, r) => Some((q, r)),
        Place::Cell(..) => None,
    };
    let cells: Vec<(i32, i32)> = places.iter().filter_map(axial).collect();
    let labels: BTreeMap<(i32, i32), String> = labels
        .iter()
        .filter_map(|(p, l)| axial(p).map(|a| (a, l.clone())))
        .collect();
    crate::render::svg::hex_labels(&cells, &labels, title)
}
