//! The Kino & Uno integer program, with their constraint names.
//!
//! Variables `x[p][t][r]`: tile t turned r steps on place p (with `copies`, one t per copy of a
//! tile, as the paper's first model; otherwise one per kind of tile with C2′ counting copies).
//! For every edge shared by two places, three variables say which colour its line has; a
//! placement implies the colour of each of its sides, so touching sides match (C4 in clause
//! form, equivalent to the paper's equalities given C1). C5, sub-loop elimination, is added
//! lazily by [`TantrixModel::cuts`]: a solution whose designated lines form several loops gets,
//! for each loop S, the row "some designated line crosses the cut around S".
//!
//! The same model also searches for a board: over a region of candidate cells, a variable per
//! cell says whether it is used; the n used cells are the board.

use super::watcher::{crossing, LoopWatcher};
use super::{Board, Challenge, Colour, Hex, Placement};
use crate::model::{Constraint, Kind, Lit, Model, Sense, Var};
use crate::puzzles::Place;
use std::collections::HashMap;

/// Which constraints, so that the paper's tables can be reproduced.
#[derive(Clone, Debug)]
pub struct Options {
    /// One variable per copy of a tile (C2) instead of per kind (C2′).
    pub copies: bool,
    /// C6: a place with two neighbours takes its designated line through them.
    pub c6: bool,
    /// C7–C9: no loop of this many tiles (3, 4, 5), stated in advance.
    pub short_loops: Vec<usize>,
    /// Connectivity stated in advance: every cell is reached from a root cell within n/2
    /// steps along designated lines (layered reachability), so no sub-loop can occur and no
    /// lazy C5 round is needed.
    pub reach: bool,
    /// State the loop's degree: exactly two designated lines at every place (implied).
    pub degree: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            copies: false,
            c6: true,
            short_loops: vec![3, 4, 5],
            reach: false,
            degree: true,
        }
    }
}

const COLOURS: [Colour; 3] = [Colour::Red, Colour::Blue, Colour::Yellow];

fn colour_index(c: Colour) -> usize {
    COLOURS
        .iter()
        .position(|&d| d == c)
        .expect("Discovery colours")
}

/// A place's options: variable, index into the challenge's tiles, turns.
type Choice = (Var, usize, usize);

pub struct TantrixModel {
    pub model: Model,
    pub challenge: Challenge,
    /// The region: the board, or the candidate cells of a board search.
    pub cells: Vec<Hex>,
    /// Board search: whether each cell is used.
    pub used: Option<Vec<Var>>,
    choices: Vec<Vec<Choice>>,
    /// Shared edges (cell, cell) and the variable "this edge carries the designated colour".
    edges: Vec<(usize, usize)>,
    designated: Vec<Var>,
    hole_free: bool,
    index: HashMap<Hex, usize>,
}

impl TantrixModel {
    /// The fixed-board model.
    pub fn fixed(ch: &Challenge, board: &Board, opt: &Options) -> TantrixModel {
        build(ch, &board.cells, None, false, opt)
    }

    /// A board search over `region` (which must contain the origin): the origin is used and
    /// holds a tile 1 unturned, which removes translations and rotations of the whole layout.
    pub fn free(ch: &Challenge, region: &[Hex], hole_free: bool, opt: &Options) -> TantrixModel {
        let origin = region
            .iter()
            .position(|&h| h == Hex::new(0, 0))
            .expect("the region contains the origin");
        build(ch, region, Some(origin), hole_free, opt)
    }

    /// The placement on each region cell (`None` where unused).
    pub fn decode(&self, a: &[bool]) -> Vec<Option<Placement>> {
        self.choices
            .iter()
            .map(|ch| {
                ch.iter()
                    .find(|(v, _, _)| a[v.index()])
                    .map(|&(_, t, r)| Placement {
                        tile: self.challenge.tiles[t].number,
                        rot: r,
                    })
            })
            .collect()
    }

