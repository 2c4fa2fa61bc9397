//! A position as one line of text (docs/notation.md, "Positions as text"): everything a seat
//! needs to play on (rules, board, gems, scores, hands, the tiles left to draw as counts, whose
//! turn), with the pile's order left out. [`Position::to_text`] writes it;
//! [`Position::from_text`] reads it, drawing the pile's order from a seed, and
//! [`Position::from_text_with_pile`] takes that order given. Reading checks every field and
//! every invariant play keeps (54 tiles, 12 gems, points, hand sizes, whose turn), naming the
//! field that breaks one; every position has exactly one text.

use std::fmt::Write as _;

use pyrandom::PyRandom;

use super::placement::REST_HERE;
use super::{CENTRE_ORDER, CHANCE, MAX_PLAYERS, NO_TILE, NOBODY, Phase, Position, SLOT_MASK};
use crate::board::{ACROSS, CENTRE_FACING, Cell, ROUTE_CELLS, ROUTE_SLOT};
use crate::gem::Gem;
use crate::moves::Move;
use crate::record::{ErrorAt, RecordError};
use crate::rng::box_in_type_order;
use crate::rules::{GateVariant, Rules, Theme, TieBreak};
use crate::tile::{TILE_COUNTS, TILE_TOTAL, TILE_TYPE_COUNT, TileType, canonical_code};

/// The fields of a position's text, in order.
const FIELDS: [&str; 9] = [
    "rules", "board", "gems", "centre", "removed", "scores", "hands", "pile", "turn",
];

/// Gems of each colour in the game: amber, emerald, sapphire.
const GEMS_BY_COLOUR: [u8; 3] = [6, 5, 1];

fn fail<T>(field: &'static str, message: impl Into<String>) -> Result<T, RecordError> {
    Err(RecordError {
        at: ErrorAt::Field(field.into()),
        message: message.into(),
    })
}

/// `text` as a number `0..=max` written the one way it is written (no sign, no leading zero).
fn number(text: &str, field: &'static str, what: &str, max: u32) -> Result<u32, RecordError> {
    match text.parse::<u32>() {
        Ok(n) if n <= max && n.to_string() == text => Ok(n),
        _ => fail(
            field,
            format!("{what} must be a number 0..{max} written plainly, not {text:?}"),
        ),
    }
}

/// A list field: `-` for none, else items separated by `/`.
fn items(text: &str) -> impl Iterator<Item = &str> {
    (text != "-").then(|| text.split('/')).into_iter().flatten()
}

/// `-` for no items, else the items joined by `/`.
fn push_items(out: &mut String, items: impl IntoIterator<Item = String>) {
    let items: Vec<String> = items.into_iter().collect();
    if items.is_empty() {
        out.push('-');
    } else {
        out.push_str(&items.join("/"));
    }
}

const fn gem_letter(gem: Gem) -> char {
    match gem {
        Gem::Amber => 'a',
        Gem::Emerald => 'e',
        Gem::Sapphire => 's',
    }
}

fn gem_of(letter: char) -> Option<Gem> {
    Gem::ALL.into_iter().find(|&g| gem_letter(g) == letter)
}

/// A cell `q,r` written as [`Move`] writes it.
fn cell_of(text: &str) -> Option<Cell> {
    let (q, r) = text.split_once(',')?;
    let cell = Cell::new(q.parse().ok()?, r.parse().ok()?)?;
    (format!("{},{}", cell.q(), cell.r()) == text).then_some(cell)
}

/// How many tiles each seat holds after `placed` placements played in turn from the deal,
/// the last of them ending the game (`ended`: its mover drew none) or not.
fn hand_sizes(rules: Rules, placed: usize, ended: bool) -> [u8; MAX_PLAYERS] {
    let n = usize::from(rules.players());
    let h = usize::from(rules.hand_size());
    let held = |placed: usize| -> [u8; MAX_PLAYERS] {
        // After the pile runs out the seats play their hands empty in turn from `placed % n`.
        let left = TILE_TOTAL - placed;
        std::array::from_fn(|seat| {
            if seat >= n {
                0
            } else if left >= n * h {
                h as u8
            } else {
                let k = (seat + n - placed % n) % n;
                left.saturating_sub(k).div_ceil(n) as u8
            }
        })
    };
    if !ended {
        return held(placed);
    }
    let mut sizes = held(placed - 1);
    sizes[(placed - 1) % n] -= 1;
    sizes
}

