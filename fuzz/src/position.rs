//! The checks behind the `position` and `qg_position` fuzz targets: the readers of positions
//! as text, Indigo's (docs/notation.md) and Queen's Garden's (docs/queens-garden.md).
//!
//! Any bytes (as lossy UTF-8) give a position or an error naming a field, never a panic. A text
//! that reads is the one text of its position (it writes back unchanged, whatever the seed),
//! and the position plays on: every legal move plays to a position whose text, if it reads,
//! writes back unchanged (Queen's Garden: it reads), and a playout reaches the end of the game.

use indigo_game::{Action, Game, Position};
use indigo_search::{Bot as _, RandomBot};
use queens_garden::{Game as GardenGame, Position as GardenPosition};

/// A small generator fixed by the input, for the playouts.
fn below_from(data: &[u8]) -> impl FnMut(usize) -> usize + '_ {
    let mut at = 0usize;
    move |n| {
        let byte = data.get(at % data.len().max(1)).copied().unwrap_or(0);
        at += 1;
        (usize::from(byte) + at) % n.max(1)
    }
}

/// Indigo: see the module docs.
pub fn indigo(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let position = match Position::from_text(&text, 1) {
        Ok(position) => position,
        Err(e) => {
            assert!(!e.message.is_empty(), "an error without a message");
            return;
        }
    };
    assert_eq!(
        position.to_text(),
        text,
        "an accepted text is not the one written"
    );
    let other =
        Position::from_text(&text, 2).expect("a text read with one seed reads with another");
    assert_eq!(other.to_text(), text);
    for mv in position.legal_moves() {
        let mut next = position;
        next.play(mv).expect("a legal move plays");
        // The reader checks what play keeps true, not that a game reaches the text: from a
        // gem arrangement no game reaches, a move may lead to a text it refuses.
        if let Ok(again) = Position::from_text(&next.to_text(), 3) {
            assert_eq!(again.to_text(), next.to_text());
        }
    }
    let mut game = Game::from_position(position);
    let mut bot = RandomBot::new(u64::from(data.first().copied().unwrap_or(0)));
    let mut left = 60;
    // At a chance node the search's bot would choose a draw; the walk stops there instead.
    while !game.position().is_chance_node() {
        let Some(mv) = bot.choose(game.position()).map(Action::to_move) else {
            break;
        };
        game.play(mv).expect("a random bot's move plays");
        assert!(left > 0, "more moves than tiles");
        left -= 1;
    }
    assert!(game.position().is_over() || game.position().is_chance_node());
}

/// Queen's Garden: see the module docs.
pub fn queens_garden(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let position = match GardenPosition::from_text(&text, 1) {
        Ok(position) => position,
        Err(e) => {
            assert!(!e.message.is_empty(), "an error without a message");
            return;
        }
    };
    assert_eq!(
        position.to_text(),
        text,
        "an accepted text is not the one written"
    );
    for mv in position.legal_moves().iter().take(24) {
        let mut next = position.clone();
        next.play(mv).expect("a legal move plays");
        let again = GardenPosition::from_text(&next.to_text(), 3).expect("a played position reads");
        assert_eq!(again.to_text(), next.to_text());
    }
    let mut game = GardenGame::from_position(position);
    let mut below = below_from(data);
    // No game is longer than 392 moves (QUEENS_GARDEN.md section 14).
    let mut left = 392;
    while let Some(mv) = game.position().playout_move(&mut below) {
        game.play(&mv).expect("the playout's move plays");
        assert!(left > 0, "the playout did not end");
        left -= 1;
    }
    assert!(game.position().is_over());
    let end = game.position().to_text();
    assert_eq!(
        GardenPosition::from_text(&end, 4)
            .expect("the end reads")
            .to_text(),
        end
    );
}
