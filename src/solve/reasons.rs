//! Reasons: which of a set of facts force a conclusion, and a least set of them that does.
//!
//! The facts are numbered elements (a clue, a count, an earlier conclusion: whatever a caller
//! switches on by assumption); [`Facts`] asks its engine whether a set of them forces the
//! conclusion. On that one question rest:
//!
//! - [`core`]: the elements a refutation used, a reason but not a minimal one;
//! - [`shrink`]: deletion, one element at a time, to a subset-minimal reason (a minimal
//!   unsatisfiable subset); each trial may be held to a budget of conflicts and resumed later
//!   from where it stopped;
//! - [`smallest`]: the cheapest reason of all under a cost bound, by implicit hitting sets
//!   (every counter-assignment found names elements of which a reason must keep one).
//!
//! Explanations (their steps' reasons) and Battleship's setter (a puzzle's necessary clues)
//! both shrink through here: a speed-up of the shrink reaches both.

/// What one trial of a set of elements found.
pub enum Trial<C> {
    /// The set forces the conclusion; the elements the proof used (a subset of it).
    Forced(Vec<usize>),
    /// It does not: an assignment where every element of the set holds and the conclusion
    /// fails.
    Counter(C),
    /// The trial ran past the budget it was given (it may succeed with a larger one).
    OverBudget,
    /// A limit of the run stopped it.
    Stopped,
}

/// The question a reason is looked for with: whether a set of elements forces the
/// conclusion.
pub trait Facts {
    /// A counter-assignment, as the engine gives it.
    type Counter;

    /// Whether the elements `set` force the conclusion; the engine held to `budget`
    /// conflicts when one is given.
    fn trial(&mut self, set: &[usize], budget: Option<i32>) -> Trial<Self::Counter>;

    /// Whether a counter-assignment met before already shows that `set` does not force the
    /// conclusion (saving a trial). By default none is kept.
    fn refuted_before(&self, _set: &[usize]) -> bool {
        false
    }

    /// Told when element `x` is shown necessary by `counter` (an assignment of the rest of the
    /// reason where the conclusion fails), for callers that keep them.
    fn necessary(&mut self, _x: usize, _counter: Self::Counter) {}

    /// The elements of `pool` that `counter` breaks (for [`smallest`]); `None` where the
    /// engine cannot tell.
    fn broken(&self, _pool: &[usize], _counter: &Self::Counter) -> Option<Vec<usize>> {
        None
    }
}

/// What looking for a reason found.
pub enum Found<C> {
    /// A set of elements forcing the conclusion.
    Reason(Vec<usize>),
    /// An assignment where every element of the pool holds and the conclusion fails.
    Counter(C),
    Stopped,
}

/// The elements of `pool` a refutation used: a reason, not minimal yet.
pub fn core<F: Facts>(facts: &mut F, pool: &[usize]) -> Found<F::Counter> {
    match facts.trial(pool, None) {
        Trial::Forced(used) => Found::Reason(used),
        Trial::Counter(c) => Found::Counter(c),
        Trial::OverBudget | Trial::Stopped => Found::Stopped,
    }
}

/// What [`shrink`] ended with.
#[derive(Debug, PartialEq, Eq)]
pub enum Shrunk {
    /// Subset-minimal.
    Minimal(Vec<usize>),
    /// A trial ran past its budget: the reason as far as it was shrunk (it still forces the
    /// conclusion, but may not be minimal), and how many of its first elements are proved
    /// necessary (a shrink of it can start there).
    Hard(Vec<usize>, usize),
    /// A limit stopped it: the reason as far as it was shrunk (it still forces).
    Stopped(Vec<usize>),
}

