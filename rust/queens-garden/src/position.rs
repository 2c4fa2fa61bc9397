//! The position: everything public and hidden about a game between two moves, its legal moves
//! (section 15.3) and its move application (sections 5 to 12).

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

use pyrandom::PyRandom;

use crate::garden::{
    AreaState, COLOUR_KINDS, EXPANSION_SPACES, Garden, PlacementError, Storage, VALUE_KINDS,
    cells_of,
};
use crate::geometry::{Area, Cell};
use crate::kind::{Attribute, KIND_COUNT, Kind};
use crate::moves::{Choices, Discards, Hexagon, MAX_PAYMENT, Move, Payment};
use crate::rules::{MAX_PLAYERS, Rules};

/// Tiles in the game: three of each kind.
pub const TILE_TOTAL: usize = 108;
/// Garden expansions in the game: one of each kind.
pub const EXPANSION_TOTAL: usize = 36;
/// The largest round stack (4 players).
pub const MAX_STACK: usize = 8;
/// Jokers each storage holds at set-up.
pub const START_JOKERS: u8 = 3;
/// Each seat's score at set-up.
pub const START_SCORE: u32 = 15;
/// What a `buy` costs.
pub const BUY_COST: u32 = 6;

/// `first_passer` while nobody has passed this round.
pub(crate) const NOBODY: u8 = u8::MAX;

/// What a move is told about, and may arrange of, chance while it is played.
pub(crate) trait ChanceHook {
    /// `n` tiles are about to be drawn from the front of `bag` (the bag's tiles, after any
    /// refill); the hook may reorder `bag`.
    fn draw(&mut self, bag: &mut [u8], n: usize) {
        let _ = (bag, n);
    }

    /// A refill made `order` the bag (front first; after [`ChanceHook::draw`] arranged it).
    fn refilled(&mut self, order: &[u8]) {
        let _ = order;
    }

    /// `expansions[index]` is about to turn face up; bit `i` of `revealed` is set when
    /// `expansions[i]` was seen before. The hook may swap kinds between unseen places.
    fn reveal(&mut self, expansions: &mut [u8; EXPANSION_TOTAL], revealed: u64, index: usize) {
        let _ = (expansions, revealed, index);
    }
}

/// Tells nothing and arranges nothing: the seed or the record deals.
pub(crate) struct NoHook;

impl ChanceHook for NoHook {}

/// A closure hears the refills.
impl<F: FnMut(&[u8])> ChanceHook for F {
    fn refilled(&mut self, order: &[u8]) {
        self(order);
    }
}

/// Where a slot's expansion is this round (section 6.1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum SlotState {
    /// Still in the round stack (the top carries tiles, the others nothing).
    Stack,
    /// A face-down display expansion carrying tiles.
    Down,
    /// A face-up display expansion.
    Up,
    /// Taken into a storage.
    Gone,
}

/// Where the refills come from (section 11.3).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Chance {
    /// Refill `k` (0-based) is the bag's and the tower's tiles sorted by kind, shuffled with
    /// CPython's `random.Random(seed + (k + 1) * 2**64)`.
    Seeded(u64),
    /// The record's `refills`, in order of use.
    Listed(Arc<[Vec<Kind>]>),
}

/// A refill that could not be made (section 11.3, docs/spec/QG_FORMATS.md `refills[k]`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RefillError {
    /// The record lists no refill `index`.
    Missing {
        /// The 0-based refill number.
        index: usize,
        /// How many tiles it had to order.
        needed: usize,
    },
    /// Refill `index` is not an ordering of the bag's and the tower's tiles.
    NotAnOrdering {
        /// The 0-based refill number.
        index: usize,
        /// The tiles it must order, sorted.
        needed: Vec<Kind>,
        /// How many tiles it lists.
        given: usize,
    },
}

impl RefillError {
    /// The refill number.
    pub const fn index(&self) -> usize {
        match self {
            RefillError::Missing { index, .. } | RefillError::NotAnOrdering { index, .. } => *index,
        }
    }
}

impl fmt::Display for RefillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefillError::Missing { index, needed } => write!(
                f,
                "refill {index} is needed (an ordering of the {needed} tiles in the bag and the \
                 tower) but the record lists only {index}"
            ),
            RefillError::NotAnOrdering {
                index,
                needed,
                given,
            } => {
                let names: Vec<String> = needed.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "refill {index} must be an ordering of the {} tiles in the bag and the tower \
                     ({}), not a list of {given} tiles with other kinds or counts",
                    needed.len(),
                    names.join(" ")
                )
            }
        }
    }
}

impl std::error::Error for RefillError {}

impl Chance {
    /// Refill `index` of the sorted tiles `sorted`, written into `out`.
    pub(crate) fn refill(
        &self,
        index: usize,
        sorted: &[u8],
        out: &mut [u8],
    ) -> Result<(), RefillError> {
        match self {
            Chance::Seeded(seed) => {
                out.copy_from_slice(sorted);
                let k = index as u128 + 1;
                PyRandom::from_u128(u128::from(*seed) + (k << 64)).shuffle(out);
                Ok(())
            }
            Chance::Listed(list) => {
                let Some(order) = list.get(index) else {
                    return Err(RefillError::Missing {
                        index,
                        needed: sorted.len(),
                    });
                };
                let mut given: Vec<u8> = order.iter().map(|k| k.id()).collect();
                given.sort_unstable();
                if given != sorted {
                    return Err(RefillError::NotAnOrdering {
                        index,
                        needed: sorted.iter().filter_map(|&k| Kind::new(k)).collect(),
                        given: order.len(),
                    });
                }
                for (o, k) in out.iter_mut().zip(order.iter()) {
                    *o = k.id();
                }
                Ok(())
            }
        }
    }
}

/// Why a set-up was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SetupError {
    /// The bag is not the 108 tiles, each kind three times.
    Bag(String),
    /// The expansions are not the 36 kinds, each once.
    Expansions(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Bag(m) | SetupError::Expansions(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SetupError {}

/// Why a move may not be played now. The position is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// The game has ended.
    GameOver,
    /// `take`: no display hexagon shows the attribute (ruling R6).
    EmptySelection(Attribute),
    /// `take`: a kind found at two or more slots has no copy choice.
    MissingChoice {
        /// The ambiguous kind.
        kind: Kind,
        /// The slots it is at.
        slots: Vec<u8>,
    },
    /// `take`: a copy choice for a kind the selection finds at one slot or not at all.
    ExtraChoice(Kind),
    /// `take`: the chosen slot does not hold that kind.
    BadChoice {
        /// The kind.
        kind: Kind,
        /// The slot named.
        slot: u8,
        /// The slots it is at.
        slots: Vec<u8>,
    },
    /// `take`: the taken hexagons do not fit the storage (section 6.3).
    DoesNotFit {
        /// Tiles taken.
        tiles: u8,
        /// Free tile spaces.
        free_tiles: u8,
        /// Expansions taken.
        expansions: u8,
        /// Free expansion spaces.
        free_expansions: u8,
    },
    /// `tile`: no stored tile of that kind.
    NoSuchTile(Kind),
    /// `exp`: no stored expansion of that kind.
    NoSuchExpansion(Kind),
    /// `exp`: the cell is not a petal of an area without an expansion.
    NotAFreeArea(Cell),
    /// The placement breaks the neighbour or the group rule, or the cell is not free.
    Placement(PlacementError),
    /// The payment has the wrong number of discards.
    PaymentCount {
        /// Needed: value - 1.
        needed: usize,
        /// Given.
        given: usize,
    },
    /// The payment holds more jokers than the storage.
    NotEnoughJokers {
        /// Jokers named.
        needed: u8,
        /// Jokers held.
        held: u8,
    },
    /// A discard is not in storage.
    NotInStorage(Hexagon),
    /// The payment breaks the set rule (section 7.4).
    NotASet(String),
    /// `buy`: the area already holds an expansion.
    AreaTaken(Area),
    /// `buy`: the supply is empty.
    SupplyEmpty,
    /// `buy`: the score is below 6.
    ScoreTooLow(u32),
    /// `pass`: the discards are not a sub-multiset of the storage's hexagons.
    PassDiscards(String),
    /// A refill was needed and could not be made.
    Refill(RefillError),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |slots: &[u8]| {
            slots
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            IllegalMove::GameOver => f.write_str("the game is over: no move may be played"),
            IllegalMove::EmptySelection(a) => {
                write!(
                    f,
                    "no hexagon in the display shows {a}: the selection is empty"
                )
            }
            IllegalMove::MissingChoice { kind, slots } => write!(
                f,
                "{kind} is at slots {}: name the slot to take it from ({kind}@SLOT)",
                list(slots)
            ),
            IllegalMove::ExtraChoice(kind) => write!(
                f,
                "{kind} is not at two or more slots of the selection: it takes no copy choice"
            ),
            IllegalMove::BadChoice { kind, slot, slots } => write!(
                f,
                "slot {slot} holds no {kind} (it is at slots {})",
                list(slots)
            ),
            IllegalMove::DoesNotFit {
                tiles,
                free_tiles,
                expansions,
                free_expansions,
            } => write!(
                f,
                "the selection does not fit the storage: {tiles} tiles for {free_tiles} free tile \
                 spaces, {expansions} expansions for {free_expansions} free expansion spaces"
            ),
            IllegalMove::NoSuchTile(k) => write!(f, "the storage holds no {k} tile"),
            IllegalMove::NoSuchExpansion(k) => write!(f, "the storage holds no {k} expansion"),
            IllegalMove::NotAFreeArea(c) => {
                write!(f, "cell {c} is not a petal of an area without an expansion")
            }
            IllegalMove::Placement(e) => e.fmt(f),
            IllegalMove::PaymentCount { needed, given } => {
                write!(f, "the payment needs {needed} discards, not {given}")
            }
            IllegalMove::NotEnoughJokers { needed, held } => {
                write!(
                    f,
                    "the payment needs {needed} jokers but the storage holds {held}"
                )
            }
            IllegalMove::NotInStorage(h) => match h {
                Hexagon::Tile(k) => write!(f, "the storage holds no {k} tile to discard"),
                Hexagon::Expansion(k) => {
                    write!(f, "the storage holds no {k} expansion to discard")
                }
            },
            IllegalMove::NotASet(m) | IllegalMove::PassDiscards(m) => f.write_str(m),
            IllegalMove::AreaTaken(a) => write!(f, "area {a} already holds an expansion"),
            IllegalMove::SupplyEmpty => f.write_str("the supply holds no expansion to buy"),
            IllegalMove::ScoreTooLow(s) => {
                write!(f, "buying costs {BUY_COST} points and the score is {s}")
            }
            IllegalMove::Refill(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Whether the game goes on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// Phase 1 of a round: a player is to move.
    Actions,
    /// The game is over.
    End,
}

impl Phase {
    /// `"actions"` or `"end"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Phase::Actions => "actions",
            Phase::End => "end",
        }
    }
}

/// One seat's final scoring (section 12).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct FinalScore {
    /// The change made by the storage step (after the clamp at 0).
    pub storage: i32,
    /// Group points.
    pub groups: u32,
    /// Six-group bonus points.
    pub bonus: u32,
}

/// The round stack as the public sees it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StackView {
    /// The top's slot.
    pub slot: u8,
    /// The top's tiles, sorted.
    pub tiles: Vec<Kind>,
    /// Expansions under the top.
    pub below: u8,
}

