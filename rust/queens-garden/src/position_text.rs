//! A position as one line of text (docs/queens-garden.md, "Positions as text"): everything a
//! seat needs to play on (rules, round, turn, passes, scores, storages, gardens, the display,
//! the expansions seen, the supply, the tower, the bag as counts, the refills and moves so far),
//! with what nobody has seen left out: the bag's order, the kinds of the expansions nobody has
//! seen and the refills to come. [`Position::to_text`] writes it; [`Position::from_text`]
//! reads it, drawing what is hidden from a seed, and [`Position::from_text_with`] takes it
//! given. Reading builds the position's full state (`queens-garden-state/1`) and checks it as
//! the state reader does, every invariant of play, so a bad text is refused at its field.

use serde_json::{Value, json};

use crate::garden::{AreaState, Storage};
use crate::geometry::{Area, Cell};
use crate::kind::{KIND_COUNT, Kind};
use crate::moves::Move;
use crate::position::{Chance, EXPANSION_TOTAL, NOBODY, Position, SlotState, TILE_TOTAL};
use crate::record::{ErrorAt, RecordError, rules_to_json};
use crate::rules::{Jokers, MAX_PLAYERS, Rules};

/// The fields of a position's text, in order.
const FIELDS: [&str; 16] = [
    "rules",
    "round",
    "turn",
    "start",
    "passed",
    "scores",
    "round_points",
    "final",
    "storages",
    "gardens",
    "display",
    "expansions",
    "supply",
    "tower",
    "bag",
    "moves",
];

/// The largest number a count field may hold (as the state reader allows).
const COUNT_LIMIT: u32 = 1 << 24;

fn fail<T>(field: &str, message: impl Into<String>) -> Result<T, RecordError> {
    Err(RecordError {
        at: ErrorAt::Field(field.to_owned()),
        message: message.into(),
    })
}

/// The text field a state field is written in.
fn text_field(state_field: &str) -> &'static str {
    let field = state_field.strip_prefix("state.").unwrap_or(state_field);
    match field.split('.').next().unwrap_or(field) {
        "to_move" => "turn",
        "start_player" => "start",
        "first_passer" | "passed" => "passed",
        "round" | "rounds_scored" | "over" => "round",
        "round_points" => "round_points",
        "final_scores" => "final",
        "scores" => "scores",
        "storages" => "storages",
        "gardens" => "gardens",
        "slots" | "slot_len" | "slot_tiles" | "top" => "display",
        "expansions" | "revealed" => "expansions",
        "supply" => "supply",
        "tower" => "tower",
        "bag" | "bag_start" | "bag_end" | "refills" | "chance" => "bag",
        "moves_played" | "last_move" => "moves",
        "position" if field.starts_with("position.rules") => "rules",
        _ => "position",
    }
}

/// `text` as a number `0..=max` written the one way it is written.
fn number(text: &str, field: &str, what: &str, max: u32) -> Result<u32, RecordError> {
    match text.parse::<u32>() {
        Ok(n) if n <= max && n.to_string() == text => Ok(n),
        _ => fail(
            field,
            format!("{what} must be a number 0..{max} written plainly, not {text:?}"),
        ),
    }
}

/// `-` for no items, else the items joined by `sep`.
fn joined(items: impl IntoIterator<Item = String>, sep: &str) -> String {
    let items: Vec<String> = items.into_iter().collect();
    if items.is_empty() {
        "-".to_owned()
    } else {
        items.join(sep)
    }
}

/// The items of a list written by [`joined`].
fn split<'a>(text: &'a str, sep: &'a str) -> Vec<&'a str> {
    if text == "-" {
        Vec::new()
    } else {
        text.split(sep).collect()
    }
}

/// A field of one item per seat, joined by `/`.
fn seats<'a>(text: &'a str, field: &str, players: usize) -> Result<Vec<&'a str>, RecordError> {
    let items: Vec<&str> = text.split('/').collect();
    if items.len() == players {
        Ok(items)
    } else {
        fail(
            field,
            format!("must give {players} seats joined by /, not {}", items.len()),
        )
    }
}

