//! Tank Attack (seed chapter 26, after Chlond 2008): every cell of an n×n board holds a tank
//! with a value in 1..n-1; a tank of value k attacks the tanks exactly k cells away in its row
//! and column; every tank's value must equal the number of tanks attacking it.

use crate::error::{Error, Result};
use crate::geometry::{Grid, Symmetry};
use crate::model::{Lit, Model, Sense, Var};
use crate::puzzles::Query;
use crate::puzzles::{Exact, Formulated, Meaning, Phase, Place, Purpose, Puzzle};
use crate::solve::limits::Limits;
use crate::solve::search::Status;

/// The largest side accepted: beyond it the one-hot model has more than 10^5 variables and
/// no method here finishes.
pub const MAX_SIDE: usize = 40;

/// A Tank Attack instance: the side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tank {
    pub n: usize,
}

/// A board of values, row by row.
pub type Board = Vec<Vec<u32>>;

/// Which integer program to build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Formulation {
    /// The seed's model as printed: one-hot values, `attackers = sum k x[i,j,k]`.
    Seed,
    #[default]
    /// The one-hot model plus order variables (`value >= t`), the attack rule as a cardinality
    /// equality, and the global balance identity (a valid redundant row).
    Strong,
}

/// The model of one instance, with the map from cells and values to variables.
pub struct TankModel {
    pub model: Model,
    n: usize,
    /// x[(i*n + j)*(n-1) + (k-1)]: cell (i,j) holds value k.
    x: Vec<Var>,
}

impl TankModel {
    /// The variable "cell (i,j) holds value k".
    pub fn x(&self, i: usize, j: usize, k: usize) -> Var {
        self.x[(i * self.n + j) * (self.n - 1) + (k - 1)]
    }

    /// The decision variables: solutions are counted as distinct assignments of these.
    pub fn decisions(&self) -> &[Var] {
        &self.x
    }

    /// The board an assignment describes.
    pub fn decode(&self, assignment: &[bool]) -> Board {
        let n = self.n;
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        (1..n)
                            .find(|&k| assignment[self.x(i, j, k).index()])
                            .unwrap_or(0) as u32
                    })
                    .collect()
            })
            .collect()
    }
}

/// How many cells a tank of value `k` at (i,j) can reach on an n×n board (0 to 4).
fn targets(n: usize, i: usize, j: usize, k: usize) -> i64 {
    [i >= k, i + k < n, j >= k, j + k < n]
        .iter()
        .filter(|&&b| b)
        .count() as i64
}

impl Tank {
    /// A validated instance: the side must be between 1 and [`MAX_SIDE`].
    pub fn new(n: i64) -> Result<Tank> {
        if n < 1 {
            return Err(Error::input(format!(
                "board side {n} is not a positive number; give the side n of an n×n board, 1 to {MAX_SIDE}"
            )));
        }
        if n as usize > MAX_SIDE {
            return Err(Error::input(format!(
                "board side {n} is too large: at most {MAX_SIDE} (the model would have {} variables)",
                n * n * (n - 1)
            )));
        }
        Ok(Tank { n: n as usize })
    }

