//! Explanations: a solution as a chain of small deductions (the `explain` query), written once
//! for every puzzle over the reason groups its formulation labels ([`crate::model::Group`]).
//!
//! Each group of rows (a clue, a count, a local rule) gets a selector variable; its rows hold
//! only where the selector is assumed true ([`Backend::add_guarded`]). Rows of no group define
//! auxiliary variables and always hold. An earlier conclusion is cited as the decision literal
//! itself. A step's reason is a set of these elements that, with the conclusion negated, is
//! unsatisfiable:
//!
//! 1. for every decision not yet concluded, the engine's failed assumptions give a core
//!    (`Search::core`), which deletion shrinks to a subset-minimal one, trying to drop the
//!    dearest elements first (a minimal unsatisfiable subset, MUS);
//! 2. the cheapest of these is the step; for it, where the pool of elements is small enough,
//!    implicit hitting sets find the cheapest reason of all (an optimal unsatisfiable subset),
//!    and the step says which it has (`minimal`: `subset` or `smallest`);
//! 3. the step concludes every decision its reason forces, not only the one it was found for;
//! 4. before it is kept, two more engines, each built from a formulation of its own and
//!    sharing nothing with the first, re-check it: the reason forces each conclusion (one
//!    refutation each, on the one with every row in clauses) and every element of it is needed
//!    (dropping it admits an assignment, found by the one that counts and then checked row by
//!    row against the model, where some conclusion fails).
//!
//! A decision's cached reason stays a valid, minimal reason for the rest of the run (reasons
//! name their earlier conclusions explicitly); only the decisions near a new conclusion (sharing
//! a group with it) are looked at again, as only there can a cheaper reason have appeared.
//!
//! Where the puzzle has several solutions the sequence stops when nothing more is forced, and
//! says so (`complete` false). Where it has an objective, the optimum (proved by the runner
//! first) is one more given.

pub use super::answer::{Cited, Difficulty, Explanation, Minimal, Step, StepBoard};
use super::answer::{Forced, Outcome};
use crate::error::{Error, Result};
use crate::model::{Kind, Lit, Model, Sense, Var};
use crate::puzzles::{Formulated, Meaning, Place, Puzzle, Query};
use crate::solve::limits::Reasons;
use crate::solve::sat::SatBackend;
use crate::solve::search::{Search, Status, Step as Solve};
use crate::solve::Backend;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// What citing one element costs: an earlier conclusion or a given is a look at the board,
/// a rule a piece of reasoning.
pub fn cost(kind: Kind) -> u32 {
    match kind {
        Kind::Earlier | Kind::Given => 1,
        Kind::Rule => 2,
    }
}

/// Conflicts a deletion trial of a global core may take, at first, before the core counts as
/// hard at that budget.
const BUDGET: i32 = 5_000;

/// Each pass over the hard cores multiplies the budget by this.
const BUDGET_GROWTH: i32 = 4;

/// Past this budget, the cheapest core is shrunk whatever it costs.
const BUDGET_MAX: i32 = 320_000;

/// How many of the cheapest global cores are tried at each budget.
const TRIED: usize = 8;

/// Reasons dearer than this are not searched for a cheaper one (the hitting sets grow).
const SMALLEST_UP_TO: u32 = 8;

/// Rounds of implicit hitting sets tried for a step's cheapest reason.
const ROUNDS: usize = 60;

const COSTS: &str = "each earlier conclusion or given cited costs 1, each rule 2";

/// A place in words, counted from 1: "(3,4)".
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

/// The explanation as text: one line a step, then the difficulty.
pub fn text(x: &Explanation) -> String {
    let mut out = String::new();
    for (i, s) in x.steps.iter().enumerate() {
        out += &format!(
            "{:>3}. {}: {} [cost {}{}]\n",
            i + 1,
            conclusion(&s.derived),
            reason_text(&s.reason),
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

/// How an engine holds the rows that count ("row 3 holds 4 ship cells", "exactly 2 ships of
/// length 3"): two ways, each faster on some puzzles (docs/explain.md, "Two engines race").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rows {
    /// Every row encoded in clauses (totalizers).
    Encoded,
    /// Grouped "exactly" rows of four or more literals checked by counting during search
    /// ([`crate::solve::counting`]), their selector a guard.
    Counted,
}

impl Rows {
    /// The engine's name in a progress report.
    fn engine_name(self) -> &'static str {
        match self {
            Rows::Encoded => "clauses engine",
            Rows::Counted => "counting engine",
        }
    }
}

/// One engine: the model with its groups behind selectors, and the elements a reason may cite.
struct Engine<'a> {
    search: Search<'a, SatBackend>,
    /// Each element's assumption: a group's selector, the optimum's, or a conclusion.
    lits: Vec<Lit>,
    costs: Vec<u32>,
    cited: Vec<Cited>,
    /// How many of the elements are groups (the first ones).
    groups: usize,
    /// The formulation's model as written (its groups' rows unguarded), and the rows of each
    /// group: counter-assignments are checked against these directly.
    model: Model,
    rows_of: Vec<Vec<usize>>,
    /// What the last [`shrink`] met: for each element of its reason, an assignment of the
    /// rest where the conclusion fails (found when that element could not be dropped).
    witnesses: Vec<(usize, Vec<bool>)>,
    /// Raised when the engine racing this one has finished: every solve stops.
    race: Option<Arc<AtomicBool>>,
}

