//! A dynamic program over whole rows that keeps only partial packings within a charge budget:
//! the method that settles boards too wide for the transfer-matrix program, 19×19 among them.
//!
//! Charges (the same accounting as the `charge` formulation, written again here from the
//! rules, sharing no code with the model): every hole hands 24 to its covered neighbours, an
//! inner hole 6 to each, an edge hole 9 to each neighbour along the edge and 6 to the one
//! inward, a corner hole 12 to each of its two. A domino's shortfall is 24 less what it
//! receives; summed over the dominoes it is 24(dominoes − holes) = 12(mn − 3·holes). The
//! shortfall of a domino splits into its four slots (the cell beyond each end, the pair along
//! each long side): a slot hands over at most its best gift, and the loss of a slot is that
//! best less what it hands over. Losses are never negative; the constant rest
//! e = 24 − (sum of best gifts) is negative only for a few dominoes next to the corners.
//!
//! Rows are added one at a time; a state is the content of the last row (hole, left or right
//! half of a horizontal domino, top or bottom of a vertical one), holding the least shortfall
//! booked so far. Every loss is booked as soon as the two rows it looks at are known, so the
//! booked amount never decreases by more than the corners' negative rests still to come:
//! a state whose booked shortfall exceeds the budget by more than that is dropped. With the
//! budget 12(mn − 3H) the program decides whether some packing leaves H holes or more.

use std::collections::HashMap;

const HOLE: u64 = 0;
const LEFT: u64 = 1;
const RIGHT: u64 = 2;
const TOP: u64 = 3;
const BOTTOM: u64 = 4;
/// A row above the board.
const OFF: u64 = 7;

/// The outcome of a budgeted run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The most holes of a packing within the budget, if there is one.
    pub holes: Option<usize>,
    /// The most states kept after any row.
    pub peak_states: usize,
    /// States kept summed over the rows.
    pub total_states: usize,
}

/// The widest board the state encoding holds (3 bits a cell in 64 bits).
pub const MAX_WIDTH: usize = 21;

struct Board {
    m: i64,
    n: i64,
}

impl Board {
    fn on(&self, r: i64, c: i64) -> bool {
        r >= 0 && c >= 0 && r < self.m && c < self.n
    }

    /// What a hole at `x` hands to its neighbour `to`.
    fn gift(&self, x: (i64, i64), to: (i64, i64)) -> i64 {
        let up = x.0 == 0;
        let down = x.0 == self.m - 1;
        let left = x.1 == 0;
        let right = x.1 == self.n - 1;
        let missing = [up, down, left, right].iter().filter(|&&b| b).count();
        match missing {
            0 => 6,
            1 => {
                // Inward: the direction away from the missing side.
                let inward = if up || down { to.1 == x.1 } else { to.0 == x.0 };
                if inward {
                    6
                } else {
                    9
                }
            }
            k => 24 / (4 - k as i64),
        }
    }

    /// The best gift of a slot: its on-board cells, each with the domino cell it touches.
    fn best(&self, slot: &[((i64, i64), (i64, i64))]) -> Option<i64> {
        slot.iter()
            .filter(|(x, _)| self.on(x.0, x.1))
            .map(|&(x, to)| self.gift(x, to))
            .max()
    }

    /// The loss of a slot given which of its cells are holes.
    fn loss(&self, slot: &[((i64, i64), (i64, i64))], hole: &dyn Fn((i64, i64)) -> bool) -> i64 {
        let Some(best) = self.best(slot) else {
            return 0;
        };
        let got = slot
            .iter()
            .filter(|(x, _)| self.on(x.0, x.1) && hole(*x))
            .map(|&(x, to)| self.gift(x, to))
            .max()
            .unwrap_or(0);
        best - got
    }

