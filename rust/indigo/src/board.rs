//! Board geometry (docs/spec/RULES.md section 2): the 61 cells, their neighbours, corners, gates and exits.
//!
//! Cells are indexed 0..61 in `(q, r)` order, so iterating indices visits cells sorted as the
//! snapshot format requires. All tables are built at compile time.

use std::fmt;

/// Number of cells on the board.
pub const CELL_COUNT: usize = 61;
/// Number of route cells (one per route tile).
pub const ROUTE_CELL_COUNT: usize = 54;
/// Board radius: every cell at distance <= 4 from the centre.
pub const RADIUS: i32 = 4;

/// Axial offset across edge `e` (0 = N, clockwise), docs/spec/RULES.md section 2.
pub const DIRECTIONS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

/// The edge across the boundary: edge `e` of a cell is edge `opposite(e)` of its neighbour.
#[inline]
pub const fn opposite(edge: u8) -> u8 {
    (edge + 3) % 6
}

/// Marks "no cell" in the neighbour table.
pub(crate) const OFF_BOARD: u8 = u8::MAX;

/// A cell of the board. Always on the board: construct with [`Cell::new`] or the constants.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

/// What occupies a cell before any tile is laid.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CellKind {
    /// The centre treasure tile.
    Centre,
    /// Corner `K_d`, holding a treasure tile with an arrow towards the centre.
    Corner(u8),
    /// An empty space for a route tile.
    Route,
}

const fn distance(q: i32, r: i32) -> i32 {
    let s = -q - r;
    let a = if q < 0 { -q } else { q };
    let b = if r < 0 { -r } else { r };
    let c = if s < 0 { -s } else { s };
    let m = if a > b { a } else { b };
    if m > c { m } else { c }
}

const fn build_coords() -> [(i8, i8); CELL_COUNT] {
    let mut out = [(0i8, 0i8); CELL_COUNT];
    let mut n = 0;
    let mut q = -RADIUS;
    while q <= RADIUS {
        let mut r = -RADIUS;
        while r <= RADIUS {
            if distance(q, r) <= RADIUS {
                out[n] = (q as i8, r as i8);
                n += 1;
            }
            r += 1;
        }
        q += 1;
    }
    out
}

const COORDS: [(i8, i8); CELL_COUNT] = build_coords();

const SIDE: usize = (2 * RADIUS + 1) as usize;

const fn build_index() -> [[u8; SIDE]; SIDE] {
    let mut out = [[OFF_BOARD; SIDE]; SIDE];
    let mut i = 0;
    while i < CELL_COUNT {
        let (q, r) = COORDS[i];
        out[(q as i32 + RADIUS) as usize][(r as i32 + RADIUS) as usize] = i as u8;
        i += 1;
    }
    out
}

const INDEX: [[u8; SIDE]; SIDE] = build_index();

const fn index_of(q: i32, r: i32) -> u8 {
    if distance(q, r) > RADIUS {
        return OFF_BOARD;
    }
    INDEX[(q + RADIUS) as usize][(r + RADIUS) as usize]
}

const fn build_neighbours() -> [[u8; 6]; CELL_COUNT] {
    let mut out = [[OFF_BOARD; 6]; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        let (q, r) = COORDS[i];
        let mut e = 0;
        while e < 6 {
            let (dq, dr) = DIRECTIONS[e];
            out[i][e] = index_of(q as i32 + dq, r as i32 + dr);
            e += 1;
        }
        i += 1;
    }
    out
}

/// `NEIGHBOURS[cell][edge]`: the neighbouring cell index, or [`OFF_BOARD`].
pub(crate) const NEIGHBOURS: [[u8; 6]; CELL_COUNT] = build_neighbours();

/// [`ACROSS`]'s cell beyond the rim: one past the last cell, so a table with a spare row
/// there (always empty) can be read without a branch.
pub(crate) const BEYOND: u8 = CELL_COUNT as u8;

/// The far side of an edge: the neighbouring cell and its edge facing back.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Across {
    /// The neighbour's index, or [`BEYOND`].
    pub cell: u8,
    /// The neighbour's edge that touches this one (`opposite(edge)`).
    pub edge: u8,
}

