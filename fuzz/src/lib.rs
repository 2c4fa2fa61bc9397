//! The checks behind the fuzz targets of `indigo-game` (see `docs/hardening.md`).
//!
//! * [`record`]: any bytes given to the record reader give a game or an error, never a panic;
//!   a record that reads writes back and reads again to the same game.
//! * [`differential`]: bytes choose the rules, the pile and a sequence of plays, undos and
//!   probes; after every step the core's snapshot and legal moves must equal those of
//!   [`reference::RefGame`], an engine written separately from docs/spec/RULES.md.
//!
//! * [`qg::record`]: the same for Queen's Garden records, plus the move-notation parser on
//!   every line of the input (see [`qg`]).
//! * [`qg_state::state`]: Queen's Garden's saved states, as given or forged from a played
//!   game: never a panic, and an accepted state keeps the invariants play relies on.
//! * [`position::indigo`], [`position::queens_garden`]: positions as text, for both games:
//!   never a panic, an accepted text is its position's one text, and the position plays on.
//!
//! A failed check panics: that is how libFuzzer learns of it.
#![allow(clippy::missing_panics_doc)]

pub mod position;
pub mod qg;
pub mod qg_state;
pub mod reference;

use std::fmt::Write;

use indigo_game::TILE_COUNTS;
use indigo_game::{Cell, Game, GateVariant, Move, PathEnd, Position, Rules, TieBreak, TileType};
use indigo_game::{read_record, read_record_value, snapshot, write_record};
use serde_json::Value;

use reference::{Outcome, PackedState, RefGame, RefMove, State, canonical_rotation};

/// Reads arbitrary bytes as a record, checking that the reader never panics and that an
/// accepted record round-trips.
pub fn record(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let from_text = read_record(&text);
    // Reading parsed JSON must agree with reading the text.
    if let Ok(value) = serde_json::from_str::<Value>(&text) {
        let from_value = read_record_value(&value);
        match (&from_text, &from_value) {
            (Ok(a), Ok(b)) => assert_same_game(a, b),
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("text and value readers disagree: {from_text:?} / {from_value:?}"),
        }
    }
    match from_text {
        Ok(game) => assert_round_trip(&game),
        Err(e) => assert!(!e.message.is_empty() && !e.to_string().is_empty()),
    }
}

fn assert_same_game(a: &Game, b: &Game) {
    assert_eq!(a.position(), b.position());
    assert_eq!(a.initial(), b.initial());
    assert!(a.moves().eq(b.moves()));
    assert_eq!(a.seed(), b.seed());
    assert_eq!(a.rules(), b.rules());
}

/// A game's record reads back to the same game, and writes again to the same text.
fn assert_round_trip(game: &Game) {
    let text = write_record(game).to_string();
    let back = read_record(&text).unwrap_or_else(|e| panic!("own record refused: {e}\n{text}"));
    assert_same_game(game, &back);
    assert_eq!(write_record(&back).to_string(), text);
}

/// The 8 rule configurations: players, hand size, exclusive 3-player gates.
const CONFIGS: [(u8, u8, bool); 8] = [
    (2, 1, false),
    (2, 2, false),
    (3, 1, false),
    (3, 2, false),
    (3, 1, true),
    (3, 2, true),
    (4, 1, false),
    (4, 2, false),
];
/// Steps per input at most (plays, undos and probes).
const MAX_STEPS: usize = 300;

/// The input as a stream of bytes; once it runs out, a pseudo-random continuation fixed by
/// the input, so that every input plays a whole game.
struct Choices<'a> {
    data: &'a [u8],
    state: u64,
}

impl<'a> Choices<'a> {
    fn new(data: &'a [u8]) -> Self {
        // FNV-1a of the input seeds the continuation.
        let state = data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        Choices { data, state }
    }

    fn byte(&mut self) -> u8 {
        if let Some((&b, rest)) = self.data.split_first() {
            self.data = rest;
            return b;
        }
        // splitmix64
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 56) as u8
    }

    fn below(&mut self, n: usize) -> usize {
        usize::from(u16::from_be_bytes([self.byte(), self.byte()])) % n
    }
}

