//! The C ABI of `indigo-game` and `queens-garden`: games and bots behind opaque handles, for
//! programs in any language that can call C, with the calls search and learning code needs the
//! same for both games (`search.rs`). The header is `rust/capi/include/indigo.h`;
//! `examples/c/play.c` plays whole games through it, with a search written in C, and
//! `docs/embedding.md` drives it from Python's `ctypes`.
//!
//! Every function returns a status (`INDIGO_OK` or an `INDIGO_ERR_*` code) unless it only frees
//! or names something; on failure it changes nothing and [`indigo_last_error`] holds a message
//! for a person. No Rust panic crosses the boundary: every entry runs under
//! [`std::panic::catch_unwind`] and a panic becomes `INDIGO_ERR_INTERNAL`.
//!
//! Text out (moves, records) goes into a caller buffer: `*length` is always set to the text's
//! length in bytes without the terminating NUL, and if `capacity` is below `length + 1` nothing
//! is written and the status is `INDIGO_ERR_BUFFER_TOO_SMALL` (pass a null buffer and capacity
//! 0 to ask for the size).

// An FFI layer has to dereference the raw pointers its callers pass and export unmangled
// symbols; the workspace denies `unsafe` everywhere else. Each `unsafe` block is one pointer
// operation with a `SAFETY:` comment naming the caller's promise it relies on.
#![allow(unsafe_code)]

use std::any::Any;
use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use indigo_game::{
    Game, GateVariant, Move, Position, Rules, Theme, TieBreak, read_record, write_record_checked,
};
use indigo_search::{Bot as _, BotSpec, SearchBot};

/// Success.
pub const INDIGO_OK: i32 = 0;
/// A required pointer argument was null.
pub const INDIGO_ERR_NULL_POINTER: i32 = 1;
/// An argument was refused: rules out of range, unreadable move text, an unknown bot, text that
/// is not UTF-8, an action number out of range.
pub const INDIGO_ERR_INVALID_ARGUMENT: i32 = 2;
/// The move is not legal in this position.
pub const INDIGO_ERR_ILLEGAL_MOVE: i32 = 3;
/// The record is not a valid `indigo-record/1`.
pub const INDIGO_ERR_BAD_RECORD: i32 = 4;
/// The caller's buffer is too small; the needed size was written to the length or count.
pub const INDIGO_ERR_BUFFER_TOO_SMALL: i32 = 5;
/// Nothing to do: no move to undo, or no seat to move because the game is over.
pub const INDIGO_ERR_NO_MOVE: i32 = 6;
/// A bug inside the library (a caught panic); the handle is unchanged.
pub const INDIGO_ERR_INTERNAL: i32 = 7;
/// The text is not a valid position (docs/notation.md, docs/queens-garden.md "Positions as
/// text"); the message names the field.
pub const INDIGO_ERR_BAD_POSITION: i32 = 8;

/// An Indigo game with its history; made by [`indigo_game_new`] or
/// [`indigo_game_from_record`], copied by [`indigo_game_clone`], freed by [`indigo_game_free`].
#[derive(Clone)]
pub struct IndigoGame {
    game: Game,
}

/// A seeded bot of either game, the search crate's by one spec: made by [`indigo_bot_new`],
/// asked by [`indigo_bot_choose`] (Indigo) and [`indigo_garden_bot_choose`] (Queen's Garden),
/// freed by [`indigo_bot_free`]. Each game's choices are those of the spec and seed alone.
pub struct IndigoBot {
    /// The spec, to check a `net` bot's network against each game asked of it.
    spec: BotSpec,
    indigo: SearchBot<Position>,
    garden: SearchBot<queens_garden::Position>,
}

