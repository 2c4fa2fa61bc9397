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

    /// Gems collected by `seat`, every colour.
    fn gems_collected(&self, seat: usize) -> u16 {
        self.collected()[seat].iter().map(|&n| u16::from(n)).sum()
    }

    /// The winning seats as a bitmask; 0 until the game is over.
    pub fn winners(&self) -> u8 {
        if !self.is_over() {
            return 0;
        }
        let players = usize::from(self.rules.players());
        // Ranked by points, then (under the most-gems tie-break) by gems collected.
        let key = |s: usize| self.rank_key(s);
        let best = (0..players).map(key).max().unwrap_or((0, 0));
        (0..players)
            .filter(|&s| key(s) == best)
            .fold(0, |mask, s| mask | 1 << s)
    }

    /// What seats are ranked by: points, then (under the most-gems tie-break) gems collected.
    pub(super) fn rank_key(&self, seat: usize) -> (u16, u16) {
        let points = self.scores()[seat];
        match self.rules.tie_break() {
            TieBreak::Shared => (points, 0),
            TieBreak::MostGems => (points, self.gems_collected(seat)),
        }
    }
}
