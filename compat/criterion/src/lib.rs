//! criterion's benchmark-writing API on the nbench harness.
//!
//! Put it in place of criterion with one line in `Cargo.toml`, and the
//! bench files stay as they are (`use criterion::…` resolves to this crate):
//!
//! ```toml
//! [dev-dependencies]
//! criterion = { package = "nbench-criterion", version = "0.1" }
//! ```
//!
//! `cargo nbench` then runs, stores and compares the suite like any nbench
//! target, and `cargo bench` prints nbench's table. How benchmarks that
//! live inside the program's functions are run one by one, in any order:
//! see the `walk` module's text in the source. What maps to what, and what
//! is accepted but ignored: the crate's README.
#![warn(missing_docs)]

mod args;
pub mod async_executor;
mod bencher;
mod criterion;
mod entry;
mod group;
mod legacy;
mod limits;
mod listing;
pub mod measurement;
mod notice;
mod own;
pub mod profiler;
mod regex;
mod walk;
mod wrapper;

pub use bencher::{AsyncBencher, Bencher};
pub use criterion::{BenchmarkFilter, Criterion};
pub use group::{BenchmarkGroup, BenchmarkId, IntoBenchmarkId};
pub use legacy::{Benchmark, BenchmarkDefinition, Fun, ParameterizedBenchmark};
pub use wrapper::WrapperRunner;

/// Keeps the compiler from optimising a value away (`std::hint::black_box`).
pub fn black_box<T>(dummy: T) -> T {
    std::hint::black_box(dummy)
}

/// How many inputs `iter_batched` makes before each timed stretch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
// criterion's hidden variant, kept so that code naming it compiles.
#[allow(clippy::manual_non_exhaustive)]
pub enum BatchSize {
    /// Inputs that are cheap to hold: 256 at a time.
    SmallInput,
    /// Inputs of megabytes: 16 at a time.
    LargeInput,
    /// One input per timed call.
    PerIteration,
    /// criterion's number of batches per sample; nbench makes 256 inputs at a time.
    NumBatches(u64),
    /// This many inputs at a time.
    NumIterations(u64),
    #[doc(hidden)]
    __NonExhaustive,
}

impl BatchSize {
    pub(crate) fn as_nbench(self) -> nbench::BatchSize {
        match self {
            BatchSize::LargeInput => nbench::BatchSize::Large,
            BatchSize::PerIteration => nbench::BatchSize::PerIteration,
            BatchSize::NumIterations(n) => nbench::BatchSize::Inputs(n),
            BatchSize::SmallInput | BatchSize::NumBatches(_) | BatchSize::__NonExhaustive => {
                nbench::BatchSize::Small
            }
        }
    }
}

/// The work one iteration does, shown as a rate beside the time.
///
/// nbench shows bytes (binary prefixes) or items: `Bits` is shown as bytes
/// (an eighth), `BytesDecimal` as bytes, `Elements` as items, and
/// `ElementsAndBytes` as its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Throughput {
    /// Bits per iteration.
    Bits(u64),
    /// Bytes per iteration.
    Bytes(u64),
    /// Bytes per iteration, shown with decimal prefixes by criterion.
    BytesDecimal(u64),
    /// Elements per iteration.
    Elements(u64),
    /// Both.
    ElementsAndBytes {
        /// Elements per iteration.
        elements: u64,
        /// Bytes per iteration.
        bytes: u64,
    },
}

impl Throughput {
    pub(crate) fn as_nbench(&self) -> nbench::Throughput {
        match *self {
            Throughput::Bits(n) => nbench::Throughput::Bytes(n / 8),
            Throughput::Bytes(n)
            | Throughput::BytesDecimal(n)
            | Throughput::ElementsAndBytes { bytes: n, .. } => nbench::Throughput::Bytes(n),
            Throughput::Elements(n) => nbench::Throughput::Items(n),
        }
    }
}

/// The scale of a summary plot's axis (accepted; nbench draws no plots).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum AxisScale {
    /// Linear.
    #[default]
    Linear,
    /// Logarithmic.
    Logarithmic,
}

/// A group's plot settings (accepted; nbench draws no plots).
#[derive(Debug, Default, Clone)]
pub struct PlotConfiguration {
    #[allow(dead_code)]
    summary_scale: AxisScale,
}

impl PlotConfiguration {
    /// Sets the summary plot's axis scale.
    #[must_use]
    pub fn summary_scale(mut self, new_scale: AxisScale) -> PlotConfiguration {
        self.summary_scale = new_scale;
        self
    }
}

/// How criterion chooses iteration counts (accepted; nbench chooses them itself).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum SamplingMode {
    /// criterion chooses.
    #[default]
    Auto,
    /// Linearly growing counts.
    Linear,
    /// The same count each sample.
    Flat,
}

/// criterion's baseline modes (accepted; `cargo nbench` keeps baselines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Baseline {
    /// Compare, tolerating a missing baseline.
    CompareLenient,
    /// Compare, failing on a missing baseline.
    CompareStrict,
    /// Save.
    Save,
    /// Neither.
    Discard,
}

/// criterion's plotting backends (accepted; nbench draws no plots).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlottingBackend {
    /// gnuplot.
    Gnuplot,
    /// plotters.
    Plotters,
    /// None.
    None,
}

/// Writes a function that runs benchmark functions with one configuration:
/// `criterion_group!(benches, f, g)` or
/// `criterion_group! { name = benches; config = Criterion::default().sample_size(10); targets = f, g }`.
#[macro_export]
macro_rules! criterion_group {
    (name = $name:ident; config = $config:expr; targets = $( $target:path ),+ $(,)*) => {
        /// Runs this group's benchmark functions (as nbench's walk asks).
        pub fn $name() {
            let mut criterion: $crate::Criterion<_> = $config.configure_from_args();
            let mut targets = $crate::__private::Targets::default();
            $( if targets.enter() { $target(&mut criterion); } )+
        }
    };
    ($name:ident, $( $target:path ),+ $(,)*) => {
        $crate::criterion_group! {
            name = $name;
            config = $crate::Criterion::default();
            targets = $( $target ),+
        }
    };
}

/// Writes the bench target's `main` from the functions `criterion_group!` wrote.
#[macro_export]
macro_rules! criterion_main {
    ( $( $group:path ),+ $(,)* ) => {
        fn main() -> ::std::process::ExitCode {
            static GROUPS: &[fn()] = &[ $( $group as fn() ),+ ];
            $crate::__private::main(GROUPS)
        }
    };
}

/// What only this crate's macros call.
#[doc(hidden)]
pub mod __private {
    pub use crate::entry::main;

    /// Counts `criterion_group!`'s benchmark functions as its function
    /// calls them, and says which to call (all but in a walk aimed at one).
    #[derive(Default)]
    pub struct Targets(usize);

    impl Targets {
        /// Whether to call the next benchmark function.
        pub fn enter(&mut self) -> bool {
            self.0 += 1;
            crate::walk::enter_target(self.0 - 1)
        }
    }
}
