//! Chess avoidance (seed chapter 60, after Chlond 2015; puzzles of Erich Friedman): place an
//! army of queens, rooks, bishops, knights and kings on a board with holes so that no piece
//! attacks another.

pub mod count;

use crate::error::{Error, Result};
use crate::model::{Lit, Model, Sense, Var};
use crate::puzzles::Query;
use crate::puzzles::{Exact, Formulation as Formulated, Goal as Objective, Meaning, Place, Puzzle};
use crate::solve::limits::Limits;
use crate::solve::search::Status;

/// The piece types, in the order used everywhere (`Q R B N K`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Piece {
    #[cfg_attr(feature = "cli", value(name = "Q"))]
    #[serde(rename = "Q")]
    Queen,
    #[cfg_attr(feature = "cli", value(name = "R"))]
    #[serde(rename = "R")]
    Rook,
    #[cfg_attr(feature = "cli", value(name = "B"))]
    #[serde(rename = "B")]
    Bishop,
    #[cfg_attr(feature = "cli", value(name = "N"))]
    #[serde(rename = "N")]
    Knight,
    #[cfg_attr(feature = "cli", value(name = "K"))]
    #[serde(rename = "K")]
    King,
}

pub const PIECES: [Piece; 5] = [
    Piece::Queen,
    Piece::Rook,
    Piece::Bishop,
    Piece::Knight,
    Piece::King,
];

impl Piece {
    pub fn letter(self) -> char {
        match self {
            Piece::Queen => 'Q',
            Piece::Rook => 'R',
            Piece::Bishop => 'B',
            Piece::Knight => 'N',
            Piece::King => 'K',
        }
    }

    pub fn from_letter(c: char) -> Option<Piece> {
        PIECES
            .iter()
            .copied()
            .find(|p| p.letter() == c.to_ascii_uppercase())
    }

    pub fn index(self) -> usize {
        PIECES.iter().position(|&p| p == self).expect("listed")
    }

    /// The piece's name, in words.
    pub fn name(self) -> &'static str {
        match self {
            Piece::Queen => "queen",
            Piece::Rook => "rook",
            Piece::Bishop => "bishop",
            Piece::Knight => "knight",
            Piece::King => "king",
        }
    }

    /// A silhouette of the piece as an SVG path in a 100×100 box (y down), on a common
    /// base: drawn as shapes, the pieces need no chess font (renderers without one drew
    /// nothing, or drew the font's glyphs off centre).
    fn outline(self) -> &'static str {
        match self {
            Piece::Queen => "M22 90H78V80H70L82 30L64 54L58 22L50 50L42 22L36 54L18 30L30 80H22Z",
            Piece::Rook => "M22 90H78V80H70L66 46H72V20H62V28H55V20H45V28H38V20H28V46H34L30 80H22Z",
            Piece::Bishop => {
                "M22 90H78V80H66C82 62 74 40 50 20C26 40 18 62 34 80H22ZM50 6A7 7 0 1 0 50.1 6Z"
            }
            Piece::Knight => {
                "M22 90H78V80H72C74 55 66 30 48 20L44 10L38 22C30 28 22 40 18 50L26 58L40 50C44 58 38 68 30 80H22Z"
            }
            Piece::King => "M22 90H78V80H68C76 64 82 46 62 38H38C18 46 24 64 32 80H22ZM46 6H54V14H62V22H54V34H46V22H38V14H46Z",
        }
    }
}

/// How many pieces of each type, indexed like [`PIECES`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Army(pub [usize; 5]);

impl Army {
    /// Reads `B4N2`, `QQ`, `Q8 K2`: letters, each optionally followed by a count (default 1).
    pub fn parse(text: &str) -> Result<Army> {
        let mut army = [0usize; 5];
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.is_empty() {
            return Err(Error::input(
                "the army is empty: give letters Q R B N K with counts, e.g. B4N2",
            ));
        }
        let mut i = 0;
        while i < chars.len() {
            let piece = Piece::from_letter(chars[i])
                .filter(|_| chars[i].is_ascii_alphabetic())
                .ok_or_else(|| {
                    Error::input(format!(
                        "army '{text}': '{}' is not a piece letter (Q R B N K)",
                        chars[i]
                    ))
                })?;
            i += 1;
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let count = if i == start {
                1
            } else {
                let digits: String = chars[start..i].iter().collect();
                digits
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n <= 10_000)
                    .ok_or_else(|| {
                        Error::input(format!("army '{text}': count '{digits}' is too large"))
                    })?
            };
            army[piece.index()] += count;
        }
        Ok(Army(army))
    }

    pub fn total(&self) -> usize {
        self.0.iter().sum()
    }

    pub fn of(piece: Piece, count: usize) -> Army {
        let mut a = [0; 5];
        a[piece.index()] = count;
        Army(a)
    }
}