/// A rules configuration (RULES.md sections 5, 8 and 9). Flags are 0 for the standard rule and
/// any other value for the variant.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct IndigoRules {
    /// 2, 3 or 4.
    pub players: u8,
    /// Tiles in a hand: 1 (basic game) or 2 (tactical variant, Butterfly Garden).
    pub hand_size: u8,
    /// Three players only: each owns two gates alone instead of sharing.
    pub exclusive_gates: u8,
    /// Ties on points are shared instead of broken by most gems.
    pub shared_ties: u8,
    /// Every player sees every hand.
    pub open_hands: u8,
    /// Butterfly Garden's names and colours (play is unchanged).
    pub butterfly_garden: u8,
}

/// A refusal: a status code and a message for a person.
#[derive(Debug)]
struct Failure {
    code: i32,
    message: String,
}

impl Failure {
    fn new(code: i32, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }
}

fn null(what: &str) -> Failure {
    Failure::new(INDIGO_ERR_NULL_POINTER, format!("{what} is a null pointer"))
}

fn bad_position(error: impl std::error::Error) -> Failure {
    Failure::new(INDIGO_ERR_BAD_POSITION, format!("bad position: {error}"))
}

fn invalid(error: impl std::error::Error) -> Failure {
    Failure::new(INDIGO_ERR_INVALID_ARGUMENT, error.to_string())
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    // A message with a NUL in it keeps what comes before the NUL.
    let text = message.split('\0').next().unwrap_or_default();
    let text = CString::new(text).unwrap_or_default();
    // Fails only while the thread is being torn down, when nobody can read the message.
    let _ = LAST_ERROR.try_with(|last| *last.borrow_mut() = text);
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic");
    format!("internal error in the indigo library (please report it): {what}")
}

/// Runs one entry's body: catches a panic, records the failure's message (or clears it) and
/// gives the body's value or the status code.
fn run<T>(body: impl FnOnce() -> Result<T, Failure>) -> Result<T, i32> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => {
            set_last_error("");
            Ok(value)
        }
        Ok(Err(failure)) => {
            set_last_error(&failure.message);
            Err(failure.code)
        }
        Err(payload) => {
            set_last_error(&panic_message(payload.as_ref()));
            Err(INDIGO_ERR_INTERNAL)
        }
    }
}

/// [`run`] for an entry that returns a status.
fn status(body: impl FnOnce() -> Result<(), Failure>) -> i32 {
    run(body).err().unwrap_or(INDIGO_OK)
}

/// [`run`] for an entry that returns a value, `fallback` on failure.
fn guarded<T>(fallback: T, body: impl FnOnce() -> Result<T, Failure>) -> T {
    run(body).unwrap_or(fallback)
}

/// Runs the body of an entry that must leave the last error as it is, `fallback` on a panic.
fn quiet<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// The value behind `ptr`, or a null-pointer failure naming `what`.
///
/// # Safety
/// `ptr` is null or points to a live `T` that nothing mutates for `'a`.
unsafe fn read<'a, T>(ptr: *const T, what: &str) -> Result<&'a T, Failure> {
    // SAFETY: the caller's promise above.
    unsafe { ptr.as_ref() }.ok_or_else(|| null(what))
}

/// The value behind `ptr` for writing, or a null-pointer failure naming `what`.
///
/// # Safety
/// `ptr` is null or points to a live `T` that nothing else uses for `'a`.
unsafe fn write<'a, T>(ptr: *mut T, what: &str) -> Result<&'a mut T, Failure> {
    // SAFETY: the caller's promise above.
    unsafe { ptr.as_mut() }.ok_or_else(|| null(what))
}

/// The UTF-8 text of a NUL-terminated C string.
///
/// # Safety
/// `ptr` is null or points to a NUL-terminated string that lives and is unchanged for `'a`.
unsafe fn text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(null(what));
    }
    // SAFETY: not null, and NUL-terminated by the caller's promise above.
    let bytes = unsafe { CStr::from_ptr(ptr) };
    bytes.to_str().map_err(|e| {
        Failure::new(
            INDIGO_ERR_INVALID_ARGUMENT,
            format!("{what} is not UTF-8 text: {e}"),
        )
    })
}

