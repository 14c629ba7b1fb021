//! A benchmark with threads of its own runs on every CPU `cargo nbench` may
//! use, not on the one it pins bench processes to.
//!
//! `cargo nbench` pins both processes of a comparison to one CPU, so that
//! they run on the same core, and names in [`SPREAD_ENV`] the CPUs it had
//! before. On one CPU a benchmark's threads take turns: a sum on two
//! threads read 68.9 ns there and 32.4 ns on two CPUs, as `cargo bench`
//! runs it; tokio's multi-threaded runtime timed its workers queueing. So
//! where the benchmark runs on several threads
//! ([`Bencher::iter_threads`](crate::Bencher::iter_threads)) or its first
//! call ran work on another thread (a runtime or pool its setup made or its
//! first call made, a thread started by each call), every thread of it may
//! run on any of those CPUs until the timing ends; then they are pinned
//! back. Threads that merely exist do not count: a benchmark before it in
//! the process may have left some that are idle, or still on their way out.

use crate::affinity::Mask;
use crate::cpu::CpuTime;
use crate::engine::Measure;

/// The variable `cargo nbench` sets to the CPUs (`0,1,…`) a benchmark with
/// threads may spread over.
pub const SPREAD_ENV: &str = "NBENCH_SPREAD_CPUS";

/// While alive, this process's threads may run on the CPUs of
/// [`SPREAD_ENV`]; dropped, they are pinned back where they were.
struct Spread {
    home: Mask,
}

impl Spread {
    /// Spreads every thread over the CPUs of [`SPREAD_ENV`], where it
    /// names two or more and the calling thread's CPUs can be read.
    fn new() -> Option<Spread> {
        let wide = Mask::of(parse_cpus(&std::env::var(SPREAD_ENV).ok()?));
        if wide.cpus().len() < 2 {
            return None;
        }
        let home = Mask::current()?;
        wide.set_all();
        Some(Spread { home })
    }
}

impl Drop for Spread {
    fn drop(&mut self) {
        self.home.set_all();
    }
}

/// A benchmark's samples, taken with its process's threads spread over the
/// CPUs of [`SPREAD_ENV`] where the benchmark runs on threads of its own:
/// from the start where it runs on `threads` threads, else from its second
/// sample where the first ran work on other threads (a runtime its setup
/// made, a pool made the first time the routine asks for it, threads the
/// routine starts each time). Pinned back when dropped.
pub(crate) struct Spreading<'m> {
    inner: &'m mut dyn Measure,
    spread: Option<Spread>,
    watched: bool,
}

impl<'m> Spreading<'m> {
    pub fn new(inner: &'m mut dyn Measure, threads: usize) -> Self {
        // Threads ending (joined, their exit not done: the kernel lists them
        // a while, longer on a busy CPU) are not the benchmark's, and would
        // run beside its timing.
        let waited = std::time::Instant::now();
        while imp::count().is_some_and(|(_, ending)| ending > 0)
            && waited.elapsed() < std::time::Duration::from_secs(1)
        {
            std::thread::sleep(std::time::Duration::from_micros(20));
        }
        // Threads of the program's that run beside the benchmark (arc-swap's
        // contended rows spin while its reads are timed) take turns with it
        // on one CPU, and a sample short enough to fit in the benchmark's
        // turn saw none of them: each contended read timed as uncontended.
        // Counted under Valgrind, which runs one thread at a time, they
        // are left as they were.
        let beside = !crate::valgrind::running() && imp::others_running();
        let spread = if threads > 1 || beside {
            Spread::new()
        } else {
            None
        };
        Spreading {
            watched: spread.is_some(),
            spread,
            inner,
        }
    }
}

impl Measure for Spreading<'_> {
    fn sample(&mut self, iters: u64) -> f64 {
        if self.watched {
            return self.inner.sample(iters);
        }
        self.watched = true;
        let before = on_other_threads();
        let t = self.inner.sample(iters);
        // CPU time another thread surely used during the sample: the
        // harness runs no thread of its own.
        if let (Some([_, a]), Some([b, _])) = (before, on_other_threads())
            && b > a
        {
            self.spread = Spread::new();
        }
        t
    }
}