    /// Reads the side from a command-line word.
    pub fn parse(word: &str) -> Result<Tank> {
        let word = word.trim();
        let n: i64 = word.parse().map_err(|_| {
            let digits = word.strip_prefix('-').unwrap_or(word);
            if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
                return Error::input(format!(
                    "board side {word} is far out of range; give the side n of an n×n board, 1 to {MAX_SIDE}"
                ));
            }
            Error::input(format!(
                "board side '{word}' is not a whole number; give the side n of an n×n board, 1 to {MAX_SIDE}"
            ))
        })?;
        Tank::new(n)
    }

    /// Builds the chosen formulation. `break_symmetry` adds lex-leader rows for the board's
    /// rotations and reflections: they keep at least one board of every symmetry class, so they
    /// serve `solve` but never `count`.
    pub fn formulate(&self, formulation: Formulation, break_symmetry: bool) -> TankModel {
        let n = self.n;
        let mut model = Model::new();
        let mut x = Vec::with_capacity(n * n * n.saturating_sub(1));
        for i in 0..n {
            for j in 0..n {
                for k in 1..n {
                    x.push(model.var(format!("x_{i}_{j}_{k}")));
                }
            }
        }
        let tm = TankModel { model, n, x };
        let mut tm = tm;
        if n == 1 {
            // Values run over 1..n-1, which is empty: the one cell cannot hold a value.
            tm.model.add("one value per cell", Vec::new(), Sense::Eq, 1);
            return tm;
        }
        let cells: Vec<(usize, usize)> = (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).collect();
        // Seed: sum_k x[i,j,k] = 1.
        for &(i, j) in &cells {
            let lits: Vec<Lit> = (1..n).map(|k| tm.x(i, j, k).pos()).collect();
            tm.model.exactly_one("one value per cell", &lits);
        }
        let attackers = |tm: &TankModel, i: usize, j: usize| -> Vec<Lit> {
            let mut a: Vec<Lit> = (0..n)
                .filter(|&p| p != j)
                .map(|p| tm.x(i, p, j.abs_diff(p)).pos())
                .collect();
            a.extend(
                (0..n)
                    .filter(|&q| q != i)
                    .map(|q| tm.x(q, j, i.abs_diff(q)).pos()),
            );
            a
        };
        match formulation {
            Formulation::Seed => {
                // Seed: sum_p x[i,p,|j-p|] + sum_q x[q,j,|i-q|] = sum_k k x[i,j,k].
                for &(i, j) in &cells {
                    let mut terms: Vec<(i64, Lit)> =
                        attackers(&tm, i, j).into_iter().map(|l| (1, l)).collect();
                    terms.extend((1..n).map(|k| (-(k as i64), tm.x(i, j, k).pos())));
                    tm.model.add("attackers equal value", terms, Sense::Eq, 0);
                }
            }
            Formulation::Strong => {
                // Order variables y[i,j,t] <=> value >= t, for t = 2..n-1:
                // sum_{k>=t} x[i,j,k] - y[i,j,t] = 0.
                let mut y = vec![Vec::new(); n * n];
                for &(i, j) in &cells {
                    for t in 2..n {
                        let v = tm.model.var(format!("y_{i}_{j}_{t}"));
                        let mut terms: Vec<(i64, Lit)> =
                            (t..n).map(|k| (1, tm.x(i, j, k).pos())).collect();
                        terms.push((-1, v.pos()));
                        tm.model.add("order variables", terms, Sense::Eq, 0);
                        y[i * n + j].push(v);
                    }
                }
                // The rule as a cardinality equality: attackers = 1 + sum_t y[i,j,t].
                for &(i, j) in &cells {
                    let mut terms: Vec<(i64, Lit)> =
                        attackers(&tm, i, j).into_iter().map(|l| (1, l)).collect();
                    terms.extend(y[i * n + j].iter().map(|v| (-1, v.pos())));
                    tm.model.add("attackers equal value", terms, Sense::Eq, 1);
                }
                // Balance: summing the rule over all cells, the values add up to the number of
                // (tank, target) pairs, sum_ij value = sum_ij targets(i,j,value). In order
                // variables, targets(value) = targets(1) - sum_t d_t y_t with
                // d_t = targets(t-1) - targets(t) >= 0, so
                // sum_ij sum_t (1 + d_t) y[i,j,t] = sum_ij (targets(i,j,1) - 1).
                let mut terms = Vec::new();
                let mut rhs = 0;
                for &(i, j) in &cells {
                    rhs += targets(n, i, j, 1) - 1;
                    for (idx, t) in (2..n).enumerate() {
                        let d = targets(n, i, j, t - 1) - targets(n, i, j, t);
                        terms.push((1 + d, y[i * n + j][idx].pos()));
                    }
                }
                tm.model
                    .add("balance of values and targets", terms, Sense::Eq, rhs);
            }
        }
        if break_symmetry && n >= 2 {
            tm.add_symmetry_breaking();
        }
        tm
    }
}

/// Boards invariant under a group of the square's symmetries. Restricting `solve` to them
/// is a heuristic: a symmetric board is a board, but a board need not be symmetric.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Symmetric {
    /// All eight rotations and reflections (generated by the transpose and a mirror).
    D4,
    /// Invariant under the quarter turn.
    Rot90,
    /// Invariant under the half turn.
    Rot180,
    /// Invariant under reflection in the main diagonal.
    Diagonal,
    /// Invariant under reflection in the vertical axis.
    Mirror,
}

