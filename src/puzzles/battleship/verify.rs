//! An independent check of a battleship solution, given only as the set of ship cells. It
//! shares no code with the models or with [`super::Layout`]: it finds the ships itself by
//! flood fill, and derives each cell's symbol itself.

use super::{Grid, Symbol};
use crate::puzzles::{Broken, Place};

/// Checks that `occupied` (row-major) solves `p`; on failure says what is wrong and where, and
/// names the cells. Returns the number of ships.
pub fn verify(p: &Grid, occupied: &[bool]) -> Result<usize, Broken> {
    let (rows, cols) = (p.rows, p.cols);
    if occupied.len() != rows * cols {
        return Err(format!(
            "the solution has {} cells, the board {}",
            occupied.len(),
            rows * cols
        )
        .into());
    }
    let at = |i: isize, j: isize| -> bool {
        i >= 0
            && j >= 0
            && (i as usize) < rows
            && (j as usize) < cols
            && occupied[i as usize * cols + j as usize]
    };
    // No two ships touch diagonally: a diagonal pair of ship cells is either two ships
    // touching or one bent ship, both wrong.
    for i in 0..rows as isize {
        for j in 0..cols as isize {
            let other = [j + 1, j - 1].into_iter().find(|&b| at(i + 1, b));
            if let (true, Some(b)) = (at(i, j), other) {
                return Err(Broken::at(
                    format!(
                        "ship cells touch diagonally at row {}, column {}",
                        i + 1,
                        j + 1
                    ),
                    [
                        Place::Cell(i as usize, j as usize),
                        Place::Cell(i as usize + 1, b as usize),
                    ],
                ));
            }
        }
    }
    // Ships are the orthogonally connected groups of ship cells.
    let mut group = vec![usize::MAX; rows * cols];
    let mut lengths: Vec<usize> = Vec::new();
    let mut symbol = vec![Symbol::Water; rows * cols];
    for start in 0..rows * cols {
        if !occupied[start] || group[start] != usize::MAX {
            continue;
        }
        let id = lengths.len();
        let mut stack = vec![start];
        let mut members = Vec::new();
        group[start] = id;
        while let Some(c) = stack.pop() {
            members.push(c);
            let (i, j) = ((c / cols) as isize, (c % cols) as isize);
            for (di, dj) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                let (a, b) = (i + di, j + dj);
                if at(a, b) {
                    let n = a as usize * cols + b as usize;
                    if group[n] == usize::MAX {
                        group[n] = id;
                        stack.push(n);
                    }
                }
            }
        }
        members.sort_unstable();
        let same_row = members.iter().all(|&c| c / cols == members[0] / cols);
        let same_col = members.iter().all(|&c| c % cols == members[0] % cols);
        if !same_row && !same_col {
            return Err(Broken::at(
                format!(
                    "the ship at row {}, column {} is not straight",
                    members[0] / cols + 1,
                    members[0] % cols + 1
                ),
                members.iter().map(|&c| Place::Cell(c / cols, c % cols)),
            ));
        }
        let n = members.len();
        for (t, &c) in members.iter().enumerate() {
            symbol[c] = if n == 1 {
                Symbol::Sub
            } else if t == 0 {
                if same_row {
                    Symbol::Left
                } else {
                    Symbol::Top
                }
            } else if t == n - 1 {
                if same_row {
                    Symbol::Right
                } else {
                    Symbol::Bottom
                }
            } else {
                Symbol::Middle
            };
        }
        lengths.push(n);
    }
    // The counts (before the fleet: a count is about a row or column the picture can ring).
    for i in 0..rows {
        let have = (0..cols).filter(|&j| occupied[i * cols + j]).count();
        if let Some(want) = p.row_counts[i] {
            if have != want {
                return Err(Broken::at(
                    format!("row {} has {have} ship cells, its count is {want}", i + 1),
                    (0..cols).map(|j| Place::Cell(i, j)),
                ));
            }
        }
    }
    for j in 0..cols {
        let have = (0..rows).filter(|&i| occupied[i * cols + j]).count();
        if let Some(want) = p.col_counts[j] {
            if have != want {
                return Err(Broken::at(
                    format!(
                        "column {} has {have} ship cells, its count is {want}",
                        j + 1
                    ),
                    (0..rows).map(|i| Place::Cell(i, j)),
                ));
            }
        }
    }
    // The fleet.
    let longest = lengths
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(p.fleet.len());
    for len in 1..=longest {
        let have = lengths.iter().filter(|&&l| l == len).count();
        let want = p.fleet.get(len - 1).copied().unwrap_or(0);
        if have != want {
            return Err(
                format!("{have} ships of length {len} placed, the fleet has {want}").into(),
            );
        }
    }
    // The clues.
    for (c, clue) in p.clues.iter().enumerate() {
        if let Some(want) = *clue {
            // A clue of a ship part of no kind asks only that the cell is not water.
            let kept = match want {
                Symbol::Ship => symbol[c] != Symbol::Water,
                _ => symbol[c] == want,
            };
            if !kept {
                return Err(Broken::at(
                    format!(
                        "row {}, column {} shows {} but the clue there is {}",
                        c / cols + 1,
                        c % cols + 1,
                        symbol[c].name(),
                        want.name()
                    ),
                    [Place::Cell(c / cols, c % cols)],
                ));
            }
        }
    }
    Ok(lengths.len())
}
