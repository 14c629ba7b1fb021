//! Why a command to a bench process did not get an answer, in words.

use std::time::Duration;

/// Why a command did not get an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionError {
    /// The binary could not be started or never connected.
    Start(String),
    /// It speaks another protocol version.
    Version(String),
    /// The process died; how (signal, exit code).
    Crashed(String),
    /// No answer within the time limit; the process was killed.
    TimedOut(Duration),
    /// A comparison's answers did not all come within the time limit
    /// (`limit`), and the benchmark's first call took `first_call`: a
    /// large share of it.
    TooSlow {
        /// The `--timeout` limit.
        limit: Duration,
        /// The longer of the two sides' first calls.
        first_call: Duration,
    },
    /// It answered something unreadable.
    Protocol(String),
    /// The benchmark itself failed (a panic, a failed check), in the process's words.
    Benchmark(String),
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::Start(s) | SessionError::Version(s) | SessionError::Benchmark(s) => {
                f.write_str(s)
            }
            SessionError::Crashed(how) => write!(f, "bench process {how}"),
            SessionError::TimedOut(d) => {
                write!(f, "timed out after {} (the --timeout limit)", seconds(*d))
            }
            SessionError::TooSlow { limit, first_call } => write!(
                f,
                "timed out after {} (the --timeout limit): its first call took {}, and a \
                 comparison runs several calls a side in each pair of processes; raise \
                 --timeout to give it the time",
                seconds(*limit),
                seconds(*first_call)
            ),
            SessionError::Protocol(s) => write!(f, "protocol error: {s}"),
        }
    }
}

/// A time limit as people write it: `2.99 s`, `120 s`, `250 ms`.
pub(super) fn seconds(d: Duration) -> String {
    if d.as_secs_f64() >= 1.0 {
        format!("{} s", (d.as_secs_f64() * 100.0).round() / 100.0)
    } else {
        format!("{} ms", d.as_millis())
    }
}
