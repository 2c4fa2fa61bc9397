//! A game: a [`Position`] plus what apps need around it: the moves played, what each did, undo.

use crate::moves::Move;
use crate::position::{IllegalMove, PileError, Position};
use crate::rules::Rules;
use crate::setup::shuffled_pile;
use crate::tile::TileType;
use crate::trace::{MoveEffects, PathRecorder};

/// One move of the history: the position before it, the move as given, and its effects.
#[derive(Clone, Debug)]
struct Turn {
    before: Position,
    effects: MoveEffects,
}

/// A game in progress with its history. Cloning copies the history too.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    seed: Option<u64>,
    turns: Vec<Turn>,
}

impl Game {
    /// A new game whose pile is shuffled from `seed` (see [`crate::setup`]).
    pub fn from_seed(rules: Rules, seed: u64) -> Game {
        let pile = shuffled_pile(seed);
        let position =
            Position::new(rules, &pile).unwrap_or_else(|_| unreachable!("the box is valid"));
        Game {
            position,
            seed: Some(seed),
            turns: Vec::new(),
        }
    }

    /// A new game with an explicit pile, front first.
    ///
    /// # Errors
    /// If `pile` is not a permutation of the box.
    pub fn from_pile(rules: Rules, pile: &[TileType]) -> Result<Game, PileError> {
        Ok(Game {
            position: Position::new(rules, pile)?,
            seed: None,
            turns: Vec::new(),
        })
    }

    /// Records which seed shuffled the pile (kept in records; changes nothing else).
    #[must_use]
    pub fn with_seed(mut self, seed: Option<u64>) -> Game {
        self.seed = seed;
        self
    }

    /// The current position.
    #[inline]
    pub const fn position(&self) -> &Position {
        &self.position
    }

    /// The rules.
    #[inline]
    pub const fn rules(&self) -> Rules {
        self.position.rules()
    }

    /// The seed that shuffled the pile, when known.
    #[inline]
    pub const fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The position before the first move.
    pub fn initial(&self) -> &Position {
        self.turns.first().map_or(&self.position, |t| &t.before)
    }

    /// Checks and plays `mv`, returning what it caused; on error nothing changes.
    ///
    /// # Errors
    /// The reason `mv` may not be played.
    pub fn play(&mut self, mv: Move) -> Result<&MoveEffects, IllegalMove> {
        let before = self.position;
        let seat = before.to_move().ok_or(IllegalMove::GameOver)?;
        let mut recorder = PathRecorder::default();
        self.position.play_traced(mv, &mut recorder)?;
        let mut points = self.position.scores();
        for (p, b) in points.iter_mut().zip(before.scores()) {
            *p -= b;
        }
        let effects = MoveEffects {
            mv,
            seat,
            paths: recorder.paths,
            points,
            game_over: self.position.is_over(),
        };
        self.turns.push(Turn { before, effects });
        Ok(&self.turns[self.turns.len() - 1].effects)
    }

    /// Takes back the last move and returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let turn = self.turns.pop()?;
        self.position = turn.before;
        Some(turn.effects.mv)
    }

    /// The moves played, as given.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.turns.iter().map(|t| t.effects.mv)
    }

    /// What the last move caused.
    pub fn last_effects(&self) -> Option<&MoveEffects> {
        self.turns.last().map(|t| &t.effects)
    }
}
