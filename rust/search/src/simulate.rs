//! Batch simulation over any [`Game`]: many complete games in parallel, reproducibly. Game
//! `i`'s set-up and bot seeds depend only on the batch seed and `i`, never on threads or
//! batching.

use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use rayon::prelude::*;

use crate::bots::Bot;
use crate::encoded::Encoded;
use crate::game::{Game, MAX_PLAYERS, Turn};
use crate::random::{Rng, game_seed, mix};
use crate::spec::{BotSpec, SearchBot};

/// How a batch sets up each game: the rules and how a seed deals the game's randomness.
pub trait Setup: Clone + Send + Sync {
    /// The game played.
    type Game: Encoded;

    /// Seats in every game.
    fn players(&self) -> usize;

    /// The game set up from `seed`.
    fn start(&self, seed: u64) -> Self::Game;

    /// [`Setup::start`] written into `out` (whatever it held): a game may reuse its storage.
    fn start_into(&self, seed: u64, out: &mut Self::Game) {
        *out = self.start(seed);
    }

    /// [`Setup::start`] of each of `seeds`, in order: a game may start several at once
    /// (Indigo shuffles four piles side by side).
    fn start_all(&self, seeds: &[u64]) -> Vec<Self::Game> {
        seeds.iter().map(|&seed| self.start(seed)).collect()
    }
}

/// How one game ended: 24 bytes, since a batch keeps one for each of its games (a million
/// of them make 24 MB; with the game's `i64` scores they made 40).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// Points per seat (0 beyond the game's seats), clamped to `i32` (a batch's `scores`
    /// column).
    pub scores: [i32; MAX_PLAYERS],
    /// Winning seats as a bitmask.
    pub winners: u8,
    /// Moves played.
    pub moves: u32,
}

impl Outcome {
    /// How `state` ended (or stands).
    pub fn of<G: Game>(state: &G) -> Outcome {
        Outcome {
            scores: state
                .scores()
                .map(|s| s.clamp(i32::MIN.into(), i32::MAX.into()) as i32),
            winners: state.winners(),
            moves: state.moves_played(),
        }
    }

    /// Folds this outcome into a running checksum of a sequence of games (the batches'
    /// `checksum`: equal runs give equal checksums). The scores 16 bits a seat, then the
    /// winners in bits 8 to 15 with the moves around them (their low byte below, the rest from
    /// bit 16): a game of fewer than 256 moves, as every Indigo game, folds as
    /// `winners << 8 | moves`, the fold Indigo's pinned checksums were taken with.
    pub fn fold_into(&self, checksum: u64) -> u64 {
        let scores = self
            .scores
            .iter()
            .fold(0u64, |acc, &s| acc << 16 ^ i64::from(s) as u64);
        let moves = u64::from(self.moves);
        let rest = (moves >> 8) << 16 | u64::from(self.winners) << 8 | moves & 0xff;
        mix(mix(checksum, scores), rest)
    }
}

/// The bots of the game seeded with `game`: seat `s` plays `seats[s]` seeded from `game` and `s`.
pub(crate) fn seat_bots<G: Encoded>(
    seats: &[BotSpec],
    game: u64,
) -> [Option<SearchBot<G>>; MAX_PLAYERS] {
    std::array::from_fn(|s| seats.get(s).map(|spec| spec.build(seat_seed(game, s))))
}

/// The seed of seat `seat`'s bot in the game seeded with `game`: a batch's and self-play's seats.
pub fn seat_seed(game: u64, seat: usize) -> u64 {
    mix(game, seat as u64)
}

/// Plays `state` to the end with `bots[s]` for seat `s`, or until `stop` is set. Chance nodes
/// are resolved by the game's playout policy seeded from `seed`.
pub(crate) fn play_out<G: Encoded>(
    state: &mut G,
    bots: &mut [Option<SearchBot<G>>; MAX_PLAYERS],
    seed: u64,
    stop: &AtomicBool,
) {
    let mut chance = <Rng as rand::SeedableRng>::seed_from_u64(seed);
    let mut buffer = Vec::new();
    loop {
        let action = match state.turn() {
            Turn::Over => break,
            Turn::Chance => state.playout_action(&mut chance, &mut buffer),
            Turn::Player(seat) => match bots[usize::from(seat)].as_mut() {
                // Only a search is long enough to look at `stop` during a game.
                Some(bot @ (SearchBot::Ismcts(_) | SearchBot::Net(_))) => {
                    let found = bot.decide(state, stop);
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    found.map(|(best, _)| best)
                }
                Some(bot) => bot.choose(state),
                None => None,
            },
        };
        let Some(action) = action else {
            break;
        };
        state.apply(action);
    }
}

/// Why a batch was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BatchError(pub String);

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BatchError {}