impl<'a> Engine<'a> {
    /// The engine of a formulation (its cuts and watcher move into it). `optimum`: the
    /// optimal value in the model's minimisation form and its words, a given of its own.
    fn new<S>(
        f: &mut Formulated<'a, S>,
        optimum: Option<(i64, String)>,
        deadline: Option<std::time::Instant>,
        config: &str,
        rows: Rows,
    ) -> Engine<'a> {
        let mut base: Model = f.model.clone();
        let (grouped, background): (Vec<_>, Vec<_>) = std::mem::take(&mut base.constraints)
            .into_iter()
            .partition(|c| c.group.is_some());
        base.constraints = background;
        base.counted.clear();
        if rows == Rows::Counted {
            for c in &grouped {
                let unit = c.terms.iter().all(|t| t.0 == 1);
                if unit
                    && c.sense == Sense::Eq
                    && c.terms.len() >= 4
                    && !base.counted.contains(&c.family)
                {
                    base.counted.push(c.family);
                }
            }
        }
        let selectors: Vec<Var> = (0..f.model.groups.len())
            .map(|g| base.var(format!("explain_g{g}")))
            .collect();
        let opt_var = optimum.as_ref().map(|_| base.var("explain_optimum"));
        let mut backend = SatBackend::with_config(&base, config);
        for c in &grouped {
            let g = c.group.expect("grouped") as usize;
            backend.add_guarded(c, selectors[g].pos());
        }
        let mut lits: Vec<Lit> = selectors.iter().map(|v| v.pos()).collect();
        let mut cited: Vec<Cited> = f.model.groups.iter().map(Cited::from).collect();
        if let (Some((bound, words)), Some(v)) = (optimum, opt_var) {
            match backend.objective_at_most(bound) {
                Some(at_most) => {
                    for l in at_most {
                        backend.add_clause(&[v.negated(), l]);
                    }
                }
                None => backend.add_clause(&[v.negated()]),
            }
            lits.push(v.pos());
            cited.push(Cited {
                kind: Kind::Given,
                place: None,
                text: words,
                cells: Vec::new(),
            });
        }
        // A fact not assumed is off unless the search needs it on: a satisfiable solve (a
        // fact found needed, a decision not forced) then does no work for the rows of facts
        // that are not in force.
        let off: Vec<Lit> = selectors.iter().map(|v| v.negated()).collect();
        backend.prefer(&off);
        let mut search = Search::new(backend, deadline);
        if let Some(cuts) = f.cuts.take() {
            search = search.with_cuts(cuts);
        }
        if let Some(make) = f.watcher.take() {
            search.backend.watch(&*make);
        }
        let costs = cited.iter().map(|c| cost(c.kind)).collect();
        let mut rows_of = vec![Vec::new(); selectors.len()];
        for (i, c) in f.model.constraints.iter().enumerate() {
            if let Some(g) = c.group {
                rows_of[g as usize].push(i);
            }
        }
        Engine {
            search,
            lits,
            costs,
            cited,
            groups: selectors.len(),
            model: f.model.clone(),
            rows_of,
            witnesses: Vec::new(),
            race: None,
        }
    }

    /// Adds a conclusion as an element; its index.
    fn conclude(&mut self, lit: Lit, meaning: &Meaning) -> usize {
        self.lits.push(lit);
        self.costs.push(cost(Kind::Earlier));
        self.cited.push(Cited {
            kind: Kind::Earlier,
            place: Some(meaning.place),
            text: says(meaning, !lit.negated),
            cells: vec![meaning.place],
        });
        self.lits.len() - 1
    }

    /// Solves with the elements `set` assumed, and `not` (a conclusion) false.
    fn solve(&mut self, set: &[usize], not: Option<Lit>) -> Solve {
        let mut assume: Vec<Lit> = set.iter().map(|&e| self.lits[e]).collect();
        assume.extend(not.map(|l| !l));
        self.search.step(&assume)
    }

    /// Whether propagation alone refutes `set` with `not` false (no search; see
    /// [`Backend::refutes_by_propagation`]).
    fn propagates(&mut self, set: &[usize], not: Lit) -> bool {
        let mut assume: Vec<Lit> = set.iter().map(|&e| self.lits[e]).collect();
        assume.push(!not);
        self.search.backend.refutes_by_propagation(&assume)
    }

    /// After an unsatisfiable [`Engine::solve`] of `set`: the elements its proof used.
    fn core(&self, set: &[usize]) -> Vec<usize> {
        set.iter()
            .copied()
            .filter(|&e| self.search.backend.failed(self.lits[e]))
            .collect()
    }

    /// Whether the engine racing this one has finished first.
    fn lost(&self) -> bool {
        self.race
            .as_ref()
            .is_some_and(|r| r.load(Ordering::Relaxed))
    }

    fn cost_of(&self, set: &[usize]) -> u32 {
        set.iter().map(|&e| self.costs[e]).sum()
    }

    /// Whether element `x` holds under the full assignment `a`: a group's rows, read from the
    /// model as written, or a conclusion's literal.
    fn holds(&self, x: usize, a: &[bool]) -> bool {
        if x < self.groups {
            self.rows_of[x]
                .iter()
                .all(|&i| self.model.constraints[i].holds(a))
        } else {
            self.lits[x].value(a)
        }
    }

    /// Whether `a` satisfies the rows of no group (definitions) and every element of `set`.
    fn satisfies(&self, set: &[usize], a: &[bool]) -> bool {
        self.model
            .constraints
            .iter()
            .filter(|c| c.group.is_none())
            .all(|c| c.holds(a))
            && set.iter().all(|&x| self.holds(x, a))
    }
}

/// What looking for a reason found.
enum Found {
    /// A subset-minimal reason (element indices).
    Reason(Vec<usize>),
    /// An assignment where every element of the pool holds and the conclusion fails.
    Counter(Vec<bool>),
    Stopped,
}

/// A subset of `pool` that forces `concl` (with `None`: that has no solution): the
/// elements the engine's refutation used, not minimal yet.
fn core_of(e: &mut Engine, pool: &[usize], concl: Option<Lit>) -> Found {
    match e.solve(pool, concl) {
        Solve::Found(a) => Found::Counter(a),
        Solve::Stopped => Found::Stopped,
        Solve::Exhausted => Found::Reason(e.core(pool)),
    }
}

/// Shrinks a subset forcing `concl` to a subset-minimal one by deletion, trying the dearest
/// elements first; `None` if a limit stops it.
fn shrink(e: &mut Engine, core: Vec<usize>, concl: Option<Lit>) -> Option<Vec<usize>> {
    match shrink_within(e, core, concl, None, 0, None) {
        Shrunk::Minimal(r) => Some(r),
        Shrunk::Hard(..) | Shrunk::Stopped => None,
    }
}

/// What [`shrink_within`] ended with.
enum Shrunk {
    /// Subset-minimal.
    Minimal(Vec<usize>),
    /// A deletion trial ran past its budget: the core as far as it was shrunk (it still
    /// forces the conclusion, but may not be minimal), and how many of its first elements
    /// are proved necessary (a shrink of it can start there).
    Hard(Vec<usize>, usize),
    Stopped,
}

/// [`shrink`], each deletion trial held to `budget` conflicts when one is given, starting
/// after the first `start` elements (in the order the shrink sorts them), proved necessary
/// by an earlier shrink of a superset: without one, a superset less it was satisfiable, so
/// any subset less it is too. With `progress`, what is left of the core is reported after
/// that text at each trial (a shrink over every element can take minutes).
fn shrink_within(
    e: &mut Engine,
    mut core: Vec<usize>,
    concl: Option<Lit>,
    budget: Option<i32>,
    start: usize,
    progress: Option<&str>,
) -> Shrunk {
    core.sort_by_key(|&x| (std::cmp::Reverse(e.costs[x]), x));
    e.witnesses.clear();
    let mut i = start.min(core.len());
    while i < core.len() {
        if let Some(text) = progress {
            crate::guard::progress::message(&format!(
                "{text}: {} elements left, {i} needed",
                core.len()
            ));
        }
        let mut trial = core.clone();
        trial.remove(i);
        if let Some(b) = budget {
            e.search.backend.limit_conflicts(b);
        }
        match e.solve(&trial, concl) {
            Solve::Exhausted => {
                // Keep only what this proof used (in the same order).
                let used = e.core(&trial);
                core = trial.into_iter().filter(|x| used.contains(x)).collect();
            }
            Solve::Found(a) => {
                // It satisfies the rest of every later, smaller core too.
                e.witnesses.push((core[i], a));
                i += 1;
            }
            Solve::Stopped if budget.is_some() && !e.search.out_of_time() && !e.lost() => {
                return Shrunk::Hard(core, i)
            }
            Solve::Stopped => return Shrunk::Stopped,
        }
    }
    Shrunk::Minimal(core)
}

/// A subset-minimal subset of `pool` that forces `concl`: [`core_of`], then [`shrink`].
fn minimal_reason(e: &mut Engine, pool: &[usize], concl: Option<Lit>) -> Found {
    match core_of(e, pool, concl) {
        Found::Reason(core) => match shrink(e, core, concl) {
            Some(r) => Found::Reason(r),
            None => Found::Stopped,
        },
        other => other,
    }
}

