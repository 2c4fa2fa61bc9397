//! Batch simulation: many complete games inside Rust, in parallel, reproducibly. Game `i`'s
//! pile and bot seeds depend only on the batch seed and `i`, never on threads or batching.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::bots::{Bot, GreedyBot, PlayoutBot, RandomBot, below_u32};
use crate::ismcts::{Ismcts, IsmctsConfig, Visits};
use crate::moves::Move;
use crate::position::{Information, MAX_PLAYERS, Position};
use crate::rules::Rules;
use crate::setup::{box_in_type_order, shuffled_pile};
use crate::tile::{TILE_TOTAL, TileType};

/// A well-mixed 64-bit value from `seed` and `index` (SplitMix64's finaliser).
pub fn mix(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `index` of a batch seeded with `seed`: it shuffles the pile (as
/// [`shuffled_pile`]) and, mixed with the seat, seeds each bot.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix(seed, index) >> 11 // 53 bits, so Python floats and JSON keep it exact
}

/// A bot by name and settings, as written on command lines: `random`, `greedy`, `playout`,
/// `ismcts`, `ismcts:1000`, `ismcts:time=0.5`, `ismcts:2000,c=0.5,threads=2`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum BotSpec {
    /// [`RandomBot`].
    Random,
    /// [`GreedyBot`].
    Greedy,
    /// [`PlayoutBot`]: the benchmarks' playout policy.
    Playout,
    /// [`Ismcts`].
    Ismcts(IsmctsConfig),
}

/// Why a bot spec was refused.
pub use indigo_search::BotSpecError;

/// Simulations of an `ismcts` spec that names none.
pub const DEFAULT_SIMULATIONS: u64 = IsmctsConfig::DEFAULT_SIMULATIONS;

impl From<indigo_search::BotSpec> for BotSpec {
    fn from(spec: indigo_search::BotSpec) -> BotSpec {
        match spec {
            indigo_search::BotSpec::Random => BotSpec::Random,
            indigo_search::BotSpec::Greedy => BotSpec::Greedy,
            indigo_search::BotSpec::Playout => BotSpec::Playout,
            indigo_search::BotSpec::Ismcts(config) => BotSpec::Ismcts(config),
        }
    }
}

impl From<BotSpec> for indigo_search::BotSpec {
    fn from(spec: BotSpec) -> indigo_search::BotSpec {
        match spec {
            BotSpec::Random => indigo_search::BotSpec::Random,
            BotSpec::Greedy => indigo_search::BotSpec::Greedy,
            BotSpec::Playout => indigo_search::BotSpec::Playout,
            BotSpec::Ismcts(config) => indigo_search::BotSpec::Ismcts(config),
        }
    }
}

/// The specs of every game ([`indigo_search::BotSpec`]): one parser, one error text.
impl FromStr for BotSpec {
    type Err = BotSpecError;

    fn from_str(text: &str) -> Result<BotSpec, BotSpecError> {
        text.parse::<indigo_search::BotSpec>().map(BotSpec::from)
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        indigo_search::BotSpec::from(*self).fmt(f)
    }
}

impl BotSpec {
    /// A bot of this kind seeded with `seed`.
    pub fn build(&self, seed: u64) -> NativeBot {
        match *self {
            BotSpec::Random => NativeBot::Random(RandomBot::new(seed)),
            BotSpec::Greedy => NativeBot::Greedy(GreedyBot::new(seed)),
            BotSpec::Playout => NativeBot::Playout(PlayoutBot::new(seed)),
            BotSpec::Ismcts(config) => NativeBot::Ismcts(Box::new(Ismcts::new(config, seed))),
        }
    }
}

/// Any of the core's bots, dispatched without a virtual call or an allocation per bot.
#[derive(Clone, Debug)]
pub enum NativeBot {
    /// [`RandomBot`].
    Random(RandomBot),
    /// [`GreedyBot`].
    Greedy(GreedyBot),
    /// [`PlayoutBot`].
    Playout(PlayoutBot),
    /// [`Ismcts`], boxed: its tree is large.
    Ismcts(Box<Ismcts>),
}

