//! An exact dedicated search for Tank Attack, independent of the integer program: a second
//! method to cross-check it, and the fast path for counting.
//!
//! The rule splits along lines. For a line (a row or a column) holding values `w`, let
//! `A(w)[p]` be the number of tanks of that line that attack position `p`. A board is legal
//! exactly when, for every cell, (row attacks) + (column attacks) = value. So every row and every
//! column is a *feasible line*: `A(w) <= w` pointwise. Each position of a feasible line carries
//! a label (value, attacks along the line). The feasible lines are read by one minimal automaton
//! ([`super::lines`]), shared by rows and columns. The search fills the board cell by cell in
//! row-major order, walking one automaton node per row and one per column: at cell (i,j) it tries
//! every label (v, r) out of the row's node for which the column's node has the label (v, v − r).
//! Every node leads to a full feasible line, and a completed board is legal by construction.
//!
//! Symmetry: the search keeps only boards whose top row, read left to right, is
//! lexicographically least among the eight ways of reading an edge (each edge in both
//! directions), which every orbit of the square's eight symmetries contains; the edges that
//! start at the top corners are compared as they fill, the others on the last row. Each orbit
//! is then reported once, from its least such board in row-major order, with all its distinct
//! images, so the count is exact. The first rows are shared out among the cores.
//!
//! Givens (cells whose value a setter fixed) take from each of their cells the labels of other
//! values. They break the square's symmetry, so with givens every board is searched and
//! reported as itself.

use super::lines::Lines;
use crate::guard;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The largest side the exact search accepts when asked for (`--method exact`); its automaton
/// is small at any side, the search is what grows.
pub const MAX_EXACT_SIDE: usize = 12;

/// The largest side `--method auto` gives the exact search; beyond it, SAT.
pub const AUTO_EXACT_SIDE: usize = 8;

/// The eight symmetries of the square as maps of (row, column) on a side of n.
fn images(board: &[Vec<u32>]) -> Vec<Vec<Vec<u32>>> {
    let n = board.len();
    let mut out: Vec<Vec<Vec<u32>>> = Vec::with_capacity(8);
    for g in 0..8 {
        let img: Vec<Vec<u32>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let (a, b) = if g & 4 != 0 { (j, i) } else { (i, j) };
                        let a = if g & 1 != 0 { n - 1 - a } else { a };
                        let b = if g & 2 != 0 { n - 1 - b } else { b };
                        board[a][b]
                    })
                    .collect()
            })
            .collect();
        if !out.contains(&img) {
            out.push(img);
        }
    }
    out
}

/// The eight edge readings: cells of each, from index 0 on. Reading 0 is the top row.
fn readings(n: usize) -> Vec<Vec<(usize, usize)>> {
    let last = n - 1;
    vec![
        (0..n).map(|t| (0, t)).collect(),
        (0..n).map(|t| (0, last - t)).collect(),
        (0..n).map(|t| (t, 0)).collect(),
        (0..n).map(|t| (t, last)).collect(),
        (0..n).map(|t| (last, t)).collect(),
        (0..n).map(|t| (last, last - t)).collect(),
        (0..n).map(|t| (last - t, 0)).collect(),
        (0..n).map(|t| (last - t, last)).collect(),
    ]
}

/// Whether the top row is still possibly least among the edge readings, given that the cells
/// before `filled` (row-major) are set.
fn top_least(board: &[Vec<u32>], reads: &[Vec<(usize, usize)>], filled: usize) -> bool {
    let n = board.len();
    let known = |(i, j): (usize, usize)| i * n + j < filled;
    reads[1..].iter().all(|r| {
        for (t, &c) in r.iter().enumerate() {
            if !known(c) || !known((0, t)) {
                return true;
            }
            let (x, top) = (board[c.0][c.1], board[0][t]);
            if x != top {
                return x > top;
            }
        }
        true
    })
}