/// The fields of a position's text, read and checked one by one.
struct Parsed {
    rules: Rules,
    board: Vec<Move>,
    gems: Vec<(Cell, u8, Gem)>,
    released: u8,
    removed: u8,
    collected: [[u8; 3]; MAX_PLAYERS],
    hands: [Vec<TileType>; MAX_PLAYERS],
    pile: [u8; TILE_TYPE_COUNT],
    phase: Phase,
}

fn read_rules(text: &str) -> Result<Rules, RecordError> {
    let parts: Vec<&str> = text.split(',').collect();
    let [theme, players, hand_size, gates, tie_break, hands] = parts[..] else {
        return fail(
            "rules",
            format!(
                "must be THEME,PLAYERS,HAND_SIZE,GATES,TIE_BREAK,HANDS such as \
                 \"indigo,2,1,shared,most-gems,closed\", not {text:?}"
            ),
        );
    };
    let theme: Theme = theme
        .parse()
        .or_else(|e| fail("rules", format!("theme {e}")))?;
    let players = number(players, "rules", "players", 4)? as u8;
    let hand_size = number(hand_size, "rules", "hand size", 2)? as u8;
    let rules = Rules::new(players, hand_size).or_else(|e| fail("rules", e.to_string()))?;
    let gates: GateVariant = gates
        .parse()
        .or_else(|e| fail("rules", format!("gates {e}")))?;
    let tie_break: TieBreak = tie_break
        .parse()
        .or_else(|e| fail("rules", format!("tie break {e}")))?;
    let open = match hands {
        "open" => true,
        "closed" => false,
        _ => {
            return fail(
                "rules",
                format!("hands must be open or closed, not {hands:?}"),
            );
        }
    };
    Ok(rules
        .with_theme(theme)
        .with_three_player_gates(gates)
        .with_tie_break(tie_break)
        .with_open_hands(open))
}

fn read_board(text: &str) -> Result<Vec<Move>, RecordError> {
    let mut board: Vec<Move> = Vec::new();
    for item in items(text) {
        let Ok(mv) = item.parse::<Move>() else {
            return fail("board", format!("{item:?} is not a tile written T@R:Q,R"));
        };
        if mv.to_string() != item || mv.canonical() != mv {
            return fail(
                "board",
                format!(
                    "{item:?} must be written {} (its canonical rotation)",
                    mv.canonical()
                ),
            );
        }
        if !mv.cell.is_route() {
            return fail(
                "board",
                format!("{item}: cell {} is not a route cell", mv.cell),
            );
        }
        if board.last().is_some_and(|last| last.cell >= mv.cell) {
            return fail(
                "board",
                format!("{item}: tiles are listed once per cell, cells in (q, r) order"),
            );
        }
        if mv.joins_gate_exits() {
            return fail(
                "board",
                format!("{item} joins its gate's two exits, which no placement may do"),
            );
        }
        board.push(mv);
    }
    Ok(board)
}

