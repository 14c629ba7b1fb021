//! `Bencher` and `AsyncBencher`: criterion's timing methods, each one call of nbench's.

use crate::BatchSize;
use crate::async_executor::AsyncExecutor;
use crate::measurement::{Measurement, WallTime, as_duration};
use std::future::Future;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// What a benchmark's closure receives: call one of its timing methods.
///
/// Unlike criterion, which calls the closure many times with growing
/// iteration counts, nbench calls it once; the timing method samples the
/// routine as often as nbench's engine (or `cargo nbench`, in lockstep
/// with another build) asks.
///
/// A closure that calls timing methods more than once is timed by its
/// first call; each later call runs its routine once, untimed, and a note
/// says so. (criterion keeps the last call's time: either way one routine
/// of several is timed. Give each its own `bench_function` to time each.)
pub struct Bencher<'a, M = WallTime> {
    pub(crate) inner: &'a mut nbench::Bencher<'static>,
    pub(crate) measurement: &'a M,
    /// Timing calls made so far in this run of the closure.
    pub(crate) calls: u32,
}

// SAFETY: criterion's `Bencher` is `Send` where its measurement is `Sync`,
// and suites rely on it: paralight's runs `pool.install(|| b.iter(..))`,
// the closure and the `&mut Bencher` in it taken to a rayon thread while
// the calling thread waits. Moving `&mut` hands over exclusive use: what
// this one holds is reached only through it. nbench's `Bencher` holds
// plain data and a driver whose state is plain data, read-only settings
// and timers, and a channel over a `TcpStream`; the one driver that calls
// another benchmark's (not `Send`) function, a group baseline's, never
// drives a criterion suite, which has no group baselines. What it reads
// per thread (a thread CPU clock, a counting allocator's per-thread
// counts) then reads the thread it was taken to.
unsafe impl<M: Sync> Send for Bencher<'_, M> {}

/// Said when a closure calls a second timing method.
const LATER_CALLS: &str = "a benchmark that calls timing methods more than once is timed by the first call; the later ones run once, untimed (criterion timed the last): give each routine its own bench_function to time each";

impl<'a, M> Bencher<'a, M> {
    /// Counts a timing call; the second is said once. nbench times the
    /// first and runs each later one's routine once, untimed
    /// ([`nbench::__private::later_calls_run_once`]).
    pub(crate) fn count_call(&mut self) {
        self.calls += 1;
        if self.calls == 2 {
            crate::notice::once(LATER_CALLS);
        }
    }

    /// Times `routine`, called repeatedly in a tight loop; its output goes
    /// through `black_box` and its drop is timed.
    pub fn iter<O, R: FnMut() -> O>(&mut self, mut routine: R) {
        self.count_call();
        // By reference: a closure holding a large array is not copied down
        // the stack on its way (the time crate's hold megabytes).
        self.inner.iter(&mut routine);
    }

    /// Times `routine` on a fresh input from `setup` each call, one call per
    /// timed stretch (criterion's `BatchSize::PerIteration`).
    pub fn iter_with_setup<I, O, S, R>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.iter_batched(&mut setup, &mut routine, BatchSize::PerIteration);
    }

    /// Times `routine` with its outputs dropped outside the timing.
    pub fn iter_with_large_drop<O, R: FnMut() -> O>(&mut self, mut routine: R) {
        self.iter_batched(|| (), |_| routine(), BatchSize::SmallInput);
    }

    /// Times `routine` on inputs made by `setup` in batches (`size`); making
    /// the inputs and dropping inputs and outputs are not timed.
    pub fn iter_batched<I, O, S, R>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.count_call();
        self.inner
            .batch_size(size.as_nbench())
            .iter_batched(&mut setup, &mut routine);
    }

    /// [`iter_batched`](Self::iter_batched) with the routine taking its
    /// input by reference; the input is dropped outside the timing.
    pub fn iter_batched_ref<I, O, S, R>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> O,
    {
        let by_value = |mut input| {
            let out = routine(&mut input);
            (input, out)
        };
        self.iter_batched(&mut setup, by_value, size);
    }

    /// Times futures on `runner`, an [`AsyncExecutor`].
    pub fn to_async<'b, A: AsyncExecutor>(&'b mut self, runner: A) -> AsyncBencher<'a, 'b, A, M> {
        AsyncBencher { b: self, runner }
    }
}

