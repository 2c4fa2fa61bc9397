//! The ABI driven as a C program would drive it.

use std::ffi::{CStr, CString, c_char};
use std::ptr;

use super::*;

const TWO_PLAYERS: IndigoRules = IndigoRules {
    players: 2,
    hand_size: 1,
    exclusive_gates: 0,
    shared_ties: 0,
    open_hands: 0,
    butterfly_garden: 0,
};

fn last_error() -> String {
    // SAFETY: the library returns a NUL-terminated string valid until the next call here.
    unsafe { CStr::from_ptr(indigo_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn new_game(seed: u64) -> *mut IndigoGame {
    let mut game = ptr::null_mut();
    // SAFETY: both pointers are to live locals.
    assert_eq!(
        unsafe { indigo_game_new(&TWO_PLAYERS, seed, &raw mut game) },
        INDIGO_OK
    );
    game
}

fn record(game: *const IndigoGame) -> String {
    let mut length = 0;
    // SAFETY: `game` is live; a null buffer of capacity 0 asks for the length.
    let code = unsafe { indigo_game_record(game, ptr::null_mut(), 0, &raw mut length) };
    assert_eq!(code, INDIGO_ERR_BUFFER_TOO_SMALL);
    let mut buffer = vec![0 as c_char; length + 1];
    // SAFETY: the buffer holds `length + 1` bytes.
    let code =
        unsafe { indigo_game_record(game, buffer.as_mut_ptr(), buffer.len(), &raw mut length) };
    assert_eq!(code, INDIGO_OK, "{}", last_error());
    // SAFETY: the library wrote a NUL-terminated string into the buffer.
    unsafe { CStr::from_ptr(buffer.as_ptr()) }
        .to_str()
        .unwrap()
        .to_owned()
}

#[test]
fn two_bots_play_a_whole_game_and_the_record_replays_it() {
    let game = new_game(7);
    let (mut greedy, mut ismcts) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: live locals and NUL-terminated literals throughout.
    unsafe {
        assert_eq!(
            indigo_bot_new(c"greedy".as_ptr(), 1, &raw mut greedy),
            INDIGO_OK
        );
        assert_eq!(
            indigo_bot_new(c"ismcts:30".as_ptr(), 2, &raw mut ismcts),
            INDIGO_OK
        );
    }
    let mut moves = 0;
    loop {
        let mut seat = 0;
        // SAFETY: live handle and local.
        assert_eq!(
            unsafe { indigo_game_to_move(game, &raw mut seat) },
            INDIGO_OK
        );
        if seat < 0 {
            break;
        }
        let bot = if seat == 0 { greedy } else { ismcts };
        let mut text = [0 as c_char; 32];
        let (mut length, mut action) = (0, 0);
        // SAFETY: live handles; the buffer holds 32 bytes.
        let code = unsafe {
            indigo_bot_choose(
                bot,
                game,
                text.as_mut_ptr(),
                32,
                &raw mut length,
                &raw mut action,
            )
        };
        assert_eq!(code, INDIGO_OK, "{}", last_error());
        let mut legal = [0u32; 4000];
        let mut count = 0;
        // SAFETY: the array holds 4000 values.
        let code =
            unsafe { indigo_game_legal_actions(game, legal.as_mut_ptr(), 4000, &raw mut count) };
        assert_eq!(code, INDIGO_OK);
        assert!(legal[..count].contains(&action));
        // Alternate the two ways of playing.
        // SAFETY: live handle; `text` is NUL-terminated by the library.
        let code = if moves % 2 == 0 {
            unsafe { indigo_game_play(game, text.as_ptr()) }
        } else {
            unsafe { indigo_game_play_action(game, action) }
        };
        assert_eq!(code, INDIGO_OK, "{}", last_error());
        moves += 1;
    }
    assert!(moves > 20);
    let mut winners = 0;
    let (mut scores, mut count) = ([0u32; 4], 0);
    // SAFETY: live handle and locals.
    unsafe {
        assert_eq!(indigo_game_winners(game, &raw mut winners), INDIGO_OK);
        assert_eq!(
            indigo_game_scores(game, scores.as_mut_ptr(), 4, &raw mut count),
            INDIGO_OK
        );
    }
    assert_ne!(winners, 0);
    assert_eq!(count, 2);
    assert!(scores[0] + scores[1] > 0);

    let json = CString::new(record(game)).unwrap();
    let mut replayed = ptr::null_mut();
    // SAFETY: NUL-terminated JSON and a live local.
    assert_eq!(
        unsafe { indigo_game_from_record(json.as_ptr(), &raw mut replayed) },
        INDIGO_OK
    );
    assert_eq!(record(replayed), json.to_str().unwrap());
    // SAFETY: the string was made by the library and is freed once; handles freed once.
    unsafe {
        let text = indigo_game_record_string(replayed);
        assert_eq!(
            CStr::from_ptr(text).to_str().unwrap(),
            json.to_str().unwrap()
        );
        indigo_string_free(text);
        indigo_game_free(replayed);
        indigo_game_free(game);
        indigo_bot_free(greedy);
        indigo_bot_free(ismcts);
    }
}

#[test]
fn refusals_have_codes_and_messages_and_change_nothing() {
    let game = new_game(3);
    let before = record(game);
    let mut bot = ptr::null_mut();
    let mut out = ptr::null_mut();
    let mut bad_rules = TWO_PLAYERS;
    bad_rules.players = 5;
    // SAFETY: live handles, locals and NUL-terminated literals; nulls where the test says so.
    unsafe {
        assert_eq!(
            indigo_game_play(game, c"nonsense".as_ptr()),
            INDIGO_ERR_INVALID_ARGUMENT
        );
        assert!(
            last_error().contains("cannot read move"),
            "{}",
            last_error()
        );
        assert_eq!(
            indigo_game_play(game, c"0@0:0,0".as_ptr()),
            INDIGO_ERR_ILLEGAL_MOVE
        );
        assert_eq!(
            indigo_game_play_action(game, 99_999),
            INDIGO_ERR_INVALID_ARGUMENT
        );
        assert_eq!(indigo_game_play(game, ptr::null()), INDIGO_ERR_NULL_POINTER);
        assert_eq!(last_error(), "move is a null pointer");
        assert_eq!(
            indigo_game_play(ptr::null_mut(), c"1@0:0,-3".as_ptr()),
            INDIGO_ERR_NULL_POINTER
        );
        assert_eq!(
            indigo_game_play(game, c"\xff".as_ptr()),
            INDIGO_ERR_INVALID_ARGUMENT
        );
        assert_eq!(indigo_game_undo(game), INDIGO_ERR_NO_MOVE);
        assert_eq!(
            indigo_game_new(&raw const bad_rules, 1, &raw mut out),
            INDIGO_ERR_INVALID_ARGUMENT
        );
        assert!(last_error().contains("players"), "{}", last_error());
        assert!(out.is_null());
        assert_eq!(
            indigo_game_from_record(c"{".as_ptr(), &raw mut out),
            INDIGO_ERR_BAD_RECORD
        );
        assert!(out.is_null());
        assert_eq!(
            indigo_bot_new(c"ismcts:0".as_ptr(), 1, &raw mut bot),
            INDIGO_ERR_INVALID_ARGUMENT
        );
        assert!(bot.is_null());
        let mut legal = [0u32; 2];
        let mut count = 0;
        let code = indigo_game_legal_actions(game, legal.as_mut_ptr(), 2, &raw mut count);
        assert_eq!(code, INDIGO_ERR_BUFFER_TOO_SMALL);
        assert!(count > 2);
        assert_eq!(legal, [0, 0]);
        let mut length = 0;
        let mut small = [0 as c_char; 4];
        let code = indigo_game_legal_moves(game, small.as_mut_ptr(), 4, &raw mut length);
        assert_eq!(code, INDIGO_ERR_BUFFER_TOO_SMALL);
        assert!(length > 4);
        assert_eq!(small, [0; 4]);
    }
    assert_eq!(record(game), before);
    assert_eq!(last_error(), "");
    // SAFETY: freed once.
    unsafe { indigo_game_free(game) };
}

#[test]
fn undo_takes_back_the_last_move() {
    let game = new_game(5);
    let before = record(game);
    let mut legal = [0u32; 4000];
    let mut count = 0;
    // SAFETY: live handle and locals.
    unsafe {
        assert_eq!(
            indigo_game_legal_actions(game, legal.as_mut_ptr(), 4000, &raw mut count),
            INDIGO_OK
        );
        assert_eq!(indigo_game_play_action(game, legal[count - 1]), INDIGO_OK);
    }
    assert_ne!(record(game), before);
    // SAFETY: live handle.
    assert_eq!(unsafe { indigo_game_undo(game) }, INDIGO_OK);
    assert_eq!(record(game), before);
    // SAFETY: freed once.
    unsafe { indigo_game_free(game) };
}

#[test]
fn a_panic_inside_an_entry_becomes_an_internal_error() {
    let code = status(|| panic!("boom"));
    assert_eq!(code, INDIGO_ERR_INTERNAL);
    assert!(last_error().contains("internal error"), "{}", last_error());
    assert!(last_error().contains("boom"));
    assert!(guarded(ptr::null::<u8>(), || panic!("{}", String::from("again"))).is_null());
    assert!(last_error().contains("again"));
}

/// Every exported function's body is one call of `status`, `guarded` or `quiet`, which catch
/// panics:
/// checked on the source so that a new entry cannot forget it.
#[test]
fn every_entry_runs_under_catch_unwind() {
    let source = [
        include_str!("lib.rs"),
        include_str!("garden.rs"),
        include_str!("search.rs"),
    ]
    .concat();
    let mut entries = 0;
    for (at, _) in source.match_indices("#[unsafe(no_mangle)]") {
        let rest = &source[at..];
        let body = &rest[rest.find('{').unwrap() + 1..];
        let first = body.trim_start();
        assert!(
            ["status(", "guarded(", "quiet("]
                .iter()
                .any(|wrapper| first.starts_with(wrapper)),
            "an entry does not start with status(, guarded( or quiet(: {}",
            &rest[..rest.find('{').unwrap()]
        );
        entries += 1;
    }
    assert_eq!(entries, source.matches("extern \"C\" fn").count());
    assert!(entries >= 49, "{entries}");
}

/// The hand-kept header declares every exported function and every status and turn with its
/// value.
#[test]
fn the_header_matches_the_library() {
    let header = include_str!("../include/indigo.h");
    let source = [
        include_str!("lib.rs"),
        include_str!("garden.rs"),
        include_str!("search.rs"),
    ]
    .concat();
    for (at, _) in source.match_indices("extern \"C\" fn ") {
        let rest = &source[at + "extern \"C\" fn ".len()..];
        let name = &rest[..rest.find('(').unwrap()];
        assert!(
            header.contains(&format!("{name}(")),
            "{name} is not in indigo.h"
        );
    }
    let statuses = [
        ("INDIGO_OK", INDIGO_OK),
        ("INDIGO_ERR_NULL_POINTER", INDIGO_ERR_NULL_POINTER),
        ("INDIGO_ERR_INVALID_ARGUMENT", INDIGO_ERR_INVALID_ARGUMENT),
        ("INDIGO_ERR_ILLEGAL_MOVE", INDIGO_ERR_ILLEGAL_MOVE),
        ("INDIGO_ERR_BAD_RECORD", INDIGO_ERR_BAD_RECORD),
        ("INDIGO_ERR_BUFFER_TOO_SMALL", INDIGO_ERR_BUFFER_TOO_SMALL),
        ("INDIGO_ERR_NO_MOVE", INDIGO_ERR_NO_MOVE),
        ("INDIGO_ERR_INTERNAL", INDIGO_ERR_INTERNAL),
        ("INDIGO_ERR_BAD_POSITION", INDIGO_ERR_BAD_POSITION),
        ("INDIGO_TURN_OVER", INDIGO_TURN_OVER),
        ("INDIGO_TURN_CHANCE", INDIGO_TURN_CHANCE),
    ];
    for (name, value) in statuses {
        assert!(
            header.contains(&format!("#define {name} {value}\n")),
            "{name}"
        );
    }
    assert_eq!(
        header.matches("#define INDIGO_").count(),
        statuses.len() + 1
    );
    assert_eq!(std::mem::size_of::<IndigoRules>(), 6);
}

fn garden_record(garden: *const IndigoGarden) -> String {
    // SAFETY: a live handle; the string is the library's and freed once.
    unsafe {
        let text = indigo_garden_record_string(garden);
        let record = CStr::from_ptr(text).to_str().unwrap().to_owned();
        indigo_string_free(text);
        record
    }
}

#[test]
fn a_queens_garden_game_plays_through_undoes_and_replays() {
    let mut garden = ptr::null_mut();
    // SAFETY: a live local.
    assert_eq!(
        unsafe { indigo_garden_new(2, 7, &raw mut garden) },
        INDIGO_OK
    );
    let start = garden_record(garden);
    let mut moves = 0;
    let mut buffer = vec![0 as c_char; 1 << 16];
    loop {
        let mut seat = 0;
        let mut length = 0;
        // SAFETY: live handle and locals; the buffer holds its length.
        unsafe {
            assert_eq!(indigo_garden_to_move(garden, &raw mut seat), INDIGO_OK);
            let code = indigo_garden_legal_moves(
                garden,
                buffer.as_mut_ptr(),
                buffer.len(),
                &raw mut length,
            );
            assert_eq!(code, INDIGO_OK, "{}", last_error());
        }
        // SAFETY: NUL-terminated by the library.
        let legal = unsafe { CStr::from_ptr(buffer.as_ptr()) }
            .to_str()
            .unwrap()
            .to_owned();
        if seat < 0 {
            assert_eq!(legal, "");
            break;
        }
        // The last legal move: `pass` comes last, so the game moves on.
        let pick = CString::new(legal.lines().last().unwrap()).unwrap();
        // SAFETY: live handle and a NUL-terminated move.
        assert_eq!(
            unsafe { indigo_garden_play(garden, pick.as_ptr()) },
            INDIGO_OK,
            "{}",
            last_error()
        );
        moves += 1;
        assert!(moves < 5000, "the game does not end");
    }
    let (mut scores, mut count, mut winners) = ([0u32; 4], 0, 0);
    // SAFETY: live handle and locals; NUL-terminated literals.
    unsafe {
        assert_eq!(
            indigo_garden_scores(garden, scores.as_mut_ptr(), 4, &raw mut count),
            INDIGO_OK
        );
        assert_eq!(indigo_garden_winners(garden, &raw mut winners), INDIGO_OK);
        assert_eq!(
            indigo_garden_play(garden, c"pass".as_ptr()),
            INDIGO_ERR_ILLEGAL_MOVE
        );
        assert_eq!(
            indigo_garden_play(garden, c"take nothing".as_ptr()),
            INDIGO_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            indigo_garden_new(5, 1, &raw mut garden),
            INDIGO_ERR_INVALID_ARGUMENT
        );
    }
    assert_eq!(count, 2);
    assert_ne!(winners, 0);
    let json = CString::new(garden_record(garden)).unwrap();
    let mut replayed = ptr::null_mut();
    // SAFETY: NUL-terminated JSON and a live local.
    assert_eq!(
        unsafe { indigo_garden_from_record(json.as_ptr(), &raw mut replayed) },
        INDIGO_OK
    );
    assert_eq!(garden_record(replayed), json.to_str().unwrap());
    for _ in 0..moves {
        // SAFETY: a live handle.
        assert_eq!(unsafe { indigo_garden_undo(replayed) }, INDIGO_OK);
    }
    // SAFETY: a live handle.
    assert_eq!(unsafe { indigo_garden_undo(replayed) }, INDIGO_ERR_NO_MOVE);
    assert_eq!(garden_record(replayed), start);
    // SAFETY: each freed once.
    unsafe {
        indigo_garden_free(replayed);
        indigo_garden_free(garden);
    }
}

#[test]
fn queens_garden_bots_play_a_whole_game_of_legal_moves() {
    let mut garden = ptr::null_mut();
    let (mut greedy, mut random, mut bad) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    // SAFETY: live locals and NUL-terminated literals.
    unsafe {
        assert_eq!(indigo_garden_new(2, 11, &raw mut garden), INDIGO_OK);
        assert_eq!(
            indigo_bot_new(c"greedy".as_ptr(), 1, &raw mut greedy),
            INDIGO_OK
        );
        assert_eq!(
            indigo_bot_new(c"random".as_ptr(), 2, &raw mut random),
            INDIGO_OK
        );
        assert_eq!(
            indigo_bot_new(c"minimax".as_ptr(), 2, &raw mut bad),
            INDIGO_ERR_INVALID_ARGUMENT
        );
    }
    assert!(bad.is_null());
    assert!(last_error().contains("minimax"), "{}", last_error());
    let mut legal = vec![0 as c_char; 1 << 16];
    let mut chosen = [0 as c_char; 64];
    let mut moves = 0;
    loop {
        let (mut seat, mut length) = (0, 0);
        // SAFETY: live handles and locals; each buffer holds its length.
        unsafe {
            assert_eq!(indigo_garden_to_move(garden, &raw mut seat), INDIGO_OK);
            if seat < 0 {
                break;
            }
            let bot = if seat == 0 { greedy } else { random };
            let code =
                indigo_garden_legal_moves(garden, legal.as_mut_ptr(), legal.len(), &raw mut length);
            assert_eq!(code, INDIGO_OK);
            let code = indigo_garden_bot_choose(
                bot,
                garden,
                chosen.as_mut_ptr(),
                chosen.len(),
                &raw mut length,
            );
            assert_eq!(code, INDIGO_OK, "{}", last_error());
            let mv = CStr::from_ptr(chosen.as_ptr()).to_str().unwrap();
            let listed = CStr::from_ptr(legal.as_ptr()).to_str().unwrap();
            assert!(listed.lines().any(|line| line == mv), "{mv} is not legal");
            assert_eq!(
                indigo_garden_play(garden, chosen.as_ptr()),
                INDIGO_OK,
                "{}",
                last_error()
            );
        }
        moves += 1;
        assert!(moves < 5000, "the game does not end");
    }
    let mut length = 0;
    // SAFETY: live handles and locals; each freed once.
    unsafe {
        assert_eq!(
            indigo_garden_bot_choose(
                greedy,
                garden,
                chosen.as_mut_ptr(),
                chosen.len(),
                &raw mut length
            ),
            INDIGO_ERR_NO_MOVE
        );
        indigo_bot_free(greedy);
        indigo_bot_free(random);
        indigo_garden_free(garden);
    }
}

fn read_text(fill: impl Fn(*mut c_char, usize, *mut usize) -> i32) -> String {
    let mut length = 0;
    assert_eq!(
        fill(ptr::null_mut(), 0, &raw mut length),
        INDIGO_ERR_BUFFER_TOO_SMALL
    );
    let mut buffer = vec![0 as c_char; length + 1];
    assert_eq!(
        fill(buffer.as_mut_ptr(), buffer.len(), &raw mut length),
        INDIGO_OK
    );
    // SAFETY: the library wrote a NUL-terminated string into the buffer.
    unsafe { CStr::from_ptr(buffer.as_ptr()) }
        .to_str()
        .unwrap()
        .to_owned()
}

#[test]
fn games_of_both_kinds_load_from_their_position_texts() {
    let game = new_game(7);
    // SAFETY: a live handle and live locals throughout.
    unsafe {
        for _ in 0..5 {
            let mut seat = 0;
            assert_eq!(indigo_game_to_move(game, &raw mut seat), INDIGO_OK);
            let mv = (*game).game.position().legal_moves()[0].to_string();
            let mv = CString::new(mv).unwrap();
            assert_eq!(indigo_game_play(game, mv.as_ptr()), INDIGO_OK);
        }
        let text = read_text(|out, cap, len| indigo_game_position(game, out, cap, len));
        assert_eq!(text, (*game).game.position().to_text());
        let c_text = CString::new(text.clone()).unwrap();
        let mut copy = ptr::null_mut();
        assert_eq!(
            indigo_game_from_position(c_text.as_ptr(), 3, &raw mut copy),
            INDIGO_OK
        );
        assert_eq!(
            read_text(|out, cap, len| indigo_game_position(copy, out, cap, len)),
            text
        );
        // A game from a mid-game position has no record.
        let mut length = 0;
        assert_eq!(
            indigo_game_record(copy, ptr::null_mut(), 0, &raw mut length),
            INDIGO_ERR_INVALID_ARGUMENT
        );
        assert!(last_error().contains("has no record"), "{}", last_error());
        assert!(indigo_game_record_string(copy).is_null());
        let bad = CString::new(text.replace(" 0 0:", " 1 0:")).unwrap();
        let mut none = ptr::null_mut();
        assert_eq!(
            indigo_game_from_position(bad.as_ptr(), 3, &raw mut none),
            INDIGO_ERR_BAD_POSITION
        );
        assert!(none.is_null());
        assert!(
            last_error().starts_with("bad position: removed: "),
            "{}",
            last_error()
        );
        indigo_game_free(copy);
        indigo_game_free(game);

        let mut garden = ptr::null_mut();
        assert_eq!(indigo_garden_new(3, 7, &raw mut garden), INDIGO_OK);
        let legal = read_text(|out, cap, len| indigo_garden_legal_moves(garden, out, cap, len));
        let mv = CString::new(legal.lines().next().unwrap()).unwrap();
        assert_eq!(indigo_garden_play(garden, mv.as_ptr()), INDIGO_OK);
        let text = read_text(|out, cap, len| indigo_garden_position(garden, out, cap, len));
        let c_text = CString::new(text.clone()).unwrap();
        let mut copy = ptr::null_mut();
        assert_eq!(
            indigo_garden_from_position(c_text.as_ptr(), 3, &raw mut copy),
            INDIGO_OK
        );
        assert_eq!(
            read_text(|out, cap, len| indigo_garden_position(copy, out, cap, len)),
            text
        );
        let bad = CString::new(text.replacen("3;", "5;", 1)).unwrap();
        let mut none = ptr::null_mut();
        assert_eq!(
            indigo_garden_from_position(bad.as_ptr(), 3, &raw mut none),
            INDIGO_ERR_BAD_POSITION
        );
        assert!(
            last_error().starts_with("bad position: rules: "),
            "{}",
            last_error()
        );
        assert_eq!(
            indigo_garden_from_position(ptr::null(), 3, &raw mut none),
            INDIGO_ERR_NULL_POINTER
        );
        indigo_garden_free(copy);
        indigo_garden_free(garden);
    }
}

#[test]
fn the_net_bot_plays_whole_games_of_both_games() {
    let mut bot = ptr::null_mut();
    // SAFETY: a live local and a NUL-terminated literal.
    assert_eq!(
        unsafe { indigo_bot_new(c"net:8".as_ptr(), 3, &raw mut bot) },
        INDIGO_OK
    );
    let game = new_game(4);
    let mut text = [0 as c_char; 64];
    loop {
        let mut seat = 0;
        // SAFETY: live handle and local.
        assert_eq!(
            unsafe { indigo_game_to_move(game, &raw mut seat) },
            INDIGO_OK
        );
        if seat < 0 {
            break;
        }
        let mut length = 0;
        // SAFETY: live handles; the buffer holds 64 bytes; the library NUL-terminates it.
        unsafe {
            let code = indigo_bot_choose(
                bot,
                game,
                text.as_mut_ptr(),
                64,
                &raw mut length,
                ptr::null_mut(),
            );
            assert_eq!(code, INDIGO_OK, "{}", last_error());
            assert_eq!(
                indigo_game_play(game, text.as_ptr()),
                INDIGO_OK,
                "{}",
                last_error()
            );
        }
    }
    let mut garden = ptr::null_mut();
    // SAFETY: a live local.
    assert_eq!(
        unsafe { indigo_garden_new(2, 7, &raw mut garden) },
        INDIGO_OK
    );
    let mut moves = 0;
    let mut buffer = vec![0 as c_char; 1 << 12];
    loop {
        let mut seat = 0;
        // SAFETY: live handle and local.
        assert_eq!(
            unsafe { indigo_garden_to_move(garden, &raw mut seat) },
            INDIGO_OK
        );
        if seat < 0 {
            break;
        }
        let mut length = 0;
        // SAFETY: live handles; the buffer holds its length; the library NUL-terminates it.
        unsafe {
            let code = indigo_garden_bot_choose(
                bot,
                garden,
                buffer.as_mut_ptr(),
                buffer.len(),
                &raw mut length,
            );
            assert_eq!(code, INDIGO_OK, "{}", last_error());
            assert_eq!(
                indigo_garden_play(garden, buffer.as_ptr()),
                INDIGO_OK,
                "{}",
                last_error()
            );
        }
        moves += 1;
        assert!(moves < 5000, "the game does not end");
    }
    // SAFETY: live handles, freed once.
    unsafe {
        indigo_garden_free(garden);
        indigo_game_free(game);
        indigo_bot_free(bot);
    }
}

#[test]
fn a_net_bot_refuses_a_game_of_a_seat_count_its_network_was_not_trained_for() {
    let mut bot = ptr::null_mut();
    // SAFETY: a live local and a NUL-terminated literal.
    assert_eq!(
        unsafe { indigo_bot_new(c"net:8".as_ptr(), 3, &raw mut bot) },
        INDIGO_OK
    );
    let mut text = [0 as c_char; 64];
    // The shipped network was trained for two seats.
    let three = IndigoRules {
        players: 3,
        ..TWO_PLAYERS
    };
    let mut crowded = ptr::null_mut();
    // SAFETY: live locals and handles; the buffer holds 64 bytes.
    unsafe {
        assert_eq!(
            indigo_game_new(&raw const three, 1, &raw mut crowded),
            INDIGO_OK
        );
        let mut length = 0;
        let code = indigo_bot_choose(
            bot,
            crowded,
            text.as_mut_ptr(),
            64,
            &raw mut length,
            ptr::null_mut(),
        );
        assert_eq!(code, INDIGO_ERR_INVALID_ARGUMENT);
        assert!(
            last_error().contains("trained for 2 players"),
            "{}",
            last_error()
        );
        indigo_game_free(crowded);
    }
    // SAFETY: a live handle, freed once.
    unsafe { indigo_bot_free(bot) };
}
