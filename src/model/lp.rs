//! CPLEX-LP output, readable by CPLEX, Gurobi, HiGHS, CBC, SCIP and GLPK.
//!
//! Portable by construction: variable names keep to letters, digits and `_` (a `-` in a
//! model's name becomes `m`, as in `x_m1_0`, and a clash gets a numeric suffix), and a constant
//! in the objective is carried by a variable fixed to 1 (`obj_constant`), since some readers
//! (GLPK) take no bare numbers there.

use super::{Direction, Model};
use std::collections::HashSet;
use std::fmt::Write;

/// The name of the variable that carries the objective's constant.
const CONSTANT: &str = "obj_constant";

/// A portable, unique name for every variable of the model (the LP file's, and the records').
pub fn lp_names(model: &Model) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::from([CONSTANT.to_string(), "dummy".to_string()]);
    (0..model.num_vars())
        .map(|v| {
            let raw = model.name(super::Var(v as u32));
            let mut name: String = raw
                .chars()
                .map(|c| match c {
                    '-' => 'm',
                    c if c.is_ascii_alphanumeric() || c == '_' => c,
                    _ => '_',
                })
                .collect();
            if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
                name.insert(0, 'v');
            }
            let mut unique = name.clone();
            let mut k = 1;
            while !taken.insert(unique.clone()) {
                unique = format!("{name}_{k}");
                k += 1;
            }
            unique
        })
        .collect()
}

fn term_list(out: &mut String, names: &[String], terms: &[(i64, super::Var)]) {
    if terms.is_empty() {
        // An empty row still needs a term; 0 times the first variable keeps readers happy.
        out.push_str(" 0 ");
        out.push_str(names.first().map_or("dummy", String::as_str));
        return;
    }
    for (k, &(c, v)) in terms.iter().enumerate() {
        let sign = if c < 0 {
            " -"
        } else if k == 0 {
            ""
        } else {
            " +"
        };
        out.push_str(sign);
        if c.abs() != 1 {
            let _ = write!(out, " {}", c.abs());
        }
        let _ = write!(out, " {}", names[v.index()]);
    }
}

/// Row `i`'s name in a file: its family in letters, digits and `_`, then its number
/// (`one_value_per_cell_0`); the LP and MPS files' own.
pub fn row_name(family: &str, i: usize) -> String {
    let label: String = family
        .chars()
        .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
        .collect();
    format!("{label}_{i}")
}

/// The model as a CPLEX-LP file. `title` becomes a comment line.
pub fn to_lp(model: &Model, title: &str) -> String {
    lp_text(model, title, None).expect("no cap")
}

/// [`to_lp`], or `None` as soon as the text passes `cap` bytes (the server sends no larger).
pub fn to_lp_within(model: &Model, title: &str, cap: usize) -> Option<String> {
    lp_text(model, title, Some(cap))
}

/// The LP text, charged to the run as it grows, given up past `cap`.
fn lp_text(model: &Model, title: &str, cap: Option<usize>) -> Option<String> {
    let mut charged = 0;
    let names = lp_names(model);
    let mut constant = 0;
    let mut out = String::new();
    let _ = writeln!(out, "\\ {title}");
    let _ = writeln!(out, "\\ {}", model.size());
    match &model.objective {
        Some(obj) => {
            out.push_str(match obj.direction {
                Direction::Minimise => "Minimize\n obj:",
                Direction::Maximise => "Maximize\n obj:",
            });
            let (terms, whole_constant) = obj.over_vars();
            term_list(&mut out, &names, &terms);
            // Constants (the objective's own and those from negated literals), carried by a
            // variable fixed to 1.
            constant = whole_constant;
            if constant != 0 {
                let _ = write!(
                    out,
                    " {} {} {CONSTANT}",
                    if constant < 0 { "-" } else { "+" },
                    constant.abs()
                );
            }
            out.push('\n');
        }
        None => {
            out.push_str("Minimize\n obj:");
            term_list(&mut out, &names, &[]);
            out.push('\n');
        }
    }
    out.push_str("Subject To\n");
    for (i, c) in model.constraints.iter().enumerate() {
        // Writing stops with the run that writes (a no-op outside one).
        crate::guard::tick();
        let (terms, rhs) = c.over_vars();
        let _ = write!(out, " {}:", row_name(c.family, i));
        term_list(&mut out, &names, &terms);
        let _ = writeln!(out, " {} {rhs}", c.sense);
        if super::text_grown(&out, &mut charged, cap) {
            return None;
        }
    }
    if constant != 0 {
        let _ = writeln!(out, "Bounds\n {CONSTANT} = 1");
    }
    out.push_str("Binaries\n");
    for name in &names {
        let _ = writeln!(out, " {name}");
        if super::text_grown(&out, &mut charged, cap) {
            return None;
        }
    }
    out.push_str("End\n");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Sense;

    #[test]
    fn writes_sections_in_order() {
        let mut m = Model::new();
        let a = m.var("a");
        let b = m.var("b");
        m.add("pair", vec![(1, a.pos()), (2, b.negated())], Sense::Ge, 1);
        m.maximise(vec![(1, a.pos()), (1, b.pos())]);
        let lp = to_lp(&m, "test");
        let expected =
            "Maximize\n obj: a + b\nSubject To\n pair_0: a - 2 b >= -1\nBinaries\n a\n b\nEnd\n";
        assert!(lp.ends_with(expected), "{lp}");
    }

    #[test]
    fn names_are_portable_and_constants_ride_on_a_fixed_variable() {
        let mut m = Model::new();
        let a = m.var("x_-1_0");
        let b = m.var("x_m1_0");
        let c = m.var("2nd");
        m.add(
            "row",
            vec![(1, a.pos()), (1, b.pos()), (1, c.pos())],
            Sense::Le,
            2,
        );
        m.maximise(vec![(1, a.pos())]);
        m.objective_constant(16);
        let lp = to_lp(&m, "test");
        assert!(lp.contains(" obj: x_m1_0 + 16 obj_constant\n"), "{lp}");
        assert!(
            lp.contains(" row_0: x_m1_0 + x_m1_0_1 + v2nd <= 2\n"),
            "{lp}"
        );
        assert!(lp.contains("Bounds\n obj_constant = 1\n"), "{lp}");
        assert!(
            !lp.lines()
                .skip(2)
                .any(|l| l.contains('-') && !l.contains(" - ")),
            "{lp}"
        );
    }
}
