//! Bot specs, the same strings for every game, and the bots they build.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::bots::{Bot, GreedyBot, PlayoutBot, RandomBot};
use crate::game::Game;
use crate::ismcts::{Budget, Ismcts, IsmctsConfig, Visits};

/// A bot by name and settings, as written on command lines, the same for every game:
/// `random`, `greedy`, `playout`, `ismcts`, `ismcts:1000`, `ismcts:time=0.5`,
/// `ismcts:2000,c=0.5,threads=2`. A simulation count and a time together
/// (`ismcts:200000,time=5`) stop the search at whichever comes first.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum BotSpec {
    /// [`crate::RandomBot`].
    Random,
    /// [`crate::GreedyBot`].
    Greedy,
    /// [`crate::PlayoutBot`]: the game's playout policy.
    Playout,
    /// [`crate::Ismcts`].
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

impl FromStr for BotSpec {
    type Err = BotSpecError;

    fn from_str(text: &str) -> Result<BotSpec, BotSpecError> {
        let fail = |why: String| {
            BotSpecError(format!(
                "bad bot {text:?}: {why} (expected random, greedy, playout, ismcts, \
                 ismcts:1000, ismcts:time=0.5 or ismcts:1000,c=0.7,threads=2)"
            ))
        };
        let (name, args) = text.trim().split_once(':').unwrap_or((text.trim(), ""));
        match name.to_ascii_lowercase().as_str() {
            "random" | "greedy" | "playout" if !args.is_empty() => {
                Err(fail(format!("{name} takes no settings")))
            }
            "random" => Ok(BotSpec::Random),
            "greedy" => Ok(BotSpec::Greedy),
            "playout" => Ok(BotSpec::Playout),
            "ismcts" => {
                let (mut simulations, mut seconds) = (None, None);
                let mut exploration = f64::from(IsmctsConfig::DEFAULT_EXPLORATION);
                let mut threads = 1;
                for arg in args.split(',').map(str::trim).filter(|a| !a.is_empty()) {
                    let (key, value) = arg.split_once('=').unwrap_or(("simulations", arg));
                    let key = key.trim();
                    let number = value
                        .trim()
                        .parse::<f64>()
                        .map_err(|_| fail(format!("{key} must be a number, not {value:?}")))?;
                    // A whole number as an integer (saturating: the bounds then refuse it).
                    let whole = || {
                        (number.fract() == 0.0)
                            .then_some(number as i64)
                            .ok_or_else(|| fail(format!("{key} must be a whole number")))
                    };
                    match key {
                        "simulations" | "sims" => simulations = Some(whole()?),
                        "time" => seconds = Some(number),
                        "c" | "exploration" => exploration = number,
                        "threads" => threads = whole()?,
                        other => return Err(fail(format!("unknown setting {other:?}"))),
                    }
                }
                let budget = Budget::given(simulations, seconds).map_err(|e| fail(e.0))?;
                IsmctsConfig::new(budget, exploration, threads)
                    .map(BotSpec::Ismcts)
                    .map_err(|e| fail(e.0))
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
            BotSpec::Playout => f.write_str("playout"),
            BotSpec::Ismcts(config) => {
                // Every value written here reads back to the same settings.
                match config.budget() {
                    Budget::Simulations(n) => write!(f, "ismcts:{n}")?,
                    Budget::Time(t) => write!(f, "ismcts:time={}", t.as_secs_f64())?,
                    Budget::SimulationsOrTime(n, t) => {
                        write!(f, "ismcts:{n},time={}", t.as_secs_f64())?;
                    }
                }
                if config.exploration() != IsmctsConfig::DEFAULT_EXPLORATION {
                    write!(f, ",c={}", config.exploration())?;
                }
                if config.threads() != 1 {
                    write!(f, ",threads={}", config.threads())?;
                }
                Ok(())
            }
        }
    }
}

impl BotSpec {
    /// A bot of this kind for game `G`, seeded with `seed`.
    pub fn build<G: Game>(&self, seed: u64) -> SearchBot<G> {
        match *self {
            BotSpec::Random => SearchBot::Random(RandomBot::new(seed)),
            BotSpec::Greedy => SearchBot::Greedy(GreedyBot::new(seed)),
            BotSpec::Playout => SearchBot::Playout(PlayoutBot::new(seed)),
            BotSpec::Ismcts(config) => SearchBot::Ismcts(Box::new(Ismcts::new(config, seed))),
        }
    }
}

/// An action with the root visits of the search that chose it, if any.
pub type Decision<A> = (A, Option<Visits<A>>);

/// Any bot of this crate for game `G`, dispatched without a virtual call.
#[derive(Clone, Debug)]
pub enum SearchBot<G: Game> {
    /// [`RandomBot`].
    Random(RandomBot<G::Action>),
    /// [`GreedyBot`].
    Greedy(GreedyBot<G::Action>),
    /// [`PlayoutBot`].
    Playout(PlayoutBot<G::Action>),
    /// [`Ismcts`], boxed: its thread pool is large.
    Ismcts(Box<Ismcts>),
}

impl<G: Game> Bot<G> for SearchBot<G> {
    fn choose(&mut self, state: &G) -> Option<G::Action> {
        match self {
            SearchBot::Random(bot) => bot.choose(state),
            SearchBot::Greedy(bot) => bot.choose(state),
            SearchBot::Playout(bot) => bot.choose(state),
            SearchBot::Ismcts(bot) => bot.choose(state),
        }
    }
}

impl<G: Game> SearchBot<G> {
    /// The action for the seat to move in `state`, with the search's root visits when the
    /// bot searches. The same choice as [`Bot::choose`]; a search ends early once `stop` is
    /// set ([`Ismcts::search_until`]).
    pub fn decide(&mut self, state: &G, stop: &AtomicBool) -> Option<Decision<G::Action>> {
        match self {
            SearchBot::Ismcts(bot) => bot
                .search_until(state, stop)
                .map(|r| (r.best, Some(r.visits))),
            bot => bot.choose(state).map(|action| (action, None)),
        }
    }
}