/// A complete board's distinct images, when the board is the one its orbit is reported from:
/// its top row least among the edge readings, and it the least (row-major) of its images
/// whose top rows are. `None` for every other board of the orbit.
fn orbit_led_by(board: &[Vec<u32>], reads: &[Vec<(usize, usize)>]) -> Option<Vec<Vec<Vec<u32>>>> {
    let n = board.len();
    if !top_least(board, reads, n * n) {
        return None;
    }
    let imgs = images(board);
    let least = imgs
        .iter()
        .filter(|b| top_least(b, reads, n * n))
        .min()
        .expect("the board itself qualifies");
    (*least == board).then_some(imgs)
}

/// The first rows the symmetric search starts from (each least among the readings that
/// start at the top corners), as labels of `Lines::new(n)`, n bytes a row; every orbit has a
/// board led by one of them, and [`orbit_for`] reports each orbit once from such boards.
/// The consistent search reads the same list off its table (faster); this is what its test
/// compares with. `None` if the stage stopped while listing.
#[cfg(test)]
pub(super) fn first_rows(lines: &Lines) -> Option<Vec<u8>> {
    let n = lines.n;
    let reads = readings(n);
    let allowed = vec![u128::MAX; n * n];
    let search = Search {
        lines,
        reads: &reads,
        allowed: &allowed,
        plain: false,
    };
    let mut firsts = Vec::new();
    let mut first = State::new(n, &search);
    first.go(0, &mut Sink::Firsts(&mut firsts));
    (!first.halted).then_some(firsts)
}

/// The boards to report for a complete legal board found under one of [`first_rows`]: its
/// orbit's distinct images when the board is the one the orbit is reported from, else none.
pub(super) fn orbit_for(board: &[Vec<u32>]) -> Option<Vec<Vec<Vec<u32>>>> {
    orbit_led_by(board, &readings(board.len()))
}

/// The exact search. `on_board` sees every legal board; returning `false` stops the search,
/// and so does the stage it runs in ([`crate::guard`]: its deadline, a stop request,
/// the memory limit, which the first rows' list is charged to). `part` = (k, parts) runs only the first rows k, k + parts, ...
/// (0-based) of the search's list, and sees the boards of the orbits they lead; the parts'
/// counts add up to the whole. Returns the number of boards seen, whether the search (or the
/// part) ran to the end, so that the count is complete, how many first rows the whole search
/// has (`None` when it stopped before it had listed them) and how many of this run's it
/// searched to their end.
pub fn search(
    n: usize,
    part: Option<(usize, usize)>,
    givens: &[(usize, usize, u32)],
    on_board: impl FnMut(&[Vec<u32>]) -> bool + Send,
) -> Outcome {
    assert!(
        (2..=MAX_EXACT_SIDE).contains(&n),
        "exact search supports sides 2..={MAX_EXACT_SIDE}"
    );
    let lines = Lines::new(n);
    debug_assert!(lines.labels.len() <= 256, "labels are stored as bytes");
    let reads = readings(n);
    // The labels each cell may take: those of its given value, or any.
    let mut allowed = vec![u128::MAX; n * n];
    for &(i, j, v) in givens {
        allowed[i * n + j] = (0..lines.labels.len())
            .filter(|&l| lines.labels[l].0 as u32 == v)
            .fold(0, |m, l| m | 1 << l);
    }
    let search = Search {
        lines: &lines,
        reads: &reads,
        allowed: &allowed,
        plain: !givens.is_empty(),
    };
    // The first rows that can lead the search (least among their own two readings), their
    // labels n bytes a row (tens of millions of rows from n = 9 on).
    let mut firsts: Vec<u8> = Vec::new();
    let mut first = State::new(n, &search);
    first.go(0, &mut Sink::Firsts(&mut firsts));
    if first.halted {
        return Outcome {
            count: 0,
            complete: false,
            first_rows: None,
            first_rows_done: 0,
        };
    }
    let all_firsts = firsts.len() / n;
    if let Some((k, parts)) = part {
        firsts = firsts
            .chunks(n)
            .enumerate()
            .filter(|(t, _)| t % parts == k)
            .flat_map(|(_, f)| f.iter().copied())
            .collect();
    }
    let shared = Shared {
        next: AtomicUsize::new(0),
        done: Mutex::new(0),
        count: AtomicU64::new(0),
        nodes: AtomicU64::new(0),
        stopped: AtomicBool::new(false),
        on_board: Mutex::new(Box::new(on_board)),
        firsts,
    };
    let threads = std::thread::available_parallelism()
        .map(|t| t.get())
        .unwrap_or(1)
        .clamp(1, 8);
    // The workers enter the caller's stage, so its stop and memory account reach them.
    let answers = guard::spread(threads, &|_| {
        let mut s = State::new(n, &search);
        loop {
            let t = shared.next.fetch_add(1, Ordering::Relaxed);
            let rows = shared.firsts.len() / n;
            if t >= rows || shared.stopped.load(Ordering::Relaxed) {
                break;
            }
            if s.start_from(&shared.firsts[t * n..(t + 1) * n]) {
                s.go(n, &mut Sink::Boards(&shared));
            }
            if s.halted {
                // Stopped inside this first row: not searched to its end.
                break;
            }
            // Rows finished, counted and said under one lock, so that what is shown only
            // grows (each thread used to say the number of its own row, out of order).
            let mut done = shared.done.lock().unwrap_or_else(|e| e.into_inner());
            *done += 1;
            crate::guard::progress::message(&format!(
                "line search: {} of {} first rows, {} boards",
                *done,
                rows,
                shared.count.load(Ordering::Relaxed)
            ));
        }
    });
    if answers.iter().any(Result::is_err) {
        shared.stopped.store(true, Ordering::Relaxed);
    }
    Outcome {
        count: shared.count.into_inner(),
        complete: !shared.stopped.into_inner(),
        first_rows: Some(all_firsts),
        first_rows_done: shared.done.into_inner().unwrap_or_else(|e| e.into_inner()),
    }
}