/// What the search for a cheaper reason found.
enum Cheaper {
    /// A reason cheaper than the bound, and the cheapest there is.
    Found(Vec<usize>),
    /// Proved: no reason costs the bound or less.
    None,
    /// Rounds ran out (or a limit stopped it) first.
    Unknown,
}

/// The cheapest subset of `pool` that forces `concl` and costs at most `bound`, by implicit
/// hitting sets: a cheapest set hitting every correction set found so far is tried; if it
/// does not force the conclusion, the elements its counter-assignment breaks are a new
/// correction set (every reason must keep one of them). When no hitting set costs `bound` or
/// less, no reason does.
fn smallest_reason(
    e: &mut Engine,
    pool: &[usize],
    concl: Lit,
    bound: u32,
    rounds: usize,
) -> Cheaper {
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for _ in 0..rounds {
        let hit = match cheapest_hitting_set(&sets, &e.costs, bound) {
            Cheaper::Found(hit) => hit,
            other => return other,
        };
        match e.solve(&hit, Some(concl)) {
            Solve::Exhausted => return Cheaper::Found(hit),
            Solve::Stopped => return Cheaper::Unknown,
            Solve::Found(a) => {
                let broken: Vec<usize> =
                    pool.iter().copied().filter(|&x| !e.holds(x, &a)).collect();
                if broken.is_empty() {
                    // The conclusion fails where every element holds: not forced at all.
                    return Cheaper::Unknown;
                }
                sets.push(broken);
            }
        }
    }
    Cheaper::Unknown
}

/// A cheapest set meeting every set of `sets` at cost `bound` or less, by branch and bound
/// (the sets are few in practice).
fn cheapest_hitting_set(sets: &[Vec<usize>], costs: &[u32], bound: u32) -> Cheaper {
    struct Best {
        cost: u32,
        set: Option<Vec<usize>>,
        budget: u32,
    }
    fn go(sets: &[Vec<usize>], costs: &[u32], chosen: &mut Vec<usize>, spent: u32, b: &mut Best) {
        if b.budget == 0 || spent >= b.cost {
            return;
        }
        b.budget -= 1;
        // Held to the run's deadline and stop flag like any loop outside the engine.
        crate::guard::tick();
        let Some(open) = sets.iter().find(|s| !s.iter().any(|x| chosen.contains(x))) else {
            b.cost = spent;
            b.set = Some(chosen.clone());
            return;
        };
        let mut options = open.clone();
        options.sort_by_key(|&x| (costs[x], x));
        for x in options {
            chosen.push(x);
            go(sets, costs, chosen, spent + costs[x], b);
            chosen.pop();
        }
    }
    let mut b = Best {
        cost: bound + 1,
        set: None,
        budget: 200_000,
    };
    go(sets, costs, &mut Vec::new(), 0, &mut b);
    match (b.set, b.budget) {
        (Some(set), _) => {
            if b.budget == 0 {
                // The search was cut short: a hitting set, maybe not the cheapest.
                Cheaper::Unknown
            } else {
                Cheaper::Found(set)
            }
        }
        (None, 0) => Cheaper::Unknown,
        (None, _) => Cheaper::None,
    }
}

/// A unique instance's difficulty by its explanation on one engine ([`Reasons::Alone`], the
/// same every run), or why there is none: `None` when a limit stopped the explanation first.
pub fn rate<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    limits: &super::Limits,
) -> Result<Option<Difficulty>> {
    // One engine, so that a puzzle's rating is the same every time.
    let limits = limits.clone().explaining(Reasons::Alone);
    let o = super::run::<P>(instance, options, Query::Explain, &limits)?;
    Ok(match (&o.facts.explanation, o.facts.status) {
        (Some(x), Status::Solved) if x.complete => Some(x.difficulty),
        _ => None,
    })
}

/// Runs `explain` on the full model: the runner's entry for [`Query::Explain`].
pub fn explain<P: Puzzle>(
    instance: &P::Instance,
    options: &P::Options,
    limits: &super::Limits,
) -> Result<Outcome<P::Solution>> {
    let query = Query::Explain;
    let f = P::formulate(instance, options, query)?;
    if let Some(scope) = &f.scope {
        return Err(Error::input(format!(
            "explain reasons about every {}: it does not take a restriction to {scope}",
            P::NOUN
        )));
    }
    if f.model.groups.is_empty() {
        return Err(Error::input(format!(
            "explain: this formulation of {} names no reason groups; use the default formulation",
            P::TITLE
        )));
    }
    let mut outcome = Outcome::new(query, Status::Unknown);
    // An objective: the optimum first, proved by the runner, then one more given.
    let optimum = match &f.goal {
        None => None,
        Some(goal) => {
            let o = super::run::<P>(instance, options, Query::Optimum, limits)?;
            match (o.status, o.objective) {
                (Status::Optimal, Some(v)) => {
                    let name = P::GOAL_NAME;
                    Some((goal.at_most_for(v), format!("the optimum is {v} {name}")))
                }
                (Status::Infeasible, _) => {
                    outcome.status = Status::Infeasible;
                    return Ok(outcome);
                }
                _ => return Ok(outcome),
            }
        }
    };
    let steps = AtomicUsize::new(0);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let alone = match limits.reasons {
        Reasons::Levels if cores >= 2 => None,
        Reasons::Counting => Some(Rows::Counted),
        _ => Some(Rows::Encoded),
    };
    if let Some(rows) = alone {
        return sequence::<P>(f, instance, options, limits, optimum, rows, None, &steps);
    }
    drop(f);
    // Two engines race, one with every row in clauses and one counting the "exactly" rows;
    // the first to finish its sequence stops the other. Which is faster differs from puzzle
    // to puzzle, and by much (docs/explain.md, "Two engines race").
    let done = Arc::new(AtomicBool::new(false));
    let ran = crate::guard::spread(2, &|i| {
        let rows = [Rows::Encoded, Rows::Counted][i];
        let f = P::formulate(instance, options, query)?;
        let o = sequence::<P>(
            f,
            instance,
            options,
            limits,
            optimum.clone(),
            rows,
            Some(&done),
            &steps,
        );
        // A finished sequence (or a failure) ends the race; one stopped by the other does not.
        if o.as_ref().map_or(true, |o| o.status != Status::Unknown) {
            done.store(true, Ordering::SeqCst);
        }
        o.map(|o| (o, std::time::Instant::now()))
    });
    let mut finished: Vec<(Outcome<P::Solution>, std::time::Instant)> = Vec::new();
    let mut interrupt = None;
    for r in ran {
        match r {
            Ok(Ok(o)) => finished.push(o),
            Ok(Err(e)) => return Err(e),
            Err(why) => interrupt = Some(why),
        }
    }
    // The first finished; where none finished (a limit stopped both), the one that got
    // further.
    let best = finished
        .into_iter()
        .max_by_key(|(o, at)| {
            let x = o.explanation.as_ref();
            (
                o.status != Status::Unknown,
                std::cmp::Reverse(*at),
                x.map_or(0, |x| x.steps.len()),
            )
        })
        .map(|(o, _)| o);
    match (best, interrupt) {
        (Some(o), _) => Ok(o),
        (None, Some(why)) => crate::guard::raise(why),
        (None, None) => Err(Error::Internal("explain: no engine answered".into())),
    }
}