/// Copies `items` into the caller's array `out` of `capacity` elements and sets `*count`.
///
/// # Safety
/// `out` is null or valid for writing `capacity` elements; `count` is null or valid for writing.
unsafe fn fill<T: Copy>(
    items: &[T],
    out: *mut T,
    capacity: usize,
    count: *mut usize,
) -> Result<(), Failure> {
    // SAFETY: the caller's promise above.
    *unsafe { write(count, "count") }? = items.len();
    if items.len() > capacity || (out.is_null() && !items.is_empty()) {
        return Err(Failure::new(
            INDIGO_ERR_BUFFER_TOO_SMALL,
            format!(
                "the buffer holds {capacity} items and {} are needed",
                items.len()
            ),
        ));
    }
    if !items.is_empty() {
        // SAFETY: `out` is valid for `capacity >= items.len()` elements (promise above) and
        // cannot overlap `items`, which this library owns.
        unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), out, items.len()) };
    }
    Ok(())
}

/// Copies `text` and a NUL into the caller's buffer `out` of `capacity` bytes and sets
/// `*length` to the text's length without the NUL.
///
/// # Safety
/// As [`fill`] for bytes.
unsafe fn fill_text(
    text: &str,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> Result<(), Failure> {
    // SAFETY: the caller's promise above.
    *unsafe { write(length, "length") }? = text.len();
    if text.len() >= capacity || out.is_null() {
        return Err(Failure::new(
            INDIGO_ERR_BUFFER_TOO_SMALL,
            format!(
                "the buffer holds {capacity} bytes and {} are needed (with the NUL)",
                text.len() + 1
            ),
        ));
    }
    // SAFETY: `out` is valid for `capacity > text.len()` bytes (promise above); the text is
    // this library's own, so the two cannot overlap.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr().cast::<c_char>(), out, text.len());
        out.add(text.len()).write(0);
    }
    Ok(())
}

/// Moves `value` to the heap and stores its pointer in `*out`.
///
/// # Safety
/// `out` is null or valid for writing a pointer.
unsafe fn hand_out<T>(value: T, out: *mut *mut T) -> Result<(), Failure> {
    // SAFETY: the caller's promise above.
    let out = unsafe { write(out, "out") }?;
    *out = Box::into_raw(Box::new(value));
    Ok(())
}

/// Frees a handle made by [`hand_out`].
///
/// # Safety
/// `ptr` is null or came from [`hand_out`] and has not been freed.
unsafe fn free<T>(ptr: *mut T) {
    if !ptr.is_null() {
        // SAFETY: the caller's promise above: this box is ours and freed once.
        drop(unsafe { Box::from_raw(ptr) });
    }
}

fn rules_of(rules: IndigoRules) -> Result<Rules, Failure> {
    let flag = |value: u8| value != 0;
    Ok(Rules::new(rules.players, rules.hand_size)
        .map_err(invalid)?
        .with_three_player_gates(if flag(rules.exclusive_gates) {
            GateVariant::Exclusive
        } else {
            GateVariant::Shared
        })
        .with_tie_break(if flag(rules.shared_ties) {
            TieBreak::Shared
        } else {
            TieBreak::MostGems
        })
        .with_open_hands(flag(rules.open_hands))
        .with_theme(if flag(rules.butterfly_garden) {
            Theme::ButterflyGarden
        } else {
            Theme::Indigo
        }))
}

fn play(game: &mut Game, mv: Move) -> Result<(), Failure> {
    game.play(mv)
        .map(|_| ())
        .map_err(|e| Failure::new(INDIGO_ERR_ILLEGAL_MOVE, format!("cannot play {mv}: {e}")))
}

/// The library's version, e.g. `"0.1.0"`; a static string, never freed.
#[unsafe(no_mangle)]
pub extern "C" fn indigo_version() -> *const c_char {
    guarded(std::ptr::null(), || {
        Ok(concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast())
    })
}

