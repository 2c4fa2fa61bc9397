//! Indigo for the one search ([`indigo_search::Game`], [`indigo_search::Setup`]): its actions,
//! determinizations, chance and playout policy, and the fast paths the search's provided
//! methods leave to a game (a whole playout in the policy's own loop, a position reset in place
//! for the next game of a batch).
//!
//! A chance outcome (explicit-chance mode) is the drawn tile type `t` as action number `t`
//! ([`Action`] numbers are read by turn: at a chance node they name tile types).

use indigo_search::{Game, MAX_PLAYERS, Rng, Setup, Turn};

use crate::action::{Action, ActionSet};
use crate::deal::Deal;
use crate::policy::{random_placement, random_playout};
use crate::position::{Information, Phase, Position, Utility};
use crate::rng::{shuffled_pile, shuffled_piles};
use crate::rules::Rules;
use crate::tile::{TILE_TOTAL, TileType};

impl indigo_search::ActionSet<Action> for ActionSet {
    #[inline]
    fn len(&self) -> usize {
        ActionSet::len(self)
    }

    #[inline]
    fn is_empty(&self) -> bool {
        ActionSet::is_empty(self)
    }

    #[inline]
    fn contains(&self, action: Action) -> bool {
        ActionSet::contains(self, action)
    }

    /// One read and one write of the action's word.
    #[inline]
    fn take(&mut self, action: Action) -> bool {
        let (word, bit) = (action.index() / 64, 1u64 << (action.index() % 64));
        self.0.get_mut(word).is_some_and(|w| {
            let present = *w & bit != 0;
            *w &= !bit;
            present
        })
    }

    #[inline]
    fn nth(&self, k: usize) -> Option<Action> {
        ActionSet::nth(self, k)
    }

    #[inline]
    fn bounds(&self) -> Option<(Action, Action)> {
        ActionSet::bounds(self)
    }
}

impl Game for Position {
    type Action = Action;
    type Actions = ActionSet;
    type Information = Information;
    const NAME: &'static str = "indigo";
    // From 2-player tournaments at 1,000 and 4,000 simulations (docs/search.md).
    const BEST_EXPLORATION: Option<f32> = Some(0.25);

    fn players(&self) -> usize {
        usize::from(self.rules().players())
    }

