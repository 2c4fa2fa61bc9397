//! The `indigo-record/1` game record and the `indigo-snapshot/1` position snapshot
//! (docs/spec/FORMATS.md), read with strict validation and written with sorted keys.

use serde_json::{Map, Value, json};

use crate::board::Cell;
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{GateVariant, Rules, Theme, TieBreak};
use crate::tile::{TILE_TOTAL, TileType};

/// The `format` value of a game record.
pub const RECORD_FORMAT: &str = "indigo-record/1";
/// The `format` value of a snapshot.
pub const SNAPSHOT_FORMAT: &str = "indigo-snapshot/1";

pub use indigo_search::{ErrorAt, RecordError};

fn fail<T>(at: ErrorAt, message: impl Into<String>) -> Result<T, RecordError> {
    Err(RecordError {
        at,
        message: message.into(),
    })
}

/// A JSON integer (not `1.0`, `true` or `"1"`).
fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64(),
        _ => None,
    }
}

fn describe(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        format!("{}...", text.chars().take(37).collect::<String>())
    } else {
        text
    }
}

/// Reads and replays a record given as JSON text. Nothing is returned unless all of it is valid.
///
/// # Errors
/// The first offending field or move, checked in the order format, rules, pile, moves.
pub fn read_record(text: &str) -> Result<Game, RecordError> {
    let value: Value = serde_json::from_str(text).or_else(|e| {
        fail(
            ErrorAt::Field("format".into()),
            format!("the record is not valid JSON ({e})"),
        )
    })?;
    read_record_value(&value)
}

/// Reads and replays a record given as parsed JSON.
///
/// # Errors
/// The first offending field or move, checked in the order format, rules, pile, moves.
pub fn read_record_value(value: &Value) -> Result<Game, RecordError> {
    let Some(record) = value.as_object() else {
        return fail(
            ErrorAt::Field("format".into()),
            "a record must be a JSON object",
        );
    };
    match record.get("format") {
        Some(Value::String(s)) if s == RECORD_FORMAT => {}
        Some(other) => {
            return fail(
                ErrorAt::Field("format".into()),
                format!("must be \"{RECORD_FORMAT}\", not {}", describe(other)),
            );
        }
        None => {
            return fail(
                ErrorAt::Field("format".into()),
                format!("missing: must be \"{RECORD_FORMAT}\""),
            );
        }
    }
    let rules = read_rules(record.get("rules"))?;
    let pile = read_pile(record.get("pile"))?;
    if let Err(e) = Position::new(rules, &pile) {
        return fail(ErrorAt::Field("pile".into()), e.0);
    }
    let rules = match read_choice::<Theme>(record, "theme", "theme")? {
        Some(theme) => rules.with_theme(theme),
        None => rules,
    };
    let explicit = read_choice::<Chance>(record, "chance", "chance")? == Some(Chance::Explicit);
    let seed = read_seed(record.get("seed"), explicit)?;
    let drawn = read_drawn(record.get("drawn"), explicit)?;
    let mut game = if explicit {
        Game::explicit_chance(rules)
    } else {
        Game::from_pile(rules, &pile)
            .unwrap_or_else(|_| unreachable!("the pile was checked"))
            .with_seed(seed)
    };
    let Some(Value::Array(moves)) = record.get("moves") else {
        return fail(
            ErrorAt::Field("moves".into()),
            "must be a list of moves (possibly empty)",
        );
    };
    // Explicit chance: the first `drawn` tiles of the pile are the draws, in order, each
    // applied when its chance node comes.
    let mut given_draws = pile[..drawn].iter();
    let mut draw_due = |game: &mut Game| {
        while game.position().is_chance_node() {
            let Some(&tile) = given_draws.next() else {
                break;
            };
            game.apply_draw(tile)
                .unwrap_or_else(|_| unreachable!("the pile holds every tile it has not dealt"));
        }
    };
    for (i, value) in moves.iter().enumerate() {
        let mv = read_move(value).or_else(|m| fail(ErrorAt::Move(i), m))?;
        draw_due(&mut game);
        if let Err(e) = game.play(mv) {
            return fail(ErrorAt::Move(i), format!("{mv} is illegal: {e}"));
        }
    }
    draw_due(&mut game);
    let made = TILE_TOTAL - usize::from(game.position().pile_left());
    if explicit && made != drawn {
        return fail(
            ErrorAt::Field("drawn".into()),
            format!("these moves leave room for {made} draws, not {drawn}"),
        );
    }
    check_result(record.get("result"), &game)?;
    Ok(game)
}

