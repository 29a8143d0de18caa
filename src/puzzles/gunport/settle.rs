//! Settling the optimum of a large board. Up to width [`TM_WIDTH`] the optimum transfer matrix
//! ([`tm`]) gives the optimum and SAT draws a packing at it; wider boards (to 21) go to the
//! budget program, which refutes values from the top, and SAT draws a packing at the first
//! value it cannot refute.

use super::tm;
use super::*;
use crate::error::{Error, Result};
use crate::geometry;
use crate::puzzles::Exact;
use crate::puzzles::Formulated;
use crate::solve::limits::Limits;
use crate::solve::search::Status;
use crate::solve::search::{Search, Step};
use crate::solve::Backend;
use std::time::Instant;

/// Boards up to this many cells are left to the integer program, which settles them in
/// seconds (12×12 in 0.3 s).
pub(super) const SETTLE_FROM_CELLS: usize = 150;

/// How long each symmetric search for a packing may take when the run has no time limit.
pub(super) const SYMMETRIC_SEARCH: std::time::Duration = std::time::Duration::from_secs(20);

/// The optimum of a board whose symmetric searches missed the domino bound (Pearce's value):
/// the budget program refutes the values from the top down, and at the first value it does
/// not refute, SAT draws a packing: a symmetric one first (half-turn, mirror, flip; small
/// searches), else the full model. Each value below the top is first looked for by the
/// symmetric searches, since the budget program is slow to confirm a value it cannot refute.
/// `None` when the budget program says the top is reachable: the full model then finds it.
/// `None` at once when 3 divides a side: Sands' theorem says the top (mn/3) is reached, so
/// nothing needs refuting, and the full model's packing at the bound proves the optimum.
pub(super) fn settle_optimum(g: &Gunport, limits: &Limits) -> Option<Result<Exact<Packing>>> {
    if g.sands().is_some() {
        return None;
    }
    let top = g.domino_bound()?;
    let started = Instant::now();
    let mut steps: Vec<serde_json::Value> = Vec::new();
    let mut refuted: Option<i64> = None;
    let unknown = |steps: Vec<serde_json::Value>, refuted: Option<i64>, why: &str| Exact {
        status: Status::Unknown,
        solutions: Vec::new(),
        count: 0,
        objective: None,
        method: format!("budget program and SAT, {why}"),
        scope: None,
        agreement: None,
        details: Some(serde_json::json!({
            "steps": steps,
            "at_most": refuted.map(|r| g.most_below(r)),
        })),
    };
    let mut h = top;
    loop {
        if h < 0 {
            return Some(Err(Error::Internal(format!(
                "the budget program refuted every value on {}×{}",
                g.m, g.n
            ))));
        }
        // Below the top: a symmetric packing at h settles it (h + 2 is refuted).
        if h < top {
            match symmetric_draw(g, h, limits, &mut steps) {
                Ok(Some((p, searched))) => {
                    return Some(Ok(settled(g, h, p, steps, started, &searched)))
                }
                Ok(None) => {}
                Err(e) => return Some(Err(e)),
            }
        }
        let t = Instant::now();
        let r = budget::at_least(g.m, g.n, h as usize)?;
        steps.push(serde_json::json!({
            "holes": h,
            "search": "budget program",
            "refuted": r.holes.is_none() && !r.stopped,
            "seconds": t.elapsed().as_secs_f64(),
            "peak_states": r.peak_states,
        }));
        if r.stopped {
            return Some(Ok(unknown(steps, refuted, "stopped by the time limit")));
        }
        if r.holes.is_none() {
            refuted = Some(h);
            h = g.most_below(h);
            continue;
        }
        if h == top {
            // Reachable at the bound, but no symmetric packing: the full model's work.
            return None;
        }
        // h is reachable and h + 2 is not: draw a packing with the full model.
        let found = match full_draw(g, h, limits, &mut steps) {
            Ok(found) => found,
            Err(e) => return Some(Err(e)),
        };
        return Some(Ok(match found {
            Some(p) => settled(g, h, p, steps, started, "full model"),
            None => unknown(
                steps,
                refuted,
                "the packing the budget program says exists was not drawn in time",
            ),
        }));
    }
}

/// A packing with `h` holes among the symmetric ones (the optimum's own phases on the charge
/// formulation, half-turn first: it found 19×19's 117), each with its share of the time left
/// or [`SYMMETRIC_SEARCH`]; each search is a step. With the phase's scope it was found in.
fn symmetric_draw(
    g: &Gunport,
    h: i64,
    limits: &Limits,
    steps: &mut Vec<serde_json::Value>,
) -> Result<Option<(Packing, String)>> {
    for sym in [
        geometry::Symmetry::HalfTurn,
        geometry::Symmetry::Mirror,
        geometry::Symmetry::Flip,
    ] {
        let phase = g.symmetric_phase(Formulation::Charge, sym);
        let limit = limits.remaining().map_or(SYMMETRIC_SEARCH, |r| {
            r.mul_f64(phase.share).min(SYMMETRIC_SEARCH)
        });
        let t = Instant::now();
        let found = packing_at(g, h, &limits.until(Some(t + limit)), phase.build)?;
        steps.push(serde_json::json!({
            "holes": h,
            "search": format!("{} (SAT, charge formulation)", phase.scope),
            "found": found.is_some(),
            "seconds": t.elapsed().as_secs_f64(),
        }));
        if let Some(p) = found {
            return Ok(Some((p, phase.scope)));
        }
    }
    Ok(None)
}