/// A display expansion (section 6.1).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DisplayExpansion {
    /// Face down, carrying tiles (sorted, never empty).
    Down {
        /// Its slot.
        slot: u8,
        /// Its tiles.
        tiles: Vec<Kind>,
    },
    /// Face up, showing its printed hexagon.
    Up {
        /// Its slot.
        slot: u8,
        /// Its printed kind.
        kind: Kind,
    },
}

/// A full game position, hidden information (bag order, face-down kinds) included. Equal
/// positions compare and hash equal (unused storage is kept zeroed); the move count and the
/// last move are part of the position.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) rules: Rules,
    pub(crate) chance: Chance,
    /// The 36 expansions in record order: round stacks, then the supply.
    pub(crate) expansions: [u8; EXPANSION_TOTAL],
    /// The bag is `bag[bag_start..bag_end]`, front first.
    pub(crate) bag: [u8; TILE_TOTAL],
    pub(crate) bag_start: u8,
    pub(crate) bag_end: u8,
    /// Tower tiles per kind.
    pub(crate) tower: [u8; KIND_COUNT],
    pub(crate) tower_len: u8,
    pub(crate) supply: u8,
    pub(crate) refills: u8,
    pub(crate) round: u8,
    pub(crate) over: bool,
    pub(crate) to_move: u8,
    pub(crate) start_player: u8,
    pub(crate) first_passer: u8,
    pub(crate) passed: [bool; MAX_PLAYERS],
    pub(crate) scores: [u32; MAX_PLAYERS],
    pub(crate) storages: [Storage; MAX_PLAYERS],
    pub(crate) gardens: [Garden; MAX_PLAYERS],
    pub(crate) slots: [SlotState; MAX_STACK],
    /// Tiles on each slot (stack top or face-down display expansion), sorted.
    pub(crate) slot_tiles: [[u8; 4]; MAX_STACK],
    pub(crate) slot_len: [u8; MAX_STACK],
    /// The smallest slot still in the stack; the stack size once used up.
    pub(crate) top: u8,
    pub(crate) round_points: [[u32; MAX_PLAYERS]; 4],
    pub(crate) rounds_scored: u8,
    pub(crate) final_scores: [FinalScore; MAX_PLAYERS],
    pub(crate) moves_played: u32,
    pub(crate) last_move: Option<Move>,
    /// Bit `i` is set once `expansions[i]` has been face up in the display: the expansions
    /// every player has seen (the others are hidden from all, [`crate::search`]).
    pub(crate) revealed: u64,
    /// Where the display shows each kind, kept with the display (a function of the slots,
    /// their tiles, the top and the face-up expansions).
    pub(crate) shown: Shown,
}

/// Kind-id counts of a list.
fn counts(ids: impl IntoIterator<Item = u8>) -> [u32; KIND_COUNT] {
    let mut c = [0; KIND_COUNT];
    for k in ids {
        c[usize::from(k)] += 1;
    }
    c
}

/// `Some` message if `kinds` is not `copies` of each of the 36 kinds (`what` names the list).
fn multiset_error(kinds: &[Kind], copies: u32, what: &str) -> Option<String> {
    let total = KIND_COUNT * copies as usize;
    if kinds.len() != total {
        return Some(format!(
            "{what} must hold {total} kinds, not {}",
            kinds.len()
        ));
    }
    let c = counts(kinds.iter().map(|k| k.id()));
    let k = (0..KIND_COUNT as u8).find(|&k| c[usize::from(k)] != copies)?;
    Some(format!(
        "{what} must hold each kind exactly {copies} times, but holds {} {} times",
        kind(k),
        c[usize::from(k)]
    ))
}

/// Checks a bag: the 108 tiles, each kind three times.
///
/// # Errors
/// What is wrong with it.
pub fn check_bag(bag: &[Kind]) -> Result<(), SetupError> {
    multiset_error(bag, 3, "the bag").map_or(Ok(()), |m| Err(SetupError::Bag(m)))
}

/// Checks an expansion order: the 36 kinds, each once.
///
/// # Errors
/// What is wrong with it.
pub fn check_expansions(expansions: &[Kind]) -> Result<(), SetupError> {
    multiset_error(expansions, 1, "the expansions")
        .map_or(Ok(()), |m| Err(SetupError::Expansions(m)))
}

/// The seeded set-up (crate docs): the bag, then the expansions, from one `random.Random(seed)`.
pub fn seeded_setup(seed: u64) -> ([Kind; TILE_TOTAL], [Kind; EXPANSION_TOTAL]) {
    let mut rng = PyRandom::from_u64(seed);
    let mut bag: [Kind; TILE_TOTAL] = std::array::from_fn(|i| kind(i as u8 / 3));
    rng.shuffle(&mut bag);
    let mut expansions: [Kind; EXPANSION_TOTAL] = std::array::from_fn(|i| kind(i as u8));
    rng.shuffle(&mut expansions);
    (bag, expansions)
}

#[inline]
fn kind(id: u8) -> Kind {
    Kind::new(id).unwrap_or_else(|| unreachable!("kind ids are below 36"))
}

impl Position {
    /// The position after set-up (section 4) with an explicit bag and expansion order.
    ///
    /// # Errors
    /// If `bag` is not the 108 tiles or `expansions` not the 36 kinds.
    pub fn new(
        rules: Rules,
        bag: &[Kind],
        expansions: &[Kind],
        chance: Chance,
    ) -> Result<Position, SetupError> {
        check_bag(bag)?;
        check_expansions(expansions)?;
        let stack = rules.stack_size();
        let mut p = Position {
            rules,
            chance,
            expansions: std::array::from_fn(|i| expansions[i].id()),
            bag: std::array::from_fn(|i| bag[i].id()),
            bag_start: 0,
            bag_end: TILE_TOTAL as u8,
            tower: [0; KIND_COUNT],
            tower_len: 0,
            supply: EXPANSION_TOTAL as u8 - 4 * stack,
            refills: 0,
            round: 1,
            over: false,
            to_move: 0,
            start_player: 0,
            first_passer: NOBODY,
            passed: [false; MAX_PLAYERS],
            scores: [START_SCORE; MAX_PLAYERS],
            storages: [Storage::with_jokers(START_JOKERS); MAX_PLAYERS],
            gardens: [Garden::new(); MAX_PLAYERS],
            slots: [SlotState::Stack; MAX_STACK],
            slot_tiles: [[0; 4]; MAX_STACK],
            slot_len: [0; MAX_STACK],
            top: 0,
            round_points: [[0; MAX_PLAYERS]; 4],
            rounds_scored: 0,
            final_scores: [FinalScore::default(); MAX_PLAYERS],
            moves_played: 0,
            last_move: None,
            revealed: 0,
            shown: Shown::NONE,
        };
        p.give_tiles(&mut NoHook)
            .unwrap_or_else(|_| unreachable!("the full bag needs no refill"));
        Ok(p)
    }

    /// The position after the seeded set-up of `seed` (crate docs).
    pub fn from_seed(rules: Rules, seed: u64) -> Position {
        let (bag, expansions) = seeded_setup(seed);
        Position::new(rules, &bag, &expansions, Chance::Seeded(seed))
            .unwrap_or_else(|_| unreachable!("the seeded set-up is complete"))
    }

    // ----- accessors -----

    /// The rules.
    #[inline]
    pub const fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Where refills come from.
    pub const fn chance(&self) -> &Chance {
        &self.chance
    }

    /// The round 1..4 (4 after the end).
    #[inline]
    pub const fn round(&self) -> u8 {
        self.round
    }

    /// Whether the game goes on.
    #[inline]
    pub const fn phase(&self) -> Phase {
        if self.over {
            Phase::End
        } else {
            Phase::Actions
        }
    }

    /// Whether the game has ended.
    #[inline]
    pub const fn is_over(&self) -> bool {
        self.over
    }

    /// The seat to move, `None` once over.
    #[inline]
    pub const fn to_move(&self) -> Option<u8> {
        if self.over { None } else { Some(self.to_move) }
    }

    /// The seat that started this round.
    #[inline]
    pub const fn start_player(&self) -> u8 {
        self.start_player
    }

    /// The first seat to pass this round (holder of the first-player marker).
    #[inline]
    pub const fn first_passer(&self) -> Option<u8> {
        if self.first_passer == NOBODY {
            None
        } else {
            Some(self.first_passer)
        }
    }

    /// Per seat, whether it passed this round.
    pub fn passed(&self) -> &[bool] {
        &self.passed[..self.seats()]
    }

    /// Per seat, the score.
    pub fn scores(&self) -> &[u32] {
        &self.scores[..self.seats()]
    }

    /// Every seat's storage, by seat.
    pub fn storages(&self) -> &[Storage] {
        &self.storages[..self.seats()]
    }

    /// Every seat's garden, by seat.
    pub fn gardens(&self) -> &[Garden] {
        &self.gardens[..self.seats()]
    }

    /// A seat's storage.
    ///
    /// # Panics
    /// If `seat` is not a seat of the game.
    pub fn storage(&self, seat: u8) -> &Storage {
        &self.storages[..self.seats()][usize::from(seat)]
    }

    /// A seat's garden.
    ///
    /// # Panics
    /// If `seat` is not a seat of the game.
    pub fn garden(&self, seat: u8) -> &Garden {
        &self.gardens[..self.seats()][usize::from(seat)]
    }

    /// The round stack, `None` once used up.
    pub fn stack(&self) -> Option<StackView> {
        let size = self.rules.stack_size();
        (self.top < size).then(|| StackView {
            slot: self.top,
            tiles: self.slot_kinds(self.top),
            below: size - self.top - 1,
        })
    }

    /// The display expansions by slot.
    pub fn display(&self) -> Vec<DisplayExpansion> {
        (0..self.rules.stack_size())
            .filter_map(|s| match self.slots[usize::from(s)] {
                SlotState::Down => Some(DisplayExpansion::Down {
                    slot: s,
                    tiles: self.slot_kinds(s),
                }),
                SlotState::Up => Some(DisplayExpansion::Up {
                    slot: s,
                    kind: self.slot_expansion(s),
                }),
                SlotState::Stack | SlotState::Gone => None,
            })
            .collect()
    }

    /// Tiles in the bag.
    #[inline]
    pub const fn bag_len(&self) -> usize {
        (self.bag_end - self.bag_start) as usize
    }

