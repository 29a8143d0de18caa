//! The feasible lines of Tank Attack as a minimal automaton.
//!
//! A line (a row or a column) holding values w is *feasible* when no position receives more
//! hits from tanks of the line than its value; each position then carries a label (value, hits
//! along the line). The automaton reads the labels of a line in order. Its state after k
//! positions is what the rest of the line still owes: for each position already read, the hits
//! it must still receive from later tanks, and for each later position, the hits it has already
//! received. States that cannot reach the end are dropped and states with the same future are
//! merged, layer by layer from the end, which gives the minimal automaton: 803 nodes for lines
//! of 6 and a few thousand for 8, where the trie of all lines had millions (1.6 GB at 8).

use std::collections::HashMap;

/// The longest line: labels (v, a) with 1 ≤ v < n, 0 ≤ a ≤ v must fit 128 bits.
pub const MAX_LINE: usize = 15;

/// The minimal automaton of feasible lines of length n.
pub struct Lines {
    pub n: usize,
    /// Label index → (value, hits along the line).
    pub labels: Vec<(u8, u8)>,
    /// Label index → the label the crossing line carries, (v, a) → (v, v − a).
    pub cross: Vec<u8>,
    /// Per node: the labels it has a transition on.
    pub mask: Vec<u128>,
    /// Per node: the labels a crossing line may carry here, as labels of this line.
    pub crossing: Vec<u128>,
    /// `ahead[node * n + d]`: the labels found at depth d below the node.
    pub ahead: Vec<u128>,
    /// Per node: where its children start in `targets`; children are in label order.
    first: Vec<u32>,
    /// The child of every transition.
    targets: Vec<u32>,
}

impl Lines {
    pub fn child(&self, node: usize, label: usize) -> Option<usize> {
        let m = self.mask[node];
        if m >> label & 1 == 0 {
            return None;
        }
        let rank = (m & ((1u128 << label) - 1)).count_ones() as usize;
        Some(self.targets[self.first[node] as usize + rank] as usize)
    }

    /// The index of label (value v, hits a), if the line length allows it.
    pub fn label(&self, v: usize, a: usize) -> Option<usize> {
        self.labels.iter().position(|&l| l == (v as u8, a as u8))
    }

    /// Whether the automaton reads this word of labels to its end.
    pub fn accepts(&self, word: &[usize]) -> bool {
        word.len() == self.n
            && word
                .iter()
                .try_fold(0, |node, &l| self.child(node, l))
                .is_some()
    }

    /// The number of words the automaton accepts (the feasible lines).
    pub fn words(&self) -> u128 {
        // Paths from each node to the end, children after parents.
        let mut paths = vec![0u128; self.mask.len()];
        for node in (0..self.mask.len()).rev() {
            let f = self.first[node] as usize;
            let k = self.mask[node].count_ones() as usize;
            paths[node] = if k == 0 {
                1
            } else {
                self.targets[f..f + k]
                    .iter()
                    .map(|&c| paths[c as usize])
                    .sum()
            };
        }
        paths[0]
    }

    /// Number of nodes in all.
    pub fn nodes(&self) -> usize {
        self.mask.len()
    }

