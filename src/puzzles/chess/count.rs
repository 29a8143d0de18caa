//! An exact dedicated counter of non-attacking placements, independent of the integer
//! program: a depth-first search over the squares as 128-bit sets. Pieces of one type are
//! placed on increasing squares (pieces of a type are indistinguishable), sliding types first.
//! A piece may go on a square that is empty, not attacked, and from which it attacks no piece
//! already placed. Each placement is reached exactly once.

use super::{Army, Board, Piece, PIECES};

/// The largest number of squares the counter handles.
pub const MAX_SQUARES: usize = 128;

/// Counts the placements of `army` (which includes the board's fixed pieces). `None` when the
/// board has more than [`MAX_SQUARES`] squares; `Some(0)` when the fixed pieces alone already
/// break the rules or exceed the army.
pub fn count(board: &Board, army: Army, holes_block: bool) -> Option<u64> {
    let squares = board.squares();
    if squares.len() > MAX_SQUARES {
        return None;
    }
    let n = squares.len();
    let mut attack = vec![vec![0u128; n]; 5];
    for p in PIECES {
        for (i, &a) in squares.iter().enumerate() {
            for (j, &b) in squares.iter().enumerate() {
                if board.attacks(p, a, b, holes_block) {
                    attack[p.index()][i] |= 1u128 << j;
                }
            }
        }
    }
    let mut remaining = army.0;
    let mut occupied = 0u128;
    let mut attacked = 0u128;
    for (i, &sq) in squares.iter().enumerate() {
        if let Some(p) = board.fixed[sq] {
            if remaining[p.index()] == 0 {
                return Some(0);
            }
            remaining[p.index()] -= 1;
            let bit = 1u128 << i;
            if attacked & bit != 0 || attack[p.index()][i] & occupied != 0 {
                return Some(0);
            }
            occupied |= bit;
            attacked |= attack[p.index()][i];
        }
    }
    let order = [
        Piece::Queen,
        Piece::Rook,
        Piece::Bishop,
        Piece::King,
        Piece::Knight,
    ];
    let plan: Vec<(usize, usize)> = order
        .iter()
        .filter(|p| remaining[p.index()] > 0)
        .map(|p| (p.index(), remaining[p.index()]))
        .collect();
    let total: usize = plan.iter().map(|t| t.1).sum();
    let search = Search { attack, n, plan };
    Some(search.go(0, 0, 0, total, occupied, attacked))
}

struct Search {
    attack: Vec<Vec<u128>>,
    n: usize,
    plan: Vec<(usize, usize)>,
}

impl Search {
    /// `stage` indexes the plan; `placed` pieces of that type are down, the last at `start - 1`.
    fn go(
        &self,
        stage: usize,
        placed: usize,
        start: usize,
        left: usize,
        occupied: u128,
        attacked: u128,
    ) -> u64 {
        if left == 0 {
            return 1;
        }
        // The runner's deadline (a no-op outside it).
        crate::guard::tick();
        let free = (self.n as u32) - (occupied | attacked).count_ones();
        if (free as usize) < left {
            return 0;
        }
        let (kind, want) = self.plan[stage];
        let mut total = 0;
        for s in start..self.n {
            let bit = 1u128 << s;
            if (occupied | attacked) & bit != 0 {
                continue;
            }
            let reach = self.attack[kind][s];
            if reach & occupied != 0 {
                continue;
            }
            let (o, a) = (occupied | bit, attacked | reach);
            total += if placed + 1 == want {
                self.go(stage + 1, 0, 0, left - 1, o, a)
            } else {
                self.go(stage, placed + 1, s + 1, left - 1, o, a)
            };
        }
        total
    }
}
