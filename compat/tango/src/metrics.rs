//! What a benchmark is timed by: the wall clock, or the thread's CPU time.

use std::time::{Duration, Instant};

/// A clock a benchmark is timed by.
pub trait Metric {
    /// How long `f` took, ns.
    fn measure_fn(f: impl FnMut()) -> u64;

    /// Times `f` on nbench by this metric. A metric written by hand is
    /// read around each stretch of calls.
    #[doc(hidden)]
    fn __time<O>(b: &mut nbench::Bencher<'_>, mut f: impl FnMut() -> O)
    where
        Self: Sized,
    {
        b.iter_custom(|iters| {
            let ns = Self::measure_fn(|| {
                for _ in 0..iters {
                    std::hint::black_box(f());
                }
            });
            Duration::from_nanos(ns)
        });
    }
}

/// The wall clock: nbench's own timing.
pub struct WallClock;

impl Metric for WallClock {
    fn measure_fn(mut f: impl FnMut()) -> u64 {
        let start = Instant::now();
        f();
        start.elapsed().as_nanos() as u64
    }

    fn __time<O>(b: &mut nbench::Bencher<'_>, f: impl FnMut() -> O) {
        b.iter(f);
    }
}

/// The CPU time of the thread that runs the benchmark: nbench's
/// `time_by_cpu(CpuTime::Thread)`, the wall time beside it.
pub struct CpuTime;

impl Metric for CpuTime {
    fn measure_fn(mut f: impl FnMut()) -> u64 {
        let clock = nbench::CpuTime::Thread;
        let start = clock.now_ns();
        f();
        match (start, clock.now_ns()) {
            (Some(start), Some(end)) => end.saturating_sub(start),
            _ => 0,
        }
    }

    fn __time<O>(b: &mut nbench::Bencher<'_>, f: impl FnMut() -> O) {
        b.time_by_cpu(nbench::CpuTime::Thread).iter(f);
    }
}
