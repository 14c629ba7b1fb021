//! bencher's benchmark-writing API (libtest's `#[bench]`, on stable) on
//! the nbench harness.
//!
//! Put it in bencher's place with one line in `Cargo.toml` and keep the
//! bench files as they are:
//!
//! ```toml
//! [dev-dependencies]
//! bencher = { package = "nbench-bencher", git = "https://github.com/nbench-rs/cargo-nbench" }
//! ```
//!
//! Each function a `benchmark_group!` lists becomes one nbench benchmark
//! under the name bencher gives it (the function's path as written
//! there); `benchmark_main!` runs them as the bench binary's command line
//! asks, under `cargo nbench` or `cargo bench`. `Bencher::bytes` becomes
//! the benchmark's throughput in bytes.

mod bencher;
mod suite;

pub use TestFn::*;
pub use bencher::Bencher;
pub use std::hint::black_box;
pub use suite::{
    TDynBenchFn, TestDesc, TestDescAndFn, TestFn, TestName, TestOpts, run_tests_console,
};

/// Defines a function `$group` returning the benchmarks of the functions
/// listed, each named as written.
#[macro_export]
macro_rules! benchmark_group {
    ($group:ident, $($function:path),+ $(,)?) => {
        pub fn $group() -> ::std::vec::Vec<$crate::TestDescAndFn> {
            ::std::vec![$(
                $crate::TestDescAndFn {
                    desc: $crate::TestDesc {
                        name: ::std::borrow::Cow::from(stringify!($function)),
                        ignore: false,
                    },
                    testfn: $crate::TestFn::StaticBenchFn($function),
                },
            )+]
        }
    };
}

/// Defines the bench binary's `main`: runs the benchmarks of every group
/// as the command line asks.
#[macro_export]
macro_rules! benchmark_main {
    ($($group:path),+ $(,)?) => {
        fn main() {
            let mut benches = ::std::vec::Vec::new();
            $( benches.extend($group()); )+
            ::std::process::exit($crate::__private::run(benches));
        }
    };
}

/// Only what the macros generate.
#[doc(hidden)]
pub mod __private {
    pub use crate::suite::run;
}
