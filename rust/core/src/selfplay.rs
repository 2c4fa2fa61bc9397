//! Self-play: the games of a [`Batch`], each kept as an `indigo-record/1` record and as one
//! training sample per move: what the mover saw, what it could play, what it played, what its
//! search thought, and how the game ended for it. The game loop and the samples are the one
//! search's ([`indigo_search::self_play_with`]); Indigo keeps its legal actions as dense masks.
//!
//! Game `index` is the very game [`Batch::run`] plays with that index: the same pile, bots
//! and moves (the Python deal is used, so a record's `seed` deals its pile).

use std::convert::Infallible;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use indigo_search::LegalMasks;
use serde_json::Value;

use crate::action::{ACTION_COUNT, Action};
use crate::game::Game;
use crate::ismcts::Visits;
use crate::moves::Move;
use crate::position::Position;
use crate::record::write_record;
use crate::rules::Rules;
use crate::simulate::{Batch, Outcome, seat_bots};

/// Training samples, one row per move, in flat row-major columns: the legal actions as
/// [`ACTION_COUNT`] flags a row, actions numbered as [`Action::index`]; the outcome is under
/// [`Utility::Win`](crate::Utility::Win).
pub type Samples = indigo_search::Samples<LegalMasks<ACTION_COUNT>>;

/// One self-play game: its record and its samples.
#[derive(Clone, Debug)]
pub struct SelfPlayGame {
    /// The `indigo-record/1` record, with `players_names` (each seat's bot spec) and `game`
    /// (the index) added.
    pub record: Value,
    /// How it ended.
    pub outcome: Outcome,
    /// One row per move.
    pub samples: Samples,
}

/// How a self-play game is set up and who plays it: the rules, the game's seed (its pile
/// dealt as Python deals it), its index in the run, and each seat's name for the record.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlaySetup<'a> {
    /// The rules.
    pub rules: Rules,
    /// The game's seed.
    pub seed: u64,
    /// The game's index in its run.
    pub index: u64,
    /// Each seat's bot, as the record names it.
    pub names: &'a [String],
}

/// Plays the game `setup` describes keeping its record and samples, asking `decide` for each
/// move: given the position and the mover, the move with the search's root visits if it
/// searched, or `None` to cut the game short. A decider that knows only the mover's
/// [`Information`](crate::Information) builds it from the two.
///
/// # Errors
/// The first error of `decide`, which ends the game.
pub fn self_play_with<E>(
    setup: SelfPlaySetup<'_>,
    mut decide: impl FnMut(&Position, u8) -> Result<Option<(Move, Option<Visits>)>, E>,
) -> Result<SelfPlayGame, E> {
    let mut game = Game::from_seed(setup.rules, setup.seed);
    let start = *game.position();
    let played =
        indigo_search::self_play_with(start, setup.seed, setup.index, |position, seat| {
            let decided = decide(position, seat)?;
            Ok(decided.map(|(mv, visits)| {
                let action = Action::from_move(mv).unwrap_or_else(|| unreachable!("a placement"));
                (action, visits)
            }))
        })?;
    for action in &played.actions {
        let mv = action.to_move();
        if let Err(e) = game.play(mv) {
            unreachable!("a bot chose {mv}, which is illegal: {e}");
        }
    }
    let mut record = write_record(&game);
    if let Value::Object(fields) = &mut record {
        let names = setup.names.iter().map(|name| Value::from(name.as_str()));
        fields.insert("players_names".into(), names.collect());
        fields.insert("game".into(), setup.index.into());
    }
    Ok(SelfPlayGame {
        record,
        outcome: Outcome::of(game.position()),
        samples: played.samples,
    })
}

impl Batch {
    /// Plays game `index` keeping its record and samples; a game that `stop` interrupts is
    /// cut short.
    pub fn self_play_game(&self, index: u64, stop: &AtomicBool) -> SelfPlayGame {
        let seats = self.seats(index);
        let seed = self.game_seed(index);
        let mut bots = seat_bots(&seats, seed);
        let names: Vec<String> = seats.iter().map(ToString::to_string).collect();
        let setup = SelfPlaySetup {
            rules: self.rules(),
            seed,
            index,
            names: &names,
        };
        let played = self_play_with(setup, |position, seat| {
            let decided = bots[usize::from(seat)]
                .as_mut()
                .and_then(|bot| bot.decide(position, stop));
            Ok::<_, Infallible>(decided.filter(|_| !stop.load(Ordering::Relaxed)))
        });
        match played {
            Ok(game) => game,
        }
    }

    /// Plays games `games` as [`run_games`](indigo_search::run_games) does, keeping records and samples.
    pub fn self_play(
        &self,
        games: Range<u64>,
        threads: usize,
        done: &AtomicU64,
        cancel: &AtomicBool,
    ) -> Option<Vec<SelfPlayGame>> {
        indigo_search::run_games(games, threads, done, cancel, |index| {
            self.self_play_game(index, cancel)
        })
    }
}

