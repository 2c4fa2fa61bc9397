//! The native side of the WebAssembly speed comparison (scripts/wasm-speed): the workloads of
//! scripts/wasm-speed.mjs, run natively, printed as one JSON line.
//!
//! `cargo run --release -p indigo-wasm --example speed -- GAMES SIMULATIONS SEARCHES`

use std::time::Instant;

use indigo_game::{Game, Position, Rules, playouts};
use indigo_search::{Bot as _, BotSpec, SearchBot};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("GAMES SIMULATIONS SEARCHES: whole numbers")
        })
        .collect();
    let [games, simulations, search_count] = args[..] else {
        panic!("usage: speed GAMES SIMULATIONS SEARCHES");
    };
    let rules = Rules::default();
    let start = Instant::now();
    let summary = playouts(rules, 2026, 0..games);
    let playout_s = start.elapsed().as_secs_f64();

    let spec: BotSpec = format!("ismcts:{simulations}").parse().expect("a spec");
    let start = Instant::now();
    for search in 0..search_count {
        let game = Game::from_seed(rules, search);
        let mut bot: SearchBot<Position> = spec.build(search);
        bot.choose(game.position()).expect("a move");
    }
    let search_s = start.elapsed().as_secs_f64();
    println!(
        "{{\"games_per_s\": {:.0}, \"placements_per_s\": {:.0}, \"ismcts_sims_per_s\": {:.0}}}",
        games as f64 / playout_s,
        summary.placements as f64 / playout_s,
        (simulations * search_count) as f64 / search_s,
    );
}
