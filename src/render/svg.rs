//! SVG pictures of square-cell boards, built with the `svg` crate.

use svg::node::element::{Circle, Path, Rectangle, Text, Title};
use svg::{Document, Node};

/// The colour that marks a broken rule on every picture.
pub const BROKEN: &str = "#d62728";

/// A blank w × h picture with a title and a white background.
pub fn document(w: f64, h: f64, title: &str) -> Document {
    Document::new()
        .set("viewBox", (0, 0, w, h))
        .set("width", w)
        .set("height", h)
        .set("font-family", "Helvetica, Arial, sans-serif")
        .add(Title::new(title))
        .add(
            Rectangle::new()
                .set("width", w)
                .set("height", h)
                .set("fill", "white"),
        )
}

/// A picture of a rows × cols board of square cells.
/// Text centred on (x, y). The baseline sits 0.35 of the font size below the centre, which
/// centres digits and capitals in every renderer (`dominant-baseline` is ignored by some,
/// rsvg among them).
pub fn centred_text(x: f64, y: f64, text: &str, font_size: f64) -> Text {
    Text::new(text)
        .set("x", x)
        .set("y", y + 0.35 * font_size)
        .set("text-anchor", "middle")
        .set("font-family", "sans-serif")
        .set("font-size", font_size)
}

pub struct GridPicture {
    rows: usize,
    cols: usize,
    cell: f64,
    margin: f64,
    doc: Document,
}

impl GridPicture {
    pub fn new(rows: usize, cols: usize, title: &str) -> GridPicture {
        GridPicture::with_margins(rows, cols, title, false, false)
    }

    /// A board with room for a mark beside each row (on the right) and below each column
    /// (the counts of a Battleship puzzle), where asked.
    pub fn with_margins(
        rows: usize,
        cols: usize,
        title: &str,
        beside_rows: bool,
        below_cols: bool,
    ) -> GridPicture {
        let cell = 40.0;
        let margin = 10.0;
        let extra = |on: bool| if on { cell } else { 0.0 };
        let w = cols as f64 * cell + 2.0 * margin + extra(beside_rows);
        let h = rows as f64 * cell + 2.0 * margin + extra(below_cols);
        let doc = document(w, h, title);
        GridPicture {
            rows,
            cols,
            cell,
            margin,
            doc,
        }
    }

    /// A mark beside row i, right of the board.
    pub fn beside_row(&mut self, i: usize, text: &str) {
        let (x, y) = self.origin(i, self.cols);
        self.doc.append(centred_text(
            x + self.cell / 2.0,
            y + self.cell / 2.0,
            text,
            self.cell * 0.45,
        ));
    }

    /// A mark below column j, under the board.
    pub fn below_column(&mut self, j: usize, text: &str) {
        let (x, y) = self.origin(self.rows, j);
        self.doc.append(centred_text(
            x + self.cell / 2.0,
            y + self.cell / 2.0,
            text,
            self.cell * 0.45,
        ));
    }

    /// Where cell (i, j) is: x, y, width, height. Row `rows` is the margin below the board,
    /// column `cols` the one beside it.
    pub fn cell_box(&self, i: usize, j: usize) -> (f64, f64, f64, f64) {
        let (x, y) = self.origin(i, j);
        (x, y, self.cell, self.cell)
    }

    fn origin(&self, i: usize, j: usize) -> (f64, f64) {
        (
            self.margin + j as f64 * self.cell,
            self.margin + i as f64 * self.cell,
        )
    }

    /// Fills cell (i, j) with a colour and draws its outline.
    pub fn fill(&mut self, i: usize, j: usize, colour: &str) {
        let (x, y) = self.origin(i, j);
        let rect = Rectangle::new()
            .set("x", x)
            .set("y", y)
            .set("width", self.cell)
            .set("height", self.cell)
            .set("fill", colour)
            .set("stroke", "#444")
            .set("stroke-width", 1);
        self.doc.append(rect);
    }

    /// Writes text centred in cell (i, j).
    pub fn label(&mut self, i: usize, j: usize, text: &str, colour: &str) {
        self.label_sized(i, j, text, colour, 0.5);
    }

