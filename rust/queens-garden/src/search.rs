//! Queen's Garden for the search ([`indigo_search::Game`]).
//!
//! Queen's Garden hides nothing from one player that another sees: storages, gardens, the
//! display and the tower are public. Only chance is hidden from everyone: the bag's order,
//! the kinds of the expansions nobody has seen face up (the round stacks, face-down display
//! expansions, the supply) and the refills. A determinization ([`Position::resample`])
//! draws exactly those anew, so every seat's information is the public position.
//!
//! Chance is sampled inside [`Position::play_unchecked`] (a draw from the bag, a refill), so
//! a position is never at a chance node here; callers that choose chance's outcomes use the
//! explicit events of [`crate::ChanceEvent`] instead (OpenSpiel's chance nodes).

use std::cell::RefCell;
use std::fmt::Display;

use indigo_search::{
    Encoded, Game, LegalLists, LegalRow, MAX_PLAYERS, ObservationValue, Rng, SelfPlayGame, Setup,
    SortedActions, Turn, Vectored, below,
};
use serde_json::Value;

use crate::action::{ACTION_COUNT, Action};
use crate::game::Game as Played;
use crate::garden::{Garden, Storage};
use crate::kind::Kind;
use crate::moves::Move;
use crate::observation::OBSERVATION_SIZE;
use crate::position::{BUY_COST, MAX_STACK, Placing, Position, SlotState, Utility};
use crate::rules::Rules;

/// What one seat knows: the position without its hidden chance, and the seat.
#[derive(Clone, Debug)]
pub struct Information {
    /// The position; only what [`Position::resample`] keeps is read from it.
    position: Position,
    observer: u8,
}

impl Information {
    /// The seat whose information this is.
    pub const fn observer(&self) -> u8 {
        self.observer
    }

    /// What the observer knows as text: its seat, the public snapshot (QG_FORMATS.md, keys
    /// sorted) and the expansions every player has seen face up, in kind order.
    pub fn information_string(&self) -> String {
        let p = &self.position;
        let order = p.expansion_order();
        let mut seen: Vec<Kind> = (0..order.len())
            .filter(|&i| p.revealed() >> i & 1 != 0)
            .map(|i| order[i])
            .collect();
        seen.sort_unstable();
        let seen: Vec<String> = seen.iter().map(ToString::to_string).collect();
        format!(
            "seat={} seen=[{}] {}",
            self.observer,
            seen.join(","),
            p.snapshot(false)
        )
    }
}

thread_local! {
    /// The legal-move list's buffer, reused across calls.
    static MOVES: RefCell<Vec<Move>> = const { RefCell::new(Vec::new()) };
    /// The last legal sets [`Game::legal_set`] listed, by what they were listed from.
    static LEGAL_SETS: RefCell<LegalSets> = const { RefCell::new(LegalSets::new()) };
}

/// Everything the legal-move list is read from: the rules, the mover, its storage and
/// garden, the display, whether it may buy. The determinizations ISMCTS walks one tree node
/// with differ only in hidden chance, so those that drew none on the way share it.
#[derive(Clone, Copy, PartialEq)]
struct LegalKey {
    rules: Rules,
    over: bool,
    to_move: u8,
    may_buy: bool,
    top: u8,
    storage: Storage,
    garden: Garden,
    slots: [SlotState; MAX_STACK],
    slot_tiles: [[u8; 4]; MAX_STACK],
    slot_len: [u8; MAX_STACK],
    /// Each face-up slot's expansion (`u8::MAX` at the other slots).
    up: [u8; MAX_STACK],
}

impl LegalKey {
    fn of(p: &Position) -> LegalKey {
        let seat = usize::from(p.to_move);
        let stack = usize::from(p.rules.stack_size());
        let round = usize::from(p.round.saturating_sub(1)) * stack;
        LegalKey {
            rules: p.rules,
            over: p.over,
            to_move: p.to_move,
            may_buy: p.scores[seat] >= BUY_COST && p.supply > 0,
            top: p.top,
            storage: p.storages[seat],
            garden: p.gardens[seat],
            slots: p.slots,
            slot_tiles: p.slot_tiles,
            slot_len: p.slot_len,
            up: std::array::from_fn(|s| match p.slots[s] {
                SlotState::Up => p.expansions.get(round + s).copied().unwrap_or(u8::MAX),
                _ => u8::MAX,
            }),
        }
    }
}

/// The legal sets of the last [`LegalSets::SIZE`] keys listed, replaced oldest first.
struct LegalSets {
    keys: Vec<LegalKey>,
    actions: Vec<Vec<Action>>,
    next: usize,
}

impl LegalSets {
    const SIZE: usize = 8;

    const fn new() -> LegalSets {
        LegalSets {
            keys: Vec::new(),
            actions: Vec::new(),
            next: 0,
        }
    }