/// What the line search reports besides its boards.
pub struct Outcome {
    /// Boards seen (all of them, when complete).
    pub count: u64,
    /// Whether the search (or the part) ran to its end.
    pub complete: bool,
    /// The first rows of the whole search (`None`: stopped while listing them).
    pub first_rows: Option<usize>,
    /// First rows of this run (all, or this part's) searched to their end: how far a stopped
    /// run got.
    pub first_rows_done: usize,
}

struct Shared<'f> {
    next: AtomicUsize,
    /// First rows searched to their end (counted and said under one lock).
    done: Mutex<usize>,
    count: AtomicU64,
    nodes: AtomicU64,
    stopped: AtomicBool,
    #[allow(clippy::type_complexity)] // one callback, shared by the threads
    on_board: Mutex<Box<dyn FnMut(&[Vec<u32>]) -> bool + Send + 'f>>,
    /// The first rows' labels, n bytes a row.
    firsts: Vec<u8>,
}

/// What every worker searches with.
struct Search<'a> {
    lines: &'a Lines,
    reads: &'a [Vec<(usize, usize)>],
    /// Per cell, row-major: the labels it may take (its given value's, or all).
    allowed: &'a [u128],
    /// No symmetry reduction (there are givens): every board is searched and reported alone.
    plain: bool,
}

struct State<'a> {
    n: usize,
    lines: &'a Lines,
    reads: &'a [Vec<(usize, usize)>],
    allowed: &'a [u128],
    plain: bool,
    row_node: Vec<usize>,
    col_node: Vec<usize>,
    board: Vec<Vec<u32>>,
    /// The label taken at each cell, row-major.
    labels: Vec<usize>,
    nodes: u64,
    /// The deadline passed or the run was cancelled (or, for boards, another thread stopped).
    halted: bool,
}

/// Where a search hands what it reaches.
enum Sink<'s, 'f> {
    /// Collect the first rows (labels, a byte each), stopping there.
    Firsts(&'s mut Vec<u8>),
    /// Complete boards.
    Boards(&'s Shared<'f>),
}

impl<'a> State<'a> {
    fn new(n: usize, search: &Search<'a>) -> Self {
        State {
            n,
            lines: search.lines,
            reads: search.reads,
            allowed: search.allowed,
            plain: search.plain,
            row_node: vec![0; n],
            col_node: vec![0; n],
            board: vec![vec![0; n]; n],
            labels: vec![0; n * n],
            nodes: 0,
            halted: false,
        }
    }

