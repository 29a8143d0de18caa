//! Battleship as a [`Puzzle`]: its options, reading a puzzle from any format, the trait's
//! hooks. The setter's verbs answered as reports are in `crate::verbs::battleship::setting`.

use super::model::{BattleshipModel, Formulation};
use super::{formats, to_svg, to_text, verify, Grid, Layout, Symbol};
use crate::error::{Error, Result};
use crate::puzzles::Files;
use crate::puzzles::Query;
use crate::puzzles::{Broken, Formulated, Phase, Place, Puzzle};

/// The options of every Battleship query.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct Options {
    /// Which puzzle of a CSPLib file (its id; the first by default)
    #[cfg_attr(feature = "cli", arg(long))]
    pub instance: Option<String>,
    /// The fleet as counts of ships of length 1, 2, 3, ... (e.g. "4 3 2 1"); overrides the
    /// input's
    #[cfg_attr(feature = "cli", arg(long))]
    pub fleet: Option<String>,
    /// Which integer program to solve
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Formulation::Runs))]
    pub formulation: Formulation,
    /// With `unique`: also rate a unique puzzle's difficulty, by its explanation (the
    /// dearest step and the total; see `explain`)
    #[cfg_attr(feature = "cli", arg(long))]
    pub difficulty: bool,
}

/// Reads a fleet: counts of ships of length 1, 2, 3, ...
pub fn parse_fleet(text: &str) -> Result<Vec<usize>> {
    text.split([' ', ',', ':'])
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<usize>().map_err(|_| {
                Error::input(format!(
                    "--fleet: '{t}' is not a count (give counts of ships of length 1, 2, 3, ..., e.g. \"4 3 2 1\")"
                ))
            })
        })
        .collect()
}

/// Reads a puzzle from a file, a puzz.link URL, a Boats game ID, or standard input (`-`), in any
/// format known.
pub fn load(word: &str, o: &Options, files: Files) -> Result<Grid> {
    let text = if word == "-" {
        files.stdin()?
    } else if files.is_dir(word) {
        return Err(Error::input(format!(
            "{word}: a directory, not a puzzle file"
        )));
    } else if !files.exists(word)
        && (word.contains("battleship/") || formats::detect(word) == formats::Format::Boats)
    {
        word.to_string()
    } else if !files.exists(word) && word.contains("://") {
        return Err(Error::input(format!(
            "{word}: not a Battleship URL; quandary reads puzz.link URLs of the form https://puzz.link/p?battleship/..."
        )));
    } else {
        files.read(word)?
    };
    let p = match &o.fleet {
        // --fleet stands for the URL's own fleet, which is then not read at all (a URL
        // without one, or with one quandary cannot take, is fine).
        Some(f) if formats::detect(&text) == formats::Format::PuzzLink => {
            formats::parse_puzzlink_with(text.trim(), Some(parse_fleet(f)?))
        }
        _ => formats::parse(&text, o.instance.as_deref()).map(|(_, p)| p),
    }
    .map_err(|e| Error::input(format!("{word}: {e}")))?;
    match &o.fleet {
        None => Ok(p),
        Some(f) => Grid::new(
            p.rows,
            p.cols,
            parse_fleet(f)?,
            p.row_counts,
            p.col_counts,
            p.clues,
        ),
    }
}

impl serde::Serialize for Layout {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let symbols = self.symbols();
        serde_json::json!({
            "ships": self.ship_rows(),
            "symbols": (0..self.rows).map(|i| (0..self.cols).map(|j| {
                let s = symbols[i * self.cols + j];
                if s == Symbol::Water { '.' } else { s.char() }
            }).collect::<String>()).collect::<Vec<_>>(),
            "fleet": self.ships.iter().map(|s| serde_json::json!({
                "row": s.row + 1, "col": s.col + 1, "length": s.len,
                "direction": if s.len == 1 { "none" } else if s.horizontal { "horizontal" } else { "vertical" },
            })).collect::<Vec<_>>(),
            "ship_count": self.ships.len(),
        })
        .serialize(s)
    }
}

/// Battleship as a [`Puzzle`].
pub struct BattleshipPuzzle;

