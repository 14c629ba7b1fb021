//! gungraun's (and iai-callgrind's) library-benchmark API on the nbench
//! harness.
//!
//! Put it in gungraun's place with one line in `Cargo.toml` and keep the
//! bench files as they are:
//!
//! ```toml
//! [dev-dependencies]
//! gungraun = { package = "nbench-gungraun", git = "https://github.com/nbench-rs/cargo-nbench" }
//! # or, for a suite written for iai-callgrind:
//! iai-callgrind = { package = "nbench-gungraun", git = "https://github.com/nbench-rs/cargo-nbench" }
//! ```
//!
//! Each `#[bench::id(…)]` of a `#[library_benchmark]` becomes one nbench
//! benchmark named `group::function::id` (`id_0`, `id_1`, … for the
//! elements of a `#[benches::id(…)]`). Under `cargo nbench` each is timed
//! over many iterations, and with `--metrics time,instructions` its
//! instructions are counted too, both judged in one verdict. Arguments,
//! `setup` and `teardown` stay out of the timing and the counts, as they
//! stay out of gungraun's. A library benchmark's `config = …` is accepted
//! and not honoured.
//!
//! A binary benchmark (`#[binary_benchmark]`, or the low-level
//! `BinaryBenchmark`) times its command, one run an iteration, and counts
//! the command's instructions under a callgrind of its own. Its
//! configuration's environment, folder, expected exit and sandbox are
//! honoured, and so are a setup piped into the command, one run beside it
//! in a process of its own, and the command's delay.

mod beside;
mod binary;
mod binary_config;
mod command;
mod config;
mod delay;
mod entry;
mod sandbox;

pub use binary::{Bench, BenchmarkId, BinaryBenchmark, BinaryBenchmarkGroup};
pub use binary_config::BinaryBenchmarkConfig;
pub use command::{Command, ExitWith, Pipe, Stdin, Stdio};
pub use config::*;
pub use delay::{Delay, DelayKind};
pub use nbench_gungraun_macros::{
    binary_benchmark, binary_benchmark_attribute, binary_benchmark_group, library_benchmark,
    library_benchmark_group, main,
};
pub use sandbox::Sandbox;
pub use std::hint::black_box;

/// The macros and the configuration type most suites import
/// (`use gungraun::prelude::*`).
pub mod prelude {
    pub use crate::{BinaryBenchmarkConfig, Command, LibraryBenchmarkConfig};
    pub use nbench_gungraun_macros::{
        binary_benchmark, binary_benchmark_group, library_benchmark, library_benchmark_group, main,
    };
}

/// Only what the macros generate.
#[doc(hidden)]
pub mod __private {
    pub use crate::binary::lazy_bench;
    pub use crate::entry::{MainConfig, Registrar, Torn, run, time};
    pub use nbench;
}
