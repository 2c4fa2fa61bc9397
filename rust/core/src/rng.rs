//! Randomness, in one low module: the seeded deals (CPython's shuffle, as records need, and a
//! cheaper PCG-64 one), well-mixed seeds for a batch's games and seats, and uniform draws.

use pyrandom::PyRandom;
use rand_pcg::Pcg64Mcg;

use crate::tile::{TILE_COUNTS, TILE_TOTAL, TileType};

/// The 54 tiles in type order: fourteen 0s, six 1s, fourteen 2s, fourteen 3s, six 4s.
pub fn box_in_type_order() -> [TileType; TILE_TOTAL] {
    BOX_IN_TYPE_ORDER
}

/// [`box_in_type_order`], built once at compile time.
const BOX_IN_TYPE_ORDER: [TileType; TILE_TOTAL] = {
    let mut out = [TileType::WideCurves; TILE_TOTAL];
    let mut n = 0;
    let mut t = 0;
    while t < TILE_COUNTS.len() {
        let mut k = 0;
        while k < TILE_COUNTS[t] {
            out[n] = TileType::ALL[t];
            n += 1;
            k += 1;
        }
        t += 1;
    }
    out
};

/// The pile for `seed`, front first: the box in type order shuffled exactly as Python's
/// `random.Random(seed).shuffle()` shuffles it, so a record's `seed` reproduces its pile in
/// either language.
pub fn shuffled_pile(seed: u64) -> [TileType; TILE_TOTAL] {
    let [pile] = shuffled_piles([seed]);
    pile
}

/// [`shuffled_pile`] of each of `seeds`, their generators seeded side by side (faster than one
/// by one).
pub fn shuffled_piles<const L: usize>(seeds: [u64; L]) -> [[TileType; TILE_TOTAL]; L] {
    PyRandom::from_u64_lanes(seeds).map(|mut rng| {
        let mut pile = box_in_type_order();
        rng.shuffle(&mut pile);
        pile
    })
}

/// The box shuffled by Fisher-Yates driven by `Pcg64Mcg::seed_from_u64(seed)`: each 64-bit
/// draw makes two swaps, one from each 32-bit half mapped to its range by [`below_u32`].
#[inline(never)]
pub fn pcg_pile(seed: u64) -> [TileType; TILE_TOTAL] {
    use rand::{Rng as _, SeedableRng};
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pile = box_in_type_order();
    let mut i = TILE_TOTAL - 1;
    while i >= 2 {
        let bits = rng.next_u64();
        pile.swap(i, below_u32(bits as u32, i + 1));
        pile.swap(i - 1, below_u32((bits >> 32) as u32, i));
        i -= 2;
    }
    if i == 1 {
        pile.swap(1, below_u32(rng.next_u64() as u32, 2));
    }
    pile
}

// A batch's seeds are the search crate's, one rule for every game: game `index`'s seed shuffles
// the pile (as [`shuffled_pile`]) and, mixed with the seat, seeds each bot.
/// A uniform index below `n` (n > 0), by multiply-shift: the search crate's, for every game.
pub use indigo_search::below;
pub use indigo_search::{game_seed, mix};

/// `bits`, uniform over 32 bits, mapped to a uniform index below `n` by multiply-shift (bias
/// below `n / 2^32`).
#[inline]
pub fn below_u32(bits: u32, n: usize) -> usize {
    ((u64::from(bits) * n as u64) >> 32) as usize
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::rng::shuffled_pile;
    use crate::rules::Rules;
    use crate::simulate::Deal;

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

    #[test]
    fn pcg_deals_are_shuffled_boxes() {
        let piles: Vec<_> = (0..50).map(crate::rng::pcg_pile).collect();
        for pile in &piles {
            assert!(Position::new(Rules::indigo(2).unwrap(), pile).is_ok());
        }
        let distinct: std::collections::HashSet<_> = piles.iter().collect();
        assert_eq!(distinct.len(), 50);
        assert_eq!(Deal::Pcg.pile(9), crate::rng::pcg_pile(9));
        assert_eq!(Deal::Python.pile(9), shuffled_pile(9));
        assert_eq!("pcg".parse::<Deal>(), Ok(Deal::Pcg));
        assert!("mt".parse::<Deal>().is_err());
    }
}
