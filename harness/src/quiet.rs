//! While `cargo nbench` times a benchmark, what it writes to stdout goes
//! to `/dev/null`, where [`QUIET_ENV`] asks.
//!
//! `cargo nbench` reads a bench process's stdout through a pipe, to show
//! it with a benchmark that fails. A benchmark that writes its output
//! (a utility's `main` on a file) then times that pipe: 1 MiB a call took
//! 786 µs through it, 0.3 µs to `/dev/null`. Only the timing is sent
//! there: what the benchmark prints while it sets up, before its first
//! timed call, still reaches `cargo nbench`.

use std::io::Write;

/// Set (to `1`) by `cargo nbench` unless it shows the benchmarks' output
/// (`--nocapture`).
pub const QUIET_ENV: &str = "NBENCH_STDOUT_WHILE_TIMED_TO_NULL";

/// While alive, this process's stdout is `/dev/null`; dropped, it is back.
pub(crate) struct Quiet {
    #[cfg(unix)]
    saved: std::os::fd::OwnedFd,
}

impl Quiet {
    /// Sends stdout to `/dev/null` where [`QUIET_ENV`] asks and it can.
    pub fn new() -> Option<Quiet> {
        if std::env::var_os(QUIET_ENV).is_none_or(|v| v != "1") {
            return None;
        }
        imp::quiet()
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        // What the benchmark left in the buffer was written while timed.
        let _ = std::io::stdout().flush();
        imp::restore(self);
    }
}

#[cfg(unix)]
mod imp {
    use super::Quiet;
    use std::io::Write;
    use std::os::fd::{AsFd, AsRawFd};

    unsafe extern "C" {
        fn dup2(old: std::ffi::c_int, new: std::ffi::c_int) -> std::ffi::c_int;
    }

    const STDOUT: std::ffi::c_int = 1;

    pub fn quiet() -> Option<Quiet> {
        // A line the benchmark began before its timing goes where it was going.
        let _ = std::io::stdout().flush();
        let saved = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
        let null = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/null")
            .ok()?;
        // SAFETY: both descriptors are open; 1 is replaced, not closed.
        (unsafe { dup2(null.as_raw_fd(), STDOUT) } == STDOUT).then_some(Quiet { saved })
    }

    pub fn restore(q: &Quiet) {
        // SAFETY: `saved` is open (owned by `q`); 1 is replaced by its copy.
        unsafe { dup2(q.saved.as_raw_fd(), STDOUT) };
    }
}

#[cfg(not(unix))]
mod imp {
    use super::Quiet;

    pub fn quiet() -> Option<Quiet> {
        None
    }

    pub fn restore(_: &Quiet) {}
}