impl std::fmt::Display for Army {
    /// Letters and counts ("B4N2"); "empty" for no pieces at all.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.iter().all(|&k| k == 0) {
            return f.write_str("empty");
        }
        for p in PIECES {
            if self.0[p.index()] > 0 {
                write!(f, "{}{}", p.letter(), self.0[p.index()])?;
            }
        }
        Ok(())
    }
}

/// A board: a rectangle of cells, each a square or a hole, some squares holding fixed pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    /// `true` for a square, `false` for a hole; row-major.
    pub square: Vec<bool>,
    /// Pieces the solution must keep, row-major.
    pub fixed: Vec<Option<Piece>>,
    /// An army given in the file (`army: B4N2`).
    pub army: Option<Army>,
}

pub const MAX_CELLS: usize = 4096;

impl Board {
    pub fn rectangle(rows: usize, cols: usize) -> Board {
        Board {
            rows,
            cols,
            square: vec![true; rows * cols],
            fixed: vec![None; rows * cols],
            army: None,
        }
    }

    /// Reads a board: rows of `.` (square), `#` (hole) or a piece letter (a fixed piece on a
    /// square); blank lines and lines starting with `;` are skipped; a line `army: B4N2` gives
    /// the army. Errors name the line.
    pub fn parse(text: &str) -> Result<Board> {
        let mut grid: Vec<Vec<char>> = Vec::new();
        let mut army = None;
        let mut army_line = 0;
        for (k, raw) in text.lines().enumerate() {
            let line_no = k + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with(';') {
                continue;
            }
            if let Some(rest) = line.strip_prefix("army:") {
                if army.is_some() {
                    return Err(Error::input(format!(
                        "line {line_no}: a second `army:` line (the first is line {army_line}); give the army once"
                    )));
                }
                army = Some(
                    Army::parse(rest).map_err(|e| Error::input(format!("line {line_no}: {e}")))?,
                );
                army_line = line_no;
                continue;
            }
            let row: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
            for &c in &row {
                if c != '.' && c != '#' && Piece::from_letter(c).is_none() {
                    return Err(Error::input(format!(
                        "line {line_no}: '{c}' is not '.', '#' or a piece letter (Q R B N K)"
                    )));
                }
            }
            if let Some(first) = grid.first() {
                if row.len() != first.len() {
                    return Err(Error::input(format!(
                        "line {line_no}: {} cells, but the board's first row has {} (rows must be the same length; use '#' for holes)",
                        row.len(),
                        first.len()
                    )));
                }
            }
            grid.push(row);
        }
        if grid.is_empty() {
            return Err(Error::input("the board has no rows"));
        }
        let (rows, cols) = (grid.len(), grid[0].len());
        if rows * cols > MAX_CELLS {
            return Err(Error::input(format!(
                "the board has {} cells; at most {MAX_CELLS}",
                rows * cols
            )));
        }
        let cells: Vec<char> = grid.into_iter().flatten().collect();
        Ok(Board {
            rows,
            cols,
            square: cells.iter().map(|&c| c != '#').collect(),
            fixed: cells.iter().map(|&c| Piece::from_letter(c)).collect(),
            army,
        })
    }

    pub fn squares(&self) -> Vec<usize> {
        (0..self.rows * self.cols)
            .filter(|&k| self.square[k])
            .collect()
    }

    fn at(&self, r: i64, c: i64) -> Option<usize> {
        (r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols)
            .then(|| r as usize * self.cols + c as usize)
    }

    /// Whether a piece of type `piece` on square `p` attacks square `q`. Holes never hold
    /// pieces; with `holes_block` a hole also stops a sliding piece's line.
    pub fn attacks(&self, piece: Piece, p: usize, q: usize, holes_block: bool) -> bool {
        if p == q {
            return false;
        }
        let (pr, pc) = ((p / self.cols) as i64, (p % self.cols) as i64);
        let (qr, qc) = ((q / self.cols) as i64, (q % self.cols) as i64);
        let (dr, dc) = (qr - pr, qc - pc);
        let line = dr == 0 || dc == 0;
        let diagonal = dr.abs() == dc.abs();
        let slides = match piece {
            Piece::Queen => line || diagonal,
            Piece::Rook => line,
            Piece::Bishop => diagonal,
            Piece::Knight => {
                return (dr.abs(), dc.abs()) == (1, 2) || (dr.abs(), dc.abs()) == (2, 1)
            }
            Piece::King => return dr.abs() <= 1 && dc.abs() <= 1,
        };
        if !slides {
            return false;
        }
        if holes_block {
            let (sr, sc) = (dr.signum(), dc.signum());
            let (mut r, mut c) = (pr + sr, pc + sc);
            while (r, c) != (qr, qc) {
                match self.at(r, c) {
                    Some(k) if !self.square[k] => return false,
                    _ => {}
                }
                r += sr;
                c += sc;
            }
        }
        true
    }

