//! A group baseline: `cargo run --release -p nbench --example baseline -- --bench`.
//!
//! Each member of the group is measured interleaved with the baseline,
//! sample by sample, and reported as a ratio to it with a 95 % CI; `*`
//! marks a difference the CI is sure of. `copy` runs the baseline's own
//! code, so its ratio should be 1 within its CI.

use nbench::{Registry, black_box};

fn shuffled(n: u32) -> Vec<u32> {
    (0..n).map(|i| i.wrapping_mul(2_654_435_761) % n).collect()
}

fn benches(r: &mut Registry) {
    let mut g = r.group("sort").args([100u32, 10_000]);
    g.bench("stable", |b, &n| {
        let v = shuffled(n);
        b.iter_batched(|| v.clone(), |mut v| v.sort())
    })
    .baseline();
    g.bench("unstable", |b, &n| {
        let v = shuffled(n);
        b.iter_batched(|| v.clone(), |mut v| v.sort_unstable())
    });
    g.bench("copy", |b, &n| {
        let v = shuffled(n);
        b.iter_batched(|| v.clone(), |mut v| v.sort())
    });
    g.bench("presorted", |b, &n| {
        let v: Vec<u32> = (0..black_box(n)).collect();
        b.iter_batched(|| v.clone(), |mut v| v.sort())
    });
}

nbench::main!(benches);