/// How draws happen: `"sampled"` (from the pile, the default) or `"explicit"` (each draw a
/// chance node whose outcome the caller applies).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Chance {
    Sampled,
    Explicit,
}

impl std::str::FromStr for Chance {
    type Err = String;

    fn from_str(text: &str) -> Result<Chance, String> {
        match text {
            "sampled" => Ok(Chance::Sampled),
            "explicit" => Ok(Chance::Explicit),
            other => Err(format!(
                "must be \"sampled\" or \"explicit\", not {}",
                describe(&Value::from(other))
            )),
        }
    }
}

/// The optional `seed`: an integer 0..2**64, information only (FORMATS.md: the pile is the
/// game's truth, and another program's seed means its own generator); none with explicit chance.
fn read_seed(value: Option<&Value>, explicit: bool) -> Result<Option<u64>, RecordError> {
    let at = ErrorAt::Field("seed".into());
    let Some(value) = value else {
        return Ok(None);
    };
    if explicit {
        return fail(
            at,
            "an explicit-chance game has no seed: its draws are given",
        );
    }
    let Some(seed) = value.as_u64() else {
        return fail(
            at,
            format!(
                "must be an integer from 0 to 2**64 - 1, not {}",
                describe(value)
            ),
        );
    };
    Ok(Some(seed))
}

/// `drawn`: how many tiles of the pile an explicit-chance game has drawn (its pile's front);
/// required with explicit chance and refused without.
fn read_drawn(value: Option<&Value>, explicit: bool) -> Result<usize, RecordError> {
    let at = ErrorAt::Field("drawn".into());
    match (value, explicit) {
        (None, false) => Ok(0),
        (None, true) => fail(
            at,
            "missing: an explicit-chance record says how many tiles were drawn",
        ),
        (Some(_), false) => fail(
            at,
            "only an explicit-chance record (\"chance\": \"explicit\") has draws",
        ),
        (Some(v), true) => integer(v)
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n <= TILE_TOTAL)
            .map_or_else(
                || {
                    fail(
                        at,
                        format!(
                            "must be an integer from 0 to {TILE_TOTAL}, not {}",
                            describe(v)
                        ),
                    )
                },
                Ok,
            ),
    }
}

/// The optional `result` must agree with the replay: the game over, and its `scores` and
/// `winners` (where given) those of the final position.
fn check_result(value: Option<&Value>, game: &Game) -> Result<(), RecordError> {
    let at = ErrorAt::Field("result".into());
    let Some(value) = value else {
        return Ok(());
    };
    let Some(result) = value.as_object() else {
        return fail(
            at,
            format!(
                "must be an object with scores and winners, not {}",
                describe(value)
            ),
        );
    };
    let claims = ["scores", "winners"]
        .into_iter()
        .filter(|k| result.contains_key(*k));
    if claims.clone().next().is_none() {
        return Ok(());
    }
    let Some(Value::Object(actual)) = result_json(game) else {
        return fail(
            at,
            "the game is not over after these moves, so it has no result",
        );
    };
    for key in claims {
        if result[key] != actual[key] {
            return fail(
                at,
                format!(
                    "{key} {} disagrees with the replay's {}",
                    describe(&result[key]),
                    actual[key]
                ),
            );
        }
    }
    Ok(())
}

