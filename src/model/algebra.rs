//! Each constraint family in algebra, read off its rows: the shapes its rows take, written
//! as the seeds write a family (`Σ_k x_{i,j,k} = 1 for each i, j`), with how many rows have
//! each shape. Nothing is declared by the formulations: a variable's LP name is read as a stem
//! and indices (`x_2_3_B` is `x` at (2, 3, B)), and each row is written relative to its first
//! term, so that the rows that differ only by where they sit on the board share one shape.
//!
//! Within a row, the terms of one stem are written as a sum over the indices that vary among
//! them when there are three or more (`Σ_{i,j} x_{i,j,B} = 4`), one by one otherwise, with
//! offsets from the row's first term (`μ_{i,j} + μ_{i,j+1} ≤ 1`). Coefficients that differ
//! within such a sum are written `a`, right-hand sides that differ among the rows of a shape
//! `b`. What this reading cannot see (which cells attack which) is in the family's name and in
//! its example rows.

use super::{Constraint, Model};
use serde::Serialize;
use std::collections::BTreeMap;

/// One shape of a family's rows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shape {
    /// LaTeX, without delimiters: `\sum_{k} x_{i,j,k} = 1`.
    pub latex: String,
    /// The same in plain text: `sum_k x[i,j,k] = 1`.
    pub text: String,
    /// The indices the rows run over ("i, j"), empty when there is one row.
    pub for_each: String,
    /// How many rows have this shape.
    pub rows: usize,
}

/// A family in algebra: its shapes, most rows first (at most `MAX_SHAPES`), and the rest.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Family {
    pub family: String,
    pub rows: usize,
    pub shapes: Vec<Shape>,
    /// Rows whose shapes are not listed (there are more than `MAX_SHAPES`).
    pub other_rows: usize,
}

const MAX_SHAPES: usize = 4;

/// A term as read: its coefficient and its variable's indices.
type Term<'a> = (i64, Vec<&'a str>);
/// A family's shapes: (LaTeX, text) → (rows, right-hand sides, indices run over).
type Shapes = BTreeMap<(String, String), (usize, Vec<i64>, String)>;
const LETTERS: [&str; 6] = ["i", "j", "k", "l", "m", "n"];

/// A variable's name as a stem and indices: `x_2_3_B` → (`x`, [2, 3, B]).
fn split(name: &str) -> (&str, Vec<&str>) {
    let mut parts = name.split('_').filter(|p| !p.is_empty());
    let stem = parts.next().unwrap_or(name);
    (stem, parts.collect())
}

/// Every family of the model in algebra, in the order the model first uses them.
pub fn families(model: &Model) -> Vec<Family> {
    let names = super::lp::lp_names(model);
    let mut order: Vec<&'static str> = Vec::new();
    let mut by_family: BTreeMap<&str, Shapes> = BTreeMap::new();
    for c in &model.constraints {
        crate::guard::tick();
        if !by_family.contains_key(c.family) {
            order.push(c.family);
        }
        let (latex, text, for_each) = shape(c, &names);
        let e = by_family
            .entry(c.family)
            .or_default()
            .entry((latex, text))
            .or_insert((0, Vec::new(), for_each));
        e.0 += 1;
        let (_, rhs) = c.over_vars();
        if !e.1.contains(&rhs) {
            e.1.push(rhs);
        }
    }
    order
        .into_iter()
        .map(|family| {
            let shapes = &by_family[family];
            let rows: usize = shapes.values().map(|s| s.0).sum();
            let mut listed: Vec<Shape> = shapes
                .iter()
                .map(|((latex, text), (n, rhs, for_each))| {
                    let (l, t) = match rhs.as_slice() {
                        [one] => (one.to_string(), one.to_string()),
                        _ => ("b".to_string(), "b".to_string()),
                    };
                    Shape {
                        latex: latex.replace("{RHS}", &l),
                        text: text.replace("{RHS}", &t),
                        for_each: if *n > 1 {
                            for_each.clone()
                        } else {
                            String::new()
                        },
                        rows: *n,
                    }
                })
                .collect();
            listed.sort_by(|a, b| b.rows.cmp(&a.rows).then(a.text.cmp(&b.text)));
            let other_rows = listed.iter().skip(MAX_SHAPES).map(|s| s.rows).sum();
            listed.truncate(MAX_SHAPES);
            Family {
                family: family.to_string(),
                rows,
                shapes: listed,
                other_rows,
            }
        })
        .collect()
}

/// A stem as LaTeX: a Greek letter's name as the letter, a longer word upright.
fn stem_latex(stem: &str) -> String {
    const GREEK: [&str; 12] = [
        "alpha", "beta", "gamma", "delta", "lambda", "mu", "nu", "pi", "rho", "sigma", "tau", "phi",
    ];
    if GREEK.contains(&stem) {
        format!("\\{stem}")
    } else if stem.chars().count() > 1 {
        format!("\\mathit{{{stem}}}")
    } else {
        stem.to_string()
    }
}