fn read_gems(text: &str) -> Result<Vec<(Cell, u8, Gem)>, RecordError> {
    let mut gems: Vec<(Cell, u8, Gem)> = Vec::new();
    for item in items(text) {
        let mut chars = item.chars();
        let gem = chars.next().and_then(gem_of);
        let rest = chars.as_str();
        let spot = rest.strip_prefix('@').and_then(|r| r.split_once(':'));
        let (Some(gem), Some((edge, cell))) = (gem, spot) else {
            return fail(
                "gems",
                format!("{item:?} is not a gem written G@EDGE:Q,R such as \"a@3:1,-4\""),
            );
        };
        let edge = number(edge, "gems", "an edge", 5)? as u8;
        let Some(cell) = cell_of(cell) else {
            return fail(
                "gems",
                format!("{item}: {cell:?} is not a cell of the board"),
            );
        };
        if gems.last().is_some_and(|&(c, e, _)| (c, e) >= (cell, edge)) {
            return fail(
                "gems",
                format!("{item}: gems are listed once per place, in (q, r, edge) order"),
            );
        }
        gems.push((cell, edge, gem));
    }
    Ok(gems)
}

fn read_centre(text: &str) -> Result<u8, RecordError> {
    let held = if text == "-" { "" } else { text };
    let order: String = CENTRE_ORDER.iter().map(|&g| gem_letter(g)).collect();
    match order.strip_suffix(held) {
        Some(out) if !held.is_empty() || text == "-" => Ok(out.len() as u8),
        _ => fail(
            "centre",
            format!(
                "must be the gems left in the centre in release order, an ending of \
                 {order:?} (\"-\" when empty), not {text:?}"
            ),
        ),
    }
}

fn read_scores(text: &str, players: usize) -> Result<[[u8; 3]; MAX_PLAYERS], RecordError> {
    let seats: Vec<&str> = text.split('/').collect();
    if seats.len() != players {
        return fail(
            "scores",
            format!("must give {players} seats as POINTS:AMBER,EMERALD,SAPPHIRE joined by /"),
        );
    }
    let mut collected = [[0u8; 3]; MAX_PLAYERS];
    for (seat, item) in seats.into_iter().enumerate() {
        let parts = item
            .split_once(':')
            .map(|(p, g)| (p, g.split(',').collect::<Vec<_>>()));
        let Some((points, [a, e, s])) = parts.as_ref().map(|(p, g)| (*p, &g[..])) else {
            return fail(
                "scores",
                format!("seat {seat}: {item:?} is not POINTS:AMBER,EMERALD,SAPPHIRE"),
            );
        };
        let points = number(points, "scores", "points", 100)?;
        for (k, (n, total)) in [a, e, s].into_iter().zip(GEMS_BY_COLOUR).enumerate() {
            collected[seat][k] = number(n, "scores", Gem::ALL[k].as_str(), total.into())? as u8;
        }
        let worth: u32 = Gem::ALL
            .iter()
            .zip(collected[seat])
            .map(|(g, n)| u32::from(g.points()) * u32::from(n))
            .sum();
        if worth != points {
            return fail(
                "scores",
                format!("seat {seat}: its gems are worth {worth} points, not {points}"),
            );
        }
    }
    Ok(collected)
}

fn read_hands(text: &str, rules: Rules) -> Result<[Vec<TileType>; MAX_PLAYERS], RecordError> {
    let players = usize::from(rules.players());
    let seats: Vec<&str> = text.split('/').collect();
    if seats.len() != players {
        return fail(
            "hands",
            format!("must give {players} hands joined by / (\"-\" for an empty hand)"),
        );
    }
    let mut hands: [Vec<TileType>; MAX_PLAYERS] = Default::default();
    for (seat, item) in seats.into_iter().enumerate() {
        let tiles = if item == "-" { "" } else { item };
        let hand: Option<Vec<TileType>> = tiles
            .chars()
            .map(|c| c.to_digit(10).and_then(|d| TileType::from_index(d as u8)))
            .collect();
        let Some(hand) = hand.filter(|h| {
            (item == "-" || !h.is_empty())
                && h.len() <= usize::from(rules.hand_size())
                && h.windows(2).all(|w| w[0] <= w[1])
        }) else {
            return fail(
                "hands",
                format!(
                    "seat {seat}: {item:?} must be up to {} tile types 0..4 ascending, or \"-\"",
                    rules.hand_size()
                ),
            );
        };
        hands[seat] = hand;
    }
    Ok(hands)
}

