//! The move value and its text notation `T@R:Q,R`.

use std::fmt;
use std::str::FromStr;

use crate::board::Cell;
use crate::tile::{Rotation, TileType, canonical_rotation, paths};

/// A placement: a tile type, a rotation and a cell on the board. Whether it is legal depends
/// on the position; every field is always in range.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Move {
    /// The tile type laid.
    pub tile: TileType,
    /// Its rotation (equivalent rotations are the same placement).
    pub rotation: Rotation,
    /// Where it goes.
    pub cell: Cell,
}

/// Why a move value could not be made.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveError(pub String);

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MoveError {}

impl Move {
    /// A move from plain numbers, checking each range.
    ///
    /// # Errors
    /// If `tile` is not 0..=4, `rotation` not 0..=5, or `(q, r)` off the board.
    pub fn from_parts(tile: i64, rotation: i64, q: i64, r: i64) -> Result<Move, MoveError> {
        let tile = Move::tile_type(tile).map_err(|e| MoveError(format!("tile {e}")))?;
        let rotation = u8::try_from(rotation)
            .ok()
            .and_then(Rotation::new)
            .ok_or_else(|| MoveError(format!("rotation must be 0..5, not {rotation}")))?;
        let cell = Move::cell(q, r)?;
        Ok(Move {
            tile,
            rotation,
            cell,
        })
    }

    /// `n` as a tile type.
    ///
    /// # Errors
    /// `n` is not `0..5`; the message reads after the value's name.
    pub fn tile_type(n: i64) -> Result<TileType, MoveError> {
        u8::try_from(n)
            .ok()
            .and_then(TileType::from_index)
            .ok_or_else(|| MoveError(format!("must be a type 0..4, not {n}")))
    }

    /// The board cell `(q, r)`.
    ///
    /// # Errors
    /// No such cell on the board.
    pub fn cell(q: i64, r: i64) -> Result<Cell, MoveError> {
        i32::try_from(q)
            .ok()
            .zip(i32::try_from(r).ok())
            .and_then(|(q, r)| Cell::new(q, r))
            .ok_or_else(|| MoveError(format!("cell ({q},{r}) is not on the board")))
    }

    /// The same placement with the smallest equivalent rotation.
    #[must_use]
    #[inline]
    pub const fn canonical(self) -> Move {
        Move {
            rotation: canonical_rotation(self.tile, self.rotation),
            ..self
        }
    }

    /// The three edge pairs this placement lays on its cell.
    pub fn paths(self) -> [(u8, u8); 3] {
        paths(self.tile, self.rotation)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}@{}:{},{}",
            self.tile,
            self.rotation.get(),
            self.cell.q(),
            self.cell.r()
        )
    }
}

impl FromStr for Move {
    type Err = MoveError;

    /// Parses `T@R:Q,R`; spaces around the parts, a space instead of `:` and parentheses
    /// around the cell are accepted (`"4@0 (0,-3)"`).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || {
            MoveError(format!(
                "cannot read move {text:?}: expected TILE@ROTATION:Q,R such as \"4@0:0,-3\""
            ))
        };
        let (tile, rest) = text.split_once('@').ok_or_else(bad)?;
        let rest = rest.trim_start();
        let split = rest.find([':', ' ', '(']).ok_or_else(bad)?;
        let (rotation, cell) = rest.split_at(split);
        // Exactly one separator: a colon (spaces around it allowed), or spaces, or a parenthesis.
        let cell = cell.trim_start();
        let cell = cell.strip_prefix(':').unwrap_or(cell).trim();
        let cell = match cell.strip_prefix('(') {
            Some(inner) => inner.strip_suffix(')').ok_or_else(bad)?,
            None => cell,
        };
        let (q, r) = cell.split_once(',').ok_or_else(bad)?;
        let int = |s: &str| s.trim().parse::<i64>().map_err(|_| bad());
        Move::from_parts(int(tile)?, int(rotation)?, int(q)?, int(r)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_on_every_cell() {
        for cell in Cell::all() {
            for t in TileType::ALL {
                for rho in 0..6 {
                    let mv = Move {
                        tile: t,
                        rotation: Rotation::new(rho).unwrap(),
                        cell,
                    };
                    assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
                }
            }
        }
    }

    #[test]
    fn lenient_forms_parse() {
        let want = Move::from_parts(4, 0, 0, -3).unwrap();
        for text in [
            "4@0:0,-3",
            " 4 @ 0 : 0 , -3 ",
            "4@0 (0,-3)",
            "4@0:(0, -3)",
            "4@0 0,-3",
        ] {
            assert_eq!(text.parse::<Move>(), Ok(want), "{text}");
        }
    }

    #[test]
    fn malformed_text_is_refused() {
        for text in [
            "", "4", "4@0", "4@0:0", "5@0:0,0", "4@6:0,0", "4@0:5,0", "a@0:0,0", "4@0:(0,0",
        ] {
            assert!(text.parse::<Move>().is_err(), "{text}");
        }
    }
}
