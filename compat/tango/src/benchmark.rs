//! A benchmark as tango defines it: a name and a factory that makes its
//! sampler from the benchmark's parameters.

use crate::metrics::{Metric, WallClock};
use crate::sampler::{ErasedSampler, Sampler};
use std::marker::PhantomData;
use std::ops::Deref;

/// What a benchmark's factory is given: the seed its input may be drawn
/// from.
pub struct BenchmarkParams {
    pub seed: u64,
}

/// Given to a benchmark's factory; [`Bencher::iter`] names the function
/// to measure, timed by metric `M`.
pub struct Bencher<M = WallClock> {
    params: BenchmarkParams,
    metric: PhantomData<M>,
}

impl<M> Deref for Bencher<M> {
    type Target = BenchmarkParams;

    fn deref(&self) -> &BenchmarkParams {
        &self.params
    }
}

impl<M: Metric + 'static> Bencher<M> {
    /// The same benchmark, timed by metric `T` (`metrics::CpuTime`).
    pub fn metric<T: Metric>(self) -> Bencher<T> {
        Bencher {
            params: self.params,
            metric: PhantomData,
        }
    }

    /// Measures `func`, called repeatedly; what it returns is kept from
    /// the optimizer.
    pub fn iter<O: 'static, F: FnMut() -> O + 'static>(self, func: F) -> Box<dyn ErasedSampler> {
        Box::new(Sampler::<F, M>::new(func))
    }
}

/// Makes a benchmark's sampler.
pub trait SamplerFactory {
    fn create_sampler(&mut self, params: BenchmarkParams) -> Box<dyn ErasedSampler>;
}

struct SyncFactory<F>(F);

impl<F: FnMut(Bencher) -> Box<dyn ErasedSampler>> SamplerFactory for SyncFactory<F> {
    fn create_sampler(&mut self, params: BenchmarkParams) -> Box<dyn ErasedSampler> {
        (self.0)(Bencher {
            params,
            metric: PhantomData,
        })
    }
}

/// One benchmark: its name and what makes its sampler.
pub struct Benchmark {
    pub(crate) name: String,
    pub(crate) factory: Box<dyn SamplerFactory>,
}

impl Benchmark {
    /// A factory's benchmark (for front ends like `async_benchmark_fn`).
    pub(crate) fn new(name: impl Into<String>, factory: Box<dyn SamplerFactory>) -> Benchmark {
        let name = name.into();
        assert!(!name.is_empty(), "a tango benchmark needs a name");
        Benchmark { name, factory }
    }

    /// A sampler made with `seed`.
    pub fn prepare_state(&mut self, seed: u64) -> Box<dyn ErasedSampler> {
        self.factory.create_sampler(BenchmarkParams { seed })
    }

    /// The benchmark's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// A benchmark named `name`; `factory` is given a [`Bencher`] and returns
/// what its [`Bencher::iter`] returns.
pub fn benchmark_fn<F>(name: impl Into<String>, factory: F) -> Benchmark
where
    F: FnMut(Bencher) -> Box<dyn ErasedSampler> + 'static,
{
    Benchmark::new(name, Box::new(SyncFactory(factory)))
}

/// What `tango_benchmarks!` takes: benchmarks, as an array or a `Vec`.
pub trait IntoBenchmarks {
    fn into_benchmarks(self) -> Vec<Benchmark>;
}

impl<const N: usize> IntoBenchmarks for [Benchmark; N] {
    fn into_benchmarks(self) -> Vec<Benchmark> {
        self.into_iter().collect()
    }
}

impl IntoBenchmarks for Vec<Benchmark> {
    fn into_benchmarks(self) -> Vec<Benchmark> {
        self
    }
}
