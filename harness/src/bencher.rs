//! `Bencher`: what a benchmark function calls to have its routine timed, and what it declares beside the time.

use crate::counter::Counter;
use crate::cpu::{Clocked, CpuTime};
use crate::engine::Measure;
use crate::loops::{BatchedLoop, CustomLoop, FutureLoop, IterLoop, SampleFuture};
use crate::throughput::Throughput;
use std::fmt::Display;
use std::future::Future;
use std::time::Duration;

/// How many inputs [`Bencher::iter_batched`] makes before each timed stretch.
///
/// Larger batches time longer stretches (the clock's cost is spread over
/// more calls); smaller ones hold fewer inputs in memory at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BatchSize {
    /// 256 inputs: for inputs that are cheap to hold (the default).
    #[default]
    Small,
    /// 16 inputs: for inputs of megabytes, which should not all live at once.
    Large,
    /// One input per timed call: each call is timed on its own, so the
    /// clock's cost (see `-v`) is part of every sample; for inputs so large
    /// that only one fits, or routines of milliseconds.
    PerIteration,
    /// This many inputs (at least one).
    Inputs(u64),
}

impl BatchSize {
    /// Inputs made before each timed stretch.
    pub fn inputs(self) -> u64 {
        match self {
            BatchSize::Small => 256,
            BatchSize::Large => 16,
            BatchSize::PerIteration => 1,
            BatchSize::Inputs(n) => n.max(1),
        }
    }
}

/// Which timing loop a benchmark used; decides whether loop overhead is subtracted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopKind {
    /// [`Bencher::iter`] or [`Bencher::iter_checked`].
    Iter,
    /// [`Bencher::iter_batched`].
    Batched,
    /// [`Bencher::iter_custom`].
    Custom,
    /// [`Bencher::iter_future`].
    Future,
    /// [`Bencher::iter_threads`].
    Threads,
}

/// What a benchmark function declared beside its routine.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Declared {
    /// Work per iteration.
    pub throughput: Option<Throughput>,
    /// User counters, in declaration order.
    pub counters: Vec<Counter>,
    /// What the samples measure (CPU time after [`Bencher::time_by_cpu`]).
    pub metric: crate::metric::Metric,
}

impl Declared {
    /// What `threads` threads together do per iteration: throughput and
    /// counters summed across them (counters marked
    /// [`averaged_over_threads`](Counter::averaged_over_threads) stay as declared).
    pub fn on_threads(&self, threads: usize) -> Declared {
        let n = threads as u64;
        Declared {
            throughput: self.throughput.map(|t| match t {
                Throughput::Bytes(b) => Throughput::Bytes(b * n),
                Throughput::Items(i) => Throughput::Items(i * n),
            }),
            counters: self
                .counters
                .iter()
                .map(|c| Counter {
                    value: if c.averaged {
                        c.value
                    } else {
                        c.value * n as f64
                    },
                    ..c.clone()
                })
                .collect(),
            metric: self.metric,
        }
    }
}

/// Whoever runs benchmark functions: decides what a timing call does
/// (measure fully, run once as a smoke test, follow a driver's commands).
pub(crate) trait Driver {
    fn drive(&mut self, kind: LoopKind, declared: &Declared, m: &mut dyn Measure);
}

/// Handed to each benchmark function; call exactly one of its timing methods
/// (or [`skip`](Self::skip)).
///
/// Code before the timing call is the benchmark's setup and code after it
/// its teardown: each runs once per benchmark (per parameter value), outside
/// the timing.
///
/// ```
/// fn bench(b: &mut nbench::Bencher) {
///     let dir = std::env::temp_dir().join("nbench-doc-setup"); // setup
///     std::fs::create_dir_all(&dir).unwrap();
///     b.iter(|| dir.join("x").exists());
///     std::fs::remove_dir_all(&dir).unwrap(); // teardown
/// }
/// ```
pub struct Bencher<'a> {
    driver: &'a mut dyn Driver,
    pub(crate) declared: Declared,
    batch: BatchSize,
    /// Threads the routine runs on ([`Group::threads`](crate::Group::threads)).
    pub(crate) threads: usize,
    /// A CPU clock to read beside the wall clock, and whether it drives sampling.
    clocks: Option<(CpuTime, bool)>,
    pub(crate) timed: u32,
    /// Whether timing calls after the first run their routine once, untimed
    /// ([`later_calls_run_once`]), where they would otherwise be misuse.
    pub(crate) later_run_once: bool,
    pub(crate) skipped: Option<String>,
    pub(crate) failure: Option<String>,
}

