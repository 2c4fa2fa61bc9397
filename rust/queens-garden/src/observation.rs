//! The observation tensor: one seat's view of a position as a flat `f32` vector, laid out as
//! [`OBSERVATION_LAYOUT`] says. Queen's Garden hides nothing from one player that another
//! sees, so every seat's observation holds the same facts, with the seats rotated so that
//! seat 0 of every per-seat block is the observer ("seat k" is k seats after it). Nothing
//! hidden (the bag's order, kinds nobody has seen) is in it.

use crate::garden::AreaState;
use crate::geometry::{Area, CELL_COUNT, Cell};
use crate::kind::KIND_COUNT;
use crate::position::{DisplayExpansion, MAX_STACK, Position};
use crate::rules::MAX_PLAYERS;

const S: usize = MAX_PLAYERS;
const C: usize = CELL_COUNT;
const K: usize = KIND_COUNT;
const SLOTS: usize = MAX_STACK;

/// The observation tensor's segments as `(name, offset, shape)`, in order, covering it
/// exactly. Counts are plain numbers; everything else is 0 or 1. Per-seat blocks come first
/// (`[seat, ...]`, seats counted from the observer; seats beyond the game's are zero).
pub const OBSERVATION_LAYOUT: [(&str, usize, &[usize]); 23] = [
    // 1 where the seat's cell holds a hexagon (tile or printed) of that colour / pattern
    // (index value - 1); cells in canonical order.
    ("garden_colour", 0, &[S, 6, C]),
    ("garden_pattern", S * 6 * C, &[S, 6, C]),
    // 1 where the cell's hexagon is an expansion's printed hexagon.
    ("garden_printed", S * 12 * C, &[S, C]),
    // 1 where the cell is a free space (section 2.6).
    ("garden_free", S * 13 * C, &[S, C]),
    // Per area 0..5: face up, face down.
    ("garden_areas", S * 14 * C, &[S, 6, 2]),
    ("storage_tiles", S * (14 * C + 12), &[S, K]),
    ("storage_expansions", S * (14 * C + 12 + K), &[S, K]),
    ("storage_jokers", S * (14 * C + 12 + 2 * K), &[S]),
    ("scores", S * (14 * C + 13 + 2 * K), &[S]),
    ("passed", S * (14 * C + 14 + 2 * K), &[S]),
    ("to_move", S * (14 * C + 15 + 2 * K), &[S]),
    ("first_passer", S * (14 * C + 16 + 2 * K), &[S]),
    // Per slot of the round stack: its tiles (the stack top's or a face-down display
    // expansion's), by kind.
    ("slot_tiles", DISPLAY, &[SLOTS, K]),
    // Per slot: the stack top, under the top, a face-down display expansion, face up.
    ("slot_state", DISPLAY + SLOTS * K, &[SLOTS, 4]),
    // Per slot: the kind of the face-up display expansion.
    ("slot_expansion", DISPLAY + SLOTS * (K + 4), &[SLOTS, K]),
    ("tower", PUBLIC, &[K]),
    // The kinds no player has seen face up (round stacks, face-down ones, the supply).
    ("unseen_expansions", PUBLIC + K, &[K]),
    ("bag_size", PUBLIC + 2 * K, &[1]),
    ("supply", PUBLIC + 2 * K + 1, &[1]),
    // One-hot round 1..4.
    ("round", PUBLIC + 2 * K + 2, &[4]),
    // This round's categories among the 12 attributes.
    ("categories", PUBLIC + 2 * K + 6, &[12]),
    ("game_over", PUBLIC + 2 * K + 18, &[1]),
    // 1 where the seat's storage is full (12 tiles and jokers), a convenience for masks.
    ("storage_full", PUBLIC + 2 * K + 19, &[S]),
];

const DISPLAY: usize = S * (14 * C + 17 + 2 * K);
const PUBLIC: usize = DISPLAY + SLOTS * (2 * K + 4);

/// Length of the flat observation tensor.
pub const OBSERVATION_SIZE: usize = PUBLIC + 2 * K + 19 + S;

