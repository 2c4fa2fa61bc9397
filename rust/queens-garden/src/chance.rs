//! Chance as explicit events ([`ChanceEvent`] says how).

use std::fmt;

use crate::kind::{KIND_COUNT, Kind};
use crate::moves::Move;
use crate::position::{
    Chance, ChanceHook, EXPANSION_TOTAL, IllegalMove, Position, RefillError, TILE_TOTAL,
    seeded_setup,
};
use crate::rules::Rules;

/// What chance decides while one move is applied (or at set-up): `draws` tiles from the bag,
/// then `reveals` expansions nobody has seen, each one step with a kind as its outcome. It is
/// for callers that choose chance's outcomes themselves (OpenSpiel's chance nodes) instead of
/// letting the seed or the record deal them.
///
/// Everything chance decides happens inside a move (or at set-up): the tiles drawn from the
/// bag for a new stack top (after a refill, from the bag and the tower together) and the kinds
/// of expansions that turn face up without anyone having seen them (an emptied face-down
/// display expansion, the rest of a stack when no tile is left). [`Position::chance_event`]
/// tells, before a move is applied, what chance will decide in it: `draws` tiles from the
/// bag's multiset, then `reveals` expansions from the kinds nobody has seen. Its steps are
/// the chance nodes, one outcome (a kind) each: a draw's outcomes are the kinds left in the
/// bag with probability proportional to their counts, a reveal's outcomes the unseen kinds
/// left, each equally likely. [`Position::play_with_outcomes`] plays the move with chosen
/// outcomes by arranging the hidden order as it is used: the chosen tiles are moved to the
/// bag's front just before the draw, a chosen kind is swapped into a revealed expansion's
/// place just before it turns up. The hidden order is only ever permuted among hidden places,
/// so what is hidden stays a uniformly random arrangement of what nobody has seen, and the
/// seeded and listed modes (which choose nothing) deal exactly as before.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ChanceEvent {
    draws: u8,
    bag: [u8; KIND_COUNT],
    reveals: u8,
    unseen: u64,
}

impl ChanceEvent {
    /// The set-up's event: round 1's stack top gets 4 tiles from the full bag.
    pub const fn setup() -> ChanceEvent {
        ChanceEvent {
            draws: 4,
            bag: [3; KIND_COUNT],
            reveals: 0,
            unseen: 0,
        }
    }

    /// Tiles drawn (0..4).
    pub const fn draws(&self) -> usize {
        self.draws as usize
    }

    /// The bag's tiles per kind id when the draw is made (the tower's included after a
    /// refill); all zero without a draw.
    pub const fn bag(&self) -> &[u8; KIND_COUNT] {
        &self.bag
    }

    /// Expansions turned face up that nobody had seen.
    pub const fn reveals(&self) -> usize {
        self.reveals as usize
    }

