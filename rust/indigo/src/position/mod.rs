//! The position: a small `Copy` value holding the whole game state, pile order included, and
//! its readers. The rules live in submodules named after what they govern
//! (docs/spec/RULES.md): `turn` (set-up, turn order and draws, sections 4 and 6), `placement`
//! (legal placements and playing one, section 6), `gems` (gem movement, section 7) and
//! `scoring` (points and winners, section 8). Beside them, for search and learning: `info`
//! (what one seat knows, and its observation) and `learning` (returns under a [`Utility`]).
//! Nothing here allocates except [`Position::legal_moves`].

use std::fmt;

use crate::board::{ACROSS, CELL_COUNT, Cell, ROUTE_CELL_COUNT};
use crate::gem::Gem;
pub use crate::rules::MAX_PLAYERS;
use crate::rules::Rules;
use crate::tile::{CENTRE_CODE, EMPTY_CODE, TILE_TOTAL, TILE_TYPE_COUNT, TileCode, TileType};

mod gems;
mod info;
mod learning;
pub(crate) mod placement;
mod playout;
mod scoring;
#[cfg(test)]
mod tests;
mod text;
mod turn;
pub(crate) use info::ObservationRow;
pub use info::{
    Information, OBSERVATION_LAYOUT, OBSERVATION_PLANES, OBSERVATION_SCALARS, OBSERVATION_SIZE,
};
pub use learning::Utility;
pub(crate) use placement::ALLOWED;
use playout::EmptyOrder;
pub(crate) use playout::PolicyChoice;

/// Order in which the centre releases its gems.
pub const CENTRE_ORDER: [Gem; 6] = [
    Gem::Emerald,
    Gem::Emerald,
    Gem::Emerald,
    Gem::Emerald,
    Gem::Emerald,
    Gem::Sapphire,
];
/// Gems on the board at the start: six ambers, five emeralds, one sapphire.
pub const GEM_TOTAL: u8 = 12;

const NO_TILE: u8 = u8::MAX;
/// A hand or pile slot whose tile an observer cannot see (only in [`Information`]).
const HIDDEN: u8 = NO_TILE - 1;
const NOBODY: u8 = u8::MAX;
/// `to_move` at a chance node: a tile must be drawn before play goes on.
const CHANCE: u8 = u8::MAX - 1;

/// Who acts next.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// This seat places a tile.
    Move(u8),
    /// Explicit-chance mode: this seat draws a tile; the caller chooses the outcome.
    Draw(u8),
    /// The game has ended.
    Over,
}

/// A full game position, including the hidden pile order.
// Aligned so that each 16-byte `onward` row is: a gem's first step reads the row just laid,
// and a 16-byte store forwards its contents to a later 2-byte load only when aligned.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(align(16))]
pub struct Position {
    rules: Rules,
    /// `codes[cell]`: the code of the tile on the cell; rows from [`CELL_COUNT`] on hold
    /// [`OFF_BOARD_CODE`].
    codes: [u8; ROWS],
    /// `onward[slot]`: where a gem entering the tile on the slot's cell at its edge goes (see
    /// [`placement::onward_row`]): one load a step of a gem's walk.
    onward: [[u16; 8]; ROWS],
    /// Bit `slot` set while route cell `ROUTE_CELLS[slot]` is empty.
    empty: u64,
    /// The same slots as a list, for the playout policy (equality and hashing ignore it).
    empty_order: EmptyOrder,
    /// `facing[cell][edge]`: the gem (`Gem::to_slot`, 0 for none) resting just across that
    /// edge of the cell, looking at it. A gem rests only where it looks at an empty cell or a
    /// dead end, so the gems a tile on `cell` sets moving are the non-zero bytes of the row:
    /// one 8-byte load. Edges 6 and 7 and rows from [`CELL_COUNT`] on stay 0.
    facing: [[u8; 8]; ROWS],
    /// Each hand as tile types ascending, `NO_TILE` in unused slots.
    hands: [[u8; 2]; MAX_PLAYERS],
    pile: [u8; TILE_TOTAL],
    /// Tiles taken from the pile so far (dealt or drawn).
    taken: u8,
    /// Gems released from the centre so far.
    released: u8,
    to_move: u8,
    /// Explicit-chance mode: draws wait for [`Position::apply_draw`]; the pile rest is kept
    /// sorted by type, since its order means nothing.
    explicit: bool,
    /// The seat that draws at a chance node.
    drawer: u8,
    placed: u8,
    /// Gems not yet collected or removed (centre and corners included).
    gems_left: u8,
    removed: u8,
    /// Points per seat, seat `s` in the 16-bit lane at bit `16 * s`: one add pays every
    /// owner of a gate.
    scores: u64,
    /// `collected[gem]` for each `Gem::to_slot` (entry 0 unused): the gems of that colour
    /// collected per seat, seat `s` in the byte lane at bit `8 * s`.
    collected: [u32; 4],
}

