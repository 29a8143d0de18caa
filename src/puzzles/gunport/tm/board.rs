//! The optimum of one board `w × n` by meeting in the middle: the tables of one pass over the
//! top half (its rows kept for tracing), the best sum over pairs of frontiers that fit
//! together, and an optimal packing traced back row by row (see the parent module).

use super::*;

/// A row's table: each finished row's word (either way round: the tables are symmetric) and
/// the most holes of the rows so far that end in it, relative to `base`.
struct Table {
    values: Vec<u8>,
    base: i64,
    /// Maxima of blocks of 64 values, of 64 of those, and so on (built for tracing): words
    /// that share a prefix have consecutive ranks, so the best completion of a prefix is a
    /// range's maximum.
    maxima: Vec<Vec<u8>>,
}

/// Block size of [`Table::maxima`].
const BLOCK: usize = 64;

impl Table {
    fn new(values: &[u8], base: i64, traced: bool) -> Table {
        let mut maxima: Vec<Vec<u8>> = Vec::new();
        if traced {
            let mut level = values;
            while level.len() > 2 * BLOCK {
                let up: Vec<u8> = level
                    .chunks(BLOCK)
                    .map(|c| c.iter().copied().max().unwrap_or(0))
                    .collect();
                maxima.push(up);
                level = maxima.last().map_or(&[], |v| &v[..]);
            }
        }
        let kept = copied(values);
        Table {
            values: kept,
            base,
            maxima,
        }
    }

    fn holes(&self, words: &Words, word: &[u8]) -> Option<i64> {
        let v = self.values[words.rank(word)];
        (v != 0).then(|| v as i64 - 1 + self.base)
    }

    /// The stored value of `holes` (0 when it cannot be stored: no state has it).
    fn stored(&self, holes: i64) -> u8 {
        u8::try_from(holes - self.base + 1).unwrap_or(0)
    }

    /// The largest stored value at ranks `a..b`.
    fn best(&self, a: usize, b: usize) -> u8 {
        self.best_at(0, a, b)
    }

    fn best_at(&self, level: usize, a: usize, b: usize) -> u8 {
        let values = if level == 0 {
            &self.values[..]
        } else {
            &self.maxima[level - 1][..]
        };
        let scan = |x: usize, y: usize| values[x..y].iter().copied().max().unwrap_or(0);
        if b - a <= 2 * BLOCK || level >= self.maxima.len() {
            return scan(a, b);
        }
        let (lo, hi) = (a.div_ceil(BLOCK), b / BLOCK);
        if lo >= hi {
            return scan(a, b);
        }
        scan(a, lo * BLOCK)
            .max(self.best_at(level + 1, lo, hi))
            .max(scan(hi * BLOCK, b))
    }

    /// Whether some word with the prefix of length `i + 1` whose ranks start at `rank` (its
    /// last letter `last`) has the stored value `want` or more, out of `w` letters.
    fn reaches(&self, words: &Words, rank: usize, i: usize, last: u8, w: usize, want: u8) -> bool {
        let rest = w - 1 - i;
        let span = if last == H {
            words.no_hole_first(rest)
        } else {
            words.count[rest]
        };
        self.best(rank, rank + span) >= want
    }
}

/// The optimum of the `width × length` board by meeting in the middle, and with `draw` an
/// optimal packing traced back. `None` when `width` is 0 or above [`MAX_WIDTH`], or `length`
/// is 0. Runs in the caller's guarded stage like [`optima`]; see [`board_bytes`] for memory.
pub fn board(width: usize, length: usize, draw: bool) -> Option<BoardOptimum> {
    if width == 0 || width > MAX_WIDTH || length == 0 {
        return None;
    }
    let (top, bottom) = (length.div_ceil(2), length / 2);
    let mut pass = Pass::new(width);
    let table_bytes = pass.words.count[width] as u64;
    let kept = if draw { top + 1 } else { 2 };
    guard::charge(kept as u64 * table_bytes);
    pass.from[0] = 1;
    let mut base = 0i64;
    let mut dropped = 0u64;
    // tables[r]: after r rows (kept for every r when drawing, else for `bottom` and `top`).
    let mut tables: Vec<Option<Table>> = (0..=top).map(|_| None).collect();
    let keep = |r: usize| draw || r == top || r == bottom;
    for (r, slot) in tables.iter_mut().enumerate() {
        if r > 0 {
            guard::progress::message(&format!(
                "transfer matrix, width {width}: row {r} of {top} (each half of {length})"
            ));
            pass.row();
            dropped += pass.rebase(&mut base);
        }
        if keep(r) {
            *slot = Some(Table::new(pass.finished(), base, draw));
        }
    }
    let (t_top, t_bottom) = (tables[top].as_ref()?, tables[bottom].as_ref()?);
    // The join: for every top frontier, the best bottom frontier that fits it.
    pass.from[..t_bottom.values.len()].copy_from_slice(&t_bottom.values);
    for c in 0..width {
        guard::check();
        pass.sweep(c, Sweep::Join);
    }
    let best = t_top
        .values
        .iter()
        .zip(pass.finished())
        .enumerate()
        .filter(|(_, (&a, &b))| a != 0 && b != 0)
        .max_by_key(|(_, (&a, &b))| a as u16 + b as u16);
    let Some((at, (&a, &b))) = best else {
        guard::release(kept as u64 * table_bytes);
        return None;
    };
    let holes = a as i64 - 1 + t_top.base + b as i64 - 1 + t_bottom.base;
    let dominoes = draw.then(|| {
        let words = &pass.words;
        // The join's array is indexed by the top word read back to front; the tables are
        // symmetric, so the word itself serves.
        let upper = words.word(at, width);
        let lower = fitting(words, t_bottom, &upper, holes - t_top.holes(words, &upper)?)?;
        let mut dominoes = Vec::new();
        let kept: Vec<&Table> = tables.iter().flatten().collect();
        trace(words, &kept[..=top], &upper, top, &mut dominoes, |r, c| {
            (r, c)
        })?;
        trace(
            words,
            &kept[..=bottom],
            &lower,
            bottom,
            &mut dominoes,
            |r, c| (length - 1 - r, c),
        )?;
        for (c, (&u, &l)) in upper.iter().zip(&lower).enumerate() {
            if u == D && l == D {
                dominoes.push([(top - 1, c), (top, c)]);
            }
        }
        Some(dominoes)
    });
    guard::release(kept as u64 * table_bytes);
    Some(BoardOptimum {
        holes,
        dominoes: dominoes.flatten(),
        dropped,
    })
}

