//! Bot specs, the same strings for every game, and the bots they build.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::bots::{Bot, GreedyBot, PlayoutBot, RandomBot};
use crate::game::Game;
use crate::ismcts::{Budget, Ismcts, IsmctsConfig, Visits};

/// A bot by name and settings, as written on command lines, the same for every game:
/// `random`, `greedy`, `playout`, `ismcts`, `ismcts:1000`, `ismcts:time=0.5`,
/// `ismcts:2000,c=0.5,threads=2`, `best`, `best:time=0.5`. A simulation count and a time
/// together (`ismcts:200000,time=5`) stop the search at whichever comes first.
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
    /// The strongest bot of the crate for the game it plays: [`crate::Ismcts`] at the game's
    /// tuned exploration ([`Game::BEST_EXPLORATION`]) with these budget and threads; `c` is
    /// not a setting of it.
    Best(IsmctsConfig),
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
                 ismcts:1000, ismcts:time=0.5, ismcts:1000,c=0.7,threads=2, best or \
                 best:time=0.5)"
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
            searcher @ ("ismcts" | "best") => {
                let best = searcher == "best";
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
                        "c" | "exploration" if best => {
                            return Err(fail(
                                "best's exploration is tuned for each game; set c on \
                                 ismcts instead"
                                    .into(),
                            ));
                        }
                        "c" | "exploration" => exploration = number,
                        "threads" => threads = whole()?,
                        other => return Err(fail(format!("unknown setting {other:?}"))),
                    }
                }
                let budget = Budget::given(simulations, seconds).map_err(|e| fail(e.0))?;
                IsmctsConfig::new(budget, exploration, threads)
                    .map(if best { BotSpec::Best } else { BotSpec::Ismcts })
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
            BotSpec::Ismcts(config) | BotSpec::Best(config) => {
                // Every value written here reads back to the same settings.
                let name = if matches!(self, BotSpec::Best(_)) {
                    "best"
                } else {
                    "ismcts"
                };
                match config.budget() {
                    Budget::Simulations(n) => write!(f, "{name}:{n}")?,
                    Budget::Time(t) => write!(f, "{name}:time={}", t.as_secs_f64())?,
                    Budget::SimulationsOrTime(n, t) => {
                        write!(f, "{name}:{n},time={}", t.as_secs_f64())?;
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
            BotSpec::Ismcts(_) | BotSpec::Best(_) => {
                let config = self.search_config::<G>().unwrap_or_else(|| unreachable!());
                SearchBot::Ismcts(Box::new(Ismcts::new(config, seed)))
            }
        }
    }

    /// Whether this spec's bot searches (so a call that lets it move answers Ctrl-C).
    pub const fn searches(&self) -> bool {
        matches!(self, BotSpec::Ismcts(_) | BotSpec::Best(_))
    }

    /// The settings of the search this spec's bot runs for game `G` (`best` at `G`'s tuned
    /// exploration); `None` for a bot that does not search.
    pub fn search_config<G: Game>(&self) -> Option<IsmctsConfig> {
        match *self {
            BotSpec::Ismcts(config) => Some(config),
            BotSpec::Best(config) => {
                Some(G::BEST_EXPLORATION.map_or(config, |c| config.with_exploration(c)))
            }
            BotSpec::Random | BotSpec::Greedy | BotSpec::Playout => None,
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