    /// The board and placements of a solution.
    pub fn solution(&self, a: &[bool]) -> (Board, Vec<Placement>) {
        let d = self.decode(a);
        let mut cells = Vec::new();
        let mut placed = Vec::new();
        for (c, p) in d.iter().enumerate() {
            if let Some(p) = p {
                cells.push(self.cells[c]);
                placed.push(*p);
            }
        }
        (
            Board::new(cells).expect("region cells are distinct"),
            placed,
        )
    }

    /// What each placement variable means ("tile t turned k times" at its cell), in the order
    /// of [`placement_vars`](Self::placement_vars).
    pub fn meanings(&self) -> Vec<crate::puzzles::Meaning> {
        self.choices
            .iter()
            .enumerate()
            .flat_map(|(c, ch)| {
                let h = self.cells[c];
                ch.iter().map(move |&(_, t, r)| {
                    crate::puzzles::Meaning::at(
                        crate::puzzles::Place::Hex(h.q, h.r),
                        format!("{}@{r}", self.challenge.tiles[t].number),
                    )
                })
            })
            .collect()
    }

    /// The placement variables: two solutions differ in at least one of these that is true in
    /// each (every solution places exactly n tiles).
    pub fn placement_vars(&self) -> Vec<Var> {
        self.choices
            .iter()
            .flat_map(|c| c.iter().map(|x| x.0))
            .collect()
    }

    /// C5 rows violated by `a` (one per loop when the designated lines form several), and with
    /// `hole_free` one row per hole of the board found.
    pub fn cuts(&self, a: &[bool]) -> Vec<Constraint> {
        let n = self.cells.len();
        let on = |v: &Var| a[v.index()];
        let used: Vec<bool> = match &self.used {
            Some(u) => u.iter().map(on).collect(),
            None => vec![true; n],
        };
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (e, &(p, q)) in self.edges.iter().enumerate() {
            if on(&self.designated[e]) {
                adj[p].push(q);
                adj[q].push(p);
            }
        }
        let mut comp = vec![usize::MAX; n];
        let mut loops: Vec<Vec<usize>> = Vec::new();
        for s in 0..n {
            if !used[s] || comp[s] != usize::MAX {
                continue;
            }
            let id = loops.len();
            let mut stack = vec![s];
            comp[s] = id;
            let mut members = Vec::new();
            while let Some(c) = stack.pop() {
                members.push(c);
                for &d in &adj[c] {
                    if comp[d] == usize::MAX {
                        comp[d] = id;
                        stack.push(d);
                    }
                }
            }
            loops.push(members);
        }
        let mut out = Vec::new();
        if loops.len() > 1 && self.used.is_none() {
            // On a fixed board a sub-loop S may cut the board in pieces; every piece C is a
            // set the single loop must also leave, so "a designated line crosses the cut
            // around C" holds too (e.g. the cell inside a ring of six).
            out.extend(self.piece_cuts(&loops));
        }
        if loops.len() > 1 {
            for (id, members) in loops.iter().enumerate() {
                let mut cut = self.cut_around(|c| comp[c] == id);
                if let Some(u) = &self.used {
                    cut.terms
                        .extend(members.iter().map(|&c| (1, u[c].negated())));
                }
                out.push(cut);
            }
        }
        if self.hole_free {
            if let Some(u) = &self.used {
                out.extend(self.hole_cuts(&used, u));
            }
        }
        out
    }

    /// C5 during search: a [`LoopWatcher`] over this model's designated lines.
    pub fn watcher(&self) -> LoopWatcher {
        let n = self.cells.len();
        LoopWatcher {
            edges: self.edges.clone(),
            designated: self.designated.clone(),
            used: self.used.clone(),
            tiles: self.challenge.n,
            edge_of: self
                .designated
                .iter()
                .enumerate()
                .map(|(e, v)| (*v, e))
                .collect(),
            parent: (0..n).collect(),
            size: vec![1; n],
            joined: Vec::new(),
            ends: (0..n).map(|c| Some((c, c))).collect(),
            near: {
                let mut near = vec![Vec::new(); n];
                for (e, &(p, q)) in self.edges.iter().enumerate() {
                    near[p].push((q, e));
                    near[q].push((p, e));
                }
                near
            },
            on: vec![false; self.edges.len()],
        }
    }