    /// The pieces of a placement as rows of text: the board's notation, with a piece letter on
    /// each occupied square (readable back as a board of fixed pieces).
    pub fn rows_with(&self, placement: &[Option<Piece>]) -> Vec<String> {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        let k = r * self.cols + c;
                        if !self.square[k] {
                            '#'
                        } else {
                            placement[k].map_or('.', |p| p.letter())
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// Which integer program to build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Formulation {
    /// The seed's pairwise rows: x[p,k] + a[q] <= 1 for every attack.
    #[default]
    Pairwise,
    /// Chlond's published form: per square, the attackers of q sum to at most M (1 - a[q]).
    Bigm,
    /// Pairwise rows for knights and kings; for lines, clique rows: on a line (a row, column or
    /// diagonal; split at holes with `--holes-block`), the sliding pieces that move along it on
    /// squares other than q, plus a[q], sum to at most one.
    Clique,
}

/// The model of a board and army, with the map back to placements.
pub struct ChessModel {
    pub model: Model,
    /// x[(square position, piece)]: piece of that type on that square.
    x: Vec<(usize, Piece, Var)>,
    cells: usize,
}

impl ChessModel {
    pub fn decisions(&self) -> Vec<Var> {
        self.x.iter().map(|t| t.2).collect()
    }

    pub fn decode(&self, assignment: &[bool]) -> Vec<Option<Piece>> {
        let mut out = vec![None; self.cells];
        for &(sq, p, v) in &self.x {
            if assignment[v.index()] {
                out[sq] = Some(p);
            }
        }
        out
    }

    /// Literals x[square, piece] of one type (for objectives).
    pub fn of_type(&self, piece: Piece) -> Vec<Lit> {
        self.x
            .iter()
            .filter(|t| t.1 == piece)
            .map(|t| t.2.pos())
            .collect()
    }

    pub fn all(&self) -> Vec<Lit> {
        self.x.iter().map(|t| t.2.pos()).collect()
    }
}

/// What to place: an exact army, or as many pieces as possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Exactly this army.
    Exactly(Army),
    /// At least this army, plus as many of `extra` as possible (`None`: any types).
    Maximise { base: Army, extra: Option<Piece> },
}

impl Board {
    pub fn formulate(&self, goal: Goal, formulation: Formulation, holes_block: bool) -> ChessModel {
        let mut model = Model::new();
        let squares = self.squares();
        let allowed: Vec<Piece> = match goal {
            Goal::Exactly(a) => PIECES
                .iter()
                .copied()
                .filter(|p| a.0[p.index()] > 0 || self.fixed.contains(&Some(*p)))
                .collect(),
            Goal::Maximise { base, extra } => PIECES
                .iter()
                .copied()
                .filter(|p| {
                    base.0[p.index()] > 0
                        || extra.is_none_or(|e| e == *p)
                        || self.fixed.contains(&Some(*p))
                })
                .collect(),
        };
        let mut x = Vec::new();
        let mut occ = vec![None; self.rows * self.cols];
        for &sq in &squares {
            let (r, c) = (sq / self.cols, sq % self.cols);
            let vars: Vec<Var> = allowed
                .iter()
                .map(|p| {
                    let v = model.var(format!("x_{r}_{c}_{}", p.letter()));
                    x.push((sq, *p, v));
                    v
                })
                .collect();
            // a[c] = sum_k x[c,k] <= 1: one piece per square; a is the row itself.
            let lits: Vec<Lit> = vars.iter().map(|v| v.pos()).collect();
            model.at_most_one("one piece per square", &lits);
            occ[sq] = Some(lits);
            if let Some(p) = self.fixed[sq] {
                let v = x
                    .iter()
                    .find(|t| t.0 == sq && t.1 == p)
                    .expect("allowed includes fixed")
                    .2;
                model.add("fixed piece", vec![(1, v.pos())], Sense::Eq, 1);
            }
        }
        match goal {
            Goal::Exactly(a) => {
                for p in &allowed {
                    let lits: Vec<Lit> =
                        x.iter().filter(|t| t.1 == *p).map(|t| t.2.pos()).collect();
                    model.cardinality("the army's roster", &lits, Sense::Eq, a.0[p.index()] as i64);
                }
            }
            Goal::Maximise { base, extra } => {
                for p in &allowed {
                    let lits: Vec<Lit> =
                        x.iter().filter(|t| t.1 == *p).map(|t| t.2.pos()).collect();
                    if base.0[p.index()] > 0 {
                        let sense = if extra == Some(*p) || extra.is_none() {
                            Sense::Ge
                        } else {
                            Sense::Eq
                        };
                        model.cardinality(
                            "the army's roster",
                            &lits,
                            sense,
                            base.0[p.index()] as i64,
                        );
                    } else if extra.is_some_and(|e| e != *p) {
                        model.cardinality("the army's roster", &lits, Sense::Eq, 0);
                    }
                }
                // The pieces of the type maximised (of every type with none given), the army's
                // among them: with `--type Q --army B2` the objective counts queens only.
                let terms = x
                    .iter()
                    .filter(|t| extra.is_none_or(|e| e == t.1))
                    .map(|t| (1, t.2.pos()))
                    .collect();
                model.maximise(terms);
            }
        }
        // Seed: x[p,k] + a[q] <= 1 whenever a type-k piece on p attacks q, for the types `keep`.
        let pairwise = |model: &mut Model, keep: &dyn Fn(Piece) -> bool| {
            for &(p, k, v) in x.iter().filter(|t| keep(t.1)) {
                for &q in &squares {
                    if self.attacks(k, p, q, holes_block) {
                        let mut terms = vec![(1, v.pos())];
                        terms.extend(occ[q].as_ref().expect("a square").iter().map(|&l| (1, l)));
                        model.add("attacker forces target empty", terms, Sense::Le, 1);
                    }
                }
            }
        };
        match formulation {
            Formulation::Pairwise => pairwise(&mut model, &|_| true),
            Formulation::Clique => {
                pairwise(&mut model, &|k| matches!(k, Piece::Knight | Piece::King));
                // Every pair of squares on a line is joined by the line's sliders, so a slider
                // on the line and any other piece on it exclude each other, and so do two
                // sliders: one clique row per square of each line.
                for (line, sliders) in self.lines(holes_block) {
                    for &q in &line {
                        let mut terms: Vec<(i64, Lit)> = x
                            .iter()
                            .filter(|&&(p, k, _)| {
                                p != q && line.contains(&p) && sliders.contains(&k)
                            })
                            .map(|t| (1, t.2.pos()))
                            .collect();
                        if terms.is_empty() {
                            continue;
                        }
                        terms.extend(occ[q].as_ref().expect("a square").iter().map(|&l| (1, l)));
                        model.add("one slider per line, alone (clique)", terms, Sense::Le, 1);
                    }
                }
            }
            Formulation::Bigm => {
                // Chlond: sum of the pieces attacking q <= M (1 - a[q]), M the number of terms.
                for &q in &squares {
                    let attackers: Vec<Lit> = x
                        .iter()
                        .filter(|&&(p, k, _)| self.attacks(k, p, q, holes_block))
                        .map(|t| t.2.pos())
                        .collect();
                    if attackers.is_empty() {
                        continue;
                    }
                    let big = attackers.len() as i64;
                    let mut terms: Vec<(i64, Lit)> = attackers.iter().map(|&l| (1, l)).collect();
                    terms.extend(occ[q].as_ref().expect("a square").iter().map(|&l| (big, l)));
                    model.add("attacked squares stay empty (big M)", terms, Sense::Le, big);
                }
            }
        }
        ChessModel {
            model,
            x,
            cells: self.rows * self.cols,
        }
    }
}

/// The squares a piece on cell `k` reaches, found by walking its moves on the board (lines pass
/// over other pieces; holes stop them only with `holes_block`). This is the verifier's own
/// reading of the rules and shares nothing with [`Board::attacks`].
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

impl Board {
    /// Maximal lines of squares (rows, columns, both diagonals; split at holes when they
    /// block), each with the piece types that slide along it.
    fn lines(&self, holes_block: bool) -> Vec<(Vec<usize>, Vec<Piece>)> {
        let mut out = Vec::new();
        let (rows, cols) = (self.rows as i64, self.cols as i64);
        let dirs: [((i64, i64), [Piece; 2]); 4] = [
            ((0, 1), [Piece::Queen, Piece::Rook]),
            ((1, 0), [Piece::Queen, Piece::Rook]),
            ((1, 1), [Piece::Queen, Piece::Bishop]),
            ((1, -1), [Piece::Queen, Piece::Bishop]),
        ];
        for ((dr, dc), sliders) in dirs {
            for r in 0..rows {
                for c in 0..cols {
                    // Start only where the previous cell along the direction is off the board.
                    let (pr, pc) = (r - dr, c - dc);
                    if pr >= 0 && pc >= 0 && pr < rows && pc < cols {
                        continue;
                    }
                    let mut segment = Vec::new();
                    let (mut rr, mut cc) = (r, c);
                    while rr >= 0 && cc >= 0 && rr < rows && cc < cols {
                        let k = (rr * cols + cc) as usize;
                        if self.square[k] {
                            segment.push(k);
                        } else if holes_block && !segment.is_empty() {
                            out.push((std::mem::take(&mut segment), sliders.to_vec()));
                        }
                        rr += dr;
                        cc += dc;
                    }
                    if segment.len() >= 2 {
                        out.push((segment, sliders.to_vec()));
                    }
                }
            }
        }
        out.retain(|(l, _)| l.len() >= 2);
        out
    }
}

/// The independent check: walks each piece's moves on the board, sharing nothing with the
/// model. `Err` names the first piece that attacks another.
pub fn verify(
    board: &Board,
    placement: &[Option<Piece>],
    holes_block: bool,
) -> std::result::Result<(), String> {
    let at = |k: usize| (k / board.cols + 1, k % board.cols + 1);
    if placement.len() != board.rows * board.cols {
        return Err("the placement does not match the board's size".into());
    }
    for (k, piece) in placement.iter().enumerate() {
        let Some(piece) = piece else { continue };
        let (r, c) = at(k);
        if !board.square[k] {
            return Err(format!("a piece stands on the hole at row {r}, column {c}"));
        }
        for t in reach(board, *piece, k, holes_block) {
            if let Some(other) = placement[t] {
                let (tr, tc) = at(t);
                return Err(format!(
                    "the {} at row {r}, column {c} attacks the {} at row {tr}, column {tc}",
                    piece.letter(),
                    other.letter()
                ));
            }
        }
    }
    for (k, f) in board.fixed.iter().enumerate() {
        if let Some(f) = f {
            if placement[k] != Some(*f) {
                let (r, c) = at(k);
                return Err(format!(
                    "row {r}, column {c} must keep its fixed {}",
                    f.letter()
                ));
            }
        }
    }
    Ok(())
}

/// The placement's army.
pub fn army_of(placement: &[Option<Piece>]) -> Army {
    let mut a = [0; 5];
    for p in placement.iter().flatten() {
        a[p.index()] += 1;
    }
    Army(a)
}

/// The placement as SVG: squares light, holes dark, pieces as drawn silhouettes.
pub fn to_svg(board: &Board, placement: &[Option<Piece>]) -> String {
    let mut pic = crate::render::svg::GridPicture::new(board.rows, board.cols, "Chess avoidance");
    for r in 0..board.rows {
        for c in 0..board.cols {
            let k = r * board.cols + c;
            if !board.square[k] {
                pic.fill(r, c, "#3a3a3a");
                continue;
            }
            pic.fill(
                r,
                c,
                if (r + c) % 2 == 0 {
                    "#f0d9b5"
                } else {
                    "#b58863"
                },
            );
            if let Some(p) = placement[k] {
                let colour = if board.fixed[k].is_some() {
                    "#1f5fa8"
                } else {
                    "#111"
                };
                let title = match board.fixed[k] {
                    Some(_) => format!("{} (given)", p.name()),
                    None => p.name().to_string(),
                };
                pic.shape(r, c, p.outline(), colour, &title);
            }
        }
    }
    pic.finish()
}

/// Peaceable armies as SVG: the board's squares, white pieces drawn light with a dark edge,
/// black pieces dark.
pub fn peaceable_svg(piece: Piece, s: &PeaceableSolution) -> String {
    let n = s.rows.len();
    let title = format!("Peaceable armies of {}", piece.name());
    let mut pic = crate::render::svg::GridPicture::new(n, n, &title);
    for (r, row) in s.rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            pic.fill(
                r,
                c,
                if (r + c) % 2 == 0 {
                    "#f0d9b5"
                } else {
                    "#b58863"
                },
            );
            match ch {
                'W' => pic.shape(
                    r,
                    c,
                    piece.outline(),
                    "#fafafa",
                    &format!("white {}", piece.name()),
                ),
                'B' => pic.shape(
                    r,
                    c,
                    piece.outline(),
                    "#111",
                    &format!("black {}", piece.name()),
                ),
                _ => {}
            }
        }
    }
    pic.finish()
}

