//! ISMCTS choosing a move: a seeded 2-player game played `MOVES` moves in by greedy bots,
//! then searched with a budget of simulations; prints the candidates the search visited most
//! and the move it chose. The search sees only what the seat to move knows (its hand, not
//! the pile or the other hand).
//!
//! Run: `cargo run --release -p indigo-game --example search -- [SEED] [SIMULATIONS] [MOVES]`
//! (defaults: seed 7, 5000 simulations, 20 moves in).

use std::cmp::Reverse;
use std::process::ExitCode;
use std::time::Instant;

use indigo_game::{Game, Rules};
use indigo_search::{Bot, GreedyBot, Ismcts, IsmctsConfig};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("search: {message}");
            eprintln!("usage: search [SEED] [SIMULATIONS] [MOVES]");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut number = |name: &str, default: u64| {
        args.next().map_or(Ok(default), |a| {
            a.parse::<u64>()
                .map_err(|e| format!("{name} must be a whole number, not {a:?}: {e}"))
        })
    };
    let seed = number("the seed", 7)?;
    let simulations = number("simulations", 5000)?;
    let moves_in = number("moves", 20)?;
    if simulations == 0 {
        return Err("simulations must be at least 1".into());
    }

    let mut game = Game::from_seed(Rules::indigo(2).map_err(|e| e.to_string())?, seed);
    let mut greedy = GreedyBot::new(seed);
    for _ in 0..moves_in {
        let Some(action) = greedy.choose(game.position()) else {
            break;
        };
        game.play(action.to_move()).map_err(|e| e.to_string())?;
    }
    let position = game.position();
    let seat = position.to_move().ok_or("the game is over")?;
    let hand: Vec<String> = position.hand(seat).map(|t| t.to_string()).collect();
    println!(
        "seed {seed}, after {} moves: seat {seat} to move with tile {}, {} legal placements, scores {:?}",
        game.moves().len(),
        hand.join(", "),
        position.legal_moves().len(),
        &position.scores()[..2]
    );

    let mut search = Ismcts::new(IsmctsConfig::simulations(simulations), seed);
    let start = Instant::now();
    let found = search
        .search(position)
        .ok_or("the seat to move has no move")?;
    let seconds = start.elapsed().as_secs_f64();

    let mut candidates = found.visits.clone();
    // Most visited first; among equals, the one chosen (it has the best mean result).
    candidates.sort_by_key(|&(action, visits)| (Reverse(visits), action != found.best));
    println!("most visited of {} candidates:", candidates.len());
    for (action, visits) in candidates.iter().take(5) {
        println!("  {:<10} {visits:6} visits", action.to_move().to_string());
    }
    println!(
        "chose {} (mean result {:.3}) after {} simulations in {:.0} ms ({:.0} simulations/s)",
        found.best.to_move(),
        found.value,
        found.simulations,
        seconds * 1e3,
        found.simulations as f64 / seconds.max(1e-9)
    );
    Ok(())
}
