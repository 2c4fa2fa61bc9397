//! Azul: Queen's Garden through the same ABI: a game from a seed or a record, legal moves as
//! text, play, undo, scores, winners and the record out, and a bot's move ([`IndigoBot`], the
//! one bot type of both games).

use std::ffi::{CString, c_char};

use indigo_search::Bot as _;
use queens_garden::{Game, Move, Position, Rules, read_record, write_record};

use super::{
    Failure, INDIGO_ERR_BAD_RECORD, INDIGO_ERR_ILLEGAL_MOVE, INDIGO_ERR_INTERNAL,
    INDIGO_ERR_INVALID_ARGUMENT, INDIGO_ERR_NO_MOVE, IndigoBot, bad_position, fill, fill_text,
    free, guarded, hand_out, invalid, read, status, text, write,
};

/// An Azul: Queen's Garden game with its history; made by [`indigo_garden_new`] or
/// [`indigo_garden_from_record`], copied by [`super::indigo_garden_clone`], freed by
/// [`indigo_garden_free`].
#[derive(Clone)]
pub struct IndigoGarden {
    pub(crate) game: Game,
}

/// A new Queen's Garden game for `players` (2..=4) under the default wheel and jokers, set up
/// from `seed` as `indigo.queens_garden.Game(Rules(players), seed=seed)`; stored in `*out`.
///
/// # Safety
/// `out` is null or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_new(
    players: u8,
    seed: u64,
    out: *mut *mut IndigoGarden,
) -> i32 {
    status(|| {
        let rules = Rules::with_players(players)
            .map_err(|e| Failure::new(INDIGO_ERR_INVALID_ARGUMENT, e.to_string()))?;
        let game = Game::from_seed(rules, seed);
        // SAFETY: the caller's promise for `out`.
        unsafe { hand_out(IndigoGarden { game }, out) }
    })
}

/// The game a `queens-garden-record/1` JSON text describes, every move replayed and checked;
/// stored in `*out`.
///
/// # Safety
/// `json` is null or a NUL-terminated string; `out` is null or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_from_record(
    json: *const c_char,
    out: *mut *mut IndigoGarden,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `json`.
        let json = unsafe { text(json, "json") }?;
        let game = read_record(json)
            .map_err(|e| Failure::new(INDIGO_ERR_BAD_RECORD, format!("bad record: {e}")))?;
        // SAFETY: the caller's promise for `out`.
        unsafe { hand_out(IndigoGarden { game }, out) }
    })
}

/// The game at the position a position text describes (docs/queens-garden.md, "Positions as
/// text"), what is hidden drawn from `seed`, with no moves before it; stored in `*out`.
///
/// # Safety
/// `text` is null or a NUL-terminated string; `out` is null or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_from_position(
    text: *const c_char,
    seed: u64,
    out: *mut *mut IndigoGarden,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `text`.
        let text = unsafe { self::text(text, "text") }?;
        let position = Position::from_text(text, seed).map_err(bad_position)?;
        // SAFETY: the caller's promise for `out`.
        unsafe {
            hand_out(
                IndigoGarden {
                    game: Game::from_position(position),
                },
                out,
            )
        }
    })
}

/// The game's position as text (docs/queens-garden.md, "Positions as text") into the buffer
/// `out`.
///
/// # Safety
/// `garden` is null or a live game; `out` is null or valid for writing `capacity` bytes;
/// `length` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_position(
    garden: *const IndigoGarden,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `garden`.
        let garden = unsafe { read(garden, "garden") }?;
        // SAFETY: the caller's promise for `out`, `capacity` and `length`.
        unsafe { fill_text(&garden.game.position().to_text(), out, capacity, length) }
    })
}

/// Frees a Queen's Garden game; null is ignored.
///
/// # Safety
/// `garden` is null or came from this library and has not been freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_free(garden: *mut IndigoGarden) {
    guarded((), || {
        // SAFETY: the caller's promise.
        unsafe { free(garden) };
        Ok(())
    });
}

/// The legal moves in canonical notation (`take ye`, `tile bl3 f0 ye3`, `pass`), one per line
/// (no final `\n`), into the buffer `out`; empty once the game is over.
///
/// # Safety
/// `garden` is null or a live game; `out` is null or valid for writing `capacity` bytes;
/// `length` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_legal_moves(
    garden: *const IndigoGarden,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `garden`.
        let game = &unsafe { read(garden, "garden") }?.game;
        let moves: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
        // SAFETY: the caller's promise for `out`, `capacity` and `length`.
        unsafe { fill_text(&moves.join("\n"), out, capacity, length) }
    })
}

