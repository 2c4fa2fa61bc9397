//! Placing a tile (docs/spec/RULES.md section 6): the legal placements, the gate restriction, the
//! checked play and the unchecked [`Position::play_unchecked`].

use super::{
    CENTRE_ORDER, CHANCE, HIDDEN, IllegalMove, NO_TILE, NOBODY, Phase, Position, ROW_MASK,
    SLOT_ACROSS, tile_type,
};
use crate::action::{Action, ActionSet, action_base};
use crate::board::{
    CENTRE_FACING, CellKind, GATE_OF, NO_GATE, ROUTE_CELL_COUNT, ROUTE_CELLS, ROUTE_SLOT, opposite,
};
use crate::moves::Move;
use crate::tile::{
    EMPTY_CODE, NO_EXIT, PARTNERS, TILE_TOTAL, TILE_TYPE_COUNT, TileCode, TileType, canonical_code,
    route_code,
};
use crate::trace::Tracer;

impl Position {
    /// Whether `mv` may be played now.
    ///
    /// # Errors
    /// The reason it may not.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let seat = match self.phase() {
            Phase::Move(seat) => seat,
            Phase::Draw(seat) => return Err(IllegalMove::AwaitingDraw { seat }),
            Phase::Over => return Err(IllegalMove::GameOver),
        };
        if !self.hands[seat as usize].contains(&(mv.tile as u8)) {
            return Err(IllegalMove::NotInHand {
                seat,
                tile: mv.tile,
                hand: self.hand(seat).collect(),
            });
        }
        if mv.cell.kind() != CellKind::Route {
            return Err(IllegalMove::NotRouteCell(mv.cell));
        }
        if self.code(mv.cell.index()) != EMPTY_CODE {
            return Err(IllegalMove::Occupied(mv.cell));
        }
        if mv.joins_gate_exits() {
            return Err(IllegalMove::JoinsGateExits {
                cell: mv.cell,
                gate: GATE_OF[mv.cell.index()],
            });
        }
        Ok(())
    }

    /// Checks and plays `mv`; on error nothing changes.
    ///
    /// # Errors
    /// The reason `mv` may not be played.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.play_traced(mv, &mut ())
    }

    /// [`Position::play`], telling `tracer` what every gem does.
    ///
    /// # Errors
    /// The reason `mv` may not be played.
    pub fn play_traced<T: Tracer>(&mut self, mv: Move, tracer: &mut T) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv, tracer);
        Ok(())
    }

    /// Plays `mv` without checking it: the fast path for callers that took it from the legal
    /// moves. An illegal `mv` leaves a position that breaks the rules (never undefined behaviour).
    #[inline]
    pub fn play_unchecked<T: Tracer>(&mut self, mv: Move, tracer: &mut T) {
        self.apply_ordered::<T, false>(mv, tracer);
    }

    /// The placement itself; `REVERSED` processes the movers in the opposite order (the result
    /// must not change: tested).
    #[inline]
    pub(super) fn apply_ordered<T: Tracer, const REVERSED: bool>(
        &mut self,
        mv: Move,
        tracer: &mut T,
    ) {
        let y = mv.cell.index();
        let slot = usize::from(ROUTE_SLOT[y]);
        let listed_at = usize::from(self.empty_order.at[slot & 63]);
        self.lay::<T, REVERSED, false>(
            mv.tile as u8,
            y,
            (slot, listed_at),
            canonical_code(mv.tile, mv.rotation),
            tracer,
        );
    }

    /// Plays the mover's `tile` as tile code `code` (canonical) on cell `y`, route slot `slot`
    /// (standing at `listed_at` in the list of empty slots), then passes the turn:
    /// [`Position::play_unchecked`] and the playout policy's fast path.
    /// `ONE_TILE`: the rules deal hands of one tile, so the mover's hand empties.
    #[inline]
    pub(super) fn lay<T: Tracer, const REVERSED: bool, const ONE_TILE: bool>(
        &mut self,
        tile: u8,
        y: usize,
        (slot, listed_at): (usize, usize),
        code: TileCode,
        tracer: &mut T,
    ) {
        let seat = self.to_move;
        let hand = &mut self.hands[seat as usize & 3];
        if ONE_TILE {
            *hand = [NO_TILE; 2];
        } else {
            // Selects, not branches: with two tiles in hand, which one is played is a coin flip.
            let [first, second] = *hand;
            *hand = [if first == tile { second } else { first }, NO_TILE];
        }
        self.set_tile::<T, REVERSED>(y, (slot, listed_at), code, tracer);
        self.end_turn::<ONE_TILE>(seat);
    }

    /// Puts tile code `code` on cell `y` (route slot `slot`, standing at `listed_at` in the
    /// list of empty slots) and moves the gems it sets moving: a placement without its turn.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(super) fn set_tile<T: Tracer, const REVERSED: bool>(
        &mut self,
        y: usize,
        (slot, listed_at): (usize, usize),
        code: TileCode,
        tracer: &mut T,
    ) {
        self.fill_cell(y, (slot, listed_at), code);

        // The gems looking at the new tile start to move; the centre releases one gem next to
        // it, resting on the centre's edge and looking at the tile.
        // The row is read before the released gem is written into it: a load spanning a
        // fresh one-byte store would wait for the store to reach the cache.
        let mut movers = u64::from_le_bytes(self.facing[y]);
        let centre_edge = CENTRE_FACING[y];
        if centre_edge < 6 {
            // Each cell next to the centre is filled once, so the centre still holds a gem;
            // an illegal unchecked move past the sixth releases none (no bounds to fail).
            let released = usize::from(self.released);
            let (gem, edge) = (
                CENTRE_RELEASE[released & 7],
                usize::from(opposite(centre_edge)),
            );
            self.facing[y][edge] = gem;
            movers |= u64::from(gem) << (8 * edge);
            self.released += u8::from(released < CENTRE_ORDER.len());
        }
        while movers != 0 {
            let byte = if REVERSED {
                movers.ilog2()
            } else {
                movers.trailing_zeros()
            } / 8;
            movers &= !(0xFF << (8 * byte));
            let e = byte as usize;
            // A mover that met another earlier in this placement has left the board.
            let gem = self.facing[y][e];
            if gem != 0 {
                self.facing[y][e] = 0;
                self.move_gem(gem, usize::from(SLOT_ACROSS[y * 8 + e]), tracer);
            }
        }
    }

    /// Lays tile code `code` on cell `y` (route slot `slot`, standing at `listed_at` in the
    /// list of empty slots), moving no gem: the board part of a placement.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(super) fn fill_cell(
        &mut self,
        y: usize,
        (slot, listed_at): (usize, usize),
        code: TileCode,
    ) {
        self.codes[y & ROW_MASK] = code;
        self.onward[y & ROW_MASK] = ONWARD_ROWS[slot & 63][usize::from(code) & 31];
        // (Masked shifts: an unchecked illegal move may name a cell that has no slot.)
        self.empty &= !(1 << (slot & 63));
        self.empty_order.remove(listed_at, usize::from(self.placed));
        self.placed += 1;
    }

    /// After `seat`'s placement: the game ends with the last gem, else `seat` draws and the
    /// next seat moves. `ONE_TILE`: `seat`'s hand is empty.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn end_turn<const ONE_TILE: bool>(&mut self, seat: u8) {
        if self.gems_left == 0 {
            self.to_move = NOBODY;
            return;
        }
        let taken = usize::from(self.taken);
        if taken < TILE_TOTAL && !self.explicit {
            self.taken += 1;
            self.take_into::<ONE_TILE>(seat, self.pile[taken]);
            // While the pile lasts every other seat holds a full hand: the next seat moves.
            let next = seat + 1;
            self.to_move = if next == self.rules.players() {
                0
            } else {
                next
            };
        } else if taken < TILE_TOTAL {
            self.to_move = CHANCE;
            self.drawer = seat;
        } else {
            self.pass_turn(seat);
        }
    }

    /// Calls `f` with each distinct legal placement once (canonical rotation), in ascending
    /// `(tile, rotation, q, r)` order. Allocates nothing.
    #[inline]
    pub fn for_each_legal(&self, mut f: impl FnMut(Move)) {
        self.for_each_legal_slots(|tile, rho, slots| {
            let rotation = crate::tile::Rotation::new(rho).unwrap_or_else(|| unreachable!());
            let mut bits = slots;
            while bits != 0 {
                let cell = ROUTE_CELLS[bits.trailing_zeros() as usize];
                bits &= bits - 1;
                f(Move {
                    tile,
                    rotation,
                    cell,
                });
            }
        });
    }

    /// Calls `f(tile, rotation, slots)` for each distinct tile in hand and canonical rotation,
    /// `slots` holding the route-cell slots where that placement is legal.
    #[inline]
    pub(super) fn for_each_legal_slots(&self, mut f: impl FnMut(TileType, u8, u64)) {
        let Some(seat) = self.to_move() else { return };
        let hand = self.hands[seat as usize];
        for (i, &t) in hand.iter().enumerate() {
            if t >= HIDDEN || (i == 1 && t == hand[0]) {
                continue;
            }
            let tile = tile_type(t);
            for rho in 0..tile.distinct_rotations() {
                let slots = self.empty & ALLOWED[t as usize][rho as usize];
                if slots != 0 {
                    f(tile, rho, slots);
                }
            }
        }
    }

    /// The legal actions as a set; empty at a chance node and when the game is over.
    #[inline]
    pub fn legal_action_set(&self) -> ActionSet {
        let mut set = ActionSet::default();
        self.for_each_legal_slots(|tile, rho, slots| {
            set.insert_slots(action_base(tile, rho), slots);
        });
        set
    }

    /// The legal actions, ascending (the order of [`Position::legal_moves`]).
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::with_capacity(128);
        self.for_each_legal(|mv| out.extend(Action::from_move(mv)));
        out
    }

    /// The distinct legal placements, sorted as in the snapshot's `legal` list.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(128);
        self.for_each_legal(|mv| out.push(mv));
        out
    }
}

