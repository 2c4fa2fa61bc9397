//! Simple bots over any [`Game`]: uniformly random, greedy on immediate points, and the
//! playout policy.

use rand::SeedableRng;

use crate::game::{Game, Turn};
use crate::random::{Rng, below};

/// Something that picks an action for the seat to move, from what that seat knows.
pub trait Bot<G: Game> {
    /// A legal action for the seat to move in `state`, or `None` when no seat is to move.
    /// A bot reads the hidden part of `state` only through [`Game::information`].
    fn choose(&mut self, state: &G) -> Option<G::Action>;
}

/// Picks uniformly among the legal actions.
#[derive(Clone, Debug)]
pub struct RandomBot<A> {
    rng: Rng,
    buffer: Vec<A>,
}

impl<A> RandomBot<A> {
    /// A bot whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: Rng::seed_from_u64(seed),
            buffer: Vec::new(),
        }
    }
}

impl<G: Game> Bot<G> for RandomBot<G::Action> {
    fn choose(&mut self, state: &G) -> Option<G::Action> {
        if !matches!(state.turn(), Turn::Player(_)) {
            return None;
        }
        state.legal_actions(&mut self.buffer);
        let count = self.buffer.len();
        (count > 0).then(|| self.buffer[below(&mut self.rng, count)])
    }
}

/// A one-move lookahead: plays each legal action on [`Game::greedy_state`] and keeps the one that
/// maximises `1000 x` its own gain in [`Game::greedy_points`] minus the sum of the others'
/// gains; ties are broken uniformly at random.
#[derive(Clone, Debug)]
pub struct GreedyBot<A> {
    rng: Rng,
    buffer: Vec<A>,
}

impl<A> GreedyBot<A> {
    /// A bot whose tie-breaks are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        GreedyBot {
            rng: Rng::seed_from_u64(seed),
            buffer: Vec::new(),
        }
    }
}

impl<G: Game> Bot<G> for GreedyBot<G::Action> {
    fn choose(&mut self, state: &G) -> Option<G::Action> {
        let Turn::Player(seat) = state.turn() else {
            return None;
        };
        let seat = usize::from(seat);
        let sample = state.greedy_state(seat as u8, &mut self.rng);
        sample.legal_actions(&mut self.buffer);
        let before = sample.greedy_points();
        let mut best: Option<(i64, G::Action)> = None;
        let mut ties = 0usize;
        for &action in &self.buffer {
            let mut next = sample.clone();
            next.apply(action);
            let after = next.greedy_points();
            let mut value = 0i64;
            for (s, (a, b)) in after.iter().zip(before).enumerate().take(state.players()) {
                let gain = a - b;
                value += if s == seat { 1000 * gain } else { -gain };
            }
            match best {
                Some((v, _)) if value < v => {}
                Some((v, _)) if value == v => {
                    // Reservoir sampling keeps each tied action with equal probability.
                    ties += 1;
                    if below(&mut self.rng, ties) == 0 {
                        best = Some((value, action));
                    }
                }
                _ => {
                    best = Some((value, action));
                    ties = 1;
                }
            }
        }
        best.map(|(_, action)| action)
    }
}

/// Plays the game's playout policy ([`Game::playout_action`]) as a bot: the fastest bot.
#[derive(Clone, Debug)]
pub struct PlayoutBot<A> {
    rng: Rng,
    buffer: Vec<A>,
}

impl<A> PlayoutBot<A> {
    /// A bot whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        PlayoutBot {
            rng: Rng::seed_from_u64(seed),
            buffer: Vec::new(),
        }
    }
}

impl<G: Game> Bot<G> for PlayoutBot<G::Action> {
    fn choose(&mut self, state: &G) -> Option<G::Action> {
        if !matches!(state.turn(), Turn::Player(_)) {
            return None;
        }
        state.playout_action(&mut self.rng, &mut self.buffer)
    }
}