/// An index relative to the row's anchor: the letter of its position, with an offset where
/// both are numbers; a word (a piece's letter) as itself.
fn relative(value: &str, anchor: Option<&str>, pos: usize) -> String {
    let letter = LETTERS.get(pos).copied().unwrap_or("p");
    match (number(value), anchor.and_then(number)) {
        (Some(v), Some(a)) => match v - a {
            0 => letter.to_string(),
            d if d > 0 => format!("{letter}+{d}"),
            d => format!("{letter}{d}"),
        },
        (Some(_), None) => letter.to_string(),
        (None, _) => match numbered(value) {
            Some(symbol) => symbol.to_string(),
            None => value.to_string(),
        },
    }
}

/// An index that names one of a numbered set (`t10`, tile 10): its letters, which the rows
/// of one shape run over.
fn numbered(index: &str) -> Option<&str> {
    let letters = index.trim_end_matches(|c: char| c.is_ascii_digit());
    (letters.len() < index.len()
        && !letters.is_empty()
        && letters.chars().all(|c| c.is_ascii_lowercase()))
    .then_some(letters)
}

/// An index as a number: `3`, or `m2` for -2 (the LP names write a minus sign as `m`).
fn number(index: &str) -> Option<i64> {
    match index.strip_prefix('m') {
        Some(rest) => rest.parse::<i64>().ok().map(|v| -v),
        None => index.parse().ok(),
    }
}

