//! Set-up, whose turn it is and drawing tiles (docs/spec/RULES.md sections 4 and 6): dealing, chance
//! nodes in explicit-chance mode, passing the turn and refilling a hand.

use super::placement::{ALL_SLOTS, onward_row};
use super::{
    CHANCE, EmptyOrder, GEM_TOTAL, IllegalDraw, MAX_PLAYERS, NO_TILE, NOBODY, Phase, PileError,
    Position, ROWS,
};
use crate::board::{ACROSS, CELL_COUNT, Cell, opposite};
use crate::gem::Gem;
use crate::rules::Rules;
use crate::tile::{
    CENTRE_CODE, CORNER_CODE, EMPTY_CODE, OFF_BOARD_CODE, PARTNERS, TILE_COUNTS, TILE_TOTAL,
    TILE_TYPE_COUNT, TileType,
};

impl Position {
    /// The position after set-up with `pile` (front first): gems placed, hands dealt.
    ///
    /// # Errors
    /// If `pile` is not a permutation of the box (14, 6, 14, 14, 6 tiles of types 0..4).
    pub fn new(rules: Rules, pile: &[TileType]) -> Result<Position, PileError> {
        if pile.len() != TILE_TOTAL {
            return Err(PileError(format!(
                "must hold {TILE_TOTAL} tiles, not {}",
                pile.len()
            )));
        }
        let mut counts = [0u8; 5];
        for &t in pile {
            counts[t as usize] += 1;
        }
        if counts != TILE_COUNTS {
            return Err(PileError(format!(
                "must be a permutation of the box (tiles of types 0..4: {TILE_COUNTS:?}), \
                 not {counts:?}"
            )));
        }
        let mut shuffled = [TileType::WideCurves; TILE_TOTAL];
        shuffled.copy_from_slice(pile);
        Ok(Position::set_up(rules, &shuffled))
    }

    /// [`Position::new`] for a pile known to be a permutation of the box (a shuffle of it):
    /// the same set-up without the check.
    #[inline]
    pub(crate) fn set_up(rules: Rules, pile: &[TileType; TILE_TOTAL]) -> Position {
        let mut position = Position {
            rules,
            codes: SET_UP_CODES,
            onward: SET_UP_ONWARD,
            empty: ALL_SLOTS,
            empty_order: EmptyOrder::ALL,
            facing: SET_UP_FACING,
            hands: [[NO_TILE; 2]; MAX_PLAYERS],
            pile: [0; TILE_TOTAL],
            taken: 0,
            released: 0,
            to_move: 0,
            explicit: false,
            drawer: 0,
            placed: 0,
            gems_left: GEM_TOTAL,
            removed: 0,
            scores: 0,
            collected: [0; 4],
        };
        position.deal(pile);
        position
    }

    /// [`Position::set_up`] in place: the playouts reuse one position, not building and moving
    /// a new value each game.
    #[inline]
    pub(crate) fn reset(&mut self, rules: Rules, pile: &[TileType; TILE_TOTAL]) {
        self.rules = rules;
        self.codes = SET_UP_CODES;
        self.onward = SET_UP_ONWARD;
        self.empty = ALL_SLOTS;
        self.empty_order = EmptyOrder::ALL;
        self.facing = SET_UP_FACING;
        self.hands = [[NO_TILE; 2]; MAX_PLAYERS];
        self.taken = 0;
        self.released = 0;
        self.to_move = 0;
        self.explicit = false;
        self.drawer = 0;
        self.placed = 0;
        self.gems_left = GEM_TOTAL;
        self.removed = 0;
        self.scores = 0;
        self.collected = [0; 4];
        self.deal(pile);
    }

    /// Stores `pile` and deals the hands, seat by seat, round by round.
    #[inline]
    fn deal(&mut self, pile: &[TileType; TILE_TOTAL]) {
        for (slot, &t) in self.pile.iter_mut().zip(pile) {
            *slot = t as u8;
        }
        for _ in 0..self.rules.hand_size() {
            for seat in 0..self.rules.players() {
                self.draw(seat);
            }
        }
    }

    /// The position after set-up in explicit-chance mode: gems placed, nothing dealt yet.
    /// Every draw, the deal included, is a chance node ([`Position::phase`] is
    /// [`Phase::Draw`]) whose outcome the caller applies with [`Position::apply_draw`].
    pub fn new_explicit(rules: Rules) -> Position {
        let mut position = Position::new(rules, &crate::rng::box_in_type_order())
            .unwrap_or_else(|_| unreachable!("the box is valid"));
        position.hands = [[NO_TILE; 2]; MAX_PLAYERS];
        position.taken = 0;
        position.explicit = true;
        position.to_move = CHANCE;
        position.drawer = 0;
        position
    }

    /// Whether draws are chance nodes applied by the caller.
    #[inline]
    pub const fn is_explicit_chance(&self) -> bool {
        self.explicit
    }

