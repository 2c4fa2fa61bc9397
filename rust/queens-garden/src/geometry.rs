//! The garden's geometry (docs/spec/QUEENS_GARDEN.md section 2): cells, areas, elements, adjacency and
//! element rings, all precomputed at compile time from the axial coordinates.

use std::fmt;
use std::str::FromStr;

use crate::kind::ParseNameError;

/// Axial direction vectors `D[e]`, `e = 0..5` clockwise from north.
pub const DIRECTIONS: [(i8, i8); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

/// The number of cells (6 fountain-board tile spaces, 6 areas of 7).
pub const CELL_COUNT: usize = 48;

/// A cell: a position that can hold a hexagon, by its canonical index 0..47 (section 2.4).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u8);

/// An expansion area 0..5.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Area(u8);

impl Area {
    /// Area `a` (0..5).
    pub const fn new(a: u8) -> Option<Area> {
        if a < 6 { Some(Area(a)) } else { None }
    }

    /// The number 0..5.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// All six areas.
    pub fn all() -> impl Iterator<Item = Area> {
        (0..6).map(Area)
    }

    /// The centre cell `aAc`.
    pub const fn centre(self) -> Cell {
        Cell(6 + 7 * self.0)
    }

    /// The petal cell `aAP`.
    pub const fn petal(self, petal: u8) -> Cell {
        Cell(7 + 7 * self.0 + petal % 6)
    }
}

impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a{}", self.0)
    }
}

impl FromStr for Area {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<Area, ParseNameError> {
        match s.as_bytes() {
            [b'a', d @ b'0'..=b'5'] => Ok(Area(d - b'0')),
            _ => Err(ParseNameError {
                expected: "an area (a0..a5)",
                text: s.to_owned(),
            }),
        }
    }
}

impl Cell {
    /// The cell with index `i` (0..47).
    pub const fn new(i: u8) -> Option<Cell> {
        if (i as usize) < CELL_COUNT {
            Some(Cell(i))
        } else {
            None
        }
    }

    /// The fountain-board tile space `fd`.
    pub const fn fountain(d: u8) -> Cell {
        Cell(d % 6)
    }

    /// The canonical index 0..47.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// All 48 cells in canonical order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELL_COUNT as u8).map(Cell)
    }

    /// The area the cell belongs to, `None` on the fountain board.
    pub const fn area(self) -> Option<Area> {
        if self.0 < 6 {
            None
        } else {
            Some(Area((self.0 - 6) / 7))
        }
    }

    /// The petal number 0..5 within its area, `None` for a centre or a fountain-board cell.
    pub const fn petal(self) -> Option<u8> {
        if self.0 < 6 || (self.0 - 6).is_multiple_of(7) {
            None
        } else {
            Some((self.0 - 6) % 7 - 1)
        }
    }

    /// Whether the cell is an area's centre.
    pub const fn is_centre(self) -> bool {
        self.0 >= 6 && (self.0 - 6).is_multiple_of(7)
    }

    /// Axial coordinates `(q, r)`.
    pub const fn coordinates(self) -> (i8, i8) {
        CELL_POSITIONS[self.0 as usize]
    }

    /// The cell at `(q, r)`, if any.
    pub fn at(q: i8, r: i8) -> Option<Cell> {
        cell_at(q, r).map(Cell)
    }

    /// The adjacent cells, canonical order.
    pub fn neighbours(self) -> impl Iterator<Item = Cell> {
        NEIGHBOURS[self.0 as usize]
            .into_iter()
            .take_while(|&n| n != NONE)
            .map(Cell)
    }

    /// The elements whose ring holds this cell.
    pub fn ring_elements(self) -> impl Iterator<Item = Element> {
        ELEMENTS_OF[self.0 as usize]
            .into_iter()
            .take_while(|&e| e != NONE)
            .map(Element)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.area(), self.petal()) {
            (None, _) => write!(f, "f{}", self.0),
            (Some(a), None) => write!(f, "a{}c", a.0),
            (Some(a), Some(p)) => write!(f, "a{}{p}", a.0),
        }
    }
}

impl FromStr for Cell {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<Cell, ParseNameError> {
        match s.as_bytes() {
            [b'f', d @ b'0'..=b'5'] => Ok(Cell(d - b'0')),
            [b'a', a @ b'0'..=b'5', b'c'] => Ok(Area(a - b'0').centre()),
            [b'a', a @ b'0'..=b'5', p @ b'0'..=b'5'] => Ok(Area(a - b'0').petal(p - b'0')),
            _ => Err(ParseNameError {
                expected: "a cell (f0..f5, a0c..a5c, a00..a55)",
                text: s.to_owned(),
            }),
        }
    }
}

