//! The search calls (`search.rs`) driven as a C search would drive them, once for each game
//! through the same table of entries.

use std::ffi::{CStr, c_char};
use std::ptr;

use indigo_search::{Encoded, Game as _};

use crate::*;

/// One game's search entries, as a C program would hold them.
struct Calls<H> {
    start: fn(u64) -> *mut H,
    free: unsafe extern "C" fn(*mut H),
    position: unsafe extern "C" fn(*const H, *mut c_char, usize, *mut usize) -> i32,
    observation_size: extern "C" fn() -> usize,
    action_count: extern "C" fn() -> u32,
    clone: unsafe extern "C" fn(*const H, *mut *mut H) -> i32,
    turn: unsafe extern "C" fn(*const H, *mut i32) -> i32,
    legal_actions: unsafe extern "C" fn(*const H, *mut u32, usize, *mut usize) -> i32,
    play_action: unsafe extern "C" fn(*mut H, u32) -> i32,
    observation: unsafe extern "C" fn(*const H, u8, *mut f32, usize, *mut usize) -> i32,
    information_state: unsafe extern "C" fn(*const H, u8, *mut c_char, usize, *mut usize) -> i32,
    resample: unsafe extern "C" fn(*const H, u8, u64, *mut *mut H) -> i32,
    returns: unsafe extern "C" fn(*const H, *mut f64, usize, *mut usize) -> i32,
}

fn indigo_start(seed: u64) -> *mut IndigoGame {
    let rules = IndigoRules {
        players: 2,
        hand_size: 1,
        exclusive_gates: 0,
        shared_ties: 0,
        open_hands: 0,
        butterfly_garden: 0,
    };
    let mut game = ptr::null_mut();
    // SAFETY: both pointers are to live locals.
    assert_eq!(
        unsafe { indigo_game_new(&raw const rules, seed, &raw mut game) },
        INDIGO_OK
    );
    game
}

fn garden_start(seed: u64) -> *mut IndigoGarden {
    let mut garden = ptr::null_mut();
    // SAFETY: a live local.
    assert_eq!(
        unsafe { indigo_garden_new(2, seed, &raw mut garden) },
        INDIGO_OK
    );
    garden
}

const INDIGO: Calls<IndigoGame> = Calls {
    start: indigo_start,
    free: indigo_game_free,
    position: indigo_game_position,
    observation_size: indigo_game_observation_size,
    action_count: indigo_game_action_count,
    clone: indigo_game_clone,
    turn: indigo_game_turn,
    legal_actions: indigo_game_legal_actions,
    play_action: indigo_game_play_action,
    observation: indigo_game_observation,
    information_state: indigo_game_information_state,
    resample: indigo_game_resample,
    returns: indigo_game_returns,
};

const GARDEN: Calls<IndigoGarden> = Calls {
    start: garden_start,
    free: indigo_garden_free,
    position: indigo_garden_position,
    observation_size: indigo_garden_observation_size,
    action_count: indigo_garden_action_count,
    clone: indigo_garden_clone,
    turn: indigo_garden_turn,
    legal_actions: indigo_garden_legal_actions,
    play_action: indigo_garden_play_action,
    observation: indigo_garden_observation,
    information_state: indigo_garden_information_state,
    resample: indigo_garden_resample,
    returns: indigo_garden_returns,
};

