//! Many games stepped together for learning: one call applies one action per game and writes
//! every game's observation, action mask, rewards and termination into flat buffers.
//!
//! Semantics:
//! * every game uses sampled chance; game `env`'s `k`-th episode is shuffled from
//!   [`game_seed`]`(seed, k * num_envs + env)`, so the first episodes are the games a
//!   [`indigo_search::Batch`] of [`crate::IndigoSetup`] with the same seed plays;
//! * in each game the seat to move acts; the observation and mask are that seat's view. At a
//!   terminal step they are the view of the seat that moved last, and the mask is empty;
//! * rewards are per seat, all zero until the step that ends the game, which gives each seat
//!   its return under the [`Utility`];
//! * autoreset is Gymnasium's `NEXT_STEP`: the step after a game ended ignores that game's
//!   action, starts its next episode and reports it like a reset (zero rewards, not
//!   terminated).

use std::fmt;
use std::sync::atomic::AtomicBool;

use crate::action::{ACTION_COUNT, Action, ActionSet};
use crate::game::Game;
use crate::moves::Move;
use crate::position::{
    MAX_PLAYERS, OBSERVATION_SIZE, ObservationRow, ObservationValue, Position, Utility,
};
use crate::rng::{shuffled_pile, shuffled_piles};
use crate::rules::Rules;
use crate::tile::{TILE_TOTAL, TileType};
use indigo_search::{BotSpec, SearchBot, game_seed, mix};

/// A shuffled pile, front first.
type Pile = [TileType; TILE_TOTAL];

/// One game of the vector.
#[derive(Clone, Debug)]
struct Slot {
    position: Position,
    /// Episodes started in this slot before the current one.
    episode: u64,
    /// The game ended on the last step; the next step starts a new one.
    ended: bool,
    /// Whose view the last observation was.
    viewer: u8,
    /// The legal actions of the seat to move (none once the game is over).
    legal: ActionSet,
    /// What this game's row of the observation buffer holds.
    shown: ObservationRow,
    /// The actions this game's row of the mask buffer marks.
    shown_legal: ActionSet,
    /// The moves of this episode.
    moves: Vec<Move>,
    /// The bots at the other seats than the learner's, when bots play them.
    bots: [Option<SearchBot<Position>>; MAX_PLAYERS],
}

impl Slot {
    fn play(&mut self, mv: Move) {
        self.position.play_unchecked(mv, &mut ());
        self.moves.push(mv);
    }

    /// Lets the bots move until a seat without one is to move or the game ends; then the
    /// view is `learner`'s (the seat to move's in self-play, else `mover`'s). Once `stop` is
    /// set, searches end at once with the move they have found so far.
    fn settle(&mut self, learner: Option<u8>, mover: u8, stop: &AtomicBool) {
        while let Some(seat) = self.position.to_move() {
            let Some(bot) = &mut self.bots[usize::from(seat)] else {
                break;
            };
            let (action, _) = bot
                .decide(&self.position, stop)
                .unwrap_or_else(|| unreachable!("a bot moves when it is to move"));
            self.play(action.to_move());
        }
        self.ended = self.position.is_over();
        self.viewer = learner.or(self.position.to_move()).unwrap_or(mover);
        self.legal = self.position.legal_action_set();
    }
}

/// Native bots at every seat but the learner's.
#[derive(Clone, Copy, Debug)]
pub struct Opponents {
    /// The seat the actions play.
    pub learner: u8,
    /// The bot at each other seat (`None` at the learner's).
    pub bots: [Option<BotSpec>; MAX_PLAYERS],
}

impl Opponents {
    /// `specs` at every seat of `players` but the `learner`'s, in seat order.
    ///
    /// # Errors
    /// If `specs` is not one spec for each other seat.
    pub fn around(learner: u8, players: u8, specs: &[BotSpec]) -> Result<Opponents, VectorError> {
        let others = usize::from(players.saturating_sub(1));
        if specs.len() != others {
            return Err(VectorError::Opponents(format!(
                "give one opponent spec or {others}, not {}",
                specs.len()
            )));
        }
        let mut bots = [None; MAX_PLAYERS];
        let seats = (0..players).filter(|&s| s != learner);
        for (seat, &spec) in seats.zip(specs) {
            bots[usize::from(seat)] = Some(spec);
        }
        Ok(Opponents { learner, bots })
    }
}