/// The message of the last failure on this thread (`""` after a success). The string belongs
/// to the library and stays valid until the next call on this thread.
#[unsafe(no_mangle)]
pub extern "C" fn indigo_last_error() -> *const c_char {
    quiet(c"".as_ptr(), || {
        LAST_ERROR
            .try_with(|last| last.borrow().as_ptr())
            .unwrap_or(c"".as_ptr())
    })
}

/// A new game under `*rules` whose pile is shuffled from `seed`, as `indigo.Game(rules,
/// seed=seed)` in Python; stored in `*out`.
///
/// # Safety
/// `rules` is null or points to an `IndigoRules`; `out` is null or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_new(
    rules: *const IndigoRules,
    seed: u64,
    out: *mut *mut IndigoGame,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `rules`.
        let rules = rules_of(*unsafe { read(rules, "rules") }?)?;
        let game = Game::from_seed(rules, seed);
        // SAFETY: the caller's promise for `out`.
        unsafe { hand_out(IndigoGame { game }, out) }
    })
}

/// The game a record (`indigo-record/1` JSON text) describes, every move replayed and checked;
/// stored in `*out`.
///
/// # Safety
/// `json` is null or a NUL-terminated string; `out` is null or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_from_record(
    json: *const c_char,
    out: *mut *mut IndigoGame,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `json`.
        let json = unsafe { text(json, "json") }?;
        let game = read_record(json)
            .map_err(|e| Failure::new(INDIGO_ERR_BAD_RECORD, format!("bad record: {e}")))?;
        // SAFETY: the caller's promise for `out`.
        unsafe { hand_out(IndigoGame { game }, out) }
    })
}

/// The game at the position a position text describes (docs/notation.md, "Positions as
/// text"), the pile's order drawn from `seed`, with no moves before it; stored in `*out`.
///
/// # Safety
/// `text` is null or a NUL-terminated string; `out` is null or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_from_position(
    text: *const c_char,
    seed: u64,
    out: *mut *mut IndigoGame,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `text`.
        let text = unsafe { self::text(text, "text") }?;
        let position = Position::from_text(text, seed).map_err(bad_position)?;
        // SAFETY: the caller's promise for `out`.
        unsafe {
            hand_out(
                IndigoGame {
                    game: Game::from_position(position),
                },
                out,
            )
        }
    })
}

/// The game's position as text (docs/notation.md, "Positions as text") into the buffer `out`.
///
/// # Safety
/// `game` is null or a live game; `out` is null or valid for writing `capacity` bytes;
/// `length` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_position(
    game: *const IndigoGame,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `game`.
        let game = unsafe { read(game, "game") }?;
        // SAFETY: the caller's promise for `out`, `capacity` and `length`.
        unsafe { fill_text(&game.game.position().to_text(), out, capacity, length) }
    })
}

/// Frees a game; null is ignored.
///
/// # Safety
/// `game` is null or came from this library and has not been freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_free(game: *mut IndigoGame) {
    guarded((), || {
        // SAFETY: the caller's promise.
        unsafe { free(game) };
        Ok(())
    });
}

/// The legal moves as text (`TILE@ROTATION:Q,R`, as in records), one per line (no final `\n`),
/// into the buffer `out` (see the crate's notes on text out). Every rotation of a placement is
/// listed, so there can be more moves than actions.
///
/// # Safety
/// `game` is null or a live game; `out` is null or valid for writing `capacity` bytes; `length`
/// is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_legal_moves(
    game: *const IndigoGame,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `game`.
        let game = &unsafe { read(game, "game") }?.game;
        let moves: Vec<String> = game
            .position()
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .collect();
        // SAFETY: the caller's promise for `out`, `capacity` and `length`.
        unsafe { fill_text(&moves.join("\n"), out, capacity, length) }
    })
}

