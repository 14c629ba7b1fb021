//! The threaded timing loop: N worker threads released together by a barrier, each running the routine `iters` times.
//!
//! After the barrier, each thread spins until all have arrived, so they
//! start within a few hundred nanoseconds of each other rather than as the
//! scheduler wakes them one by one (tens of microseconds apart).
//! A sample is the span from the first thread starting its loop to the last
//! one finishing: threads that could not run at once (more threads than
//! cores) make it longer, as they should. Workers live for the whole
//! benchmark (one spawn, however many samples), each with the routine it
//! built itself (per-thread setup).
//!
//! A routine that takes inputs ([`Inputs`]) has each thread make its own
//! before every timed stretch, outside the timing: a sample is then one
//! stretch a batch, its time their sum, and the threads start each stretch
//! once all are ready, with the harness's counting paused meanwhile.

use crate::engine::Measure;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Barrier, Mutex};
use std::time::Instant;

/// What the coordinator and the workers share.
struct Team {
    /// Passed by every worker and the coordinator to start a sample (or to stop).
    start: Barrier,
    /// Passed when every worker has finished its loop.
    end: Barrier,
    iters: AtomicU64,
    threads: usize,
    /// Workers that have passed the start of the current stretch.
    arrived: AtomicUsize,
    /// Iterations a stretch runs at most: a batch of inputs, made before it.
    batch: u64,
    /// Whether workers ready their stretch ([`Turn::READIES`]) and then wait for `go`.
    readies: bool,
    /// Set once every worker is ready and counting is on again.
    go: AtomicBool,
    stop: AtomicBool,
    /// What the team's readings count from.
    origin: Instant,
    /// The earliest start and the latest end of the current sample, ns since `origin`.
    first_start: AtomicU64,
    last_end: AtomicU64,
    /// The first failure on a worker: its thread and message.
    failure: Mutex<Option<String>>,
    failed: AtomicBool,
}

impl Team {
    fn fail(&self, thread: usize, why: String) {
        let mut f = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        f.get_or_insert_with(|| format!("on thread {thread}: {why}"));
        self.failed.store(true, SeqCst);
    }
}

/// The coordinator's side: a [`Measure`] whose samples run on the team.
struct TeamMeasure<'t> {
    team: &'t Team,
    released: bool,
}

impl TeamMeasure<'_> {
    /// Lets the workers leave their loop; idempotent.
    fn release(&mut self) {
        if !std::mem::replace(&mut self.released, true) {
            self.team.stop.store(true, SeqCst);
            self.team.start.wait();
        }
    }
}

impl Measure for TeamMeasure<'_> {
    fn sample(&mut self, iters: u64) -> f64 {
        let mut left = iters;
        let mut total = 0.0;
        loop {
            let n = left.min(self.team.batch);
            left -= n;
            total += self.stretch(n);
            if left == 0 {
                return total;
            }
        }
    }
}

impl TeamMeasure<'_> {
    /// One stretch of `iters` iterations on every thread: from the first
    /// thread's start to the last one's end.
    fn stretch(&mut self, iters: u64) -> f64 {
        let team = self.team;
        team.iters.store(iters, SeqCst);
        team.first_start.store(u64::MAX, SeqCst);
        team.last_end.store(0, SeqCst);
        team.arrived.store(0, SeqCst);
        team.go.store(false, SeqCst);
        // What workers do to ready a stretch is not counted.
        let paused = team
            .readies
            .then(|| (crate::alloc::pause(), crate::counting::pause()));
        team.start.wait();
        if let Some((allocs, instructions)) = paused {
            spin_until(|| team.arrived.load(SeqCst) >= team.threads);
            crate::counting::resume(instructions);
            crate::alloc::resume(allocs);
            team.go.store(true, SeqCst);
        }
        team.end.wait();
        if team.failed.load(SeqCst) {
            // Free the workers first: unwinding while they wait at the barrier would hang.
            self.release();
            let why = team
                .failure
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            std::panic::resume_unwind(Box::new(why.unwrap_or_default()));
        }
        let (start, end) = (team.first_start.load(SeqCst), team.last_end.load(SeqCst));
        end.saturating_sub(start) as f64
    }
}

/// Spins until `done`, yielding now and then: with more threads than
/// cores, the others must run to get there.
fn spin_until(done: impl Fn() -> bool) {
    let mut spins = 0u32;
    while !done() {
        spins += 1;
        if spins % 1024 == 0 {
            std::thread::yield_now();
        }
        std::hint::spin_loop();
    }
}