/// The explanation on one engine (and its two re-checking engines), the rows held as `rows` says;
/// stopped when `race` is raised (the other engine finished first). `steps`: the most steps
/// either engine has made, for the progress report.
#[allow(clippy::too_many_arguments)]
fn sequence<'a, P: Puzzle>(
    mut f: Formulated<'a, P::Solution>,
    instance: &'a P::Instance,
    options: &P::Options,
    limits: &super::Limits,
    optimum: Option<(i64, String)>,
    rows: Rows,
    race: Option<&Arc<AtomicBool>>,
    shown_steps: &AtomicUsize,
) -> Result<Outcome<P::Solution>> {
    let query = Query::Explain;
    let mut outcome = Outcome::new(query, Status::Unknown);
    let plain = limits.reasons == Reasons::Plain;
    let config = match rows {
        Rows::Encoded => "explain",
        Rows::Counted => "explain-counting",
    };
    let mut engine = Engine::new(&mut f, optimum.clone(), limits.deadline, config, rows);
    // The re-check, on two more engines built from formulations of their own: one proves
    // that the reason forces each conclusion, with every row in clauses; one finds, for each
    // element, an assignment of the rest where a conclusion fails, counting the "exactly"
    // rows. Each is the faster at its task (docs/explain.md, the re-check under "The method").
    let mut checker = Checker {
        refuter: Engine::new(
            &mut P::formulate(instance, options, query)?,
            optimum.clone(),
            limits.deadline,
            "assumptions",
            Rows::Encoded,
        ),
        finder: Engine::new(
            &mut P::formulate(instance, options, query)?,
            optimum,
            limits.deadline,
            "assumptions",
            Rows::Counted,
        ),
    };
    if let Some(flag) = race {
        engine.search.backend.stop_on(flag.clone());
        checker.stop_on(flag);
        engine.race = Some(flag.clone());
    }
    let all: Vec<usize> = (0..engine.lits.len()).collect();
    let first = match engine.solve(&all, None) {
        Solve::Found(a) => a,
        Solve::Stopped => return Ok(outcome),
        Solve::Exhausted => {
            outcome.status = Status::Infeasible;
            return Ok(outcome);
        }
    };
    outcome.solutions.push((f.decode)(&first));
    let n = f.decisions.len();
    let target: Vec<bool> = f.decisions.iter().map(|v| first[v.index()]).collect();
    let lit = |k: usize| {
        if target[k] {
            f.decisions[k].pos()
        } else {
            f.decisions[k].negated()
        }
    };
    // The decisions a board shows: true ones, and false ones with a word (water).
    let shown: Vec<usize> = (0..n)
        .filter(|&k| target[k] || f.meanings[k].otherwise.is_some())
        .collect();
    let mut inc = Incidence::new(&f.model, &f.decisions);
    for (g, members) in inc.members.iter().enumerate() {
        let mut cells: Vec<Place> = members.iter().map(|&k| f.meanings[k].place).collect();
        cells.sort();
        cells.dedup();
        engine.cited[g].cells = cells;
    }
    inc.optimum = (engine.lits.len() > engine.groups).then_some(engine.groups);
    let mut known = vec![false; n];
    let mut free = vec![false; n];
    // Each decision's conclusion element, once concluded.
    let mut fact_of: Vec<Option<usize>> = vec![None; n];
    // A decision's reason found so far, its cost, the level of the pool it came from, and
    // whether it is proved subset-minimal yet. A local reason is the core of a refutation
    // by propagation, and it is shrunk (its minimality proved: one satisfiable solve an
    // element, on a large board a few milliseconds each) only when it makes a step: most
    // reasons found are dropped again as conclusions land near them, and such a core is
    // nearly always minimal as it comes (on eight CSPLib puzzles 171 of 178 were, on a 30×20
    // board 257 of 259), so its cost is nearly always the minimal reason's.
    let mut cache: Vec<Option<Cached>> = vec![None; n];
    // The highest level at which a decision was tried and no reason found.
    let mut failed_at = vec![0usize; n];
    // Over every element, a decision's core not yet shrunk (a reason, not minimal): kept
    // until a conclusion lands near it, so that each round shrinks one and finds no other.
    // With each, how many of its first elements a shrink proved necessary.
    let mut cores_kept: Vec<Option<(u32, Vec<usize>, usize)>> = vec![None; n];
    // The budget at which a decision's core's shrinking last ran past it (0: never), until a
    // conclusion lands near.
    let mut hard = vec![0i32; n];
    let mut steps: Vec<Step> = Vec::new();
    let mut stopped = false;
    let first_level = if plain { LEVELS } else { 1 };
    loop {
        if plain {
            // The baseline keeps nothing from one step to the next.
            cache.iter_mut().for_each(|c| *c = None);
            cores_kept.iter_mut().for_each(|c| *c = None);
        }
        let open: Vec<usize> = shown
            .iter()
            .copied()
            .filter(|&k| !known[k] && !free[k])
            .collect();
        if open.is_empty() {
            break;
        }
        let mut chosen: Option<(u32, usize)> = None;
        let mut chosen_level = LEVELS;
        let mut cores: Vec<(u32, usize, Vec<usize>)> = Vec::new();
        for level in first_level..=LEVELS {
            for &k in &open {
                if free[k]
                    || failed_at[k] >= level
                    || cache[k].as_ref().is_some_and(|c| c.2 <= level)
                {
                    continue;
                }
                if level == LEVELS {
                    if let Some((c, core, _)) = &cores_kept[k] {
                        cores.push((*c, k, core.clone()));
                        continue;
                    }
                }
                let pool = inc.pool(level, k, &fact_of, engine.lits.len());
                // The first, local, level takes what propagation alone finds: most decisions
                // are not forced there, and a full solve of a large board is a millisecond.
                if level == 1 && !engine.propagates(&pool, lit(k)) {
                    failed_at[k] = level;
                    continue;
                }
                let found = if level == LEVELS || level == 1 {
                    core_of(&mut engine, &pool, Some(lit(k)))
                } else {
                    minimal_reason(&mut engine, &pool, Some(lit(k)))
                };
                match found {
                    // Over every element, cores first: only one a round is shrunk (below).
                    Found::Reason(core) if level == LEVELS => {
                        let c = engine.cost_of(&core);
                        cores_kept[k] = Some((c, core.clone(), 0));
                        cores.push((c, k, core));
                    }
                    Found::Reason(r) => {
                        let c = engine.cost_of(&r);
                        cache[k] = Some((r, c, level, level > 1));
                    }
                    // Every element holds there: a solution where decision k differs.
                    Found::Counter(a) if level == LEVELS => {
                        for j in 0..n {
                            if a[f.decisions[j].index()] != target[j] {
                                free[j] = true;
                            }
                        }
                    }
                    Found::Counter(_) => failed_at[k] = level,
                    Found::Stopped => {
                        stopped = true;
                        break;
                    }
                }
            }
            cores.sort();
            if plain {
                // The baseline shrinks every core, whatever it costs.
                for (_, k, core) in cores.drain(..) {
                    match shrink(&mut engine, core, Some(lit(k))) {
                        Some(r) => {
                            let c = engine.cost_of(&r);
                            cache[k] = Some((r, c, level, true));
                        }
                        None => {
                            stopped = true;
                            break;
                        }
                    }
                }
            } else if !cores.is_empty() {
                // The cheapest cores first, each deletion held to a budget: where one runs
                // past it (a reason whose proof is hard), the next core is tried. When every
                // core tried is hard, they are tried again with a budget four times as high,
                // each from where it stopped, and past the last budget the cheapest is
                // shrunk whatever it costs.
                let mut done = false;
                let mut budget = BUDGET;
                while !done && !stopped {
                    cores.sort();
                    for (_, k, core) in cores.iter_mut().take(TRIED) {
                        if hard[*k] >= budget {
                            continue;
                        }
                        let start = cores_kept[*k].as_ref().map_or(0, |c| c.2);
                        let lim = (budget <= BUDGET_MAX).then_some(budget);
                        let progress = format!(
                            "{} steps; shrinking a reason for {} ({})",
                            steps.len(),
                            place_text(f.meanings[*k].place),
                            rows.engine_name()
                        );
                        let shrunk = shrink_within(
                            &mut engine,
                            core.clone(),
                            Some(lit(*k)),
                            lim,
                            start,
                            Some(&progress),
                        );
                        match shrunk {
                            Shrunk::Minimal(r) => {
                                let c = engine.cost_of(&r);
                                cache[*k] = Some((r, c, level, true));
                                done = true;
                                break;
                            }
                            Shrunk::Hard(part, proved) => {
                                hard[*k] = budget;
                                let c = engine.cost_of(&part);
                                cores_kept[*k] = Some((c, part.clone(), proved));
                                *core = part;
                            }
                            Shrunk::Stopped => {
                                stopped = true;
                                break;
                            }
                        }
                        if lim.is_none() {
                            // Only the cheapest is shrunk without a budget.
                            break;
                        }
                    }
                    budget = budget.saturating_mul(BUDGET_GROWTH);
                }
                cores.clear();
            }
            if stopped {
                break;
            }
            chosen = open
                .iter()
                .copied()
                .filter(|&k| !free[k])
                .filter_map(|k| cache[k].as_ref().filter(|c| c.2 <= level).map(|c| (c.1, k)))
                .min();
            if chosen.is_some() {
                chosen_level = level;
                break;
            }
        }
        if stopped {
            break;
        }
        let Some((least, _)) = chosen else {
            break;
        };
        // Every decision whose reason costs that least is a step of this round, one after
        // another (a reason stays valid as conclusions come; one that an earlier step of the
        // round has concluded is skipped): fewer rounds of looking again.
        let batch: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&j| {
                !free[j]
                    && cache[j]
                        .as_ref()
                        .is_some_and(|c| c.1 == least && c.2 <= chosen_level)
            })
            .collect();
        'batch: for k in batch {
            if known[k] || cache[k].is_none() {
                continue;
            }
            let level = cache[k].as_ref().map_or(LEVELS, |c| c.2);
            let pool = inc.pool(level, k, &fact_of, engine.lits.len());
            let (mut reason, mut c, _, minimal) = cache[k].clone().expect("cached");
            if !minimal {
                // Shrunk now, as it makes a step: its cost can only fall, so it stays among
                // the cheapest of the round.
                match shrink(&mut engine, reason, Some(lit(k))) {
                    Some(r) => {
                        c = engine.cost_of(&r);
                        reason = r;
                    }
                    None => {
                        stopped = true;
                        break 'batch;
                    }
                }
            }
            let tried = if c <= SMALLEST_UP_TO && !plain {
                smallest_reason(&mut engine, &pool, lit(k), c - 1, ROUNDS)
            } else {
                Cheaper::Unknown
            };
            let minimal = match tried {
                Cheaper::Found(r) => {
                    c = engine.cost_of(&r);
                    reason = r;
                    Minimal::Smallest
                }
                Cheaper::None => Minimal::Smallest,
                Cheaper::Unknown => Minimal::Subset,
            };
            // Everything this reason forces, not only decision k.
            let mut derived = vec![k];
            // Only decisions next to what the reason speaks of can follow from it (unless it
            // cites a global given, such as the fleet): on a large board the others would each
            // cost a solve.
            let nearby = inc.around(&reason, &fact_of);
            let mut maybe: Vec<usize> = open
                .iter()
                .copied()
                .filter(|&j| j != k && !known[j] && !free[j])
                .filter(|&j| nearby.as_ref().is_none_or(|near| near[j]))
                .collect();
            if plain {
                maybe.clear();
            }
            // These are looked for on the re-checking engine that refutes: a conclusion it
            // refutes here is proved by it once (the re-check's own proof), and the
            // explaining engine spends no search on it.
            let refuter = &mut checker.refuter;
            match refuter.solve(&reason, None) {
                Solve::Found(a) => maybe.retain(|&j| a[f.decisions[j].index()] == target[j]),
                Solve::Stopped => {
                    stopped = true;
                    break 'batch;
                }
                Solve::Exhausted => {
                    return Err(Error::Internal("a reason with no solution".into()))
                }
            }
            let mut i = 0;
            while i < maybe.len() {
                let j = maybe[i];
                match refuter.solve(&reason, Some(lit(j))) {
                    Solve::Exhausted => {
                        derived.push(j);
                        i += 1;
                    }
                    // Drops j and every other the assignment disagrees with; those before i are
                    // forced, so agree, and i points at the next one to try.
                    Solve::Found(a) => maybe.retain(|&x| a[f.decisions[x].index()] == target[x]),
                    Solve::Stopped => {
                        stopped = true;
                        break 'batch;
                    }
                }
            }
            if stopped {
                break 'batch;
            }
            derived.sort_unstable();
            let lits: Vec<Lit> = derived.iter().map(|&j| lit(j)).collect();
            // The search's own counter-assignments, where it has them for this reason, go to
            // the re-check: each is checked row by row there, and where one fails, the
            // re-checking engine that finds assignments starts from it (a phase only).
            let hints: Vec<(usize, Vec<bool>)> = std::mem::take(&mut engine.witnesses)
                .into_iter()
                .filter(|(x, _)| reason.contains(x))
                .collect();
            let refuted: Vec<Lit> = lits.iter().copied().filter(|&l| l != lit(k)).collect();
            if let Err(why) = recheck(&mut checker, &reason, &lits, lit(k), &hints, &refuted) {
                if why == "stopped" {
                    stopped = true;
                    break 'batch;
                }
                return Err(Error::Internal(format!(
                    "explain: a step failed its re-check: {why}"
                )));
            }
            let mut cited: Vec<(Kind, usize)> =
                reason.iter().map(|&x| (engine.cited[x].kind, x)).collect();
            cited.sort_by_key(|&(kind, x)| (kind as u8, x));
            steps.push(Step {
                derived: derived
                    .iter()
                    .map(|&j| Forced {
                        meaning: f.meanings[j].clone(),
                        value: target[j],
                    })
                    .collect(),
                reason: cited
                    .iter()
                    .map(|&(_, x)| engine.cited[x].clone())
                    .collect(),
                cost: c,
                minimal,
            });
            let most = shown_steps.fetch_max(steps.len(), Ordering::Relaxed);
            if steps.len() > most {
                crate::guard::progress::message(&format!("{} steps", steps.len()));
            }
            for &j in &derived {
                known[j] = true;
                fact_of[j] = Some(engine.conclude(lit(j), &f.meanings[j]));
                checker.conclude(lit(j), &f.meanings[j]);
                // A cheaper reason can now appear only near the new conclusion.
                for &m in &inc.near[j] {
                    cache[m] = None;
                    failed_at[m] = 0;
                    cores_kept[m] = None;
                    hard[m] = 0;
                }
            }
        }
        if stopped {
            break;
        }
    }
    let open = shown.iter().filter(|&&k| !known[k]).count();
    let difficulty = Difficulty {
        hardest: steps.iter().map(|s| s.cost).max().unwrap_or(0),
        total: steps.iter().map(|s| s.cost).sum(),
        steps: steps.len(),
    };
    outcome.status = if stopped {
        Status::Unknown
    } else {
        Status::Solved
    };
    let (places, extent) = crate::runner::forced::board(&f.meanings);
    let board = StepBoard {
        places,
        extent,
        title: P::describe(instance),
        givens: P::givens(instance),
    };
    outcome.explanation = Some(Explanation {
        steps,
        difficulty,
        rating: !plain && matches!(rows, Rows::Encoded),
        complete: open == 0,
        open,
        costs: COSTS.into(),
        board,
    });
    let stats = engine.search.finish();
    outcome.stats.method = format!(
        "{}; reasons by {}, re-checked{}",
        f.method,
        if plain {
            "one deletion-based minimal subset per open decision over every element (--plain)"
        } else {
            "cores and deletion from the neighbourhood out"
        },
        match (race, rows, stopped) {
            (None, _, _) => "",
            // Neither won: the limit stopped the race (the steps are those the engine below
            // had when it was stopped).
            (Some(_), Rows::Encoded, true) =>
                "; two engines raced and a limit stopped both; the steps are those of the one with every row in clauses",
            (Some(_), Rows::Counted, true) =>
                "; two engines raced and a limit stopped both; the steps are those of the one counting the \"exactly\" rows",
            (Some(_), Rows::Encoded, false) =>
                "; two engines raced, the one with every row in clauses won",
            (Some(_), Rows::Counted, false) =>
                "; two engines raced, the one counting the \"exactly\" rows won",
        }
    );
    outcome.stats.model = Some(f.model.size());
    outcome.stats.solver_calls = Some(
        stats.solver_calls
            + checker.refuter.search.stats.solver_calls
            + checker.finder.search.stats.solver_calls,
    );
    Ok(outcome)
}