fn kind(text: &str, field: &str) -> Result<Kind, RecordError> {
    text.parse()
        .or_else(|_| fail(field, format!("{text:?} is not a kind (bl1..dp6)")))
}

fn kinds(text: &str, field: &str) -> Result<Vec<Kind>, RecordError> {
    split(text, ",")
        .into_iter()
        .map(|k| kind(k, field))
        .collect()
}

fn kind_names(kinds: impl IntoIterator<Item = Kind>) -> String {
    joined(kinds.into_iter().map(|k| k.to_string()), ",")
}

/// Tiles counted by kind, as `KIND` or `KIND*COUNT`, kinds in id order.
fn counts_text(counts: &[u8; KIND_COUNT]) -> String {
    joined(
        Kind::all().filter_map(|k| match counts[usize::from(k.id())] {
            0 => None,
            1 => Some(k.to_string()),
            n => Some(format!("{k}*{n}")),
        }),
        ",",
    )
}

fn read_counts(text: &str, field: &str) -> Result<[u8; KIND_COUNT], RecordError> {
    let mut counts = [0u8; KIND_COUNT];
    let mut last: Option<Kind> = None;
    for item in split(text, ",") {
        let (name, n) = match item.split_once('*') {
            Some((name, n)) => (name, number(n, field, "a count", TILE_TOTAL as u32)?),
            None => (item, 1),
        };
        let k = kind(name, field)?;
        if n < 2 && item.contains('*') || last.is_some_and(|l| l >= k) {
            return fail(
                field,
                format!(
                    "{item:?}: kinds are listed once each, in id order, KIND or KIND*COUNT (2 or more)"
                ),
            );
        }
        last = Some(k);
        counts[usize::from(k.id())] = n as u8;
    }
    Ok(counts)
}