    /// The bag's tiles, front first (hidden information).
    pub fn bag(&self) -> impl ExactSizeIterator<Item = Kind> + '_ {
        self.bag[usize::from(self.bag_start)..usize::from(self.bag_end)]
            .iter()
            .map(|&k| kind(k))
    }

    /// The bag as it was last filled (at set-up or the last refill), front first, drawn tiles
    /// included.
    pub(crate) fn bag_as_filled(&self) -> impl ExactSizeIterator<Item = Kind> + '_ {
        self.bag[..usize::from(self.bag_end)]
            .iter()
            .map(|&k| kind(k))
    }

    /// The tower's tiles, sorted.
    pub fn tower(&self) -> impl Iterator<Item = Kind> + '_ {
        Kind::all()
            .flat_map(|k| std::iter::repeat_n(k, usize::from(self.tower[usize::from(k.id())])))
    }

    /// Tiles in the tower.
    #[inline]
    pub const fn tower_len(&self) -> usize {
        self.tower_len as usize
    }

    /// Expansions in the supply.
    #[inline]
    pub const fn supply(&self) -> usize {
        self.supply as usize
    }

    /// Refills used so far.
    #[inline]
    pub const fn refills_used(&self) -> usize {
        self.refills as usize
    }

    /// The expansions in record order (hidden information).
    pub fn expansion_order(&self) -> [Kind; EXPANSION_TOTAL] {
        self.expansions.map(kind)
    }

    /// The points per seat of each finished round's phase 2.
    pub fn round_points(&self) -> Vec<&[u32]> {
        self.round_points[..usize::from(self.rounds_scored)]
            .iter()
            .map(|r| &r[..self.seats()])
            .collect()
    }

    /// The final scoring per seat, once over.
    pub fn final_scores(&self) -> Option<&[FinalScore]> {
        self.over.then(|| &self.final_scores[..self.seats()])
    }

    /// The seats with the highest score, ascending; empty until over.
    pub fn winners(&self) -> Vec<u8> {
        if !self.over {
            return Vec::new();
        }
        let best = self.scores().iter().copied().max().unwrap_or(0);
        (0..self.rules.players())
            .filter(|&s| self.scores[usize::from(s)] == best)
            .collect()
    }

    /// Each seat's return under `utility` ([`Utility`]); all but points are zeros until the
    /// game is over.
    pub fn returns(&self, utility: Utility) -> Vec<f64> {
        let scores = self.scores();
        let seats = scores.len();
        match utility {
            Utility::Points => scores.iter().map(|&s| f64::from(s)).collect(),
            Utility::Win => {
                let winners = self.winners();
                let mut out = vec![0.0; seats];
                for &w in &winners {
                    out[usize::from(w)] = 1.0 / winners.len() as f64;
                }
                out
            }
            Utility::Rank if self.over => scores
                .iter()
                .map(|&mine| {
                    let beaten: f64 = scores
                        .iter()
                        .map(|&other| match mine.cmp(&other) {
                            std::cmp::Ordering::Greater => 1.0,
                            std::cmp::Ordering::Equal => 0.5,
                            std::cmp::Ordering::Less => 0.0,
                        })
                        .sum();
                    // Less the tie with itself.
                    (beaten - 0.5) / (seats - 1) as f64
                })
                .collect(),
            Utility::ZeroSum if self.over => {
                let n = seats as f64;
                self.returns(Utility::Win)
                    .into_iter()
                    .map(|w| n / (n - 1.0) * (w - 1.0 / n))
                    .collect()
            }
            Utility::Rank | Utility::ZeroSum => vec![0.0; seats],
        }
    }

    /// Moves applied since set-up.
    #[inline]
    pub const fn moves_played(&self) -> u32 {
        self.moves_played
    }

    /// The last move applied, canonical.
    #[inline]
    pub const fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// Tiles anywhere (bag, tower, display, storages, gardens): always 108.
    pub fn tile_total(&self) -> usize {
        let display: usize = (0..MAX_STACK)
            .filter(|&s| matches!(self.slots[s], SlotState::Stack | SlotState::Down))
            .map(|s| usize::from(self.slot_len[s]))
            .sum();
        let held: usize = (0..self.rules.players())
            .map(|s| usize::from(self.storage(s).tile_count()) + self.garden(s).tiles().count())
            .sum();
        self.bag_len() + self.tower_len() + display + held
    }

    /// Expansions anywhere (stacks, display, supply, storages, gardens): always 36.
    pub fn expansion_total(&self) -> usize {
        let stack = usize::from(self.rules.stack_size());
        let future = stack * (4 - usize::from(self.round));
        // Round 4's display stays as it is after the end, so this also holds then.
        let current = (0..stack)
            .filter(|&s| self.slots[s] != SlotState::Gone)
            .count();
        let held: usize = (0..self.rules.players())
            .map(|s| {
                let g = self.garden(s);
                usize::from(self.storage(s).expansion_count())
                    + Area::all()
                        .filter(|&a| g.area(a) != AreaState::Empty)
                        .count()
            })
            .sum();
        future + current + self.supply() + held
    }

    #[inline]
    fn seats(&self) -> usize {
        usize::from(self.rules.players())
    }

    fn slot_kinds(&self, slot: u8) -> Vec<Kind> {
        let s = usize::from(slot);
        self.slot_tiles[s][..usize::from(self.slot_len[s])]
            .iter()
            .map(|&k| kind(k))
            .collect()
    }

    /// The printed kind of this round's expansion at `slot`.
    fn slot_expansion(&self, slot: u8) -> Kind {
        let stack = self.rules.stack_size();
        kind(self.expansions[usize::from((self.round - 1) * stack + slot)])
    }

    // ----- legal moves -----

    /// The legal-move list (section 15.3), canonical order, `pass` once without discards.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// Writes the legal-move list into `out` (cleared first), so a caller can reuse its buffer.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.over {
            return;
        }
        self.legal_takes(out);
        self.legal_placements(out);
        out.extend(self.buyable_areas().map(|area| Move::Buy { area }));
        out.push(Move::PASS);
    }

    /// The areas the mover may buy an expansion for, in order: none unless the mover can pay
    /// and the supply holds one.
    fn buyable_areas(&self) -> impl Iterator<Item = Area> + '_ {
        let seat = usize::from(self.to_move);
        let able = self.scores[seat] >= BUY_COST && self.supply > 0;
        Area::all().filter(move |&a| able && self.gardens[seat].area(a) == AreaState::Empty)
    }

    fn legal_takes(&self, out: &mut Vec<Move>) {
        let room = self.take_room();
        for attribute in Attribute::all() {
            let _: ControlFlow<()> =
                Position::selection(attribute, &room).visit(&room, &mut |mv| {
                    out.push(mv);
                    ControlFlow::Continue(())
                });
        }
    }

    /// A legal take at random (`below(n)` a uniform index below `n`), the same one
    /// `legal_takes(out)` then `out[below(out.len())]` gives; `None` if none is legal.
    fn random_take(room: &TakeRoom, below: &mut impl FnMut(usize) -> usize) -> Option<Move> {
        let counts = Position::take_counts(room);
        let total: usize = counts.iter().sum();
        (total > 0)
            .then(|| Position::nth_take(room, &counts, below(total)))
            .flatten()
    }

    /// The number of legal takes of each attribute ([`Attribute::all`]'s order).
    fn take_counts(room: &TakeRoom) -> [usize; 12] {
        // One take per attribute shown when nothing is ambiguous and anything fits.
        let shown = shown_attributes(room.shown.once);
        let mut counts: [usize; 12] = std::array::from_fn(|i| usize::from(shown >> i & 1 != 0));
        if room.roomy {
            // A kind at several slots multiplies the takes of its colour and its pattern.
            for k in bits(room.shown.twice) {
                let slots = usize::from(SLOT_COUNTS[usize::from(room.at(k))]);
                counts[k / 6] *= slots;
                counts[6 + k % 6] *= slots;
            }
            return counts;
        }
        // Short of room: each shown attribute's takes by its kinds at one slot (tiles and
        // expansions, counted for all attributes at once) and its ambiguous kinds.
        let fixed = room.shown.once & !room.shown.twice;
        let exps = attribute_counts(fixed & room.shown.up_kinds);
        let tiles = attribute_counts(fixed & !room.shown.up_kinds);
        for (i, (c, attribute)) in counts.iter_mut().zip(Attribute::all()).enumerate() {
            let ambiguous = room.shown.twice & ATTRIBUTE_KINDS[i];
            if ambiguous == 0 {
                // One take (if shown) of the kinds at one slot, if they fit: no branch on
                // whether the attribute is shown.
                let fits =
                    u8::from(tiles[i] <= room.free_tiles) & u8::from(exps[i] <= room.free_exps);
                *c &= usize::from(fits);
            } else {
                let selection = Selection {
                    attribute,
                    fixed_tiles: tiles[i],
                    fixed_exps: exps[i],
                    ambiguous,
                    any: true,
                };
                *c = selection.count(room);
            }
        }
        counts
    }

    /// Take `r` of the legal list's takes, whose counts per attribute are `counts`.
    fn nth_take(room: &TakeRoom, counts: &[usize; 12], mut r: usize) -> Option<Move> {
        for (attribute, &c) in Attribute::all().zip(counts) {
            if r >= c {
                r -= c;
                continue;
            }
            if room.shown.twice == 0 && room.roomy {
                return Some(Move::Take {
                    attribute,
                    choices: Choices::NONE,
                });
            }
            let sel = Position::selection(attribute, room);
            return match sel.visit(room, &mut |mv| {
                if r == 0 {
                    return ControlFlow::Break(mv);
                }
                r -= 1;
                ControlFlow::Continue(())
            }) {
                ControlFlow::Break(mv) => Some(mv),
                ControlFlow::Continue(()) => None,
            };
        }
        None
    }

    /// What a take's selection is read against: the display as shown and the mover's free
    /// spaces.
    fn take_room(&self) -> TakeRoom {
        let storage = &self.storages[usize::from(self.to_move)];
        let free_tiles = storage.free_tile_spaces();
        let free_exps = EXPANSION_SPACES - storage.expansion_count();
        TakeRoom {
            shown: self.shown,
            free_tiles,
            free_exps,
            roomy: free_tiles >= 6 && u32::from(free_exps) >= self.shown.up.count_ones(),
        }
    }

    /// [`Position::shown`] read from the display itself: what the kept one must equal.
    pub(crate) fn read_shown(&self) -> Shown {
        let mut shown = Shown::NONE;
        for s in 0..usize::from(self.rules.stack_size()) {
            match self.slots[s] {
                SlotState::Up => shown.turn_up(s, self.slot_expansion(s as u8)),
                SlotState::Down => {}
                SlotState::Stack if s == usize::from(self.top) => {}
                SlotState::Stack | SlotState::Gone => continue,
            }
            for &k in &self.slot_tiles[s][..usize::from(self.slot_len[s])] {
                shown.add(usize::from(k), s);
            }
        }
        shown
    }

    /// The kinds `attribute` selects, split into those at one slot and those at several.
    #[inline]
    fn selection(attribute: Attribute, room: &TakeRoom) -> Selection {
        let kinds = attribute_kinds(attribute);
        let any = room.shown.once & kinds != 0;
        // The counts matter only when the storage is short of room.
        let (fixed_tiles, fixed_exps) = if room.roomy || !any {
            (0, 0)
        } else {
            let fixed = room.shown.once & !room.shown.twice;
            let exps = attribute_count(fixed & room.shown.up_kinds, attribute);
            (attribute_count(fixed, attribute) - exps, exps)
        };
        Selection {
            attribute,
            fixed_tiles,
            fixed_exps,
            ambiguous: room.shown.twice & kinds,
            any,
        }
    }

    fn legal_placements(&self, out: &mut Vec<Move>) {
        let storage = &self.storages[usize::from(self.to_move)];
        let mut payments = PaymentBuffer::new();
        self.placement_cells(|kind, expansion, cells| {
            payments.fill(storage, kind);
            let row = payments.as_slice();
            out.reserve(row.len() * cells.count_ones() as usize);
            // One loop per action, so the move's tag is not chosen per move.
            for cell in cells_of(cells) {
                if expansion {
                    out.extend(row.iter().map(|&payment| Move::Exp {
                        kind,
                        cell,
                        payment,
                    }));
                } else {
                    out.extend(row.iter().map(|&payment| Move::Tile {
                        kind,
                        cell,
                        payment,
                    }));
                }
            }
        });
    }

    /// Visits the mover's placements in the legal list's order: each stored tile kind (by id),
    /// then each stored expansion, with the cells (a mask, listed ascending) where it may go; a
    /// kind with no such cell, or with no payment the storage can make, is left out. A visitor,
    /// not an iterator: an iterator would carry (and copy) the table of blocks.
    fn placement_cells(&self, mut visit: impl FnMut(Kind, bool, u64)) {
        let seat = usize::from(self.to_move);
        let storage = &self.storages[seat];
        let garden = &self.gardens[seat];
        // Most stored kinds cannot be paid for: a bit count says so before any cell is tested.
        let held = held(storage);
        let payable = |k: Kind| Families::affordable(held, storage.jokers(), k);
        let tiles = bits(storage.tile_kinds())
            .filter(|&k| payable(kind(k as u8)))
            .fold(0u64, |m, k| m | 1 << k);
        let expansions = storage
            .expansions()
            .filter(|&k| payable(k))
            .fold(0u64, |m, k| m | 1 << k.id());
        // Petals of empty areas take a stored expansion's printed hexagon.
        let petals = if expansions == 0 {
            0
        } else {
            Area::all()
                .filter(|&a| garden.area(a) == AreaState::Empty)
                .fold(0u64, |m, a| {
                    m | (0b111_1111 << a.centre().index()) & !(1 << a.centre().index())
                })
        };
        let free = if tiles == 0 { 0 } else { garden.free_mask() };
        if free | petals == 0 {
            return;
        }
        let allowed = garden.allowed_kinds(free | petals);
        // The cells of each kind: tiles on free spaces, expansions on petals.
        let mut cells = [0u64; KIND_COUNT];
        let mut petal_cells = [0u64; KIND_COUNT];
        for (within, kinds, at) in [
            (free, tiles, &mut cells),
            (petals, expansions, &mut petal_cells),
        ] {
            for c in cells_of(within) {
                for k in bits(allowed[usize::from(c.index())] & kinds) {
                    at[k] |= 1 << c.index();
                }
            }
        }
        for k in bits(tiles) {
            if cells[k] != 0 {
                visit(kind(k as u8), false, cells[k]);
            }
        }
        for k in storage.expansions() {
            let at = petal_cells[usize::from(k.id())];
            if at != 0 {
                visit(k, true, at);
            }
        }
    }

    /// A legal move at random (`below(n)` a uniform index below `n`): the one
    /// [`Position::legal_moves_into`] then `out[below(out.len())]` gives, found by counting
    /// the list's moves and unranking the drawn one instead of writing the list. `None` once
    /// the game is over.
    pub fn random_legal_move(&self, below: &mut impl FnMut(usize) -> usize) -> Option<Move> {
        if self.over {
            return None;
        }
        let seat = usize::from(self.to_move);
        let storage = &self.storages[seat];
        let room = self.take_room();
        let takes = Position::take_counts(&room);
        let take_total: usize = takes.iter().sum();
        let mut total = take_total;
        // Each placement block: its kind, whether an expansion, its cells, its payments.
        let mut blocks = [(kind(0), false, 0u64, 0usize); KIND_COUNT + EXPANSION_SPACES as usize];
        let mut n = 0;
        self.placement_cells(|k, expansion, cells| {
            let mut families = Families::new(storage, k);
            families.count_ways();
            let payments = families.count().min(PaymentBuffer::CAPACITY);
            blocks[n] = (k, expansion, cells, payments);
            n += 1;
            total += cells.count_ones() as usize * payments;
        });
        let buys = self.buyable_areas().count();
        total += buys + 1;
        let mut r = below(total);
        if r < take_total {
            return Position::nth_take(&room, &takes, r);
        }
        r -= take_total;
        for &(kind, expansion, cells, payments) in &blocks[..n] {
            let size = cells.count_ones() as usize * payments;
            if r >= size {
                r -= size;
                continue;
            }
            let cell = cells_of(cells).nth(r / payments)?;
            let mut families = Families::new(storage, kind);
            families.count_ways();
            let payment = families.nth(r % payments)?;
            return Some(if expansion {
                Move::Exp {
                    kind,
                    cell,
                    payment,
                }
            } else {
                Move::Tile {
                    kind,
                    cell,
                    payment,
                }
            });
        }
        Some(
            self.buyable_areas()
                .nth(r)
                .map_or(Move::PASS, |area| Move::Buy { area }),
        )
    }

    /// One move of the search's fast playout policy, `None` once over: a tile placement when
    /// one is possible (a stored kind at random, its first fitting free space from a random
    /// start, a payment at random), else a take at random, else `pass`. It never builds the
    /// legal-move list, never buys or places an expansion, and passes only when nothing else
    /// of these is legal. `below(n)` is a uniform index below `n`.
    pub fn playout_move(&self, below: &mut impl FnMut(usize) -> usize) -> Option<Move> {
        self.playout_move_placing(below, Placing::First)
    }

    /// [`Position::playout_move`] with the tile's kind and space chosen by `placing`.
    #[inline]
    pub(crate) fn playout_move_placing(
        &self,
        below: &mut impl FnMut(usize) -> usize,
        placing: Placing,
    ) -> Option<Move> {
        if self.over {
            return None;
        }
        let seat = usize::from(self.to_move);
        let storage = &self.storages[seat];
        let garden = &self.gardens[seat];
        let mut kinds = [0u8; KIND_COUNT];
        let mut n = 0;
        for k in bits(storage.tile_kinds()) {
            kinds[n] = k as u8;
            n += 1;
        }
        let free = garden.free_mask();
        let m = free.count_ones() as usize;
        let held = held(storage);
        // `Placing::Grouping`'s kind, space and shared neighbours so far.
        let mut grouped: Option<(Kind, Cell, u32)> = None;
        while n > 0 && m > 0 {
            let i = below(n);
            let k = kind(kinds[i]);
            kinds.swap(i, n - 1);
            n -= 1;
            // The first fitting free space from the `start`-th on, then from the first.
            let start = below(m);
            if !Families::affordable(held, storage.jokers(), k) {
                continue;
            }
            let candidates = garden.neighbourly(k);
            let mut from = free;
            for _ in 0..start {
                from &= from - 1;
            }
            let below_start = (from & from.wrapping_neg()) - 1;
            let mut fitting = cells_of(candidates & !below_start)
                .chain(cells_of(candidates & below_start))
                .filter(|&c| garden.fits(k, c));
            match placing {
                Placing::First => {
                    let tile = fitting.next().and_then(|c| tile_move(storage, k, c, below));
                    if tile.is_some() {
                        return tile;
                    }
                }
                // The first space with the most of the first kind with the most:
                // `min_by_key` keeps the first minimum, and only more replaces a kind.
                Placing::Grouping => {
                    let most = fitting
                        .map(|c| (c, garden.shared_neighbours(k, c)))
                        .min_by_key(|&(_, shared)| std::cmp::Reverse(shared));
                    if let Some((cell, shared)) = most
                        && grouped.is_none_or(|(_, _, most)| shared > most)
                    {
                        grouped = Some((k, cell, shared));
                    }
                }
            }
        }
        if let Some(tile) = grouped.and_then(|(k, cell, _)| tile_move(storage, k, cell, below)) {
            return Some(tile);
        }
        Some(Position::random_take(&self.take_room(), below).unwrap_or(Move::PASS))
    }

    // ----- checking -----

    /// Checks `mv` without playing it.
    ///
    /// # Errors
    /// Why `mv` is illegal (a refill problem shows only when the move is applied).
    pub fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        if self.over {
            return Err(IllegalMove::GameOver);
        }
        let seat = usize::from(self.to_move);
        let storage = &self.storages[seat];
        let garden = &self.gardens[seat];
        match *mv {
            Move::Take { attribute, choices } => self.check_take(attribute, &choices),
            Move::Tile {
                kind: k,
                cell,
                payment,
            } => {
                if storage.count(k) == 0 {
                    return Err(IllegalMove::NoSuchTile(k));
                }
                if !garden.is_free(cell) {
                    return Err(IllegalMove::Placement(PlacementError::NotFree(cell)));
                }
                garden
                    .check_rules(k, cell)
                    .map_err(IllegalMove::Placement)?;
                check_payment(storage, k, payment)
            }
            Move::Exp {
                kind: k,
                cell,
                payment,
            } => {
                if !storage.has_expansion(k) {
                    return Err(IllegalMove::NoSuchExpansion(k));
                }
                match (cell.area(), cell.petal()) {
                    (Some(area), Some(_)) if garden.area(area) == AreaState::Empty => {}
                    _ => return Err(IllegalMove::NotAFreeArea(cell)),
                }
                garden
                    .check_rules(k, cell)
                    .map_err(IllegalMove::Placement)?;
                check_payment(storage, k, payment)
            }
            Move::Buy { area } => {
                if garden.area(area) != AreaState::Empty {
                    return Err(IllegalMove::AreaTaken(area));
                }
                if self.supply == 0 {
                    return Err(IllegalMove::SupplyEmpty);
                }
                if self.scores[seat] < BUY_COST {
                    return Err(IllegalMove::ScoreTooLow(self.scores[seat]));
                }
                Ok(())
            }
            Move::Pass { discards } => check_pass(storage, &discards),
        }
    }

    fn check_take(&self, attribute: Attribute, choices: &Choices) -> Result<(), IllegalMove> {
        let at = &self.shown.at;
        let mut any = false;
        let mut tiles = 0u8;
        let mut exps = 0u8;
        for k in attribute.kinds() {
            let mask = at[usize::from(k.id())];
            let slots = || {
                (0..8u8)
                    .filter(|s| mask & (1 << s) != 0)
                    .collect::<Vec<u8>>()
            };
            let chosen = choices.slot_of(k);
            let slot = match (mask.count_ones(), chosen) {
                (0, None) => continue,
                (0 | 1, Some(_)) => return Err(IllegalMove::ExtraChoice(k)),
                (1, None) => mask.trailing_zeros() as u8,
                (_, None) => {
                    return Err(IllegalMove::MissingChoice {
                        kind: k,
                        slots: slots(),
                    });
                }
                (_, Some(s)) => {
                    if s >= 8 || mask & (1 << s) == 0 {
                        return Err(IllegalMove::BadChoice {
                            kind: k,
                            slot: s,
                            slots: slots(),
                        });
                    }
                    s
                }
            };
            any = true;
            if self.slots[usize::from(slot)] == SlotState::Up {
                exps += 1;
            } else {
                tiles += 1;
            }
        }
        if let Some((k, _)) = choices.iter().find(|(k, _)| !k.shows(attribute)) {
            return Err(IllegalMove::ExtraChoice(k));
        }
        if !any {
            return Err(IllegalMove::EmptySelection(attribute));
        }
        let storage = &self.storages[usize::from(self.to_move)];
        let free_tiles = storage.free_tile_spaces();
        let free_expansions = EXPANSION_SPACES - storage.expansion_count();
        if tiles > free_tiles || exps > free_expansions {
            return Err(IllegalMove::DoesNotFit {
                tiles,
                free_tiles,
                expansions: exps,
                free_expansions,
            });
        }
        Ok(())
    }

    /// Whether `mv` may be played now (a refill problem shows only when it is applied).
    pub fn is_legal(&self, mv: &Move) -> bool {
        self.check(mv).is_ok()
    }

    // ----- applying -----

    /// Checks and plays `mv`. On error the position is unchanged.
    ///
    /// # Errors
    /// Why `mv` is illegal, or the refill it needs cannot be made.
    pub fn play(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        self.play_observed(mv, &mut NoHook)
    }

    /// [`Position::play`], telling `hook` what chance does (a refill's new order).
    pub(crate) fn play_observed(
        &mut self,
        mv: &Move,
        on_refill: &mut dyn ChanceHook,
    ) -> Result<(), IllegalMove> {
        self.check(mv)?;
        if !self.may_refill(mv) {
            // Without a listed refill to run out of, playing cannot fail.
            return self
                .play_unchecked_with(mv, on_refill)
                .map_err(IllegalMove::Refill);
        }
        let mut next = self.clone();
        next.play_unchecked_with(mv, on_refill)
            .map_err(IllegalMove::Refill)?;
        *self = next;
        Ok(())
    }

    /// Whether playing `mv` can need a refill (a take from the stack top, or a last pass).
    fn may_refill(&self, mv: &Move) -> bool {
        matches!(self.chance, Chance::Listed(_))
            && self.bag_len() < 8
            && match mv {
                Move::Take { .. } => true,
                Move::Pass { .. } => {
                    self.passed[..self.seats()].iter().filter(|&&p| !p).count() == 1
                }
                _ => false,
            }
    }

    /// Plays `mv`, which the caller knows to be legal (e.g. from [`Position::legal_moves`]),
    /// without checking it: for search. An illegal move leaves the position meaningless (and
    /// may trip an overflow check in a debug build); use [`Position::play`] for anything a
    /// caller did not get from the legal-move list.
    ///
    /// # Errors
    /// Only a [`Chance::Listed`] position can fail, when the refill it needs is missing or
    /// wrong; the position is then half-played: use [`Position::play`] for untrusted input.
    pub fn play_unchecked(&mut self, mv: &Move) -> Result<(), RefillError> {
        self.play_unchecked_with(mv, &mut NoHook)
    }

    /// Plays `mv` (trusted) with `hook` told, and allowed to arrange, every draw and reveal.
    pub(crate) fn play_unchecked_with(
        &mut self,
        mv: &Move,
        on_refill: &mut dyn ChanceHook,
    ) -> Result<(), RefillError> {
        let seat = usize::from(self.to_move);
        match *mv {
            Move::Take { attribute, choices } => {
                self.play_take(attribute, &choices, on_refill)?;
            }
            Move::Tile {
                kind: k,
                cell,
                payment,
            } => {
                self.storages[seat].remove_tile(k);
                self.pay(payment);
                let reward = self.gardens[seat].place_tile(cell, k, *self.rules.jokers());
                self.reward(reward);
            }
            Move::Exp {
                kind: k,
                cell,
                payment,
            } => {
                self.storages[seat].remove_expansion(k);
                self.pay(payment);
                let reward = self.gardens[seat].place_face_up(cell, k, *self.rules.jokers());
                self.reward(reward);
            }
            Move::Buy { area } => {
                self.scores[seat] = self.scores[seat].saturating_sub(BUY_COST);
                self.supply = self.supply.saturating_sub(1);
                self.gardens[seat].place_face_down(area);
            }
            Move::Pass { discards } => {
                let mut loss = 0u32;
                for h in discards.hexagons() {
                    self.discard(h);
                    loss += u32::from(h.kind().value().get());
                }
                if self.first_passer == NOBODY {
                    self.first_passer = self.to_move;
                    loss += 1;
                }
                self.scores[seat] = self.scores[seat].saturating_sub(loss);
                self.passed[seat] = true;
            }
        }
        self.moves_played += 1;
        self.last_move = Some(*mv);
        if self.passed[..self.seats()].iter().all(|&p| p) {
            self.end_round(on_refill)?;
        } else {
            self.advance();
        }
        Ok(())
    }

    /// Removes a payment's hexagons and jokers from the mover's storage.
    fn pay(&mut self, payment: Payment) {
        let seat = usize::from(self.to_move);
        for h in payment.hexagons() {
            self.discard(h);
        }
        let s = &mut self.storages[seat];
        s.set_jokers(s.jokers().saturating_sub(payment.jokers()));
    }

    /// A hexagon leaves the mover's storage: a tile to the tower, an expansion to the supply.
    fn discard(&mut self, h: Hexagon) {
        self.storages[usize::from(self.to_move)].remove(h);
        match h {
            Hexagon::Tile(k) => {
                self.tower[usize::from(k.id())] += 1;
                self.tower_len += 1;
            }
            Hexagon::Expansion(_) => self.supply += 1,
        }
    }

    /// Surround rewards into the mover's free tile spaces; the rest is lost.
    fn reward(&mut self, jokers: u8) {
        let s = &mut self.storages[usize::from(self.to_move)];
        let gained = jokers.min(s.free_tile_spaces());
        s.set_jokers(s.jokers() + gained);
    }

    fn advance(&mut self) {
        let n = self.rules.players();
        let mut s = self.to_move;
        // The next seats in turn, the mover last (no division).
        for _ in 0..n {
            s = if s + 1 == n { 0 } else { s + 1 };
            if !self.passed[usize::from(s)] {
                self.to_move = s;
                return;
            }
        }
    }

    fn play_take(
        &mut self,
        attribute: Attribute,
        choices: &Choices,
        on_refill: &mut dyn ChanceHook,
    ) -> Result<(), RefillError> {
        let seat = usize::from(self.to_move);
        let mut from_top = false;
        // The selected kinds shown, ascending (`attribute.kinds()`'s order).
        for k in bits(attribute_kinds(attribute) & self.shown.once) {
            let k = kind(k as u8);
            let mask = self.shown.at[usize::from(k.id())];
            let slot = choices
                .slot_of(k)
                .unwrap_or(mask.trailing_zeros() as u8)
                .min(MAX_STACK as u8 - 1);
            let s = usize::from(slot);
            if self.slots[s] == SlotState::Up {
                self.slots[s] = SlotState::Gone;
                self.shown.take_up(s, k);
                self.storages[seat].add_expansion(k);
            } else {
                let len = usize::from(self.slot_len[s]);
                let word = u32::from_le_bytes(self.slot_tiles[s]);
                // The first tile of kind `k`: the lowest zero byte of the word xor `k` in
                // every byte (the zeros past `len` match kind 0 only after any kind-0 tile).
                let x = word ^ (u32::from(k.id()) * 0x0101_0101);
                let zero = !(((x & 0x7f7f_7f7f) + 0x7f7f_7f7f) | x | 0x7f7f_7f7f);
                let i = (zero.trailing_zeros() / 8) as usize;
                if i < len {
                    // Tile `i` out, the later ones one place down, a zero in the last place.
                    let word = u64::from(word);
                    let below = word & ((1 << (8 * i)) - 1);
                    let above = word >> (8 * (i + 1)) << (8 * i);
                    self.slot_tiles[s] = ((below | above) as u32).to_le_bytes();
                    self.slot_len[s] -= 1;
                    // The tiles are sorted: another of kind `k` would now be at `i`.
                    let kept = u8::from(i + 1 < len) & u8::from(self.slot_tiles[s][i] == k.id());
                    let at = self.shown.at[usize::from(k.id())];
                    self.shown.set(usize::from(k.id()), at & !((1 - kept) << s));
                    self.storages[seat].add_tile(k);
                    from_top |= slot == self.top;
                }
            }
        }
        if from_top {
            self.slots[usize::from(self.top)] = SlotState::Down;
            self.top += 1;
            self.give_tiles(on_refill)?;
        }
        // Face-down slots left without tiles turn up (found without a branch per slot).
        let mut emptied = 0u64;
        for s in 0..usize::from(self.rules.stack_size()) {
            emptied |= u64::from(
                u8::from(self.slots[s] == SlotState::Down) & u8::from(self.slot_len[s] == 0),
            ) << s;
        }
        for s in bits(emptied) {
            self.turn_up(s, on_refill);
        }
        Ok(())
    }

    /// Gives the stack top its tiles (section 11.3), refilling the bag from the tower first
    /// when it holds fewer than 4.
    fn give_tiles(&mut self, on_refill: &mut dyn ChanceHook) -> Result<(), RefillError> {
        let size = self.rules.stack_size();
        if self.top >= size {
            return Ok(());
        }
        let refilled = self.bag_len() < 4 && self.tower_len > 0;
        if refilled {
            let mut all = counts(self.bag().map(Kind::id));
            for (a, &t) in all.iter_mut().zip(&self.tower) {
                *a += u32::from(t);
            }
            let mut sorted = [0u8; TILE_TOTAL];
            let mut n = 0;
            for (k, &c) in all.iter().enumerate() {
                for _ in 0..c {
                    sorted[n] = k as u8;
                    n += 1;
                }
            }
            let mut order = [0u8; TILE_TOTAL];
            self.chance
                .refill(usize::from(self.refills), &sorted[..n], &mut order[..n])?;
            self.bag[..n].copy_from_slice(&order[..n]);
            self.bag[n..].fill(0);
            self.bag_start = 0;
            self.bag_end = n as u8;
            self.tower = [0; KIND_COUNT];
            self.tower_len = 0;
            self.refills += 1;
        }
        let n = self.bag_len().min(4);
        let top = usize::from(self.top);
        if n == 0 {
            for s in top..usize::from(size) {
                self.turn_up(s, on_refill);
            }
            self.top = size;
            return Ok(());
        }
        let start = usize::from(self.bag_start);
        on_refill.draw(&mut self.bag[start..usize::from(self.bag_end)], n);
        if refilled {
            on_refill.refilled(&self.bag[..usize::from(self.bag_end)]);
        }
        let tiles = &mut self.slot_tiles[top];
        tiles[..n].copy_from_slice(&self.bag[start..start + n]);
        if n == 4 {
            // A sorting network: minima and maxima, no branches.
            for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
                let (a, b) = (tiles[i], tiles[j]);
                (tiles[i], tiles[j]) = (a.min(b), a.max(b));
            }
        } else {
            tiles[..n].sort_unstable();
        }
        for &k in &tiles[..n] {
            self.shown.add(usize::from(k), top);
        }
        self.slot_len[top] = n as u8;
        self.bag_start += n as u8;
        Ok(())
    }

    /// Expansions every player has seen face up in the display, by index in
    /// [`Position::expansion_order`] (bit `i`).
    pub const fn revealed(&self) -> u64 {
        self.revealed
    }

    /// The same position with everything hidden from every player drawn anew: the bag's
    /// order, the kinds of the expansions nobody has seen (round stacks, face-down display
    /// expansions, the supply), and the refills, which become those of `refill_seed`
    /// ([`Chance::Seeded`]). `below(n)` is a uniform index below `n`. What was hidden decides
    /// nothing here: each shuffle is uniform whatever order it starts from.
    #[must_use]
    pub fn resample(&self, below: &mut impl FnMut(usize) -> usize, refill_seed: u64) -> Position {
        let mut p = self.clone();
        p.redraw_hidden(below, refill_seed);
        p
    }

    /// [`Position::resample`] written into `out` (whatever it held), drawing the same numbers.
    pub(crate) fn resample_into(
        &self,
        out: &mut Position,
        below: &mut impl FnMut(usize) -> usize,
        refill_seed: u64,
    ) {
        out.clone_from(self);
        out.redraw_hidden(below, refill_seed);
    }

    /// Draws anew, in place, what [`Position::resample`] draws.
    fn redraw_hidden(&mut self, below: &mut impl FnMut(usize) -> usize, refill_seed: u64) {
        let p = self;
        let bag = &mut p.bag[usize::from(p.bag_start)..usize::from(p.bag_end)];
        for i in (1..bag.len()).rev() {
            bag.swap(i, below(i + 1));
        }
        let mut hidden = [0usize; EXPANSION_TOTAL];
        let mut n = 0;
        for i in (0..EXPANSION_TOTAL).filter(|i| p.revealed >> i & 1 == 0) {
            hidden[n] = i;
            n += 1;
        }
        for i in (1..n).rev() {
            p.expansions.swap(hidden[i], hidden[below(i + 1)]);
        }
        p.chance = Chance::Seeded(refill_seed);
    }

    /// This round's expansion at slot `s` turns face up, seen by every player.
    fn turn_up(&mut self, s: usize, hook: &mut dyn ChanceHook) {
        self.slots[s] = SlotState::Up;
        let stack = usize::from(self.rules.stack_size());
        let index = (usize::from(self.round) - 1) * stack + s;
        hook.reveal(&mut self.expansions, self.revealed, index);
        self.revealed |= 1 << index;
        self.shown.turn_up(s, kind(self.expansions[index]));
    }

    /// Phase 2, then phase 3 or the final scoring.
    fn end_round(&mut self, on_refill: &mut dyn ChanceHook) -> Result<(), RefillError> {
        let categories = self.rules.wheel().round(self.round);
        let r = usize::from(self.rounds_scored);
        for seat in 0..self.seats() {
            let points = self.gardens[seat].round_points(categories);
            self.round_points[r][seat] = points;
            self.scores[seat] += points;
        }
        self.rounds_scored += 1;
        if self.round == 4 {
            for seat in 0..self.seats() {
                let storage = &self.storages[seat];
                let before = self.scores[seat];
                let after = (i64::from(before) + i64::from(storage.jokers())
                    - i64::from(storage.hexagon_value()))
                .max(0) as u32;
                let (groups, bonus) = self.gardens[seat].group_points();
                self.final_scores[seat] = FinalScore {
                    storage: after as i32 - before as i32,
                    groups,
                    bonus,
                };
                self.scores[seat] = after + groups + bonus;
            }
            self.over = true;
            return Ok(());
        }
        // Phase 3: the display's tiles to the tower, its expansions to the supply.
        for s in 0..usize::from(self.rules.stack_size()) {
            match self.slots[s] {
                SlotState::Stack | SlotState::Down => {
                    for &k in &self.slot_tiles[s][..usize::from(self.slot_len[s])] {
                        self.tower[usize::from(k)] += 1;
                        self.tower_len += 1;
                    }
                    self.supply += 1;
                }
                SlotState::Up => self.supply += 1,
                SlotState::Gone => {}
            }
        }
        self.round += 1;
        self.start_player = self.first_passer;
        self.to_move = self.first_passer;
        self.first_passer = NOBODY;
        self.passed = [false; MAX_PLAYERS];
        self.slots = [SlotState::Stack; MAX_STACK];
        self.slot_tiles = [[0; 4]; MAX_STACK];
        self.slot_len = [0; MAX_STACK];
        self.top = 0;
        self.shown = Shown::NONE;
        self.give_tiles(on_refill)
    }
}