// The alignment above reaches every `onward` row only from a 16-byte offset.
const _: () = assert!(std::mem::offset_of!(Position, onward) % 16 == 0);

/// Why a pile was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PileError(pub String);

impl fmt::Display for PileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PileError {}

/// Why a move may not be played now. The position is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// The game has ended.
    GameOver,
    /// Explicit-chance mode: a tile must be drawn first.
    AwaitingDraw {
        /// The seat that draws.
        seat: u8,
    },
    /// The mover holds no tile of that type.
    NotInHand {
        /// The seat to move.
        seat: u8,
        /// The type asked for.
        tile: TileType,
        /// What the seat holds.
        hand: Vec<TileType>,
    },
    /// The centre or a corner.
    NotRouteCell(Cell),
    /// A tile lies there already.
    Occupied(Cell),
    /// On a gate cell, a path would join the gate's two exits.
    JoinsGateExits {
        /// The gate cell.
        cell: Cell,
        /// Its gate.
        gate: u8,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => f.write_str("the game is over: no move may be played"),
            IllegalMove::AwaitingDraw { seat } => write!(
                f,
                "seat {seat} must draw a tile first: apply a chance outcome (a tile type)"
            ),
            IllegalMove::NotInHand { seat, tile, hand } => {
                let held: Vec<String> = hand.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "seat {seat} holds no tile of type {tile} (its hand: [{}])",
                    held.join(", ")
                )
            }
            IllegalMove::NotRouteCell(cell) => {
                let what = if *cell == Cell::CENTRE {
                    "the centre"
                } else {
                    "a corner"
                };
                write!(
                    f,
                    "cell {cell} is {what}: tiles go on the 54 route cells only"
                )
            }
            IllegalMove::Occupied(cell) => write!(f, "cell {cell} already holds a tile"),
            IllegalMove::JoinsGateExits { cell, gate } => write!(
                f,
                "on gate cell {cell} a path may not join gate {gate}'s exits (edges {gate} and {}): \
                 choose another rotation",
                (gate + 1) % 6
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why a chance outcome may not be applied. The position is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IllegalDraw {
    /// No draw is waiting (a seat is to move, or the game is over, or chance is sampled).
    NotChanceNode,
    /// The pile holds no tile of that type.
    NotInPile {
        /// The type asked for.
        tile: TileType,
        /// What the pile holds, by type.
        counts: [u8; TILE_TYPE_COUNT],
    },
}

impl fmt::Display for IllegalDraw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalDraw::NotChanceNode => {
                f.write_str("no draw is waiting: chance outcomes apply only at chance nodes")
            }
            IllegalDraw::NotInPile { tile, counts } => write!(
                f,
                "the pile holds no tile of type {tile} (tiles left by type 0..4: {counts:?})"
            ),
        }
    }
}

impl std::error::Error for IllegalDraw {}
impl Position {
    /// The rules.
    #[inline]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The seat to place a tile, `None` at a chance node and once the game is over.
    #[inline]
    pub const fn to_move(&self) -> Option<u8> {
        match self.phase() {
            Phase::Move(seat) => Some(seat),
            Phase::Draw(_) | Phase::Over => None,
        }
    }

