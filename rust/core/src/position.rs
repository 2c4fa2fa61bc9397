//! The position: a small `Copy` value with placement, gem movement and legal moves
//! (RULES.md sections 4 to 8). Nothing here allocates except [`Position::legal_moves`].

use std::fmt;

use crate::action::ActionSet;
use crate::board::{
    ACROSS, Across, CELL_COUNT, CENTRE_FACING, Cell, CellKind, GATE_OF, NO_GATE, ROUTE_CELL_COUNT,
    ROUTE_CELLS, ROUTE_SLOT, opposite,
};
use crate::gem::Gem;
use crate::moves::Move;
use crate::rules::{Rules, TieBreak};
use crate::tile::{
    CENTRE_CODE, CODE_BYTE, CORNER_CODE, EMPTY_CODE, NO_EXIT, OFF_BOARD_CODE, PARTNERS,
    TILE_COUNTS, TILE_TOTAL, TILE_TYPE_COUNT, TileCode, TileType, canonical_code, route_code,
};
use crate::trace::Tracer;

mod info;
pub use info::{
    Information, OBSERVATION_LAYOUT, OBSERVATION_PLANES, OBSERVATION_SCALARS, OBSERVATION_SIZE,
    ObservationValue,
};

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
/// The most seats a game has.
pub const MAX_PLAYERS: usize = 4;

const NO_TILE: u8 = u8::MAX;
/// A hand or pile slot whose tile an observer cannot see (only in [`Information`]).
const HIDDEN: u8 = NO_TILE - 1;
const NOBODY: u8 = u8::MAX;
/// `to_move` at a chance node: a tile must be drawn before play goes on.
const CHANCE: u8 = u8::MAX - 1;

/// How a finished game is scored for search and learning.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Utility {
    /// Each seat's points.
    Points,
    /// The winners share 1 equally (RULES.md section 8, tie-break included); others get 0.
    Win,
    /// The share of opponents a seat beat, counting a tie as half (points, then the rules'
    /// tie-break): 1 for a clear first, 0 for a clear last.
    Rank,
}

impl Utility {
    /// The name [`Utility::from_str`](std::str::FromStr) reads.
    pub const fn as_str(self) -> &'static str {
        match self {
            Utility::Points => "points",
            Utility::Win => "win",
            Utility::Rank => "rank",
        }
    }
}

impl std::str::FromStr for Utility {
    type Err = String;