impl Position {
    /// `observer`'s observation, written into `out` (every value set).
    ///
    /// # Panics
    /// If `observer` is not a seat or `out` is not [`OBSERVATION_SIZE`] long.
    pub fn observation(&self, observer: u8, out: &mut [f32]) {
        let players = self.rules().players();
        assert!(observer < players, "no seat {observer}");
        assert_eq!(out.len(), OBSERVATION_SIZE, "the observation's length");
        out.fill(0.0);
        let at = |name: &str| {
            OBSERVATION_LAYOUT
                .iter()
                .find(|s| s.0 == name)
                .map_or(0, |s| s.1)
        };
        let flag = |b: bool| f32::from(u8::from(b));
        for k in 0..usize::from(players) {
            let seat = (observer + k as u8) % players;
            let garden = self.garden(seat);
            for cell in Cell::all() {
                let c = usize::from(cell.index());
                if let Some(kind) = garden.hexagon(cell) {
                    let colour = usize::from(kind.colour().index());
                    let value = usize::from(kind.value().get() - 1);
                    out[at("garden_colour") + (k * 6 + colour) * C + c] = 1.0;
                    out[at("garden_pattern") + (k * 6 + value) * C + c] = 1.0;
                    out[at("garden_printed") + k * C + c] = flag(garden.tile(cell).is_none());
                }
                out[at("garden_free") + k * C + c] = flag(garden.is_free(cell));
            }
            for area in Area::all() {
                let a = at("garden_areas") + (k * 6 + usize::from(area.index())) * 2;
                match garden.area(area) {
                    AreaState::FaceUp { .. } => out[a] = 1.0,
                    AreaState::FaceDown => out[a + 1] = 1.0,
                    AreaState::Empty => {}
                }
            }
            let storage = self.storage(seat);
            for kind in storage.tiles() {
                out[at("storage_tiles") + k * K + usize::from(kind.id())] += 1.0;
            }
            for kind in storage.expansions() {
                out[at("storage_expansions") + k * K + usize::from(kind.id())] = 1.0;
            }
            out[at("storage_jokers") + k] = f32::from(storage.jokers());
            out[at("storage_full") + k] = flag(storage.free_tile_spaces() == 0);
            out[at("scores") + k] = self.scores()[usize::from(seat)] as f32;
            out[at("passed") + k] = flag(self.passed()[usize::from(seat)]);
            out[at("to_move") + k] = flag(self.to_move() == Some(seat));
            out[at("first_passer") + k] = flag(self.first_passer() == Some(seat));
        }
        let mut slot_tiles = |slot: u8, tiles: &[crate::kind::Kind]| {
            for kind in tiles {
                out[at("slot_tiles") + usize::from(slot) * K + usize::from(kind.id())] += 1.0;
            }
        };
        let mut states = [None; SLOTS];
        if let Some(stack) = self.stack() {
            slot_tiles(stack.slot, &stack.tiles);
            states[usize::from(stack.slot)] = Some(0);
            for s in 1..=stack.below {
                states[usize::from(stack.slot + s)] = Some(1);
            }
        }
        let mut up = Vec::new();
        for d in self.display() {
            match d {
                DisplayExpansion::Down { slot, tiles } => {
                    slot_tiles(slot, &tiles);
                    states[usize::from(slot)] = Some(2);
                }
                DisplayExpansion::Up { slot, kind } => {
                    up.push((slot, kind));
                    states[usize::from(slot)] = Some(3);
                }
            }
        }
        for (slot, state) in states.iter().enumerate() {
            if let Some(s) = state {
                out[at("slot_state") + slot * 4 + s] = 1.0;
            }
        }
        for (slot, kind) in up {
            out[at("slot_expansion") + usize::from(slot) * K + usize::from(kind.id())] = 1.0;
        }
        for kind in self.tower() {
            out[at("tower") + usize::from(kind.id())] += 1.0;
        }
        let order = self.expansion_order();
        for (i, kind) in order.iter().enumerate() {
            if self.revealed() >> i & 1 == 0 {
                out[at("unseen_expansions") + usize::from(kind.id())] = 1.0;
            }
        }
        out[at("bag_size")] = self.bag_len() as f32;
        out[at("supply")] = self.supply() as f32;
        out[at("round") + usize::from(self.round()) - 1] = 1.0;
        for attribute in self.rules().wheel().round(self.round()) {
            out[at("categories") + usize::from(attribute.index())] = 1.0;
        }
        out[at("game_over")] = flag(self.is_over());
    }
}

#[cfg(test)]
mod tests;
