//! Allocation counts beside the times: `cargo run --release -p nbench --example allocs -- --bench`.

use nbench::{CountingAlloc, Registry, black_box};
use std::alloc::System;

// Opt-in: without these two lines nothing is counted and no column appears.
#[global_allocator]
static ALLOC: CountingAlloc<System> = CountingAlloc::new(System);

fn benches(r: &mut Registry) {
    r.group("collect")
        .args([10usize, 1000])
        .bench("vec", |b, &n| {
            // No capacity hint from `filter`: the vector grows by reallocation.
            b.iter(|| (0..black_box(n)).filter(|i| i % 3 != 0).collect::<Vec<_>>())
        });
    r.group("collect")
        .args([10usize, 1000])
        .bench("presized", |b, &n| {
            b.iter(|| {
                let mut v = Vec::with_capacity(n);
                v.extend((0..black_box(n)).filter(|i| i % 3 != 0));
                v
            })
        });
    r.bench("format", |b| {
        b.iter(|| format!("{}-{}", black_box(17), black_box("x")))
    });
}

nbench::main!(benches);