    fn from_str(name: &str) -> Result<Utility, String> {
        match name {
            "points" => Ok(Utility::Points),
            "win" => Ok(Utility::Win),
            "rank" => Ok(Utility::Rank),
            other => Err(format!(
                "utility must be 'points', 'win' or 'rank', not {other:?}"
            )),
        }
    }
}

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
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    /// `links[cell]`: the [`PARTNERS`] row of the tile on the cell (its exits by entry edge,
    /// its code in byte [`CODE_BYTE`]); rows from [`CELL_COUNT`] on are [`OFF_BOARD_CODE`]'s.
    links: [[u8; 8]; ROWS],
    /// Bit `slot` set while route cell `ROUTE_CELLS[slot]` is empty.
    empty: u64,
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
    scores: [u16; MAX_PLAYERS],
    collected: [[u8; 3]; MAX_PLAYERS],
}

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
        let mut links = [PARTNERS[usize::from(OFF_BOARD_CODE)]; ROWS];
        links[..CELL_COUNT].fill(PARTNERS[usize::from(EMPTY_CODE)]);
        let mut facing = [[0u8; 8]; ROWS];
        links[Cell::CENTRE.index()] = PARTNERS[usize::from(CENTRE_CODE)];
        for d in 0..6u8 {
            let corner = Cell::corner(d);
            links[corner.index()] = PARTNERS[usize::from(CORNER_CODE + d)];
            // The amber rests on the corner's arrow edge, looking at the arrow's cell.
            let arrow = ACROSS[corner.index()][opposite(d) as usize];
            facing[usize::from(arrow.cell)][usize::from(arrow.edge)] = Gem::Amber.to_slot();
        }
        let mut position = Position {
            rules,
            links,
            empty: ALL_SLOTS,
            facing,
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
            scores: [0; MAX_PLAYERS],
            collected: [[0; 3]; MAX_PLAYERS],
        };
        for (slot, &t) in position.pile.iter_mut().zip(pile) {
            *slot = t as u8;
        }
        for _ in 0..rules.hand_size() {
            for seat in 0..rules.players() {
                position.draw(seat);
            }
        }
        Ok(position)
    }

    /// The position after set-up in explicit-chance mode: gems placed, nothing dealt yet.
    /// Every draw, the deal included, is a chance node ([`Position::phase`] is
    /// [`Phase::Draw`]) whose outcome the caller applies with [`Position::apply_draw`].
    pub fn new_explicit(rules: Rules) -> Position {
        let mut position = Position::new(rules, &crate::setup::box_in_type_order())
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

    /// Points per seat (only the first `players` entries are used).
    #[inline]
    pub const fn scores(&self) -> [u16; MAX_PLAYERS] {
        self.scores
    }

    /// Gems collected per seat, by colour (amber, emerald, sapphire).
    #[inline]
    pub const fn collected(&self) -> [[u8; 3]; MAX_PLAYERS] {
        self.collected
    }

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

    /// The route tile on `cell` as `(type, canonical rotation)`, if any.
    pub fn tile_at(&self, cell: Cell) -> Option<(TileType, u8)> {
        let code = self.code(cell.index());
        (code < CENTRE_CODE).then(|| (tile_type(code / 6), code % 6))
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

    /// The winning seats as a bitmask; 0 until the game is over.
    pub fn winners(&self) -> u8 {
        if !self.is_over() {
            return 0;
        }
        let players = usize::from(self.rules.players());
        let gems = |s: usize| self.collected[s].iter().map(|&n| u16::from(n)).sum::<u16>();
        // Ranked by points, then (under the most-gems tie-break) by gems collected.
        let key = |s: usize| match self.rules.tie_break() {
            TieBreak::Shared => (self.scores[s], 0),
            TieBreak::MostGems => (self.scores[s], gems(s)),
        };
        let best = (0..players).map(key).max().unwrap_or((0, 0));
        (0..players)
            .filter(|&s| key(s) == best)
            .fold(0, |mask, s| mask | 1 << s)
    }

    /// Each seat's return under `utility` (unused seats 0). Win and rank returns are 0 until
    /// the game is over; points are the scores so far.
    pub fn returns(&self, utility: Utility) -> [f64; MAX_PLAYERS] {
        let players = usize::from(self.rules.players());
        let mut out = [0.0; MAX_PLAYERS];
        match utility {
            Utility::Points => {
                for (r, &s) in out.iter_mut().zip(&self.scores[..players]) {
                    *r = f64::from(s);
                }
            }
            Utility::Win => {
                let winners = self.winners();
                let share = 1.0 / f64::from(winners.count_ones().max(1));
                for (seat, r) in out[..players].iter_mut().enumerate() {
                    if winners & (1 << seat) != 0 {
                        *r = share;
                    }
                }
            }
            Utility::Rank if self.is_over() => {
                let key = |s: usize| {
                    let gems = self.collected[s].iter().map(|&n| u16::from(n)).sum::<u16>();
                    match self.rules.tie_break() {
                        TieBreak::MostGems => (self.scores[s], gems),
                        TieBreak::Shared => (self.scores[s], 0),
                    }
                };
                for (seat, r) in out[..players].iter_mut().enumerate() {
                    let beaten: f64 = (0..players)
                        .filter(|&o| o != seat)
                        .map(|o| match key(seat).cmp(&key(o)) {
                            std::cmp::Ordering::Greater => 1.0,
                            std::cmp::Ordering::Equal => 0.5,
                            std::cmp::Ordering::Less => 0.0,
                        })
                        .sum();
                    *r = beaten / (players - 1) as f64;
                }
            }
            Utility::Rank => {}
        }
        out
    }

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
        self.apply(mv, tracer);
        Ok(())
    }

    /// Plays `mv` without checking it: the fast path for callers that took it from the legal
    /// moves. An illegal `mv` leaves a position that breaks the rules (never undefined behaviour).
    #[inline]
    pub fn apply<T: Tracer>(&mut self, mv: Move, tracer: &mut T) {
        self.apply_ordered::<T, false>(mv, tracer);
    }

    /// The placement itself; `REVERSED` processes the movers in the opposite order (the result
    /// must not change: tested).
    #[inline]
    fn apply_ordered<T: Tracer, const REVERSED: bool>(&mut self, mv: Move, tracer: &mut T) {
        let seat = self.to_move;
        let hand = &mut self.hands[seat as usize];
        if hand[0] == mv.tile as u8 {
            hand[0] = hand[1];
        }
        hand[1] = NO_TILE;
        let y = mv.cell.index();
        self.links[y] = PARTNERS[usize::from(canonical_code(mv.tile, mv.rotation))];
        self.empty &= !(1 << ROUTE_SLOT[y]);
        self.placed += 1;

        // The gems looking at the new tile start to move; the centre releases one gem next to
        // it, resting on the centre's edge and looking at the tile.
        let centre_edge = CENTRE_FACING[y];
        if centre_edge < 6 && (self.released as usize) < CENTRE_ORDER.len() {
            self.facing[y][usize::from(opposite(centre_edge))] =
                CENTRE_ORDER[self.released as usize].to_slot();
            self.released += 1;
        }
        let mut movers = u64::from_le_bytes(self.facing[y]);
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

        if self.gems_left == 0 {
            self.to_move = NOBODY;
            return;
        }
        if self.explicit && self.pile_left() > 0 {
            self.to_move = CHANCE;
            self.drawer = seat;
            return;
        }
        self.draw(seat);
        self.pass_turn(seat);
    }

    /// Gives the turn to the next seat after `seat` that holds a tile (none: the game is over).
    #[inline]
    fn pass_turn(&mut self, seat: u8) {
        self.to_move = NOBODY;
        let players = self.rules.players();
        let mut next = seat;
        for _ in 0..players {
            next = if next + 1 == players { 0 } else { next + 1 };
            if self.hands[next as usize][0] != NO_TILE {
                self.to_move = next;
                break;
            }
        }
    }

    /// Moves gem `gem` (`Gem::to_slot`), taken from its rest at slot `from` (`cell * 8 + edge`),
    /// as far as it goes (RULES.md section 7).
    #[inline]
    fn move_gem<T: Tracer>(&mut self, gem: u8, from: usize, tracer: &mut T) {
        let colour = Gem::from_slot(gem);
        tracer.start(colour, cell_at(from >> 3), (from & 7) as u8);
        // The gem stands at slot `s` and crosses into slot `t`; the masks drop bounds checks.
        let mut s = from;
        loop {
            let t = usize::from(SLOT_ACROSS[s & SLOT_MASK]);
            let (m, f) = (t >> 3 & ROW_MASK, t & 7);
            let exit = self.links[m][f];
            if exit >= 6 {
                if exit == NO_EXIT {
                    // An empty cell or a dead end (centre, corner arrow): rest looking at it.
                    self.facing[m][f] = gem;
                    tracer.rest(cell_at(s >> 3), (s & 7) as u8);
                } else {
                    self.collect(colour, GATE_OF[(s >> 3) % CELL_COUNT], tracer);
                }
                return;
            }
            let (c, b) = (s >> 3 & ROW_MASK, s & 7);
            let met = self.facing[c][b];
            if met != 0 {
                // A gem rests at `t` looking at `s`, coming the other way: both leave.
                self.facing[c][b] = 0;
                self.removed += 2;
                self.gems_left -= 2;
                tracer.collide(Gem::from_slot(met), cell_at(m), f as u8);
                return;
            }
            tracer.step(cell_at(m), f as u8, exit);
            s = (t & !7) | usize::from(exit);
        }
    }

    /// The code of the tile on `cell`.
    #[inline]
    fn code(&self, cell: usize) -> TileCode {
        self.links[cell][CODE_BYTE]
    }

    fn collect<T: Tracer>(&mut self, gem: Gem, gate: u8, tracer: &mut T) {
        debug_assert_ne!(gate, NO_GATE);
        let owners = self.rules.gate_owner_mask(gate);
        for seat in 0..self.rules.players() as usize {
            if owners & (1 << seat) != 0 {
                self.scores[seat] += gem.points();
                self.collected[seat][gem as usize] += 1;
            }
        }
        self.gems_left -= 1;
        tracer.collect(gate, owners);
    }

    fn draw(&mut self, seat: u8) {
        if (self.taken as usize) < TILE_TOTAL {
            let tile = self.pile[self.taken as usize];
            self.taken += 1;
            let hand = &mut self.hands[seat as usize];
            if hand[0] == NO_TILE {
                hand[0] = tile;
            } else {
                hand[1] = tile;
                if hand[1] < hand[0] {
                    hand.swap(0, 1);
                }
            }
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
    fn for_each_legal_slots(&self, mut f: impl FnMut(TileType, u8, u64)) {
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
            set.insert_slots(crate::action::action_base(tile, rho), slots);
        });
        set
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

    /// The empty route cells as a bitset over [`ROUTE_CELLS`] slots.
    #[inline]
    pub const fn empty_slots(&self) -> u64 {
        self.empty
    }

    /// The distinct legal placements, sorted as in the snapshot's `legal` list.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(128);
        self.for_each_legal(|mv| out.push(mv));
        out
    }

    /// Whether `cell` holds no tile (the centre and corners always hold one).
    #[inline]
    pub fn is_empty(&self, cell: Cell) -> bool {
        self.code(cell.index()) == EMPTY_CODE
    }
}

impl Move {
    /// Whether this placement is on a gate cell with a path joining the gate's two exits
    /// (the one placement restriction, RULES.md section 6).
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

/// Every route-cell slot.
const ALL_SLOTS: u64 = (1 << ROUTE_CELL_COUNT) - 1;

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
            .field("scores", &&self.scores[..self.rules.players() as usize])
            .field("gems_left", &self.gems_left)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
pub(crate) fn apply_reversed(position: &mut Position, mv: Move) {
    position.apply_ordered::<(), true>(mv, &mut ());
}
