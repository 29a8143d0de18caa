//! The program's rows, family by family (the paper's C1–C9, the degree rows, connectivity
//! stated in advance), each with the reason group explanations cite. The families are written
//! in a fixed order, so that a model is the same from run to run.

use super::{colour_index, Choice, Options, TantrixModel, COLOURS};
use crate::model::{Kind, Lit, Model, Sense, Var};
use crate::puzzles::tantrix::{Challenge, Hex};
use crate::puzzles::Place;
use std::collections::HashMap;

/// The places the rows are written over and their neighbours.
struct Places<'a> {
    ch: &'a Challenge,
    region: &'a [Hex],
    index: HashMap<Hex, usize>,
}

impl Places<'_> {
    fn n(&self) -> usize {
        self.region.len()
    }
    /// The place beyond side `s` of place `c`, if it is in the region.
    fn nb(&self, c: usize, s: usize) -> Option<usize> {
        self.index.get(&self.region[c].neighbour(s)).copied()
    }
    /// "(q,r)", for reasons.
    fn at(&self, c: usize) -> String {
        format!("({},{})", self.region[c].q, self.region[c].r)
    }
    fn place(&self, c: usize) -> Place {
        Place::Hex(self.region[c].q, self.region[c].r)
    }
    /// The colour of side `s` of a choice.
    fn side(&self, choice: &Choice, s: usize) -> super::Colour {
        self.ch.tiles[choice.1].side(choice.2, s)
    }
}

/// The shared edges: (cell, cell), where each cell's side lands, the three colour variables
/// of each, and of those the designated colour's.
struct Lines {
    edges: Vec<(usize, usize)>,
    edge_of: HashMap<(usize, usize), usize>,
    colour_vars: Vec<[Var; 3]>,
    designated: Vec<Var>,
}

pub(super) fn build(
    ch: &Challenge,
    region: &[Hex],
    origin: Option<usize>,
    hole_free: bool,
    opt: &Options,
) -> TantrixModel {
    let index: HashMap<Hex, usize> = region.iter().enumerate().map(|(i, &h)| (h, i)).collect();
    let p = Places { ch, region, index };
    let mut m = Model::new();
    let free = origin.is_some();
    let used: Option<Vec<Var>> = free.then(|| {
        region
            .iter()
            .map(|h| m.var(format!("u_{}_{}", h.q, h.r)))
            .collect()
    });
    let (kinds, choices) = placements(&mut m, &p, opt);
    one_tile_per_place(&mut m, &choices, &used);
    tile_use(&mut m, &p, opt, &kinds, &choices);
    let lines = shared_edges(&mut m, &p);
    if opt.degree {
        degrees(&mut m, &p, &lines, &used, free);
    }
    m.end_group();
    matching_sides(&mut m, &p, &lines, &choices);
    if let Some(u) = &used {
        board_search(&mut m, &p, &lines, u, &choices, origin);
    }
    if opt.c6 && !free {
        two_neighbours(&mut m, &p, &choices);
    }
    short_loops(&mut m, &p, &lines, opt);
    if opt.reach {
        let colour = ch.colour.name();
        m.group(
            Kind::Rule,
            None,
            format!("the {colour} line is one loop through every tile"),
        );
        let line = |c: usize, s: usize| lines.designated[lines.edge_of[&(c, s)]];
        let nb = |c: usize, s: usize| p.nb(c, s);
        reachability(&mut m, ch.n, p.n(), origin.unwrap_or(0), &nb, &line, &used);
    }
    m.end_group();
    TantrixModel {
        model: m,
        challenge: ch.clone(),
        cells: region.to_vec(),
        used,
        choices,
        edges: lines.edges,
        designated: lines.designated,
        hole_free,
        index: p.index,
    }
}