/// Why a step was refused; no game changed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum VectorError {
    /// A game index out of range.
    NoGame {
        /// The index given.
        env: usize,
        /// How many games there are.
        len: usize,
    },
    /// Opponents that do not fit the rules: a learner's seat out of range, or not one bot
    /// for each other seat.
    Opponents(String),
    /// The buffers or the actions do not have the sizes the vector needs.
    Size {
        /// Which buffer.
        name: &'static str,
        /// The size it must have.
        expected: usize,
        /// The size it has.
        found: usize,
    },
    /// An action that is not legal in its game.
    Illegal {
        /// The game.
        env: usize,
        /// The action given.
        action: i64,
        /// The seat to move there.
        seat: u8,
    },
}

impl fmt::Display for VectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VectorError::Size {
                name,
                expected,
                found,
            } => write!(f, "{name} must hold {expected} values, not {found}"),
            VectorError::NoGame { env, len } => {
                write!(f, "no game {env}: the games are 0 to {}", len - 1)
            }
            VectorError::Opponents(why) => f.write_str(why),
            VectorError::Illegal { env, action, seat } => write!(
                f,
                "action {action} is not legal in game {env} (seat {seat} to move): \
                 no game was stepped"
            ),
        }
    }
}

impl std::error::Error for VectorError {}

/// The observation buffer: `f32`, or `u8` for the compact form (the same layout).
#[derive(Debug)]
pub enum Observations<'a> {
    /// `f32` values.
    F32(&'a mut [f32]),
    /// `u8` values: a quarter of the memory.
    U8(&'a mut [u8]),
}

impl Observations<'_> {
    fn len(&self) -> usize {
        match self {
            Observations::F32(buffer) => buffer.len(),
            Observations::U8(buffer) => buffer.len(),
        }
    }
}

/// Buffers a step writes, each flat and row-major over the games.
#[derive(Debug)]
pub struct Outputs<'a> {
    /// `num_envs x OBSERVATION_SIZE`.
    pub observations: Observations<'a>,
    /// What `observations` and `masks` hold: only what differs from it is written.
    pub contents: Contents,
    /// `num_envs x ACTION_COUNT`, true where the action is legal.
    pub masks: &'a mut [bool],
    /// `num_envs x players`.
    pub rewards: &'a mut [f32],
    /// `num_envs`.
    pub terminations: &'a mut [bool],
    /// `num_envs`: whose view each observation is.
    pub to_play: &'a mut [i8],
}

/// What the observation and mask buffers hold when a step or reset is called.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Contents {
    /// Anything: every entry is written.
    Unknown,
    /// Zeros (fresh arrays): only the non-zero entries are written.
    Zeros,
    /// What this vector's last reset or step wrote, unchanged since (zeros before the first):
    /// only the entries that differ are written, a few per game.
    Previous,
}

/// `num_envs` games with the same rules, stepped together.
#[derive(Clone, Debug)]
pub struct VectorGames {
    rules: Rules,
    utility: Utility,
    seed: u64,
    opponents: Option<Opponents>,
    slots: Vec<Slot>,
}

impl VectorGames {
    /// Most games one vector holds.
    pub const MAX_ENVS: u64 = 1 << 16;

    /// `num_envs` games seeded from `seed`, each at the start of its first episode.
    pub fn new(rules: Rules, num_envs: usize, utility: Utility, seed: u64) -> VectorGames {
        let mut games = VectorGames {
            rules,
            utility,
            seed,
            opponents: None,
            slots: Vec::new(),
        };
        games.slots = (0..num_envs)
            .map(|env| games.start(num_envs, env, 0, &AtomicBool::new(false)))
            .collect();
        games
    }

