//! Positions as text (docs/queens-garden.md): every position of every vector game
//! round-trips, the position read back with the same hidden order plays on to the same end,
//! and bad positions are refused at the field that is wrong.

use std::path::PathBuf;

use serde_json::Value;

use crate::{ErrorAt, Game, Move, Position, Rules, read_record_value};

fn vector_games() -> Vec<(String, Game)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors-qg");
    (1..=12)
        .map(|i| {
            let name = format!("game-{i:02}.json");
            let text = std::fs::read_to_string(dir.join(&name)).unwrap();
            let vector: Value = serde_json::from_str(&text).unwrap();
            (name, read_record_value(&vector["record"]).unwrap())
        })
        .collect()
}

/// The positions of `game` from its start, and its moves.
fn positions(game: &Game) -> (Vec<Position>, Vec<Move>) {
    let moves = game.moves();
    let mut replay = Game::from_position(game.initial().clone());
    let mut out = vec![replay.position().clone()];
    for mv in &moves {
        replay.play(mv).unwrap();
        out.push(replay.position().clone());
    }
    (out, moves)
}

#[test]
fn every_position_of_every_vector_game_round_trips_and_plays_on_alike() {
    let mut checked = 0;
    for (name, game) in vector_games() {
        let (positions, moves) = positions(&game);
        let end = positions.last().unwrap();
        for (i, p) in positions.iter().enumerate() {
            let text = p.to_text();
            let read = Position::from_text(&text, 5).unwrap();
            assert_eq!(read.to_text(), text, "{name} after {i} moves");
            assert_eq!(
                read.legal_moves(),
                p.legal_moves(),
                "{name} after {i} moves"
            );
            let (bag, expansions, chance) = p.hidden_order();
            let same = Position::from_text_with(&text, &bag, &expansions, &chance).unwrap();
            assert_eq!(same.to_text(), text, "{name} after {i} moves");
            assert_eq!(
                same.hidden_order(),
                p.hidden_order(),
                "{name} after {i} moves"
            );
            let mut again = Game::from_position(same);
            for (k, mv) in moves[i..].iter().enumerate() {
                again.play(mv).unwrap();
                if k % 16 == 0 {
                    assert_eq!(again.position().to_text(), positions[i + k + 1].to_text());
                }
            }
            assert_eq!(
                again.position().scores(),
                end.scores(),
                "{name} from move {i}"
            );
            assert_eq!(
                again.position().winners(),
                end.winners(),
                "{name} from move {i}"
            );
            checked += 1;
        }
    }
    assert!(checked > 12 * 40);
}

#[test]
fn seeded_positions_play_on_and_differ_only_in_what_is_hidden() {
    let mut game = Game::from_seed(Rules::with_players(3).unwrap(), 4);
    for _ in 0..30 {
        let mv = game.legal_moves()[0];
        game.play(&mv).unwrap();
    }
    let text = game.position().to_text();
    let a = Position::from_text(&text, 1).unwrap();
    let b = Position::from_text(&text, 2).unwrap();
    assert_eq!(a.to_text(), b.to_text());
    assert_ne!(a.hidden_order().0, b.hidden_order().0);
    let mut on = Game::from_position(a);
    while let Some(mv) = on.legal_moves().first().copied() {
        on.play(&mv).unwrap();
    }
    assert!(on.position().is_over());
}

fn refused(text: &str) -> String {
    let Err(error) = Position::from_text(text, 0) else {
        panic!("read: {text}");
    };
    let ErrorAt::Field(field) = error.at else {
        panic!("not a field: {error}");
    };
    field
}

