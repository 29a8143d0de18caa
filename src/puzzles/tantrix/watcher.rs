//! Sub-loops cut during search (IPASIR-UP): the watcher over a model's designated lines.

use crate::model::{Lit, Var};
use std::collections::HashMap;

/// Sub-loops found during search: the designated lines set so far, as components of places
/// (union-find with undo, no path compression, so that undoing a line is one step). A line
/// joining two places already connected closes a loop; if that loop has fewer places than
/// the challenge has tiles, C5 around it is a clause every solution satisfies and the
/// assignment so far falsifies (on a free board, "or one of its places is unused").
pub struct LoopWatcher {
    pub(super) edges: Vec<(usize, usize)>,
    pub(super) designated: Vec<Var>,
    pub(super) used: Option<Vec<Var>>,
    pub(super) tiles: usize,
    pub(super) edge_of: HashMap<Var, usize>,
    pub(super) parent: Vec<usize>,
    pub(super) size: Vec<usize>,
    /// For each designated line set, in order: the root it hung under another (None when it
    /// closed a loop).
    pub(super) joined: Vec<Option<(usize, Ends)>>,
    /// Each root's component's two ends while it is a path (a place alone is both ends).
    pub(super) ends: Vec<Ends>,
    /// Each place's neighbours with the line between.
    pub(super) near: Vec<Vec<(usize, usize)>>,
    /// Lines set designated.
    pub(super) on: Vec<bool>,
}

/// A component's two ends, while it is a path.
type Ends = Option<(usize, usize)>;

impl LoopWatcher {
    fn root(&self, mut c: usize) -> usize {
        while self.parent[c] != c {
            c = self.parent[c];
        }
        c
    }
}

impl crate::solve::Watcher for LoopWatcher {
    fn watched(&self) -> Vec<Var> {
        let mut v = self.designated.clone();
        v.extend(self.used.iter().flatten());
        v
    }

    fn assign(&mut self, lit: Lit) -> Option<Vec<Lit>> {
        if lit.negated {
            return None;
        }
        let &e = self.edge_of.get(&lit.var)?;
        let (p, q) = self.edges[e];
        self.on[e] = true;
        let (a, b) = (self.root(p), self.root(q));
        if a != b {
            let (big, small) = if self.size[a] >= self.size[b] {
                (a, b)
            } else {
                (b, a)
            };
            // The joined path's ends: the far ends of the two paths.
            let far = |end: Ends, at: usize| match end {
                Some((x, y)) if x == at => Some(y),
                Some((x, y)) if y == at => Some(x),
                _ => None,
            };
            let ends = match (far(self.ends[a], p), far(self.ends[b], q)) {
                (Some(x), Some(y)) => Some((x, y)),
                _ => None,
            };
            self.joined.push(Some((small, self.ends[big])));
            self.parent[small] = big;
            self.size[big] += self.size[small];
            self.ends[big] = ends;
            // The line joining the path's ends would close a loop too short: the path's lines
            // and that one are not all designated.
            let (x, y) = ends?;
            if self.size[big] >= self.tiles {
                return None;
            }
            let &(_, closing) = self.near[x].iter().find(|&&(d, _)| d == y)?;
            if self.on[closing] {
                // Two places and the line between them: nothing to close.
                return None;
            }
            let mut clause: Vec<Lit> = vec![self.designated[closing].negated()];
            for c in 0..self.parent.len() {
                if self.root(c) == big {
                    for &(d, f) in &self.near[c] {
                        if self.on[f] && c < d {
                            clause.push(self.designated[f].negated());
                        }
                    }
                }
            }
            return Some(clause);
        }
        self.joined.push(None);
        if self.size[a] >= self.tiles {
            return None;
        }
        let inside: Vec<bool> = (0..self.parent.len()).map(|c| self.root(c) == a).collect();
        let mut clause = crossing(&self.edges, &self.designated, |c| inside[c]);
        if let Some(u) = &self.used {
            clause.extend(
                (0..inside.len())
                    .filter(|&c| inside[c])
                    .map(|c| u[c].negated()),
            );
        }
        Some(clause)
    }

    fn undo(&mut self, lit: Lit) {
        if lit.negated || !self.edge_of.contains_key(&lit.var) {
            return;
        }
        self.on[self.edge_of[&lit.var]] = false;
        if let Some((small, ends)) = self.joined.pop().expect("undone in reverse order") {
            let big = self.parent[small];
            self.size[big] -= self.size[small];
            self.parent[small] = small;
            self.ends[big] = ends;
        }
    }
}

/// C5's literals for a set of places: "this line is designated", for each line across its
/// border.
pub(super) fn crossing(
    edges: &[(usize, usize)],
    designated: &[Var],
    inside: impl Fn(usize) -> bool,
) -> Vec<Lit> {
    edges
        .iter()
        .zip(designated)
        .filter(|((p, q), _)| inside(*p) != inside(*q))
        .map(|(_, v)| v.pos())
        .collect()
}
