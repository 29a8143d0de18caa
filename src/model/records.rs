//! The model as records, for a front end that shows a formulation to a person or rebuilds it
//! in another tool (a notebook's DataFrame, PuLP): every variable by its portable name (the
//! LP file's) with what it means in the puzzle where the formulation says, every row over
//! those names as the LP file writes it (negated literals moved to the right-hand side), and
//! the objective. One reading of the model with the LP writer: the same names
//! ([`super::lp::lp_names`]) and the same rows ([`super::Constraint::over_vars`]), so the LP
//! text written from these records is [`super::lp::to_lp`]'s (a test in the Python package
//! writes it again from them).

use super::{Direction, Model};
use serde_json::{json, Value};

/// `{"variables": [{"name", "meaning"}], "rows": [{"family", "terms": [[coef, name]], "sense",
/// "rhs"}], "objective": {"direction", "terms", "constant"} or null}`. `meanings[v]` is what
/// variable `v` says in the puzzle's terms ("(2,3) is a bishop"), where the formulation
/// records it (its decisions); other variables (auxiliary ones) have none. Charged to the
/// run as it grows, and stopped with it.
pub fn records(model: &Model, meanings: &[Option<String>]) -> Value {
    let names = super::lp::lp_names(model);
    let variables: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(v, name)| json!({"name": name, "meaning": meanings.get(v).cloned().flatten()}))
        .collect();
    let over = |terms: &[(i64, super::Var)]| -> Vec<Value> {
        terms
            .iter()
            .map(|&(c, v)| json!([c, names[v.index()]]))
            .collect()
    };
    let rows: Vec<Value> = model
        .constraints
        .iter()
        .map(|c| {
            crate::guard::charge(48 * c.terms.len() as u64 + 96);
            let (terms, rhs) = c.over_vars();
            json!({"family": c.family, "terms": over(&terms), "sense": c.sense.to_string(), "rhs": rhs})
        })
        .collect();
    let objective = model.objective.as_ref().map(|o| {
        let (terms, constant) = o.over_vars();
        json!({
            "direction": match o.direction {
                Direction::Minimise => "minimize",
                Direction::Maximise => "maximize",
            },
            "terms": over(&terms),
            "constant": constant,
        })
    });
    json!({"variables": variables, "rows": rows, "objective": objective})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Sense;

    #[test]
    fn rows_are_over_the_lp_files_names_with_negations_moved_right() {
        let mut m = Model::new();
        let a = m.var("a");
        let b = m.var("x_-1");
        m.add("pair", vec![(1, a.pos()), (2, b.negated())], Sense::Ge, 1);
        m.maximise(vec![(1, a.pos()), (3, b.negated())]);
        let r = records(&m, &[Some("(1,1) is a hole".into())]);
        assert_eq!(
            r["variables"],
            json!([{"name": "a", "meaning": "(1,1) is a hole"}, {"name": "x_m1", "meaning": null}])
        );
        assert_eq!(
            r["rows"],
            json!([{"family": "pair", "terms": [[1, "a"], [-2, "x_m1"]], "sense": ">=", "rhs": -1}])
        );
        assert_eq!(
            r["objective"],
            json!({"direction": "maximize", "terms": [[1, "a"], [-3, "x_m1"]], "constant": 3})
        );
    }
}
