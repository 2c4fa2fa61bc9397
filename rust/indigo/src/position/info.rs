//! What one seat knows: [`Information`] holds the public position and that seat's private
//! tiles, with every hidden tile blanked, so nothing built from it (observations, strings,
//! determinizations) can read the pile order or another seat's hidden hand.

use std::fmt::Write as _;

use indigo_search::{ObservationValue, Rng, below};

use super::{CHANCE, GEM_TOTAL, HIDDEN, MAX_PLAYERS, NO_TILE, NOBODY, Position, tile_type};
use crate::action::ActionSet;
use crate::board::{CELL_COUNT, Cell};
use crate::gem::Gem;
use crate::rules::Rules;
use crate::tile::{CENTRE_CODE, EMPTY_CODE, TILE_COUNTS, TILE_TOTAL, TILE_TYPE_COUNT};

/// Observation planes per cell; see [`OBSERVATION_LAYOUT`].
pub const OBSERVATION_PLANES: usize = 34;
/// Observation values after the planes; see [`OBSERVATION_LAYOUT`].
pub const OBSERVATION_SCALARS: usize = 53;
/// Length of the flat observation tensor.
pub const OBSERVATION_SIZE: usize = OBSERVATION_PLANES * CELL_COUNT + OBSERVATION_SCALARS;

/// The observation tensor's segments as `(name, offset, shape)`. Planes are indexed
/// `[plane][cell]` with cells in `(q, r)` order; "seat k" means k seats after the observer.
pub const OBSERVATION_LAYOUT: [(&str, usize, &[usize]); 16] = [
    ("empty_route_cell", 0, &[1, CELL_COUNT]),
    ("tile_type", CELL_COUNT, &[5, CELL_COUNT]),
    ("tile_rotation", 6 * CELL_COUNT, &[6, CELL_COUNT]),
    ("gem_at_edge", 12 * CELL_COUNT, &[3, 6, CELL_COUNT]),
    ("gate_owned_by_seat", 30 * CELL_COUNT, &[4, CELL_COUNT]),
    ("own_hand", 34 * CELL_COUNT, &[5]),
    ("open_hands", 34 * CELL_COUNT + 5, &[3, 5]),
    ("hand_sizes", 34 * CELL_COUNT + 20, &[4]),
    ("scores", 34 * CELL_COUNT + 24, &[4]),
    ("collected", 34 * CELL_COUNT + 28, &[4, 3]),
    ("centre_gems", 34 * CELL_COUNT + 40, &[1]),
    ("pile_left", 34 * CELL_COUNT + 41, &[1]),
    ("unseen", 34 * CELL_COUNT + 42, &[5]),
    ("to_move", 34 * CELL_COUNT + 47, &[4]),
    ("game_over", 34 * CELL_COUNT + 51, &[1]),
    ("chance_node", 34 * CELL_COUNT + 52, &[1]),
];

/// `GATE_CELLS[gate]`: its three cells' indices.
const GATE_CELLS: [[usize; 3]; 6] = {
    let mut table = [[0; 3]; 6];
    let mut gate = 0;
    while gate < 6 {
        let mut j = 0;
        while j < 3 {
            table[gate][j] = Cell::gate_cell(gate as u8, j as u8 + 1).index();
            j += 1;
        }
        gate += 1;
    }
    table
};

/// One seat's information: the public position plus its own hand (and every hand when the
/// rules open them). Hidden tiles are blanked, so this value cannot leak them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Information {
    position: Position,
    observer: u8,
    unseen: [u8; TILE_TYPE_COUNT],
}

impl Position {
    /// What `observer` knows of this position.
    ///
    /// # Panics
    /// If `observer` is not a seat of the game.
    pub fn information(&self, observer: u8) -> Information {
        assert!(observer < self.rules.players(), "no seat {observer}");
        let mut position = *self;
        for (seat, hand) in position.hands.iter_mut().enumerate() {
            if !self.sees_hand(observer, seat) {
                for t in hand.iter_mut().filter(|t| **t != NO_TILE) {
                    *t = HIDDEN;
                }
            }
        }
        position.pile = [HIDDEN; TILE_TOTAL];
        let unseen = self.unseen_by(observer);
        Information {
            position,
            observer,
            unseen,
        }
    }
}

impl Position {
    /// Whether `observer` sees `seat`'s hand: its own, or every hand when the rules open them.
    #[inline]
    fn sees_hand(&self, observer: u8, seat: usize) -> bool {
        seat == usize::from(observer) || self.rules.open_hands()
    }