/// Plays a move given in the notation of docs/queens-garden.md; an illegal or unreadable move
/// changes nothing.
///
/// # Safety
/// `garden` is null or a live game used by no other thread; `mv` is null or a NUL-terminated
/// string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_play(garden: *mut IndigoGarden, mv: *const c_char) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `garden`.
        let game = &mut unsafe { write(garden, "garden") }?.game;
        // SAFETY: the caller's promise for `mv`.
        let text = unsafe { text(mv, "move") }?;
        let mv = Move::parse(text).map_err(|e| {
            Failure::new(
                INDIGO_ERR_INVALID_ARGUMENT,
                format!("cannot read move {text:?}: {e}"),
            )
        })?;
        game.play(&mv)
            .map_err(|e| Failure::new(INDIGO_ERR_ILLEGAL_MOVE, format!("cannot play {mv}: {e}")))
    })
}

/// Takes back the last move; `INDIGO_ERR_NO_MOVE` at the start of the game.
///
/// # Safety
/// `garden` is null or a live game used by no other thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_undo(garden: *mut IndigoGarden) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `garden`.
        let game = &mut unsafe { write(garden, "garden") }?.game;
        game.undo()
            .map(|_| ())
            .ok_or_else(|| Failure::new(INDIGO_ERR_NO_MOVE, "no move to undo"))
    })
}

/// The seat to move (0-based) into `*seat`, or -1 once the game is over.
///
/// # Safety
/// `garden` is null or a live game; `seat` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_to_move(garden: *const IndigoGarden, seat: *mut i32) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `garden`.
        let game = &unsafe { read(garden, "garden") }?.game;
        // SAFETY: the caller's promise for `seat`.
        *unsafe { write(seat, "seat") }? = game.position().to_move().map_or(-1, i32::from);
        Ok(())
    })
}

/// Each seat's points, seat 0 first, into `out[0..capacity]`; `*count` is set to the number of
/// players.
///
/// # Safety
/// `garden` is null or a live game; `out` is null or valid for writing `capacity` values;
/// `count` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_scores(
    garden: *const IndigoGarden,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `garden`.
        let game = &unsafe { read(garden, "garden") }?.game;
        // SAFETY: the caller's promise for `out`, `capacity` and `count`.
        unsafe { fill(game.position().scores(), out, capacity, count) }
    })
}

/// The winning seats as a bitmask (bit `s` for seat `s`) into `*winners`; 0 until the game is
/// over.
///
/// # Safety
/// `garden` is null or a live game; `winners` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_winners(
    garden: *const IndigoGarden,
    winners: *mut u32,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `garden`.
        let game = &unsafe { read(garden, "garden") }?.game;
        let mask = game
            .position()
            .winners()
            .iter()
            .fold(0u32, |mask, &s| mask | 1 << s);
        // SAFETY: the caller's promise for `winners`.
        *unsafe { write(winners, "winners") }? = mask;
        Ok(())
    })
}

fn record_text(garden: &IndigoGarden) -> String {
    write_record(&garden.game).to_string()
}

/// The game's record (`queens-garden-record/1` JSON, one line) into the buffer `out`.
///
/// # Safety
/// `garden` is null or a live game; `out` is null or valid for writing `capacity` bytes;
/// `length` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_record(
    garden: *const IndigoGarden,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `garden`.
        let garden = unsafe { read(garden, "garden") }?;
        // SAFETY: the caller's promise for `out`, `capacity` and `length`.
        unsafe { fill_text(&record_text(garden), out, capacity, length) }
    })
}

/// The game's record as a new string, to be freed with [`super::indigo_string_free`]; null
/// on failure.
///
/// # Safety
/// `garden` is null or a live game.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_record_string(garden: *const IndigoGarden) -> *mut c_char {
    guarded(std::ptr::null_mut(), || {
        // SAFETY: the caller's promise for `garden`.
        let garden = unsafe { read(garden, "garden") }?;
        let text = CString::new(record_text(garden))
            .map_err(|_| Failure::new(INDIGO_ERR_INTERNAL, "a record held a NUL byte"))?;
        Ok(text.into_raw())
    })
}

/// The bot's move (an [`IndigoBot`], the one bot type of both games) for the seat to move in
/// `garden`, in canonical notation, into the buffer `out`. `INDIGO_ERR_NO_MOVE` once the game is over. The game is unchanged; the bot's random
/// state moves on with every choice, even one refused for a small buffer (64 bytes always
/// suffice).
///
/// # Safety
/// `bot` is null or a live bot used by no other thread; `garden` is null or a live game; `out`
/// is null or valid for writing `capacity` bytes; `length` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_garden_bot_choose(
    bot: *mut IndigoBot,
    garden: *const IndigoGarden,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `bot`.
        let IndigoBot {
            spec, garden: bot, ..
        } = unsafe { write(bot, "bot") }?;
        // SAFETY: the caller's promise for `garden`.
        let game = &unsafe { read(garden, "garden") }?.game;
        // A `net` bot's network must fit the game's seats.
        spec.check::<Position>(Some(indigo_search::Game::players(game.position())))
            .map_err(invalid)?;
        let action = bot
            .choose(game.position())
            .ok_or_else(|| Failure::new(INDIGO_ERR_NO_MOVE, "the game is over"))?;
        // SAFETY: the caller's promise for `out`, `capacity` and `length`.
        unsafe { fill_text(&action.to_move().to_string(), out, capacity, length) }
    })
}
