//! Plays GAMES uniformly random 2-player games from seeded set-ups and prints the moves played:
//! a fixed workload for instruction counts (`perf stat -e instructions:u`, callgrind).
//! Run: `cargo run --release -p queens-garden --example qg_playouts -- [GAMES]`.

use pyrandom::PyRandom;
use queens_garden::{Position, Rules};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let rules = Rules::with_players(2).expect("2 players are valid");
    let mut rng = PyRandom::from_u64(7);
    let mut buffer = Vec::new();
    let mut moves = 0u64;
    for seed in 0..games {
        let mut p = Position::from_seed(rules, seed);
        while !p.is_over() {
            p.legal_moves_into(&mut buffer);
            let mv = buffer[rng.randbelow(buffer.len() as u32) as usize];
            p.play_unchecked(&mv).expect("seeded refills never fail");
            moves += 1;
        }
    }
    println!("{games} games, {moves} moves");
}
