//! iai's benchmark-writing API on the nbench harness.
//!
//! Put it in iai's place with one line in `Cargo.toml` and keep the bench
//! files as they are:
//!
//! ```toml
//! [dev-dependencies]
//! iai = { package = "nbench-iai", git = "https://github.com/nbench-rs/cargo-nbench" }
//! ```
//!
//! Each function `main!` lists becomes one nbench benchmark under its
//! name. iai runs a function once, under Cachegrind; nbench calls it once
//! an iteration, times it, and under `--metrics time,instructions` counts
//! its instructions too. What it returns is kept from the optimizer.

/// Keeps `value` from the optimizer: std's `black_box`, as iai's
/// `real_blackbox` feature makes libtest's.
pub use std::hint::black_box;

/// iai's `#[iai]` attribute (its `macro` feature) is not provided: this
/// stands in for its name, so that a suite that imports it (`use
/// iai::iai;`) and lists its functions in `main!` still builds.
#[cfg(feature = "macro")]
#[doc(hidden)]
pub mod iai {}

/// Defines the bench binary's `main`: one benchmark for each function
/// listed (`fn() -> T`, any `T`), named as the function, run as the
/// command line asks.
#[macro_export]
macro_rules! main {
    ($($function:ident),+ $(,)?) => {
        fn main() {
            let mut registry = $crate::__private::Registry::new();
            $( $crate::__private::register(&mut registry, stringify!($function), $function); )+
            ::std::process::exit($crate::__private::run(&registry));
        }
    };
}

/// iai's runner, for a `main` of the suite's own: each benchmark a name
/// and a function, run as the command line asks; the process then exits
/// with the run's code, as iai's does.
pub fn runner(benchmarks: &[&(&'static str, fn())]) {
    let mut registry = nbench::Registry::new();
    for (name, function) in benchmarks.iter().copied() {
        __private::register(&mut registry, name, *function);
    }
    std::process::exit(__private::run(&registry));
}

/// Only what the macro generates.
#[doc(hidden)]
pub mod __private {
    pub use nbench::Registry;

    /// Registers `function` as the benchmark `name`: called once an
    /// iteration, what it returns kept from the optimizer.
    pub fn register<T: 'static>(registry: &mut Registry, name: &str, function: fn() -> T) {
        registry.bench(name, move |b| b.iter(function));
    }

    /// Runs the benchmarks as the command line asks; the exit code.
    pub fn run(registry: &Registry) -> i32 {
        let args = std::env::args().skip(1);
        i32::from(nbench::__private::modes::code(registry, args))
    }
}

#[cfg(test)]
mod unit {
    use super::__private::{Registry, register};

    fn fib(n: u64) -> u64 {
        if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
    }

    fn short() -> u64 {
        fib(super::black_box(10))
    }

    fn unit() {}

    #[test]
    fn each_function_is_a_benchmark_under_its_name_and_runs() {
        let mut registry = Registry::new();
        register(&mut registry, "short", short);
        register(&mut registry, "unit", unit);
        assert_eq!(registry.ids(), ["short", "unit"]);
        let args = ["--test"].map(String::from);
        assert_eq!(nbench::__private::modes::code(&registry, args), 0);
    }
}
