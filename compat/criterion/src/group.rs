//! `BenchmarkGroup` and `BenchmarkId`: benchmarks named `group/function/parameter`.

use crate::limits::Limits;
use crate::{Bencher, Criterion, Throughput};
use std::fmt::Display;

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

    crate::limits::settings!([&mut] self -> &mut Self, plots);

    /// The work one iteration of the group's benchmarks does, shown as a rate.
    pub fn throughput(&mut self, throughput: Throughput) -> &mut Self {
        self.throughput = Some(throughput);
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