/// A decision's reason as [`sequence`] keeps it: the elements, their cost, the level of the
/// pool they came from, and whether they are proved subset-minimal yet.
type Cached = (Vec<usize>, u32, usize, bool);

/// The engines that re-check each step, sharing nothing with the one that explains.
struct Checker<'a> {
    /// Proves that a reason forces its conclusions (every row in clauses).
    refuter: Engine<'a>,
    /// Finds an assignment without each element where a conclusion fails (counting).
    finder: Engine<'a>,
}

impl Checker<'_> {
    /// Adds a conclusion as an element on both engines.
    fn conclude(&mut self, lit: Lit, meaning: &Meaning) {
        self.refuter.conclude(lit, meaning);
        self.finder.conclude(lit, meaning);
    }

    /// Makes both engines stop as soon as `flag` is raised.
    fn stop_on(&mut self, flag: &Arc<AtomicBool>) {
        self.refuter.search.backend.stop_on(flag.clone());
        self.finder.search.backend.stop_on(flag.clone());
    }
}

/// The re-check of a step on engines of its own: `reason` forces every literal of `derived`
/// (on the refuter; those of `refuted` it has refuted already, when they were found), and
/// without any one of its elements some literal of `derived` fails in an assignment that
/// the model's rows (read directly) accept: the explaining engine's own from `hints` where
/// it passes, else one the finder finds. `first` is the decision the reason was found for.
fn recheck(
    checker: &mut Checker,
    reason: &[usize],
    derived: &[Lit],
    first: Lit,
    hints: &[(usize, Vec<bool>)],
    refuted: &[Lit],
) -> std::result::Result<(), String> {
    for &l in derived.iter().filter(|l| !refuted.contains(l)) {
        match checker.refuter.solve(reason, Some(l)) {
            Solve::Exhausted => {}
            Solve::Stopped => return Err("stopped".into()),
            Solve::Found(_) => return Err(format!("the reason does not force {l:?}")),
        }
    }
    for (i, &x) in reason.iter().enumerate() {
        let rest: Vec<usize> = reason
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &y)| y)
            .collect();
        let hint = hints.iter().find(|(y, _)| *y == x);
        // The explaining engine's own counter-assignment, where it has one, settles it when
        // the model's rows (read directly, no solver) accept it: an assignment of the rest
        // where a conclusion fails is all this check asks for, whoever found it.
        if let Some((_, a)) = hint {
            if checker.finder.satisfies(&rest, a) && derived.iter().any(|l| !l.value(a)) {
                continue;
            }
        }
        let mut needed = false;
        // The conclusions the hint breaks are tried first (with no hint, the step's own
        // decision, the first): most others still follow without x.
        let mut order: Vec<Lit> = derived.to_vec();
        match hint {
            Some((_, a)) => order.sort_by_key(|l| l.value(a)),
            None => {
                if let Some(p) = order.iter().position(|&l| l == first) {
                    order[..=p].rotate_right(1);
                }
            }
        }
        if let Some((_, a)) = hint {
            let phases: Vec<Lit> = a
                .iter()
                .enumerate()
                .map(|(v, &b)| {
                    let var = Var(v as u32);
                    if b {
                        var.pos()
                    } else {
                        var.negated()
                    }
                })
                .collect();
            checker.finder.search.backend.prefer(&phases);
        }
        for &l in &order {
            match checker.finder.solve(&rest, Some(l)) {
                Solve::Exhausted => continue,
                Solve::Stopped => return Err("stopped".into()),
                Solve::Found(a) => {
                    if !checker.finder.satisfies(&rest, &a) {
                        return Err("a counter-assignment breaks the rows it should keep".into());
                    }
                    if l.value(&a) {
                        return Err("a counter-assignment keeps the conclusion".into());
                    }
                    needed = true;
                    break;
                }
            }
        }
        if !needed {
            return Err(format!(
                "'{}' is not needed: the rest forces the conclusion",
                checker.finder.cited[x].text
            ));
        }
    }
    Ok(())
}

