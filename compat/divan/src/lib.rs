//! divan's benchmark-writing API on the nbench harness.
//!
//! Put it in divan's place with one line in `Cargo.toml` and keep the bench
//! files as they are:
//!
//! ```toml
//! [dev-dependencies]
//! divan = { package = "nbench-divan", git = "https://github.com/nbench-rs/cargo-nbench" }
//! ```
//!
//! `#[divan::bench]` functions register with nbench under divan's names
//! (`module::function::argument`); `divan::main()` runs them as the bench
//! binary's command line asks, under `cargo nbench` or `cargo bench`.
//! Options nbench cannot honour (`sample_count`, `--timer`, …)
//! are accepted and said once on stderr.

mod alloc;
mod bencher;
mod cli;
pub mod counter;
mod divan;
mod entry;
mod skip;
mod threads;

pub use alloc::AllocProfiler;
pub use bencher::{Bencher, BencherWithInputs};
pub use divan::Divan;
pub use nbench_divan_macros::{bench, bench_group};
pub use skip::IntoRegex;
pub use std::hint::black_box;

/// Runs every `#[divan::bench]` of the program as its command line asks.
pub fn main() {
    Divan::from_args().main()
}

/// Drops `value` where the compiler cannot see that nothing uses it.
pub fn black_box_drop<T>(value: T) {
    drop(black_box(value));
}

/// Only what the attribute macros generate.
#[doc(hidden)]
pub mod __private {
    pub use crate::entry::{
        BENCHES, ByDebug, ByDisplay, Entry, GROUPS, Group, Registrar, Shown, count, count_all, pass,
    };
    pub use crate::threads::{threads_of, time};
    pub use linkme;
    pub use nbench;
}
