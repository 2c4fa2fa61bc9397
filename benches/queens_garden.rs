//! Criterion benches of the Queen's Garden engine. Run:
//! `cargo bench -p queens-garden -- --warm-up-time 1 --measurement-time 3`.
//! Legal-move generation is timed on crowded positions (full storages, many payment choices);
//! playouts are uniform over the legal-move list, reported in moves per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pyrandom::PyRandom;
use queens_garden::{Move, Position, Rules};

fn pick(rng: &mut PyRandom, n: usize) -> usize {
    rng.randbelow(n as u32) as usize
}

/// Plays uniformly random legal moves to the end; returns the moves played.
fn random_playout(p: &mut Position, rng: &mut PyRandom, buffer: &mut Vec<Move>) -> u32 {
    let mut n = 0;
    while !p.is_over() {
        p.legal_moves_into(buffer);
        let mv = buffer[pick(rng, buffer.len())];
        p.play_unchecked(&mv).unwrap();
        n += 1;
    }
    n
}

/// The position with the longest legal-move list met while hoarding (taking whenever
/// possible, then placing, passing last) through a few seeded games of `players`.
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

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("qg_legal_moves");
    for players in [2, 4] {
        let p = crowded(players);
        let n = p.legal_moves().len();
        let storage = p.storage(p.to_move().unwrap());
        eprintln!(
            "crowded {players}p: {n} legal moves; mover stores {} tiles, {} jokers, {} expansions",
            storage.tile_count(),
            storage.jokers(),
            storage.expansion_count()
        );
        group.throughput(Throughput::Elements(n as u64));
        let mut buffer = Vec::with_capacity(n);
        group.bench_function(format!("crowded_{players}p_{n}_moves"), |b| {
            b.iter(|| {
                black_box(&p).legal_moves_into(&mut buffer);
                buffer.len()
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group("qg_playout");
    for players in [2, 4] {
        let start = Position::from_seed(Rules::with_players(players).unwrap(), 1);
        let mut rng = PyRandom::from_u64(7);
        let mut buffer = Vec::new();
        let games = 20u32;
        let moves: u32 = (0..games)
            .map(|_| random_playout(&mut start.clone(), &mut rng, &mut buffer))
            .sum();
        group.throughput(Throughput::Elements(u64::from(moves / games)));
        group.bench_function(format!("random_{players}p"), |b| {
            b.iter(|| random_playout(&mut start.clone(), &mut rng, &mut buffer));
        });
    }
    group.finish();

    let p = crowded(4);
    c.bench_function("qg_clone_position", |b| b.iter(|| black_box(&p).clone()));
    let mv = p.legal_moves()[p.legal_moves().len() / 2];
    c.bench_function("qg_play_checked", |b| {
        b.iter(|| {
            let mut q = black_box(&p).clone();
            q.play(black_box(&mv)).unwrap();
            q
        });
    });

    // The search's playout policy (Position::playout_move), games per second.
    let mut group = c.benchmark_group("qg_search");
    group.throughput(Throughput::Elements(1));
    let mut rng = <indigo_search::Rng as rand::SeedableRng>::seed_from_u64(1);
    for players in [2, 4] {
        let start = Position::from_seed(Rules::with_players(players).unwrap(), 7);
        group.bench_function(format!("playout_policy_game_{players}p"), |b| {
            b.iter(|| indigo_search::Game::playout(&mut start.clone(), &mut rng));
        });
    }
    // One ISMCTS search of 1000 simulations from the opening and from a mid-game position.
    group.throughput(Throughput::Elements(1000));
    group.sample_size(10);
    let opening = Position::from_seed(Rules::with_players(2).unwrap(), 3);
    let mut mid = opening.clone();
    let mut policy = <indigo_search::Rng as rand::SeedableRng>::seed_from_u64(2);
    while mid.moves_played() < 40 {
        let mv = mid
            .playout_move(&mut |n| indigo_search::below(&mut policy, n))
            .unwrap();
        mid.play_unchecked(&mv).unwrap();
    }
    for (name, position) in [("opening", &opening), ("midgame", &mid)] {
        let config =
            indigo_search::IsmctsConfig::new(indigo_search::Budget::Simulations(1000), 0.7, 1)
                .unwrap();
        let mut bot = indigo_search::Ismcts::new(config, 3);
        group.bench_function(format!("ismcts_{name}_2p_1000_sims"), |b| {
            b.iter(|| bot.search(black_box(position)));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
