//! The game trait the search works over.

use std::fmt::Debug;

use crate::random::{Rng, below, sample_outcome};

/// The most seats a game of the project has.
pub const MAX_PLAYERS: usize = 4;

/// Who acts next.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Turn {
    /// This seat chooses an action.
    Player(u8),
    /// Chance chooses an outcome ([`Game::chance_outcomes`]).
    Chance,
    /// The game is over.
    Over,
}

/// The legal actions of one position as the search consumes them: it takes out the actions
/// it has already tried and picks among the rest. A game chooses its own representation (a
/// bitset for a small fixed action space, [`SortedActions`] otherwise).
pub trait ActionSet<A>: Default + Clone + Send + Sync {
    /// How many actions the set holds.
    fn len(&self) -> usize;

    /// Whether the set is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `action` is in the set.
    fn contains(&self, action: A) -> bool;

    /// Removes `action`; whether it was in the set.
    fn take(&mut self, action: A) -> bool;

    /// The `k`-th action in ascending order (`k < len()`).
    fn nth(&self, k: usize) -> Option<A>;

    /// The smallest and the largest action, if any.
    fn bounds(&self) -> Option<(A, A)> {
        Some((self.nth(0)?, self.nth(self.len().checked_sub(1)?)?))
    }
}

/// A state of a game, with everything hidden in it: what OpenSpiel calls a `State`. Bots see
/// it only through [`Game::information`] (what one seat knows) and what that seat may do.
pub trait Game: Clone + Send + Sync {
    /// One action: small, ordered, and the same value for the same move in every position.
    type Action: Copy + Ord + Debug + Send + Sync;
    /// The legal actions as a set ([`Game::legal_set`]).
    type Actions: ActionSet<Self::Action>;
    /// What one seat knows; [`Game::sample`] draws full states consistent with it.
    type Information: Clone + Send + Sync;

    /// The game's name, as its registry entry names it (`simulate`'s `game`).
    const NAME: &'static str;

    /// The exploration constant of the `best` bot ([`crate::BotSpec::Best`]): ISMCTS tuned
    /// for this game by tournaments at equal budgets. `None` keeps ISMCTS's default.
    const BEST_EXPLORATION: Option<f32> = None;

    /// Seats in the game.
    fn players(&self) -> usize;

    /// Who acts next.
    fn turn(&self) -> Turn;

    /// The legal actions of the seat to move, ascending, into `out` (cleared first); the
    /// chance outcomes at a chance node; nothing once over.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// The legal actions of the seat to move as a set, written into `out`.
    fn legal_set(&self, out: &mut Self::Actions);

    /// Plays `action`, which the caller knows to be legal: no check is made, and an illegal
    /// action leaves a meaningless state (never a panic the caller did not ask for).
    fn apply(&mut self, action: Self::Action);

    /// At a chance node, each outcome with its probability (they sum to 1); else nothing.
    /// A game whose chance is all sampled inside [`Game::apply`] has no chance nodes.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Action, f64)>) {
        out.clear();
    }

    /// What `seat` knows of this state.
    ///
    /// # Panics
    /// If `seat` is not a seat of the game.
    fn information(&self, seat: u8) -> Self::Information;

    /// The seat whose information `info` is.
    fn observer(info: &Self::Information) -> u8;

    /// A full state drawn from `info`: everything the observer knows kept, everything hidden
    /// from it drawn at random; chance after it is sampled inside [`Game::apply`] (the result
    /// is never at a chance node).
    fn sample(info: &Self::Information, rng: &mut Rng) -> Self;

    /// [`Game::sample`] written into `out` (whatever it held), drawing the same numbers from
    /// `rng`: a game may reuse `out`'s storage instead of returning a new state.
    fn sample_into(info: &Self::Information, out: &mut Self, rng: &mut Rng) {
        *out = Self::sample(info, rng);
    }

    /// [`Game::sample`] from `seat`'s information.
    #[must_use]
    fn determinize(&self, seat: u8, rng: &mut Rng) -> Self {
        Self::sample(&self.information(seat), rng)
    }

    /// The state [`crate::GreedyBot`] looks one move ahead in for `seat`: by default
    /// [`Game::determinize`]; a game whose immediate points never depend on what `seat`
    /// cannot see may return a state that draws nothing from `rng`.
    #[must_use]
    fn greedy_state(&self, seat: u8, rng: &mut Rng) -> Self {
        self.determinize(seat, rng)
    }

    /// What `seat` knows, as text: two states give the same string exactly when the seat
    /// cannot tell them apart.
    fn information_string(&self, seat: u8) -> String;

    /// Each seat's result once over: the winners share 1 (seats beyond the game's get 0).
    fn returns(&self) -> [f64; MAX_PLAYERS];

    /// Each seat's score.
    fn scores(&self) -> [i64; MAX_PLAYERS];

    /// The winning seats as a bitmask (0 until over).
    fn winners(&self) -> u8;

    /// Each seat's points as [`crate::GreedyBot`] counts them: by default the scores.
    fn greedy_points(&self) -> [i64; MAX_PLAYERS] {
        self.scores()
    }

    /// Moves played since the start.
    fn moves_played(&self) -> u32;

    /// One action of the playout policy (chance outcomes drawn by their probabilities, players'
    /// actions uniformly), or `None` once over. `buffer` is scratch space.
    fn playout_action(
        &self,
        rng: &mut Rng,
        buffer: &mut Vec<Self::Action>,
    ) -> Option<Self::Action> {
        match self.turn() {
            Turn::Over => None,
            Turn::Chance => {
                let mut outcomes = Vec::new();
                self.chance_outcomes(&mut outcomes);
                sample_outcome(&outcomes, rng)
            }
            Turn::Player(_) => {
                self.legal_actions(buffer);
                (!buffer.is_empty()).then(|| buffer[below(rng, buffer.len())])
            }
        }
    }

    /// Plays the playout policy to the end as [`crate::PlayoutBot`]s in every seat would:
    /// seat `s` drawing from `seats[s]`, chance from a generator seeded with `chance` (made only
    /// where the game meets chance); returns the actions applied. A game may override it with
    /// a faster loop that plays the same game.
    fn playout_seats(&mut self, seats: &mut [Rng; MAX_PLAYERS], chance: u64) -> u32 {
        playout_seats_stepwise(self, seats, chance)
    }

    /// Plays the `best` bot's playout policy ([`crate::BotSpec::Best`]) to the end; returns
    /// the actions applied. By default the playout policy ([`Game::playout`]); a game may
    /// override it with one measured stronger at equal time.
    fn best_playout(&mut self, rng: &mut Rng) -> u32 {
        self.playout(rng)
    }

    /// Plays the playout policy to the end; returns the actions applied.
    fn playout(&mut self, rng: &mut Rng) -> u32 {
        let mut buffer = Vec::new();
        let mut applied = 0;
        while let Some(action) = self.playout_action(rng, &mut buffer) {
            self.apply(action);
            applied += 1;
        }
        applied
    }
}

