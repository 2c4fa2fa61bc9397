//! What search and learning read from a position: returns under a [`Utility`].

use super::{MAX_PLAYERS, Position};

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
    /// Zero-sum: each loser pays `1 / (players - 1)` and the winners share what the losers
    /// pay, so the returns sum to 0. Two players: +1 for a win, -1 for a loss, 0 for a shared
    /// result; a lone winner always gets +1, and a result every seat shares is 0 for all.
    ZeroSum,
}

impl Utility {
    /// The name [`Utility::from_str`](std::str::FromStr) reads.
    pub const fn as_str(self) -> &'static str {
        match self {
            Utility::Points => "points",
            Utility::Win => "win",
            Utility::Rank => "rank",
            Utility::ZeroSum => "zero-sum",
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
            "zero-sum" => Ok(Utility::ZeroSum),
            other => Err(format!(
                "utility must be 'points', 'win', 'rank' or 'zero-sum', not {other:?}"
            )),
        }
    }
}

impl Position {
    /// Each seat's return under `utility` (unused seats 0). Win, rank and zero-sum returns
    /// are 0 until the game is over; points are the scores so far.
    pub fn returns(&self, utility: Utility) -> [f64; MAX_PLAYERS] {
        let players = usize::from(self.rules.players());
        let mut out = [0.0; MAX_PLAYERS];
        match utility {
            Utility::Points => {
                for (r, &s) in out.iter_mut().zip(&self.scores()[..players]) {
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
                for (seat, r) in out[..players].iter_mut().enumerate() {
                    let beaten: f64 = (0..players)
                        .filter(|&o| o != seat)
                        .map(|o| match self.rank(seat).cmp(&self.rank(o)) {
                            std::cmp::Ordering::Greater => 1.0,
                            std::cmp::Ordering::Equal => 0.5,
                            std::cmp::Ordering::Less => 0.0,
                        })
                        .sum();
                    *r = beaten / (players - 1) as f64;
                }
            }
            Utility::ZeroSum if self.is_over() => {
                // The win share w rescaled to n/(n-1) * (w - 1/n): a loser's w = 0 gives
                // -1/(n-1), a lone winner's w = 1 gives 1, and the shares sum to 0.
                let n = players as f64;
                let win = self.returns(Utility::Win);
                for (r, w) in out[..players].iter_mut().zip(win) {
                    *r = n / (n - 1.0) * (w - 1.0 / n);
                }
            }
            Utility::Rank | Utility::ZeroSum => {}
        }
        out
    }
}

#[cfg(test)]
// Observation values, returns and shares are small exact numbers.
#[allow(clippy::float_cmp)]
mod tests {
    use crate::position::Position;
    use crate::rng::shuffled_pile;
    use crate::testing::all_configurations;
    use indigo_search::{Bot, RandomBot};

    #[test]
    fn returns_follow_the_result() {
        use crate::position::Utility;
        for (k, rules) in all_configurations().into_iter().enumerate() {
            let mut p = Position::new(rules, &shuffled_pile(k as u64 + 40)).unwrap();
            let mut bot = RandomBot::new(k as u64);
            assert_eq!(p.returns(Utility::Win), [0.0; 4]);
            assert_eq!(p.returns(Utility::ZeroSum), [0.0; 4]);
            while let Some(mv) = bot.choose(&p).map(crate::Action::to_move) {
                p.play(mv).unwrap();
            }
            let players = usize::from(rules.players());
            let (win, rank, points) = (
                p.returns(Utility::Win),
                p.returns(Utility::Rank),
                p.returns(Utility::Points),
            );
            assert!((win.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let zero_sum = p.returns(Utility::ZeroSum);
            assert!(zero_sum.iter().sum::<f64>().abs() < 1e-12);
            // Ranks are pairwise shares: they sum to half the number of pairs each seat is in.
            assert!((rank.iter().sum::<f64>() - players as f64 / 2.0).abs() < 1e-12);
            for seat in 0..players {
                assert_eq!(points[seat], f64::from(p.scores()[seat]));
                let winner = p.winners() & (1 << seat) != 0;
                assert_eq!(win[seat] > 0.0, winner);
                let loss = -1.0 / (players - 1) as f64;
                assert!(winner == (zero_sum[seat] > loss + 1e-12), "{zero_sum:?}");
                if win[seat] == 1.0 {
                    assert!((zero_sum[seat] - 1.0).abs() < 1e-12);
                }
                if winner {
                    assert!(rank.iter().all(|&r| r <= rank[seat]));
                }
            }
        }
    }
}
