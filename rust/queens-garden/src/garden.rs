//! A player's garden (section 2.6, 7.2, 7.3) and storage (section 3).

use std::fmt;

use crate::geometry::{Area, CELL_COUNT, Cell, Element, NEIGHBOUR_MASKS, RING_MASKS};
use crate::kind::{KIND_COUNT, Kind};
use crate::moves::Hexagon;
use crate::rules::Jokers;

/// A cell that holds nothing and may take a hexagon.
const FREE: u8 = u8::MAX;
/// A cell of an area without an expansion.
const ABSENT: u8 = u8::MAX - 1;
/// The centre of a face-up expansion: its pavilion.
const PAVILION: u8 = u8::MAX - 2;

/// What lies in an expansion area.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AreaState {
    /// No expansion yet.
    Empty,
    /// A face-down expansion: 7 tile spaces, no element.
    FaceDown,
    /// A face-up expansion: its pavilion on the centre, its printed hexagon on petal `petal`.
    FaceUp {
        /// The printed kind.
        kind: Kind,
        /// The petal 0..5 of the printed hexagon (its orientation).
        petal: u8,
    },
}

/// Why a hexagon may not go on a cell (sections 7.2, 7.3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlacementError {
    /// The cell does not exist yet, holds a hexagon or is an element.
    NotFree(Cell),
    /// Neighbouring hexagons exist and none shares the colour or the pattern.
    NoSharedNeighbour {
        /// The kind placed.
        kind: Kind,
        /// The cell.
        cell: Cell,
    },
    /// The colour group or the pattern group would hold two identical hexagons.
    DuplicateInGroup {
        /// The kind placed.
        kind: Kind,
        /// The cell.
        cell: Cell,
        /// The kind found twice.
        duplicate: Kind,
        /// `true` for the colour group, `false` for the pattern group.
        colour: bool,
    },
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::NotFree(cell) => {
                write!(f, "cell {cell} is not a free space of the garden")
            }
            PlacementError::NoSharedNeighbour { kind, cell } => write!(
                f,
                "{kind} on {cell} shares neither colour nor pattern with any neighbouring hexagon"
            ),
            PlacementError::DuplicateInGroup {
                kind,
                cell,
                duplicate,
                colour,
            } => write!(
                f,
                "{kind} on {cell} would put two {duplicate} in one {} group",
                if *colour { "colour" } else { "pattern" }
            ),
        }
    }
}

/// Bits of `mask` as cells, ascending.
pub(crate) fn cells_of(mut mask: u64) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        Cell::new(i)
    })
}

/// The connected component of `within` that holds `start` (a bit of `within`).
fn component(start: u64, within: u64) -> u64 {
    let mut group = start;
    let mut frontier = start;
    while frontier != 0 {
        let mut grown = 0;
        for c in cells_of(frontier) {
            grown |= NEIGHBOUR_MASKS[usize::from(c.index())];
        }
        frontier = grown & within & !group;
        group |= frontier;
    }
    group
}

/// Whether the groups of `within` (the hexagons sharing one attribute) holding the cells of
/// `next_to`, joined by a hexagon whose other attribute is `other`, hold pairwise different
/// kinds, none of them the joining one. Within such groups a kind is its other attribute
/// (`others`: the cells of each value, or of each colour), so the kinds differ exactly when no
/// other attribute is found twice; each group on its own already holds different kinds.
#[inline]
fn joins_different_kinds(next_to: u64, within: u64, others: &[u64; 6], other: usize) -> bool {
    if next_to == 0 {
        return true;
    }
    let joined = component(next_to, within);
    joined & others[other] == 0
        && others.iter().all(|&m| {
            let found = joined & m;
            found & found.wrapping_sub(1) == 0
        })
}

/// Every kind, as a bit mask over kind ids.
const ALL_KINDS: u64 = (1 << KIND_COUNT) - 1;
/// The kinds of each colour, and of each value (index value - 1), as bit masks.
pub(crate) const COLOUR_KINDS: [u64; 6] = {
    let mut out = [0; 6];
    let mut c = 0;
    while c < 6 {
        out[c] = 0b11_1111 << (6 * c);
        c += 1;
    }
    out
};
pub(crate) const VALUE_KINDS: [u64; 6] = {
    let mut out = [0; 6];
    let mut v = 0;
    while v < 6 {
        let mut c = 0;
        while c < 6 {
            out[v] |= 1 << (6 * c + v);
            c += 1;
        }
        v += 1;
    }
    out
};

