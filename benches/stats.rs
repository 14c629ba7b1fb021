//! nbench's own statistics, benchmarked with nbench: what a summary costs per sample count.

use nbench::__private::stats::{Summary, t_quantile};
use nbench::{Registry, Throughput, black_box};

/// Deterministic, benchmark-like data: a base time with a long right tail.
fn samples(n: usize) -> Vec<f64> {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let u = (x >> 11) as f64 / (1u64 << 53) as f64;
            100.0 + 5.0 * u + if u > 0.98 { 80.0 * u } else { 0.0 }
        })
        .collect()
}

fn benches(r: &mut Registry) {
    r.group("summary")
        .args([100usize, 1_000, 10_000])
        .bench("new", |b, &n| {
            let data = samples(n);
            b.throughput(Throughput::Items(n as u64));
            b.iter(|| Summary::new(black_box(&data)))
        });
    r.group("t_quantile")
        .args([4.0f64, 30.0, 1000.0])
        .bench("0.975", |b, &df| {
            b.iter(|| t_quantile(0.975, black_box(df)))
        });
}

nbench::main!(benches);