    /// Writes text centred in cell (i, j), its size a fraction of the cell.
    pub fn label_sized(&mut self, i: usize, j: usize, text: &str, colour: &str, size: f64) {
        let (x, y) = self.origin(i, j);
        let t = centred_text(
            x + self.cell / 2.0,
            y + self.cell / 2.0,
            text,
            self.cell * size,
        )
        .set("fill", colour);
        self.doc.append(t);
    }

    /// A shape drawn in cell (i, j): `path` is an SVG path in a 100×100 box (y down) scaled
    /// to the cell; `title` names it for screen readers and tooltips. Shapes need no font,
    /// so every renderer draws them alike.
    pub fn shape(&mut self, i: usize, j: usize, path: &str, fill: &str, title: &str) {
        let (x, y) = self.origin(i, j);
        let p = Path::new()
            .set("d", path)
            .set("fill", fill)
            .set("stroke", "#f4f4f4")
            .set("stroke-width", 2.5)
            .set("stroke-linejoin", "round")
            .set(
                "transform",
                format!("translate({x} {y}) scale({})", self.cell / 100.0),
            )
            .add(Title::new(title));
        self.doc.append(p);
    }

    /// A ring around cell (i, j), to mark it.
    pub fn ring(&mut self, i: usize, j: usize, colour: &str) {
        let (x, y) = self.origin(i, j);
        let c = Circle::new()
            .set("cx", x + self.cell / 2.0)
            .set("cy", y + self.cell / 2.0)
            .set("r", self.cell * 0.42)
            .set("fill", "none")
            .set("stroke", colour)
            .set("stroke-width", 3);
        self.doc.append(c);
    }

    /// A red ring around each cell among `marked` (where a verifier found a rule broken);
    /// places of other shapes are not on this picture.
    pub fn ring_broken(&mut self, marked: &[crate::geometry::Place]) {
        for p in marked {
            if let crate::geometry::Place::Cell(i, j) = *p {
                if i < self.rows && j < self.cols {
                    self.ring(i, j, BROKEN);
                }
            }
        }
    }

    /// A tile spanning two neighbouring cells (a domino), inset from the grid lines.
    pub fn tile(&mut self, a: (usize, usize), b: (usize, usize), colour: &str) {
        let (x1, y1) = self.origin(a.0.min(b.0), a.1.min(b.1));
        let (x2, y2) = self.origin(a.0.max(b.0), a.1.max(b.1));
        let inset = self.cell * 0.08;
        let rect = Rectangle::new()
            .set("x", x1 + inset)
            .set("y", y1 + inset)
            .set("width", x2 - x1 + self.cell - 2.0 * inset)
            .set("height", y2 - y1 + self.cell - 2.0 * inset)
            .set("rx", self.cell * 0.12)
            .set("fill", colour)
            .set("stroke", "#5a3212")
            .set("stroke-width", 1);
        self.doc.append(rect);
    }

    /// A heavy outline just inside cell (i, j), to mark it as part of a reason.
    pub fn outline(&mut self, i: usize, j: usize, colour: &str) {
        let (x, y) = self.origin(i, j);
        let inset = 3.0;
        let rect = Rectangle::new()
            .set("x", x + inset)
            .set("y", y + inset)
            .set("width", self.cell - 2.0 * inset)
            .set("height", self.cell - 2.0 * inset)
            .set("fill", "none")
            .set("stroke", colour)
            .set("stroke-width", 3);
        self.doc.append(rect);
    }

    /// A small square in the middle of cell (i, j).
    pub fn small_square(&mut self, i: usize, j: usize, colour: &str) {
        let (x, y) = self.origin(i, j);
        let side = self.cell * 0.3;
        let rect = Rectangle::new()
            .set("x", x + (self.cell - side) / 2.0)
            .set("y", y + (self.cell - side) / 2.0)
            .set("width", side)
            .set("height", side)
            .set("fill", colour);
        self.doc.append(rect);
    }

    /// A heavy outline around the whole board.
    pub fn frame(&mut self) {
        let rect = Rectangle::new()
            .set("x", self.margin)
            .set("y", self.margin)
            .set("width", self.cols as f64 * self.cell)
            .set("height", self.rows as f64 * self.cell)
            .set("fill", "none")
            .set("stroke", "black")
            .set("stroke-width", 2);
        self.doc.append(rect);
    }

    pub fn finish(mut self) -> String {
        self.frame();
        self.doc.to_string()
    }
}