/// `value` if `low <= value <= high`, else an error naming the range.
///
/// # Errors
/// `value` is out of the range.
pub fn in_range(name: &str, value: i64, low: u64, high: u64) -> Result<u64, BatchError> {
    u64::try_from(value)
        .ok()
        .filter(|v| (low..=high).contains(v))
        .ok_or_else(|| {
            BatchError(format!(
                "{name} must be {low} to {}, not {value}",
                shown(high)
            ))
        })
}

/// `n` as people read it: a large power of two as `2**k`.
fn shown(n: u64) -> String {
    if n >= 1 << 32 && n.is_power_of_two() {
        format!("2**{}", n.trailing_zeros())
    } else {
        n.to_string()
    }
}

/// Most games one batch call plays.
pub const MAX_BATCH_GAMES: u64 = 1 << 32;
/// Highest first game index of a batch call.
pub const MAX_BATCH_START: u64 = 1 << 62;
/// Most worker threads of a batch.
pub const MAX_BATCH_THREADS: u64 = 1024;

/// Games `start..start + count` and a thread count (0: one per core) for [`Batch::run`],
/// checked against [`MAX_BATCH_START`], [`MAX_BATCH_GAMES`] and [`MAX_BATCH_THREADS`].
///
/// # Errors
/// A value out of its range, named with the range.
pub fn batch_games(
    start: i64,
    count: i64,
    threads: i64,
) -> Result<(Range<u64>, usize), BatchError> {
    let count = in_range("games", count, 0, MAX_BATCH_GAMES)?;
    let start = in_range("start", start, 0, MAX_BATCH_START)?;
    let threads = in_range("threads", threads, 0, MAX_BATCH_THREADS)?;
    Ok((start..start + count, threads as usize))
}

/// The longest wait between a batch's progress reports.
const LONGEST_INTERVAL: Duration = Duration::from_secs(3600);

/// How often a batch's caller reports progress, given in `seconds` (at most an hour).
///
/// # Errors
/// Unless `seconds` is a positive number.
pub fn progress_interval(seconds: f64) -> Result<Duration, BatchError> {
    if seconds.is_finite() && seconds > 0.0 {
        Ok(Duration::from_secs_f64(seconds).min(LONGEST_INTERVAL))
    } else {
        Err(BatchError(format!(
            "interval must be a positive number, not {seconds}"
        )))
    }
}

/// The seatings of a batch of `players`-seat games between `bots` bots: `lineups` checked (a
/// bot index per seat; game `i` uses `lineups[i % lineups.len()]`), or without them the bots in
/// seat order when there is one per seat, and a lone bot in every seat. One rule for every
/// game's batch.
///
/// # Errors
/// No bots; no lineups given and neither one bot nor one per seat; an empty list of lineups; a
/// lineup that is not one bot index per seat; an index that names no bot.
pub fn seatings(
    bots: usize,
    players: usize,
    lineups: Option<&[Vec<i64>]>,
) -> Result<Vec<Vec<usize>>, BatchError> {
    if bots == 0 {
        return Err(BatchError("give at least one bot".into()));
    }
    match lineups {
        Some([]) => Err(BatchError("lineups must not be empty".into())),
        Some(lineups) => lineups
            .iter()
            .map(|lineup| lineup_of(lineup, bots, players))
            .collect(),
        None if bots == players => Ok(vec![(0..players).collect()]),
        None if bots == 1 => Ok(vec![vec![0; players]]),
        None => Err(BatchError(format!(
            "give one bot per seat ({players}), one bot for all seats, or lineups"
        ))),
    }
}

/// `lineup` checked: one index below `bots` per seat.
fn lineup_of(lineup: &[i64], bots: usize, players: usize) -> Result<Vec<usize>, BatchError> {
    if lineup.len() != players {
        return Err(BatchError(format!(
            "each lineup needs one bot index per seat ({players}), not {}",
            lineup.len()
        )));
    }
    lineup
        .iter()
        .map(|&b| {
            usize::try_from(b)
                .ok()
                .filter(|&b| b < bots)
                .ok_or_else(|| BatchError(format!("lineup bot index {b} is not 0..{}", bots - 1)))
        })
        .collect()
}

/// A batch: the set-up, the bots, and which bot sits where in each game. Valid by
/// construction ([`Batch::new`]).
#[derive(Clone, Debug)]
pub struct Batch<S> {
    setup: S,
    bots: Vec<BotSpec>,
    lineups: Vec<Vec<usize>>,
    seed: u64,
}

impl<S: Setup> Batch<S> {
    /// A batch of games set up by `setup` between `bots`, seeded with `seed`. `lineups` are
    /// the seatings (a bot index per seat; game `i` uses `lineups[i % lineups.len()]`);
    /// without them, the bots sit in seat order when there is one per seat, and a lone bot
    /// takes every seat ([`seatings`]).
    ///
    /// # Errors
    /// No bots; no lineups given and neither one bot nor one per seat; an empty list of
    /// lineups; a lineup that is not one bot index per seat; an index that names no bot; a
    /// bot that cannot play the game ([`BotSpec::check`]: a network that does not fit).
    pub fn new(
        setup: S,
        bots: Vec<BotSpec>,
        lineups: Option<&[Vec<i64>]>,
        seed: u64,
    ) -> Result<Self, BatchError> {
        let lineups = seatings(bots.len(), setup.players(), lineups)?;
        for bot in &bots {
            bot.check::<S::Game>(Some(setup.players()))
                .map_err(|e| BatchError(e.0))?;
        }
        Ok(Batch {
            setup,
            bots,
            lineups,
            seed,
        })
    }