/// What an element is (section 2.2, 2.3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ElementKind {
    /// The fountain at the centre of the fountain board.
    Fountain,
    /// A statue (decorations `d0 d2 d4`).
    Statue,
    /// A bench (decorations `d1 d3 d5`).
    Bench,
    /// The pavilion of a face-up expansion.
    Pavilion,
}

/// An element: 0 the fountain, 1..6 decorations `d0..d5`, 7..12 the pavilions of areas 0..5.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Element(u8);

/// The number of elements (fountain, six decorations, six possible pavilions).
pub const ELEMENT_COUNT: usize = 13;

impl Element {
    /// All 13 elements.
    pub fn all() -> impl Iterator<Item = Element> {
        (0..ELEMENT_COUNT as u8).map(Element)
    }

    /// The index 0..12.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The fountain.
    pub const FOUNTAIN: Element = Element(0);

    /// Decoration `dd`.
    pub const fn decoration(d: u8) -> Element {
        Element(1 + d % 6)
    }

    /// The pavilion of `area`.
    pub const fn pavilion(area: Area) -> Element {
        Element(7 + area.0)
    }

    /// What the element is.
    pub const fn kind(self) -> ElementKind {
        match self.0 {
            0 => ElementKind::Fountain,
            1..=6 if (self.0 - 1).is_multiple_of(2) => ElementKind::Statue,
            1..=6 => ElementKind::Bench,
            _ => ElementKind::Pavilion,
        }
    }

    /// The area of a pavilion.
    pub const fn area(self) -> Option<Area> {
        if self.0 >= 7 {
            Some(Area(self.0 - 7))
        } else {
            None
        }
    }

    /// Axial coordinates.
    pub const fn coordinates(self) -> (i8, i8) {
        ELEMENT_POSITIONS[self.0 as usize]
    }

    /// The six cells around the element (its ring), canonical order.
    pub fn ring(self) -> [Cell; 6] {
        RINGS[self.0 as usize].map(Cell)
    }
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("fountain"),
            1..=6 => write!(f, "d{}", self.0 - 1),
            _ => write!(f, "pavilion of a{}", self.0 - 7),
        }
    }
}

pub(crate) const NONE: u8 = u8::MAX;

const fn add(a: (i8, i8), b: (i8, i8)) -> (i8, i8) {
    (a.0 + b.0, a.1 + b.1)
}

const CELL_POSITIONS: [(i8, i8); CELL_COUNT] = {
    let mut out = [(0, 0); CELL_COUNT];
    let mut d = 0;
    while d < 6 {
        out[d] = DIRECTIONS[d];
        d += 1;
    }
    let mut a = 0;
    while a < 6 {
        let (dq, dr) = DIRECTIONS[a];
        let centre = (3 * dq, 3 * dr);
        out[6 + 7 * a] = centre;
        let mut p = 0;
        while p < 6 {
            out[7 + 7 * a + p] = add(centre, DIRECTIONS[p]);
            p += 1;
        }
        a += 1;
    }
    out
};

const ELEMENT_POSITIONS: [(i8, i8); ELEMENT_COUNT] = {
    let mut out = [(0, 0); ELEMENT_COUNT];
    let mut d = 0;
    while d < 6 {
        out[1 + d] = add(DIRECTIONS[d], DIRECTIONS[(d + 1) % 6]);
        out[7 + d] = (3 * DIRECTIONS[d].0, 3 * DIRECTIONS[d].1);
        d += 1;
    }
    out
};

const fn cell_at(q: i8, r: i8) -> Option<u8> {
    let mut i = 0;
    while i < CELL_COUNT {
        if CELL_POSITIONS[i].0 == q && CELL_POSITIONS[i].1 == r {
            return Some(i as u8);
        }
        i += 1;
    }
    None
}

/// Adjacent cells of each cell, ascending, padded with `NONE`.
const NEIGHBOURS: [[u8; 6]; CELL_COUNT] = {
    let mut out = [[NONE; 6]; CELL_COUNT];
    let mut c = 0;
    while c < CELL_COUNT {
        let mut n = 0;
        let mut other = 0;
        while other < CELL_COUNT {
            let (q, r) = CELL_POSITIONS[c];
            let (oq, or) = CELL_POSITIONS[other];
            let mut e = 0;
            while e < 6 {
                if q + DIRECTIONS[e].0 == oq && r + DIRECTIONS[e].1 == or {
                    out[c][n] = other as u8;
                    n += 1;
                }
                e += 1;
            }
            other += 1;
        }
        c += 1;
    }
    out
};

