//! The checks behind the `qg_state` fuzz target: the reader of Queen's Garden's
//! `queens-garden-state/1` (what a pickle of `indigo.queens_garden.Game` holds).
//!
//! Input that is JSON text is read as a state as it is. Other input forges one: its first
//! bytes choose the players, a seed and how far a game is played (by a policy those bytes fix),
//! whether the state starts at the set-up (with the moves) or at that position (a mid-game
//! state, as `resample` makes); then each 3 bytes set one number or flag of the state to a
//! value from a list of edge values. Nothing may panic, and a state that reads must keep every
//! invariant play relies on: it writes back to the same game; every legal move plays, keeps
//! the 108 tiles and 36 expansions, and leads to a position whose own state reads; a
//! redrawing of the hidden information leaves the legal moves as they are; the fast playout
//! policy's moves are legal and play the game to its end.

use queens_garden::{Chance, Game, IllegalMove, OBSERVATION_SIZE, Position, Rules};
use serde_json::Value;

/// See the module docs.
pub fn state(data: &[u8]) {
    let state = match serde_json::from_slice::<Value>(data) {
        Ok(value) => value,
        Err(_) => forge(data),
    };
    match Game::from_state(&state) {
        Ok(game) => check_accepted(&game),
        Err(e) => assert!(!e.message.is_empty()),
    }
}

/// A small generator fixed by the input.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let (&first, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        first
    }
}

/// Values a forged field takes: the edges of every count, index and limit of the state.
const EDGES: [i64; 20] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 15, 27, 35, 36, 100, 107, 108, 255, -1,
];

fn forge(data: &[u8]) -> Value {
    let mut bytes = Bytes(data);
    let players = 2 + bytes.next() % 3;
    let seed = u64::from(bytes.next());
    let plies = usize::from(bytes.next()) * 2;
    let flags = bytes.next();
    let mut game = Game::from_seed(Rules::with_players(players).unwrap(), seed);
    let mut pick = u64::from(flags) << 8 | seed;
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        pick = pick
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        // Mostly not the last move (pass), so that rounds run long.
        let i = (pick >> 33) as usize % moves.len();
        let mv = if i + 1 == moves.len() && pick & 7 != 0 {
            moves[0]
        } else {
            moves[i]
        };
        game.play(&mv).unwrap();
    }
    let mut state = if flags & 1 == 0 {
        game.to_state()
    } else {
        Game::from_position(game.position().clone()).to_state()
    };
    let mut leaves = Vec::new();
    collect_leaves(&state, &mut Vec::new(), &mut leaves);
    while !bytes.0.is_empty() && !leaves.is_empty() {
        let index = usize::from(bytes.next()) << 8 | usize::from(bytes.next());
        let value = bytes.next();
        let path = &leaves[index % leaves.len()];
        let leaf = path.iter().fold(&mut state, |at, key| match key {
            Key::Name(name) => &mut at[name.as_str()],
            Key::Index(i) => &mut at[*i],
        });
        *leaf = match (value, &*leaf) {
            (0xF0.., _) => Value::Bool(value & 1 == 1),
            (_, Value::Number(n)) if value & 0x80 != 0 => {
                let n = n.as_i64().unwrap_or(0);
                (n + i64::from(value & 1) * 2 - 1).into()
            }
            _ => EDGES[usize::from(value) % EDGES.len()].into(),
        };
    }
    state
}

#[derive(Clone)]
enum Key {
    Name(String),
    Index(usize),
}

/// The paths to every number and flag of `value`.
fn collect_leaves(value: &Value, path: &mut Vec<Key>, out: &mut Vec<Vec<Key>>) {
    match value {
        Value::Number(_) | Value::Bool(_) | Value::Null => {
            out.push(path.clone());
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Key::Index(i));
                collect_leaves(item, path, out);
                path.pop();
            }
        }
        Value::Object(fields) => {
            for (name, item) in fields {
                path.push(Key::Name(name.clone()));
                collect_leaves(item, path, out);
                path.pop();
            }
        }
        Value::String(_) => {}
    }
}

/// Whether playing can fail here: only for want of a refill a record's list does not hold.
fn may_lack_refills(position: &Position) -> bool {
    matches!(position.chance(), Chance::Listed(_))
}

fn check_accepted(game: &Game) {
    let state = game.to_state();
    let back = Game::from_state(&state).unwrap_or_else(|e| panic!("own state refused: {e}"));
    assert_eq!(back.position(), game.position());
    assert_eq!(back.initial(), game.initial());
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.to_state(), state);
    let position = game.position();
    let _ = game.snapshot(true);
    let mut observation = vec![0.0; OBSERVATION_SIZE];
    for seat in 0..position.rules().players() {
        position.observation(seat, &mut observation);
    }
    let moves = position.legal_moves();
    assert_eq!(moves.is_empty(), position.is_over());
    let mut next = 7u64;
    let mut below = |n: usize| {
        next = next
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (next >> 33) as usize % n
    };
    assert_eq!(
        position.resample(&mut below, 5).legal_moves(),
        moves,
        "redrawing what nobody has seen changed the legal moves"
    );
    for mv in moves.iter().step_by(moves.len() / 48 + 1) {
        let mut after = game.clone();
        match after.play(mv) {
            Ok(()) => {}
            Err(IllegalMove::Refill(_)) if may_lack_refills(position) => continue,
            Err(e) => panic!("the legal {mv} does not play: {e}"),
        }
        let p = after.position();
        assert_eq!((p.tile_total(), p.expansion_total()), (108, 36));
        let own = Game::from_position(p.clone()).to_state();
        if let Err(e) = Game::from_state(&own) {
            panic!("after {mv} the position's own state is refused: {e}");
        }
    }
    play_out(game.clone(), &mut below);
}

/// Plays the fast playout policy to the end: each of its moves is legal and plays.
fn play_out(mut game: Game, below: &mut impl FnMut(usize) -> usize) {
    // No game is longer than 392 moves (QUEENS_GARDEN.md section 14).
    let mut left = 392;
    while let Some(mv) = game.position().playout_move(below) {
        assert!(
            game.legal_moves().contains(&mv),
            "the playout chose {mv}, which is not legal"
        );
        match game.play(&mv) {
            Ok(()) => {}
            Err(IllegalMove::Refill(_)) if may_lack_refills(game.position()) => return,
            Err(e) => panic!("the playout's {mv} does not play: {e}"),
        }
        assert!(left > 0, "the playout did not end");
        left -= 1;
    }
    assert!(game.position().is_over());
    let own = Game::from_position(game.position().clone()).to_state();
    if let Err(e) = Game::from_state(&own) {
        panic!("the played-out position's own state is refused: {e}");
    }
}