    #[inline]
    fn turn(&self) -> Turn {
        match self.phase() {
            Phase::Move(seat) => Turn::Player(seat),
            Phase::Draw(_) => Turn::Chance,
            Phase::Over => Turn::Over,
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.is_chance_node() {
            let counts = self.chance_counts();
            out.extend(
                (0..counts.len())
                    .filter(|&t| counts[t] > 0)
                    .map(chance_action),
            );
        } else {
            out.extend(self.legal_action_set().iter());
        }
    }

    #[inline]
    fn legal_set(&self, out: &mut ActionSet) {
        *out = self.legal_action_set();
    }

    #[inline]
    fn apply(&mut self, action: Action) {
        if self.is_chance_node() {
            let _ = self.apply_draw(TileType::ALL[action.index() % TileType::ALL.len()]);
        } else {
            self.play_unchecked(action.to_move(), &mut ());
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        let counts = self.chance_counts();
        let total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        for (t, &c) in counts.iter().enumerate().filter(|&(_, &c)| c > 0) {
            out.push((chance_action(t), f64::from(c) / f64::from(total)));
        }
    }

    fn information(&self, seat: u8) -> Information {
        Position::information(self, seat)
    }

    #[inline]
    fn observer(info: &Information) -> u8 {
        info.observer()
    }

    #[inline]
    fn sample(info: &Information, rng: &mut Rng) -> Position {
        info.sample(rng)
    }

    #[inline]
    fn sample_into(info: &Information, out: &mut Position, rng: &mut Rng) {
        info.sample_into(out, rng);
    }

    /// The seat's view with hidden tiles blanked, drawing nothing: hidden tiles never change
    /// immediate points.
    fn greedy_state(&self, seat: u8, _rng: &mut Rng) -> Position {
        Position::information(self, seat).blanked()
    }

    fn information_string(&self, seat: u8) -> String {
        Position::information(self, seat).observation_string()
    }

    #[inline]
    fn returns(&self) -> [f64; MAX_PLAYERS] {
        Position::returns(self, Utility::Win)
    }

    fn scores(&self) -> [i64; MAX_PLAYERS] {
        Position::scores(self).map(i64::from)
    }

    fn winners(&self) -> u8 {
        Position::winners(self)
    }

    fn moves_played(&self) -> u32 {
        u32::from(self.placed())
    }

    /// [`random_placement`] on a seat's turn (the benchmarks' policy).
    #[inline]
    fn playout_action(&self, rng: &mut Rng, buffer: &mut Vec<Action>) -> Option<Action> {
        if self.is_chance_node() {
            let mut outcomes = Vec::new();
            self.chance_outcomes(&mut outcomes);
            return indigo_search::sample_outcome(&outcomes, rng);
        }
        buffer.clear();
        random_placement(self, rng).and_then(Action::from_move)
    }

    /// The whole game in the playout policy's own loop, each seat drawing from its generator
    /// (sampled chance: the very moves of [`random_placement`] a move at a time, tested), or one
    /// action at a time at explicit chance.
    fn playout_seats(&mut self, seats: &mut [Rng; MAX_PLAYERS], chance: u64) -> u32 {
        if self.is_explicit_chance() {
            return indigo_search::playout_seats_stepwise(self, seats, chance);
        }
        self.play_out(seats)
    }

    /// [`random_playout`] (sampled chance), or one action at a time at explicit chance.
    #[inline]
    fn playout(&mut self, rng: &mut Rng) -> u32 {
        if self.is_explicit_chance() {
            let mut buffer = Vec::new();
            let mut applied = 0;
            while let Some(action) = self.playout_action(rng, &mut buffer) {
                Game::apply(self, action);
                applied += 1;
            }
            return applied;
        }
        random_playout(self, rng)
    }
}

/// The action that names chance outcome "tile type `t` is drawn".
fn chance_action(t: usize) -> Action {
    Action::from_index(t)
}

/// The set-up of a batch of Indigo games: the rules and how a seed deals the pile.
#[derive(Clone, Copy, Debug)]
pub struct IndigoSetup {
    /// The rules of every game.
    pub rules: Rules,
    /// How each game's pile is shuffled from its seed.
    pub deal: Deal,
}

impl Setup for IndigoSetup {
    type Game = Position;

    fn players(&self) -> usize {
        usize::from(self.rules.players())
    }

    fn start(&self, seed: u64) -> Position {
        Position::new(self.rules, &self.deal.pile(seed))
            .unwrap_or_else(|_| unreachable!("the box is valid"))
    }

    /// Either deal shuffles the box, so the pile needs no check.
    fn start_into(&self, seed: u64, out: &mut Position) {
        out.reset(self.rules, &self.deal.pile(seed));
    }

    /// Python's deal shuffles four piles side by side (`shuffled_piles`).
    fn start_all(&self, seeds: &[u64]) -> Vec<Position> {
        let start = |pile: &[TileType; TILE_TOTAL]| {
            Position::new(self.rules, pile).unwrap_or_else(|_| unreachable!("the box is valid"))
        };
        if self.deal != Deal::Python {
            return seeds.iter().map(|&seed| self.start(seed)).collect();
        }
        let (fours, rest) = seeds.as_chunks::<4>();
        let mut states: Vec<Position> = fours
            .iter()
            .flat_map(|&four| shuffled_piles(four))
            .map(|pile| start(&pile))
            .collect();
        states.extend(rest.iter().map(|&seed| start(&shuffled_pile(seed))));
        states
    }
}

#[cfg(test)]
mod tests;
