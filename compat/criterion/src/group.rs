//! `BenchmarkGroup` and `BenchmarkId`: benchmarks named `group/function/parameter`.

use crate::limits::Limits;
use crate::{Bencher, Criterion, PlotConfiguration, SamplingMode, Throughput, notice};
use std::fmt::Display;
use std::time::Duration;

/// A benchmark's name within its group: a function name, a parameter, or both.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BenchmarkId {
    function: Option<String>,
    parameter: Option<String>,
}

impl BenchmarkId {
    /// `function_name/parameter`.
    pub fn new<S: Into<String>, P: Display>(function_name: S, parameter: P) -> BenchmarkId {
        BenchmarkId {
            function: Some(function_name.into()),
            parameter: Some(parameter.to_string()),
        }
    }

    /// Only the parameter: the id is `group/parameter`.
    pub fn from_parameter<P: Display>(parameter: P) -> BenchmarkId {
        BenchmarkId {
            function: None,
            parameter: Some(parameter.to_string()),
        }
    }

    /// The whole id, under `group` when in one.
    pub(crate) fn full(&self, group: Option<&str>) -> String {
        let parts = [group, self.function.as_deref(), self.parameter.as_deref()];
        parts.into_iter().flatten().collect::<Vec<_>>().join("/")
    }
}

/// What a group's benchmark methods take as an id: a [`BenchmarkId`] or a
/// function name (`&str`, `String`).
pub trait IntoBenchmarkId {
    /// The id.
    fn into_benchmark_id(self) -> BenchmarkId;
}

impl IntoBenchmarkId for BenchmarkId {
    fn into_benchmark_id(self) -> BenchmarkId {
        self
    }
}

impl<S: Into<String>> IntoBenchmarkId for S {
    fn into_benchmark_id(self) -> BenchmarkId {
        BenchmarkId {
            function: Some(self.into()),
            parameter: None,
        }
    }
}

/// Benchmarks that share a name prefix and settings, from
/// [`Criterion::benchmark_group`].
///
/// Honoured: `throughput` (shown as a rate), and `sample_size`,
/// `measurement_time`, `warm_up_time`, read as how slow the group's
/// benchmarks are (see the crate's README). Accepted with a note on stderr,
/// once: `sampling_mode`, `noise_threshold`, `confidence_level`,
/// `significance_level`, `nresamples`; `plot_config` silently.
pub struct BenchmarkGroup<'a, M> {
    criterion: &'a mut Criterion<M>,
    name: String,
    limits: Limits,
    throughput: Option<Throughput>,
}

impl<'a, M> BenchmarkGroup<'a, M> {
    pub(crate) fn new(criterion: &'a mut Criterion<M>, name: String) -> Self {
        let limits = criterion.limits;
        BenchmarkGroup {
            criterion,
            name,
            limits,
            throughput: None,
        }
    }

    /// Samples criterion would take: read as how slow the benchmarks are.
    pub fn sample_size(&mut self, n: usize) -> &mut Self {
        self.limits.sample_size = Some(n);
        self
    }

    /// criterion's warm-up time: read as how slow the benchmarks are.
    pub fn warm_up_time(&mut self, dur: Duration) -> &mut Self {
        self.limits.warm_up_time = Some(dur);
        self
    }

    /// criterion's measurement time: read as how slow the benchmarks are.
    pub fn measurement_time(&mut self, dur: Duration) -> &mut Self {
        self.limits.measurement_time = Some(dur);
        self
    }

    /// Accepted and ignored: nbench's intervals do not resample this way.
    pub fn nresamples(&mut self, _: usize) -> &mut Self {
        notice::once(notice::NRESAMPLES);
        self
    }

    /// Accepted and ignored: `cargo nbench --threshold` (or `nbench.toml`) sets it.
    pub fn noise_threshold(&mut self, _: f64) -> &mut Self {
        notice::once(notice::NOISE_THRESHOLD);
        self
    }

    /// Accepted and ignored: nbench's intervals are 95 %.
    pub fn confidence_level(&mut self, _: f64) -> &mut Self {
        notice::once(notice::CONFIDENCE_LEVEL);
        self
    }

    /// Accepted and ignored: `cargo nbench` decides significance over the whole run.
    pub fn significance_level(&mut self, _: f64) -> &mut Self {
        notice::once(notice::SIGNIFICANCE_LEVEL);
        self
    }

    /// Accepted and ignored: nbench draws no plots.
    pub fn plot_config(&mut self, _: PlotConfiguration) -> &mut Self {
        self
    }

    /// The work one iteration of the group's benchmarks does, shown as a rate.
    pub fn throughput(&mut self, throughput: Throughput) -> &mut Self {
        self.throughput = Some(throughput);
        self
    }

    /// Accepted and ignored: nbench chooses iteration counts itself.
    pub fn sampling_mode(&mut self, _: SamplingMode) -> &mut Self {
        notice::once(notice::SAMPLING_MODE);
        self
    }

    /// Benchmark `group/id`.
    pub fn bench_function<ID: IntoBenchmarkId, F>(&mut self, id: ID, f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>),
    {
        let id = id.into_benchmark_id().full(Some(&self.name));
        self.criterion
            .reach(&id, self.limits, self.throughput.clone(), f);
        self
    }

    /// Benchmark `group/id` on `input`.
    pub fn bench_with_input<ID: IntoBenchmarkId, F, I>(
        &mut self,
        id: ID,
        input: &I,
        mut f: F,
    ) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        let id = id.into_benchmark_id().full(Some(&self.name));
        self.criterion
            .reach(&id, self.limits, self.throughput.clone(), |b| f(b, input));
        self
    }

    /// Ends the group (dropping it does the same).
    pub fn finish(self) {}
}