/// Checks a payment for placing `placed` (section 7.4).
fn check_payment(storage: &Storage, placed: Kind, payment: Payment) -> Result<(), IllegalMove> {
    let needed = usize::from(placed.value().get() - 1);
    if payment.len() != needed {
        return Err(IllegalMove::PaymentCount {
            needed,
            given: payment.len(),
        });
    }
    if payment.jokers() > storage.jokers() {
        return Err(IllegalMove::NotEnoughJokers {
            needed: payment.jokers(),
            held: storage.jokers(),
        });
    }
    let mut seen = 1u64 << placed.id();
    let mut same_colour = true;
    let mut same_pattern = true;
    for h in payment.hexagons() {
        let k = h.kind();
        if seen & (1 << k.id()) != 0 {
            return Err(IllegalMove::NotASet(format!(
                "the payment and the placed {placed} must be different kinds, but {k} appears twice"
            )));
        }
        seen |= 1 << k.id();
        same_colour &= k.colour() == placed.colour();
        same_pattern &= k.value() == placed.value();
        if !storage.holds(h) {
            return Err(IllegalMove::NotInStorage(h));
        }
    }
    if !same_colour && !same_pattern {
        return Err(IllegalMove::NotASet(format!(
            "the payment's hexagons must all share the colour or all share the pattern of {placed}"
        )));
    }
    Ok(())
}