impl Position {
    /// The position as one line of text (docs/queens-garden.md, "Positions as text"), its 16
    /// fields separated by spaces. What nobody has seen (the bag's order, the expansions
    /// nobody has seen, the refills to come) is left out.
    ///
    /// ```
    /// use queens_garden::{Game, Position, Rules};
    ///
    /// let game = Game::from_seed(Rules::with_players(2).unwrap(), 7);
    /// let text = game.position().to_text();
    /// assert!(text.starts_with("2;"));
    /// let again = Position::from_text(&text, 1).unwrap();
    /// assert_eq!(again.to_text(), text);
    /// ```
    #[allow(clippy::too_many_lines)] // one field after another, in order
    pub fn to_text(&self) -> String {
        let players = usize::from(self.rules.players());
        let wheel = self
            .rules
            .wheel()
            .rounds()
            .iter()
            .map(|r| r.map(|a| a.to_string()).join(","))
            .collect::<Vec<_>>()
            .join("/");
        let j = self.rules.jokers();
        let mut fields: Vec<String> = vec![format!(
            "{players};{wheel};{},{},{},{}",
            j.fountain, j.statue, j.bench, j.pavilion
        )];
        fields.push(if self.over {
            "over".to_owned()
        } else {
            self.round.to_string()
        });
        fields.push(if self.over {
            "-".to_owned()
        } else {
            self.to_move.to_string()
        });
        fields.push(self.start_player.to_string());
        fields.push(
            (0..players)
                .map(|s| match (self.passed[s], self.first_passer == s as u8) {
                    (false, _) => '-',
                    (true, false) => 'p',
                    (true, true) => 'P',
                })
                .collect(),
        );
        let per_seat = |f: &dyn Fn(usize) -> String| (0..players).map(f).collect::<Vec<_>>();
        fields.push(per_seat(&|s| self.scores[s].to_string()).join(","));
        fields.push(joined(
            self.round_points[..usize::from(self.rounds_scored)]
                .iter()
                .map(|r| per_seat(&|s| r[s].to_string()).join(",")),
            "/",
        ));
        fields.push(if self.over {
            per_seat(&|s| {
                let f = self.final_scores[s];
                format!("{},{},{}", f.storage, f.groups, f.bonus)
            })
            .join("/")
        } else {
            "-".to_owned()
        });
        fields.push(
            per_seat(&|s| {
                let st = &self.storages[s];
                format!(
                    "{};{};{}",
                    st.jokers(),
                    kind_names(st.tiles()),
                    kind_names(st.expansions())
                )
            })
            .join("/"),
        );
        fields.push(
            per_seat(&|s| {
                let g = &self.gardens[s];
                let areas = Area::all()
                    .map(|a| match g.area(a) {
                        AreaState::Empty => "-".to_owned(),
                        AreaState::FaceDown => "d".to_owned(),
                        AreaState::FaceUp { kind, petal } => format!("{kind}@{petal}"),
                    })
                    .collect::<Vec<_>>()
                    .join(",");
                let tiles = joined(g.tiles().map(|(c, k)| format!("{c}={k}")), ",");
                format!("{areas};{tiles}")
            })
            .join("/"),
        );
        fields.push(
            (0..usize::from(self.rules.stack_size()))
                .map(|s| {
                    let tiles = &self.slot_tiles[s][..usize::from(self.slot_len[s])];
                    let letter = match self.slots[s] {
                        SlotState::Stack => "s",
                        SlotState::Down => "d",
                        SlotState::Up => "u",
                        SlotState::Gone => "g",
                    };
                    if tiles.is_empty() {
                        letter.to_owned()
                    } else {
                        let names = kind_names(tiles.iter().filter_map(|&k| Kind::new(k)));
                        format!("{letter}:{names}")
                    }
                })
                .collect::<Vec<_>>()
                .join("/"),
        );
        fields.push(
            self.expansions
                .iter()
                .enumerate()
                .map(|(i, &k)| match Kind::new(k) {
                    Some(k) if self.revealed >> i & 1 != 0 => k.to_string(),
                    _ => "?".to_owned(),
                })
                .collect::<Vec<_>>()
                .join(","),
        );
        fields.push(self.supply.to_string());
        fields.push(counts_text(&self.tower));
        let mut bag = [0u8; KIND_COUNT];
        for &k in &self.bag[usize::from(self.bag_start)..usize::from(self.bag_end)] {
            bag[usize::from(k)] += 1;
        }
        fields.push(format!("{}:{}", self.refills, counts_text(&bag)));
        fields.push(match self.last_move {
            Some(m) => format!("{}:{}", self.moves_played, m.to_string().replace(' ', "_")),
            None => self.moves_played.to_string(),
        });
        fields.join(" ")
    }

    /// The position a [`Position::to_text`] text describes, what is hidden drawn from `seed`:
    /// the bag's order and the kinds of the expansions nobody has seen shuffled with CPython's
    /// `random.Random(seed)` (as [`Position::resample`] shuffles), and the refills those of
    /// `seed` ([`Chance::Seeded`]).
    ///
    /// # Errors
    /// The first field that is wrong or breaks an invariant of play, named.
    pub fn from_text(text: &str, seed: u64) -> Result<Position, RecordError> {
        let (state, hidden) = read_state(text)?;
        let bag = state.bag_counts;
        let in_order: Vec<Kind> = Kind::all()
            .flat_map(|k| std::iter::repeat_n(k, usize::from(bag[usize::from(k.id())])))
            .collect();
        let p = state.position(&in_order, &hidden, &Chance::Seeded(seed))?;
        let mut rng = pyrandom::PyRandom::from_u64(seed);
        Ok(p.resample(&mut |n| rng.randbelow(n as u32) as usize, seed))
    }

