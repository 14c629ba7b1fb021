//! `Bencher`: what a benchmark function calls to have its routine timed.

use crate::engine::Measure;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Work done by one iteration, reported as a rate beside the time.
///
/// ```
/// # fn bench(b: &mut nbench::Bencher) {
/// let data = vec![0u8; 4096];
/// b.throughput(nbench::Throughput::Bytes(data.len() as u64));
/// b.iter(|| data.iter().map(|&x| x as u64).sum::<u64>());
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Throughput {
    /// Bytes processed per iteration (shown as KiB/s, MiB/s, GiB/s).
    Bytes(u64),
    /// Items processed per iteration (shown as elem/s, Kelem/s, …).
    Items(u64),
}

/// Which timing loop a benchmark used; decides whether loop overhead is subtracted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopKind {
    /// [`Bencher::iter`].
    Iter,
    /// [`Bencher::iter_batched`].
    Batched,
    /// [`Bencher::iter_custom`].
    Custom,
}

/// Whoever runs benchmark functions: decides what a timing call does
/// (measure fully, run once as a smoke test, follow a driver's commands).
pub(crate) trait Driver {
    fn drive(&mut self, kind: LoopKind, throughput: Option<Throughput>, m: &mut dyn Measure);
}

/// Handed to each benchmark function; call exactly one of its timing methods.
///
/// ```
/// fn bench(b: &mut nbench::Bencher) {
///     let v: Vec<u64> = (0..1000).collect();
///     b.iter(|| v.iter().sum::<u64>());
/// }
/// ```
pub struct Bencher<'a> {
    driver: &'a mut dyn Driver,
    pub(crate) throughput: Option<Throughput>,
    pub(crate) timed: u32,
}

impl<'a> Bencher<'a> {
    pub(crate) fn new(driver: &'a mut dyn Driver) -> Self {
        Bencher {
            driver,
            throughput: None,
            timed: 0,
        }
    }

    /// Declares the work one iteration does, to show a rate beside the time.
    pub fn throughput(&mut self, throughput: Throughput) -> &mut Self {
        self.throughput = Some(throughput);
        self
    }

    /// Times `routine`, called repeatedly in a tight loop. Its return value
    /// goes through [`black_box`] so the work cannot be optimised away; the
    /// drop of that value is timed too.
    ///
    /// ```
    /// # fn bench(b: &mut nbench::Bencher) {
    /// b.iter(|| (0..100u64).map(std::hint::black_box).sum::<u64>());
    /// # }
    /// ```
    pub fn iter<O, R: FnMut() -> O>(&mut self, routine: R) {
        self.timed += 1;
        self.driver
            .drive(LoopKind::Iter, self.throughput, &mut IterLoop(routine));
    }

    /// Times `routine` on inputs made by `setup`, which runs outside the
    /// timing; dropping the inputs and outputs is kept out of the timing too.
    /// Inputs are made in batches of up to [`BATCH`](Self::BATCH) before each
    /// timed stretch.
    ///
    /// ```
    /// # fn bench(b: &mut nbench::Bencher) {
    /// let data: Vec<u64> = (0..1000).rev().collect();
    /// b.iter_batched(|| data.clone(), |mut v| { v.sort_unstable(); v });
    /// # }
    /// ```
    pub fn iter_batched<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.timed += 1;
        let mut l = BatchedLoop {
            setup,
            routine,
            inputs: Vec::new(),
            outputs: Vec::new(),
        };
        self.driver
            .drive(LoopKind::Batched, self.throughput, &mut l);
    }

    /// Lets `routine` time `iters` iterations itself and return the elapsed
    /// time: for work that needs its own set-up around the timed part, or
    /// a clock other than the wall clock.
    ///
    /// ```
    /// # fn bench(b: &mut nbench::Bencher) {
    /// b.iter_custom(|iters| {
    ///     let start = std::time::Instant::now();
    ///     for i in 0..iters {
    ///         std::hint::black_box(i * 2);
    ///     }
    ///     start.elapsed()
    /// });
    /// # }
    /// ```
    pub fn iter_custom<R: FnMut(u64) -> Duration>(&mut self, routine: R) {
        self.timed += 1;
        self.driver
            .drive(LoopKind::Custom, self.throughput, &mut CustomLoop(routine));
    }

    /// Inputs made per timed stretch by [`iter_batched`](Self::iter_batched).
    pub const BATCH: u64 = 256;
}