/// A packing with `h` holes by the full charge model, within `limits`; the search is a step.
fn full_draw(
    g: &Gunport,
    h: i64,
    limits: &Limits,
    steps: &mut Vec<serde_json::Value>,
) -> Result<Option<Packing>> {
    let t = Instant::now();
    let full = || g.formulated(g.formulate(Formulation::Charge), Formulation::Charge, None);
    let found = packing_at(g, h, limits, Box::new(full))?;
    steps.push(serde_json::json!({
        "holes": h,
        "search": "all packings (SAT, charge formulation)",
        "found": found.is_some(),
        "seconds": t.elapsed().as_secs_f64(),
    }));
    Ok(found)
}

/// Narrow sides up to this the optimum transfer matrix settles `solve` and `optimum` by itself
/// (19×40 in some 20 s on two cores, meeting in the middle); wider ones go to the budget
/// program's route ([`settle_optimum`]).
pub(super) const TM_WIDTH: usize = tm::MAX_WIDTH;

/// The optimum by the transfer matrix ([`tm::board`]), with an optimal packing traced back
/// when the tables of the top half fit in the run's memory, else drawn by SAT at that value
/// (symmetric packings first, then the full charge model). `None` when the board is too wide
/// or the pass could not keep every state (then the other methods answer). The optimum stands
/// on the transfer matrix even if no packing is drawn in time; the answer then says so and
/// shows none. A traced packing is checked by the verifier before it is shown.
pub(super) fn tm_optimum(g: &Gunport, limits: &Limits) -> Option<Result<Exact<Packing>>> {
    let (w, len) = (g.m.min(g.n), g.m.max(g.n));
    let memory = limits.memory_bytes();
    if w > TM_WIDTH || tm::board_bytes(w, len, false) > memory {
        return None;
    }
    let started = Instant::now();
    let draw = tm::board_bytes(w, len, true) <= memory;
    let board = tm::board(w, len, draw)?;
    if board.dropped != 0 {
        return None;
    }
    let h = board.holes;
    let mut steps = vec![serde_json::json!({
        "holes": h,
        "search": format!("transfer matrix (width {w}, two halves of {} and {} rows): the optimum{}",
            len.div_ceil(2), len / 2, if draw { " and a packing traced back" } else { "" }),
        "seconds": started.elapsed().as_secs_f64(),
    })];
    if let Some(dominoes) = board.dominoes {
        // The board runs `len` rows of `w`; turned when the board is wider than tall.
        let dominoes = if g.m == len {
            dominoes
        } else {
            dominoes
                .into_iter()
                .map(|[a, b]| [(a.1, a.0), (b.1, b.0)])
                .collect()
        };
        let p = Packing {
            m: g.m,
            n: g.n,
            dominoes,
        };
        if let Err(why) = verify(&p) {
            return Some(Err(Error::Internal(format!(
                "the packing traced back on {}×{} fails the verifier: {why}",
                g.m, g.n
            ))));
        }
        return Some(Ok(optimal(
            h,
            vec![p],
            "optimum and a packing by the transfer matrix (meeting in the middle)".into(),
            steps,
            started,
        )));
    }
    let drawn = match symmetric_draw(g, h, limits, &mut steps) {
        Ok(Some(found)) => Some(found),
        Ok(None) => match full_draw(g, h, limits, &mut steps) {
            Ok(p) => p.map(|p| (p, "full model".to_string())),
            Err(e) => return Some(Err(e)),
        },
        Err(e) => return Some(Err(e)),
    };
    let (solutions, method) = match drawn {
        Some((p, searched)) => (
            vec![p],
            format!("optimum by the transfer matrix; a packing with {h} holes by SAT ({searched})"),
        ),
        None => (
            Vec::new(),
            format!(
                "optimum by the transfer matrix; no packing with {h} holes drawn within the limit"
            ),
        ),
    };
    Some(Ok(optimal(h, solutions, method, steps, started)))
}

/// The optimum `h`, proved as `method` says, with the packings drawn (none or one) and the
/// steps taken since `started`.
fn optimal(
    h: i64,
    solutions: Vec<Packing>,
    method: String,
    steps: Vec<serde_json::Value>,
    started: Instant,
) -> Exact<Packing> {
    Exact {
        status: Status::Optimal,
        solutions,
        count: 1,
        objective: Some(h),
        method,
        scope: None,
        agreement: None,
        details: Some(serde_json::json!({
            "steps": steps,
            "seconds": started.elapsed().as_secs_f64(),
        })),
    }
}