impl<'a> Bencher<'a> {
    pub(crate) fn new(driver: &'a mut dyn Driver) -> Self {
        Bencher {
            driver,
            declared: Declared::default(),
            batch: BatchSize::default(),
            threads: 1,
            clocks: None,
            timed: 0,
            later_run_once: false,
            skipped: None,
            failure: None,
        }
    }

    /// Declares the work one iteration does, to show a rate beside the time.
    pub fn throughput(&mut self, throughput: Throughput) -> &mut Self {
        self.declared.throughput = Some(throughput);
        self
    }

    /// Declares a counter shown beside the time (a counter of the same name
    /// is replaced); see [`Counter`].
    ///
    /// ```
    /// use nbench::Counter;
    /// # fn bench(b: &mut nbench::Bencher) {
    /// let words: Vec<&str> = "the quick brown fox".split(' ').collect();
    /// b.counter(Counter::value("words", words.len() as f64))
    ///     .counter(Counter::rate("lookups", 2.0));
    /// b.iter(|| (words.contains(&"fox"), words.contains(&"dog")));
    /// # }
    /// ```
    pub fn counter(&mut self, counter: Counter) -> &mut Self {
        let counters = &mut self.declared.counters;
        match counters.iter_mut().find(|c| c.name == counter.name) {
            Some(old) => *old = counter,
            None => counters.push(counter),
        }
        self
    }

    /// Measures CPU time beside wall time: a `cpu` column (the mean CPU
    /// time per iteration) next to the time, which stays the wall clock's.
    /// `CpuTime::Process` counts every thread of the process, for code that
    /// starts its own. Shown in fresh runs; a paired comparison compares
    /// the wall time only. Where the platform has no such clock, the
    /// benchmark fails saying so.
    ///
    /// ```
    /// use nbench::CpuTime;
    /// # fn bench(b: &mut nbench::Bencher) {
    /// b.cpu_time(CpuTime::Process).iter(|| {
    ///     std::thread::scope(|s| {
    ///         let h = s.spawn(|| (0..10_000u64).map(std::hint::black_box).sum::<u64>());
    ///         h.join().unwrap()
    ///     })
    /// });
    /// # }
    /// ```
    pub fn cpu_time(&mut self, clock: CpuTime) -> &mut Self {
        self.clocks = Some((clock, false));
        self.declared.metric = crate::metric::Metric::WallTime;
        self
    }

    /// Times the benchmark by a CPU clock instead of the wall clock: its
    /// samples, statistics and comparisons are CPU time (for code that
    /// waits, where the wall time would measure the waiting), and the wall
    /// time goes to a `wall` column. Time limits stay in wall time.
    ///
    /// ```
    /// use nbench::CpuTime;
    /// # fn bench(b: &mut nbench::Bencher) {
    /// b.time_by_cpu(CpuTime::Thread).iter(|| {
    ///     let v: Vec<u64> = (0..1000).collect();
    ///     std::thread::yield_now(); // time spent elsewhere is not counted
    ///     v.iter().sum::<u64>()
    /// });
    /// # }
    /// ```
    pub fn time_by_cpu(&mut self, clock: CpuTime) -> &mut Self {
        self.clocks = Some((clock, true));
        self.declared.metric = crate::metric::Metric::CpuTime;
        self
    }

    /// Sets how many inputs [`iter_batched`](Self::iter_batched) makes before
    /// each timed stretch.
    ///
    /// ```
    /// use nbench::BatchSize;
    /// # fn bench(b: &mut nbench::Bencher) {
    /// let big = vec![7u8; 8 << 20];
    /// b.batch_size(BatchSize::Large)
    ///     .iter_batched(|| big.clone(), |mut v| { v.sort_unstable(); v });
    /// # }
    /// ```
    pub fn batch_size(&mut self, batch: BatchSize) -> &mut Self {
        self.batch = batch;
        self
    }

    /// Skips the benchmark, with a reason shown in the report (a missing CPU
    /// feature, a file that is not there); call it instead of a timing method.
    ///
    /// ```
    /// # fn bench(b: &mut nbench::Bencher) {
    /// let Ok(corpus) = std::fs::read("benches/corpus.txt") else {
    ///     return b.skip("benches/corpus.txt is missing; see benches/README.md");
    /// };
    /// b.iter(|| corpus.iter().filter(|&&c| c == b'\n').count());
    /// # }
    /// ```
    pub fn skip(&mut self, reason: impl Display) {
        self.skipped = Some(reason.to_string());
    }