#[cfg(test)]
// Observation values, returns and shares are small exact numbers.
#[allow(clippy::float_cmp)]
mod tests {
    use crate::action::{ACTION_COUNT, Action};
    use crate::game::Game;
    use crate::ismcts::IsmctsConfig;
    use crate::position::OBSERVATION_SIZE;
    use crate::rules::Rules;
    use crate::selfplay::Samples;
    use crate::simulate::{Batch, BotSpec, Deal, Outcome};
    use std::sync::atomic::{AtomicBool, AtomicU64};

    fn self_play_batch(players: u8) -> Batch {
        Batch::new(
            Rules::indigo(players).unwrap(),
            vec![
                BotSpec::Ismcts(IsmctsConfig::simulations(40)),
                BotSpec::Greedy,
                BotSpec::Random,
                BotSpec::Playout,
            ],
            Some(&[
                (0..i64::from(players)).collect(),
                (0..i64::from(players)).rev().collect(),
            ]),
            11,
            Deal::Python,
        )
        .unwrap()
    }

    #[test]
    fn self_play_plays_the_batch_games() {
        for players in [2, 3, 4] {
            let batch = self_play_batch(players);
            let (done, cancel) = (AtomicU64::new(0), AtomicBool::new(false));
            let outcomes = batch.run(5..11, 2, &done, &cancel).unwrap();
            let games = batch.self_play(5..11, 2, &done, &cancel).unwrap();
            assert_eq!(done.into_inner(), 12);
            let kept: Vec<_> = games.iter().map(|g| g.outcome).collect();
            assert_eq!(kept, outcomes);
        }
    }

    #[test]
    fn self_play_samples_describe_every_move_of_the_record() {
        let batch = self_play_batch(3);
        let (done, cancel) = (AtomicU64::new(0), AtomicBool::new(false));
        let mut all = Samples::default();
        let games = batch.self_play(20..24, 1, &done, &cancel).unwrap();
        for (index, played) in (20..24).zip(&games) {
            let samples = &played.samples;
            let game = crate::record::read_record_value(&played.record).unwrap();
            assert_eq!(played.record["game"], index);
            assert_eq!(
                played.record["players_names"][0],
                batch.seats(index)[0].to_string()
            );
            assert_eq!(Outcome::of(game.position()), played.outcome);
            assert_eq!(samples.len(), game.moves().len());
            assert!(samples.game.iter().all(|&g| g == index));
            let mut replay = Game::from_seed(batch.rules(), batch.game_seed(index));
            for (row, mv) in game.moves().enumerate() {
                let position = replay.position();
                let seat = position.to_move().unwrap();
                assert_eq!(samples.ply[row] as usize, row);
                assert_eq!(samples.seat[row], seat);
                let mut observation = [0f32; OBSERVATION_SIZE];
                position.information(seat).observation(&mut observation);
                let rows = row * OBSERVATION_SIZE..(row + 1) * OBSERVATION_SIZE;
                assert_eq!(samples.observations[rows], observation);
                let action = Action::from_move(mv).unwrap();
                assert_eq!(samples.action[row] as usize, action.index());
                let mask = &samples.legal.masks[row * ACTION_COUNT..(row + 1) * ACTION_COUNT];
                let legal: Vec<usize> =
                    position.legal_actions().iter().map(|a| a.index()).collect();
                let masked: Vec<usize> = (0..ACTION_COUNT).filter(|&a| mask[a]).collect();
                assert_eq!(masked, legal);
                let visits =
                    samples.visit_offsets[row] as usize..samples.visit_offsets[row + 1] as usize;
                let searched = matches!(batch.seats(index)[usize::from(seat)], BotSpec::Ismcts(_));
                assert_eq!(samples.searched[row], searched);
                if searched {
                    assert_eq!(samples.visit_counts[visits.clone()].iter().sum::<u32>(), 40);
                    assert!(
                        samples.visit_actions[visits]
                            .iter()
                            .all(|&a| mask[a as usize])
                    );
                } else {
                    assert!(visits.is_empty());
                }
                let returns = game.position().returns(crate::position::Utility::Win);
                assert_eq!(samples.outcome[row], returns[usize::from(seat)] as f32);
                assert_eq!(
                    samples.points[row],
                    game.position().scores()[usize::from(seat)]
                );
                replay.play(mv).unwrap();
            }
            let before = all.len();
            all.append(samples);
            assert_eq!(all.len(), before + samples.len());
            assert_eq!(
                *all.visit_offsets.last().unwrap() as usize,
                all.visit_actions.len()
            );
        }
        assert_eq!(all.visit_offsets.len(), all.len() + 1);
        assert_eq!(all.observations.len(), all.len() * OBSERVATION_SIZE);
        let parts: Vec<&Samples> = games.iter().map(|g| &g.samples).collect();
        assert_eq!(Samples::concat(&parts), all);
    }
}
