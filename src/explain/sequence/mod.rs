//! The sequence of steps on one engine: round by round, the cheapest reason over the open
//! decisions (looked for in pools from each decision's neighbourhood out to every element),
//! everything it forces concluded at once, each step re-checked before it is kept.

mod look;

use super::answer::{board, Difficulty, Explained, Explanation, Forced, Minimal, Step, StepBoard};
use super::engine::{Engine, Rows};
use super::pools::Incidence;
use super::recheck::{recheck, Checker};
use crate::error::{Error, Result};
use crate::model::{Kind, Lit};
use crate::puzzles::{Formulated, Givens, Puzzle, Query};
use crate::solve::search::{Status, Step as Solve};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

const COSTS: &str = "each earlier conclusion or given cited costs 1, each rule 2";

/// What every engine of one explanation is built from.
pub(super) struct Job<'a, 'o, P: Puzzle> {
    pub(super) instance: &'a P::Instance,
    pub(super) options: &'o P::Options,
    pub(super) query: Query,
    /// The optimal value in the model's minimisation form and its words: a given of its own.
    pub(super) optimum: Option<(i64, String)>,
    pub(super) deadline: Option<Instant>,
}

/// How one engine's sequence runs.
pub(super) struct Setup<'s> {
    /// The baseline (`--plain`): every core shrunk, nothing kept from one step to the next.
    pub plain: bool,
    pub rows: Rows,
    /// Raised when the engine racing this one has finished: this one stops.
    pub race: Option<&'s Arc<AtomicBool>>,
    /// The most steps any engine of the run has made, for the progress report.
    pub shown_steps: &'s AtomicUsize,
}

/// A decision's reason found so far: the elements, their cost, the level of the pool they
/// came from, and whether they are proved subset-minimal yet. A local reason is the core of a
/// refutation by propagation, and it is shrunk (its minimality proved: one satisfiable solve an
/// element, on a large board a few milliseconds each) only when it makes a step: most reasons
/// found are dropped again as conclusions land near them, and such a core is nearly always
/// minimal as it comes (on eight CSPLib puzzles 171 of 178 were, on a 30×20 board 257 of 259).
#[derive(Clone)]
struct Cached {
    reason: Vec<usize>,
    cost: u32,
    level: usize,
    minimal: bool,
}

/// A decision's core over every element, not yet shrunk (a reason, not minimal): kept until a
/// conclusion lands near it, so that each round shrinks one and finds no other; `proved`, how
/// many of its first elements a shrink proved necessary.
#[derive(Clone)]
struct Kept {
    cost: u32,
    core: Vec<usize>,
    proved: usize,
}

/// A core over every element found in a round: its cost, its decision, its elements.
type Core = (u32, usize, Vec<usize>);

/// One engine's explanation in the making.
struct Sequence<'a, 's, S> {
    f: Formulated<'a, S>,
    engine: Engine<'a>,
    checker: Checker<'a>,
    inc: Incidence,
    setup: Setup<'s>,
    /// The solution's value of each decision.
    target: Vec<bool>,
    /// The decisions a board shows: true ones, and false ones with a word (water).
    shown: Vec<usize>,
    known: Vec<bool>,
    /// Decisions some solution sets otherwise: never concluded.
    free: Vec<bool>,
    /// Each decision's conclusion element, once concluded.
    fact_of: Vec<Option<usize>>,
    cache: Vec<Option<Cached>>,
    /// The highest level at which a decision was tried and no reason found.
    failed_at: Vec<usize>,
    kept: Vec<Option<Kept>>,
    /// The budget at which a decision's core's shrinking last ran past it (0: never), until
    /// a conclusion lands near.
    hard: Vec<i32>,
    steps: Vec<Step>,
    stopped: bool,
}

