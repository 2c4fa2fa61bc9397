//! A game: a [`Position`] plus its history (undo), the moves played and the refills used.

use std::fmt;
use std::sync::Arc;

use crate::kind::Kind;
use crate::moves::{Move, MoveParseError};
use crate::position::{Chance, IllegalMove, Position, SetupError};
use crate::rules::Rules;

/// One move of the history: the position before it, the move (canonical), the refill it
/// caused, and the turn before it. Turns never change once played, so clones share them.
#[derive(Debug)]
struct Turn {
    before: Position,
    mv: Move,
    refill: Option<Box<[Kind]>>,
    previous: Option<Arc<Turn>>,
}

/// Why a move given as text could not be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The text is not a move (section 15.1).
    Notation(MoveParseError),
    /// The move is not legal now.
    Illegal(IllegalMove),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Notation(e) => write!(f, "not a move: {e}"),
            PlayError::Illegal(e) => write!(f, "illegal move: {e}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// A game in progress with its history. Cloning copies one position and one pointer.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    seed: Option<u64>,
    last: Option<Arc<Turn>>,
}

impl Game {
    /// A new game set up from `seed` (crate docs): bag, expansions and refills.
    pub fn from_seed(rules: Rules, seed: u64) -> Game {
        Game {
            position: Position::from_seed(rules, seed),
            seed: Some(seed),
            last: None,
        }
    }

    /// A new game with explicit randomness: the bag front first, the expansions (round stacks
    /// top first, then the supply), and the refills in order of use.
    ///
    /// # Errors
    /// If `bag` is not the 108 tiles or `expansions` not the 36 kinds.
    pub fn new(
        rules: Rules,
        bag: &[Kind],
        expansions: &[Kind],
        refills: Vec<Vec<Kind>>,
    ) -> Result<Game, SetupError> {
        let chance = Chance::Listed(refills.into());
        Ok(Game {
            position: Position::new(rules, bag, expansions, chance)?,
            seed: None,
            last: None,
        })
    }

    /// A game starting from `position` (e.g. one built for a test or an analysis). Its record
    /// ([`Game::to_record`]) describes a real game only if `position` is a set-up position.
    pub fn from_position(position: Position) -> Game {
        Game {
            position,
            seed: None,
            last: None,
        }
    }

    /// Records which seed set the game up (kept in records; changes nothing else).
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
    pub const fn rules(&self) -> &Rules {
        self.position.rules()
    }

    /// The seed that deals this game's chance (bag, expansions, refills); `None` when the
    /// randomness was given, as in a game read from a record.
    #[inline]
    pub const fn seed(&self) -> Option<u64> {
        match self.position.chance() {
            Chance::Seeded(seed) => Some(*seed),
            Chance::Listed(_) => None,
        }
    }

    /// The seed a record names: the dealing seed, or a record's informational `seed`.
    #[inline]
    pub const fn record_seed(&self) -> Option<u64> {
        self.seed
    }

    /// The legal-move list of the current position.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.position.legal_moves()
    }

    /// Checks and plays `mv`; on error nothing changes.
    ///
    /// # Errors
    /// Why `mv` is illegal, or the refill it needs is missing or wrong.
    pub fn play(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        let before = self.position.clone();
        let mut refill = None;
        self.position.play_observed(mv, &mut |order: &[u8]| {
            refill = Some(order.iter().filter_map(|&k| Kind::new(k)).collect());
        })?;
        let previous = self.last.take();
        self.last = Some(Arc::new(Turn {
            before,
            mv: *mv,
            refill,
            previous,
        }));
        Ok(())
    }

    /// Reads `text` (section 15.1), then checks and plays it; returns the move, canonical.
    ///
    /// # Errors
    /// If `text` is not a move or the move is illegal; nothing changes.
    pub fn play_notation(&mut self, text: &str) -> Result<Move, PlayError> {
        let mv = Move::parse(text).map_err(PlayError::Notation)?;
        self.play(&mv).map_err(PlayError::Illegal)?;
        Ok(mv)
    }

    /// Takes back the last move and returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let turn = self.last.take()?;
        self.position = turn.before.clone();
        self.last.clone_from(&turn.previous);
        Some(turn.mv)
    }

    /// Moves played so far.
    pub fn moves_played(&self) -> usize {
        self.position.moves_played() as usize
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<Move> {
        self.last.as_deref().map(|t| t.mv)
    }

    /// Each seat's score change with the last move (zeros at the start): the rewards of
    /// the last step, final scoring included.
    pub fn last_points(&self) -> Vec<i64> {
        let now = self.position.scores();
        match self.last.as_deref() {
            Some(turn) => now
                .iter()
                .zip(turn.before.scores())
                .map(|(&after, &before)| i64::from(after) - i64::from(before))
                .collect(),
            None => vec![0; now.len()],
        }
    }

    /// The seat that played the last move, `None` at the start.
    pub fn last_mover(&self) -> Option<u8> {
        self.last.as_deref().and_then(|t| t.before.to_move())
    }

    /// The moves played, first to last.
    pub fn moves(&self) -> Vec<Move> {
        self.turns().iter().map(|t| t.mv).collect()
    }

    /// The refills used so far, in order: each the bag's new order, front first.
    pub fn refills(&self) -> Vec<Vec<Kind>> {
        self.turns()
            .iter()
            .filter_map(|t| t.refill.as_deref().map(<[Kind]>::to_vec))
            .collect()
    }

    /// The position before the first move.
    pub fn initial(&self) -> &Position {
        self.turns().first().map_or(&self.position, |t| &t.before)
    }

    fn turns(&self) -> Vec<&Turn> {
        let mut turns = Vec::new();
        let mut next = self.last.as_deref();
        while let Some(turn) = next {
            turns.push(turn);
            next = turn.previous.as_deref();
        }
        turns.reverse();
        turns
    }
}
