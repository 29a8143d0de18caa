//! Free MPS output, the format every MIP solver reads (GLPK's `glpsol --freemps`, HiGHS, CBC,
//! SCIP, CPLEX, Gurobi). The same names as the LP file ([`super::lp::lp_names`]) and the same
//! rows ([`super::Constraint::over_vars`]). MPS minimises: a maximisation is written as the
//! minimisation of the negated objective, said in a comment (GLPK takes no `OBJSENSE`
//! section); the objective's constant rides on a variable fixed to 1, as in the LP file.

use super::{Direction, Model, Sense};
use std::fmt::Write;

/// The name of the variable that carries the objective's constant (the LP file's too).
const CONSTANT: &str = "obj_constant";

/// The model as a free-MPS file; `title` becomes a comment line.
pub fn to_mps(model: &Model, title: &str) -> String {
    let names = super::lp::lp_names(model);
    let mut out = String::new();
    let _ = writeln!(out, "* {title}");
    let _ = writeln!(out, "* {}", model.size());
    let (objective, constant) = match &model.objective {
        Some(o) => o.over_vars(),
        None => (Vec::new(), 0),
    };
    let scale = match model.objective.as_ref().map(|o| o.direction) {
        Some(Direction::Maximise) => {
            out.push_str("* maximisation written as minimisation of the negated objective\n");
            -1
        }
        _ => 1,
    };
    out.push_str("NAME quandary\nROWS\n N obj\n");
    // Each variable's column: (row name, coefficient), the objective first.
    let mut columns: Vec<Vec<(String, i64)>> = vec![Vec::new(); names.len()];
    for (c, v) in objective {
        columns[v.index()].push(("obj".into(), c * scale));
    }
    let mut rhs = Vec::new();
    for (i, c) in model.constraints.iter().enumerate() {
        crate::guard::tick();
        let row = super::lp::row_name(c.family, i);
        let kind = match c.sense {
            Sense::Le => "L",
            Sense::Ge => "G",
            Sense::Eq => "E",
        };
        let _ = writeln!(out, " {kind} {row}");
        let (terms, b) = c.over_vars();
        for (coef, v) in terms {
            columns[v.index()].push((row.clone(), coef));
        }
        if b != 0 {
            rhs.push((row, b));
        }
    }
    out.push_str("COLUMNS\n M1 'MARKER' 'INTORG'\n");
    for (name, column) in names.iter().zip(&columns) {
        if column.is_empty() {
            // A variable in no row is still declared.
            let _ = writeln!(out, " {name} obj 0");
        }
        for (row, coef) in column {
            let _ = writeln!(out, " {name} {row} {coef}");
        }
    }
    if constant != 0 {
        let _ = writeln!(out, " {CONSTANT} obj {}", constant * scale);
    }
    out.push_str(" M2 'MARKER' 'INTEND'\nRHS\n");
    for (row, b) in rhs {
        let _ = writeln!(out, " RHS {row} {b}");
    }
    out.push_str("BOUNDS\n");
    for name in &names {
        let _ = writeln!(out, " BV BND {name}");
    }
    if constant != 0 {
        let _ = writeln!(out, " FX BND {CONSTANT} 1");
    }
    out.push_str("ENDATA\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_rows_columns_and_a_negated_maximisation() {
        let mut m = Model::new();
        let a = m.var("a");
        let b = m.var("b");
        m.add("pair", vec![(1, a.pos()), (2, b.negated())], Sense::Ge, 1);
        m.maximise(vec![(1, a.pos()), (1, b.pos())]);
        let mps = to_mps(&m, "test");
        let body = mps.split_once("NAME").unwrap().1;
        assert_eq!(
            body,
            " quandary\nROWS\n N obj\n G pair_0\nCOLUMNS\n M1 'MARKER' 'INTORG'\n a obj -1\n a pair_0 1\n b obj -1\n b pair_0 -2\n M2 'MARKER' 'INTEND'\nRHS\n RHS pair_0 -1\nBOUNDS\n BV BND a\n BV BND b\nENDATA\n"
        );
        assert!(
            mps.contains("* maximisation written as minimisation"),
            "{mps}"
        );
    }
}
