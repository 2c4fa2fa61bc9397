//! CPython's `random.Random` for the parts the engines need: seeding from a non-negative integer
//! (`random.Random(n)`), `_randbelow` and `shuffle`, so a seed reproduces the same shuffle in
//! Python and in Rust.
//!
//! ```
//! let mut items = [0, 1, 2, 3, 4];
//! pyrandom::PyRandom::from_u64(7).shuffle(&mut items);
//! let mut sorted = items;
//! sorted.sort_unstable();
//! assert_eq!(sorted, [0, 1, 2, 3, 4]);
//! ```

// The README's example runs as a doctest, so it cannot drift from the crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDocs;

/// Words of Mersenne Twister state.
const N: usize = 624;
/// The twist's middle distance: word `i` is twisted with word `i + M`.
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// The state `init_genrand(19650218)` leaves, which every `init_by_array` starts from.
const INIT_GENRAND_19650218: [u32; N] = {
    let mut mt = [0u32; N];
    mt[0] = 19_650_218;
    let mut i = 1;
    while i < N {
        let prev = mt[i - 1];
        mt[i] = 1_812_433_253u32
            .wrapping_mul(prev ^ (prev >> 30))
            .wrapping_add(i as u32);
        i += 1;
    }
    mt
};

/// A Mersenne Twister seeded and drawn from exactly as CPython's `random.Random`.
///
/// The state is twisted one word at a time as the words are drawn, not 624 at once: twisting
/// word `i` reads words `i`, `i + 1` and `i + 397` (mod 624), each already twisted exactly
/// when the whole-state twist (which goes in the same order) has twisted it, so the words are
/// the same and a shuffle of 54 items twists about 80 words instead of 624. Seeding starts
/// from a constant table. (Hand-written: `rand_mt`, which checks it in the tests, twists
/// only the whole state and seeds keys of more than 624 words unlike CPython.)
#[derive(Clone, Debug)]
pub struct PyRandom {
    /// Words `..next` are this generation's (twisted), words `next..` the last one's.
    state: [u32; N],
    /// The next word to twist and draw.
    next: usize,
}

impl PyRandom {
    /// `random.Random(n)` for the integer whose 32-bit words are `words`, least significant
    /// first (CPython's `init_by_array` over `abs(n)`'s words; most significant zero words are
    /// dropped, and 0 is one zero word).
    pub fn from_words(words: &[u32]) -> PyRandom {
        let [state] = init_by_array([PyRandom::key_words(words)]);
        PyRandom { state, next: N }
    }

    /// The key CPython seeds with for the integer of `words`: without its most significant
    /// zero words, and one zero word for 0.
    fn key_words(words: &[u32]) -> &[u32] {
        let used = words
            .iter()
            .rposition(|&w| w != 0)
            .map_or(1, |last| last + 1);
        if words.is_empty() {
            &[0]
        } else {
            &words[..used]
        }
    }

    /// `random.Random(seed)`.
    pub fn from_u64(seed: u64) -> PyRandom {
        PyRandom::from_words(&[seed as u32, (seed >> 32) as u32])
    }

    /// `random.Random(seed)` for each of `seeds`, seeded side by side: several generators
    /// are made faster this way than one by one.
    pub fn from_u64_lanes<const L: usize>(seeds: [u64; L]) -> [PyRandom; L] {
        let words = seeds.map(|seed| [seed as u32, (seed >> 32) as u32]);
        let keys = std::array::from_fn(|lane| PyRandom::key_words(&words[lane]));
        init_by_array(keys).map(|state| PyRandom { state, next: N })
    }

    /// `random.Random(seed)` for a seed of up to 128 bits.
    pub fn from_u128(seed: u128) -> PyRandom {
        PyRandom::from_words(&[
            seed as u32,
            (seed >> 32) as u32,
            (seed >> 64) as u32,
            (seed >> 96) as u32,
        ])
    }

    /// The next 32 random bits (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.next == N {
            self.next = 0;
        }
        let i = self.next;
        let mt = &mut self.state;
        let y = (mt[i] & UPPER_MASK) | (mt[if i + 1 < N { i + 1 } else { 0 }] & LOWER_MASK);
        let far = mt[if i + M < N { i + M } else { i + M - N }];
        mt[i] = far ^ (y >> 1) ^ if y & 1 == 0 { 0 } else { MATRIX_A };
        self.next = i + 1;
        temper(mt[i])
    }

    /// CPython's `_randbelow(n)` (`_randbelow_with_getrandbits`): uniform in `0..n`.
    /// Returns 0 for `n == 0` without drawing (CPython's `getrandbits(0)`).
    pub fn randbelow(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let bits = u32::BITS - n.leading_zeros();
        loop {
            let r = self.next_u32() >> (32 - bits);
            if r < n {
                return r;
            }
        }
    }

    /// CPython's `shuffle(x)`: Fisher-Yates from the back, `j = _randbelow(i + 1)`.
    ///
    /// # Panics
    /// If `items` holds 2^32 or more elements (CPython would draw more bits; not supported).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let bound = u32::try_from(i + 1).expect("shuffle supports fewer than 2^32 items");
            let j = self.randbelow(bound);
            items.swap(i, j as usize);
        }
    }
}