    /// The four slots of the domino on `a` and `b` (b right of or below a).
    fn slots(&self, a: (i64, i64), b: (i64, i64)) -> [Vec<((i64, i64), (i64, i64))>; 4] {
        let (dr, dc) = (b.0 - a.0, b.1 - a.1);
        let (sr, sc) = (dc, dr);
        [
            vec![((a.0 - dr, a.1 - dc), a)],
            vec![((b.0 + dr, b.1 + dc), b)],
            vec![((a.0 - sr, a.1 - sc), a), ((b.0 - sr, b.1 - sc), b)],
            vec![((a.0 + sr, a.1 + sc), a), ((b.0 + sr, b.1 + sc), b)],
        ]
    }

    /// The constant rest e = 24 − (sum of best gifts) of the domino on `a` and `b`.
    fn rest(&self, a: (i64, i64), b: (i64, i64)) -> i64 {
        24 - self
            .slots(a, b)
            .iter()
            .filter_map(|s| self.best(s))
            .sum::<i64>()
    }
}

fn cell(state: u64, c: usize) -> u64 {
    (state >> (3 * c)) & 7
}

/// Decides whether an m×n packing with at least `holes` holes exists, and if so the most holes
/// among packings within that budget. `None` when the board is wider than [`MAX_WIDTH`] in
/// both orientations, or has a single cell.
pub fn at_least(m: usize, n: usize, holes: usize) -> Option<Outcome> {
    let (m, n) = if n <= MAX_WIDTH { (m, n) } else { (n, m) };
    // On a 1×1 board the hole has no neighbour to hand its charge to.
    if n > MAX_WIDTH || m * n < 2 {
        return None;
    }
    let budget = 12 * (m * n) as i64 - 36 * holes as i64;
    Some(run(m, n, budget))
}

fn run(m: usize, n: usize, budget: i64) -> Outcome {
    let board = Board {
        m: m as i64,
        n: n as i64,
    };
    // The negative rests of dominoes started in rows below r, summed (a lower bound on what
    // later rows can take back).
    let mut give_back = vec![0i64; m + 1];
    for r in (0..m).rev() {
        let mut here = 0;
        for c in 0..n {
            let a = (r as i64, c as i64);
            for b in [(a.0, a.1 + 1), (a.0 + 1, a.1)] {
                if board.on(b.0, b.1) {
                    here += board.rest(a, b).min(0);
                }
            }
        }
        give_back[r] = give_back[r + 1] + here;
    }
    let off_row: u64 = (0..n).fold(0, |s, c| s | (OFF << (3 * c)));
    let mut states: HashMap<u64, i64> = HashMap::new();
    states.insert(off_row, 0);
    let mut peak = 0;
    let mut total = 0;
    for r in 0..m {
        let mut next: HashMap<u64, i64> = HashMap::new();
        // Shortfall allowed once the row is complete (later rows may still give back their
        // negative rests), and part way through it (this row's own rests may come too).
        let allowed = budget - give_back[r + 1];
        let allowed_partial = budget - give_back[r];
        for (&prev, &booked) in &states {
            let mut row = Row {
                board: &board,
                r: r as i64,
                n,
                prev,
                last: r + 1 == m,
                allowed,
                allowed_partial,
                out: &mut next,
            };
            row.extend(0, 0, booked);
        }
        peak = peak.max(next.len());
        total += next.len();
        states = next;
        if states.is_empty() {
            break;
        }
    }
    let best = states.values().copied().min();
    Outcome {
        holes: best
            .filter(|&b| b <= budget)
            .map(|b| ((12 * (m * n) as i64 - b) / 36) as usize),
        peak_states: peak,
        total_states: total,
    }
}

/// Enumerates the rows that may follow `prev` in row `r`, column by column.
struct Row<'a> {
    board: &'a Board,
    r: i64,
    n: usize,
    prev: u64,
    last: bool,
    allowed: i64,
    allowed_partial: i64,
    out: &'a mut HashMap<u64, i64>,
}

