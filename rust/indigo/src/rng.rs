//! Indigo's randomness: the seeded deals (CPython's shuffle, as records need, and a cheaper
//! PCG-64 one) and a uniform draw from 32 bits. A batch's seeds and the uniform draws of every
//! game are the search crate's ([`indigo_search::game_seed`], [`indigo_search::mix`],
//! [`indigo_search::below`]).

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
/// draw makes up to six swaps, each taking its index below `i + 1` as the high word of the
/// draw's remaining bits times `i + 1` and keeping the low word for the next swap (batched
/// ranged draws, Brackett-Rozinsky and Lemire 2024). The draw's joint outcome is the high word
/// of its bits times the product of its ranges, below 2 * 10^10: each run of swaps is off
/// uniform by less than that product over 2^64 (10^-9).
#[inline(never)]
pub fn pcg_pile(seed: u64) -> [TileType; TILE_TOTAL] {
    use rand::{Rng as _, SeedableRng};
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pile = box_in_type_order();
    for draw in 0..(TILE_TOTAL - 1).div_ceil(SWAPS_PER_DRAW) {
        let mut bits = rng.next_u64();
        for swap in 0..SWAPS_PER_DRAW {
            let i = TILE_TOTAL - 1 - draw * SWAPS_PER_DRAW - swap;
            if i == 0 {
                break;
            }
            let wide = u128::from(bits) * u128::from(i as u64 + 1);
            pile.swap(i, (wide >> 64) as usize);
            bits = wide as u64;
        }
    }
    pile
}

/// Swaps of [`pcg_pile`] from one 64-bit draw: the product of six ranges up to 54 stays below
/// 2 * 10^10, a 10^-9 part of 2^64.
const SWAPS_PER_DRAW: usize = 6;

/// `bits`, uniform over 32 bits, mapped to a uniform index below `n` by multiply-shift (bias
/// below `n / 2^32`).
#[inline]
pub fn below_u32(bits: u32, n: usize) -> usize {
    ((u64::from(bits) * n as u64) >> 32) as usize
}

#[cfg(test)]
mod tests {
    use crate::deal::Deal;
    use crate::position::Position;
    use crate::rng::shuffled_pile;
    use crate::rules::Rules;

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
    fn pcg_deals_are_uniform_by_place_and_by_neighbour() {
        // Each of the six swaps a draw, the last one (places 0 and 1) among them, must spread
        // the types: a wrong index carried from swap to swap would pile one type up somewhere.
        const DEALS: u32 = 20_000;
        let mut seen = [[0u32; crate::tile::TILE_TYPE_COUNT]; crate::tile::TILE_TOTAL];
        // Neighbours share a draw: how often places p and p + 1 hold the same type.
        let mut alike = [0u32; crate::tile::TILE_TOTAL - 1];
        for seed in 0..DEALS {
            let pile = crate::rng::pcg_pile(u64::from(seed));
            for (place, tile) in pile.iter().enumerate() {
                seen[place][*tile as usize] += 1;
            }
            for (place, pair) in pile.windows(2).enumerate() {
                alike[place] += u32::from(pair[0] == pair[1]);
            }
        }
        // Two tiles of the box drawn at random are alike with chance sum c(c-1) / (54 * 53).
        let same: u32 = crate::tile::TILE_COUNTS
            .iter()
            .map(|&c| u32::from(c) * (u32::from(c) - 1))
            .sum();
        let expected_alike = DEALS * same / (54 * 53);
        for (place, &count) in alike.iter().enumerate() {
            assert!(
                count.abs_diff(expected_alike) < expected_alike / 6,
                "places {place} and {}: alike in {count} deals, expected {expected_alike}",
                place + 1
            );
        }
        for (place, counts) in seen.iter().enumerate() {
            for (tile, &count) in counts.iter().enumerate() {
                let expected = DEALS * u32::from(crate::tile::TILE_COUNTS[tile]) / 54;
                assert!(
                    count.abs_diff(expected) < expected / 6,
                    "type {tile} at place {place}: {count} of {DEALS} deals, expected {expected}"
                );
            }
        }
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
