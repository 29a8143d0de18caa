//! An exact dedicated search for Tank Attack, independent of the integer program: a second
//! method to cross-check it, and the fast path for counting.
//!
//! The rule splits along lines. For a line (a row or a column) holding values `w`, let
//! `A(w)[p]` be the number of tanks of that line that attack position `p`. A board is legal
//! exactly when, for every cell, (row attacks) + (column attacks) = value. So every row and every
//! column is a *feasible line*: `A(w) <= w` pointwise. Each position of a feasible line carries
//! a label (value, attacks along the line). All feasible lines go into one trie keyed by their
//! labels, shared by rows and columns. The search fills the board cell by cell in row-major
//! order, walking one trie node per row and one per column: at cell (i,j) it tries every label
//! (v, r) below the row's node for which the column's node has the label (v, v - r). Every
//! prefix in the trie extends to a full feasible line, and a completed board is legal by
//! construction, so each board is reached exactly once and counting is exact.

use std::time::Instant;

/// Labels are packed as `v * n + a` (value v in 1..n-1, line attacks a in 0..v).
struct Trie {
    n: usize,
    /// For each node: bit `label` set when a child with that label exists.
    mask: Vec<u128>,
    /// For each node: index of its first child; children are stored in label order.
    first: Vec<u32>,
    /// For each node: its labels mirrored as the crossing line needs them, (v, a) -> (v, v - a).
    crossing: Vec<u128>,
    /// `ahead[node * n + d]`: the labels found at depth d in the node's subtree.
    ahead: Vec<u128>,
}

impl Trie {
    fn child(&self, node: usize, label: usize) -> Option<usize> {
        let m = self.mask[node];
        if m >> label & 1 == 0 {
            return None;
        }
        let rank = (m & ((1u128 << label) - 1)).count_ones() as usize;
        Some(self.first[node] as usize + rank)
    }
}

/// The largest side the exact search accepts: the 8×8 trie takes 1.6 GB and 5 s to build;
/// at 9×9 it no longer fits in 24 GiB.
pub const MAX_EXACT_SIDE: usize = 8;

/// Every feasible line of length n, as label sequences, in lexicographic order of values.
fn feasible_lines(n: usize, mut emit: impl FnMut(&[usize])) {
    fn go(
        n: usize,
        p: usize,
        w: &mut Vec<usize>,
        hits: &mut Vec<usize>,
        labels: &mut Vec<usize>,
        emit: &mut dyn FnMut(&[usize]),
    ) {
        if p == n {
            for q in 0..n {
                labels[q] = w[q] * n + hits[q];
            }
            emit(labels);
            return;
        }
        for v in 1..n {
            // A tank at p with value v hits p - v (already placed) and p + v (later).
            if p >= v {
                let q = p - v;
                if hits[q] + 1 > w[q] {
                    continue;
                }
                hits[q] += 1;
            }
            if p + v < n {
                hits[p + v] += 1;
            }
            // Cells before p receive no more hits from later cells except from exactly one
            // position each per value; the final check below settles the rest.
            w.push(v);
            let ok = hits[p] <= v;
            if ok {
                go(n, p + 1, w, hits, labels, emit);
            }
            w.pop();
            if p + v < n {
                hits[p + v] -= 1;
            }
            if p >= v {
                hits[p - v] -= 1;
            }
        }
    }
    let mut labels = vec![0; n];
    let mut hits = vec![0; n];
    go(
        n,
        0,
        &mut Vec::with_capacity(n),
        &mut hits,
        &mut labels,
        &mut emit,
    );
}

