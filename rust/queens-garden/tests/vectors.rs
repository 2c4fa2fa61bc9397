//! The public conformance vectors (`tests/vectors-qg/`, a copy of `shared/vectors-qg/`):
//! every game replayed with a snapshot after set-up and after every move, and every bad record
//! rejected at the right place. Also: parse∘print identity on every legal move, undo restores
//! every position, tiles and expansions are conserved.

use std::fmt::Write as _;
use std::path::PathBuf;

use queens_garden::{ErrorAt, Game, Move, Position, read_record_value};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The snapshot fields docs/spec/QG_FORMATS.md defines.
const FIELDS: [&str; 25] = [
    "format",
    "players",
    "round",
    "phase",
    "moves_played",
    "last_move",
    "to_move",
    "start_player",
    "first_passer",
    "passed",
    "scores",
    "storage",
    "gardens",
    "stack",
    "display",
    "bag",
    "tower",
    "supply",
    "refills",
    "round_points",
    "final",
    "over",
    "winners",
    "legal",
    "format",
];

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors-qg")
}

fn load(name: &str) -> Value {
    let text = std::fs::read_to_string(vectors_dir().join(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn game_files() -> Vec<String> {
    (1..=12).map(|i| format!("game-{i:02}.json")).collect()
}

fn sha256_of_legal(legal: &[String]) -> String {
    // json.dumps(legal, separators=(",", ":")): move strings are plain ASCII.
    let text = serde_json::to_string(legal).unwrap();
    Sha256::digest(text.as_bytes())
        .iter()
        .fold(String::new(), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
}

fn check_snapshot(position: &Position, want: &Value, context: &str) {
    let got = position.snapshot(false);
    for field in FIELDS {
        if field == "legal" {
            continue;
        }
        assert_eq!(got.get(field), want.get(field), "{context}: field {field}");
    }
    let legal: Vec<String> = position
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    if let Some(w) = want.get("legal") {
        let w: Vec<String> = serde_json::from_value(w.clone()).unwrap();
        assert_eq!(legal, w, "{context}: legal");
    }
    assert_eq!(
        Some(legal.len() as u64),
        want["legal_count"].as_u64(),
        "{context}: legal_count"
    );
    assert_eq!(
        Some(sha256_of_legal(&legal).as_str()),
        want["legal_sha256"].as_str(),
        "{context}: legal_sha256"
    );
}

#[test]
fn every_vector_game_replays_snapshot_by_snapshot() {
    for file in game_files() {
        let vector = load(&file);
        let record = &vector["record"];
        let snapshots = vector["snapshots"].as_array().unwrap();
        let moves = record["moves"].as_array().unwrap();
        assert_eq!(snapshots.len(), moves.len() + 1, "{file}");
        // Set-up: the record with no moves.
        let mut empty = record.clone();
        empty["moves"] = Value::Array(Vec::new());
        let mut game = read_record_value(&empty).unwrap();
        check_snapshot(game.position(), &snapshots[0], &format!("{file} set-up"));
        for (i, text) in moves.iter().enumerate() {
            let mv = Move::parse(text.as_str().unwrap()).unwrap();
            game.play(&mv)
                .unwrap_or_else(|e| panic!("{file} move {i} {mv}: {e}"));
            check_snapshot(
                game.position(),
                &snapshots[i + 1],
                &format!("{file} after move {i} ({mv})"),
            );
        }
        // The whole record reads to the same end.
        let whole = read_record_value(record).unwrap();
        assert_eq!(whole.position(), game.position(), "{file}");
    }
}

#[test]
fn every_bad_record_is_rejected_at_its_location() {
    let bad = load("bad-records.json");
    for case in bad.as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let err = read_record_value(&case["record"])
            .err()
            .unwrap_or_else(|| panic!("{name}: accepted"));
        match &case["error_at"] {
            Value::String(field) => {
                assert_eq!(err.at, ErrorAt::Field(field.clone()), "{name}: {err}");
            }
            Value::Number(n) => {
                let i = n.as_u64().unwrap() as usize;
                assert_eq!(err.at, ErrorAt::Move(i), "{name}: {err}");
                assert!(
                    err.to_string().contains(&format!("moves[{i}]")),
                    "{name}: {err}"
                );
            }
            other => panic!("{name}: error_at {other}"),
        }
    }
}

/// Plays each vector game, checking at every position: every legal move prints and reads back
/// to itself, undo restores the position exactly, and tiles and expansions are conserved.
#[test]
fn legal_moves_round_trip_undo_restores_and_pieces_are_conserved() {
    for file in game_files() {
        let vector = load(&file);
        let mut game: Game = read_record_value(&{
            let mut r = vector["record"].clone();
            r["moves"] = Value::Array(Vec::new());
            r
        })
        .unwrap();
        let moves: Vec<Move> = vector["record"]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| Move::parse(m.as_str().unwrap()).unwrap())
            .collect();
        for mv in &moves {
            let position = game.position().clone();
            assert_eq!(position.tile_total(), 108, "{file}");
            assert_eq!(position.expansion_total(), 36, "{file}");
            for legal in position.legal_moves() {
                let text = legal.to_string();
                assert_eq!(Move::parse(&text), Ok(legal), "{file}: {text}");
                assert_eq!(position.check(&legal), Ok(()), "{file}: {text}");
            }
            game.play(mv).unwrap();
            let after = game.position().clone();
            assert_eq!(game.undo(), Some(*mv));
            assert_eq!(game.position(), &position, "{file}: undo of {mv}");
            assert_eq!(game.position().snapshot(true), position.snapshot(true));
            game.play(mv).unwrap();
            assert_eq!(game.position(), &after);
        }
        assert!(game.position().is_over(), "{file}");
        assert_eq!(game.position().tile_total(), 108, "{file}");
        assert_eq!(game.position().expansion_total(), 36, "{file}");
    }
}

/// The vectors' bags and expansions come from their `seed` as the crate docs say. (Their
/// refills do not: the generator shuffled them with the set-up's generator continuing, where
/// the decided scheme uses a fresh `random.Random(seed + (k + 1) * 2**64)`; records carry
/// their refills, so replaying does not depend on it.)
#[test]
fn vector_seeds_reproduce_their_bags_and_expansions() {
    for file in game_files() {
        let vector = load(&file);
        let record = &vector["record"];
        let seed = record["seed"].as_u64().unwrap();
        let players = record["rules"]["players"].as_u64().unwrap() as u8;
        let game = Game::from_seed(queens_garden::Rules::with_players(players).unwrap(), seed);
        let ours = game.to_record();
        for field in ["bag", "expansions"] {
            assert_eq!(ours[field], record[field], "{file}: {field}");
        }
    }
}