fn last_error() -> String {
    // SAFETY: the library returns a NUL-terminated string valid until the next call here.
    unsafe { CStr::from_ptr(indigo_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Text out through the size query, then a buffer of that size.
fn text(fill: impl Fn(*mut c_char, usize, *mut usize) -> i32) -> String {
    let mut length = 0;
    assert_eq!(
        fill(ptr::null_mut(), 0, &raw mut length),
        INDIGO_ERR_BUFFER_TOO_SMALL
    );
    let mut buffer = vec![0 as c_char; length + 1];
    assert_eq!(
        fill(buffer.as_mut_ptr(), buffer.len(), &raw mut length),
        INDIGO_OK,
        "{}",
        last_error()
    );
    // SAFETY: the library wrote a NUL-terminated string into the buffer.
    let text = unsafe { CStr::from_ptr(buffer.as_ptr()) };
    assert_eq!(text.count_bytes(), length);
    text.to_str().unwrap().to_owned()
}

/// An array out through the size query, then an array of that size.
fn array<T: Copy + Default>(fill: impl Fn(*mut T, usize, *mut usize) -> i32) -> Vec<T> {
    let mut count = 0;
    let code = fill(ptr::null_mut(), 0, &raw mut count);
    if count == 0 {
        assert_eq!(code, INDIGO_OK);
        return Vec::new();
    }
    assert_eq!(code, INDIGO_ERR_BUFFER_TOO_SMALL);
    let mut out = vec![T::default(); count];
    assert_eq!(
        fill(out.as_mut_ptr(), count, &raw mut count),
        INDIGO_OK,
        "{}",
        last_error()
    );
    assert_eq!(count, out.len());
    out
}

impl<H> Calls<H> {
    fn position_of(&self, handle: *const H) -> String {
        // SAFETY: a live handle; `text` passes a buffer of the capacity it names.
        text(|out, cap, len| unsafe { (self.position)(handle, out, cap, len) })
    }

    fn turn_of(&self, handle: *const H) -> i32 {
        let mut turn = 99;
        // SAFETY: a live handle and local.
        assert_eq!(unsafe { (self.turn)(handle, &raw mut turn) }, INDIGO_OK);
        turn
    }

    fn legal(&self, handle: *const H) -> Vec<u32> {
        // SAFETY: a live handle; `array` passes an array of the capacity it names.
        array(|out, cap, count| unsafe { (self.legal_actions)(handle, out, cap, count) })
    }

    fn observe(&self, handle: *const H, seat: u8) -> Vec<f32> {
        // SAFETY: as in `legal`.
        array(|out, cap, count| unsafe { (self.observation)(handle, seat, out, cap, count) })
    }

    fn information(&self, handle: *const H, seat: u8) -> String {
        // SAFETY: as in `position_of`.
        text(|out, cap, len| unsafe { (self.information_state)(handle, seat, out, cap, len) })
    }

    fn returns_of(&self, handle: *const H) -> Vec<f64> {
        // SAFETY: as in `legal`.
        array(|out, cap, count| unsafe { (self.returns)(handle, out, cap, count) })
    }

    fn copy(&self, handle: *const H) -> *mut H {
        let mut copy = ptr::null_mut();
        // SAFETY: a live handle and local.
        assert_eq!(unsafe { (self.clone)(handle, &raw mut copy) }, INDIGO_OK);
        copy
    }

    fn resampled(&self, handle: *const H, seat: u8, seed: u64) -> *mut H {
        let mut drawn = ptr::null_mut();
        // SAFETY: a live handle and local.
        let code = unsafe { (self.resample)(handle, seat, seed, &raw mut drawn) };
        assert_eq!(code, INDIGO_OK, "{}", last_error());
        drawn
    }

    /// Plays a whole game choosing among the legal actions by `pick`, checking at every move
    /// that a clone is left behind unchanged; returns the moves played and the final returns.
    fn play_out(&self, handle: *mut H, pick: impl Fn(usize, usize) -> usize) -> (usize, Vec<f64>) {
        let mut moves = 0;
        while self.turn_of(handle) >= 0 {
            let legal = self.legal(handle);
            assert!(!legal.is_empty());
            assert!(legal.is_sorted());
            let copy = self.copy(handle);
            let before = self.position_of(handle);
            assert_eq!(self.position_of(copy), before);
            let action = legal[pick(moves, legal.len())];
            // SAFETY: a live handle.
            let code = unsafe { (self.play_action)(handle, action) };
            assert_eq!(code, INDIGO_OK, "{}", last_error());
            assert_eq!(self.position_of(copy), before);
            assert_ne!(self.position_of(handle), before);
            // SAFETY: freed once.
            unsafe { (self.free)(copy) };
            moves += 1;
            assert!(moves < 5000, "the game does not end");
        }
        assert_eq!(self.turn_of(handle), INDIGO_TURN_OVER);
        assert!(self.legal(handle).is_empty());
        (moves, self.returns_of(handle))
    }
}

fn whole_game<H>(calls: &Calls<H>, winners: fn(*const H) -> u32) {
    let handle = (calls.start)(5);
    assert_eq!(calls.returns_of(handle), [0.0, 0.0]);
    let (moves, returns) = calls.play_out(handle, |m, n| (m * 7919) % n);
    assert!(moves > 20, "{moves}");
    assert_eq!(returns.len(), 2);
    assert!(
        (returns.iter().sum::<f64>() - 1.0).abs() < 1e-9,
        "{returns:?}"
    );
    let mask = winners(handle);
    for (seat, r) in returns.iter().enumerate() {
        assert_eq!(*r > 0.0, mask & 1 << seat != 0, "{returns:?} {mask:b}");
    }
    // SAFETY: freed once.
    unsafe { (calls.free)(handle) };
}

#[test]
fn both_games_play_to_the_end_by_action_numbers_and_clones_stay_behind() {
    whole_game(&INDIGO, |game| {
        let mut mask = 0;
        // SAFETY: a live handle and local.
        assert_eq!(
            unsafe { indigo_game_winners(game, &raw mut mask) },
            INDIGO_OK
        );
        mask
    });
    whole_game(&GARDEN, |garden| {
        let mut mask = 0;
        // SAFETY: a live handle and local.
        assert_eq!(
            unsafe { indigo_garden_winners(garden, &raw mut mask) },
            INDIGO_OK
        );
        mask
    });
}

#[test]
fn the_calls_give_what_the_crates_decide() {
    let game = indigo_start(9);
    // SAFETY: a live handle.
    let position = unsafe { &(*game).game }.position();
    let numbers: Vec<u32> = position
        .legal_actions()
        .iter()
        .map(|a| a.index() as u32)
        .collect();
    assert_eq!(INDIGO.legal(game), numbers);
    let mut own = vec![0.0; indigo_game::Position::OBSERVATION_SIZE];
    position.observation(1, &mut own);
    assert_eq!(INDIGO.observe(game, 1), own);
    assert_eq!(indigo_game_observation_size(), own.len());
    assert_eq!(indigo_game_action_count(), 810);
    assert_eq!(
        INDIGO.information(game, 0),
        // SAFETY: a live handle.
        unsafe { &(*game).game }.information_state_string(0)
    );

    let garden = garden_start(9);
    // SAFETY: a live handle.
    let position = unsafe { &(*garden).game }.position();
    let numbers: Vec<u32> = position.legal_actions().iter().map(|a| a.index()).collect();
    assert_eq!(GARDEN.legal(garden), numbers);
    let mut own = vec![0.0; queens_garden::Position::OBSERVATION_SIZE];
    position.observation(0, &mut own);
    assert_eq!(GARDEN.observe(garden, 0), own);
    assert_eq!(indigo_garden_observation_size(), own.len());
    assert_eq!(indigo_garden_action_count(), queens_garden::ACTION_COUNT);
    assert_eq!(
        GARDEN.information(garden, 1),
        position.information_string(1)
    );
    // SAFETY: freed once each.
    unsafe {
        indigo_game_free(game);
        indigo_garden_free(garden);
    }
}

/// A determinization keeps what the seat knows and is fixed by its seed.
fn resampling_keeps_what_the_seat_knows<H>(calls: &Calls<H>) {
    let handle = (calls.start)(3);
    for m in 0..12 {
        let legal = calls.legal(handle);
        // SAFETY: a live handle.
        assert_eq!(
            unsafe { (calls.play_action)(handle, legal[m % legal.len()]) },
            INDIGO_OK
        );
    }
    let before = calls.position_of(handle);
    let mut differ = false;
    for seat in 0..2 {
        let a = calls.resampled(handle, seat, 17);
        let b = calls.resampled(handle, seat, 17);
        let c = calls.resampled(handle, seat, 18);
        for drawn in [a, c] {
            assert_eq!(
                calls.information(drawn, seat),
                calls.information(handle, seat)
            );
            assert_eq!(calls.observe(drawn, seat), calls.observe(handle, seat));
            assert_eq!(calls.turn_of(drawn), calls.turn_of(handle));
            if calls.turn_of(handle) == i32::from(seat) {
                // The seat's own choices are what it knows.
                assert_eq!(calls.legal(drawn), calls.legal(handle));
            }
        }
        // A determinization plays on to the end like any game; what is hidden shows as the
        // game goes on: the same seed, the same game.
        for drawn in [a, b, c] {
            let (moves, _) = calls.play_out(drawn, |m, n| m % n);
            assert!(moves > 0);
        }
        assert_eq!(calls.position_of(a), calls.position_of(b));
        differ |= calls.position_of(a) != calls.position_of(c);
        // SAFETY: freed once each.
        unsafe {
            (calls.free)(a);
            (calls.free)(b);
            (calls.free)(c);
        }
    }
    assert!(
        differ,
        "two seeds drew the same hidden state for both seats"
    );
    assert_eq!(calls.position_of(handle), before);
    // SAFETY: freed once.
    unsafe { (calls.free)(handle) };
}

#[test]
fn a_resampled_game_keeps_what_the_seat_knows_in_both_games() {
    resampling_keeps_what_the_seat_knows(&INDIGO);
    resampling_keeps_what_the_seat_knows(&GARDEN);
}

/// Every refusal has its status and message and changes nothing: not the game, not the
/// caller's buffers, not the handle out.
fn refusals_change_nothing<H>(calls: &Calls<H>) {
    let handle = (calls.start)(4);
    let before = calls.position_of(handle);
    let info = calls.information(handle, 0);
    let legal = calls.legal(handle);
    let size = (calls.observation_size)();
    let actions = (calls.action_count)();
    let illegal = (0..actions).find(|a| !legal.contains(a)).unwrap();
    let (mut count, mut length, mut turn) = (0, 0, 0);
    let mut none = ptr::null_mut();
    let mut values = [7.0f32; 4];
    let mut small = [7 as c_char; 4];
    let mut returns = [7.0f64; 1];
    // SAFETY: live handles and locals; nulls and small capacities where the test says so.
    unsafe {
        assert_eq!(
            (calls.play_action)(handle, actions),
            INDIGO_ERR_INVALID_ARGUMENT
        );
        assert!(last_error().contains("names no move"), "{}", last_error());
        assert_eq!(
            (calls.play_action)(handle, u32::MAX),
            INDIGO_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            (calls.play_action)(handle, illegal),
            INDIGO_ERR_ILLEGAL_MOVE
        );
        assert!(last_error().contains("not legal"), "{}", last_error());
        assert_eq!(
            (calls.play_action)(ptr::null_mut(), legal[0]),
            INDIGO_ERR_NULL_POINTER
        );

        let code = (calls.observation)(handle, 0, values.as_mut_ptr(), 4, &raw mut count);
        assert_eq!(code, INDIGO_ERR_BUFFER_TOO_SMALL);
        assert_eq!(count, size);
        assert_eq!(values.map(f32::to_bits), [7.0f32.to_bits(); 4]);
        let code = (calls.observation)(handle, 2, values.as_mut_ptr(), 4, &raw mut count);
        assert_eq!(code, INDIGO_ERR_INVALID_ARGUMENT);
        assert!(last_error().contains("seat 2"), "{}", last_error());
        let code = (calls.observation)(handle, 0, values.as_mut_ptr(), 4, ptr::null_mut());
        assert_eq!(code, INDIGO_ERR_NULL_POINTER);
        assert_eq!(last_error(), "count is a null pointer");

        let code = (calls.information_state)(handle, 0, small.as_mut_ptr(), 4, &raw mut length);
        assert_eq!(code, INDIGO_ERR_BUFFER_TOO_SMALL);
        assert_eq!(length, info.len());
        assert_eq!(small, [7; 4]);
        let code = (calls.information_state)(handle, 9, small.as_mut_ptr(), 4, &raw mut length);
        assert_eq!(code, INDIGO_ERR_INVALID_ARGUMENT);

        let code = (calls.legal_actions)(handle, ptr::null_mut(), 0, &raw mut count);
        assert_eq!(code, INDIGO_ERR_BUFFER_TOO_SMALL);
        assert_eq!(count, legal.len());
        let code = (calls.returns)(handle, returns.as_mut_ptr(), 1, &raw mut count);
        assert_eq!(code, INDIGO_ERR_BUFFER_TOO_SMALL);
        assert_eq!((count, returns[0].to_bits()), (2, 7.0f64.to_bits()));

        assert_eq!(
            (calls.resample)(handle, 2, 1, &raw mut none),
            INDIGO_ERR_INVALID_ARGUMENT
        );
        assert!(none.is_null());
        assert_eq!(
            (calls.resample)(ptr::null(), 0, 1, &raw mut none),
            INDIGO_ERR_NULL_POINTER
        );
        assert_eq!(
            (calls.resample)(handle, 0, 1, ptr::null_mut()),
            INDIGO_ERR_NULL_POINTER
        );
        assert_eq!(
            (calls.clone)(ptr::null(), &raw mut none),
            INDIGO_ERR_NULL_POINTER
        );
        assert!(none.is_null());
        assert_eq!(
            (calls.clone)(handle, ptr::null_mut()),
            INDIGO_ERR_NULL_POINTER
        );
        assert_eq!(last_error(), "out is a null pointer");
        assert_eq!(
            (calls.turn)(ptr::null(), &raw mut turn),
            INDIGO_ERR_NULL_POINTER
        );
        assert_eq!(
            (calls.turn)(handle, ptr::null_mut()),
            INDIGO_ERR_NULL_POINTER
        );
        assert_eq!(
            (calls.returns)(ptr::null(), returns.as_mut_ptr(), 1, &raw mut count),
            INDIGO_ERR_NULL_POINTER
        );
    }
    assert_eq!(calls.position_of(handle), before);
    assert_eq!(calls.information(handle, 0), info);
    assert_eq!(calls.legal(handle), legal);
    assert_eq!(last_error(), "");
    // SAFETY: freed once.
    unsafe { (calls.free)(handle) };
}

#[test]
fn refusals_of_the_search_calls_change_nothing_in_both_games() {
    refusals_change_nothing(&INDIGO);
    refusals_change_nothing(&GARDEN);
}

#[test]
fn an_indigo_chance_node_lists_and_takes_its_draws_by_number() {
    let rules = indigo_game::Rules::new(2, 1).unwrap();
    let game = Box::into_raw(Box::new(IndigoGame {
        game: indigo_game::Game::explicit_chance(rules),
    }));
    assert_eq!(INDIGO.turn_of(game), INDIGO_TURN_CHANCE);
    let mut seat = 0;
    // SAFETY: a live handle and local.
    assert_eq!(
        unsafe { indigo_game_to_move(game, &raw mut seat) },
        INDIGO_OK
    );
    assert_eq!(seat, -1);
    // The deal can draw any tile type.
    let draws = INDIGO.legal(game);
    assert_eq!(
        draws,
        (0..indigo_game::TILE_TYPE_COUNT as u32).collect::<Vec<_>>()
    );
    // SAFETY: a live handle.
    unsafe {
        assert_eq!(indigo_game_play_action(game, 40), INDIGO_ERR_ILLEGAL_MOVE);
        assert_eq!(
            indigo_game_play_action(game, 2),
            INDIGO_OK,
            "{}",
            last_error()
        );
    }
    let mut dealt = 1;
    while INDIGO.turn_of(game) == INDIGO_TURN_CHANCE {
        // SAFETY: a live handle.
        assert_eq!(unsafe { indigo_game_play_action(game, 1) }, INDIGO_OK);
        dealt += 1;
    }
    assert_eq!(INDIGO.turn_of(game), 0);
    assert_eq!(dealt, 2);
    // SAFETY: freed once.
    unsafe { indigo_game_free(game) };
}
