//! Criterion benches of the Queen's Garden engine. Run:
//! `cargo bench -p queens-garden -- --warm-up-time 1 --measurement-time 3`.
//! Legal-move generation is timed on crowded positions (full storages, many payment choices);
//! playouts are uniform over the legal-move list, reported in moves per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use indigo_search::{
    Budget, Encoded as _, Evaluator as _, Game as _, NetEvaluator, Network, Puct, PuctConfig, Rng,
};
use pyrandom::PyRandom;
use queens_garden::bench::{crowded, midgame, opening, random_playout, searcher};
use queens_garden::{Position, Rules};
use rand::SeedableRng;

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

/// The shipped network's cost per leaf (its sparse first layer, and the dense loop it is
/// measured against) beside one playout's from the same mid-game position: what a PUCT
/// simulation pays for its evaluation instead of an ISMCTS playout.
fn net_leaf(c: &mut Criterion) {
    let network = Network::from_bytes(Position::DEFAULT_NETWORK).unwrap();
    let leaf = midgame(Rules::with_players(2).unwrap());
    let mut group = c.benchmark_group("net_leaf_2p");
    group.bench_function("network_sparse", |b| {
        let mut evaluator = NetEvaluator::new(&network);
        b.iter(|| evaluator.evaluate(black_box(std::slice::from_ref(&leaf))));
    });
    group.bench_function("network_dense", |b| {
        let mut evaluator = NetEvaluator::new(&network).dense();
        b.iter(|| evaluator.evaluate(black_box(std::slice::from_ref(&leaf))));
    });
    group.bench_function("playout", |b| {
        let mut rng = Rng::seed_from_u64(5);
        b.iter(|| {
            let mut p = leaf.clone();
            p.playout(&mut rng)
        });
    });
    group.finish();
}

/// One `net` search of 1000 simulations (the shipped network, batches of 8) from the same
/// mid-game position, in simulations per second: PUCT's cost per simulation, to set against
/// `net_leaf_2p/network_sparse` (the evaluator's share of it).
fn puct(c: &mut Criterion) {
    let network = Network::from_bytes(Position::DEFAULT_NETWORK).unwrap();
    let position = midgame(Rules::with_players(2).unwrap());
    let config = PuctConfig::default()
        .with_budget(Budget::Simulations(1000))
        .unwrap();
    let mut group = c.benchmark_group("puct_2p");
    group.throughput(Throughput::Elements(1000));
    group.sample_size(10);
    group.bench_function("net_midgame_1000_sims", |b| {
        let mut puct = Puct::new(config, 3);
        let mut evaluator = NetEvaluator::new(&network);
        b.iter(|| puct.search(black_box(&position), &mut evaluator).unwrap());
    });
    group.finish();
}

criterion_group!(benches, bench, net_leaf, puct);
criterion_main!(benches);