/// Peaceable armies: `m` white and `m` black pieces of one type on an open n×n board, no piece
/// attacking one of the other colour; the model maximises m. Returns the model with the white
/// and black variables (row-major).
pub fn peaceable_model(n: usize, piece: Piece) -> (Model, Vec<Var>, Vec<Var>) {
    let board = Board::rectangle(n, n);
    let mut model = Model::new();
    let white: Vec<Var> = (0..n * n)
        .map(|k| model.var(format!("w_{}_{}", k / n, k % n)))
        .collect();
    let black: Vec<Var> = (0..n * n)
        .map(|k| model.var(format!("b_{}_{}", k / n, k % n)))
        .collect();
    for k in 0..n * n {
        model.at_most_one("one piece per square", &[white[k].pos(), black[k].pos()]);
    }
    for (p, w) in white.iter().enumerate() {
        for (q, b) in black.iter().enumerate() {
            if board.attacks(piece, p, q, false) {
                model.at_most_one("no white piece attacks a black one", &[w.pos(), b.pos()]);
            }
        }
    }
    let mut terms: Vec<(i64, Lit)> = white.iter().map(|v| (1, v.pos())).collect();
    terms.extend(black.iter().map(|v| (-1, v.pos())));
    model.add("armies of equal size", terms, Sense::Eq, 0);
    // Colour swap maps solutions onto solutions: put a white piece on the first occupied square
    // (if the first square holding any piece holds a black one, swap the colours).
    for k in 0..n * n {
        let mut terms = vec![(1, black[k].pos())];
        terms.extend((0..k).map(|j| (-1, white[j].pos())));
        terms.extend((0..k).map(|j| (-1, black[j].pos())));
        model.add("colour symmetry breaking", terms, Sense::Le, 0);
    }
    model.maximise(white.iter().map(|v| (1, v.pos())).collect());
    (model, white, black)
}