    /// Times `routine`, called repeatedly in a tight loop. Its return value
    /// goes through [`black_box`](std::hint::black_box) so the work cannot
    /// be optimised away; the drop of that value is timed too.
    ///
    /// ```
    /// # fn bench(b: &mut nbench::Bencher) {
    /// b.iter(|| (0..100u64).map(std::hint::black_box).sum::<u64>());
    /// # }
    /// ```
    pub fn iter<O, R: FnMut() -> O>(&mut self, routine: R) {
        self.time(LoopKind::Iter, &mut IterLoop(routine));
    }

    /// [`iter`](Self::iter), then a check of the routine's output: after
    /// measuring, outside the timing, the routine is called once more and
    /// `check` receives what it returns, by value (the output itself, not a
    /// reference to it); an `Err` fails the benchmark with its message
    /// (`check failed: …`). `cargo test --benches` runs the check too.
    ///
    /// ```
    /// # fn bench(b: &mut nbench::Bencher) {
    /// let text = "a,b,c";
    /// b.iter_checked(
    ///     || text.split(',').count(),
    ///     |n| if n == 3 { Ok(()) } else { Err(format!("{n} fields, expected 3")) },
    /// );
    /// # }
    /// ```
    pub fn iter_checked<O, R, C, E>(&mut self, mut routine: R, check: C)
    where
        R: FnMut() -> O,
        C: FnOnce(O) -> Result<(), E>,
        E: Display,
    {
        self.time(LoopKind::Iter, &mut IterLoop(&mut routine));
        // Only after the one timing call that was driven (a skip or misuse has no output to check).
        if self.drives() {
            if let Err(e) = check(routine()) {
                self.failure = Some(format!("check failed: {e}"));
            }
        }
    }

