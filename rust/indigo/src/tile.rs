//! Route tiles (docs/spec/RULES.md section 3) and the fixed treasure tiles, as edge-partner tables.

use std::fmt;

/// A route-tile type 0..=4 (docs/spec/RULES.md section 3).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum TileType {
    /// One straight, two wide curves (14 tiles).
    WideCurves = 0,
    /// Three straights (6 tiles).
    Straights = 1,
    /// One straight, two sharp curves (14 tiles).
    SharpCurves = 2,
    /// One sharp curve, two crossing wide curves (14 tiles).
    Crossing = 3,
    /// Three sharp curves (6 tiles).
    Bends = 4,
}

/// Number of tile types.
pub const TILE_TYPE_COUNT: usize = 5;
/// How many tiles of each type the box holds.
pub const TILE_COUNTS: [u8; TILE_TYPE_COUNT] = [14, 6, 14, 14, 6];
/// Total number of route tiles.
pub const TILE_TOTAL: usize = 54;

/// Edge pairs of each type at rotation 0.
pub const TILE_PATHS: [[(u8, u8); 3]; TILE_TYPE_COUNT] = [
    [(0, 2), (1, 4), (3, 5)],
    [(0, 3), (1, 4), (2, 5)],
    [(0, 5), (1, 4), (2, 3)],
    [(0, 5), (1, 3), (2, 4)],
    [(0, 5), (1, 2), (3, 4)],
];

impl TileType {
    /// All types in order.
    pub const ALL: [TileType; TILE_TYPE_COUNT] = [
        TileType::WideCurves,
        TileType::Straights,
        TileType::SharpCurves,
        TileType::Crossing,
        TileType::Bends,
    ];

    /// The type numbered `n`, or `None` if `n > 4`.
    pub const fn from_index(n: u8) -> Option<TileType> {
        if (n as usize) < TILE_TYPE_COUNT {
            Some(TileType::ALL[n as usize])
        } else {
            None
        }
    }

    /// The type number 0..=4.
    #[inline]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// How many rotations give distinct placements: the rotational period of the pairs.
    #[inline]
    pub const fn distinct_rotations(self) -> u8 {
        PERIOD[self as usize]
    }
}

impl fmt::Display for TileType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", *self as u8)
    }
}

/// A rotation 0..=5, 60 degrees clockwise each.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Rotation(u8);

impl Rotation {
    /// Rotation `n`, or `None` if `n > 5`.
    pub const fn new(n: u8) -> Option<Rotation> {
        if n < 6 { Some(Rotation(n)) } else { None }
    }

    /// The rotation number 0..=5.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }
}

/// A route tile laid in a given rotation, identified by `type * 6 + rotation` (0..30); values
/// 30..38 are the fixed tiles of the centre, the corners and an empty cell.
pub(crate) type TileCode = u8;

pub(crate) const CENTRE_CODE: TileCode = 30;
/// Corner `K_d` has code `CORNER_CODE + d`.
pub(crate) const CORNER_CODE: TileCode = 31;
pub(crate) const EMPTY_CODE: TileCode = 37;
/// Stands for the space beyond the rim, so gem movement reads no special case there.
pub(crate) const OFF_BOARD_CODE: TileCode = 38;
/// Rows of [`PARTNERS`]: every code, padded to a power of two so a masked index needs no
/// bounds check.
pub(crate) const CODE_ROWS: usize = 64;

/// An edge with no path behind it: an empty cell, the centre, a corner's arrow or outer edge.
pub(crate) const NO_EXIT: u8 = u8::MAX;
/// The path runs off the board: the gem leaves through a gate.
pub(crate) const OFF_BOARD_EXIT: u8 = u8::MAX - 1;

#[inline]
pub(crate) const fn route_code(tile: TileType, rotation: Rotation) -> TileCode {
    tile as u8 * 6 + rotation.0
}

const fn build_partners() -> [[u8; 8]; CODE_ROWS] {
    let mut out = [[NO_EXIT; 8]; CODE_ROWS];
    out[OFF_BOARD_CODE as usize] = [OFF_BOARD_EXIT; 8];
    let mut t = 0;
    while t < TILE_TYPE_COUNT {
        let mut rho = 0;
        while rho < 6 {
            let mut p = 0;
            while p < 3 {
                let (a, b) = TILE_PATHS[t][p];
                let (a, b) = ((a + rho) % 6, (b + rho) % 6);
                out[t * 6 + rho as usize][a as usize] = b;
                out[t * 6 + rho as usize][b as usize] = a;
                p += 1;
            }
            rho += 1;
        }
        t += 1;
    }
    // Corner K_d: a U-turn joins the flanks (d + 2) and (d + 4); the arrow and outer edges
    // have no path.
    let mut d = 0;
    while d < 6 {
        let (a, b) = ((d + 2) % 6, (d + 4) % 6);
        out[CORNER_CODE as usize + d][a] = b as u8;
        out[CORNER_CODE as usize + d][b] = a as u8;
        d += 1;
    }
    out
}

