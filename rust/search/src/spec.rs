//! Bot specs, the same strings for every game, and the bots they build.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::bots::{Bot, GreedyBot, PlayoutBot, RandomBot};
use crate::encoded::Encoded;
use crate::game::Game;
use crate::ismcts::{Budget, Ismcts, IsmctsConfig, Visits};
use crate::net::{NetEvaluator, Network, keep, keep_in, shipped};
use crate::puct::{PuctBot, PuctConfig};

/// A bot by name and settings, as written on command lines, the same for every game:
/// `random`, `greedy`, `playout`, `ismcts`, `ismcts:1000`, `ismcts:time=0.5`,
/// `ismcts:2000,c=0.5,threads=2`, `best`, `best:time=0.5`, `net`, `net:400`,
/// `net:time=0.1`, `net:file=PATH,800,threads=2,c=2`. A simulation count and a time
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
    /// tuned exploration ([`Game::BEST_EXPLORATION`]) and playout policy
    /// ([`Game::best_playout`]) with these budget and threads; `c` is not a setting of it.
    Best(IsmctsConfig),
    /// [`crate::Puct`] steered by a network ([`crate::NetEvaluator`]): the file's, or the
    /// game's shipped one ([`Encoded::DEFAULT_NETWORK`]).
    /// Its settings are kept for the process's life (one copy of each distinct setting),
    /// so that a spec stays small and `Copy`.
    Net(&'static NetSpec),
}

/// The settings of a `net` bot: its search and its network.
#[derive(Clone, PartialEq, Debug)]
pub struct NetSpec {
    /// The search's settings as the spec names them (`c` is its `c_puct`, `mix` its
    /// [`PuctConfig::playout_mix`], `expand` its [`PuctConfig::expansion`]), the others
    /// [`PuctConfig`]'s defaults; [`NetSpec::config_for`] gives the ones it plays.
    pub config: PuctConfig,
    /// The network file, read when the spec was; `None`: the game's shipped network.
    pub file: Option<NetFile>,
    /// Which of `c`, `mix` and `expand` the spec names.
    pub named: NamedSteering,
}

/// Which settings of how a `net` bot's search uses its network a spec names: those it does
/// not follow the network ([`NetSpec::config_for`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[allow(clippy::struct_excessive_bools)]
pub struct NamedSteering {
    /// `c`.
    pub c: bool,
    /// `mix`.
    pub mix: bool,
    /// `expand`.
    pub expand: bool,
}

/// A network file named by a spec, as read when the spec was (kept for the process's life).
#[derive(Clone, Debug)]
pub struct NetFile {
    /// The path, as the spec wrote it.
    pub path: String,
    /// Its network.
    pub network: &'static Network,
}

impl PartialEq for NetFile {
    fn eq(&self, other: &NetFile) -> bool {
        self.path == other.path && std::ptr::eq(self.network, other.network)
    }
}

impl NetSpec {
    /// `c` of a network with a policy head unless the spec names one.
    pub const POLICY_C_PUCT: f64 = 3.0;
    /// `mix` of a network with a policy head unless the spec names one: its priors steer,
    /// playouts value the leaves.
    pub const POLICY_PLAYOUT_MIX: f64 = 1.0;
    /// `expand` of a network with a policy head unless the spec names one.
    pub const POLICY_EXPANSION: i64 = 8;

    /// The search's settings with `network`: those the spec names; the others, for a
    /// network with a policy head, [`Self::POLICY_C_PUCT`], [`Self::POLICY_PLAYOUT_MIX`] and
    /// [`Self::POLICY_EXPANSION`] (its priors steer the search, playouts value the leaves:
    /// measured stronger at equal time, docs/search.md); for a value-only network (or
    /// none), [`PuctConfig`]'s (AlphaZero's: its value at every leaf).
    pub fn config_for(&self, network: Option<&Network>) -> PuctConfig {
        let mut config = self.config;
        if network.is_some_and(Network::has_policy) {
            // The policy defaults are within the settings' bounds.
            if !self.named.c {
                config = config.with_c_puct(Self::POLICY_C_PUCT).unwrap_or(config);
            }
            if !self.named.mix {
                config = config
                    .with_playout_mix(Self::POLICY_PLAYOUT_MIX)
                    .unwrap_or(config);
            }
            if !self.named.expand {
                config = config
                    .with_expansion(Self::POLICY_EXPANSION)
                    .unwrap_or(config);
            }
        }
        config
    }

