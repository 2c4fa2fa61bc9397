//! Batch simulation: many complete games inside Rust, in parallel, reproducibly. Game `i`'s
//! pile and bot seeds depend only on the batch seed and `i`, never on threads or batching.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use rayon::prelude::*;

use crate::bots::{Bot, GreedyBot, RandomBot};
use crate::ismcts::{Budget, Ismcts, IsmctsConfig};
use crate::position::{MAX_PLAYERS, Position};
use crate::rules::Rules;
use crate::setup::shuffled_pile;

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

/// A bot by name and settings, as written on command lines: `random`, `greedy`, `ismcts`,
/// `ismcts:1000`, `ismcts:time=0.5`, `ismcts:2000,c=0.5,threads=2`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum BotSpec {
    /// [`RandomBot`].
    Random,
    /// [`GreedyBot`].
    Greedy,
    /// [`Ismcts`].
    Ismcts(IsmctsConfig),
}

/// Why a bot spec was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BotSpecError(pub String);

impl fmt::Display for BotSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BotSpecError {}

/// Simulations of an `ismcts` spec that names none.
pub const DEFAULT_SIMULATIONS: u64 = 1000;

impl FromStr for BotSpec {
    type Err = BotSpecError;

    fn from_str(text: &str) -> Result<BotSpec, BotSpecError> {
        let fail = |why: String| {
            BotSpecError(format!(
                "bad bot {text:?}: {why} (expected random, greedy, ismcts, ismcts:1000, \
                 ismcts:time=0.5 or ismcts:1000,c=0.7,threads=2)"
            ))
        };
        let (name, args) = text.trim().split_once(':').unwrap_or((text.trim(), ""));
        match name.to_ascii_lowercase().as_str() {
            "random" | "greedy" if !args.is_empty() => {
                Err(fail(format!("{name} takes no settings")))
            }
            "random" => Ok(BotSpec::Random),
            "greedy" => Ok(BotSpec::Greedy),
            "ismcts" => {
                let mut config = IsmctsConfig::simulations(DEFAULT_SIMULATIONS);
                for arg in args.split(',').map(str::trim).filter(|a| !a.is_empty()) {
                    let (key, value) = arg.split_once('=').unwrap_or(("simulations", arg));
                    let number = || {
                        value
                            .trim()
                            .parse::<f64>()
                            .ok()
                            .filter(|v| v.is_finite() && *v > 0.0)
                            .ok_or_else(|| fail(format!("{key} must be a positive number")))
                    };
                    match key.trim() {
                        "simulations" | "sims" => {
                            let n = number()?;
                            if n.fract() != 0.0 || n > 1e12 {
                                return Err(fail("simulations must be a whole number".into()));
                            }
                            config.budget = Budget::Simulations(n as u64);
                        }
                        "time" => {
                            config.budget = Budget::Time(
                                Duration::try_from_secs_f64(number()?)
                                    .map_err(|e| fail(e.to_string()))?,
                            );
                        }
                        "c" | "exploration" => config.exploration = number()? as f32,
                        "threads" => {
                            let n = number()?;
                            if n.fract() != 0.0 || n > 1024.0 {
                                return Err(fail("threads must be a whole number to 1024".into()));
                            }
                            config.threads = n as usize;
                        }
                        other => return Err(fail(format!("unknown setting {other:?}"))),
                    }
                }
                Ok(BotSpec::Ismcts(config))
            }
            _ => Err(fail(format!("unknown bot {name:?}"))),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Ismcts(config) => {
                match config.budget {
                    Budget::Simulations(n) => write!(f, "ismcts:{n}")?,
                    Budget::Time(t) => write!(f, "ismcts:time={}", t.as_secs_f64())?,
                }
                if config.exploration != IsmctsConfig::DEFAULT_EXPLORATION {
                    write!(f, ",c={}", config.exploration)?;
                }
                if config.threads != 1 {
                    write!(f, ",threads={}", config.threads)?;
                }
                Ok(())
            }
        }
    }
}

impl BotSpec {
    /// A bot of this kind seeded with `seed`.
    pub fn build(&self, seed: u64) -> Box<dyn Bot + Send> {
        match *self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Greedy => Box::new(GreedyBot::new(seed)),
            BotSpec::Ismcts(config) => Box::new(Ismcts::new(config, seed)),
        }
    }
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

/// Plays game `index` of a batch to the end: `seats[s]` is seat `s`'s bot.
pub fn play_game(rules: Rules, seats: &[BotSpec], seed: u64, index: u64) -> Outcome {
    let game = game_seed(seed, index);
    let mut position = Position::new(rules, &shuffled_pile(game))
        .unwrap_or_else(|_| unreachable!("the box is valid"));
    let mut bots: Vec<_> = (0..)
        .zip(seats)
        .map(|(s, spec)| spec.build(mix(game, s)))
        .collect();
    while let Some(seat) = position.to_move() {
        let info = position.information(seat);
        let Some(mv) = bots[usize::from(seat)].choose(&info) else {
            break;
        };
        if position.play(mv).is_err() {
            break; // a bot's illegal move ends the game (never happens with ours: tested)
        }
    }
    Outcome {
        scores: position.scores(),
        winners: position.winners(),
        placements: position.placed(),
    }
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
}

impl Batch {
    /// Game `index`'s bot per seat.
    pub fn seats(&self, index: u64) -> Vec<BotSpec> {
        let lineup = &self.lineups[(index % self.lineups.len() as u64) as usize];
        lineup.iter().map(|&b| self.bots[b]).collect()
    }

    /// Plays games `games` on `threads` threads (0: one per core), counting finished games
    /// in `done`. Returns `None` once `cancel` is set.
    pub fn run(
        &self,
        games: Range<u64>,
        threads: usize,
        done: &AtomicU64,
        cancel: &AtomicBool,
    ) -> Option<Vec<Outcome>> {
        let play = |index: u64| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let outcome = play_game(self.rules, &self.seats(index), self.seed, index);
            done.fetch_add(1, Ordering::Relaxed);
            Some(outcome)
        };
        // A fresh pool per batch, so a forked child never reuses its parent's threads.
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| games.into_par_iter().map(play).collect()),
            Err(_) => games.map(play).collect(),
        }
    }
}