/// Bounds on the CPU time this process's threads but the calling one have
/// used (the ended ones' too), in nanoseconds: the process's clock read
/// between two readings of the thread's, which go on while it is read. The
/// narrowest of three reads: one read before a benchmark's first call ran
/// 7 µs wide at the median and up to 33 µs, later ones 1.5 µs, and a worker
/// thread may do less than that in one call (its work went unseen in 3 of
/// 320 processes with one read, none of 480 with three).
fn on_other_threads() -> Option<[u64; 2]> {
    let mut narrowest: Option<[u64; 2]> = None;
    for _ in 0..3 {
        let before = CpuTime::Thread.now_ns()?;
        let process = CpuTime::Process.now_ns()?;
        let after = CpuTime::Thread.now_ns()?;
        let read = [
            process.saturating_sub(after),
            process.saturating_sub(before),
        ];
        if narrowest.is_none_or(|n| read[1] - read[0] < n[1] - n[0]) {
            narrowest = Some(read);
        }
    }
    narrowest
}

/// The threads of this process that are not ending, where the platform says.
pub(crate) fn threads() -> Option<usize> {
    Some(imp::live()?.len())
}

/// The ids of this process's threads that are not ending, where the
/// platform says. A thread a scope waited for may still be listed for a
/// while after the scope ended: counting alone would take it for one
/// started later.
pub fn live_threads() -> Option<Vec<u32>> {
    imp::live()
}

/// Whether process `pid` keeps threads running while it waits: the rule
/// of [`Spreading`] for threads beside a benchmark, read from outside
/// (`cargo nbench` holds the idle side of a pair whose threads do).
pub fn keeps_threads_running(pid: u32) -> bool {
    imp::kept_running(&pid.to_string(), None)
}

/// The CPUs a list such as `0,1,4` names (anything else is left out).
fn parse_cpus(list: &str) -> Vec<usize> {
    list.split(',')
        .filter_map(|c| c.trim().parse().ok())
        .collect()
}

#[cfg(target_os = "linux")]
mod imp {
    /// One of this process's threads.
    struct Task {
        tid: u32,
        /// Joined, or returned from, with its exit not done (the kernel's
        /// `PF_EXITING`).
        ending: bool,
        /// Running or waiting for a CPU (state `R`).
        running: bool,
    }

    /// The ids of this process's threads that are not ending.
    pub fn live() -> Option<Vec<u32>> {
        let tasks = tasks("self")?.into_iter();
        Some(tasks.filter(|t| !t.ending).map(|t| t.tid).collect())
    }

    /// This process's threads, and how many of them are ending.
    pub fn count() -> Option<(usize, usize)> {
        let tasks = tasks("self")?;
        let ending = tasks.iter().filter(|t| t.ending).count();
        Some((tasks.len(), ending))
    }

    /// Whether threads of this process other than the calling one keep
    /// running ([`kept_running`]).
    pub fn others_running() -> bool {
        let this = std::fs::read_link("/proc/thread-self").ok();
        let this = (this.as_ref().and_then(|p| p.file_name()))
            .and_then(|t| t.to_str()?.parse::<u32>().ok());
        this.is_some() && kept_running("self", this)
    }

    /// Whether threads of process `pid` (`self`, or its number) but
    /// `except` keep running: some run or wait for a CPU, not ending, and
    /// in the [`WATCH`] that follows, while the calling thread sleeps, they
    /// run [`KEPT_RUNNING`] of it. A thread of the benchmark before, still
    /// on its way out (a scope waits for its threads' work, not their
    /// exit), runs for microseconds; one that spins beside the benchmark,
    /// the whole time it is let.
    pub fn kept_running(pid: &str, except: Option<u32>) -> bool {
        let Some(tasks) = tasks(pid) else {
            return false;
        };
        let running: Vec<(u32, u64)> = (tasks.iter())
            .filter(|t| t.running && !t.ending && Some(t.tid) != except)
            .filter_map(|t| Some((t.tid, ran_ns(pid, t.tid)?)))
            .collect();
        if running.is_empty() {
            return false;
        }
        std::thread::sleep(WATCH);
        let ran: u64 = (running.iter())
            .filter_map(|(tid, before)| Some(ran_ns(pid, *tid)?.saturating_sub(*before)))
            .sum();
        ran as f64 >= KEPT_RUNNING * WATCH.as_nanos() as f64
    }

