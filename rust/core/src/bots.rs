//! Simple bots: uniformly random, and greedy on immediate points.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::moves::Move;
use crate::position::Position;

/// Something that picks a move for the seat to move.
pub trait Bot {
    /// A legal move for `position`, or `None` when the game is over.
    fn choose(&mut self, position: &Position) -> Option<Move>;
}

/// Picks uniformly among the distinct legal placements.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: Pcg64Mcg,
}

impl RandomBot {
    /// A bot whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }
}

/// A uniform index below `n` (n > 0), by rejection-free multiply-shift (Lemire).
fn below(rng: &mut Pcg64Mcg, n: usize) -> usize {
    use rand::Rng as _;
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

impl Bot for RandomBot {
    fn choose(&mut self, position: &Position) -> Option<Move> {
        let moves = position.legal_moves();
        (!moves.is_empty()).then(|| moves[below(&mut self.rng, moves.len())])
    }
}

/// Maximises its own immediate points, then minimises its opponents'; ties broken at random.
#[derive(Clone, Debug)]
pub struct GreedyBot {
    rng: Pcg64Mcg,
}

impl GreedyBot {
    /// A bot whose tie-breaks are fixed by `seed`.
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }
}

impl Bot for GreedyBot {
    fn choose(&mut self, position: &Position) -> Option<Move> {
        let seat = usize::from(position.to_move()?);
        let before = position.scores();
        let mut best: Option<(i32, Move)> = None;
        let mut ties = 0usize;
        position.for_each_legal(|mv| {
            let mut next = *position;
            next.apply(mv, &mut ());
            let after = next.scores();
            let mut value = 0i32;
            for (s, (a, b)) in after.iter().zip(before).enumerate() {
                let gain = i32::from(*a - b);
                value += if s == seat { 1000 * gain } else { -gain };
            }
            match best {
                Some((v, _)) if value < v => {}
                Some((v, _)) if value == v => {
                    // Reservoir sampling keeps each tied move with equal probability.
                    ties += 1;
                    if below(&mut self.rng, ties) == 0 {
                        best = Some((value, mv));
                    }
                }
                _ => {
                    best = Some((value, mv));
                    ties = 1;
                }
            }
        });
        best.map(|(_, mv)| mv)
    }
}