/// Which groups touch which decisions (a decision's variable in one of the group's rows):
/// the pools reasons are looked for in, from local to all.
struct Incidence {
    /// The groups touching each decision.
    groups_of: Vec<Vec<usize>>,
    /// The decisions each group touches.
    members: Vec<Vec<usize>>,
    /// Groups touching no decision (the fleet's counts: rows over ships, not cells).
    global: Vec<usize>,
    /// For each decision, the decisions sharing a group with it (and itself).
    near: Vec<Vec<usize>>,
    /// The optimum's element, where there is an objective.
    optimum: Option<usize>,
}

/// Pools: 1, the groups touching the decision and the conclusions on their decisions; 2,
/// also the global groups (and the optimum); 3, every element.
const LEVELS: usize = 3;

impl Incidence {
    fn new(model: &Model, decisions: &[Var]) -> Incidence {
        let index: std::collections::HashMap<Var, usize> =
            decisions.iter().enumerate().map(|(k, v)| (*v, k)).collect();
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); model.groups.len()];
        for c in &model.constraints {
            if let Some(g) = c.group {
                for (_, l) in &c.terms {
                    if let Some(&k) = index.get(&l.var) {
                        members[g as usize].push(k);
                    }
                }
            }
        }
        let mut groups_of: Vec<Vec<usize>> = vec![Vec::new(); decisions.len()];
        let mut near: Vec<Vec<usize>> = (0..decisions.len()).map(|k| vec![k]).collect();
        let mut global = Vec::new();
        for (g, m) in members.iter_mut().enumerate() {
            m.sort_unstable();
            m.dedup();
            if m.is_empty() {
                global.push(g);
            }
            for &a in m.iter() {
                groups_of[a].push(g);
                near[a].extend(m.iter().copied());
            }
        }
        for o in &mut near {
            o.sort_unstable();
            o.dedup();
        }
        Incidence {
            groups_of,
            members,
            global,
            near,
            optimum: None,
        }
    }

    /// The decisions next to what `reason` speaks of (sharing a group with a decision one of
    /// its groups or conclusions touches); `None` when it cites a global group (the fleet,
    /// the optimum), which touches every decision through the definitions.
    fn around(&self, reason: &[usize], fact_of: &[Option<usize>]) -> Option<Vec<bool>> {
        let mut near = vec![false; self.near.len()];
        for &x in reason {
            let touched: Vec<usize> = if x < self.members.len() {
                if self.members[x].is_empty() {
                    return None;
                }
                self.members[x].clone()
            } else if Some(x) == self.optimum {
                return None;
            } else {
                fact_of
                    .iter()
                    .position(|f| *f == Some(x))
                    .into_iter()
                    .collect()
            };
            for d in touched {
                for &m in &self.near[d] {
                    near[m] = true;
                }
            }
        }
        Some(near)
    }

    /// The elements a reason for decision `k` is looked for in at `level` (of
    /// [`LEVELS`]); `elements` is how many there are now.
    fn pool(
        &self,
        level: usize,
        k: usize,
        fact_of: &[Option<usize>],
        elements: usize,
    ) -> Vec<usize> {
        if level >= LEVELS {
            return (0..elements).collect();
        }
        let mut groups: Vec<usize> = self.groups_of[k].clone();
        let cells = &self.near[k];
        if level >= 2 {
            groups.extend(self.global.iter().copied());
            groups.extend(self.optimum);
        }
        let mut pool = groups;
        pool.extend(cells.iter().filter_map(|&c| fact_of[c]));
        pool.sort_unstable();
        pool.dedup();
        pool
    }
}

