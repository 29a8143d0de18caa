//! A formulation opened for a person to read, change and solve ([`OpenModel`]): the model as
//! the puzzle builds it for one instance, changed row by row ([`crate::model::change`]), then
//! solved as changed and **judged by the puzzle's verifier**, which shares nothing with the
//! model. A board the verifier rejects is not an error here but the answer: a model without a
//! family it needs has solutions that are not boards, and the report says which rule the first
//! one breaks (`verified`, `violations`) and, for a count, how many of the model's solutions
//! are boards (`verified_count`). A cut that removes boards shows in the count compared with
//! the unchanged model's.
//!
//! What is solved is the changed model alone, on the SAT backend (or HiGHS, as every run): the
//! puzzle's exact methods and restricted phases answer the puzzle, not the rows a person
//! wrote. The formulation's lazy rows (Tantrix's loop cuts), which are not in the model's
//! records, stay with it.

use super::report::{report, Report};
use super::{drive, stage, Judged, Limits, Outcome, Query};
use crate::error::{Error, Result};
use crate::model::change::{Change, Changed};
use crate::model::{Direction, Model};
use crate::puzzles::{Goal, Place, Puzzle};
use std::sync::Mutex;

/// An instance's model, open to change and to be solved as changed. See the module's note.
pub trait OpenModel: Send {
    /// The instance and the formulation.
    fn title(&self) -> &str;
    /// The model with every change made.
    fn model(&self) -> &Model;
    /// What each variable means in the puzzle, where the formulation records it.
    fn meanings(&self) -> &[Option<String>];
    /// Makes one change, or refuses it naming what is wrong.
    fn apply(&mut self, change: Change) -> Result<()>;
    /// Back to the model as built.
    fn reset(&mut self);
    fn changes(&self) -> &[Change];
    /// `query` (`solve`, `count`, `unique`, `optimum`) on the model as changed, every solution
    /// judged by the puzzle's verifier.
    fn run(&self, query: Query, limits: &Limits) -> Result<Report>;
    /// The LP relaxation of the model as changed (HiGHS), its value also in the puzzle's
    /// terms while the objective is the one built.
    fn relax(&self, deadline: Option<std::time::Instant>) -> Result<crate::solve::Relaxation>;
    /// Another solver's answer (a value for every variable, by index) judged: the first row
    /// of the model as changed it breaks, if any, and the board it decodes to as the puzzle's
    /// verifier sees it.
    fn judge(&self, assignment: &[bool]) -> Result<Report>;
}

/// [`OpenModel`] for puzzle `P`.
pub struct Opened<P: Puzzle> {
    pub(crate) instance: P::Instance,
    pub(crate) options: P::Options,
    /// The query the model was built for (its rows depend on it: symmetry breaking).
    pub(crate) built_for: Query,
    pub(crate) title: String,
    pub(crate) goal: Option<Goal>,
    pub(crate) meanings: Vec<Option<String>>,
    pub(crate) changed: Changed,
}

/// What the verifier said of the solutions an enumeration met.
#[derive(Default)]
struct Tally {
    accepted: u128,
    rejected: u128,
}

impl<P: Puzzle> Opened<P> {
    /// A judgement not yet made, naming the changes the model was solved with.
    fn judgement(&self) -> Judged {
        Judged {
            changes: self
                .changed
                .changes()
                .iter()
                .map(Change::describe)
                .collect(),
            ..Judged::default()
        }
    }

    /// The goal a run on the changed model reads values with: the puzzle's while the
    /// objective is the one built, the objective's own value otherwise. Never a bound proved
    /// outside the model (a published optimum holds for the puzzle, not for rows changed),
    /// nor a step between values.
    fn goal(&self) -> Option<Goal> {
        let objective = self.changed.model.objective.as_ref()?;
        let as_built = self.changed.objective_as_built();
        Some(match (&self.goal, as_built) {
            (Some(g), true) => Goal {
                proved_bound: None,
                step: 1,
                ..*g
            },
            _ => Goal {
                name: "",
                maximise: objective.direction == Direction::Maximise,
                per_unit: 1,
                at_zero: 0,
                proved_bound: None,
                step: 1,
            },
        })
    }
}

impl<P: Puzzle> OpenModel for Opened<P> {
    fn title(&self) -> &str {
        &self.title
    }
    fn model(&self) -> &Model {
        &self.changed.model
    }
    fn meanings(&self) -> &[Option<String>] {
        &self.meanings
    }
    fn apply(&mut self, change: Change) -> Result<()> {
        self.changed.apply(change)
    }
    fn reset(&mut self) {
        self.changed.reset()
    }
    fn changes(&self) -> &[Change] {
        self.changed.changes()
    }

