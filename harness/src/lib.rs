#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod affinity;
mod alike_path;
pub mod alloc;
mod apart;
mod bencher;
mod catch;
mod command;
mod counter;
mod counting;
mod cpu;
mod drive;
mod engine;
mod entropy;
mod family;
mod fork;
mod format;
mod group;
mod libtest;
mod loops;
mod metric;
mod modes;
pub mod params;
mod perf;
mod protocol;
mod quiet;
mod redirect;
mod registry;
mod result;
mod select;
mod spread;
mod stats;
mod table;
mod threads;
mod throughput;
mod timer;
mod valgrind;

pub use alloc::CountingAlloc;
pub use bencher::{BatchSize, Bencher};
pub use counter::{Counter, CounterKind};
pub use cpu::CpuTime;
pub use group::{Args, Group, NoArgs, Size};
pub use loops::SampleFuture;
pub use registry::{Marks, Registry};
pub use stats::Complexity;
pub use std::hint::black_box;
pub use throughput::Throughput;

use std::process::ExitCode;

/// What only `cargo nbench` (and this crate's own tests and benchmarks) use:
/// the channel's messages, the measuring engine and its settings, the
/// statistics, results, the console table and formatting, the bench
/// binary's modes. Not part of the benchmark-writing API; it
/// changes with the protocol.
///
/// Each module names the items it gives the driver, one list each: this is
/// the driver's whole view of the harness. It is a module of the harness
/// rather than a crate of its own because both ends of the channel must
/// agree on one set of types, and the harness is compiled into every
/// user's bench: a second crate would be one more dependency for each.
#[doc(hidden)]
pub mod __private {
    pub use crate::affinity::Mask;
    pub use crate::apart::in_copy;
    pub use crate::bencher::{Declared, LoopKind, later_calls_run_once, skip_if_untimed};
    pub use crate::entropy::{ENTROPY_ENV, fixed_value};
    pub use crate::quiet::QUIET_ENV;
    pub use crate::registry::{numbered, same_but_last};
    pub use crate::spread::{SPREAD_ENV, keeps_threads_running, live_threads};
    /// The measuring engine: settings, sampling, the pilot's iteration counts.
    pub mod engine {
        pub use crate::engine::{Hint, MAX_ITERS, Measurement, Open, Settings, Stop, next_iters};
    }
    /// What a benchmark's values measure, and their unit.
    pub mod metric {
        pub use crate::metric::Metric;
    }
    /// Formatting times, rates and counts for reports.
    pub mod format {
        pub use crate::format::{
            NOT_A_NUMBER, TimeUnit, count, id_cell, id_column, one_line, pad, rate, rate_at, time,
            time_in, width,
        };
    }
    /// The statistics both halves use, each checked against SciPy / NumPy
    /// reference values (`harness/tests/data/reference.json`): summaries,
    /// intervals, tests, fits.
    pub mod stats {
        pub use crate::stats::{
            Complexity, Interval, OutlierMode, Outliers, RESAMPLES, RatioTest, StatsError, Summary,
            bandwidth, benjamini_hochberg, density, erfc, even_orders, fit, fit_values, inc_beta,
            ln_gamma, log_mean_sd, log_median_sorted, mad_sorted, mann_whitney, mean, mean_ci,
            median_ci_sorted, median_ratio_ci, median_sorted, normal_sf, percentile_sorted,
            ratio_t_test, sign_test, t_cdf, t_pdf, t_quantile, variance,
        };
    }
    /// Complexity families: scalings and fits.
    pub mod family {
        pub use crate::family::{FamilyFit, HEADING, Scaling, fit_families};
    }
    /// The ways a bench binary runs, and its command line.
    pub mod modes {
        pub use crate::modes::relay::{AIM_ENV, aim, onward};
        pub use crate::modes::{EXIT_FAILED, EXIT_OK, EXIT_USAGE, args, code, run};
    }
    /// The labels of the counts a bench binary dumps under callgrind, or
    /// writes counted by the CPU (`--nbench-count`).
    pub mod count {
        pub use crate::modes::count::{
            APART_AS_TOLD, COUNTED_TO_ENV, Dumped, SETUP_BOUND, parse_counted, parse_counting,
            parse_label,
        };
        pub use crate::valgrind::{COUNTS_EVERY_THREAD, EVERY_THREAD_ENV, INSTRUMENTS_ITSELF};
    }
    /// Starting a command a benchmark runs, counted where it is, and
    /// what a function writes to a stream, to hand to one.
    pub mod command {
        pub use crate::alike_path::OWN_TMP_ENV;
        pub use crate::command::{Launch, VALGRIND_ENV, die_with_parent, launch};
        pub use crate::redirect::{Stream, capture};
    }
    /// The CPU's instruction counter: whether this machine has one that counts.
    pub mod perf {
        pub use crate::perf::{Unavailable, probe};
    }
    /// libtest's bench lines and JSON events.
    pub mod libtest {
        pub use crate::libtest::{Tally, bench_line, name, result_line, running};
    }
    /// The channel's messages and their JSON codec.
    pub mod protocol {
        pub use crate::protocol::{
            COUNT_APART_FLAG, COUNT_FLAG, COUNT_ITERS_FLAG, Command, Event, HARNESS_VERSION,
            LISTING_KEY_ENV, LISTINGS_ENV, Listed, MARKER, Message, PROTOCOL_FLAG,
            PROTOCOL_VERSION, ProtocolError, TOKEN_ENV, json, read_message, write_message,
        };
    }
    /// A benchmark's result.
    pub mod result {
        pub use crate::result::{BenchResult, Versus, ratio_label};
    }
    /// Which benchmarks the filters select.
    pub mod select {
        pub use crate::select::{Filter, Ignored, Selected};
    }
    /// The console table.
    pub mod table {
        pub use crate::table::{Figures, Table, a_point, floor};
    }
    /// The wall clock and its resolution.
    pub mod timer {
        pub use crate::timer::{Clock, TimerInfo, WallClock};
    }
}

impl Registry {
    /// Runs the registered benchmarks as the process's command line asks
    /// (`--bench`, test mode, `--list`, filters): the body of a bench target's `main`.
    ///
    /// ```no_run
    /// fn main() -> std::process::ExitCode {
    ///     let mut r = nbench::Registry::new();
    ///     r.bench("add", |b| b.iter(|| 1 + 1));
    ///     r.run()
    /// }
    /// ```
    pub fn run(&self) -> ExitCode {
        modes::run(self, std::env::args().skip(1))
    }
}

/// Writes a bench target's `main`: each argument is a function that takes
/// `&mut nbench::Registry` and registers benchmarks.
///
/// ```no_run
/// fn benches(r: &mut nbench::Registry) {
///     r.bench("fib/20", |b| b.iter(|| fib(nbench::black_box(20))));
/// }
/// fn fib(n: u64) -> u64 { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }
///
/// nbench::main!(benches);
/// ```
#[macro_export]
macro_rules! main {
    ($($register:path),+ $(,)?) => {
        fn main() -> ::std::process::ExitCode {
            let mut registry = $crate::Registry::new();
            $( $register(&mut registry); )+
            registry.run()
        }
    };
}
