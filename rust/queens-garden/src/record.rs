//! The `queens-garden-record/1` game record and the `queens-garden-snapshot/1` position
//! snapshot (docs/spec/QG_FORMATS.md), read with strict validation in the specified check order and
//! written with the specified fields.

use serde_json::{Map, Value, json};

use crate::game::Game;
use crate::garden::AreaState;
use crate::geometry::Area;
use crate::kind::{Attribute, Kind};
use crate::moves::Move;
use crate::position::{
    DisplayExpansion, IllegalMove, Position, SetupError, check_bag, check_expansions,
};
use crate::rules::{Jokers, Rules, Wheel};

/// The `format` value of a game record.
pub const RECORD_FORMAT: &str = "queens-garden-record/1";
/// The `format` value of a snapshot.
pub const SNAPSHOT_FORMAT: &str = "queens-garden-snapshot/1";

/// Where a record first goes wrong (docs/spec/QG_FORMATS.md "Rejecting a bad record"): a
/// field (`record`, `format`, `rules`, `rules.players`, `rules.wheel`, `rules.jokers`,
/// `rules.KEY`, `bag`, `expansions`, `refills`, `refills[k]` or `moves`) or a move.
pub use indigo_search::{ErrorAt, RecordError};

fn fail<T>(field: &str, message: impl Into<String>) -> Result<T, RecordError> {
    Err(RecordError {
        at: ErrorAt::Field(field.to_owned()),
        message: message.into(),
    })
}

/// A JSON integer (not `2.0`, `true` or `"2"`).
fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64(),
        _ => None,
    }
}

/// A short rendering of a JSON value for messages.
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
/// The first offending field or move, in the order of docs/spec/QG_FORMATS.md.
pub fn read_record(text: &str) -> Result<Game, RecordError> {
    let value: Value = serde_json::from_str(text)
        .or_else(|e| fail("record", format!("the record is not valid JSON ({e})")))?;
    read_record_value(&value)
}

/// Reads and replays a record given as parsed JSON.
///
/// # Errors
/// The first offending field or move, in the order of docs/spec/QG_FORMATS.md.
pub fn read_record_value(value: &Value) -> Result<Game, RecordError> {
    let Some(record) = value.as_object() else {
        return fail("record", "a record must be a JSON object");
    };
    match record.get("format") {
        Some(Value::String(s)) if s == RECORD_FORMAT => {}
        Some(other) => {
            return fail(
                "format",
                format!("must be \"{RECORD_FORMAT}\", not {}", describe(other)),
            );
        }
        None => return fail("format", format!("missing: must be \"{RECORD_FORMAT}\"")),
    }
    let rules = read_rules(record.get("rules"))?;
    let bag = read_kinds(record.get("bag"), "bag", check_bag)?;
    let expansions = read_kinds(record.get("expansions"), "expansions", check_expansions)?;
    let refills = read_refills(record.get("refills"))?;
    let Some(Value::Array(moves)) = record.get("moves") else {
        return fail("moves", "must be a list of move strings (possibly empty)");
    };
    let mut game = Game::new(rules, &bag, &expansions, refills)
        .unwrap_or_else(|_| unreachable!("the bag and the expansions were checked"))
        .with_seed(record.get("seed").and_then(Value::as_u64));
    for (i, value) in moves.iter().enumerate() {
        let at = ErrorAt::Move(i);
        let err = |message: String| RecordError {
            at: at.clone(),
            message,
        };
        let Value::String(text) = value else {
            return Err(err(format!(
                "a move must be a string in the notation of QUEENS_GARDEN.md 15.1, not {}",
                describe(value)
            )));
        };
        let mv = Move::parse(text).map_err(|e| err(format!("{text:?} is not a move: {e}")))?;
        match game.play(&mv) {
            Ok(()) => {}
            Err(IllegalMove::Refill(e)) => {
                return Err(RecordError {
                    at: ErrorAt::Field(format!("refills[{}]", e.index())),
                    message: format!("playing moves[{i}] ({mv}): {e}"),
                });
            }
            Err(e) => return Err(err(format!("{mv} is illegal: {e}"))),
        }
    }
    Ok(game)
}

