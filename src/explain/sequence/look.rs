//! Looking for reasons in a round: pools from each open decision's neighbourhood out, cores
//! shrunk under growing budgets, a step's reason made minimal (and the smallest, where cheap),
//! and everything it forces.

use super::{Cached, Core, Kept, Sequence};
use crate::error::{Error, Result};
use crate::explain::answer::Minimal;
use crate::explain::pools::LEVELS;
use crate::explain::words::place_text;
use crate::model::Lit;
use crate::solve::reasons::{Cheaper, Found, Shrunk};
use crate::solve::search::Step as Solve;

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

impl<S> Sequence<'_, '_, S> {
    /// The least cost of a reason over the open decisions and the level of the pools it was
    /// found in, from the local pools out; `None` when none is forced, or a limit stopped it.
    pub(super) fn cheapest(&mut self, open: &[usize]) -> Option<(u32, usize)> {
        let first_level = if self.setup.plain { LEVELS } else { 1 };
        for level in first_level..=LEVELS {
            let cores = self.look(level, open);
            if !self.stopped {
                self.shrink_cores(level, cores);
            }
            if self.stopped {
                return None;
            }
            let chosen = open
                .iter()
                .copied()
                .filter(|&k| !self.free[k])
                .filter_map(|k| {
                    let c = self.cache[k].as_ref()?;
                    (c.level <= level).then_some((c.cost, k))
                })
                .min();
            if let Some((least, _)) = chosen {
                return Some((least, level));
            }
        }
        None
    }

    /// Looks for a reason for each open decision in its pool at `level`: reasons cached, and
    /// over every element (the last level) cores, to be shrunk.
    fn look(&mut self, level: usize, open: &[usize]) -> Vec<Core> {
        let mut cores = Vec::new();
        for &k in open {
            let cached = self.cache[k].as_ref().is_some_and(|c| c.level <= level);
            if self.free[k] || self.failed_at[k] >= level || cached {
                continue;
            }
            if level == LEVELS {
                if let Some(kept) = &self.kept[k] {
                    cores.push((kept.cost, k, kept.core.clone()));
                    continue;
                }
            }
            let pool = self
                .inc
                .pool(level, k, &self.fact_of, self.engine.lits.len());
            let concl = self.lit(k);
            // The first, local, level takes what propagation alone finds: most decisions are
            // not forced there, and a full solve of a large board is a millisecond.
            if level == 1 && !self.engine.propagates(&pool, concl) {
                self.failed_at[k] = level;
                continue;
            }
            let found = if level == LEVELS || level == 1 {
                self.engine.core_of(&pool, Some(concl))
            } else {
                self.engine.minimal_reason(&pool, Some(concl))
            };
            if !self.take(k, level, found, &mut cores) {
                self.stopped = true;
                break;
            }
        }
        cores
    }

    /// Keeps what looking for decision `k`'s reason found; false if a limit stopped it.
    fn take(
        &mut self,
        k: usize,
        level: usize,
        found: Found<Vec<bool>>,
        cores: &mut Vec<Core>,
    ) -> bool {
        match found {
            // Over every element, cores first: only one a round is shrunk.
            Found::Reason(core) if level == LEVELS => {
                let cost = self.cost_of(&core);
                self.kept[k] = Some(Kept {
                    cost,
                    core: core.clone(),
                    proved: 0,
                });
                cores.push((cost, k, core));
            }
            Found::Reason(reason) => self.cache_reason(k, reason, level, level > 1),
            // Every element holds there: a solution where decision k differs.
            Found::Counter(a) if level == LEVELS => {
                for (j, v) in self.f.decisions.iter().enumerate() {
                    if a[v.index()] != self.target[j] {
                        self.free[j] = true;
                    }
                }
            }
            Found::Counter(_) => self.failed_at[k] = level,
            Found::Stopped => return false,
        }
        true
    }

    /// Shrinks the cores of a round: the baseline every one, whatever it costs; else the
    /// cheapest, by budgets ([`Sequence::shrink_budgeted`]).
    fn shrink_cores(&mut self, level: usize, mut cores: Vec<Core>) {
        cores.sort();
        if !self.setup.plain {
            return self.shrink_budgeted(level, cores);
        }
        for (_, k, core) in cores {
            let Some(reason) = self.engine.shrink_fully(core, Some(self.lit(k))) else {
                self.stopped = true;
                return;
            };
            self.cache_reason(k, reason, level, true);
        }
    }