    /// [`Position::from_text`] with what is hidden given: `bag`, the bag's order front first
    /// (the tiles the text counts), `expansions`, the kinds of the expansions nobody has seen
    /// in the order of their places (the text's `?`s), and `chance`, where the refills come
    /// from. A position's own ([`Position::hidden_order`]) make it play on alike.
    ///
    /// # Errors
    /// As [`Position::from_text`], or at `bag` or `expansions` when the order given does not
    /// hold the tiles or kinds the text leaves hidden.
    pub fn from_text_with(
        text: &str,
        bag: &[Kind],
        expansions: &[Kind],
        chance: &Chance,
    ) -> Result<Position, RecordError> {
        let (state, mut hidden) = read_state(text)?;
        let mut counts = [0u8; KIND_COUNT];
        for k in bag {
            counts[usize::from(k.id())] = counts[usize::from(k.id())].saturating_add(1);
        }
        if counts != state.bag_counts {
            return fail(
                "bag",
                "the order given does not hold the tiles the text counts",
            );
        }
        let mut given: Vec<Kind> = expansions.to_vec();
        given.sort_unstable();
        if given != hidden {
            return fail(
                "expansions",
                "the order given is not the kinds the text leaves hidden",
            );
        }
        hidden = expansions.to_vec();
        state.position(bag, &hidden, chance)
    }

    /// What [`Position::to_text`] leaves out, in the order [`Position::from_text_with`]
    /// takes it: the bag front first, the hidden expansions by place, and the refills' source.
    pub fn hidden_order(&self) -> (Vec<Kind>, Vec<Kind>, Chance) {
        let bag = self.bag[usize::from(self.bag_start)..usize::from(self.bag_end)]
            .iter()
            .filter_map(|&k| Kind::new(k))
            .collect();
        let expansions = (0..EXPANSION_TOTAL)
            .filter(|i| self.revealed >> i & 1 == 0)
            .filter_map(|i| Kind::new(self.expansions[i]))
            .collect();
        (bag, expansions, self.chance.clone())
    }
}

/// A text's fields as the state's JSON, the hidden parts still to fill in.
struct TextState {
    state: serde_json::Map<String, Value>,
    /// The places of the expansions nobody has seen, and the state's expansion list.
    hidden_places: Vec<usize>,
    expansions: [u8; EXPANSION_TOTAL],
    bag_counts: [u8; KIND_COUNT],
    refills: u8,
}

impl TextState {
    /// The position with the bag in order `bag`, the hidden expansions `hidden` by place and
    /// the refills from `chance`, checked as the state reader checks it.
    fn position(
        &self,
        bag: &[Kind],
        hidden: &[Kind],
        chance: &Chance,
    ) -> Result<Position, RecordError> {
        let mut state = self.state.clone();
        let mut expansions = self.expansions;
        for (&place, k) in self.hidden_places.iter().zip(hidden) {
            expansions[place] = k.id();
        }
        state.insert("expansions".into(), json!(expansions.to_vec()));
        // Before the first refill the bag is the 108 tiles, those drawn first; after it, the
        // tiles left.
        let mut order: Vec<u8> = Vec::with_capacity(TILE_TOTAL);
        if self.refills == 0 {
            for k in Kind::all() {
                let drawn = 3 - self.bag_counts[usize::from(k.id())].min(3);
                order.extend(std::iter::repeat_n(k.id(), usize::from(drawn)));
            }
        }
        let start = order.len();
        order.extend(bag.iter().map(|k| k.id()));
        let end = order.len();
        order.resize(TILE_TOTAL, 0);
        state.insert("bag".into(), json!(order));
        state.insert("bag_start".into(), json!(start));
        state.insert("bag_end".into(), json!(end));
        let chance = match chance {
            Chance::Seeded(seed) => json!({ "seed": seed }),
            Chance::Listed(list) => json!({
                "refills": list.iter().map(|r| r.iter().map(|k| k.id()).collect::<Vec<_>>()).collect::<Vec<_>>()
            }),
        };
        state.insert("chance".into(), chance);
        Position::from_state_json(&Value::Object(state)).map_err(|e| {
            let ErrorAt::Field(field) = &e.at else {
                return e;
            };
            RecordError {
                at: ErrorAt::Field(text_field(field).to_owned()),
                message: e.message,
            }
        })
    }
}