    /// The same games with `opponents` at every seat but the learner's: each episode starts
    /// again from its first move, and the bots move until the learner is to move (seeded
    /// from the episode's seed mixed with their seat, as a batch seeds its bots).
    ///
    /// Once `stop` is set, the bots' searches end at once with the move found so far (for a
    /// caller that must answer Ctrl-C: every call that lets bots move takes such a flag).
    ///
    /// # Errors
    /// If the learner's seat is not a seat of the rules, or the bots are not exactly one at
    /// each other seat.
    pub fn against(
        mut self,
        opponents: Opponents,
        stop: &AtomicBool,
    ) -> Result<VectorGames, VectorError> {
        let players = self.rules.players();
        if opponents.learner >= players {
            return Err(VectorError::Opponents(format!(
                "the learner's seat must be 0 to {}, not {}",
                players - 1,
                opponents.learner
            )));
        }
        let seated = (0..players)
            .all(|seat| opponents.bots[usize::from(seat)].is_some() != (seat == opponents.learner));
        if !seated
            || opponents.bots[usize::from(players)..]
                .iter()
                .any(Option::is_some)
        {
            return Err(VectorError::Opponents(format!(
                "give one bot for each of the {} seats but the learner's",
                players - 1
            )));
        }
        self.opponents = Some(opponents);
        for env in 0..self.len() {
            self.slots[env] = self.restart(env, self.slots[env].episode, None, stop);
        }
        Ok(self)
    }

    /// The bots at the other seats, if any.
    pub const fn opponents(&self) -> Option<Opponents> {
        self.opponents
    }

    /// A fresh slot for game `env`'s episode `episode`, of `num_envs` games.
    fn start(&self, num_envs: usize, env: usize, episode: u64, stop: &AtomicBool) -> Slot {
        let seed = episode_seed(self.seed, num_envs, env, episode);
        self.start_with(seed, episode, &shuffled_pile(seed), stop)
    }

    /// A fresh slot for episode `episode`, of seed `seed`, whose pile is `pile`.
    fn start_with(&self, seed: u64, episode: u64, pile: &Pile, stop: &AtomicBool) -> Slot {
        let position =
            Position::new(self.rules, pile).unwrap_or_else(|_| unreachable!("the box is valid"));
        let specs = self.opponents.map_or([None; MAX_PLAYERS], |o| o.bots);
        let mut slot = Slot {
            position,
            episode,
            ended: false,
            viewer: 0,
            legal: ActionSet::default(),
            shown: ObservationRow::ZEROS,
            shown_legal: ActionSet::default(),
            moves: Vec::with_capacity(usize::from(position.pile_left()) + 8),
            bots: std::array::from_fn(|seat| {
                specs[seat].map(|spec| spec.build(mix(seed, seat as u64)))
            }),
        };
        slot.settle(self.opponents.map(|o| o.learner), 0, stop);
        slot
    }

    /// Game `env` as a [`Game`]: its seed and this episode's moves, bots' included.
    ///
    /// # Errors
    /// If there is no game `env`.
    pub fn game(&self, env: usize) -> Result<Game, VectorError> {
        let slot = self.slots.get(env).ok_or(VectorError::NoGame {
            env,
            len: self.len(),
        })?;
        let mut game = Game::from_seed(
            self.rules,
            episode_seed(self.seed, self.len(), env, slot.episode),
        );
        for &mv in &slot.moves {
            game.play(mv)
                .unwrap_or_else(|_| unreachable!("the vector played it"));
        }
        Ok(game)
    }

    /// Starts the next episode of each game `restart` marks (the others keep theirs) and
    /// writes every game's view (rewards zero, nothing terminated).
    ///
    /// # Errors
    /// If a buffer or `restart` has the wrong size; then nothing changed.
    pub fn reset_some(
        &mut self,
        restart: &[bool],
        out: &mut Outputs<'_>,
        stop: &AtomicBool,
    ) -> Result<(), VectorError> {
        self.check_sizes(out)?;
        expect_len("the reset mask", restart.len(), self.len())?;
        for (env, &again) in restart.iter().enumerate() {
            if again {
                self.slots[env] = self.restart(env, self.slots[env].episode + 1, None, stop);
            }
        }
        self.write_all(out);
        Ok(())
    }

    /// How many games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The rules of every game.
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The seed the games' episodes are derived from.
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// How a finished game rewards each seat.
    pub const fn utility(&self) -> Utility {
        self.utility
    }

    /// Each game's current position.
    pub fn positions(&self) -> impl ExactSizeIterator<Item = &Position> {
        self.slots.iter().map(|s| &s.position)
    }

