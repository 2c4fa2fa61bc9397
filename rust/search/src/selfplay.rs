//! Self-play for any game of the search: the games of a [`Batch`], each kept as its actions and
//! as one training sample per move (what the mover saw, what it could play, what it played,
//! what its search thought, how the game ended for it). Game `index` is the very game
//! [`Batch::play_game`] plays with that index.
//!
//! Legal actions are kept as lists, not masks, so that a game with a large action space
//! (Queen's Garden's 8 million) costs what its legal lists cost.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::game::{Game, MAX_PLAYERS, Turn};
use crate::simulate::{Batch, Outcome, Setup, mix, run_games, seat_bots};

/// What self-play needs of a game beyond [`Game`]: an observation tensor and action numbers.
pub trait Sampled: Game {
    /// Length of [`Sampled::observation`].
    const OBSERVATION_SIZE: usize;

    /// `seat`'s observation, written into `out` ([`Sampled::OBSERVATION_SIZE`] values).
    fn observation(&self, seat: u8, out: &mut [f32]);

    /// The action's number in the game's fixed encoding.
    fn action_number(action: Self::Action) -> u32;
}

/// Training samples, one row per move, in flat row-major columns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    /// The game's index in its batch.
    pub game: Vec<u64>,
    /// The move's number in its game, from 0.
    pub ply: Vec<u16>,
    /// The mover.
    pub seat: Vec<u8>,
    /// The mover's observation ([`Sampled::OBSERVATION_SIZE`] values per row).
    pub observations: Vec<f32>,
    /// Row `r`'s legal actions are `legal_actions[legal_offsets[r]..legal_offsets[r + 1]]`,
    /// ascending; rows + 1 offsets.
    pub legal_offsets: Vec<u32>,
    /// The legal actions of every row.
    pub legal_actions: Vec<u32>,
    /// The action played.
    pub action: Vec<u32>,
    /// Whether the mover searched, so that the row has a visit distribution.
    pub searched: Vec<bool>,
    /// Row `r`'s root visits are `visit_actions[visit_offsets[r]..visit_offsets[r + 1]]`
    /// with `visit_counts` alike; rows + 1 offsets, empty for moves without a search.
    pub visit_offsets: Vec<u32>,
    /// Visited actions, ascending within a row.
    pub visit_actions: Vec<u32>,
    /// Root visits of each visited action.
    pub visit_counts: Vec<u32>,
    /// The mover's final result: the winners share 1.
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

    /// The rows of `parts` one after another.
    pub fn concat(parts: &[&Samples]) -> Samples {
        let mut out = Samples::default();
        for part in parts {
            out.append(part);
        }
        out
    }

    /// Appends `other`'s rows.
    pub fn append(&mut self, other: &Samples) {
        fn offsets(into: &mut Vec<u32>, from: &[u32], base: usize) {
            if into.is_empty() {
                into.push(0);
            }
            into.extend(from.iter().skip(1).map(|&o| base as u32 + o));
        }
        offsets(
            &mut self.legal_offsets,
            &other.legal_offsets,
            self.legal_actions.len(),
        );
        offsets(
            &mut self.visit_offsets,
            &other.visit_offsets,
            self.visit_actions.len(),
        );
        self.game.extend_from_slice(&other.game);
        self.ply.extend_from_slice(&other.ply);
        self.seat.extend_from_slice(&other.seat);
        self.observations.extend_from_slice(&other.observations);
        self.legal_actions.extend_from_slice(&other.legal_actions);
        self.action.extend_from_slice(&other.action);
        self.searched.extend_from_slice(&other.searched);
        self.visit_actions.extend_from_slice(&other.visit_actions);
        self.visit_counts.extend_from_slice(&other.visit_counts);
        self.outcome.extend_from_slice(&other.outcome);
        self.points.extend_from_slice(&other.points);
    }
}

/// One self-play game: its actions (chance outcomes included), how it ended, its samples.
#[derive(Clone, Debug)]
pub struct SelfPlayGame<A> {
    /// The game's seed ([`Batch::start`]).
    pub seed: u64,
    /// Every action applied, in order.
    pub actions: Vec<A>,
    /// How it ended.
    pub outcome: Outcome,
    /// One row per player's move.
    pub samples: Samples,
}

impl<S: Setup> Batch<S>
where
    S::Game: Sampled,
{
    /// Plays game `index` as [`Batch::play_game`] does, keeping its actions and samples; a
    /// game that `stop` interrupts is cut short.
    pub fn self_play_game(
        &self,
        index: u64,
        stop: &AtomicBool,
    ) -> SelfPlayGame<<S::Game as Game>::Action> {
        let (mut state, seed) = self.start(index);
        let mut bots = seat_bots(&self.seats(index), seed);
        let mut chance =
            <crate::game::Rng as rand::SeedableRng>::seed_from_u64(mix(seed, MAX_PLAYERS as u64));
        let mut samples = Samples {
            legal_offsets: vec![0],
            visit_offsets: vec![0],
            ..Samples::default()
        };
        let mut actions = Vec::new();
        let mut legal = Vec::new();
        let mut observation = vec![0f32; S::Game::OBSERVATION_SIZE];
        loop {
            let seat = match state.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let Some(outcome) = state.playout_action(&mut chance, &mut legal) else {
                        break;
                    };
                    state.apply(outcome);
                    actions.push(outcome);
                    continue;
                }
                Turn::Player(seat) => seat,
            };
            let Some((action, visits)) = bots[usize::from(seat)]
                .as_mut()
                .and_then(|bot| bot.decide(&state, stop))
            else {
                break;
            };
            if stop.load(Ordering::Relaxed) {
                break;
            }
            state.observation(seat, &mut observation);
            state.legal_actions(&mut legal);
            samples.game.push(index);
            samples.ply.push(samples.ply.len() as u16);
            samples.seat.push(seat);
            samples.observations.extend_from_slice(&observation);
            samples
                .legal_actions
                .extend(legal.iter().map(|&a| S::Game::action_number(a)));
            samples
                .legal_offsets
                .push(samples.legal_actions.len() as u32);
            samples.action.push(S::Game::action_number(action));
            samples.searched.push(visits.is_some());
            for (a, n) in visits.unwrap_or_default() {
                samples.visit_actions.push(S::Game::action_number(a));
                samples.visit_counts.push(n);
            }
            samples
                .visit_offsets
                .push(samples.visit_actions.len() as u32);
            state.apply(action);
            actions.push(action);
        }
        let returns = state.returns();
        let scores = state.scores();
        for &seat in &samples.seat {
            samples.outcome.push(returns[usize::from(seat)] as f32);
            samples
                .points
                .push(u16::try_from(scores[usize::from(seat)]).unwrap_or(u16::MAX));
        }
        SelfPlayGame {
            seed,
            actions,
            outcome: Outcome::of(&state),
            samples,
        }
    }

    /// Plays games `games` as [`run_games`] does, keeping actions and samples.
    pub fn self_play(
        &self,
        games: Range<u64>,
        threads: usize,
        done: &AtomicU64,
        cancel: &AtomicBool,
    ) -> Option<Vec<SelfPlayGame<<S::Game as Game>::Action>>> {
        run_games(games, threads, done, cancel, |index| {
            self.self_play_game(index, cancel)
        })
    }
}
