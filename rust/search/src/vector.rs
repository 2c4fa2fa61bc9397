//! Many games stepped together for learning ([`VectorGames`]): one call applies one action per
//! game and writes every game's observation, legal actions, rewards and termination into flat
//! buffers. Generic over a [`Setup`] whose game is [`Vectored`]; a game keeps its fast paths
//! (rows written where they changed, deals made several at once) in that trait's hooks.
//!
//! Semantics:
//! * game `env`'s `k`-th episode starts from [`Setup::start`] of [`episode_seed`]`(seed,
//!   num_envs, env, k)`, so the first episodes are the games a [`crate::Batch`] of the same
//!   set-up and seed plays;
//! * in each game the seat to move acts; the observation and legal actions are that seat's
//!   view. At a terminal step they are the view of the seat that moved last, with no legal
//!   action;
//! * rewards are per seat, all zero until the step that ends the game, which gives each seat
//!   its return under the game's utility;
//! * autoreset is Gymnasium's `NEXT_STEP`: the step after a game ended ignores that game's
//!   action, starts its next episode and reports it like a reset (zero rewards, not
//!   terminated).

use std::fmt::{self, Debug};
use std::sync::atomic::AtomicBool;

use crate::encoded::{Encoded, LegalLists, LegalRows as _};
use crate::game::{Game, MAX_PLAYERS, Turn};
use crate::random::{game_seed, mix};
use crate::simulate::Setup;
use crate::spec::{BotSpec, SearchBot};

/// A value of an observation buffer: `f32`, or `u8` for the compact form of a game whose
/// entries are all small counts ([`Vectored::COMPACT`]).
pub trait ObservationValue: Copy + Send {
    /// Zero.
    const ZERO: Self;
    /// A count as a value (`u8` saturates at 255).
    fn count(n: u16) -> Self;
    /// A value of [`Encoded::observation`] as this type (`u8` rounds and saturates).
    fn of(value: f32) -> Self;
    /// The buffer as `f32`s when this type is `f32`: a game writes [`Encoded::observation`]
    /// straight into it.
    fn floats(buffer: &mut [Self]) -> Option<&mut [f32]>;
}

impl ObservationValue for f32 {
    const ZERO: f32 = 0.0;
    #[inline]
    fn count(n: u16) -> f32 {
        f32::from(n)
    }
    #[inline]
    fn of(value: f32) -> f32 {
        value
    }
    #[inline]
    fn floats(buffer: &mut [f32]) -> Option<&mut [f32]> {
        Some(buffer)
    }
}

impl ObservationValue for u8 {
    const ZERO: u8 = 0;
    #[inline]
    fn count(n: u16) -> u8 {
        u8::try_from(n).unwrap_or(u8::MAX)
    }
    #[inline]
    fn of(value: f32) -> u8 {
        value.round().clamp(0.0, 255.0) as u8
    }
    #[inline]
    fn floats(_: &mut [u8]) -> Option<&mut [f32]> {
        None
    }
}

/// A game [`VectorGames`] steps: how its legal actions are kept and written, how its rows are
/// rewritten, and how a finished game rewards its seats.
///
/// A game with a small action space writes its legal actions as masks ([`Vectored::MASKS`]:
/// `ACTION_COUNT` flags a game), one with a large space as lists of action numbers
/// ([`LegalLists`]: a game costs what its list costs).
pub trait Vectored: Encoded {
    /// The legal actions of the seat to move as the vector keeps them between steps.
    type VectorLegal: Clone + Debug + Default + Send + Sync;
    /// What a game's buffer rows hold, so that the next view is written by changing only the
    /// entries that differ; `Default` is rows of zeros.
    type Shown: Clone + Debug + Default + Send + Sync;
    /// How a finished game rewards its seats.
    type Utility: Copy + Debug + Send + Sync;
    /// Whether the legal actions are written as masks ([`Legal::Masks`]), else as lists
    /// ([`Legal::Lists`]).
    const MASKS: bool;
    /// Whether every observation entry is a count of at most 255, so that `u8` observations
    /// hold the same values.
    const COMPACT: bool;

    /// Each seat's return under `utility` (seats beyond the game's get 0).
    fn returns_under(&self, utility: Self::Utility) -> [f64; MAX_PLAYERS];

    /// The legal actions of the seat to move, written into `out` (none once over).
    fn vector_legal(&self, out: &mut Self::VectorLegal);

    /// The action numbered `number` if `legal` holds it.
    fn legal_number(legal: &Self::VectorLegal, number: i64) -> Option<Self::Action>;