    /// Sets the first row to `labels`; false if the columns cannot take it.
    fn start_from(&mut self, labels: &[u8]) -> bool {
        let lines = self.lines;
        self.row_node.fill(0);
        self.col_node.fill(0);
        for (j, &l) in labels.iter().enumerate() {
            let l = l as usize;
            let Some(r) = lines.child(self.row_node[0], l) else {
                return false;
            };
            let Some(c) = lines.child(0, lines.cross[l] as usize) else {
                return false;
            };
            self.row_node[0] = r;
            self.col_node[j] = c;
            self.board[0][j] = lines.labels[l].0 as u32;
            self.labels[j] = l;
        }
        true
    }

    fn go(&mut self, cell: usize, sink: &mut Sink) {
        let n = self.n;
        let lines = self.lines;
        self.nodes += 1;
        if self.nodes.is_multiple_of(65536) {
            let late = guard::expired();
            if let Sink::Boards(sh) = sink {
                sh.nodes.fetch_add(65536, Ordering::Relaxed);
                if late {
                    sh.stopped.store(true, Ordering::Relaxed);
                }
                self.halted = sh.stopped.load(Ordering::Relaxed);
            } else {
                self.halted |= late;
            }
        }
        if self.halted {
            return;
        }
        match sink {
            Sink::Firsts(out) if cell == n => {
                // Fewer than 256 labels for every side the search takes.
                out.extend(self.labels[..n].iter().map(|&l| l as u8));
                guard::charge(n as u64);
                return;
            }
            Sink::Boards(sh) if cell == n * n => {
                self.leaf(sh);
                return;
            }
            _ => {}
        }
        let (i, j) = (cell / n, cell % n);
        let (r, c) = (self.row_node[i], self.col_node[j]);
        let mut m = lines.mask[r] & lines.crossing[c] & self.allowed[cell];
        while m != 0 {
            if let Sink::Boards(sh) = sink {
                self.halted |= sh.stopped.load(Ordering::Relaxed);
            }
            if self.halted {
                return;
            }
            let label = m.trailing_zeros() as usize;
            m &= m - 1;
            let row_child = lines.child(r, label).expect("label taken from the mask");
            let col_child = lines
                .child(c, lines.cross[label] as usize)
                .expect("label taken from the crossing mask");
            // Look ahead along the row: every later cell of this row must still have a label
            // that its column can take.
            if (j + 1..n).any(|d| {
                lines.ahead[row_child * n + d]
                    & lines.crossing[self.col_node[d]]
                    & self.allowed[i * n + d]
                    == 0
            }) {
                continue;
            }
            self.row_node[i] = row_child;
            self.col_node[j] = col_child;
            self.board[i][j] = lines.labels[label].0 as u32;
            self.labels[cell] = label;
            let on_edge = i == 0 || i == n - 1 || j == 0 || j == n - 1;
            if self.plain || !on_edge || top_least(&self.board, self.reads, cell + 1) {
                self.go(cell + 1, sink);
            }
            self.row_node[i] = r;
            self.col_node[j] = c;
        }
    }

    /// A complete legal board whose top row is least among the edge readings: report its orbit
    /// if it is the orbit's least such board.
    fn leaf(&mut self, sh: &Shared) {
        if self.plain {
            sh.count.fetch_add(1, Ordering::Relaxed);
            let mut f = sh.on_board.lock().expect("board callback");
            if !f(&self.board) {
                sh.stopped.store(true, Ordering::Relaxed);
            }
            return;
        }
        let Some(imgs) = orbit_led_by(&self.board, self.reads) else {
            return;
        };
        sh.count.fetch_add(imgs.len() as u64, Ordering::Relaxed);
        let mut f = sh.on_board.lock().expect("board callback");
        for b in &imgs {
            if !f(b) {
                sh.stopped.store(true, Ordering::Relaxed);
                return;
            }
        }
    }
}
