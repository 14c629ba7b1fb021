//! A tour of the benchmark API: `cargo run --release -p nbench --example tour -- --bench`
//! (or `cargo run -p nbench --example tour` to run each benchmark once, as a test).

use nbench::{BatchSize, Bencher, Complexity, Counter, Registry, Throughput, black_box};
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

fn families(r: &mut Registry) {
    // Sizes 8, 64, 512, 4096, 8192 (powers of 8, as Google Benchmark's Range),
    // fitted to a complexity after measuring.
    r.group("sum")
        .range(8, 8 << 10)
        .complexity(Complexity::Auto)
        .bench("u64", |b, &n| {
            let v: Vec<u64> = (0..n).collect();
            b.throughput(Throughput::Items(n));
            b.iter(|| v.iter().sum::<u64>())
        });
    // Every combination of two lists, with named parameters: ids like
    // `transpose/naive/rows=64/cols=16`.
    r.group("transpose")
        .args_product(([16usize, 64], [16usize, 256]))
        .names(["rows", "cols"])
        .bench("naive", |b, &(rows, cols)| {
            let m = vec![1.0f32; rows * cols];
            b.counter(Counter::per_iteration("cells", (rows * cols) as f64));
            b.iter(|| {
                let mut t = vec![0.0f32; rows * cols];
                for (i, x) in m.iter().enumerate() {
                    t[(i % cols) * rows + i / cols] = *x;
                }
                t
            })
        });
    // Values without Display, named for the ids.
    let shuffled: Vec<u32> = (0..4096u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let sorted: Vec<u32> = (0..4096).collect();
    r.group("sort")
        .args_named([("shuffled", shuffled), ("sorted", sorted)])
        .bench("unstable", |b, v| {
            b.batch_size(BatchSize::Large)
                .iter_batched(|| v.clone(), |mut v| v.sort_unstable())
        });
}

/// A generic benchmark, registered once per map type.
fn lookup<M: FromIterator<(u32, u32)>>(b: &mut Bencher, get: fn(&M, u32) -> Option<u32>) {
    let map: M = (0..1000).map(|k| (k, k * 2)).collect();
    b.counter(Counter::rate("lookups", 1.0));
    b.iter(|| get(&map, black_box(777)))
}

fn hash_map(b: &mut Bencher) {
    lookup::<HashMap<u32, u32>>(b, |m, k| m.get(&k).copied());
}

fn btree_map(b: &mut Bencher) {
    lookup::<BTreeMap<u32, u32>>(b, |m, k| m.get(&k).copied());
}

fn sum_as<T: Copy + From<u8> + std::iter::Sum<T>>(b: &mut Bencher) {
    let v = [T::from(3u8); 1000];
    b.iter(|| v.iter().copied().sum::<T>())
}

fn types(r: &mut Registry) {
    let mut g = r.group("map");
    g.bench_typed::<HashMap<u32, u32>>("get", hash_map);
    g.bench_typed::<BTreeMap<u32, u32>>("get", btree_map);
    // One line for a list of types: ids `sum_as/vec/u32`, `…/u64`, `…/f64`.
    nbench::bench_types!(r.group("sum_as"), "vec", sum_as, [u32, u64, f64]);
}

fn steps(r: &mut Registry) {
    // Setup before the timing call and teardown after it run once per benchmark.
    r.bench("file/exists", |b| {
        let path = std::env::temp_dir().join(format!("nbench-tour-{}", std::process::id()));
        std::fs::write(&path, b"x").expect("temp dir is writable");
        b.iter(|| path.exists());
        let _ = std::fs::remove_file(&path);
    });
    // The routine's output checked once after measuring, outside the timing.
    r.bench("parse/csv", |b| {
        let line = "17,4,2025,ok";
        b.iter_checked(
            || line.split(',').count(),
            |n| match n {
                4 => Ok(()),
                n => Err(format!("{n} fields")),
            },
        )
    });
    // Skipped with a reason when the machine cannot run it.
    r.bench("simd/avx512", |b| {
        if !cfg!(target_feature = "avx512f") {
            return b.skip("built without AVX-512");
        }
        b.iter(|| black_box(1) + 1)
    });
    r.bench("slow/sleep", |b| {
        b.iter(|| std::thread::sleep(Duration::from_millis(10)))
    })
    .ignore();
}

/// The executor is yours to choose (`|f| tokio_runtime.block_on(f)`, …); this one polls until ready.
fn block_on(mut f: Pin<Box<dyn Future<Output = Duration> + '_>>) -> Duration {
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(d) = f.as_mut().poll(&mut cx) {
            return d;
        }
    }
}

fn futures(r: &mut Registry) {
    async fn checksum(data: &[u8]) -> u32 {
        data.iter().map(|&x| u32::from(x)).sum()
    }
    r.bench("async/checksum", |b| {
        let data = vec![7u8; 4096];
        b.throughput(Throughput::Bytes(data.len() as u64));
        b.iter_future(block_on, || checksum(&data))
    });
}

nbench::main!(families, types, steps, futures);