/// The options of every chess query.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default, rename_all = "kebab-case")]
pub struct Options {
    /// The army, e.g. B4N2 (letters Q R B N K with counts); overrides the file's `army:` line
    #[cfg_attr(feature = "cli", arg(long))]
    pub army: Option<String>,
    /// Holes stop the lines of queens, rooks and bishops (default: they do not, as in the seed)
    #[cfg_attr(feature = "cli", arg(long))]
    pub holes_block: bool,
    /// Which integer program to solve
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Formulation::Pairwise))]
    pub formulation: Formulation,
    /// Count with the integer program (blocking clauses) instead of the exact counter
    #[cfg_attr(feature = "cli", arg(long))]
    pub sat: bool,
    /// Maximise: as many pieces of this type as fit, besides the army (`optimum`, `max`)
    #[cfg_attr(feature = "cli", arg(long = "type", value_enum, value_name = "T"))]
    #[serde(rename = "type")]
    pub piece: Option<Piece>,
    /// Maximise: as many pieces of any types as fit, besides the army
    #[cfg_attr(feature = "cli", arg(long))]
    pub any: bool,
}

/// A chess-avoidance instance: the board, what to place, and whether holes block lines.
pub struct Instance {
    pub board: Board,
    pub goal: Goal,
    pub holes_block: bool,
}