    /// The set-up of every game.
    pub const fn setup(&self) -> &S {
        &self.setup
    }

    /// The bots taking part.
    pub fn bots(&self) -> &[BotSpec] {
        &self.bots
    }

    /// The seatings.
    pub fn lineups(&self) -> &[Vec<usize>] {
        &self.lineups
    }

    /// The batch seed.
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// Game `index`'s seating: the index in [`Batch::bots`] of each seat's bot.
    pub fn lineup(&self, index: u64) -> &[usize] {
        &self.lineups[(index % self.lineups.len() as u64) as usize]
    }

    /// Game `index`'s bot per seat.
    pub fn seats(&self, index: u64) -> Vec<BotSpec> {
        self.lineup(index).iter().map(|&b| self.bots[b]).collect()
    }

    /// Game `index` set up, with its seed.
    pub fn start(&self, index: u64) -> (S::Game, u64) {
        let seed = game_seed(self.seed, index);
        (self.setup.start(seed), seed)
    }

    /// Plays game `index` to the end, or until `stop` is set.
    pub fn play_game(&self, index: u64, stop: &AtomicBool) -> Outcome {
        let mut state = self.setup.start(0);
        self.play_game_in(&mut state, index, stop)
    }

    /// [`Batch::play_game`] in `state`, set up anew ([`Setup::start_into`]): a worker's.
    fn play_game_in(&self, state: &mut S::Game, index: u64, stop: &AtomicBool) -> Outcome {
        let seed = game_seed(self.seed, index);
        self.setup.start_into(seed, state);
        let lineup = &self.lineups[(index % self.lineups.len() as u64) as usize];
        let chance = mix(seed, MAX_PLAYERS as u64);
        if lineup.iter().all(|&b| self.bots[b] == BotSpec::Playout) {
            // Playout bots in every seat: the game's own playout loop, each seat drawing from
            // the generator its bot would hold.
            let mut seats = [const { Rng::new(0) }; MAX_PLAYERS];
            for (s, rng) in seats.iter_mut().enumerate().take(lineup.len()) {
                *rng = <Rng as rand::SeedableRng>::seed_from_u64(mix(seed, s as u64));
            }
            state.playout_seats(&mut seats, chance);
        } else {
            let mut bots: [Option<SearchBot<S::Game>>; MAX_PLAYERS] = std::array::from_fn(|s| {
                lineup
                    .get(s)
                    .map(|&b| self.bots[b].build(mix(seed, s as u64)))
            });
            play_out(state, &mut bots, chance, stop);
        }
        Outcome::of(state)
    }

    /// Plays games `games` on `threads` threads (0: one per core), counting finished games
    /// in `done`. Returns `None` once `cancel` is set (searches under way end early).
    pub fn run(
        &self,
        games: Range<u64>,
        threads: usize,
        done: &AtomicU64,
        cancel: &AtomicBool,
    ) -> Option<Vec<Outcome>> {
        let scratch = || self.setup.start(0);
        run_games_with(games, threads, done, cancel, scratch, |state, index| {
            self.play_game_in(state, index, cancel)
        })
    }
}

/// `play(index)` for each game of `games`, in order, on `threads` threads (0: one per core),
/// counting finished games in `done`. Returns `None` once `cancel` is set. Every batch of every
/// game runs its games through this.
pub fn run_games<T: Send>(
    games: Range<u64>,
    threads: usize,
    done: &AtomicU64,
    cancel: &AtomicBool,
    play: impl Fn(u64) -> T + Sync,
) -> Option<Vec<T>> {
    run_games_with(games, threads, done, cancel, || (), |(), index| play(index))
}

/// [`run_games`] with scratch state: `play(&mut state, index)`, each worker's `state` made
/// once by `init` and reused from game to game (a position to reset instead of building).
pub fn run_games_with<S, T: Send>(
    games: Range<u64>,
    threads: usize,
    done: &AtomicU64,
    cancel: &AtomicBool,
    init: impl Fn() -> S + Sync + Send,
    play: impl Fn(&mut S, u64) -> T + Sync,
) -> Option<Vec<T>> {
    let play = |state: &mut S, index: u64| {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let result = play(state, index);
        done.fetch_add(1, Ordering::Relaxed);
        Some(result)
    };
    // A fresh pool per batch, so a forked child never reuses its parent's threads.
    if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        pool.install(|| games.into_par_iter().map_init(&init, play).collect())
    } else {
        let mut state = init();
        games.map(|index| play(&mut state, index)).collect()
    }
}