/// A bottom frontier that fits `upper` and has `want` holes in the bottom half.
fn fitting(words: &Words, table: &Table, upper: &[u8], want: i64) -> Option<Vec<u8>> {
    let w = upper.len();
    let want = table.stored(want);
    let mut lower = vec![F; w];
    fn walk(
        words: &Words,
        table: &Table,
        upper: &[u8],
        lower: &mut Vec<u8>,
        i: usize,
        rank: usize,
        want: u8,
    ) -> bool {
        let w = upper.len();
        if i == w {
            return table.values[rank] == want;
        }
        let choices: &[u8] = match upper[i] {
            D => &[D],
            H => &[F],
            _ => &[F, H],
        };
        for &d in choices {
            if d == H && i > 0 && lower[i - 1] == H {
                continue;
            }
            lower[i] = d;
            let rank = rank + d as usize * words.count[w - 1 - i];
            if table.reaches(words, rank, i, d, w, want)
                && walk(words, table, upper, lower, i + 1, rank, want)
            {
                return true;
            }
        }
        false
    }
    (want != 0 && walk(words, table, upper, &mut lower, 0, 0, want)).then_some(lower)
}

/// Traces `rows` rows back from the last one's word `last` through `tables` (`tables[r]`
/// after r rows), adding the dominoes that lie inside these rows, placed by `at(row, col)`.
/// `None` if no predecessor fits (which would be a bug: every kept value is reached).
fn trace(
    words: &Words,
    tables: &[&Table],
    last: &[u8],
    rows: usize,
    dominoes: &mut Vec<Domino>,
    at: impl Fn(usize, usize) -> (usize, usize),
) -> Option<()> {
    let w = last.len();
    let mut word = last.to_vec();
    for r in (0..rows).rev() {
        guard::check();
        let want =
            tables[r + 1].holes(words, &word)? - word.iter().filter(|&&d| d == H).count() as i64;
        // Search the row above (and how this row's cells are covered) left to right.
        let mut above = vec![F; w];
        let mut how = vec![Cover::Hole; w];
        let want = tables[r].stored(want);
        let found = want != 0
            && above_of(
                words, tables[r], &word, &mut above, &mut how, 0, 0, false, want,
            );
        if !found {
            return None;
        }
        for (c, cover) in how.iter().enumerate() {
            match cover {
                Cover::Vertical => dominoes.push(sorted(at(r.checked_sub(1)?, c), at(r, c))),
                Cover::Start => dominoes.push(sorted(at(r, c), at(r, c + 1))),
                _ => {}
            }
        }
        word = above;
    }
    Some(())
}

/// How a cell of a traced row is covered.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cover {
    Hole,
    /// The bottom of a vertical domino from the row above.
    Vertical,
    /// The left cell of a horizontal domino.
    Start,
    /// The right cell of a horizontal domino.
    End,
    /// The top of a vertical domino into the row below.
    Top,
}

fn sorted(a: (usize, usize), b: (usize, usize)) -> Domino {
    if a <= b {
        [a, b]
    } else {
        [b, a]
    }
}

/// Fills `above[i..]` and `how[i..]` so that the row above leads to `word` and the rows so far
/// ending in `above` have the stored value `want` in `table` (the first row's "above" is the
/// filled row over the board, the only state of `table` then). `rank` is the rank's part
/// from `above[..i]`; `open` says a horizontal domino started at cell `i − 1`. Prefixes whose
/// every completion is below `want` are cut.
#[allow(clippy::too_many_arguments)]
fn above_of(
    words: &Words,
    table: &Table,
    word: &[u8],
    above: &mut Vec<u8>,
    how: &mut Vec<Cover>,
    i: usize,
    rank: usize,
    open: bool,
    want: u8,
) -> bool {
    let w = word.len();
    if i == w {
        return !open && table.values[rank] == want;
    }
    // (letter above, how this cell is covered, whether a horizontal domino is open after it)
    let options: &[(u8, Cover, bool)] = match (word[i], open) {
        (H, false) => &[(F, Cover::Hole, false)],
        (D, false) => &[(F, Cover::Top, false), (H, Cover::Top, false)],
        (F, true) => &[(F, Cover::End, false), (H, Cover::End, false)],
        (F, false) if i + 1 < w && word[i + 1] == F => &[
            (D, Cover::Vertical, false),
            (F, Cover::Start, true),
            (H, Cover::Start, true),
        ],
        (F, false) => &[(D, Cover::Vertical, false)],
        _ => &[],
    };
    for &(a, cover, next_open) in options {
        if a == H && i > 0 && above[i - 1] == H {
            continue;
        }
        above[i] = a;
        how[i] = cover;
        let rank = rank + a as usize * words.count[w - 1 - i];
        if table.reaches(words, rank, i, a, w, want)
            && above_of(words, table, word, above, how, i + 1, rank, next_open, want)
        {
            return true;
        }
    }
    false
}