/// Checks that a pass's discards are a sub-multiset of the storage's hexagons.
fn check_pass(storage: &Storage, discards: &Discards) -> Result<(), IllegalMove> {
    let mut need = [0u8; 2 * KIND_COUNT];
    for &c in discards.codes() {
        need[usize::from(c)] += 1;
    }
    for h in discards.hexagons() {
        let have = match h {
            Hexagon::Tile(k) => storage.count(k),
            Hexagon::Expansion(k) => u8::from(storage.has_expansion(k)),
        };
        let wanted = need[usize::from(h.code())];
        if wanted > have {
            return Err(IllegalMove::PassDiscards(format!(
                "the pass discards {wanted} x {h} but the storage holds {have}"
            )));
        }
    }
    Ok(())
}

/// The kinds showing `attribute`, as a bit mask over kind ids.
#[inline]
fn attribute_kinds(attribute: Attribute) -> u64 {
    ATTRIBUTE_KINDS[usize::from(attribute.index())]
}

/// How many kinds of `kinds` (bits by kind id) show `attribute`, without a bit count (the
/// default x86-64 target has no popcnt instruction): a colour's six kinds are adjacent bits
/// (a table), a pattern's are six bits apart (a multiplication adds them up in bits 30..36).
#[inline]
fn attribute_count(kinds: u64, attribute: Attribute) -> u8 {
    let a = u32::from(attribute.index());
    if a < 6 {
        SIX_BIT_COUNTS[((kinds >> (6 * a)) & 0b11_1111) as usize]
    } else {
        // Bits 0, 6, .., 30: a value's kinds shifted down to the first colour.
        const SPREAD: u64 = 0x4104_1041;
        let spread = (kinds >> (a - 6)) & SPREAD;
        (spread.wrapping_mul(SPREAD) >> 30 & 0b11_1111) as u8
    }
}