    /// Tiles `observer` has not seen, by type: the pile and the hands it cannot see.
    fn unseen_by(&self, observer: u8) -> [u8; TILE_TYPE_COUNT] {
        let mut on_board = [0; TILE_TYPE_COUNT];
        for cell in 0..CELL_COUNT {
            let code = self.code(cell);
            if code < CENTRE_CODE {
                on_board[usize::from(code / 6)] += 1;
            }
        }
        self.unseen_given(observer, on_board)
    }

    /// [`Position::unseen_by`] given how many tiles of each type lie on the board.
    fn unseen_given(&self, observer: u8, on_board: [u8; TILE_TYPE_COUNT]) -> [u8; TILE_TYPE_COUNT] {
        let mut unseen = TILE_COUNTS;
        for (t, n) in unseen.iter_mut().zip(on_board) {
            *t -= n;
        }
        for (seat, hand) in self.hands.iter().enumerate() {
            if self.sees_hand(observer, seat) {
                for &t in hand.iter().filter(|&&t| t < HIDDEN) {
                    unseen[usize::from(t)] -= 1;
                }
            }
        }
        unseen
    }
}

/// What a buffer row holds of one game's observation, so that the next observation of the same
/// game is written by changing only the entries that differ: a placement changes one cell, a
/// few gems and the scalars, and a new viewer the seat-relative gate planes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct ObservationRow {
    /// The cell code whose planes each cell's entries hold; [`UNWRITTEN`] for none.
    codes: [u8; CELL_COUNT],
    /// The position's empty route cells when `codes` was taken, and its tiles by type.
    empty: u64,
    on_board: [u8; TILE_TYPE_COUNT],
    /// Whether the next update compares every cell: between positions of one game, only the
    /// route cells that filled or emptied can differ.
    rescan: bool,
    /// The gem entries set, `gem_count` of them.
    gems: [u16; GEM_TOTAL as usize],
    gem_count: u8,
    /// The observer whose gate planes the row holds; [`NOBODY`] for none.
    gates_for: u8,
    /// Each seat's gate cells as bits of cell indices, taken with the first gate planes.
    gate_cells: [u64; MAX_PLAYERS],
}

/// No cell code: the cell's entries are all zero.
const UNWRITTEN: u8 = u8::MAX;

impl ObservationRow {
    /// A row of zeros.
    pub(crate) const ZEROS: ObservationRow = ObservationRow {
        codes: [UNWRITTEN; CELL_COUNT],
        empty: 0,
        on_board: [0; TILE_TYPE_COUNT],
        rescan: true,
        gems: [0; GEM_TOTAL as usize],
        gem_count: 0,
        gates_for: NOBODY,
        gate_cells: [0; MAX_PLAYERS],
    };

    /// The next update is of another game's position: every cell is compared.
    pub(crate) fn new_game(&mut self) {
        self.rescan = true;
    }
}

/// Counts the tile of a cell holding `code` in `on_board` (`add`), or uncounts it; other
/// codes ([`UNWRITTEN`] included) hold no tile.
#[inline]
fn count_tile(on_board: &mut [u8; TILE_TYPE_COUNT], code: u8, add: bool) {
    if code < CENTRE_CODE {
        let n = &mut on_board[usize::from(code / 6)];
        *n = if add { *n + 1 } else { *n - 1 };
    }
}

/// Sets the entries of a cell holding `code` to `value`: the empty-cell plane, or a tile's
/// type and rotation planes (the centre and treasures have none).
#[inline]
fn set_cell<V: ObservationValue>(out: &mut [V; OBSERVATION_SIZE], cell: usize, code: u8, value: V) {
    if code == EMPTY_CODE {
        out[cell] = value;
    } else if code < CENTRE_CODE {
        out[(1 + usize::from(code / 6)) * CELL_COUNT + cell] = value;
        out[(6 + usize::from(code % 6)) * CELL_COUNT + cell] = value;
    }
}

/// Each seat's gate cells, as bits of cell indices.
fn gate_cells_by_seat(rules: Rules) -> [u64; MAX_PLAYERS] {
    let mut by_seat = [0; MAX_PLAYERS];
    for (gate, cells) in GATE_CELLS.iter().enumerate() {
        let bits = cells.iter().fold(0, |bits, &cell| bits | 1 << cell);
        let mut owners = rules.gate_owner_mask(gate as u8);
        while owners != 0 {
            by_seat[owners.trailing_zeros() as usize] |= bits;
            owners &= owners - 1;
        }
    }
    by_seat
}

