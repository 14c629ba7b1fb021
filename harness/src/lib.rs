#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod alloc;
mod bencher;
mod counter;
mod cpu;
pub mod engine;
pub mod family;
pub mod format;
mod group;
mod loops;
pub mod modes;
pub mod params;
pub mod protocol;
mod registry;
pub mod result;
pub mod stats;
mod threads;
pub mod timer;

pub use alloc::CountingAlloc;
pub use bencher::{BatchSize, Bencher, Declared, LoopKind, Throughput};
pub use counter::{Counter, CounterKind};
pub use cpu::CpuTime;
pub use engine::Settings;
pub use group::{Args, Group, NoArgs, Size};
pub use loops::SampleFuture;
pub use registry::{Marks, Registry};
pub use stats::Complexity;
pub use std::hint::black_box;

use std::process::ExitCode;

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
