//! What search and learning code needs, for both games with the same calls: a copy of a game,
//! whose turn it is, the legal actions as numbers, playing an action number, a seat's
//! observation tensor and information state, a determinization for a seat, the returns.
//!
//! Each call is written once, over the search crate's traits ([`Game`], [`Encoded`]) that both
//! games' positions implement; a game's handle adds only what goes through its history
//! ([`Handle`]). The exported functions of both games are one line each around these.

use std::ffi::c_char;

use indigo_search::{Encoded, Game, Rng, Turn};
use rand::SeedableRng as _;

use super::{
    Failure, INDIGO_ERR_ILLEGAL_MOVE, INDIGO_ERR_INVALID_ARGUMENT, IndigoGame, IndigoGarden, fill,
    fill_text, guarded, hand_out, read, status, write,
};

/// The turn of a game that is over ([`indigo_game_turn`]).
pub const INDIGO_TURN_OVER: i32 = -1;
/// The turn at a chance node, where the legal actions are chance's outcomes.
pub const INDIGO_TURN_CHANCE: i32 = -2;

/// A game's handle as the search calls see it: its position, which the search crate's traits
/// decide about, and what goes through the game's history.
pub(crate) trait Handle: Clone {
    /// The position type, one of the project's games.
    type State: Encoded;
    /// The handle's argument name in messages.
    const NAME: &'static str;

    /// The current position.
    fn state(&self) -> &Self::State;

    /// Plays `action`, one of the position's legal actions, into the game's history (so that
    /// undo and the record see it).
    fn play(&mut self, action: <Self::State as Game>::Action) -> Result<(), Failure>;

    /// `seat`'s information state, as the game's Python class gives it.
    fn information_state(&self, seat: u8) -> String;

    /// A game drawn from what `seat` knows, as the game's Python class draws it from `rng`.
    fn resample(&self, seat: u8, rng: &mut Rng) -> Self;
}

impl Handle for IndigoGame {
    type State = indigo_game::Position;
    const NAME: &'static str = "game";

    fn state(&self) -> &indigo_game::Position {
        self.game.position()
    }

    fn play(&mut self, action: indigo_game::Action) -> Result<(), Failure> {
        if self.game.position().is_chance_node() {
            // At a chance node an action number is the tile type drawn.
            let tile = u8::try_from(action.index())
                .ok()
                .and_then(indigo_game::TileType::from_index)
                .ok_or_else(|| illegal(action.index()))?;
            return self
                .game
                .apply_draw(tile)
                .map_err(|e| Failure::new(INDIGO_ERR_ILLEGAL_MOVE, e.to_string()));
        }
        super::play(&mut self.game, action.to_move())
    }

    fn information_state(&self, seat: u8) -> String {
        self.game.information_state_string(seat)
    }

    fn resample(&self, seat: u8, rng: &mut Rng) -> IndigoGame {
        IndigoGame {
            game: self.game.resample(seat, rng),
        }
    }
}

impl Handle for IndigoGarden {
    type State = queens_garden::Position;
    const NAME: &'static str = "garden";

    fn state(&self) -> &queens_garden::Position {
        self.game.position()
    }

    fn play(&mut self, action: queens_garden::Action) -> Result<(), Failure> {
        let mv = action.to_move();
        self.game
            .play(&mv)
            .map_err(|e| Failure::new(INDIGO_ERR_ILLEGAL_MOVE, format!("cannot play {mv}: {e}")))
    }

    fn information_state(&self, seat: u8) -> String {
        self.game.position().information_string(seat)
    }

    fn resample(&self, seat: u8, rng: &mut Rng) -> IndigoGarden {
        IndigoGarden {
            game: queens_garden::Game::from_position(self.game.position().determinize(seat, rng)),
        }
    }
}

fn illegal(action: usize) -> Failure {
    Failure::new(
        INDIGO_ERR_ILLEGAL_MOVE,
        format!("action {action} is not legal in this position"),
    )
}

/// `seat`, refused unless it is a seat of `state`'s game.
fn seat_of<G: Game>(state: &G, seat: u8) -> Result<u8, Failure> {
    if usize::from(seat) < state.players() {
        Ok(seat)
    } else {
        Err(Failure::new(
            INDIGO_ERR_INVALID_ARGUMENT,
            format!(
                "seat {seat} is not a seat of this game (seats are 0..{})",
                state.players() - 1
            ),
        ))
    }
}

