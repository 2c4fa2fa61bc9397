//! The `net` benches shared by both games' criterion benches (included with `#[path]`): the
//! shipped network's cost per leaf (its sparse first layer, the dense loop it is measured
//! against, one playout's from the same position: what a PUCT simulation pays for its
//! evaluation instead of an ISMCTS playout), and a whole `net` search's cost per simulation.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use indigo_search::{
    BotSpec, Budget, Encoded, Evaluator as _, Ismcts, IsmctsConfig, NetEvaluator, Network, Puct,
    PuctConfig, Rng,
};
use rand::SeedableRng;

/// Times `G`'s shipped network and a playout on `leaf` (group `net_leaf_2p`).
pub fn net_leaf<G: Encoded>(c: &mut Criterion, leaf: &G) {
    let network = Network::from_bytes(G::DEFAULT_NETWORK).unwrap();
    let mut group = c.benchmark_group("net_leaf_2p");
    group.bench_function("network_sparse", |b| {
        let mut evaluator = NetEvaluator::new(&network);
        b.iter(|| evaluator.evaluate(black_box(std::slice::from_ref(leaf))));
    });
    group.bench_function("network_dense", |b| {
        let mut evaluator = NetEvaluator::new(&network).dense();
        b.iter(|| evaluator.evaluate(black_box(std::slice::from_ref(leaf))));
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

/// One `net` search of 1000 simulations (`G`'s shipped network, batches of 8) from `position`,
/// in simulations per second (group `puct_2p`): to set against `net_leaf_2p/network_sparse`,
/// the evaluator's share of it; and the `net` bot's search of 8000 against ISMCTS's.
pub fn puct<G: Encoded>(c: &mut Criterion, position: &G) {
    let network = Network::from_bytes(G::DEFAULT_NETWORK).unwrap();
    let config = PuctConfig::default()
        .with_budget(Budget::Simulations(1000))
        .unwrap();
    let mut group = c.benchmark_group("puct_2p");
    group.throughput(Throughput::Elements(1000));
    group.sample_size(10);
    group.bench_function("net_midgame_1000_sims", |b| {
        let mut puct = Puct::new(config, 3);
        let mut evaluator = NetEvaluator::new(&network);
        b.iter(|| puct.search(black_box(position), &mut evaluator).unwrap());
    });
    // The `net` bot as its spec plays (the shipped network's settings), against ISMCTS at
    // the same simulations: the cost of a `net` simulation in ISMCTS ones.
    let BotSpec::Net(spec) = "net:8000".parse::<BotSpec>().unwrap() else {
        unreachable!("a net spec")
    };
    let config = spec.config_for(Some(&network));
    group.throughput(Throughput::Elements(8000));
    group.bench_function("net_bot_midgame_8000_sims", |b| {
        let mut puct = Puct::new(config, 3);
        let mut evaluator = NetEvaluator::new(&network);
        b.iter(|| puct.search(black_box(position), &mut evaluator).unwrap());
    });
    let ismcts = IsmctsConfig::new(Budget::Simulations(8000), 0.7, 1).unwrap();
    group.bench_function("ismcts_midgame_8000_sims", |b| {
        let mut bot = Ismcts::new(ismcts, 3);
        b.iter(|| bot.search(black_box(position)));
    });
    group.finish();
}
