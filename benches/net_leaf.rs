//! The shipped network's cost per leaf, shared by both games' criterion benches (included with
//! `#[path]`): its sparse first layer and the dense loop it is measured against, beside one
//! playout's from the same mid-game position, which is what a PUCT simulation pays for its
//! evaluation instead of an ISMCTS playout.

use std::hint::black_box;

use criterion::Criterion;
use indigo_search::{Encoded, Evaluator as _, NetEvaluator, Network, Rng};
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