fn read_pile(text: &str) -> Result<[u8; TILE_TYPE_COUNT], RecordError> {
    let counts: Vec<&str> = text.split(',').collect();
    if counts.len() != TILE_TYPE_COUNT {
        return fail(
            "pile",
            format!(
                "must give the tiles left of each type 0..4, such as \"14,6,13,14,6\", not {text:?}"
            ),
        );
    }
    let mut pile = [0u8; TILE_TYPE_COUNT];
    for (t, n) in counts.into_iter().enumerate() {
        pile[t] = number(
            n,
            "pile",
            &format!("tiles of type {t}"),
            TILE_COUNTS[t].into(),
        )? as u8;
    }
    Ok(pile)
}

fn read_turn(text: &str, players: u8) -> Result<Phase, RecordError> {
    let last = u32::from(players) - 1;
    match text {
        "-" => Ok(Phase::Over),
        _ => match text.strip_prefix('?') {
            Some(seat) => Ok(Phase::Draw(
                number(seat, "turn", "the drawing seat", last)? as u8
            )),
            None => Ok(Phase::Move(
                number(text, "turn", "the seat to move", last)? as u8
            )),
        },
    }
}

impl Parsed {
    fn read(text: &str) -> Result<Parsed, RecordError> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [
            rules,
            board,
            gems,
            centre,
            removed,
            scores,
            hands,
            pile,
            turn,
        ] = fields[..]
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
        Ok(Parsed {
            rules,
            board: read_board(board)?,
            gems: read_gems(gems)?,
            released: read_centre(centre)?,
            removed: number(removed, "removed", "the gems removed", 12)? as u8,
            collected: read_scores(scores, usize::from(rules.players()))?,
            hands: read_hands(hands, rules)?,
            pile: read_pile(pile)?,
            phase: read_turn(turn, rules.players())?,
        })
    }

    /// The invariants the fields keep together: 54 tiles, 12 gems, the centre's releases,
    /// whose turn and how many tiles each seat holds.
    fn check(&self) -> Result<(), RecordError> {
        // The 54 tiles: on the board, in the hands, in the pile.
        let mut tiles = self.pile;
        for t in self
            .board
            .iter()
            .map(|m| m.tile)
            .chain(self.hands.iter().flatten().copied())
        {
            tiles[t as usize] += 1;
        }
        if tiles != TILE_COUNTS {
            return fail(
                "pile",
                format!(
                    "the board, the hands and the pile hold {tiles:?} tiles of types 0..4, \
                     not the box's {TILE_COUNTS:?}"
                ),
            );
        }
        // The centre releases a gem each time a tile is laid next to it.
        let beside_centre = self
            .board
            .iter()
            .filter(|m| CENTRE_FACING[m.cell.index()] < 6)
            .count();
        if usize::from(self.released) != beside_centre {
            return fail(
                "centre",
                format!(
                    "{beside_centre} tiles lie next to the centre, so it has released \
                     {beside_centre} gems, not {}",
                    self.released
                ),
            );
        }
        // Gems rest on a tile's edge, looking at an empty route cell.
        for &(cell, edge, gem) in &self.gems {
            let on_tile = self.board.iter().any(|m| m.cell == cell)
                || (0..6).any(|d| Cell::corner(d) == cell);
            let across = cell.neighbour(edge);
            let looks_at_empty =
                across.is_some_and(|a| a.is_route() && self.board.iter().all(|m| m.cell != a));
            if !on_tile || !looks_at_empty {
                return fail(
                    "gems",
                    format!(
                        "{}@{edge}:{},{}: a gem rests only on the edge of a tile or corner, \
                         looking at an empty route cell",
                        gem_letter(gem),
                        cell.q(),
                        cell.r()
                    ),
                );
            }
        }
        self.check_gems()?;
        self.check_turn()
    }

    /// Whose turn it is, and how many tiles each seat holds.
    fn check_turn(&self) -> Result<(), RecordError> {
        let rules = self.rules;
        let players = usize::from(rules.players());
        let placed = self.board.len();
        let gems_left = self.gems.len() + CENTRE_ORDER.len() - usize::from(self.released);
        let (wanted, sizes) = match self.phase {
            Phase::Move(_) => {
                if placed == TILE_TOTAL || gems_left == 0 {
                    return fail("turn", "the game is over: no seat is to move (\"-\")");
                }
                (placed % players, hand_sizes(rules, placed, false))
            }
            Phase::Over => {
                if gems_left > 0 {
                    return fail(
                        "turn",
                        format!("{gems_left} gems are still in play: the game is not over"),
                    );
                }
                if placed == 0 {
                    return fail("board", "a game ends with a placement: the board is empty");
                }
                (usize::from(NOBODY), hand_sizes(rules, placed, true))
            }
            Phase::Draw(_) if placed == 0 => {
                let dealt: usize = self.hands.iter().map(Vec::len).sum();
                let h = usize::from(rules.hand_size());
                if dealt >= players * h {
                    return fail(
                        "turn",
                        "every hand is dealt: no seat draws before the first move",
                    );
                }
                let sizes = std::array::from_fn(|s| {
                    u8::from(s < players)
                        * (dealt / players + usize::from(s < dealt % players)) as u8
                });
                (dealt % players, sizes)
            }
            Phase::Draw(_) => {
                if gems_left == 0 || self.pile.iter().all(|&n| n == 0) {
                    return fail(
                        "turn",
                        "no seat draws: the game is over or the pile is empty",
                    );
                }
                ((placed - 1) % players, hand_sizes(rules, placed, true))
            }
        };
        if let Phase::Move(seat) | Phase::Draw(seat) = self.phase
            && usize::from(seat) != wanted
        {
            return fail(
                "turn",
                format!(
                    "with {placed} tiles on the board it is seat {wanted}'s turn, not seat {seat}'s"
                ),
            );
        }
        for (seat, hand) in self.hands[..players].iter().enumerate() {
            if hand.len() != usize::from(sizes[seat]) {
                return fail(
                    "hands",
                    format!(
                        "seat {seat} holds {} tiles, but with {placed} tiles on the board and \
                         {} in the pile it holds {}",
                        hand.len(),
                        self.pile.iter().map(|&n| u32::from(n)).sum::<u32>(),
                        sizes[seat]
                    ),
                );
            }
        }
        Ok(())
    }

    /// The 12 gems, by colour: on the board, in the centre, collected (a gem paid at a shared
    /// gate is collected by both its owners) or removed in pairs.
    fn check_gems(&self) -> Result<(), RecordError> {
        let rules = self.rules;
        let owners: Vec<u32> = (0..6)
            .map(|g| rules.gate_owner_mask(g).count_ones())
            .collect();
        let (fewest, most) = (
            owners.iter().copied().min().unwrap_or(1),
            owners.iter().copied().max().unwrap_or(1),
        );
        let (mut least_removed, mut most_removed) = (0u32, 0u32);
        for (k, gem) in Gem::ALL.into_iter().enumerate() {
            let in_play = self.gems.iter().filter(|g| g.2 == gem).count()
                + CENTRE_ORDER[usize::from(self.released)..]
                    .iter()
                    .filter(|&&g| g == gem)
                    .count();
            let Some(out) = u32::from(GEMS_BY_COLOUR[k]).checked_sub(in_play as u32) else {
                return fail(
                    "gems",
                    format!("more than {} {gem} gems are in play", GEMS_BY_COLOUR[k]),
                );
            };
            let paid: u32 = self.collected.iter().map(|c| u32::from(c[k])).sum();
            // Gems of this colour collected: each paid to 1 to `most` owners.
            let (fewest_taken, most_taken) = (paid.div_ceil(most), paid / fewest);
            if fewest_taken > most_taken || fewest_taken > out {
                return fail(
                    "scores",
                    format!(
                        "the seats hold {paid} {gem} gems, more than the {out} out of play \
                         can have paid"
                    ),
                );
            }
            least_removed += out - most_taken.min(out);
            most_removed += out - fewest_taken;
        }
        let removed = u32::from(self.removed);
        if removed % 2 != 0 || removed < least_removed || removed > most_removed {
            return fail(
                "removed",
                format!(
                    "gems leave in pairs when they collide; the gems in play and collected \
                     leave {least_removed} to {most_removed} removed, not {removed}"
                ),
            );
        }
        Ok(())
    }

    /// The position, the pile's rest in the order `rest` (front first), once every gem is
    /// where play can bring one ([`Parsed::check_paths`]).
    fn build(&self, rest: &[TileType]) -> Result<Position, RecordError> {
        let mut p = Position::set_up(self.rules, &box_in_type_order());
        p.hands = [[NO_TILE; 2]; MAX_PLAYERS];
        p.facing = [[0; 8]; super::ROWS];
        for mv in &self.board {
            let y = mv.cell.index();
            let slot = usize::from(ROUTE_SLOT[y]);
            let listed_at = usize::from(p.empty_order.at[slot]);
            p.fill_cell(y, (slot, listed_at), canonical_code(mv.tile, mv.rotation));
        }
        for &(cell, edge, gem) in &self.gems {
            let across = ACROSS[cell.index()][usize::from(edge)];
            p.facing[usize::from(across.cell)][usize::from(across.edge)] = gem.to_slot();
        }
        p.released = self.released;
        p.gems_left = (self.gems.len() + CENTRE_ORDER.len() - usize::from(self.released)) as u8;
        p.removed = self.removed;
        p.scores = 0;
        p.collected = [0; 4];
        for (seat, gems) in self.collected.iter().enumerate() {
            let points: u64 = Gem::ALL
                .iter()
                .zip(gems)
                .map(|(g, &n)| u64::from(g.points()) * u64::from(n))
                .sum();
            p.scores |= points << (16 * seat);
            for (k, &n) in gems.iter().enumerate() {
                p.collected[k + 1] |= u32::from(n) << (8 * seat);
            }
        }
        // The pile: the tiles taken, then the rest. Before the first move the hands in the
        // order the deal takes them (seat by seat, round by round), so that the position is
        // the set-up of that pile; after it the board's and the hands' (an order that means
        // nothing: no record starts there).
        let players = usize::from(self.rules.players());
        let taken: Vec<TileType> = if self.board.is_empty() {
            (0..usize::from(self.rules.hand_size()) * players)
                .filter_map(|i| self.hands[i % players].get(i / players).copied())
                .collect()
        } else {
            let on_board = self.board.iter().map(|m| m.tile);
            on_board
                .chain(self.hands.iter().flatten().copied())
                .collect()
        };
        for (slot, t) in p
            .pile
            .iter_mut()
            .zip(taken.into_iter().chain(rest.iter().copied()))
        {
            *slot = t as u8;
        }
        p.taken = (TILE_TOTAL - rest.len()) as u8;
        for (seat, hand) in self.hands.iter().enumerate() {
            for (slot, &t) in p.hands[seat].iter_mut().zip(hand) {
                *slot = t as u8;
            }
        }
        (p.to_move, p.explicit, p.drawer) = match self.phase {
            Phase::Move(seat) => (seat, false, 0),
            Phase::Over => (NOBODY, false, 0),
            Phase::Draw(seat) => (CHANCE, true, seat),
        };
        self.check_paths(&p)?;
        Ok(p)
    }

    /// A gem comes to rest at the end of the path it moved along, so the path behind it,
    /// followed back through the tiles, leads to the board's rim or a dead end (the centre, a
    /// corner), never to an empty cell: there another gem could come along it to the same
    /// place.
    fn check_paths(&self, p: &Position) -> Result<(), RecordError> {
        for &(cell, edge, gem) in &self.gems {
            let mut slot = cell.index() * 8 + usize::from(edge);
            // A path crosses each of the 54 tiles at most three times.
            for _ in 0..3 * TILE_TOTAL {
                let step = p.onward.as_flattened()[slot & SLOT_MASK];
                if step > REST_HERE {
                    break;
                }
                let looked_at = cell_of_slot(slot);
                if step == REST_HERE {
                    if looked_at.is_some_and(|c| p.is_empty(c) && c.is_route()) {
                        return fail(
                            "gems",
                            format!(
                                "{}@{edge}:{},{}: the path behind the gem leads to an empty cell, \
                                 so play cannot have brought it there",
                                gem_letter(gem),
                                cell.q(),
                                cell.r()
                            ),
                        );
                    }
                    break;
                }
                slot = usize::from(step) & SLOT_MASK;
            }
        }
        if let Some((cell, edge)) = dead_end_path(p) {
            return fail(
                "gems",
                format!(
                    "the path from edge {edge} of the empty cell {},{} leads to a dead end with \
                     no gem at its start, so play cannot have laid it",
                    cell.q(),
                    cell.r()
                ),
            );
        }
        Ok(())
    }
}

