//! Fixed Queen's Garden workloads for instruction counts (callgrind) and alternated wall-clock
//! runs of two builds; each prints a checksum of what it played, so two builds can be checked
//! to play the same games. Run:
//! `cargo run --release -p queens-garden --example qg_speed -- WORKLOAD PLAYERS COUNT`, where
//! WORKLOAD is `policy` (COUNT games of the search's playout policy), `random` (COUNT games of
//! uniform legal moves), `legal` (COUNT legal-move lists of the crowded position) or `opening`
//! / `midgame` (one ISMCTS search of COUNT simulations, 1 thread): the workloads of
//! `queens_garden::bench`, which `indigo bench` times too.

use queens_garden::Rules;
use queens_garden::bench::{Workload, run};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("policy", String::as_str);
    let workload: Workload = name.parse().unwrap_or_else(|e| panic!("{e}"));
    let players: u8 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let count: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(100);
    let rules = Rules::with_players(players).expect("2 to 4 players");
    let tally = run(workload, rules, count);
    println!(
        "{name} {players}p {count}: {} moves, checksum {:016x}, {:.3} s",
        tally.count, tally.checksum, tally.seconds
    );
}
