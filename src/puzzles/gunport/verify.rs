//! The independent verifier of a packing.

use super::*;
use crate::puzzles::{Broken, Place};

/// The independent check: reads the rules off the packing, sharing nothing with the models.
/// `Err` names the first problem (cells counted from 1, as every Gunport message does) and the
/// cells it concerns.
pub fn verify(p: &Packing) -> std::result::Result<usize, Broken> {
    let mut owner: Vec<Option<usize>> = vec![None; p.m * p.n];
    for (k, [a, b]) in p.dominoes.iter().enumerate() {
        for &(r, c) in [a, b] {
            if r >= p.m || c >= p.n {
                return Err(format!(
                    "domino {} covers ({}, {}), outside the board",
                    k + 1,
                    r + 1,
                    c + 1
                )
                .into());
            }
        }
        let touching =
            (a.0 == b.0 && a.1.abs_diff(b.1) == 1) || (a.1 == b.1 && a.0.abs_diff(b.0) == 1);
        if !touching {
            return Err(Broken::at(
                format!(
                    "domino {} joins ({}, {}) and ({}, {}), which are not neighbours",
                    k + 1,
                    a.0 + 1,
                    a.1 + 1,
                    b.0 + 1,
                    b.1 + 1
                ),
                [Place::Cell(a.0, a.1), Place::Cell(b.0, b.1)],
            ));
        }
        for &(r, c) in [a, b] {
            if let Some(other) = owner[r * p.n + c] {
                return Err(Broken::at(
                    format!(
                        "cell ({}, {}) is covered twice, by dominoes {} and {}",
                        r + 1,
                        c + 1,
                        other + 1,
                        k + 1
                    ),
                    [Place::Cell(r, c)],
                ));
            }
            owner[r * p.n + c] = Some(k);
        }
    }
    let hole = |r: usize, c: usize| owner[r * p.n + c].is_none();
    for r in 0..p.m {
        for c in 0..p.n {
            let beside = [(r, c + 1), (r + 1, c)]
                .into_iter()
                .find(|&(a, b)| a < p.m && b < p.n && hole(a, b));
            if let (true, Some((a, b))) = (hole(r, c), beside) {
                return Err(Broken::at(
                    format!(
                        "holes at ({}, {}) and ({}, {}): another domino fits, the packing is not maximal",
                        r + 1,
                        c + 1,
                        a + 1,
                        b + 1
                    ),
                    [Place::Cell(r, c), Place::Cell(a, b)],
                ));
            }
        }
    }
    Ok(owner.iter().filter(|o| o.is_none()).count())
}

/// Whether the packing shows every given (0-based cells); `Err` names the first it does not.
/// Read off the dominoes alone, as [`verify`] does.
pub fn verify_givens(
    p: &Packing,
    givens: &[(usize, usize, Fix)],
) -> std::result::Result<(), Broken> {
    for &(r, c, fix) in givens {
        let covering: Vec<&Domino> = p.dominoes.iter().filter(|d| d.contains(&(r, c))).collect();
        let partner = match fix {
            Fix::Right => Some((r, c + 1)),
            Fix::Down => Some((r + 1, c)),
            _ => None,
        };
        let shown = match fix {
            Fix::Hole => covering.is_empty(),
            Fix::Covered => !covering.is_empty(),
            Fix::Right | Fix::Down => covering
                .iter()
                .any(|d| partner.is_some_and(|q| d.contains(&q))),
        };
        if !shown {
            return Err(Broken::at(
                format!(
                    "cell ({}, {}) is given {}, but the packing {}",
                    r + 1,
                    c + 1,
                    fix.word(),
                    if covering.is_empty() {
                        "leaves it a hole"
                    } else {
                        "covers it otherwise"
                    }
                ),
                [Place::Cell(r, c)],
            ));
        }
    }
    Ok(())
}
