//! Simple bots: uniformly random, and greedy on immediate points.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::action::Action;
use crate::board::ROUTE_CELLS;
use crate::moves::Move;
use crate::position::{ALLOWED, Information, Position};
use crate::tile::Rotation;

/// Something that picks a move for the seat to move, from what that seat knows: a bot is
/// given an [`Information`], never the hidden pile or hands.
pub trait Bot {
    /// A legal move for the observer, or `None` when it is not to move.
    fn choose(&mut self, info: &Information) -> Option<Move>;

    /// [`Bot::choose`] for the seat to move in `position`.
    fn choose_in(&mut self, position: &Position) -> Option<Move> {
        let seat = position.to_move()?;
        self.choose(&position.information(seat))
    }
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
    fn choose(&mut self, info: &Information) -> Option<Move> {
        // Actions ascend in legal-move order, so the k-th action is the k-th legal move.
        let legal = info.legal_action_set();
        let count = legal.len();
        (count > 0).then(|| legal.nth(below(&mut self.rng, count)).map(Action::to_move))?
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
    fn choose(&mut self, info: &Information) -> Option<Move> {
        let seat = info.observer();
        if info.to_move() != Some(seat) {
            return None;
        }
        let seat = usize::from(seat);
        // Hidden tiles do not change immediate points.
        let position = &info.blanked();
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
/// distinct rotation. Builds no legal-move list. `None` when no seat is to move.
#[inline]
pub fn random_placement(position: &Position, rng: &mut Pcg64Mcg) -> Option<Move> {
    let seat = position.to_move()?;
    let mut hand = position.hand(seat);
    let first = hand.next()?;
    let tile = match hand.next() {
        Some(second) if below(rng, 2) == 1 => second,
        _ => first,
    };
    let empty = position.empty_slots();
    let slot = nth_bit(empty, below(rng, empty.count_ones() as usize));
    let mut legal = [0u8; 6];
    let mut n = 0;
    for rho in 0..tile.distinct_rotations() {
        if ALLOWED[tile as usize][rho as usize] >> slot & 1 != 0 {
            legal[n] = rho;
            n += 1;
        }
    }
    Some(Move {
        tile,
        rotation: Rotation::new(legal[below(rng, n)])?,
        cell: ROUTE_CELLS[slot],
    })
}

/// The index of the `k`-th set bit of `word` (`k` below its popcount).
#[inline]
fn nth_bit(mut word: u64, k: usize) -> usize {
    for _ in 0..k {
        word &= word - 1;
    }
    word.trailing_zeros() as usize
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
