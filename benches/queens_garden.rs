//! Criterion benches of the Queen's Garden engine. Run:
//! `cargo bench -p queens-garden -- --warm-up-time 1 --measurement-time 3`.
//! Legal-move generation is timed on crowded positions (full storages, many payment choices);
//! playouts are uniform over the legal-move list, reported in moves per second.

#[path = "net_leaf.rs"]
mod shared;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pyrandom::PyRandom;
use queens_garden::bench::{crowded, midgame, opening, random_playout, searcher};
use queens_garden::{Position, Rules};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("qg_legal_moves");
    for players in [2, 4] {
        let p = crowded(Rules::with_players(players).unwrap());
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
        let games = 20u32;
        let moves: u32 = (0..games)
            .map(|_| random_playout(&mut start.clone(), &mut rng))
            .sum();
        group.throughput(Throughput::Elements(u64::from(moves / games)));
        group.bench_function(format!("random_{players}p"), |b| {
            b.iter(|| random_playout(&mut start.clone(), &mut rng));
        });
    }
    group.finish();

    let p = crowded(Rules::with_players(4).unwrap());
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
    let rules = Rules::with_players(2).unwrap();
    let (opening, mid) = (opening(rules), midgame(rules));
    for (name, position) in [("opening", &opening), ("midgame", &mid)] {
        let mut bot = searcher(1000);
        group.bench_function(format!("ismcts_{name}_2p_1000_sims"), |b| {
            b.iter(|| bot.search(black_box(position)));
        });
    }
    group.finish();
}

/// The shipped network's cost per leaf against a playout's, at a mid-game position.
fn net_leaf(c: &mut Criterion) {
    shared::net_leaf(c, &midgame(Rules::with_players(2).unwrap()));
}

/// One `net` search's cost per simulation from the same mid-game position.
fn puct(c: &mut Criterion) {
    shared::puct(c, &midgame(Rules::with_players(2).unwrap()));
}

criterion_group!(benches, bench, net_leaf, puct);
criterion_main!(benches);
