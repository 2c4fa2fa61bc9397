//! What search and learning read from a position: returns under a [`Utility`].

use super::{MAX_PLAYERS, Position};
use crate::rules::TieBreak;

/// How a finished game is scored for search and learning.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Utility {
    /// Each seat's points.
    Points,
    /// The winners share 1 equally (docs/spec/RULES.md section 8, tie-break included); others get 0.
    Win,
    /// The share of opponents a seat beat, counting a tie as half (points, then the rules'
    /// tie-break): 1 for a clear first, 0 for a clear last.
    Rank,
}

impl Utility {
    /// The name [`Utility::from_str`](std::str::FromStr) reads.
    pub const fn as_str(self) -> &'static str {
        match self {
            Utility::Points => "points",
            Utility::Win => "win",
            Utility::Rank => "rank",
        }
    }
}

impl std::str::FromStr for Utility {
    type Err = String;

    fn from_str(name: &str) -> Result<Utility, String> {
        match name {
            "points" => Ok(Utility::Points),
            "win" => Ok(Utility::Win),
            "rank" => Ok(Utility::Rank),
            other => Err(format!(
                "utility must be 'points', 'win' or 'rank', not {other:?}"
            )),
        }
    }
}

impl Position {
    /// Each seat's return under `utility` (unused seats 0). Win and rank returns are 0 until
    /// the game is over; points are the scores so far.
    pub fn returns(&self, utility: Utility) -> [f64; MAX_PLAYERS] {
        let players = usize::from(self.rules.players());
        let mut out = [0.0; MAX_PLAYERS];
        match utility {
            Utility::Points => {
                for (r, &s) in out.iter_mut().zip(&self.scores[..players]) {
                    *r = f64::from(s);
                }
            }
            Utility::Win => {
                let winners = self.winners();
                let share = 1.0 / f64::from(winners.count_ones().max(1));
                for (seat, r) in out[..players].iter_mut().enumerate() {
                    if winners & (1 << seat) != 0 {
                        *r = share;
                    }
                }
            }
            Utility::Rank if self.is_over() => {
                let key = |s: usize| {
                    let gems = self.collected[s].iter().map(|&n| u16::from(n)).sum::<u16>();
                    match self.rules.tie_break() {
                        TieBreak::MostGems => (self.scores[s], gems),
                        TieBreak::Shared => (self.scores[s], 0),
                    }
                };
                for (seat, r) in out[..players].iter_mut().enumerate() {
                    let beaten: f64 = (0..players)
                        .filter(|&o| o != seat)
                        .map(|o| match key(seat).cmp(&key(o)) {
                            std::cmp::Ordering::Greater => 1.0,
                            std::cmp::Ordering::Equal => 0.5,
                            std::cmp::Ordering::Less => 0.0,
                        })
                        .sum();
                    *r = beaten / (players - 1) as f64;
                }
            }
            Utility::Rank => {}
        }
        out
    }
}
