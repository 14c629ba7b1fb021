//! `Criterion`: the configuration a group function receives, and its benchmarks outside groups.

use crate::group::{BenchmarkGroup, BenchmarkId};
use crate::limits::Limits;
use crate::measurement::WallTime;
use crate::notice;
use crate::{Bencher, PlottingBackend, Throughput, own, walk};
use std::path::Path;
use std::time::Duration;

/// Which benchmarks a `Criterion` set up in code runs
/// ([`Criterion::with_benchmark_filter`]; accepted, not applied: the
/// command line and `cargo nbench` select benchmarks).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum BenchmarkFilter {
    /// Every benchmark.
    #[default]
    AcceptAll,
    /// The benchmark with exactly this id.
    Exact(String),
    /// None.
    RejectAll,
}

/// The benchmark manager a group function receives (`fn benches(c: &mut Criterion)`).
///
/// Its builder methods are accepted so that a suite's configuration
/// compiles unchanged; the time-related ones (`sample_size`,
/// `measurement_time`, `warm_up_time`) tell nbench how slow the
/// benchmarks are (see the crate's README), the others are ignored with a
/// note on stderr, once.
pub struct Criterion<M = WallTime> {
    pub(crate) measurement: M,
    pub(crate) limits: Limits,
}

impl Default for Criterion {
    fn default() -> Self {
        Criterion {
            measurement: WallTime,
            limits: Limits::default(),
        }
    }
}

impl<M> Criterion<M> {
    /// Uses `m` where the program times itself (`iter_custom`); nbench
    /// measures wall time everywhere else.
    pub fn with_measurement<M2>(self, m: M2) -> Criterion<M2> {
        notice::once(
            "with_measurement: nbench measures wall time; the custom measurement's values count only where the program times itself (iter_custom), read as nanoseconds",
        );
        Criterion {
            measurement: m,
            limits: self.limits,
        }
    }