/// Sets the entries of the cells whose bits `cells` has to `value`.
fn set_cells<V: ObservationValue>(plane: &mut [V; CELL_COUNT], mut cells: u64, value: V) {
    while cells != 0 {
        plane[cells.trailing_zeros() as usize] = value;
        cells &= cells - 1;
    }
}

impl Position {
    /// The seat `k` places after `observer`.
    fn seat_after(&self, observer: u8, k: usize) -> usize {
        let players = usize::from(self.rules.players());
        let seat = usize::from(observer) + k;
        if seat >= players {
            seat - players
        } else {
            seat
        }
    }

    /// Makes the gate planes of `out`, which hold what `row` says, `observer`'s: only the
    /// entries that differ from the shown observer's are written.
    fn update_gates<V: ObservationValue>(
        &self,
        observer: u8,
        out: &mut [V; OBSERVATION_SIZE],
        row: &mut ObservationRow,
    ) {
        if row.gates_for == observer {
            return;
        }
        let shown = row.gates_for;
        if shown == NOBODY {
            row.gate_cells = gate_cells_by_seat(self.rules);
        }
        for k in 0..usize::from(self.rules.players()) {
            let now = row.gate_cells[self.seat_after(observer, k)];
            let before = if shown == NOBODY {
                0
            } else {
                row.gate_cells[self.seat_after(shown, k)]
            };
            let plane: &mut [V; CELL_COUNT] = (&mut out[(30 + k) * CELL_COUNT..][..CELL_COUNT])
                .try_into()
                .unwrap_or_else(|_| unreachable!("a plane is CELL_COUNT long"));
            set_cells(plane, before & !now, V::ZERO);
            set_cells(plane, now & !before, V::count(1));
        }
        row.gates_for = observer;
    }

    /// Makes `out`, which holds what `row` says, `observer`'s observation of this position
    /// (as [`Information::observation`] gives it), and `row` say so. Hidden tiles are never
    /// read: only the observer's hand (every hand when the rules open them) and the counts of
    /// the rest.
    pub(crate) fn update_observation<V: ObservationValue>(
        &self,
        observer: u8,
        out: &mut [V; OBSERVATION_SIZE],
        row: &mut ObservationRow,
    ) {
        let one = V::count(1);
        let mut update_cell = |cell: usize, row: &mut ObservationRow| {
            let (code, shown) = (self.code(cell), row.codes[cell]);
            if code != shown {
                set_cell(out, cell, shown, V::ZERO);
                set_cell(out, cell, code, one);
                count_tile(&mut row.on_board, shown, false);
                count_tile(&mut row.on_board, code, true);
                row.codes[cell] = code;
            }
        };
        if row.rescan {
            for cell in 0..CELL_COUNT {
                update_cell(cell, row);
            }
            row.rescan = false;
        } else {
            let mut changed = row.empty ^ self.empty;
            while changed != 0 {
                let slot = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                update_cell(crate::board::ROUTE_CELLS[slot].index(), row);
            }
        }
        row.empty = self.empty;
        let on_board = row.on_board;
        // Resting gems, found by the cells they look at: few rows hold any.
        let mut gems = [0u16; GEM_TOTAL as usize];
        let mut gem_count = 0;
        // Eight rows (a cache line) at a time: most hold no gem.
        let groups = self.facing.as_chunks::<8>().0.iter().enumerate();
        let any_gem = |group: &[[u8; 8]; 8]| {
            group
                .iter()
                .fold(0, |any, row| any | u64::from_le_bytes(*row))
                != 0
        };
        for (first, group) in groups.filter(|(_, group)| any_gem(group)) {
            for (i, facing) in group.iter().enumerate() {
                let looked_at = 8 * first + i;
                let mut slots = u64::from_le_bytes(*facing);
                while slots != 0 {
                    let f = slots.trailing_zeros() as usize / 8;
                    slots &= !(0xff << (8 * f));
                    let rest = crate::board::ACROSS[looked_at][f];
                    let gem = Gem::from_slot(facing[f]) as usize;
                    let plane = 12 + gem * 6 + usize::from(rest.edge);
                    gems[gem_count] = (plane * CELL_COUNT + usize::from(rest.cell)) as u16;
                    gem_count += 1;
                }
            }
        }
        let shown = &row.gems[..usize::from(row.gem_count)];
        if shown != &gems[..gem_count] {
            for &entry in shown {
                out[usize::from(entry)] = V::ZERO;
            }
            for &entry in &gems[..gem_count] {
                out[usize::from(entry)] = one;
            }
            row.gems = gems;
            row.gem_count = gem_count as u8;
        }
        self.update_gates(observer, out, row);
        let players = usize::from(self.rules.players());
        let scalars = &mut out[OBSERVATION_PLANES * CELL_COUNT..];
        scalars.fill(V::ZERO);
        for k in 0..players {
            let seat = self.seat_after(observer, k);
            let hand = self.hands[seat];
            if self.sees_hand(observer, seat) {
                let first = if k == 0 { 0 } else { 5 * k };
                let mut held = [0u16; TILE_TYPE_COUNT];
                for &t in hand.iter().filter(|&&t| t < HIDDEN) {
                    held[usize::from(t)] += 1;
                }
                for (t, &n) in held.iter().enumerate().filter(|&(_, &n)| n > 0) {
                    scalars[first + t] = V::count(n);
                }
            }
            scalars[20 + k] = V::count(hand.iter().filter(|&&t| t != NO_TILE).count() as u16);
            scalars[24 + k] = V::count(self.scores()[seat]);
            for (g, &n) in self.collected()[seat].iter().enumerate() {
                scalars[28 + 3 * k + g] = V::count(n.into());
            }
        }
        scalars[40] = V::count((super::CENTRE_ORDER.len() - usize::from(self.released)) as u16);
        scalars[41] = V::count(self.pile_left().into());
        for (t, &n) in self.unseen_given(observer, on_board).iter().enumerate() {
            scalars[42 + t] = V::count(n.into());
        }
        match self.to_move {
            NOBODY => scalars[51] = one,
            CHANCE => scalars[52] = one,
            seat => {
                scalars[47 + (usize::from(seat) + players - usize::from(observer)) % players] = one;
            }
        }
    }
}

