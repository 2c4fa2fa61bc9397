//! Criterion benches of Indigo's operations. Run: `cargo bench -p indigo-game --bench indigo`.
//! Throughput is reported in placements (elements) per second for the playout benches and in
//! simulations per second for the ISMCTS ones. `indigo bench` times the same workloads from
//! Python; see docs/benchmarks.md.

#[path = "net_leaf.rs"]
mod shared;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::sync::atomic::{AtomicBool, AtomicU64};

use indigo_game::playouts;
use indigo_game::shuffled_pile;
use indigo_game::{Deal, IndigoSetup, Position, Rules};
use indigo_game::{random_placement, random_playout};
use indigo_search::{Batch, BotSpec, Budget, Ismcts, IsmctsConfig, Rng};
use rand::SeedableRng;

/// A position halfway through a seeded game: a typical mid-game legal-move set.
fn midgame(rules: Rules) -> Position {
    let mut p = Position::new(rules, &shuffled_pile(11)).unwrap();
    let mut rng = Rng::seed_from_u64(11);
    for _ in 0..20 {
        let Some(mv) = random_placement(&p, &mut rng) else {
            break;
        };
        p.play_unchecked(mv, &mut ());
    }
    p
}

fn bench(c: &mut Criterion) {
    let rules = Rules::indigo(2).unwrap();
    let start = Position::new(rules, &shuffled_pile(1)).unwrap();

    // Placements per playout, measured once so the throughput figure is exact.
    let mut rng = Rng::seed_from_u64(7);
    let mut total = 0u64;
    let games = 1000u64;
    for _ in 0..games {
        let mut p = start;
        total += u64::from(random_playout(&mut p, &mut rng));
    }
    let per_game = total / games;

    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(per_game));
    group.bench_function("random_2p_hand1", |b| {
        let mut rng = Rng::seed_from_u64(7);
        b.iter(|| {
            let mut p = start;
            black_box(random_playout(&mut p, &mut rng))
        });
    });
    // The `indigo bench` workload: fresh PCG deals, two seats of the playout policy, in a plain
    // loop and through the batch API on one thread (the same games: tested). Each iteration
    // plays new games: replaying the same ones would let the branch predictor learn them.
    let games = 200u64;
    let placements = playouts(rules, 2026, 0..100 * games).placements / 100;
    group.throughput(Throughput::Elements(placements));
    let mut next = 0u64;
    group.bench_function("bench_workload_200_games", |b| {
        b.iter(|| {
            next += games;
            playouts(rules, black_box(2026), next..next + games)
        });
    });
    let setup = IndigoSetup {
        rules,
        deal: Deal::Pcg,
    };
    let batch = Batch::new(setup, vec![BotSpec::Playout], None, 2026)
        .unwrap_or_else(|e| unreachable!("one bot for every seat: {e}"));
    group.bench_function("batch_200_games_1_thread", |b| {
        b.iter(|| {
            next += games;
            batch.run(
                next..next + games,
                1,
                &AtomicU64::new(0),
                &AtomicBool::new(false),
            )
        });
    });
    group.finish();

    let mid = midgame(rules);
    let mid2 = midgame(Rules::tactical(4).unwrap());
    c.bench_function("legal_moves/2p_hand1", |b| {
        b.iter(|| black_box(&mid).legal_moves().len());
    });
    c.bench_function("legal_moves/4p_hand2", |b| {
        b.iter(|| black_box(&mid2).legal_moves().len());
    });
    c.bench_function("for_each_legal/2p_hand1", |b| {
        b.iter(|| {
            let mut n = 0u32;
            black_box(&mid).for_each_legal(|_| n += 1);
            n
        });
    });
    let mv = mid.legal_moves()[mid.legal_moves().len() / 2];
    c.bench_function("play_checked", |b| {
        b.iter(|| {
            let mut p = *black_box(&mid);
            p.play(black_box(mv)).unwrap();
            p
        });
    });
    c.bench_function("clone_position", |b| b.iter(|| *black_box(&mid)));
    c.bench_function("legal_action_set/2p_hand1", |b| {
        b.iter(|| black_box(&mid).legal_action_set().len());
    });

    // One search of 1000 simulations from the opening (the longest playouts) and mid-game.
    let mut group = c.benchmark_group("ismcts");
    group.throughput(Throughput::Elements(1000));
    group.sample_size(20);
    for (name, position, threads) in [
        ("opening_2p_1000_sims", start, 1),
        ("midgame_2p_1000_sims", mid, 1),
        ("opening_2p_1000_sims_2_threads", start, 2),
    ] {
        let config = IsmctsConfig::new(Budget::Simulations(1000), 0.7, threads).unwrap();
        let mut bot = Ismcts::new(config, 3);
        group.bench_function(name, |b| b.iter(|| bot.search(black_box(&position))));
    }
    group.finish();
}

/// The shipped network's cost per leaf against a playout's, at a mid-game position.
fn net_leaf(c: &mut Criterion) {
    shared::net_leaf(c, &midgame(Rules::indigo(2).unwrap()));
}

/// One `net` search's cost per simulation from the same mid-game position.
fn puct(c: &mut Criterion) {
    shared::puct(c, &midgame(Rules::indigo(2).unwrap()));
}

criterion_group!(benches, bench, net_leaf, puct);
criterion_main!(benches);