/// The first empty cell and edge where a path starts with no gem resting there and leads to
/// a dead end (the centre, a corner's arrow): a gem set moving along it would rest looking at
/// the dead end, which play never brings about (the gem that left the dead end along the path
/// rests at its start, or has left the board).
fn dead_end_path(p: &Position) -> Option<(Cell, u8)> {
    for empty in Cell::all().filter(|&c| c.is_route() && p.is_empty(c)) {
        for (k, across) in ACROSS[empty.index()].iter().enumerate() {
            if usize::from(across.cell) >= crate::board::CELL_COUNT
                || p.facing[empty.index()][k] != 0
            {
                continue;
            }
            let mut slot = usize::from(across.cell) * 8 + usize::from(across.edge);
            for steps in 0..3 * TILE_TOTAL {
                let step = p.onward.as_flattened()[slot & SLOT_MASK];
                if step > REST_HERE {
                    break;
                }
                if step == REST_HERE {
                    let end = cell_of_slot(slot);
                    if steps > 0 && end.is_some_and(|c| !(p.is_empty(c) && c.is_route())) {
                        return Some((empty, k as u8));
                    }
                    break;
                }
                slot = usize::from(step) & SLOT_MASK;
            }
        }
    }
    None
}

/// The cell of a slot (`cell * 8 + edge`), if it is on the board.
fn cell_of_slot(slot: usize) -> Option<Cell> {
    Cell::from_index(slot >> 3)
}