    /// C5 for a set of places: some designated line crosses the cut around it.
    fn cut_around(&self, inside: impl Fn(usize) -> bool) -> Constraint {
        Constraint {
            terms: crossing(&self.edges, &self.designated, inside)
                .into_iter()
                .map(|l| (1, l))
                .collect(),
            sense: Sense::Ge,
            rhs: 1,
            family: "C5 sub-loop elimination (lazy)",
            group: None,
        }
    }

    /// For each loop, the pieces the board falls into without its cells, when more than one:
    /// one C5 row per piece.
    fn piece_cuts(&self, loops: &[Vec<usize>]) -> Vec<Constraint> {
        let n = self.cells.len();
        let near = |c: usize| {
            (0..6).filter_map(move |s| self.index.get(&self.cells[c].neighbour(s)).copied())
        };
        let mut out = Vec::new();
        for members in loops {
            let mut piece = vec![usize::MAX; n];
            for &c in members {
                piece[c] = usize::MAX - 1;
            }
            let mut pieces = 0;
            for s in 0..n {
                if piece[s] != usize::MAX {
                    continue;
                }
                piece[s] = pieces;
                let mut stack = vec![s];
                while let Some(c) = stack.pop() {
                    for d in near(c) {
                        if piece[d] == usize::MAX {
                            piece[d] = pieces;
                            stack.push(d);
                        }
                    }
                }
                pieces += 1;
            }
            if pieces < 2 {
                continue;
            }
            out.extend((0..pieces).map(|id| self.cut_around(|c| piece[c] == id)));
        }
        out
    }

    fn hole_cuts(&self, used: &[bool], u: &[Var]) -> Vec<Constraint> {
        let n = self.cells.len();
        let near = |c: usize| -> Vec<Option<usize>> {
            (0..6)
                .map(|s| self.index.get(&self.cells[c].neighbour(s)).copied())
                .collect()
        };
        // Unused cells that reach the outside of the region through unused cells.
        let mut outside = vec![false; n];
        let mut stack: Vec<usize> = (0..n)
            .filter(|&c| !used[c] && near(c).iter().any(Option::is_none))
            .collect();
        for &c in &stack {
            outside[c] = true;
        }
        while let Some(c) = stack.pop() {
            for d in near(c).into_iter().flatten() {
                if !used[d] && !outside[d] {
                    outside[d] = true;
                    stack.push(d);
                }
            }
        }
        let mut seen = vec![false; n];
        let mut out = Vec::new();
        for s in 0..n {
            if used[s] || outside[s] || seen[s] {
                continue;
            }
            let mut hole = vec![s];
            seen[s] = true;
            let mut k = 0;
            let mut ring: Vec<usize> = Vec::new();
            while k < hole.len() {
                let c = hole[k];
                k += 1;
                for d in near(c).into_iter().flatten() {
                    if used[d] {
                        if !ring.contains(&d) {
                            ring.push(d);
                        }
                    } else if !seen[d] {
                        seen[d] = true;
                        hole.push(d);
                    }
                }
            }
            let mut terms: Vec<(i64, Lit)> = ring.iter().map(|&c| (1, u[c].negated())).collect();
            terms.extend(hole.iter().map(|&c| (1, u[c].pos())));
            out.push(Constraint {
                terms,
                sense: Sense::Ge,
                rhs: 1,
                family: "no holes (lazy)",
                group: None,
            });
        }
        out
    }
}

