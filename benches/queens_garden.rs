//! Criterion benches of the Queen's Garden engine. Run:
//! `cargo bench -p queens-garden -- --warm-up-time 1 --measurement-time 3`.

use criterion::{Criterion, criterion_group, criterion_main};

fn bench(_c: &mut Criterion) {}

criterion_group!(benches, bench);
criterion_main!(benches);
