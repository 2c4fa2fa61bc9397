//! Positions as text (docs/notation.md): every position of every vector game round-trips, the
//! position read back plays on to the same end given the same draws, and bad positions are
//! refused at the field that is wrong.

use std::path::PathBuf;

use indigo_game::{ErrorAt, Game, Move, Position, Rules, TileType, read_record_value};
use serde_json::Value;

fn vector_games() -> Vec<(String, Game)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors");
    let mut games = Vec::new();
    for i in 1..=8 {
        let name = format!("game-{i:02}.json");
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        let vector: Value = serde_json::from_str(&text).unwrap();
        games.push((name, read_record_value(&vector["record"]).unwrap()));
    }
    games
}

/// The game `game` replayed from its start: the position before each move, and the moves.
fn positions(game: &Game) -> (Vec<Position>, Vec<Move>) {
    let moves: Vec<Move> = game.moves().collect();
    let mut position = *game.initial();
    let mut out = vec![position];
    for &mv in &moves {
        position.play(mv).unwrap();
        out.push(position);
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
            for seed in [0, 7] {
                let read = Position::from_text(&text, seed).unwrap();
                assert_eq!(read.to_text(), text, "{name} after {i} moves, seed {seed}");
                assert_eq!(
                    read.legal_moves(),
                    p.legal_moves(),
                    "{name} after {i} moves"
                );
            }
            let rest: Vec<TileType> = p.pile_rest().collect();
            let mut again =
                Game::from_position(Position::from_text_with_pile(&text, &rest).unwrap());
            for (k, &mv) in moves[i..].iter().enumerate() {
                again.play(mv).unwrap();
                assert_eq!(
                    again.position().to_text(),
                    positions[i + k + 1].to_text(),
                    "{name}"
                );
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
            assert!(again.position().is_over());
            checked += 1;
        }
    }
    assert!(checked > 8 * 20);
}

#[test]
fn explicit_chance_positions_round_trip_at_their_draws() {
    let rules = Rules::new(3, 2).unwrap();
    let mut game = Game::explicit_chance(rules);
    let (mut turns, mut draws) = (0, 0);
    while !game.position().is_over() && turns < 60 {
        let text = game.position().to_text();
        let read = Position::from_text(&text, 3).unwrap();
        assert_eq!(read.to_text(), text);
        assert_eq!(read.phase(), game.position().phase());
        if game.position().is_chance_node() {
            let indigo_game::Phase::Draw(seat) = read.phase() else {
                panic!("{text}")
            };
            assert!(text.ends_with(&format!(" ?{seat}")));
            draws += 1;
            let tile = game.chance_outcomes()[turns % game.chance_outcomes().len()].0;
            game.apply_draw(tile).unwrap();
        } else {
            let mv = game.position().legal_moves()[turns % 3];
            game.play(mv).unwrap();
        }
        turns += 1;
    }
    assert!(draws > 10);
}

fn refused(text: &str) -> (String, String) {
    let error = Position::from_text(text, 0).unwrap_err();
    let ErrorAt::Field(field) = &error.at else {
        panic!("not a field: {error}");
    };
    (field.to_owned(), error.to_string())
}

#[test]
fn bad_positions_are_refused_at_the_field() {
    let mut game = Game::from_seed(Rules::indigo(2).unwrap(), 7);
    for _ in 0..12 {
        let mv = game.position().legal_moves()[0];
        game.play(mv).unwrap();
    }
    let text = game.position().to_text();
    let fields: Vec<&str> = text.split(' ').collect();
    let with = |k: usize, value: &str| {
        let mut f = fields.clone();
        f[k] = value;
        f.join(" ")
    };
    // An edited tile count breaks the conservation of the 54 tiles.
    let mut pile: Vec<u32> = fields[7].split(',').map(|n| n.parse().unwrap()).collect();
    pile[0] -= 1;
    let short_pile = pile
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let board_missing_one = fields[1].split_once('/').unwrap().1.to_owned();
    let cases: Vec<(String, &str)> = vec![
        (fields[..8].join(" "), "position"),
        (text.replace(' ', "  "), "position"),
        (with(0, "indigo,5,1,shared,most-gems,closed"), "rules"),
        (with(0, "indigo,2,1,shared,most-gems,ajar"), "rules"),
        (with(0, "chess,2,1,shared,most-gems,closed"), "rules"),
        (with(1, "9@0:0,0"), "board"),
        (with(1, "0@0:0,0"), "board"),
        (with(1, "4@2:0,-3"), "board"),
        (with(1, &board_missing_one), "pile"),
        (with(2, "x@0:0,0"), "gems"),
        (with(2, "a@6:1,-4"), "gems"),
        (with(2, "a@0:0,1"), "gems"),
        (with(3, "eeeeees"), "centre"),
        (with(3, "se"), "centre"),
        (with(4, "1"), "removed"),
        (with(4, "03"), "removed"),
        (with(5, "3:1,1,0/0:0,0,0"), "scores"),
        (with(5, "0:0,0,0"), "scores"),
        (with(5, "9:0,0,3/0:0,0,0"), "scores"),
        (with(6, "0/1/2"), "hands"),
        (with(6, "5/1"), "hands"),
        (with(6, "01/1"), "hands"),
        (with(7, &short_pile), "pile"),
        (with(7, "1,2,3"), "pile"),
        (with(8, "1"), "turn"),
        (with(8, "2"), "turn"),
        (with(8, "-"), "turn"),
        (with(8, "?0"), "turn"),
    ];
    for (bad, field) in &cases {
        let (at, message) = refused(bad);
        assert_eq!(&at, field, "{bad}: {message}");
    }
    let error = Position::from_text_with_pile(&text, &[TileType::Bends]).unwrap_err();
    assert_eq!(error.at, ErrorAt::Field("pile".into()));
    assert!(Position::from_text("", 0).is_err());
}

