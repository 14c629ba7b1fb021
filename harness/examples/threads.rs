//! Threads and CPU clocks: `cargo run --release -p nbench --example threads -- --bench`.
//!
//! One shared atomic counter against one counter per thread, on 1, 2 and 4
//! threads: the shared one's cache line moves between cores on every
//! increment, so its time per iteration grows with the threads while the
//! sharded one's stays flat (and its total rate grows).

use nbench::{CpuTime, Registry, Throughput, black_box};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// One counter per cache line, so threads do not share lines.
#[repr(align(128))]
#[derive(Default)]
struct Padded(AtomicU64);

fn benches(r: &mut Registry) {
    let mut g = r.group("count").threads([1, 2, 4]);
    g.bench("shared", |b| {
        let shared = AtomicU64::new(0);
        b.throughput(Throughput::Items(1));
        b.iter_threads(|_| || shared.fetch_add(1, Relaxed));
    });
    g.bench("sharded", |b| {
        // Setup once per thread count: a counter for each thread.
        let counters: Vec<Padded> = (0..b.threads()).map(|_| Padded::default()).collect();
        b.throughput(Throughput::Items(1));
        b.iter_threads(|t| {
            let mine = &counters[t].0;
            move || mine.fetch_add(1, Relaxed)
        });
    });
    // Waiting costs wall time, not CPU time: the cpu column shows the difference.
    r.bench("wait/sleep", |b| {
        b.cpu_time(CpuTime::Thread)
            .iter(|| std::thread::sleep(Duration::from_micros(50)))
    });
    // Work on threads the routine starts: only the process clock sees it.
    r.bench("wait/spawned", |b| {
        b.cpu_time(CpuTime::Process).iter(|| {
            std::thread::scope(|s| {
                let h = s.spawn(|| (0..100_000u64).map(black_box).sum::<u64>());
                h.join().unwrap()
            })
        })
    });
}

nbench::main!(benches);