/// The attributes (bits by [`Attribute::index`]) that some kind of `kinds` (bits by kind id)
/// shows: a colour's row of six bits is not empty, a value's column is not.
#[inline]
fn shown_attributes(kinds: u64) -> u16 {
    let mut colours = 0u16;
    let mut columns = 0u64;
    for c in 0..6 {
        let row = (kinds >> (6 * c)) & 0b11_1111;
        colours |= u16::from(row != 0) << c;
        columns |= row;
    }
    colours | (columns as u16) << 6
}

/// For each attribute ([`Attribute::all`]'s order), how many kinds of `kinds` (bits by kind
/// id) show it: six table reads give both a colour's count and each value's column.
#[inline]
fn attribute_counts(kinds: u64) -> [u8; 12] {
    let mut out = [0u8; 12];
    if kinds == 0 {
        return out;
    }
    // Nibble `v` of `columns`: the kinds of value `v + 1`.
    let mut columns = 0u32;
    for (c, count) in out[..6].iter_mut().enumerate() {
        let row = ((kinds >> (6 * c)) & 0b11_1111) as usize;
        *count = SIX_BIT_COUNTS[row];
        columns += SIX_BIT_NIBBLES[row];
    }
    for (v, count) in out[6..].iter_mut().enumerate() {
        *count = (columns >> (4 * v) & 0b1111) as u8;
    }
    out
}

/// Each 6-bit value with bit `i` spread to nibble `i`.
const SIX_BIT_NIBBLES: [u32; 64] = {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        let mut b = 0;
        while b < 6 {
            out[i] |= ((i as u32 >> b) & 1) << (4 * b);
            b += 1;
        }
        i += 1;
    }
    out
};

