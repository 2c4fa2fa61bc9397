//! The full state of a game (`queens-garden-state/1`): its first position with everything
//! hidden (bag order, expansion order, the source of refills, and the stack and display) plus
//! the moves played since. Unlike a record it describes any game exactly, also one that starts
//! mid-game (a determinization, a chance successor) or whose set-up the seed did not deal.
//! Reading checks every field, that the first position keeps every invariant the rules imply
//! and play relies on, and replays the moves, so bad or forged state is an error.

use serde_json::{Map, Value, json};

use crate::game::Game;
use crate::garden::{AreaState, Garden, Storage, TILE_SPACES};
use crate::geometry::{Area, Cell};
use crate::kind::{KIND_COUNT, Kind};
use crate::moves::Move;
use crate::position::{
    Chance, EXPANSION_TOTAL, FinalScore, MAX_STACK, NOBODY, Position, START_JOKERS, START_SCORE,
    Shown, SlotState, TILE_TOTAL, check_bag, check_expansions,
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

    /// The position `value` describes, every field checked, and the whole one that play can
    /// reach as far as its fields show ([`check_play`]).
    #[allow(clippy::too_many_lines)] // one check per field, in field order
    pub(crate) fn from_state_json(value: &Value) -> Result<Position, RecordError> {
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
        let mut position = Position {
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
            shown: Shown::NONE,
        };
        check_play(&position)?;
        position.shown = position.read_shown();
        Ok(position)
    }
}

fn ids_to_kinds(ids: &[u8]) -> Vec<Kind> {
    ids.iter().filter_map(|&k| Kind::new(k)).collect()
}

/// Checks that `p` is a position play can reach, as far as its own fields tell (every
/// invariant the rules imply and play relies on), naming the first field that breaks one.
fn check_play(p: &Position) -> Result<(), RecordError> {
    check_seats(p)?;
    check_turn(p)?;
    check_scoring(p)?;
    check_display(p)?;
    check_tiles(p)?;
    check_bag_and_refills(p)?;
    check_expansions_and_reveals(p)?;
    check_moves(p)
}

/// Seats beyond the players stay as set up.
fn check_seats(p: &Position) -> Result<(), RecordError> {
    let seats = usize::from(p.rules.players());
    for s in seats..MAX_PLAYERS {
        if p.storages[s] != Storage::with_jokers(START_JOKERS) {
            return fail(
                "storages",
                format!("seat {s} is not a player: its storage must be as set up"),
            );
        }
        if p.gardens[s] != Garden::new() {
            return fail(
                "gardens",
                format!("seat {s} is not a player: its garden must be as set up"),
            );
        }
        if p.passed[s] {
            return fail(
                "passed",
                format!("seat {s} is not a player and cannot have passed"),
            );
        }
        if p.scores[s] != START_SCORE {
            return fail(
                "scores",
                format!("seat {s} is not a player: its score stays {START_SCORE}"),
            );
        }
        if p.round_points.iter().any(|r| r[s] != 0) {
            return fail(
                "round_points",
                format!("seat {s} is not a player and scores no round"),
            );
        }
        if p.final_scores[s] != FinalScore::default() {
            return fail(
                "final_scores",
                format!("seat {s} is not a player and has no final scoring"),
            );
        }
    }
    for (s, g) in p.gardens[..seats].iter().enumerate() {
        if let Some(cell) = g.neighbour_rule_breach() {
            return fail(
                "gardens",
                format!(
                    "seat {s}'s hexagon on {cell} cannot have been placed by the neighbour rule \
                     (section 7.2) in any order"
                ),
            );
        }
        if let Some(k) = g.duplicate_in_a_group() {
            return fail(
                "gardens",
                format!("seat {s}'s garden has two {k} in one group (section 7.3)"),
            );
        }
    }
    Ok(())
}