    /// How long [`kept_running`] watches the threads it found running.
    const WATCH: std::time::Duration = std::time::Duration::from_millis(2);

    /// The share of [`WATCH`] they must run between them: spinning
    /// threads take all of it while the calling one sleeps, and a quarter
    /// leaves room for a busy machine.
    const KEPT_RUNNING: f64 = 0.25;

    /// The time thread `tid` of process `pid` has run, in nanoseconds.
    fn ran_ns(pid: &str, tid: u32) -> Option<u64> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/schedstat")).ok()?;
        stat.split_whitespace().next()?.parse().ok()
    }

    /// The threads of process `pid` (`self`, or its number).
    fn tasks(pid: &str) -> Option<Vec<Task>> {
        const PF_EXITING: u64 = 0x4;
        let mut tasks = Vec::new();
        for task in std::fs::read_dir(format!("/proc/{pid}/task"))
            .ok()?
            .flatten()
        {
            let name = task.file_name();
            let Some(tid) = name.to_str().and_then(|t| t.parse().ok()) else {
                continue;
            };
            // A thread gone since the listing is neither.
            let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
                continue;
            };
            // After the name in parentheses: state, ppid, pgrp, session,
            // tty, tpgid, flags.
            let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
            let mut fields = rest.split_whitespace();
            let running = fields.next() == Some("R");
            let flags: u64 = fields.nth(5)?.parse().ok()?;
            let ending = flags & PF_EXITING != 0;
            tasks.push(Task {
                tid,
                ending,
                running,
            });
        }
        Some(tasks)
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub fn live() -> Option<Vec<u32>> {
        None
    }

    pub fn others_running() -> bool {
        false
    }

    pub fn kept_running(_: &str, _: Option<u32>) -> bool {
        false
    }

    pub fn count() -> Option<(usize, usize)> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cpu_list_reads_as_cargo_nbench_writes_it() {
        assert_eq!(parse_cpus("0,1,4"), [0, 1, 4]);
        assert_eq!(parse_cpus(" 3 ,x,"), [3]);
        assert!(parse_cpus("").is_empty());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_thread_spinning_beside_this_one_is_seen_running_under_its_own_id() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let before = live_threads().unwrap();
        let (spinning, began) = (AtomicBool::new(true), AtomicBool::new(false));
        let (seen, started) = std::thread::scope(|s| {
            s.spawn(|| {
                began.store(true, Ordering::Relaxed);
                while spinning.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            });
            while !began.load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
            // On a machine busy with other tests, one watch may find the
            // spinner waiting for a CPU most of the time: a few are let.
            let seen = (0..10).any(|_| imp::others_running());
            let started = (live_threads().unwrap().into_iter()).any(|t| !before.contains(&t));
            spinning.store(false, Ordering::Relaxed);
            (seen, started)
        });
        assert!(seen && started, "running: {seen}, a new id: {started}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn work_on_another_thread_lifts_the_bounds_clear_of_the_last() {
        let [lo, hi] = on_other_threads().unwrap();
        assert!(lo <= hi);
        let spin = |ms| {
            let t = std::time::Instant::now();
            while t.elapsed() < std::time::Duration::from_millis(ms) {
                std::hint::black_box(0);
            }
        };
        std::thread::spawn(move || spin(2)).join().unwrap();
        let [after, _] = on_other_threads().unwrap();
        assert!(after > hi, "{after} not above {hi}");
    }
}
