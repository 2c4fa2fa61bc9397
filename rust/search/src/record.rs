//! What every game's records (and their snapshots and position texts) share: where a record
//! first goes wrong and why, for a person ([`RecordError`]).

use std::fmt;

/// Where a record first goes wrong.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ErrorAt {
    /// A field, e.g. `"rules.players"`: the game's format names them.
    Field(String),
    /// The move with this 0-based index.
    Move(usize),
}

impl fmt::Display for ErrorAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorAt::Field(name) => f.write_str(name),
            ErrorAt::Move(i) => write!(f, "moves[{i}]"),
        }
    }
}

/// A rejected record: where, and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordError {
    /// The first offending field or move.
    pub at: ErrorAt,
    /// What is wrong, for a person.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

impl std::error::Error for RecordError {}