/// A placement, with its board rows for people and scripts.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Solution {
    /// One string per row: `.` empty, `#` hole, a piece letter.
    pub rows: Vec<String>,
    pub army: String,
    #[serde(skip)]
    pub pieces: Vec<Option<Piece>>,
}

/// Reads the board word: an existing file, or `ROWSxCOLS` / `N` for an open board.
pub fn load_board(word: &str) -> Result<Board> {
    let arg = word.trim();
    match crate::input::read_file(arg) {
        Ok(text) => Board::parse(&text).map_err(|e| Error::input(format!("{arg}: {e}"))),
        Err(unread) => {
            let dims: Vec<&str> = arg.split(['x', 'X']).collect();
            let parsed: Option<Vec<usize>> = dims.iter().map(|d| d.parse().ok()).collect();
            match parsed.as_deref() {
                Some([n]) if (1..=64).contains(n) => Ok(Board::rectangle(*n, *n)),
                Some([r, c]) if (1..=64).contains(r) && (1..=64).contains(c) => {
                    Ok(Board::rectangle(*r, *c))
                }
                Some(_) => Err(Error::input(format!(
                    "board size '{arg}': sides must be 1 to 64"
                ))),
                None => Err(unread),
            }
        }
    }
}

impl Board {
    /// The army to place: `--army` if given, else the file's; checked against the board's
    /// squares and fixed pieces. `required`: an exact army must be named somewhere.
    pub fn army_for(&self, given: Option<&str>, required: bool) -> Result<Army> {
        let army = match given {
            Some(text) => Army::parse(text)?,
            None => match self.army {
                Some(a) => a,
                None if required => return Err(Error::input(
                    "no army given: add --army (e.g. --army B4N2) or an `army:` line to the board file",
                )),
                None => Army::default(),
            },
        };
        let squares = self.squares().len();
        if army.total() > squares {
            return Err(Error::input(format!(
                "the army {army} has {} pieces but the board has only {squares} squares",
                army.total()
            )));
        }
        let fixed = army_of(&self.fixed);
        if let Some(p) = PIECES
            .iter()
            .find(|p| fixed.0[p.index()] > army.0[p.index()])
        {
            return Err(Error::input(format!(
                "the board fixes {} {} but the army {army} has only {}",
                fixed.0[p.index()],
                p.letter(),
                army.0[p.index()]
            )));
        }
        Ok(army)
    }
}