/// The colour groups and pattern groups of a garden, labelled (see [`Garden::groups`]).
struct Groups {
    /// Each hexagon's colour group and pattern group.
    colour_group: [u8; CELL_COUNT],
    value_group: [u8; CELL_COUNT],
    /// The kinds (bit per kind id) of each group.
    kinds: [u64; 2 * CELL_COUNT],
}

impl Groups {
    /// The kinds of the distinct groups holding the cells of `next_to` (labelled by `labels`),
    /// if those groups hold pairwise different kinds; else `Err` with the kinds found twice.
    fn joined(&self, next_to: u64, labels: &[u8; CELL_COUNT]) -> Result<u64, u64> {
        let mut seen = 0u64;
        let mut twice = 0u64;
        let mut joined = [u8::MAX; 6];
        for (i, c) in cells_of(next_to).enumerate() {
            let label = labels[usize::from(c.index())];
            if joined.contains(&label) {
                continue;
            }
            joined[i] = label;
            let kinds = self.kinds[usize::from(label)];
            twice |= seen & kinds;
            seen |= kinds;
        }
        if twice == 0 { Ok(seen) } else { Err(twice) }
    }
}

/// One garden: the fountain board and six areas.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Garden {
    cells: [u8; CELL_COUNT],
    areas: [AreaState; 6],
    /// Cells holding a hexagon of each colour, and of each value (index value - 1).
    colours: [u64; 6],
    values: [u64; 6],
    /// Cells next to a hexagon of each colour (0..6) and of each value (6..12).
    near: [u64; 12],
    free: u64,
}

impl Default for Garden {
    fn default() -> Garden {
        Garden::new()
    }
}

impl Garden {
    /// An empty garden: the fountain board's six tile spaces, no expansion.
    pub const fn new() -> Garden {
        let mut cells = [ABSENT; CELL_COUNT];
        let mut d = 0;
        while d < 6 {
            cells[d] = FREE;
            d += 1;
        }
        Garden {
            cells,
            areas: [AreaState::Empty; 6],
            colours: [0; 6],
            values: [0; 6],
            near: [0; 12],
            free: 0b11_1111,
        }
    }

    /// The hexagon on `cell` (a tile or a printed hexagon).
    #[inline]
    pub fn hexagon(&self, cell: Cell) -> Option<Kind> {
        Kind::new(self.cells[usize::from(cell.index())])
    }

    /// The tile placed on `cell` (not a printed hexagon).
    pub fn tile(&self, cell: Cell) -> Option<Kind> {
        let kind = self.hexagon(cell)?;
        let printed = cell.area().is_some_and(|a| {
            matches!(self.areas[usize::from(a.index())], AreaState::FaceUp { petal, .. }
                if cell.petal() == Some(petal))
        });
        (!printed).then_some(kind)
    }