    /// Each game's current seed: it shuffled the pile as [`shuffled_pile`] does.
    pub fn game_seeds(&self) -> Vec<u64> {
        (0..self.len())
            .map(|env| episode_seed(self.seed, self.len(), env, self.slots[env].episode))
            .collect()
    }

    /// Each game's episode number, from 0.
    pub fn episodes(&self) -> Vec<u64> {
        self.slots.iter().map(|s| s.episode).collect()
    }

    /// Starts every game's first episode again from `seed` and writes their views
    /// (rewards zero, nothing terminated).
    ///
    /// # Errors
    /// If a buffer has the wrong size; then nothing changed.
    pub fn reset(
        &mut self,
        seed: u64,
        out: &mut Outputs<'_>,
        stop: &AtomicBool,
    ) -> Result<(), VectorError> {
        self.check_sizes(out)?;
        self.seed = seed;
        for env in 0..self.len() {
            self.slots[env] = self.restart(env, 0, None, stop);
        }
        self.write_all(out);
        Ok(())
    }

    /// Steps every game: `actions[env]` is played by the seat to move in game `env`, except
    /// in a game that ended on the last step, which starts its next episode instead.
    ///
    /// # Errors
    /// If a buffer has the wrong size or an action is not legal; then no game changed.
    pub fn step(
        &mut self,
        actions: &[i64],
        out: &mut Outputs<'_>,
        stop: &AtomicBool,
    ) -> Result<(), VectorError> {
        self.check_sizes(out)?;
        expect_len("actions", actions.len(), self.len())?;
        for (env, (slot, &action)) in self.slots.iter().zip(actions).enumerate() {
            if !slot.ended && slot.legal_move(action).is_none() {
                let seat = slot.position.to_move().unwrap_or(slot.viewer);
                return Err(VectorError::Illegal { env, action, seat });
            }
        }
        let next_seeds: Vec<u64> = (self.slots.iter().enumerate())
            .filter(|(_, slot)| slot.ended)
            .map(|(env, slot)| episode_seed(self.seed, self.len(), env, slot.episode + 1))
            .collect();
        let piles = deal(&next_seeds);
        let contents = out.contents;
        match rows(out, usize::from(self.rules.players())) {
            (RowsOf::F32(rows), rest) => {
                self.step_rows(actions, &piles, rows.zip(rest), contents, stop);
            }
            (RowsOf::U8(rows), rest) => {
                self.step_rows(actions, &piles, rows.zip(rest), contents, stop);
            }
        }
        Ok(())
    }

    /// Steps each game with its (legal) action and writes its rows at once, while its
    /// state is in cache; the games that ended start their next episodes with `piles`, in
    /// order.
    fn step_rows<'a, V: ObservationValue + 'a>(
        &mut self,
        actions: &[i64],
        piles: &[Pile],
        rows: impl Iterator<Item = (ViewRow<'a, V>, ResultRow<'a>)>,
        contents: Contents,
        stop: &AtomicBool,
    ) {
        let learner = self.opponents.map(|o| o.learner);
        let mut piles = piles.iter();
        for (env, (&action, (view, mut result))) in actions.iter().zip(rows).enumerate() {
            if self.slots[env].ended {
                let pile = piles.next();
                self.slots[env] = self.restart(env, self.slots[env].episode + 1, pile, stop);
            } else {
                let slot = &mut self.slots[env];
                let (seat, mv) = slot
                    .legal_move(action)
                    .unwrap_or_else(|| unreachable!("every action was checked"));
                slot.play(mv);
                slot.settle(learner, seat, stop);
            }
            let slot = &mut self.slots[env];
            slot.write_view(view, contents);
            slot.write_result(&mut result, slot.ended, self.utility);
        }
    }

    /// Game `env`'s episode `episode`, its buffer rows' record kept; `pile` is its pile when
    /// already dealt.
    fn restart(&self, env: usize, episode: u64, pile: Option<&Pile>, stop: &AtomicBool) -> Slot {
        let old = &self.slots[env];
        let mut shown = old.shown;
        shown.new_game();
        let fresh = match pile {
            Some(pile) => self.start_with(
                episode_seed(self.seed, self.len(), env, episode),
                episode,
                pile,
                stop,
            ),
            None => self.start(self.len(), env, episode, stop),
        };
        Slot {
            shown,
            shown_legal: old.shown_legal,
            ..fresh
        }
    }

