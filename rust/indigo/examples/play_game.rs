//! A whole game of Indigo between two bots, printed move by move: the seat, its move, the
//! points it scored for each seat and the gems it moved, then the result. With a path, the game's record
//! is written there too (the `replay` example reads it back).
//!
//! Run: `cargo run --release -p indigo-game --example play_game -- [SEED] [BOT] [BOT] [RECORD]`
//! (defaults: seed 7, `ismcts:300` against `greedy`; bots are specs such as `random`,
//! `greedy`, `ismcts:1000` or `ismcts:time=0.2`).

use std::process::ExitCode;

use indigo_game::{Game, Position, Rules, write_record};
use indigo_search::{Bot, BotSpec, SearchBot};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("play_game: {message}");
            eprintln!("usage: play_game [SEED] [BOT] [BOT] [RECORD]");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).map_or(default, String::as_str).to_owned();
    let seed: u64 = arg(0, "7")
        .parse()
        .map_err(|e| format!("the seed must be a whole number: {e}"))?;
    let specs = [arg(1, "ismcts:300"), arg(2, "greedy")];
    let mut bots: Vec<SearchBot<Position>> = Vec::new();
    for (seat, spec) in (0u64..).zip(&specs) {
        let spec: BotSpec = spec.parse().map_err(|e| format!("{e}"))?;
        // Each seat's bot gets its own seed, so two bots of the same spec differ.
        bots.push(spec.build(seed.wrapping_add(seat)));
    }

    let rules = Rules::indigo(2).map_err(|e| e.to_string())?;
    let mut game = Game::from_seed(rules, seed);
    println!(
        "Indigo, 2 players, seed {seed}: {} against {}",
        specs[0], specs[1]
    );
    while let Some(seat) = game.position().to_move() {
        let seat_index = usize::from(seat);
        let mv = bots[seat_index]
            .choose(game.position())
            .ok_or("the bot to move chose nothing")?
            .to_move();
        let turn = game.moves().len() + 1;
        let effects = game.play(mv).map_err(|e| e.to_string())?;
        println!(
            "{turn:3}. seat {seat} {:<12} {:<10} points {:?}, {} gem(s) moved",
            specs[seat_index],
            mv.to_string(),
            &effects.points[..usize::from(rules.players())],
            effects.paths.len()
        );
    }

    let position = game.position();
    let scores = &position.scores()[..usize::from(rules.players())];
    let winners: Vec<String> = (0..rules.players())
        .filter(|s| position.winners() >> s & 1 != 0)
        .map(|s| format!("seat {s} ({})", specs[usize::from(s)]))
        .collect();
    println!("final scores {scores:?}, won by {}", winners.join(" and "));

    if let Some(path) = args.get(3) {
        let record = write_record(&game).to_string();
        std::fs::write(path, record + "\n").map_err(|e| format!("cannot write {path}: {e}"))?;
        println!("record written to {path}");
    }
    Ok(())
}