    fn run(&self, query: Query, limits: &Limits) -> Result<Report> {
        if !matches!(
            query,
            Query::First | Query::Count { .. } | Query::Unique | Query::Optimum
        ) {
            return Err(Error::input(format!(
                "a changed model answers solve, count, unique and optimum, not {}",
                query.verb()
            )));
        }
        let instance = &self.instance;
        let tally = Mutex::new(Tally::default());
        let solved = stage(query, limits, "solving the model as changed", || {
            let mut f = P::formulate(instance, &self.options, self.built_for)?;
            if f.model.num_vars() != self.changed.model.num_vars() {
                return Err(Error::Internal(format!(
                    "the formulation built again has {} variables, the opened model {}",
                    f.model.num_vars(),
                    self.changed.model.num_vars()
                )));
            }
            f.model = self.changed.model.clone();
            f.goal = self.goal();
            // Every solution of the changed model is counted as itself: blocking by the
            // true decisions alone assumes rows a person may have dropped, and symmetry
            // classes assume the puzzle's.
            f.block_by_true_decisions = false;
            f.classes = None;
            f.class_size = None;
            if !self.changed.changes().is_empty() {
                f.method = format!("{}, as changed", f.method);
            }
            // The verifier judges each solution an enumeration meets, and lets it go on.
            let judge = &tally;
            f.check = Some(Box::new(move |s| {
                let verdict = P::verify(instance, s);
                let mut t = judge.lock().unwrap_or_else(|e| e.into_inner());
                match verdict {
                    Ok(summary) => {
                        t.accepted += 1;
                        Ok(summary)
                    }
                    Err(_) => {
                        t.rejected += 1;
                        Ok(String::new())
                    }
                }
            }));
            drive(f, query, limits, false)
        })?;
        let mut o: Outcome<P::Solution> = match solved {
            Err(stopped) => stopped,
            Ok(answered) => answered?,
        };
        o.stats.seconds = limits.seconds();
        limits.finish();
        super::note_what_stopped(&mut o, limits);
        let mut judged = self.judgement();
        let which = ["the board", "the second board"];
        // Where each board shown breaks a rule, for its picture.
        let mut marked: Vec<Vec<Place>> = vec![Vec::new(); o.solutions.len()];
        for (k, s) in o.solutions.iter().enumerate() {
            match P::verify(instance, s) {
                Ok(summary) if k == 0 => o.facts.summary = Some(summary),
                Ok(_) => {}
                Err(broken) => {
                    judged
                        .violations
                        .push(format!("{}: {}", which[k.min(1)], broken.why));
                    judged.violations_at.push(broken.at.clone());
                    marked[k] = broken.at;
                }
            }
        }
        let shown: Vec<P::Solution> = o.solutions.iter().take(2).cloned().collect();
        if !o.solutions.is_empty() {
            judged.verified = Some(judged.violations.is_empty());
        }
        let t = tally.into_inner().unwrap_or_else(|e| e.into_inner());
        if matches!(query, Query::Count { .. } | Query::Unique) && t.accepted + t.rejected > 0 {
            judged.verified_count = Some(t.accepted);
        }
        let mut r = report::<P>(instance, &self.options, o);
        ring_broken::<P>(&mut r, instance, &self.options, &shown, &marked);
        say_judged(&mut r, &judged, P::NOUN);
        r.facts.judged = Some(judged);
        Ok(r)
    }

