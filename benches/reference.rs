//! The eight reference workloads nbench's engine is tuned and checked against.
//!
//! `cargo xtask reference` runs them and reports total time, the empty
//! body's time and the sum2000 / sum1000 ratio; `cargo xtask stability`
//! how far their numbers move from run to run.

use nbench::{Registry, Throughput, black_box};

fn sum(v: &[u64]) -> u64 {
    v.iter().map(|&x| black_box(x)).sum()
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn fib(n: u64) -> u64 {
    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
}

/// A tag `cargo xtask stability` builds in to stand for a new build of
/// unchanged code (as after an edit elsewhere): another executable, the
/// same workloads.
const BUILD: &str = match option_env!("NBENCH_REFERENCE_BUILD") {
    Some(tag) => tag,
    None => "",
};

fn benches(r: &mut Registry) {
    black_box(BUILD);
    r.bench("empty", |b| b.iter(|| {}));
    r.group("sum")
        .args([16u64, 1000, 2000])
        .bench("u64", |b, &n| {
            let v: Vec<u64> = (0..n).collect();
            b.throughput(Throughput::Items(n));
            b.iter(|| sum(&v))
        });
    r.bench("fnv1a/4KiB", |b| {
        let data: Vec<u8> = (0..4096u32).map(|i| i as u8).collect();
        b.throughput(Throughput::Bytes(data.len() as u64));
        b.iter(|| fnv1a(black_box(&data)))
    });
    r.bench("vec_push/1000", |b| {
        b.iter(|| {
            let mut v = Vec::new();
            for i in 0..1000u64 {
                v.push(black_box(i));
            }
            v
        })
    });
    r.bench("fib/20", |b| b.iter(|| fib(black_box(20))));
    r.bench("sort_unstable/1000", |b| {
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let data: Vec<u64> = (0..1000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            })
            .collect();
        b.iter_batched(
            || data.clone(),
            |mut v| {
                v.sort_unstable();
                v
            },
        )
    });
}

nbench::main!(benches);
