//! Fixed Queen's Garden workloads for instruction counts (callgrind) and alternated wall-clock
//! runs of two builds; each prints a checksum of what it played, so two builds can be checked
//! to play the same games. Run:
//! `cargo run --release -p queens-garden --example qg_speed -- WORKLOAD PLAYERS COUNT`, where
//! WORKLOAD is `policy` (COUNT games of the search's playout policy from the set-up of seed
//! 7, as `qg_search/playout_policy_game_*`), `random` (COUNT games of uniform legal moves from
//! the set-up of seed 1, as `qg_playout/random_*`), `legal` (COUNT legal-move lists of the crowded position of the
//! bench), `opening` or `midgame` (one ISMCTS search of COUNT simulations, 1 thread, from the
//! positions of the bench's `qg_search/ismcts_*`).

use std::hash::{DefaultHasher, Hash, Hasher};

use pyrandom::PyRandom;
use queens_garden::{Move, Position, Rules};

fn pick(rng: &mut PyRandom, n: usize) -> usize {
    rng.randbelow(n as u32) as usize
}

/// The bench's crowded position: the longest legal-move list met while hoarding.
fn crowded(players: u8) -> Position {
    let rules = Rules::with_players(players).unwrap();
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
            p.play_unchecked(&mv).unwrap();
        }
    }
    best
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let workload = args.get(1).map_or("policy", String::as_str);
    let players: u8 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let count: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(100);
    let rules = Rules::with_players(players).expect("2 to 4 players");
    let mut hash = DefaultHasher::new();
    let mut moves = 0u64;
    match workload {
        "policy" => {
            let mut rng = <indigo_search::Rng as rand::SeedableRng>::seed_from_u64(1);
            let start = Position::from_seed(rules, 7);
            for _ in 0..count {
                let mut p = start.clone();
                moves += u64::from(indigo_search::Game::playout(&mut p, &mut rng));
                p.scores().hash(&mut hash);
            }
        }
        "random" => {
            let mut rng = PyRandom::from_u64(7);
            let mut buffer = Vec::new();
            let start = Position::from_seed(rules, 1);
            for _ in 0..count {
                let mut p = start.clone();
                while !p.is_over() {
                    p.legal_moves_into(&mut buffer);
                    let mv = buffer[pick(&mut rng, buffer.len())];
                    p.play_unchecked(&mv).unwrap();
                    moves += 1;
                }
                p.scores().hash(&mut hash);
            }
        }
        "legal" => {
            let p = crowded(players);
            let mut buffer = Vec::new();
            for _ in 0..count {
                std::hint::black_box(&p).legal_moves_into(&mut buffer);
                moves += buffer.len() as u64;
            }
            buffer.hash(&mut hash);
        }
        "opening" | "midgame" => {
            let mut position = Position::from_seed(rules, 3);
            let mut policy = <indigo_search::Rng as rand::SeedableRng>::seed_from_u64(2);
            while workload == "midgame" && position.moves_played() < 40 {
                let mv = position
                    .playout_move(&mut |n| indigo_search::below(&mut policy, n))
                    .unwrap();
                position.play_unchecked(&mv).unwrap();
            }
            let config =
                indigo_search::IsmctsConfig::new(indigo_search::Budget::Simulations(count), 0.7, 1)
                    .unwrap();
            let mut bot = indigo_search::Ismcts::new(config, 3);
            let result = bot.search(&position).unwrap();
            format!("{:?}", result.visits).hash(&mut hash);
            moves = result.simulations;
        }
        other => panic!("unknown workload {other:?}"),
    }
    println!(
        "{workload} {players}p {count}: {moves} moves, checksum {:016x}",
        hash.finish()
    );
}