/// The explanation on one engine (and its two re-checking engines), `f` the formulation it
/// is built on.
pub(super) fn run<'a, P: Puzzle>(
    mut f: Formulated<'a, P::Solution>,
    job: &Job<'a, '_, P>,
    setup: Setup<'_>,
) -> Result<Explained<P::Solution>> {
    let config = match setup.rows {
        Rows::Encoded => "explain",
        Rows::Counted => "explain-counting",
    };
    let optimum = job.optimum.clone();
    let mut engine = Engine::new(&mut f, optimum.clone(), job.deadline, config, setup.rows);
    // The re-check, on two more engines built from formulations of their own: one proves
    // that the reason forces each conclusion, with every row in clauses; one finds, for each
    // element, an assignment of the rest where a conclusion fails, counting the "exactly"
    // rows. Each is the faster at its task (docs/explain.md, the re-check under "The method").
    let own = || P::formulate(job.instance, job.options, job.query);
    let refuter = Engine::new(
        &mut own()?,
        optimum.clone(),
        job.deadline,
        "assumptions",
        Rows::Encoded,
    );
    let finder = Engine::new(
        &mut own()?,
        optimum,
        job.deadline,
        "assumptions",
        Rows::Counted,
    );
    let mut checker = Checker { refuter, finder };
    if let Some(flag) = setup.race {
        engine.search.backend.stop_on(flag.clone());
        checker.stop_on(flag);
        engine.race = Some(flag.clone());
    }
    let all: Vec<usize> = (0..engine.lits.len()).collect();
    let first = match engine.solve(&all, None) {
        Solve::Found(a) => a,
        Solve::Stopped => return Ok(Explained::ended(Status::Unknown)),
        Solve::Exhausted => return Ok(Explained::ended(Status::Infeasible)),
    };
    let solution = (f.decode)(&first);
    let mut s = Sequence::new(f, engine, checker, setup, &first);
    s.run()?;
    Ok(s.finish(P::describe(job.instance), P::givens(job.instance), solution))
}

impl<'a, 's, S> Sequence<'a, 's, S> {
    fn new(
        f: Formulated<'a, S>,
        mut engine: Engine<'a>,
        checker: Checker<'a>,
        setup: Setup<'s>,
        first: &[bool],
    ) -> Self {
        let n = f.decisions.len();
        let target: Vec<bool> = f.decisions.iter().map(|v| first[v.index()]).collect();
        let shown: Vec<usize> = (0..n)
            .filter(|&k| target[k] || f.meanings[k].otherwise.is_some())
            .collect();
        let mut inc = Incidence::new(&f.model, &f.decisions);
        for (g, members) in inc.members.iter().enumerate() {
            let mut cells: Vec<_> = members.iter().map(|&k| f.meanings[k].place).collect();
            cells.sort();
            cells.dedup();
            engine.cited[g].cells = cells;
        }
        inc.optimum = (engine.lits.len() > engine.groups).then_some(engine.groups);
        Sequence {
            f,
            engine,
            checker,
            inc,
            setup,
            target,
            shown,
            known: vec![false; n],
            free: vec![false; n],
            fact_of: vec![None; n],
            cache: vec![None; n],
            failed_at: vec![0; n],
            kept: vec![None; n],
            hard: vec![0; n],
            steps: Vec::new(),
            stopped: false,
        }
    }

    /// Decision `k`'s value in the solution, as a literal.
    fn lit(&self, k: usize) -> Lit {
        let v = self.f.decisions[k];
        if self.target[k] {
            v.pos()
        } else {
            v.negated()
        }
    }

    fn cost_of(&self, set: &[usize]) -> u32 {
        self.engine.cost_of(set)
    }

