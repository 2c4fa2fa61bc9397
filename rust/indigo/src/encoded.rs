//! Indigo numbered for a network ([`indigo_search::Encoded`]): the observation tensor of
//! [`crate::OBSERVATION_LAYOUT`] and the [`ACTION_COUNT`] action numbers, so that the PUCT
//! search ([`indigo_search::Puct`]) can ask a learned evaluator about Indigo positions and
//! self-play keeps its samples (legal actions as dense masks).

use indigo_search::{Encoded, LegalMasks};

use crate::action::{ACTION_COUNT, Action};
use crate::position::{OBSERVATION_SIZE, Position};

impl Encoded for Position {
    const OBSERVATION_SIZE: usize = OBSERVATION_SIZE;
    const ACTION_COUNT: usize = ACTION_COUNT;
    type Legal = LegalMasks<ACTION_COUNT>;
    const DEFAULT_NETWORK: &'static [u8] = include_bytes!("../networks/default.safetensors");

    #[inline]
    fn action_number(action: Action) -> usize {
        action.index()
    }

    /// # Panics
    /// If `out` is not [`OBSERVATION_SIZE`] long, or `seat` is no seat of the game.
    fn observation(&self, seat: u8, out: &mut [f32]) {
        let out: &mut [f32; OBSERVATION_SIZE] = out
            .try_into()
            .unwrap_or_else(|_| panic!("an observation is {OBSERVATION_SIZE} values"));
        self.information(seat).observation(out);
    }
}

#[cfg(test)]
mod tests {
    use indigo_search::{
        Encoded, Evaluation, FnEvaluator, Game, Puct, PuctConfig, RolloutEvaluator, encode_leaves,
    };

    use crate::deal::Deal;
    use crate::position::{OBSERVATION_SIZE, Position};
    use crate::rules::Rules;

    fn start(seed: u64) -> Position {
        Position::new(Rules::indigo(2).unwrap(), &Deal::Python.pile(seed)).unwrap()
    }

    #[test]
    fn leaves_are_encoded_as_their_movers_see_them() {
        let mut position = start(3);
        let mut legal = Vec::new();
        Game::legal_actions(&position, &mut legal);
        Game::apply(&mut position, legal[5]);
        let (mut observations, mut masks) = (Vec::new(), Vec::new());
        encode_leaves(&[start(3), position], &mut observations, &mut masks);
        assert_eq!(observations.len(), 2 * OBSERVATION_SIZE);
        let mut own = [0f32; OBSERVATION_SIZE];
        position.information(1).observation(&mut own);
        assert_eq!(observations[OBSERVATION_SIZE..], own);
        let mask = &masks[Position::ACTION_COUNT..];
        Game::legal_actions(&position, &mut legal);
        let marked: Vec<usize> = (0..Position::ACTION_COUNT).filter(|&a| mask[a]).collect();
        let numbers: Vec<usize> = legal.iter().map(|&a| Position::action_number(a)).collect();
        assert_eq!(marked, numbers);
    }

    #[test]
    fn puct_reads_only_what_the_mover_knows() {
        // Two deals that the first mover cannot tell apart: the same hand, another pile.
        let (a, b) = (start(3), start(3));
        let seat = a.to_move().unwrap();
        let mut rng = <indigo_search::Rng as rand::SeedableRng>::seed_from_u64(9);
        let other = <Position as Game>::sample(&a.information(seat), &mut rng);
        assert_eq!(a.information(seat), other.information(seat));
        let config = PuctConfig::new(300, 8, 1.5, 0.3, 0.25, 0.0).unwrap();
        let search = |state: &Position| {
            Puct::new(config, 4)
                .search(state, &mut RolloutEvaluator::new(4))
                .unwrap()
                .unwrap()
        };
        let (found, again) = (search(&b), search(&other));
        assert_eq!(found, again);
        assert_eq!(found.visits.iter().map(|v| v.1).sum::<u32>(), 300);
        let mut legal = Vec::new();
        Game::legal_actions(&a, &mut legal);
        assert!(legal.contains(&found.best));
    }

    #[test]
    fn an_evaluator_sees_every_leaf_through_its_movers_eyes() {
        let state = start(8);
        let mut seen = Vec::new();
        let mut spy = FnEvaluator(|leaves: &[Position]| {
            let (mut observations, mut masks) = (Vec::new(), Vec::new());
            encode_leaves(leaves, &mut observations, &mut masks);
            for (leaf, row) in leaves.iter().zip(observations.chunks(OBSERVATION_SIZE)) {
                let mover = leaf.to_move().unwrap();
                let mut own = [0f32; OBSERVATION_SIZE];
                leaf.information(mover).observation(&mut own);
                seen.push(row == own);
            }
            Evaluation::new(
                leaves.len(),
                vec![1.0; leaves.len() * Position::ACTION_COUNT],
                vec![0.0; leaves.len() * 2],
            )
        });
        let config = PuctConfig::new(40, 8, 1.5, 0.3, 0.0, 0.0).unwrap();
        Puct::new(config, 1)
            .search(&state, &mut spy)
            .unwrap()
            .unwrap();
        assert_eq!(seen.len(), 41);
        assert!(seen.iter().all(|&same| same));
    }
}