/// Sands' value by construction: on a board with 3 | m, every column holds vertical dominoes
/// and a hole on every third cell, its holes on the rows ≡ 0 (mod 3) in even columns and
/// ≡ 2 in odd ones (both leave whole dominoes at the column's ends when 3 | m, and neighbouring
/// columns never have holes side by side); 3 | n is the same turned. mn/3 holes, the domino
/// bound: optimal, with no search. `None` when 3 divides neither side, or a side is 1 (a path:
/// no domino bound).
pub(super) fn sands_packing(g: &Gunport) -> Option<Exact<Packing>> {
    let bound = g.domino_bound()?;
    g.sands()?;
    let turned = !g.m.is_multiple_of(3);
    let (rows, cols) = if turned { (g.n, g.m) } else { (g.m, g.n) };
    let mut dominoes = Vec::with_capacity(g.cells() / 3);
    for c in 0..cols {
        let offset = if c % 2 == 0 { 0 } else { 2 };
        let mut r = 0;
        while r < rows {
            if r % 3 == offset {
                r += 1;
                continue;
            }
            let cell = |r: usize| if turned { (c, r) } else { (r, c) };
            dominoes.push([cell(r), cell(r + 1)]);
            r += 2;
        }
    }
    let h = g.sands()? as i64;
    debug_assert_eq!(h, bound);
    Some(Exact {
        status: Status::Optimal,
        solutions: vec![Packing {
            m: g.m,
            n: g.n,
            dominoes,
        }],
        count: 1,
        objective: Some(h),
        method: format!(
            "Sands' construction ({h} holes, the domino bound: 3 divides a side), no search"
        ),
        scope: None,
        agreement: None,
        details: None,
    })
}

/// The optimum `h` settled by a packing (found in `searched`: a phase's scope, or the full
/// model) and the budget program's refutation of the next value.
pub(super) fn settled(
    g: &Gunport,
    h: i64,
    p: Packing,
    steps: Vec<serde_json::Value>,
    started: Instant,
    searched: &str,
) -> Exact<Packing> {
    let above = h + 2;
    let method = format!(
        "a packing with {h} holes by SAT ({searched}), and the budget program's refutation of {above}{}",
        if above > g.domino_bound().unwrap_or(above) {
            " (the domino bound)".to_string()
        } else {
            String::new()
        },
    );
    optimal(h, vec![p], method, steps, started)
}

/// A packing with at least `h` holes in the model `build` makes (a phase's, or the full
/// charge model), by one SAT question asked directly within `limits` (the runner verifies
/// the packing settled on).
pub(super) fn packing_at<'a>(
    g: &'a Gunport,
    h: i64,
    limits: &Limits,
    build: Box<dyn FnOnce() -> Formulated<'a, Packing> + 'a>,
) -> Result<Option<Packing>> {
    let f = build();
    let goal = f
        .goal
        .as_ref()
        .ok_or_else(|| Error::Internal(format!("{}×{}: the model has no objective", g.m, g.n)))?;
    let mut search = Search::new(crate::solve::default_backend(&f.model), limits.deadline);
    let Some(lits) = search.backend.objective_at_most(goal.at_most_for(h)) else {
        return Ok(None);
    };
    Ok(match search.step(&lits) {
        Step::Found(a) => Some((f.decode)(&a)),
        Step::Exhausted | Step::Stopped => None,
    })
}

/// `reach` by the budget dynamic program.
pub(super) fn budget_reach(g: &Gunport, o: &Options, holes: i64) -> Result<Exact<Packing>> {
    if o.symmetry != Symmetry::None {
        return Err(Error::input("--symmetry applies to --method sat only"));
    }
    let r = budget::at_least(g.m, g.n, holes as usize).ok_or_else(|| {
        Error::input(format!(
            "--method budget: the narrower side may be at most {} (and the board more than one cell)",
            budget::MAX_WIDTH
        ))
    })?;
    let status = match (r.holes, r.stopped) {
        (_, true) => Status::Unknown,
        (Some(_), false) => Status::Solved,
        (None, false) => Status::Infeasible,
    };
    Ok(Exact {
        status,
        solutions: Vec::new(),
        count: 0,
        objective: r.holes.map(|h| h as i64),
        method: "dynamic program over rows within the charge budget".into(),
        scope: None,
        agreement: None,
        details: Some(serde_json::json!({
            "peak_states": r.peak_states,
            "total_states": r.total_states,
        })),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sands_construction_passes_the_verifier_on_every_board_with_a_side_divisible_by_3() {
        for m in 1..=24 {
            for n in 1..=40 {
                let g = Gunport::board(m, n);
                let Some(e) = sands_packing(&g) else {
                    assert!(g.sands().is_none() || m == 1 || n == 1, "{m}×{n}");
                    continue;
                };
                let holes = super::super::verify(&e.solutions[0]);
                assert_eq!(holes, Ok(m * n / 3), "{m}×{n}");
                assert_eq!(e.objective, g.domino_bound(), "{m}×{n}: Sands is the bound");
            }
        }
    }
}
