//! Points and the winner (docs/spec/RULES.md section 8).

use super::{MAX_PLAYERS, Position};
use crate::rules::TieBreak;

impl Position {
    /// Points per seat (only the first `players` entries are used).
    #[inline]
    pub const fn scores(&self) -> [u16; MAX_PLAYERS] {
        let mut scores = [0; MAX_PLAYERS];
        let mut seat = 0;
        while seat < MAX_PLAYERS {
            scores[seat] = (self.scores >> (16 * seat)) as u16;
            seat += 1;
        }
        scores
    }

    /// Gems collected per seat, by colour (amber, emerald, sapphire).
    #[inline]
    pub const fn collected(&self) -> [[u8; 3]; MAX_PLAYERS] {
        let mut collected = [[0; 3]; MAX_PLAYERS];
        let mut seat = 0;
        while seat < MAX_PLAYERS {
            let mut colour = 0;
            while colour < 3 {
                collected[seat][colour] = (self.collected[colour + 1] >> (8 * seat)) as u8;
                colour += 1;
            }
            seat += 1;
        }
        collected
    }

    /// Gems collected by `seat`, every colour: the colours' lanes added (a seat collects at
    /// most 12 gems, so no lane carries into the next).
    fn gems_collected(&self, seat: usize) -> u16 {
        let [_, amber, emerald, sapphire] = self.collected;
        u16::from(((amber + emerald + sapphire) >> (8 * (seat & 3))) as u8)
    }

    /// The winning seats as a bitmask; 0 until the game is over.
    pub fn winners(&self) -> u8 {
        if !self.is_over() {
            return 0;
        }
        let players = usize::from(self.rules.players());
        let ranks: [u32; MAX_PLAYERS] = std::array::from_fn(|seat| self.rank(seat));
        let best = ranks[..players].iter().copied().max().unwrap_or(0);
        (0..players)
            .filter(|&seat| ranks[seat] == best)
            .fold(0, |mask, seat| mask | 1 << seat)
    }

    /// What seats are ranked by, larger first: points, then (under the most-gems tie-break)
    /// gems collected, as `points << 16 | gems`.
    pub(super) fn rank(&self, seat: usize) -> u32 {
        let points = u32::from((self.scores >> (16 * (seat & 3))) as u16);
        let gems = match self.rules.tie_break() {
            TieBreak::Shared => 0,
            TieBreak::MostGems => u32::from(self.gems_collected(seat)),
        };
        points << 16 | gems
    }
}
