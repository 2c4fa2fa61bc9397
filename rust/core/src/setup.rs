//! Seeded set-up: the pile is shuffled exactly as Python's `random.Random(seed).shuffle()`
//! shuffles the box in type order, so a record's `seed` reproduces its pile in either language.

use pyrandom::PyRandom;

use crate::tile::{TILE_COUNTS, TILE_TOTAL, TileType};

/// The 54 tiles in type order: fourteen 0s, six 1s, fourteen 2s, fourteen 3s, six 4s.
pub fn box_in_type_order() -> [TileType; TILE_TOTAL] {
    let mut out = [TileType::WideCurves; TILE_TOTAL];
    let mut n = 0;
    for (t, &count) in TileType::ALL.iter().zip(&TILE_COUNTS) {
        for _ in 0..count {
            out[n] = *t;
            n += 1;
        }
    }
    out
}

/// The pile for `seed`, front first.
pub fn shuffled_pile(seed: u64) -> [TileType; TILE_TOTAL] {
    let mut pile = box_in_type_order();
    PyRandom::from_u64(seed).shuffle(&mut pile);
    pile
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_python_for_the_vector_seed_1002() {
        // random.Random(1002).shuffle(box): the pile of the public vector game-01.
        let want = [
            2, 2, 0, 1, 0, 2, 0, 0, 3, 3, 0, 3, 2, 4, 0, 0, 4, 2, 3, 2, 3, 1, 1, 3, 3, 3, 2, 2, 2,
            3, 4, 0, 3, 0, 4, 0, 4, 1, 0, 2, 2, 0, 3, 3, 3, 4, 2, 1, 0, 0, 1, 2, 3, 2,
        ];
        let got: Vec<u8> = shuffled_pile(1002).iter().map(|t| *t as u8).collect();
        assert_eq!(got, want);
    }
}
