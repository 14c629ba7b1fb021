//! While `cargo nbench` times a benchmark, what it writes to stdout goes
//! to `/dev/null`, where [`QUIET_ENV`] asks.
//!
//! `cargo nbench` reads a bench process's stdout through a pipe, to show
//! it with a benchmark that fails. A benchmark that writes its output
//! (a utility's `main` on a file) then times that pipe: 1 MiB a call took
//! 786 µs through it, 0.3 µs to `/dev/null`. Only the timing is sent
//! there: what the benchmark prints while it sets up, before its first
//! timed call, still reaches `cargo nbench`.

use crate::redirect::{Redirected, Stream};

/// Set (to `1`) by `cargo nbench` unless it shows the benchmarks' output
/// (`--nocapture`).
pub const QUIET_ENV: &str = "NBENCH_STDOUT_WHILE_TIMED_TO_NULL";

/// While alive, this process's stdout is `/dev/null`; dropped, it is back.
pub(crate) struct Quiet {
    _redirected: Redirected,
}

impl Quiet {
    /// Sends stdout to `/dev/null` where [`QUIET_ENV`] asks and it can.
    pub fn new() -> Option<Quiet> {
        if std::env::var_os(QUIET_ENV).is_none_or(|v| v != "1") {
            return None;
        }
        let null = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/null")
            .ok()?;
        let _redirected = Redirected::new(Stream::Stdout, &null)?;
        Some(Quiet { _redirected })
    }
}
