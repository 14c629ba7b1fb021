//! The cost of timing through criterion's API on nbench-criterion: the same
//! bodies as `front_end_native.rs`, with the same ids.

#[path = "front_end/bodies.rs"]
mod bodies;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    c.bench_function("front_end/empty", |b| b.iter(|| {}));
    c.bench_function("front_end/5ns", |b| {
        b.iter(|| bodies::five_ns(black_box(7)))
    });
}

criterion_group!(front_end, benches);
criterion_main!(front_end);