/// `ACROSS[cell][edge]`: [`NEIGHBOURS`] with the facing edge, so gem movement computes no
/// opposite edges.
pub(crate) const ACROSS: [[Across; 6]; CELL_COUNT] = {
    let mut out = [[Across {
        cell: BEYOND,
        edge: 0,
    }; 6]; CELL_COUNT];
    let mut i = 0;
    while i < CELL_COUNT {
        let mut e = 0;
        while e < 6 {
            let n = NEIGHBOURS[i][e];
            out[i][e] = Across {
                cell: if n == OFF_BOARD { BEYOND } else { n },
                edge: opposite(e as u8),
            };
            e += 1;
        }
        i += 1;
    }
    out
};

/// For each cell, the centre's edge that faces it, or 6 when it does not touch the centre.
pub(crate) const CENTRE_FACING: [u8; CELL_COUNT] = {
    let mut out = [6u8; CELL_COUNT];
    let centre = index_of(0, 0) as usize;
    let mut e = 0;
    while e < 6 {
        out[NEIGHBOURS[centre][e] as usize] = e as u8;
        e += 1;
    }
    out
};

const fn build_kinds() -> [CellKind; CELL_COUNT] {
    let mut out = [CellKind::Route; CELL_COUNT];
    out[index_of(0, 0) as usize] = CellKind::Centre;
    let mut d = 0;
    while d < 6 {
        let (dq, dr) = DIRECTIONS[d];
        out[index_of(RADIUS * dq, RADIUS * dr) as usize] = CellKind::Corner(d as u8);
        d += 1;
    }
    out
}

const KINDS: [CellKind; CELL_COUNT] = build_kinds();

/// Marks "not a gate cell" in the gate table.
pub(crate) const NO_GATE: u8 = u8::MAX;

const fn build_gates() -> [u8; CELL_COUNT] {
    let mut out = [NO_GATE; CELL_COUNT];
    let mut k = 0;
    while k < 6 {
        let (aq, ar) = DIRECTIONS[k];
        let (bq, br) = DIRECTIONS[(k + 2) % 6];
        let mut j = 1;
        while j <= 3 {
            out[index_of(RADIUS * aq + j * bq, RADIUS * ar + j * br) as usize] = k as u8;
            j += 1;
        }
        k += 1;
    }
    out
}

/// `GATE_OF[cell]`: the gate whose exits the cell's off-board edges are, or [`NO_GATE`].
pub(crate) const GATE_OF: [u8; CELL_COUNT] = build_gates();

const fn build_route_cells() -> [Cell; ROUTE_CELL_COUNT] {
    let mut out = [Cell(0); ROUTE_CELL_COUNT];
    let mut n = 0;
    let mut i = 0;
    while i < CELL_COUNT {
        if matches!(KINDS[i], CellKind::Route) {
            out[n] = Cell(i as u8);
            n += 1;
        }
        i += 1;
    }
    out
}

/// The 54 route cells in `(q, r)` order.
pub const ROUTE_CELLS: [Cell; ROUTE_CELL_COUNT] = build_route_cells();

/// `ROUTE_SLOT[cell index]`: the cell's index in [`ROUTE_CELLS`], or [`NO_SLOT`].
pub(crate) const ROUTE_SLOT: [u8; CELL_COUNT] = {
    let mut table = [NO_SLOT; CELL_COUNT];
    let mut i = 0;
    while i < ROUTE_CELL_COUNT {
        table[ROUTE_CELLS[i].index()] = i as u8;
        i += 1;
    }
    table
};
/// The slot of a cell that is not a route cell.
pub(crate) const NO_SLOT: u8 = u8::MAX;

impl Cell {
    /// The centre `(0, 0)`.
    pub const CENTRE: Cell = Cell(index_of(0, 0));

    /// The cell at axial `(q, r)`, or `None` off the board.
    pub const fn new(q: i32, r: i32) -> Option<Cell> {
        let i = index_of(q, r);
        if i == OFF_BOARD { None } else { Some(Cell(i)) }
    }

