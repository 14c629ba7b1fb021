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

use nbench::__private::Mask;

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
        let allowed = Mask::current().map_or_else(Vec::new, |m| m.cpus());
        let list = (allowed.iter().map(usize::to_string))
            .collect::<Vec<_>>()
            .join(",");
        (fastest(&allowed), list)
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
        Mask::of([cpu]).set(0);
    }
}

/// Pins the process `cmd` starts to the bench CPU, where pinning is
/// possible here, from its first instruction: pinned once started, a bench
/// process could run its first benchmarks before the pin reached it (the
/// test suite's busy machine saw a one-thread benchmark on both CPUs).
pub fn pin_at_start(cmd: &mut std::process::Command) {
    if let Some(cpu) = bench_cpu() {
        Mask::of([cpu]).set_at_start(cmd);
    }
}

/// Where bench processes go: of the CPUs this process may use, the one
/// with the highest maximum frequency (on a hybrid CPU a fast core; where
/// there is no cpufreq, as on most VMs, all tie and the last one wins).
fn fastest(allowed: &[usize]) -> Option<usize> {
    (allowed.iter().copied()).max_by_key(|&cpu| (max_freq(cpu), cpu))
}

fn max_freq(cpu: usize) -> u64 {
    let path = format!("/sys/devices/system/cpu/cpu{cpu}/cpufreq/cpuinfo_max_freq");
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
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
