//! Batch simulation: many complete games inside Rust, in parallel, reproducibly. Game `i`'s
//! pile and bot seeds depend only on the batch seed and `i`, never on threads or batching.

use std::ops::Range;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::bots::{Bot, GreedyBot, PlayoutBot, RandomBot};
use crate::ismcts::{Ismcts, Visits};
use crate::moves::Move;
use crate::position::{Information, MAX_PLAYERS, Position};
use crate::rng::{box_in_type_order, pcg_pile, shuffled_pile};
use crate::rules::Rules;
use crate::tile::{TILE_TOTAL, TileType};

/// A bot by name and settings, as written on command lines: one spec type and one parser for
/// every game ([`indigo_search::BotSpec`]); [`NativeBot::new`] builds Indigo's.
pub use indigo_search::BotSpec;
/// Why a bot spec was refused.
pub use indigo_search::{BatchError, BotSpecError};
use indigo_search::{Rng, game_seed, mix, run_games_with, seatings};

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

impl NativeBot {
    /// The bot `spec` names, seeded with `seed`.
    pub fn new(spec: BotSpec, seed: u64) -> NativeBot {
        match spec {
            BotSpec::Random => NativeBot::Random(RandomBot::new(seed)),
            BotSpec::Greedy => NativeBot::Greedy(GreedyBot::new(seed)),
            BotSpec::Playout => NativeBot::Playout(PlayoutBot::new(seed)),
            BotSpec::Ismcts(config) => NativeBot::Ismcts(Box::new(Ismcts::new(config, seed))),
        }
    }
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
    /// The move for the seat to move in `position`, with the search's root visits when the
    /// bot searches. The same choice as [`Bot::choose_in`]; a search ends early once `stop`
    /// is set ([`Ismcts::search_until`]).
    pub fn decide(
        &mut self,
        position: &Position,
        stop: &AtomicBool,
    ) -> Option<(Move, Option<Visits>)> {
        match self {
            NativeBot::Ismcts(bot) => bot
                .search_until(&position.information(position.to_move()?), stop)
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

/// The bots of the game seeded with `game`: seat `s` plays `seats[s]` seeded with
/// [`seat_seed`].
pub(crate) fn seat_bots(seats: &[BotSpec], game: u64) -> [Option<NativeBot>; MAX_PLAYERS] {
    std::array::from_fn(|s| {
        seats
            .get(s)
            .map(|&spec| NativeBot::new(spec, seat_seed(game, s)))
    })
}

/// The seed of seat `seat`'s bot in the game seeded with `game`.
pub(crate) fn seat_seed(game: u64, seat: usize) -> u64 {
    mix(game, seat as u64)
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
    let mut position = Position::set_up(rules, &box_in_type_order());
    play_game_in(&mut position, rules, seats, (seed, index, deal), stop)
}

/// [`play_game`] in `position`, reset for the game: a batch's workers reuse theirs.
fn play_game_in(
    position: &mut Position,
    rules: Rules,
    seats: &[BotSpec],
    (seed, index, deal): (u64, u64, Deal),
    stop: &AtomicBool,
) -> Outcome {
    let game = game_seed(seed, index);
    // Either deal shuffles the box, so the pile needs no check.
    position.reset(rules, &deal.pile(game));
    if seats.iter().all(|&spec| spec == BotSpec::Playout) {
        // Playout bots in every seat: the whole game in the policy's own loop, each seat
        // drawing from the generator its bot would hold. The same moves (tested).
        let mut rngs = [const { Rng::new(0) }; MAX_PLAYERS];
        for (s, rng) in rngs.iter_mut().enumerate().take(seats.len()) {
            *rng = PlayoutBot::new(seat_seed(game, s)).into_rng();
        }
        position.play_out(&mut rngs);
    } else {
        play_moves(position, &mut seat_bots(seats, game), stop);
    }
    Outcome::of(position)
}

/// Plays `position` on, each seat's move chosen by its bot, until the game ends, a bot has no
/// move, or `stop` is set during a search.
fn play_moves(
    position: &mut Position,
    bots: &mut [Option<NativeBot>; MAX_PLAYERS],
    stop: &AtomicBool,
) {
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
            Some(bot) => bot.choose_in(position),
            None => None,
        };
        let Some(mv) = mv else {
            break;
        };
        // The core's bots choose only legal moves (tested in every configuration), so the
        // check runs in debug builds only.
        debug_assert_eq!(position.check(mv), Ok(()), "a native bot chose {mv}");
        position.play_unchecked(mv, &mut ());
    }
}

/// A batch: the rules, the bots, and which bot sits where in each game. Built checked by
/// [`Batch::new`], so every game has a seating.
#[derive(Clone, Debug)]
pub struct Batch {
    rules: Rules,
    bots: Vec<BotSpec>,
    /// Game `i` uses `lineups[i % lineups.len()]`, a bot index per seat; never empty.
    lineups: Vec<Vec<usize>>,
    seed: u64,
    deal: Deal,
}

impl Batch {
    /// A batch of games under `rules` between `bots`, seeded with `seed`, piles dealt by
    /// `deal`. `lineups` are the seatings (a bot index per seat; game `i` uses
    /// `lineups[i % lineups.len()]`); without them, the bots sit in seat order when there is
    /// one per seat, and a lone bot takes every seat.
    ///
    /// # Errors
    /// No bots; no lineups given and neither one bot nor one per seat; an empty list of
    /// lineups; a lineup that is not one bot index per seat; an index that names no bot.
    pub fn new(
        rules: Rules,
        bots: Vec<BotSpec>,
        lineups: Option<&[Vec<i64>]>,
        seed: u64,
        deal: Deal,
    ) -> Result<Batch, BatchError> {
        let lineups = seatings(bots.len(), usize::from(rules.players()), lineups)?;
        Ok(Batch {
            rules,
            bots,
            lineups,
            seed,
            deal,
        })
    }