impl Move {
    /// Whether this placement is on a gate cell with a path joining the gate's two exits
    /// (the one placement restriction, docs/spec/RULES.md section 6).
    #[inline]
    pub fn joins_gate_exits(self) -> bool {
        joins_gate_exits(self.cell.index(), route_code(self.tile, self.rotation))
    }
}

#[inline]
const fn joins_gate_exits(cell: usize, code: TileCode) -> bool {
    let gate = GATE_OF[cell];
    gate != NO_GATE && PARTNERS[code as usize][gate as usize] == (gate + 1) % 6
}

/// [`CENTRE_ORDER`] as `Gem::to_slot` bytes, by gems released so far; 0 (no gem) past the
/// sixth, padded so that a masked index needs no bounds check.
const CENTRE_RELEASE: [u8; 8] = {
    let mut table = [0u8; 8];
    let mut k = 0;
    while k < CENTRE_ORDER.len() {
        table[k] = CENTRE_ORDER[k].to_slot();
        k += 1;
    }
    table
};

/// Every route-cell slot.
pub(super) const ALL_SLOTS: u64 = (1 << ROUTE_CELL_COUNT) - 1;

/// `ALLOWED[tile][rotation]`: the slots where that placement keeps the gate restriction.
pub(crate) const ALLOWED: [[u64; 6]; TILE_TYPE_COUNT] = {
    let mut table = [[0u64; 6]; TILE_TYPE_COUNT];
    let mut t = 0;
    while t < TILE_TYPE_COUNT {
        let mut rho = 0;
        while rho < 6 {
            let code = (t * 6 + rho) as TileCode;
            let mut slot = 0;
            while slot < ROUTE_CELL_COUNT {
                if !joins_gate_exits(ROUTE_CELLS[slot].index(), code) {
                    table[t][rho] |= 1 << slot;
                }
                slot += 1;
            }
            rho += 1;
        }
        t += 1;
    }
    table
};