/// Shrinks `reason` (a set forcing the conclusion, in the order its elements are to be tried
/// for deletion) to a subset-minimal one, each trial held to `budget` conflicts when one is
/// given, starting after its first `start` elements, which are kept: proved necessary by an
/// earlier shrink of a superset (a superset less one of them did not force, so no subset less
/// it does), or not to be tried. `progress` hears, before each trial, how many elements are
/// left and how many of them are proved necessary.
pub fn shrink<F: Facts>(
    facts: &mut F,
    mut reason: Vec<usize>,
    start: usize,
    budget: Option<i32>,
    progress: &mut dyn FnMut(usize, usize),
) -> Shrunk {
    let mut i = start.min(reason.len());
    while i < reason.len() {
        progress(reason.len(), i);
        let mut trial = reason.clone();
        let x = trial.remove(i);
        if facts.refuted_before(&trial) {
            i += 1;
            continue;
        }
        match facts.trial(&trial, budget) {
            Trial::Forced(used) => {
                // Keep what this proof used, in the same order; those proved necessary stay
                // whatever it used (a proof cannot do without them).
                let (needed, rest) = trial.split_at(i);
                let mut kept = needed.to_vec();
                kept.extend(rest.iter().copied().filter(|y| used.contains(y)));
                reason = kept;
            }
            Trial::Counter(c) => {
                // It satisfies the rest of every later, smaller reason too.
                facts.necessary(x, c);
                i += 1;
            }
            Trial::OverBudget => return Shrunk::Hard(reason, i),
            Trial::Stopped => return Shrunk::Stopped(reason),
        }
    }
    Shrunk::Minimal(reason)
}

/// A subset-minimal subset of `pool` forcing the conclusion: [`core`], then [`shrink`] with
/// no budget, its elements tried for deletion in the order `order` puts them.
pub fn minimal<F: Facts>(
    facts: &mut F,
    pool: &[usize],
    order: &dyn Fn(&mut Vec<usize>),
) -> Found<F::Counter> {
    match core(facts, pool) {
        Found::Reason(mut r) => {
            order(&mut r);
            match shrink(facts, r, 0, None, &mut |_, _| {}) {
                Shrunk::Minimal(r) => Found::Reason(r),
                Shrunk::Hard(..) | Shrunk::Stopped(_) => Found::Stopped,
            }
        }
        other => other,
    }
}

/// What the search for a cheaper reason found.
#[derive(Debug, PartialEq, Eq)]
pub enum Cheaper {
    /// A reason costing at most the bound, and the cheapest there is.
    Found(Vec<usize>),
    /// Proved: no reason costs the bound or less.
    None,
    /// Rounds ran out (or a limit stopped it) first.
    Unknown,
}