/// The legal actions' numbers, ascending: the seat to move's, or chance's outcomes at a chance
/// node, none once over.
fn legal_numbers<G: Encoded>(state: &G) -> Vec<(u32, G::Action)> {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    legal
        .into_iter()
        .map(|a| (G::action_number(a) as u32, a))
        .collect()
}

/// [`indigo_game_clone`] and [`indigo_garden_clone`].
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing a pointer.
unsafe fn clone<H: Handle>(handle: *const H, out: *mut *mut H) -> Result<(), Failure> {
    // SAFETY: the caller's promise for `handle`.
    let handle = unsafe { read(handle, H::NAME) }?;
    // SAFETY: the caller's promise for `out`.
    unsafe { hand_out(handle.clone(), out) }
}

/// [`indigo_game_turn`] and [`indigo_garden_turn`].
///
/// # Safety
/// `handle` is null or a live handle; `turn` is null or valid for writing.
unsafe fn turn<H: Handle>(handle: *const H, turn: *mut i32) -> Result<(), Failure> {
    // SAFETY: the caller's promise for `handle`.
    let state = unsafe { read(handle, H::NAME) }?.state();
    // SAFETY: the caller's promise for `turn`.
    *unsafe { write(turn, "turn") }? = match state.turn() {
        Turn::Player(seat) => i32::from(seat),
        Turn::Chance => INDIGO_TURN_CHANCE,
        Turn::Over => INDIGO_TURN_OVER,
    };
    Ok(())
}

/// [`indigo_game_legal_actions`] and [`indigo_garden_legal_actions`].
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing `capacity` values;
/// `count` is null or valid for writing.
unsafe fn legal_actions<H: Handle>(
    handle: *const H,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> Result<(), Failure> {
    // SAFETY: the caller's promise for `handle`.
    let state = unsafe { read(handle, H::NAME) }?.state();
    let numbers: Vec<u32> = legal_numbers(state).into_iter().map(|(n, _)| n).collect();
    // SAFETY: the caller's promise for `out`, `capacity` and `count`.
    unsafe { fill(&numbers, out, capacity, count) }
}

/// [`indigo_game_play_action`] and [`indigo_garden_play_action`].
///
/// # Safety
/// `handle` is null or a live handle used by no other thread.
unsafe fn play_action<H: Handle>(handle: *mut H, action: u32) -> Result<(), Failure> {
    // SAFETY: the caller's promise for `handle`.
    let handle = unsafe { write(handle, H::NAME) }?;
    let actions = <H::State as Encoded>::ACTION_COUNT;
    if action as usize >= actions {
        return Err(Failure::new(
            INDIGO_ERR_INVALID_ARGUMENT,
            format!(
                "action {action} names no move: actions are 0..{}",
                actions - 1
            ),
        ));
    }
    let (_, chosen) = legal_numbers(handle.state())
        .into_iter()
        .find(|&(n, _)| n == action)
        .ok_or_else(|| illegal(action as usize))?;
    handle.play(chosen)
}

/// [`indigo_game_observation`] and [`indigo_garden_observation`].
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing `capacity` values;
/// `count` is null or valid for writing.
unsafe fn observation<H: Handle>(
    handle: *const H,
    seat: u8,
    out: *mut f32,
    capacity: usize,
    count: *mut usize,
) -> Result<(), Failure> {
    // SAFETY: the caller's promise for `handle`.
    let state = unsafe { read(handle, H::NAME) }?.state();
    let seat = seat_of(state, seat)?;
    let mut values = vec![0.0; <H::State as Encoded>::OBSERVATION_SIZE];
    state.observation(seat, &mut values);
    // SAFETY: the caller's promise for `out`, `capacity` and `count`.
    unsafe { fill(&values, out, capacity, count) }
}

/// [`indigo_game_information_state`] and [`indigo_garden_information_state`].
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing `capacity` bytes;
/// `length` is null or valid for writing.
unsafe fn information_state<H: Handle>(
    handle: *const H,
    seat: u8,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> Result<(), Failure> {
    // SAFETY: the caller's promise for `handle`.
    let handle = unsafe { read(handle, H::NAME) }?;
    let seat = seat_of(handle.state(), seat)?;
    // SAFETY: the caller's promise for `out`, `capacity` and `length`.
    unsafe { fill_text(&handle.information_state(seat), out, capacity, length) }
}

/// [`indigo_game_resample`] and [`indigo_garden_resample`].
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing a pointer.
unsafe fn resample<H: Handle>(
    handle: *const H,
    seat: u8,
    seed: u64,
    out: *mut *mut H,
) -> Result<(), Failure> {
    // SAFETY: the caller's promise for `handle`.
    let handle = unsafe { read(handle, H::NAME) }?;
    let seat = seat_of(handle.state(), seat)?;
    let drawn = handle.resample(seat, &mut Rng::seed_from_u64(seed));
    // SAFETY: the caller's promise for `out`.
    unsafe { hand_out(drawn, out) }
}

/// [`indigo_game_returns`] and [`indigo_garden_returns`].
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing `capacity` values;
/// `count` is null or valid for writing.
unsafe fn returns<H: Handle>(
    handle: *const H,
    out: *mut f64,
    capacity: usize,
    count: *mut usize,
) -> Result<(), Failure> {
    // SAFETY: the caller's promise for `handle`.
    let state = unsafe { read(handle, H::NAME) }?.state();
    let returns = state.returns();
    // SAFETY: the caller's promise for `out`, `capacity` and `count`.
    unsafe { fill(&returns[..state.players()], out, capacity, count) }
}

/// Values in one Indigo observation ([`indigo_game_observation`]).
#[unsafe(no_mangle)]
pub extern "C" fn indigo_game_observation_size() -> usize {
    guarded(0, || Ok(<IndigoGame as Handle>::State::OBSERVATION_SIZE))
}

/// Indigo's action numbers are `0..indigo_game_action_count()`.
#[unsafe(no_mangle)]
pub extern "C" fn indigo_game_action_count() -> u32 {
    guarded(0, || Ok(<IndigoGame as Handle>::State::ACTION_COUNT as u32))
}

/// A copy of the game, its history included, stored in `*out`: search on the copy leaves the
/// game as it is.
///
/// # Safety
/// `game` is null or a live game; `out` is null or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_clone(
    game: *const IndigoGame,
    out: *mut *mut IndigoGame,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { clone(game, out) }
    })
}

