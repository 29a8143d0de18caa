//! OPB output (the pseudo-Boolean competition format), readable by RoundingSat, Sat4j, Exact
//! and other pseudo-Boolean solvers. Variables are written `x1 .. xN` in model order; a comment
//! line per variable records its name.

use super::{Direction, Model, Sense};
use std::fmt::Write;

fn terms_text(out: &mut String, terms: &[(i64, super::Var)], scale: i64) {
    for &(c, v) in terms {
        let _ = write!(out, "{:+} x{} ", c * scale, v.0 + 1);
    }
}

/// The model as an OPB file. `<=` rows are negated into `>=` rows; a maximised objective is
/// negated into a minimised one (the file says so in a comment).
pub fn to_opb(model: &Model, title: &str) -> String {
    opb_text(model, title, None).expect("no cap")
}

/// [`to_opb`], or `None` as soon as the text passes `cap` bytes (the server sends no larger).
pub fn to_opb_within(model: &Model, title: &str, cap: usize) -> Option<String> {
    opb_text(model, title, Some(cap))
}

/// The OPB text, charged to the run as it grows, given up past `cap`.
fn opb_text(model: &Model, title: &str, cap: Option<usize>) -> Option<String> {
    let mut charged = 0;
    // The rows are counted as they are written; the header that names the count goes in
    // front at the end (a first pass to count them took seconds on large models).
    let mut rows = 0;
    let mut out = String::new();
    let _ = writeln!(out, "* {title}");
    for v in 0..model.num_vars() {
        let _ = writeln!(out, "* x{} = {}", v + 1, model.name(super::Var(v as u32)));
        if super::text_grown(&out, &mut charged, cap) {
            return None;
        }
    }
    if let Some(obj) = &model.objective {
        let (terms, whole_constant) = obj.over_vars();
        let scale = match obj.direction {
            Direction::Minimise => 1,
            Direction::Maximise => {
                out.push_str("* maximisation written as minimisation of the negated objective\n");
                -1
            }
        };
        let constant = whole_constant * scale;
        if constant != 0 {
            let _ = writeln!(out, "* objective constant {constant} left out");
        }
        out.push_str("min: ");
        terms_text(&mut out, &terms, scale);
        out.push_str(";\n");
    }
    for c in &model.constraints {
        // Writing stops with the run that writes (a no-op outside one).
        crate::guard::tick();
        let (terms, rhs) = c.over_vars();
        if terms.is_empty() {
            // A constant row: write it only if it is false, as an infeasible row.
            if !c.holds(&vec![false; model.num_vars()]) {
                let _ = writeln!(out, "* constant row of family '{}' is false", c.family);
                out.push_str(">= 1 ;\n");
            }
            continue;
        }
        let (scale, sense, rhs) = match c.sense {
            Sense::Ge => (1, ">=", rhs),
            Sense::Eq => (1, "=", rhs),
            Sense::Le => (-1, ">=", -rhs),
        };
        terms_text(&mut out, &terms, scale);
        let _ = writeln!(out, "{sense} {rhs} ;");
        rows += 1;
        if super::text_grown(&out, &mut charged, cap) {
            return None;
        }
    }
    let header = format!("* #variable= {} #constraint= {}\n", model.num_vars(), rows);
    out.insert_str(0, &header);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn less_or_equal_rows_are_negated() {
        let mut m = Model::new();
        let a = m.var("a");
        let b = m.var("b");
        m.add("t", vec![(2, a.pos()), (1, b.pos())], Sense::Le, 2);
        m.minimise(vec![(1, a.negated())]);
        let opb = to_opb(&m, "t");
        assert!(opb.contains("min: -1 x1 ;"), "{opb}");
        assert!(opb.contains("-2 x1 -1 x2 >= -2 ;"), "{opb}");
        assert!(opb.starts_with("* #variable= 2 #constraint= 1\n"));
    }
}