/// The cheapest subset of `pool` that forces the conclusion and costs at most `bound`
/// (element `x` costs `costs[x]`), by implicit hitting sets: a cheapest set hitting every
/// correction set found so far is tried; if it does not force the conclusion, the elements
/// its counter-assignment breaks are a new correction set (every reason keeps one of them).
/// When no hitting set costs `bound` or less, no reason does.
pub fn smallest<F: Facts>(
    facts: &mut F,
    pool: &[usize],
    costs: &[u32],
    bound: u32,
    rounds: usize,
) -> Cheaper {
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for _ in 0..rounds {
        let hit = match cheapest_hitting_set(&sets, costs, bound) {
            Cheaper::Found(hit) => hit,
            other => return other,
        };
        match facts.trial(&hit, None) {
            Trial::Forced(_) => return Cheaper::Found(hit),
            Trial::OverBudget | Trial::Stopped => return Cheaper::Unknown,
            Trial::Counter(a) => match facts.broken(pool, &a) {
                // The conclusion fails where every element holds: not forced at all.
                Some(broken) if broken.is_empty() => return Cheaper::Unknown,
                Some(broken) => sets.push(broken),
                None => return Cheaper::Unknown,
            },
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
        // The search was cut short: a hitting set, maybe not the cheapest.
        (Some(_), 0) => Cheaper::Unknown,
        (Some(set), _) => Cheaper::Found(set),
        (None, 0) => Cheaper::Unknown,
        (None, _) => Cheaper::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Facts over small sets, by rule: a set forces the conclusion when it contains one of
    /// `reasons` entirely; a counter-assignment is the set itself (every element outside it
    /// broken). Counts the trials asked; over budget when a trial's set is larger than the
    /// budget.
    struct Rules {
        reasons: Vec<Vec<usize>>,
        trials: usize,
        necessary: Vec<usize>,
    }

    impl Facts for Rules {
        type Counter = Vec<usize>;
        fn trial(&mut self, set: &[usize], budget: Option<i32>) -> Trial<Vec<usize>> {
            self.trials += 1;
            if budget.is_some_and(|b| set.len() as i32 > b) {
                return Trial::OverBudget;
            }
            match self
                .reasons
                .iter()
                .find(|r| r.iter().all(|x| set.contains(x)))
            {
                Some(r) => Trial::Forced(r.clone()),
                None => Trial::Counter(set.to_vec()),
            }
        }
        fn necessary(&mut self, x: usize, _: Vec<usize>) {
            self.necessary.push(x);
        }
        fn broken(&self, pool: &[usize], held: &Vec<usize>) -> Option<Vec<usize>> {
            Some(pool.iter().copied().filter(|x| !held.contains(x)).collect())
        }
    }

    fn rules(reasons: &[&[usize]]) -> Rules {
        Rules {
            reasons: reasons.iter().map(|r| r.to_vec()).collect(),
            trials: 0,
            necessary: Vec::new(),
        }
    }

    /// A proof that uses more than it needs (every element, as a solver's core may).
    struct Wasteful(Rules);

    impl Facts for Wasteful {
        type Counter = Vec<usize>;
        fn trial(&mut self, set: &[usize], budget: Option<i32>) -> Trial<Vec<usize>> {
            match self.0.trial(set, budget) {
                Trial::Forced(_) => Trial::Forced(set.to_vec()),
                other => other,
            }
        }
        fn necessary(&mut self, x: usize, counter: Vec<usize>) {
            self.0.necessary(x, counter);
        }
    }

    #[test]
    fn deletion_finds_a_subset_minimal_reason_and_names_each_element_necessary() {
        let mut f = Wasteful(rules(&[&[2, 5], &[1, 3, 4]]));
        let Found::Reason(core) = core(&mut f, &[0, 1, 2, 3, 4, 5, 6]) else {
            panic!("the pool forces the conclusion");
        };
        assert_eq!(core.len(), 7, "the wasteful proof used everything");
        let mut seen = Vec::new();
        let shrunk = shrink(&mut f, core, 0, None, &mut |left, needed| {
            seen.push((left, needed))
        });
        // Deletion in order drops 0, 1 (2, 5 still force), keeps 2, drops 3 and 4, keeps 5.
        assert_eq!(shrunk, Shrunk::Minimal(vec![2, 5]));
        assert_eq!(f.0.necessary, vec![2, 5]);
        // What is left only falls, what is proved needed only grows.
        assert!(seen
            .windows(2)
            .all(|w| w[1].0 <= w[0].0 && w[1].1 >= w[0].1));
    }

    #[test]
    fn a_shrink_over_its_budget_resumes_where_it_stopped() {
        let mut f = Wasteful(rules(&[&[0, 6]]));
        let all: Vec<usize> = (0..7).collect();
        // Trials of six elements run over a budget of 5.
        let Shrunk::Hard(part, proved) = shrink(&mut f, all.clone(), 0, Some(5), &mut |_, _| {})
        else {
            panic!("the first trial is over budget");
        };
        assert_eq!((part.len(), proved), (7, 0));
        let resumed = shrink(&mut f, part, proved, None, &mut |_, _| {});
        assert_eq!(resumed, Shrunk::Minimal(vec![0, 6]));
        // Elements before `start` are kept untried.
        let kept = shrink(&mut f, all, 2, None, &mut |_, _| {});
        assert_eq!(kept, Shrunk::Minimal(vec![0, 1, 6]));
    }

    #[test]
    fn hitting_sets_find_the_cheapest_reason_or_prove_there_is_none_under_the_bound() {
        // {0,1,2} forces at cost 3; {5} alone at cost 4; no other.
        let costs = [1, 1, 1, 2, 2, 4];
        let pool: Vec<usize> = (0..6).collect();
        let mut f = rules(&[&[0, 1, 2], &[5]]);
        assert_eq!(
            smallest(&mut f, &pool, &costs, 3, 60),
            Cheaper::Found(vec![0, 1, 2])
        );
        let mut f = rules(&[&[0, 1, 2], &[5]]);
        assert_eq!(smallest(&mut f, &pool, &costs, 2, 60), Cheaper::None);
        let mut f = rules(&[&[0, 1, 2], &[5]]);
        assert_eq!(smallest(&mut f, &pool, &costs, 3, 1), Cheaper::Unknown);
        // A minimal reason: the core the first proof used ({0, 1, 2}: the trial meets that
        // rule first), shrunk (nothing to drop).
        let mut f = rules(&[&[0, 1, 2], &[5]]);
        let Found::Reason(r) = minimal(&mut f, &pool, &|r: &mut Vec<usize>| r.sort()) else {
            panic!("forced");
        };
        assert_eq!(r, vec![0, 1, 2]);
    }
}