/// Whose turn it is, who passed and who holds the first-player marker (sections 4, 5, 9).
fn check_turn(p: &Position) -> Result<(), RecordError> {
    let passed = &p.passed[..usize::from(p.rules.players())];
    let all_passed = passed.iter().all(|&x| x);
    if p.over {
        if !all_passed {
            return fail("passed", "every player has passed once the game is over");
        }
    } else {
        if all_passed {
            return fail(
                "passed",
                "not every player has passed while the game goes on (the round would have ended)",
            );
        }
        if passed[usize::from(p.to_move)] {
            return fail(
                "to_move",
                format!(
                    "seat {} has passed this round and cannot be to move",
                    p.to_move
                ),
            );
        }
    }
    if (p.first_passer == NOBODY) == passed.iter().any(|&x| x) {
        return fail(
            "first_passer",
            "is the first seat to pass this round: 255 exactly while nobody has passed",
        );
    }
    if p.first_passer != NOBODY && !passed[usize::from(p.first_passer)] {
        return fail(
            "first_passer",
            format!("seat {} has not passed this round", p.first_passer),
        );
    }
    if p.round == 1 && p.start_player != 0 {
        return fail("start_player", "seat 0 starts round 1 (ruling R16)");
    }
    Ok(())
}

/// Round points, final scoring and scores (sections 10 and 12): each round is scored once as
/// it ends, from a garden that has only grown since; round 4's and the final scoring are
/// those of the gardens and storages as they are.
fn check_scoring(p: &Position) -> Result<(), RecordError> {
    if p.over && p.round != 4 || p.rounds_scored != p.round - 1 + u8::from(p.over) {
        return fail(
            "rounds_scored",
            "must count the rounds scored: round - 1, or 4 once over",
        );
    }
    let scored = usize::from(p.rounds_scored);
    for seat in 0..usize::from(p.rules.players()) {
        let garden = &p.gardens[seat];
        let mut most = u64::from(START_SCORE);
        for (r, points) in p.round_points.iter().enumerate() {
            let points = points[seat];
            let now = garden.round_points(p.rules.wheel().round(r as u8 + 1));
            if r >= scored && points != 0 {
                return fail("round_points", format!("round {} is not scored yet", r + 1));
            }
            let exact = p.over && r == 3;
            if points > now || exact && points != now {
                return fail(
                    "round_points",
                    format!(
                        "seat {seat} cannot have scored {points} in round {}: its garden scores {now} for that round now",
                        r + 1
                    ),
                );
            }
            most += u64::from(points);
        }
        let score = p.scores[seat];
        if !p.over {
            if p.final_scores[seat] != FinalScore::default() {
                return fail("final_scores", "the game is not over");
            }
            if u64::from(score) > most {
                return fail(
                    "scores",
                    format!("seat {seat}'s score {score} is more than 15 and its round points"),
                );
            }
            continue;
        }
        let f = p.final_scores[seat];
        if (f.groups, f.bonus) != garden.group_points() {
            return fail(
                "final_scores",
                format!("seat {seat}'s group points and bonus are not its garden's"),
            );
        }
        let storage = &p.storages[seat];
        let after = i64::from(score) - i64::from(f.groups) - i64::from(f.bonus);
        let before = after - i64::from(f.storage);
        let step =
            (before + i64::from(storage.jokers()) - i64::from(storage.hexagon_value())).max(0);
        if after < 0
            || before < 0
            || step != after
            || before > i64::try_from(most).unwrap_or(i64::MAX)
        {
            return fail(
                "final_scores",
                format!(
                    "seat {seat}'s score {score} is not its final scoring of its round points and storage"
                ),
            );
        }
    }
    Ok(())
}