/// Whose turn it is into `*turn`: the seat to move (0-based), [`INDIGO_TURN_CHANCE`] at a
/// chance node (a game read from an explicit-chance record waiting for a draw) or
/// [`INDIGO_TURN_OVER`].
///
/// # Safety
/// `game` is null or a live game; `turn` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_turn(game: *const IndigoGame, turn: *mut i32) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { self::turn(game, turn) }
    })
}

/// The legal action numbers (`0..indigo_game_action_count()`, ascending) into
/// `out[0..capacity]`; `*count` is set to how many there are. At a chance node they are the tile
/// types that can be drawn; none once the game is over.
///
/// # Safety
/// `game` is null or a live game; `out` is null or valid for writing `capacity` values; `count`
/// is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_legal_actions(
    game: *const IndigoGame,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { legal_actions(game, out, capacity, count) }
    })
}

/// Plays the legal action numbered `action` (as listed by [`indigo_game_legal_actions`]):
/// `INDIGO_ERR_INVALID_ARGUMENT` for a number that names no action, `INDIGO_ERR_ILLEGAL_MOVE`
/// for one not legal now.
///
/// # Safety
/// `game` is null or a live game used by no other thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_play_action(game: *mut IndigoGame, action: u32) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { play_action(game, action) }
    })
}

/// What `seat` knows as [`indigo_game_observation_size`] values (the layout of
/// `indigo.OBSERVATION_LAYOUT`) into `out[0..capacity]`; `*count` is set to the size.
///
/// # Safety
/// `game` is null or a live game; `out` is null or valid for writing `capacity` values; `count`
/// is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_observation(
    game: *const IndigoGame,
    seat: u8,
    out: *mut f32,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { observation(game, seat, out, capacity, count) }
    })
}

/// `seat`'s information state (perfect recall, as `indigo.Game.information_state_string`) into
/// the buffer `out`.
///
/// # Safety
/// `game` is null or a live game; `out` is null or valid for writing `capacity` bytes; `length`
/// is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_information_state(
    game: *const IndigoGame,
    seat: u8,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { information_state(game, seat, out, capacity, length) }
    })
}

/// A game consistent with what `seat` knows (the same moves, its own tiles, every public fact),
/// the hidden tiles drawn from `seed` as `game.resample(seat, seed=seed)` in Python; stored in
/// `*out`.
///
/// # Safety
/// `game` is null or a live game; `out` is null or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_resample(
    game: *const IndigoGame,
    seat: u8,
    seed: u64,
    out: *mut *mut IndigoGame,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { resample(game, seat, seed, out) }
    })
}

