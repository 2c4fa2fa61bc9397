//! Reads a game record (`indigo-record/1`, as `play_game` writes it), checks it by replaying
//! it, then steps through it from the start: every move that took gems off the board, with the points
//! each seat scored, the gems collected and the gems that met, then the final scores.
//!
//! Run: `cargo run -p indigo-game --example replay -- RECORD.json` (`-` reads standard input).

use std::io::Read;
use std::process::ExitCode;

use indigo_game::{Game, Move, PathEnd, read_record};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("replay: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: replay RECORD.json (or - for standard input)")?;
    let mut text = String::new();
    if path == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    }
    // Every field and every move is checked; a bad record names what is wrong and where.
    let game = read_record(&text).map_err(|e| format!("{path}: {e}"))?;
    let rules = game.rules();
    let seed = game
        .seed()
        .map_or("an explicit pile".into(), |s| format!("seed {s}"));
    println!(
        "{} players, hands of {}, {seed}: {} moves",
        rules.players(),
        rules.hand_size(),
        game.moves().len()
    );

    let players = usize::from(rules.players());
    // Undo back to the start, then play the moves again, looking at what each did.
    let moves: Vec<Move> = game.moves().collect();
    let mut replay: Game = game.clone();
    while replay.undo().is_some() {}
    for (turn, mv) in (1..).zip(moves) {
        let effects = replay.play(mv).map_err(|e| e.to_string())?;
        let collected = effects
            .paths
            .iter()
            .filter(|p| matches!(p.end, PathEnd::Collected { .. }))
            .count();
        let met = effects.collisions().len();
        if collected > 0 || met > 0 {
            println!(
                "{turn:3}. seat {} {:<10} points {:?}, {collected} gem(s) out, {met} collision(s)",
                effects.seat,
                mv.to_string(),
                &effects.points[..players],
            );
        }
    }

    let position = replay.position();
    assert_eq!(
        position,
        game.position(),
        "the replay ends where the record does"
    );
    let over = if position.is_over() {
        "final"
    } else {
        "current"
    };
    println!("{over} scores {:?}", &position.scores()[..players]);
    Ok(())
}
