//! A portfolio: several differently configured CaDiCaL engines hold the same constraints and
//! race on every solve, one thread each; the first to decide wins and stops the others.
//!
//! SAT search times on satisfiable puzzles vary a lot with small changes (a seed, a phase, one
//! constraint more); racing two configurations on two cores cuts off the slow tail. Every
//! engine receives the same constraints in the same order, so the encodings' auxiliary
//! variables are numbered alike and any engine's literals mean the same in the others.

use super::sat::SatBackend;
use super::{Answer, Backend, EngineSize};
use crate::model::{Constraint, Lit, Model};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

pub struct Portfolio {
    members: Vec<SatBackend>,
    stop: Arc<AtomicBool>,
    /// The member whose answer the last solve returned.
    winner: usize,
}

impl Portfolio {
    /// One engine per configuration name (see [`SatBackend::with_config`]).
    pub fn new(model: &Model, configs: &[&str]) -> Portfolio {
        Portfolio::recorded(model, configs, None)
    }

    /// [`Portfolio::new`] for a recorded run: each engine certifies its refutations into
    /// `recorder`.
    pub fn recorded(
        model: &Model,
        configs: &[&str],
        recorder: Option<super::proof::Shared>,
    ) -> Portfolio {
        assert!(!configs.is_empty(), "a portfolio needs an engine");
        let stop = Arc::new(AtomicBool::new(false));
        let members = configs
            .iter()
            .map(|c| {
                let mut b = SatBackend::recorded(model, c, recorder.clone());
                b.stop_on(stop.clone());
                b
            })
            .collect();
        Portfolio {
            members,
            stop,
            winner: 0,
        }
    }
}

impl Backend for Portfolio {
    fn add_constraint(&mut self, constraint: &Constraint) {
        for m in &mut self.members {
            m.add_constraint(constraint);
        }
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        for m in &mut self.members {
            m.add_clause(lits);
        }
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Answer {
        if self.members.len() == 1 {
            self.winner = 0;
            return self.members[0].solve(assumptions);
        }
        self.stop.store(false, Ordering::Relaxed);
        let stop = &self.stop;
        // The engines' threads enter the caller's stage: its stop request reaches them.
        let engines: Vec<std::sync::Mutex<&mut _>> =
            self.members.iter_mut().map(std::sync::Mutex::new).collect();
        let answers: Vec<(Answer, Instant)> = crate::guard::spread(engines.len(), &|i| {
            let Ok(mut engine) = engines[i].lock() else {
                return (Answer::Unknown, Instant::now());
            };
            let a = engine.solve(assumptions);
            if a != Answer::Unknown {
                stop.store(true, Ordering::Relaxed);
            }
            (a, Instant::now())
        })
        .into_iter()
        .map(|a| a.unwrap_or((Answer::Unknown, Instant::now())))
        .collect();
        drop(engines);
        // The earliest decided answer wins; all Unknown means the deadline passed.
        let best = answers
            .iter()
            .enumerate()
            .filter(|(_, (a, _))| *a != Answer::Unknown)
            .min_by_key(|(_, (_, t))| *t)
            .map(|(i, _)| i);
        self.stop.store(false, Ordering::Relaxed);
        match best {
            Some(i) => {
                self.winner = i;
                answers[i].0
            }
            None => Answer::Unknown,
        }
    }

    fn assignment(&self) -> Vec<bool> {
        self.members[self.winner].assignment()
    }

    fn failed(&self, assumption: Lit) -> bool {
        self.members[self.winner].failed(assumption)
    }

    fn objective_at_most(&mut self, bound: i64) -> Option<Vec<Lit>> {
        let mut first: Option<Option<Vec<Lit>>> = None;
        for m in &mut self.members {
            let lits = m.objective_at_most(bound);
            match &first {
                None => first = Some(lits),
                Some(f) => debug_assert_eq!(*f, lits, "engines number their encodings alike"),
            }
        }
        first.flatten()
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        for m in &mut self.members {
            m.set_deadline(deadline);
        }
    }

    fn watch(&mut self, make: &dyn Fn() -> Box<dyn super::Watcher>) {
        for m in &mut self.members {
            m.watch(make);
        }
    }

    /// The last winner's (the engines' clauses are the same; the cuts found in search not).
    fn engine_size(&self) -> EngineSize {
        self.members[self.winner].engine_size()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Model, Sense};

    #[test]
    fn a_portfolio_answers_like_one_engine() {
        // Pigeons: 4 into 3 holes is unsatisfiable; 3 into 3 is satisfiable.
        for (pigeons, sat) in [(3, true), (4, false)] {
            let mut m = Model::new();
            let x: Vec<Vec<_>> = (0..pigeons)
                .map(|p| (0..3).map(|h| m.var(format!("x{p}{h}"))).collect())
                .collect();
            for row in &x {
                let lits: Vec<Lit> = row.iter().map(|v| v.pos()).collect();
                m.exactly_one("pigeon", &lits);
            }
            for h in 0..3 {
                let lits: Vec<Lit> = x.iter().map(|r| r[h].pos()).collect();
                m.cardinality("hole", &lits, Sense::Le, 1);
            }
            let mut p = Portfolio::new(&m, &["default", "sat"]);
            let a = p.solve(&[]);
            assert_eq!(a == Answer::Sat, sat);
            if sat {
                let v = p.assignment();
                assert!(m.constraints.iter().all(|c| c.holds(&v)));
            }
        }
    }
}