    /// Whether the game has ended.
    #[inline]
    pub const fn is_over(&self) -> bool {
        self.to_move == NOBODY
    }

    /// Route tiles on the board.
    #[inline]
    pub const fn placed(&self) -> u8 {
        self.placed
    }

    /// Tiles left in the pile.
    #[inline]
    pub const fn pile_left(&self) -> u8 {
        TILE_TOTAL as u8 - self.taken
    }

    /// The whole pile as set up, front first (hidden information).
    pub fn pile(&self) -> [TileType; TILE_TOTAL] {
        self.pile.map(tile_type)
    }

    /// The tiles still in the pile, front first (hidden information).
    pub fn pile_rest(&self) -> impl Iterator<Item = TileType> + '_ {
        self.pile[self.taken as usize..]
            .iter()
            .map(|&t| tile_type(t))
    }

    /// A seat's hand, types ascending.
    pub fn hand(&self, seat: u8) -> impl Iterator<Item = TileType> {
        let (first, second) = self.hand_pair(seat);
        first.into_iter().chain(second)
    }

    /// The route tile on `cell` as `(type, canonical rotation)`, if any.
    pub fn tile_at(&self, cell: Cell) -> Option<(TileType, u8)> {
        let code = self.code(cell.index());
        (code < CENTRE_CODE).then(|| (tile_type(code / 6), code % 6))
    }

    /// The code of the tile on `cell`.
    #[inline]
    fn code(&self, cell: usize) -> TileCode {
        self.codes[cell & ROW_MASK]
    }

    /// A seat's hand as (first, second) types ascending, hidden tiles left out.
    #[inline]
    pub fn hand_pair(&self, seat: u8) -> (Option<TileType>, Option<TileType>) {
        let [a, b] = self.hands[seat as usize];
        let known = |t: u8| (t < HIDDEN).then(|| tile_type(t));
        match (known(a), known(b)) {
            (None, b) => (b, None),
            pair => pair,
        }
    }

    /// How many route cells are empty.
    #[inline]
    pub const fn empty_count(&self) -> usize {
        ROUTE_CELL_COUNT - self.placed as usize
    }

    /// The empty route cells as a bitset over [`crate::ROUTE_CELLS`] slots.
    #[inline]
    pub const fn empty_slots(&self) -> u64 {
        self.empty
    }

    /// Whether `cell` holds no tile (the centre and corners always hold one).
    #[inline]
    pub fn is_empty(&self, cell: Cell) -> bool {
        self.code(cell.index()) == EMPTY_CODE
    }
}

/// Rows of the per-cell arrays: the cells, then spare rows for off the board (a power of two,
/// so a masked index needs no bounds check).
const ROWS: usize = 64;
const ROW_MASK: usize = ROWS - 1;
const SLOT_MASK: usize = ROWS * 8 - 1;

/// `SLOT_ACROSS[cell * 8 + edge]`: the slot on the far side of that edge (`neighbour * 8 +
/// facing edge`), in the row [`crate::board::BEYOND`] past the rim.
const SLOT_ACROSS: [u16; ROWS * 8] = {
    let mut table = [0u16; ROWS * 8];
    let mut cell = 0;
    while cell < CELL_COUNT {
        let mut edge = 0;
        while edge < 6 {
            let across = ACROSS[cell][edge];
            table[cell * 8 + edge] = across.cell as u16 * 8 + across.edge as u16;
            edge += 1;
        }
        cell += 1;
    }
    table
};

#[inline]
fn cell_at(index: usize) -> Cell {
    Cell::from_index(index).unwrap_or(Cell::CENTRE)
}

#[inline]
fn tile_type(n: u8) -> TileType {
    TileType::from_index(n).unwrap_or(TileType::WideCurves)
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("to_move", &self.to_move())
            .field("placed", &self.placed)
            .field("scores", &&self.scores()[..self.rules.players() as usize])
            .field("gems_left", &self.gems_left)
            .finish_non_exhaustive()
    }
}
