//! The random numbers of every search, bot, batch and determinization: the generator, uniform
//! draws from it, and the seeds a batch derives for each game and seat.

/// The random number generator of every search, bot and determinization: wyrand, one 64-bit
/// addition and one 64 x 64 -> 128-bit multiplication a draw (a playout draws once a move).
pub type Rng = wyrand::WyRand;

/// A uniform index below `n` (n > 0), by multiply-shift (Lemire; bias below 2^-50 here).
#[inline]
pub fn below(rng: &mut Rng, n: usize) -> usize {
    ((u128::from(rand::Rng::next_u64(rng)) * n as u128) >> 64) as usize
}

/// A uniform number in [0, 1).
#[inline]
pub(crate) fn unit(rng: &mut Rng) -> f64 {
    (rand::Rng::next_u64(rng) >> 11) as f64 / (1u64 << 53) as f64
}

/// An outcome drawn by its probability (the last one if rounding leaves a remainder).
pub fn sample_outcome<A: Copy>(outcomes: &[(A, f64)], rng: &mut Rng) -> Option<A> {
    let mut left = unit(rng);
    for &(action, p) in outcomes {
        if left < p {
            return Some(action);
        }
        left -= p;
    }
    outcomes.last().map(|&(a, _)| a)
}

/// A well-mixed 64-bit value from `seed` and `index` (SplitMix64's finaliser).
pub fn mix(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `index` of a batch seeded with `seed`: it sets the game up
/// ([`crate::Setup::start`]) and, mixed with the seat, seeds each bot.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix(seed, index) >> 11 // 53 bits, so Python floats and JSON keep it exact
}
