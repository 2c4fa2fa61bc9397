//! Plays the `indigo bench` random playouts and prints what they came to: the workload that
//! `scripts/callgrind` counts instructions of.
//!
//! Run: `cargo run --release -p indigo-core --example playouts -- [GAMES] [SEED]`

use indigo_core::Rules;
use indigo_core::bench::playouts;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut number = |default: u64| {
        args.next().map_or(Ok(default), |a| {
            a.parse::<u64>()
                .map_err(|e| format!("{a:?} is not a whole number: {e}"))
        })
    };
    let (games, seed) = match (number(10_000), number(2026)) {
        (Ok(games), Ok(seed)) => (games, seed),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("usage: playouts [GAMES] [SEED]: {e}");
            std::process::exit(2);
        }
    };
    let rules = Rules::indigo(2).unwrap_or_else(|_| unreachable!("2 players is valid"));
    let summary = playouts(rules, seed, 0..games);
    println!(
        "games {} placements {} checksum {:016x}",
        summary.games, summary.placements, summary.checksum
    );
}
