//! What a benchmark's factory returns: the function to measure, erased.

use crate::metrics::Metric;
use std::hint::black_box;
use std::marker::PhantomData;
use std::time::Duration;

/// A benchmark's function, ready to measure.
///
/// A sampler tango's own `iter` made is timed by nbench's loop. One
/// written by hand is timed by its own [`ErasedSampler::measure`].
pub trait ErasedSampler {
    /// Runs `iterations` calls and returns the time they took, ns.
    fn measure(&mut self, iterations: usize) -> u64;

    /// How many calls fit in `time_ms` milliseconds, roughly.
    fn estimate_iterations(&mut self, time_ms: u32) -> usize {
        let per_call = self.measure(1).max(1_000);
        (u64::from(time_ms) * 1_000_000 / per_call) as usize
    }

    /// Times the sampler on nbench: by its own [`measure`](Self::measure)
    /// unless it is one tango's `iter` made.
    #[doc(hidden)]
    fn __time(&mut self, b: &mut nbench::Bencher<'_>) {
        b.iter_custom(|iters| Duration::from_nanos(self.measure(iters as usize)));
    }
}

/// The sampler [`Bencher::iter`](crate::Bencher::iter) makes.
pub(crate) struct Sampler<F, M> {
    func: F,
    metric: PhantomData<M>,
}

impl<F, M> Sampler<F, M> {
    pub(crate) fn new(func: F) -> Self {
        Sampler {
            func,
            metric: PhantomData,
        }
    }
}

impl<O, F: FnMut() -> O, M: Metric> ErasedSampler for Sampler<F, M> {
    fn measure(&mut self, iterations: usize) -> u64 {
        M::measure_fn(|| {
            for _ in 0..iterations {
                black_box((self.func)());
            }
        })
    }

    fn __time(&mut self, b: &mut nbench::Bencher<'_>) {
        M::__time(b, &mut self.func);
    }
}
