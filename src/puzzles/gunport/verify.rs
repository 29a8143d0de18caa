//! The independent verifier of a packing.

use super::*;

/// The independent check: reads the rules off the packing, sharing nothing with the models.
/// `Err` names the first problem.
pub fn verify(p: &Packing) -> std::result::Result<usize, String> {
    let mut owner: Vec<Option<usize>> = vec![None; p.m * p.n];
    for (k, [a, b]) in p.dominoes.iter().enumerate() {
        for &(r, c) in [a, b] {
            if r >= p.m || c >= p.n {
                return Err(format!(
                    "domino {} covers ({r}, {c}), outside the board",
                    k + 1
                ));
            }
        }
        let touching =
            (a.0 == b.0 && a.1.abs_diff(b.1) == 1) || (a.1 == b.1 && a.0.abs_diff(b.0) == 1);
        if !touching {
            return Err(format!(
                "domino {} joins ({}, {}) and ({}, {}), which are not neighbours",
                k + 1,
                a.0,
                a.1,
                b.0,
                b.1
            ));
        }
        for &(r, c) in [a, b] {
            if let Some(other) = owner[r * p.n + c] {
                return Err(format!(
                    "cell ({r}, {c}) is covered twice, by dominoes {} and {}",
                    other + 1,
                    k + 1
                ));
            }
            owner[r * p.n + c] = Some(k);
        }
    }
    let hole = |r: usize, c: usize| owner[r * p.n + c].is_none();
    for r in 0..p.m {
        for c in 0..p.n {
            if hole(r, c) && ((c + 1 < p.n && hole(r, c + 1)) || (r + 1 < p.m && hole(r + 1, c))) {
                return Err(format!(
                    "holes at ({r}, {c}) and a neighbour: another domino fits, the packing is not maximal"
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
) -> std::result::Result<(), String> {
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
            return Err(format!(
                "cell ({}, {}) is given {}, but the packing {}",
                r + 1,
                c + 1,
                fix.word(),
                if covering.is_empty() {
                    "leaves it a hole"
                } else {
                    "covers it otherwise"
                }
            ));
        }
    }
    Ok(())
}