    /// The kinds nobody has seen face up before the first reveal (none without a reveal).
    pub fn unseen(&self) -> impl Iterator<Item = Kind> + '_ {
        Kind::all().filter(|k| self.unseen >> k.id() & 1 != 0)
    }

    /// Chance steps: draws, then reveals.
    pub const fn steps(&self) -> usize {
        self.draws() + self.reveals()
    }

    /// Whether the move involves no chance.
    pub const fn is_empty(&self) -> bool {
        self.steps() == 0
    }

    /// The next step's outcomes with their probabilities (ascending kinds, summing to 1) once
    /// `chosen` are the outcomes of the steps before; empty when `chosen` completes the event.
    ///
    /// # Errors
    /// If `chosen` is not a possible start of the event's outcomes.
    pub fn outcomes(&self, chosen: &[Kind]) -> Result<Vec<(Kind, f64)>, ChanceError> {
        let (bag, unseen) = self.left(chosen)?;
        if chosen.len() < self.draws() {
            let total: u32 = bag.iter().map(|&c| u32::from(c)).sum();
            return Ok(Kind::all()
                .filter(|k| bag[usize::from(k.id())] > 0)
                .map(|k| {
                    let count = f64::from(bag[usize::from(k.id())]);
                    (k, count / f64::from(total))
                })
                .collect());
        }
        if chosen.len() < self.steps() {
            let p = 1.0 / f64::from(unseen.count_ones());
            return Ok(Kind::all()
                .filter(|k| unseen >> k.id() & 1 != 0)
                .map(|k| (k, p))
                .collect());
        }
        Ok(Vec::new())
    }

    /// Checks that `outcomes` are a complete, possible set of outcomes of the event.
    ///
    /// # Errors
    /// If there are too few or too many, or one is not possible after the ones before it.
    pub fn check(&self, outcomes: &[Kind]) -> Result<(), ChanceError> {
        if outcomes.len() != self.steps() {
            return Err(ChanceError::Count {
                needed: self.steps(),
                given: outcomes.len(),
            });
        }
        self.left(outcomes).map(|_| ())
    }

    /// The bag and the unseen kinds left after `chosen`.
    fn left(&self, chosen: &[Kind]) -> Result<([u8; KIND_COUNT], u64), ChanceError> {
        if chosen.len() > self.steps() {
            return Err(ChanceError::Count {
                needed: self.steps(),
                given: chosen.len(),
            });
        }
        let mut bag = self.bag;
        let mut unseen = self.unseen;
        for (step, &k) in chosen.iter().enumerate() {
            if step < self.draws() {
                let left = &mut bag[usize::from(k.id())];
                if *left == 0 {
                    return Err(ChanceError::NotInBag { step, kind: k });
                }
                *left -= 1;
            } else {
                if unseen >> k.id() & 1 == 0 {
                    return Err(ChanceError::NotUnseen { step, kind: k });
                }
                unseen &= !(1 << k.id());
            }
        }
        Ok((bag, unseen))
    }
}

/// Outcomes that the chance event cannot have.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ChanceError {
    /// Not one outcome per step.
    Count {
        /// The event's steps.
        needed: usize,
        /// Outcomes given.
        given: usize,
    },
    /// A draw of a kind the bag no longer holds.
    NotInBag {
        /// The step (0-based).
        step: usize,
        /// The kind.
        kind: Kind,
    },
    /// A reveal of a kind that was seen before or revealed at an earlier step.
    NotUnseen {
        /// The step (0-based).
        step: usize,
        /// The kind.
        kind: Kind,
    },
}

impl fmt::Display for ChanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChanceError::Count { needed, given } => write!(
                f,
                "the move's chance needs {needed} outcomes (its draws, then its reveals), not \
                 {given}"
            ),
            ChanceError::NotInBag { step, kind } => write!(
                f,
                "chance step {step} draws {kind}, but the bag holds no {kind} then"
            ),
            ChanceError::NotUnseen { step, kind } => write!(
                f,
                "chance step {step} reveals expansion {kind}, but {kind} is not among the \
                 expansions nobody has seen then"
            ),
        }
    }
}

impl std::error::Error for ChanceError {}

/// Why a move could not be played with chosen outcomes. The position is unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OutcomeError {
    /// The move is not legal now (or the refill it needs cannot be made).
    Move(IllegalMove),
    /// The outcomes do not fit the move's chance event.
    Outcomes(ChanceError),
}

impl fmt::Display for OutcomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutcomeError::Move(e) => e.fmt(f),
            OutcomeError::Outcomes(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OutcomeError {}

/// Records the event a move's play goes through.
#[derive(Default)]
struct Recorder {
    event: Option<ChanceEvent>,
}

impl Recorder {
    fn event(&mut self) -> &mut ChanceEvent {
        self.event.get_or_insert(ChanceEvent {
            draws: 0,
            bag: [0; KIND_COUNT],
            reveals: 0,
            unseen: 0,
        })
    }
}

impl ChanceHook for Recorder {
    fn draw(&mut self, bag: &mut [u8], n: usize) {
        let event = self.event();
        event.draws = n as u8;
        for &k in &*bag {
            event.bag[usize::from(k)] += 1;
        }
    }

    fn reveal(&mut self, expansions: &mut [u8; EXPANSION_TOTAL], revealed: u64, _index: usize) {
        let event = self.event();
        if event.reveals == 0 {
            event.unseen = (0..EXPANSION_TOTAL)
                .filter(|i| revealed >> i & 1 == 0)
                .fold(0, |m, i| m | 1 << expansions[i]);
        }
        event.reveals += 1;
    }
}

/// Arranges the hidden order so that chance's steps have the chosen outcomes (checked first).
struct Arranger<'a> {
    outcomes: &'a [Kind],
    next: usize,
}

