//! Self-play for any game of the search: the games of a [`Batch`], each kept as its actions and
//! as one training sample per move (what the mover saw, what it could play, what it played,
//! what its search thought, how the game ended for it). Game `index` is the very game
//! [`Batch::play_game`] plays with that index.
//!
//! A sample is kept in the game's numbering ([`Encoded`]), its legal actions as the game
//! chooses ([`Encoded::Legal`]).

use std::convert::Infallible;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::encoded::{Encoded, LegalLists, LegalRows, append_offsets};
use crate::evaluator::Evaluator;
use crate::game::{Game, MAX_PLAYERS, Turn};
use crate::puct::{Puct, PuctError, PuctSearch, search_round};
use crate::random::{Rng, mix};
use crate::simulate::{Batch, Outcome, Setup, run_games, seat_bots};
use crate::spec::Decision;

/// Training samples, one row per move, in flat row-major columns; legal actions kept as `L`.
#[derive(Clone, Debug, PartialEq)]
pub struct Samples<L: LegalRows = LegalLists> {
    /// The game's index in its batch.
    pub game: Vec<u64>,
    /// The move's number in its game, from 0.
    pub ply: Vec<u16>,
    /// The mover.
    pub seat: Vec<u8>,
    /// The mover's observation ([`Encoded::OBSERVATION_SIZE`] values per row).
    pub observations: Vec<f32>,
    /// The legal actions of every row.
    pub legal: L,
    /// The action played.
    pub action: Vec<L::Number>,
    /// Whether the mover searched, so that the row has a visit distribution.
    pub searched: Vec<bool>,
    /// Row `r`'s root visits are `visit_actions[visit_offsets[r]..visit_offsets[r + 1]]`
    /// with `visit_counts` alike; rows + 1 offsets, empty for moves without a search.
    pub visit_offsets: Vec<u32>,
    /// Visited actions, ascending within a row.
    pub visit_actions: Vec<L::Number>,
    /// Root visits of each visited action.
    pub visit_counts: Vec<u32>,
    /// The mover's final result: the winners share 1.
    pub outcome: Vec<f32>,
    /// The mover's final points.
    pub points: Vec<u16>,
}

impl<L: LegalRows> Default for Samples<L> {
    /// No rows.
    fn default() -> Samples<L> {
        Samples {
            game: Vec::new(),
            ply: Vec::new(),
            seat: Vec::new(),
            observations: Vec::new(),
            legal: L::default(),
            action: Vec::new(),
            searched: Vec::new(),
            visit_offsets: vec![0],
            visit_actions: Vec::new(),
            visit_counts: Vec::new(),
            outcome: Vec::new(),
            points: Vec::new(),
        }
    }
}

impl<L: LegalRows> Samples<L> {
    /// How many rows.
    pub fn len(&self) -> usize {
        self.ply.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.ply.is_empty()
    }

    /// The rows of `parts` one after another.
    pub fn concat(parts: &[&Samples<L>]) -> Samples<L> {
        let mut out = Samples::default();
        for part in parts {
            out.append(part);
        }
        out
    }

