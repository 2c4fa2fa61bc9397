//! Self-play: the games of a [`Batch`], each kept as an `indigo-record/1` record and as one
//! training sample per move: what the mover saw, what it could play, what it played, what its
//! search thought, and how the game ended for it.
//!
//! Game `index` is the very game [`Batch::run`] plays with that index: the same pile, bots
//! and moves (the Python deal is used, so a record's `seed` deals its pile).

use std::convert::Infallible;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde_json::Value;

use crate::action::{ACTION_COUNT, Action};
use crate::board::ROUTE_CELL_COUNT;
use crate::game::Game;
use crate::ismcts::Visits;
use crate::moves::Move;
use crate::position::{Information, OBSERVATION_SIZE, Position, Utility};
use crate::record::write_record;
use crate::rules::Rules;
use crate::simulate::{Batch, Outcome, seat_bots};

/// Training samples, one row per move, in flat row-major columns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    /// The game's index in its batch.
    pub game: Vec<u64>,
    /// The move's number in its game, from 0.
    pub ply: Vec<u16>,
    /// The mover.
    pub seat: Vec<u8>,
    /// The mover's observation ([`OBSERVATION_SIZE`] values per row).
    pub observations: Vec<f32>,
    /// The legal actions ([`ACTION_COUNT`] values per row).
    pub legal_masks: Vec<bool>,
    /// The action played.
    pub action: Vec<u16>,
    /// Whether the mover searched, so that the row has a visit distribution.
    pub searched: Vec<bool>,
    /// Row `r`'s root visits are `visit_actions[visit_offsets[r]..visit_offsets[r + 1]]`
    /// with `visit_counts` alike; rows + 1 offsets, empty for moves without a search.
    pub visit_offsets: Vec<u32>,
    /// Visited actions, ascending within a row.
    pub visit_actions: Vec<u16>,
    /// Root visits of each visited action.
    pub visit_counts: Vec<u32>,
    /// The mover's final result under [`Utility::Win`]: the winners share 1.
    pub outcome: Vec<f32>,
    /// The mover's final points.
    pub points: Vec<u16>,
}

impl Samples {
    /// How many rows.
    pub fn len(&self) -> usize {
        self.ply.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.ply.is_empty()
    }

    /// No rows, with room for `rows` rows (a game has at most [`ROUTE_CELL_COUNT`] moves).
    pub fn with_capacity(rows: usize) -> Samples {
        let mut visit_offsets = Vec::with_capacity(rows + 1);
        visit_offsets.push(0);
        Samples {
            game: Vec::with_capacity(rows),
            ply: Vec::with_capacity(rows),
            seat: Vec::with_capacity(rows),
            observations: Vec::with_capacity(rows * OBSERVATION_SIZE),
            legal_masks: Vec::with_capacity(rows * ACTION_COUNT),
            action: Vec::with_capacity(rows),
            searched: Vec::with_capacity(rows),
            visit_offsets,
            visit_actions: Vec::new(),
            visit_counts: Vec::new(),
            outcome: Vec::with_capacity(rows),
            points: Vec::with_capacity(rows),
        }
    }

    /// The rows of `parts` one after another, each copied once.
    pub fn concat(parts: &[&Samples]) -> Samples {
        let mut out = Samples::with_capacity(parts.iter().map(|p| p.len()).sum());
        let visits = parts.iter().map(|p| p.visit_actions.len()).sum();
        out.visit_actions.reserve(visits);
        out.visit_counts.reserve(visits);
        for part in parts {
            out.append(part);
        }
        out
    }

    /// Appends `other`'s rows.
    pub fn append(&mut self, other: &Samples) {
        let base = self.visit_actions.len() as u32;
        self.game.extend_from_slice(&other.game);
        self.ply.extend_from_slice(&other.ply);
        self.seat.extend_from_slice(&other.seat);
        self.observations.extend_from_slice(&other.observations);
        self.legal_masks.extend_from_slice(&other.legal_masks);
        self.action.extend_from_slice(&other.action);
        self.searched.extend_from_slice(&other.searched);
        if self.visit_offsets.is_empty() {
            self.visit_offsets.push(0);
        }
        self.visit_offsets
            .extend(other.visit_offsets.iter().skip(1).map(|&o| base + o));
        self.visit_actions.extend_from_slice(&other.visit_actions);
        self.visit_counts.extend_from_slice(&other.visit_counts);
        self.outcome.extend_from_slice(&other.outcome);
        self.points.extend_from_slice(&other.points);
    }
}

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
/// move: given the position and the mover's information, the move with the search's root
/// visits if it searched, or `None` to cut the game short.
///
/// # Errors
/// The first error of `decide`, which ends the game.
pub fn self_play_with<E>(
    setup: SelfPlaySetup<'_>,
    mut decide: impl FnMut(&Position, &Information) -> Result<Option<(Move, Option<Visits>)>, E>,
) -> Result<SelfPlayGame, E> {
    let mut game = Game::from_seed(setup.rules, setup.seed);
    let mut samples = Samples::with_capacity(ROUTE_CELL_COUNT);
    let mut observation = [0f32; OBSERVATION_SIZE];
    let mut mask = [false; ACTION_COUNT];
    while let Some(seat) = game.position().to_move() {
        let position = *game.position();
        let info = position.information(seat);
        let Some((mv, visits)) = decide(&position, &info)? else {
            break;
        };
        info.observation(&mut observation);
        info.legal_action_set().write_mask(&mut mask);
        samples.game.push(setup.index);
        samples.ply.push(samples.ply.len() as u16);
        samples.seat.push(seat);
        samples.observations.extend_from_slice(&observation);
        samples.legal_masks.extend_from_slice(&mask);
        let action = Action::from_move(mv).unwrap_or_else(|| unreachable!("a placement"));
        samples.action.push(action.index() as u16);
        samples.searched.push(visits.is_some());
        for (a, n) in visits.unwrap_or_default() {
            samples.visit_actions.push(a.index() as u16);
            samples.visit_counts.push(n);
        }
        samples
            .visit_offsets
            .push(samples.visit_actions.len() as u32);
        if let Err(e) = game.play(mv) {
            unreachable!("a bot chose {mv}, which is illegal: {e}");
        }
    }
    let position = game.position();
    let returns = position.returns(Utility::Win);
    let scores = position.scores();
    for &seat in &samples.seat {
        samples.outcome.push(returns[usize::from(seat)] as f32);
        samples.points.push(scores[usize::from(seat)]);
    }
    let mut record = write_record(&game);
    if let Value::Object(fields) = &mut record {
        let names = setup.names.iter().map(|name| Value::from(name.as_str()));
        fields.insert("players_names".into(), names.collect());
        fields.insert("game".into(), setup.index.into());
    }
    Ok(SelfPlayGame {
        record,
        outcome: Outcome::of(position),
        samples,
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
        let played = self_play_with(setup, |position, info| {
            let seat = usize::from(info.observer());
            let decided = bots[seat]
                .as_mut()
                .and_then(|bot| bot.decide(position, info, stop));
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
                let mask = &samples.legal_masks[row * ACTION_COUNT..(row + 1) * ACTION_COUNT];
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