    /// Writes `viewer`'s observation and the actions of `legal` into rows that hold what
    /// `shown` says (a mask row, or the next row of lists), and makes `shown` say what they
    /// now hold.
    fn write_view<V: ObservationValue>(
        &self,
        viewer: u8,
        legal: &Self::VectorLegal,
        observation: &mut [V],
        legal_row: LegalRow<'_>,
        shown: &mut Self::Shown,
    );

    /// The rows of `shown` will next hold another game's view (the next episode).
    fn new_game(_shown: &mut Self::Shown) {}
}

/// Where one game's legal actions go.
#[derive(Debug)]
pub enum LegalRow<'a> {
    /// Its mask row, `ACTION_COUNT` flags.
    Mask(&'a mut [bool]),
    /// The lists of every game so far: push this game's row.
    List(&'a mut LegalLists),
}

impl LegalRow<'_> {
    /// Writes `actions` (action numbers, ascending) whole: a mask row cleared and marked, or
    /// the next row of the lists.
    pub fn fill(self, actions: impl Iterator<Item = usize>) {
        match self {
            LegalRow::Mask(mask) => {
                mask.fill(false);
                for a in actions {
                    mask[a] = true;
                }
            }
            LegalRow::List(lists) => lists.push_row(actions),
        }
    }
}

/// One game of the vector.
#[derive(Clone, Debug)]
struct Slot<G: Vectored> {
    state: G,
    /// Episodes started in this slot before the current one.
    episode: u64,
    /// The game ended on the last step; the next step starts a new one.
    ended: bool,
    /// Whose view the last observation was.
    viewer: u8,
    /// The legal actions of the seat to move (none once the game is over).
    legal: G::VectorLegal,
    /// What this game's buffer rows hold.
    shown: G::Shown,
    /// The actions of this episode.
    actions: Vec<G::Action>,
    /// The bots at the other seats than the learner's, when bots play them.
    bots: [Option<SearchBot<G>>; MAX_PLAYERS],
}

impl<G: Vectored> Slot<G> {
    fn play(&mut self, action: G::Action) {
        self.state.apply(action);
        self.actions.push(action);
    }

    /// Lets the bots move until a seat without one is to move or the game ends; then the
    /// view is `learner`'s (the seat to move's in self-play, else `mover`'s). Once `stop` is
    /// set, searches end at once with the move they have found so far.
    fn settle(&mut self, learner: Option<u8>, mover: u8, stop: &AtomicBool) {
        while let Turn::Player(seat) = self.state.turn() {
            let Some(bot) = &mut self.bots[usize::from(seat)] else {
                break;
            };
            let decision = bot
                .decide(&self.state, stop)
                .unwrap_or_else(|| unreachable!("a bot moves when it is to move"));
            self.play(decision.0);
        }
        let to_move = match self.state.turn() {
            Turn::Player(seat) => Some(seat),
            _ => None,
        };
        self.ended = to_move.is_none();
        self.viewer = learner.or(to_move).unwrap_or(mover);
        self.state.vector_legal(&mut self.legal);
    }

    /// The seat to move and the action numbered `number` if it is legal here.
    fn legal_action(&self, number: i64) -> Option<(u8, G::Action)> {
        let Turn::Player(seat) = self.state.turn() else {
            return None;
        };
        Some((seat, G::legal_number(&self.legal, number)?))
    }

    /// Writes this game's observation and legal actions, as its viewer sees them, into rows
    /// that hold `contents`.
    fn write_view<V: ObservationValue>(&mut self, row: ViewRow<'_, V>, contents: Contents) {
        let ViewRow {
            observation,
            mut legal,
        } = row;
        if contents != Contents::Previous {
            if contents == Contents::Unknown {
                observation.fill(V::ZERO);
                if let LegalRow::Mask(mask) = &mut legal {
                    mask.fill(false);
                }
            }
            self.shown = G::Shown::default();
        }
        self.state.write_view(
            self.viewer,
            &self.legal,
            observation,
            legal,
            &mut self.shown,
        );
    }

