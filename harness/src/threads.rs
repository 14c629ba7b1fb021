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
    /// Workers that have passed the start of the current sample.
    arrived: AtomicUsize,
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
        let team = self.team;
        team.iters.store(iters, SeqCst);
        team.first_start.store(u64::MAX, SeqCst);
        team.last_end.store(0, SeqCst);
        team.arrived.store(0, SeqCst);
        team.start.wait();
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

impl Drop for TeamMeasure<'_> {
    fn drop(&mut self) {
        self.release();
    }
}

/// Runs `drive` with a [`Measure`] whose every sample runs the routine on
/// `threads` threads at once, each thread's routine made by `make(index)`
/// on that thread. A panic on a worker (in `make` or the routine) becomes
/// a panic of the caller, with the worker's message.
pub(crate) fn with_team<F, R, O>(threads: usize, make: &F, drive: impl FnOnce(&mut dyn Measure))
where
    F: Fn(usize) -> R + Sync,
    R: FnMut() -> O,
{
    let team = Team {
        start: Barrier::new(threads + 1),
        end: Barrier::new(threads + 1),
        iters: AtomicU64::new(0),
        threads,
        arrived: AtomicUsize::new(0),
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

/// A worker: builds its routine, then runs one loop per sample until stopped.
fn work<F, R, O>(index: usize, team: &Team, make: &F)
where
    F: Fn(usize) -> R + Sync,
    R: FnMut() -> O,
{
    let mut routine = match crate::catch::capture(|| make(index)) {
        Ok(r) => Some(r),
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
        team.arrived.fetch_add(1, SeqCst);
        let mut spins = 0u32;
        while team.arrived.load(SeqCst) < team.threads {
            spins += 1;
            // More threads than cores: let the others run to arrive.
            if spins % 1024 == 0 {
                std::thread::yield_now();
            }
            std::hint::spin_loop();
        }
        if let Some(r) = routine.as_mut() {
            let iters = team.iters.load(SeqCst);
            match crate::catch::capture(|| time_loop(r, iters, team.origin)) {
                Ok((start, end)) => {
                    team.first_start.fetch_min(start, SeqCst);
                    team.last_end.fetch_max(end, SeqCst);
                }
                Err(why) => {
                    team.fail(index, why);
                    routine = None;
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
        with_team(3, &make, |m| {
            m.sample(10);
            m.sample(5);
        });
        assert_eq!(calls.load(SeqCst), 3 * 15);
        let mut made = made.into_inner().unwrap();
        made.sort();
        assert_eq!(made, [0, 1, 2], "each thread made its routine once");
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
        with_team(2, &make, |m| t = m.sample(1));
        assert!(t >= 30e6, "{t} ns");
    }

    #[test]
    fn threads_run_at_the_same_time() {
        // Every thread waits at a barrier of its own inside the routine:
        // that only returns if all of them are in the routine at once.
        let inner = Barrier::new(4);
        let make = |_| || inner.wait();
        with_team(4, &make, |m| {
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
            with_team(3, &make, |m| {
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