/// The placement variables of every place: the kinds of tile with their copies, and for each
/// place every (kind or copy, turn).
fn placements(m: &mut Model, p: &Places, opt: &Options) -> (Vec<(usize, usize)>, Vec<Vec<Choice>>) {
    let ch = p.ch;
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
    let mut choices: Vec<Vec<Choice>> = Vec::with_capacity(p.n());
    for h in p.region {
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
    (kinds, choices)
}

/// C1: one tile per place (per used cell in a board search).
fn one_tile_per_place(m: &mut Model, choices: &[Vec<Choice>], used: &Option<Vec<Var>>) {
    for (c, cell) in choices.iter().enumerate() {
        let lits: Vec<Lit> = cell.iter().map(|x| x.0.pos()).collect();
        match used {
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
}

/// C2 / C2′: each tile placed once (per copy), or each kind as often as it is repeated.
fn tile_use(
    m: &mut Model,
    p: &Places,
    opt: &Options,
    kinds: &[(usize, usize)],
    choices: &[Vec<Choice>],
) {
    let (ch, n) = (p.ch, p.n());
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
}

/// The shared edges and their colours (C4: one colour per shared edge).
fn shared_edges(m: &mut Model, p: &Places) -> Lines {
    let des = colour_index(p.ch.colour);
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let mut edge_of: HashMap<(usize, usize), usize> = HashMap::new();
    let mut colour_vars: Vec<[Var; 3]> = Vec::new();
    for (c, &h) in p.region.iter().enumerate() {
        for s in 0..3 {
            if let Some(d) = p.nb(c, s) {
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
    let designated = colour_vars.iter().map(|v| v[des]).collect();
    Lines {
        edges,
        edge_of,
        colour_vars,
        designated,
    }
}

/// The degree rows, implied by C1 and the tiles (each Discovery tile has two sides of every
/// colour), stated for propagation as in a travelling-salesman model: two designated lines at
/// every (used) place, and on a fixed board at most two lines of each other colour.
fn degrees(m: &mut Model, p: &Places, lines: &Lines, used: &Option<Vec<Var>>, free: bool) {
    let des = colour_index(p.ch.colour);
    let colour = p.ch.colour.name();
    for c in 0..p.n() {
        let mut terms: Vec<(i64, Lit)> = (0..6)
            .filter_map(|s| {
                lines
                    .edge_of
                    .get(&(c, s))
                    .map(|&e| (1, lines.designated[e].pos()))
            })
            .collect();
        let rhs = match used {
            Some(u) => {
                terms.push((-2, u[c].pos()));
                0
            }
            None => 2,
        };
        m.group(
            Kind::Rule,
            Some(p.place(c)),
            format!("two {colour} line ends meet at {}", p.at(c)),
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
                .filter_map(|s| {
                    lines
                        .edge_of
                        .get(&(c, s))
                        .map(|&e| lines.colour_vars[e][k].pos())
                })
                .collect();
            m.group(
                Kind::Rule,
                Some(p.place(c)),
                format!(
                    "at most two {} line ends meet at {}",
                    COLOURS[k].name(),
                    p.at(c)
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

/// C4 in clause form (a placement implies the colour of each of its sides) and C3 (no
/// designated line leaves the board), one reason group per shared edge made before either
/// cell's rows.
fn matching_sides(m: &mut Model, p: &Places, lines: &Lines, choices: &[Vec<Choice>]) {
    let colour = p.ch.colour.name();
    let edge_groups: Vec<u32> = lines
        .edges
        .iter()
        .map(|&(a, b)| {
            m.group(
                Kind::Rule,
                Some(p.place(a)),
                format!(
                    "the tiles at {} and {} match along their shared side",
                    p.at(a),
                    p.at(b)
                ),
            )
        })
        .collect();
    m.end_group();
    for (c, cell_choices) in choices.iter().enumerate() {
        for s in 0..6 {
            match lines.edge_of.get(&(c, s)) {
                Some(&e) => {
                    m.join(edge_groups[e]);
                    for x in cell_choices {
                        let k = colour_index(p.side(x, s));
                        m.implies(
                            "C4 touching sides match",
                            x.0.pos(),
                            lines.colour_vars[e][k].pos(),
                        );
                    }
                }
                None => {
                    m.group(
                        Kind::Rule,
                        Some(p.place(c)),
                        format!("no {colour} line leaves the board at {}", p.at(c)),
                    );
                    let terms: Vec<(i64, Lit)> = cell_choices
                        .iter()
                        .filter(|x| p.side(x, s) == p.ch.colour)
                        .map(|x| (1, x.0.pos()))
                        .collect();
                    m.add("C3 no designated line at the boundary", terms, Sense::Eq, 0);
                }
            }
        }
    }
    m.end_group();
}

/// In a board search: a designated line joins two used cells, n cells are used, and the
/// origin holds tile 1 unturned.
fn board_search(
    m: &mut Model,
    p: &Places,
    lines: &Lines,
    u: &[Var],
    choices: &[Vec<Choice>],
    origin: Option<usize>,
) {
    // One reason group, so that an explanation cites these rows as it cites the others.
    m.group(
        Kind::Rule,
        None,
        format!(
            "a board of {} cells joined by the line, the first holding tile 1 unturned",
            p.ch.n
        ),
    );
    for (e, &(a, b)) in lines.edges.iter().enumerate() {
        m.implies(
            "designated lines join used cells",
            lines.designated[e].pos(),
            u[a].pos(),
        );
        m.implies(
            "designated lines join used cells",
            lines.designated[e].pos(),
            u[b].pos(),
        );
    }
    let all: Vec<Lit> = u.iter().map(|v| v.pos()).collect();
    m.cardinality("n cells used", &all, Sense::Eq, p.ch.n as i64);
    let o = origin.expect("board search");
    m.add(
        "origin holds tile 1 unturned",
        vec![(1, choices[o][0].0.pos())],
        Sense::Eq,
        1,
    );
    m.end_group();
}

/// C6: a place with exactly two neighbours takes the designated line through both.
fn two_neighbours(m: &mut Model, p: &Places, choices: &[Vec<Choice>]) {
    let colour = p.ch.colour.name();
    for (c, cell_choices) in choices.iter().enumerate() {
        let inner: Vec<usize> = (0..6).filter(|&s| p.nb(c, s).is_some()).collect();
        if inner.len() == 2 {
            let terms: Vec<(i64, Lit)> = cell_choices
                .iter()
                .filter(|x| !inner.iter().all(|&s| p.side(x, s) == p.ch.colour))
                .map(|x| (1, x.0.pos()))
                .collect();
            m.group(
                Kind::Rule,
                Some(p.place(c)),
                format!(
                    "the {colour} loop passes through {}, which has two neighbours",
                    p.at(c)
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

/// C7–C9: no loop of k tiles, for each k-cycle of the cell graph.
fn short_loops(m: &mut Model, p: &Places, lines: &Lines, opt: &Options) {
    let colour = p.ch.colour.name();
    for &k in &opt.short_loops {
        if p.ch.n <= k || !(3..=8).contains(&k) {
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
        for cycle in cycles(p.n(), k, |c, s| p.nb(c, s)) {
            let terms: Vec<(i64, Lit)> = (0..k)
                .map(|i| {
                    let (a, b) = (cycle[i], cycle[(i + 1) % k]);
                    let s = (0..6)
                        .find(|&s| p.nb(a, s) == Some(b))
                        .expect("a cycle edge");
                    (1, lines.designated[lines.edge_of[&(a, s)]].pos())
                })
                .collect();
            m.add(family, terms, Sense::Le, k as i64 - 1);
        }
    }
    m.end_group();
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
pub(super) fn cycles(
    n: usize,
    k: usize,
    nb: impl Fn(usize, usize) -> Option<usize>,
) -> Vec<Vec<usize>> {
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