    /// Who acts next.
    #[inline]
    pub const fn phase(&self) -> Phase {
        match self.to_move {
            NOBODY => Phase::Over,
            CHANCE => Phase::Draw(self.drawer),
            seat => Phase::Move(seat),
        }
    }

    /// Whether a draw waits for its outcome (explicit-chance mode only).
    #[inline]
    pub const fn is_chance_node(&self) -> bool {
        self.to_move == CHANCE
    }

    /// At a chance node, how many tiles of each type the pile holds (the outcome weights:
    /// each type's probability is its count over [`Position::pile_left`]); zeros elsewhere.
    pub fn chance_counts(&self) -> [u8; TILE_TYPE_COUNT] {
        let mut counts = [0u8; TILE_TYPE_COUNT];
        if self.is_chance_node() {
            for &t in &self.pile[self.taken as usize..] {
                counts[t as usize] += 1;
            }
        }
        counts
    }

    /// Applies a chance outcome: the drawing seat takes a tile of type `tile` from the pile.
    ///
    /// # Errors
    /// If this is not a chance node or the pile holds no such tile; nothing changes.
    pub fn apply_draw(&mut self, tile: TileType) -> Result<(), IllegalDraw> {
        if !self.is_chance_node() {
            return Err(IllegalDraw::NotChanceNode);
        }
        let rest = &mut self.pile[self.taken as usize..];
        let Some(found) = rest.iter().position(|&t| t == tile as u8) else {
            return Err(IllegalDraw::NotInPile {
                tile,
                counts: self.chance_counts(),
            });
        };
        // Bring it to the front; the rest stays sorted.
        rest[..=found].rotate_right(1);
        let seat = self.drawer;
        self.draw(seat);
        let players = self.rules.players();
        let dealt = players * self.rules.hand_size();
        if self.placed == 0 && self.taken < dealt {
            self.drawer = self.taken % players;
        } else if self.placed == 0 {
            self.to_move = 0;
        } else {
            self.pass_turn(seat);
        }
        Ok(())
    }

    /// Gives the turn to the next seat after `seat` that holds a tile (none: the game is over).
    #[inline]
    pub(super) fn pass_turn(&mut self, seat: u8) {
        let players = self.rules.players();
        let mut next = seat;
        for _ in 0..players {
            next = if next + 1 == players { 0 } else { next + 1 };
            if self.hands[next as usize & 3][0] != NO_TILE {
                self.to_move = next;
                return;
            }
        }
        self.to_move = NOBODY;
    }

    pub(super) fn draw(&mut self, seat: u8) {
        if (self.taken as usize) < TILE_TOTAL {
            let tile = self.pile[self.taken as usize];
            self.taken += 1;
            self.take_into::<false>(seat, tile);
        }
    }

    /// Puts `tile`, just drawn, into `seat`'s hand; `EMPTY_HAND` when that hand is known to
    /// be empty.
    #[inline]
    pub(super) fn take_into<const EMPTY_HAND: bool>(&mut self, seat: u8, tile: u8) {
        let hand = &mut self.hands[seat as usize & 3];
        if EMPTY_HAND {
            *hand = [tile, NO_TILE];
        } else {
            // Types ascending, without a branch on the random tile: a hand holding one tile
            // has `NO_TILE` (the largest byte) second, an empty hand first.
            let held = hand[0];
            *hand = [held.min(tile), held.max(tile)];
        }
    }
}

/// The tile codes before the first placement: empty cells, the centre, the corners, and the
/// off-board rows.
const SET_UP_CODES: [u8; ROWS] = {
    let mut codes = [OFF_BOARD_CODE; ROWS];
    let mut cell = 0;
    while cell < CELL_COUNT {
        codes[cell] = EMPTY_CODE;
        cell += 1;
    }
    codes[Cell::CENTRE.index()] = CENTRE_CODE;
    let mut d = 0;
    while d < 6 {
        codes[Cell::corner(d).index()] = CORNER_CODE + d;
        d += 1;
    }
    codes
};

/// [`SET_UP_CODES`]' onward entries: only the corners' U-turns lead on.
const SET_UP_ONWARD: [[u16; 8]; ROWS] = {
    let mut onward = [[0u16; 8]; ROWS];
    let mut row = 0;
    while row < ROWS {
        onward[row] = onward_row(row, PARTNERS[SET_UP_CODES[row] as usize]);
        row += 1;
    }
    onward
};

/// The gems before the first placement: each amber on its corner's arrow edge, looking at
/// the arrow's cell.
const SET_UP_FACING: [[u8; 8]; ROWS] = {
    let mut facing = [[0u8; 8]; ROWS];
    let mut d = 0;
    while d < 6 {
        let arrow = ACROSS[Cell::corner(d).index()][opposite(d) as usize];
        facing[arrow.cell as usize][arrow.edge as usize] = Gem::Amber.to_slot();
        d += 1;
    }
    facing
};
