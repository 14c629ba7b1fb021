//! The timing loops behind `Bencher`'s methods, each a [`Measure`] the engine samples.

use crate::engine::Measure;
use std::future::Future;
use std::hint::black_box;
use std::pin::Pin;
use std::time::{Duration, Instant};

/// A future handed to the user's `block_on`: one sample's loop, returning its elapsed time.
pub type SampleFuture<'f> = Pin<Box<dyn Future<Output = Duration> + 'f>>;

pub(crate) struct IterLoop<R>(pub R);

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

pub(crate) struct BatchedLoop<S, R, I, O> {
    pub setup: S,
    pub routine: R,
    /// Inputs made before each timed stretch.
    pub batch: u64,
    pub inputs: Vec<I>,
    pub outputs: Vec<O>,
}

impl<I, O, S: FnMut() -> I, R: FnMut(I) -> O> Measure for BatchedLoop<S, R, I, O> {
    #[inline(never)]
    fn sample(&mut self, iters: u64) -> f64 {
        let mut total = Duration::ZERO;
        let mut left = iters;
        while left > 0 {
            let n = left.min(self.batch);
            left -= n;
            let (counting, counted) = (crate::alloc::pause(), crate::counting::pause());
            self.inputs.extend((0..n).map(|_| (self.setup)()));
            self.outputs.reserve(n as usize);
            crate::counting::resume(counted);
            crate::alloc::resume(counting);
            let start = Instant::now();
            for input in self.inputs.drain(..) {
                self.outputs
                    .push(black_box((self.routine)(black_box(input))));
            }
            total += start.elapsed();
            let (counting, counted) = (crate::alloc::pause(), crate::counting::pause());
            self.outputs.clear();
            crate::counting::resume(counted);
            crate::alloc::resume(counting);
        }
        total.as_nanos() as f64
    }
}

pub(crate) struct CustomLoop<R>(pub R);

impl<R: FnMut(u64) -> Duration> Measure for CustomLoop<R> {
    fn sample(&mut self, iters: u64) -> f64 {
        (self.0)(iters).as_nanos() as f64
    }
}

pub(crate) struct FutureLoop<B, R> {
    pub block_on: B,
    pub routine: R,
}

impl<B, R, F> Measure for FutureLoop<B, R>
where
    B: for<'f> FnMut(SampleFuture<'f>) -> Duration,
    R: FnMut() -> F,
    F: Future,
{
    fn sample(&mut self, iters: u64) -> f64 {
        let routine = &mut self.routine;
        // The clock starts inside the executor, so entering it is not timed.
        let lap = Box::pin(async move {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(routine().await);
            }
            start.elapsed()
        });
        (self.block_on)(lap).as_nanos() as f64
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
            batch: 256,
            inputs: Vec::new(),
            outputs: Vec::new(),
        };
        let t = l.sample(5);
        assert_eq!(drops.get(), 5, "every output is dropped");
        // Five 20 ms drops inside the timing would make this ≥ 100 ms.
        assert!(t < 50e6, "{t} ns");
    }

    #[test]
    fn batches_hold_at_most_the_batch_size() {
        use std::cell::Cell;
        // Inputs made but not yet consumed, and the most there ever were.
        let (pending, most, made) = (Cell::new(0u64), Cell::new(0u64), Cell::new(0u64));
        let mut l = BatchedLoop {
            setup: || {
                pending.set(pending.get() + 1);
                made.set(made.get() + 1);
                most.set(most.get().max(pending.get()));
            },
            routine: |()| pending.set(0),
            batch: 16,
            inputs: Vec::new(),
            outputs: Vec::new(),
        };
        for iters in [1, 16, 17, 100] {
            l.sample(iters);
        }
        assert_eq!(made.get(), 1 + 16 + 17 + 100);
        assert_eq!(most.get(), 16);
    }
}
