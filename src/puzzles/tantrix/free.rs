//! The searches: a fixed board, a board found from scratch, and counting all layouts.

use super::model::{Options, TantrixModel};
use super::{Board, Challenge, Hex, Placement};
use crate::solve::search::{Search, SearchStats, Status, Step};
use std::time::Duration;

/// What a search found.
pub struct Found {
    pub status: Status,
    pub solution: Option<(Board, Vec<Placement>)>,
    pub stats: SearchStats,
    /// Variables, rows and nonzeros of the model solved.
    pub size: crate::model::Size,
}

/// How a search runs: time limit, progress bar, and how many CaDiCaL engines race (one per
/// thread; see [`crate::solve::portfolio`]).
#[derive(Clone, Debug)]
pub struct Run {
    pub time_limit: Option<Duration>,
    pub progress: bool,
    pub engines: usize,
}

impl Default for Run {
    /// No limit, quiet, two engines (the machine this is measured on has two cores).
    fn default() -> Run {
        Run {
            time_limit: None,
            progress: false,
            engines: 2,
        }
    }
}

fn run(tm: &TantrixModel, how: &Run) -> Found {
    let (time_limit, progress) = (how.time_limit, how.progress);
    let mut search = Search::new(
        crate::solve::portfolio_backend(&tm.model, how.engines),
        time_limit,
    )
    .with_cuts(Box::new(|a: &[bool]| tm.cuts(a)));
    if progress {
        search = search.with_progress("tantrix");
    }
    let (status, solution) = match search.step(&[]) {
        Step::Found(a) => (Status::Solved, Some(tm.solution(&a))),
        Step::Exhausted => (Status::Infeasible, None),
        Step::Stopped => (Status::Unknown, None),
    };
    Found {
        status,
        solution,
        stats: search.finish(),
        size: tm.model.size(),
    }
}

/// Solves challenge `ch` on `board` (whose size must be n).
pub fn solve_fixed(ch: &Challenge, board: &Board, opt: &Options, how: &Run) -> Found {
    let tm = TantrixModel::fixed(ch, board, opt);
    run(&tm, how)
}

/// The radius of the candidate region used by default for a board search: a hexagon of
/// about twice n cells (a loop of n tiles rarely strays further), and never less than needed
/// for the shape to fit.
pub fn default_radius(n: usize) -> i32 {
    let mut r = 1;
    while 3 * r * (r + 1) + 1 < 2 * n as i32 {
        r += 1;
    }
    r
}

/// Finds a board and a solution for `ch` inside the hexagon of `radius` around the origin.
pub fn solve_free(ch: &Challenge, radius: i32, hole_free: bool, opt: &Options, how: &Run) -> Found {
    let region = Hex::ball(radius);
    let tm = TantrixModel::free(ch, &region, hole_free, opt);
    run(&tm, how)
}

/// Counts all layouts of the challenge's tiles whose designated lines form one loop, up to
/// translation and rotation of the whole layout (tile 1 is fixed unturned at the origin, so
/// this needs n ≤ 10, where tile 1 is used once).
pub fn count(
    ch: &Challenge,
    hole_free: bool,
    time_limit: Option<Duration>,
    progress: bool,
) -> (Status, u64, SearchStats) {
    // The loop passes through the origin, so no cell is further than n/2 from it.
    let region = Hex::ball((ch.n / 2) as i32);
    let tm = TantrixModel::free(ch, &region, hole_free, &Options::default());
    let mut search = Search::new(crate::solve::default_backend(&tm.model), time_limit)
        .with_cuts(Box::new(|a: &[bool]| tm.cuts(a)));
    if progress {
        search = search.with_progress("tantrix count");
    }
    let (status, n) = search.enumerate_positive(&tm.placement_vars(), None, |_| true);
    (status, n, search.finish())
}
