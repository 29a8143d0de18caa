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
    let mut by_word: Vec<(String, Vec<String>)> = Vec::new();
    for d in derived {
        let word = word(&d.meaning, d.value);
        let at = place_text(d.meaning.place);
        match by_word.iter_mut().find(|(w, _)| *w == word) {
            Some((_, places)) => places.push(at),
            None => by_word.push((word, vec![at])),
        }
    }
    by_word
        .into_iter()
        .map(|(word, places)| match places.len() {
            1 => format!("{} is {word}", places[0]),
            _ => format!("{} are {word}", list(&places)),
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

/// A reason in words, elements that differ only in their place said once: "the tank at
/// (1,2), (1,3) and (2,1) is attacked by as many tanks as its value".
pub fn reason_text(reason: &[Cited]) -> String {
    let mut parts: Vec<(String, Vec<String>)> = Vec::new();
    for c in reason {
        let spelled = c.place.map(|p| match p {
            Place::Hex(q, r) => format!("({q},{r})"),
            cell => place_text(cell),
        });
        let (template, at) = match spelled
            .as_ref()
            .and_then(|s| c.text.find(s.as_str()).map(|i| (s, i)))
        {
            Some((s, i)) => (
                format!("{}{{}}{}", &c.text[..i], &c.text[i + s.len()..]),
                Some(s.clone()),
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
            template.replacen("{}", &list(&places), 1)
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