/// Plays the game the bytes describe on the core and on the reference, comparing them after
/// every step.
///
/// Layout: one byte of rules (configuration `b % 8`, tie-break "shared" if `b & 8`), then one
/// byte per pile position picking among the tiles left (box in type order), then steps. A
/// step's first byte `op` says: `op % 16 == 15` undo, `14` probe a move given by the next four
/// bytes, else play the legal move chosen by the next two bytes (big-endian, modulo the list's
/// length) at the equivalent rotation number `op / 16`.
pub fn differential(data: &[u8]) {
    let mut input = Choices::new(data);
    let head = input.byte();
    let (players, hand_size, exclusive) = CONFIGS[usize::from(head % 8)];
    let most_gems = head & 8 == 0;
    let mut left: Vec<u8> = (0..5u8)
        .flat_map(|t| std::iter::repeat_n(t, usize::from(TILE_COUNTS[usize::from(t)])))
        .collect();
    let mut pile = Vec::with_capacity(left.len());
    while !left.is_empty() {
        let i = usize::from(input.byte()) % left.len();
        pile.push(left.remove(i));
    }

    let rules = Rules::new(players, hand_size)
        .expect("a valid configuration")
        .with_three_player_gates(if exclusive {
            GateVariant::Exclusive
        } else {
            GateVariant::Shared
        })
        .with_tie_break(if most_gems {
            TieBreak::MostGems
        } else {
            TieBreak::Shared
        });
    let tiles: Vec<TileType> = pile
        .iter()
        .filter_map(|&t| TileType::from_index(t))
        .collect();
    let mut game = Game::from_pile(rules, &tiles).expect("a permutation of the box");
    let mut reference = RefGame::new(
        usize::from(players),
        usize::from(hand_size),
        exclusive,
        most_gems,
        &pile,
    );
    let (mut history, mut packed) = (UndoCopies::default(), Packed::default());
    packed.compare(&game, &reference, || "set-up".to_owned());

    for step in 0..MAX_STEPS {
        let op = input.byte();
        match op % 16 {
            15 if !history.copies.is_empty() => {
                assert!(game.undo().is_some());
                history.undo(&mut reference);
                packed.compare(&game, &reference, || format!("undo at step {step}"));
            }
            14 => probe(&game, &reference, &mut input),
            _ => {
                if reference.is_over() {
                    break;
                }
                let legal = reference.legal_moves();
                let core_legal = game.position().legal_moves();
                let core_move =
                    |m: &Move| (m.tile.index(), m.rotation.get(), m.cell.q(), m.cell.r());
                // Compared as packed integers (one memcmp, not a coverage callback on each
                // field of each move); the lists themselves explain a mismatch.
                let core_packed: Vec<u32> = core_legal.iter().map(|m| pack(core_move(m))).collect();
                if core_packed != legal.iter().copied().map(pack).collect::<Vec<u32>>() {
                    let core_legal: Vec<RefMove> = core_legal.iter().map(core_move).collect();
                    assert_eq!(core_legal, legal, "legal moves at step {step}");
                }
                let (tile, rho, q, r) = legal[input.below(legal.len())];
                let equivalent: Vec<u8> = (0..6)
                    .filter(|&x| canonical_rotation(tile, x) == rho)
                    .collect();
                let rotation = equivalent[usize::from(op / 16) % equivalent.len()];
                let mv = Move::from_parts(tile.into(), rotation.into(), q.into(), r.into())
                    .expect("a move in range");
                let before = *game.position();
                let effects = game
                    .play(mv)
                    .unwrap_or_else(|e| panic!("core refused legal {mv}: {e}"));
                let mut got: Vec<(usize, Outcome)> = effects
                    .paths
                    .iter()
                    .map(|p| {
                        let outcome = match p.end {
                            PathEnd::Rested(..) => Outcome::Rested,
                            PathEnd::Collected { gate, .. } => Outcome::Collected(gate.into()),
                            PathEnd::Collided(_) => Outcome::Collided,
                        };
                        (p.gem as usize, outcome)
                    })
                    .collect();
                // The unchecked fast path must do exactly what the checked one did.
                let mut fast = before;
                fast.play_unchecked(mv, &mut ());
                assert_eq!(&fast, game.position(), "apply and play differ on {mv}");
                history.push(&reference);
                reference.play((tile, rotation, q, r));
                let mut want = reference.events.clone();
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "gem outcomes of {mv} at step {step}");
                packed.compare(&game, &reference, || format!("{mv} at step {step}"));
            }
        }
    }
    check_end(&game, &reference);
}

/// The reference's copies to undo to, and undone ones whose buffers the next copy reuses.
#[derive(Default)]
struct UndoCopies {
    copies: Vec<RefGame>,
    spare: Vec<RefGame>,
}

impl UndoCopies {
    /// Keeps a copy of `reference` before a play.
    fn push(&mut self, reference: &RefGame) {
        self.copies.push(match self.spare.pop() {
            Some(mut copy) => {
                copy.copy_from(reference);
                copy
            }
            None => reference.clone(),
        });
    }

    /// Puts `reference` back as it was before the last play kept.
    fn undo(&mut self, reference: &mut RefGame) {
        if let Some(previous) = self.copies.pop() {
            self.spare.push(std::mem::replace(reference, previous));
        }
    }
}

/// A move as one integer, ordered as the tuple: tile, rotation, then `q` and `r` offset into
/// a byte each (cells are within 5 of the centre).
fn pack((tile, rotation, q, r): RefMove) -> u32 {
    let [.., q] = (q + 128).to_be_bytes();
    let [.., r] = (r + 128).to_be_bytes();
    u32::from_be_bytes([tile, rotation, q, r])
}

/// At the end of an input: the legal lists, the snapshots and the record round trip.
fn check_end(game: &Game, reference: &RefGame) {
    assert_eq!(
        game.position().legal_moves().len(),
        reference.legal_moves().len()
    );
    compare_snapshots(game, reference, "the end");
    assert_round_trip(game);
}