    /// The placed tiles, canonical cell order.
    pub fn tiles(&self) -> impl Iterator<Item = (Cell, Kind)> + '_ {
        Cell::all().filter_map(|c| self.tile(c).map(|k| (c, k)))
    }

    /// The hexagons (tiles and printed hexagons), canonical cell order.
    pub fn hexagons(&self) -> impl Iterator<Item = (Cell, Kind)> + '_ {
        cells_of(self.hexagon_mask()).filter_map(|c| self.hexagon(c).map(|k| (c, k)))
    }

    /// What lies in `area`.
    #[inline]
    pub fn area(&self, area: Area) -> AreaState {
        self.areas[usize::from(area.index())]
    }

    /// Whether `cell` is a free space (section 2.6).
    #[inline]
    pub fn is_free(&self, cell: Cell) -> bool {
        self.free & (1 << cell.index()) != 0
    }

    /// The free spaces as a bit mask over cell indices.
    #[inline]
    pub const fn free_mask(&self) -> u64 {
        self.free
    }

    /// The cells holding hexagons as a bit mask.
    #[inline]
    pub const fn hexagon_mask(&self) -> u64 {
        self.colours[0]
            | self.colours[1]
            | self.colours[2]
            | self.colours[3]
            | self.colours[4]
            | self.colours[5]
    }

    /// The number of face-up expansions (visible pavilions).
    pub fn face_up_count(&self) -> u32 {
        self.areas
            .iter()
            .filter(|a| matches!(a, AreaState::FaceUp { .. }))
            .count() as u32
    }

    /// Checks the neighbour rule and the group rule for `kind` on `cell`, which need not be a
    /// free space (an expansion's printed hexagon goes on a cell of an empty area).
    ///
    /// # Errors
    /// Which rule fails.
    pub fn check_rules(&self, kind: Kind, cell: Cell) -> Result<(), PlacementError> {
        let around = NEIGHBOUR_MASKS[usize::from(cell.index())] & self.hexagon_mask();
        let colour = usize::from(kind.colour().index());
        let value = usize::from(kind.value().get() - 1);
        let (same_colour, same_value) = (self.colours[colour], self.values[value]);
        if around != 0 && around & (same_colour | same_value) == 0 {
            return Err(PlacementError::NoSharedNeighbour { kind, cell });
        }
        let groups = self.groups_of(&[same_colour], &[same_value]);
        for (within, labels, is_colour) in [
            (same_colour, &groups.colour_group, true),
            (same_value, &groups.value_group, false),
        ] {
            let twice = match groups.joined(around & within, labels) {
                Ok(kinds) => kinds & (1 << kind.id()),
                Err(twice) => twice,
            };
            if twice != 0 {
                return Err(PlacementError::DuplicateInGroup {
                    kind,
                    cell,
                    duplicate: Kind::new(twice.trailing_zeros() as u8).unwrap_or(kind),
                    colour: is_colour,
                });
            }
        }
        Ok(())
    }

    /// Whether [`Garden::check_rules`] allows `kind` on `cell`, from the bit sets alone (no
    /// group labelling): the search's playout policy asks it of many cells a move.
    #[inline]
    pub(crate) fn fits(&self, kind: Kind, cell: Cell) -> bool {
        let around = NEIGHBOUR_MASKS[usize::from(cell.index())] & self.hexagon_mask();
        if around == 0 {
            return true;
        }
        let colour = usize::from(kind.colour().index());
        let value = usize::from(kind.value().get() - 1);
        let (same_colour, same_value) = (self.colours[colour], self.values[value]);
        around & (same_colour | same_value) != 0
            && joins_different_kinds(around & same_colour, same_colour, &self.values, value)
            && joins_different_kinds(around & same_value, same_value, &self.colours, colour)
    }

    /// The free spaces where `kind` meets the neighbour rule: those next to no hexagon, and
    /// those next to one sharing its colour or its pattern. [`Garden::fits`] holds nowhere
    /// else.
    #[inline]
    pub(crate) fn neighbourly(&self, kind: Kind) -> u64 {
        let near_any = self.near[..6].iter().fold(0, |m, &n| m | n);
        let sharing = self.near[usize::from(kind.colour().index())]
            | self.near[6 + usize::from(kind.value().get() - 1)];
        self.free & (sharing | !near_any)
    }

    /// How many hexagons next to `cell` share `kind`'s colour or pattern: the groups a tile of
    /// `kind` there would join.
    #[inline]
    pub(crate) fn shared_neighbours(&self, kind: Kind, cell: Cell) -> u32 {
        let same = self.colours[usize::from(kind.colour().index())]
            | self.values[usize::from(kind.value().get() - 1)];
        (NEIGHBOUR_MASKS[usize::from(cell.index())] & same).count_ones()
    }

    /// Labels every colour group and pattern group once.
    fn groups(&self) -> Groups {
        self.groups_of(&self.colours, &self.values)
    }

    /// Labels the groups of the given colours' and values' cell masks (the other cells keep
    /// label 0, which callers never look at).
    fn groups_of(&self, colours: &[u64], values: &[u64]) -> Groups {
        let mut groups = Groups {
            colour_group: [0; CELL_COUNT],
            value_group: [0; CELL_COUNT],
            kinds: [0; 2 * CELL_COUNT],
        };
        let mut next = 0;
        for (masks, labels) in [
            (colours, &mut groups.colour_group),
            (values, &mut groups.value_group),
        ] {
            for &mask in masks {
                let mut left = mask;
                while left != 0 {
                    let group = component(left & left.wrapping_neg(), mask);
                    left &= !group;
                    for c in cells_of(group) {
                        labels[usize::from(c.index())] = next as u8;
                        groups.kinds[next] |= 1 << self.cells[usize::from(c.index())];
                    }
                    next += 1;
                }
            }
        }
        groups
    }

    /// For each cell of `candidates`, the kinds [`Garden::check_rules`] allows there, as a bit
    /// mask over kind ids (0 for other cells), from the groups labelled once. Per cell: a kind
    /// must share an attribute with a neighbouring hexagon (if any), and the groups of its
    /// colour (of its pattern) around the cell must hold pairwise different kinds, none of them
    /// the kind itself.
    pub(crate) fn allowed_kinds(&self, candidates: u64) -> [u64; CELL_COUNT] {
        let groups = self.groups();
        let hexagons = self.hexagon_mask();
        let mut out = [0u64; CELL_COUNT];
        for cell in cells_of(candidates) {
            let around = NEIGHBOUR_MASKS[usize::from(cell.index())] & hexagons;
            let allowed = if around == 0 {
                ALL_KINDS
            } else {
                let mut share = 0;
                let mut bad = 0;
                for (masks, labels, family) in [
                    (&self.colours, &groups.colour_group, &COLOUR_KINDS),
                    (&self.values, &groups.value_group, &VALUE_KINDS),
                ] {
                    for (mask, &kinds_of) in masks.iter().zip(family) {
                        let next_to = around & mask;
                        if next_to == 0 {
                            continue;
                        }
                        share |= kinds_of;
                        bad |= groups.joined(next_to, labels).unwrap_or(kinds_of);
                    }
                }
                share & !bad
            };
            out[usize::from(cell.index())] = allowed;
        }
        out
    }

    /// Puts `kind` on `cell` (no checks).
    fn put(&mut self, cell: Cell, kind: Kind) {
        let bit = 1u64 << cell.index();
        self.cells[usize::from(cell.index())] = kind.id();
        self.free &= !bit;
        self.colours[usize::from(kind.colour().index())] |= bit;
        self.values[usize::from(kind.value().get() - 1)] |= bit;
        let around = NEIGHBOUR_MASKS[usize::from(cell.index())];
        self.near[usize::from(kind.colour().index())] |= around;
        self.near[6 + usize::from(kind.value().get() - 1)] |= around;
    }

    /// Places a tile on a free space (no checks) and returns the jokers its completed rings pay.
    pub(crate) fn place_tile(&mut self, cell: Cell, kind: Kind, jokers: Jokers) -> u8 {
        self.put(cell, kind);
        self.rewards(cell, jokers)
    }

    /// The jokers paid for every ring completed by a hexagon just put on `cell`.
    fn rewards(&self, cell: Cell, jokers: Jokers) -> u8 {
        let filled = self.hexagon_mask();
        cell.ring_elements()
            .filter(|&e| self.element_exists(e))
            .filter(|&e| {
                let ring = RING_MASKS[usize::from(e.index())];
                filled & ring == ring
            })
            .map(|e| jokers.reward(e.kind()))
            .sum()
    }

    fn element_exists(&self, element: Element) -> bool {
        match element.area() {
            Some(area) => matches!(self.area(area), AreaState::FaceUp { .. }),
            None => true,
        }
    }

    /// Places a face-up expansion (no checks) and returns the jokers its completed rings pay.
    pub(crate) fn place_face_up(&mut self, cell: Cell, kind: Kind, jokers: Jokers) -> u8 {
        let (Some(area), Some(petal)) = (cell.area(), cell.petal()) else {
            return 0;
        };
        self.open(area);
        self.cells[usize::from(area.centre().index())] = PAVILION;
        self.free &= !(1 << area.centre().index());
        self.areas[usize::from(area.index())] = AreaState::FaceUp { kind, petal };
        self.put(cell, kind);
        self.rewards(cell, jokers)
    }

    /// Places a face-down expansion (no checks).
    pub(crate) fn place_face_down(&mut self, area: Area) {
        self.open(area);
        self.areas[usize::from(area.index())] = AreaState::FaceDown;
    }

    fn open(&mut self, area: Area) {
        for i in 0..7 {
            let c = area.centre().index() + i;
            self.cells[usize::from(c)] = FREE;
            self.free |= 1 << c;
        }
    }

    /// Round scoring (section 10): each hexagon's value per category of `categories` it shows,
    /// plus 1 per face-up expansion.
    pub fn round_points(&self, categories: [crate::kind::Attribute; 3]) -> u32 {
        let mut points = self.face_up_count();
        for category in categories {
            let a = usize::from(category.index());
            // The hexagons showing the category: its colour's cells, or its pattern's.
            points += if a < 6 {
                cells_of(self.colours[a])
                    .map(|c| u32::from(self.cells[usize::from(c.index())] % 6) + 1)
                    .sum::<u32>()
            } else {
                cells_of(self.values[a - 6]).count() as u32 * (a as u32 - 5)
            };
        }
        points
    }

    /// A kind found twice in one colour group or pattern group, which the group rule (section
    /// 7.3) never lets play make.
    pub(crate) fn duplicate_in_a_group(&self) -> Option<Kind> {
        for mask in self.colours.iter().chain(&self.values) {
            let mut left = *mask;
            while left != 0 {
                let group = component(left & left.wrapping_neg(), *mask);
                left &= !group;
                let mut seen = 0u64;
                for c in cells_of(group) {
                    let id = self.cells[usize::from(c.index())];
                    if seen >> id & 1 != 0 {
                        return Kind::new(id);
                    }
                    seen |= 1 << id;
                }
            }
        }
        None
    }

    /// The neighbouring hexagons of the hexagon on `cell` that share its colour or pattern.
    fn sharing(&self, cell: Cell) -> u64 {
        let Some(kind) = self.hexagon(cell) else {
            return 0;
        };
        let same = self.colours[usize::from(kind.colour().index())]
            | self.values[usize::from(kind.value().get() - 1)];
        NEIGHBOUR_MASKS[usize::from(cell.index())] & same
    }

    /// A hexagon that no order of placements under the neighbour rule (section 7.2) can have
    /// put where it is, as far as this test tells. In any order, the first-placed hexagon of
    /// each group of hexagons linked by shared attributes had no neighbour yet, so those
    /// first hexagons are pairwise apart: a hexagon sharing nothing with its neighbours is one
    /// of them, so no two such are adjacent, and every other linked group has a hexagon
    /// adjacent to none of them.
    pub(crate) fn neighbour_rule_breach(&self) -> Option<Cell> {
        let hexagons = self.hexagon_mask();
        let alone = cells_of(hexagons)
            .filter(|&c| self.sharing(c) == 0)
            .fold(0u64, |m, c| m | 1 << c.index());
        let next_to_alone = |c: Cell| NEIGHBOUR_MASKS[usize::from(c.index())] & alone != 0;
        if let Some(c) = cells_of(alone).find(|&c| next_to_alone(c)) {
            return Some(c);
        }
        let mut left = hexagons & !alone;
        while left != 0 {
            let mut linked = left & left.wrapping_neg();
            let mut frontier = linked;
            while frontier != 0 {
                let grown = cells_of(frontier).fold(0, |m, c| m | self.sharing(c));
                frontier = grown & !linked;
                linked |= frontier;
            }
            left &= !linked;
            if cells_of(linked).all(next_to_alone) {
                return cells_of(linked).next();
            }
        }
        None
    }

    /// Final group points and six-group bonus (section 12 steps 2 and 3).
    pub fn group_points(&self) -> (u32, u32) {
        let mut points = 0;
        let mut bonus = 0;
        for mask in self.colours.iter().chain(&self.values) {
            let mut left = *mask;
            while left != 0 {
                let group = component(left & left.wrapping_neg(), *mask);
                left &= !group;
                if group.count_ones() >= 3 {
                    points += cells_of(group)
                        .filter_map(|c| self.hexagon(c))
                        .map(|k| u32::from(k.value().get()))
                        .sum::<u32>();
                }
                if group.count_ones() == 6 {
                    bonus += 6;
                }
            }
        }
        (points, bonus)
    }
}