/// The number of set bits of each 8-bit value (slot masks).
const SLOT_COUNTS: [u8; 256] = {
    let mut out = [0; 256];
    let mut i = 0;
    while i < 256 {
        out[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    out
};

/// The number of set bits of each 6-bit value.
const SIX_BIT_COUNTS: [u8; 64] = {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    out
};

/// [`attribute_kinds`] by attribute index: the colours, then the patterns.
const ATTRIBUTE_KINDS: [u64; 12] = {
    let mut out = [0; 12];
    let mut a = 0;
    while a < 6 {
        out[a] = COLOUR_KINDS[a];
        out[a + 6] = VALUE_KINDS[a];
        a += 1;
    }
    out
};

/// Where the display shows each kind ([`Position::shown`]), changed slot by slot as
/// hexagons come and go.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Shown {
    /// For each kind id, the slots (bit mask) showing it.
    at: [u8; KIND_COUNT],
    /// The kinds shown at one slot or more, and at two or more (bits by kind id).
    once: u64,
    twice: u64,
    /// The kinds of the face-up expansions, and their slots.
    up_kinds: u64,
    up: u8,
}

impl Shown {
    /// An empty display.
    pub(crate) const NONE: Shown = Shown {
        at: [0; KIND_COUNT],
        once: 0,
        twice: 0,
        up_kinds: 0,
        up: 0,
    };

    /// Kind id `k` is shown at the slots `at`.
    #[inline]
    fn set(&mut self, k: usize, at: u8) {
        self.at[k] = at;
        let bit = 1u64 << k;
        self.once = self.once & !bit | u64::from(at != 0) << k;
        self.twice = self.twice & !bit | u64::from(at & at.wrapping_sub(1) != 0) << k;
    }

    /// Kind id `k` is shown at slot `s` too.
    #[inline]
    fn add(&mut self, k: usize, s: usize) {
        self.set(k, self.at[k] | 1 << s);
    }

    /// Kind id `k` is no longer shown at slot `s`.
    #[inline]
    fn remove(&mut self, k: usize, s: usize) {
        self.set(k, self.at[k] & !(1 << s));
    }

    /// Slot `s` turns face up, showing `kind`.
    fn turn_up(&mut self, s: usize, kind: Kind) {
        self.add(usize::from(kind.id()), s);
        self.up |= 1 << s;
        self.up_kinds |= 1 << kind.id();
    }

    /// The face-up expansion `kind` at slot `s` is taken.
    fn take_up(&mut self, s: usize, kind: Kind) {
        self.remove(usize::from(kind.id()), s);
        self.up &= !(1 << s);
        self.up_kinds &= !(1 << kind.id());
    }
}

/// What the takes of one position are read against ([`Position::take_room`]).
struct TakeRoom {
    shown: Shown,
    free_tiles: u8,
    free_exps: u8,
    /// Whether every selection fits the storage, whatever slots it picks: a selection takes
    /// at most 6 hexagons, its expansions from the face-up slots.
    roomy: bool,
}

impl TakeRoom {
    /// The slots (bit mask) showing kind id `k`.
    #[inline]
    fn at(&self, k: usize) -> u8 {
        self.shown.at[k]
    }
}

/// The kinds one attribute selects ([`Position::selection`]): a take of it picks one slot
/// for each ambiguous kind.
#[derive(Clone, Copy)]
struct Selection {
    attribute: Attribute,
    /// Kinds at one slot: tiles and face-up expansions.
    fixed_tiles: u8,
    fixed_exps: u8,
    /// Kinds at several slots (bits by kind id).
    ambiguous: u64,
    /// Whether any kind is selected.
    any: bool,
}

impl Selection {
    /// The number of its takes that fit the storage, without listing them: by the number of
    /// ambiguous kinds taken as expansions.
    #[inline]
    fn count(&self, room: &TakeRoom) -> usize {
        if !self.any {
            return 0;
        }
        if self.ambiguous == 0 {
            // One take, of the kinds at one slot.
            return usize::from(
                room.roomy
                    || self.fixed_tiles <= room.free_tiles && self.fixed_exps <= room.free_exps,
            );
        }
        if room.roomy {
            return bits(self.ambiguous)
                .map(|k| usize::from(SLOT_COUNTS[usize::from(room.at(k))]))
                .product();
        }
        // ways[e]: slot picks with e expansions among the ambiguous kinds.
        let mut ways = [0usize; 7];
        ways[0] = 1;
        let mut n = 0;
        for k in bits(self.ambiguous) {
            let mask = room.at(k);
            let exps = usize::from(SLOT_COUNTS[usize::from(mask & room.shown.up)]);
            let tiles = usize::from(SLOT_COUNTS[usize::from(mask & !room.shown.up)]);
            n += 1;
            for e in (0..=n).rev() {
                ways[e] = ways[e] * tiles + if e > 0 { ways[e - 1] * exps } else { 0 };
            }
        }
        (0..=n)
            .filter(|&e| {
                usize::from(self.fixed_tiles) + n - e <= usize::from(room.free_tiles)
                    && usize::from(self.fixed_exps) + e <= usize::from(room.free_exps)
            })
            .map(|e| ways[e])
            .sum()
    }

    /// Shows `visit` its takes that fit the storage, in legal-list order, until it breaks.
    fn visit<B>(
        &self,
        room: &TakeRoom,
        visit: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if !self.any {
            return ControlFlow::Continue(());
        }
        let attribute = self.attribute;
        // Selected ambiguous kinds: (kind, slot mask).
        let mut ambiguous: [(u8, u8); 6] = [(0, 0); 6];
        let mut n_amb = 0;
        for k in bits(self.ambiguous) {
            ambiguous[n_amb] = (k as u8, room.at(k));
            n_amb += 1;
        }
        // Odometer over the ambiguous kinds' slots, last kind fastest.
        let amb = &ambiguous[..n_amb];
        let mut pick: [u8; 6] = [0; 6];
        for (p, &(_, mask)) in pick.iter_mut().zip(amb) {
            *p = mask.trailing_zeros() as u8;
        }
        loop {
            let mut tiles = self.fixed_tiles;
            let mut exps = self.fixed_exps;
            let mut choices = Choices::NONE;
            for (&p, &(k, _)) in pick.iter().zip(amb) {
                if room.shown.up & (1 << p) != 0 {
                    exps += 1;
                } else {
                    tiles += 1;
                }
                choices.push(kind(k), p);
            }
            if tiles <= room.free_tiles && exps <= room.free_exps {
                visit(Move::Take { attribute, choices })?;
            }
            // Advance the odometer: the last kind with a later slot moves on.
            let mut advanced = false;
            for i in (0..n_amb).rev() {
                let later = amb[i].1 & !(((2u16 << pick[i]) - 1) as u8);
                if later != 0 {
                    pick[i] = later.trailing_zeros() as u8;
                    for j in i + 1..n_amb {
                        pick[j] = amb[j].1.trailing_zeros() as u8;
                    }
                    advanced = true;
                    break;
                }
            }
            if !advanced {
                return ControlFlow::Continue(());
            }
        }
    }
}

/// The kinds a storage holds as a tile or an expansion (bits by kind id).
#[inline]
fn held(storage: &Storage) -> u64 {
    storage.tile_kinds() | storage.expansion_kinds()
}

/// The set bits of `mask`, ascending.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// The distinct payments for one kind, in legal-list order (section 15.4).
struct PaymentBuffer {
    items: [Payment; PaymentBuffer::CAPACITY],
    len: usize,
}

impl PaymentBuffer {
    /// With at most two stored expansions, a colour or pattern set has at most 72 choices; both
    /// sets together stay below this.
    const CAPACITY: usize = 160;

    fn new() -> PaymentBuffer {
        PaymentBuffer {
            items: [Payment::EMPTY; PaymentBuffer::CAPACITY],
            len: 0,
        }
    }

    fn as_slice(&self) -> &[Payment] {
        &self.items[..self.len]
    }

    fn push(&mut self, p: Payment) {
        if self.len < PaymentBuffer::CAPACITY {
            self.items[self.len] = p;
            self.len += 1;
        }
    }

    /// All payments for placing `placed` from `storage` (the placed tile or expansion itself is
    /// never a candidate: it is identical).
    fn fill(&mut self, storage: &Storage, placed: Kind) {
        self.len = 0;
        let families = PaymentFamilies::new(storage, placed);
        for (m, jokers) in families.shapes() {
            if m == 0 {
                self.push(Payment::from_sorted_codes(&[], jokers));
                continue;
            }
            for (family, _, first) in families.blocks() {
                self.choices(family, first, m, jokers);
            }
        }
    }

    /// Every payment of `m` hexagons (at least one) of pairwise different kinds from
    /// `family`, the first at an index in `first`, and `jokers` jokers, in lexicographic
    /// order: a depth-first walk of the chosen indices, without recursion.
    #[inline]
    fn choices(&mut self, family: &Family, first: std::ops::Range<usize>, m: usize, jokers: u8) {
        let mut at = [0usize; MAX_PAYMENT];
        // The chosen codes, hexagon `d` in byte `d`.
        let mut chosen = 0u64;
        let mut depth = 0;
        at[0] = first.start;
        loop {
            let end = if depth == 0 { first.end } else { family.n };
            let i = at[depth];
            if i >= end {
                if depth == 0 {
                    return;
                }
                depth -= 1;
                at[depth] += 1;
                continue;
            }
            let shift = 8 * depth;
            chosen = chosen & !(0xff << shift) | u64::from(family.codes[i]) << shift;
            if depth + 1 == m {
                self.push(Payment::from_code_bytes(chosen, m as u8, jokers));
                at[depth] += 1;
            } else {
                depth += 1;
                at[depth] = family.next(i);
            }
        }
    }
}

/// The stored hexagons one family of a payment may take (the kinds sharing the placed
/// kind's colour, or its pattern), in code order.
struct Family {
    codes: [u8; 12],
    n: usize,
    /// The first index after `i` holding another kind (a kind's tile and expansion are
    /// neighbours in code order, and a payment takes one of them).
    next: [u8; 13],
}

/// `ways[i][t]`: the `t`-hexagon choices of pairwise different kinds from a family's
/// `codes[i..]` (filled by [`Family::count_ways`]). Kept apart from [`Family`], so the legal
/// list, which never counts, neither fills nor copies it.
type Ways = [[u16; MAX_PAYMENT]; 13];

impl Family {
    // Always inlined into `PaymentFamilies::new`, where a plain `#[inline]` left two calls:
    // 1.4 % fewer instructions a crowded legal list, measured faster (docs/benchmarks.md).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn new(kinds: u64, tiles: u64, expansions: u64) -> Family {
        let mut f = Family {
            codes: [0; 12],
            n: 0,
            next: [0; 13],
        };
        for k in bits(kinds & (tiles | expansions)) {
            if tiles >> k & 1 != 0 {
                f.codes[f.n] = 2 * k as u8;
                f.n += 1;
            }
            if expansions >> k & 1 != 0 {
                f.codes[f.n] = 2 * k as u8 + 1;
                f.n += 1;
            }
        }
        f.next[f.n] = f.n as u8;
        for i in (0..f.n).rev() {
            let same = i + 1 < f.n && f.codes[i + 1] / 2 == f.codes[i] / 2;
            f.next[i] = if same { i as u8 + 2 } else { i as u8 + 1 };
        }
        f
    }

    /// Fills `ways` for choices of up to `m` hexagons.
    fn count_ways(&self, m: usize, ways: &mut Ways) {
        ways[self.n][0] = 1;
        for i in (0..self.n).rev() {
            let next = usize::from(self.next[i]);
            ways[i][0] = 1;
            for t in 1..m {
                ways[i][t] = ways[i + 1][t] + ways[next][t - 1];
            }
        }
    }

    /// The first index after `i` holding another kind.
    #[inline]
    fn next(&self, i: usize) -> usize {
        usize::from(self.next[i])
    }

    /// The `m`-hexagon choices whose first hexagon is at an index in `first`.
    fn count(&self, ways: &Ways, first: &std::ops::Range<usize>, m: usize) -> usize {
        first
            .clone()
            .map(|i| usize::from(ways[self.next(i)][m - 1]))
            .sum()
    }

    /// Choice `r` (below [`Family::count`]) of `m` hexagons in lexicographic order, written
    /// into `chosen`.
    fn nth(
        &self,
        ways: &Ways,
        first: std::ops::Range<usize>,
        m: usize,
        mut r: usize,
        chosen: &mut [u8],
    ) {
        let mut from = first.start;
        let mut end = first.end;
        for (depth, c) in chosen.iter_mut().enumerate().take(m) {
            for i in from..end {
                let block = usize::from(ways[self.next(i)][m - depth - 1]);
                if r < block {
                    *c = self.codes[i];
                    from = self.next(i);
                    break;
                }
                r -= block;
            }
            end = self.n;
        }
    }
}

/// A placement's payment families ([`Family`]) and the order of their payments.
struct PaymentFamilies {
    colour: Family,
    pattern: Family,
    /// The pattern's hexagons below the colour's in code order: their payments come first.
    split: usize,
    /// Discards needed and jokers held.
    needed: usize,
    jokers: usize,
}

impl PaymentFamilies {
    // Always inlined: with a plain `#[inline]` (a call) a crowded list takes 0.2 % fewer
    // instructions but ran 0.89x-0.97x as fast (6 alternated pairs, docs/benchmarks.md).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn new(storage: &Storage, placed: Kind) -> PaymentFamilies {
        let needed = usize::from(placed.value().get() - 1);
        let expansions = storage.expansion_kinds();
        let others = !(1u64 << placed.id());
        let tiles = storage.tile_kinds();
        let colour = COLOUR_KINDS[usize::from(placed.colour().index())] & others;
        let colour = Family::new(colour, tiles, expansions);
        let pattern = Family::new(VALUE_KINDS[needed] & others, tiles, expansions);
        let below = (colour.n > 0).then_some(colour.codes[0]);
        let split = (0..pattern.n)
            .find(|&i| below.is_some_and(|f| pattern.codes[i] > f))
            .unwrap_or(pattern.n);
        PaymentFamilies {
            colour,
            pattern,
            split,
            needed,
            jokers: usize::from(storage.jokers()),
        }
    }

    /// The payments' shapes in order: (hexagons, jokers), jokers ascending. A placement of
    /// value 1 pays nothing: one shape, (0, 0).
    fn shapes(&self) -> impl Iterator<Item = (usize, u8)> + use<> {
        let needed = self.needed;
        (0..=needed.min(self.jokers)).map(move |j| (needed - j, j as u8))
    }

    /// The blocks of one shape's payments in order: a family, whether it is the colour's, and
    /// the indices of first hexagons.
    fn blocks(&self) -> [(&Family, bool, std::ops::Range<usize>); 3] {
        [
            (&self.pattern, false, 0..self.split),
            (&self.colour, true, 0..self.colour.n),
            (&self.pattern, false, self.split..self.pattern.n),
        ]
    }
}