impl Drop for TeamMeasure<'_> {
    fn drop(&mut self) {
        self.release();
    }
}

/// What a worker runs in each timed stretch of a sample.
pub(crate) trait Turn {
    /// Whether it readies each stretch ([`ready`](Self::ready)) before the
    /// team starts it.
    const READIES: bool = false;
    /// Readies a stretch of `iters` iterations, outside the timing.
    fn ready(&mut self, _iters: u64) {}
    /// Runs `iters` iterations; when they started and ended, ns since `origin`.
    fn run(&mut self, iters: u64, origin: Instant) -> (u64, u64);
}

/// A routine run as it is, `iters` times a stretch.
pub(crate) struct Each<R>(pub R);

impl<O, R: FnMut() -> O> Turn for Each<R> {
    fn run(&mut self, iters: u64, origin: Instant) -> (u64, u64) {
        time_loop(&mut self.0, iters, origin)
    }
}

/// A routine run on inputs `setup` makes on the worker's thread before
/// each stretch; the outputs are dropped before the next is made, outside
/// the timing too.
pub(crate) struct Inputs<'a, S, R, I, O> {
    pub setup: &'a S,
    pub routine: &'a R,
    pub inputs: Vec<I>,
    pub outputs: Vec<O>,
}

impl<I, O, S: Fn() -> I, R: Fn(I) -> O> Turn for Inputs<'_, S, R, I, O> {
    const READIES: bool = true;

    fn ready(&mut self, iters: u64) {
        self.outputs.clear();
        self.inputs.extend((0..iters).map(|_| (self.setup)()));
        self.outputs.reserve(iters as usize);
    }

    #[inline(never)]
    fn run(&mut self, _iters: u64, origin: Instant) -> (u64, u64) {
        let start = Instant::now();
        for input in self.inputs.drain(..) {
            self.outputs
                .push(black_box((self.routine)(black_box(input))));
        }
        let end = Instant::now();
        let since = |t: Instant| t.duration_since(origin).as_nanos() as u64;
        (since(start), since(end))
    }
}

/// Runs `drive` with a [`Measure`] whose every sample runs `threads`
/// threads at once, each with the [`Turn`] `make(index)` made on that
/// thread, in stretches of at most `batch` iterations. A panic on a worker
/// (in `make`, readying or running) becomes a panic of the caller, with
/// the worker's message.
pub(crate) fn with_team<F, W>(
    (threads, batch): (usize, u64),
    make: &F,
    drive: impl FnOnce(&mut dyn Measure),
) where
    F: Fn(usize) -> W + Sync,
    W: Turn,
{
    let team = Team {
        start: Barrier::new(threads + 1),
        end: Barrier::new(threads + 1),
        iters: AtomicU64::new(0),
        threads,
        arrived: AtomicUsize::new(0),
        batch: batch.max(1),
        readies: W::READIES,
        go: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        origin: Instant::now(),
        first_start: AtomicU64::new(u64::MAX),
        last_end: AtomicU64::new(0),
        failure: Mutex::new(None),
        failed: AtomicBool::new(false),
    };
    std::thread::scope(|s| {
        for index in 0..threads {
            let team = &team;
            std::thread::Builder::new()
                .name(format!("nbench-{index}"))
                .spawn_scoped(s, move || work(index, team, make))
                .expect("spawning a benchmark thread");
        }
        let mut m = TeamMeasure {
            team: &team,
            released: false,
        };
        drive(&mut m);
    });
}

/// A worker: makes its turn, then runs one stretch at each start until stopped.
fn work<F, W>(index: usize, team: &Team, make: &F)
where
    F: Fn(usize) -> W + Sync,
    W: Turn,
{
    let mut turn = match crate::catch::capture(|| make(index)) {
        Ok(t) => Some(t),
        Err(why) => {
            team.fail(index, why);
            None
        }
    };
    loop {
        team.start.wait();
        if team.stop.load(SeqCst) {
            return;
        }
        let iters = team.iters.load(SeqCst);
        let readied = match turn.as_mut() {
            Some(t) if W::READIES => crate::catch::capture(|| t.ready(iters)),
            _ => Ok(()),
        };
        if let Err(why) = readied {
            team.fail(index, why);
            turn = None;
        }
        team.arrived.fetch_add(1, SeqCst);
        if W::READIES {
            spin_until(|| team.go.load(SeqCst));
        } else {
            spin_until(|| team.arrived.load(SeqCst) >= team.threads);
        }
        if let Some(t) = turn.as_mut() {
            match crate::catch::capture(|| t.run(iters, team.origin)) {
                Ok((start, end)) => {
                    team.first_start.fetch_min(start, SeqCst);
                    team.last_end.fetch_max(end, SeqCst);
                }
                Err(why) => {
                    team.fail(index, why);
                    turn = None;
                }
            }
        }
        team.end.wait();
    }
}