impl Symmetric {
    /// Generators of the group, as symmetries of the square.
    fn generators(self) -> &'static [Symmetry] {
        match self {
            Symmetric::D4 => &[Symmetry::Transpose, Symmetry::Mirror],
            Symmetric::Rot90 => &[Symmetry::QuarterTurn],
            Symmetric::Rot180 => &[Symmetry::HalfTurn],
            Symmetric::Diagonal => &[Symmetry::Transpose],
            Symmetric::Mirror => &[Symmetry::Mirror],
        }
    }

    /// The boards it stands for, in words ("D4-symmetric boards").
    pub fn describe(self) -> &'static str {
        match self {
            Symmetric::D4 => "D4-symmetric boards",
            Symmetric::Rot90 => "quarter-turn-symmetric boards",
            Symmetric::Rot180 => "half-turn-symmetric boards",
            Symmetric::Diagonal => "diagonally symmetric boards",
            Symmetric::Mirror => "mirror-symmetric boards",
        }
    }
}

impl TankModel {
    /// Adds rows `x[c,k] = x[g(c),k]` for each generator g of the group.
    pub fn restrict_to_symmetric(&mut self, group: Symmetric) {
        let n = self.n;
        let grid = Grid::square(n);
        for &g in group.generators() {
            for (i, j) in grid.all() {
                let (a, b) = grid.map(g, (i, j));
                if (a, b) == (i, j) {
                    continue;
                }
                for k in 1..n {
                    let terms = vec![(1, self.x(i, j, k).pos()), (-1, self.x(a, b, k).pos())];
                    self.model.add("symmetric board", terms, Sense::Eq, 0);
                }
            }
        }
    }

    /// `value(a) <= value(b)` through the one-hot variables: value(a) >= t implies
    /// value(b) >= t, i.e. sum_{k>=t} x[a,k] - sum_{k>=t} x[b,k] <= 0.
    fn value_at_most(&mut self, a: (usize, usize), b: (usize, usize)) {
        let n = self.n;
        for t in 2..n {
            let mut terms: Vec<(i64, Lit)> =
                (t..n).map(|k| (1, self.x(a.0, a.1, k).pos())).collect();
            terms.extend((t..n).map(|k| (-1, self.x(b.0, b.1, k).pos())));
            self.model.add("symmetry breaking", terms, Sense::Le, 0);
        }
    }

    /// Rotate the board so that (0,0) holds the least corner value, then transpose if needed so
    /// that value(0,1) <= value(1,0); the transpose fixes (0,0) and swaps the other two
    /// off-diagonal corners, so both rows hold together for some image of every board.
    fn add_symmetry_breaking(&mut self) {
        let m = self.n - 1;
        for c in [(0, m), (m, 0), (m, m)] {
            self.value_at_most((0, 0), c);
        }
        if self.n >= 3 {
            self.value_at_most((0, 1), (1, 0));
        }
    }
}

/// The independent check: reads the rule off the board directly, sharing nothing with the
/// model. `Err` names the first cell that breaks the rule.
pub fn verify(board: &Board) -> std::result::Result<(), String> {
    let n = board.len();
    if n == 0 {
        return Err("the board is empty".into());
    }
    for (i, row) in board.iter().enumerate() {
        if row.len() != n {
            return Err(format!(
                "row {} has {} cells, expected {n}",
                i + 1,
                row.len()
            ));
        }
        for (j, &v) in row.iter().enumerate() {
            if v == 0 || v as usize >= n {
                return Err(format!(
                    "cell ({}, {}) holds {v}, outside 1..{}",
                    i + 1,
                    j + 1,
                    n - 1
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
                return Err(format!(
                    "cell ({}, {}) holds {} but is attacked by {hits} tanks",
                    i + 1,
                    j + 1,
                    board[i][j]
                ));
            }
        }
    }
    Ok(())
}

/// The tanks that attack cell (i,j) (0-based), for drawing.
pub fn attackers_of(board: &Board, i: usize, j: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (a, row) in board.iter().enumerate() {
        for (b, &v) in row.iter().enumerate() {
            if (a == i) != (b == j) && a.abs_diff(i) + b.abs_diff(j) == v as usize {
                out.push((a, b));
            }
        }
    }
    out
}

pub mod exact;
pub mod lines;

/// The board as text: one row per line, values aligned.
pub fn to_text(board: &Board) -> String {
    let rows: Vec<Vec<String>> = board
        .iter()
        .map(|r| r.iter().map(|v| v.to_string()).collect())
        .collect();
    crate::render::text::grid(&rows)
}

/// The board as an SVG picture; `mark` (0-based) rings a cell and shades its attackers.
pub fn to_svg(board: &Board, mark: Option<(usize, usize)>) -> String {
    let n = board.len();
    let mut pic = crate::render::svg::GridPicture::new(n, n, &format!("Tank Attack {n}×{n}"));
    let shaded: Vec<(usize, usize)> = mark
        .map(|(i, j)| attackers_of(board, i, j))
        .unwrap_or_default();
    for (i, row) in board.iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            let colour = if shaded.contains(&(i, j)) {
                "#d08a4f"
            } else {
                "#f4f1e8"
            };
            pic.fill(i, j, colour);
            pic.label(i, j, &v.to_string(), "#222");
        }
    }
    if let Some((i, j)) = mark {
        pic.ring(i, j, "#1f5fa8");
    }
    pic.finish()
}