/// A playout's tile move of kind `k` on `cell`: payment `below(n)` of the legal list's `n`
/// (which a buffer caps); `None` if none is stored.
#[inline]
fn tile_move(
    storage: &Storage,
    k: Kind,
    cell: Cell,
    below: &mut impl FnMut(usize) -> usize,
) -> Option<Move> {
    let mut families = Families::new(storage, k);
    families.count_ways();
    let n = families.count().min(PaymentBuffer::CAPACITY);
    (n > 0).then(|| Move::Tile {
        kind: k,
        cell,
        payment: families.nth(below(n)).unwrap_or(Payment::EMPTY),
    })
}

/// Which stored kind and fitting free space a playout policy places
/// ([`Position::playout_move_placing`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Placing {
    /// The first kind in a random order that fits, on its first fitting space from a random
    /// start: the search's playout policy ([`Position::playout_move`]).
    First,
    /// Of every stored kind that fits, the space next to the most hexagons sharing the kind's
    /// colour or pattern ([`Garden::shared_neighbours`]); ties to the first kind in the random
    /// order and its first space from the random start: the `best` bot's.
    Grouping,
}

/// [`PaymentFamilies`] with their [`Ways`], to count payments and find one by its rank.
struct Families {
    payments: PaymentFamilies,
    colour_ways: Ways,
    pattern_ways: Ways,
}

impl Families {
    #[inline]
    fn new(storage: &Storage, placed: Kind) -> Families {
        Families {
            payments: PaymentFamilies::new(storage, placed),
            colour_ways: [[0; MAX_PAYMENT]; 13],
            pattern_ways: [[0; MAX_PAYMENT]; 13],
        }
    }

    /// Whether some payment for placing `placed` is stored ([`Families::count`] above 0), from
    /// the storage's [`held`] kinds and its jokers: the jokers and the distinct kinds of one
    /// family together make the discards needed.
    #[inline]
    fn affordable(held: u64, jokers: u8, placed: Kind) -> bool {
        let needed = u32::from(placed.value().get() - 1);
        let jokers = u32::from(jokers);
        if needed <= jokers {
            return true;
        }
        let held = held & !(1u64 << placed.id());
        let colour = attribute_count(held, Attribute::colour(placed.colour()));
        let pattern = attribute_count(held, Attribute::pattern(placed.value()));
        jokers + u32::from(colour.max(pattern)) >= needed
    }

    /// Fills both families' [`Ways`], for [`Families::count`] and [`Families::nth`].
    fn count_ways(&mut self) {
        let f = &self.payments;
        f.colour.count_ways(f.needed, &mut self.colour_ways);
        f.pattern.count_ways(f.needed, &mut self.pattern_ways);
    }

    /// The ways of the colour's family or of the pattern's.
    fn ways(&self, colour: bool) -> &Ways {
        if colour {
            &self.colour_ways
        } else {
            &self.pattern_ways
        }
    }

    /// Payment `r` of the legal-list order, or `None` past the last.
    fn nth(&self, mut r: usize) -> Option<Payment> {
        for (m, jokers) in self.payments.shapes() {
            if m == 0 {
                if r == 0 {
                    return Some(Payment::from_sorted_codes(&[], jokers));
                }
                r -= 1;
                continue;
            }
            for (family, colour, first) in self.payments.blocks() {
                let ways = self.ways(colour);
                let count = family.count(ways, &first, m);
                if r < count {
                    let mut chosen = [0u8; MAX_PAYMENT];
                    family.nth(ways, first, m, r, &mut chosen);
                    return Some(Payment::from_sorted_codes(&chosen[..m], jokers));
                }
                r -= count;
            }
        }
        None
    }

    /// The number of payments.
    fn count(&self) -> usize {
        self.payments
            .shapes()
            .map(|(m, _)| {
                if m == 0 {
                    1
                } else {
                    self.payments
                        .blocks()
                        .iter()
                        .map(|(f, colour, first)| f.count(self.ways(*colour), first, m))
                        .sum()
                }
            })
            .sum()
    }
}

/// What a return counts ([`Position::returns`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Utility {
    /// Each seat's score so far.
    Points,
    /// The winners share 1, the others 0; zeros until the game is over.
    Win,
    /// The share of opponents a seat outscored, a tie counting half: 1 for a clear first.
    Rank,
    /// Zero-sum: each loser pays `1 / (players - 1)` and the winners share what the losers
    /// pay (the win share `w` as `n / (n - 1) * (w - 1 / n)`).
    ZeroSum,
}

impl std::str::FromStr for Utility {
    type Err = String;

    fn from_str(name: &str) -> Result<Utility, String> {
        match name {
            "points" => Ok(Utility::Points),
            "win" => Ok(Utility::Win),
            "rank" => Ok(Utility::Rank),
            "zero-sum" => Ok(Utility::ZeroSum),
            other => Err(format!(
                "utility must be 'points', 'win', 'rank' or 'zero-sum', not {other:?}"
            )),
        }
    }
}

#[cfg(test)]
impl Position {
    /// Test access to the mutable parts, for building positions directly.
    pub(crate) fn storage_mut(&mut self, seat: u8) -> &mut Storage {
        &mut self.storages[usize::from(seat)]
    }

    pub(crate) fn garden_mut(&mut self, seat: u8) -> &mut Garden {
        &mut self.gardens[usize::from(seat)]
    }

    pub(crate) fn set_score(&mut self, seat: u8, score: u32) {
        self.scores[usize::from(seat)] = score;
    }

    pub(crate) fn set_to_move(&mut self, seat: u8) {
        self.to_move = seat;
    }

    pub(crate) fn set_round(&mut self, round: u8) {
        self.round = round;
        self.shown = self.read_shown();
    }

    pub(crate) fn chance_mut(&mut self, chance: Chance) {
        self.chance = chance;
    }

    pub(crate) fn set_bag(&mut self, kinds: &[Kind]) {
        for (b, k) in self.bag.iter_mut().zip(kinds) {
            *b = k.id();
        }
        self.bag_start = 0;
        self.bag_end = kinds.len() as u8;
    }

    pub(crate) fn set_tower(&mut self, kinds: &[Kind]) {
        self.tower = [0; KIND_COUNT];
        for k in kinds {
            self.tower[usize::from(k.id())] += 1;
        }
        self.tower_len = kinds.len() as u8;
    }
}

/// The playout policy's shortcuts against the rules' own checks and lists.
#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of seeded games of uniform legal moves (players 2 to 4).
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        for seed in 0..12u64 {
            let rules = Rules::with_players(2 + (seed % 3) as u8).unwrap();
            let mut p = Position::from_seed(rules, seed);
            let mut rng = PyRandom::from_u64(seed);
            while !p.is_over() {
                out.push(p.clone());
                let moves = p.legal_moves();
                let mv = moves[rng.randbelow(moves.len() as u32) as usize];
                p.play_unchecked(&mv).unwrap();
            }
        }
        out
    }

    #[test]
    fn placements_takes_and_payments_agree_with_the_lists() {
        let mut placements = 0;
        for p in positions() {
            let seat = usize::from(p.to_move);
            let garden = &p.gardens[seat];
            let storage = &p.storages[seat];
            for k in Kind::all() {
                let neighbourly = garden.neighbourly(k);
                for c in cells_of(garden.free_mask()) {
                    let fits = garden.check_rules(k, c).is_ok();
                    assert_eq!(garden.fits(k, c), fits, "{k} on {c}");
                    assert!(!fits || neighbourly >> c.index() & 1 != 0, "{k} on {c}");
                    placements += usize::from(fits);
                }
                let mut listed = PaymentBuffer::new();
                listed.fill(storage, k);
                let mut families = Families::new(storage, k);
                families.count_ways();
                let n = listed.as_slice().len();
                assert_eq!(families.count().min(PaymentBuffer::CAPACITY), n);
                let affordable = Families::affordable(held(storage), storage.jokers(), k);
                assert_eq!(affordable, n > 0, "{k} affordable");
                for (r, &payment) in listed.as_slice().iter().enumerate() {
                    assert_eq!(families.nth(r), Some(payment), "payment {r} for {k}");
                }
            }
            let mut takes = Vec::new();
            p.legal_takes(&mut takes);
            for (i, &take) in takes.iter().enumerate() {
                let drawn = Position::random_take(&p.take_room(), &mut |n| {
                    assert_eq!(n, takes.len(), "the take count");
                    i
                });
                assert_eq!(drawn, Some(take));
            }
            if takes.is_empty() {
                assert_eq!(
                    Position::random_take(&p.take_room(), &mut |_| unreachable!("no take to draw")),
                    None
                );
            }
        }
        assert!(placements > 1000, "the games place: {placements}");
    }

    #[test]
    fn a_random_legal_move_is_the_drawn_move_of_the_list() {
        let mut moves = Vec::new();
        let mut drawn = 0;
        for p in positions() {
            p.legal_moves_into(&mut moves);
            for (i, &mv) in moves.iter().enumerate() {
                let random = p.random_legal_move(&mut |n| {
                    assert_eq!(n, moves.len(), "the move count");
                    i
                });
                assert_eq!(random, Some(mv), "move {i} of {}", moves.len());
                drawn += 1;
            }
        }
        assert!(drawn > 10_000, "the positions have moves: {drawn}");
    }

    #[test]
    fn the_kept_display_is_the_display_read() {
        let mut checked = 0;
        for (i, p) in positions().into_iter().enumerate() {
            assert_eq!(p.shown, p.read_shown(), "position {i}");
            // The playout policy's games from here (mostly takes), and a determinization.
            let mut rng = PyRandom::from_u64(i as u64);
            let mut q = p.resample(&mut |n| rng.randbelow(n as u32) as usize, i as u64);
            assert_eq!(q.shown, q.read_shown(), "position {i} resampled");
            while let Some(mv) = q.playout_move(&mut |n| rng.randbelow(n as u32) as usize) {
                q.play_unchecked(&mv).unwrap();
                assert_eq!(q.shown, q.read_shown(), "position {i}, then {mv}");
                checked += 1;
            }
        }
        assert!(checked > 50_000, "the policy's games have moves: {checked}");
    }

    #[test]
    fn attribute_counts_are_bit_counts() {
        let mut rng = PyRandom::from_u64(5);
        for _ in 0..2000 {
            let kinds = (u64::from(rng.randbelow(u32::MAX)) << 4 | u64::from(rng.randbelow(16)))
                & ((1 << KIND_COUNT) - 1);
            for attribute in Attribute::all() {
                let expected = (kinds & attribute_kinds(attribute)).count_ones();
                assert_eq!(u32::from(attribute_count(kinds, attribute)), expected);
                let all = attribute_counts(kinds);
                assert_eq!(u32::from(all[usize::from(attribute.index())]), expected);
                let shown = shown_attributes(kinds) >> attribute.index() & 1;
                assert_eq!(shown == 1, expected > 0, "{attribute} shown");
            }
        }
    }
}
