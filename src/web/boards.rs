//! The workbench's boards, kept between edits (`POST /api/bench`): a kept session of any
//! puzzle that offers one ([`quandary::verbs::Session`]; Battleship's is the first), and what
//! they are charged against the server's memory limit. The routes (mod.rs) read and check the
//! request; this file keeps the boards.

use quandary::guard;
use quandary::runner::Limits;
use quandary::verbs::{self, Session};
use quandary::Error;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Workbench boards the server keeps engines for; a further board evicts the one used least
/// recently (its next edit is answered by new engines). Their memory is charged too: the
/// boards kept hold at most one run's share of the memory limit together, by what building
/// their engines charged (a board larger than that alone is answered and not kept), so an
/// idle server holds no more than its limit. The engines of a 30×20 board hold some 70 MB
/// after its first check and grow with what they learn (230 MB seen after many hard edits),
/// which the estimate does not count, so few are kept.
pub const MAX_BOARDS: usize = 4;

/// A kept board is charged this many times what its checks charged to their runs (its engines
/// and the clauses added to them), for what CaDiCaL learned besides, which no estimate sees.
/// Resident growth over the estimate, measured after checks of 20 s: 2.9 times on the 30×20
/// data/battleship/generated/30x20-seed6.txt, 1.2 times on an open 50×50 board; 0.3 times on
/// an open 60×12 board with one ship of length 60. The server's resident size, read after
/// each check, is the backstop for the rest.
const KEPT_GROWTH: u64 = 2;

/// One workbench board: its engines and what they learned, kept between edits.
struct KeptBoard {
    /// The puzzle, and the page's name for the board.
    puzzle: String,
    id: String,
    bench: Arc<Mutex<Box<dyn Session>>>,
    /// The bytes its engines held after its last check ([`Session::bytes`]).
    held: u64,
    /// The cancel flag of the check running on it: a newer edit of the board raises it (the
    /// older answer is of no use any more) and waits for the engines.
    going: Arc<Mutex<Option<Arc<AtomicBool>>>>,
}

/// The boards a server keeps, the most recently used first (at most [`MAX_BOARDS`]), within
/// their share of the memory limit.
pub struct Boards {
    kept: Mutex<VecDeque<KeptBoard>>,
    /// The bytes the boards kept may hold together (one run's share).
    budget: u64,
    /// The server's whole memory limit: past it (resident), boards are dropped.
    limit: u64,
}

/// A check's answer: JSON for the page, or an error's status code and words.
pub type Checked = Result<Value, (u16, String)>;

