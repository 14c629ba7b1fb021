//! Families fitted to a complexity: sorting (N log N), a binary search (log N), and a summary (N log N: it sorts).

use nbench::__private::stats::Summary;
use nbench::{Complexity, Registry, black_box};

/// Deterministic pseudo-random `u32`s (xorshift), so every run sorts the same input.
fn shuffled(n: usize) -> Vec<u32> {
    let mut x = 0x2545_f491_u32;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}

/// The sorting and searching families: 1 k to 64 k elements, doubling.
const LO: u64 = 1 << 10;
const HI: u64 = 1 << 16;

fn benches(r: &mut Registry) {
    let mut sort = r
        .group("sort")
        .range_by(LO, HI, 2)
        .complexity(Complexity::Auto);
    sort.bench("unstable", |b, &n| {
        let v = shuffled(n as usize);
        b.iter_batched(|| v.clone(), |mut v| v.sort_unstable());
    });
    sort.bench("stable", |b, &n| {
        let v = shuffled(n as usize);
        b.iter_batched(|| v.clone(), |mut v| v.sort());
    });
    r.group("search")
        .range_by(LO, HI, 2)
        .complexity(Complexity::Auto)
        .bench("binary", |b, &n| {
            let mut v = shuffled(n as usize);
            v.sort_unstable();
            let keys = shuffled(256);
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % keys.len();
                v.binary_search(black_box(&keys[i])).is_ok()
            });
        });
    r.group("summary")
        .range_by(1 << 8, 1 << 14, 4)
        .complexity(Complexity::NLogN)
        .bench("samples", |b, &n| {
            let x: Vec<f64> = shuffled(n as usize).into_iter().map(f64::from).collect();
            b.iter(|| Summary::new(black_box(&x)).map(|s| s.median));
        });
}

nbench::main!(benches);