    /// The network this bot plays for game `G` with `players` seats (`None`: as many as the
    /// network was trained for), checked against them ([`Network::check_game`]).
    ///
    /// # Errors
    /// The network does not fit, in words naming the file (or the game's shipped network).
    pub fn network<G: Encoded>(
        &self,
        players: Option<usize>,
    ) -> Result<&'static Network, BotSpecError> {
        let fits = |n: &Network| n.check_game::<G>(players.unwrap_or(n.players()));
        if let Some(file) = &self.file {
            return fits(file.network).map(|()| file.network).map_err(|e| {
                BotSpecError(format!("the network file {} does not fit: {e}", file.path))
            });
        }
        let network = shipped::<G>().map_err(|e| BotSpecError(e.0))?;
        fits(network)
            .map(|()| network)
            .map_err(|e| BotSpecError(format!("{:?}'s shipped network does not fit: {e}", G::NAME)))
    }

    /// The bot, with the network if it fits `G` at its own seat count, else none
    /// ([`NetEvaluator::blank`]; [`BotSpec::check`] refuses such a spec first).
    fn bot<G: Encoded>(&self, seed: u64) -> PuctBot<NetEvaluator<'static>> {
        let network = match &self.file {
            Some(file) => Ok(file.network),
            None => shipped::<G>(),
        };
        let evaluator = match network {
            Ok(n) if n.check_game::<G>(n.players()).is_ok() => NetEvaluator::new(n),
            _ => NetEvaluator::blank(),
        };
        PuctBot {
            puct: crate::Puct::new(self.config_for(evaluator.network()), seed),
            evaluator,
        }
    }
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
                 ismcts:1000, ismcts:time=0.5, ismcts:1000,c=0.7,threads=2, best, \
                 best:time=0.5, net, net:400, net:time=0.1 or net:file=PATH,800,threads=2)"
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
            "net" => parse_net(args).map_err(fail),
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

/// Every `net` setting read ([`BotSpec::Net`]).
static NET_SPECS: std::sync::Mutex<Vec<&'static NetSpec>> = std::sync::Mutex::new(Vec::new());

/// The settings of `net:ARGS`, or what is wrong with them.
fn parse_net(args: &str) -> Result<BotSpec, String> {
    let (mut simulations, mut seconds, mut file) = (None, None, None);
    let mut config = PuctConfig::default();
    let mut named = NamedSteering::default();
    for arg in args.split(',').map(str::trim).filter(|a| !a.is_empty()) {
        let (key, value) = arg.split_once('=').unwrap_or(("simulations", arg));
        let (key, value) = (key.trim(), value.trim());
        if key == "file" {
            let network = Network::load(value).map_err(|e| e.0)?;
            file = Some(NetFile {
                path: value.to_owned(),
                network: keep(network),
            });
            continue;
        }
        let number = value
            .parse::<f64>()
            .map_err(|_| format!("{key} must be a number, not {value:?}"))?;
        let whole = || {
            (number.fract() == 0.0)
                .then_some(number as i64)
                .ok_or_else(|| format!("{key} must be a whole number"))
        };
        match key {
            "simulations" | "sims" => simulations = Some(whole()?),
            "time" => seconds = Some(number),
            "c" | "c_puct" => {
                config = config.with_c_puct(number).map_err(|e| e.0)?;
                named.c = true;
            }
            "threads" => config = config.with_threads(whole()?).map_err(|e| e.0)?,
            "mix" => {
                config = config.with_playout_mix(number).map_err(|e| e.0)?;
                named.mix = true;
            }
            "expand" => {
                config = config.with_expansion(whole()?).map_err(|e| e.0)?;
                named.expand = true;
            }
            other => return Err(format!("unknown setting {other:?}")),
        }
    }
    let budget = match (simulations, seconds) {
        (None, None) => Budget::Simulations(PuctConfig::DEFAULT_SIMULATIONS),
        given => Budget::given(given.0, given.1).map_err(|e| e.0)?,
    };
    let config = config.with_budget(budget).map_err(|e| e.0)?;
    let spec = NetSpec {
        config,
        file,
        named,
    };
    Ok(BotSpec::Net(keep_in(&NET_SPECS, spec)))
}