/// The text's fields read into a state, and the hidden expansions' kinds (sorted).
#[allow(clippy::too_many_lines)] // one field after another, in order
fn read_state(text: &str) -> Result<(TextState, Vec<Kind>), RecordError> {
    let fields: Vec<&str> = text.split(' ').collect();
    let Ok(
        [
            rules,
            round,
            turn,
            start,
            passed,
            scores,
            round_points,
            finals,
            storages,
            gardens,
            display,
            expansions,
            supply,
            tower,
            bag,
            moves,
        ],
    ) = <[&str; 16]>::try_from(fields.as_slice())
    else {
        return fail(
            "position",
            format!(
                "must be {} fields separated by single spaces ({}), not {}",
                FIELDS.len(),
                FIELDS.join(" "),
                fields.len()
            ),
        );
    };
    let rules = read_rules(rules)?;
    let players = usize::from(rules.players());
    let mut state = serde_json::Map::new();
    state.insert("rules".into(), rules_to_json(&rules));
    let over = round == "over";
    let round = if over {
        4
    } else {
        number(round, "round", "the round", 4)?
    };
    if round == 0 {
        return fail("round", "must be 1..4 or over");
    }
    state.insert("round".into(), json!(round));
    state.insert("over".into(), json!(over));
    let last_seat = players as u32 - 1;
    let to_move = match (over, turn) {
        (true, "-") => 0,
        (true, _) => return fail("turn", "the game is over: no seat is to move (\"-\")"),
        (false, _) => number(turn, "turn", "the seat to move", last_seat)?,
    };
    state.insert("to_move".into(), json!(to_move));
    state.insert(
        "start_player".into(),
        json!(number(start, "start", "the start player", last_seat)?),
    );
    read_passes(passed, players, &mut state)?;
    let scores = seat_numbers(scores, "scores", players)?;
    state.insert("scores".into(), json!(padded(&scores, 15)));
    let round_rows: Vec<Vec<u32>> = split(round_points, "/")
        .into_iter()
        .map(|r| seat_numbers(r, "round_points", players))
        .collect::<Result<_, _>>()?;
    let rounds_scored = (round - 1 + u32::from(over)) as usize;
    if round_rows.len() != rounds_scored {
        return fail(
            "round_points",
            format!("must give the {rounds_scored} rounds scored so far, joined by /"),
        );
    }
    let mut points = vec![vec![0u32; MAX_PLAYERS]; 4];
    for (r, p) in round_rows.iter().enumerate() {
        points[r] = padded(p, 0);
    }
    state.insert("round_points".into(), json!(points));
    state.insert("rounds_scored".into(), json!(rounds_scored));
    state.insert("final_scores".into(), read_finals(finals, over, players)?);
    state.insert("storages".into(), read_storages(storages, players)?);
    state.insert("gardens".into(), read_gardens(gardens, players)?);
    read_display(display, rules, &mut state)?;
    let (expansions, hidden_places, hidden) = read_expansions(expansions, &mut state)?;
    state.insert(
        "supply".into(),
        json!(number(
            supply,
            "supply",
            "the supply",
            EXPANSION_TOTAL as u32
        )?),
    );
    state.insert("tower".into(), json!(read_counts(tower, "tower")?.to_vec()));
    let Some((refills, bag)) = bag.split_once(':') else {
        return fail(
            "bag",
            format!("must be REFILLS:TILES such as \"0:bl1*3,bl2\", not {bag:?}"),
        );
    };
    let refills = number(refills, "bag", "the refills", 100)? as u8;
    state.insert("refills".into(), json!(refills));
    let bag_counts = read_counts(bag, "bag")?;
    read_moves(moves, &mut state)?;
    Ok((
        TextState {
            state,
            hidden_places,
            expansions,
            bag_counts,
            refills,
        },
        hidden,
    ))
}

