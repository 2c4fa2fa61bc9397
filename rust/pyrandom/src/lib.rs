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

use rand_mt::Mt;

// The README's example runs as a doctest, so it cannot drift from the crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDocs;

/// A Mersenne Twister seeded and drawn from exactly as CPython's `random.Random`.
#[derive(Clone, Debug)]
pub struct PyRandom {
    mt: Mt,
}

impl PyRandom {
    /// `random.Random(n)` for the integer whose 32-bit words are `words`, least significant
    /// first (CPython's `init_by_array` over `abs(n)`'s words; most significant zero words are
    /// dropped, and 0 is one zero word).
    pub fn from_words(words: &[u32]) -> PyRandom {
        let used = words
            .iter()
            .rposition(|&w| w != 0)
            .map_or(1, |last| last + 1);
        let key = if words.is_empty() {
            &[0][..]
        } else {
            &words[..used]
        };
        PyRandom {
            mt: Mt::new_with_key(key.iter().copied()),
        }
    }

    /// `random.Random(seed)`.
    pub fn from_u64(seed: u64) -> PyRandom {
        PyRandom::from_words(&[seed as u32, (seed >> 32) as u32])
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
        self.mt.next_u32()
    }

    /// CPython's `_randbelow(n)` (`_randbelow_with_getrandbits`): uniform in `0..n`.
    /// Returns 0 for `n == 0` without drawing (CPython's `getrandbits(0)`).
    pub fn randbelow(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let bits = u32::BITS - n.leading_zeros();
        loop {
            let r = self.mt.next_u32() >> (32 - bits);
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

    const PYTHON_2026: [u32; 20] = [
        5, 2, 0, 1, 13, 4, 11, 7, 18, 6, 8, 12, 9, 15, 14, 19, 17, 16, 10, 3,
    ];
    const PYTHON_5_PLUS_2_64: [u32; 10] = [7, 4, 3, 5, 0, 2, 6, 1, 9, 8];
}
