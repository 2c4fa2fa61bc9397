//! The playout policy of the benchmarks, fast: a uniformly random tile of the mover's hand, a
//! uniformly random empty route cell, then a uniformly random legal distinct rotation, each
//! read from a table, and played through the same [`Position::lay`] as every placement.
//! [`crate::policy::random_placement`] returns the same choice as a [`Move`].

use std::ops::ControlFlow;

use indigo_search::Rng;
use rand::Rng as _;

use super::{ALLOWED, HIDDEN, MAX_PLAYERS, NO_TILE, NOBODY, Position, tile_type};
use crate::board::{ROUTE_CELL_COUNT, ROUTE_CELLS};
use crate::moves::Move;
use crate::rng::below_u32;
use crate::tile::{Rotation, TILE_TOTAL, TILE_TYPE_COUNT, TileCode, TileType, route_code};

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
        Some(self.policy_place(tile, bits))
    }

    /// Where the policy lays `tile`, from the draw `bits`: the cell from its low 32 bits, the
    /// rotation from bits 33..64.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn policy_place(&self, tile: u8, bits: u64) -> PolicyChoice {
        let placed = usize::from(self.placed);
        let cells = ROUTE_CELL_COUNT - placed;
        let listed_at = (placed + below_u32(bits as u32, cells)) & 63;
        let slot = usize::from(self.empty_order.slots[listed_at]) & 63;
        let codes = POLICY_CODES[usize::from(tile) & 7][slot];
        let rotations = u64::from(codes[COUNT_BYTE]);
        let code = codes[((bits >> 33).wrapping_mul(rotations) >> 31) as usize & 7];
        PolicyChoice {
            tile,
            slot,
            listed_at,
            code,
        }
    }

    /// Plays the policy to the end of the game, seat `s` drawing from `rngs.for_seat(s)`;
    /// returns the placements made. The same game as [`Position::play_policy_in`] until it
    /// returns false (tested), faster while the pile lasts: then the seats play in turn
    /// ([`Position::play_out_stream`], [`Position::play_out_pile_of_two`]).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn play_out<R: SeatRngs>(&mut self, rngs: &mut R) -> u32 {
        if self.rules.hand_size() == 1 {
            let streamed = self.play_out_stream(rngs);
            streamed + self.play_out_in::<true, R>(rngs)
        } else {
            let from_pile = self.play_out_pile_of_two(rngs);
            from_pile + self.play_out_in::<false, R>(rngs)
        }
    }

    /// The policy's placements while the pile lasts, with hands of two and draws not
    /// explicit: then every seat holds two tiles, the mover keeps one beside the tile it draws
    /// and the next seat moves, so the loop checks no hand, chance or turn; the turn is written
    /// once at the end. Stops when the game ends or the pile's last tile is drawn; returns the
    /// placements made (none when a hand is hidden).
    fn play_out_pile_of_two<R: SeatRngs>(&mut self, rngs: &mut R) -> u32 {
        let players = self.rules.players();
        let (first, taken) = (self.to_move, usize::from(self.taken));
        let hands = &self.hands[..usize::from(players)];
        if self.explicit
            || taken >= TILE_TOTAL
            || first >= players
            || hands.iter().any(|h| h[1] >= HIDDEN)
        {
            return 0;
        }
        let mut turn = PairTurn { taken, rngs };
        let (over, last) = in_turn(self, first, &mut turn);
        self.taken = turn.taken as u8;
        self.to_move = if over {
            NOBODY
        } else {
            next_seat(last, players)
        };
        (turn.taken - taken + usize::from(over)) as u32
    }

    /// [`Position::play_out`] one [`Position::play_policy_in`] at a time.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn play_out_in<const ONE_TILE: bool, R: SeatRngs>(&mut self, rngs: &mut R) -> u32 {
        let mut placements = 0;
        while let Some(seat) = self.to_move() {
            if !self.play_policy_in::<ONE_TILE>(rngs.for_seat(seat)) {
                break;
            }
            placements += 1;
        }
        placements
    }

    /// The policy's placements while the pile lasts, with hands of one tile and draws not
    /// explicit: then the k-th placement from here plays the k-th tile of a stream (each
    /// seat's tile from the mover on, then the pile's rest) and seat `to_move + k` moves, so
    /// the loop keeps no hands, draws or turns; they are written once at the end. Stops when
    /// the game ends or the pile's last tile is drawn; returns the placements made (none when
    /// a hand is hidden).
    fn play_out_stream<R: SeatRngs>(&mut self, rngs: &mut R) -> u32 {
        let players = usize::from(self.rules.players());
        let (first, taken) = (self.to_move, usize::from(self.taken));
        if self.explicit || taken >= TILE_TOTAL || usize::from(first) >= players {
            return 0;
        }
        let mut stream = [NO_TILE; 64];
        for (k, tile) in stream[..players].iter_mut().enumerate() {
            *tile = self.hands[(usize::from(first) + k) % players][0];
            if *tile >= HIDDEN {
                return 0;
            }
        }
        stream[players..players + TILE_TOTAL - taken].copy_from_slice(&self.pile[taken..]);
        let mut turn = StreamTurn {
            stream,
            pile_left: TILE_TOTAL - taken,
            drawn: 0,
            rngs,
        };
        let (over, last) = in_turn(self, first, &mut turn);
        let drawn = turn.drawn;
        let seat = if over {
            last
        } else {
            next_seat(last, self.rules.players())
        };
        // Seat `first + k` holds stream tile k for the next `players` placements k; the game's
        // last mover played its tile and drew none.
        for (k, &tile) in stream.iter().enumerate().skip(drawn).take(players) {
            self.hands[(usize::from(first) + k) % players] = [tile, NO_TILE];
        }
        self.taken += drawn as u8;
        if over {
            self.hands[usize::from(seat)] = [NO_TILE; 2];
            self.to_move = NOBODY;
        } else {
            self.to_move = seat;
        }
        (drawn + usize::from(over)) as u32
    }

    /// Lays the policy's `choice`, without the turn around it.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn lay_choice(&mut self, choice: PolicyChoice) {
        let cell = usize::from(SLOT_CELL[choice.slot]);
        self.set_tile::<(), false>(cell, (choice.slot, choice.listed_at), choice.code, &mut ());
    }

    /// Plays one placement of the policy drawn from `rng`; false when no seat is to move.
    /// `ONE_TILE` when the rules deal hands of one tile.
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