/// Any move value: the core's check agrees with the reference's rules.
fn probe(game: &Game, reference: &RefGame, input: &mut Choices<'_>) {
    let tile = input.byte() % 5;
    let rotation = input.byte() % 6;
    let q = i32::from(input.byte() % 11) - 5;
    let r = i32::from(input.byte() % 11) - 5;
    match Move::from_parts(tile.into(), rotation.into(), q.into(), r.into()) {
        Ok(mv) => assert_eq!(
            game.position().check(mv).is_ok(),
            reference.is_legal((tile, rotation, q, r)),
            "legality of {mv}"
        ),
        Err(_) => assert!(q.abs().max(r.abs()).max((q + r).abs()) > 4),
    }
}

/// The core's position as the reference's [`State`].
fn core_state(position: &Position) -> State {
    let players = usize::from(position.rules().players());
    State {
        to_move: position.to_move().map(usize::from),
        board: Cell::all()
            .filter_map(|cell| {
                position
                    .tile_at(cell)
                    .map(|(tile, rotation)| ((cell.q(), cell.r()), tile.index(), rotation))
            })
            .collect(),
        gems: position
            .gems()
            .map(|(cell, edge, gem)| ((cell.q(), cell.r()), edge, gem as usize))
            .collect(),
        centre: position.centre().iter().map(|&g| g as usize).collect(),
        scores: position.scores()[..players]
            .iter()
            .map(|&s| u32::from(s))
            .collect(),
        collected: position.collected()[..players]
            .iter()
            .map(|c| c.map(u32::from))
            .collect(),
        removed: u32::from(position.removed()),
        hands: (0..position.rules().players())
            .map(|seat| position.hand(seat).map(TileType::index).collect())
            .collect(),
        pile_left: usize::from(position.pile_left()),
        over: position.is_over(),
        winners: (0..players)
            .filter(|&s| position.winners() & (1 << s) != 0)
            .collect(),
    }
}

/// [`core_state`] written into `out` (cleared first), in [`RefGame::pack_state`]'s layout.
fn pack_core_state(position: &Position, out: &mut PackedState) {
    let players = usize::from(position.rules().players());
    out.clear();
    out.seat(position.to_move().map(usize::from));
    out.cells(Cell::all().filter_map(|cell| {
        position
            .tile_at(cell)
            .map(|(tile, rotation)| ((cell.q(), cell.r()), tile.index(), rotation))
    }));
    out.cells(
        position
            .gems()
            .map(|(cell, edge, gem)| ((cell.q(), cell.r()), edge, gem as u8)),
    );
    out.list(position.centre().iter().map(|&g| g as u32));
    out.list(position.scores()[..players].iter().map(|&s| u32::from(s)));
    out.list(
        position.collected()[..players]
            .iter()
            .flat_map(|c| c.map(u32::from)),
    );
    out.word(u32::from(position.removed()));
    out.word(u32::from(position.rules().players()));
    for seat in 0..position.rules().players() {
        out.list(position.hand(seat).map(|t| u32::from(t.index())));
    }
    out.word(u32::from(position.pile_left()));
    out.word(u32::from(position.is_over()));
    out.list(
        (0..players)
            .filter(|&s| position.winners() & (1 << s) != 0)
            .map(|s| s as u32),
    );
}

/// The two sides' packed states, buffers kept from step to step.
#[derive(Default, Debug)]
struct Packed {
    core: PackedState,
    reference: PackedState,
}

impl Packed {
    /// The core and the reference agree on the position. Packed states are compared after every
    /// step (building JSON snapshots each time took most of an execution, and plain-value
    /// [`State`]s a coverage callback per field); on a mismatch the [`State`]s and the snapshots
    /// say what differs, and the snapshots themselves are compared at the end.
    fn compare(&mut self, game: &Game, reference: &RefGame, when: impl Fn() -> String) {
        pack_core_state(game.position(), &mut self.core);
        reference.pack_state(&mut self.reference);
        if self.core != self.reference {
            let (got, want) = (core_state(game.position()), reference.state());
            let when = when();
            if got != want {
                compare_snapshots(game, reference, &when);
                panic!(
                    "{when}: the core and the reference differ\n  core {got:?}\n  reference {want:?}"
                );
            }
            panic!("{when}: the packed states differ, the states agree: {self:?}");
        }
    }
}

fn compare_snapshots(game: &Game, reference: &RefGame, when: &str) {
    let got = snapshot(game.position(), None, false);
    let want = reference.snapshot();
    if got != want {
        let mut diff = String::new();
        if let (Value::Object(g), Value::Object(w)) = (&got, &want) {
            for (key, value) in w {
                if g.get(key) != Some(value) {
                    let core = g
                        .get(key)
                        .map_or_else(|| "missing".into(), Value::to_string);
                    let _ = write!(diff, "\n  {key}: core {core}\n  {key}: reference {value}");
                }
            }
        }
        panic!("{when}: the core and the reference differ{diff}");
    }
}