/// The timing method that needs the measurement's own values: only for a
/// measurement with this crate's [`Measurement`] (one written for
/// criterion itself, as `CyclesPerByte`, takes the others).
impl<M: Measurement> Bencher<'_, M> {
    /// Lets `routine` time `iters` iterations itself and return the
    /// measured value (a `Duration` for wall time).
    pub fn iter_custom<R: FnMut(u64) -> M::Value>(&mut self, mut routine: R) {
        self.count_call();
        let m = self.measurement;
        self.inner
            .iter_custom(|iters| as_duration(m, &routine(iters)));
    }
}

/// [`Bencher`] for futures, from [`Bencher::to_async`]: the routine's
/// futures are awaited on the executor, with the clock started inside it.
pub struct AsyncBencher<'a, 'b, A: AsyncExecutor, M = WallTime> {
    b: &'b mut Bencher<'a, M>,
    runner: A,
}

impl<A: AsyncExecutor, M> AsyncBencher<'_, '_, A, M> {
    /// Times the future `routine` returns, awaited repeatedly.
    pub fn iter<O, R, F>(&mut self, mut routine: R)
    where
        R: FnMut() -> F,
        F: Future<Output = O>,
    {
        let runner = &self.runner;
        self.b.count_call();
        self.b
            .inner
            .iter_future(|sample| runner.block_on(sample), &mut routine);
    }

    /// [`Bencher::iter_with_setup`] for futures.
    pub fn iter_with_setup<I, O, S, R, F>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(&mut setup, &mut routine, BatchSize::PerIteration);
    }

    /// [`Bencher::iter_with_large_drop`] for futures.
    pub fn iter_with_large_drop<O, R, F>(&mut self, mut routine: R)
    where
        R: FnMut() -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(|| (), |_| routine(), BatchSize::SmallInput);
    }

    #[doc(hidden)]
    pub fn iter_with_large_setup<I, O, S, R, F>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(&mut setup, &mut routine, BatchSize::NumBatches(1));
    }

    /// [`Bencher::iter_batched`] for futures.
    pub fn iter_batched<I, O, S, R, F>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        let runner = &self.runner;
        self.b.count_call();
        let batch = size.as_nbench().inputs();
        self.b.inner.iter_custom(|iters| {
            in_batches(iters, batch, &mut setup, |inputs, outputs| {
                runner.block_on(async {
                    let start = Instant::now();
                    for input in inputs.drain(..) {
                        outputs.push(black_box(routine(black_box(input)).await));
                    }
                    start.elapsed()
                })
            })
        });
    }

    /// [`Bencher::iter_batched_ref`] for futures: the input is kept beside
    /// the output, and dropped with it outside the timing.
    pub fn iter_batched_ref<I, O, S, R, F>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(
            &mut setup,
            |mut input| {
                let future = routine(&mut input);
                async move { (future.await, input) }
            },
            size,
        );
    }
}

impl<A: AsyncExecutor, M: Measurement> AsyncBencher<'_, '_, A, M> {
    /// Lets the future `routine` returns time `iters` iterations itself.
    pub fn iter_custom<R, F>(&mut self, mut routine: R)
    where
        R: FnMut(u64) -> F,
        F: Future<Output = M::Value>,
    {
        self.b.count_call();
        let (runner, m) = (&self.runner, self.b.measurement);
        self.b
            .inner
            .iter_custom(|iters| as_duration(m, &runner.block_on(routine(iters))));
    }
}

/// Runs `iters` iterations in batches of at most `batch` inputs made by
/// `setup`; `timed` runs one batch and returns its time. Inputs and outputs
/// are made and dropped outside the timing.
fn in_batches<I, O>(
    iters: u64,
    batch: u64,
    setup: &mut impl FnMut() -> I,
    mut timed: impl FnMut(&mut Vec<I>, &mut Vec<O>) -> Duration,
) -> Duration {
    let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
    let mut total = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        let n = left.min(batch.max(1));
        left -= n;
        inputs.extend((0..n).map(|_| setup()));
        outputs.reserve(n as usize);
        total += timed(&mut inputs, &mut outputs);
        inputs.clear();
        outputs.clear();
    }
    total
}