/// The round stack and the display (sections 6.1, 6.4, 11.3): slots above the top have left
/// the stack, the top carries the 1 to 4 tiles it was given, the expansions under it nothing;
/// a face-down display expansion carries 1 to 3 tiles, a face-up or taken one none.
fn check_display(p: &Position) -> Result<(), RecordError> {
    let size = usize::from(p.rules.stack_size());
    let top = usize::from(p.top);
    for s in 0..MAX_STACK {
        let len = usize::from(p.slot_len[s]);
        let tiles = &p.slot_tiles[s];
        let state = p.slots[s];
        let (wanted, lens) = match s {
            _ if s >= size => (state == SlotState::Stack, 0..=0),
            _ if s < top => (
                state != SlotState::Stack,
                match state {
                    SlotState::Down => 1..=3,
                    _ => 0..=0,
                },
            ),
            _ if s == top => (state == SlotState::Stack, 1..=4),
            _ => (state == SlotState::Stack, 0..=0),
        };
        if !wanted {
            return fail(
                "slots",
                format!(
                    "slot {s} cannot be {} with the stack's top at slot {top} of {size}",
                    slot_words(state)
                ),
            );
        }
        if !lens.contains(&len) {
            return fail(
                "slot_len",
                format!("slot {s} ({}) cannot carry {len} tiles", slot_words(state)),
            );
        }
        if tiles[..len].windows(2).any(|w| w[0] > w[1]) || tiles[len..].iter().any(|&t| t != 0) {
            return fail(
                "slot_tiles",
                format!("slot {s}'s tiles must be sorted, then zeros"),
            );
        }
    }
    if top < size && p.slot_len[top] < 4 && p.bag_len() > 0 {
        return fail(
            "slot_len",
            "the stack's top got fewer than 4 tiles while the bag holds more",
        );
    }
    Ok(())
}

/// Where a slot's expansion is, in words.
const fn slot_words(state: SlotState) -> &'static str {
    match state {
        SlotState::Stack => "in the stack",
        SlotState::Down => "face down in the display",
        SlotState::Up => "face up in the display",
        SlotState::Gone => "taken",
    }
}

/// Each kind's three tiles, over the bag, the tower, the display, the storages and the
/// gardens.
fn check_tiles(p: &Position) -> Result<(), RecordError> {
    let mut count = [0u32; KIND_COUNT];
    let mut add = |k: u8, n: u32| count[usize::from(k)] += n;
    for &k in &p.bag[usize::from(p.bag_start)..usize::from(p.bag_end)] {
        add(k, 1);
    }
    for (k, &n) in p.tower.iter().enumerate() {
        add(k as u8, u32::from(n));
    }
    for s in 0..MAX_STACK {
        for &k in &p.slot_tiles[s][..usize::from(p.slot_len[s])] {
            add(k, 1);
        }
    }
    for seat in 0..usize::from(p.rules.players()) {
        for k in p.storages[seat].tiles() {
            add(k.id(), 1);
        }
        for (_, k) in p.gardens[seat].tiles() {
            add(k.id(), 1);
        }
    }
    if let Some(k) = Kind::all().find(|k| count[usize::from(k.id())] != 3) {
        return fail(
            "position",
            format!(
                "holds {} {k} tiles (bag, tower, display, storages and gardens), not 3",
                count[usize::from(k.id())]
            ),
        );
    }
    Ok(())
}

/// The bag as set up or last refilled and the refills (section 11.3): until the first refill
/// the bag is the 108 tiles, drawn 4 at a time; each refill happens as a stack top gets
/// tiles, the first once the bag has run out.
fn check_bag_and_refills(p: &Position) -> Result<(), RecordError> {
    let size = usize::from(p.rules.stack_size());
    let end = usize::from(p.bag_end);
    let start = usize::from(p.bag_start);
    if p.bag[end..].iter().any(|&k| k != 0) {
        return fail("bag", "holds zeros after bag_end");
    }
    if start % 4 != 0 && start != end {
        return fail(
            "bag_start",
            "tiles are drawn 4 at a time until the bag runs out",
        );
    }
    // Stack tops given tiles so far, at most: every earlier round's and this round's up to its top.
    let tops = (usize::from(p.round) - 1) * size + (usize::from(p.top) + 1).min(size);
    let refills = usize::from(p.refills);
    if p.refills == 0 {
        if end != TILE_TOTAL || check_bag(&ids_to_kinds(&p.bag)).is_err() {
            return fail(
                "bag",
                "before the first refill the bag is the 108 tiles, each kind three times",
            );
        }
        if start > 4 * tops {
            return fail(
                "bag_start",
                format!("{tops} stack tops cannot have drawn {start} tiles"),
            );
        }
    } else if tops <= TILE_TOTAL / 4 || refills > tops - TILE_TOTAL / 4 {
        return fail(
            "refills",
            format!(
                "{tops} stack tops cannot have needed {refills} refills: the first needs the 108 tiles drawn"
            ),
        );
    }
    if let Chance::Listed(list) = &p.chance
        && list.len() < refills
    {
        return fail(
            "chance.refills",
            format!("lists {} refills, but {refills} were used", list.len()),
        );
    }
    Ok(())
}