pub(crate) fn read_rules(value: Option<&Value>) -> Result<Rules, RecordError> {
    let Some(Value::Object(rules)) = value else {
        return fail(
            "rules",
            "must be an object with players (and optionally wheel and jokers)",
        );
    };
    let players = match rules.get("players") {
        Some(v) => match integer(v) {
            Some(n @ 2..=4) => n as u8,
            _ => {
                return fail(
                    "rules.players",
                    format!("must be the integer 2, 3 or 4, not {}", describe(v)),
                );
            }
        },
        None => return fail("rules.players", "missing: must be 2, 3 or 4"),
    };
    let wheel = match rules.get("wheel") {
        None => Wheel::PLACEHOLDER,
        Some(v) => read_wheel(v).or_else(|m| fail("rules.wheel", m))?,
    };
    let jokers = match rules.get("jokers") {
        None => Jokers::DEFAULT,
        Some(v) => read_jokers(v).or_else(|m| fail("rules.jokers", m))?,
    };
    let mut unknown: Vec<&String> = rules
        .keys()
        .filter(|k| !matches!(k.as_str(), "players" | "wheel" | "jokers"))
        .collect();
    unknown.sort();
    if let Some(key) = unknown.first() {
        return fail(
            &format!("rules.{key}"),
            "unknown rule: a record may set only players, wheel and jokers",
        );
    }
    Rules::new(players, wheel, jokers).or_else(|e| fail("rules", e.to_string()))
}

fn read_wheel(value: &Value) -> Result<Wheel, String> {
    let shape = "must be 4 lists (rounds 1..4) of 3 different categories (bl ye lg dg lp dp or \"1\"..\"6\")";
    let Value::Array(rounds) = value else {
        return Err(format!("{shape}, not {}", describe(value)));
    };
    if rounds.len() != 4 {
        return Err(format!("{shape}: it has {} rounds", rounds.len()));
    }
    let mut out = [[Attribute::colour(crate::kind::Colour::Blue); 3]; 4];
    for (r, round) in rounds.iter().enumerate() {
        let Some(items) = round.as_array().filter(|a| a.len() == 3) else {
            return Err(format!("round {} {shape}, not {}", r + 1, describe(round)));
        };
        for (c, item) in items.iter().enumerate() {
            out[r][c] = item
                .as_str()
                .and_then(|s| s.parse::<Attribute>().ok())
                .ok_or_else(|| {
                    format!(
                        "round {}: {} is not a category (bl ye lg dg lp dp or \"1\"..\"6\")",
                        r + 1,
                        describe(item)
                    )
                })?;
        }
    }
    Wheel::new(out).map_err(|e| e.to_string())
}