fn padded(values: &[u32], fill: u32) -> Vec<u32> {
    let mut out = values.to_vec();
    out.resize(MAX_PLAYERS, fill);
    out
}

fn seat_numbers(text: &str, field: &str, players: usize) -> Result<Vec<u32>, RecordError> {
    let items: Vec<&str> = text.split(',').collect();
    if items.len() != players {
        return fail(
            field,
            format!("must give {players} numbers joined by ,, not {text:?}"),
        );
    }
    items
        .into_iter()
        .map(|n| number(n, field, "a seat's points", COUNT_LIMIT))
        .collect()
}

fn read_rules(text: &str) -> Result<Rules, RecordError> {
    let parts: Vec<&str> = text.split(';').collect();
    let [players, wheel, jokers] = parts[..] else {
        return fail(
            "rules",
            format!("must be PLAYERS;WHEEL;JOKERS such as \"2;ye,2,lg/...;1,1,1,1\", not {text:?}"),
        );
    };
    let players = number(players, "rules", "players", 4)? as u8;
    let rounds: Vec<Vec<&str>> = wheel.split('/').map(|r| r.split(',').collect()).collect();
    let wheel = crate::rules::Wheel::from_names(&rounds)
        .or_else(|e| fail("rules", format!("wheel: {e}")))?;
    let j: Vec<&str> = jokers.split(',').collect();
    let [fountain, statue, bench, pavilion] = j[..] else {
        return fail("rules", "jokers must be FOUNTAIN,STATUE,BENCH,PAVILION");
    };
    let joker =
        |n: &str| number(n, "rules", "a joker reward", u32::from(Jokers::MAX)).map(|n| n as u8);
    let jokers = Jokers {
        fountain: joker(fountain)?,
        statue: joker(statue)?,
        bench: joker(bench)?,
        pavilion: joker(pavilion)?,
    };
    Rules::new(players, wheel, jokers).or_else(|e| fail("rules", e.to_string()))
}

fn read_passes(
    text: &str,
    players: usize,
    state: &mut serde_json::Map<String, Value>,
) -> Result<(), RecordError> {
    let marks: Vec<char> = text.chars().collect();
    if marks.len() != players || marks.iter().any(|c| !matches!(c, '-' | 'p' | 'P')) {
        return fail(
            "passed",
            format!(
                "must give one of -, p, P (passed first) for each of the {players} seats, not {text:?}"
            ),
        );
    }
    let firsts: Vec<usize> = (0..players).filter(|&s| marks[s] == 'P').collect();
    let first_passer = match firsts[..] {
        [] => u32::from(NOBODY),
        [s] => s as u32,
        _ => return fail("passed", "only one seat passed first"),
    };
    let mut passed = [false; MAX_PLAYERS];
    for (s, &c) in marks.iter().enumerate() {
        passed[s] = c != '-';
    }
    state.insert("passed".into(), json!(passed));
    state.insert("first_passer".into(), json!(first_passer));
    Ok(())
}

fn read_finals(text: &str, over: bool, players: usize) -> Result<Value, RecordError> {
    let mut finals = vec![json!([0, 0, 0]); MAX_PLAYERS];
    if !over {
        if text != "-" {
            return fail(
                "final",
                "the game is not over: no final scoring yet (\"-\")",
            );
        }
        return Ok(json!(finals));
    }
    for (s, item) in seats(text, "final", players)?.into_iter().enumerate() {
        let parts: Vec<&str> = item.split(',').collect();
        let [storage, groups, bonus] = parts[..] else {
            return fail(
                "final",
                format!("seat {s}: {item:?} is not STORAGE,GROUPS,BONUS"),
            );
        };
        let Some(storage) = storage
            .parse::<i32>()
            .ok()
            .filter(|n| n.to_string() == storage && n.unsigned_abs() <= COUNT_LIMIT)
        else {
            return fail(
                "final",
                format!("seat {s}: the storage points {storage:?} are not a number"),
            );
        };
        finals[s] = json!([
            storage,
            number(groups, "final", "group points", COUNT_LIMIT)?,
            number(bonus, "final", "bonus points", COUNT_LIMIT)?
        ]);
    }
    Ok(json!(finals))
}