impl Boards {
    pub fn new(budget: u64, limit: u64) -> Boards {
        Boards {
            kept: Mutex::new(VecDeque::new()),
            budget,
            limit,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<KeptBoard>> {
        match self.kept.lock() {
            Ok(b) => b,
            Err(e) => e.into_inner(),
        }
    }

    /// Answers an edit of `puzzle`'s board `id` (`text`, any format the puzzle's readers know)
    /// from the board's engines as its earlier edits left them (Battleship: unique or not,
    /// forced cells, spare clues). A newer edit of the same board raises this one's
    /// `limits.cancel`.
    pub fn check(&self, puzzle: &str, id: &str, text: &str, limits: Limits) -> Checked {
        let start = || verbs::session(puzzle).ok_or_else(|| (400, no_session(Some(puzzle))));
        let cancel = limits.cancel.clone().unwrap_or_default();
        let (bench, going) = {
            let mut boards = self.lock();
            let board = match boards.iter().position(|b| b.id == id && b.puzzle == puzzle) {
                Some(k) => boards.remove(k).expect("a board at k"),
                None => KeptBoard {
                    puzzle: puzzle.to_string(),
                    id: id.to_string(),
                    held: 0,
                    bench: Arc::new(Mutex::new(start()?)),
                    going: Arc::new(Mutex::new(None)),
                },
            };
            let pair = (board.bench.clone(), board.going.clone());
            boards.push_front(board);
            boards.truncate(MAX_BOARDS);
            pair
        };
        // A newer edit stops the check of an older one on the same board.
        if let Ok(mut g) = going.lock() {
            if let Some(older) = g.replace(cancel.clone()) {
                older.store(true, Ordering::Relaxed);
            }
        }
        let mut workbench = match bench.lock() {
            Ok(b) => b,
            // A check that panicked: its engines are not to be trusted.
            Err(e) => {
                let mut b = e.into_inner();
                *b = start()?;
                b
            }
        };
        if cancel.load(Ordering::Relaxed) {
            return Ok(
                json!({"status": "unknown", "error": "a newer edit of this board came first", "puzzle": puzzle}),
            );
        }
        let checked = workbench.check(text, &limits);
        // The board's engines stay only if the boards kept fit their share of the memory.
        let held = workbench.bytes().saturating_mul(KEPT_GROWTH);
        let kept = held > 0 && self.keep(&bench, held);
        if !kept {
            workbench.forget();
        }
        drop(workbench);
        match checked {
            Ok(report) => {
                let mut out = serde_json::to_value(&report).unwrap_or_else(|_| json!({}));
                out["text"] = json!(report.text);
                out["svg"] = json!(report.svg);
                out["details"]["kept"] = json!(kept);
                out["details"]["held_bytes"] = json!(if kept { held } else { 0 });
                Ok(out)
            }
            Err(e) => {
                match quandary::runner::report::stopped_answer(&e, Some(puzzle), None, None) {
                    Some(v) => Ok(v),
                    None if matches!(e, Error::Internal(_)) => Err((500, e.to_string())),
                    None => Err((400, e.to_string())),
                }
            }
        }
    }

    /// Records that the board whose session is `bench` holds `held` bytes, and evicts the
    /// boards used least recently until the boards kept hold at most their budget. Answers
    /// whether the board is kept: not when it alone holds more, nor when it was evicted while
    /// it was being checked.
    fn keep(&self, bench: &Arc<Mutex<Box<dyn Session>>>, held: u64) -> bool {
        let this = |b: &KeptBoard| Arc::ptr_eq(&b.bench, bench);
        let mut boards = self.lock();
        let Some(k) = boards.iter().position(this) else {
            return false;
        };
        if held > self.budget {
            boards.remove(k);
            return false;
        }
        boards[k].held = held;
        // The most recently used first: evict from the back, never this board. The evicted
        // are freed after the lock is let go (freeing a large engine takes a while).
        let mut evicted = Vec::new();
        while boards.iter().map(|b| b.held).sum::<u64>() > self.budget {
            match boards.iter().rposition(|b| !this(b)) {
                Some(last) => evicted.extend(boards.remove(last)),
                None => break,
            }
        }
        drop(boards);
        drop(evicted);
        // The backstop: past the whole limit, the boards used least recently go, this one
        // last.
        guard::give_back_memory();
        while guard::resident_bytes().is_some_and(|r| r > self.limit) {
            let mut boards = self.lock();
            let last = boards
                .iter()
                .rposition(|b| !this(b))
                .or_else(|| boards.iter().position(this));
            let Some(last) = last else { break };
            let gone = boards.remove(last);
            drop(boards);
            let was_this = gone.as_ref().is_some_and(this);
            drop(gone);
            guard::give_back_memory();
            if was_this {
                return false;
            }
        }
        true
    }
}

/// Why a request names no puzzle with workbench boards (`puzzle`, the one it names), naming
/// those that have them.
pub fn no_session(puzzle: Option<&str>) -> String {
    let offered = verbs::kept();
    match puzzle {
        Some(p) => format!(
            "\"puzzle\": '{}' keeps no workbench boards (those that do: {})",
            quandary::error::clip(p),
            offered.join(", ")
        ),
        None => format!(
            "give \"puzzle\": the puzzle whose board this is ({})",
            offered.join(", ")
        ),
    }
}
