//! CPLEX-LP output, readable by CPLEX, Gurobi, HiGHS, CBC, SCIP and GLPK.

use super::{Direction, Model, Sense};
use std::fmt::Write;

fn term_list(out: &mut String, model: &Model, terms: &[(i64, super::Var)]) {
    if terms.is_empty() {
        // An empty row still needs a term; 0 times the first variable keeps readers happy.
        out.push_str(" 0 ");
        out.push_str(if model.num_vars() > 0 {
            model.name(super::Var(0))
        } else {
            "dummy"
        });
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
        let _ = write!(out, " {}", model.name(v));
    }
}

/// The model as a CPLEX-LP file. `title` becomes a comment line.
pub fn to_lp(model: &Model, title: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\\ {title}");
    let _ = writeln!(out, "\\ {}", model.size());
    match &model.objective {
        Some(obj) => {
            out.push_str(match obj.direction {
                Direction::Minimise => "Minimize\n obj:",
                Direction::Maximise => "Maximize\n obj:",
            });
            let row = super::Constraint {
                terms: obj.terms.clone(),
                sense: Sense::Eq,
                rhs: 0,
                family: "objective",
            };
            let (terms, negated_constant) = row.over_vars();
            term_list(&mut out, model, &terms);
            // Constants (the objective's own and those from negated literals): LP files accept
            // them as a bare number.
            let constant = obj.constant - negated_constant;
            if constant != 0 {
                let _ = write!(
                    out,
                    " {} {}",
                    if constant < 0 { "-" } else { "+" },
                    constant.abs()
                );
            }
            out.push('\n');
        }
        None => {
            out.push_str("Minimize\n obj:");
            term_list(&mut out, model, &[]);
            out.push('\n');
        }
    }
    out.push_str("Subject To\n");
    for (i, c) in model.constraints.iter().enumerate() {
        let (terms, rhs) = c.over_vars();
        let label: String = c
            .family
            .chars()
            .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
            .collect();
        let _ = write!(out, " {label}_{i}:");
        term_list(&mut out, model, &terms);
        let sense = match c.sense {
            Sense::Le => "<=",
            Sense::Ge => ">=",
            Sense::Eq => "=",
        };
        let _ = writeln!(out, " {sense} {rhs}");
    }
    out.push_str("Binaries\n");
    for v in 0..model.num_vars() {
        let _ = writeln!(out, " {}", model.name(super::Var(v as u32)));
    }
    out.push_str("End\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