/// Chess avoidance as a [`Puzzle`].
pub struct ChessAvoidance;

/// The seed's puzzle (chapter 60), the built-in example.
pub const SEED_BOARD: &str = include_str!("../../../data/chess/friedman-b4n2.txt");

impl Puzzle for ChessAvoidance {
    const NAME: &'static str = "chess";
    const TITLE: &'static str = "Chess avoidance";
    const ABOUT: &'static str =
        "Chess avoidance: place an army on a board with holes, no piece attacking another";
    const INPUT: &'static str =
        "A board file (rows of '.', '#' and fixed piece letters), or ROWSxCOLS / N for an open board";
    const EXAMPLE: &'static [&'static str] = &["data/chess/friedman-b4n2.txt"];
    const NOUN: &'static str = "placement";
    const TOUR: Query = Query::Unique;
    const ALIASES: &'static [(&'static str, &'static str)] = &[("max", "optimum")];
    const HAS_GOAL: bool = true;
    const GOAL_NAME: &'static str = "pieces";

    type Instance = Instance;
    type Options = Options;
    type Solution = Solution;

    fn read(words: &[String], o: &Options) -> Result<Instance> {
        let [word] =
            crate::puzzles::words(words, "one word, a board file or a size such as 8 or 5x6")?;
        // The built-in example reads from the binary, so the tour works from any folder.
        let board = if word == Self::EXAMPLE[0] && !crate::input::exists(word) {
            Board::parse(SEED_BOARD)?
        } else {
            load_board(word)?
        };
        let goal = match (o.piece, o.any) {
            (None, false) => Goal::Exactly(board.army_for(o.army.as_deref(), true)?),
            (Some(_), true) => return Err(Error::input("give at most one of --type T and --any")),
            // The base army comes from --army only: a file's `army:` line describes its puzzle,
            // not a floor for maxima.
            (extra, _) => Goal::Maximise {
                base: Board {
                    army: None,
                    ..board.clone()
                }
                .army_for(o.army.as_deref(), false)?,
                extra,
            },
        };
        let board = match goal {
            Goal::Maximise { .. } => Board {
                army: None,
                ..board
            },
            Goal::Exactly(_) => board,
        };
        Ok(Instance {
            board,
            goal,
            holes_block: o.holes_block,
        })
    }

    fn describe(i: &Instance) -> String {
        let what = match i.goal {
            Goal::Exactly(a) => format!("army {a}"),
            Goal::Maximise { extra, base } => {
                let most = match extra {
                    Some(p) => format!("most {} pieces", p.letter()),
                    None => "most pieces of any type".into(),
                };
                if base.0.iter().all(|&k| k == 0) {
                    most
                } else {
                    format!("{most}, with the army {base}")
                }
            }
        };
        format!("Chess avoidance {}×{}, {what}", i.board.rows, i.board.cols)
    }

    fn formulate<'a>(i: &'a Instance, o: &Options, _: Query) -> Result<Formulated<'a, Solution>> {
        let mut cm = i.board.formulate(i.goal, o.formulation, i.holes_block);
        let meanings =
            cm.x.iter()
                .map(|&(sq, p, _)| {
                    Meaning::at(
                        Place::Cell(sq / i.board.cols, sq % i.board.cols),
                        p.letter().to_string(),
                    )
                })
                .collect();
        let goal = cm.model.objective.as_ref().map(|_| Objective {
            name: "pieces",
            maximise: true,
            per_unit: 1,
            at_zero: 0,
            proved_bound: None,
            step: 1,
        });
        let model = std::mem::take(&mut cm.model);
        let decisions = cm.decisions();
        let board = &i.board;
        let mut f = Formulated::new(
            model,
            decisions,
            meanings,
            move |a| {
                let pieces = cm.decode(a);
                Solution {
                    rows: board.rows_with(&pieces),
                    army: army_of(&pieces).to_string(),
                    pieces,
                }
            },
            crate::solve::sat_method(o.formulation),
        );
        f.goal = goal;
        Ok(f)
    }

    fn verify(i: &Instance, s: &Solution) -> std::result::Result<String, String> {
        verify(&i.board, &s.pieces, i.holes_block)?;
        let army = army_of(&s.pieces);
        match i.goal {
            Goal::Exactly(a) if a != army => {
                Err(format!("the placement holds {army}, not the army {a}"))
            }
            Goal::Maximise { base, .. }
                if PIECES.iter().any(|p| army.0[p.index()] < base.0[p.index()]) =>
            {
                Err(format!(
                    "the placement holds {army}, less than the army {base}"
                ))
            }
            _ => Ok(format!("{army}, no piece attacks another")),
        }
    }

    fn text(_: &Instance, s: &Solution) -> String {
        s.rows.join("\n") + "\n"
    }

    fn svg(i: &Instance, _: &Options, s: &Solution) -> String {
        to_svg(&i.board, &s.pieces)
    }

    fn exact(
        i: &Instance,
        o: &Options,
        query: Query,
        _limits: &Limits,
    ) -> Option<Result<Exact<Solution>>> {
        let Goal::Exactly(army) = i.goal else {
            return None;
        };
        if query != Query::Count || o.sat {
            return None;
        }
        let n = count::count(&i.board, army, i.holes_block)?;
        Some(Ok(Exact {
            status: if n == 0 {
                Status::Infeasible
            } else {
                Status::Solved
            },
            solutions: Vec::new(),
            count: n as u128,
            objective: None,
            method: "exact bitset counter".into(),
            scope: None,
            details: None,
        }))
    }
}