/// Runs the loop; returns when it started and ended, ns since `origin`.
#[inline(never)]
fn time_loop<O>(routine: &mut impl FnMut() -> O, iters: u64, origin: Instant) -> (u64, u64) {
    let start = Instant::now();
    for _ in 0..iters {
        black_box(routine());
    }
    let end = Instant::now();
    let since = |t: Instant| t.duration_since(origin).as_nanos() as u64;
    (since(start), since(end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_thread_runs_every_sample_with_its_own_routine() {
        let calls = AtomicU64::new(0);
        let made = Mutex::new(Vec::new());
        let make = |i: usize| {
            made.lock().unwrap().push(i);
            || calls.fetch_add(1, SeqCst)
        };
        with_team((3, u64::MAX), &|i| Each(make(i)), |m| {
            m.sample(10);
            m.sample(5);
        });
        assert_eq!(calls.load(SeqCst), 3 * 15);
        let mut made = made.into_inner().unwrap();
        made.sort();
        assert_eq!(made, [0, 1, 2], "each thread made its routine once");
    }

    #[test]
    fn each_thread_makes_its_inputs_before_any_starts_and_drops_outputs_before_the_next() {
        // `s`: an input made; `r`: one run; `d`: an output dropped.
        let log = Mutex::new(String::new());
        struct Out<'a>(&'a Mutex<String>);
        impl Drop for Out<'_> {
            fn drop(&mut self) {
                self.0.lock().unwrap().push('d');
            }
        }
        let setup = || log.lock().unwrap().push('s');
        let routine = |()| {
            log.lock().unwrap().push('r');
            Out(&log)
        };
        let make = |_| Inputs {
            setup: &setup,
            routine: &routine,
            inputs: Vec::new(),
            outputs: Vec::new(),
        };
        // Two threads; a sample of 5 iterations in batches of 3: stretches
        // of 3 and 2 a thread.
        with_team((2, 3), &make, |m| {
            m.sample(5);
        });
        let log = log.into_inner().unwrap();
        let mut phases: Vec<String> = Vec::new();
        for c in log.chars() {
            match phases.last_mut() {
                Some(p) if (c == 'r') == p.starts_with('r') => p.push(c),
                _ => phases.push(c.to_string()),
            }
        }
        let count = |p: &str, c: char| p.chars().filter(|&x| x == c).count();
        let shape: Vec<(usize, usize, usize)> = (phases.iter())
            .map(|p| (count(p, 's'), count(p, 'r'), count(p, 'd')))
            .collect();
        assert_eq!(
            shape,
            [(6, 0, 0), (0, 6, 0), (4, 0, 6), (0, 4, 0), (0, 0, 4)],
            "{log}"
        );
    }

    #[test]
    fn a_sample_spans_the_first_start_to_the_last_end() {
        let make = |i: usize| {
            move || {
                std::thread::sleep(std::time::Duration::from_millis(if i == 1 {
                    30
                } else {
                    1
                }))
            }
        };
        let mut t = 0.0;
        with_team((2, u64::MAX), &|i| Each(make(i)), |m| t = m.sample(1));
        assert!(t >= 30e6, "{t} ns");
    }

    #[test]
    fn threads_run_at_the_same_time() {
        // Every thread waits at a barrier of its own inside the routine:
        // that only returns if all of them are in the routine at once.
        let inner = Barrier::new(4);
        let make = |_| || inner.wait();
        with_team((4, u64::MAX), &|i| Each(make(i)), |m| {
            m.sample(3);
        });
    }

    #[test]
    fn a_panic_on_a_worker_reaches_the_caller_and_frees_the_team() {
        let seen = AtomicUsize::new(0);
        let make = |i: usize| {
            let seen = &seen;
            move || {
                seen.fetch_add(1, SeqCst);
                assert!(i != 2, "thread two fails");
            }
        };
        let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            with_team((3, u64::MAX), &|i| Each(make(i)), |m| {
                loop {
                    m.sample(1);
                }
            })
        }));
        let why = *out.unwrap_err().downcast::<String>().unwrap();
        assert!(
            why.starts_with("on thread 2: ") && why.contains("thread two fails"),
            "{why}"
        );
        assert_eq!(
            seen.load(SeqCst),
            3,
            "one sample ran before the failure ended it"
        );
    }
}
