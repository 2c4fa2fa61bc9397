//! Simple bots: uniformly random, and greedy on immediate points.

use indigo_search::Rng;
use rand::SeedableRng;

use crate::action::Action;
use crate::moves::Move;
use crate::position::{Information, PolicyChoice, Position};
use indigo_search::Bot as SearchBot;

/// Something that picks a move for the seat to move, from what that seat knows: a bot is
/// given an [`Information`], never the hidden pile or hands.
pub trait Bot {
    /// A legal move for the observer, or `None` when it is not to move.
    fn choose(&mut self, info: &Information) -> Option<Move>;

    /// [`Bot::choose`] for the seat to move in `position`.
    fn choose_in(&mut self, position: &Position) -> Option<Move> {
        let seat = position.to_move()?;
        self.choose(&position.information(seat))
    }
}

/// Picks uniformly among the distinct legal placements: the one search's
/// [`indigo_search::RandomBot`] over Indigo.
#[derive(Clone, Debug)]
pub struct RandomBot(indigo_search::RandomBot<Action>);

impl RandomBot {
    /// A bot whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot(indigo_search::RandomBot::new(seed))
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, info: &Information) -> Option<Move> {
        self.choose_in(&mover_view(info)?)
    }

    /// The same choice as [`Bot::choose`]: the legal placements are the mover's own.
    fn choose_in(&mut self, position: &Position) -> Option<Move> {
        SearchBot::choose(&mut self.0, position).map(Action::to_move)
    }
}

/// Maximises its own immediate points, then minimises its opponents'; ties broken at random:
/// the one search's [`indigo_search::GreedyBot`] over Indigo, looking ahead in the mover's
/// view with hidden tiles blanked (they never change immediate points).
#[derive(Clone, Debug)]
pub struct GreedyBot(indigo_search::GreedyBot<Action>);

impl GreedyBot {
    /// A bot whose tie-breaks are fixed by `seed`.
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot(indigo_search::GreedyBot::new(seed))
    }
}

impl Bot for GreedyBot {
    fn choose(&mut self, info: &Information) -> Option<Move> {
        self.choose_in(&mover_view(info)?)
    }

    /// The same choice as [`Bot::choose`]: the lookahead blanks what the mover cannot see.
    fn choose_in(&mut self, position: &Position) -> Option<Move> {
        SearchBot::choose(&mut self.0, position).map(Action::to_move)
    }
}

/// The position `info`'s observer sees, hidden tiles blanked, if it is to move.
fn mover_view(info: &Information) -> Option<Position> {
    (info.to_move() == Some(info.observer())).then(|| info.blanked())
}

/// Plays [`random_placement`]: the playout policy of the benchmarks, as a bot. Faster than
/// [`RandomBot`] and not uniform over placements (a cell with more legal rotations is no
/// likelier to be chosen).
#[derive(Clone, Debug)]
pub struct PlayoutBot {
    rng: Rng,
}

impl PlayoutBot {
    /// A bot whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> PlayoutBot {
        PlayoutBot {
            rng: Rng::seed_from_u64(seed),
        }
    }

    /// The generator its choices come from.
    pub(crate) fn into_rng(self) -> Rng {
        self.rng
    }
}

impl Bot for PlayoutBot {
    fn choose(&mut self, info: &Information) -> Option<Move> {
        if info.to_move() != Some(info.observer()) {
            return None;
        }
        random_placement(&info.blanked(), &mut self.rng)
    }

    /// The same choice as [`Bot::choose`] without building the information: the policy reads
    /// only the mover's hand and the empty cells.
    fn choose_in(&mut self, position: &Position) -> Option<Move> {
        random_placement(position, &mut self.rng)
    }
}

/// One placement of the playout policy that benchmarks compare across engines: a uniformly
/// random tile of the hand, a uniformly random empty route cell, then a uniformly random legal
/// distinct rotation. Builds no legal-move list. `None` when no seat is to move.
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
    use crate::bots::Bot;
    use crate::ismcts::IsmctsConfig;
    use crate::position::Position;
    use crate::rng::shuffled_pile;
    use crate::simulate::{BotSpec, Deal, play_game};
    use crate::testing::all_configurations;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn bots_play_only_legal_moves_in_every_configuration() {
        let specs: [BotSpec; 3] = [
            BotSpec::Random,
            BotSpec::Greedy,
            BotSpec::Ismcts(IsmctsConfig::simulations(30)),
        ];
        for rules in all_configurations() {
            let players = usize::from(rules.players());
            let seats: Vec<BotSpec> = (0..players).map(|s| specs[s % 3]).collect();
            for index in 0..2 {
                // play_game stops early on an illegal move; a full game proves every move legal.
                let outcome = play_game(
                    rules,
                    &seats,
                    11,
                    index,
                    Deal::Python,
                    &AtomicBool::new(false),
                );
                let mut p =
                    Position::new(rules, &shuffled_pile(indigo_search::game_seed(11, index)))
                        .unwrap();
                let mut bots: Vec<crate::simulate::NativeBot> = (0..)
                    .zip(&seats)
                    .map(|(s, spec)| {
                        crate::NativeBot::new(
                            *spec,
                            indigo_search::mix(indigo_search::game_seed(11, index), s),
                        )
                    })
                    .collect();
                while let Some(seat) = p.to_move() {
                    let mv = bots[usize::from(seat)]
                        .choose(&p.information(seat))
                        .unwrap();
                    p.play(mv).unwrap();
                }
                assert_eq!(outcome.scores, p.scores());
                assert_eq!(outcome.placements, p.placed());
            }
        }
    }

    #[test]
    fn playout_bot_reads_only_what_the_mover_sees() {
        use crate::bots::PlayoutBot;
        for rules in all_configurations() {
            for seed in 0..10u64 {
                let mut p = Position::new(rules, &crate::rng::pcg_pile(seed)).unwrap();
                let (mut direct, mut informed) = (PlayoutBot::new(seed), PlayoutBot::new(seed));
                while let Some(seat) = p.to_move() {
                    let mv = direct.choose_in(&p).unwrap();
                    assert_eq!(informed.choose(&p.information(seat)), Some(mv));
                    p.play(mv).unwrap();
                }
                assert!(p.is_over());
            }
        }
    }

    #[test]
    fn playout_policy_plays_only_legal_moves_to_the_end() {
        use crate::bots::random_placement;
        use rand::SeedableRng;
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
