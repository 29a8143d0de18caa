//! The hex grid in axial coordinates: cells, sides, distances.

/// A hex cell in axial coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

/// Neighbour offsets by side: NE, E, SE, SW, W, NW.
pub const DIRS: [(i32, i32); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

impl Hex {
    pub fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }
    pub fn neighbour(self, side: usize) -> Hex {
        let (dq, dr) = DIRS[side];
        Hex::new(self.q + dq, self.r + dr)
    }
    pub fn distance(self, o: Hex) -> i32 {
        let (dq, dr) = (self.q - o.q, self.r - o.r);
        (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
    }
    /// The cells within `radius` of the origin.
    pub fn ball(radius: i32) -> Vec<Hex> {
        let mut out = Vec::new();
        for r in -radius..=radius {
            for q in -radius..=radius {
                let h = Hex::new(q, r);
                if h.distance(Hex::new(0, 0)) <= radius {
                    out.push(h);
                }
            }
        }
        out
    }
}
