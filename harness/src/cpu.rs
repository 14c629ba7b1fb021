//! CPU-time clocks (the calling thread's, the whole process's), and the wrapper that reads one beside the wall clock.

use crate::counter::Counter;
use crate::engine::Measure;

/// A CPU-time clock: time the CPU spent running code, not time passed.
///
/// ```
/// use nbench::CpuTime;
/// if let Some(start) = CpuTime::Thread.now_ns() {
///     let spin: u64 = (0..1_000_000u64).map(std::hint::black_box).sum();
///     assert!(CpuTime::Thread.now_ns().unwrap() > start, "{spin}");
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CpuTime {
    /// The CPU time of the thread that runs the routine (Google Benchmark's
    /// CPU column); on [`iter_threads`](crate::Bencher::iter_threads)
    /// benchmarks, the process's.
    Thread,
    /// The CPU time of the whole process, every thread counted: for code
    /// that starts threads of its own.
    Process,
}

impl CpuTime {
    /// The clock's reading, ns; `None` where the platform has no such clock
    /// (nbench reads them on Linux, Android, macOS and iOS).
    pub fn now_ns(self) -> Option<u64> {
        sys::read(self)
    }

    /// Lowercase name, as in messages.
    pub fn name(self) -> &'static str {
        match self {
            CpuTime::Thread => "thread",
            CpuTime::Process => "process",
        }
    }
}

#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "ios"
))]
mod sys {
    use super::CpuTime;
    use std::ffi::{c_int, c_long};

    /// `struct timespec`: `time_t` is a C `long` on every target listed above.
    #[repr(C)]
    struct Timespec {
        tv_sec: c_long,
        tv_nsec: c_long,
    }

    unsafe extern "C" {
        fn clock_gettime(clock: c_int, tp: *mut Timespec) -> c_int;
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    const IDS: (c_int, c_int) = (3, 2); // CLOCK_THREAD_CPUTIME_ID, CLOCK_PROCESS_CPUTIME_ID
    #[cfg(any(target_os = "macos", target_os = "ios"))]
    const IDS: (c_int, c_int) = (16, 12);

    pub fn read(clock: CpuTime) -> Option<u64> {
        let id = match clock {
            CpuTime::Thread => IDS.0,
            CpuTime::Process => IDS.1,
        };
        let mut t = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid, writable timespec for the call's duration.
        let ok = unsafe { clock_gettime(id, &mut t) } == 0;
        ok.then(|| t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64)
    }
}

#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "ios"
)))]
mod sys {
    pub fn read(_: super::CpuTime) -> Option<u64> {
        None
    }
}

/// A [`Measure`] that reads a CPU clock around each sample of another.
/// It returns the clock that drives sampling (CPU or wall) and adds up the
/// other one, which becomes a counter of kind `time`.
pub(crate) struct Clocked<'m> {
    pub inner: &'m mut dyn Measure,
    pub cpu: CpuTime,
    /// Whether the CPU time is the benchmark's time (else the wall time is).
    pub cpu_drives: bool,
    samples: u64,
    other: f64,
    other_iters: u64,
}

impl<'m> Clocked<'m> {
    pub fn new(inner: &'m mut dyn Measure, cpu: CpuTime, cpu_drives: bool) -> Self {
        Clocked {
            inner,
            cpu,
            cpu_drives,
            samples: 0,
            other: 0.0,
            other_iters: 0,
        }
    }

    /// The other clock's mean time per iteration over every sample but the
    /// first (cold) call, as a counter (`cpu` or `wall`); none without samples.
    pub fn other(&self) -> Option<Counter> {
        let name = if self.cpu_drives { "wall" } else { "cpu" };
        (self.other_iters > 0).then(|| Counter::time(name, self.other / self.other_iters as f64))
    }
}

impl Measure for Clocked<'_> {
    fn sample(&mut self, iters: u64) -> f64 {
        let read = || self.cpu.now_ns().unwrap_or(0);
        let before = read();
        let wall = self.inner.sample(iters);
        let cpu = read().saturating_sub(before) as f64;
        let (time, other) = if self.cpu_drives {
            (cpu, wall)
        } else {
            (wall, cpu)
        };
        self.samples += 1;
        if self.samples > 1 {
            self.other += other;
            self.other_iters += iters;
        }
        time
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sleeps (wall time, no CPU) and spins (both) in every sample: the spin
    /// lasts until this thread's own CPU clock has moved 1 ms per iteration,
    /// however busy the machine (a spin timed by the wall clock gets less CPU
    /// when other processes share the core).
    struct SleepAndSpin;
    impl Measure for SleepAndSpin {
        fn sample(&mut self, iters: u64) -> f64 {
            let start = std::time::Instant::now();
            std::thread::sleep(std::time::Duration::from_millis(2 * iters));
            let cpu = || CpuTime::Thread.now_ns().unwrap_or(0);
            let end = cpu() + iters * 1_000_000;
            while cpu() < end {}
            start.elapsed().as_nanos() as f64
        }
    }

    #[test]
    fn cpu_time_leaves_out_sleeping() {
        if CpuTime::Thread.now_ns().is_none() {
            return; // no CPU clock on this platform: nothing to compare
        }
        let mut m = SleepAndSpin;
        let mut c = Clocked::new(&mut m, CpuTime::Thread, true);
        c.sample(1); // cold: not part of the other clock's mean
        let cpu = c.sample(4);
        let wall = c.other().unwrap();
        assert_eq!(wall.name, "wall");
        // 4 ms of spinning and 8 of sleep: the CPU clock sees the 4, not the
        // 12. On a busy VM the spin may end late (time the host took the CPU
        // away can count as the thread's), but never by the sleep: the wall
        // clock saw the sleep and every nanosecond of the spin.
        let elapsed = 4.0 * wall.value;
        assert!(cpu >= 3.9e6, "{cpu}");
        assert!(cpu <= elapsed - 7.5e6, "{cpu} of {elapsed}");
    }

    #[test]
    fn the_other_clock_is_a_mean_per_iteration_without_the_first_call() {
        struct Fixed;
        impl Measure for Fixed {
            fn sample(&mut self, iters: u64) -> f64 {
                iters as f64 * 10.0
            }
        }
        let mut m = Fixed;
        let mut c = Clocked::new(&mut m, CpuTime::Process, false);
        assert_eq!(c.sample(1), 10.0);
        assert!(c.other().is_none());
        c.sample(3);
        c.sample(5);
        let cpu = c.other().unwrap();
        assert_eq!(
            (cpu.name.as_str(), cpu.kind),
            ("cpu", crate::CounterKind::Time)
        );
        assert!(cpu.value >= 0.0);
    }
}