fn build(
    ch: &Challenge,
    region: &[Hex],
    origin: Option<usize>,
    hole_free: bool,
    opt: &Options,
) -> TantrixModel {
    let n = region.len();
    let index: HashMap<Hex, usize> = region.iter().enumerate().map(|(i, &h)| (h, i)).collect();
    let nb = |c: usize, s: usize| index.get(&region[c].neighbour(s)).copied();
    let mut m = Model::new();
    let free = origin.is_some();
    let used: Option<Vec<Var>> = free.then(|| {
        region
            .iter()
            .map(|h| m.var(format!("u_{}_{}", h.q, h.r)))
            .collect()
    });
    // The kinds of tile with their copies: (kind, copy).
    let kinds: Vec<(usize, usize)> = if opt.copies {
        ch.counts
            .iter()
            .enumerate()
            .flat_map(|(t, &k)| (0..k).map(move |c| (t, c)))
            .collect()
    } else {
        (0..ch.tiles.len()).map(|t| (t, 0)).collect()
    };
    let mut choices: Vec<Vec<Choice>> = Vec::with_capacity(n);
    for h in region {
        let mut v = Vec::new();
        for &(t, copy) in &kinds {
            for r in 0..6 {
                let name = if opt.copies {
                    format!(
                        "x_{}_{}_t{}c{}_r{}",
                        h.q,
                        h.r,
                        ch.tiles[t].number,
                        copy + 1,
                        r
                    )
                } else {
                    format!("x_{}_{}_t{}_r{}", h.q, h.r, ch.tiles[t].number, r)
                };
                v.push((m.var(name), t, r));
            }
        }
        choices.push(v);
    }
    let side = |choice: &Choice, s: usize| ch.tiles[choice.1].side(choice.2, s);
    // C1: one tile per place (per used cell in a board search).
    for c in 0..n {
        let lits: Vec<Lit> = choices[c].iter().map(|x| x.0.pos()).collect();
        match &used {
            None => {
                m.exactly_one("C1 one tile per place", &lits);
            }
            Some(u) => {
                let mut terms: Vec<(i64, Lit)> = lits.iter().map(|&l| (1, l)).collect();
                terms.push((-1, u[c].pos()));
                m.add("C1 one tile per used cell", terms, Sense::Eq, 0);
            }
        }
    }
    // C2 / C2′: tile use.
    if opt.copies {
        for (k, _) in kinds.iter().enumerate() {
            let lits: Vec<Lit> = (0..n)
                .flat_map(|c| choices[c][k * 6..k * 6 + 6].iter().map(|x| x.0.pos()))
                .collect();
            m.group(
                Kind::Given,
                None,
                format!("tile {} is placed once", ch.tiles[kinds[k].0].number),
            );
            m.exactly_one("C2 each tile once", &lits);
        }
    } else {
        for (t, &count) in ch.counts.iter().enumerate() {
            let lits: Vec<Lit> = (0..n)
                .flat_map(|c| choices[c][t * 6..t * 6 + 6].iter().map(|x| x.0.pos()))
                .collect();
            m.group(
                Kind::Given,
                None,
                format!("tile {} is placed {count} times", ch.tiles[t].number),
            );
            m.cardinality(
                "C2' each tile as often as it is repeated",
                &lits,
                Sense::Eq,
                count as i64,
            );
        }
    }
    m.end_group();
    // Shared edges and their colours.
    let des = colour_index(ch.colour);
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let mut edge_of: HashMap<(usize, usize), usize> = HashMap::new();
    let mut colour_vars: Vec<[Var; 3]> = Vec::new();
    for (c, &h) in region.iter().enumerate().take(n) {
        for s in 0..3 {
            if let Some(d) = nb(c, s) {
                let e = edges.len();
                edges.push((c, d));
                edge_of.insert((c, s), e);
                edge_of.insert((d, s + 3), e);
                let vars = std::array::from_fn(|k| {
                    m.var(format!("e_{}_{}_{}{}", h.q, h.r, s, COLOURS[k].letter()))
                });
                m.exactly_one("C4 one colour per shared edge", &vars.map(|v: Var| v.pos()));
                colour_vars.push(vars);
            }
        }
    }
    let designated: Vec<Var> = colour_vars.iter().map(|v| v[des]).collect();
    let at = |c: usize| format!("({},{})", region[c].q, region[c].r);
    let colour = ch.colour.name();
    if opt.degree {
        // Implied by C1 and the tiles (each Discovery tile has two sides of every colour),
        // stated for propagation as in a travelling-salesman model: two designated lines at
        // every (used) place, and on a fixed board at most two lines of each other colour.
        for c in 0..n {
            let mut terms: Vec<(i64, Lit)> = (0..6)
                .filter_map(|s| edge_of.get(&(c, s)).map(|&e| (1, designated[e].pos())))
                .collect();
            let rhs = match &used {
                Some(u) => {
                    terms.push((-2, u[c].pos()));
                    0
                }
                None => 2,
            };
            m.group(
                Kind::Rule,
                Some(Place::Hex(region[c].q, region[c].r)),
                format!("two {colour} line ends meet at {}", at(c)),
            );
            m.add(
                "degree: two designated lines per place",
                terms,
                Sense::Eq,
                rhs,
            );
            if free {
                continue;
            }
            for k in (0..3).filter(|&k| k != des) {
                let lits: Vec<Lit> = (0..6)
                    .filter_map(|s| edge_of.get(&(c, s)).map(|&e| colour_vars[e][k].pos()))
                    .collect();
                m.group(
                    Kind::Rule,
                    Some(Place::Hex(region[c].q, region[c].r)),
                    format!(
                        "at most two {} line ends meet at {}",
                        COLOURS[k].name(),
                        at(c)
                    ),
                );
                m.cardinality(
                    "degree: at most two lines of each other colour",
                    &lits,
                    Sense::Le,
                    2,
                );
            }
        }
    }
    m.end_group();
    // One group per shared edge (both tiles' rows), made before either cell's rows.
    let edge_groups: Vec<u32> = edges
        .iter()
        .map(|&(p, q)| {
            m.group(
                Kind::Rule,
                Some(Place::Hex(region[p].q, region[p].r)),
                format!(
                    "the tiles at {} and {} match along their shared side",
                    at(p),
                    at(q)
                ),
            )
        })
        .collect();
    m.end_group();
    for (c, cell_choices) in choices.iter().enumerate().take(n) {
        for s in 0..6 {
            match edge_of.get(&(c, s)) {
                Some(&e) => {
                    m.join(edge_groups[e]);
                    for x in cell_choices {
                        let k = colour_index(side(x, s));
                        m.implies(
                            "C4 touching sides match",
                            x.0.pos(),
                            colour_vars[e][k].pos(),
                        );
                    }
                }
                None => {
                    // C3: no designated line at the boundary.
                    m.group(
                        Kind::Rule,
                        Some(Place::Hex(region[c].q, region[c].r)),
                        format!("no {colour} line leaves the board at {}", at(c)),
                    );
                    let terms: Vec<(i64, Lit)> = cell_choices
                        .iter()
                        .filter(|x| side(x, s) == ch.colour)
                        .map(|x| (1, x.0.pos()))
                        .collect();
                    m.add("C3 no designated line at the boundary", terms, Sense::Eq, 0);
                }
            }
        }
    }
    m.end_group();
    if let Some(u) = &used {
        // In a board search a designated line joins two used cells.
        for (e, &(p, q)) in edges.iter().enumerate() {
            m.implies(
                "designated lines join used cells",
                designated[e].pos(),
                u[p].pos(),
            );
            m.implies(
                "designated lines join used cells",
                designated[e].pos(),
                u[q].pos(),
            );
        }
        let all: Vec<Lit> = u.iter().map(|v| v.pos()).collect();
        m.cardinality("n cells used", &all, Sense::Eq, ch.n as i64);
        let o = origin.expect("board search");
        m.add(
            "origin holds tile 1 unturned",
            vec![(1, choices[o][0].0.pos())],
            Sense::Eq,
            1,
        );
    }
    // C6: a place with exactly two neighbours takes the designated line through both.
    if opt.c6 && !free {
        for (c, cell_choices) in choices.iter().enumerate().take(n) {
            let inner: Vec<usize> = (0..6).filter(|&s| nb(c, s).is_some()).collect();
            if inner.len() == 2 {
                let terms: Vec<(i64, Lit)> = cell_choices
                    .iter()
                    .filter(|x| !inner.iter().all(|&s| side(x, s) == ch.colour))
                    .map(|x| (1, x.0.pos()))
                    .collect();
                m.group(
                    Kind::Rule,
                    Some(Place::Hex(region[c].q, region[c].r)),
                    format!(
                        "the {colour} loop passes through {}, which has two neighbours",
                        at(c)
                    ),
                );
                m.add(
                    "C6 two neighbours: the loop goes through",
                    terms,
                    Sense::Eq,
                    0,
                );
            }
        }
    }
    // C7–C9: no loop of k tiles, for each k-cycle of the cell graph.
    for &k in &opt.short_loops {
        if ch.n <= k || !(3..=8).contains(&k) {
            continue;
        }
        let family: &'static str = match k {
            3 => "C7 no loop of 3 tiles",
            4 => "C8 no loop of 4 tiles",
            5 => "C9 no loop of 5 tiles",
            _ => "no short loop",
        };
        m.group(
            Kind::Rule,
            None,
            format!("no {colour} loop of {k} tiles closes early"),
        );
        for cycle in cycles(n, k, nb) {
            let terms: Vec<(i64, Lit)> = (0..k)
                .map(|i| {
                    let (a, b) = (cycle[i], cycle[(i + 1) % k]);
                    let s = (0..6).find(|&s| nb(a, s) == Some(b)).expect("a cycle edge");
                    (1, designated[edge_of[&(a, s)]].pos())
                })
                .collect();
            m.add(family, terms, Sense::Le, k as i64 - 1);
        }
    }
    m.end_group();
    if opt.reach {
        m.group(
            Kind::Rule,
            None,
            format!("the {colour} line is one loop through every tile"),
        );
        let line = |c: usize, s: usize| designated[edge_of[&(c, s)]];
        reachability(&mut m, ch.n, n, origin.unwrap_or(0), &nb, &line, &used);
    }
    m.end_group();
    TantrixModel {
        model: m,
        challenge: ch.clone(),
        cells: region.to_vec(),
        used,
        choices,
        edges,
        designated,
        hole_free,
        index,
    }
}

