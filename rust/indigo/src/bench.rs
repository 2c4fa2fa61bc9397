//! The native workloads of `indigo bench`: seeded, so their checksums change only when the
//! engine's behaviour does.

use std::hint::black_box;
use std::ops::Range;

use indigo_search::Instant;
use indigo_search::{Outcome, Rng, game_seed, mix, seat_seed};

use rand::SeedableRng;

use crate::moves::Move;
use crate::policy::random_placement;
use crate::position::{MAX_PLAYERS, Position};
use crate::rng::{box_in_type_order, pcg_pile};
use crate::rules::Rules;

/// What a run of games came to.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GamesSummary {
    /// Games played.
    pub games: u64,
    /// Tiles placed in them.
    pub placements: u64,
    /// [`Outcome::fold_into`] over the games in index order.
    pub checksum: u64,
}

impl GamesSummary {
    /// The summary of `outcomes`, in order.
    pub fn of<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> GamesSummary {
        outcomes
            .into_iter()
            .fold(GamesSummary::default(), GamesSummary::with)
    }

    fn with(self, outcome: &Outcome) -> GamesSummary {
        GamesSummary {
            games: self.games + 1,
            placements: self.placements + u64::from(outcome.moves),
            checksum: outcome.fold_into(self.checksum),
        }
    }
}

/// Random playouts in a plain loop: games `games` of a batch seeded with `seed` in which every
/// seat is an [`indigo_search::PlayoutBot`] and piles are dealt with [`crate::Deal::Pcg`].
/// These are exactly the games [`indigo_search::Batch::run`] plays for that batch (tested),
/// without its outcome list and thread pool.
pub fn playouts(rules: Rules, seed: u64, games: Range<u64>) -> GamesSummary {
    let mut summary = GamesSummary::default();
    // One position reset in place each game.
    let mut position = Position::set_up(rules, &box_in_type_order());
    let mut rngs = [const { Rng::new(0) }; MAX_PLAYERS];
    for index in games {
        let game = game_seed(seed, index);
        position.reset(rules, &pcg_pile(game));
        // Only the seats in play are seeded: seeding is a tenth of a short game's cost.
        for (s, rng) in rngs[..usize::from(rules.players())].iter_mut().enumerate() {
            *rng = Rng::seed_from_u64(seat_seed(game, s));
        }
        position.play_out(&mut rngs);
        summary = summary.with(&Outcome::of(&position));
    }
    summary
}

/// Mean cost in nanoseconds of the core calls on positions met in seeded playouts.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct CallCosts {
    /// [`Position::legal_moves`]: the sorted list, allocation included.
    pub legal_moves_ns: f64,
    /// [`Position::legal_action_set`]: the legal actions as a bitset.
    pub legal_action_set_ns: f64,
    /// [`Position::play`]: a checked placement on a copy, the copy included.
    pub play_ns: f64,
    /// Copying a [`Position`].
    pub clone_ns: f64,
}

/// Times each core call over the positions of `games` seeded playouts, `rounds` times over.
pub fn call_costs(rules: Rules, seed: u64, games: u64, rounds: u32) -> CallCosts {
    let mut positions: Vec<(Position, Move)> = Vec::new();
    for index in 0..games {
        let mut position = Position::new(rules, &pcg_pile(game_seed(seed, index)))
            .unwrap_or_else(|_| unreachable!("a box"));
        let mut rng = Rng::seed_from_u64(mix(seed, index));
        while let Some(mv) = random_placement(&position, &mut rng) {
            positions.push((position, mv));
            position.play_unchecked(mv, &mut ());
        }
    }
    let time = |f: &mut dyn FnMut(&(Position, Move))| {
        let start = Instant::now();
        for _ in 0..rounds {
            positions.iter().for_each(&mut *f);
        }
        start.elapsed().as_secs_f64() * 1e9 / (positions.len() as f64 * f64::from(rounds))
    };
    CallCosts {
        legal_moves_ns: time(&mut |(p, _)| {
            black_box(black_box(p).legal_moves());
        }),
        legal_action_set_ns: time(&mut |(p, _)| {
            black_box(black_box(p).legal_action_set());
        }),
        play_ns: time(&mut |(p, mv)| {
            let mut next = *black_box(p);
            black_box(next.play(black_box(*mv)).is_ok());
            black_box(&next);
        }),
        clone_ns: time(&mut |(p, _)| {
            black_box(*black_box(p));
        }),
    }
}

/// Most games, and most rounds, [`call_costs`] takes from a caller that checks its input.
pub const MAX_COST_GAMES: u64 = 1 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench's games, pinned: this checksum changes only when the playout policy's random
    /// draws (their generator, `indigo_search::Rng`), the PCG deal or the rules engine do (docs/benchmarks.md says when it last did).
    #[test]
    fn playouts_are_pinned() {
        let two = playouts(Rules::new(2, 1).unwrap(), 2026, 0..1000);
        let four = playouts(Rules::new(4, 2).unwrap(), 2026, 0..1000);
        assert_eq!(
            (two.placements, two.checksum, four.placements, four.checksum),
            (53_808, 0xda58_b736_627c_84d7, 53_781, 0xfafc_a846_6d63_10a9)
        );
    }
}
