//! Simple bots: uniformly random, and greedy on immediate points.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::board::ROUTE_CELLS;
use crate::moves::Move;
use crate::position::Position;
use crate::tile::Rotation;

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

/// A uniform index below `n` (n > 0), by multiply-shift (Lemire; bias below 2^-50 here).
pub fn below(rng: &mut Pcg64Mcg, n: usize) -> usize {
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

/// One placement of the playout policy that benchmarks compare across engines: a uniformly
/// random tile of the hand, a uniformly random empty route cell, then a uniformly random legal
/// distinct rotation. Builds no legal-move list. `None` when the game is over.
pub fn random_placement(position: &Position, rng: &mut Pcg64Mcg) -> Option<Move> {
    let seat = position.to_move()?;
    let mut hand = position.hand(seat);
    let first = hand.next()?;
    let tile = match hand.next() {
        Some(second) if below(rng, 2) == 1 => second,
        _ => first,
    };
    let mut empty = [ROUTE_CELLS[0]; ROUTE_CELLS.len()];
    let mut count = 0;
    for cell in ROUTE_CELLS {
        if position.is_empty(cell) {
            empty[count] = cell;
            count += 1;
        }
    }
    let cell = empty[below(rng, count)];
    let mut legal = [Rotation::new(0)?; 6];
    let mut n = 0;
    for rho in 0..tile.distinct_rotations() {
        let mv = Move {
            tile,
            rotation: Rotation::new(rho)?,
            cell,
        };
        if !mv.joins_gate_exits() {
            legal[n] = mv.rotation;
            n += 1;
        }
    }
    Some(Move {
        tile,
        rotation: legal[below(rng, n)],
        cell,
    })
}

/// Plays `position` to the end with [`random_placement`]; returns the placements made.
pub fn random_playout(position: &mut Position, rng: &mut Pcg64Mcg) -> u32 {
    let mut placements = 0;
    while let Some(mv) = random_placement(position, rng) {
        position.apply(mv, &mut ());
        placements += 1;
    }
    placements
}