    /// The rules of every game.
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The bots taking part.
    pub fn bots(&self) -> &[BotSpec] {
        &self.bots
    }

    /// The batch seed.
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// How piles are shuffled from game seeds.
    pub const fn deal(&self) -> Deal {
        self.deal
    }

    /// Game `index`'s seating: the index into [`Batch::bots`] of each seat's bot.
    pub fn lineup(&self, index: u64) -> &[usize] {
        &self.lineups[(index % self.lineups.len() as u64) as usize]
    }

    /// Game `index`'s bot per seat.
    pub fn seats(&self, index: u64) -> Vec<BotSpec> {
        let (seats, players) = self.seat_array(index);
        seats[..players].to_vec()
    }

    /// [`Batch::seats`] without an allocation: the first `players` entries.
    fn seat_array(&self, index: u64) -> ([BotSpec; MAX_PLAYERS], usize) {
        let lineup = self.lineup(index);
        let mut seats = [BotSpec::Random; MAX_PLAYERS];
        for (seat, &bot) in seats.iter_mut().zip(lineup) {
            *seat = self.bots[bot];
        }
        (seats, lineup.len())
    }

    /// Game `index`'s seed ([`game_seed`]).
    pub fn game_seed(&self, index: u64) -> u64 {
        game_seed(self.seed, index)
    }