/// Bit masks of [`NEIGHBOURS`].
pub(crate) const NEIGHBOUR_MASKS: [u64; CELL_COUNT] = {
    let mut out = [0u64; CELL_COUNT];
    let mut c = 0;
    while c < CELL_COUNT {
        let mut i = 0;
        while i < 6 {
            if NEIGHBOURS[c][i] != NONE {
                out[c] |= 1 << NEIGHBOURS[c][i];
            }
            i += 1;
        }
        c += 1;
    }
    out
};

/// The ring of each element in the canonical cell order.
const RINGS: [[u8; 6]; ELEMENT_COUNT] = {
    let mut out = [[0; 6]; ELEMENT_COUNT];
    let mut e = 0;
    while e < ELEMENT_COUNT {
        let mut n = 0;
        let mut c = 0;
        while c < CELL_COUNT {
            let (q, r) = ELEMENT_POSITIONS[e];
            let (cq, cr) = CELL_POSITIONS[c];
            let mut d = 0;
            while d < 6 {
                if q + DIRECTIONS[d].0 == cq && r + DIRECTIONS[d].1 == cr {
                    out[e][n] = c as u8;
                    n += 1;
                }
                d += 1;
            }
            c += 1;
        }
        e += 1;
    }
    out
};

/// Bit masks of [`RINGS`].
pub(crate) const RING_MASKS: [u64; ELEMENT_COUNT] = {
    let mut out = [0u64; ELEMENT_COUNT];
    let mut e = 0;
    while e < ELEMENT_COUNT {
        let mut i = 0;
        while i < 6 {
            out[e] |= 1 << RINGS[e][i];
            i += 1;
        }
        e += 1;
    }
    out
};