    /// The cell with index `index` (0..61, in `(q, r)` order), or `None`.
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index < CELL_COUNT {
            Some(Cell(index as u8))
        } else {
            None
        }
    }

    /// Corner `K_d = 4 * D[d]`.
    ///
    /// # Panics
    /// If `d >= 6`.
    pub const fn corner(d: u8) -> Cell {
        let (dq, dr) = DIRECTIONS[d as usize];
        Cell(index_of(RADIUS * dq, RADIUS * dr))
    }

    /// Gate cell `G_(k,j) = 4 * D[k] + j * D[(k + 2) % 6]` for `j = 1..=3`.
    ///
    /// # Panics
    /// If `k >= 6` or `j` is not 1..=3.
    pub const fn gate_cell(k: u8, j: u8) -> Cell {
        assert!(k < 6 && j >= 1 && j <= 3);
        let (aq, ar) = DIRECTIONS[k as usize];
        let (bq, br) = DIRECTIONS[(k as usize + 2) % 6];
        Cell(index_of(
            RADIUS * aq + j as i32 * bq,
            RADIUS * ar + j as i32 * br,
        ))
    }

    /// Index 0..61 in `(q, r)` order.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Axial `q`.
    #[inline]
    pub const fn q(self) -> i32 {
        COORDS[self.0 as usize].0 as i32
    }

    /// Axial `r`.
    #[inline]
    pub const fn r(self) -> i32 {
        COORDS[self.0 as usize].1 as i32
    }

    /// `(q, r)`.
    #[inline]
    pub const fn axial(self) -> (i32, i32) {
        (self.q(), self.r())
    }

    /// What the cell is.
    #[inline]
    pub const fn kind(self) -> CellKind {
        KINDS[self.0 as usize]
    }

    /// Whether a route tile may go here.
    #[inline]
    pub const fn is_route(self) -> bool {
        matches!(self.kind(), CellKind::Route)
    }

    /// The neighbour across `edge`, or `None` past the board's rim.
    #[inline]
    pub const fn neighbour(self, edge: u8) -> Option<Cell> {
        let n = NEIGHBOURS[self.0 as usize][edge as usize];
        if n == OFF_BOARD { None } else { Some(Cell(n)) }
    }

    /// The gate this cell belongs to, for the three gate cells of each side.
    #[inline]
    pub const fn gate(self) -> Option<u8> {
        let g = GATE_OF[self.0 as usize];
        if g == NO_GATE { None } else { Some(g) }
    }

    /// All 61 cells in `(q, r)` order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELL_COUNT as u8).map(Cell)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.q(), self.r())
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.q(), self.r())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_one_cells_in_q_r_order() {
        let cells: Vec<_> = Cell::all().map(Cell::axial).collect();
        assert_eq!(cells.len(), 61);
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        assert_eq!(cells, sorted);
        assert_eq!(Cell::all().filter(|c| c.is_route()).count(), 54);
    }

    #[test]
    fn neighbours_are_symmetric() {
        for c in Cell::all() {
            for e in 0..6 {
                if let Some(n) = c.neighbour(e) {
                    assert_eq!(n.neighbour(opposite(e)), Some(c));
                }
            }
        }
    }

    #[test]
    fn corners_and_gates_match_rules_tables() {
        let corners: Vec<_> = (0..6).map(|d| Cell::corner(d).axial()).collect();
        assert_eq!(
            corners,
            [(0, -4), (4, -4), (4, 0), (0, 4), (-4, 4), (-4, 0)]
        );
        let gates = [
            [(1, -4), (2, -4), (3, -4)],
            [(4, -3), (4, -2), (4, -1)],
            [(3, 1), (2, 2), (1, 3)],
            [(-1, 4), (-2, 4), (-3, 4)],
            [(-4, 3), (-4, 2), (-4, 1)],
            [(-3, -1), (-2, -2), (-1, -3)],
        ];
        for (k, cells) in gates.iter().enumerate() {
            for (j, &(q, r)) in cells.iter().enumerate() {
                let cell = Cell::new(q, r).unwrap();
                assert_eq!(Cell::gate_cell(k as u8, j as u8 + 1), cell);
                assert_eq!(cell.gate(), Some(k as u8));
                // Exactly the gate's two exit edges leave the board.
                let off: Vec<u8> = (0..6).filter(|&e| cell.neighbour(e).is_none()).collect();
                let mut want = vec![k as u8, (k as u8 + 1) % 6];
                want.sort_unstable();
                assert_eq!(off, want);
            }
        }
        // Every off-board edge of a route cell belongs to a gate cell.
        for c in Cell::all().filter(|c| c.is_route()) {
            if (0..6).any(|e| c.neighbour(e).is_none()) {
                assert!(c.gate().is_some(), "{c:?}");
            }
        }
    }
}
