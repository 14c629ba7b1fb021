//! The channel between `cargo nbench` and a bench binary: message types, one JSON object per line.
//!
//! `cargo nbench` listens on a loopback TCP port and starts the bench binary
//! with `--nbench-protocol <addr>`; the binary connects and speaks first with a
//! [`Event::Hello`]. Benchmarks keep stdout and stderr to themselves, so
//! nothing they print can corrupt the channel. Both halves use these types
//! and this codec, so they cannot drift apart.

pub mod codec;
pub mod json;

pub use codec::{Message, ProtocolError, read_message, write_message};

use crate::counter::Counter;
use crate::engine::Hint;
use crate::engine::Settings;
use crate::family::Scaling;
use crate::metric::Metric;
use crate::result::BenchResult;
use crate::throughput::Throughput;

/// Version of the message set; both sides must agree.
pub const PROTOCOL_VERSION: u32 = 1;
/// The harness's own version, sent in the hello.
pub const HARNESS_VERSION: &str = env!("CARGO_PKG_VERSION");
/// The flag that puts a bench binary in protocol mode; its value is the address to connect to.
pub const PROTOCOL_FLAG: &str = "--nbench-protocol";

/// The flag that has a bench binary count each benchmark's instructions
/// under callgrind (`modes::count`) instead of measuring time.
pub const COUNT_FLAG: &str = "--nbench-count";
/// With [`COUNT_FLAG`]: how many iterations each benchmark's first counted
/// sample runs, comma-separated in the order of the ids after `--`
/// (`--exact`), so that a process counts the same every time: left to the
/// clock, a benchmark's earlier samples would leave the allocator in
/// another state from run to run.
pub const COUNT_ITERS_FLAG: &str = "--nbench-count-iters";
/// With [`COUNT_FLAG`]: whether each benchmark, in the order of the ids
/// after `--`, makes a batch's inputs uninstrumented while counted (`1`)
/// or not (`0`), comma-separated. `cargo nbench` decides once a
/// comparison, from the time it measured: each process deciding by its
/// own clock under Valgrind, a busy machine tipped some processes of one
/// benchmark one way and some the other, and the two ways count a batch's
/// own few instructions apart.
pub const COUNT_APART_FLAG: &str = "--nbench-count-apart";
/// Environment variable carrying the token the binary must echo in its hello, so
/// `cargo nbench` talks only to the process it started.
pub const TOKEN_ENV: &str = "NBENCH_PROTOCOL_TOKEN";
/// Environment variable naming a directory where the processes of one
/// `cargo nbench` run may keep what they found once for the others: a
/// front end that must run the program to list its benchmarks (criterion's
/// closures) lists in the first process and reads the list in the rest.
/// The directory is the run's own and is removed when it ends.
pub const LISTINGS_ENV: &str = "NBENCH_LISTINGS";
/// With [`LISTINGS_ENV`]: the name (hex digits) of the listing this
/// process shares. Executables of one build (its link layouts, the copies
/// a comparison runs) list the same benchmarks and are given one name;
/// without it, each executable keeps a listing of its own.
pub const LISTING_KEY_ENV: &str = "NBENCH_LISTING_KEY";
/// Bytes present in every executable that links this harness: `cargo nbench`
/// looks for them to tell nbench bench targets from criterion, divan or
/// hand-written ones without running them.
pub const MARKER: &[u8] = b"nbench harness: speaks the cargo nbench protocol";

/// One benchmark as listed by the binary.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    /// Its id.
    pub id: String,
    /// Whether it is marked ignored.
    pub ignored: bool,
    /// Its place in a family marked with a complexity, if it is in one.
    pub scaling: Option<Scaling>,
    /// What its own configuration says of how long it takes (absent from
    /// earlier harnesses, and for benchmarks without one).
    pub hint: Option<Hint>,
}

