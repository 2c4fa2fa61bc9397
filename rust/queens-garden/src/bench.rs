//! The native workloads of `indigo bench`, the `qg_speed` example and the criterion bench:
//! seeded, so their checksums change only when the engine's behaviour does.

use std::hint::black_box;
use std::str::FromStr;

use indigo_search::{Budget, Instant, Ismcts, IsmctsConfig, Rng, below};
use pyrandom::PyRandom;
use rand::SeedableRng;
use xxhash_rust::xxh3::Xxh3;

use crate::{Action, Move, Position, Rules};

/// One of the timed workloads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Workload {
    /// Games of the search's playout policy from the set-up of seed 7.
    Policy,
    /// Games of uniformly random legal moves from the set-up of seed 1.
    Random,
    /// Legal-move lists of the [`crowded`] position.
    Legal,
    /// One ISMCTS search (1 thread) from the [`opening`].
    Opening,
    /// One ISMCTS search (1 thread) from the [`midgame`].
    Midgame,
}

impl FromStr for Workload {
    type Err = String;

    fn from_str(name: &str) -> Result<Workload, String> {
        Ok(match name {
            "policy" => Workload::Policy,
            "random" => Workload::Random,
            "legal" => Workload::Legal,
            "opening" => Workload::Opening,
            "midgame" => Workload::Midgame,
            _ => {
                return Err(format!(
                    "unknown workload {name:?}: policy, random, legal, opening or midgame"
                ));
            }
        })
    }
}

/// What a run of a workload came to.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Tally {
    /// Moves played (`policy`, `random`), moves listed (`legal`) or simulations run (ISMCTS).
    pub count: u64,
    /// An xxh3 hash of what was played: final scores, the last list, or the root visits.
    pub checksum: u64,
    /// Seconds of the timed loop (the set-up of its position left out).
    pub seconds: f64,
}

/// A uniform index below `n` drawn from `rng`.
fn pick(rng: &mut PyRandom, n: usize) -> usize {
    rng.randbelow(n as u32) as usize
}

/// Plays uniformly random legal moves (drawn from `rng`: the legal list's move at a uniform
/// index, found without writing the list) to the end; returns the moves played.
pub fn random_playout(p: &mut Position, rng: &mut PyRandom) -> u32 {
    let mut n = 0;
    while let Some(mv) = p.random_legal_move(&mut |n| pick(rng, n)) {
        p.play_unchecked(&mv)
            .unwrap_or_else(|_| unreachable!("a legal move"));
        n += 1;
    }
    n
}

/// The position with the longest legal-move list met while hoarding (taking whenever
/// possible, then placing, passing last) through seeded games 0 to 3.
pub fn crowded(rules: Rules) -> Position {
    let mut best = Position::from_seed(rules, 0);
    let mut best_len = 0;
    let mut buffer = Vec::new();
    for seed in 0..4 {
        let mut p = Position::from_seed(rules, seed);
        let mut rng = PyRandom::from_u64(seed);
        while !p.is_over() {
            p.legal_moves_into(&mut buffer);
            if buffer.len() > best_len {
                best_len = buffer.len();
                best = p.clone();
            }
            let takes = buffer.iter().filter(|m| m.action_rank() == 0).count();
            let mv = if takes > 0 {
                buffer[pick(&mut rng, takes)]
            } else if buffer.len() > 1 && pick(&mut rng, 4) > 0 {
                buffer[pick(&mut rng, buffer.len() - 1)]
            } else {
                Move::PASS
            };
            p.play_unchecked(&mv)
                .unwrap_or_else(|_| unreachable!("a legal move"));
        }
    }
    best
}

/// The set-up of seed 3, where the ISMCTS workloads start.
pub fn opening(rules: Rules) -> Position {
    Position::from_seed(rules, 3)
}

/// The [`opening`] 40 moves on, played by the playout policy seeded with 2.
pub fn midgame(rules: Rules) -> Position {
    let mut position = opening(rules);
    let mut policy = Rng::seed_from_u64(2);
    while position.moves_played() < 40 {
        let Some(mv) = position.playout_move(&mut |n| below(&mut policy, n)) else {
            break;
        };
        position
            .play_unchecked(&mv)
            .unwrap_or_else(|_| unreachable!("a legal move"));
    }
    position
}