impl Information {
    /// The seat whose information this is.
    #[inline]
    pub const fn observer(&self) -> u8 {
        self.observer
    }

    /// Tiles the observer has not seen, by type: the pile and the hidden hands.
    #[inline]
    pub const fn unseen(&self) -> [u8; TILE_TYPE_COUNT] {
        self.unseen
    }

    /// The seat to place a tile, as in [`Position::to_move`].
    #[inline]
    pub const fn to_move(&self) -> Option<u8> {
        self.position.to_move()
    }

    /// The position with hidden tiles blanked: enough to see a placement's immediate effects
    /// (hidden tiles change no gem), useless for anything later.
    pub(crate) const fn blanked(&self) -> Position {
        self.position
    }

    /// The observer's legal actions when it is to move, else none.
    pub fn legal_action_set(&self) -> ActionSet {
        if self.to_move() == Some(self.observer) {
            self.position.legal_action_set()
        } else {
            ActionSet::default()
        }
    }

    /// A full position consistent with this information: the observer's hand and everything
    /// public kept, the hidden hands and the pile order drawn uniformly from the unseen tiles.
    /// The result uses sampled chance (a pending draw is made from the sampled pile).
    pub fn sample(&self, rng: &mut Rng) -> Position {
        let mut position = self.position;
        self.sample_into(&mut position, rng);
        position
    }

    /// [`Information::sample`] written into `out` (whatever it held): one copy of the
    /// position, and the same draws from `rng`.
    #[inline]
    pub fn sample_into(&self, out: &mut Position, rng: &mut Rng) {
        self.fill_into(out, rng);
        out.explicit = false;
        while out.is_chance_node() {
            let front_tile = tile_type(out.pile[out.taken as usize]);
            let _ = out.apply_draw(front_tile);
        }
    }

    /// [`Information::sample`] keeping the chance mode and any pending draw.
    pub(crate) fn fill(&self, rng: &mut Rng) -> Position {
        let mut position = self.position;
        self.fill_into(&mut position, rng);
        position
    }