    /// Times `routine` on inputs made by `setup`, which runs outside the
    /// timing; dropping the inputs and outputs is kept out of the timing too.
    /// Inputs are made in batches ([`batch_size`](Self::batch_size)) before
    /// each timed stretch.
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
        let mut l = BatchedLoop {
            setup,
            routine,
            batch: self.batch.inputs(),
            inputs: Vec::new(),
            outputs: Vec::new(),
        };
        self.time(LoopKind::Batched, &mut l);
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
        self.time(LoopKind::Custom, &mut CustomLoop(routine));
    }

    /// Times the future `routine` returns, awaited `iters` times in a row
    /// inside one call of `block_on`, the executor of your choice: nbench
    /// depends on no async runtime. `block_on` receives a boxed future
    /// and returns its output, e.g. `|f| tokio_runtime.block_on(f)` or
    /// `|f| futures::executor::block_on(f)`. Entering the executor is not
    /// timed; the clock starts inside it.
    ///
    /// ```
    /// use std::task::{Context, Poll, Waker};
    /// // The smallest executor: polls until ready (enough for futures that never wait).
    /// fn block_on<T>(mut f: std::pin::Pin<Box<dyn Future<Output = T> + '_>>) -> T {
    ///     let mut cx = Context::from_waker(Waker::noop());
    ///     loop {
    ///         if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
    ///             return v;
    ///         }
    ///     }
    /// }
    /// async fn checksum(data: &[u8]) -> u32 {
    ///     data.iter().map(|&b| u32::from(b)).sum()
    /// }
    /// # fn bench(b: &mut nbench::Bencher) {
    /// let data = vec![1u8; 1024];
    /// b.iter_future(block_on, || checksum(&data));
    /// # }
    /// ```
    pub fn iter_future<B, R, F>(&mut self, block_on: B, routine: R)
    where
        B: for<'f> FnMut(SampleFuture<'f>) -> Duration,
        R: FnMut() -> F,
        F: Future,
    {
        self.time(LoopKind::Future, &mut FutureLoop { block_on, routine });
    }

    /// How many threads this benchmark runs on: 1, or one of the counts
    /// its group gave with [`Group::threads`](crate::Group::threads).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Times a routine run on [`threads`](Self::threads) threads at once
    /// (a benchmark of a group with [`Group::threads`](crate::Group::threads)):
    /// each thread calls `make(index)` once, outside the timing, to build
    /// its own routine (per-thread setup), then every sample starts all
    /// threads together, each running its routine `iters` times, and lasts
    /// from the first thread's start to the last one's finish. So the time
    /// per iteration is the time for every thread to do one (more threads
    /// than cores shows as such); throughput and counters are summed across
    /// threads.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU64, Ordering};
    /// let mut r = nbench::Registry::new();
    /// let shared = std::sync::Arc::new(AtomicU64::new(0));
    /// r.group("counter").threads([1, 2, 4]).bench("fetch_add", move |b| {
    ///     let shared = &shared;
    ///     b.iter_threads(|_thread| || shared.fetch_add(1, Ordering::Relaxed));
    /// });
    /// assert_eq!(r.ids(), ["counter/fetch_add/threads=1", "counter/fetch_add/threads=2", "counter/fetch_add/threads=4"]);
    /// ```
    pub fn iter_threads<F, R, O>(&mut self, make: F)
    where
        F: Fn(usize) -> R + Sync,
        R: FnMut() -> O,
    {
        self.time_team(u64::MAX, &|i| crate::threads::Each(make(i)));
    }

    /// Times `routine` on [`threads`](Self::threads) threads at once, as
    /// [`iter_threads`](Self::iter_threads) does, each thread on inputs of
    /// its own made by `setup` outside the timing, in batches
    /// ([`batch_size`](Self::batch_size)) before each timed stretch; the
    /// outputs are dropped outside the timing too. The threads start each
    /// stretch together once all have made their inputs.
    ///
    /// ```
    /// let mut r = nbench::Registry::new();
    /// r.group("sort").threads([1, 2]).bench("1k", |b| {
    ///     let data: Vec<u32> = (0..1000).rev().collect();
    ///     b.iter_threads_batched(|| data.clone(), |mut v| { v.sort_unstable(); v });
    /// });
    /// assert_eq!(r.ids(), ["sort/1k/threads=1", "sort/1k/threads=2"]);
    /// ```
    pub fn iter_threads_batched<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: Fn() -> I + Sync,
        R: Fn(I) -> O + Sync,
    {
        let (setup, routine) = (&setup, &routine);
        self.time_team(self.batch.inputs(), &|_| crate::threads::Inputs {
            setup,
            routine,
            inputs: Vec::new(),
            outputs: Vec::new(),
        });
    }

    /// Drives a team of [`threads`](Self::threads) workers, each running
    /// the turn `make` makes on it, in stretches of at most `batch`.
    fn time_team<F, W>(&mut self, batch: u64, make: &F)
    where
        F: Fn(usize) -> W + Sync,
        W: crate::threads::Turn,
    {
        self.timed += 1;
        if self.drives() {
            self.declared = self.declared.on_threads(self.threads);
            // The coordinating thread only waits: its own CPU time says nothing.
            let clocks = self.clocks.map(|(_, drives)| (CpuTime::Process, drives));
            let (driver, declared, threads) = (&mut *self.driver, &self.declared, self.threads);
            let mut out = Ok(None);
            crate::threads::with_team((threads, batch), make, |m| {
                out = drive(driver, clocks, threads, LoopKind::Threads, declared, m);
            });
            self.record(out);
        }
    }

    fn time(&mut self, kind: LoopKind, m: &mut dyn Measure) {
        self.timed += 1;
        if self.drives() {
            if self.threads > 1 {
                self.failure = Some(format!(
                    "registered for {} threads: time it with iter_threads",
                    self.threads
                ));
                return;
            }
            let out = drive(&mut *self.driver, self.clocks, 1, kind, &self.declared, m);
            self.record(out);
        } else if self.later_run_once && self.skipped.is_none() {
            // Through the loop a timed call runs in, which has a frame of
            // its own: a routine whose frame holds megabytes (the time
            // crate's copy whole arrays) is not inlined into the caller's.
            m.sample(1);
        }
    }

    /// Whether the timing call just counted is the one to drive: the
    /// first, and not after a skip (more are misuse, reported by the guard).
    fn drives(&self) -> bool {
        self.timed == 1 && self.skipped.is_none()
    }

    /// Keeps the other clock's column, or the reason the clock failed.
    fn record(&mut self, out: Result<Option<Counter>, String>) {
        match out {
            Ok(other) => self.declared.counters.extend(other),
            Err(why) => self.failure = Some(why),
        }
    }
}

/// Lets timing calls after the first run their routine once, untimed,
/// rather than fail the benchmark as misuse: a front end whose original
/// accepts several (criterion's closures may call `iter` once per input).
pub fn later_calls_run_once(b: &mut Bencher) {
    b.later_run_once = true;
}

/// Skips the benchmark, for `reason`, where its function returned without
/// calling a timing method or `skip` (and did not fail): for a front end
/// whose original leaves such a benchmark out with a warning (divan),
/// rather than fail it as misuse.
pub fn skip_if_untimed(b: &mut Bencher, reason: &str) {
    if b.timed == 0 && b.skipped.is_none() && b.failure.is_none() {
        b.skip(reason);
    }
}