/// `PARTNERS[code][edge]`: the other end of the path entering at `edge`, [`NO_EXIT`], or
/// [`OFF_BOARD_EXIT`] for [`OFF_BOARD_CODE`]. Rows of 8 match the position's slot layout.
pub(crate) const PARTNERS: [[u8; 8]; CODE_ROWS] = build_partners();

const fn same_pairs(a: usize, b: usize) -> bool {
    let mut e = 0;
    while e < 6 {
        if PARTNERS[a][e] != PARTNERS[b][e] {
            return false;
        }
        e += 1;
    }
    true
}

const fn build_period() -> [u8; TILE_TYPE_COUNT] {
    let mut out = [6u8; TILE_TYPE_COUNT];
    let mut t = 0;
    while t < TILE_TYPE_COUNT {
        let mut p = 1;
        while p < 6 {
            if same_pairs(t * 6, t * 6 + p) {
                out[t] = p as u8;
                break;
            }
            p += 1;
        }
        t += 1;
    }
    out
}

const PERIOD: [u8; TILE_TYPE_COUNT] = build_period();

/// The smallest rotation giving the same pairs as `rotation` (rotations repeat with the period).
#[inline]
pub const fn canonical_rotation(tile: TileType, rotation: Rotation) -> Rotation {
    Rotation(rotation.0 % PERIOD[tile as usize])
}

/// `CANONICAL_CODES[route code]`: the code of the same tile at its canonical rotation.
const CANONICAL_CODES: [TileCode; 30] = {
    let mut table = [0; 30];
    let mut code = 0;
    while code < 30 {
        table[code] = (code - code % 6 + code % 6 % PERIOD[code / 6] as usize) as TileCode;
        code += 1;
    }
    table
};

/// The code of `tile` laid at `rotation`, canonical: a table lookup, no division.
#[inline]
pub(crate) const fn canonical_code(tile: TileType, rotation: Rotation) -> TileCode {
    CANONICAL_CODES[route_code(tile, rotation) as usize]
}

/// The three edge pairs of `tile` at `rotation`, each ascending, sorted.
pub fn paths(tile: TileType, rotation: Rotation) -> [(u8, u8); 3] {
    let row = &PARTNERS[route_code(tile, rotation) as usize];
    let mut out = [(0, 0); 3];
    let mut n = 0;
    for a in 0..6u8 {
        let b = row[a as usize];
        if a < b {
            out[n] = (a, b);
            n += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_rotations_match_rules() {
        let got: Vec<u8> = TileType::ALL
            .iter()
            .map(|t| t.distinct_rotations())
            .collect();
        assert_eq!(got, [3, 1, 3, 6, 2]);
    }

    #[test]
    fn equivalent_rotations_have_equal_pairs_and_others_differ() {
        for t in TileType::ALL {
            for a in 0..6 {
                for b in 0..6 {
                    let (ra, rb) = (Rotation(a), Rotation(b));
                    let same = paths(t, ra) == paths(t, rb);
                    assert_eq!(same, canonical_rotation(t, ra) == canonical_rotation(t, rb));
                }
            }
        }
    }

    #[test]
    fn canonical_codes_match_canonical_rotations() {
        for t in TileType::ALL {
            for r in 0..6 {
                let rotation = Rotation(r);
                assert_eq!(
                    canonical_code(t, rotation),
                    route_code(t, canonical_rotation(t, rotation))
                );
            }
        }
    }

    #[test]
    fn every_tile_joins_all_six_edges() {
        for row in &PARTNERS[..30] {
            assert_eq!(row[6..], [NO_EXIT; 2]);
            for e in 0..6u8 {
                let p = row[e as usize];
                assert_ne!(p, e);
                assert_eq!(row[p as usize], e);
            }
        }
    }

    #[test]
    fn box_holds_54_tiles() {
        assert_eq!(
            TILE_COUNTS.iter().map(|&c| usize::from(c)).sum::<usize>(),
            TILE_TOTAL
        );
    }
}