/// The ISMCTS searcher of the workloads: `simulations` per search, exploration 0.7, 1 thread,
/// seed 3.
pub fn searcher(simulations: u64) -> Ismcts {
    let config = IsmctsConfig::new(Budget::Simulations(simulations), 0.7, 1)
        .unwrap_or_else(|_| unreachable!("valid settings"));
    Ismcts::new(config, 3)
}

fn hash_scores(hash: &mut Xxh3, p: &Position) {
    for score in p.scores() {
        hash.update(&score.to_le_bytes());
    }
}

/// Runs `workload` for `rules`: `count` games (`policy`, `random`), lists (`legal`) or
/// simulations of one search (`opening`, `midgame`).
pub fn run(workload: Workload, rules: Rules, count: u64) -> Tally {
    let mut hash = Xxh3::new();
    let mut moves = 0u64;
    let clock;
    match workload {
        Workload::Policy => {
            let mut rng = Rng::seed_from_u64(1);
            let start = Position::from_seed(rules, 7);
            clock = Instant::now();
            for _ in 0..count {
                let mut p = start.clone();
                moves += u64::from(indigo_search::Game::playout(&mut p, &mut rng));
                hash_scores(&mut hash, &p);
            }
        }
        Workload::Random => {
            let mut rng = PyRandom::from_u64(7);
            let start = Position::from_seed(rules, 1);
            clock = Instant::now();
            for _ in 0..count {
                let mut p = start.clone();
                moves += u64::from(random_playout(&mut p, &mut rng));
                hash_scores(&mut hash, &p);
            }
        }
        Workload::Legal => {
            let p = crowded(rules);
            let mut buffer = Vec::new();
            clock = Instant::now();
            for _ in 0..count {
                black_box(&p).legal_moves_into(&mut buffer);
                moves += buffer.len() as u64;
            }
            for mv in &buffer {
                hash.update(
                    &Action::from_move(mv)
                        .map_or(u32::MAX, Action::index)
                        .to_le_bytes(),
                );
            }
        }
        Workload::Opening | Workload::Midgame => {
            let position = if workload == Workload::Opening {
                opening(rules)
            } else {
                midgame(rules)
            };
            let mut bot = searcher(count);
            clock = Instant::now();
            if let Some(result) = bot.search(&position) {
                for (action, visits) in &result.visits {
                    hash.update(&action.index().to_le_bytes());
                    hash.update(&visits.to_le_bytes());
                }
                moves = result.simulations;
            }
        }
    }
    let seconds = clock.elapsed().as_secs_f64();
    Tally {
        count: moves,
        checksum: hash.digest(),
        seconds,
    }
}

/// Most games, lists or simulations [`run`] takes from a caller that checks its input.
pub const MAX_COUNT: u64 = 1 << 32;

#[cfg(test)]
mod tests {
    use super::*;

    /// The workloads, pinned: a checksum changes only when the rules engine, the playout
    /// policy, the search or their random draws do.
    #[test]
    fn workloads_are_pinned() {
        let two = Rules::with_players(2).unwrap();
        let four = Rules::with_players(4).unwrap();
        let pinned = [
            (Workload::Policy, two, 200, 9496, 0x6f37_0fff_e277_02d5),
            (Workload::Policy, four, 200, 18_966, 0x5e3f_e9f9_2a5b_ecce),
            (Workload::Random, two, 200, 16_486, 0x3df6_4755_76e8_a96e),
            (Workload::Legal, two, 20, 11_060, 0xbb86_75e2_8048_f26a),
            (Workload::Opening, two, 1000, 1000, 0xaf6b_edab_faa5_d94b),
            (Workload::Midgame, two, 1000, 1000, 0xb3d5_4998_aa28_a153),
        ];
        for (workload, rules, count, moves, checksum) in pinned {
            let tally = run(workload, rules, count);
            assert_eq!(
                (tally.count, tally.checksum),
                (moves, checksum),
                "{workload:?}"
            );
        }
    }

    #[test]
    fn workloads_parse_by_name() {
        assert_eq!("midgame".parse(), Ok(Workload::Midgame));
        assert!(
            "mid"
                .parse::<Workload>()
                .unwrap_err()
                .contains("policy, random")
        );
    }
}