/// Hex cells (axial coordinates) with a label in each labelled cell, shaded; the others blank.
pub fn hex_labels(
    cells: &[(i32, i32)],
    labels: &std::collections::BTreeMap<(i32, i32), String>,
    title: &str,
) -> String {
    let size = 26.0;
    let centre = |q: i32, r: i32| {
        let x = size * 3f64.sqrt() * (q as f64 + r as f64 / 2.0);
        let y = size * 1.5 * r as f64;
        (x, y)
    };
    let pts: Vec<(f64, f64, (i32, i32))> = cells
        .iter()
        .map(|&(q, r)| {
            let (x, y) = centre(q, r);
            (x, y, (q, r))
        })
        .collect();
    let (mut x0, mut y0, mut x1, mut y1) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for &(x, y, _) in &pts {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let pad = size * 1.2;
    let (w, h) = (x1 - x0 + 2.0 * pad, y1 - y0 + 2.0 * pad);
    let mut doc = document(w, h, title);
    for (x, y, p) in pts {
        let (cx, cy) = (x - x0 + pad, y - y0 + pad);
        let corners: Vec<String> = (0..6)
            .map(|k| {
                let a = std::f64::consts::PI / 180.0 * (60.0 * k as f64 - 30.0);
                format!("{:.1},{:.1}", cx + size * a.cos(), cy + size * a.sin())
            })
            .collect();
        let label = labels.get(&p);
        doc.append(
            svg::node::element::Polygon::new()
                .set("points", corners.join(" "))
                .set(
                    "fill",
                    if label.is_some() {
                        "#cfe3c8"
                    } else {
                        "#ffffff"
                    },
                )
                .set("stroke", "#444"),
        );
        if let Some(l) = label {
            doc.append(centred_text(cx, cy, l, size * 0.5).set("fill", "#222"));
        }
    }
    doc.to_string()
}

/// A place on a picture that a setter can change: a transparent shape drawn over it, carrying
/// what it is (`at`, as the puzzle's edit reads it), what it holds now and what it can become,
/// for a page to cycle with clicks and set with keys (`data-at`, `data-value`,
/// `data-choices` separated by `|`, `data-click`: how many of the choices, from the first, a
/// click cycles through; keys reach them all).
#[derive(Clone, Debug)]
pub struct Spot {
    pub at: String,
    pub value: String,
    pub choices: Vec<String>,
    pub click: usize,
    /// Where it is, in the picture's coordinates.
    pub shape: SpotShape,
    /// A place not on the board yet (drawn dashed, as room to grow).
    pub ghost: bool,
    /// Said when the pointer rests on it.
    pub title: String,
}

/// The outline of a [`Spot`].
#[derive(Clone, Debug)]
pub enum SpotShape {
    /// x, y, width, height.
    Rect(f64, f64, f64, f64),
    /// Corners.
    Polygon(Vec<(f64, f64)>),
}

/// `svg` with every spot drawn on top of it (class `edit`), in the order given.
pub fn overlay(svg: String, spots: &[Spot]) -> String {
    let mut marks = String::new();
    for s in spots {
        let fill = match s.ghost {
            true => {
                "fill=\"#f4f1ea\" fill-opacity=\"0.85\" stroke=\"#999\" stroke-dasharray=\"4 3\""
            }
            false => "fill=\"#000\" fill-opacity=\"0\"",
        };
        let data = format!(
            "class=\"edit\" data-at=\"{}\" data-value=\"{}\" data-choices=\"{}\" data-click=\"{}\" {fill} style=\"cursor:pointer\"",
            escape(&s.at),
            escape(&s.value),
            escape(&s.choices.join("|")),
            s.click
        );
        let title = format!("<title>{}</title>", escape(&s.title));
        match &s.shape {
            SpotShape::Rect(x, y, w, h) => marks.push_str(&format!(
                "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" {data}>{title}</rect>\n"
            )),
            SpotShape::Polygon(points) => {
                let p: Vec<String> = points.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
                marks.push_str(&format!(
                    "<polygon points=\"{}\" {data}>{title}</polygon>\n",
                    p.join(" ")
                ))
            }
        }
    }
    match svg.rfind("</svg>") {
        Some(k) => format!("{}{marks}{}", &svg[..k], &svg[k..]),
        None => svg + &marks,
    }
}

/// Text safe inside an SVG attribute or element.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