/// What `cargo nbench` asks of a bench binary.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// List the benchmarks.
    List,
    /// Measure one benchmark.
    Run {
        /// The benchmark's id.
        id: String,
        /// How to measure it.
        settings: Settings,
    },
    /// Run benchmark `id` once, to see that it works, as `cargo test
    /// --benches` runs it: answered by [`Event::Done`], [`Event::Skipped`]
    /// or [`Event::Failed`]. Sent by a bench binary's own smoke test to a
    /// fresh process of itself (`modes::alone`).
    Once {
        /// The benchmark's id.
        id: String,
    },
    /// Start benchmark `id` in lockstep: its routine is set up, called once
    /// (cold), and then sampled only when told, so that `cargo nbench` can
    /// alternate samples between two processes. Answered by [`Event::Ready`]
    /// (or [`Event::Failed`]).
    Paired {
        /// The benchmark's id.
        id: String,
        /// The `iter` loop's overhead to use instead of measuring it: known
        /// from an earlier process of the same executable, it saves each
        /// fresh process the calibration.
        overhead: Option<f64>,
    },
    /// In lockstep: take one sample of `iters` iterations; answered by [`Event::Sampled`].
    Sample {
        /// Iterations in the sample.
        iters: u64,
    },
    /// In lockstep: stop sampling and finish the benchmark; answered by
    /// [`Event::Done`] (or [`Event::Failed`]).
    Finish,
    /// In lockstep: go on sampling in a copy of this process (`fork`), whose
    /// memory lands on other physical pages, until [`Command::Join`].
    /// Answered by [`Event::Forked`] from the copy, or [`Event::Unforked`]
    /// from this process where it cannot copy itself (threads, platform).
    /// Only to a binary whose [`Event::Hello`] said it `forks`.
    Fork,
    /// In a copy made by [`Command::Fork`]: end it; the process it was
    /// copied from answers [`Event::Joined`] (or [`Event::Failed`], if the
    /// copy did not end cleanly).
    Join,
    /// Finish and exit.
    Quit,
}

impl Command {
    /// The benchmark it names, for those that run one.
    pub fn benchmark(&self) -> Option<&str> {
        match self {
            Command::Run { id, .. } | Command::Once { id } | Command::Paired { id, .. } => Some(id),
            _ => None,
        }
    }
}

/// What a bench binary tells `cargo nbench`.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The first line, always.
    Hello {
        /// [`PROTOCOL_VERSION`] of the binary.
        protocol: u32,
        /// [`HARNESS_VERSION`] of the binary.
        harness: String,
        /// The token from [`TOKEN_ENV`].
        token: String,
        /// Whether it answers [`Command::Fork`] (absent from earlier harnesses: no).
        forks: bool,
    },
    /// The answer to [`Command::List`].
    List(Vec<Listed>),
    /// A measured benchmark.
    Result(Box<BenchResult>),
    /// A benchmark that failed without taking the process down (a panic, misuse).
    Failed {
        /// The benchmark's id.
        id: String,
        /// Why, in words.
        message: String,
    },
    /// In lockstep: the routine is ready to be sampled.
    Ready {
        /// The benchmark's id.
        id: String,
        /// The first call's time, ns.
        cold: f64,
        /// The shortest sample whose timing error is negligible in this process, ns.
        min_sample_ns: f64,
        /// Loop overhead per iteration to subtract (0 unless the routine uses `iter`), ns.
        overhead: f64,
        /// Work per iteration, if the benchmark declared it before timing.
        throughput: Option<Throughput>,
        /// User counters declared before timing (absent from earlier harnesses: none).
        counters: Vec<Counter>,
        /// What the samples measure (absent from earlier harnesses: wall time).
        metric: Metric,
        /// The routine times itself (`iter_custom`): what a count of its
        /// instructions takes in need not be what it times (absent from
        /// earlier harnesses: false).
        times_itself: bool,
    },
    /// The benchmark skipped itself ([`Bencher::skip`](crate::Bencher::skip))
    /// instead of timing: the answer to [`Command::Run`] or
    /// [`Command::Paired`] in place of a result or `Ready`.
    Skipped {
        /// The benchmark's id.
        id: String,
        /// Why, in the benchmark's words.
        reason: String,
    },
    /// In lockstep: one sample's elapsed time.
    Sampled {
        /// Nanoseconds for the requested iterations.
        ns: f64,
    },
    /// In lockstep, or after [`Command::Once`]: the benchmark finished
    /// cleanly.
    Done {
        /// The benchmark's id.
        id: String,
    },
    /// In lockstep: the answer to [`Command::Fork`], from the copy.
    Forked,
    /// In lockstep: [`Command::Fork`] refused, and why; sampling goes on
    /// in this process.
    Unforked {
        /// Why, in words.
        reason: String,
    },
    /// In lockstep: the copy ended by [`Command::Join`] exited cleanly.
    Joined,
    /// A command the binary could not carry out (unknown id, bad message).
    Error {
        /// Why, in words.
        message: String,
    },
}