    /// `out` holds `p`'s legal actions, listed again only if `p`'s key is not among the last.
    fn fill(&mut self, p: &Position, out: &mut Vec<Action>) {
        let key = LegalKey::of(p);
        if let Some(i) = self.keys.iter().position(|k| *k == key) {
            out.clear();
            out.extend_from_slice(&self.actions[i]);
            return;
        }
        Game::legal_actions(p, out);
        if self.keys.len() < LegalSets::SIZE {
            self.keys.push(key);
            self.actions.push(out.clone());
        } else {
            self.keys[self.next] = key;
            self.actions[self.next].clone_from(out);
            self.next = (self.next + 1) % LegalSets::SIZE;
        }
    }
}

impl Position {
    /// Each seat's points as the greedy bot values them: the score, plus what the garden
    /// would earn in this round's scoring as it stands, plus its final group points and
    /// six-group bonus as they stand (storage is not counted).
    pub fn greedy_points(&self) -> [i64; MAX_PLAYERS] {
        let categories = self.rules().wheel().round(self.round().min(4));
        let mut points = [0; MAX_PLAYERS];
        for (seat, p) in points.iter_mut().enumerate().take(self.scores().len()) {
            let garden = self.garden(seat as u8);
            let (groups, bonus) = garden.group_points();
            *p = i64::from(self.scores()[seat])
                + if self.is_over() {
                    0
                } else {
                    i64::from(garden.round_points(categories) + groups + bonus)
                };
        }
        points
    }

    /// What `seat` sees now, as text: the seat and the public snapshot (QG_FORMATS.md, keys
    /// sorted). The information state ([`Game::information_string`]) also lists the
    /// expansions seen face up before; this view is only the position as it lies.
    ///
    /// # Panics
    ///
    /// If `seat` is not a seat of the game.
    pub fn observation_string(&self, seat: u8) -> String {
        assert!(seat < self.rules().players(), "no seat {seat}");
        format!("seat={seat} {}", self.snapshot(false))
    }

    /// A 64-bit hash of `seat`'s information state string (XXH3, stable across runs and
    /// machines), as Indigo's `Game::information_state_hash` is of its own.
    ///
    /// # Panics
    ///
    /// If `seat` is not a seat of the game.
    pub fn information_state_hash(&self, seat: u8) -> u64 {
        xxhash_rust::xxh3::xxh3_64(Game::information_string(self, seat).as_bytes())
    }

    /// The legal actions, ascending (the legal-move list's order).
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        Game::legal_actions(self, &mut out);
        out
    }
}

impl Game for Position {
    type Action = Action;
    type Actions = SortedActions<Action>;
    type Information = Information;
    const NAME: &'static str = "queens-garden";

    fn players(&self) -> usize {
        usize::from(self.rules().players())
    }

    fn turn(&self) -> Turn {
        self.to_move().map_or(Turn::Over, Turn::Player)
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        MOVES.with_borrow_mut(|moves| {
            self.legal_moves_into(moves);
            out.extend(moves.iter().filter_map(Action::from_move));
        });
    }

    /// The legal actions, listed again only when the position differs from the last few
    /// listed in what the list is read from (`LegalKey`).
    fn legal_set(&self, out: &mut SortedActions<Action>) {
        LEGAL_SETS.with_borrow_mut(|sets| sets.fill(self, out.buffer()));
        out.reset();
    }

    fn apply(&mut self, action: Action) {
        // Only a listed refill can fail, and a determinization's refills are seeded.
        let _ = self.play_unchecked(&action.to_move());
    }

    fn information(&self, seat: u8) -> Information {
        assert!(seat < self.rules().players(), "no seat {seat}");
        Information {
            position: self.clone(),
            observer: seat,
        }
    }

    fn observer(info: &Information) -> u8 {
        info.observer
    }

    fn sample(info: &Information, rng: &mut Rng) -> Position {
        let refill_seed = rand::Rng::next_u64(rng);
        info.position.resample(&mut |n| below(rng, n), refill_seed)
    }

    /// [`Game::sample`] into `out`'s storage (no new position moved into it).
    fn sample_into(info: &Information, out: &mut Position, rng: &mut Rng) {
        let refill_seed = rand::Rng::next_u64(rng);
        info.position
            .resample_into(out, &mut |n| below(rng, n), refill_seed);
    }

    fn information_string(&self, seat: u8) -> String {
        self.information(seat).information_string()
    }

    fn returns(&self) -> [f64; MAX_PLAYERS] {
        let mut returns = [0.0; MAX_PLAYERS];
        for (r, w) in returns
            .iter_mut()
            .zip(Position::returns(self, Utility::Win))
        {
            *r = w;
        }
        returns
    }

    fn scores(&self) -> [i64; MAX_PLAYERS] {
        let mut scores = [0; MAX_PLAYERS];
        for (s, &p) in scores.iter_mut().zip(self.scores()) {
            *s = i64::from(p);
        }
        scores
    }

    fn winners(&self) -> u8 {
        self.winners().iter().fold(0, |m, &w| m | 1 << w)
    }

    fn greedy_points(&self) -> [i64; MAX_PLAYERS] {
        Position::greedy_points(self)
    }

    fn moves_played(&self) -> u32 {
        self.moves_played()
    }

