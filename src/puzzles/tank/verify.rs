//! The independent verifier of a board.

use super::*;
use crate::puzzles::{Broken, Place};

/// The independent check: reads the rule off the board directly, sharing nothing with the
/// model. `Err` names the first cell that breaks the rule, or the first given (row, column,
/// value, 0-based cells) the board does not show.
pub fn verify(board: &Board, givens: &[(usize, usize, u32)]) -> std::result::Result<(), Broken> {
    let n = board.len();
    if n == 0 {
        return Err("the board is empty".into());
    }
    for &(i, j, v) in givens {
        match board.get(i).and_then(|row| row.get(j)) {
            Some(&x) if x == v => {}
            Some(&x) => {
                return Err(Broken::at(
                    format!(
                        "cell ({}, {}) holds {x}, but its given value is {v}",
                        i + 1,
                        j + 1
                    ),
                    [Place::Cell(i, j)],
                ))
            }
            None => {
                return Err(
                    format!("the given cell ({}, {}) is off the board", i + 1, j + 1).into(),
                )
            }
        }
    }
    for (i, row) in board.iter().enumerate() {
        if row.len() != n {
            return Err(format!("row {} has {} cells, expected {n}", i + 1, row.len()).into());
        }
        for (j, &v) in row.iter().enumerate() {
            if v == 0 || v as usize >= n {
                return Err(Broken::at(
                    format!(
                        "cell ({}, {}) holds {v}, outside 1..{}",
                        i + 1,
                        j + 1,
                        n - 1
                    ),
                    [Place::Cell(i, j)],
                ));
            }
        }
    }
    for i in 0..n {
        for j in 0..n {
            let mut hits = 0;
            for (a, row) in board.iter().enumerate() {
                for (b, &v) in row.iter().enumerate() {
                    let same_line = (a == i) != (b == j);
                    let distance = a.abs_diff(i) + b.abs_diff(j);
                    if same_line && distance == v as usize {
                        hits += 1;
                    }
                }
            }
            if hits != board[i][j] {
                return Err(Broken::at(
                    format!(
                        "cell ({}, {}) holds {} but is attacked by {hits} tanks",
                        i + 1,
                        j + 1,
                        board[i][j]
                    ),
                    [Place::Cell(i, j)],
                ));
            }
        }
    }
    Ok(())
}