    /// Game `index`'s pile, as this batch deals it.
    pub fn pile(&self, index: u64) -> [TileType; TILE_TOTAL] {
        self.deal.pile(self.game_seed(index))
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
        let scratch = || Position::set_up(self.rules, &box_in_type_order());
        run_games_with(games, threads, done, cancel, scratch, |position, index| {
            let (seats, players) = self.seat_array(index);
            let game = (self.seed, index, self.deal);
            play_game_in(position, self.rules, &seats[..players], game, cancel)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::position::{MAX_PLAYERS, Position};
    use crate::rules::Rules;
    use crate::simulate::{Batch, BotSpec, Deal, Outcome, play_moves, seat_bots};
    use indigo_search::game_seed;
    use std::sync::atomic::{AtomicBool, AtomicU64};

    #[test]
    fn bot_specs_parse_and_print() {
        for text in [
            "random",
            "greedy",
            "playout",
            "ismcts:1000",
            "ismcts:time=0.5",
            "ismcts:200,c=0.5,threads=2",
        ] {
            let spec: BotSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "ismcts".parse::<BotSpec>().unwrap().to_string(),
            "ismcts:1000"
        );
        for bad in [
            "",
            "minimax",
            "random:3",
            "playout:1",
            "ismcts:-1",
            "ismcts:1.5",
            "ismcts:c=nan",
            "ismcts:x=1",
        ] {
            let err = bad.parse::<BotSpec>().unwrap_err();
            assert!(err.0.contains("expected random"), "{err}");
        }
    }

    #[test]
    fn batches_do_not_depend_on_threads_or_splitting() {
        let batch = Batch::new(
            Rules::indigo(2).unwrap(),
            vec![BotSpec::Random, BotSpec::Greedy],
            Some(&[vec![0, 1], vec![1, 0]]),
            99,
            Deal::Pcg,
        )
        .unwrap();
        let (done, cancel) = (AtomicU64::new(0), AtomicBool::new(false));
        let whole = batch.run(0..40, 1, &done, &cancel).unwrap();
        let mut split = batch.run(0..15, 2, &done, &cancel).unwrap();
        split.extend(batch.run(15..40, 2, &done, &cancel).unwrap());
        assert_eq!(whole, split);
        assert_eq!(done.load(std::sync::atomic::Ordering::Relaxed), 80);
        cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(batch.run(0..10, 1, &done, &cancel).is_none());
    }

    #[test]
    fn native_playouts_are_the_batch_games_of_playout_bots() {
        for rules in [Rules::indigo(2).unwrap(), Rules::tactical(4).unwrap()] {
            let batch = Batch::new(rules, vec![BotSpec::Playout], None, 17, Deal::Pcg).unwrap();
            let outcomes = batch
                .run(3..203, 2, &AtomicU64::new(0), &AtomicBool::new(false))
                .unwrap();
            let native = crate::bench::playouts(rules, 17, 3..203);
            assert_eq!(native, crate::bench::GamesSummary::of(&outcomes));
            assert_eq!(native.games, 200);
            // Every game ran to the end: 54 tiles or all gems gone.
            assert!(
                outcomes
                    .iter()
                    .all(|o| o.placements == 54 || o.scores.iter().sum::<u16>() > 0)
            );
            // The checksum sees a change in any game.
            let shifted = crate::bench::playouts(rules, 17, 4..204);
            assert_ne!(native.checksum, shifted.checksum);
            // The same games with each move asked of its bot.
            let by_moves: Vec<Outcome> = (3..203)
                .map(|index| {
                    let game = game_seed(17, index);
                    let mut position = Position::new(rules, &Deal::Pcg.pile(game)).unwrap();
                    let mut bots = seat_bots(&[BotSpec::Playout; MAX_PLAYERS], game);
                    play_moves(&mut position, &mut bots, &AtomicBool::new(false));
                    Outcome::of(&position)
                })
                .collect();
            assert_eq!(outcomes, by_moves);
        }
    }

    #[test]
    fn a_batch_is_checked_when_built() {
        let rules = Rules::indigo(3).unwrap();
        let new = |bots: Vec<BotSpec>, lineups: Option<&[Vec<i64>]>| {
            Batch::new(rules, bots, lineups, 0, Deal::Python).map_err(|e| e.0)
        };
        let one = || vec![BotSpec::Random];
        let err = |r: Result<Batch, String>| r.unwrap_err();
        assert!(err(new(vec![], None)).contains("at least one bot"));
        assert!(err(new(one(), Some(&[]))).contains("must not be empty"));
        assert!(err(new(one(), Some(&[vec![0, 0]]))).contains("one bot index per seat (3), not 2"));
        assert!(err(new(one(), Some(&[vec![0, 1, 0]]))).contains("index 1 is not 0..0"));
        assert!(err(new(one(), Some(&[vec![0, -1, 0]]))).contains("index -1"));
        let two = vec![BotSpec::Random, BotSpec::Greedy];
        assert!(err(new(two.clone(), None)).contains("one bot per seat (3)"));
        // Default seatings: a lone bot everywhere; one bot per seat in seat order.
        assert_eq!(new(one(), None).unwrap().lineup(7), [0, 0, 0]);
        let three = vec![BotSpec::Random, BotSpec::Greedy, BotSpec::Playout];
        let batch = new(three, None).unwrap();
        assert_eq!(batch.lineup(5), [0, 1, 2]);
        let batch = new(two, Some(&[vec![0, 1, 1], vec![1, 0, 0]])).unwrap();
        assert_eq!(batch.lineup(3), [1, 0, 0]);
        assert_eq!(
            batch.seats(4),
            [BotSpec::Random, BotSpec::Greedy, BotSpec::Greedy]
        );
    }

    #[test]
    fn random_and_greedy_games_are_pinned() {
        // Every configuration, seat orders and tie-breaks included; retaken only when the bots'
        // generator (`indigo_search::Rng`) became wyrand.
        let mut checksum = 0;
        for rules in crate::testing::all_configurations() {
            let bots = vec![BotSpec::Greedy, BotSpec::Random];
            let players = i64::from(rules.players());
            let lineups = [(0..players).map(|s| s % 2).collect()];
            let batch = Batch::new(rules, bots, Some(&lineups), 7, Deal::Python).unwrap();
            let (done, cancel) = (AtomicU64::new(0), AtomicBool::new(false));
            for outcome in batch.run(0..6, 1, &done, &cancel).unwrap() {
                checksum = outcome.fold_into(checksum);
            }
        }
        assert_eq!(checksum, 1_727_710_269_957_436_518);
    }
}