/// CPython's `init_by_array(key)` for each of `keys` (none empty), from the
/// `init_genrand(19650218)` state, side by side: the lanes' chains of dependent steps are
/// independent, so the processor overlaps them.
///
/// # Panics
/// If the keys' `max(624, length)` differ (keys of more than 624 words seed in one lane).
fn init_by_array<const L: usize>(keys: [&[u32]; L]) -> [[u32; N]; L] {
    let rounds = N.max(keys[0].len());
    assert!(
        keys.iter().all(|key| N.max(key.len()) == rounds),
        "lanes seed keys of equal rounds"
    );
    let mut mt = [INIT_GENRAND_19650218; L];
    let mut i = 1;
    let mut j = [0; L];
    for _ in 0..rounds {
        for ((mt, key), j) in mt.iter_mut().zip(keys).zip(&mut j) {
            let prev = mt[i - 1];
            mt[i] = (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[*j])
                .wrapping_add(*j as u32);
            *j += 1;
            if *j == key.len() {
                *j = 0;
            }
        }
        i += 1;
        if i == N {
            for mt in &mut mt {
                mt[0] = mt[N - 1];
            }
            i = 1;
        }
    }
    for _ in 0..N - 1 {
        for mt in &mut mt {
            let prev = mt[i - 1];
            mt[i] =
                (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
        }
        i += 1;
        if i == N {
            for mt in &mut mt {
                mt[0] = mt[N - 1];
            }
            i = 1;
        }
    }
    for mt in &mut mt {
        mt[0] = 0x8000_0000;
    }
    mt
}

/// The Mersenne Twister's output tempering of a state word.
const fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_matches_python() {
        // r = random.Random(2026); x = list(range(20)); r.shuffle(x); print(x)
        let mut x: Vec<u32> = (0..20).collect();
        PyRandom::from_u64(2026).shuffle(&mut x);
        assert_eq!(x, PYTHON_2026);
    }

    #[test]
    fn big_seeds_match_python() {
        // r = random.Random(5 + 2**64); x = list(range(10)); r.shuffle(x); print(x)
        let mut x: Vec<u32> = (0..10).collect();
        PyRandom::from_u128(5 + (1u128 << 64)).shuffle(&mut x);
        assert_eq!(x, PYTHON_5_PLUS_2_64);
    }

    #[test]
    fn zero_words_are_dropped() {
        let a = PyRandom::from_words(&[9, 0, 0]).next_u32();
        assert_eq!(a, PyRandom::from_u64(9).next_u32());
        assert_eq!(
            PyRandom::from_words(&[]).next_u32(),
            PyRandom::from_u64(0).next_u32()
        );
    }

    /// The lazy twist and the precomputed seeding state give `rand_mt`'s words (CPython's
    /// generator, seeded by `init_by_array` and twisted 624 words at a time) for many seeds
    /// and key lengths, across several generations of the state. (`rand_mt` seeds keys of
    /// more than 624 words differently from CPython: see `long_keys_match_python`.)
    #[test]
    fn words_match_the_whole_state_twist() {
        let mut key_source = rand_mt::Mt::new(99);
        for length in [1, 2, 3, 4, 5, 397, 623, 624] {
            for seed in 0..40u32 {
                let mut key: Vec<u32> = (0..length).map(|_| key_source.next_u32()).collect();
                key[0] = seed;
                key[length - 1] |= 1;
                let mut lazy = PyRandom::from_words(&key);
                let mut whole = rand_mt::Mt::new_with_key(key.iter().copied());
                let draws = if length < 5 { 3 * N + 7 } else { N + 1 };
                for draw in 0..draws {
                    assert_eq!(
                        lazy.next_u32(),
                        whole.next_u32(),
                        "key length {length}, seed {seed}, draw {draw}"
                    );
                }
            }
        }
        for seed in (0..2000u64).chain([u64::MAX, 1 << 32, 1 << 63]) {
            let mut lazy = PyRandom::from_u64(seed);
            let mut whole = rand_mt::Mt::new_with_key(
                PyRandom::key_words(&[seed as u32, (seed >> 32) as u32])
                    .iter()
                    .copied(),
            );
            for _ in 0..100 {
                assert_eq!(lazy.next_u32(), whole.next_u32(), "seed {seed}");
            }
        }
    }

    #[test]
    fn lanes_match_single_generators() {
        let seeds = [0, 1, 2026, 1 << 32, u64::MAX, 77];
        let mut lanes = PyRandom::from_u64_lanes(seeds);
        for (lane, seed) in lanes.iter_mut().zip(seeds) {
            let mut single = PyRandom::from_u64(seed);
            for _ in 0..700 {
                assert_eq!(lane.next_u32(), single.next_u32(), "seed {seed}");
            }
        }
    }

    #[test]
    fn long_keys_match_python() {
        // words = [(i * 2654435761 + 12345) % 2**32 for i in range(700)]
        // r = random.Random(sum(w << (32 * i) for i, w in enumerate(words)))
        // print([r.getrandbits(32) for _ in range(3)])
        let words: Vec<u32> = (0..700u32)
            .map(|i| i.wrapping_mul(2_654_435_761).wrapping_add(12_345))
            .collect();
        let mut rng = PyRandom::from_words(&words);
        let draws: Vec<u32> = (0..3).map(|_| rng.next_u32()).collect();
        assert_eq!(draws, [1_635_820_964, 1_788_933_857, 9_490_523]);
    }

    const PYTHON_2026: [u32; 20] = [
        5, 2, 0, 1, 13, 4, 11, 7, 18, 6, 8, 12, 9, 15, 14, 19, 17, 16, 10, 3,
    ];
    const PYTHON_5_PLUS_2_64: [u32; 10] = [7, 4, 3, 5, 0, 2, 6, 1, 9, 8];
}
