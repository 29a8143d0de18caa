//! Where reasons are looked for: which groups touch which decisions, and the pools of
//! elements from a decision's neighbourhood out to every element.

use crate::model::{Model, Var};

/// Which groups touch which decisions (a decision's variable in one of the group's rows):
/// Which groups touch which decisions (a decision's variable in one of the group's rows):
/// the pools reasons are looked for in, from local to all.
pub(super) struct Incidence {
    /// The groups touching each decision.
    pub(super) groups_of: Vec<Vec<usize>>,
    /// The decisions each group touches.
    pub(super) members: Vec<Vec<usize>>,
    /// Groups touching no decision (the fleet's counts: rows over ships, not cells).
    pub(super) global: Vec<usize>,
    /// For each decision, the decisions sharing a group with it (and itself).
    pub(super) near: Vec<Vec<usize>>,
    /// The optimum's element, where there is an objective.
    pub(super) optimum: Option<usize>,
}

/// Pools: 1, the groups touching the decision and the conclusions on their decisions; 2,
/// also the global groups (and the optimum); 3, every element.
pub(super) const LEVELS: usize = 3;

impl Incidence {
    pub(super) fn new(model: &Model, decisions: &[Var]) -> Incidence {
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
    pub(super) fn around(&self, reason: &[usize], fact_of: &[Option<usize>]) -> Option<Vec<bool>> {
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
    pub(super) fn pool(
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
