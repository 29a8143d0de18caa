//! The independent verifier of a placement.

use super::*;

/// The independent check: walks each piece's moves on the board, sharing nothing with the
/// model. `Err` names the first piece that attacks another.
pub fn verify(
    board: &Board,
    placement: &[Option<Piece>],
    holes_block: bool,
) -> std::result::Result<(), Broken> {
    let at = |k: usize| (k / board.cols + 1, k % board.cols + 1);
    let place = |k: usize| Place::Cell(k / board.cols, k % board.cols);
    if placement.len() != board.rows * board.cols {
        return Err("the placement does not match the board's size".into());
    }
    for (k, piece) in placement.iter().enumerate() {
        let Some(piece) = piece else { continue };
        let (r, c) = at(k);
        if !board.square[k] {
            return Err(Broken::at(
                format!("a piece stands on the hole at row {r}, column {c}"),
                [place(k)],
            ));
        }
        for t in reach(board, *piece, k, holes_block) {
            if let Some(other) = placement[t] {
                let (tr, tc) = at(t);
                return Err(Broken::at(
                    format!(
                        "the {} at row {r}, column {c} attacks the {} at row {tr}, column {tc}",
                        piece.letter(),
                        other.letter()
                    ),
                    [place(k), place(t)],
                ));
            }
        }
    }
    for (k, f) in board.fixed.iter().enumerate() {
        if let Some(f) = f {
            if placement[k] != Some(*f) {
                let (r, c) = at(k);
                return Err(Broken::at(
                    format!("row {r}, column {c} must keep its fixed {}", f.letter()),
                    [place(k)],
                ));
            }
        }
    }
    Ok(())
}

/// The squares a piece on cell `k` reaches, found by walking its moves on the board (lines pass
/// over other pieces; holes stop them only with `holes_block`). This is the verifier's own
/// reading of the rules and shares nothing with the model's `Board::attacks`.
pub fn reach(board: &Board, piece: Piece, k: usize, holes_block: bool) -> Vec<usize> {
    let (rows, cols) = (board.rows as i64, board.cols as i64);
    let cell = |r: i64, c: i64| -> Option<usize> {
        (r >= 0 && c >= 0 && r < rows && c < cols).then(|| (r * cols + c) as usize)
    };
    let (r, c) = ((k / board.cols) as i64, (k % board.cols) as i64);
    let rook = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let bishop = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let knight = [
        (1, 2),
        (2, 1),
        (-1, 2),
        (-2, 1),
        (1, -2),
        (2, -1),
        (-1, -2),
        (-2, -1),
    ];
    let (steps, slide): (Vec<(i64, i64)>, bool) = match piece {
        Piece::Queen => (rook.iter().chain(bishop.iter()).copied().collect(), true),
        Piece::Rook => (rook.to_vec(), true),
        Piece::Bishop => (bishop.to_vec(), true),
        Piece::Knight => (knight.to_vec(), false),
        Piece::King => (rook.iter().chain(bishop.iter()).copied().collect(), false),
    };
    let mut out = Vec::new();
    for (dr, dc) in steps {
        let (mut rr, mut cc) = (r + dr, c + dc);
        while let Some(t) = cell(rr, cc) {
            if board.square[t] {
                out.push(t);
            } else if holes_block {
                break;
            }
            if !slide {
                break;
            }
            rr += dr;
            cc += dc;
        }
    }
    out
}