/// [`Game::playout_seats`] one action at a time: the default, and the loop for a game whose
/// faster one does not apply to every state.
pub fn playout_seats_stepwise<G: Game>(
    state: &mut G,
    seats: &mut [Rng; MAX_PLAYERS],
    chance: u64,
) -> u32 {
    let mut chance = <Rng as rand::SeedableRng>::seed_from_u64(chance);
    let mut buffer = Vec::new();
    let mut applied = 0;
    loop {
        let rng = match state.turn() {
            Turn::Over => break,
            Turn::Chance => &mut chance,
            Turn::Player(seat) => &mut seats[usize::from(seat)],
        };
        let Some(action) = state.playout_action(rng, &mut buffer) else {
            break;
        };
        state.apply(action);
        applied += 1;
    }
    applied
}

/// An [`ActionSet`] for any ordered action: the legal actions ascending, with a flag per
/// action taken out.
#[derive(Clone, Debug)]
pub struct SortedActions<A> {
    actions: Vec<A>,
    taken: Vec<bool>,
    left: usize,
}

impl<A> Default for SortedActions<A> {
    fn default() -> Self {
        SortedActions {
            actions: Vec::new(),
            taken: Vec::new(),
            left: 0,
        }
    }
}

impl<A: Copy + Ord> SortedActions<A> {
    /// The set of `actions` (sorted here if they are not ascending already).
    pub fn fill(&mut self, actions: impl IntoIterator<Item = A>) {
        self.actions.clear();
        self.actions.extend(actions);
        self.reset();
    }

    /// The buffer of actions, for a game to fill in place before [`SortedActions::reset`].
    pub fn buffer(&mut self) -> &mut Vec<A> {
        &mut self.actions
    }

    /// Makes the set hold the buffer's actions (sorting them if needed), none taken.
    pub fn reset(&mut self) {
        if !self.actions.is_sorted() {
            self.actions.sort_unstable();
        }
        self.actions.dedup();
        self.taken.clear();
        self.taken.resize(self.actions.len(), false);
        self.left = self.actions.len();
    }
}

impl<A: Copy + Ord + Send + Sync> ActionSet<A> for SortedActions<A> {
    fn len(&self) -> usize {
        self.left
    }

    fn contains(&self, action: A) -> bool {
        self.actions
            .binary_search(&action)
            .is_ok_and(|i| !self.taken[i])
    }

    fn take(&mut self, action: A) -> bool {
        match self.actions.binary_search(&action) {
            Ok(i) if !self.taken[i] => {
                self.taken[i] = true;
                self.left -= 1;
                true
            }
            _ => false,
        }
    }

    fn nth(&self, k: usize) -> Option<A> {
        self.actions
            .iter()
            .zip(&self.taken)
            .filter(|&(_, &taken)| !taken)
            .nth(k)
            .map(|(&a, _)| a)
    }

    fn bounds(&self) -> Option<(A, A)> {
        let mut left = self.actions.iter().zip(&self.taken).filter(|&(_, &t)| !t);
        let first = *left.next()?.0;
        Some((first, left.next_back().map_or(first, |(&a, _)| a)))
    }
}
