//! What one seat knows: [`Information`] holds the public position and that seat's private
//! tiles, with every hidden tile blanked, so nothing built from it (observations, strings,
//! determinizations) can read the pile order or another seat's hidden hand.

use std::fmt::Write as _;

use rand_pcg::Pcg64Mcg;

use super::{CHANCE, HIDDEN, MAX_PLAYERS, NO_TILE, NOBODY, Position, tile_type};
use crate::board::{CELL_COUNT, Cell, GATE_OF, NO_GATE};
use crate::bots::below;
use crate::gem::Gem;
use crate::tile::{CENTRE_CODE, TILE_COUNTS, TILE_TOTAL, TILE_TYPE_COUNT};

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
        let open = self.rules.open_hands();
        for (seat, hand) in position.hands.iter_mut().enumerate() {
            if seat != usize::from(observer) && !open {
                for t in hand.iter_mut().filter(|t| **t != NO_TILE) {
                    *t = HIDDEN;
                }
            }
        }
        position.pile = [HIDDEN; TILE_TOTAL];
        let mut unseen = TILE_COUNTS;
        let seen = (0..CELL_COUNT)
            .map(|cell| position.code(cell))
            .filter(|&c| c < CENTRE_CODE)
            .map(|c| c / 6);
        let held = position
            .hands
            .iter()
            .flatten()
            .copied()
            .filter(|&t| t < HIDDEN);
        for t in seen.chain(held) {
            unseen[t as usize] -= 1;
        }
        Information {
            position,
            observer,
            unseen,
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
    pub fn legal_action_set(&self) -> crate::action::ActionSet {
        if self.to_move() == Some(self.observer) {
            self.position.legal_action_set()
        } else {
            crate::action::ActionSet::default()
        }
    }

    /// A full position consistent with this information: the observer's hand and everything
    /// public kept, the hidden hands and the pile order drawn uniformly from the unseen tiles.
    /// The result uses sampled chance (a pending draw is made from the sampled pile).
    pub fn sample(&self, rng: &mut Pcg64Mcg) -> Position {
        let mut position = self.fill(rng);
        position.explicit = false;
        while position.is_chance_node() {
            let front_tile = tile_type(position.pile[position.taken as usize]);
            let _ = position.apply_draw(front_tile);
        }
        position
    }

    /// [`Information::sample`] keeping the chance mode and any pending draw.
    pub(crate) fn fill(&self, rng: &mut Pcg64Mcg) -> Position {
        let mut pool = [0u8; TILE_TOTAL];
        let mut n = 0;
        for (t, &count) in self.unseen.iter().enumerate() {
            pool[n..n + count as usize].fill(t as u8);
            n += count as usize;
        }
        for i in (1..n).rev() {
            pool.swap(i, below(rng, i + 1));
        }
        let mut position = self.position;
        let mut next = pool[..n].iter().copied();
        for hand in &mut position.hands {
            for t in hand.iter_mut().filter(|t| **t == HIDDEN) {
                *t = next.next().unwrap_or(0);
            }
            if hand[1] < hand[0] {
                hand.swap(0, 1);
            }
        }
        let taken = position.taken as usize;
        for slot in &mut position.pile[taken..] {
            *slot = next.next().unwrap_or(0);
        }
        // The front of the pile (tiles already taken), in type order: the board and hands.
        let mut front = TILE_COUNTS;
        for &t in &position.pile[taken..] {
            front[t as usize] -= 1;
        }
        let mut slots = position.pile[..taken].iter_mut();
        for (t, &count) in front.iter().enumerate() {
            for slot in slots.by_ref().take(count as usize) {
                *slot = t as u8;
            }
        }
        if position.explicit {
            position.pile[taken..].sort_unstable();
        }
        position
    }

    /// The seat `k` places after the observer.
    #[inline]
    fn seat_after(&self, k: usize) -> usize {
        (usize::from(self.observer) + k) % usize::from(self.position.rules.players())
    }

    /// The observer's view as a flat tensor laid out as [`OBSERVATION_LAYOUT`] says.
    pub fn observation(&self, out: &mut [f32; OBSERVATION_SIZE]) {
        out.fill(0.0);
        let p = &self.position;
        let players = usize::from(p.rules.players());
        let relative = |seat: usize| (seat + players - usize::from(self.observer)) % players;
        for cell in Cell::all() {
            let i = cell.index();
            let code = p.code(i);
            if cell.is_route() && code == crate::tile::EMPTY_CODE {
                out[i] = 1.0;
            } else if code < CENTRE_CODE {
                out[(1 + usize::from(code / 6)) * CELL_COUNT + i] = 1.0;
                out[(6 + usize::from(code % 6)) * CELL_COUNT + i] = 1.0;
            }
            for e in 0..6 {
                let slot = p.gem_slot_at(i, e);
                if slot != 0 {
                    let gem = Gem::from_slot(slot) as usize;
                    out[(12 + gem * 6 + e) * CELL_COUNT + i] = 1.0;
                }
            }
            let gate = GATE_OF[i];
            if gate != NO_GATE {
                for seat in p.rules.gate_owners(gate) {
                    out[(30 + relative(usize::from(seat))) * CELL_COUNT + i] = 1.0;
                }
            }
        }
        let scalars = &mut out[OBSERVATION_PLANES * CELL_COUNT..];
        for k in 0..players {
            let seat = self.seat_after(k);
            for &t in &p.hands[seat] {
                if t < HIDDEN {
                    scalars[if k == 0 { 0 } else { 5 * k } + usize::from(t)] += 1.0;
                }
            }
            scalars[20 + k] = p.hands[seat].iter().filter(|&&t| t != NO_TILE).count() as f32;
            scalars[24 + k] = f32::from(p.scores[seat]);
            for (g, &n) in p.collected[seat].iter().enumerate() {
                scalars[28 + 3 * k + g] = f32::from(n);
            }
        }
        scalars[40] = (super::CENTRE_ORDER.len() - usize::from(p.released)) as f32;
        scalars[41] = f32::from(p.pile_left());
        for (t, &n) in self.unseen.iter().enumerate() {
            scalars[42 + t] = f32::from(n);
        }
        match p.to_move {
            NOBODY => scalars[51] = 1.0,
            CHANCE => scalars[52] = 1.0,
            seat => scalars[47 + relative(usize::from(seat))] = 1.0,
        }
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
        push_list(&mut s, (0..players).map(|seat| p.scores[usize::from(seat)]));
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