    /// Appends `other`'s rows.
    pub fn append(&mut self, other: &Samples<L>) {
        append_offsets(
            &mut self.visit_offsets,
            &other.visit_offsets,
            self.visit_actions.len(),
        );
        self.legal.append(&other.legal);
        self.game.extend_from_slice(&other.game);
        self.ply.extend_from_slice(&other.ply);
        self.seat.extend_from_slice(&other.seat);
        self.observations.extend_from_slice(&other.observations);
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
pub struct SelfPlayGame<A, L: LegalRows = LegalLists> {
    /// The game's seed ([`Batch::start`]).
    pub seed: u64,
    /// Every action applied, in order.
    pub actions: Vec<A>,
    /// How it ended.
    pub outcome: Outcome,
    /// One row per player's move.
    pub samples: Samples<L>,
}

/// A self-play game of `G`, its samples kept as `G` keeps them.
pub type SelfPlayOf<G> = SelfPlayGame<<G as Game>::Action, <G as Encoded>::Legal>;

/// Plays `state`, game `index` seeded with `seed`, to the end keeping its actions and samples,
/// asking `decide` for each player's move (`None` cuts the game short); chance outcomes are
/// drawn by the playout policy from the game's seed.
///
/// # Errors
/// The first error of `decide`, which ends the game.
pub fn self_play_with<G: Encoded, E>(
    state: G,
    seed: u64,
    index: u64,
    mut decide: impl FnMut(&G, u8) -> Result<Option<Decision<G::Action>>, E>,
) -> Result<SelfPlayOf<G>, E> {
    let mut game = SelfPlaying::new(state, seed, index);
    while let Some(seat) = game.next_mover() {
        let Some(decision) = decide(&game.state, seat)? else {
            break;
        };
        game.play(decision);
    }
    Ok(game.finish())
}

/// A game of [`self_play_with`] in progress, a move at a time.
struct SelfPlaying<G: Encoded> {
    state: G,
    seed: u64,
    index: u64,
    chance: Rng,
    samples: Samples<G::Legal>,
    actions: Vec<G::Action>,
    legal: Vec<G::Action>,
    observation: Vec<f32>,
}

impl<G: Encoded> SelfPlaying<G> {
    fn new(state: G, seed: u64, index: u64) -> SelfPlaying<G> {
        SelfPlaying {
            state,
            seed,
            index,
            chance: <Rng as rand::SeedableRng>::seed_from_u64(mix(seed, MAX_PLAYERS as u64)),
            samples: Samples::default(),
            actions: Vec::new(),
            legal: Vec::new(),
            observation: vec![0f32; G::OBSERVATION_SIZE],
        }
    }

    /// Plays chance's outcomes up to the next player's move: that seat, or `None` once over.
    fn next_mover(&mut self) -> Option<u8> {
        loop {
            match self.state.turn() {
                Turn::Over => return None,
                Turn::Chance => {
                    let outcome = self
                        .state
                        .playout_action(&mut self.chance, &mut self.legal)?;
                    self.state.apply(outcome);
                    self.actions.push(outcome);
                }
                Turn::Player(seat) => return Some(seat),
            }
        }
    }

    /// Plays the seat to move's `action`, keeping its sample (`visits`: its search's root
    /// visits, if it searched); nothing unless a seat is to move.
    fn play(&mut self, (action, visits): Decision<G::Action>) {
        let Turn::Player(seat) = self.state.turn() else {
            return;
        };
        let samples = &mut self.samples;
        self.state.observation(seat, &mut self.observation);
        self.state.legal_actions(&mut self.legal);
        samples.game.push(self.index);
        samples.ply.push(samples.ply.len() as u16);
        samples.seat.push(seat);
        samples.observations.extend_from_slice(&self.observation);
        samples
            .legal
            .push_row(self.legal.iter().map(|&a| G::action_number(a)));
        samples
            .action
            .push(G::Legal::number(G::action_number(action)));
        samples.searched.push(visits.is_some());
        for (a, n) in visits.unwrap_or_default() {
            samples
                .visit_actions
                .push(G::Legal::number(G::action_number(a)));
            samples.visit_counts.push(n);
        }
        samples
            .visit_offsets
            .push(samples.visit_actions.len() as u32);
        self.state.apply(action);
        self.actions.push(action);
    }

    /// The game as played so far, each sample with the mover's final result.
    fn finish(self) -> SelfPlayOf<G> {
        let SelfPlaying {
            state,
            seed,
            actions,
            mut samples,
            ..
        } = self;
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
}

/// The most games [`puct_self_play`] keeps in flight.
pub const MAX_IN_FLIGHT: usize = 4096;

/// Self-play with a PUCT search in every seat, `in_flight` games at a time sharing each
/// evaluator call: games `games`, game `index` from `start(index)` (its first state, its seed
/// as [`self_play_with`] takes it, and the search that plays all its moves), each played as
/// [`self_play_with`] plays it with that search deciding. Each game's current search grows
/// with the others' ([`search_together`](crate::search_together)'s rounds, one evaluator call a round); a search
/// that finishes plays its move and the game's next search starts, and a game that ends
/// leaves its place to the next game of `games`. The searches depend only on their own
/// leaves, so for an evaluator that answers each leaf the same way whatever else its batch
/// holds (a network), the games are the same for every `in_flight` (1 is one game at a time,
/// each evaluator call one search's batch). The games come back in the order of `games`.
/// `in_flight` is taken from 1 to [`MAX_IN_FLIGHT`].
///
/// # Errors
/// The evaluator's error, or an evaluation it got wrong; it ends every game.
pub fn puct_self_play<G: Encoded, E: Evaluator<G>>(
    games: Range<u64>,
    in_flight: usize,
    mut start: impl FnMut(u64) -> (G, u64, Puct),
    evaluator: &mut E,
) -> Result<Vec<SelfPlayOf<G>>, PuctError<E::Error>> {
    /// A game's next search, or `None` once it is over (or cut short: no search to make).
    fn next_search<G: Encoded>(
        game: &mut SelfPlaying<G>,
        puct: &mut Puct,
    ) -> Option<PuctSearch<G>> {
        game.next_mover()?;
        puct.start_search(&game.state)
    }
    let in_flight = in_flight.clamp(1, MAX_IN_FLIGHT);
    let mut next = games;
    let mut played: Vec<(u64, SelfPlayOf<G>)> = Vec::new();
    // The games in flight and, at the same places, their searches.
    let mut flying: Vec<(SelfPlaying<G>, Puct)> = Vec::new();
    let mut searches: Vec<PuctSearch<G>> = Vec::new();
    let mut leaves = Vec::new();
    let never = AtomicBool::new(false);
    loop {
        while flying.len() < in_flight
            && let Some(index) = next.next()
        {
            let (state, seed, mut puct) = start(index);
            let mut game = SelfPlaying::new(state, seed, index);
            match next_search(&mut game, &mut puct) {
                Some(search) => {
                    flying.push((game, puct));
                    searches.push(search);
                }
                None => played.push((index, game.finish())),
            }
        }
        if flying.is_empty() {
            break;
        }
        search_round(&mut searches, evaluator, &never, &mut leaves)?;
        let games = std::mem::take(&mut flying);
        for ((mut game, mut puct), search) in games.into_iter().zip(std::mem::take(&mut searches)) {
            let search = if search.is_finished() {
                let found = search.result();
                game.play((found.best, Some(found.visits)));
                next_search(&mut game, &mut puct)
            } else {
                Some(search)
            };
            match search {
                Some(search) => {
                    flying.push((game, puct));
                    searches.push(search);
                }
                None => played.push((game.index, game.finish())),
            }
        }
    }
    played.sort_unstable_by_key(|&(index, _)| index);
    Ok(played.into_iter().map(|(_, game)| game).collect())
}

impl<S: Setup> Batch<S>
where
    S::Game: Encoded,
{
    /// Plays game `index` as [`Batch::play_game`] does, keeping its actions and samples; a
    /// game that `stop` interrupts is cut short.
    pub fn self_play_game(&self, index: u64, stop: &AtomicBool) -> SelfPlayOf<S::Game> {
        let (state, seed) = self.start(index);
        let mut bots = seat_bots(&self.seats(index), seed);
        let played = self_play_with(state, seed, index, |state, seat| {
            let decided = bots[usize::from(seat)]
                .as_mut()
                .and_then(|bot| bot.decide(state, stop));
            Ok::<_, Infallible>(decided.filter(|_| !stop.load(Ordering::Relaxed)))
        });
        match played {
            Ok(game) => game,
        }
    }

    /// Plays games `games` as [`run_games`] does, keeping actions and samples.
    pub fn self_play(
        &self,
        games: Range<u64>,
        threads: usize,
        done: &AtomicU64,
        cancel: &AtomicBool,
    ) -> Option<Vec<SelfPlayOf<S::Game>>> {
        run_games(games, threads, done, cancel, |index| {
            self.self_play_game(index, cancel)
        })
    }
}