#[cfg(test)]
pub(crate) fn apply_reversed(position: &mut Position, mv: Move) {
    position.apply_ordered::<(), true>(mv, &mut ());
}

/// A [`Position::onward`] entry: the slot across the exit in bits 0..9, the exit edge in bits
/// [`EXIT_SHIFT`].., or one of the two ends.
pub(super) const EXIT_SHIFT: u32 = 9;
/// The walk ends here: an empty cell or a dead end (the gem rests looking at it).
pub(super) const REST_HERE: u16 = 1 << 12;
/// The walk ends here: the path runs off the board through a gate.
pub(super) const LEAVE_HERE: u16 = 1 << 13;

/// The [`Position::onward`] row of cell `row` holding a tile whose [`PARTNERS`] row is
/// `partners`.
#[inline]
pub(super) const fn onward_row(row: usize, partners: [u8; 8]) -> [u16; 8] {
    let mut onward = [REST_HERE; 8];
    let mut edge = 0;
    while edge < 6 {
        let exit = partners[edge];
        onward[edge] = if exit < 6 {
            SLOT_ACROSS[(row & ROW_MASK) * 8 + exit as usize] | (exit as u16) << EXIT_SHIFT
        } else if exit == NO_EXIT {
            REST_HERE
        } else {
            LEAVE_HERE
        };
        edge += 1;
    }
    onward
}

/// `ONWARD_ROWS[slot][code]`: the [`Position::onward`] row of route slot `slot` holding the
/// route tile `code`, so that laying a tile copies 16 bytes.
static ONWARD_ROWS: [[[u16; 8]; 32]; 64] = {
    let mut table = [[[0u16; 8]; 32]; 64];
    let mut slot = 0;
    while slot < ROUTE_CELL_COUNT {
        let mut code = 0;
        while code < 30 {
            table[slot][code] = onward_row(ROUTE_CELLS[slot].index(), PARTNERS[code]);
            code += 1;
        }
        slot += 1;
    }
    table
};