fn read_rules(value: Option<&Value>) -> Result<Rules, RecordError> {
    let Some(Value::Object(rules)) = value else {
        return fail(
            ErrorAt::Field("rules.players".into()),
            "rules must be an object with players and hand_size",
        );
    };
    let int_in =
        |name: &'static str, field: &'static str, range: std::ops::RangeInclusive<i64>| match rules
            .get(name)
        {
            Some(v) => match integer(v) {
                Some(n) if range.contains(&n) => Ok(n as u8),
                _ => fail(
                    ErrorAt::Field(field.into()),
                    format!(
                        "must be an integer from {} to {}, not {}",
                        range.start(),
                        range.end(),
                        describe(v)
                    ),
                ),
            },
            None => fail(ErrorAt::Field(field.into()), "missing"),
        };
    let players = int_in("players", "rules.players", 2..=4)?;
    let hand_size = int_in("hand_size", "rules.hand_size", 1..=2)?;
    let mut out = Rules::new(players, hand_size)
        .or_else(|e| fail(ErrorAt::Field("rules.players".into()), e.to_string()))?;
    if let Some(variant) =
        read_choice::<GateVariant>(rules, "three_player_gates", "rules.three_player_gates")?
    {
        out = out.with_three_player_gates(variant);
    }
    if let Some(tie) = read_choice::<TieBreak>(rules, "tie_break", "rules.tie_break")? {
        out = out.with_tie_break(tie);
    }
    if let Some(v) = rules.get("open_hands") {
        let Some(open) = v.as_bool() else {
            return fail(
                ErrorAt::Field("rules.open_hands".into()),
                format!("must be true or false, not {}", describe(v)),
            );
        };
        out = out.with_open_hands(open);
    }
    Ok(out)
}

/// The optional string `object[key]` naming one of `T`'s values; errors name `field`.
fn read_choice<T: std::str::FromStr<Err = String>>(
    object: &Map<String, Value>,
    key: &str,
    field: &'static str,
) -> Result<Option<T>, RecordError> {
    let at = ErrorAt::Field(field.into());
    match object.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => s.parse().map(Some).or_else(|m| fail(at, m)),
        Some(v) => fail(at, format!("must be a string, not {}", describe(v))),
    }
}

fn read_pile(value: Option<&Value>) -> Result<Vec<TileType>, RecordError> {
    let at = ErrorAt::Field("pile".into());
    let Some(Value::Array(items)) = value else {
        return fail(
            at,
            format!("must be a list of the {TILE_TOTAL} route-tile types, front first"),
        );
    };
    if items.len() != TILE_TOTAL {
        return fail(
            at,
            format!("must hold {TILE_TOTAL} tiles, not {}", items.len()),
        );
    }
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            integer(v)
                .and_then(|n| u8::try_from(n).ok())
                .and_then(TileType::from_index)
                .ok_or_else(|| RecordError {
                    at: at.clone(),
                    message: format!("pile[{i}] must be a tile type 0..4, not {}", describe(v)),
                })
        })
        .collect()
}

fn read_move(value: &Value) -> Result<Move, String> {
    let Some(object) = value.as_object() else {
        return Err(format!(
            "a move must be an object {{tile, rotation, q, r}}, not {}",
            describe(value)
        ));
    };
    let mut parts = [0i64; 4];
    for (slot, name) in parts.iter_mut().zip(["tile", "rotation", "q", "r"]) {
        let v = object
            .get(name)
            .ok_or_else(|| format!("{name} is missing"))?;
        *slot =
            integer(v).ok_or_else(|| format!("{name} must be an integer, not {}", describe(v)))?;
    }
    let [tile, rotation, q, r] = parts;
    Move::from_parts(tile, rotation, q, r).map_err(|e| e.0)
}

fn rules_json(rules: Rules) -> Value {
    json!({
        "players": rules.players(),
        "hand_size": rules.hand_size(),
        "three_player_gates": rules.three_player_gates().as_str(),
        "tie_break": rules.tie_break().as_str(),
        "open_hands": rules.open_hands(),
    })
}

/// The rules object of a record.
pub fn rules_to_json(rules: Rules) -> Value {
    rules_json(rules)
}

/// A move as in a record's `moves`.
pub fn move_to_json(mv: Move) -> Value {
    json!({"tile": mv.tile as u8, "rotation": mv.rotation.get(), "q": mv.cell.q(), "r": mv.cell.r()})
}

fn seats(mask: u8, players: u8) -> Vec<u8> {
    (0..players).filter(|s| mask & (1 << s) != 0).collect()
}