/// The most tiles and jokers a storage holds.
pub const TILE_SPACES: u8 = 12;
/// The most expansions a storage holds.
pub const EXPANSION_SPACES: u8 = 2;

/// A player's storage: tiles, jokers and expansions (public).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Storage {
    tiles: [u8; KIND_COUNT],
    /// The kinds with a stored tile (bits by kind id).
    kinds: u64,
    tile_count: u8,
    jokers: u8,
    /// Stored expansions by printed kind id, ascending; `u8::MAX` when empty.
    expansions: [u8; 2],
}

impl Default for Storage {
    fn default() -> Storage {
        Storage::with_jokers(3)
    }
}

impl Storage {
    /// A storage holding `jokers` jokers and nothing else.
    pub const fn with_jokers(jokers: u8) -> Storage {
        Storage {
            tiles: [0; KIND_COUNT],
            kinds: 0,
            tile_count: 0,
            jokers,
            expansions: [u8::MAX; 2],
        }
    }

    /// Copies of tile `kind`.
    #[inline]
    pub fn count(&self, kind: Kind) -> u8 {
        self.tiles[usize::from(kind.id())]
    }

    /// The tiles, sorted by kind, with repeats.
    pub fn tiles(&self) -> impl Iterator<Item = Kind> + '_ {
        Kind::all().flat_map(|k| std::iter::repeat_n(k, usize::from(self.count(k))))
    }

    /// The kinds of the stored tiles as a bit mask over kind ids.
    #[inline]
    pub const fn tile_kinds(&self) -> u64 {
        self.kinds
    }

    /// The number of tiles.
    #[inline]
    pub const fn tile_count(&self) -> u8 {
        self.tile_count
    }

    /// The number of jokers.
    #[inline]
    pub const fn jokers(&self) -> u8 {
        self.jokers
    }

    /// The stored expansions' printed kinds, ascending.
    pub fn expansions(&self) -> impl Iterator<Item = Kind> + '_ {
        self.expansions.iter().filter_map(|&k| Kind::new(k))
    }

    /// The stored expansions' printed kinds as a bit mask over kind ids.
    #[inline]
    pub(crate) fn expansion_kinds(&self) -> u64 {
        self.expansions
            .iter()
            .filter(|&&k| k != u8::MAX)
            .fold(0, |m, &k| m | 1 << k)
    }

    /// Whether the expansion printed `kind` is stored.
    #[inline]
    pub fn has_expansion(&self, kind: Kind) -> bool {
        self.expansions.contains(&kind.id())
    }

    /// The number of stored expansions.
    pub fn expansion_count(&self) -> u8 {
        self.expansions.iter().filter(|&&k| k != u8::MAX).count() as u8
    }

    /// Free tile spaces: `12 - tiles - jokers`.
    #[inline]
    pub const fn free_tile_spaces(&self) -> u8 {
        TILE_SPACES.saturating_sub(self.tile_count + self.jokers)
    }

    /// Whether `hexagon` is in storage.
    pub fn holds(&self, hexagon: Hexagon) -> bool {
        match hexagon {
            Hexagon::Tile(k) => self.count(k) > 0,
            Hexagon::Expansion(k) => self.has_expansion(k),
        }
    }

    /// The sum of the values of the stored tiles and expansions.
    pub fn hexagon_value(&self) -> u32 {
        self.tiles()
            .chain(self.expansions())
            .map(|k| u32::from(k.value().get()))
            .sum()
    }

    pub(crate) fn add_tile(&mut self, kind: Kind) {
        self.tiles[usize::from(kind.id())] += 1;
        self.kinds |= 1 << kind.id();
        self.tile_count += 1;
    }

    pub(crate) fn remove_tile(&mut self, kind: Kind) {
        let count = &mut self.tiles[usize::from(kind.id())];
        *count -= 1;
        if *count == 0 {
            self.kinds &= !(1 << kind.id());
        }
        self.tile_count -= 1;
    }

    pub(crate) fn add_expansion(&mut self, kind: Kind) {
        if self.expansions[0] == u8::MAX {
            self.expansions[0] = kind.id();
        } else {
            self.expansions[1] = kind.id();
        }
        self.expansions.sort_unstable();
    }

    pub(crate) fn remove_expansion(&mut self, kind: Kind) {
        for e in &mut self.expansions {
            if *e == kind.id() {
                *e = u8::MAX;
            }
        }
        self.expansions.sort_unstable();
    }

    pub(crate) fn remove(&mut self, hexagon: Hexagon) {
        match hexagon {
            Hexagon::Tile(k) => self.remove_tile(k),
            Hexagon::Expansion(k) => self.remove_expansion(k),
        }
    }

    pub(crate) fn set_jokers(&mut self, jokers: u8) {
        self.jokers = jokers;
    }
}