    /// Writes the viewer, whether the game `terminated` on this step and then its returns.
    fn write_result(&self, row: &mut ResultRow<'_>, terminated: bool, utility: G::Utility) {
        *row.terminated = terminated;
        let returns = if terminated {
            self.state.returns_under(utility)
        } else {
            [0.0; MAX_PLAYERS]
        };
        for (r, v) in row.rewards.iter_mut().zip(returns) {
            *r = v as f32;
        }
        *row.to_play = self.viewer as i8;
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

    /// Whether a bot searches (ISMCTS), so that a call that lets them move should answer
    /// Ctrl-C.
    pub fn search(&self) -> bool {
        self.bots
            .iter()
            .any(|b| b.is_some_and(|spec| spec.searches()))
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
    /// `u8` observations of a game whose observations do not fit them.
    NotCompact,
    /// An action that is not legal in its game.
    Illegal {
        /// The game.
        env: usize,
        /// The action given.
        action: i64,
        /// The seat to move there.
        seat: u8,
    },
    /// Legal-action buffers of the other form than the game's ([`Vectored::MASKS`]).
    LegalForm,
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
            VectorError::LegalForm => f.write_str(
                "this game's legal actions are written as the other form (masks or lists)",
            ),
            VectorError::NotCompact => f.write_str(
                "this game's observations hold values above 255: use observation_dtype \
                 'float32'",
            ),
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

/// Where a step writes the legal actions.
#[derive(Debug)]
pub enum Legal<'a> {
    /// `num_envs x ACTION_COUNT` flags, true where the action is legal.
    Masks(&'a mut [bool]),
    /// Each game's legal action numbers, ascending, game after game (cleared first).
    Lists(&'a mut LegalLists),
}

/// Buffers a step writes, each flat and row-major over the games.
#[derive(Debug)]
pub struct Outputs<'a> {
    /// `num_envs x OBSERVATION_SIZE`.
    pub observations: Observations<'a>,
    /// What `observations` and a mask buffer hold: only what differs from it is written.
    pub contents: Contents,
    /// The legal actions, in the game's form ([`Vectored::MASKS`]).
    pub legal: Legal<'a>,
    /// `num_envs x players`.
    pub rewards: &'a mut [f32],
    /// `num_envs`.
    pub terminations: &'a mut [bool],
    /// `num_envs`: whose view each observation is.
    pub to_play: &'a mut [i8],
}

/// What the observation and legal-action buffers hold when a step or reset is called.
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

/// An action of `S`'s game.
type ActionOf<S> = <<S as Setup>::Game as Game>::Action;

/// `num_envs` games of one set-up, stepped together.
#[derive(Clone, Debug)]
pub struct VectorGames<S: Setup>
where
    S::Game: Vectored,
{
    setup: S,
    utility: <S::Game as Vectored>::Utility,
    seed: u64,
    opponents: Option<Opponents>,
    slots: Vec<Slot<S::Game>>,
}

impl<S: Setup + Clone> VectorGames<S>
where
    S::Game: Vectored,
{
    /// Most games one vector holds.
    pub const MAX_ENVS: u64 = 1 << 16;

    /// `num_envs` games seeded from `seed`, each at the start of its first episode.
    ///
    pub fn new(
        setup: S,
        num_envs: usize,
        utility: <S::Game as Vectored>::Utility,
        seed: u64,
    ) -> Self {
        let mut games = VectorGames {
            setup,
            utility,
            seed,
            opponents: None,
            slots: Vec::with_capacity(num_envs),
        };
        let seeds: Vec<u64> = (0..num_envs)
            .map(|env| episode_seed(seed, num_envs, env, 0))
            .collect();
        let states = games.setup.start_all(&seeds);
        let stop = AtomicBool::new(false);
        for (&seed, state) in seeds.iter().zip(states) {
            let slot = games.slot(seed, 0, state, Default::default(), &stop);
            games.slots.push(slot);
        }
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
    /// If the learner's seat is not a seat of the game, or the bots are not exactly one at
    /// each other seat.
    pub fn against(mut self, opponents: Opponents, stop: &AtomicBool) -> Result<Self, VectorError> {
        let players = self.players() as u8;
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
        let episodes: Vec<u64> = self.episodes();
        self.restart_all(&episodes, stop);
        Ok(self)
    }

    /// The bots at the other seats, if any.
    pub const fn opponents(&self) -> Option<Opponents> {
        self.opponents
    }

    /// Seats in every game.
    pub fn players(&self) -> usize {
        self.setup.players()
    }

    /// The set-up of every game.
    pub const fn setup(&self) -> &S {
        &self.setup
    }

    /// How many games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The seed the games' episodes are derived from.
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// How a finished game rewards each seat.
    pub const fn utility(&self) -> <S::Game as Vectored>::Utility {
        self.utility
    }

    /// Each game's current state.
    pub fn states(&self) -> impl ExactSizeIterator<Item = &S::Game> {
        self.slots.iter().map(|s| &s.state)
    }

    /// Each game's current seed ([`Setup::start`] of it started the episode).
    pub fn game_seeds(&self) -> Vec<u64> {
        (0..self.len())
            .map(|env| episode_seed(self.seed, self.len(), env, self.slots[env].episode))
            .collect()
    }

    /// Each game's episode number, from 0.
    pub fn episodes(&self) -> Vec<u64> {
        self.slots.iter().map(|s| s.episode).collect()
    }

    /// Game `env`'s seed and the actions of its episode so far, the bots' included: what
    /// replays it from [`Setup::start`].
    ///
    /// # Errors
    /// If there is no game `env`.
    pub fn episode(&self, env: usize) -> Result<(u64, &[ActionOf<S>]), VectorError> {
        let slot = self.slots.get(env).ok_or(VectorError::NoGame {
            env,
            len: self.len(),
        })?;
        let seed = episode_seed(self.seed, self.len(), env, slot.episode);
        Ok((seed, &slot.actions))
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
        let marked: Vec<usize> = (0..self.len()).filter(|&env| restart[env]).collect();
        let episodes: Vec<u64> = marked.iter().map(|&e| self.slots[e].episode + 1).collect();
        self.restart_some(&marked, &episodes, stop);
        self.write_all(out);
        Ok(())
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
        self.restart_all(&vec![0; self.len()], stop);
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
            if !slot.ended && slot.legal_action(action).is_none() {
                let seat = match slot.state.turn() {
                    Turn::Player(seat) => seat,
                    _ => slot.viewer,
                };
                return Err(VectorError::Illegal { env, action, seat });
            }
        }
        let next_seeds: Vec<u64> = (self.slots.iter().enumerate())
            .filter(|(_, slot)| slot.ended)
            .map(|(env, slot)| episode_seed(self.seed, self.len(), env, slot.episode + 1))
            .collect();
        let starts = self.setup.start_all(&next_seeds);
        let contents = out.contents;
        let players = self.players();
        match rows::<S::Game>(out, players) {
            (RowsOf::F32(views), results) => {
                self.step_rows(actions, starts, views, results, contents, stop);
            }
            (RowsOf::U8(views), results) => {
                self.step_rows(actions, starts, views, results, contents, stop);
            }
        }
        Ok(())
    }

    /// Steps each game with its (legal) action and writes its rows at once, while its
    /// state is in cache; the games that ended start their next episodes from `starts`, in
    /// order.
    fn step_rows<'a, V: ObservationValue + 'a>(
        &mut self,
        actions: &[i64],
        starts: Vec<S::Game>,
        mut views: ViewRows<'a, V>,
        results: impl Iterator<Item = ResultRow<'a>>,
        contents: Contents,
        stop: &AtomicBool,
    ) {
        let learner = self.opponents.map(|o| o.learner);
        let mut starts = starts.into_iter();
        for (env, (&action, mut result)) in actions.iter().zip(results).enumerate() {
            if self.slots[env].ended {
                let state = starts
                    .next()
                    .unwrap_or_else(|| unreachable!("one start per ended game"));
                self.restart(env, self.slots[env].episode + 1, state, stop);
            } else {
                let slot = &mut self.slots[env];
                let (seat, action) = slot
                    .legal_action(action)
                    .unwrap_or_else(|| unreachable!("every action was checked"));
                slot.play(action);
                slot.settle(learner, seat, stop);
            }
            let slot = &mut self.slots[env];
            slot.write_view(views.next_row(), contents);
            slot.write_result(&mut result, slot.ended, self.utility);
        }
    }

    /// A fresh slot for episode `episode` of seed `seed`, started at `state`, whose rows hold
    /// what `shown` says.
    fn slot(
        &self,
        seed: u64,
        episode: u64,
        state: S::Game,
        shown: <S::Game as Vectored>::Shown,
        stop: &AtomicBool,
    ) -> Slot<S::Game> {
        let specs = self.opponents.map_or([None; MAX_PLAYERS], |o| o.bots);
        let mut slot = Slot {
            state,
            episode,
            ended: false,
            viewer: 0,
            legal: Default::default(),
            shown,
            actions: Vec::with_capacity(64),
            bots: std::array::from_fn(|seat| {
                specs[seat].map(|spec| spec.build(mix(seed, seat as u64)))
            }),
        };
        slot.settle(self.opponents.map(|o| o.learner), 0, stop);
        slot
    }

    /// Game `env`'s episode `episode` from `state`, its buffer rows' record kept.
    fn restart(&mut self, env: usize, episode: u64, state: S::Game, stop: &AtomicBool) {
        let mut shown = std::mem::take(&mut self.slots[env].shown);
        <S::Game as Vectored>::new_game(&mut shown);
        let seed = episode_seed(self.seed, self.len(), env, episode);
        self.slots[env] = self.slot(seed, episode, state, shown, stop);
    }

    /// Starts episode `episodes[k]` of each game `envs[k]`.
    fn restart_some(&mut self, envs: &[usize], episodes: &[u64], stop: &AtomicBool) {
        let seeds: Vec<u64> = envs
            .iter()
            .zip(episodes)
            .map(|(&env, &episode)| episode_seed(self.seed, self.len(), env, episode))
            .collect();
        let states = self.setup.start_all(&seeds);
        for ((&env, &episode), state) in envs.iter().zip(episodes).zip(states) {
            self.restart(env, episode, state, stop);
        }
    }

    /// Starts episode `episodes[env]` of every game.
    fn restart_all(&mut self, episodes: &[u64], stop: &AtomicBool) {
        let envs: Vec<usize> = (0..self.len()).collect();
        self.restart_some(&envs, episodes, stop);
    }

    fn check_sizes(&self, out: &Outputs<'_>) -> Result<(), VectorError> {
        let n = self.len();
        if matches!(out.observations, Observations::U8(_)) && !<S::Game as Vectored>::COMPACT {
            return Err(VectorError::NotCompact);
        }
        let observation = <S::Game as Encoded>::OBSERVATION_SIZE;
        expect_len("observations", out.observations.len(), n * observation)?;
        match &out.legal {
            Legal::Masks(masks) if <S::Game as Vectored>::MASKS => {
                expect_len("masks", masks.len(), n * <S::Game as Encoded>::ACTION_COUNT)?;
            }
            Legal::Lists(_) if !<S::Game as Vectored>::MASKS => {}
            _ => return Err(VectorError::LegalForm),
        }
        expect_len("rewards", out.rewards.len(), n * self.players())?;
        expect_len("terminations", out.terminations.len(), n)?;
        expect_len("to_play", out.to_play.len(), n)
    }

    /// Writes every game's view (no game just ended: rewards zero).
    fn write_all(&mut self, out: &mut Outputs<'_>) {
        let contents = out.contents;
        let players = self.players();
        match rows::<S::Game>(out, players) {
            (RowsOf::F32(views), results) => self.write_rows(views, results, contents),
            (RowsOf::U8(views), results) => self.write_rows(views, results, contents),
        }
    }

    fn write_rows<'a, V: ObservationValue + 'a>(
        &mut self,
        mut views: ViewRows<'a, V>,
        results: impl Iterator<Item = ResultRow<'a>>,
        contents: Contents,
    ) {
        for (slot, mut result) in self.slots.iter_mut().zip(results) {
            slot.write_view(views.next_row(), contents);
            slot.write_result(&mut result, false, self.utility);
        }
    }
}

/// One game's observation row and where its legal actions go.
struct ViewRow<'a, V> {
    observation: &'a mut [V],
    legal: LegalRow<'a>,
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

/// Each game's observation rows and where its legal actions go, game after game.
struct ViewRows<'a, V> {
    observations: std::slice::ChunksExactMut<'a, V>,
    legal: LegalRows<'a>,
}

/// Each game's legal-action rows: mask rows, or the lists every game pushes to.
enum LegalRows<'a> {
    Masks(std::slice::ChunksExactMut<'a, bool>),
    Lists(&'a mut LegalLists),
}

impl<V> ViewRows<'_, V> {
    /// The next game's rows.
    fn next_row(&mut self) -> ViewRow<'_, V> {
        let observation = self
            .observations
            .next()
            .unwrap_or_else(|| unreachable!("the sizes were checked"));
        let legal = match &mut self.legal {
            LegalRows::Masks(rows) => LegalRow::Mask(
                rows.next()
                    .unwrap_or_else(|| unreachable!("the sizes were checked")),
            ),
            LegalRows::Lists(lists) => LegalRow::List(lists),
        };
        ViewRow { observation, legal }
    }
}

/// Each game's rows of `out` (of games of `players` seats), in game order.
fn rows<'a, G: Vectored>(
    out: &'a mut Outputs<'_>,
    players: usize,
) -> (
    RowsOf<ViewRows<'a, f32>, ViewRows<'a, u8>>,
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
    let legal = match &mut out.legal {
        Legal::Masks(masks) => LegalRows::Masks(masks.chunks_exact_mut(G::ACTION_COUNT)),
        Legal::Lists(lists) => {
            **lists = LegalLists::default();
            LegalRows::Lists(lists)
        }
    };
    let views = match &mut out.observations {
        Observations::F32(buffer) => RowsOf::F32(ViewRows {
            observations: buffer.chunks_exact_mut(G::OBSERVATION_SIZE),
            legal,
        }),
        Observations::U8(buffer) => RowsOf::U8(ViewRows {
            observations: buffer.chunks_exact_mut(G::OBSERVATION_SIZE),
            legal,
        }),
    };
    (views, results)
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
