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

use crate::guard;
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
    /// The time limit stopped the run before it decided (`holes` is then `None`).
    pub stopped: bool,
}

/// The widest board the state encoding holds (3 bits a cell in 64 bits).
pub const MAX_WIDTH: usize = 21;

/// A board cell, (row, column).
type Cell = (i64, i64);
/// A slot: its cells, each with the domino cell it touches.
type Slot = Vec<(Cell, Cell)>;

struct BudgetBoard {
    m: i64,
    n: i64,
}

impl BudgetBoard {
    fn on(&self, x: Cell) -> bool {
        x.0 >= 0 && x.1 >= 0 && x.0 < self.m && x.1 < self.n
    }

    /// What a hole at `x` hands to its neighbour `to`.
    fn gift(&self, x: Cell, to: Cell) -> i64 {
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

    /// The four slots of the domino on `a` and `b` (b right of or below a): beyond a, beyond
    /// b, the side towards smaller coordinates, the other side.
    fn slots(&self, a: Cell, b: Cell) -> [Slot; 4] {
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
    fn rest(&self, a: Cell, b: Cell) -> i64 {
        24 - self
            .slots(a, b)
            .iter()
            .filter_map(|s| self.compile(s, a.0).map(|c| c.best))
            .sum::<i64>()
    }

    /// A slot in the form the row program reads: cells as (row r − 1 or r, column, gift),
    /// for a transition whose newer row is `r`. `None` for a slot wholly off the board.
    fn compile(&self, slot: &Slot, r: i64) -> Option<Compiled> {
        let cells: Vec<(bool, usize, i64)> = slot
            .iter()
            .filter(|(x, _)| self.on(*x))
            .map(|&(x, to)| (x.0 < r, x.1 as usize, self.gift(x, to)))
            .collect();
        let best = cells.iter().map(|c| c.2).max()?;
        Some(Compiled { cells, best })
    }
}

/// A slot ready for the row program: (in the older row?, column, gift) per cell.
struct Compiled {
    cells: Vec<(bool, usize, i64)>,
    best: i64,
}

impl Compiled {
    fn loss(&self, prev: u64, row: u64) -> i64 {
        let got = self
            .cells
            .iter()
            .filter(|&&(older, c, _)| cell(if older { prev } else { row }, c) == HOLE)
            .map(|c| c.2)
            .max()
            .unwrap_or(0);
        self.best - got
    }
}

/// What is booked at one column of one transition for one kind of event: a constant and
/// the losses of some slots.
#[derive(Default)]
struct Booking {
    constant: i64,
    slots: Vec<Compiled>,
}

impl Booking {
    fn new(board: &BudgetBoard, constant: i64, slots: &[&Slot], r: i64) -> Booking {
        Booking {
            constant,
            slots: slots.iter().filter_map(|s| board.compile(s, r)).collect(),
        }
    }

    fn cost(&self, prev: u64, row: u64) -> i64 {
        self.constant + self.slots.iter().map(|s| s.loss(prev, row)).sum::<i64>()
    }
}

/// The bookings of column k when row r follows row r − 1 (see `Row::cost`).
struct Column {
    left_starts: Booking,
    top_starts: Booking,
    under_top: Booking,
    under_bottom: Booking,
    under_left: Booking,
}

fn columns(board: &BudgetBoard, r: i64) -> Vec<Column> {
    (0..board.n)
        .map(|k| {
            // A horizontal domino starting here: its rest, the slot above, both ends.
            let (a, b) = ((r, k), (r, k + 1));
            let s = board.slots(a, b);
            let left_starts = if board.on(b) {
                Booking::new(board, board.rest(a, b), &[&s[0], &s[1], &s[2]], r)
            } else {
                Booking::default()
            };
            // A vertical domino starting here: its rest and the cell above its top.
            let (a, b) = ((r, k), (r + 1, k));
            let s = board.slots(a, b);
            let top_starts = if board.on(b) {
                Booking::new(board, board.rest(a, b), &[&s[0]], r)
            } else {
                Booking::default()
            };
            // The vertical domino of rows r − 1 and r: both sides.
            let s = board.slots((r - 1, k), (r, k));
            let under_top = Booking::new(board, 0, &[&s[2], &s[3]], r);
            // The vertical domino ending in row r − 1: the cell below it.
            let s = board.slots((r - 2, k), (r - 1, k));
            let under_bottom = Booking::new(board, 0, &[&s[1]], r);
            // The horizontal domino of row r − 1: the slot below it.
            let s = board.slots((r - 1, k), (r - 1, k + 1));
            let under_left = Booking::new(board, 0, &[&s[3]], r);
            Column {
                left_starts,
                top_starts,
                under_top,
                under_bottom,
                under_left,
            }
        })
        .collect()
}

fn cell(state: u64, c: usize) -> u64 {
    (state >> (3 * c)) & 7
}

/// A multiplicative hash for the u64 states (the default SipHash is several times slower).
#[derive(Default, Clone, Copy)]
struct StateHasher(u64);

impl std::hash::Hasher for StateHasher {
    fn finish(&self) -> u64 {
        // The product's low bits depend only on the key's low bits (the first cells of a
        // row), and the table picks buckets by the low bits: fold the high half down.
        let x = self.0;
        (x ^ (x >> 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (x >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type States = HashMap<u64, i64, std::hash::BuildHasherDefault<StateHasher>>;

/// Decides whether an m×n packing with at least `holes` holes exists, and if so the most holes
/// among packings within that budget. `None` when both sides are longer than [`MAX_WIDTH`],
/// or the board has a single cell.
///
/// It works within the stage it is called in ([`crate::guard`]): the stage's deadline
/// or a stop request ends it with `stopped`; its state maps are charged to the stage's memory
/// account, and past the limit the stage is stopped as over memory (outside a stage, nothing
/// stops it).
pub fn at_least(m: usize, n: usize, holes: usize) -> Option<Outcome> {
    // The states are the last row, so the program runs along the longer side with rows of
    // the shorter (the problem is the same under transposition): 2×21 has rows of 2 cells.
    let (m, n) = (m.max(n), m.min(n));
    // On a 1×1 board the hole has no neighbour to hand its charge to.
    if n > MAX_WIDTH || m * n < 2 {
        return None;
    }
    let budget = 12 * (m * n) as i64 - 36 * holes as i64;
    Some(run(m, n, budget))
}

/// Bytes charged for a state held in a thread's hash map (key, value, control byte, spare
/// room), and in a row's list.
const MAP_BYTES: u64 = 40;
const LIST_BYTES: u64 = 16;

fn run(m: usize, n: usize, budget: i64) -> Outcome {
    let board = BudgetBoard {
        m: m as i64,
        n: n as i64,
    };
    // The negative rests of dominoes started in rows r and below, summed (a lower bound on
    // what later rows can take back).
    let mut give_back = vec![0i64; m + 1];
    for r in (0..m).rev() {
        let mut here = 0;
        for c in 0..n {
            let a = (r as i64, c as i64);
            for b in [(a.0, a.1 + 1), (a.0 + 1, a.1)] {
                if board.on(b) {
                    here += board.rest(a, b).min(0);
                }
            }
        }
        give_back[r] = give_back[r + 1] + here;
    }
    let off_row: u64 = (0..n).fold(0, |s, c| s | (OFF << (3 * c)));
    // The states of the last row, in parts (one a thread; each state in exactly one).
    let mut states: Vec<Vec<(u64, i64)>> = vec![vec![(off_row, 0)]];
    let mut peak = 0;
    let mut total = 0;
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let mut listed = 0u64;
    for r in 0..m {
        let count: usize = states.iter().map(Vec::len).sum();
        crate::guard::progress::message(&format!(
            "row program: row {} of {m}, {count} states",
            r + 1
        ));
        let costs = Costs::new(&columns(&board, r as i64), n);
        let parts = if count < PARALLEL_FROM { 1 } else { threads };
        let step = Step {
            costs: &costs,
            n,
            last: r + 1 == m,
            // Shortfall allowed once the row is complete (later rows may still give back
            // their negative rests), and part way through it (this row's too).
            allowed: budget - give_back[r + 1],
            allowed_partial: budget - give_back[r],
            charged: std::sync::atomic::AtomicU64::new(0),
            parts,
            expected: count / parts / parts,
        };
        // The states of a row are independent: the threads take chunks of them in turn (the
        // work a state makes varies a lot) and extend them into maps of their own (one per
        // part of the next row's states, by hash); then each thread merges one part from
        // every thread's maps, keeping the least shortfall of each state.
        let current = std::mem::take(&mut states);
        let chunks: Vec<&[(u64, i64)]> = current.iter().flat_map(|v| v.chunks(CHUNK)).collect();
        let taken = std::sync::atomic::AtomicUsize::new(0);
        let extended: Option<Vec<Vec<States>>> = if parts == 1 {
            step.extend_all(&chunks, &taken).map(|maps| vec![maps])
        } else {
            let answers = guard::spread(parts, &|_| step.extend_all(&chunks, &taken));
            // Stopped by the deadline or a stop request: no answer.
            answers.into_iter().map(|a| a.ok().flatten()).collect()
        };
        guard::release(step.charged.load(std::sync::atomic::Ordering::Relaxed));
        drop(chunks);
        drop(current);
        let Some(mut extended) = extended else {
            return Outcome {
                holes: None,
                peak_states: peak,
                total_states: total,
                stopped: true,
            };
        };
        // Part j of every thread's output, to be merged by one thread.
        let by_part: Vec<Vec<States>> = (0..parts)
            .map(|j| {
                extended
                    .iter_mut()
                    .map(|maps| std::mem::take(&mut maps[j]))
                    .collect()
            })
            .collect();
        let next: Vec<Vec<(u64, i64)>> = if parts == 1 {
            by_part.into_iter().map(merge).collect()
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = by_part
                    .into_iter()
                    .map(|maps| scope.spawn(move || merge(maps)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a row program thread panicked"))
                    .collect()
            })
        };
        let count: usize = next.iter().map(Vec::len).sum();
        guard::release(listed);
        listed = count as u64 * LIST_BYTES;
        guard::charge(listed);
        peak = peak.max(count);
        total += count;
        states = next;
        if count == 0 {
            break;
        }
    }
    let best = states.iter().flatten().map(|s| s.1).min();
    Outcome {
        holes: best
            .filter(|&b| b <= budget)
            .map(|b| ((12 * (m * n) as i64 - b) / 36) as usize),
        peak_states: peak,
        total_states: total,
        stopped: false,
    }
}

/// Below this many states a row is extended on one thread (threads would cost more).
const PARALLEL_FROM: usize = 20_000;

/// The states a thread takes at a time.
const CHUNK: usize = 1024;

/// What extending the states of one row needs.
struct Step<'a> {
    /// The shortfall booked at each column, looked up (see [`Costs`]).
    costs: &'a Costs,
    n: usize,
    last: bool,
    allowed: i64,
    allowed_partial: i64,
    /// Bytes the threads' maps of this row were charged.
    charged: std::sync::atomic::AtomicU64,
    /// How many parts the next row's states are split into, by hash.
    parts: usize,
    /// About how many states each map will hold (its initial capacity).
    expected: usize,
}

/// The part (of `parts`) a state belongs to.
fn part_of(state: u64, parts: usize) -> usize {
    ((state.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as usize) % parts
}

/// One part of the next row's states, from every thread's map of it: the least shortfall of
/// each state.
fn merge(maps: Vec<States>) -> Vec<(u64, i64)> {
    let mut maps = maps;
    maps.sort_by_key(|m| std::cmp::Reverse(m.len()));
    let mut maps = maps.into_iter();
    let mut all = maps.next().unwrap_or_default();
    for m in maps {
        for (k, v) in m {
            let e = all.entry(k).or_insert(i64::MAX);
            *e = (*e).min(v);
        }
    }
    all.into_iter().collect()
}

impl Step<'_> {
    /// Every row that may follow a state of the chunks this thread takes (the next one not
    /// yet `taken`, until none is left), with its least shortfall; `None` when the deadline
    /// passed or the run was cancelled first.
    fn extend_all(
        &self,
        chunks: &[&[(u64, i64)]],
        taken: &std::sync::atomic::AtomicUsize,
    ) -> Option<Vec<States>> {
        let mut out: Vec<States> = (0..self.parts)
            .map(|_| States::with_capacity_and_hasher(self.expected, Default::default()))
            .collect();
        let mut ticks = 0u32;
        let mut held = 0u64;
        loop {
            let t = taken.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(chunk) = chunks.get(t) else {
                return Some(out);
            };
            if !self.extend_into(chunk, &mut out, &mut ticks) {
                return None;
            }
            // Charge what this thread's maps grew by (the stage stops past its limit).
            let now = out.iter().map(|m| m.capacity() as u64).sum::<u64>() * MAP_BYTES;
            if now > held {
                self.charged
                    .fetch_add(now - held, std::sync::atomic::Ordering::Relaxed);
                guard::charge(now - held);
                held = now;
            }
        }
    }

    /// Extends `states` into `out`; false when the deadline or a cancellation stopped it.
    fn extend_into(&self, states: &[(u64, i64)], out: &mut [States], ticks: &mut u32) -> bool {
        for &(prev, booked) in states {
            let prev_holes = holes_of(prev, self.n);
            let mut rest = [0i64; MAX_WIDTH + 1];
            for k in (0..self.n).rev() {
                rest[k] = rest[k + 1] + self.costs.least(k, prev, prev_holes);
            }
            if booked + rest[0] > self.allowed {
                continue;
            }
            let mut at = [0u32; MAX_WIDTH];
            for (k, a) in at.iter_mut().enumerate().take(self.n) {
                *a = self.costs.offset(k, prev, prev_holes);
            }
            let mut row = Row {
                step: self,
                prev,
                at,
                rest,
                ticks: *ticks,
                stopped: false,
                out,
            };
            row.extend(0, 0, 0, 0, booked);
            if row.stopped {
                return false;
            }
            *ticks = row.ticks;
        }
        true
    }

    /// Whether the stage's deadline has passed or its run was asked to stop.
    fn expired(&self) -> bool {
        guard::expired()
    }
}

/// Enumerates the rows that may follow `prev`, column by column.
struct Row<'a> {
    step: &'a Step<'a>,
    prev: u64,
    /// For each column, where its entries for `prev` start in the cost table (see
    /// [`Costs::offset`]).
    at: [u32; MAX_WIDTH],
    /// For each column k, the least that columns k and beyond can book after `prev`, whatever
    /// the new row holds there (see [`Costs::least`]).
    rest: [i64; MAX_WIDTH + 1],
    /// Partial rows built so far (the clock is read every few thousand), and whether the
    /// deadline stopped the work (a single state's rows can take long on wide boards).
    ticks: u32,
    stopped: bool,
    /// The next row's states, in parts by hash.
    out: &'a mut [States],
}

/// The holes of a row, one bit a column, column c at bit c + 1 (so that column −1 is bit 0).
fn holes_of(row: u64, n: usize) -> u32 {
    (0..n)
        .filter(|&c| cell(row, c) == HOLE)
        .fold(0, |m, c| m | 1 << (c + 1))
}

impl Row<'_> {
    /// Cells 0..c of `row` are chosen; `booked` holds every booking of columns below c − 2.
    /// `mirror` is the chosen cells of `row` read right to left (left and right halves swap):
    /// the board and the charges are symmetric in the vertical axis, so a row and its mirror
    /// have mirrored continuations of equal shortfall, and only the smaller of the two is kept.
    fn extend(&mut self, c: usize, row: u64, mirror: u64, holes: u32, booked: i64) {
        let n = self.step.n;
        if c == n {
            self.tick();
            let mut total = booked;
            for k in n.saturating_sub(2)..n {
                total += self.cost(k, row, holes);
            }
            if total <= self.step.allowed {
                let key = row.min(mirror);
                let part = if self.out.len() == 1 {
                    0
                } else {
                    part_of(key, self.out.len())
                };
                let e = self.out[part].entry(key).or_insert(i64::MAX);
                *e = (*e).min(total);
            }
            return;
        }
        let above = cell(self.prev, c);
        let mut options = [0u64; 3];
        let mut count = 0;
        if above == TOP {
            options[0] = BOTTOM;
            count = 1;
        } else if c > 0 && cell(row, c - 1) == LEFT {
            options[0] = RIGHT;
            count = 1;
        } else {
            if above != HOLE && (c == 0 || cell(row, c - 1) != HOLE) {
                options[count] = HOLE;
                count += 1;
            }
            if c + 1 < n && cell(self.prev, c + 1) != TOP {
                options[count] = LEFT;
                count += 1;
            }
            if !self.step.last {
                options[count] = TOP;
                count += 1;
            }
        }
        for &v in &options[..count] {
            let row = row | (v << (3 * c));
            let mirrored = match v {
                LEFT => RIGHT,
                RIGHT => LEFT,
                v => v,
            };
            let mirror = mirror | (mirrored << (3 * (n - 1 - c)));
            let holes = if v == HOLE {
                holes | 1 << (c + 1)
            } else {
                holes
            };
            let mut b = booked;
            if c >= 2 {
                b += self.cost(c - 2, row, holes);
                // Columns c − 1 and beyond book at least rest[c − 1].
                if b > self.step.allowed_partial || b + self.rest[c - 1] > self.step.allowed {
                    self.tick();
                    continue;
                }
            }
            if self.stopped {
                return;
            }
            self.extend(c + 1, row, mirror, holes, b);
        }
    }

    /// Counts a partial row that ended (completed or dropped); reads the clock every few
    /// thousand.
    #[inline]
    fn tick(&mut self) {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(8192) && self.step.expired() {
            self.stopped = true;
        }
    }

    /// The shortfall booked at column k (see [`Costs`]); `holes` are the holes of `row`.
    #[inline]
    fn cost(&self, k: usize, row: u64, holes: u32) -> i64 {
        self.step.costs.read(self.at[k], k, row, holes)
    }
}

/// The shortfall booked at each column k when a row follows the one before it, as a table:
/// every loss that needs both rows, or only the newer, of the dominoes whose leftmost cell is
/// in column k, and the rests of those starting in the newer row. It depends only on what
/// starts at column k of the newer row (a horizontal or vertical domino, or neither), what is
/// at column k of the older row (the top, bottom or left half of a domino, or neither), and
/// which of the columns k − 1 to k + 2 of either row hold holes: 3 × 4 × 256 entries a
/// column, filled once a row from the slots' gifts ([`Column`]).
struct Costs {
    table: Vec<i32>,
    /// For each column, kind at column k of the older row and holes of its columns k − 1 to
    /// k + 2: the least entry of the table over everything the newer row may hold there.
    least: Vec<i32>,
}

const KINDS: usize = 12;

/// The table's index of the older row's kind at a column: the top (0), bottom (1) or left
/// half (2) of a domino, or anything else (3).
fn older_kind(cell: u64) -> usize {
    match cell {
        TOP => 0,
        BOTTOM => 1,
        LEFT => 2,
        _ => 3,
    }
}

/// The table offset of the newer row's kind at a column, by cell value: a horizontal domino
/// starting there (0), a vertical one (1), or neither (2), times 4 × 256.
const NEWER: [u32; 8] = [2048, 0, 2048, 1024, 2048, 2048, 2048, 2048];

impl Costs {
    fn new(cols: &[Column], n: usize) -> Costs {
        let mut table = vec![0i32; n * KINDS * 256];
        // A cell that is not a hole, of no kind the bookings look at.
        const FILLED: u64 = 5;
        for (k, col) in cols.iter().enumerate() {
            for newer in 0..3 {
                for older in 0..4 {
                    for mask in 0..256usize {
                        let (mut prev, mut row) = (0u64, 0u64);
                        for j in 0..4 {
                            let Some(c) = (k + j).checked_sub(1).filter(|&c| c < n) else {
                                continue;
                            };
                            let hole =
                                |bit: usize| if mask >> bit & 1 == 1 { HOLE } else { FILLED };
                            prev |= hole(j) << (3 * c);
                            row |= hole(4 + j) << (3 * c);
                        }
                        let set = |state: u64, v: u64| (state & !(7 << (3 * k))) | v << (3 * k);
                        // The kinds at column k; "neither" keeps the mask's hole or not.
                        if older < 3 {
                            prev = set(prev, [TOP, BOTTOM, LEFT][older]);
                        }
                        match newer {
                            0 => row = set(row, LEFT),
                            1 => row = set(row, TOP),
                            _ => {}
                        }
                        let starts = match newer {
                            0 => col.left_starts.cost(prev, row),
                            1 => col.top_starts.cost(prev, row),
                            _ => 0,
                        };
                        let under = match older {
                            0 => col.under_top.cost(prev, row),
                            1 => col.under_bottom.cost(prev, row),
                            2 => col.under_left.cost(prev, row),
                            _ => 0,
                        };
                        table[(k * KINDS + newer * 4 + older) * 256 + mask] =
                            (starts + under) as i32;
                    }
                }
            }
        }
        let mut least = vec![i32::MAX; n * 4 * 16];
        for k in 0..n {
            for older in 0..4 {
                for mask in 0..256usize {
                    let v = table[(k * KINDS + older) * 256 + mask]
                        .min(table[(k * KINDS + 4 + older) * 256 + mask])
                        .min(table[(k * KINDS + 8 + older) * 256 + mask]);
                    let e = &mut least[(k * 4 + older) * 16 + (mask & 15)];
                    *e = (*e).min(v);
                }
            }
        }
        Costs { table, least }
    }

    /// The least column k can book after `prev` (holes `prev_holes`), whatever follows it:
    /// a lower bound, since the table's entries for every kind and hole pattern of the newer
    /// row are among those it takes the least of.
    #[inline]
    fn least(&self, k: usize, prev: u64, prev_holes: u32) -> i64 {
        let older = older_kind(cell(prev, k));
        i64::from(self.least[(k * 4 + older) * 16 + ((prev_holes >> k) & 15) as usize])
    }

    /// Where the entries of column k after `prev` start in the table: the newer row's kind
    /// ([`NEWER`]) and holes (the mask's high four bits) are added to it.
    fn offset(&self, k: usize, prev: u64, prev_holes: u32) -> u32 {
        let older = older_kind(cell(prev, k));
        ((k * KINDS + older) * 256) as u32 + ((prev_holes >> k) & 15)
    }

    /// The entry of column k from its `offset` for the older row, given the newer `row` and
    /// its `holes`.
    #[inline]
    fn read(&self, offset: u32, k: usize, row: u64, holes: u32) -> i64 {
        let i = offset + NEWER[cell(row, k) as usize] + (((holes >> k) & 15) << 4);
        i64::from(self.table[i as usize])
    }

    #[cfg(test)]
    fn at(&self, k: usize, prev: u64, row: u64, prev_holes: u32, holes: u32) -> i64 {
        let newer = match cell(row, k) {
            LEFT => 0,
            TOP => 1,
            _ => 2,
        };
        let older = older_kind(cell(prev, k));
        if newer == 2 && older == 3 {
            return 0;
        }
        let mask = ((prev_holes >> k) & 15) | ((holes >> k) & 15) << 4;
        i64::from(self.table[(k * KINDS + newer * 4 + older) * 256 + mask as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offsets_read_the_same_entries_as_the_direct_lookup() {
        let (m, n) = (7, 9);
        let board = BudgetBoard { m, n };
        let mut seed = 12345u64;
        let mut next = |k: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % k
        };
        for r in 0..m {
            let costs = Costs::new(&columns(&board, r), n as usize);
            for _ in 0..2000 {
                let (mut prev, mut row) = (0u64, 0u64);
                for c in 0..n as usize {
                    let p = [HOLE, LEFT, RIGHT, TOP, BOTTOM, OFF][next(6) as usize];
                    prev |= p << (3 * c);
                    row |= next(5) << (3 * c);
                }
                let (ph, h) = (holes_of(prev, n as usize), holes_of(row, n as usize));
                for k in 0..n as usize {
                    assert_eq!(
                        costs.read(costs.offset(k, prev, ph), k, row, h),
                        costs.at(k, prev, row, ph, h)
                    );
                }
            }
        }
    }

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
