//! Indigo's playout policy: the placement every playout, [`indigo_search::PlayoutBot`] and the
//! benchmarks play.

use indigo_search::Rng;

use crate::moves::Move;
use crate::position::{PolicyChoice, Position};

/// One placement of the playout policy that benchmarks compare across engines: a uniformly
/// random tile of the hand, a uniformly random empty route cell, then a uniformly random legal
/// distinct rotation. Builds no legal-move list. `None` when no seat is to move. Faster than a
/// uniform choice among placements and not uniform (a cell with more legal rotations is no
/// likelier to be chosen).
// Measured: behind the batch's bot dispatch it otherwise stays out of line, costing ~10%.
#[allow(clippy::inline_always)]
#[inline(always)]
pub fn random_placement(position: &Position, rng: &mut Rng) -> Option<Move> {
    position.policy_choice(rng).map(PolicyChoice::to_move)
}

/// Plays `position` to the end with [`random_placement`]; returns the placements made.
pub fn random_playout(position: &mut Position, rng: &mut Rng) -> u32 {
    position.play_out(rng)
}

#[cfg(test)]
mod tests {
    use crate::policy::random_placement;
    use crate::position::Position;
    use crate::testing::all_configurations;
    use rand::SeedableRng;

    #[test]
    fn playout_policy_plays_only_legal_moves_to_the_end() {
        for (c, rules) in all_configurations().into_iter().enumerate() {
            let mut rng = indigo_search::Rng::seed_from_u64(c as u64);
            for seed in 0..50 {
                let mut p = Position::new(rules, &crate::rng::shuffled_pile(seed)).unwrap();
                while let Some(m) = random_placement(&p, &mut rng) {
                    p.play(m).unwrap();
                }
                assert!(p.is_over());
                assert_eq!(p.gems_left(), 0);
            }
        }
    }
}