struct IterLoop<R>(R);

impl<O, R: FnMut() -> O> Measure for IterLoop<R> {
    #[inline(never)]
    fn sample(&mut self, iters: u64) -> f64 {
        let start = Instant::now();
        for _ in 0..iters {
            black_box((self.0)());
        }
        start.elapsed().as_nanos() as f64
    }
}

struct BatchedLoop<S, R, I, O> {
    setup: S,
    routine: R,
    inputs: Vec<I>,
    outputs: Vec<O>,
}

impl<I, O, S: FnMut() -> I, R: FnMut(I) -> O> Measure for BatchedLoop<S, R, I, O> {
    #[inline(never)]
    fn sample(&mut self, iters: u64) -> f64 {
        let mut total = Duration::ZERO;
        let mut left = iters;
        while left > 0 {
            let n = left.min(Bencher::BATCH);
            left -= n;
            self.inputs.extend((0..n).map(|_| (self.setup)()));
            self.outputs.reserve(n as usize);
            let start = Instant::now();
            for input in self.inputs.drain(..) {
                self.outputs
                    .push(black_box((self.routine)(black_box(input))));
            }
            total += start.elapsed();
            self.outputs.clear();
        }
        total.as_nanos() as f64
    }
}

struct CustomLoop<R>(R);

impl<R: FnMut(u64) -> Duration> Measure for CustomLoop<R> {
    fn sample(&mut self, iters: u64) -> f64 {
        (self.0)(iters).as_nanos() as f64
    }
}

/// The cost of the `iter` loop itself per iteration, ns: the empty routine
/// measured with the same engine, subtracted from `iter` results.
pub(crate) fn empty_loop() -> impl Measure {
    IterLoop(|| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Record(Vec<(LoopKind, f64)>);
    impl Driver for Record {
        fn drive(&mut self, kind: LoopKind, _: Option<Throughput>, m: &mut dyn Measure) {
            let t = m.sample(1000);
            self.0.push((kind, t));
        }
    }

    #[test]
    fn each_loop_runs_the_routine_iters_times() {
        let mut d = Record(Vec::new());
        let mut calls = 0u64;
        let mut setups = 0u64;
        {
            let mut b = Bencher::new(&mut d);
            b.iter(|| calls += 1);
            b.iter_batched(|| setups += 1, |()| calls += 1);
            b.iter_custom(|iters| Duration::from_nanos(iters * 3));
            assert_eq!(b.timed, 3);
        }
        assert_eq!(calls, 2000);
        assert_eq!(setups, 1000);
        let kinds: Vec<_> = d.0.iter().map(|r| r.0).collect();
        assert_eq!(kinds, [LoopKind::Iter, LoopKind::Batched, LoopKind::Custom]);
        assert_eq!(d.0[2].1, 3000.0);
    }

    #[test]
    fn batched_drops_happen_outside_the_timing() {
        use std::cell::Cell;
        struct Slow<'a>(&'a Cell<u32>);
        impl Drop for Slow<'_> {
            fn drop(&mut self) {
                std::thread::sleep(Duration::from_millis(20));
                self.0.set(self.0.get() + 1);
            }
        }
        let drops = Cell::new(0);
        let mut l = BatchedLoop {
            setup: || Slow(&drops),
            routine: std::convert::identity,
            inputs: Vec::new(),
            outputs: Vec::new(),
        };
        let t = l.sample(5);
        assert_eq!(drops.get(), 5, "every output is dropped");
        // Five 20 ms drops inside the timing would make this ≥ 100 ms.
        assert!(t < 50e6, "{t} ns");
    }
}
