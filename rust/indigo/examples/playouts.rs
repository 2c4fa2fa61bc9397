//! Plays the `indigo bench` random playouts and prints what they came to: the workload that
//! `scripts/callgrind` counts instructions of.
//!
//! Run: `cargo run --release -p indigo-game --example playouts -- [GAMES] [SEED] [PLAYERS] [HAND]`
//! (defaults 10000, 2026, 2 players, hand 1: the bench's games).

use indigo_game::Rules;
use indigo_game::playouts;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut number = |default: u64| {
        args.next().map_or(Ok(default), |a| {
            a.parse::<u64>()
                .map_err(|e| format!("{a:?} is not a whole number: {e}"))
        })
    };
    let parsed = (|| {
        let (games, seed) = (number(10_000)?, number(2026)?);
        let (players, hand) = (number(2)?, number(1)?);
        let rules = u8::try_from(players)
            .ok()
            .zip(u8::try_from(hand).ok())
            .and_then(|(p, h)| Rules::new(p, h).ok())
            .ok_or_else(|| format!("no rules for {players} players with hands of {hand}"))?;
        Ok::<_, String>((games, seed, rules))
    })();
    let (games, seed, rules) = parsed.unwrap_or_else(|e| {
        eprintln!("usage: playouts [GAMES] [SEED] [PLAYERS] [HAND]: {e}");
        std::process::exit(2);
    });
    let summary = playouts(rules, seed, 0..games);
    println!(
        "games {} placements {} checksum {:016x}",
        summary.games, summary.placements, summary.checksum
    );
}