/// Found by fuzzing: the counts agree, but the gem on (3, -1) has come along no path (the path
/// behind it leads to an empty cell), so the next move would lose a gem.
#[test]
fn a_gem_no_path_brought_is_refused() {
    let text = "indigo,2,2,shared,most-gems,closed 4@1:-3,1/3@0:-3,3/0@0:-3,4/3@3:-2,0/4@0:-2,2/0@2:-2,3/3@1:-1,-3/3@0:-1,-2/3@1:-1,-1/1@0:-1,1/2@1:-1,2/4@0:-1,3/0@0:-1,4/0@0:0,-3/4@0:0,-2/0@0:0,-1/3@4:0,3/3@4:1,-3/3@3:1,-2/3@4:1,-1/2@1:1,1/0@2:1,3/1@0:2,-4/1@0:2,-2/0@0:2,2/0@1:3,-2/2@1:3,0 a@2:-4,0/e@0:-2,0/e@2:-1,2/e@3:1,-1/a@5:3,0/a@4:4,-4 ees 0 1:1,0,0/2:2,0,0 12/02 5,2,9,5,2 1";
    let (at, message) = refused(text);
    assert_eq!(at, "gems", "{message}");
    assert!(
        message.contains("the path behind the gem leads to an empty cell"),
        "{message}"
    );
}

#[test]
fn a_start_position_read_back_is_the_set_up_of_its_pile() {
    for rules in [Rules::new(2, 2).unwrap(), Rules::new(4, 1).unwrap()] {
        let game = Game::from_seed(rules, 9);
        assert!(game.starts_at_set_up());
        let text = game.position().to_text();
        let read = Game::from_position(Position::from_text(&text, 4).unwrap());
        assert!(read.starts_at_set_up(), "{text}");
        let mut later = read.clone();
        let mv = later.position().legal_moves()[0];
        later.play(mv).unwrap();
        let mid = Game::from_position(*later.position());
        assert!(!mid.starts_at_set_up());
    }
    let mut explicit = Game::explicit_chance(Rules::new(3, 1).unwrap());
    assert!(explicit.starts_at_set_up());
    for _ in 0..3 {
        let tile = explicit.chance_outcomes()[0].0;
        explicit.apply_draw(tile).unwrap();
    }
    let mv = explicit.position().legal_moves()[0];
    explicit.play(mv).unwrap();
    assert!(explicit.starts_at_set_up());
    let read = Position::from_text(&explicit.initial().to_text(), 0).unwrap();
    assert!(Game::from_position(read).starts_at_set_up());
    let read = Position::from_text(&explicit.position().to_text(), 0).unwrap();
    assert!(!Game::from_position(read).starts_at_set_up());
}

/// Found by fuzzing: a path from an empty cell leads to the centre with no gem at its start,
/// so a gem set moving along it would rest looking at the centre.
#[test]
fn a_path_into_a_dead_end_with_no_gem_is_refused() {
    let text = "indigo,2,1,shared,most-gems,closed 3@0:-4,1/2@1:-4,2/2@0:-4,3/2@0:-3,0/4@1:-3,1/2@1:-2,-2/0@1:-2,-1/3@0:-2,1/0@1:-2,2/2@2:-2,3/0@1:-2,4/3@3:-1,-2/0@2:-1,-1/4@1:-1,0/2@1:-1,2/3@2:-1,4/1@0:0,-3/0@1:0,-2/0@1:0,-1/2@1:0,1/3@5:0,2/3@0:1,-3/3@0:1,0/0@0:1,3/3@1:2,-3/3@3:2,-2/0@2:2,-1/3@3:2,0/4@0:2,1/0@0:2,2/4@0:3,-4/0@1:3,-3/2@0:3,-2/2@0:3,-1/1@0:3,1/1@0:4,-3 a@1:-4,4/a@0:-3,0/a@5:-2,-1/e@3:-1,0/e@1:0,-1/a@0:0,4/a@4:2,0/a@5:4,0 es 2 0:0,0,0/0:0,0,0 4/1 4,2,5,4,1 0";
    let (at, message) = refused(text);
    assert_eq!(at, "gems", "{message}");
    assert!(message.contains("leads to a dead end"), "{message}");
}
