//! The full state of a game (`queens-garden-state/1`): its first position with everything
//! hidden (bag order, expansion order, the source of refills, and the stack and display) plus
//! the moves played since. Unlike a record it describes any game exactly, also one that starts
//! mid-game (a determinization, a chance successor) or whose set-up the seed did not deal.
//! Reading checks every field and replays the moves, so bad or forged state is an error.

use serde_json::{Map, Value, json};

use crate::game::Game;
use crate::garden::{AreaState, Garden, Storage, TILE_SPACES};
use crate::geometry::{Area, Cell};
use crate::kind::{KIND_COUNT, Kind};
use crate::moves::Move;
use crate::position::{
    Chance, EXPANSION_TOTAL, FinalScore, MAX_STACK, NOBODY, Position, START_JOKERS, SlotState,
    TILE_TOTAL, check_expansions,
};
use crate::record::{ErrorAt, RecordError, read_rules, rules_to_json};
use crate::rules::MAX_PLAYERS;

/// The `format` value of a game's state.
pub const STATE_FORMAT: &str = "queens-garden-state/1";

/// The largest score, points or move count a state may hold: far above any game's, and low
/// enough that play adding to it cannot overflow.
const COUNT_LIMIT: u64 = 1 << 24;
/// The most refills a state may count (a game makes a few), so that the next cannot overflow.
const REFILL_LIMIT: u8 = 100;

fn fail<T>(field: &str, message: impl Into<String>) -> Result<T, RecordError> {
    Err(RecordError {
        at: ErrorAt::Field(format!("state.{field}")),
        message: message.into(),
    })
}

/// `object[name]`, an error naming it when absent.
fn get<'a>(object: &'a Map<String, Value>, name: &str) -> Result<&'a Value, RecordError> {
    object
        .get(name)
        .map_or_else(|| fail(name, "is missing"), Ok)
}

/// A JSON integer `0..=max`.
fn uint(value: &Value, name: &str, max: u64) -> Result<u64, RecordError> {
    value
        .as_u64()
        .filter(|&n| n <= max)
        .map_or_else(|| fail(name, format!("must be an integer 0..{max}")), Ok)
}

fn small(value: &Value, name: &str, max: u8) -> Result<u8, RecordError> {
    uint(value, name, u64::from(max)).map(|n| n as u8)
}

fn list<'a>(value: &'a Value, name: &str, len: usize) -> Result<&'a [Value], RecordError> {
    match value.as_array() {
        Some(items) if items.len() == len => Ok(items),
        _ => fail(name, format!("must be a list of {len} items")),
    }
}

/// A list of `len` integers `0..=max`.
fn uints(value: &Value, name: &str, len: usize, max: u64) -> Result<Vec<u64>, RecordError> {
    list(value, name, len)?
        .iter()
        .map(|v| uint(v, name, max))
        .collect()
}

fn smalls<const N: usize>(value: &Value, name: &str, max: u8) -> Result<[u8; N], RecordError> {
    let items = uints(value, name, N, u64::from(max))?;
    Ok(std::array::from_fn(|i| items[i] as u8))
}

fn u32s<const N: usize>(value: &Value, name: &str) -> Result<[u32; N], RecordError> {
    let items = uints(value, name, N, COUNT_LIMIT)?;
    Ok(std::array::from_fn(|i| items[i] as u32))
}

fn kinds(value: &Value, name: &str) -> Result<Vec<Kind>, RecordError> {
    let len = value.as_array().map_or(0, Vec::len);
    Ok(uints(value, name, len, KIND_COUNT as u64 - 1)?
        .into_iter()
        .filter_map(|k| Kind::new(k as u8))
        .collect())
}

fn ids(kinds: impl IntoIterator<Item = Kind>) -> Vec<u8> {
    kinds.into_iter().map(Kind::id).collect()
}

const SLOT_STATES: [SlotState; 4] = [
    SlotState::Stack,
    SlotState::Down,
    SlotState::Up,
    SlotState::Gone,
];

fn storage_json(s: &Storage) -> Value {
    json!({
        "tiles": ids(s.tiles()),
        "jokers": s.jokers(),
        "expansions": ids(s.expansions()),
    })
}