/// Plays a move given as text (`"4@0:0,-3"`); an illegal or unreadable move changes nothing.
///
/// # Safety
/// `game` is null or a live game used by no other thread; `mv` is null or a NUL-terminated
/// string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_play(game: *mut IndigoGame, mv: *const c_char) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `game`.
        let game = &mut unsafe { write(game, "game") }?.game;
        // SAFETY: the caller's promise for `mv`.
        let mv: Move = unsafe { text(mv, "move") }?.parse().map_err(invalid)?;
        play(game, mv)
    })
}

/// Takes back the last move; `INDIGO_ERR_NO_MOVE` at the start of the game.
///
/// # Safety
/// `game` is null or a live game used by no other thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_undo(game: *mut IndigoGame) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `game`.
        let game = &mut unsafe { write(game, "game") }?.game;
        game.undo()
            .map(|_| ())
            .ok_or_else(|| Failure::new(INDIGO_ERR_NO_MOVE, "no move to undo"))
    })
}

/// The seat to move (0-based) into `*seat`, or -1 once the game is over or at a chance node
/// ([`indigo_game_turn`] tells the two apart).
///
/// # Safety
/// `game` is null or a live game; `seat` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_to_move(game: *const IndigoGame, seat: *mut i32) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `game`.
        let game = &unsafe { read(game, "game") }?.game;
        // SAFETY: the caller's promise for `seat`.
        *unsafe { write(seat, "seat") }? = game.position().to_move().map_or(-1, i32::from);
        Ok(())
    })
}

/// Each seat's points, seat 0 first, into `out[0..capacity]`; `*count` is set to the number of
/// players.
///
/// # Safety
/// As [`indigo_game_legal_actions`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_scores(
    game: *const IndigoGame,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `game`.
        let game = &unsafe { read(game, "game") }?.game;
        let players = usize::from(game.rules().players());
        let scores: Vec<u32> = game.position().scores()[..players]
            .iter()
            .map(|&s| u32::from(s))
            .collect();
        // SAFETY: the caller's promise for `out`, `capacity` and `count`.
        unsafe { fill(&scores, out, capacity, count) }
    })
}

/// The winning seats as a bitmask (bit `s` for seat `s`) into `*winners`; 0 until the game is
/// over.
///
/// # Safety
/// `game` is null or a live game; `winners` is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_winners(game: *const IndigoGame, winners: *mut u32) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `game`.
        let game = &unsafe { read(game, "game") }?.game;
        // SAFETY: the caller's promise for `winners`.
        *unsafe { write(winners, "winners") }? = u32::from(game.position().winners());
        Ok(())
    })
}

/// The game's record as text; refused for a game from a mid-game position, which no record
/// describes.
fn record_text(game: &IndigoGame) -> Result<String, Failure> {
    write_record_checked(&game.game)
        .map(|record| record.to_string())
        .map_err(|message| Failure::new(INDIGO_ERR_INVALID_ARGUMENT, message))
}

/// The game's record (`indigo-record/1` JSON, one line) into the buffer `out` (see the crate's
/// notes on text out); `INDIGO_ERR_INVALID_ARGUMENT` for a game from a mid-game position
/// ([`indigo_game_from_position`]), which no record describes.
///
/// # Safety
/// `game` is null or a live game; `out` is null or valid for writing `capacity` bytes; `length`
/// is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_record(
    game: *const IndigoGame,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `game`.
        let game = unsafe { read(game, "game") }?;
        // SAFETY: the caller's promise for `out`, `capacity` and `length`.
        unsafe { fill_text(&record_text(game)?, out, capacity, length) }
    })
}