/// The elements (at most 3) whose ring holds each cell, padded with `NONE`.
const ELEMENTS_OF: [[u8; 3]; CELL_COUNT] = {
    let mut out = [[NONE; 3]; CELL_COUNT];
    let mut c = 0;
    while c < CELL_COUNT {
        let mut n = 0;
        let mut e = 0;
        while e < ELEMENT_COUNT {
            if RING_MASKS[e] & (1 << c) != 0 {
                out[c][n] = e as u8;
                n += 1;
            }
            e += 1;
        }
        c += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        name.parse().unwrap()
    }

    fn names(cells: impl IntoIterator<Item = Cell>) -> Vec<String> {
        let mut v: Vec<Cell> = cells.into_iter().collect();
        v.sort();
        v.into_iter().map(|c| c.to_string()).collect()
    }

    fn adjacent(a: Cell, b: Cell) -> bool {
        a.neighbours().any(|n| n == b)
    }

    #[test]
    fn cells_have_canonical_names_and_indices() {
        let all: Vec<String> = Cell::all().map(|c| c.to_string()).collect();
        assert_eq!(
            &all[..8],
            ["f0", "f1", "f2", "f3", "f4", "f5", "a0c", "a00"]
        );
        assert_eq!(all[47], "a55");
        assert_eq!(cell("a24").index(), 7 + 14 + 4);
        assert_eq!(cell("a2c").index(), 20);
        for c in Cell::all() {
            assert_eq!(c.to_string().parse::<Cell>(), Ok(c));
            assert_eq!(Cell::at(c.coordinates().0, c.coordinates().1), Some(c));
        }
        for bad in ["f6", "a6c", "a06", "a0", "F0", "a0c ", ""] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
        assert_eq!(cell("a0c").coordinates(), (0, -3));
        assert_eq!(cell("a24").coordinates(), (2, 1));
    }

    #[test]
    fn fountain_board_adjacency() {
        for d in 0..6u8 {
            let f = Cell::fountain(d);
            let mut want = vec![
                Cell::fountain(d + 5),
                Cell::fountain(d + 1),
                Area(d).petal(d + 3),
            ];
            want.sort();
            assert_eq!(names(f.neighbours()), names(want), "f{d}");
            // Fountain and the decorations d(d-1), dd.
            let elements: Vec<Element> = f.ring_elements().collect();
            let mut want = vec![
                Element::FOUNTAIN,
                Element::decoration(d + 5),
                Element::decoration(d),
            ];
            want.sort();
            assert_eq!(elements, want);
        }
        assert!(adjacent(cell("f0"), cell("a03")));
        assert!(adjacent(cell("f2"), cell("a25")));
    }

    #[test]
    fn areas_touch_their_neighbours_in_one_pair() {
        for a in 0..6u8 {
            for b in 0..6u8 {
                let pairs: Vec<(Cell, Cell)> = (0..7)
                    .flat_map(|i| (0..7).map(move |j| (Cell(6 + 7 * a + i), Cell(6 + 7 * b + j))))
                    .filter(|&(x, y)| adjacent(x, y))
                    .collect();
                if a == b {
                    continue;
                }
                if b == (a + 1) % 6 {
                    assert_eq!(pairs, [(Area(a).petal(a + 2), Area(b).petal(a + 5))]);
                } else if a == (b + 1) % 6 {
                    assert_eq!(pairs.len(), 1);
                } else {
                    assert!(pairs.is_empty(), "a{a} a{b}");
                }
            }
            // Area A touches the fountain board only through aA(A+3)-fA.
            let touching: Vec<(Cell, Cell)> = (0..7)
                .flat_map(|i| (0..6).map(move |d| (Cell(6 + 7 * a + i), Cell(d))))
                .filter(|&(x, y)| adjacent(x, y))
                .collect();
            assert_eq!(touching, [(Area(a).petal(a + 3), Cell(a))]);
            // A centre touches only its six petals.
            let centre = Area(a).centre();
            assert_eq!(
                names(centre.neighbours()),
                names((0..6).map(|p| Area(a).petal(p)))
            );
        }
        assert!(adjacent(cell("a02"), cell("a15")));
        assert!(adjacent(cell("a51"), cell("a04")));
    }

    #[test]
    fn ring_table() {
        let table = [
            ("fountain", "f0 f1 f2 f3 f4 f5"),
            ("d0", "f0 f1 a02 a03 a14 a15"),
            ("d1", "f1 f2 a13 a14 a20 a25"),
            ("d2", "f2 f3 a24 a25 a30 a31"),
            ("d3", "f3 f4 a30 a35 a41 a42"),
            ("d4", "f4 f5 a40 a41 a52 a53"),
            ("d5", "f5 f0 a51 a52 a03 a04"),
        ];
        for (e, (name, ring)) in Element::all().zip(table) {
            assert_eq!(e.to_string(), name);
            let want: Vec<Cell> = ring.split(' ').map(cell).collect();
            assert_eq!(names(e.ring()), names(want), "{name}");
        }
        for a in Area::all() {
            let ring = Element::pavilion(a).ring();
            assert_eq!(names(ring), names((0..6).map(|p| a.petal(p))));
            assert_eq!(Element::pavilion(a).kind(), ElementKind::Pavilion);
        }
        let kinds: Vec<ElementKind> = (0..6).map(|d| Element::decoration(d).kind()).collect();
        assert_eq!(kinds[0], ElementKind::Statue);
        assert_eq!(kinds[1], ElementKind::Bench);
        assert_eq!(kinds[4], ElementKind::Statue);
        assert_eq!(kinds[5], ElementKind::Bench);
    }

    #[test]
    fn decorations_touch_what_section_2_5_says() {
        for d in 0..6u8 {
            let ring = Element::decoration(d).ring();
            let mut want = vec![
                Cell::fountain(d),
                Cell::fountain(d + 1),
                Area(d).petal(d + 2),
                Area(d).petal(d + 3),
                Area((d + 1) % 6).petal(d + 4),
                Area((d + 1) % 6).petal(d + 5),
            ];
            want.sort();
            assert_eq!(names(ring), names(want));
        }
    }

    #[test]
    fn no_element_touches_another_and_cells_are_distinct() {
        let elements: Vec<(i8, i8)> = Element::all().map(Element::coordinates).collect();
        for (i, &(q, r)) in elements.iter().enumerate() {
            // A pavilion lies on its area's centre cell; the other elements are not cells.
            assert_eq!(Cell::at(q, r).is_some(), i >= 7);
            for &(oq, or) in &elements[i + 1..] {
                assert!(
                    DIRECTIONS
                        .iter()
                        .all(|&(dq, dr)| (q + dq, r + dr) != (oq, or))
                );
            }
        }
        for a in Cell::all() {
            for b in Cell::all() {
                assert_eq!(adjacent(a, b), adjacent(b, a));
                if a != b {
                    assert_ne!(a.coordinates(), b.coordinates());
                }
            }
        }
    }
}