impl Row<'_> {
    /// Cells 0..c of `row` are chosen; `booked` holds every loss of columns below c − 2.
    fn extend(&mut self, c: usize, row: u64, booked: i64) {
        if c == self.n {
            let mut total = booked;
            for k in self.n.saturating_sub(2)..self.n {
                total += self.cost(k, row);
            }
            if total <= self.allowed {
                let e = self.out.entry(row).or_insert(i64::MAX);
                *e = (*e).min(total);
            }
            return;
        }
        let above = cell(self.prev, c);
        let mut options: Vec<u64> = Vec::with_capacity(4);
        if above == TOP {
            options.push(BOTTOM);
        } else if c > 0 && cell(row, c - 1) == LEFT {
            options.push(RIGHT);
        } else {
            if above != HOLE && (c == 0 || cell(row, c - 1) != HOLE) {
                options.push(HOLE);
            }
            if c + 1 < self.n && cell(self.prev, c + 1) != TOP {
                options.push(LEFT);
            }
            if !self.last {
                options.push(TOP);
            }
        }
        for v in options {
            let row = row | (v << (3 * c));
            let mut b = booked;
            if c >= 2 {
                b += self.cost(c - 2, row);
                if b > self.allowed_partial {
                    continue;
                }
            }
            self.extend(c + 1, row, b);
        }
    }

    /// The shortfall booked at column k when `row` (row r) follows `prev` (row r − 1): every
    /// loss that needs both rows, or only row r, of dominoes whose leftmost cell is in column
    /// k. It looks at columns k − 1 to k + 2 of `row`, which must be chosen.
    fn cost(&self, k: usize, row: u64) -> i64 {
        let b = self.board;
        let (r, kc) = (self.r, k as i64);
        let n = self.n as i64;
        let at = |x: (i64, i64)| -> u64 {
            if x.1 < 0 || x.1 >= n {
                return OFF;
            }
            if x.0 == r {
                cell(row, x.1 as usize)
            } else if x.0 == r - 1 {
                cell(self.prev, x.1 as usize)
            } else {
                OFF
            }
        };
        let hole = |x: (i64, i64)| at(x) == HOLE;
        let mut cost = 0;
        let here = cell(row, k);
        let above = cell(self.prev, k);
        if here == LEFT {
            // A horizontal domino starts: its rest, the slot above, both ends.
            let (a, bb) = ((r, kc), (r, kc + 1));
            let s = b.slots(a, bb);
            cost += b.rest(a, bb) + b.loss(&s[0], &hole) + b.loss(&s[1], &hole);
            cost += b.loss(&s[2], &hole);
        }
        if here == TOP {
            // A vertical domino starts: its rest and the cell above its top.
            let (a, bb) = ((r, kc), (r + 1, kc));
            cost += b.rest(a, bb) + b.loss(&b.slots(a, bb)[0], &hole);
        }
        if above == TOP {
            // The vertical domino of rows r − 1 and r: both sides.
            let (a, bb) = ((r - 1, kc), (r, kc));
            let s = b.slots(a, bb);
            cost += b.loss(&s[2], &hole) + b.loss(&s[3], &hole);
        }
        if above == BOTTOM {
            // The vertical domino ending in row r − 1: the cell below it.
            let (a, bb) = ((r - 2, kc), (r - 1, kc));
            cost += b.loss(&b.slots(a, bb)[1], &hole);
        }
        if above == LEFT {
            // The horizontal domino of row r − 1: the slot below it.
            let (a, bb) = ((r - 1, kc), (r - 1, kc + 1));
            cost += b.loss(&b.slots(a, bb)[3], &hole);
        }
        cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_binding_budget_it_is_the_transfer_matrix_optimum() {
        for m in 1..=6 {
            for n in 1..=7 {
                if m * n < 2 {
                    continue;
                }
                let exact = super::super::dp::optimum(m, n).unwrap().holes;
                let o = at_least(m, n, 0).unwrap();
                assert_eq!(o.holes, Some(exact), "{m}×{n}");
            }
        }
    }

    #[test]
    fn the_budget_of_the_optimum_keeps_it_and_one_more_hole_is_refuted() {
        for m in 2..=8 {
            for n in m..=10 {
                let exact = super::super::dp::optimum(m, n).unwrap().holes;
                assert_eq!(at_least(m, n, exact).unwrap().holes, Some(exact), "{m}×{n}");
                assert_eq!(at_least(m, n, exact + 1).unwrap().holes, None, "{m}×{n}");
            }
        }
    }
}