#[test]
fn bad_positions_are_refused_at_the_field() {
    let mut game = Game::from_seed(Rules::with_players(2).unwrap(), 9);
    for _ in 0..25 {
        let mv = game.legal_moves()[0];
        game.play(&mv).unwrap();
    }
    let text = game.position().to_text();
    let fields: Vec<&str> = text.split(' ').collect();
    let with = |k: usize, value: &str| {
        let mut f = fields.clone();
        f[k] = value;
        f.join(" ")
    };
    let first_expansion = fields[11].split(',').next().unwrap();
    let cases: Vec<(String, &str)> = vec![
        (fields[..15].join(" "), "position"),
        (with(0, "5;x;1,1,1,1"), "rules"),
        (with(0, &fields[0][..fields[0].len() - 2]), "rules"),
        (with(1, "0"), "round"),
        (with(1, "over"), "turn"),
        (with(2, "2"), "turn"),
        (with(3, "1"), "start"),
        (with(4, "PP"), "passed"),
        (with(4, "pp"), "passed"),
        (with(4, "x-"), "passed"),
        (with(5, "15"), "scores"),
        (with(5, "900,900"), "scores"),
        (with(6, "1,1"), "round_points"),
        (with(7, "0,0,0/0,0,0"), "final"),
        (with(8, "3;-;-"), "storages"),
        (with(8, "13;-;-/3;-;-"), "storages"),
        (with(9, "-,-,-,-,-;-/-,-,-,-,-,-;-"), "gardens"),
        (
            with(9, "-,-,-,-,-,-;f0=bl1,f0=bl2/-,-,-,-,-,-;-"),
            "gardens",
        ),
        (with(10, "x"), "display"),
        (
            with(11, &fields[11].replacen(first_expansion, "?", 1)),
            "expansions",
        ),
        (with(11, "?"), "expansions"),
        (with(12, "37"), "supply"),
        (with(13, "bl1*9"), "position"),
        (with(13, "bl1*1"), "tower"),
        (with(14, "0"), "bag"),
        (with(14, "0:bl1"), "position"),
        (with(15, "3"), "moves"),
        (with(15, "25:take"), "moves"),
    ];
    for (bad, field) in &cases {
        let at = refused(bad);
        assert_eq!(
            &at,
            field,
            "{bad}: {:?}",
            Position::from_text(bad, 0).unwrap_err().to_string()
        );
    }
    let (bag, expansions, chance) = game.position().hidden_order();
    let at = |r: Result<Position, crate::RecordError>| r.unwrap_err().at;
    assert_eq!(
        at(Position::from_text_with(
            &text,
            &bag[1..],
            &expansions,
            &chance
        )),
        ErrorAt::Field("bag".into())
    );
    assert_eq!(
        at(Position::from_text_with(
            &text,
            &bag,
            &expansions[1..],
            &chance
        )),
        ErrorAt::Field("expansions".into())
    );
    assert!(Position::from_text("", 0).is_err());
}

/// The text of `position` with its move count set to `count`.
fn with_moves(position: &Position, count: u32) -> String {
    let text = position.to_text();
    let (head, moves) = text.rsplit_once(' ').unwrap();
    let (_, last) = moves.split_once(':').unwrap();
    format!("{head} {count}:{last}")
}

#[test]
fn the_move_count_leaves_room_for_the_rest_of_the_game() {
    // Found by the qg_position fuzz target: 280 moves in round 3 of a 3-player game, more than
    // the game's fields allow, read; its playout then ended past the longest game (314 moves).
    let crash = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus/qg_position/6b73c6db2e183f39561f73ba990c0f3d40e97f32");
    let crash = String::from_utf8_lossy(&std::fs::read(crash).unwrap()).into_owned();
    assert_eq!(refused(&crash), "moves");
    for players in 2..=4 {
        let mut game = Game::from_seed(Rules::with_players(players).unwrap(), 9);
        for _ in 0..25 {
            let mv = game.legal_moves()[0];
            game.play(&mv).unwrap();
        }
        let reads = |count| Position::from_text(&with_moves(game.position(), count), 1).is_ok();
        let most = (25..=392).take_while(|&count| reads(count)).last().unwrap();
        assert!(!reads(most + 1));
        let mut on = Game::from_position(
            Position::from_text(&with_moves(game.position(), most), 1).unwrap(),
        );
        let mut at = 0usize;
        let mut below = |n: usize| {
            at += 1;
            at * 7 % n.max(1)
        };
        while let Some(mv) = on.position().playout_move(&mut below) {
            on.play(&mv).unwrap();
        }
        let end = on.position().to_text();
        assert_eq!(
            Position::from_text(&end, 2).unwrap().to_text(),
            end,
            "{players} players"
        );
    }
}