/// Layered reachability from `root` along designated lines: r[c][k] says cell c is at most k
/// steps from the root. A loop of `len` tiles puts every cell of it within len/2 steps, so
/// every (used) cell must be reached by layer len/2; a second loop would not be.
fn reachability(
    m: &mut Model,
    len: usize,
    cells: usize,
    root: usize,
    nb: &dyn Fn(usize, usize) -> Option<usize>,
    line: &dyn Fn(usize, usize) -> Var,
    used: &Option<Vec<Var>>,
) {
    const FAMILY: &str = "connectivity: reached from the root";
    // Distances in the region bound the first layer at which a cell can be reached.
    let mut dist = vec![usize::MAX; cells];
    dist[root] = 0;
    let mut queue = std::collections::VecDeque::from([root]);
    while let Some(c) = queue.pop_front() {
        for s in 0..6 {
            if let Some(d) = nb(c, s) {
                if dist[d] == usize::MAX {
                    dist[d] = dist[c] + 1;
                    queue.push_back(d);
                }
            }
        }
    }
    let last = len / 2;
    // reach[c][k] for k >= dist[c]; below that the cell cannot be reached (None).
    let mut reach: Vec<Vec<Option<Var>>> = vec![vec![None; last + 1]; cells];
    for (c, layers) in reach.iter_mut().enumerate() {
        for (k, r) in layers.iter_mut().enumerate().skip(dist[c].max(1)) {
            *r = Some(m.var(format!("reach_{c}_{k}")));
        }
    }
    for c in 0..cells {
        if c == root {
            continue;
        }
        for k in 1..=last {
            let Some(r) = reach[c][k] else { continue };
            // r[c][k] -> r[c][k-1] or (r[d][k-1] and designated(c, d)) for a neighbour d.
            let mut clause: Vec<(i64, Lit)> = vec![(1, r.negated())];
            if let Some(prev) = reach[c][k - 1] {
                clause.push((1, prev.pos()));
            }
            for s in 0..6 {
                let Some(d) = nb(c, s) else { continue };
                let from = if d == root {
                    None
                } else {
                    match reach[d][k - 1] {
                        Some(v) => Some(v),
                        None => continue,
                    }
                };
                let e = line(c, s);
                let a = m.var(format!("step_{c}_{d}_{k}"));
                m.implies(FAMILY, a.pos(), e.pos());
                if let Some(f) = from {
                    m.implies(FAMILY, a.pos(), f.pos());
                }
                clause.push((1, a.pos()));
            }
            m.add(FAMILY, clause, Sense::Ge, 1);
        }
        // Every (used) cell is reached by the last layer.
        let mut clause: Vec<(i64, Lit)> = Vec::new();
        if let Some(r) = reach[c][last] {
            clause.push((1, r.pos()));
        }
        if let Some(u) = used {
            clause.push((1, u[c].negated()));
        }
        m.add(FAMILY, clause, Sense::Ge, 1);
    }
}