/// Each of the 36 expansions in one place, and the reveals (sections 6, 8, 11.1): a
/// current-round expansion is revealed exactly once it turned face up, no later one is; an
/// expansion in a storage or face up in a garden is one taken from the display.
fn check_expansions_and_reveals(p: &Position) -> Result<(), RecordError> {
    let size = usize::from(p.rules.stack_size());
    let base = (usize::from(p.round) - 1) * size;
    let revealed = |i: usize| p.revealed >> i & 1 != 0;
    for s in 0..size {
        let up = matches!(p.slots[s], SlotState::Up | SlotState::Gone);
        if revealed(base + s) != up {
            return fail(
                "revealed",
                format!(
                    "slot {s}'s expansion (expansions[{}]) is revealed exactly once it is face up or taken",
                    base + s
                ),
            );
        }
    }
    if (base + size..EXPANSION_TOTAL).any(revealed) {
        return fail(
            "revealed",
            "no expansion of a later round or the supply has been revealed",
        );
    }
    let taken = |i: usize| revealed(i) && (i < base || p.slots[i - base] == SlotState::Gone);
    let mut seen = [false; EXPANSION_TOTAL];
    for seat in 0..usize::from(p.rules.players()) {
        let g = &p.gardens[seat];
        let face_up = Area::all().filter_map(|a| match g.area(a) {
            AreaState::FaceUp { kind, .. } => Some(kind),
            _ => None,
        });
        let held = p.storages[seat].expansions().map(|k| (k, "storages"));
        for (k, field) in held.chain(face_up.map(|k| (k, "gardens"))) {
            let Some(i) = p.expansions.iter().position(|&e| e == k.id()) else {
                continue;
            };
            if !taken(i) || std::mem::replace(&mut seen[i], true) {
                return fail(
                    field,
                    format!(
                        "seat {seat} holds expansion {k}, which is not one taken from the display (or is held twice)"
                    ),
                );
            }
        }
    }
    if p.expansion_total() != EXPANSION_TOTAL {
        return fail(
            "position",
            format!("holds {} expansions, not the 36", p.expansion_total()),
        );
    }
    Ok(())
}