    fn judge(&self, assignment: &[bool]) -> Result<Report> {
        let model = &self.changed.model;
        if assignment.len() != model.num_vars() {
            return Err(Error::input(format!(
                "an answer gives a value to each of the model's {} variables, not {}",
                model.num_vars(),
                assignment.len()
            )));
        }
        let f = P::formulate(&self.instance, &self.options, self.built_for)?;
        let solution = (f.decode)(assignment);
        let mut o = Outcome::new(Query::First, crate::solve::search::Status::Solved);
        o.stats.method = "an answer given from outside, judged".to_string();
        let mut judged = self.judgement();
        if let Some(row) = model.violated(assignment) {
            let at = model
                .constraints
                .iter()
                .filter(|c| c.family == row.family)
                .position(|c| std::ptr::eq(c, row))
                .unwrap_or(0);
            judged.violations.push(format!(
                "the answer breaks row {at} of the model's family '{}'",
                row.family
            ));
        }
        let mut marked = Vec::new();
        match P::verify(&self.instance, &solution) {
            Ok(summary) => o.facts.summary = Some(summary),
            Err(broken) => {
                judged.violations.push(format!("the board: {}", broken.why));
                judged.violations_at.push(broken.at.clone());
                marked = broken.at;
            }
        }
        judged.verified = Some(judged.violations.is_empty());
        if let (Some(obj), Some(goal)) = (&model.objective, self.goal()) {
            o.facts.objective = Some(goal.value(obj.value(assignment)));
        }
        o.solutions.push(solution.clone());
        let mut r = report::<P>(&self.instance, &self.options, o);
        ring_broken::<P>(
            &mut r,
            &self.instance,
            &self.options,
            &[solution],
            &[marked],
        );
        let solved = format!("{}: solved", P::describe(&self.instance));
        if let Some(rest) = r.text.strip_prefix(&solved) {
            r.text = format!(
                "{}: an answer given from outside{rest}",
                P::describe(&self.instance)
            );
        }
        say_judged(&mut r, &judged, P::NOUN);
        r.facts.judged = Some(judged);
        Ok(r)
    }

    fn relax(&self, deadline: Option<std::time::Instant>) -> Result<crate::solve::Relaxation> {
        let goal = if self.changed.objective_as_built() {
            self.goal.as_ref()
        } else {
            None
        };
        relaxation(&self.changed.model, goal, deadline)
    }
}

/// The boards drawn again with the places where each breaks a rule ringed (`marked[k]` for
/// `shown[k]`, the first board and the second); pictures not drawn stay not drawn.
fn ring_broken<P: Puzzle>(
    r: &mut Report,
    instance: &P::Instance,
    options: &P::Options,
    shown: &[P::Solution],
    marked: &[Vec<Place>],
) {
    let pictures = [&mut r.svg, &mut r.other_svg];
    for ((svg, s), at) in pictures.into_iter().zip(shown).zip(marked) {
        if svg.is_some() && !at.is_empty() {
            *svg = Some(P::svg(instance, options, s, at));
        }
    }
}

/// The report's text says that the model was changed, and what the verifier found: the
/// headline holds for the changed model, the verdict for the puzzle.
fn say_judged(r: &mut Report, j: &Judged, noun: &str) {
    let changed = match j.changes.len() {
        0 => "the model as built".to_string(),
        1 => format!("the model changed ({})", j.changes[0]),
        n => format!("the model changed ({n} changes: {})", j.changes.join("; ")),
    };
    let verdict = match (j.verified, j.violations.first()) {
        (Some(true), _) => format!("the verifier accepts the {noun} shown"),
        (Some(false), Some(why)) => format!("the verifier rejects {why}"),
        _ => String::new(),
    };
    let counted = match (j.verified_count, r.facts.count) {
        (Some(k), Some(n)) if k == n => {
            format!("all {n} of the model's solutions counted pass the verifier")
        }
        (Some(k), Some(n)) => {
            format!("{k} of the model's {n} solutions counted pass the verifier")
        }
        (Some(k), None) => format!("{k} of the model's solutions met pass the verifier"),
        _ => String::new(),
    };
    let said: Vec<String> = [verdict, counted]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    let mut lines = r.text.splitn(2, '\n');
    let head = lines.next().unwrap_or_default().to_string();
    let rest = lines.next().unwrap_or_default().to_string();
    r.text = format!(
        "{head} [on {changed}]\n{}{rest}",
        if said.is_empty() {
            String::new()
        } else {
            format!("{}\n", said.join("; "))
        }
    );
}

/// A model's LP relaxation (HiGHS), its value also in the puzzle's terms by `goal`: a model
/// may minimise `-holes` or a charge, while the puzzle asks for the most holes.
pub fn relaxation(
    model: &Model,
    goal: Option<&Goal>,
    deadline: Option<std::time::Instant>,
) -> Result<crate::solve::Relaxation> {
    let mut r = crate::solve::lp_relaxation(model, deadline)?;
    if let (Some(g), Some(v)) = (goal, r.value) {
        r.goal = Some(crate::solve::GoalBound {
            name: g.name.to_string(),
            value: (v - g.at_zero as f64) / g.per_unit as f64,
            maximise: g.maximise,
        });
    }
    Ok(r)
}