/// The seat after `seat` of `players`.
#[inline]
fn next_seat(seat: u8, players: u8) -> u8 {
    if seat + 1 == players { 0 } else { seat + 1 }
}

/// One seat's placement in a phase of the game where the seats play in turn.
trait Turn {
    /// `seat` places; `Break(over)` ends the phase, `over` when the game ended.
    fn play(&mut self, position: &mut Position, seat: u8) -> ControlFlow<bool>;
}

/// Plays `turn` for seat `first`, then for each next seat in turn, until it breaks: the
/// break's value and the seat whose turn it was. From seat 0 on the seats are written out a
/// round at a time, so that each seat's turn is compiled with the seat a constant (its
/// generator and hand at fixed places, no turn arithmetic).
#[allow(clippy::inline_always)]
#[inline(always)]
fn in_turn<T: Turn>(position: &mut Position, first: u8, turn: &mut T) -> (bool, u8) {
    match position.rules.players() {
        2 => in_turn_of::<2, T>(position, first, turn),
        3 => in_turn_of::<3, T>(position, first, turn),
        _ => in_turn_of::<4, T>(position, first, turn),
    }
}

/// [`in_turn`] with `P` players.
#[allow(clippy::inline_always)]
#[inline(always)]
fn in_turn_of<const P: u8, T: Turn>(
    position: &mut Position,
    first: u8,
    turn: &mut T,
) -> (bool, u8) {
    let mut seat = first;
    while seat != 0 {
        if let ControlFlow::Break(value) = turn.play(position, seat) {
            return (value, seat);
        }
        seat = next_seat(seat, P);
    }
    // Written out: a loop over the seats would leave the seat a variable.
    loop {
        if let ControlFlow::Break(value) = turn.play(position, 0) {
            return (value, 0);
        }
        if let ControlFlow::Break(value) = turn.play(position, 1) {
            return (value, 1);
        }
        if P > 2
            && let ControlFlow::Break(value) = turn.play(position, 2)
        {
            return (value, 2);
        }
        if P > 3
            && let ControlFlow::Break(value) = turn.play(position, 3)
        {
            return (value, 3);
        }
    }
}

/// [`Position::play_out_stream`]'s turn: the stream's next tile.
struct StreamTurn<'r, R> {
    /// The tiles to play, in order: each seat's from the mover on, then the pile's rest.
    stream: [u8; 64],
    /// Draws left in the pile when the stream started.
    pile_left: usize,
    /// Placements made that drew a tile.
    drawn: usize,
    rngs: &'r mut R,
}

impl<R: SeatRngs> Turn for StreamTurn<'_, R> {
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn play(&mut self, position: &mut Position, seat: u8) -> ControlFlow<bool> {
        let tile = self.stream[self.drawn & 63];
        let choice = position.policy_place(tile, self.rngs.for_seat(seat).next_u64());
        position.lay_choice(choice);
        if position.gems_left == 0 {
            return ControlFlow::Break(true);
        }
        self.drawn += 1;
        if self.drawn == self.pile_left {
            return ControlFlow::Break(false);
        }
        ControlFlow::Continue(())
    }
}

/// [`Position::play_out_pile_of_two`]'s turn: one of two tiles, then a draw.
struct PairTurn<'r, R> {
    /// Tiles taken from the pile.
    taken: usize,
    rngs: &'r mut R,
}

impl<R: SeatRngs> Turn for PairTurn<'_, R> {
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn play(&mut self, position: &mut Position, seat: u8) -> ControlFlow<bool> {
        let bits = self.rngs.for_seat(seat).next_u64();
        let hand = usize::from(seat) & 3;
        let [held, other] = position.hands[hand];
        // A select, not a branch: which tile is played is a coin flip.
        let (tile, kept) = if bits >> 32 & 1 == 1 {
            (other, held)
        } else {
            (held, other)
        };
        position.lay_choice(position.policy_place(tile, bits));
        if position.gems_left == 0 {
            position.hands[hand] = [kept, NO_TILE];
            return ControlFlow::Break(true);
        }
        let drawn = position.pile[self.taken];
        self.taken += 1;
        position.hands[hand] = [kept.min(drawn), kept.max(drawn)];
        if self.taken == TILE_TOTAL {
            ControlFlow::Break(false)
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// The generator each seat's policy draws come from.
pub(crate) trait SeatRngs {
    /// Seat `seat`'s generator.
    fn for_seat(&mut self, seat: u8) -> &mut Rng;
}

/// One generator for every seat: a search's playouts.
impl SeatRngs for Rng {
    #[inline]
    fn for_seat(&mut self, _: u8) -> &mut Rng {
        self
    }
}

/// A generator a seat: a batch of playout bots.
impl SeatRngs for [Rng; MAX_PLAYERS] {
    #[inline]
    fn for_seat(&mut self, seat: u8) -> &mut Rng {
        &mut self[usize::from(seat) & 3]
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
