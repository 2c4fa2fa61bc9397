//! The playout policy of the benchmarks, fast: a uniformly random tile of the mover's hand, a
//! uniformly random empty route cell, then a uniformly random legal distinct rotation, each
//! read from a table, and played through the same [`Position::lay`] as every placement.
//! [`crate::bots::random_placement`] returns the same choice as a [`Move`].

use indigo_search::Rng;
use rand::Rng as _;

#[cfg(test)]
use super::prefix_counts;
use super::{ALLOWED, EMPTY_PREFIX_STEP, HIDDEN, Position, tile_type};
use crate::board::{ROUTE_CELL_COUNT, ROUTE_CELLS};
use crate::moves::Move;
use crate::rng::below_u32;
use crate::tile::{Rotation, TILE_TYPE_COUNT, TileCode, TileType, route_code};

/// A placement chosen by the policy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PolicyChoice {
    tile: u8,
    slot: usize,
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
        let seat = self.to_move()?;
        let [first, second] = self.hands[usize::from(seat) & 3];
        if first >= HIDDEN {
            return None;
        }
        let bits = rng.next_u64();
        // A select, not a branch: with two tiles held, the choice is a coin flip.
        let take_second = second < HIDDEN && bits >> 32 & 1 == 1;
        let tile = if take_second { second } else { first };
        let cells = ROUTE_CELL_COUNT - usize::from(self.placed);
        let slot = select_slot(self.empty, self.empty_prefix, below_u32(bits as u32, cells)) & 63;
        let codes = POLICY_CODES[usize::from(tile) & 7][slot];
        let rotations = u64::from(codes[COUNT_BYTE]);
        let code = codes[((bits >> 33).wrapping_mul(rotations) >> 31) as usize & 7];
        Some(PolicyChoice { tile, slot, code })
    }

    /// Plays one placement of the policy drawn from `rng`; false when no seat is to move.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn play_policy(&mut self, rng: &mut Rng) -> bool {
        let Some(choice) = self.policy_choice(rng) else {
            return false;
        };
        let cell = usize::from(SLOT_CELL[choice.slot]);
        self.lay::<(), false>(choice.tile, cell, choice.slot, choice.code, &mut ());
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

/// The index of the `k`-th set bit of `word` (`k` below its popcount), without a loop:
/// broadword select (Vigna, "Broadword implementation of rank/select queries", 2008) finds
/// the byte from the prefix counts, then a table finds the bit within the byte.
#[cfg(test)]
pub(crate) fn nth_bit(word: u64, k: usize) -> usize {
    select_slot(word, prefix_counts(word), k)
}

/// [`nth_bit`] given `prefix = prefix_counts(word)` (the position keeps it up to date).
#[inline]
fn select_slot(word: u64, prefix: u64, k: usize) -> usize {
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // High bit of byte i set when prefix[i] <= k, i.e. the k-th bit lies beyond byte i.
    let below_k = ((k as u64).wrapping_mul(EMPTY_PREFIX_STEP) | HIGHS).wrapping_sub(prefix) & HIGHS;
    let byte = ((below_k >> 7).wrapping_mul(EMPTY_PREFIX_STEP) >> 56) as usize & 7;
    let shift = byte * 8;
    let before = ((prefix << 8) >> shift) as usize & 0xFF;
    shift + SELECT_IN_BYTE[(word >> shift) as usize & 0xFF][k.wrapping_sub(before) & 7] as usize
}

/// `SELECT_IN_BYTE[b][k]`: the index of the `k`-th set bit of byte `b`.
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 != 0 {
                table[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};
