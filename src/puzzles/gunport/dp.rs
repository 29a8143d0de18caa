//! An exact transfer-matrix dynamic program for narrow boards, independent of the integer
//! programs: a second method that cross-checks them, and the fast way to count optimal
//! packings.
//!
//! Cells are processed row by row over a frontier of `w` cells (the last cell seen in each
//! column). Each frontier cell is *filled* (covered, nothing pending), a *hole*, or the top of a
//! vertical domino whose bottom is still to come (*down*); one extra bit says whether the cell
//! just processed started a horizontal domino that the next cell must finish. A state keeps
//! the most holes reachable and how many packings reach that many.

const FILLED: usize = 0;
const HOLE: usize = 1;
const DOWN: usize = 2;

/// The widest frontier accepted: 2·3^14 states, about 115 MB of tables.
pub const MAX_WIDTH: usize = 14;

/// The optimum of an m×n board and the number of optimal packings (exact, every packing
/// counted once; rotations and reflections count as different packings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Optimum {
    pub holes: usize,
    pub packings: u128,
}

/// Runs the program on the narrower orientation of the board. `None` when the narrower side
/// exceeds [`MAX_WIDTH`].
pub fn optimum(m: usize, n: usize) -> Option<Optimum> {
    let (h, w) = if m >= n { (m, n) } else { (n, m) };
    if w > MAX_WIDTH || w == 0 {
        return None;
    }
    let pow: Vec<usize> = (0..=w).map(|k| 3usize.pow(k as u32)).collect();
    let size = 2 * pow[w];
    // Four arrays of `size` entries (i32 and u128 each, twice).
    crate::guard::charge(40 * size as u64);
    const NONE: i32 = -1;
    let mut best = vec![NONE; size];
    let mut ways = vec![0u128; size];
    best[0] = 0;
    ways[0] = 1;
    let mut next_best = vec![NONE; size];
    let mut next_ways = vec![0u128; size];
    for r in 0..h {
        crate::guard::progress::message(&format!("transfer matrix: row {} of {h}", r + 1));
        for c in 0..w {
            // One pass over the states: milliseconds at width 12 and more.
            crate::guard::check();
            next_best.fill(NONE);
            next_ways.fill(0);
            for s in 0..size {
                let b = best[s];
                if b == NONE {
                    continue;
                }
                let carry = s >= pow[w];
                let f = s % pow[w];
                let up = f / pow[c] % 3;
                let left_hole = c > 0 && f / pow[c - 1] % 3 == HOLE;
                let base = f - up * pow[c];
                let mut push = |cell: usize, carry_out: bool, gain: i32| {
                    let t = base + cell * pow[c] + if carry_out { pow[w] } else { 0 };
                    let v = b + gain;
                    if v > next_best[t] {
                        next_best[t] = v;
                        next_ways[t] = ways[s];
                    } else if v == next_best[t] {
                        next_ways[t] += ways[s];
                    }
                };
                if up == DOWN {
                    if !carry {
                        push(FILLED, false, 0);
                    }
                } else if carry {
                    push(FILLED, false, 0);
                } else {
                    if up != HOLE && !left_hole {
                        push(HOLE, false, 1);
                    }
                    if c + 1 < w {
                        push(FILLED, true, 0);
                    }
                    if r + 1 < h {
                        push(DOWN, false, 0);
                    }
                }
            }
            std::mem::swap(&mut best, &mut next_best);
            std::mem::swap(&mut ways, &mut next_ways);
        }
    }
    let top = *best.iter().max()?;
    if top < 0 {
        return None;
    }
    let packings = best
        .iter()
        .zip(&ways)
        .filter(|(b, _)| **b == top)
        .map(|(_, w)| *w)
        .sum();
    Some(Optimum {
        holes: top as usize,
        packings,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn tiny_boards_by_hand() {
        // 1×1: one hole, one packing. 1×2: one domino. 1×3: domino + hole, two ways.
        assert_eq!(super::optimum(1, 1).unwrap().holes, 1);
        assert_eq!(super::optimum(1, 2).unwrap().holes, 0);
        let o = super::optimum(1, 3).unwrap();
        assert_eq!((o.holes, o.packings), (1, 2));
        // 2×2: two dominoes, side by side either way.
        let o = super::optimum(2, 2).unwrap();
        assert_eq!((o.holes, o.packings), (0, 2));
    }
}