/// [`write_record`] for a game that starts at its set-up ([`Game::starts_at_set_up`]); a game
/// from a mid-game position has no record, and the error says so for a person.
///
/// # Errors
/// The game starts at a mid-game position.
pub fn write_record_checked(game: &Game) -> Result<Value, String> {
    if game.starts_at_set_up() {
        Ok(write_record(game))
    } else {
        Err(
            "a game read from a mid-game position has no record (a record replays a game from \
             its set-up): keep its position's text and the moves since instead"
                .to_owned(),
        )
    }
}

/// The game's record: rules, the pile as set up, every move as given, and the result once over.
/// An explicit-chance game adds `"chance": "explicit"` and `drawn`, the number of tiles drawn:
/// the pile's front holds them in the order drawn, its rest (in type order) is not yet drawn.
pub fn write_record(game: &Game) -> Value {
    let position = game.position();
    let rules = game.rules();
    let mut record = Map::new();
    record.insert("format".into(), RECORD_FORMAT.into());
    record.insert("rules".into(), rules_json(rules));
    record.insert("theme".into(), rules.theme().as_str().into());
    record.insert(
        "pile".into(),
        game.position().pile().iter().map(|&t| t as u8).collect(),
    );
    record.insert("moves".into(), game.moves().map(move_to_json).collect());
    if let Some(seed) = game.seed() {
        record.insert("seed".into(), seed.into());
    }
    if position.is_explicit_chance() {
        record.insert("chance".into(), "explicit".into());
        record.insert(
            "drawn".into(),
            (TILE_TOTAL - usize::from(position.pile_left())).into(),
        );
    }
    if let Some(result) = result_json(game) {
        record.insert("result".into(), result);
    }
    Value::Object(record)
}

/// A finished game's `result`: scores and winners; `None` before the end.
fn result_json(game: &Game) -> Option<Value> {
    let position = game.position();
    let players = position.rules().players();
    position.is_over().then(|| {
        json!({
            "scores": &position.scores()[..usize::from(players)],
            "winners": seats(position.winners(), players),
        })
    })
}

/// The `indigo-snapshot/1` of `position`. `viewer` gives that seat's view (others' hands as
/// `null` per tile unless hands are open); `legal` adds the `legal` list.
pub fn snapshot(position: &Position, viewer: Option<u8>, legal: bool) -> Value {
    let rules = position.rules();
    let players = usize::from(rules.players());
    let board: Vec<Value> = Cell::all()
        .filter_map(|cell| {
            position.tile_at(cell).map(|(tile, rotation)| {
                json!({"q": cell.q(), "r": cell.r(), "tile": tile as u8, "rotation": rotation})
            })
        })
        .collect();
    let gems: Vec<Value> = position
        .gems()
        .map(|(cell, edge, gem)| json!({"gem": gem.as_str(), "q": cell.q(), "r": cell.r(), "edge": edge}))
        .collect();
    let hands: Vec<Value> = (0..rules.players())
        .map(|seat| {
            let hidden = viewer.is_some_and(|v| v != seat) && !rules.open_hands();
            position
                .hand(seat)
                .map(|t| {
                    if hidden {
                        Value::Null
                    } else {
                        Value::from(t as u8)
                    }
                })
                .collect()
        })
        .collect();
    let collected: Vec<Value> = position.collected()[..players]
        .iter()
        .map(|c| json!({"amber": c[0], "emerald": c[1], "sapphire": c[2]}))
        .collect();
    let mut out = json!({
        "format": SNAPSHOT_FORMAT,
        "players": rules.players(),
        "to_move": position.to_move(),
        "placed": position.placed(),
        "board": board,
        "gems": gems,
        "centre": position.centre().iter().map(|g| g.as_str()).collect::<Vec<_>>(),
        "scores": &position.scores()[..players],
        "collected": collected,
        "removed": position.removed(),
        "hands": hands,
        "pile_left": position.pile_left(),
        "over": position.is_over(),
        "winners": seats(position.winners(), rules.players()),
    });
    if legal {
        let moves: Vec<Value> = position
            .legal_moves()
            .into_iter()
            .map(|m| json!([m.tile as u8, m.rotation.get(), m.cell.q(), m.cell.r()]))
            .collect();
        out["legal"] = Value::Array(moves);
    }
    out
}