/// A budget as a spec writes it: `N`, `time=S` or `N,time=S`.
fn write_budget(f: &mut fmt::Formatter<'_>, name: &str, budget: Budget) -> fmt::Result {
    match budget {
        Budget::Simulations(n) => write!(f, "{name}:{n}"),
        Budget::Time(t) => write!(f, "{name}:time={}", t.as_secs_f64()),
        Budget::SimulationsOrTime(n, t) => write!(f, "{name}:{n},time={}", t.as_secs_f64()),
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Net(net) => {
                // Every value written here reads back to the same settings.
                let config = &net.config;
                write_budget(f, "net", config.budget())?;
                if net.named.c {
                    write!(f, ",c={}", config.c_puct())?;
                }
                if config.threads() != 1 {
                    write!(f, ",threads={}", config.threads())?;
                }
                if net.named.mix {
                    write!(f, ",mix={}", config.playout_mix())?;
                }
                if net.named.expand {
                    write!(f, ",expand={}", config.expansion())?;
                }
                if let Some(file) = &net.file {
                    write!(f, ",file={}", file.path)?;
                }
                Ok(())
            }
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
                write_budget(f, name, config.budget())?;
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
    /// A bot of this kind for game `G`, seeded with `seed`. A `net` spec whose network does
    /// not fit `G` builds a search with no network ([`NetEvaluator::blank`]): check a spec
    /// first ([`BotSpec::check`]) where a person wrote it.
    pub fn build<G: Encoded>(&self, seed: u64) -> SearchBot<G> {
        match *self {
            BotSpec::Random => SearchBot::Random(RandomBot::new(seed)),
            BotSpec::Greedy => SearchBot::Greedy(GreedyBot::new(seed)),
            BotSpec::Playout => SearchBot::Playout(PlayoutBot::new(seed)),
            BotSpec::Ismcts(_) | BotSpec::Best(_) => {
                let config = self.search_config::<G>().unwrap_or_else(|| unreachable!());
                SearchBot::Ismcts(Box::new(Ismcts::new(config, seed)))
            }
            BotSpec::Net(net) => SearchBot::Net(Box::new(net.bot::<G>(seed))),
        }
    }

    /// Whether this spec's bot can play game `G` with `players` seats (`None`: any count its
    /// network was trained for): a `net` spec's network must fit them
    /// ([`NetSpec::network`]); every other spec can.
    ///
    /// # Errors
    /// Why it cannot, naming the network file.
    pub fn check<G: Encoded>(&self, players: Option<usize>) -> Result<(), BotSpecError> {
        match self {
            BotSpec::Net(net) => net.network::<G>(players).map(drop),
            _ => Ok(()),
        }
    }

    /// Whether this spec's bot searches (so a call that lets it move answers Ctrl-C).
    pub const fn searches(&self) -> bool {
        matches!(
            self,
            BotSpec::Ismcts(_) | BotSpec::Best(_) | BotSpec::Net(_)
        )
    }

    /// The settings of the search this spec's bot runs for game `G` (`best` at `G`'s tuned
    /// exploration, with its playout policy [`Game::best_playout`]); `None` for a bot that
    /// does not search.
    pub fn search_config<G: Game>(&self) -> Option<IsmctsConfig> {
        match *self {
            BotSpec::Ismcts(config) => Some(config),
            BotSpec::Best(config) => {
                let config = config.with_best_playout();
                Some(G::BEST_EXPLORATION.map_or(config, |c| config.with_exploration(c)))
            }
            BotSpec::Random | BotSpec::Greedy | BotSpec::Playout | BotSpec::Net(_) => None,
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
    /// [`crate::Puct`] with a network ([`BotSpec::Net`]), boxed.
    Net(Box<PuctBot<NetEvaluator<'static>>>),
}

impl<G: Encoded> Bot<G> for SearchBot<G> {
    fn choose(&mut self, state: &G) -> Option<G::Action> {
        match self {
            SearchBot::Random(bot) => bot.choose(state),
            SearchBot::Greedy(bot) => bot.choose(state),
            SearchBot::Playout(bot) => bot.choose(state),
            SearchBot::Ismcts(bot) => bot.choose(state),
            SearchBot::Net(bot) => bot
                .search_until(state, &AtomicBool::new(false))
                .map(|r| r.best),
        }
    }
}

impl<G: Encoded> SearchBot<G> {
    /// The action for the seat to move in `state`, with the search's root visits when the
    /// bot searches. The same choice as [`Bot::choose`]; a search ends early once `stop` is
    /// set ([`Ismcts::search_until`]).
    pub fn decide(&mut self, state: &G, stop: &AtomicBool) -> Option<Decision<G::Action>> {
        match self {
            SearchBot::Ismcts(bot) => bot
                .search_until(state, stop)
                .map(|r| (r.best, Some(r.visits))),
            SearchBot::Net(bot) => bot
                .search_until(state, stop)
                .map(|r| (r.best, Some(r.visits))),
            bot => bot.choose(state).map(|action| (action, None)),
        }
    }
}