/// The move count (section 14): every player passes once a round, every `tile`, `exp` and
/// `buy` fills a garden cell or area for good, and every `take` moves at least one of the at
/// most `5S` hexagons (a stack top's 1 to 4 tiles and its expansion per slot) a round brings
/// into the display. So the takes so far are at most `5S` per earlier round plus this round's
/// `5S` less the hexagons it still holds or brings; the last move is known exactly when one
/// was played.
fn check_moves(p: &Position) -> Result<(), RecordError> {
    if p.last_move.is_some() != (p.moves_played > 0) {
        return fail("last_move", "is null exactly when no move has been played");
    }
    let players = u32::from(p.rules.players());
    let size = usize::from(p.rules.stack_size());
    let top = usize::from(p.top);
    let passes = u32::from(p.round - 1) * players
        + p.passed[..players as usize].iter().filter(|&&x| x).count() as u32;
    let placed: usize = p.gardens[..players as usize]
        .iter()
        .map(|g| {
            g.tiles().count()
                + Area::all()
                    .filter(|&a| g.area(a) != AreaState::Empty)
                    .count()
        })
        .sum();
    let to_come: usize = (0..size)
        .map(|s| match p.slots[s] {
            SlotState::Gone => 0,
            SlotState::Up => 1,
            SlotState::Stack if s > top => 5,
            SlotState::Stack | SlotState::Down => usize::from(p.slot_len[s]) + 1,
        })
        .sum();
    let takes = 5 * size * usize::from(p.round) - to_come;
    let most = passes + (placed + takes) as u32;
    if p.moves_played < passes || p.moves_played > most {
        return fail(
            "moves_played",
            format!(
                "must be {passes} (the passes so far) to {most} (those, {placed} placements and {takes} takes)"
            ),
        );
    }
    Ok(())
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

    /// Positions of whole games (2, 3 and 4 players) played by a seeded policy that passes
    /// seldom, so that stacks run out and refills happen.
    fn trajectories() -> Vec<Position> {
        let mut out = Vec::new();
        let mut next = 1u64;
        let mut below = |n: usize| {
            next = next
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (next >> 33) as usize % n
        };
        for (players, seed) in [(2, 1), (3, 2), (4, 3), (4, 4), (3, 5)] {
            let mut game = Game::from_seed(Rules::with_players(players).unwrap(), seed);
            out.push(game.position().clone());
            while !game.position().is_over() {
                let moves = game.legal_moves();
                let others = moves.len() - 1;
                let mv = if others > 0 && below(10) > 0 {
                    moves[below(others)]
                } else {
                    moves[others]
                };
                game.play(&mv).unwrap();
                out.push(game.position().clone());
            }
        }
        out
    }

    fn position_state(p: &Position) -> Value {
        Game::from_position(p.clone()).to_state()
    }

    #[test]
    fn every_position_of_play_reads_back() {
        let positions = trajectories();
        assert!(
            positions.iter().any(|p| p.refills_used() > 0),
            "a refill was reached"
        );
        assert!(
            positions.iter().any(|p| p.top == p.rules.stack_size()),
            "a stack ran out"
        );
        for p in &positions {
            let state = position_state(p);
            let back = Game::from_state(&state).unwrap_or_else(|e| panic!("{e}: {state}"));
            assert_eq!(back.position(), p);
        }
    }

    /// The first position of play with `wanted`, as a state.
    fn state_where(wanted: impl Fn(&Position) -> bool) -> Value {
        position_state(
            trajectories()
                .iter()
                .find(|p| wanted(p))
                .expect("play reaches it"),
        )
    }

    fn refused_at(state: &Value, edit: impl Fn(&mut Value)) -> String {
        let mut forged = state.clone();
        edit(&mut forged);
        match Game::from_state(&forged) {
            Ok(_) => panic!("accepted: {forged}"),
            Err(e) => e.at.to_string(),
        }
    }

    /// The minimal cases: every seat passed (to_move became 255), with and without
    /// moves after it.
    #[test]
    fn a_state_where_every_seat_passed_is_refused() {
        let state = Game::from_seed(Rules::with_players(2).unwrap(), 1).to_state();
        for moves in [json!(["take bl", "take ye"]), json!([])] {
            let at = refused_at(&state, |s| {
                s["position"]["passed"] = json!([true, true, true, true]);
                s["moves"] = moves.clone();
            });
            assert_eq!(at, "state.passed");
        }
    }

    #[test]
    fn forged_turns_and_passes_are_refused() {
        let start = Game::from_seed(Rules::with_players(3).unwrap(), 1).to_state();
        let at = |edit: &dyn Fn(&mut Value)| refused_at(&start, |s| edit(&mut s["position"]));
        assert_eq!(at(&|p| p["passed"][3] = json!(true)), "state.passed");
        assert_eq!(at(&|p| p["first_passer"] = json!(1)), "state.first_passer");
        assert_eq!(at(&|p| p["start_player"] = json!(2)), "state.start_player");
        assert_eq!(
            at(&|p| {
                p["passed"][1] = json!(true);
                p["first_passer"] = json!(1);
                p["to_move"] = json!(1);
                p["moves_played"] = json!(1);
                p["last_move"] = json!("pass");
            }),
            "state.to_move"
        );
        assert_eq!(
            at(&|p| {
                p["passed"][1] = json!(true);
                p["first_passer"] = json!(0);
                p["moves_played"] = json!(1);
                p["last_move"] = json!("pass");
            }),
            "state.first_passer"
        );
        let over = state_where(Position::is_over);
        assert_eq!(
            refused_at(&over, |s| s["position"]["passed"][0] = json!(false)),
            "state.passed"
        );
    }

    #[test]
    fn forged_tiles_are_refused_by_kind() {
        let start = Game::from_seed(Rules::with_players(2).unwrap(), 1).to_state();
        // 108 copies of one kind keep the total.
        assert_eq!(
            refused_at(&start, |s| s["position"]["bag"] =
                json!(vec![0; TILE_TOTAL])),
            "state.position"
        );
        let mid = state_where(|p| p.storages[0].tile_count() > 0 && p.tower_len() > 0);
        // A stored tile turned into another kind: 108 tiles still, one kind 4 times.
        let at = refused_at(&mid, |s| {
            let tiles = &mut s["position"]["storages"][0]["tiles"];
            let k = tiles[0].as_u64().unwrap();
            tiles[0] = json!((k + 1) % 36);
        });
        assert_eq!(at, "state.position");
    }

    #[test]
    fn forged_storages_and_gardens_are_refused() {
        let start = Game::from_seed(Rules::with_players(2).unwrap(), 1).to_state();
        let at = |edit: &dyn Fn(&mut Value)| refused_at(&start, |s| edit(&mut s["position"]));
        assert_eq!(
            at(&|p| p["storages"][3]["jokers"] = json!(2)),
            "state.storages"
        );
        assert_eq!(
            at(&|p| p["gardens"][2]["areas"][0] = json!("down")),
            "state.gardens"
        );
        assert_eq!(at(&|p| p["scores"][2] = json!(16)), "state.scores");
        assert_eq!(
            at(&|p| p["storages"][0]["jokers"] = json!(13)),
            "state.storages"
        );
        // bl1 and ye2 side by side on f0 and f1: whichever came second shares nothing with
        // its neighbour.
        assert_eq!(
            at(&|p| p["gardens"][0]["tiles"] = json!([[0, 0], [1, 7]])),
            "state.gardens"
        );
        // Two bl1 on f0 and f1 (one colour group), taken from the bag's end.
        assert_eq!(
            at(&|p| {
                p["gardens"][0]["tiles"] = json!([[0, 0], [1, 0]]);
                let bag = p["bag"].as_array_mut().unwrap();
                let mut taken = 0;
                for i in (0..TILE_TOTAL).rev() {
                    if bag[i] == json!(0) && taken < 2 {
                        bag.remove(i);
                        taken += 1;
                    }
                }
                bag.extend([json!(0), json!(0)]);
                p["bag_end"] = json!(106);
                p["refills"] = json!(0);
            }),
            "state.gardens"
        );
        // A stored expansion from the supply, which nobody has taken.
        let kind = start["position"]["expansions"][35].clone();
        assert_eq!(
            at(&|p| {
                p["storages"][0]["expansions"] = json!([kind]);
                p["supply"] = json!(15);
            }),
            "state.storages"
        );
    }

    #[test]
    fn forged_display_and_reveals_are_refused() {
        let up = state_where(|p| (0..5).any(|s| p.slots[s] == SlotState::Up) && p.round == 1);
        let slot = (0..5)
            .find(|&s| up["position"]["slots"][s] == json!(2))
            .unwrap();
        assert_eq!(
            refused_at(&up, |s| s["position"]["revealed"] = json!(0)),
            "state.revealed"
        );
        assert_eq!(
            refused_at(&up, |s| s["position"]["revealed"] =
                json!((1u64 << 35) | 1 << slot)),
            "state.revealed"
        );
        let start = Game::from_seed(Rules::with_players(2).unwrap(), 1).to_state();
        let at = |edit: &dyn Fn(&mut Value)| refused_at(&start, |s| edit(&mut s["position"]));
        assert_eq!(at(&|p| p["slots"][7] = json!(1)), "state.slots");
        assert_eq!(at(&|p| p["slots"][0] = json!(1)), "state.slots");
        assert_eq!(at(&|p| p["top"] = json!(1)), "state.slots");
        assert_eq!(
            at(&|p| {
                let tiles = p["slot_tiles"][0].as_array_mut().unwrap();
                tiles.swap(0, 3);
            }),
            "state.slot_tiles"
        );
        assert_eq!(
            at(&|p| {
                p["slot_len"][0] = json!(3);
                p["slot_tiles"][0][3] = json!(0);
            }),
            "state.slot_len"
        );
    }

    #[test]
    fn forged_rounds_scores_and_moves_are_refused() {
        let start = Game::from_seed(Rules::with_players(2).unwrap(), 1).to_state();
        let at = |edit: &dyn Fn(&mut Value)| refused_at(&start, |s| edit(&mut s["position"]));
        assert_eq!(
            at(&|p| p["round_points"][1][0] = json!(1)),
            "state.round_points"
        );
        assert_eq!(at(&|p| p["scores"][0] = json!(16)), "state.scores");
        assert_eq!(
            at(&|p| p["final_scores"][0][1] = json!(1)),
            "state.final_scores"
        );
        assert_eq!(at(&|p| p["refills"] = json!(1)), "state.refills");
        // The bag's front tiles moved to the tower: bag_start 5 (not a draw of 4) or 8 (two
        // draws for the one stack top so far).
        for start in [5, 8] {
            let at = at(&|p| {
                for i in 4..start {
                    let k = p["bag"][i].as_u64().unwrap() as usize;
                    p["tower"][k] = json!(p["tower"][k].as_u64().unwrap() + 1);
                }
                p["bag_start"] = json!(start);
            });
            assert_eq!(at, "state.bag_start");
        }
        assert_eq!(at(&|p| p["moves_played"] = json!(3)), "state.last_move");
        assert_eq!(at(&|p| p["last_move"] = json!("pass")), "state.last_move");
        assert_eq!(
            at(&|p| {
                p["moves_played"] = json!(217);
                p["last_move"] = json!("pass");
            }),
            "state.moves_played"
        );
        // The set-up position: no take, placement or pass yet.
        assert_eq!(
            at(&|p| {
                p["moves_played"] = json!(1);
                p["last_move"] = json!("take bl");
            }),
            "state.moves_played"
        );
        let round2 = state_where(|p| p.round == 2 && p.moves_played < 20);
        assert_eq!(
            refused_at(&round2, |s| s["position"]["round_points"][0][0] =
                json!(500)),
            "state.round_points"
        );
        let over = state_where(Position::is_over);
        assert_eq!(
            refused_at(&over, |s| s["position"]["final_scores"][0][1] = json!(7)),
            "state.final_scores"
        );
        assert_eq!(
            refused_at(&over, |s| s["position"]["scores"][0] = json!(1000)),
            "state.final_scores"
        );
        assert_eq!(
            refused_at(&over, |s| s["position"]["moves_played"] = json!(7)),
            "state.moves_played"
        );
        let refilled = state_where(|p| p.refills_used() > 0);
        assert_eq!(
            refused_at(&refilled, |s| s["position"]["bag"][107] = json!(3)),
            "state.bag"
        );
        assert_eq!(
            refused_at(&refilled, |s| s["position"]["chance"] =
                json!({"refills": []})),
            "state.chance.refills"
        );
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