    /// Accepted and ignored: nbench has no profiling mode. Any profiler is
    /// taken, not only those implementing this crate's
    /// [`Profiler`](crate::profiler::Profiler): a profiler crate written
    /// for criterion (pprof's `PProfProfiler`) implements criterion's trait,
    /// which its build still links.
    pub fn with_profiler<P: 'static>(self, _: P) -> Criterion<M> {
        notice::once(
            "with_profiler is ignored: nbench has no profiling mode; run a profiler on the bench binary with `--bench <filter>`",
        );
        self
    }

    /// Accepted and ignored: nbench draws no plots.
    pub fn plotting_backend(self, _: PlottingBackend) -> Criterion<M> {
        self
    }

    crate::limits::settings!([mut] self -> Self);

    /// Accepted and ignored: nbench draws no plots.
    pub fn with_plots(self) -> Criterion<M> {
        self
    }

    /// Accepted and ignored: nbench draws no plots.
    pub fn without_plots(self) -> Criterion<M> {
        self
    }

    /// Accepted and ignored: `cargo nbench --save-baseline NAME` keeps baselines.
    pub fn save_baseline(self, _: String) -> Criterion<M> {
        notice::once(
            "save_baseline is ignored: baselines are kept by `cargo nbench --save-baseline NAME`",
        );
        self
    }

    /// Accepted and ignored: `cargo nbench --compare NAME` compares with baselines.
    pub fn retain_baseline(self, _: String, _: bool) -> Criterion<M> {
        notice::once("retain_baseline is ignored: compare with `cargo nbench --compare NAME`");
        self
    }

    /// Accepted and ignored: the command line and `cargo nbench` select benchmarks.
    pub fn with_filter<S: Into<String>>(self, _: S) -> Criterion<M> {
        notice::once("with_filter is ignored: benchmarks are selected on the command line");
        self
    }

    /// Accepted and ignored: the command line and `cargo nbench` select benchmarks.
    pub fn with_benchmark_filter(self, _: BenchmarkFilter) -> Criterion<M> {
        notice::once(
            "with_benchmark_filter is ignored: benchmarks are selected on the command line",
        );
        self
    }

    /// Accepted and ignored: colour follows the terminal and `NO_COLOR`.
    pub fn with_output_color(self, _: bool) -> Criterion<M> {
        self
    }

    /// Accepted and ignored: results go to `target/nbench/` under `cargo nbench`.
    pub fn output_directory(self, _: &Path) -> Criterion<M> {
        self
    }

    /// Accepted and ignored: nbench has no profiling mode.
    pub fn profile_time(self, _: Option<Duration>) -> Criterion<M> {
        self
    }

    /// Returns `self`: the command line is read once, by `criterion_main!`.
    pub fn configure_from_args(self) -> Criterion<M> {
        self
    }

    /// Does nothing: nbench prints its table as benchmarks finish.
    pub fn final_summary(&self) {}

    /// A group of benchmarks whose ids start with `group_name/`.
    pub fn benchmark_group<S: Into<String>>(&mut self, group_name: S) -> BenchmarkGroup<'_, M> {
        BenchmarkGroup::new(self, group_name.into())
    }

    /// Benchmark `id`: `f` is called with a [`Bencher`] when it is measured.
    pub fn bench_function<F>(&mut self, id: &str, f: F) -> &mut Criterion<M>
    where
        F: FnMut(&mut Bencher<'_, M>),
    {
        self.reach(id, self.limits, None, f);
        self
    }

    /// Benchmark `id` (`function/parameter`) on `input`.
    pub fn bench_with_input<F, I>(
        &mut self,
        id: BenchmarkId,
        input: &I,
        mut f: F,
    ) -> &mut Criterion<M>
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        self.reach(&id.full(None), self.limits, None, |b| f(b, input));
        self
    }

    /// The program reached benchmark `id`: runs it if nbench's walk is
    /// aimed at it ([`walk`]).
    pub(crate) fn reach<F>(
        &self,
        id: &str,
        limits: Limits,
        throughput: Option<Throughput>,
        mut f: F,
    ) where
        F: FnMut(&mut Bencher<'_, M>),
    {
        let measurement = &self.measurement;
        let mut run = |inner: &mut nbench::Bencher<'static>| {
            if let Some(t) = &throughput {
                inner.throughput(t.as_nbench());
            }
            nbench::__private::later_calls_run_once(inner);
            f(&mut Bencher {
                inner,
                measurement,
                calls: 0,
            });
        };
        if let walk::Reached::Outside = walk::reach(id, limits, &mut run) {
            own::reach(id, limits, &mut run);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profiler_written_for_criterion_itself_is_taken() {
        // Implements no trait of this crate, as pprof's `PProfProfiler`
        // implements criterion's own (this does not compile where
        // `with_profiler` asks for this crate's `Profiler`).
        struct Foreign;
        let c = Criterion::default().with_profiler(Foreign);
        assert_eq!(c.limits, Criterion::default().limits);
    }

    /// A measurement written for criterion itself (as `CyclesPerByte`
    /// implements criterion's trait): a type with no trait of this crate.
    struct Cycles;

    /// A benchmark function written for [`Cycles`], as such suites write
    /// them; never called (this does not compile where `Criterion`,
    /// `BenchmarkGroup` or `Bencher` ask for this crate's `Measurement`).
    fn with_cycles(c: &mut Criterion<Cycles>) {
        let mut group = c.benchmark_group("g");
        group.bench_function("f", |b| b.iter(|| 1 + 1));
        group.bench_with_input("i", &3, |b, &n| {
            b.iter_batched(|| n, |n| n * 2, crate::BatchSize::SmallInput)
        });
        group.finish();
        c.bench_function("top", |b| b.iter(|| 2));
    }

    #[test]
    fn a_measurement_written_for_criterion_itself_is_taken() {
        let c = Criterion::default().with_measurement(Cycles);
        assert_eq!(c.limits, Criterion::default().limits);
        let _: fn(&mut Criterion<Cycles>) = with_cycles;
    }
}