/// The simple cycles of `k` cells in the graph given by `nb`, each once (started at its
/// smallest cell, in the direction whose second cell is the smaller).
fn cycles(n: usize, k: usize, nb: impl Fn(usize, usize) -> Option<usize>) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut path = Vec::with_capacity(k);
    fn go(
        path: &mut Vec<usize>,
        k: usize,
        nb: &dyn Fn(usize, usize) -> Option<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        let last = *path.last().expect("non-empty");
        let start = path[0];
        for s in 0..6 {
            let Some(d) = nb(last, s) else { continue };
            if path.len() == k {
                if d == start && path[1] < path[k - 1] {
                    out.push(path.clone());
                }
                continue;
            }
            if d > start && !path.contains(&d) {
                path.push(d);
                go(path, k, nb, out);
                path.pop();
            }
        }
    }
    for s in 0..n {
        path.clear();
        path.push(s);
        go(&mut path, k, &nb, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_in_a_hexagon_of_seven() {
        let region = Hex::ball(1);
        let index: HashMap<Hex, usize> = region.iter().enumerate().map(|(i, &h)| (h, i)).collect();
        let nb = |c: usize, s: usize| index.get(&region[c].neighbour(s)).copied();
        // Six triangles around the centre; the ring of six; 4-cycles: two triangles sharing
        // an edge, six around the centre plus six... counted independently below.
        assert_eq!(cycles(7, 3, nb).len(), 6);
        assert_eq!(cycles(7, 6, nb).len(), 1 + 6);
    }

    /// Up to `limit` solutions of a model, found with the lazy cuts alone (no watcher).
    fn solutions(tm: &TantrixModel, limit: u64) -> Vec<Vec<bool>> {
        use crate::solve::search::Search;
        let backend = crate::solve::default_backend(&tm.model);
        let mut search = Search::new(backend, None).with_cuts(Box::new(|a| tm.cuts(a)));
        let mut found = Vec::new();
        let projection: Vec<Var> = tm
            .designated
            .iter()
            .chain(tm.used.iter().flatten())
            .copied()
            .collect();
        search.enumerate(&projection, &[], Some(limit), |a| {
            found.push(a.to_vec());
            true
        });
        found
    }

    /// Random assignments and undos of the watched variables, as CaDiCaL makes them: every
    /// clause the watcher gives must hold in every solution (it is a cut, not a guess).
    fn watcher_clauses_hold_in_every_solution(tm: &TantrixModel, solutions: &[Vec<bool>]) {
        use crate::solve::Watcher;
        assert!(!solutions.is_empty());
        let mut w = tm.watcher();
        let vars = w.watched();
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |k: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize % k
        };
        let mut clauses = 0;
        for _round in 0..300 {
            let mut stack: Vec<Lit> = Vec::new();
            let mut set = vec![false; tm.model.num_vars()];
            for _ in 0..4 * vars.len() {
                if !stack.is_empty() && next(4) == 0 {
                    let l = stack.pop().expect("not empty");
                    set[l.var.index()] = false;
                    w.undo(l);
                    continue;
                }
                let v = vars[next(vars.len())];
                if set[v.index()] {
                    continue;
                }
                // Mostly "not designated", as in a real search.
                let l = if next(3) == 0 { v.pos() } else { v.negated() };
                set[v.index()] = true;
                stack.push(l);
                if let Some(clause) = w.assign(l) {
                    clauses += 1;
                    for a in solutions {
                        assert!(
                            clause.iter().any(|l| a[l.var.index()] != l.negated),
                            "a cut that a solution breaks: {clause:?}"
                        );
                    }
                }
            }
            while let Some(l) = stack.pop() {
                w.undo(l);
            }
        }
        assert!(
            clauses > 0,
            "the walk closed no loop: the test tests nothing"
        );
    }

    #[test]
    fn cuts_found_during_search_hold_in_every_solution() {
        let ch = Challenge::new(10, None).unwrap();
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/tantrix/boards/discovery-10.txt"
        ))
        .unwrap();
        let board = super::super::parse_board(&text).unwrap().board;
        let fixed = TantrixModel::fixed(&ch, &board, &Options::default());
        let sols = solutions(&fixed, 50);
        watcher_clauses_hold_in_every_solution(&fixed, &sols);
        let ch = Challenge::new(6, None).unwrap();
        let free = TantrixModel::free(&ch, &Hex::ball(2), false, &Options::default());
        let sols = solutions(&free, 200);
        watcher_clauses_hold_in_every_solution(&free, &sols);
    }

    #[test]
    fn a_line_between_two_places_closes_nothing_and_a_short_loop_is_cut() {
        use crate::solve::Watcher;
        let ch = Challenge::new(7, None).unwrap();
        let board = Board::new(Hex::ball(1)).unwrap();
        let tm = TantrixModel::fixed(&ch, &board, &Options::default());
        let mut w = tm.watcher();
        // The line between the centre and one neighbour: a path of two, no cut.
        let centre = tm.cells.iter().position(|&h| h == Hex::new(0, 0)).unwrap();
        let e = tm
            .edges
            .iter()
            .position(|&(p, q)| p == centre || q == centre)
            .unwrap();
        assert_eq!(w.assign(tm.designated[e].pos()), None);
        w.undo(tm.designated[e].pos());
        // The ring of six around the centre closes a loop of six of seven places: the cut
        // around it is the six spokes, all of which it leaves out.
        let ring: Vec<usize> = (0..tm.edges.len())
            .filter(|&e| tm.edges[e].0 != centre && tm.edges[e].1 != centre)
            .collect();
        assert_eq!(ring.len(), 6);
        let mut last = None;
        for &e in &ring {
            last = w.assign(tm.designated[e].pos());
        }
        let cut = last.expect("the sixth line closes the ring");
        let spokes: Vec<Lit> = (0..tm.edges.len())
            .filter(|e| !ring.contains(e))
            .map(|e| tm.designated[e].pos())
            .collect();
        assert_eq!(cut.len(), 6);
        assert!(cut.iter().all(|l| spokes.contains(l)));
    }
}