    fn check_sizes(&self, out: &Outputs<'_>) -> Result<(), VectorError> {
        let n = self.len();
        let players = usize::from(self.rules.players());
        expect_len("observations", out.observations.len(), n * OBSERVATION_SIZE)?;
        expect_len("masks", out.masks.len(), n * ACTION_COUNT)?;
        expect_len("rewards", out.rewards.len(), n * players)?;
        expect_len("terminations", out.terminations.len(), n)?;
        expect_len("to_play", out.to_play.len(), n)
    }

    /// Writes every game's view (no game just ended: rewards zero).
    fn write_all(&mut self, out: &mut Outputs<'_>) {
        let contents = out.contents;
        match rows(out, usize::from(self.rules.players())) {
            (RowsOf::F32(rows), rest) => self.write_rows(rows.zip(rest), contents),
            (RowsOf::U8(rows), rest) => self.write_rows(rows.zip(rest), contents),
        }
    }

    fn write_rows<'a, V: ObservationValue + 'a>(
        &mut self,
        rows: impl Iterator<Item = (ViewRow<'a, V>, ResultRow<'a>)>,
        contents: Contents,
    ) {
        for (slot, (view, mut result)) in self.slots.iter_mut().zip(rows) {
            slot.write_view(view, contents);
            slot.write_result(&mut result, false, self.utility);
        }
    }
}

/// One game's observation and mask rows.
struct ViewRow<'a, V> {
    observation: &'a mut [V; OBSERVATION_SIZE],
    mask: &'a mut [bool; ACTION_COUNT],
}

/// One game's rewards, termination and viewer entries.
struct ResultRow<'a> {
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    to_play: &'a mut i8,
}

/// The view rows in the observations' type.
enum RowsOf<F, U> {
    F32(F),
    U8(U),
}

/// Each game's rows of `out` (of games of `players` seats), in game order.
fn rows<'a>(
    out: &'a mut Outputs<'_>,
    players: usize,
) -> (
    RowsOf<impl Iterator<Item = ViewRow<'a, f32>>, impl Iterator<Item = ViewRow<'a, u8>>>,
    impl Iterator<Item = ResultRow<'a>>,
) {
    let results = out
        .rewards
        .chunks_exact_mut(players)
        .zip(out.terminations.iter_mut().zip(out.to_play.iter_mut()))
        .map(|(rewards, (terminated, to_play))| ResultRow {
            rewards,
            terminated,
            to_play,
        });
    let masks = out.masks.as_chunks_mut::<ACTION_COUNT>().0.iter_mut();
    let views = match &mut out.observations {
        Observations::F32(buffer) => RowsOf::F32(view_rows(buffer, masks)),
        Observations::U8(buffer) => RowsOf::U8(view_rows(buffer, masks)),
    };
    (views, results)
}

fn view_rows<'a, V>(
    observations: &'a mut [V],
    masks: impl Iterator<Item = &'a mut [bool; ACTION_COUNT]>,
) -> impl Iterator<Item = ViewRow<'a, V>> {
    observations
        .as_chunks_mut::<OBSERVATION_SIZE>()
        .0
        .iter_mut()
        .zip(masks)
        .map(|(observation, mask)| ViewRow { observation, mask })
}

impl Slot {
    /// The seat to move and the move of `action` if it is legal here.
    fn legal_move(&self, action: i64) -> Option<(u8, Move)> {
        let seat = self.position.to_move()?;
        let action = Action::new(action)
            .ok()
            .filter(|&a| self.legal.contains(a))?;
        Some((seat, action.to_move()))
    }

    /// Writes this game's observation and mask, as its viewer sees them, into rows that hold
    /// `contents`.
    fn write_view<V: ObservationValue>(
        &mut self,
        ViewRow { observation, mask }: ViewRow<'_, V>,
        contents: Contents,
    ) {
        if contents != Contents::Previous {
            if contents == Contents::Unknown {
                observation.fill(V::ZERO);
                mask.fill(false);
            }
            self.shown = ObservationRow::ZEROS;
            self.shown_legal = ActionSet::default();
        }
        self.position
            .update_observation(self.viewer, observation, &mut self.shown);
        self.legal.update_mask(&self.shown_legal, mask);
        self.shown_legal = self.legal;
    }