    /// [`Information::fill`] written into `out` (whatever it held).
    #[inline]
    fn fill_into(&self, position: &mut Position, rng: &mut Rng) {
        // The pile is built in `pile[PAD..][..TILE_TOTAL]`: each type's run is written as
        // one fixed-length store of PAD bytes (no type has more tiles) that the next run
        // overwrites, so no write depends on a count's value.
        const PAD: usize = 16;
        const _: () = {
            let mut t = 0;
            while t < TILE_TYPE_COUNT {
                assert!(TILE_COUNTS[t] as usize <= PAD);
                t += 1;
            }
        };
        let mut pile = [0u8; PAD + TILE_TOTAL + PAD];
        let taken = self.position.taken as usize;
        let n: usize = self.unseen.iter().map(|&u| usize::from(u)).sum();
        // The unseen tiles by type, at the end of the pile, then shuffled there.
        let base = PAD + TILE_TOTAL - n;
        let mut start = base;
        for (t, &count) in self.unseen.iter().enumerate() {
            pile[start..][..PAD].fill(t as u8);
            start += usize::from(count);
        }
        let unseen = &mut pile[base..PAD + TILE_TOTAL];
        for i in (1..n).rev() {
            unseen.swap(i, below(rng, i + 1));
        }
        *position = self.position;
        // The first of them fill the hidden hands (just before the rest of the pile); the
        // front of the pile (tiles already taken) is every tile not unseen and those, by type.
        let mut front = TILE_COUNTS;
        for (f, &u) in front.iter_mut().zip(&self.unseen) {
            *f -= u;
        }
        let mut dealt = 0;
        for hand in &mut position.hands {
            for t in hand.iter_mut().filter(|t| **t == HIDDEN) {
                *t = unseen[dealt];
                front[usize::from(*t)] += 1;
                dealt += 1;
            }
            if hand[1] < hand[0] {
                hand.swap(0, 1);
            }
        }
        // Runs written from the last type down, each store ending where its run ends.
        let mut end = PAD + taken;
        for (t, &count) in front.iter().enumerate().rev() {
            pile[end - PAD..end].fill(t as u8);
            end -= usize::from(count);
        }
        position.pile.copy_from_slice(&pile[PAD..PAD + TILE_TOTAL]);
        if position.explicit {
            position.pile[taken..].sort_unstable();
        }
    }

    /// The observer's view as a flat tensor laid out as [`OBSERVATION_LAYOUT`] says, as
    /// `f32` or, compact, as `u8` (every entry is a count below 256).
    pub fn observation<V: ObservationValue>(&self, out: &mut [V; OBSERVATION_SIZE]) {
        out.fill(V::ZERO);
        let mut zeros = ObservationRow::ZEROS;
        self.position
            .update_observation(self.observer, out, &mut zeros);
    }

    /// The public part of the observation as text: board, gems, scores, hand sizes, turn.
    pub fn public_string(&self) -> String {
        let p = &self.position;
        let players = p.rules.players();
        let mut s = format!(
            "players={players} hand_size={} placed={} pile={} centre={} ",
            p.rules.hand_size(),
            p.placed,
            p.pile_left(),
            super::CENTRE_ORDER.len() - usize::from(p.released)
        );
        let _ = write!(
            s,
            "turn={}",
            match p.phase() {
                super::Phase::Move(seat) => format!("{seat}"),
                super::Phase::Draw(seat) => format!("draw{seat}"),
                super::Phase::Over => "over".to_owned(),
            }
        );
        s.push_str(" scores=");
        push_list(
            &mut s,
            (0..players).map(|seat| p.scores()[usize::from(seat)]),
        );
        s.push_str(" hands=");
        push_list(
            &mut s,
            p.hands[..usize::from(players)]
                .iter()
                .map(|h| h.iter().filter(|&&t| t != NO_TILE).count()),
        );
        s.push_str(" tiles=");
        push_list(
            &mut s,
            Cell::all().filter_map(|c| {
                p.tile_at(c)
                    .map(|(t, rho)| format!("{t}@{rho}:{},{}", c.q(), c.r()))
            }),
        );
        s.push_str(" gems=");
        push_list(
            &mut s,
            p.gems()
                .map(|(c, e, g)| format!("{}{},{},{e}", &g.as_str()[..1], c.q(), c.r())),
        );
        if p.rules.open_hands() {
            s.push_str(" open=");
            push_list(&mut s, (0..players).map(|seat| hand_text(p, seat)));
        }
        s
    }

    /// The observer's private part as text: its own hand.
    pub fn private_string(&self) -> String {
        format!(
            "seat={} hand={}",
            self.observer,
            hand_text(&self.position, self.observer)
        )
    }

    /// The whole observation as text: public part, then `|`, then the private part.
    pub fn observation_string(&self) -> String {
        format!("{} | {}", self.public_string(), self.private_string())
    }
}