/// Each seat's return, seat 0 first, into `out[0..capacity]`: once the game is over the winners
/// share 1, before that every return is 0; `*count` is set to the number of players.
///
/// # Safety
/// `game` is null or a live game; `out` is null or valid for writing `capacity` values; `count`
/// is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_returns(
    game: *const IndigoGame,
    out: *mut f64,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { returns(game, out, capacity, count) }
    })
}

/// Values in one Queen's Garden observation ([`indigo_garden_observation`]).
#[unsafe(no_mangle)]
pub extern "C" fn indigo_garden_observation_size() -> usize {
    guarded(0, || Ok(<IndigoGarden as Handle>::State::OBSERVATION_SIZE))
}

/// Queen's Garden's action numbers are `0..indigo_garden_action_count()`.
#[unsafe(no_mangle)]
pub extern "C" fn indigo_garden_action_count() -> u32 {
    guarded(0, || {
        Ok(<IndigoGarden as Handle>::State::ACTION_COUNT as u32)
    })
}

/// A copy of the game, its history included, stored in `*out`.
///
/// # Safety
/// `garden` is null or a live game; `out` is null or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_clone(
    garden: *const IndigoGarden,
    out: *mut *mut IndigoGarden,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { clone(garden, out) }
    })
}

/// Whose turn it is into `*turn`: the seat to move (0-based) or [`INDIGO_TURN_OVER`] (Queen's
/// Garden's chance happens inside a move, never at a node of its own).
///
/// # Safety
/// `garden` is null or a live game; `turn` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_turn(garden: *const IndigoGarden, turn: *mut i32) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { self::turn(garden, turn) }
    })
}

/// The legal action numbers (`0..indigo_garden_action_count()`, ascending, the order of
/// [`super::indigo_garden_legal_moves`]) into `out[0..capacity]`; `*count` is set to how many there
/// are (none once the game is over).
///
/// # Safety
/// `garden` is null or a live game; `out` is null or valid for writing `capacity` values;
/// `count` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_legal_actions(
    garden: *const IndigoGarden,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { legal_actions(garden, out, capacity, count) }
    })
}

/// Plays the legal action numbered `action` (docs/queens-garden.md, "Actions for search"):
/// `INDIGO_ERR_INVALID_ARGUMENT` for a number that names no action, `INDIGO_ERR_ILLEGAL_MOVE`
/// for one not legal now.
///
/// # Safety
/// `garden` is null or a live game used by no other thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_play_action(garden: *mut IndigoGarden, action: u32) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { play_action(garden, action) }
    })
}

/// What `seat` knows as [`indigo_garden_observation_size`] values (the layout of
/// `indigo.queens_garden.OBSERVATION_LAYOUT`) into `out[0..capacity]`; `*count` is set to the
/// size.
///
/// # Safety
/// `garden` is null or a live game; `out` is null or valid for writing `capacity` values;
/// `count` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_observation(
    garden: *const IndigoGarden,
    seat: u8,
    out: *mut f32,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { observation(garden, seat, out, capacity, count) }
    })
}

/// `seat`'s information state (its seat, the expansions every player has seen and the public
/// snapshot, as `indigo.queens_garden.Game.information_state_string`) into the buffer `out`.
///
/// # Safety
/// `garden` is null or a live game; `out` is null or valid for writing `capacity` bytes;
/// `length` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_information_state(
    garden: *const IndigoGarden,
    seat: u8,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { information_state(garden, seat, out, capacity, length) }
    })
}

/// A game drawn from what `seat` knows (the bag's order, the expansions nobody has seen and
/// the refills drawn anew from `seed`, as `game.resample(seat, seed=seed)` in Python), with no
/// moves before it; stored in `*out`.
///
/// # Safety
/// `garden` is null or a live game; `out` is null or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_resample(
    garden: *const IndigoGarden,
    seat: u8,
    seed: u64,
    out: *mut *mut IndigoGarden,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { resample(garden, seat, seed, out) }
    })
}

/// Each seat's return, seat 0 first, into `out[0..capacity]`: once the game is over the winners
/// share 1, before that every return is 0; `*count` is set to the number of players.
///
/// # Safety
/// `garden` is null or a live game; `out` is null or valid for writing `capacity` values;
/// `count` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_returns(
    garden: *const IndigoGarden,
    out: *mut f64,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise.
        unsafe { returns(garden, out, capacity, count) }
    })
}

#[cfg(test)]
mod tests;