impl Position {
    /// The position as one line of text (docs/notation.md, "Positions as text"): rules,
    /// board, gems, centre, gems removed, scores, hands, the tiles left in the pile by type
    /// and whose turn, separated by spaces. The pile's order is left out.
    ///
    /// ```
    /// use indigo_game::{Game, Position, Rules};
    ///
    /// let game = Game::from_seed(Rules::indigo(2).unwrap(), 7);
    /// let text = game.position().to_text();
    /// assert_eq!(
    ///     text,
    ///     "indigo,2,1,shared,most-gems,closed - a@2:-4,0/a@1:-4,4/a@3:0,-4/a@0:0,4/a@4:4,-4/\
    ///      a@5:4,0 eeeees 0 0:0,0,0/0:0,0,0 3/3 14,6,14,12,6 0"
    /// );
    /// let again = Position::from_text(&text, 1).unwrap();
    /// assert_eq!(again.to_text(), text);
    /// ```
    pub fn to_text(&self) -> String {
        let r = self.rules;
        let mut s = format!(
            "{},{},{},{},{},{} ",
            r.theme().as_str(),
            r.players(),
            r.hand_size(),
            r.three_player_gates().as_str(),
            r.tie_break().as_str(),
            if r.open_hands() { "open" } else { "closed" },
        );
        push_items(
            &mut s,
            ROUTE_CELLS.iter().filter_map(|&cell| {
                let (tile, rotation) = self.tile_at(cell)?;
                let rotation = crate::tile::Rotation::new(rotation)?;
                Some(
                    Move {
                        tile,
                        rotation,
                        cell,
                    }
                    .to_string(),
                )
            }),
        );
        s.push(' ');
        push_items(
            &mut s,
            self.gems().map(|(cell, edge, gem)| {
                format!("{}@{edge}:{},{}", gem_letter(gem), cell.q(), cell.r())
            }),
        );
        s.push(' ');
        if self.centre().is_empty() {
            s.push('-');
        }
        s.extend(self.centre().iter().map(|&g| gem_letter(g)));
        let _ = write!(s, " {} ", self.removed);
        let players = usize::from(r.players());
        let scores = self.scores();
        let seats: Vec<String> = self.collected()[..players]
            .iter()
            .zip(scores)
            .map(|([a, e, sapphire], points)| format!("{points}:{a},{e},{sapphire}"))
            .collect();
        s.push_str(&seats.join("/"));
        s.push(' ');
        let hands: Vec<String> = (0..r.players())
            .map(|seat| {
                let hand: String = self.hand(seat).map(|t| t.to_string()).collect();
                if hand.is_empty() {
                    "-".to_owned()
                } else {
                    hand
                }
            })
            .collect();
        s.push_str(&hands.join("/"));
        let mut left = [0u8; TILE_TYPE_COUNT];
        for t in self.pile_rest() {
            left[t as usize] += 1;
        }
        let left: Vec<String> = left.iter().map(u8::to_string).collect();
        let _ = write!(s, " {} ", left.join(","));
        match self.phase() {
            Phase::Move(seat) => {
                let _ = write!(s, "{seat}");
            }
            Phase::Draw(seat) => {
                let _ = write!(s, "?{seat}");
            }
            Phase::Over => s.push('-'),
        }
        s
    }

