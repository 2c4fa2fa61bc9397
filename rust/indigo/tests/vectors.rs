//! Replays the public conformance vectors (`tests/vectors`, an unchanged copy of
//! `shared/vectors`) through the core: every snapshot, legal lists included, and every bad record.

use std::path::PathBuf;

use indigo_game::{ErrorAt, Game, Move};
use indigo_game::{read_record_value, snapshot};
use serde_json::Value;

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors")
}

fn load(name: &str) -> Value {
    let text = std::fs::read_to_string(vectors_dir().join(name)).expect("vector file");
    serde_json::from_str(&text).expect("vector JSON")
}

/// `got` restricted to the keys `want` has (an engine may add fields).
fn restricted(got: &Value, want: &Value) -> Value {
    let (Value::Object(got), Value::Object(want)) = (got, want) else {
        return got.clone();
    };
    Value::Object(
        want.keys()
            .filter_map(|k| got.get(k).map(|v| (k.clone(), v.clone())))
            .collect(),
    )
}

#[test]
fn every_game_matches_every_snapshot() {
    let mut games = 0;
    for entry in std::fs::read_dir(vectors_dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let is_game = std::path::Path::new(&name)
            .extension()
            .is_some_and(|e| e == "json");
        if !(name.starts_with("game-") && is_game) {
            continue;
        }
        games += 1;
        let vector = load(&name);
        let record = &vector["record"];
        let expected = vector["snapshots"].as_array().unwrap();
        let moves = record["moves"].as_array().unwrap();
        assert_eq!(expected.len(), moves.len() + 1, "{name}");

        let mut start = record.clone();
        start["moves"] = Value::Array(Vec::new());
        let mut game: Game = read_record_value(&start).unwrap();
        let check = |game: &Game, i: usize| {
            let got = snapshot(game.position(), None, true);
            assert_eq!(
                restricted(&got, &expected[i]),
                expected[i],
                "{name} after {i} moves"
            );
        };
        check(&game, 0);
        for (i, m) in moves.iter().enumerate() {
            let mv = Move::from_parts(
                m["tile"].as_i64().unwrap(),
                m["rotation"].as_i64().unwrap(),
                m["q"].as_i64().unwrap(),
                m["r"].as_i64().unwrap(),
            )
            .unwrap();
            game.play(mv)
                .unwrap_or_else(|e| panic!("{name} move {i} {mv}: {e}"));
            check(&game, i + 1);
        }
        let whole = read_record_value(record).unwrap();
        assert_eq!(whole.position(), game.position(), "{name}");
    }
    assert_eq!(games, 16);
}

#[test]
fn every_bad_record_is_rejected_at_the_stated_place() {
    let cases = load("bad-records.json");
    let cases = cases.as_array().unwrap();
    assert!(!cases.is_empty());
    for case in cases {
        let err = read_record_value(&case["record"]).expect_err(case["name"].as_str().unwrap());
        let want = &case["error_at"];
        match err.at {
            ErrorAt::Field(f) => assert_eq!(want.as_str(), Some(f.as_str()), "{case}"),
            ErrorAt::Move(i) => assert_eq!(want.as_u64(), Some(i as u64), "{}", case["name"]),
        }
    }
}