fn read_jokers(value: &Value) -> Result<Jokers, String> {
    const KEYS: [&str; 4] = ["bench", "fountain", "pavilion", "statue"];
    let Value::Object(map) = value else {
        return Err(format!(
            "must be an object with the keys fountain, statue, bench, pavilion, not {}",
            describe(value)
        ));
    };
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort();
    if keys != KEYS {
        return Err(format!(
            "must have exactly the keys fountain, statue, bench, pavilion, not {}",
            keys.iter()
                .map(|k| k.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let get = |key: &str| -> Result<u8, String> {
        let v = &map[key];
        match integer(v) {
            Some(n @ 0..=12) => Ok(n as u8),
            _ => Err(format!(
                "{key} must be an integer 0..{}, not {}",
                Jokers::MAX,
                describe(v)
            )),
        }
    };
    Ok(Jokers {
        fountain: get("fountain")?,
        statue: get("statue")?,
        bench: get("bench")?,
        pavilion: get("pavilion")?,
    })
}

fn read_kind_list(value: &Value) -> Result<Vec<Kind>, String> {
    let Value::Array(items) = value else {
        return Err(format!(
            "must be a list of kind strings (bl1..dp6), not {}",
            describe(value)
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_str()
                .and_then(|s| s.parse::<Kind>().ok())
                .ok_or_else(|| {
                    format!(
                        "item {i} must be a kind string (bl1..dp6), not {}",
                        describe(v)
                    )
                })
        })
        .collect()
}

fn read_kinds(
    value: Option<&Value>,
    field: &str,
    check: fn(&[Kind]) -> Result<(), SetupError>,
) -> Result<Vec<Kind>, RecordError> {
    let Some(value) = value else {
        return fail(field, "missing: must be a list of kind strings");
    };
    let kinds = read_kind_list(value).or_else(|m| fail(field, m))?;
    check(&kinds).or_else(|e| fail(field, e.to_string()))?;
    Ok(kinds)
}

fn read_refills(value: Option<&Value>) -> Result<Vec<Vec<Kind>>, RecordError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let Value::Array(items) = value else {
        return fail(
            "refills",
            format!(
                "must be a list of refills (lists of kind strings), not {}",
                describe(value)
            ),
        );
    };
    items
        .iter()
        .enumerate()
        .map(|(k, v)| read_kind_list(v).or_else(|m| fail(&format!("refills[{k}]"), m)))
        .collect()
}

fn kinds_json(kinds: impl IntoIterator<Item = Kind>) -> Value {
    kinds
        .into_iter()
        .map(|k| Value::from(k.to_string()))
        .collect()
}

/// The `rules` object of a record.
pub fn rules_to_json(rules: &Rules) -> Value {
    let wheel: Vec<Vec<String>> = rules
        .wheel()
        .rounds()
        .iter()
        .map(|r| r.iter().map(ToString::to_string).collect())
        .collect();
    let j = rules.jokers();
    json!({
        "players": rules.players(),
        "wheel": wheel,
        "jokers": {"fountain": j.fountain, "statue": j.statue, "bench": j.bench, "pavilion": j.pavilion},
    })
}

/// The game's record: rules, bag and expansions as set up, the refills used, every move
/// (canonical), the seed of a seeded game, and the result once over.
pub fn write_record(game: &Game) -> Value {
    let initial = game.initial();
    let position = game.position();
    let mut record = Map::new();
    record.insert("format".into(), RECORD_FORMAT.into());
    record.insert("rules".into(), rules_to_json(game.rules()));
    record.insert("bag".into(), kinds_json(initial.bag_as_filled()));
    record.insert("expansions".into(), kinds_json(initial.expansion_order()));
    record.insert(
        "refills".into(),
        game.refills().into_iter().map(kinds_json).collect(),
    );
    record.insert(
        "moves".into(),
        game.moves()
            .iter()
            .map(|m| Value::from(m.to_string()))
            .collect(),
    );
    if let Some(seed) = game.record_seed() {
        record.insert("seed".into(), seed.into());
    }
    if position.is_over() {
        record.insert(
            "result".into(),
            json!({"scores": position.scores(), "winners": position.winners()}),
        );
    }
    Value::Object(record)
}

/// The `queens-garden-snapshot/1` of `position`; `legal` adds the legal-move list.
pub fn snapshot(position: &Position, legal: bool) -> Value {
    let players = position.rules().players();
    let storage: Vec<Value> = (0..players)
        .map(|s| {
            let st = position.storage(s);
            json!({"tiles": kinds_json(st.tiles()), "jokers": st.jokers(),
                   "expansions": kinds_json(st.expansions())})
        })
        .collect();
    let gardens: Vec<Value> = (0..players)
        .map(|s| {
            let g = position.garden(s);
            let tiles: Map<String, Value> = g
                .tiles()
                .map(|(c, k)| (c.to_string(), Value::from(k.to_string())))
                .collect();
            let areas: Vec<Value> = Area::all()
                .map(|a| match g.area(a) {
                    AreaState::Empty => Value::Null,
                    AreaState::FaceDown => json!({"face": "down"}),
                    AreaState::FaceUp { kind, petal } => {
                        json!({"face": "up", "kind": kind.to_string(), "petal": petal})
                    }
                })
                .collect();
            json!({"tiles": tiles, "areas": areas})
        })
        .collect();
    let stack = position.stack().map_or(
        Value::Null,
        |s| json!({"slot": s.slot, "tiles": kinds_json(s.tiles), "below": s.below}),
    );
    let display: Vec<Value> = position
        .display()
        .into_iter()
        .map(|d| match d {
            DisplayExpansion::Down { slot, tiles } => {
                json!({"slot": slot, "face": "down", "tiles": kinds_json(tiles)})
            }
            DisplayExpansion::Up { slot, kind } => {
                json!({"slot": slot, "face": "up", "kind": kind.to_string()})
            }
        })
        .collect();
    let final_scores = position.final_scores().map_or(Value::Null, |f| {
        f.iter()
            .map(|s| json!({"storage": s.storage, "groups": s.groups, "bonus": s.bonus}))
            .collect()
    });
    let mut out = json!({
        "format": SNAPSHOT_FORMAT,
        "players": players,
        "round": position.round(),
        "phase": position.phase().as_str(),
        "moves_played": position.moves_played(),
        "last_move": position.last_move().map(|m| m.to_string()),
        "to_move": position.to_move(),
        "start_player": position.start_player(),
        "first_passer": position.first_passer(),
        "passed": position.passed(),
        "scores": position.scores(),
        "storage": storage,
        "gardens": gardens,
        "stack": stack,
        "display": display,
        "bag": position.bag_len(),
        "tower": kinds_json(position.tower()),
        "supply": position.supply(),
        "refills": position.refills_used(),
        "round_points": position.round_points(),
        "final": final_scores,
        "over": position.is_over(),
        "winners": position.winners(),
    });
    if legal {
        out["legal"] = position
            .legal_moves()
            .iter()
            .map(|m| Value::from(m.to_string()))
            .collect();
    }
    out
}

impl Game {
    /// The game's `queens-garden-record/1` ([`write_record`]).
    pub fn to_record(&self) -> Value {
        write_record(self)
    }

    /// The current position's snapshot ([`snapshot`]).
    pub fn snapshot(&self, legal: bool) -> Value {
        snapshot(self.position(), legal)
    }
}

impl Position {
    /// The position's snapshot ([`snapshot`]).
    pub fn snapshot(&self, legal: bool) -> Value {
        snapshot(self, legal)
    }
}