    /// The position a [`Position::to_text`] text describes, the pile's order drawn from
    /// `seed` (the tiles left, in type order, shuffled as [`crate::shuffled_pile`] shuffles
    /// the box). A draw turn (`?SEAT`) gives an explicit-chance position, whose pile has no
    /// order; the seed is not used.
    ///
    /// # Errors
    /// The first field that is wrong or breaks an invariant of play, named.
    pub fn from_text(text: &str, seed: u64) -> Result<Position, RecordError> {
        let parsed = Parsed::read(text)?;
        parsed.check()?;
        let mut rest: Vec<TileType> = TileType::ALL
            .iter()
            .zip(parsed.pile)
            .flat_map(|(&t, n)| std::iter::repeat_n(t, usize::from(n)))
            .collect();
        if !matches!(parsed.phase, Phase::Draw(_)) {
            PyRandom::from_u64(seed).shuffle(&mut rest);
        }
        parsed.build(&rest)
    }

    /// [`Position::from_text`] with the pile's order given: `rest`, front first, must hold
    /// exactly the tiles the text counts (a position's [`Position::pile_rest`] does), so the
    /// position plays on with the same draws. Explicit-chance positions keep their pile
    /// sorted by type whatever the order.
    ///
    /// # Errors
    /// As [`Position::from_text`], or at `pile` when `rest` is not the tiles counted.
    pub fn from_text_with_pile(text: &str, rest: &[TileType]) -> Result<Position, RecordError> {
        let parsed = Parsed::read(text)?;
        parsed.check()?;
        let mut counts = [0u8; TILE_TYPE_COUNT];
        for &t in rest {
            counts[t as usize] = counts[t as usize].saturating_add(1);
        }
        if counts != parsed.pile {
            return fail(
                "pile",
                format!(
                    "the order given holds {counts:?} tiles of types 0..4, not the {:?} the \
                     text counts",
                    parsed.pile
                ),
            );
        }
        let mut rest = rest.to_vec();
        if matches!(parsed.phase, Phase::Draw(_)) {
            rest.sort_unstable();
        }
        parsed.build(&rest)
    }
}
