//! Indigo's part of self-play (the game loop and the samples are the one search's:
//! [`indigo_search::self_play_with`], [`indigo_search::Batch::self_play`]): its samples keep
//! the legal actions as dense masks, and a game played is kept as an `indigo-record/1` record.
//!
//! A batch's self-play game `index` is the very game [`indigo_search::Batch::run`] plays with
//! that index; dealt as Python deals ([`crate::Deal::Python`]), its record's `seed` deals its
//! pile.

use std::fmt::Display;

use indigo_search::{LegalMasks, SelfPlayOf};
use serde_json::Value;

use crate::action::ACTION_COUNT;
use crate::game::Game;
use crate::position::Position;
use crate::record::write_record;
use crate::rules::Rules;

/// Training samples, one row per move, in flat row-major columns: the legal actions as
/// [`ACTION_COUNT`] flags a row, actions numbered as [`Action::index`](crate::Action::index);
/// the outcome is under [`Utility::Win`](crate::Utility::Win).
pub type Samples = indigo_search::Samples<LegalMasks<ACTION_COUNT>>;

/// The `indigo-record/1` record of self-play game `index` with `rules`: the game seeded with
/// `played.seed` (dealt as Python deals) replayed, with `players_names` (each seat's name, as
/// `names` gives them) and `game` (the index) added.
pub fn self_play_record(
    rules: Rules,
    played: &SelfPlayOf<Position>,
    names: &[impl Display],
    index: u64,
) -> Value {
    let mut game = Game::from_seed(rules, played.seed);
    for action in &played.actions {
        let mv = action.to_move();
        if let Err(e) = game.play(mv) {
            unreachable!("a self-play game replays from its seed ({mv}): {e}");
        }
    }
    let mut record = write_record(&game);
    if let Value::Object(fields) = &mut record {
        let names = names.iter().map(|name| Value::from(name.to_string()));
        fields.insert("players_names".into(), names.collect());
        fields.insert("game".into(), index.into());
    }
    record
}

#[cfg(test)]
// Observation values, returns and shares are small exact numbers.
#[allow(clippy::float_cmp)]
mod tests {
    use crate::action::{ACTION_COUNT, Action};
    use crate::deal::Deal;
    use crate::game::Game;
    use crate::position::OBSERVATION_SIZE;
    use crate::rules::Rules;
    use crate::search_game::IndigoSetup;
    use crate::selfplay::{Samples, self_play_record};
    use indigo_search::{Batch, BotSpec, IsmctsConfig, Outcome};
    use std::sync::atomic::{AtomicBool, AtomicU64};

    fn self_play_batch(players: u8) -> Batch<IndigoSetup> {
        Batch::new(
            IndigoSetup {
                rules: Rules::indigo(players).unwrap(),
                deal: Deal::Python,
            },
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
            let rules = batch.setup().rules;
            let record = self_play_record(rules, played, &batch.seats(index), index);
            let game = crate::record::read_record_value(&record).unwrap();
            assert_eq!(record["game"], index);
            assert_eq!(
                record["players_names"][0],
                batch.seats(index)[0].to_string()
            );
            assert_eq!(Outcome::of(game.position()), played.outcome);
            assert_eq!(samples.len(), game.moves().len());
            assert!(samples.game.iter().all(|&g| g == index));
            let mut replay = Game::from_seed(rules, batch.start(index).1);
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
                let searched = batch.seats(index)[usize::from(seat)].searches();
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
