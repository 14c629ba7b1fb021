//! A benchmark with threads of its own runs on every CPU `cargo nbench` may
//! use, not on the one it pins bench processes to.
//!
//! `cargo nbench` pins both processes of a comparison to one CPU, so that
//! they run on the same core, and names in [`SPREAD_ENV`] the CPUs it had
//! before. On one CPU a benchmark's threads take turns: a sum on two
//! threads read 68.9 ns there and 32.4 ns on two CPUs, as `cargo bench`
//! runs it; tokio's multi-threaded runtime timed its workers queueing. So
//! where the process has more than one thread when a benchmark's timing
//! starts (a runtime or pool its setup made), or the benchmark runs on
//! several ([`Bencher::iter_threads`](crate::Bencher::iter_threads)), every
//! thread of it may run on any of those CPUs until the timing ends; then
//! they are pinned back.

/// The variable `cargo nbench` sets to the CPUs (`0,1,…`) a benchmark with
/// threads may spread over.
pub const SPREAD_ENV: &str = "NBENCH_SPREAD_CPUS";

/// While alive, this process's threads may run on the CPUs of
/// [`SPREAD_ENV`]; dropped, they are pinned back where they were.
pub(crate) struct Spread {
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    home: Option<imp::Mask>,
}

/// Spreads this process's threads where the benchmark about to be timed
/// runs on `threads` threads or the process has more than one already.
pub(crate) fn spread_if_threaded(threads: usize) -> Spread {
    let home = imp::spread(threads);
    Spread { home }
}

impl Drop for Spread {
    fn drop(&mut self) {
        if let Some(home) = &self.home {
            imp::pin_all(home);
        }
    }
}

/// The threads of this process, where the platform says.
pub(crate) fn threads() -> Option<usize> {
    imp::threads()
}

/// The CPUs a list such as `0,1,4` names (anything else is left out).
fn parse_cpus(list: &str) -> Vec<usize> {
    list.split(',')
        .filter_map(|c| c.trim().parse().ok())
        .collect()
}

#[cfg(target_os = "linux")]
mod imp {
    use std::os::raw::c_int;

    /// Room for 1024 CPUs, as glibc's `cpu_set_t`.
    const WORDS: usize = 16;
    pub type Mask = [u64; WORDS];

    unsafe extern "C" {
        fn sched_getaffinity(pid: c_int, size: usize, mask: *mut u64) -> c_int;
        fn sched_setaffinity(pid: c_int, size: usize, mask: *const u64) -> c_int;
    }

    pub fn threads() -> Option<usize> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("Threads:"))?;
        line["Threads:".len()..].trim().parse().ok()
    }

    /// Spreads every thread over the CPUs of `SPREAD_ENV` where it applies
    /// ([`super::spread_if_threaded`]); the calling thread's CPUs before.
    pub fn spread(threads: usize) -> Option<Mask> {
        let cpus = super::parse_cpus(&std::env::var(super::SPREAD_ENV).ok()?);
        if cpus.len() < 2 || (threads < 2 && self::threads()? < 2) {
            return None;
        }
        let mut home = [0u64; WORDS];
        // SAFETY: the kernel writes at most `size` bytes into `home`, which has that many.
        if unsafe { sched_getaffinity(0, size_of_val(&home), home.as_mut_ptr()) } != 0 {
            return None;
        }
        let mut wide = [0u64; WORDS];
        for cpu in cpus.into_iter().filter(|&c| c < WORDS * 64) {
            wide[cpu / 64] |= 1 << (cpu % 64);
        }
        pin_all(&wide);
        Some(home)
    }

    /// Sets every thread of this process to run on `mask`.
    pub fn pin_all(mask: &Mask) {
        let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
            return;
        };
        for tid in tasks
            .flatten()
            .filter_map(|t| t.file_name().to_str()?.parse().ok())
        {
            // SAFETY: the kernel reads `size` bytes from `mask`, which has that many.
            unsafe { sched_setaffinity(tid, size_of_val(mask), mask.as_ptr()) };
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub type Mask = ();

    pub fn threads() -> Option<usize> {
        None
    }

    pub fn spread(_: usize) -> Option<Mask> {
        None
    }

    pub fn pin_all(_: &Mask) {}
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
}