    /// The cheapest cores first, each deletion held to a budget: where one runs past it (a
    /// reason whose proof is hard), the next core is tried. When every core tried is hard,
    /// they are tried again with a budget four times as high, each from where it stopped, and
    /// past the last budget the cheapest is shrunk whatever it costs.
    fn shrink_budgeted(&mut self, level: usize, mut cores: Vec<Core>) {
        let mut budget = BUDGET;
        let mut done = cores.is_empty();
        while !done && !self.stopped {
            cores.sort();
            for (_, k, core) in cores.iter_mut().take(TRIED) {
                let k = *k;
                if self.hard[k] >= budget {
                    continue;
                }
                let limit = (budget <= BUDGET_MAX).then_some(budget);
                match self.shrink_one(k, core.clone(), limit) {
                    Shrunk::Minimal(reason) => {
                        self.cache_reason(k, reason, level, true);
                        done = true;
                        break;
                    }
                    Shrunk::Hard(part, proved) => {
                        self.hard[k] = budget;
                        let cost = self.cost_of(&part);
                        self.kept[k] = Some(Kept {
                            cost,
                            core: part.clone(),
                            proved,
                        });
                        *core = part;
                    }
                    Shrunk::Stopped(_) => {
                        self.stopped = true;
                        break;
                    }
                }
                if limit.is_none() {
                    // Only the cheapest is shrunk without a budget.
                    break;
                }
            }
            budget = budget.saturating_mul(BUDGET_GROWTH);
        }
    }

    /// Keeps `reason` as decision `k`'s, found at `level`, proved subset-minimal or not.
    fn cache_reason(&mut self, k: usize, reason: Vec<usize>, level: usize, minimal: bool) {
        let cost = self.cost_of(&reason);
        self.cache[k] = Some(Cached {
            reason,
            cost,
            level,
            minimal,
        });
    }

    /// Shrinks decision `k`'s core from where an earlier shrink of it stopped.
    fn shrink_one(&mut self, k: usize, core: Vec<usize>, budget: Option<i32>) -> Shrunk {
        let start = self.kept[k].as_ref().map_or(0, |c| c.proved);
        let progress = format!(
            "{} steps; shrinking a reason for {} ({})",
            self.steps.len(),
            place_text(self.f.meanings[k].place),
            self.setup.rows.engine_name()
        );
        self.engine
            .shrink(core, Some(self.lit(k)), budget, start, Some(&progress))
    }

    /// A cached reason shrunk (if it is not yet: its cost can only fall, so it stays among the
    /// cheapest of the round), then, where it is cheap, the cheapest reason of all.
    pub(super) fn least(
        &mut self,
        k: usize,
        pool: &[usize],
        c: Cached,
    ) -> Option<(Vec<usize>, u32, Minimal)> {
        let (mut reason, mut cost) = (c.reason, c.cost);
        if !c.minimal {
            reason = self.engine.shrink_fully(reason, Some(self.lit(k)))?;
            cost = self.cost_of(&reason);
        }
        let tried = if cost <= SMALLEST_UP_TO && !self.setup.plain {
            let bound = cost.saturating_sub(1);
            self.engine
                .smallest_reason(pool, self.lit(k), bound, ROUNDS)
        } else {
            Cheaper::Unknown
        };
        let minimal = match tried {
            Cheaper::Found(r) => {
                cost = self.cost_of(&r);
                reason = r;
                Minimal::Smallest
            }
            Cheaper::None => Minimal::Smallest,
            Cheaper::Unknown => Minimal::Subset,
        };
        Some((reason, cost, minimal))
    }

    /// Everything `reason` forces among the open decisions, not only `k`; `None` if a limit
    /// stopped it. Looked for on the re-checking engine that refutes: a conclusion it refutes
    /// here is proved by it once (the re-check's own proof), and the explaining engine spends
    /// no search on it.
    pub(super) fn derive(
        &mut self,
        k: usize,
        reason: &[usize],
        open: &[usize],
    ) -> Result<Option<Vec<usize>>> {
        let mut derived = vec![k];
        // Only decisions next to what the reason speaks of can follow from it (unless it cites
        // a global given, such as the fleet): on a large board the others would each cost a
        // solve.
        let nearby = self.inc.around(reason, &self.fact_of);
        let mut maybe: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&j| j != k && !self.known[j] && !self.free[j])
            .filter(|&j| nearby.as_ref().is_none_or(|near| near[j]))
            .collect();
        if self.setup.plain {
            maybe.clear();
        }
        let agrees = |a: &[bool], x: usize| a[self.f.decisions[x].index()] == self.target[x];
        let lits: Vec<Lit> = (0..self.target.len()).map(|j| self.lit(j)).collect();
        let refuter = &mut self.checker.refuter;
        match refuter.solve(reason, None) {
            Solve::Found(a) => maybe.retain(|&j| agrees(&a, j)),
            Solve::Stopped => return Ok(None),
            Solve::Exhausted => return Err(Error::Internal("a reason with no solution".into())),
        }
        let mut i = 0;
        while i < maybe.len() {
            match refuter.solve(reason, Some(lits[maybe[i]])) {
                Solve::Exhausted => {
                    derived.push(maybe[i]);
                    i += 1;
                }
                // Drops this one and every other the assignment disagrees with; those before i
                // are forced, so agree, and i points at the next one to try.
                Solve::Found(a) => maybe.retain(|&x| agrees(&a, x)),
                Solve::Stopped => return Ok(None),
            }
        }
        derived.sort_unstable();
        Ok(Some(derived))
    }
}
