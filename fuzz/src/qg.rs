//! The checks behind the `qg_record` fuzz target (Azul: Queen's Garden, `queens-garden`).
//!
//! Any bytes, as lossy UTF-8, go to the record reader (text and parsed JSON, which must agree)
//! and, line by line, to the move-notation parser. Nothing may panic; an accepted record writes
//! back and reads again to the same game and the same text; a parsed move prints to a canonical
//! form that reads back to the same move; played on a seeded position, a move is applied only
//! if it is listed as legal (or is a pass with discards) and an illegal one changes nothing.

use queens_garden::{Game, Move, Position, Rules, read_record, read_record_value, write_record};
use serde_json::Value;

/// See the module docs.
pub fn record(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let from_text = read_record(&text);
    if let Ok(value) = serde_json::from_str::<Value>(&text) {
        let from_value = read_record_value(&value);
        match (&from_text, &from_value) {
            (Ok(a), Ok(b)) => assert_same_game(a, b),
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("text and value readers disagree: {from_text:?} / {from_value:?}"),
        }
    }
    match &from_text {
        Ok(game) => assert_round_trip(game),
        Err(e) => assert!(!e.message.is_empty()),
    }
    let start = match &from_text {
        Ok(game) if !game.position().is_over() => game.position().clone(),
        _ => Position::from_seed(
            Rules::with_players(2).unwrap(),
            u64::from(data.len() as u32),
        ),
    };
    for line in text.lines().take(64) {
        notation(line, &start);
    }
}

fn notation(line: &str, position: &Position) {
    let Ok(mv) = Move::parse(line) else {
        return;
    };
    let canonical = mv.to_string();
    assert_eq!(Move::parse(&canonical), Ok(mv), "{line:?} -> {canonical:?}");
    let mut after = position.clone();
    match after.play(&mv) {
        Ok(()) => {
            let listed = position.legal_moves().contains(&mv) || matches!(mv, Move::Pass { .. });
            assert!(listed, "{canonical} was applied but is not a legal move");
            assert_eq!(after.moves_played(), position.moves_played() + 1);
            assert_eq!(after.tile_total(), 108);
            assert_eq!(after.expansion_total(), 36);
        }
        Err(e) => {
            assert_eq!(
                &after, position,
                "{canonical} was refused ({e}) but changed the position"
            );
            assert!(
                !position.legal_moves().contains(&mv),
                "{canonical} is listed: {e}"
            );
        }
    }
}

fn assert_same_game(a: &Game, b: &Game) {
    assert_eq!(a.position(), b.position());
    assert_eq!(a.initial(), b.initial());
    assert_eq!(a.moves(), b.moves());
    assert_eq!(a.refills(), b.refills());
    assert_eq!(a.rules(), b.rules());
}

/// A game's record reads back to the same game, and writes again to the same text.
fn assert_round_trip(game: &Game) {
    let text = write_record(game).to_string();
    let back = read_record(&text).unwrap_or_else(|e| panic!("own record refused: {e}\n{text}"));
    assert_eq!(
        back.position().snapshot(true),
        game.position().snapshot(true)
    );
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.refills(), game.refills());
    assert_eq!(write_record(&back).to_string(), text);
}