fn read_storage(value: &Value, name: &str) -> Result<Storage, RecordError> {
    let Some(object) = value.as_object() else {
        return fail(name, "must be an object");
    };
    let tiles = kinds(get(object, "tiles")?, name)?;
    let jokers = small(get(object, "jokers")?, name, TILE_SPACES)?;
    if tiles.len() + usize::from(jokers) > usize::from(TILE_SPACES) {
        return fail(name, "holds more than 12 tiles and jokers");
    }
    let expansions = kinds(get(object, "expansions")?, name)?;
    if expansions.len() > 2 || expansions.windows(2).any(|w| w[0] == w[1]) {
        return fail(name, "holds at most 2 different expansions");
    }
    let mut storage = Storage::with_jokers(jokers);
    for k in tiles {
        storage.add_tile(k);
    }
    for k in expansions {
        storage.add_expansion(k);
    }
    Ok(storage)
}

fn garden_json(g: &Garden) -> Value {
    let areas: Vec<Value> = Area::all()
        .map(|a| match g.area(a) {
            AreaState::Empty => Value::Null,
            AreaState::FaceDown => json!("down"),
            AreaState::FaceUp { kind, petal } => json!([kind.id(), petal]),
        })
        .collect();
    let tiles: Vec<[u8; 2]> = g.tiles().map(|(c, k)| [c.index(), k.id()]).collect();
    json!({"areas": areas, "tiles": tiles})
}

/// The garden rebuilt as play builds it: the expansions, then each tile on a free space.
fn read_garden(value: &Value, name: &str) -> Result<Garden, RecordError> {
    let Some(object) = value.as_object() else {
        return fail(name, "must be an object");
    };
    let jokers = crate::rules::Jokers::DEFAULT;
    let mut garden = Garden::new();
    for (area, item) in Area::all().zip(list(get(object, "areas")?, name, 6)?) {
        match item {
            Value::Null => {}
            Value::String(s) if s == "down" => garden.place_face_down(area),
            Value::Array(pair) if pair.len() == 2 => {
                let kind = Kind::new(small(&pair[0], name, KIND_COUNT as u8 - 1)?);
                let petal = small(&pair[1], name, 5)?;
                let Some(kind) = kind else {
                    return fail(name, "names a kind that does not exist");
                };
                garden.place_face_up(area.petal(petal), kind, jokers);
            }
            _ => return fail(name, "an area is null, \"down\" or [kind, petal]"),
        }
    }
    let tiles = get(object, "tiles")?;
    let len = tiles.as_array().map_or(0, Vec::len);
    for pair in list(tiles, name, len)? {
        let [cell, kind] = list(pair, name, 2)? else {
            return fail(name, "a tile is [cell, kind]");
        };
        let cell = Cell::new(small(cell, name, u8::MAX)?);
        let kind = Kind::new(small(kind, name, u8::MAX)?);
        let (Some(cell), Some(kind)) = (cell, kind) else {
            return fail(name, "names a cell or a kind that does not exist");
        };
        if !garden.is_free(cell) {
            return fail(
                name,
                format!("places a tile on {cell}, which is not a free space"),
            );
        }
        garden.place_tile(cell, kind, jokers);
    }
    Ok(garden)
}

impl Position {
    /// The position's full state as JSON ([`STATE_FORMAT`]'s `position`).
    fn state_json(&self) -> Value {
        let chance = match &self.chance {
            Chance::Seeded(seed) => json!({ "seed": seed }),
            Chance::Listed(list) => {
                json!({ "refills": list.iter().map(|r| ids(r.iter().copied())).collect::<Vec<_>>() })
            }
        };
        let slots: Vec<usize> = self
            .slots
            .iter()
            .map(|s| SLOT_STATES.iter().position(|t| t == s).unwrap_or_default())
            .collect();
        let finals: Vec<Value> = self
            .final_scores
            .iter()
            .map(|f| json!([f.storage, f.groups, f.bonus]))
            .collect();
        json!({
            "rules": rules_to_json(&self.rules),
            "chance": chance,
            "expansions": self.expansions.to_vec(),
            "bag": self.bag.to_vec(),
            "bag_start": self.bag_start,
            "bag_end": self.bag_end,
            "tower": self.tower.to_vec(),
            "supply": self.supply,
            "refills": self.refills,
            "round": self.round,
            "over": self.over,
            "to_move": self.to_move,
            "start_player": self.start_player,
            "first_passer": self.first_passer,
            "passed": self.passed,
            "scores": self.scores,
            "storages": self.storages.iter().map(storage_json).collect::<Vec<_>>(),
            "gardens": self.gardens.iter().map(garden_json).collect::<Vec<_>>(),
            "slots": slots,
            "slot_tiles": self.slot_tiles,
            "slot_len": self.slot_len,
            "top": self.top,
            "round_points": self.round_points,
            "rounds_scored": self.rounds_scored,
            "final_scores": finals,
            "moves_played": self.moves_played,
            "last_move": self.last_move.map(|m| m.to_string()),
            "revealed": self.revealed,
        })
    }

