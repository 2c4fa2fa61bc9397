//! A straightforward Indigo engine written directly from `docs/spec/RULES.md`, to check the
//! fast core against. It shares no code with `indigo-game`: every table is copied from the
//! spec, cells are plain `(q, r)` pairs in ordered maps, and [`RefGame::play`] follows the
//! reference algorithm of docs/spec/RULES.md section 7 line by line. Slow and obviously correct.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde_json::{Value, json};

/// An axial cell `(q, r)`.
pub type Cell = (i32, i32);

/// docs/spec/RULES.md section 2: the neighbour across edge `e` is `cell + D[e]`.
pub const D: [Cell; 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];
/// Section 2.1.
pub const CENTRE: Cell = (0, 0);
/// Corner `K_d` for `d = 0..5`.
pub const CORNERS: [Cell; 6] = [(0, -4), (4, -4), (4, 0), (0, 4), (-4, 4), (-4, 0)];
/// Section 2.2: the three gate cells of gate `k`.
pub const GATE_CELLS: [[Cell; 3]; 6] = [
    [(1, -4), (2, -4), (3, -4)],
    [(4, -3), (4, -2), (4, -1)],
    [(3, 1), (2, 2), (1, 3)],
    [(-1, 4), (-2, 4), (-3, 4)],
    [(-4, 3), (-4, 2), (-4, 1)],
    [(-3, -1), (-2, -2), (-1, -3)],
];
/// Section 3: how many tiles of each type the box holds.
pub const TILE_COUNTS: [usize; 5] = [14, 6, 14, 14, 6];
/// Section 3: the edge pairs of each type at rotation 0.
pub const TILE_PAIRS: [[(u8, u8); 3]; 5] = [
    [(0, 2), (1, 4), (3, 5)],
    [(0, 3), (1, 4), (2, 5)],
    [(0, 5), (1, 4), (2, 3)],
    [(0, 5), (1, 3), (2, 4)],
    [(0, 5), (1, 2), (3, 4)],
];
/// Section 5, copied (not derived): the owners of gates 0..5.
const OWNERS_2: [&[usize]; 6] = [&[0], &[1], &[0], &[1], &[0], &[1]];
const OWNERS_3_SHARED: [&[usize]; 6] = [&[0], &[0, 1], &[2], &[0, 2], &[1], &[1, 2]];
const OWNERS_3_EXCLUSIVE: [&[usize]; 6] = [&[0], &[1], &[2], &[0], &[1], &[2]];
const OWNERS_4: [&[usize]; 6] = [&[0, 1], &[1, 2], &[0, 3], &[1, 3], &[0, 2], &[2, 3]];
/// Section 1 and 8: gem names and points.
const GEM_NAMES: [&str; 3] = ["amber", "emerald", "sapphire"];
const GEM_POINTS: [u32; 3] = [1, 2, 3];
const AMBER: usize = 0;
const EMERALD: usize = 1;
const SAPPHIRE: usize = 2;

/// Cells with `|q|, |r| <= 4`, numbered by [`slot`] in `(q, r)` order.
const SLOTS: usize = 81;

/// The index of an on-board cell in the cell arrays; ascending slots are ascending `(q, r)`.
fn slot((q, r): Cell) -> usize {
    usize::try_from((q + 4) * 9 + (r + 4)).expect("a cell on the board")
}

/// The cell at `slot`.
fn cell_of(slot: usize) -> Cell {
    let s = i32::try_from(slot).expect("a slot below 81");
    (s / 9 - 4, s % 9 - 4)
}

/// A move `(tile, rotation, q, r)`.
pub type RefMove = (u8, u8, i32, i32);

fn dist((q, r): Cell) -> i32 {
    q.abs().max(r.abs()).max((q + r).abs())
}

fn neighbour((q, r): Cell, e: u8) -> Cell {
    let (dq, dr) = D[e as usize];
    (q + dq, r + dr)
}

/// The 54 route cells, sorted.
static ROUTE_CELLS: LazyLock<Vec<Cell>> = LazyLock::new(route_cells);