/// Which engine answers a query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The exact search for sides 2 to 8, SAT otherwise.
    #[default]
    Auto,
    /// The integer program on the SAT backend.
    Sat,
    /// The dedicated line search over the feasible-line automaton (sides 2 to 12).
    Exact,
}

/// How a Tank Attack query is answered.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default, rename_all = "kebab-case")]
pub struct Options {
    /// Which engine answers
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Method::Auto))]
    pub method: Method,
    /// Which integer program the SAT method solves
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Formulation::Strong))]
    pub formulation: Formulation,
    /// Keep every symmetric copy when finding one board (no lex-leader rows)
    #[cfg_attr(feature = "cli", arg(long))]
    pub no_symmetry_breaking: bool,
    /// Look only at boards with this symmetry (answers then hold among those boards only)
    #[cfg_attr(feature = "cli", arg(long, value_enum, value_name = "GROUP"))]
    pub symmetric: Option<Symmetric>,
    /// In the SVG, ring cell ROW,COL (1-based) and shade the tanks attacking it
    #[cfg_attr(feature = "cli", arg(long, value_name = "ROW,COL"))]
    pub mark: Option<String>,
    /// Run only part K of N of the exact search (its first rows K, K + N, K + 2N, ...); the
    /// answer holds for that part, and the parts' counts add up to the whole
    #[cfg_attr(feature = "cli", arg(long, value_name = "K/N"))]
    pub part: Option<String>,
}