fn read_storages(text: &str, players: usize) -> Result<Value, RecordError> {
    let empty = json!({"tiles": [], "jokers": crate::position::START_JOKERS, "expansions": []});
    let mut out = vec![empty; MAX_PLAYERS];
    for (s, item) in seats(text, "storages", players)?.into_iter().enumerate() {
        let parts: Vec<&str> = item.split(';').collect();
        let [jokers, tiles, exps] = parts[..] else {
            return fail(
                "storages",
                format!("seat {s}: {item:?} is not JOKERS;TILES;EXPANSIONS"),
            );
        };
        let tiles = kinds(tiles, "storages")?;
        let exps = kinds(exps, "storages")?;
        let jokers = number(jokers, "storages", "jokers", 12)?;
        let canonical = {
            let mut st = Storage::with_jokers(0);
            for &k in &tiles {
                st.add_tile(k);
            }
            kind_names(st.tiles()) == kind_names(tiles.iter().copied())
                && exps.windows(2).all(|w| w[0] < w[1])
        };
        if !canonical {
            return fail(
                "storages",
                format!("seat {s}: tiles and expansions are listed in id order"),
            );
        }
        out[s] = json!({
            "tiles": tiles.iter().map(|k| k.id()).collect::<Vec<_>>(),
            "jokers": jokers,
            "expansions": exps.iter().map(|k| k.id()).collect::<Vec<_>>(),
        });
    }
    Ok(json!(out))
}

fn read_gardens(text: &str, players: usize) -> Result<Value, RecordError> {
    let empty = json!({"areas": [null, null, null, null, null, null], "tiles": []});
    let mut out = vec![empty; MAX_PLAYERS];
    for (s, item) in seats(text, "gardens", players)?.into_iter().enumerate() {
        let bad = |what: &str| fail("gardens", format!("seat {s}: {what}"));
        let Some((areas, tiles)) = item.split_once(';') else {
            return bad("a garden is AREAS;TILES");
        };
        let areas: Vec<&str> = areas.split(',').collect();
        if areas.len() != 6 {
            return bad("a garden lists its 6 areas, each -, d or KIND@PETAL");
        }
        let mut area_json = Vec::new();
        for a in areas {
            area_json.push(match a {
                "-" => Value::Null,
                "d" => json!("down"),
                _ => {
                    let Some((k, petal)) = a.split_once('@') else {
                        return bad(&format!("{a:?} is not -, d or KIND@PETAL"));
                    };
                    json!([
                        kind(k, "gardens")?.id(),
                        number(petal, "gardens", "a petal", 5)?
                    ])
                }
            });
        }
        let mut tile_json = Vec::new();
        let mut last: Option<Cell> = None;
        for t in split(tiles, ",") {
            let Some((cell, k)) = t.split_once('=') else {
                return bad(&format!("{t:?} is not CELL=KIND"));
            };
            let Ok(cell) = cell.parse::<Cell>() else {
                return bad(&format!("{cell:?} is not a cell"));
            };
            if last.is_some_and(|l| l.index() >= cell.index()) {
                return bad("tiles are listed once per cell, in cell order");
            }
            last = Some(cell);
            tile_json.push(json!([cell.index(), kind(k, "gardens")?.id()]));
        }
        out[s] = json!({"areas": area_json, "tiles": tile_json});
    }
    Ok(json!(out))
}

