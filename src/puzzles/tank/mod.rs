//! Tank Attack (seed chapter 26, after Chlond 2008): every cell of an n×n board holds a tank
//! with a value in 1..n-1; a tank of value k attacks the tanks exactly k cells away in its row
//! and column; every tank's value must equal the number of tanks attacking it.

use crate::error::{Error, Result};
use crate::model::{Lit, Model, Sense, Var};

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
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

/// A map of cells (i, j, n-1) -> (i', j').
type CellMap = fn(usize, usize, usize) -> (usize, usize);

impl TankModel {
    /// Adds rows `x[c,k] = x[g(c),k]` for each generator g of the group.
    pub fn restrict_to_symmetric(&mut self, group: Symmetric) {
        let n = self.n;
        let m = n - 1;
        let generators: Vec<CellMap> = match group {
            Symmetric::D4 => vec![|i, j, _| (j, i), |i, j, m| (i, m - j)],
            Symmetric::Rot90 => vec![|i, j, m| (j, m - i)],
            Symmetric::Rot180 => vec![|i, j, m| (m - i, m - j)],
            Symmetric::Diagonal => vec![|i, j, _| (j, i)],
            Symmetric::Mirror => vec![|i, j, m| (i, m - j)],
        };
        for g in generators {
            for i in 0..n {
                for j in 0..n {
                    let (a, b) = g(i, j, m);
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// The exact search for sides 2 to [`exact::MAX_EXACT_SIDE`], SAT otherwise.
    #[default]
    Auto,
    /// The integer program on the SAT backend.
    Sat,
    /// The dedicated line-trie search ([`exact`]).
    Exact,
}

/// How many boards a query wants before it may stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// One board (solve): symmetry breaking is allowed.
    First,
    /// Up to two boards (uniqueness).
    Two,
    /// Every board (count).
    All,
}

/// What a query found.
pub struct Found {
    pub status: Status,
    /// The first boards found (at most two are kept).
    pub boards: Vec<Board>,
    /// Boards found in all; with `Want::All` and status `Solved`, the exact count.
    pub count: u64,
    pub method: String,
    pub model_size: Option<crate::model::Size>,
    pub engine_size: Option<crate::solve::EngineSize>,
    pub solver_calls: Option<u64>,
    pub seconds: f64,
}

use crate::solve::search::{Search, Status};
use std::time::{Duration, Instant};

/// Everything `find` is asked.
#[derive(Clone, Copy, Debug)]
pub struct Query {
    pub want: Want,
    pub method: Method,
    pub formulation: Formulation,
    /// Lex-leader rows in the SAT model when only one board is wanted.
    pub break_symmetry: bool,
    /// Look only at boards with this symmetry (SAT method).
    pub symmetric: Option<Symmetric>,
    pub time_limit: Option<Duration>,
}

impl Query {
    pub fn new(want: Want) -> Query {
        Query {
            want,
            method: Method::Auto,
            formulation: Formulation::Strong,
            break_symmetry: true,
            symmetric: None,
            time_limit: None,
        }
    }
}

impl Tank {
    /// Answers a query. With `Method::Auto`, `Want::First` runs a portfolio: SAT restricted to
    /// boards with all eight symmetries, then to boards invariant under the quarter turn (both
    /// fast, and a board found there is a board), then the complete method: the exact search for
    /// sides up to [`exact::MAX_EXACT_SIDE`], SAT otherwise. Only the complete method can prove
    /// that no board exists. Counts and uniqueness use the complete method alone.
    pub fn find(&self, q: Query) -> Found {
        let started = Instant::now();
        let deadline = q.time_limit.map(|t| started + t);
        let remaining = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let exact_ok = (2..=exact::MAX_EXACT_SIDE).contains(&self.n);
        let use_exact = match q.method {
            Method::Exact => exact_ok,
            Method::Sat => false,
            Method::Auto => exact_ok && q.symmetric.is_none(),
        };
        if q.want == Want::First && q.method == Method::Auto && q.symmetric.is_none() && self.n >= 4
        {
            for group in [Symmetric::D4, Symmetric::Rot90] {
                let mut found =
                    self.find_sat(Want::First, q.formulation, false, Some(group), remaining());
                match found.status {
                    Status::Solved => {
                        found.seconds = started.elapsed().as_secs_f64();
                        return found;
                    }
                    Status::Unknown => {
                        found.seconds = started.elapsed().as_secs_f64();
                        found.status = Status::Unknown;
                        return found;
                    }
                    _ => {}
                }
            }
        }
        let mut found = if use_exact {
            self.find_exact(q.want, remaining())
        } else {
            self.find_sat(
                q.want,
                q.formulation,
                q.break_symmetry,
                q.symmetric,
                remaining(),
            )
        };
        found.seconds = started.elapsed().as_secs_f64();
        found
    }

    fn find_exact(&self, want: Want, time_limit: Option<Duration>) -> Found {
        let started = Instant::now();
        let limit = want.limit();
        let deadline = time_limit.map(|t| started + t);
        let mut boards: Vec<Board> = Vec::new();
        let (count, complete) = exact::search(self.n, deadline, |b| {
            if boards.len() < 2 {
                boards.push(b.to_vec());
            }
            limit.is_none_or(|l| (boards.len() as u64) < l)
        });
        Found {
            status: status_of(count, complete, limit),
            boards,
            count,
            method: "exact line-trie search".into(),
            model_size: None,
            engine_size: None,
            solver_calls: None,
            seconds: started.elapsed().as_secs_f64(),
        }
    }

    fn find_sat(
        &self,
        want: Want,
        formulation: Formulation,
        break_symmetry: bool,
        symmetric: Option<Symmetric>,
        time_limit: Option<Duration>,
    ) -> Found {
        let started = Instant::now();
        let limit = want.limit();
        let mut tm = self.formulate(formulation, break_symmetry && want == Want::First);
        if let Some(group) = symmetric {
            tm.restrict_to_symmetric(group);
        }
        let mut search =
            Search::new(crate::solve::default_backend(&tm.model), time_limit).with_progress("tank");
        let mut boards: Vec<Board> = Vec::new();
        let (status, count) = search.enumerate(tm.decisions(), &[], limit, |a| {
            if boards.len() < 2 {
                boards.push(tm.decode(a));
            }
            true
        });
        let stats = search.finish();
        let mut method = crate::solve::sat_method(formulation);
        if let Some(g) = symmetric {
            method += &format!(", boards with {g:?} symmetry only");
        }
        Found {
            status: status_of(count, status == Status::Solved, limit),
            boards,
            count,
            method,
            model_size: Some(tm.model.size()),
            engine_size: Some(search.backend_size()),
            solver_calls: Some(stats.solver_calls),
            seconds: started.elapsed().as_secs_f64(),
        }
    }
}

impl Want {
    fn limit(self) -> Option<u64> {
        match self {
            Want::First => Some(1),
            Want::Two => Some(2),
            Want::All => None,
        }
    }
}

/// `Solved` when the wanted boards were found or the search was complete with some;
/// `Infeasible` when complete with none; `Unknown` otherwise.
fn status_of(count: u64, complete: bool, limit: Option<u64>) -> Status {
    if complete {
        if count == 0 {
            Status::Infeasible
        } else {
            Status::Solved
        }
    } else if limit.is_some_and(|l| count >= l) {
        Status::Solved
    } else {
        Status::Unknown
    }
}
