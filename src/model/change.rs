//! A model changed by a person: a family (or one of its rows) dropped, a row added over named
//! variables, a variable fixed, the objective set or removed. Every change is checked against
//! the model as it stands (an unknown family, row or variable is an input error naming it),
//! and kept in order, so that the model can be written out, solved, listed or put back as
//! built. Variables are named as the model's records and its LP file name them
//! ([`super::lp::lp_names`]); a row's terms are over variables, as the records give them
//! (negated literals turned), and are added as written.

use super::{Constraint, Direction, Model, Objective, Sense, Var};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One change, as a front end sends it (JSON: `{"change": "drop", "family": ...}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case", deny_unknown_fields)]
pub enum Change {
    /// A whole family, or its row `row` (counted from 0 among the family's rows as they
    /// stand, as the records list them).
    Drop {
        family: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        row: Option<usize>,
    },
    /// `Σ coefficient·variable sense rhs`, in a family of its own name (`added` when none).
    AddRow {
        terms: Vec<(i64, String)>,
        sense: String,
        rhs: i64,
        #[serde(default = "added")]
        family: String,
    },
    /// A variable held at 0 or 1 (a row `name = value` of the family `fixed`).
    Fix { name: String, value: i64 },
    /// The objective replaced: `minimize` or `maximize` the terms (plus a constant).
    Objective {
        direction: String,
        terms: Vec<(i64, String)>,
        #[serde(default)]
        constant: i64,
    },
    /// No objective at all.
    NoObjective,
}

fn added() -> String {
    "added".to_string()
}

impl Change {
    /// The change in words, as a list of changes shows it.
    pub fn describe(&self) -> String {
        let terms = |t: &[(i64, String)]| {
            let mut s = String::new();
            for (k, (c, n)) in t.iter().enumerate() {
                let sign = if *c < 0 {
                    "- "
                } else if k > 0 {
                    "+ "
                } else {
                    ""
                };
                let c = c.unsigned_abs();
                let coef = if c == 1 {
                    String::new()
                } else {
                    format!("{c} ")
                };
                s += &format!("{}{sign}{coef}{n}", if k > 0 { " " } else { "" });
            }
            if s.is_empty() {
                s.push('0');
            }
            s
        };
        match self {
            Change::Drop { family, row: None } => format!("dropped the family '{family}'"),
            Change::Drop {
                family,
                row: Some(r),
            } => format!("dropped row {r} of the family '{family}'"),
            Change::AddRow {
                terms: t,
                sense,
                rhs,
                family,
            } => format!("added to '{family}': {} {sense} {rhs}", terms(t)),
            Change::Fix { name, value } => format!("fixed {name} = {value}"),
            Change::Objective {
                direction,
                terms: t,
                constant,
            } => {
                let c = match constant {
                    0 => String::new(),
                    c if *c < 0 => format!(" - {}", c.unsigned_abs()),
                    c => format!(" + {c}"),
                };
                format!("objective set: {direction} {}{c}", terms(t))
            }
            Change::NoObjective => "objective removed".to_string(),
        }
    }
}

/// A model as built and as changed since, with the changes in order.
#[derive(Clone, Debug)]
pub struct Changed {
    built: Model,
    /// The model with every change made.
    pub model: Model,
    changes: Vec<Change>,
    index: HashMap<String, Var>,
}

impl Changed {
    pub fn new(model: Model) -> Changed {
        let index = super::lp::lp_names(&model)
            .into_iter()
            .enumerate()
            .map(|(v, n)| (n, Var(v as u32)))
            .collect();
        Changed {
            built: model.clone(),
            model,
            changes: Vec::new(),
            index,
        }
    }

    /// The changes made, in order.
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// Whether the objective is still the one built.
    pub fn objective_as_built(&self) -> bool {
        !self
            .changes
            .iter()
            .any(|c| matches!(c, Change::Objective { .. } | Change::NoObjective))
    }

    /// Back to the model as built.
    pub fn reset(&mut self) {
        self.model = self.built.clone();
        self.changes.clear();
    }

    /// Makes one change, or refuses it (nothing changed) naming what is wrong.
    pub fn apply(&mut self, change: Change) -> Result<()> {
        match &change {
            Change::Drop { family, row } => {
                let at: Vec<usize> = self
                    .model
                    .constraints
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.family == family)
                    .map(|(i, _)| i)
                    .collect();
                if at.is_empty() {
                    return Err(Error::input(format!(
                        "no constraint family '{family}' in this model (its families: {})",
                        self.family_names().join(", ")
                    )));
                }
                match row {
                    None => self.model.constraints.retain(|c| c.family != family),
                    Some(r) => {
                        let Some(&i) = at.get(*r) else {
                            return Err(Error::input(format!(
                                "the family '{family}' has {} rows (0 to {}): no row {r}",
                                at.len(),
                                at.len() - 1
                            )));
                        };
                        self.model.constraints.remove(i);
                    }
                }
            }
            Change::AddRow {
                terms,
                sense,
                rhs,
                family,
            } => {
                let sense = match sense.as_str() {
                    "<=" | "=<" => Sense::Le,
                    ">=" | "=>" => Sense::Ge,
                    "=" | "==" => Sense::Eq,
                    other => {
                        return Err(Error::input(format!(
                            "a row's sense is '<=', '>=' or '=', not '{other}'"
                        )))
                    }
                };
                if family.trim().is_empty() {
                    return Err(Error::input("a row's family needs a name"));
                }
                let terms = self.over(terms)?;
                let family = intern(family);
                // A family the SAT engine counts holds unit-weight rows only: one a person
                // adds to it is encoded as a row like any, with the family's others.
                self.model.counted.retain(|f| *f != family);
                self.model.constraints.push(Constraint {
                    terms,
                    sense,
                    rhs: *rhs,
                    family,
                    group: None,
                });
            }
            Change::Fix { name, value } => {
                if !matches!(value, 0 | 1) {
                    return Err(Error::input(format!(
                        "a 0-1 variable is fixed to 0 or 1, not {value} ({name})"
                    )));
                }
                let v = self.var(name)?;
                self.model.constraints.push(Constraint {
                    terms: vec![(1, v.pos())],
                    sense: Sense::Eq,
                    rhs: *value,
                    family: intern("fixed"),
                    group: None,
                });
            }
            Change::Objective {
                direction,
                terms,
                constant,
            } => {
                let direction = match direction.as_str() {
                    "minimize" | "minimise" | "min" => Direction::Minimise,
                    "maximize" | "maximise" | "max" => Direction::Maximise,
                    other => {
                        return Err(Error::input(format!(
                            "an objective is 'minimize' or 'maximize', not '{other}'"
                        )))
                    }
                };
                let terms = self.over(terms)?;
                self.model.objective = Some(Objective {
                    direction,
                    terms,
                    constant: *constant,
                });
            }
            Change::NoObjective => self.model.objective = None,
        }
        self.changes.push(change);
        Ok(())
    }

    fn var(&self, name: &str) -> Result<Var> {
        self.index.get(name).copied().ok_or_else(|| {
            Error::input(format!(
                "no variable '{name}' in this model (the records' `variables` list their names)"
            ))
        })
    }

    fn over(&self, terms: &[(i64, String)]) -> Result<Vec<(i64, super::Lit)>> {
        terms
            .iter()
            .map(|(c, n)| Ok((*c, self.var(n)?.pos())))
            .collect()
    }

    fn family_names(&self) -> Vec<&'static str> {
        self.model.families().into_iter().map(|(f, _)| f).collect()
    }
}

/// A family's name for as long as the process runs: rows name their family by a `&'static
/// str`, and a family a person names is kept once, however many rows join it.
fn intern(name: &str) -> &'static str {
    use std::collections::BTreeSet;
    use std::sync::Mutex;
    static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.get(name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(n);
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Model {
        let mut m = Model::new();
        let a = m.var("a");
        let b = m.var("b");
        m.add("pair", vec![(1, a.pos()), (1, b.pos())], Sense::Le, 1);
        m.add("pair", vec![(1, a.pos()), (-1, b.pos())], Sense::Ge, 0);
        m.add("one", vec![(1, a.pos())], Sense::Ge, 0);
        m.maximise(vec![(1, a.pos()), (1, b.pos())]);
        m
    }

    #[test]
    fn changes_are_made_in_order_checked_and_undone() {
        let mut c = Changed::new(small());
        c.apply(Change::Drop {
            family: "pair".into(),
            row: Some(1),
        })
        .unwrap();
        assert_eq!(c.model.families(), vec![("pair", 1), ("one", 1)]);
        assert_eq!(c.model.constraints[0].sense, Sense::Le);
        c.apply(Change::AddRow {
            terms: vec![(2, "a".into()), (-1, "b".into())],
            sense: ">=".into(),
            rhs: 1,
            family: "mine".into(),
        })
        .unwrap();
        c.apply(Change::Fix {
            name: "b".into(),
            value: 0,
        })
        .unwrap();
        c.apply(Change::NoObjective).unwrap();
        assert_eq!(
            c.model.families(),
            vec![("pair", 1), ("one", 1), ("mine", 1), ("fixed", 1)]
        );
        assert!(c.model.objective.is_none() && !c.objective_as_built());
        assert_eq!(
            c.changes().iter().map(Change::describe).collect::<Vec<_>>(),
            vec![
                "dropped row 1 of the family 'pair'",
                "added to 'mine': 2 a - b >= 1",
                "fixed b = 0",
                "objective removed"
            ]
        );
        // Refused, naming what is wrong; the model unchanged by a refusal.
        let before = c.model.constraints.len();
        for (bad, says) in [
            (
                Change::Drop {
                    family: "nope".into(),
                    row: None,
                },
                "no constraint family 'nope' in this model (its families: pair, one, mine, fixed)",
            ),
            (
                Change::Drop {
                    family: "pair".into(),
                    row: Some(1),
                },
                "the family 'pair' has 1 rows (0 to 0): no row 1",
            ),
            (
                Change::Fix {
                    name: "zz".into(),
                    value: 1,
                },
                "no variable 'zz'",
            ),
            (
                Change::Fix {
                    name: "a".into(),
                    value: 2,
                },
                "fixed to 0 or 1, not 2",
            ),
            (
                Change::AddRow {
                    terms: vec![(1, "a".into())],
                    sense: "<".into(),
                    rhs: 0,
                    family: "x".into(),
                },
                "not '<'",
            ),
        ] {
            let e = c.apply(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{e}");
        }
        assert_eq!(c.model.constraints.len(), before);
        assert_eq!(c.changes().len(), 4);
        c.reset();
        assert_eq!(c.model.constraints, small().constraints);
        assert!(c.changes().is_empty() && c.objective_as_built());
    }

    #[test]
    fn changes_read_from_json_refuse_unknown_fields() {
        let c: Change =
            serde_json::from_str(r#"{"change": "drop", "family": "one value per cell"}"#).unwrap();
        assert_eq!(
            c,
            Change::Drop {
                family: "one value per cell".into(),
                row: None
            }
        );
        let c: Change = serde_json::from_str(
            r#"{"change": "add_row", "terms": [[1, "x_1"], [-2, "y"]], "sense": "<=", "rhs": 0}"#,
        )
        .unwrap();
        assert!(matches!(c, Change::AddRow { ref family, .. } if family == "added"));
        assert!(serde_json::from_str::<Change>(
            r#"{"change": "fix", "name": "a", "value": 1, "why": 2}"#
        )
        .is_err());
        assert!(serde_json::from_str::<Change>(r#"{"change": "explode"}"#).is_err());
    }
}
