//! Gunport as a [`Puzzle`]: options, the trait's hooks, the exact methods it answers with.

use super::settle::{
    budget_reach, sands_packing, settle_optimum, tm_optimum, SETTLE_FROM_CELLS, TM_WIDTH,
};
use super::*;
use crate::error::{Error, Result};
use crate::geometry::{self, Grid};
use crate::puzzles::Files;
pub use crate::puzzles::Method;
use crate::puzzles::Query;
use crate::puzzles::{Broken, Exact, Formulated, Meaning, Phase, Place, Purpose, Puzzle};
use crate::solve::limits::Limits;
use crate::solve::search::Status;

/// The options of every Gunport query.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct Options {
    /// Which integer program to solve (default: strong; charge for `reach`)
    #[cfg_attr(feature = "cli", arg(long, value_enum))]
    pub formulation: Option<Formulation>,
    /// Count with the integer program even where the transfer-matrix program applies
    #[cfg_attr(feature = "cli", arg(long))]
    pub no_dp: bool,
    /// Count packings up to the board's rotations and reflections as well
    #[cfg_attr(feature = "cli", arg(long))]
    pub up_to_symmetry: bool,
    /// Only packings with this symmetry (answers then hold among those packings only)
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Symmetry::None))]
    pub symmetry: Symmetry,
    /// `auto` (for `optimum` on a board of more than 150 cells with a side of at most 21
    /// whose symmetric searches miss Pearce's value, the budget program refutes values from
    /// the top and SAT draws the packing; the integer program otherwise), `sat` (the integer
    /// program) or `exact`, alias `budget` (the row-by-row dynamic program that keeps only
    /// partial packings within the charge budget: for `reach`; for `optimum` it refutes values
    /// from the top, and SAT draws the packing)
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Method::Auto))]
    pub method: Method,
    /// CaDiCaL engines raced on threads for the integer program: a count (1-4) or
    /// configurations, comma-separated (default, sat, plain, unsat); the same flag as Tantrix's
    #[cfg_attr(
        feature = "cli",
        arg(long, visible_alias = "configs", value_name = "K|NAMES")
    )]
    #[serde(alias = "configs")]
    pub engines: Option<crate::solve::Engines>,
    /// Fix cell ROW,COL (1-based): `hole` (or o), `covered` (or #), `right` or `down` (the
    /// domino from it); repeat it, or give several separated by spaces. Every question is then
    /// asked of the packings that show the givens, by the integer program
    #[cfg_attr(feature = "cli", arg(long, value_name = "ROW,COL=WHAT"))]
    #[serde(deserialize_with = "crate::puzzles::one_or_many")]
    pub fix: Vec<String>,
}

impl Options {
    /// Whether the method is `auto` and nothing is restricted or chosen (formulation,
    /// symmetry, engines): then the puzzle's own methods (Sands' construction, the transfer
    /// matrix, the budget program) may answer instead of the integer program.
    pub fn plain(&self) -> bool {
        self.method == Method::Auto
            && self.formulation.is_none()
            && self.symmetry == Symmetry::None
            && self.engines.is_none()
    }

    /// The formulation asked for, or the default for the query.
    pub fn formulation_for(&self, query: Query) -> Formulation {
        self.formulation.unwrap_or(match query {
            Query::AtLeast(_) => Formulation::Charge,
            _ => Formulation::Strong,
        })
    }
}

impl Symmetry {
    /// The packings it stands for, in words.
    pub fn describe(self) -> Option<&'static str> {
        match self {
            Symmetry::None => None,
            Symmetry::HalfTurn => Some("half-turn-symmetric packings"),
            Symmetry::Mirror => Some("mirror-symmetric packings"),
            Symmetry::QuarterTurn => Some("quarter-turn-symmetric packings"),
        }
    }

    fn map(self) -> Option<geometry::Symmetry> {
        match self {
            Symmetry::None => None,
            Symmetry::HalfTurn => Some(geometry::Symmetry::HalfTurn),
            Symmetry::Mirror => Some(geometry::Symmetry::Mirror),
            Symmetry::QuarterTurn => Some(geometry::Symmetry::QuarterTurn),
        }
    }
}

/// The Gunport problem as a [`Puzzle`].
pub struct GunportProblem;

