//! What a placement did to each gem: a [`Tracer`] is told every event; [`MoveEffects`] records
//! them for apps that animate or explain a move.

use crate::board::Cell;
use crate::gem::Gem;
use crate::moves::Move;
use crate::rules::MAX_PLAYERS;

/// Receives the events of a placement. Every method defaults to doing nothing, and `()` is the
/// tracer that records nothing, so the untraced path costs nothing.
pub trait Tracer {
    /// A gem waiting at `(cell, edge)` starts to move.
    fn start(&mut self, _gem: Gem, _cell: Cell, _edge: u8) {}
    /// The moving gem crosses `cell`, entering at `enter` and leaving at `exit`.
    fn step(&mut self, _cell: Cell, _enter: u8, _exit: u8) {}
    /// The moving gem rests at `(cell, edge)`.
    fn rest(&mut self, _cell: Cell, _edge: u8) {}
    /// The moving gem leaves through gate `gate`, paying the seats in the bitmask `owners`.
    fn collect(&mut self, _gate: u8, _owners: u8) {}
    /// The moving gem meets `other`, waiting at `(cell, edge)`; both leave the game.
    fn collide(&mut self, _other: Gem, _cell: Cell, _edge: u8) {}
}

impl Tracer for () {}

/// How a gem's movement ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PathEnd {
    /// Resting at `(cell, edge)`.
    Rested(Cell, u8),
    /// Collected through `gate`, paying the seats in the bitmask `owners`.
    Collected {
        /// The gate.
        gate: u8,
        /// Seats paid, as a bitmask.
        owners: u8,
    },
    /// Met the gem at this index of [`MoveEffects::paths`]; both left the game.
    Collided(usize),
}

/// One gem's movement in a placement.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GemPath {
    /// Its colour.
    pub gem: Gem,
    /// Where it waited: `(cell, edge)`; a centre gem starts at the centre.
    pub start: (Cell, u8),
    /// Each tile crossed: `(cell, entry edge, exit edge)`.
    pub steps: Vec<(Cell, u8, u8)>,
    /// How it ended.
    pub end: PathEnd,
}

/// Everything a placement caused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveEffects {
    /// The move as given.
    pub mv: Move,
    /// The seat that played it.
    pub seat: u8,
    /// Every gem that moved or was met, in processing order.
    pub paths: Vec<GemPath>,
    /// Points gained per seat.
    pub points: [u16; MAX_PLAYERS],
    /// Whether the game ended with this placement.
    pub game_over: bool,
}

impl MoveEffects {
    /// Pairs of indices into `paths` of gems that met, each pair once.
    pub fn collisions(&self) -> Vec<(usize, usize)> {
        self.paths
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p.end {
                PathEnd::Collided(j) if i < j => Some((i, j)),
                _ => None,
            })
            .collect()
    }
}

/// A [`Tracer`] that records [`GemPath`]s.
#[derive(Default, Debug)]
pub struct PathRecorder {
    /// The paths so far.
    pub paths: Vec<GemPath>,
}

impl PathRecorder {
    fn current(&mut self) -> &mut GemPath {
        self.paths.last_mut().expect("an event before start")
    }
}

impl Tracer for PathRecorder {
    fn start(&mut self, gem: Gem, cell: Cell, edge: u8) {
        self.paths.push(GemPath {
            gem,
            start: (cell, edge),
            steps: Vec::new(),
            end: PathEnd::Rested(cell, edge),
        });
    }

    fn step(&mut self, cell: Cell, enter: u8, exit: u8) {
        self.current().steps.push((cell, enter, exit));
    }

    fn rest(&mut self, cell: Cell, edge: u8) {
        self.current().end = PathEnd::Rested(cell, edge);
    }

    fn collect(&mut self, gate: u8, owners: u8) {
        self.current().end = PathEnd::Collected { gate, owners };
    }

    fn collide(&mut self, other: Gem, cell: Cell, edge: u8) {
        let mover = self.paths.len() - 1;
        // The gem met may have moved earlier in this placement and rested there (it rested
        // facing a dead end that this placement's release fills); otherwise it never moved.
        let rested = self.paths[..mover]
            .iter()
            .position(|p| p.gem == other && p.end == PathEnd::Rested(cell, edge));
        let other_index = rested.unwrap_or(mover + 1);
        self.current().end = PathEnd::Collided(other_index);
        match rested {
            Some(i) => self.paths[i].end = PathEnd::Collided(mover),
            None => self.paths.push(GemPath {
                gem: other,
                start: (cell, edge),
                steps: Vec::new(),
                end: PathEnd::Collided(mover),
            }),
        }
    }
}
