//! The playout policy of the benchmarks, fast: a uniformly random tile of the mover's hand, a
//! uniformly random empty route cell, then a uniformly random legal distinct rotation, each
//! read from a table, and played through the same [`Position::lay`] as every placement.
//! [`crate::bots::random_placement`] returns the same choice as a [`Move`].

use indigo_search::Rng;
use rand::Rng as _;

use super::{ALLOWED, HIDDEN, Position, tile_type};
use crate::board::{ROUTE_CELL_COUNT, ROUTE_CELLS};
use crate::moves::Move;
use crate::rng::below_u32;
use crate::tile::{Rotation, TILE_TYPE_COUNT, TileCode, TileType, route_code};

/// A placement chosen by the policy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PolicyChoice {
    tile: u8,
    slot: usize,
    /// Where `slot` stands in the list of empty slots.
    listed_at: usize,
    code: TileCode,
}

impl PolicyChoice {
    /// The choice as a move.
    #[inline]
    pub(crate) fn to_move(self) -> Move {
        let rotation = self.code - self.tile * 6;
        Move {
            tile: tile_type(self.tile),
            rotation: Rotation::new(rotation).unwrap_or_else(|| unreachable!("a route code")),
            cell: ROUTE_CELLS[self.slot % ROUTE_CELL_COUNT],
        }
    }
}

impl Position {
    /// The policy's placement for the seat to move, from one 64-bit draw of `rng`: its low 32
    /// bits pick the cell, bit 32 the tile when the hand holds two, and bits 33..64 the
    /// rotation (each range by multiply-shift). `None` when no seat is to move, or when the
    /// mover's hand is hidden (an observer's [`crate::Information`]).
    // Measured: behind the batch's bot dispatch it otherwise stays out of line, costing ~10%.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn policy_choice(&self, rng: &mut Rng) -> Option<PolicyChoice> {
        self.policy_choice_in::<false>(rng)
    }

    /// [`Position::policy_choice`]; `ONE_TILE` when the rules deal hands of one tile (the
    /// hand's second slot is then always empty).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn policy_choice_in<const ONE_TILE: bool>(&self, rng: &mut Rng) -> Option<PolicyChoice> {
        let seat = self.to_move()?;
        let [first, second] = self.hands[usize::from(seat) & 3];
        if first >= HIDDEN {
            return None;
        }
        let bits = rng.next_u64();
        // A select, not a branch: with two tiles held, the choice is a coin flip.
        let take_second = !ONE_TILE && second < HIDDEN && bits >> 32 & 1 == 1;
        let tile = if take_second { second } else { first };
        let placed = usize::from(self.placed);
        let cells = ROUTE_CELL_COUNT - placed;
        let listed_at = (placed + below_u32(bits as u32, cells)) & 63;
        let slot = usize::from(self.empty_order.slots[listed_at]) & 63;
        let codes = POLICY_CODES[usize::from(tile) & 7][slot];
        let rotations = u64::from(codes[COUNT_BYTE]);
        let code = codes[((bits >> 33).wrapping_mul(rotations) >> 31) as usize & 7];
        Some(PolicyChoice {
            tile,
            slot,
            listed_at,
            code,
        })
    }

    /// Plays one placement of the policy drawn from `rng`; false when no seat is to move.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn play_policy(&mut self, rng: &mut Rng) -> bool {
        if self.rules.hand_size() == 1 {
            self.play_policy_in::<true>(rng)
        } else {
            self.play_policy_in::<false>(rng)
        }
    }

    /// [`Position::play_policy`]; `ONE_TILE` when the rules deal hands of one tile (the
    /// playouts choose it once a game).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn play_policy_in<const ONE_TILE: bool>(&mut self, rng: &mut Rng) -> bool {
        let Some(choice) = self.policy_choice_in::<ONE_TILE>(rng) else {
            return false;
        };
        let cell = usize::from(SLOT_CELL[choice.slot]);
        self.lay::<(), false, ONE_TILE>(
            choice.tile,
            cell,
            (choice.slot, choice.listed_at),
            choice.code,
            &mut (),
        );
        true
    }
}

/// Byte of a [`POLICY_CODES`] entry holding how many codes it lists.
const COUNT_BYTE: usize = 7;

/// `POLICY_CODES[tile][slot]`: the tile's legal distinct rotations on that route slot as
/// canonical tile codes, ascending, with their count in byte [`COUNT_BYTE`]. Rows are padded to
/// powers of two, so masked indices need no bounds checks.
const POLICY_CODES: [[[u8; 8]; 64]; 8] = {
    let mut table = [[[0u8; 8]; 64]; 8];
    let mut tile = 0;
    while tile < TILE_TYPE_COUNT {
        let mut slot = 0;
        while slot < ROUTE_CELL_COUNT {
            let entry = &mut table[tile][slot];
            let mut rho = 0;
            while rho < TileType::ALL[tile].distinct_rotations() {
                if ALLOWED[tile][rho as usize] >> slot & 1 != 0 {
                    let rotation = Rotation::new(rho).expect("below 6");
                    entry[entry[COUNT_BYTE] as usize] = route_code(TileType::ALL[tile], rotation);
                    entry[COUNT_BYTE] += 1;
                }
                rho += 1;
            }
            slot += 1;
        }
        tile += 1;
    }
    table
};

/// `SLOT_CELL[slot]`: the index of route cell `slot` (the spare slots name cell 0).
const SLOT_CELL: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut slot = 0;
    while slot < ROUTE_CELL_COUNT {
        table[slot] = ROUTE_CELLS[slot].index() as u8;
        slot += 1;
    }
    table
};

/// The empty route slots as a list, so that the playout policy finds the k-th in one load. A
/// slot leaves by swap-remove (the list's first entry takes its place), kept by
/// [`Position::lay`] for every placement, so the order depends on the order of the
/// placements, not only on the position: [`Position`]'s equality and hash ignore it.
#[derive(Clone, Copy)]
pub(super) struct EmptyOrder {
    /// `slots[placed..ROUTE_CELL_COUNT]`: the empty slots, `placed` the route tiles on the
    /// board (the filled slots' entries before them are stale).
    pub(super) slots: [u8; 64],
    /// `at[slot]`: where an empty slot stands in `slots`.
    pub(super) at: [u8; 64],
}

impl EmptyOrder {
    /// Every route slot, in slot order: the list before the first placement.
    pub(super) const ALL: EmptyOrder = {
        let mut slots = [0u8; 64];
        let mut i = 0;
        while i < 64 {
            slots[i] = i as u8;
            i += 1;
        }
        EmptyOrder { slots, at: slots }
    };

    /// Takes the slot at `listed_at` out of the list, `placed` tiles on the board before
    /// it. (Masked indices: an unchecked illegal move leaves a wrong list, never a panic.)
    #[inline]
    pub(super) fn remove(&mut self, listed_at: usize, placed: usize) {
        let moved = self.slots[placed & 63];
        self.slots[listed_at & 63] = moved;
        self.at[usize::from(moved) & 63] = listed_at as u8;
    }
}

impl PartialEq for EmptyOrder {
    /// Always: two positions equal in every rule are equal, however their cells were filled.
    fn eq(&self, _: &EmptyOrder) -> bool {
        true
    }
}

impl Eq for EmptyOrder {}

impl std::hash::Hash for EmptyOrder {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}