impl Puzzle for GunportProblem {
    const VERB_OPTIONS: &'static [(&'static str, &'static [&'static str])] =
        &[("no_dp", &["count"]), ("up_to_symmetry", &["count"])];
    const NAME: &'static str = "gunport";
    const TITLE: &'static str = "Gunport";
    const ABOUT: &'static str =
        "Gunport: pack dominoes leaving the most holes, no two holes adjacent";
    const INPUT: &'static str = "Rows and columns of the board: M N";
    const EXAMPLE: &'static [&'static str] = &["7", "7"];
    const FORMULATIONS: &'static [&'static str] = &["cell", "domino", "strong", "charge"];
    const NOUN: &'static str = "packing";
    const SOLVE: Query = Query::Optimum;
    const HAS_GOAL: bool = true;
    const GOAL_NAME: &'static str = "holes";

    type Instance = Gunport;
    type Options = Options;
    type Solution = Packing;

    fn read(words: &[String], o: &Options, _: Files) -> Result<Gunport> {
        let [m, n] =
            crate::puzzles::words(words, "two words, the rows M and columns N of the board")?;
        if o.method == Method::Gac {
            return Err(Error::input(
                "--method gac is Tank Attack's consistent search; Gunport takes auto, sat or exact (budget)",
            ));
        }
        let g = Gunport::parse(m, n)?.with_givens(&o.fix)?;
        if !g.givens.is_empty() {
            if o.up_to_symmetry {
                return Err(Error::input(
                    "--up-to-symmetry counts classes of the board's symmetries, which givens break",
                ));
            }
            if o.method == Method::Exact {
                return Err(Error::input(
                    "--method budget takes no givens: the integer program answers with them",
                ));
            }
        }
        if o.symmetry == Symmetry::QuarterTurn && g.m != g.n {
            return Err(Error::input(format!(
                "--symmetry quarter-turn needs a square board; {}×{} is not square",
                g.m, g.n
            )));
        }
        Ok(g)
    }

    fn describe(g: &Gunport) -> String {
        match g.givens.len() {
            0 => format!("Gunport {}×{}", g.m, g.n),
            1 => format!("Gunport {}×{}, 1 given", g.m, g.n),
            k => format!("Gunport {}×{}, {k} givens", g.m, g.n),
        }
    }

    fn givens(g: &Gunport) -> crate::puzzles::Givens {
        crate::puzzles::Givens {
            clues: g
                .givens
                .iter()
                .map(|&(i, j, f)| {
                    let mark = match f {
                        Fix::Hole => "o",
                        Fix::Covered => "#",
                        Fix::Right => "→",
                        Fix::Down => "↓",
                    };
                    (Place::Cell(i, j), mark.to_string())
                })
                .collect(),
            ..Default::default()
        }
    }

    fn formulate<'a>(g: &'a Gunport, o: &Options, query: Query) -> Result<Formulated<'a, Packing>> {
        let purpose = Purpose::of(query);
        let formulation = o.formulation_for(query);
        let mut gm = match purpose {
            Purpose::Find => g.formulate_for_proof(formulation),
            Purpose::Enumerate => g.formulate(formulation),
        };
        if purpose == Purpose::Enumerate && formulation == Formulation::Domino {
            gm.project_on_placements();
        }
        let grid = Grid::new(g.m, g.n);
        if let Some(sym) = o.symmetry.map() {
            gm.restrict_to_symmetric(&|p| grid.map(sym, p));
        }
        // Forced cells are cells: a hole (`o`) or covered (`#`) in every optimal packing,
        // whichever domino covers it. The cell formulations have a hole variable per cell.
        let hole_at = |k: usize| Meaning {
            place: Place::Cell(k / g.n, k % g.n),
            says: "o".into(),
            otherwise: Some("#".into()),
            words: Some(("a hole".into(), "covered".into())),
        };
        let as_decisions = matches!(query, Query::Forced | Query::Explain(_));
        let holes = gm.holes.clone();
        let mut f = g.formulated(gm, formulation, o.symmetry.describe().map(String::from));
        if as_decisions && !holes.is_empty() {
            f.meanings = (0..holes.len()).map(hole_at).collect();
            f.decisions = holes;
            f.block_by_true_decisions = false;
        } else {
            f.also_means = holes
                .into_iter()
                .enumerate()
                .map(|(k, v)| (v, hole_at(k)))
                .collect();
        }
        if let Some(engines) = &o.engines {
            f.engines = engines.0.clone();
        }
        if o.up_to_symmetry {
            f.classes = Some(Box::new(|p: &Packing| {
                p.canonical()
                    .iter()
                    .flat_map(|[a, b]| [a.0, a.1, b.0, b.1])
                    .collect()
            }));
        }
        Ok(f)
    }

    fn verify(g: &Gunport, p: &Packing) -> std::result::Result<String, Broken> {
        let holes = verify(p)?;
        if g.givens.is_empty() {
            return Ok(format!("a maximal packing with {holes} holes"));
        }
        verify_givens(p, &g.givens)?;
        Ok(format!(
            "a maximal packing with {holes} holes, showing every given"
        ))
    }

    fn text(_: &Gunport, p: &Packing) -> String {
        to_text(p)
    }

    fn sketch(g: &Gunport, _: &Options) -> Option<crate::puzzles::sketch::Sketch> {
        use crate::puzzles::sketch::{Field, Sketch, Spot, SpotShape};
        let (m, n) = (g.m, g.n);
        let mut pic = crate::render::svg::GridPicture::new(m, n, &Self::describe(g));
        for r in 0..m {
            for c in 0..n {
                pic.fill(r, c, "#f4f1e8");
            }
        }
        for &(r, c, f) in &g.givens {
            match f {
                Fix::Hole => pic.small_square(r, c, "#333"),
                Fix::Covered => pic.fill(r, c, "#e2b98f"),
                Fix::Right => pic.tile((r, c), (r, c + 1), "#c27c3e"),
                Fix::Down => pic.tile((r, c), (r + 1, c), "#c27c3e"),
            }
        }
        let mut spots = Vec::new();
        for r in 0..m {
            for c in 0..n {
                let mut choices = vec!["", "hole", "covered"];
                if c + 1 < n {
                    choices.push("right");
                }
                if r + 1 < m {
                    choices.push("down");
                }
                let value = g.givens.iter().find(|x| (x.0, x.1) == (r, c));
                let (x, y, w, h) = pic.cell_box(r, c);
                spots.push(Spot {
                    at: format!("cell {},{}", r + 1, c + 1),
                    value: value.map(|x| x.2.word().to_string()).unwrap_or_default(),
                    choices: choices.iter().map(|s| s.to_string()).collect(),
                    click: choices.len(),
                    shape: SpotShape::Rect(x, y, w, h),
                    ghost: false,
                    title: format!(
                        "cell {},{}: a hole, covered, the left end of a domino (right), its top (down), or not given",
                        r + 1,
                        c + 1
                    ),
                });
            }
        }
        let side = |at: &str, label: &str, value: usize| Field {
            at: at.into(),
            label: label.into(),
            value: value as i64,
            min: 1,
            max: MAX_SIDE as i64,
        };
        Some(Sketch {
            svg: crate::render::svg::overlay(pic.finish(), &spots),
            fields: vec![side("rows", "Rows", m), side("cols", "Columns", n)],
            help: "Click a cell to fix it: a hole, covered by some domino, a domino to its right, \
                   a domino below it, or not given (clicks cycle)"
                .into(),
            owns: vec!["fix".into()],
        })
    }

    fn edit(
        g: &Gunport,
        _: &Options,
        at: &str,
        value: &str,
    ) -> Result<crate::puzzles::sketch::Input> {
        use crate::puzzles::sketch;
        let (mut m, mut n, mut givens) = (g.m, g.n, g.givens.clone());
        match at {
            "rows" => m = sketch::number(at, value, 1, MAX_SIDE as i64)? as usize,
            "cols" => n = sketch::number(at, value, 1, MAX_SIDE as i64)? as usize,
            _ => {
                let (r, c) = sketch::cell(at, (m, n))?;
                givens.retain(|x| (x.0, x.1) != (r, c));
                let fix = match value.trim() {
                    "" => None,
                    "hole" | "o" => Some(Fix::Hole),
                    "covered" | "#" => Some(Fix::Covered),
                    "right" => Some(Fix::Right),
                    "down" => Some(Fix::Down),
                    other => {
                        return Err(Error::input(format!(
                            "{at}: '{}' is not hole, covered, right, down or nothing",
                            crate::error::clip(other)
                        )))
                    }
                };
                if (fix == Some(Fix::Right) && c + 1 >= n) || (fix == Some(Fix::Down) && r + 1 >= m)
                {
                    return Err(Error::input(format!(
                        "{at}: that domino would leave the board"
                    )));
                }
                givens.extend(fix.map(|f| (r, c, f)));
                givens.sort_by_key(|x| (x.0, x.1));
            }
        }
        givens.retain(|&(r, c, f)| {
            r < m && c < n && !(f == Fix::Right && c + 1 >= n) && !(f == Fix::Down && r + 1 >= m)
        });
        let fix: Vec<String> = givens
            .iter()
            .map(|x| format!("{},{}={}", x.0 + 1, x.1 + 1, x.2.word()))
            .collect();
        Ok(sketch::Input {
            words: vec![m.to_string(), n.to_string()],
            text: String::new(),
            options: vec![("fix".into(), (!fix.is_empty()).then(|| fix.join(" ")))],
        })
    }

    fn svg(_: &Gunport, _: &Options, p: &Packing, marked: &[Place]) -> String {
        to_svg(p, marked)
    }

    fn exact(
        g: &Gunport,
        o: &Options,
        query: Query,
        limits: &Limits,
    ) -> Option<Result<Exact<Packing>>> {
        let enumerating = matches!(query, Query::Count { .. } | Query::Unique | Query::Forced);
        if enumerating && o.formulation_for(query) == Formulation::Domino {
            return Some(Err(Error::input(
                "the domino formulation numbers its dominoes, so it would count every packing once per numbering; count with --formulation cell or strong",
            )));
        }
        if let Query::AtLeast(h) = query {
            if h < 0 || h > g.cells() as i64 {
                return Some(Err(Error::input(format!(
                    "{h} holes: a {}×{} board has between 0 and {} holes",
                    g.m,
                    g.n,
                    g.cells()
                ))));
            }
        }
        // The puzzle's own methods know the open board only.
        if !g.givens.is_empty() {
            return None;
        }
        match query {
            Query::Count { .. }
                if !o.no_dp && !o.up_to_symmetry && o.symmetry == Symmetry::None =>
            {
                let d = dp::optimum(g.m, g.n)?;
                Some(Ok(Exact {
                    status: Status::Optimal,
                    solutions: Vec::new(),
                    count: d.packings,
                    objective: Some(d.holes as i64),
                    method: "transfer-matrix dynamic program".into(),
                    scope: None,
                    agreement: None,
                    details: None,
                }))
            }
            Query::AtLeast(h) if o.method == Method::Exact => Some(budget_reach(g, o, h)),
            Query::Optimum if o.method == Method::Exact => {
                if g.m.min(g.n) > budget::MAX_WIDTH {
                    return Some(Err(Error::input(format!(
                        "--method budget: the narrower side may be at most {}",
                        budget::MAX_WIDTH
                    ))));
                }
                if o.symmetry != Symmetry::None {
                    return Some(Err(Error::input("--symmetry applies to --method sat only")));
                }
                settle_optimum(g, limits)
            }
            Query::Optimum if settles(g, o) => sands_packing(g)
                .map(Ok)
                .or_else(|| tm_optimum(g, limits))
                .or_else(|| {
                    (g.m.min(g.n) <= budget::MAX_WIDTH)
                        .then(|| settle_optimum(g, limits))
                        .flatten()
                }),
            _ if o.method == Method::Exact => Some(Err(Error::input(
                "--method budget answers `reach` and `optimum` only",
            ))),
            _ => None,
        }
    }

    /// The optimum: packings with a mirror or half-turn symmetry that reach the proved bound
    /// mn - 2⌈mn/3⌉ (small, fast searches, each a quarter of the time left, or 10 s). Reaching
    /// the bound proves optimality whatever the symmetry; if none does, the full model decides.
    fn phases<'a>(g: &'a Gunport, o: &Options, query: Query) -> Vec<Phase<'a, Packing>> {
        let formulation = o.formulation_for(query);
        if query != Query::Optimum
            || o.symmetry != Symmetry::None
            || !g.givens.is_empty()
            || g.target(formulation).is_none()
            // Sands' construction reaches the bound at once; the transfer matrix knows the
            // optimum first, then looks for symmetric packings at that value: searches at a
            // bound it may not reach would be wasted.
            || (settles(g, o) && (g.sands().is_some() || g.m.min(g.n) <= TM_WIDTH))
        {
            return Vec::new();
        }
        [
            geometry::Symmetry::Mirror,
            geometry::Symmetry::HalfTurn,
            geometry::Symmetry::Flip,
        ]
        .into_iter()
        .map(|sym| g.symmetric_phase(formulation, sym))
        .collect()
    }

    fn remarks(g: &Gunport, query: Query, status: Status, restricted: bool) -> Option<String> {
        // The published values are those of the open board.
        if !g.givens.is_empty() {
            return None;
        }
        let sands = g
            .sands()
            .map_or("none (3 divides neither side)".to_string(), |s| {
                s.to_string()
            });
        let mut out = format!("Published values: Sands {sands}; Pearce {}", g.pearce());
        if let (Query::AtLeast(h), Status::Infeasible, false) = (query, status, restricted) {
            out = format!(
                "So the optimum is at most {} (holes have the parity of mn). {out}",
                g.most_below(h)
            );
        }
        Some(out)
    }
}

/// Whether `optimum` on `g` takes the settling route (the transfer matrix, else the budget
/// program and SAT) rather than the integer program: `--method auto`, the default formulation,
/// no restriction, and a board larger than [`SETTLE_FROM_CELLS`].
fn settles(g: &Gunport, o: &Options) -> bool {
    o.plain() && g.cells() > SETTLE_FROM_CELLS
}