fn route_cells() -> Vec<Cell> {
    let mut out = Vec::new();
    for q in -4..=4 {
        for r in -4..=4 {
            let c = (q, r);
            if dist(c) <= 4 && c != CENTRE && !CORNERS.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// A canonical rotation and the route cells where it may go.
type Placements = (u8, Vec<Cell>);

/// For each tile, its canonical rotations, each with the route cells where its paths join no
/// gate's exits (section 6.2), ascending: worked out once, so that a legal-move list only
/// filters out the occupied cells.
static PLACEMENTS: LazyLock<[Vec<Placements>; 5]> = LazyLock::new(|| {
    std::array::from_fn(|t| {
        let tile = t as u8;
        (0..6u8)
            .filter(|&rho| canonical_rotation(tile, rho) == rho)
            .map(|rho| {
                let cells = ROUTE_CELLS
                    .iter()
                    .copied()
                    .filter(|&cell| !joins_gate_exits(tile, rho, cell))
                    .collect();
                (rho, cells)
            })
            .collect()
    })
});

fn gate_of(cell: Cell) -> Option<usize> {
    GATE_CELLS.iter().position(|cells| cells.contains(&cell))
}

/// The edge pairs of `tile` at `rotation`, each ascending, sorted.
pub fn rotated_pairs(tile: u8, rotation: u8) -> [(u8, u8); 3] {
    let mut out = TILE_PAIRS[tile as usize].map(|(a, b)| {
        let (a, b) = ((a + rotation) % 6, (b + rotation) % 6);
        (a.min(b), a.max(b))
    });
    out.sort_unstable();
    out
}

/// [`smallest_equivalent_rotation`] of every tile and rotation, worked out once.
static CANONICAL: LazyLock<[[u8; 6]; 5]> = LazyLock::new(|| {
    std::array::from_fn(|t| std::array::from_fn(|r| smallest_equivalent_rotation(t as u8, r as u8)))
});

/// The smallest rotation that gives the same pairs (from the table; `rotation` below 6).
pub fn canonical_rotation(tile: u8, rotation: u8) -> u8 {
    CANONICAL[usize::from(tile)][usize::from(rotation)]
}

/// The smallest rotation that gives the same pairs, searched.
fn smallest_equivalent_rotation(tile: u8, rotation: u8) -> u8 {
    let pairs = rotated_pairs(tile, rotation);
    (0..6)
        .find(|&rho| rotated_pairs(tile, rho) == pairs)
        .unwrap_or(rotation)
}

/// Section 6.2: on a gate cell a path may not join that gate's two exits.
fn joins_gate_exits(tile: u8, rotation: u8, cell: Cell) -> bool {
    gate_of(cell).is_some_and(|k| joins_exits(rotated_pairs(tile, rotation), k))
}

/// Whether one of `pairs` joins gate `k`'s exits, edges `k` and `k + 1`.
fn joins_exits(pairs: [(u8, u8); 3], k: usize) -> bool {
    let (a, b) = (k as u8, (k as u8 + 1) % 6);
    pairs.contains(&(a.min(b), a.max(b)))
}

/// What one gem did in the last placement.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Outcome {
    /// It stopped on the board.
    Rested,
    /// It left through this gate.
    Collected(usize),
    /// It met another gem.
    Collided,
}

/// A game's snapshot as plain values (placed tiles are `board.len()`), in the snapshot's
/// orders: board and gems by `(q, r)` (then edge), hands ascending.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct State {
    pub to_move: Option<usize>,
    /// `((q, r), tile, canonical rotation)`.
    pub board: Vec<(Cell, u8, u8)>,
    /// `((q, r), edge, colour index)`.
    pub gems: Vec<(Cell, u8, usize)>,
    /// Colour indices, front first.
    pub centre: Vec<usize>,
    pub scores: Vec<u32>,
    pub collected: Vec<[u32; 3]>,
    pub removed: u32,
    pub hands: Vec<Vec<u8>>,
    pub pile_left: usize,
    pub over: bool,
    pub winners: Vec<usize>,
}

/// A [`State`] as integers, compared after every step with one `memcmp` (libFuzzer adds a
/// coverage callback to each comparison of a field): each section is written in [`State`]'s
/// field order by [`PackedState::list`] and friends, each list after its length.
#[derive(Default, PartialEq, Eq, Debug)]
pub struct PackedState(Vec<u32>);

impl PackedState {
    /// Starts over, keeping the buffer.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// One value.
    pub fn word(&mut self, value: u32) {
        self.0.push(value);
    }

    /// An optional seat (`u32::MAX` for none).
    pub fn seat(&mut self, seat: Option<usize>) {
        self.word(seat.map_or(u32::MAX, |s| u32::try_from(s).unwrap_or(u32::MAX - 1)));
    }

    /// A list of values, its length first.
    pub fn list(&mut self, items: impl IntoIterator<Item = u32>) {
        let at = self.0.len();
        self.0.push(0);
        self.0.extend(items);
        self.0[at] = u32::try_from(self.0.len() - at - 1).unwrap_or(u32::MAX);
    }

    /// A list of `(cell, a, b)`, one word each (`a` and `b` below 256, the cell within 127 of
    /// the centre).
    pub fn cells(&mut self, items: impl IntoIterator<Item = (Cell, u8, u8)>) {
        self.list(items.into_iter().map(|((q, r), a, b)| {
            let [.., q] = (q + 128).to_be_bytes();
            let [.., r] = (r + 128).to_be_bytes();
            u32::from_be_bytes([q, r, a, b])
        }));
    }
}

/// A game following docs/spec/RULES.md sections 4 to 8.
#[derive(Clone, Debug)]
pub struct RefGame {
    players: usize,
    owners: [&'static [usize]; 6],
    most_gems: bool,
    pile: Vec<u8>,
    taken: usize,
    hands: Vec<Vec<u8>>,
    /// Each placed route tile: `(tile, canonical rotation)`, by [`slot`] (an array, not an
    /// ordered map: libFuzzer instruments every comparison of a map lookup).
    tiles: [Option<(u8, u8)>; SLOTS],
    /// `partner[slot(cell)][edge]`: the other end of the path entering `cell` at `edge`.
    partner: [Option<[Option<u8>; 6]>; SLOTS],
    /// Gems resting at `(cell, edge)`, by colour index.
    gems: BTreeMap<(Cell, u8), usize>,
    /// The centre's gems, front first.
    centre: Vec<usize>,
    scores: Vec<u32>,
    collected: Vec<[u32; 3]>,
    removed: u32,
    to_move: Option<usize>,
    /// `(gem, outcome)` for every gem the last placement moved or met.
    pub events: Vec<(usize, Outcome)>,
}

impl RefGame {
    /// Set-up (section 4) for `players` seats, `hand_size` tiles each, the 3-player gate variant,
    /// the tie-break, and `pile` front first (assumed a permutation of the box).
    pub fn new(
        players: usize,
        hand_size: usize,
        exclusive_gates: bool,
        most_gems: bool,
        pile: &[u8],
    ) -> RefGame {
        let owners = match (players, exclusive_gates) {
            (2, _) => OWNERS_2,
            (3, false) => OWNERS_3_SHARED,
            (3, true) => OWNERS_3_EXCLUSIVE,
            _ => OWNERS_4,
        };
        let mut partner = [None; SLOTS];
        let mut gems = BTreeMap::new();
        for (d, &corner) in CORNERS.iter().enumerate() {
            let d = d as u8;
            // The U-turn joins the flanks; the amber rests at the arrow edge.
            let (a, b) = ((d + 2) % 6, (d + 4) % 6);
            let mut ends = [None; 6];
            ends[a as usize] = Some(b);
            ends[b as usize] = Some(a);
            partner[slot(corner)] = Some(ends);
            gems.insert((corner, (d + 3) % 6), AMBER);
        }
        let mut game = RefGame {
            players,
            owners,
            most_gems,
            pile: pile.to_vec(),
            taken: 0,
            hands: vec![Vec::new(); players],
            tiles: [None; SLOTS],
            partner,
            gems,
            centre: vec![EMERALD, EMERALD, EMERALD, EMERALD, EMERALD, SAPPHIRE],
            scores: vec![0; players],
            collected: vec![[0; 3]; players],
            removed: 0,
            to_move: Some(0),
            events: Vec::new(),
        };
        for _ in 0..hand_size {
            for seat in 0..players {
                let tile = game.pile[game.taken];
                game.taken += 1;
                game.hands[seat].push(tile);
            }
        }
        game
    }

    /// Makes `self` a copy of `other`, reusing `self`'s buffers (a cheaper clone for a copy
    /// kept to undo to).
    pub fn copy_from(&mut self, other: &RefGame) {
        self.players = other.players;
        self.owners = other.owners;
        self.most_gems = other.most_gems;
        self.pile.clone_from(&other.pile);
        self.taken = other.taken;
        self.hands.clone_from(&other.hands);
        self.tiles = other.tiles;
        self.partner = other.partner;
        self.gems.clone_from(&other.gems);
        self.centre.clone_from(&other.centre);
        self.scores.clone_from(&other.scores);
        self.collected.clone_from(&other.collected);
        self.removed = other.removed;
        self.to_move = other.to_move;
        self.events.clone_from(&other.events);
    }

    /// The placed tiles `(cell, tile, canonical rotation)` by `(q, r)`.
    fn placed(&self) -> impl Iterator<Item = (Cell, u8, u8)> + '_ {
        self.tiles
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.map(|(tile, rotation)| (cell_of(i), tile, rotation)))
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.to_move.is_none()
    }

    /// Whether `(tile, rotation, q, r)` may be played now (any rotation 0..5).
    pub fn is_legal(&self, (tile, rotation, q, r): RefMove) -> bool {
        let cell = (q, r);
        let Some(seat) = self.to_move else {
            return false;
        };
        self.hands[seat].contains(&tile)
            && rotation < 6
            && dist(cell) <= 4
            && cell != CENTRE
            && !CORNERS.contains(&cell)
            && self.tiles[slot(cell)].is_none()
            && !joins_gate_exits(tile, rotation, cell)
    }

    /// Each distinct legal placement once, at its smallest rotation, sorted.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let Some(seat) = self.to_move else {
            return Vec::new();
        };
        // Section 6: a tile in hand, on an empty route cell, joining no gate's exits.
        let mut out = Vec::with_capacity(1024);
        for tile in 0..5u8 {
            if !self.hands[seat].contains(&tile) {
                continue;
            }
            for &(rho, ref cells) in &PLACEMENTS[usize::from(tile)] {
                for &(q, r) in cells {
                    if self.tiles[slot((q, r))].is_none() {
                        out.push((tile, rho, q, r));
                    }
                }
            }
        }
        // Tiles, rotations and cells ascend in the loops: `out` is sorted.
        out
    }

    fn dead_end(cell: Cell, edge: u8) -> bool {
        cell == CENTRE
            || CORNERS
                .iter()
                .position(|&k| k == cell)
                .is_some_and(|d| edge == (d as u8 + 3) % 6)
    }

    /// Plays a legal move (panics on an illegal one) and moves the gems (section 7).
    pub fn play(&mut self, mv: RefMove) {
        assert!(self.is_legal(mv), "the reference was asked to play {mv:?}");
        let (tile, rotation, q, r) = mv;
        let seat = self.to_move.unwrap_or_default();
        let y = (q, r);
        let at = self.hands[seat].iter().position(|&t| t == tile);
        self.hands[seat].remove(at.unwrap_or_default());
        self.tiles[slot(y)] = Some((tile, canonical_rotation(tile, rotation)));
        let mut ends = [None; 6];
        for (a, b) in rotated_pairs(tile, rotation) {
            ends[a as usize] = Some(b);
            ends[b as usize] = Some(a);
        }
        self.partner[slot(y)] = Some(ends);
        self.events.clear();

        let mut movers = Vec::new();
        for e in 0..6u8 {
            let n = neighbour(y, e);
            let f = (e + 3) % 6;
            if n == CENTRE && !self.centre.is_empty() {
                let gem = self.centre.remove(0);
                self.gems.insert((CENTRE, f), gem);
            }
            if self.gems.contains_key(&(n, f)) {
                movers.push((n, f));
            }
        }
        // Where each gem that rested in this placement is in `events`, in case it is met later.
        let mut rested_at: BTreeMap<(Cell, u8), usize> = BTreeMap::new();
        for start in movers {
            let Some(g) = self.gems.remove(&start) else {
                continue; // removed in a collision this turn
            };
            let (mut c, mut b) = start;
            loop {
                let m = neighbour(c, b);
                let f = (b + 3) % 6;
                if dist(m) > 4 {
                    let k = gate_of(c).expect("a gem leaves the board only from a gate cell");
                    for &owner in self.owners[k] {
                        self.scores[owner] += GEM_POINTS[g];
                        self.collected[owner][g] += 1;
                    }
                    self.events.push((g, Outcome::Collected(k)));
                    break;
                }
                let empty = m != CENTRE && self.partner[slot(m)].is_none();
                if empty || Self::dead_end(m, f) {
                    self.gems.insert((c, b), g);
                    rested_at.insert((c, b), self.events.len());
                    self.events.push((g, Outcome::Rested));
                    break;
                }
                if let Some(other) = self.gems.remove(&(m, f)) {
                    self.removed += 2;
                    self.events.push((g, Outcome::Collided));
                    match rested_at.remove(&(m, f)) {
                        Some(i) => self.events[i] = (other, Outcome::Collided),
                        None => self.events.push((other, Outcome::Collided)),
                    }
                    break;
                }
                let exit = self.partner[slot(m)].and_then(|ends| ends[f as usize]);
                let exit = exit.expect("every edge of a tile is on a path");
                (c, b) = (m, exit);
            }
        }

        // Section 6.3: no gem left (centre included): over at once, nobody draws.
        if self.gems.is_empty() && self.centre.is_empty() {
            self.to_move = None;
            return;
        }
        if self.taken < self.pile.len() {
            self.hands[seat].push(self.pile[self.taken]);
            self.taken += 1;
        }
        self.to_move = (1..=self.players)
            .map(|i| (seat + i) % self.players)
            .find(|&s| !self.hands[s].is_empty());
    }

    /// The winning seats, ascending; empty until the game is over (section 8).
    pub fn winners(&self) -> Vec<usize> {
        if !self.is_over() {
            return Vec::new();
        }
        let best = self.scores.iter().copied().max().unwrap_or(0);
        let mut tied: Vec<usize> = (0..self.players)
            .filter(|&s| self.scores[s] == best)
            .collect();
        if self.most_gems {
            let count = |s: usize| self.collected[s].iter().sum::<u32>();
            let most = tied.iter().map(|&s| count(s)).max().unwrap_or(0);
            tied.retain(|&s| count(s) == most);
        }
        tied
    }

    /// The `indigo-snapshot/1` of this position (full view, without the `legal` list).
    /// What [`RefGame::snapshot`] holds, as plain values: cheap to build and compare.
    pub fn state(&self) -> State {
        let mut hands = self.hands.clone();
        for hand in &mut hands {
            hand.sort_unstable();
        }
        State {
            to_move: self.to_move,
            board: self.placed().collect(),
            gems: self
                .gems
                .iter()
                .map(|(&(cell, edge), &g)| (cell, edge, g))
                .collect(),
            centre: self.centre.clone(),
            scores: self.scores.clone(),
            collected: self.collected.clone(),
            removed: self.removed,
            hands,
            pile_left: self.pile.len() - self.taken,
            over: self.is_over(),
            winners: self.winners(),
        }
    }

    /// [`RefGame::state`] written into `out` (cleared first), without building the [`State`].
    pub fn pack_state(&self, out: &mut PackedState) {
        out.clear();
        out.seat(self.to_move);
        out.cells(self.placed());
        out.cells(
            self.gems
                .iter()
                .map(|(&(cell, edge), &g)| (cell, edge, g as u8)),
        );
        out.list(self.centre.iter().map(|&g| g as u32));
        out.list(self.scores.iter().copied());
        out.list(self.collected.iter().flatten().copied());
        out.word(self.removed);
        out.word(self.hands.len() as u32);
        for hand in &self.hands {
            // Sorted, as in `state`, in a copy on the stack (a hand holds at most 2 tiles).
            let mut sorted = [0u8; 4];
            let sorted = &mut sorted[..hand.len()];
            sorted.copy_from_slice(hand);
            sorted.sort_unstable();
            out.list(sorted.iter().map(|&t| u32::from(t)));
        }
        out.word((self.pile.len() - self.taken) as u32);
        out.word(u32::from(self.is_over()));
        out.list(self.winners().into_iter().map(|s| s as u32));
    }

    pub fn snapshot(&self) -> Value {
        let board: Vec<Value> = self
            .placed()
            .map(|((q, r), tile, rotation)| {
                json!({"q": q, "r": r, "tile": tile, "rotation": rotation})
            })
            .collect();
        let gems: Vec<Value> = self
            .gems
            .iter()
            .map(|(&((q, r), edge), &g)| json!({"gem": GEM_NAMES[g], "q": q, "r": r, "edge": edge}))
            .collect();
        let hands: Vec<Vec<u8>> = self
            .hands
            .iter()
            .map(|h| {
                let mut h = h.clone();
                h.sort_unstable();
                h
            })
            .collect();
        let collected: Vec<Value> = self
            .collected
            .iter()
            .map(|c| json!({"amber": c[0], "emerald": c[1], "sapphire": c[2]}))
            .collect();
        json!({
            "format": "indigo-snapshot/1",
            "players": self.players,
            "to_move": self.to_move,
            "placed": board.len(),
            "board": board,
            "gems": gems,
            "centre": self.centre.iter().map(|&g| GEM_NAMES[g]).collect::<Vec<_>>(),
            "scores": self.scores,
            "collected": collected,
            "removed": self.removed,
            "hands": hands,
            "pile_left": self.pile.len() - self.taken,
            "over": self.is_over(),
            "winners": self.winners(),
        })
    }
}