/// The game's record as a new NUL-terminated string, to be freed with [`indigo_string_free`];
/// null on failure (see [`indigo_last_error`]).
///
/// # Safety
/// `game` is null or a live game.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_game_record_string(game: *const IndigoGame) -> *mut c_char {
    guarded(std::ptr::null_mut(), || {
        // SAFETY: the caller's promise for `game`.
        let game = unsafe { read(game, "game") }?;
        let text = CString::new(record_text(game)?)
            .map_err(|_| Failure::new(INDIGO_ERR_INTERNAL, "a record held a NUL byte"))?;
        Ok(text.into_raw())
    })
}

/// Frees a string made by this library; null is ignored.
///
/// # Safety
/// `text` is null or came from [`indigo_game_record_string`] and has not been freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_string_free(text: *mut c_char) {
    guarded((), || {
        if !text.is_null() {
            // SAFETY: the caller's promise: this string is ours and freed once.
            drop(unsafe { CString::from_raw(text) });
        }
        Ok(())
    });
}

/// A bot of either game from a spec as written on `indigo` command lines (`random`, `greedy`,
/// `playout`, `ismcts:1000`, `ismcts:time=0.5`, `ismcts:2000,c=0.5,threads=2`) whose choices
/// are fixed by `seed` (except under a time budget), in Queen's Garden as
/// `indigo.queens_garden.make_bot(spec, seed=seed)`; stored in `*out`.
///
/// # Safety
/// `spec` is null or a NUL-terminated string; `out` is null or valid for writing a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_bot_new(
    spec: *const c_char,
    seed: u64,
    out: *mut *mut IndigoBot,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `spec`.
        let spec: BotSpec = unsafe { text(spec, "spec") }?.parse().map_err(invalid)?;
        let bot = IndigoBot {
            spec,
            indigo: spec.build(seed),
            garden: spec.build(seed),
        };
        // SAFETY: the caller's promise for `out`.
        unsafe { hand_out(bot, out) }
    })
}

/// The bot's move for the seat to move in `game`, from what that seat knows: its text into the
/// buffer `out` (see the crate's notes on text out) and, when `action` is not null, its action
/// number into `*action`. `INDIGO_ERR_NO_MOVE` once the game is over. The game is unchanged;
/// the bot's random state moves on with every choice, even one refused for a small buffer (16
/// bytes always suffice: the longest move is `4@5:-4,-4`).
///
/// # Safety
/// `bot` is null or a live bot used by no other thread; `game` is null or a live game; `out` is
/// null or valid for writing `capacity` bytes; `length` is null or valid for writing; `action`
/// is null or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_bot_choose(
    bot: *mut IndigoBot,
    game: *const IndigoGame,
    out: *mut c_char,
    capacity: usize,
    length: *mut usize,
    action: *mut u32,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promise for `bot`.
        let IndigoBot { spec, indigo, .. } = unsafe { write(bot, "bot") }?;
        // SAFETY: the caller's promise for `game`.
        let game = &unsafe { read(game, "game") }?.game;
        // A `net` bot's network must fit the game's seats.
        spec.check::<Position>(Some(usize::from(game.position().rules().players())))
            .map_err(invalid)?;
        let chosen = indigo
            .choose(game.position())
            .ok_or_else(|| Failure::new(INDIGO_ERR_NO_MOVE, "the game is over"))?;
        // SAFETY: the caller's promise for `out`, `capacity` and `length`.
        unsafe { fill_text(&chosen.to_move().to_string(), out, capacity, length) }?;
        if !action.is_null() {
            // SAFETY: not null, so valid for writing by the caller's promise.
            unsafe { action.write(chosen.index() as u32) };
        }
        Ok(())
    })
}

/// Frees a bot; null is ignored.
///
/// # Safety
/// `bot` is null or came from this library and has not been freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn indigo_bot_free(bot: *mut IndigoBot) {
    guarded((), || {
        // SAFETY: the caller's promise.
        unsafe { free(bot) };
        Ok(())
    });
}

mod garden;
mod search;
pub use garden::*;
pub use search::*;

#[cfg(test)]
mod tests;