impl ChanceHook for Arranger<'_> {
    fn draw(&mut self, bag: &mut [u8], n: usize) {
        for i in 0..n {
            let want = self.outcomes[self.next].id();
            self.next += 1;
            if let Some(j) = (i..bag.len()).find(|&j| bag[j] == want) {
                bag.swap(i, j);
            }
        }
    }

    fn reveal(&mut self, expansions: &mut [u8; EXPANSION_TOTAL], revealed: u64, index: usize) {
        let want = self.outcomes[self.next].id();
        self.next += 1;
        let hidden = |j: &usize| revealed >> j & 1 == 0 && expansions[*j] == want;
        if let Some(j) = (0..EXPANSION_TOTAL).find(hidden) {
            expansions.swap(index, j);
        }
    }
}

impl Position {
    /// What chance decides while `mv` is played from here: the tiles drawn, then the expansions
    /// nobody had seen that turn face up ([`ChanceEvent`]).
    ///
    /// # Errors
    /// If `mv` is illegal, or the refill it needs is missing from a record's list.
    pub fn chance_event(&self, mv: &Move) -> Result<ChanceEvent, IllegalMove> {
        self.check(mv)?;
        let mut played = self.clone();
        let mut recorder = Recorder::default();
        played
            .play_unchecked_with(mv, &mut recorder)
            .map_err(IllegalMove::Refill)?;
        Ok(recorder.event.unwrap_or(ChanceEvent {
            draws: 0,
            bag: [0; KIND_COUNT],
            reveals: 0,
            unseen: 0,
        }))
    }

    /// Checks and plays `mv` with chance's steps given `outcomes` (the draws, then the
    /// reveals, as [`Position::chance_event`] says); on error nothing changes.
    ///
    /// # Errors
    /// If `mv` is illegal or `outcomes` are not possible outcomes of its chance event.
    pub fn play_with_outcomes(&mut self, mv: &Move, outcomes: &[Kind]) -> Result<(), OutcomeError> {
        let event = self.chance_event(mv).map_err(OutcomeError::Move)?;
        event.check(outcomes).map_err(OutcomeError::Outcomes)?;
        let mut next = self.clone();
        let mut arranger = Arranger { outcomes, next: 0 };
        next.play_unchecked_with(mv, &mut arranger)
            .map_err(|e: RefillError| OutcomeError::Move(IllegalMove::Refill(e)))?;
        *self = next;
        Ok(())
    }

    /// The seeded set-up of `seed` (crate docs) with round 1's stack top given `draws`
    /// ([`ChanceEvent::setup`]'s outcomes): those tiles are moved to the bag's front.
    ///
    /// # Errors
    /// If `draws` are not 4 tiles.
    pub fn with_first_draws(
        rules: Rules,
        seed: u64,
        draws: &[Kind],
    ) -> Result<Position, ChanceError> {
        ChanceEvent::setup().check(draws)?;
        let (mut bag, expansions) = seeded_setup(seed);
        for (i, want) in draws.iter().enumerate() {
            if let Some(j) = (i..TILE_TOTAL).find(|&j| bag[j] == *want) {
                bag.swap(i, j);
            }
        }
        Ok(
            Position::new(rules, &bag, &expansions, Chance::Seeded(seed))
                .unwrap_or_else(|_| unreachable!("a permuted seeded set-up is complete")),
        )
    }
}

#[cfg(test)]
mod tests;
