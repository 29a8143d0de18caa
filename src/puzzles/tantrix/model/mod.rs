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
use crate::model::{Constraint, Lit, Model, Sense, Var};
use std::collections::HashMap;

mod build;
use build::build;

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
        use super::build::cycles;
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
