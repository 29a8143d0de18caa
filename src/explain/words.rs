//! Explanations in words: places, conclusions and reasons as a person reads them, and the
//! whole explanation as text.

use super::answer::{Cited, Explanation, Forced, Minimal};
use crate::puzzles::{Meaning, Place};

pub fn place_text(p: Place) -> String {
    match p {
        Place::Cell(r, c) => format!("({},{})", r + 1, c + 1),
        Place::Hex(q, r) => format!("hex ({q},{r})"),
    }
}

/// A decision's value in words: "(3,4) is ship", "(3,5) is water", "(2,2) is not 3".
pub fn says(meaning: &Meaning, value: bool) -> String {
    format!("{} is {}", place_text(meaning.place), word(meaning, value))
}

/// What a decision's value is called: its words, else its marks ("ship", "3", "not 3").
fn word(meaning: &Meaning, value: bool) -> String {
    match (value, &meaning.words, &meaning.otherwise) {
        (true, Some((yes, _)), _) => yes.clone(),
        (false, Some((_, no)), _) => no.clone(),
        (true, None, _) => meaning.says.clone(),
        (false, None, Some(o)) => o.clone(),
        (false, None, None) => format!("not {}", meaning.says),
    }
}

/// What a step concludes, in words: "(3,4) and (3,5) are ship, (2,4) is water".
pub fn conclusion(derived: &[Forced]) -> String {
    let mut by_word: Vec<(String, Vec<Place>)> = Vec::new();
    for d in derived {
        let word = word(&d.meaning, d.value);
        let at = d.meaning.place;
        match by_word.iter_mut().find(|(w, _)| *w == word) {
            Some((_, places)) => places.push(at),
            None => by_word.push((word, vec![at])),
        }
    }
    by_word
        .into_iter()
        .map(|(word, places)| match places.len() {
            1 => format!("{} is {word}", place_text(places[0])),
            _ => format!("{} are {word}", places_text(&places, place_text)),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// "(1,2)", "(1,2) and (3,4)", "(1,2), (3,4) and (5,6)".
fn list(places: &[String]) -> String {
    match places {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Places in words. Up to five are listed as they come; a longer list of cells is sorted
/// and its runs of three or more neighbours along a row (or a column, whichever gives the
/// shorter list) said as "(2,1) to (2,5)", so that a reason over most of a board stays
/// readable.
fn places_text(places: &[Place], spell: impl Fn(Place) -> String) -> String {
    let cells: Option<Vec<(usize, usize)>> = places
        .iter()
        .map(|p| match *p {
            Place::Cell(r, c) => Some((r, c)),
            Place::Hex(..) => None,
        })
        .collect();
    match cells {
        Some(cells) if cells.len() > 5 => {
            let by_rows = runs(&cells, false);
            let by_columns = runs(&cells, true);
            if by_columns.len() < by_rows.len() {
                list(&by_columns)
            } else {
                list(&by_rows)
            }
        }
        _ => list(&places.iter().map(|&p| spell(p)).collect::<Vec<_>>()),
    }
}

/// Cells sorted along rows (or along columns), each run of three or more neighbours one item.
fn runs(cells: &[(usize, usize)], along_columns: bool) -> Vec<String> {
    let key = |&(r, c): &(usize, usize)| if along_columns { (c, r) } else { (r, c) };
    let mut sorted: Vec<(usize, usize)> = cells.iter().map(key).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let spell = |(a, b): (usize, usize)| {
        let (r, c) = if along_columns { (b, a) } else { (a, b) };
        place_text(Place::Cell(r, c))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len()
            && sorted[j + 1].0 == sorted[i].0
            && sorted[j + 1].1 == sorted[j].1 + 1
        {
            j += 1;
        }
        if j >= i + 2 {
            out.push(format!("{} to {}", spell(sorted[i]), spell(sorted[j])));
        } else {
            out.extend((i..=j).map(|k| spell(sorted[k])));
        }
        i = j + 1;
    }
    out
}

/// A reason in words, elements that differ only in their place said once: "the tank at
/// (1,2), (1,3) and (2,1) is attacked by as many tanks as its value".
pub fn reason_text(reason: &[Cited]) -> String {
    let spell = |p: Place| match p {
        Place::Hex(q, r) => format!("({q},{r})"),
        cell => place_text(cell),
    };
    let mut parts: Vec<(String, Vec<Place>)> = Vec::new();
    for c in reason {
        let spelled = c.place.map(spell);
        let (template, at) = match spelled
            .as_ref()
            .and_then(|s| c.text.find(s.as_str()).map(|i| (s, i)))
        {
            Some((s, i)) => (
                format!("{}{{}}{}", &c.text[..i], &c.text[i + s.len()..]),
                c.place,
            ),
            None => (c.text.replace('{', "(").replace('}', ")"), None),
        };
        match parts.iter_mut().find(|(t, _)| *t == template) {
            Some((_, places)) => places.extend(at),
            None => parts.push((template, at.into_iter().collect())),
        }
    }
    parts
        .into_iter()
        .map(|(template, places)| {
            let template = match (
                template.strip_prefix("{} is "),
                template.strip_prefix("{} shows "),
            ) {
                (Some(rest), _) if places.len() > 1 => format!("{{}} are {rest}"),
                (_, Some(rest)) if places.len() > 1 => format!("{{}} show {rest}"),
                _ => template,
            };
            template.replacen("{}", &places_text(&places, spell), 1)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A step in words: what it concludes, then why.
pub fn sentence(derived: &[Forced], reason: &[Cited]) -> String {
    format!("{}: {}", conclusion(derived), reason_text(reason))
}

/// The explanation as text: one line a step, then the difficulty.
pub fn text(x: &Explanation) -> String {
    let mut out = String::new();
    for (i, s) in x.steps.iter().enumerate() {
        out += &format!(
            "{:>3}. {} [cost {}{}]\n",
            i + 1,
            sentence(&s.derived, &s.reason),
            s.cost,
            match s.minimal {
                Minimal::Smallest => ", smallest",
                Minimal::Subset => "",
            }
        );
    }
    out += &format!(
        "difficulty: hardest step {}, total {} over {} steps ({})\n",
        x.difficulty.hardest, x.difficulty.total, x.difficulty.steps, x.costs
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_of_cells_is_said_by_runs_and_a_short_one_as_it_comes() {
        // Five cells: listed in the order given.
        let five: Vec<Place> = [(2, 0), (0, 0), (0, 1), (0, 2), (1, 1)]
            .iter()
            .map(|&(r, c)| Place::Cell(r, c))
            .collect();
        assert_eq!(
            places_text(&five, place_text),
            "(3,1), (1,1), (1,2), (1,3) and (2,2)"
        );
        // Every cell of a 5×5 board but two: five row runs, not 23 places.
        let most: Vec<Place> = (0..5)
            .flat_map(|r| (0..5).map(move |c| Place::Cell(r, c)))
            .filter(|p| *p != Place::Cell(0, 0) && *p != Place::Cell(4, 4))
            .collect();
        assert_eq!(
            places_text(&most, place_text),
            "(1,2) to (1,5), (2,1) to (2,5), (3,1) to (3,5), (4,1) to (4,5) and (5,1) to (5,4)"
        );
        // A column's cells go by the column when that says it shorter; runs of two stay two.
        let column: Vec<Place> = [(0, 3), (1, 3), (2, 3), (3, 3), (0, 0), (0, 1)]
            .iter()
            .map(|&(r, c)| Place::Cell(r, c))
            .collect();
        assert_eq!(
            places_text(&column, place_text),
            "(1,1), (1,2) and (1,4) to (4,4)"
        );
    }
}