    /// Rounds until every shown decision is concluded, nothing more is forced, or a limit
    /// stops it.
    fn run(&mut self) -> Result<()> {
        while !self.stopped {
            if self.setup.plain {
                // The baseline keeps nothing from one step to the next.
                self.cache.iter_mut().for_each(|c| *c = None);
                self.kept.iter_mut().for_each(|c| *c = None);
            }
            let open: Vec<usize> = self
                .shown
                .iter()
                .copied()
                .filter(|&k| !self.known[k] && !self.free[k])
                .collect();
            if open.is_empty() {
                break;
            }
            let Some((least, level)) = self.cheapest(&open) else {
                break;
            };
            // Every decision whose reason costs that least is a step of this round, one after
            // another (a reason stays valid as conclusions come; one that an earlier step of
            // the round has concluded is skipped): fewer rounds of looking again.
            let batch: Vec<usize> = open
                .iter()
                .copied()
                .filter(|&j| {
                    !self.free[j]
                        && self.cache[j]
                            .as_ref()
                            .is_some_and(|c| c.cost == least && c.level <= level)
                })
                .collect();
            for k in batch {
                if !self.known[k] && self.cache[k].is_some() {
                    self.step(k, &open)?;
                }
                if self.stopped {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Makes decision `k`'s cached reason a step: minimal (and the smallest, where small),
    /// everything it forces, re-checked, then kept.
    fn step(&mut self, k: usize, open: &[usize]) -> Result<()> {
        let c = self.cache[k].clone().expect("a cached reason");
        let pool = self
            .inc
            .pool(c.level, k, &self.fact_of, self.engine.lits.len());
        let Some((reason, cost, minimal)) = self.least(k, &pool, c) else {
            self.stopped = true;
            return Ok(());
        };
        let Some(derived) = self.derive(k, &reason, open)? else {
            self.stopped = true;
            return Ok(());
        };
        self.check(k, &reason, &derived)?;
        if !self.stopped {
            self.record(reason, cost, minimal, derived);
        }
        Ok(())
    }

    /// The re-check of a step ([`recheck`]) with the search's own counter-assignments, where
    /// it has them for this reason, as hints: each is checked row by row there, and where one
    /// fails, the re-checking engine that finds assignments starts from it (a phase only).
    fn check(&mut self, k: usize, reason: &[usize], derived: &[usize]) -> Result<()> {
        let lits: Vec<Lit> = derived.iter().map(|&j| self.lit(j)).collect();
        let hints: Vec<(usize, Vec<bool>)> = std::mem::take(&mut self.engine.witnesses)
            .into_iter()
            .filter(|(x, _)| reason.contains(x))
            .collect();
        let first = self.lit(k);
        let refuted: Vec<Lit> = lits.iter().copied().filter(|&l| l != first).collect();
        match recheck(&mut self.checker, reason, &lits, first, &hints, &refuted) {
            Ok(()) => Ok(()),
            Err(why) if why == "stopped" => {
                self.stopped = true;
                Ok(())
            }
            Err(why) => Err(Error::Internal(format!(
                "explain: a step failed its re-check: {why}"
            ))),
        }
    }

    /// Keeps a step, and concludes what it derived on every engine.
    fn record(&mut self, reason: Vec<usize>, cost: u32, minimal: Minimal, derived: Vec<usize>) {
        let cited = &self.engine.cited;
        let mut order: Vec<(Kind, usize)> = reason.iter().map(|&x| (cited[x].kind, x)).collect();
        order.sort_by_key(|&(kind, x)| (kind as u8, x));
        let forced: Vec<Forced> = derived
            .iter()
            .map(|&j| Forced {
                meaning: self.f.meanings[j].clone(),
                value: self.target[j],
            })
            .collect();
        let reason: Vec<_> = order.iter().map(|&(_, x)| cited[x].clone()).collect();
        let text = super::words::sentence(&forced, &reason);
        self.steps.push(Step {
            derived: forced,
            reason,
            cost,
            minimal,
            text,
        });
        let most = self
            .setup
            .shown_steps
            .fetch_max(self.steps.len(), Ordering::Relaxed);
        if self.steps.len() > most {
            crate::guard::progress::message(&format!("{} steps", self.steps.len()));
        }
        for &j in &derived {
            let lit = self.lit(j);
            self.known[j] = true;
            self.fact_of[j] = Some(self.engine.conclude(lit, &self.f.meanings[j]));
            self.checker.conclude(lit, &self.f.meanings[j]);
            // A cheaper reason can now appear only near the new conclusion.
            for &m in &self.inc.near[j] {
                self.cache[m] = None;
                self.failed_at[m] = 0;
                self.kept[m] = None;
                self.hard[m] = 0;
            }
        }
    }

    /// The explanation as far as it got, on the board titled `title` with the puzzle's
    /// `givens`, of `solution`.
    fn finish(mut self, title: String, givens: Givens, solution: S) -> Explained<S> {
        let open = self.shown.iter().filter(|&&k| !self.known[k]).count();
        let difficulty = Difficulty {
            hardest: self.steps.iter().map(|s| s.cost).max().unwrap_or(0),
            total: self.steps.iter().map(|s| s.cost).sum(),
            steps: self.steps.len(),
        };
        let (places, extent) = board(&self.f.meanings);
        let method = self.method();
        let stats = self.engine.search.finish();
        let solver_calls = stats.solver_calls
            + self.checker.refuter.search.stats.solver_calls
            + self.checker.finder.search.stats.solver_calls;
        Explained {
            status: if self.stopped {
                Status::Unknown
            } else {
                Status::Solved
            },
            solution: Some(solution),
            explanation: Some(Explanation {
                steps: self.steps,
                difficulty,
                rating: !self.setup.plain && self.setup.rows == Rows::Encoded,
                complete: open == 0,
                open,
                costs: COSTS.into(),
                board: StepBoard {
                    places,
                    extent,
                    title,
                    givens,
                },
            }),
            method,
            model: Some(self.f.model.size()),
            solver_calls,
        }
    }

    /// How the steps were found, in words.
    fn method(&self) -> String {
        let race = match (self.setup.race, self.setup.rows, self.stopped) {
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
        };
        let how = if self.setup.plain {
            "one deletion-based minimal subset per open decision over every element (--plain)"
        } else {
            "cores and deletion from the neighbourhood out"
        };
        format!("{}; reasons by {how}, re-checked{race}", self.f.method)
    }
}
