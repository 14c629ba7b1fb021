//! tango's benchmark-writing API on the nbench harness.
//!
//! Put it in tango-bench's place with one line in `Cargo.toml` and keep
//! the bench files as they are:
//!
//! ```toml
//! [dev-dependencies]
//! tango-bench = { package = "nbench-tango", git = "https://github.com/nbench-rs/cargo-nbench" }
//! ```
//!
//! Each [`Benchmark`] that `tango_benchmarks!` lists becomes one nbench
//! benchmark under its own name. Its sampler is made, outside the timing,
//! with one fixed seed ([`SEED`]), so both sides of a comparison run on
//! the same input and its instructions count the same from process to
//! process. Under `cargo nbench` it is timed, compared paired against a
//! baseline or a revision, and with `--metrics time,instructions` counted
//! too, both judged in one verdict. `tango_main!`'s settings are accepted
//! and not honoured: cargo nbench decides how long and how often to
//! measure. tango's own `compare` against an exported binary is cargo
//! nbench's `--compare-rev`.

#[cfg(feature = "async")]
pub mod asynchronous;
mod benchmark;
mod entry;
pub mod metrics;
mod sampler;
mod settings;

#[cfg(feature = "async")]
pub use asynchronous::async_benchmark_fn;
pub use benchmark::{
    Bencher, Benchmark, BenchmarkParams, IntoBenchmarks, SamplerFactory, benchmark_fn,
};
pub use entry::SEED;
pub use metrics::Metric;
pub use sampler::ErasedSampler;
pub use settings::{DEFAULT_SETTINGS, MeasurementSettings, SampleLengthKind};

/// The bench binary's `main`: registers every benchmark the expressions
/// give (each an [`IntoBenchmarks`]: an array or a `Vec` of
/// [`Benchmark`]s) and runs them as the command line asks, under `cargo
/// nbench` or `cargo bench`.
///
/// ```no_run
/// use tango_bench::{IntoBenchmarks, benchmark_fn, tango_benchmarks, tango_main};
/// # extern crate nbench_tango as tango_bench;
///
/// fn sum_benchmarks() -> impl IntoBenchmarks {
///     [benchmark_fn("sum/1000", |b| b.iter(|| (0..1000u64).sum::<u64>()))]
/// }
///
/// tango_benchmarks!(sum_benchmarks());
/// tango_main!();
/// ```
#[macro_export]
macro_rules! tango_benchmarks {
    ($($benchmarks:expr),+ $(,)?) => {
        fn main() -> ::std::process::ExitCode {
            $crate::__private::run(|| {
                let mut all = ::std::vec::Vec::new();
                $( all.extend($crate::IntoBenchmarks::into_benchmarks($benchmarks)); )+
                all
            })
        }
    };
}

/// Kept for the suites written for tango before its `tango_benchmarks!`
/// wrote `main`: `main` is `tango_benchmarks!`'s. Settings given here are
/// checked as tango checks them and not honoured.
#[macro_export]
macro_rules! tango_main {
    () => {};
    ($settings:expr $(,)?) => {
        const _: fn() -> $crate::MeasurementSettings = || $settings;
    };
}

/// Only what the macros generate.
#[doc(hidden)]
pub mod __private {
    pub use crate::entry::run;
}