fn hand_text(p: &Position, seat: u8) -> String {
    let mut s = String::new();
    push_list(&mut s, p.hand(seat).map(|t| t.to_string()));
    format!("[{s}]")
}

fn push_list<T: std::fmt::Display>(s: &mut String, items: impl Iterator<Item = T>) {
    for (i, item) in items.enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{item}");
    }
}

/// Seats are at most four; checked at compile time for the tensor's fixed seat slots.
const _: () = assert!(MAX_PLAYERS == 4);

#[cfg(test)]
// Observation values, returns and shares are small exact numbers.
#[allow(clippy::float_cmp)]
mod tests {
    use crate::position::OBSERVATION_SIZE;
    use crate::position::Position;
    use crate::rules::Rules;
    use crate::testing::random_positions;
    use crate::tile::TILE_TYPE_COUNT;
    use indigo_search::Rng;
    use rand::SeedableRng;

    #[test]
    fn information_hides_exactly_the_hidden_tiles() {
        for p in random_positions(2) {
            for seat in 0..p.rules().players() {
                let info = p.information(seat);
                // Changing only what `seat` cannot see leaves its information unchanged.
                let mut rng = Rng::seed_from_u64(u64::from(seat));
                let other = info.sample(&mut rng);
                if p.is_chance_node() {
                    continue;
                }
                assert_eq!(
                    other.information(seat),
                    info,
                    "resampling keeps the information"
                );
                assert_eq!(
                    other.hand(seat).collect::<Vec<_>>(),
                    p.hand(seat).collect::<Vec<_>>()
                );
                let mut unseen = [0u8; TILE_TYPE_COUNT];
                for t in other.pile_rest() {
                    unseen[t as usize] += 1;
                }
                for s in (0..p.rules().players()).filter(|&s| s != seat) {
                    for t in other.hand(s) {
                        unseen[t as usize] += 1;
                    }
                }
                assert_eq!(
                    unseen,
                    info.unseen(),
                    "the sample is drawn from the unseen tiles"
                );
            }
        }
    }

    #[test]
    fn a_determinization_does_not_depend_on_the_hidden_truth() {
        // Two games that differ only in the pile and the opponent's hand look the same to seat 0.
        let rules = Rules::indigo(2).unwrap();
        let mut a = crate::rng::box_in_type_order().to_vec();
        let mut b = a.clone();
        a.swap(1, 53); // seat 1's tile differs
        b.swap(2, 40); // the pile order differs
        let pa = Position::new(rules, &a).unwrap();
        let pb = Position::new(rules, &b).unwrap();
        assert_eq!(pa.information(0), pb.information(0));
        // The hidden tile's distribution over samples follows the unseen counts, whatever it is.
        let info = pa.information(0);
        let unseen = info.unseen();
        let total: u32 = unseen.iter().map(|&c| u32::from(c)).sum();
        let mut rng = Rng::seed_from_u64(5);
        let samples = 40_000;
        let mut seen = [0u32; TILE_TYPE_COUNT];
        for _ in 0..samples {
            let t = info.sample(&mut rng).hand(1).next().unwrap();
            seen[t as usize] += 1;
        }
        for t in 0..TILE_TYPE_COUNT {
            let expected = f64::from(samples) * f64::from(unseen[t]) / f64::from(total);
            let sd = (expected * (1.0 - expected / f64::from(samples))).sqrt();
            assert!(
                (f64::from(seen[t]) - expected).abs() < 5.0 * sd,
                "type {t}: {} vs {expected:.0}",
                seen[t]
            );
        }
    }

    #[test]
    fn observation_tensors_differ_only_by_what_the_seat_sees() {
        for p in random_positions(1) {
            for seat in 0..p.rules().players() {
                let mut a = [0f32; OBSERVATION_SIZE];
                let mut b = [0f32; OBSERVATION_SIZE];
                let info = p.information(seat);
                info.observation(&mut a);
                info.sample(&mut Rng::seed_from_u64(9))
                    .information(seat)
                    .observation(&mut b);
                if !p.is_chance_node() {
                    assert_eq!(a, b);
                }
                // Planes are one-hot where they say so: every route cell is empty or tiled.
                let cells = crate::board::CELL_COUNT;
                for cell in crate::board::Cell::all().filter(|c| c.is_route()) {
                    let i = cell.index();
                    let tiled: f32 = (1..6).map(|t| a[t * cells + i]).sum();
                    assert_eq!(a[i] + tiled, 1.0);
                }
            }
        }
    }
}