impl Bot for NativeBot {
    fn choose(&mut self, info: &Information) -> Option<Move> {
        match self {
            NativeBot::Random(bot) => bot.choose(info),
            NativeBot::Greedy(bot) => bot.choose(info),
            NativeBot::Playout(bot) => bot.choose(info),
            NativeBot::Ismcts(bot) => bot.choose(info),
        }
    }

    fn choose_in(&mut self, position: &Position) -> Option<Move> {
        match self {
            NativeBot::Random(bot) => bot.choose_in(position),
            NativeBot::Greedy(bot) => bot.choose_in(position),
            NativeBot::Playout(bot) => bot.choose_in(position),
            NativeBot::Ismcts(bot) => bot.choose_in(position),
        }
    }
}

impl NativeBot {
    /// The move for the seat to move in `position`, whose view is `info`, with the search's
    /// root visits when the bot searches. The same choice as [`Bot::choose_in`]; a search
    /// ends early once `stop` is set ([`Ismcts::search_until`]).
    pub fn decide(
        &mut self,
        position: &Position,
        info: &Information,
        stop: &AtomicBool,
    ) -> Option<(Move, Option<Visits>)> {
        match self {
            NativeBot::Ismcts(bot) => bot
                .search_until(info, stop)
                .map(|r| (r.best, Some(r.visits))),
            bot => bot.choose_in(position).map(|mv| (mv, None)),
        }
    }
}

/// How each game's pile is shuffled from its seed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Deal {
    /// As Python's `random.Random(seed).shuffle()` ([`shuffled_pile`]), so
    /// `Game(rules, seed=...)` deals the same pile. About 4 us a game.
    #[default]
    Python,
    /// Fisher-Yates driven by PCG-64 (MCG) seeded with the game seed ([`pcg_pile`]): some
    /// 25 times cheaper, for batches of fast games such as random playouts.
    Pcg,
}

impl Deal {
    /// The pile of the game seeded with `seed`.
    pub fn pile(self, seed: u64) -> [TileType; TILE_TOTAL] {
        match self {
            Deal::Python => shuffled_pile(seed),
            Deal::Pcg => pcg_pile(seed),
        }
    }

    /// The name [`Deal::from_str`] reads: `"python"` or `"pcg"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Deal::Python => "python",
            Deal::Pcg => "pcg",
        }
    }
}

impl FromStr for Deal {
    type Err = String;

    fn from_str(text: &str) -> Result<Deal, String> {
        [Deal::Python, Deal::Pcg]
            .into_iter()
            .find(|d| d.as_str() == text)
            .ok_or_else(|| format!("unknown deal {text:?}: expected \"python\" or \"pcg\""))
    }
}

/// The box shuffled by Fisher-Yates driven by `Pcg64Mcg::seed_from_u64(seed)`: each 64-bit
/// draw makes two swaps, one from each 32-bit half mapped to its range by [`below_u32`].
pub fn pcg_pile(seed: u64) -> [TileType; TILE_TOTAL] {
    use rand::{Rng as _, SeedableRng};
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let mut pile = box_in_type_order();
    let mut i = TILE_TOTAL - 1;
    while i >= 2 {
        let bits = rng.next_u64();
        pile.swap(i, below_u32(bits as u32, i + 1));
        pile.swap(i - 1, below_u32((bits >> 32) as u32, i));
        i -= 2;
    }
    if i == 1 {
        pile.swap(1, below_u32(rng.next_u64() as u32, 2));
    }
    pile
}

/// How one game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// Points per seat.
    pub scores: [u16; MAX_PLAYERS],
    /// Winning seats as a bitmask.
    pub winners: u8,
    /// Tiles placed.
    pub placements: u8,
}

