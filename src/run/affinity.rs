//! Pinning bench processes to one CPU, so that the two sides of a comparison run on the same core.
//!
//! On a VM the virtual CPUs sit on host cores of different speed and load: a
//! process that runs on vCPU 0 can be several percent faster or slower than
//! one on vCPU 1, for as long as the scheduler leaves it there. Two processes
//! compared sample by sample must share a core, or that difference reads as a
//! change in the code. Of the CPUs this process may use, one of the fastest
//! (highest maximum frequency, so a performance core on a hybrid laptop) is
//! chosen, the last of them, away from CPU 0 where the system's interrupts
//! tend to go.

/// The CPU bench processes are pinned to, if pinning is possible here;
/// chosen once (it reads sysfs per CPU), before this process pins itself.
pub fn bench_cpu() -> Option<usize> {
    cpus().0
}

/// The CPUs this process could run on before it pinned itself, as a list
/// (`0,1`): those a benchmark with threads of its own spreads over
/// (`nbench::__private::SPREAD_ENV`), where pinning is possible here.
pub fn spread_cpus() -> Option<&'static str> {
    bench_cpu()?;
    Some(cpus().1.as_str())
}

/// The bench CPU and the list of allowed ones, read once.
fn cpus() -> &'static (Option<usize>, String) {
    static CHOSEN: std::sync::OnceLock<(Option<usize>, String)> = std::sync::OnceLock::new();
    CHOSEN.get_or_init(|| {
        let allowed = imp::allowed();
        let list = (allowed.iter().map(usize::to_string))
            .collect::<Vec<_>>()
            .join(",");
        (imp::bench_cpu(&allowed), list)
    })
}

/// Pins the driver (the calling thread, and the threads and processes it
/// starts from now on) to the bench CPU: it waits while the benchmarks run,
/// and waking it there is cheaper than across CPUs (on a VM by far). Called
/// after the build, which must keep every CPU.
pub fn pin_driver() {
    // The machine's cores, as the record states them, read while this process still has them all.
    crate::model::context::cores();
    if let Some(cpu) = bench_cpu() {
        imp::pin(0, cpu);
    }
}

/// Pins the process `cmd` starts to the bench CPU, where pinning is
/// possible here, from its first instruction: pinned once started, a bench
/// process could run its first benchmarks before the pin reached it (the
/// test suite's busy machine saw a one-thread benchmark on both CPUs).
pub fn pin_at_start(cmd: &mut std::process::Command) {
    if let Some(cpu) = bench_cpu() {
        imp::pin_at_start(cmd, cpu);
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use std::os::raw::c_int;

    /// Room for 1024 CPUs, as glibc's `cpu_set_t`.
    const WORDS: usize = 16;

    unsafe extern "C" {
        fn sched_getaffinity(pid: c_int, size: usize, mask: *mut u64) -> c_int;
        fn sched_setaffinity(pid: c_int, size: usize, mask: *const u64) -> c_int;
    }

    /// The CPUs this process may run on.
    pub fn allowed() -> Vec<usize> {
        let mut mask = [0u64; WORDS];
        // SAFETY: the kernel writes at most `size` bytes into `mask`, which has that many.
        let ok = unsafe { sched_getaffinity(0, size_of_val(&mask), mask.as_mut_ptr()) } == 0;
        if !ok {
            return Vec::new();
        }
        (0..WORDS * 64)
            .filter(|&cpu| mask[cpu / 64] & (1 << (cpu % 64)) != 0)
            .collect()
    }

    pub fn bench_cpu(allowed: &[usize]) -> Option<usize> {
        // On a hybrid CPU the fast cores have the highest maximum frequency;
        // where there is no cpufreq (most VMs) all tie and the last one wins.
        (allowed.iter().copied()).max_by_key(|&cpu| (max_freq(cpu), cpu))
    }

    fn max_freq(cpu: usize) -> u64 {
        let path = format!("/sys/devices/system/cpu/cpu{cpu}/cpufreq/cpuinfo_max_freq");
        std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    }

    /// The mask of `cpu` alone, where it has room.
    fn only(cpu: usize) -> Option<[u64; WORDS]> {
        let mut mask = [0u64; WORDS];
        *mask.get_mut(cpu / 64)? = 1 << (cpu % 64);
        Some(mask)
    }

    pub fn pin(pid: u32, cpu: usize) -> bool {
        let (Ok(pid), Some(mask)) = (c_int::try_from(pid), only(cpu)) else {
            return false;
        };
        // SAFETY: the kernel reads `size` bytes from `mask`, which has that many.
        unsafe { sched_setaffinity(pid, size_of_val(&mask), mask.as_ptr()) == 0 }
    }

    pub fn pin_at_start(cmd: &mut std::process::Command, cpu: usize) {
        use std::os::unix::process::CommandExt;
        let Some(mask) = only(cpu) else {
            return;
        };
        // SAFETY: runs in the child between fork and exec, calling only an
        // async-signal-safe system call on a mask made before the fork; a
        // refusal leaves the child unpinned, as elsewhere.
        unsafe {
            cmd.pre_exec(move || {
                sched_setaffinity(0, size_of_val(&mask), mask.as_ptr());
                Ok(())
            });
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub fn allowed() -> Vec<usize> {
        Vec::new()
    }

    pub fn bench_cpu(_: &[usize]) -> Option<usize> {
        None
    }

    pub fn pin(_: u32, _: usize) -> bool {
        false
    }

    pub fn pin_at_start(_: &mut std::process::Command, _: usize) {}
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_child_is_pinned_to_the_chosen_cpu() {
        let cpu = bench_cpu().expect("this process may run somewhere");
        let mut cmd = std::process::Command::new("sleep");
        cmd.arg("5");
        pin_at_start(&mut cmd);
        let mut child = cmd.spawn().unwrap();
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
        let _ = child.kill();
        let _ = child.wait();
        let allowed = status
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .unwrap()
            .trim();
        assert_eq!(allowed, cpu.to_string());
    }
}