fn build_trie(n: usize, order: &[usize]) -> Trie {
    // Collect lines, sort by label sequence, then build level by level.
    let mut lines: Vec<Vec<u8>> = Vec::new();
    feasible_lines(n, |l| {
        // A position's attacks can still exceed its value if the hit came from a later cell;
        // keep only lines where every position is within its value.
        if l.iter().all(|&lab| lab % n <= lab / n) {
            crate::solve::budget::charge(32 + n as u64);
            lines.push(order.iter().map(|&p| l[p] as u8).collect());
        }
    });
    lines.sort_unstable();
    lines.dedup();
    let mut mask = vec![0u128];
    let mut first = vec![0u32];
    let mut depth = vec![0u8];
    // Breadth-first: groups of lines sharing a prefix form a node.
    let mut groups: Vec<(usize, usize, usize)> = vec![(0, lines.len(), 0)]; // (start, end, node)
    #[allow(clippy::needless_range_loop)] // depth indexes every line of a group
    for depth_now in 0..n {
        let mut next = Vec::new();
        for &(start, end, node) in &groups {
            first[node] = mask.len() as u32;
            let mut s = start;
            while s < end {
                let label = lines[s][depth_now] as usize;
                let mut e = s;
                while e < end && lines[e][depth_now] as usize == label {
                    e += 1;
                }
                mask[node] |= 1u128 << label;
                let child = mask.len();
                // This node's mask, first child, depth, crossing and look-ahead rows.
                crate::solve::budget::charge(37 + 16 * n as u64);
                mask.push(0);
                first.push(0);
                depth.push(depth_now as u8 + 1);
                next.push((s, e, child));
                s = e;
            }
        }
        groups = next;
    }
    let crossing = mask
        .iter()
        .map(|&m| {
            let mut out = 0u128;
            let mut bits = m;
            while bits != 0 {
                let label = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (v, a) = (label / n, label % n);
                out |= 1u128 << (v * n + v - a);
            }
            out
        })
        .collect();
    // Children come after their parents, so one backward pass fills the look-ahead table.
    let mut ahead = vec![0u128; mask.len() * n];
    for node in (0..mask.len()).rev() {
        let m = mask[node];
        if m == 0 {
            continue;
        }
        let first_child = first[node] as usize;
        let depth = depth[node] as usize;
        ahead[node * n + depth] = m;
        for child in first_child..first_child + m.count_ones() as usize {
            for d in depth + 1..n {
                ahead[node * n + d] |= ahead[child * n + d];
            }
        }
    }
    Trie {
        n,
        mask,
        first,
        crossing,
        ahead,
    }
}

/// The exact search. `on_board` sees every legal board; returning `false` stops the search,
/// and so does the deadline. Returns the number of boards seen and whether the search ran to
/// the end (so that the count is complete).
pub fn search(
    n: usize,
    deadline: Option<Instant>,
    mut on_board: impl FnMut(&[Vec<u32>]) -> bool,
) -> (u64, bool) {
    assert!(
        (2..=MAX_EXACT_SIDE).contains(&n),
        "exact search supports sides 2..={MAX_EXACT_SIDE}"
    );
    let order = fill_order(n);
    let trie = build_trie(n, &order);
    let mut state = State {
        n,
        row_node: vec![0; n],
        col_node: vec![0; n],
        board: vec![vec![0; n]; n],
        count: 0,
        stopped: false,
        order,
        deadline,
        nodes: 0,
    };
    state.go(&trie, 0, &mut on_board);
    (state.count, !state.stopped)
}

struct State {
    n: usize,
    row_node: Vec<usize>,
    col_node: Vec<usize>,
    board: Vec<Vec<u32>>,
    count: u64,
    stopped: bool,
    deadline: Option<Instant>,
    nodes: u64,
    /// The position of each depth of the trie; see [`fill_order`].
    order: Vec<usize>,
}

/// The order in which positions of a line are filled. Row-major natural order measured
/// fastest (6×6 counted in 24 s, against 40 s for outside-in order 0, n-1, 1, n-2, ...).
fn fill_order(n: usize) -> Vec<usize> {
    (0..n).collect()
}

impl State {
    fn go(&mut self, trie: &Trie, cell: usize, on_board: &mut dyn FnMut(&[Vec<u32>]) -> bool) {
        let n = self.n;
        self.nodes += 1;
        if self.nodes.is_multiple_of(1 << 22) {
            crate::solve::progress::message(&format!(
                "line-trie search: {} million nodes, {} boards",
                self.nodes >> 20,
                self.count
            ));
        }
        if self.nodes.is_multiple_of(65536)
            && (self.deadline.is_some_and(|d| Instant::now() >= d)
                || crate::solve::budget::cancelled())
        {
            self.stopped = true;
            return;
        }
        if cell == n * n {
            self.count += 1;
            if !on_board(&self.board) {
                self.stopped = true;
            }
            return;
        }
        // Row node depth is dj, column node depth is di; the cell is (order[di], order[dj]).
        let (di, dj) = (cell / n, cell % n);
        let (i, j) = (self.order[di], self.order[dj]);
        let (r, c) = (self.row_node[i], self.col_node[j]);
        let mut m = trie.mask[r];
        while m != 0 && !self.stopped {
            let label = m.trailing_zeros() as usize;
            m &= m - 1;
            let (v, ra) = (label / n, label % n);
            let Some(col_child) = trie.child(c, v * n + (v - ra)) else {
                continue;
            };
            let row_child = trie.child(r, label).expect("label taken from the mask");
            // Look ahead along the row: every later cell of this row must still have a label
            // that its column can take.
            if (dj + 1..n).any(|d| {
                trie.ahead[row_child * n + d] & trie.crossing[self.col_node[self.order[d]]] == 0
            }) {
                continue;
            }
            self.row_node[i] = row_child;
            self.col_node[j] = col_child;
            self.board[i][j] = v as u32;
            self.go(trie, cell + 1, on_board);
            self.row_node[i] = r;
            self.col_node[j] = c;
        }
        debug_assert_eq!(trie.n, n);
    }
}
