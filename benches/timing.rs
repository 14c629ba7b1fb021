//! nbench's own timing loops, benchmarked with nbench: what each loop adds per iteration.

use nbench::{Bencher, Registry, black_box};
use std::time::{Duration, Instant};

fn benches(r: &mut Registry) {
    r.group("loop")
        .bench("iter", |b: &mut Bencher| b.iter(|| black_box(1u64)));
    r.group("loop").bench("iter_batched", |b: &mut Bencher| {
        b.iter_batched(|| 1u64, black_box)
    });
    r.group("loop").bench("iter_custom", |b: &mut Bencher| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for i in 0..iters {
                black_box(i);
            }
            start.elapsed()
        })
    });
    r.group("clock")
        .bench("instant_now", |b: &mut Bencher| b.iter(Instant::now));
    r.group("clock").bench("elapsed", |b: &mut Bencher| {
        let start = Instant::now();
        b.iter(|| start.elapsed())
    });
    r.group("clock")
        .bench("duration_as_nanos", |b: &mut Bencher| {
            let d = Duration::from_micros(1234);
            b.iter(|| black_box(d).as_nanos())
        });
}

nbench::main!(benches);