/// One picture a step of `x`, on the board the decisions' places make: places concluded
/// before the step pale with their mark, the step's conclusions shaded, the places its reason
/// speaks of outlined in red. Drawn when asked for (`--svg DIR`, the page), not by the run.
pub fn pictures(x: &Explanation) -> Vec<String> {
    use std::collections::BTreeMap;
    let (steps, places, extent, title) =
        (&x.steps, &x.board.places, x.board.extent, &x.board.title);
    let givens = &x.board.givens;
    let given: BTreeMap<Place, &String> = givens.clues.iter().map(|(p, m)| (*p, m)).collect();
    let mark = |d: &Forced| match (d.value, &d.meaning.otherwise) {
        (true, _) => Some(d.meaning.says.clone()),
        (false, Some(o)) => Some(o.clone()),
        (false, None) => None,
    };
    let mut known: BTreeMap<Place, String> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        let now: BTreeMap<Place, String> = s
            .derived
            .iter()
            .filter_map(|d| mark(d).map(|m| (d.meaning.place, m)))
            .collect();
        let outlined: Vec<Place> = s.reason.iter().flat_map(|c| c.cells.clone()).collect();
        let caption = format!("{title}, step {}: {}", i + 1, conclusion(&s.derived));
        out.push(match extent {
            Some((rows, cols)) => {
                let mut pic = crate::render::svg::GridPicture::with_margins(
                    rows,
                    cols,
                    &caption,
                    !givens.rows.is_empty(),
                    !givens.cols.is_empty(),
                );
                for (r, n) in givens.rows.iter().enumerate() {
                    pic.beside_row(r, n.as_deref().unwrap_or("?"));
                }
                for (c, n) in givens.cols.iter().enumerate() {
                    pic.below_column(c, n.as_deref().unwrap_or("?"));
                }
                for r in 0..rows {
                    for c in 0..cols {
                        let p = Place::Cell(r, c);
                        let (fill, label) = match (now.get(&p), known.get(&p)) {
                            (Some(m), _) => ("#f2c14e", Some(m)),
                            (None, Some(m)) => ("#e4e4e4", Some(m)),
                            // A clue given and not yet concluded: the clues' blue.
                            (None, None) if given.contains_key(&p) => ("#dde6f0", None),
                            (None, None) if places.contains(&p) => ("#ffffff", None),
                            (None, None) => ("#888888", None),
                        };
                        pic.fill(r, c, fill);
                        // A clue given shows as given (in blue ink), concluded or not: a
                        // conclusion there may say less ("a ship") than the clue ("its end").
                        match (given.get(&p), label) {
                            (Some(m), _) => pic.label_sized(r, c, m, "#1f3b73", 0.4),
                            (None, Some(m)) => pic.label_sized(r, c, m, "#222", 0.4),
                            (None, None) => {}
                        }
                    }
                }
                for p in &outlined {
                    if let Place::Cell(r, c) = *p {
                        pic.outline(r, c, "#c0392b");
                    }
                }
                pic.finish()
            }
            None => {
                // Hex boards: the conclusions and what is known, labelled.
                let mut labels = known.clone();
                labels.extend(now.clone());
                crate::runner::forced::hex_labels(places, &labels, &caption)
            }
        });
        known.extend(now);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::battleship::{formats, BattleshipPuzzle};

    const NO_CLUES: &str = "size 4 5\nfleet 2 1 1\nrows 2 1 3 1\ncols 2 2 1 0 2\ngrid\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n";

    /// On the puzzle with no clues: an explaining engine holding the rows as `rows` says, a
    /// checker, the decisions, every element, and a solution.
    fn engines(
        rows: Rows,
    ) -> (
        Engine<'static>,
        Checker<'static>,
        Vec<Var>,
        Vec<usize>,
        Vec<bool>,
    ) {
        // The engines borrow the puzzle; a test's engines may keep it to the end.
        let grid = Box::leak(Box::new(formats::parse(NO_CLUES, None).expect("puzzle").1));
        let options = Box::leak(Box::default());
        let query = Query::Explain;
        let engine = |rows, config| {
            let mut f = BattleshipPuzzle::formulate(grid, options, query).expect("model");
            Engine::new(&mut f, None, None, config, rows)
        };
        let mut explaining = engine(rows, "explain");
        let checker = Checker {
            refuter: engine(Rows::Encoded, "assumptions"),
            finder: engine(Rows::Counted, "assumptions"),
        };
        let f = BattleshipPuzzle::formulate(grid, options, query).expect("model");
        let all: Vec<usize> = (0..explaining.lits.len()).collect();
        let Solve::Found(a) = explaining.solve(&all, None) else {
            panic!("the puzzle has a solution");
        };
        (explaining, checker, f.decisions, all, a)
    }

    #[test]
    fn the_recheck_passes_a_minimal_reason_and_rejects_a_wrong_one() {
        let (mut explaining, mut checker, decisions, all, a) = engines(Rows::Encoded);
        let v = decisions[0];
        let l = if a[v.index()] { v.pos() } else { v.negated() };
        // A subset-minimal reason for the first cell passes.
        let Found::Reason(reason) = minimal_reason(&mut explaining, &all, Some(l)) else {
            panic!("the puzzle is unique: every cell is forced");
        };
        assert_eq!(recheck(&mut checker, &reason, &[l], l, &[], &[]), Ok(()));
        // With the shrink's own counter-assignments as hints, the rows accept each of them
        // and the finder is not asked at all.
        let hints = std::mem::take(&mut explaining.witnesses);
        assert!(reason.iter().all(|x| hints.iter().any(|(y, _)| y == x)));
        let asked = checker.finder.search.stats.solver_calls;
        assert_eq!(recheck(&mut checker, &reason, &[l], l, &hints, &[]), Ok(()));
        assert_eq!(checker.finder.search.stats.solver_calls, asked);
        // Every element forces the cell, but not every one is needed.
        let why = recheck(&mut checker, &all, &[l], l, &[], &[]).expect_err("not minimal");
        assert!(why.contains("is not needed"), "{why}");
        // A hint does not make it so: a solution (where the cell keeps its value) offered
        // for every element is turned down by the rows, and the finder finds none.
        let false_hints: Vec<(usize, Vec<bool>)> = all.iter().map(|&x| (x, a.clone())).collect();
        let why = recheck(&mut checker, &all, &[l], l, &false_hints, &[]).expect_err("not minimal");
        assert!(why.contains("is not needed"), "{why}");
        // Nor the solution with the cell flipped (the cell fails, but its row's count
        // breaks).
        let mut flipped = a.clone();
        flipped[v.index()] = !flipped[v.index()];
        let false_hints: Vec<(usize, Vec<bool>)> =
            all.iter().map(|&x| (x, flipped.clone())).collect();
        let why = recheck(&mut checker, &all, &[l], l, &false_hints, &[]).expect_err("not minimal");
        assert!(why.contains("is not needed"), "{why}");
        // Nothing forces nothing.
        let why = recheck(&mut checker, &[], &[l], l, &[], &[]).expect_err("no reason");
        assert!(why.contains("does not force"), "{why}");
        // The reason does not force the cell's other value.
        let why = recheck(&mut checker, &reason, &[l, !l], l, &[], &[]).expect_err("both values");
        assert!(why.contains("does not force"), "{why}");
    }

    #[test]
    fn a_shrink_stopped_by_its_budget_resumes_to_a_minimal_reason() {
        let (mut explaining, mut checker, decisions, all, a) = engines(Rows::Counted);
        let mut stops = 0;
        for &v in &decisions {
            let l = if a[v.index()] { v.pos() } else { v.negated() };
            let Found::Reason(mut core) = core_of(&mut explaining, &all, Some(l)) else {
                panic!("the puzzle is unique: every cell is forced");
            };
            // From no conflict at all upwards, each shrink starting where the last stopped.
            let (mut budget, mut start) = (0, 0);
            let reason = loop {
                match shrink_within(
                    &mut explaining,
                    core.clone(),
                    Some(l),
                    Some(budget),
                    start,
                    None,
                ) {
                    Shrunk::Minimal(r) => break r,
                    Shrunk::Hard(part, proved) => {
                        assert!(proved >= start && proved <= part.len());
                        (core, start) = (part, proved);
                        stops += 1;
                        budget = budget * 2 + 1;
                    }
                    Shrunk::Stopped => panic!("no time limit was set"),
                }
            };
            assert_eq!(recheck(&mut checker, &reason, &[l], l, &[], &[]), Ok(()));
        }
        // The budgets did stop some shrinks, so the resumption was exercised.
        assert!(stops > 0);
    }

    /// What a shrink says while it runs: each trial reports what is left of the core and how
    /// much of it is proved needed, after the text it was given.
    #[test]
    fn a_shrink_reports_what_is_left_at_each_trial() {
        struct Kept(std::sync::Mutex<Vec<String>>);
        impl crate::guard::progress::Progress for Kept {
            fn phase(&self, _: &str) {}
            fn message(&self, text: &str) {
                self.0.lock().expect("not poisoned").push(text.to_string());
            }
            fn finish(&self) {}
        }
        let (mut explaining, _, decisions, all, a) = engines(Rows::Counted);
        let v = decisions[0];
        let l = if a[v.index()] { v.pos() } else { v.negated() };
        let Found::Reason(core) = core_of(&mut explaining, &all, Some(l)) else {
            panic!("the puzzle is unique: every cell is forced");
        };
        let kept = Arc::new(Kept(Default::default()));
        let bounds = crate::guard::Bounds {
            progress: Some(kept.clone()),
            ..Default::default()
        };
        let text = "3 steps; shrinking a reason for (1,1) (counting engine)";
        let shrunk = crate::guard::guarded(&bounds, || {
            shrink_within(&mut explaining, core.clone(), Some(l), None, 0, Some(text))
        });
        let Ok(Shrunk::Minimal(reason)) = shrunk else {
            panic!("no limit was set");
        };
        let said = kept.0.lock().expect("not poisoned").clone();
        assert_eq!(
            said[0],
            format!("{text}: {} elements left, 0 needed", core.len())
        );
        // One message a trial: at least one for each element the reason keeps.
        assert!(said.len() >= reason.len(), "{said:?}");
        // What is left only shrinks, and never below the reason; what is needed only grows.
        let counts: Vec<(usize, usize)> = said
            .iter()
            .map(|m| {
                let rest = m.strip_prefix(text).expect("the text first");
                let words: Vec<&str> = rest.split_whitespace().collect();
                assert_eq!(
                    [words[0], words[2], words[3], words[5]],
                    [":", "elements", "left,", "needed"]
                );
                (
                    words[1].parse().expect("left"),
                    words[4].parse().expect("needed"),
                )
            })
            .collect();
        assert!(counts
            .windows(2)
            .all(|w| w[1].0 <= w[0].0 && w[1].1 >= w[0].1));
        assert!(counts
            .iter()
            .all(|&(left, needed)| left >= reason.len() && needed < left));
        // Without a text, nothing is said.
        let shrunk = crate::guard::guarded(&bounds, || {
            shrink_within(&mut explaining, core.clone(), Some(l), None, 0, None)
        });
        assert!(matches!(shrunk, Ok(Shrunk::Minimal(_))));
        assert_eq!(kept.0.lock().expect("not poisoned").len(), said.len());
    }
}