    /// Writes the viewer, whether the game `terminated` on this step and then its returns.
    fn write_result(&self, row: &mut ResultRow<'_>, terminated: bool, utility: Utility) {
        *row.terminated = terminated;
        let returns: [f64; MAX_PLAYERS] = if terminated {
            self.position.returns(utility)
        } else {
            [0.0; MAX_PLAYERS]
        };
        for (r, v) in row.rewards.iter_mut().zip(returns) {
            *r = v as f32;
        }
        *row.to_play = self.viewer as i8;
    }
}

/// [`shuffled_pile`] of each of `seeds`, in order, four generators seeded side by side.
fn deal(seeds: &[u64]) -> Vec<Pile> {
    let (fours, rest) = seeds.as_chunks::<4>();
    let mut piles: Vec<Pile> = fours
        .iter()
        .flat_map(|&four| shuffled_piles(four))
        .collect();
    piles.extend(rest.iter().map(|&seed| shuffled_pile(seed)));
    piles
}

/// The seed of game `env`'s episode `episode` in a vector of `num_envs` games.
pub fn episode_seed(seed: u64, num_envs: usize, env: usize, episode: u64) -> u64 {
    game_seed(seed, episode * num_envs as u64 + env as u64)
}

fn expect_len(name: &'static str, found: usize, expected: usize) -> Result<(), VectorError> {
    if found == expected {
        Ok(())
    } else {
        Err(VectorError::Size {
            name,
            expected,
            found,
        })
    }
}

#[cfg(test)]
mod tests {
    use indigo_search::{Rng, below};
    use rand::SeedableRng;

    use super::*;

    /// Owned buffers for `n` games of `players` seats.
    struct Buffers {
        observations: Vec<f32>,
        masks: Vec<bool>,
        rewards: Vec<f32>,
        terminations: Vec<bool>,
        to_play: Vec<i8>,
    }

    impl Buffers {
        fn new(n: usize, players: usize) -> Buffers {
            Buffers {
                observations: vec![0.0; n * OBSERVATION_SIZE],
                masks: vec![false; n * ACTION_COUNT],
                rewards: vec![0.0; n * players],
                terminations: vec![false; n],
                to_play: vec![0; n],
            }
        }