fn read_display(
    text: &str,
    rules: Rules,
    state: &mut serde_json::Map<String, Value>,
) -> Result<(), RecordError> {
    let size = usize::from(rules.stack_size());
    let items: Vec<&str> = text.split('/').collect();
    if items.len() != size {
        return fail(
            "display",
            format!("must give the {size} slots of the round's stack joined by /"),
        );
    }
    let mut slots = [0u8; crate::position::MAX_STACK];
    let mut slot_tiles = [[0u8; 4]; crate::position::MAX_STACK];
    let mut slot_len = [0u8; crate::position::MAX_STACK];
    let mut top = size;
    for (s, item) in items.into_iter().enumerate() {
        let (letter, tiles) = item.split_once(':').unwrap_or((item, "-"));
        let state_index = match letter {
            "s" => 0,
            "d" => 1,
            "u" => 2,
            "g" => 3,
            _ => {
                return fail(
                    "display",
                    format!("slot {s}: {item:?} is not s, d, u or g (then :TILES)"),
                );
            }
        };
        let tiles = kinds(tiles, "display")?;
        if tiles.len() > 4 || item.contains(':') && tiles.is_empty() {
            return fail(
                "display",
                format!("slot {s} carries 1 to 4 tiles after the colon"),
            );
        }
        if state_index == 0 && top == size {
            top = s;
        }
        slots[s] = state_index;
        slot_len[s] = tiles.len() as u8;
        for (slot, k) in slot_tiles[s].iter_mut().zip(&tiles) {
            *slot = k.id();
        }
    }
    state.insert("slots".into(), json!(slots));
    state.insert("slot_tiles".into(), json!(slot_tiles));
    state.insert("slot_len".into(), json!(slot_len));
    state.insert("top".into(), json!(top));
    Ok(())
}

/// The 36 places: the expansions seen, the places of those nobody has seen, and their kinds.
#[allow(clippy::type_complexity)]
fn read_expansions(
    text: &str,
    state: &mut serde_json::Map<String, Value>,
) -> Result<([u8; EXPANSION_TOTAL], Vec<usize>, Vec<Kind>), RecordError> {
    let items: Vec<&str> = text.split(',').collect();
    if items.len() != EXPANSION_TOTAL {
        return fail(
            "expansions",
            format!(
                "must give the {EXPANSION_TOTAL} places joined by , (a kind, or ? where nobody has seen it)"
            ),
        );
    }
    let mut expansions = [0u8; EXPANSION_TOTAL];
    let mut seen = [false; KIND_COUNT];
    let mut hidden_places = Vec::new();
    let mut revealed = 0u64;
    for (i, item) in items.into_iter().enumerate() {
        if item == "?" {
            hidden_places.push(i);
            continue;
        }
        let k = kind(item, "expansions")?;
        if std::mem::replace(&mut seen[usize::from(k.id())], true) {
            return fail("expansions", format!("{k} is listed twice"));
        }
        expansions[i] = k.id();
        revealed |= 1 << i;
    }
    let hidden: Vec<Kind> = Kind::all().filter(|k| !seen[usize::from(k.id())]).collect();
    state.insert("revealed".into(), json!(revealed));
    Ok((expansions, hidden_places, hidden))
}

fn read_moves(text: &str, state: &mut serde_json::Map<String, Value>) -> Result<(), RecordError> {
    let (count, last) = match text.split_once(':') {
        Some((count, last)) => (count, Some(last)),
        None => (text, None),
    };
    let count = number(count, "moves", "the moves played", COUNT_LIMIT)?;
    let last = match last {
        None => Value::Null,
        Some(m) => {
            let written = m.replace('_', " ");
            match Move::parse(&written) {
                Ok(mv) if mv.to_string() == written => json!(written),
                _ => {
                    return fail(
                        "moves",
                        format!("{m:?} is not a move in its canonical form, spaces written _"),
                    );
                }
            }
        }
    };
    state.insert("moves_played".into(), json!(count));
    state.insert("last_move".into(), last);
    Ok(())
}

#[cfg(test)]
mod tests;