    /// [`Position::playout_move`]: some 5 times faster than a uniform legal move and a better
    /// player (it places what it takes).
    fn playout_action(&self, rng: &mut Rng, _buffer: &mut Vec<Action>) -> Option<Action> {
        self.playout_move(&mut |n| below(rng, n))
            .and_then(|mv| Action::from_move(&mv))
    }

    /// [`Game::playout_action`]'s moves applied as moves: the same games without encoding
    /// each move as an action and back (every move of the policy has an action).
    fn playout(&mut self, rng: &mut Rng) -> u32 {
        self.playout_placing(rng, Placing::First)
    }

    /// The playout policy with each tile put where it joins the most groups
    /// (`Placing::Grouping`): slower per playout, stronger per second (docs/search.md,
    /// "The strongest bot: `best`").
    fn best_playout(&mut self, rng: &mut Rng) -> u32 {
        self.playout_placing(rng, Placing::Grouping)
    }
}

impl Position {
    /// Plays the playout policy with tiles put by `placing` to the end; returns the moves
    /// applied.
    #[inline]
    fn playout_placing(&mut self, rng: &mut Rng, placing: Placing) -> u32 {
        let mut applied = 0;
        while let Some(mv) = self.playout_move_placing(&mut |n| below(rng, n), placing) {
            let _ = self.play_unchecked(&mv);
            applied += 1;
        }
        applied
    }
}

impl Setup for Rules {
    type Game = Position;

    fn players(&self) -> usize {
        usize::from(Rules::players(self))
    }

    /// The seeded set-up (crate docs), as [`crate::Game::from_seed`].
    fn start(&self, seed: u64) -> Position {
        Position::from_seed(*self, seed)
    }
}

impl Encoded for Position {
    const OBSERVATION_SIZE: usize = OBSERVATION_SIZE;
    const ACTION_COUNT: usize = ACTION_COUNT as usize;
    type Legal = LegalLists;
    const DEFAULT_NETWORK: &'static [u8] = include_bytes!("../networks/default.safetensors");

    fn action_number(action: Action) -> usize {
        action.index() as usize
    }

    /// # Panics
    /// If `out` is not [`OBSERVATION_SIZE`] long, or `seat` is no seat of the game.
    fn observation(&self, seat: u8, out: &mut [f32]) {
        Position::observation(self, seat, out);
    }
}

/// Queen's Garden in the vectorised games: legal actions as lists (8,053,459 actions do not fit
/// a mask), whole observation rows, `f32` only (scores pass 255).
impl Vectored for Position {
    type VectorLegal = Vec<Action>;
    type Shown = ();
    type Utility = Utility;
    const MASKS: bool = false;
    const COMPACT: bool = false;

    fn returns_under(&self, utility: Utility) -> [f64; MAX_PLAYERS] {
        let mut returns = [0.0; MAX_PLAYERS];
        for (r, v) in returns.iter_mut().zip(self.returns(utility)) {
            *r = v;
        }
        returns
    }

    fn vector_legal(&self, out: &mut Vec<Action>) {
        Game::legal_actions(self, out);
    }

    fn legal_number(legal: &Vec<Action>, number: i64) -> Option<Action> {
        let number = u32::try_from(number).ok()?;
        let at = legal.binary_search_by_key(&number, |a| a.index()).ok()?;
        Some(legal[at])
    }

    fn write_view<V: ObservationValue>(
        &self,
        viewer: u8,
        legal: &Vec<Action>,
        observation: &mut [V],
        legal_row: LegalRow<'_>,
        (): &mut (),
    ) {
        if let Some(floats) = V::floats(observation) {
            Position::observation(self, viewer, floats);
        } else {
            let mut floats = vec![0.0; OBSERVATION_SIZE];
            Position::observation(self, viewer, &mut floats);
            for (value, float) in observation.iter_mut().zip(floats) {
                *value = V::of(float);
            }
        }
        legal_row.fill(legal.iter().map(|a| a.index() as usize));
    }
}

/// The game of `rules` seeded with `seed` after `actions` (an episode of a vector, which
/// played them).
pub fn episode_game(rules: Rules, seed: u64, actions: &[Action]) -> Played {
    let mut game = Played::from_seed(rules, seed);
    for action in actions {
        if let Err(e) = game.play(&action.to_move()) {
            unreachable!("the vector played it: {e}");
        }
    }
    game
}

/// The `queens-garden-record/1` of self-play game `index` with `rules`: the seeded game
/// replayed, with `players_names` (each seat's name, as `names` gives them) and `game` (the
/// index) added.
pub fn self_play_record(
    rules: Rules,
    played: &SelfPlayGame<Action>,
    names: &[impl Display],
    index: u64,
) -> Value {
    let mut game = Played::from_seed(rules, played.seed);
    for action in &played.actions {
        if let Err(e) = game.play(&action.to_move()) {
            unreachable!("a self-play game replays from its seed: {e}");
        }
    }
    let mut record = game.to_record();
    if let Value::Object(fields) = &mut record {
        let names = names.iter().map(|name| Value::from(name.to_string()));
        fields.insert("players_names".into(), names.collect());
        fields.insert("game".into(), index.into());
    }
    record
}

#[cfg(test)]
mod tests;