        /// The buffers, kept from the last call (see [`Contents::Previous`]).
        fn outputs(&mut self) -> Outputs<'_> {
            Outputs {
                observations: Observations::F32(&mut self.observations),
                contents: Contents::Previous,
                masks: &mut self.masks,
                rewards: &mut self.rewards,
                terminations: &mut self.terminations,
                to_play: &mut self.to_play,
            }
        }
    }

    /// A uniformly random legal action number for each position; `none` where there is none.
    fn random_actions<'a>(
        positions: impl Iterator<Item = &'a Position>,
        rng: &mut Rng,
        none: i64,
    ) -> Vec<i64> {
        positions
            .map(|p| {
                let legal = p.legal_action_set();
                legal
                    .nth(below(rng, legal.len().max(1)))
                    .map_or(none, |a| a.index() as i64)
            })
            .collect()
    }

    /// Steps a vector and separate positions with the same random legal actions through
    /// several episodes; every output matches what the positions say, autoreset included,
    /// with the buffers kept between steps (only what changed is written).
    #[test]
    fn matches_separate_positions() {
        let rules = Rules::new(3, 2).unwrap();
        let n = 3;
        let mut games = VectorGames::new(rules, n, Utility::Rank, 5);
        let mut buffers = Buffers::new(n, 3);
        games
            .reset(5, &mut buffers.outputs(), &AtomicBool::new(false))
            .unwrap();
        let mut mirror: Vec<Position> = (0..n)
            .map(|env| Position::new(rules, &shuffled_pile(game_seed(5, env as u64))).unwrap())
            .collect();
        let mut episodes = [0u64; 3];
        let mut ended = [false; 3];
        let mut rng = Rng::seed_from_u64(1);
        for _ in 0..400 {
            let actions = random_actions(mirror.iter(), &mut rng, -1);
            let movers: Vec<Option<u8>> = mirror.iter().map(Position::to_move).collect();
            games
                .step(&actions, &mut buffers.outputs(), &AtomicBool::new(false))
                .unwrap();
            for env in 0..n {
                if ended[env] {
                    episodes[env] += 1;
                    let seed = game_seed(5, episodes[env] * n as u64 + env as u64);
                    mirror[env] = Position::new(rules, &shuffled_pile(seed)).unwrap();
                } else {
                    mirror[env]
                        .play(Action::new(actions[env]).unwrap().to_move())
                        .unwrap();
                }
                let p = &mirror[env];
                let terminated = !ended[env] && p.is_over();
                ended[env] = terminated;
                let viewer = p.to_move().or(movers[env]).unwrap();
                let mut obs = [0.0; OBSERVATION_SIZE];
                p.information(viewer).observation(&mut obs);
                assert_eq!(
                    &buffers.observations[env * OBSERVATION_SIZE..][..OBSERVATION_SIZE],
                    &obs[..]
                );
                let legal: Vec<usize> = (0..ACTION_COUNT)
                    .filter(|&a| buffers.masks[env * ACTION_COUNT + a])
                    .collect();
                let want: Vec<usize> = p.legal_actions().iter().map(|a| a.index()).collect();
                assert_eq!(legal, want);
                assert_eq!(buffers.terminations[env], terminated);
                assert_eq!(buffers.to_play[env], viewer as i8);
                let want: Vec<f32> = p.returns(Utility::Rank)[..3]
                    .iter()
                    .map(|&r| if terminated { r as f32 } else { 0.0 })
                    .collect();
                assert_eq!(buffers.rewards[env * 3..][..3], want[..]);
            }
            assert_eq!(games.episodes(), episodes.to_vec());
        }
        assert!(episodes.iter().all(|&e| e >= 2), "{episodes:?}");
    }

    /// Compact (`u8`) observations, writes into zeroed buffers and into kept ones give the
    /// same values as `f32` observations written over stale buffers.
    #[test]
    fn compact_zeroed_and_kept_outputs_match() {
        let rules = Rules::new(4, 2).unwrap();
        let n = 4;
        let mut full = VectorGames::new(rules, n, Utility::Points, 3);
        let mut compact = full.clone();
        let mut kept = full.clone();
        let mut kept_bytes = vec![0u8; n * OBSERVATION_SIZE];
        let mut kept_buffers = Buffers::new(n, 4);
        let mut stale = Buffers::new(n, 4);
        let mut rng = Rng::seed_from_u64(2);
        for _ in 0..120 {
            let actions = random_actions(full.positions(), &mut rng, 0);
            stale.observations.fill(7.0);
            stale.masks.fill(true);
            let mut out = stale.outputs();
            out.contents = Contents::Unknown;
            full.step(&actions, &mut out, &AtomicBool::new(false))
                .unwrap();
            let mut fresh = Buffers::new(n, 4);
            let mut bytes = vec![0u8; n * OBSERVATION_SIZE];
            let mut out = fresh.outputs();
            out.observations = Observations::U8(&mut bytes);
            out.contents = Contents::Zeros;
            compact
                .step(&actions, &mut out, &AtomicBool::new(false))
                .unwrap();
            let widened: Vec<f32> = bytes.iter().map(|&b| f32::from(b)).collect();
            assert_eq!(widened, stale.observations);
            let mut out = kept_buffers.outputs();
            out.observations = Observations::U8(&mut kept_bytes);
            kept.step(&actions, &mut out, &AtomicBool::new(false))
                .unwrap();
            assert_eq!(kept_bytes, bytes);
            assert_eq!(kept_buffers.masks, stale.masks);
            assert_eq!(fresh.masks, stale.masks);
            assert_eq!(fresh.rewards, stale.rewards);
            assert_eq!(fresh.terminations, stale.terminations);
            assert_eq!(fresh.to_play, stale.to_play);
        }
    }

    /// Bots play every seat but the learner's inside the step; each game replays as a
    /// [`Game`]; a partial reset starts only the marked games' next episodes.
    #[test]
    fn opponents_move_inside_the_step_and_games_replay() {
        let rules = Rules::new(3, 1).unwrap();
        let mut bots = [None; MAX_PLAYERS];
        bots[0] = Some(BotSpec::Greedy);
        bots[2] = Some(BotSpec::Random);
        let games = VectorGames::new(rules, 2, Utility::Win, 4);
        for learner in [0, 3] {
            let refused = games
                .clone()
                .against(Opponents { learner, bots }, &AtomicBool::new(false));
            assert!(matches!(refused, Err(VectorError::Opponents(_))));
        }
        let mut games = games
            .against(Opponents { learner: 1, bots }, &AtomicBool::new(false))
            .unwrap();
        let mut buffers = Buffers::new(2, 3);
        let mut rng = Rng::seed_from_u64(3);
        let mut finished = 0;
        for _ in 0..60 {
            let actions = random_actions(games.positions(), &mut rng, 0);
            games
                .step(&actions, &mut buffers.outputs(), &AtomicBool::new(false))
                .unwrap();
            for env in 0..2 {
                assert_eq!(buffers.to_play[env], 1);
                let game = games.game(env).unwrap();
                let p = game.position();
                assert_eq!(p, &games.slots[env].position);
                assert!(p.is_over() || p.to_move() == Some(1));
                assert_eq!(p.is_over(), buffers.terminations[env]);
                finished += usize::from(buffers.terminations[env]);
            }
        }
        assert!(finished >= 2, "{finished}");
        let kept = games.slots[0].position;
        let episode = games.slots[1].episode;
        games
            .reset_some(
                &[false, true],
                &mut buffers.outputs(),
                &AtomicBool::new(false),
            )
            .unwrap();
        assert_eq!(games.slots[0].position, kept);
        assert_eq!(games.slots[1].episode, episode + 1);
        assert_eq!(games.game(1).unwrap().position().to_move(), Some(1));
        assert!(matches!(
            games.game(2),
            Err(VectorError::NoGame { env: 2, len: 2 })
        ));
    }

    #[test]
    fn opponents_sit_around_the_learner_in_seat_order() {
        let specs = [BotSpec::Random, BotSpec::Greedy];
        let seated = Opponents::around(1, 3, &specs).unwrap();
        assert_eq!(seated.learner, 1);
        assert_eq!(
            seated.bots[..4],
            [Some(BotSpec::Random), None, Some(BotSpec::Greedy), None]
        );
        assert!(matches!(
            Opponents::around(0, 3, &specs[..1]),
            Err(VectorError::Opponents(_))
        ));
    }

    #[test]
    fn an_illegal_action_steps_no_game() {
        let rules = Rules::indigo(2).unwrap();
        let mut games = VectorGames::new(rules, 2, Utility::Win, 9);
        let mut buffers = Buffers::new(2, 2);
        let before: Vec<Position> = games.positions().copied().collect();
        let legal = before[0].legal_actions()[0].index() as i64;
        for bad in [-1, ACTION_COUNT as i64, i64::MAX] {
            let err = games.step(
                &[legal, bad],
                &mut buffers.outputs(),
                &AtomicBool::new(false),
            );
            assert!(
                matches!(err, Err(VectorError::Illegal { env: 1, .. })),
                "{err:?}"
            );
        }
        let err = games.step(&[legal], &mut buffers.outputs(), &AtomicBool::new(false));
        assert!(matches!(
            err,
            Err(VectorError::Size {
                name: "actions",
                expected: 2,
                found: 1
            })
        ));
        let mut small = Buffers::new(1, 2);
        assert!(
            games
                .step(
                    &[legal, legal],
                    &mut small.outputs(),
                    &AtomicBool::new(false)
                )
                .is_err()
        );
        assert_eq!(games.positions().copied().collect::<Vec<_>>(), before);
    }

    #[test]
    fn reset_restarts_the_first_episodes() {
        let rules = Rules::indigo(2).unwrap();
        let mut games = VectorGames::new(rules, 2, Utility::Win, 9);
        let first = games.game_seeds();
        assert_eq!(first, vec![game_seed(9, 0), game_seed(9, 1)]);
        let mut buffers = Buffers::new(2, 2);
        games
            .reset(10, &mut buffers.outputs(), &AtomicBool::new(false))
            .unwrap();
        assert_eq!(games.game_seeds(), vec![game_seed(10, 0), game_seed(10, 1)]);
        assert!(buffers.masks.iter().any(|&m| m));
        assert_eq!(buffers.to_play, vec![0, 0]);
    }
}
