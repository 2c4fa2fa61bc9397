//! Gem movement (docs/spec/RULES.md section 7): gems along the paths, collisions, gates and the centre.

use super::placement::{EXIT_SHIFT, REST_HERE};
use super::{
    CENTRE_ORDER, GEM_TOTAL, MAX_PLAYERS, Position, ROW_MASK, ROWS, SLOT_ACROSS, SLOT_MASK, cell_at,
};
use crate::board::{ACROSS, Across, CELL_COUNT, Cell, GATE_OF, NO_GATE};
use crate::gem::Gem;
use crate::trace::Tracer;

/// [`GATE_OF`] with a row for every row of the position's tables (the spare rows have none).
const GATE_BY_ROW: [u8; ROWS] = {
    let mut table = [NO_GATE; ROWS];
    let mut cell = 0;
    while cell < CELL_COUNT {
        table[cell] = GATE_OF[cell];
        cell += 1;
    }
    table
};

impl Position {
    /// Gems that left the game in collisions.
    #[inline]
    pub const fn removed(&self) -> u8 {
        self.removed
    }

    /// Gems still in play: on the board, in the centre or on corners.
    #[inline]
    pub const fn gems_left(&self) -> u8 {
        self.gems_left
    }

    /// The gems still in the centre, in release order.
    pub fn centre(&self) -> &'static [Gem] {
        &CENTRE_ORDER[self.released as usize..]
    }

    /// Every gem resting outside the centre as `(cell, edge, gem)`, sorted by `(q, r, edge)`.
    pub fn gems(&self) -> impl Iterator<Item = (Cell, u8, Gem)> + use<> {
        // Found through the rows of the cells they look at (most rows are empty), then sorted
        // by where they rest: cell indices ascend in (q, r) order.
        let mut found = [(0u8, 0u8, 0u8); GEM_TOTAL as usize];
        let mut count = 0;
        for (looked_at, row) in self.facing[..CELL_COUNT].iter().enumerate() {
            if u64::from_le_bytes(*row) == 0 {
                continue;
            }
            for (f, &slot) in row[..6].iter().enumerate() {
                if slot != 0 && count < found.len() {
                    let Across { cell, edge } = ACROSS[looked_at][f];
                    found[count] = (cell, edge, slot);
                    count += 1;
                }
            }
        }
        let found = &mut found[..count];
        found.sort_unstable();
        let mut out = [(Cell::CENTRE, 0, Gem::Amber); GEM_TOTAL as usize];
        for (o, &(cell, edge, slot)) in out.iter_mut().zip(found.iter()) {
            *o = (cell_at(cell.into()), edge, Gem::from_slot(slot));
        }
        out.into_iter().take(count)
    }

    /// Moves gem `gem` (`Gem::to_slot`), taken from its rest at slot `from` (`cell * 8 + edge`),
    /// as far as it goes (docs/spec/RULES.md section 7).
    #[inline]
    pub(super) fn move_gem<T: Tracer>(&mut self, gem: u8, from: usize, tracer: &mut T) {
        tracer.start(Gem::from_slot(gem), cell_at(from >> 3), (from & 7) as u8);
        // The gem stands at slot `s` and crosses into slot `t`. Both tables are read flat by
        // slot, and the masks drop bounds checks: `t` is masked once, and `s`, built from it
        // and an exit below 6, stays in range without one.
        let mut s = from & SLOT_MASK;
        let mut t = usize::from(SLOT_ACROSS[s]) & SLOT_MASK;
        loop {
            // One load a step: where the path through `t` leads, or that the walk ends.
            let step = self.onward.as_flattened()[t];
            if step >= REST_HERE {
                if step == REST_HERE {
                    // An empty cell or a dead end (centre, corner arrow): rest looking at it.
                    self.facing.as_flattened_mut()[t] = gem;
                    tracer.rest(cell_at(s >> 3), (s & 7) as u8);
                } else {
                    self.collect(gem, GATE_BY_ROW[s >> 3 & ROW_MASK], tracer);
                }
                return;
            }
            let met = self.facing.as_flattened()[s];
            if met != 0 {
                // A gem rests at `t` looking at `s`, coming the other way: both leave.
                self.facing.as_flattened_mut()[s] = 0;
                self.removed += 2;
                self.gems_left -= 2;
                tracer.collide(Gem::from_slot(met), cell_at(t >> 3), (t & 7) as u8);
                return;
            }
            let exit = (step >> EXIT_SHIFT) & 7;
            tracer.step(cell_at(t >> 3), (t & 7) as u8, exit as u8);
            s = (t & !7) | usize::from(exit);
            t = usize::from(step) & SLOT_MASK;
        }
    }

    /// Pays gem `gem` (`Gem::to_slot`, which is also its points) to every owner of `gate`.
    pub(super) fn collect<T: Tracer>(&mut self, gem: u8, gate: u8, tracer: &mut T) {
        debug_assert_ne!(gate, NO_GATE);
        let owners = self.rules.gate_owner_mask(gate);
        // Every owner at once, one lane each: no branch on the owners to mispredict.
        let (score_lanes, gem_lanes) = OWNER_LANES[usize::from(owners) & 15];
        self.scores += u64::from(gem) * score_lanes;
        self.collected[usize::from(gem) & 3] += gem_lanes;
        self.gems_left -= 1;
        tracer.collect(gate, owners);
    }
}

// `collect` pays a gem's `Gem::to_slot` byte as its points.
const _: () = {
    let mut g = 0;
    while g < 3 {
        let gem = [Gem::Amber, Gem::Emerald, Gem::Sapphire][g];
        assert!(gem.points() == gem.to_slot() as u16);
        g += 1;
    }
};

/// `OWNER_LANES[owners]` for a seat bitmask: a 1 in each owner's lane of
/// [`Position`]'s `scores` (16-bit lanes) and `collected` (byte lanes).
const OWNER_LANES: [(u64, u32); 16] = {
    let mut table = [(0u64, 0u32); 16];
    let mut owners = 0;
    while owners < 16 {
        let mut seat = 0;
        while seat < MAX_PLAYERS {
            if owners >> seat & 1 != 0 {
                table[owners].0 |= 1 << (16 * seat);
                table[owners].1 |= 1 << (8 * seat);
            }
            seat += 1;
        }
        owners += 1;
    }
    table
};