/// Reads `--part K/N` as (K − 1, N).
fn parse_part(part: &Option<String>) -> Result<Option<(usize, usize)>> {
    let Some(text) = part else { return Ok(None) };
    let bad = || {
        Error::input(format!(
            "--part '{text}' is not a part: give K/N with 1 <= K <= N, e.g. 3/40"
        ))
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok(Some((k - 1, n)))
}

/// Reads `--mark ROW,COL` (1-based) as a 0-based cell of an n×n board.
fn parse_mark(mark: &Option<String>, n: usize) -> Result<Option<(usize, usize)>> {
    let Some(text) = mark else { return Ok(None) };
    let bad = || {
        Error::input(format!(
            "--mark '{text}' is not a cell: give ROW,COL with both between 1 and {n}"
        ))
    };
    let (r, c) = text.split_once(',').ok_or_else(bad)?;
    let r: usize = r.trim().parse().map_err(|_| bad())?;
    let c: usize = c.trim().parse().map_err(|_| bad())?;
    if r == 0 || c == 0 || r > n || c > n {
        return Err(bad());
    }
    Ok(Some((r - 1, c - 1)))
}

/// Tank Attack as a [`Puzzle`].
pub struct TankAttack;

impl Puzzle for TankAttack {
    const NAME: &'static str = "tank";
    const TITLE: &'static str = "Tank Attack";
    const ABOUT: &'static str =
        "Tank Attack: every tank's value equals the number of tanks attacking it";
    const INPUT: &'static str = "The side n of the n×n board";
    const EXAMPLE: &'static [&'static str] = &["6"];
    const NOUN: &'static str = "board";

    type Instance = Tank;
    type Options = Options;
    type Solution = Board;

    fn read(words: &[String], options: &Options) -> Result<Tank> {
        let [word] = crate::puzzles::words(words, "one word, the side n of the n×n board")?;
        let t = Tank::parse(word)?;
        parse_mark(&options.mark, t.n)?;
        if parse_part(&options.part)?.is_some()
            && (options.method == Method::Sat || options.symmetric.is_some())
        {
            return Err(Error::input(
                "--part splits the exact search: it cannot go with --method sat or --symmetric",
            ));
        }
        let exact_asked = options.method == Method::Exact || options.part.is_some();
        if exact_asked && !(2..=exact::MAX_EXACT_SIDE).contains(&t.n) {
            return Err(Error::input(format!(
                "--method exact handles sides 2 to {}; this board has side {} (use --method sat)",
                exact::MAX_EXACT_SIDE,
                t.n
            )));
        }
        Ok(t)
    }

    fn describe(t: &Tank) -> String {
        format!("Tank Attack {0}×{0}", t.n)
    }

    fn formulate<'a>(t: &'a Tank, o: &Options, query: Query) -> Result<Formulated<'a, Board>> {
        let mut tm = t.formulate(
            o.formulation,
            Purpose::of(query) == Purpose::Find && !o.no_symmetry_breaking,
        );
        if let Some(g) = o.symmetric {
            tm.restrict_to_symmetric(g);
        }
        Ok(t.formulated(tm, o.formulation, o.symmetric))
    }

    fn verify(_: &Tank, board: &Board) -> std::result::Result<String, String> {
        verify(board).map(|()| "every tank is attacked by as many tanks as its value".into())
    }

    fn text(_: &Tank, board: &Board) -> String {
        to_text(board)
    }

    fn svg(t: &Tank, o: &Options, board: &Board) -> String {
        to_svg(board, parse_mark(&o.mark, t.n).ok().flatten())
    }

    fn exact(
        t: &Tank,
        o: &Options,
        query: Query,
        _limits: &Limits,
    ) -> Option<Result<Exact<Board>>> {
        let applies = (2..=exact::MAX_EXACT_SIDE).contains(&t.n) && o.symmetric.is_none();
        let part = parse_part(&o.part).ok().flatten();
        let wanted = o.method == Method::Exact
            || part.is_some()
            || (o.method == Method::Auto && t.n <= exact::AUTO_EXACT_SIDE);
        let limit = match query {
            Query::First => Some(1),
            Query::Unique => Some(2),
            Query::Count => None,
            _ => return None,
        };
        if !(applies && wanted) {
            return None;
        }
        let mut boards: Vec<Board> = Vec::new();
        let (count, complete, firsts) = exact::search(t.n, part, |b| {
            if boards.len() < 2 {
                boards.push(b.to_vec());
            }
            limit.is_none_or(|l| (boards.len() as u64) < l)
        });
        let status = if complete {
            if count == 0 {
                Status::Infeasible
            } else {
                Status::Solved
            }
        } else if limit.is_some_and(|l| count >= l) {
            Status::Solved
        } else {
            Status::Unknown
        };
        Some(Ok(Exact {
            status,
            solutions: boards,
            count: count as u128,
            objective: None,
            method: "exact line search".into(),
            details: firsts.map(|f| serde_json::json!({ "first_rows": f })),
            scope: part.map(|(k, n)| {
                format!(
                    "part {} of {n} of the exact search (the orbits led by its first rows {}, {}, ... of {})",
                    k + 1,
                    k + 1,
                    k + 1 + n,
                    firsts.map_or("all".to_string(), |f| f.to_string())
                )
            }),
        }))
    }

    /// Finding one board: boards with all eight symmetries, then quarter-turn-symmetric ones
    /// (small, fast searches; a board found there is a board) before the full model.
    fn phases<'a>(t: &'a Tank, o: &Options, query: Query) -> Vec<Phase<'a, Board>> {
        if query != Query::First || o.method != Method::Auto || o.symmetric.is_some() || t.n < 4 {
            return Vec::new();
        }
        let formulation = o.formulation;
        [Symmetric::D4, Symmetric::Rot90]
            .into_iter()
            .map(|g| Phase {
                scope: g.describe().to_string(),
                share: 1.0,
                unlimited: None,
                build: Box::new(move || {
                    let mut tm = t.formulate(formulation, false);
                    tm.restrict_to_symmetric(g);
                    t.formulated(tm, formulation, None)
                }),
            })
            .collect()
    }
}

impl Tank {
    /// The runner's view of a model built by [`Tank::formulate`].
    fn formulated<'a>(
        &self,
        tm: TankModel,
        formulation: Formulation,
        symmetric: Option<Symmetric>,
    ) -> Formulated<'a, Board> {
        let n = self.n;
        let meanings = (0..n * n)
            .flat_map(|c| {
                (1..n).map(move |k| Meaning::at(Place::Cell(c / n, c % n), k.to_string()))
            })
            .collect();
        let decisions = tm.decisions().to_vec();
        let model = tm.model.clone();
        let mut f = Formulated::new(
            model,
            decisions,
            meanings,
            move |a| tm.decode(a),
            crate::solve::sat_method(formulation),
        );
        f.block_by_true_decisions = true;
        f.scope = symmetric.map(|g| g.describe().to_string());
        f
    }
}