/// Hands `m`, run on `threads` threads, to the driver, read by a CPU clock
/// too when `clocks` asks; returns the other clock's column. A benchmark
/// with threads runs on every CPU `cargo nbench` may use meanwhile
/// ([`crate::spread`]), and its stdout may go to `/dev/null` ([`crate::quiet`]).
fn drive(
    driver: &mut dyn Driver,
    clocks: Option<(CpuTime, bool)>,
    threads: usize,
    kind: LoopKind,
    declared: &Declared,
    m: &mut dyn Measure,
) -> Result<Option<Counter>, String> {
    let _quiet = crate::quiet::Quiet::new();
    let mut spreading = crate::spread::Spreading::new(m, threads);
    let m: &mut dyn Measure = &mut spreading;
    let Some((cpu, cpu_drives)) = clocks else {
        driver.drive(kind, declared, m);
        return Ok(None);
    };
    if cpu.now_ns().is_none() {
        return Err(format!(
            "this platform has no {} CPU-time clock for nbench to read",
            cpu.name()
        ));
    }
    let mut clocked = Clocked::new(m, cpu, cpu_drives);
    driver.drive(kind, declared, &mut clocked);
    Ok(clocked.other())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Record(Vec<(LoopKind, f64, Declared)>);
    impl Driver for Record {
        fn drive(&mut self, kind: LoopKind, declared: &Declared, m: &mut dyn Measure) {
            let t = m.sample(1000);
            self.0.push((kind, t, declared.clone()));
        }
    }

    #[test]
    fn each_loop_runs_the_routine_iters_times() {
        let calls = std::cell::Cell::new(0u64);
        let bump = || calls.set(calls.get() + 1);
        let mut setups = 0u64;
        let mut kinds = Vec::new();
        let mut run = |f: &mut dyn FnMut(&mut Bencher)| {
            let mut d = Record(Vec::new());
            f(&mut Bencher::new(&mut d));
            kinds.push(d.0[0].0);
            d.0.remove(0)
        };
        run(&mut |b| b.iter(bump));
        run(&mut |b| b.iter_batched(|| setups += 1, |()| bump()));
        let custom = run(&mut |b| b.iter_custom(|iters| Duration::from_nanos(iters * 3)));
        run(&mut |b| b.iter_future(|f| poll_once(f), || async { bump() }));
        assert_eq!(calls.get(), 3000);
        assert_eq!(setups, 1000);
        assert_eq!(
            kinds,
            [
                LoopKind::Iter,
                LoopKind::Batched,
                LoopKind::Custom,
                LoopKind::Future
            ]
        );
        assert_eq!(custom.1, 3000.0);
    }

    fn poll_once(mut f: SampleFuture<'_>) -> Duration {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match f.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(d) => d,
            std::task::Poll::Pending => panic!("the sample future never waits by itself"),
        }
    }

    #[test]
    fn only_the_first_timing_call_is_driven_and_skip_drives_none() {
        let mut d = Record(Vec::new());
        let mut b = Bencher::new(&mut d);
        b.counter(Counter::value("a", 1.0))
            .counter(Counter::rate("b", 2.0))
            .counter(Counter::value("a", 3.0));
        b.iter(|| ());
        b.iter(|| ());
        assert_eq!(b.timed, 2);
        drop(b);
        assert_eq!(d.0.len(), 1);
        let names: Vec<_> = d.0[0]
            .2
            .counters
            .iter()
            .map(|c| (&*c.name, c.value))
            .collect();
        assert_eq!(names, [("a", 3.0), ("b", 2.0)], "a replaced in place");

        let mut d = Record(Vec::new());
        let mut b = Bencher::new(&mut d);
        b.skip("no AVX2");
        b.iter(|| ());
        assert_eq!(b.skipped.as_deref(), Some("no AVX2"));
        drop(b);
        assert!(d.0.is_empty());
    }

    #[test]
    fn a_failed_check_is_recorded_with_its_message() {
        let mut d = Record(Vec::new());
        let mut b = Bencher::new(&mut d);
        let mut n = 0;
        b.iter_checked(
            || {
                n += 1;
                n
            },
            |last| {
                if last == 1 {
                    Ok(())
                } else {
                    Err(format!("got {last}"))
                }
            },
        );
        // The check saw the call after the 1000 timed ones.
        assert_eq!(b.failure.as_deref(), Some("check failed: got 1001"));
    }
}