    /// The position `value` describes, every field checked and every tile and expansion
    /// accounted for.
    #[allow(clippy::too_many_lines)] // one check per field, in field order
    fn from_state_json(value: &Value) -> Result<Position, RecordError> {
        let Some(p) = value.as_object() else {
            return fail("position", "must be an object");
        };
        let rules = read_rules(Some(get(p, "rules")?)).map_err(|e| RecordError {
            at: ErrorAt::Field(format!("state.position.{}", e.at)),
            message: e.message,
        })?;
        let players = usize::from(rules.players());
        let chance = match get(p, "chance")?.as_object() {
            Some(c) if c.len() == 1 && c.contains_key("seed") => {
                Chance::Seeded(uint(get(c, "seed")?, "chance.seed", u64::MAX)?)
            }
            Some(c) if c.len() == 1 && c.contains_key("refills") => {
                let refills = get(c, "refills")?;
                let len = refills.as_array().map_or(0, Vec::len);
                let listed = list(refills, "chance.refills", len)?
                    .iter()
                    .map(|r| kinds(r, "chance.refills"))
                    .collect::<Result<Vec<_>, _>>()?;
                Chance::Listed(listed.into())
            }
            _ => return fail("chance", "must be {\"seed\": S} or {\"refills\": [...]}"),
        };
        let last_kind = KIND_COUNT as u8 - 1;
        let expansions: [u8; EXPANSION_TOTAL] =
            smalls(get(p, "expansions")?, "expansions", last_kind)?;
        if let Err(e) = check_expansions(&ids_to_kinds(&expansions)) {
            return fail("expansions", e.to_string());
        }
        let bag: [u8; TILE_TOTAL] = smalls(get(p, "bag")?, "bag", last_kind)?;
        let bag_end = small(get(p, "bag_end")?, "bag_end", TILE_TOTAL as u8)?;
        let bag_start = small(get(p, "bag_start")?, "bag_start", bag_end)?;
        let tower: [u8; KIND_COUNT] = smalls(get(p, "tower")?, "tower", TILE_TOTAL as u8)?;
        let tower_len = tower.iter().map(|&n| u32::from(n)).sum::<u32>();
        let Ok(tower_len) = u8::try_from(tower_len) else {
            return fail("tower", "holds more than the 108 tiles");
        };
        let seat = |name: &str| small(get(p, name)?, name, rules.players() - 1);
        let first_passer = small(get(p, "first_passer")?, "first_passer", NOBODY)?;
        if first_passer != NOBODY && usize::from(first_passer) >= players {
            return fail("first_passer", "must be a seat or 255 (nobody)");
        }
        let passed = list(get(p, "passed")?, "passed", MAX_PLAYERS)?;
        let passed: Vec<bool> = passed.iter().filter_map(Value::as_bool).collect();
        let Ok(passed) = <[bool; MAX_PLAYERS]>::try_from(passed) else {
            return fail("passed", "must be 4 booleans");
        };
        let storages = list(get(p, "storages")?, "storages", MAX_PLAYERS)?
            .iter()
            .map(|s| read_storage(s, "storages"))
            .collect::<Result<Vec<_>, _>>()?;
        let gardens = list(get(p, "gardens")?, "gardens", MAX_PLAYERS)?
            .iter()
            .map(|g| read_garden(g, "gardens"))
            .collect::<Result<Vec<_>, _>>()?;
        if (players..MAX_PLAYERS).any(|s| {
            storages[s] != Storage::with_jokers(START_JOKERS) || gardens[s] != Garden::new()
        }) {
            return fail("storages", "a seat beyond the players must be as set up");
        }
        let stack = rules.stack_size();
        let round = small(get(p, "round")?, "round", 4)?;
        if round == 0 {
            return fail("round", "must be 1..4");
        }
        let slots: [u8; MAX_STACK] = smalls(get(p, "slots")?, "slots", 3)?;
        let slot_tiles = list(get(p, "slot_tiles")?, "slot_tiles", MAX_STACK)?
            .iter()
            .map(|t| smalls::<4>(t, "slot_tiles", last_kind))
            .collect::<Result<Vec<_>, _>>()?;
        let slot_len: [u8; MAX_STACK] = smalls(get(p, "slot_len")?, "slot_len", 4)?;
        let round_points = list(get(p, "round_points")?, "round_points", 4)?
            .iter()
            .map(|r| u32s::<MAX_PLAYERS>(r, "round_points"))
            .collect::<Result<Vec<_>, _>>()?;
        let final_scores = list(get(p, "final_scores")?, "final_scores", MAX_PLAYERS)?
            .iter()
            .map(|f| {
                let [storage, groups, bonus] = list(f, "final_scores", 3)? else {
                    return fail("final_scores", "each is [storage, groups, bonus]");
                };
                let storage = storage
                    .as_i64()
                    .and_then(|n| i32::try_from(n).ok())
                    .map_or_else(|| fail("final_scores", "storage must be an integer"), Ok)?;
                Ok(FinalScore {
                    storage,
                    groups: uint(groups, "final_scores", COUNT_LIMIT)? as u32,
                    bonus: uint(bonus, "final_scores", COUNT_LIMIT)? as u32,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let last_move = match get(p, "last_move")? {
            Value::Null => None,
            Value::String(text) => Some(
                Move::parse(text)
                    .map_or_else(|e| fail("last_move", format!("not a move: {e}")), Ok)?,
            ),
            _ => return fail("last_move", "must be a move's text or null"),
        };
        let position = Position {
            rules,
            chance,
            expansions,
            bag,
            bag_start,
            bag_end,
            tower,
            tower_len,
            supply: small(get(p, "supply")?, "supply", EXPANSION_TOTAL as u8)?,
            refills: small(get(p, "refills")?, "refills", REFILL_LIMIT)?,
            round,
            over: get(p, "over")?
                .as_bool()
                .map_or_else(|| fail("over", "must be a boolean"), Ok)?,
            to_move: seat("to_move")?,
            start_player: seat("start_player")?,
            first_passer,
            passed,
            scores: u32s(get(p, "scores")?, "scores")?,
            storages: std::array::from_fn(|s| storages[s]),
            gardens: std::array::from_fn(|s| gardens[s]),
            slots: slots.map(|s| SLOT_STATES[usize::from(s)]),
            slot_tiles: std::array::from_fn(|s| slot_tiles[s]),
            slot_len,
            top: small(get(p, "top")?, "top", stack)?,
            round_points: std::array::from_fn(|r| round_points[r]),
            rounds_scored: small(get(p, "rounds_scored")?, "rounds_scored", 4)?,
            final_scores: std::array::from_fn(|s| final_scores[s]),
            moves_played: uint(get(p, "moves_played")?, "moves_played", COUNT_LIMIT)? as u32,
            last_move,
            revealed: uint(get(p, "revealed")?, "revealed", (1 << EXPANSION_TOTAL) - 1)?,
        };
        // Each round is scored as it ends: rounds 1..round-1, and round 4 once over.
        if position.over && position.round != 4
            || position.rounds_scored != position.round - 1 + u8::from(position.over)
        {
            return fail(
                "rounds_scored",
                "must count the rounds scored: round - 1, or 4 once over",
            );
        }
        if position.tile_total() != TILE_TOTAL {
            return fail(
                "position",
                format!("holds {} tiles, not the 108", position.tile_total()),
            );
        }
        if position.expansion_total() != EXPANSION_TOTAL {
            return fail(
                "position",
                format!(
                    "holds {} expansions, not the 36",
                    position.expansion_total()
                ),
            );
        }
        Ok(position)
    }
}

fn ids_to_kinds(ids: &[u8]) -> Vec<Kind> {
    ids.iter().filter_map(|&k| Kind::new(k)).collect()
}

impl Game {
    /// The game's full state ([`STATE_FORMAT`]): its first position, hidden information and
    /// source of refills included, the moves since, and the seed its record names. Unlike
    /// [`Game::to_record`] it describes every game exactly ([`Game::from_state`] reads it).
    pub fn to_state(&self) -> Value {
        json!({
            "format": STATE_FORMAT,
            "record_seed": self.record_seed(),
            "position": self.initial().state_json(),
            "moves": self.moves().iter().map(ToString::to_string).collect::<Vec<_>>(),
        })
    }

    /// The game a [`Game::to_state`] describes: equal to it in position, history (undo),
    /// future (refills) and record.
    ///
    /// # Errors
    /// The first bad field (at `state.FIELD`) or the first move that is not legal.
    pub fn from_state(value: &Value) -> Result<Game, RecordError> {
        let Some(state) = value.as_object() else {
            return fail(
                "format",
                format!("a game's state is an object with format {STATE_FORMAT}"),
            );
        };
        if get(state, "format")?.as_str() != Some(STATE_FORMAT) {
            return fail("format", format!("must be {STATE_FORMAT}"));
        }
        let record_seed = match get(state, "record_seed")? {
            Value::Null => None,
            seed => Some(uint(seed, "record_seed", u64::MAX)?),
        };
        let position = Position::from_state_json(get(state, "position")?)?;
        let mut game = Game::from_position(position).with_seed(record_seed);
        let moves = get(state, "moves")?;
        let len = moves.as_array().map_or(0, Vec::len);
        for (i, text) in list(moves, "moves", len)?.iter().enumerate() {
            let played = text
                .as_str()
                .ok_or_else(|| "not a move's text".to_owned())
                .and_then(|t| game.play_notation(t).map_err(|e| e.to_string()));
            if let Err(message) = played {
                return Err(RecordError {
                    at: ErrorAt::Move(i),
                    message,
                });
            }
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// A resampled mid-game position (chance seeded anew, hidden order redrawn) with two
    /// moves played on it: what a record cannot describe.
    fn resampled() -> Game {
        let mut game = Game::from_seed(Rules::with_players(3).unwrap(), 9);
        for _ in 0..40 {
            let mv = game.legal_moves()[0];
            game.play(&mv).unwrap();
        }
        let mut next = 0usize;
        let mut below = |n: usize| {
            next = next.wrapping_mul(31).wrapping_add(7);
            next % n
        };
        let mut game = Game::from_position(game.position().resample(&mut below, 77));
        for _ in 0..2 {
            let mv = *game.legal_moves().last().unwrap();
            game.play(&mv).unwrap();
        }
        game
    }

    #[test]
    fn state_restores_the_game_its_history_and_its_future() {
        let mut game = resampled();
        let mut back = Game::from_state(&game.to_state()).unwrap();
        assert_eq!(back.position(), game.position());
        assert_eq!(back.initial(), game.initial());
        assert_eq!(back.moves(), game.moves());
        while let Some(mv) = game.legal_moves().first().copied() {
            game.play(&mv).unwrap();
            back.play(&mv).unwrap();
            assert_eq!(back.position(), game.position());
        }
        assert!(
            game.position().refills_used() > 0,
            "the future went through a refill"
        );
    }

    #[test]
    fn bad_state_is_an_error_naming_the_field() {
        let state = resampled().to_state();
        let at = |edit: &dyn Fn(&mut Value)| {
            let mut forged = state.clone();
            edit(&mut forged);
            Game::from_state(&forged).unwrap_err().at
        };
        let field = |name: &str| ErrorAt::Field(format!("state.{name}"));
        assert_eq!(at(&|s| s["format"] = json!("x")), field("format"));
        assert_eq!(at(&|s| s["position"]["bag"][0] = json!(36)), field("bag"));
        assert_eq!(
            at(&|s| s["position"]["rounds_scored"] = json!(3)),
            field("rounds_scored")
        );
        assert_eq!(
            at(&|s| s["position"]["tower"][0] = json!(1)),
            field("position")
        );
        assert_eq!(at(&|s| s["moves"][1] = json!("buy 9")), ErrorAt::Move(1));
    }

    /// Every number of the state, changed to each of a few values, gives an error or a game
    /// that plays on without a panic (this build checks arithmetic overflow).
    #[test]
    fn forged_numbers_give_an_error_or_a_playable_game() {
        fn numbers(value: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
            match value {
                Value::Number(_) => out.push(path.clone()),
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        path.push(json!(i));
                        numbers(item, path, out);
                        path.pop();
                    }
                }
                Value::Object(fields) => {
                    for (name, item) in fields {
                        path.push(json!(name));
                        numbers(item, path, out);
                        path.pop();
                    }
                }
                _ => {}
            }
        }
        let state = resampled().to_state();
        let mut paths = Vec::new();
        numbers(&state, &mut Vec::new(), &mut paths);
        for path in &paths {
            for forged_value in [0u64, 1, 4, 36, 108, 255, 1 << 40] {
                let mut forged = state.clone();
                let mut at = &mut forged;
                for key in path {
                    at = match key {
                        Value::String(name) => &mut at[name.as_str()],
                        _ => &mut at[usize::try_from(key.as_u64().unwrap()).unwrap()],
                    };
                }
                *at = json!(forged_value);
                let Ok(mut game) = Game::from_state(&forged) else {
                    continue;
                };
                for _ in 0..40 {
                    let _ = game.snapshot(true);
                    let Some(mv) = game.legal_moves().last().copied() else {
                        break;
                    };
                    if game.play(&mv).is_err() {
                        break;
                    }
                }
            }
        }
    }
}
