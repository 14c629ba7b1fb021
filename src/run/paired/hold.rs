//! The idle side of a pair held still while the other samples, where its
//! benchmark keeps threads of its own running between samples.
//!
//! Both processes of a pair sit inside the benchmark for a whole epoch. Where
//! the program runs threads beside it (arc-swap measures its contended rows
//! while other threads spin, until the benchmark ends), each side's samples
//! ran beside the other side's threads as well as its own: on 2 CPUs, the
//! write with one leasing thread of 63fa111, which changes no instruction it
//! runs, read −54 % (−56 … −53 %) and was called improved. Held (`SIGSTOP`)
//! while the other side samples, and let go before it is asked anything, each
//! side samples beside its own threads alone, as a run of its own does.

/// Whether process `pid`, idle between two commands, keeps threads running
/// (the harness's rule for threads beside a benchmark, read from outside).
pub(super) fn busy_while_idle(pid: u32) -> bool {
    nbench::__private::keeps_threads_running(pid)
}

/// Stops process `pid`, every thread of it (`SIGSTOP`).
pub(super) fn stop(pid: u32) {
    imp::signal(pid, imp::SIGSTOP);
}

/// Lets process `pid` go on (`SIGCONT`).
pub(super) fn resume(pid: u32) {
    imp::signal(pid, imp::SIGCONT);
}

#[cfg(target_os = "linux")]
mod imp {
    pub const SIGSTOP: i32 = 19;
    pub const SIGCONT: i32 = 18;

    unsafe extern "C" {
        fn kill(pid: i32, signal: i32) -> i32;
    }

    pub fn signal(pid: u32, signal: i32) {
        // SAFETY: kill takes two integers; a process gone already is left so.
        unsafe { kill(pid as i32, signal) };
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub const SIGSTOP: i32 = 0;
    pub const SIGCONT: i32 = 0;

    pub fn signal(_: u32, _: i32) {}
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    fn state(pid: u32) -> String {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        rest.split_whitespace()
            .next()
            .unwrap_or_default()
            .to_owned()
    }

    /// Waits up to 2 s for process `pid` to reach a state `wanted` holds.
    fn reaches(pid: u32, wanted: impl Fn(&str) -> bool) -> bool {
        let began = std::time::Instant::now();
        while began.elapsed() < std::time::Duration::from_secs(2) {
            if wanted(&state(pid)) {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        false
    }

    #[test]
    fn a_process_that_spins_is_busy_and_is_held_until_let_go() {
        let mut spin = (Command::new("sh").args(["-c", "while :; do :; done"]))
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        let mut sleeps = Command::new("sleep").arg("30").spawn().unwrap();
        // Just started, or on a busy machine, the spinning shell may not be
        // running at the moment it is looked at: it is seen within 2 s.
        let began = std::time::Instant::now();
        let busy = std::iter::repeat_with(|| busy_while_idle(spin.id()))
            .take_while(|_| began.elapsed() < std::time::Duration::from_secs(2))
            .any(|b| b);
        let idle = busy_while_idle(sleeps.id());
        stop(spin.id());
        let held = reaches(spin.id(), |s| s == "T");
        resume(spin.id());
        let going = reaches(spin.id(), |s| s != "T");
        for child in [&mut spin, &mut sleeps] {
            let _ = child.kill();
            let _ = child.wait();
        }
        assert!(busy && !idle, "spinning: {busy}, sleeping: {idle}");
        assert!(held && going, "held: {held}, let go: {going}");
    }
}