/// The puzz.link example of the seed, the built-in example.
pub const EXAMPLE_URL: &str = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";

impl Puzzle for BattleshipPuzzle {
    const VERB_OPTIONS: &'static [(&'static str, &'static [&'static str])] =
        &[("difficulty", &["unique"])];
    const NAME: &'static str = "battleship";
    const TITLE: &'static str = "Battleship";
    const ABOUT: &'static str =
        "Battleship: place a fleet from row and column counts and a few given cells";
    const INPUT: &'static str = "A puzzle file (our format, janko.at, CSPLib prob014, MiniZinc .dzn, Essence′ parameters), a puzz.link URL, a Boats game ID, or - for standard input";
    const EXAMPLE: &'static [&'static str] = &[EXAMPLE_URL];
    const FORMULATIONS: &'static [&'static str] =
        &["cell", "cell-printed", "ship", "ship-cells", "runs"];
    const TOUR: Query = Query::Unique;

    type Instance = Grid;
    type Options = Options;
    type Solution = Layout;

    fn read(words: &[String], o: &Options, files: Files) -> Result<Grid> {
        let [word] = crate::puzzles::words(
            words,
            "one word, a puzzle file, a puzz.link URL, a Boats game ID or -",
        )?;
        load(word, o, files)
    }

    fn givens(p: &Grid) -> crate::puzzles::Givens {
        let count = |c: &Option<usize>| c.map(|n| n.to_string());
        crate::puzzles::Givens {
            rows: p.row_counts.iter().map(count).collect(),
            cols: p.col_counts.iter().map(count).collect(),
            clues: (0..p.rows)
                .flat_map(|i| (0..p.cols).map(move |j| (i, j)))
                .filter_map(|(i, j)| {
                    let s = p.clue(i, j)?;
                    Some((crate::puzzles::Place::Cell(i, j), s.char().to_string()))
                })
                .collect(),
        }
    }

    fn describe(p: &Grid) -> String {
        let clues = p.given().len();
        format!(
            "Battleship {}×{}, fleet {} ({clues} {})",
            p.rows,
            p.cols,
            p.fleet_text(),
            if clues == 1 { "clue" } else { "clues" }
        )
    }

    fn rated(o: &Options) -> bool {
        o.difficulty
    }

    fn formulate<'a>(p: &'a Grid, o: &Options, query: Query) -> Result<Formulated<'a, Layout>> {
        if matches!(query, Query::Explain(_)) && o.formulation != Formulation::Runs {
            return Err(crate::error::Error::input(
                "explain reads its reasons off the runs formulation (the default): drop --formulation",
            ));
        }
        let mut bm = BattleshipModel::new(p, o.formulation, true);
        if matches!(query, Query::Explain(_)) {
            // "Exactly" reads better than "at most" in a reason, and with every row count
            // given the two are the same (see the runs model).
            for c in &mut bm.model.constraints {
                if c.family == "(28) ships per length" {
                    c.sense = crate::model::Sense::Eq;
                }
            }
            for g in &mut bm.model.groups {
                if let Some(rest) = g.text.strip_prefix("the fleet has at most ") {
                    g.text = format!("the fleet has {rest}");
                }
            }
        }
        let meanings = bm.meanings();
        let decisions = bm.projection();
        let model = std::mem::take(&mut bm.model);
        let method = match o.formulation {
            Formulation::CellPrinted => "SAT (CaDiCaL), cell formulation with eq. (6) as printed in the paper (unsound: it lets a ship start borrow middles of other ships; see docs/battleship.md and use --formulation cell)".to_string(),
            f => crate::solve::sat_method(f),
        };
        Ok(Formulated::new(
            model,
            decisions,
            meanings,
            move |a| bm.decode(a),
            method,
        ))
    }

    /// On a board much larger than its fleet and clues (puzz.link boards without counts,
    /// say), a window around what is given, then a larger one: the whole board's model can
    /// be millions of clauses where the window's is small. For one solution, or two (then
    /// the puzzle is not unique).
    fn phases<'a>(p: &'a Grid, o: &Options, query: Query) -> Vec<Phase<'a, Layout>> {
        if !matches!(query, Query::First | Query::Unique) {
            return Vec::new();
        }
        let mut windows: Vec<[usize; 4]> = Vec::new();
        for factor in [4, 16] {
            if let Some(w) = p.window(factor * p.fleet_cells()) {
                if !windows.contains(&w) {
                    windows.push(w);
                }
            }
        }
        windows
            .into_iter()
            .filter_map(|w| Some((w, p.inside(w)?)))
            .map(|([r0, r1, c0, c1], inner)| {
                let formulation = o.formulation;
                let (rows, cols) = (p.rows, p.cols);
                Phase {
                    scope: format!(
                        "ships inside rows {}-{}, columns {}-{}",
                        r0 + 1,
                        r1,
                        c0 + 1,
                        c1
                    ),
                    share: 0.2,
                    unlimited: Some(std::time::Duration::from_secs(5)),
                    build: Box::new(move || {
                        let mut bm = BattleshipModel::new(&inner, formulation, true);
                        let decisions = bm.projection();
                        let meanings = bm.meanings();
                        let model = std::mem::take(&mut bm.model);
                        let width = inner.cols;
                        Formulated::new(
                            model,
                            decisions,
                            meanings,
                            move |a| {
                                let inside = bm.occupancy(a);
                                let mut occupied = vec![false; rows * cols];
                                for (k, &o) in inside.iter().enumerate() {
                                    occupied[(r0 + k / width) * cols + c0 + k % width] = o;
                                }
                                Layout::from_occupancy(rows, cols, &occupied)
                            },
                            crate::solve::sat_method(formulation),
                        )
                    }),
                }
            })
            .collect()
    }

    fn verify(p: &Grid, l: &Layout) -> std::result::Result<String, Broken> {
        verify::verify(p, &l.occupied()).map(|ships| format!("{ships} ships, every rule holds"))
    }

    fn text(p: &Grid, l: &Layout) -> String {
        to_text(p, l)
    }

    fn sketch(p: &Grid, _: &Options) -> Option<crate::puzzles::sketch::Sketch> {
        use crate::puzzles::sketch::{Field, Sketch, Spot, SpotShape};
        if p.rows * p.cols + p.rows + p.cols > crate::puzzles::sketch::MOST_PLACES {
            return None;
        }
        let mut spots = Vec::new();
        let clues: Vec<String> = ".~o<>^v+#".chars().map(String::from).collect();
        let spot =
            |i: usize, j: usize, at: String, value: String, choices: Vec<String>, title: String| {
                let (x, y, w, h) = super::svg_cell_box(i, j);
                Spot {
                    at,
                    value,
                    click: choices.len(),
                    choices,
                    shape: SpotShape::Rect(x, y, w, h),
                    ghost: false,
                    title,
                }
            };
        for i in 0..p.rows {
            for j in 0..p.cols {
                spots.push(spot(
                    i,
                    j,
                    format!("cell {},{}", i + 1, j + 1),
                    p.clue(i, j).map_or('.', |s| s.char()).to_string(),
                    clues.clone(),
                    // Short: a 30×20 board has 600 of them (the help line says the rest).
                    format!("cell {},{}", i + 1, j + 1),
                ));
            }
        }
        let counts = |most: usize| -> Vec<String> {
            std::iter::once("?".to_string())
                .chain((0..=most).map(|k| k.to_string()))
                .collect()
        };
        let count = |c: Option<usize>| c.map_or("?".to_string(), |c| c.to_string());
        for i in 0..p.rows {
            spots.push(spot(
                i,
                p.cols,
                format!("row {}", i + 1),
                count(p.row_counts[i]),
                counts(p.cols),
                format!("ship cells in row {} (? : not given; keys type it)", i + 1),
            ));
        }
        for j in 0..p.cols {
            spots.push(spot(
                p.rows,
                j,
                format!("col {}", j + 1),
                count(p.col_counts[j]),
                counts(p.rows),
                format!(
                    "ship cells in column {} (? : not given; keys type it)",
                    j + 1
                ),
            ));
        }
        let side = |at: &str, label: &str, value: usize| Field {
            at: at.into(),
            label: label.into(),
            value: value as i64,
            min: 1,
            max: super::MAX_SIDE as i64,
        };
        let mut fields = vec![
            side("rows", "Rows", p.rows),
            side("cols", "Columns", p.cols),
        ];
        let longest = (p.fleet.len() + 1).max(4).min(p.rows.max(p.cols));
        for l in 1..=longest {
            fields.push(Field {
                at: format!("fleet {l}"),
                label: format!("Ships of length {l}"),
                value: p.fleet.get(l - 1).copied().unwrap_or(0) as i64,
                min: 0,
                max: (p.rows * p.cols) as i64,
            });
        }
        Some(Sketch {
            svg: crate::render::svg::overlay(to_svg(p, None, &[]), &spots),
            fields,
            help: "Click a cell to cycle its clue, a number beside a row or below a column to \
                   cycle its count (? is not given); with the pointer on it, keys type a clue \
                   (~ o < > ^ v + # .) or a count"
                .into(),
            owns: vec!["fleet".into(), "instance".into()],
        })
    }

    fn edit(p: &Grid, _: &Options, at: &str, value: &str) -> Result<crate::puzzles::sketch::Input> {
        use crate::puzzles::sketch;
        let mut g = p.clone();
        let count = |most: usize| -> Result<Option<usize>> {
            match value.trim() {
                "?" | "" => Ok(None),
                _ => Ok(Some(sketch::number(at, value, 0, most as i64)? as usize)),
            }
        };
        if at == "rows" || at == "cols" {
            let v = sketch::number(at, value, 1, super::MAX_SIDE as i64)? as usize;
            let (rows, cols) = if at == "rows" {
                (v, g.cols)
            } else {
                (g.rows, v)
            };
            let mut clues = vec![None; rows * cols];
            for i in 0..rows.min(g.rows) {
                for j in 0..cols.min(g.cols) {
                    clues[i * cols + j] = g.clues[i * g.cols + j];
                }
            }
            g.row_counts.resize(rows, None);
            g.col_counts.resize(cols, None);
            // A count larger than the new line's length is forgotten.
            for c in g
                .row_counts
                .iter_mut()
                .filter(|c| c.is_some_and(|k| k > cols))
            {
                *c = None;
            }
            for c in g
                .col_counts
                .iter_mut()
                .filter(|c| c.is_some_and(|k| k > rows))
            {
                *c = None;
            }
            (g.rows, g.cols, g.clues) = (rows, cols, clues);
        } else if let Some(l) = at.strip_prefix("fleet ") {
            let l = sketch::number(at, l, 1, super::MAX_SIDE as i64)? as usize;
            let k = sketch::number(at, value, 0, (g.rows * g.cols) as i64)? as usize;
            if g.fleet.len() < l {
                g.fleet.resize(l, 0);
            }
            g.fleet[l - 1] = k;
            while g.fleet.last() == Some(&0) {
                g.fleet.pop();
            }
        } else if let Some(i) = at.strip_prefix("row ") {
            let i = sketch::number(at, i, 1, g.rows as i64)? as usize;
            g.row_counts[i - 1] = count(g.cols)?;
        } else if let Some(j) = at.strip_prefix("col ") {
            let j = sketch::number(at, j, 1, g.cols as i64)? as usize;
            g.col_counts[j - 1] = count(g.rows)?;
        } else {
            let (i, j) = sketch::cell(at, (g.rows, g.cols))?;
            let v = value.trim();
            g.clues[i * g.cols + j] = match v {
                "." | "" => None,
                _ => Some(
                    v.chars()
                        .next()
                        .filter(|_| v.chars().count() == 1)
                        .and_then(Symbol::from_char)
                        .ok_or_else(|| {
                            Error::input(format!(
                                "{at}: '{}' is not a clue (~ o < > ^ v + #) or '.'",
                                crate::error::clip(v)
                            ))
                        })?,
                ),
            };
        }
        Ok(sketch::Input {
            words: Vec::new(),
            text: formats::to_quandary(&g, ""),
            options: vec![("instance".into(), None), ("fleet".into(), None)],
        })
    }

    fn svg(p: &Grid, _: &Options, l: &Layout, marked: &[Place]) -> String {
        to_svg(p, Some(l), marked)
    }
}
