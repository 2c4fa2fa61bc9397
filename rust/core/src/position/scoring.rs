//! Points and the winner (docs/spec/RULES.md section 8).

use super::{MAX_PLAYERS, Position};
use crate::rules::TieBreak;

impl Position {
    /// Points per seat (only the first `players` entries are used).
    #[inline]
    pub const fn scores(&self) -> [u16; MAX_PLAYERS] {
        self.scores
    }

    /// Gems collected per seat, by colour (amber, emerald, sapphire).
    #[inline]
    pub const fn collected(&self) -> [[u8; 3]; MAX_PLAYERS] {
        self.collected
    }

    /// The winning seats as a bitmask; 0 until the game is over.
    pub fn winners(&self) -> u8 {
        if !self.is_over() {
            return 0;
        }
        let players = usize::from(self.rules.players());
        let gems = |s: usize| self.collected[s].iter().map(|&n| u16::from(n)).sum::<u16>();
        // Ranked by points, then (under the most-gems tie-break) by gems collected.
        let key = |s: usize| match self.rules.tie_break() {
            TieBreak::Shared => (self.scores[s], 0),
            TieBreak::MostGems => (self.scores[s], gems(s)),
        };
        let best = (0..players).map(key).max().unwrap_or((0, 0));
        (0..players)
            .filter(|&s| key(s) == best)
            .fold(0, |mask, s| mask | 1 << s)
    }
}