/// A row's shape: its LaTeX and text with the right-hand side left as `{RHS}`, and the
/// indices it runs over.
fn shape(c: &Constraint, names: &[String]) -> (String, String, String) {
    let (terms, _) = c.over_vars();
    // The terms by stem, in the order the stems first come.
    let mut groups: Vec<(&str, Vec<Term>)> = Vec::new();
    for (coef, v) in &terms {
        let (stem, idx) = split(&names[v.index()]);
        match groups.iter_mut().find(|(s, _)| *s == stem) {
            Some((_, g)) => g.push((*coef, idx)),
            None => groups.push((stem, vec![(*coef, idx)])),
        }
    }
    let anchor: Vec<&str> = groups
        .first()
        .and_then(|(_, g)| g.first())
        .map(|(_, idx)| idx.clone())
        .unwrap_or_default();
    let mut latex = Vec::new();
    let mut text = Vec::new();
    let mut free: Vec<&str> = Vec::new();
    let mut summed: Vec<&str> = Vec::new();
    // The blocks written one after the other: a stem's terms, or, where they sit at two or
    // three places (their numeric indices), each place's terms (`x[i,j,B] + sum_k
    // x[i+1,j-1,k]`: a piece at one square, any piece at another).
    let mut blocks: Vec<(&str, Vec<Term>, bool)> = Vec::new();
    for (stem, g) in &groups {
        let place = |i: &Vec<&str>| -> Vec<Option<i64>> { i.iter().map(|x| number(x)).collect() };
        let mut places: Vec<(Vec<Option<i64>>, Vec<Term>)> = Vec::new();
        for t in g {
            let at = place(&t.1);
            match places.iter_mut().find(|(p, _)| *p == at) {
                Some((_, ts)) => ts.push(t.clone()),
                None => places.push((at, vec![t.clone()])),
            }
        }
        // Places are told apart from what sits there only where an index is a word (a piece).
        let worded = g.iter().any(|t| t.1.iter().any(|x| number(x).is_none()));
        if worded && g.len() >= 3 && (2..=3).contains(&places.len()) {
            for (_, ts) in places {
                let sum = ts.len() >= 2;
                blocks.push((stem, ts, sum));
            }
        } else {
            blocks.push((stem, g.clone(), g.len() >= 3));
        }
    }
    for (stem, g, as_sum) in &blocks {
        let (stem, as_sum) = (*stem, *as_sum);
        let width = g.iter().map(|(_, i)| i.len()).max().unwrap_or(0);
        let varies: Vec<bool> = (0..width)
            .map(|p| g.iter().any(|(_, i)| i.get(p) != g[0].1.get(p)))
            .collect();
        let coefs_same = g.iter().all(|(c, _)| *c == g[0].0);
        let idx_of = |i: &[&str], sum: bool| -> Vec<String> {
            (0..width)
                .map(|p| {
                    if sum && varies[p] {
                        LETTERS.get(p).copied().unwrap_or("p").to_string()
                    } else {
                        relative(i.get(p).copied().unwrap_or("?"), anchor.get(p).copied(), p)
                    }
                })
                .collect()
        };
        let sub = |idx: &[String], latex: bool| {
            if idx.is_empty() {
                String::new()
            } else if latex {
                format!("_{{{}}}", idx.join(","))
            } else {
                format!("[{}]", idx.join(","))
            }
        };
        if as_sum {
            let over: Vec<&str> = (0..width)
                .filter(|&p| varies[p])
                .map(|p| LETTERS.get(p).copied().unwrap_or("p"))
                .collect();
            summed.extend(&over);
            let idx = idx_of(&g[0].1, true);
            for (p, &v) in varies.iter().enumerate() {
                match g[0].1.get(p) {
                    Some(x) if !v && number(x).is_some() => {
                        free.push(LETTERS.get(p).copied().unwrap_or("p"))
                    }
                    Some(x) if !v => free.extend(numbered(x)),
                    _ => {}
                }
            }
            // A coefficient common to the sum before it; coefficients that differ inside it.
            let (cl, ct, al, at) = match (coefs_same, g[0].0) {
                (true, 1) => (String::new(), String::new(), String::new(), String::new()),
                (true, -1) => ("-".into(), "-".into(), String::new(), String::new()),
                (true, c) => (
                    format!("{c}\\,"),
                    format!("{c} "),
                    String::new(),
                    String::new(),
                ),
                (false, _) => (
                    String::new(),
                    String::new(),
                    format!("a{}\\,", sub(&idx, true)),
                    format!("a{} ", sub(&idx, false)),
                ),
            };
            latex.push(format!(
                "{cl}\\sum_{{{}}} {al}{}{}",
                over.join(","),
                stem_latex(stem),
                sub(&idx, true)
            ));
            text.push(format!(
                "{ct}sum_{} {at}{stem}{}",
                over.join(","),
                sub(&idx, false)
            ));
        } else {
            for (coef, i) in g {
                let idx = idx_of(i, false);
                for (p, x) in i.iter().enumerate() {
                    if number(x).is_some() {
                        free.push(LETTERS.get(p).copied().unwrap_or("p"));
                    } else {
                        free.extend(numbered(x));
                    }
                }
                let c = match coef {
                    1 => String::new(),
                    -1 => "-".to_string(),
                    c => format!("{c}\\,"),
                };
                latex.push(format!("{c}{}{}", stem_latex(stem), sub(&idx, true)));
                text.push(format!(
                    "{}{stem}{}",
                    c.replace("\\,", " "),
                    sub(&idx, false)
                ));
            }
        }
    }
    let join = |parts: &[String]| {
        let mut s = String::new();
        for (k, p) in parts.iter().enumerate() {
            match (k, p.strip_prefix('-')) {
                (0, _) => s += p,
                (_, Some(rest)) => s += &format!(" - {rest}"),
                (_, None) => s += &format!(" + {p}"),
            }
        }
        if s.is_empty() {
            s.push('0');
        }
        s
    };
    let (sl, st) = match c.sense {
        super::Sense::Le => ("\\le", "<="),
        super::Sense::Ge => ("\\ge", ">="),
        super::Sense::Eq => ("=", "="),
    };
    let mut for_each: Vec<&str> = Vec::new();
    for l in free {
        if !summed.contains(&l) && !for_each.contains(&l) {
            for_each.push(l);
        }
    }
    for_each.sort_unstable();
    (
        format!("{} {sl} {{RHS}}", join(&latex)),
        format!("{} {st} {{RHS}}", join(&text)),
        for_each.join(", "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Sense;

    #[test]
    fn a_family_is_read_as_the_shapes_of_its_rows() {
        let mut m = Model::new();
        let mut x = BTreeMap::new();
        for i in 1..=2 {
            for j in 1..=2 {
                for k in 1..=3 {
                    x.insert((i, j, k), m.var(format!("x_{i}_{j}_{k}")));
                }
            }
        }
        let mu: Vec<_> = (1..=3).map(|j| m.var(format!("mu_1_{j}"))).collect();
        for i in 1..=2 {
            for j in 1..=2 {
                let row = (1..=3).map(|k| (1, x[&(i, j, k)].pos())).collect();
                m.add("one value per cell", row, Sense::Eq, 1);
            }
        }
        m.add(
            "adjacent",
            vec![(1, mu[0].pos()), (1, mu[1].pos())],
            Sense::Le,
            1,
        );
        m.add(
            "adjacent",
            vec![(1, mu[1].pos()), (1, mu[2].pos())],
            Sense::Le,
            1,
        );
        let f = families(&m);
        assert_eq!(f.len(), 2);
        assert_eq!(
            f[0].shapes,
            vec![Shape {
                latex: "\\sum_{k} x_{i,j,k} = 1".into(),
                text: "sum_k x[i,j,k] = 1".into(),
                for_each: "i, j".into(),
                rows: 4
            }]
        );
        assert_eq!(f[1].shapes[0].latex, "\\mu_{i,j} + \\mu_{i,j+1} \\le 1");
        assert_eq!(f[1].shapes[0].text, "mu[i,j] + mu[i,j+1] <= 1");
        assert_eq!((f[1].rows, f[1].other_rows), (2, 0));
    }
}