impl Outcome {
    /// How `position` ended (or stands).
    pub fn of(position: &Position) -> Outcome {
        Outcome {
            scores: position.scores(),
            winners: position.winners(),
            placements: position.placed(),
        }
    }

    /// Folds this outcome into a running checksum of a sequence of games.
    pub fn fold_into(&self, checksum: u64) -> u64 {
        let scores = self
            .scores
            .iter()
            .fold(0u64, |acc, &s| acc << 16 | u64::from(s));
        let rest = u64::from(self.winners) << 8 | u64::from(self.placements);
        mix(mix(checksum, scores), rest)
    }
}

/// The bots of the game seeded with `game`: seat `s` plays `seats[s]` seeded from `game` and `s`.
pub(crate) fn seat_bots(seats: &[BotSpec], game: u64) -> [Option<NativeBot>; MAX_PLAYERS] {
    std::array::from_fn(|s| seats.get(s).map(|spec| spec.build(mix(game, s as u64))))
}

/// Plays game `index` of a batch to the end, or until `stop` is set: `seats[s]` is seat `s`'s
/// bot.
pub fn play_game(
    rules: Rules,
    seats: &[BotSpec],
    seed: u64,
    index: u64,
    deal: Deal,
    stop: &AtomicBool,
) -> Outcome {
    let game = game_seed(seed, index);
    let mut position =
        Position::new(rules, &deal.pile(game)).unwrap_or_else(|_| unreachable!("the box is valid"));
    let mut bots = seat_bots(seats, game);
    while let Some(seat) = position.to_move() {
        let mv = match bots[usize::from(seat)].as_mut() {
            // Only a search is long enough to look at `stop` during a game.
            Some(NativeBot::Ismcts(bot)) => {
                let found = bot.search_until(&position.information(seat), stop);
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                found.map(|r| r.best)
            }
            Some(bot) => bot.choose_in(&position),
            None => None,
        };
        let Some(mv) = mv else {
            break;
        };
        // The core's bots choose only legal moves (tested in every configuration), so the
        // check runs in debug builds only.
        debug_assert_eq!(position.check(mv), Ok(()), "a native bot chose {mv}");
        position.apply(mv, &mut ());
    }
    Outcome::of(&position)
}

/// A batch: the rules, the bots, and which bot sits where in each game.
#[derive(Clone, Debug)]
pub struct Batch {
    /// The rules of every game.
    pub rules: Rules,
    /// The bots taking part.
    pub bots: Vec<BotSpec>,
    /// Seatings: game `i` uses `lineups[i % lineups.len()]`, a bot index per seat.
    pub lineups: Vec<Vec<usize>>,
    /// The batch seed.
    pub seed: u64,
    /// How piles are shuffled from game seeds.
    pub deal: Deal,
}

impl Batch {
    /// Game `index`'s bot per seat.
    pub fn seats(&self, index: u64) -> Vec<BotSpec> {
        let lineup = &self.lineups[(index % self.lineups.len() as u64) as usize];
        lineup.iter().map(|&b| self.bots[b]).collect()
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
        self.map(games, threads, done, cancel, |index| {
            play_game(
                self.rules,
                &self.seats(index),
                self.seed,
                index,
                self.deal,
                cancel,
            )
        })
    }

    /// `play(index)` for each game of `games`, in order, on `threads` threads (0: one per
    /// core), counting finished games in `done`. Returns `None` once `cancel` is set.
    pub fn map<T: Send>(
        &self,
        games: Range<u64>,
        threads: usize,
        done: &AtomicU64,
        cancel: &AtomicBool,
        play: impl Fn(u64) -> T + Sync,
    ) -> Option<Vec<T>> {
        let play = |index: u64| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let result = play(index);
            done.fetch_add(1, Ordering::Relaxed);
            Some(result)
        };
        // A fresh pool per batch, so a forked child never reuses its parent's threads.
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| games.into_par_iter().map(play).collect()),
            Err(_) => games.map(play).collect(),
        }
    }
}