    /// Builds the automaton for lines of length n (2 ≤ n ≤ [`MAX_LINE`]). The root is node 0.
    pub fn new(n: usize) -> Lines {
        assert!((2..=MAX_LINE).contains(&n));
        let mut labels = Vec::new();
        for v in 1..n {
            for a in 0..=v {
                labels.push((v as u8, a as u8));
            }
        }
        let index = |v: u8, a: u8| labels.iter().position(|&l| l == (v, a)).unwrap() as u8;
        let cross: Vec<u8> = labels.iter().map(|&(v, a)| index(v, v - a)).collect();

        // Forward: the states of each depth. A state is one byte per position: for positions
        // already read, the hits still owed to them; for later ones, the hits received so far.
        let mut layers: Vec<Vec<Vec<u8>>> = vec![vec![vec![0; n]]];
        // Per depth, per state: (label, index of the next state).
        let mut edges: Vec<Vec<Vec<(u8, u32)>>> = Vec::new();
        for k in 0..n {
            let mut next: HashMap<Vec<u8>, u32> = HashMap::new();
            let mut order: Vec<Vec<u8>> = Vec::new();
            let mut out = Vec::with_capacity(layers[k].len());
            for s in &layers[k] {
                let mut es = Vec::new();
                for (li, &(v, a)) in labels.iter().enumerate() {
                    crate::guard::tick();
                    let (v, a) = (v as usize, a as usize);
                    let received = s[k] as usize;
                    if a < received {
                        continue;
                    }
                    let mut t = s.clone();
                    // The tank at k hits k − v (owed a hit) and k + v (receives one).
                    if k >= v {
                        if t[k - v] == 0 {
                            continue;
                        }
                        t[k - v] -= 1;
                    }
                    if k + v < n {
                        t[k + v] += 1;
                        if t[k + v] as usize > n - 1 {
                            continue;
                        }
                    }
                    t[k] = (a - received) as u8;
                    // Each later tank hits at most one earlier position.
                    let owed: usize = t[..=k].iter().map(|&x| x as usize).sum();
                    if owed > n - 1 - k {
                        continue;
                    }
                    let id = *next.entry(t.clone()).or_insert_with(|| {
                        order.push(t);
                        order.len() as u32 - 1
                    });
                    es.push((li as u8, id));
                }
                out.push(es);
            }
            edges.push(out);
            layers.push(order);
        }
        // Backward: merge states with the same future, drop those with none.
        // canon[d][state] = merged node id within depth d, or u32::MAX when dead.
        let mut canon: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
        canon[n] = layers[n]
            .iter()
            .map(|s| {
                if s.iter().all(|&x| x == 0) {
                    0
                } else {
                    u32::MAX
                }
            })
            .collect();
        let mut merged: Vec<Vec<Vec<(u8, u32)>>> = vec![Vec::new(); n + 1];
        merged[n].push(Vec::new());
        for d in (0..n).rev() {
            let mut ids: HashMap<Vec<(u8, u32)>, u32> = HashMap::new();
            let mut c = Vec::with_capacity(edges[d].len());
            for es in &edges[d] {
                let sig: Vec<(u8, u32)> = es
                    .iter()
                    .filter_map(|&(l, t)| {
                        let m = canon[d + 1][t as usize];
                        (m != u32::MAX).then_some((l, m))
                    })
                    .collect();
                if sig.is_empty() {
                    c.push(u32::MAX);
                    continue;
                }
                let fresh = ids.len() as u32;
                let id = *ids.entry(sig.clone()).or_insert_with(|| {
                    merged[d].push(sig);
                    fresh
                });
                c.push(id);
            }
            canon[d] = c;
        }
        // Lay the merged nodes out depth by depth, each node's children in label order.
        let mut start = vec![0u32];
        for d in 0..=n {
            start.push(start[d] + merged[d].len() as u32);
        }
        let total = start[n + 1] as usize;
        let mut mask = vec![0u128; total];
        let mut first = vec![0u32; total];
        let mut targets = Vec::new();
        for d in 0..=n {
            for (i, sig) in merged[d].iter_mut().enumerate() {
                let node = start[d] as usize + i;
                sig.sort_unstable();
                first[node] = targets.len() as u32;
                for &(l, t) in sig.iter() {
                    mask[node] |= 1u128 << l;
                    targets.push(start[d + 1] + t);
                }
            }
        }
        let crossing = mask
            .iter()
            .map(|&m| {
                let mut out = 0u128;
                let mut bits = m;
                while bits != 0 {
                    let l = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    out |= 1u128 << cross[l];
                }
                out
            })
            .collect();
        // Children come after their parents, so one backward pass fills the look-ahead.
        let mut ahead = vec![0u128; total * n];
        for d in (0..n).rev() {
            for node in start[d] as usize..start[d + 1] as usize {
                ahead[node * n + d] = mask[node];
                let f = first[node] as usize;
                for &c in &targets[f..f + mask[node].count_ones() as usize] {
                    for e in d + 1..n {
                        ahead[node * n + e] |= ahead[c as usize * n + e];
                    }
                }
            }
        }
        Lines {
            n,
            labels,
            cross,
            mask,
            crossing,
            ahead,
            first,
            targets,
        }
    }
}