/// Peaceable armies as a runnable formulation: maximise m, the size of each army.
pub fn peaceable<'a>(n: usize, piece: Piece) -> Formulated<'a, PeaceableSolution> {
    let (model, white, black) = peaceable_model(n, piece);
    let decisions: Vec<Var> = white.iter().chain(&black).copied().collect();
    let meanings = (0..2 * n * n)
        .map(|k| {
            Meaning::at(
                Place::Cell((k % (n * n)) / n, k % n),
                if k < n * n { "W" } else { "B" },
            )
        })
        .collect();
    let mut f = Formulated::new(
        model,
        decisions,
        meanings,
        move |x| {
            let at = |k: usize| {
                if x[white[k].index()] {
                    'W'
                } else if x[black[k].index()] {
                    'B'
                } else {
                    '.'
                }
            };
            PeaceableSolution {
                rows: (0..n)
                    .map(|r| (0..n).map(|c| at(r * n + c)).collect())
                    .collect(),
            }
        },
        "SAT (CaDiCaL), peaceable-armies model".into(),
    );
    f.goal = Some(Objective {
        name: "pieces a side",
        maximise: true,
        per_unit: 1,
        at_zero: 0,
        proved_bound: None,
        step: 1,
    });
    f
}

/// Two armies: `W` white, `B` black, `.` empty, one string a row.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PeaceableSolution {
    pub rows: Vec<String>,
}

/// The independent check of peaceable armies: equal sizes, and walking every white piece's
/// moves on the open board reaches no black piece.
pub fn verify_peaceable(piece: Piece, s: &PeaceableSolution) -> std::result::Result<usize, String> {
    let n = s.rows.len();
    let cells: Vec<char> = s.rows.iter().flat_map(|r| r.chars()).collect();
    let (w, b) = (
        cells.iter().filter(|&&c| c == 'W').count(),
        cells.iter().filter(|&&c| c == 'B').count(),
    );
    if w != b {
        return Err(format!("{w} white pieces but {b} black ones"));
    }
    let board = Board::rectangle(n, n);
    for k in (0..n * n).filter(|&k| cells[k] == 'W') {
        if let Some(t) = reach(&board, piece, k, false)
            .into_iter()
            .find(|&t| cells[t] == 'B')
        {
            return Err(format!(
                "the white piece on square {k} attacks the black one on {t}"
            ));
        }
    }
    Ok(w)
}
