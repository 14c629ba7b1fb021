//! Benchmarks of async functions, each call run to completion on a
//! runtime of the suite's choosing (feature `async`; `TokioRuntime` with
//! `async-tokio`).

use crate::benchmark::{Benchmark, BenchmarkParams, SamplerFactory};
use crate::metrics::WallClock;
use crate::sampler::{ErasedSampler, Sampler};
use std::future::Future;
use std::ops::Deref;

/// A benchmark named `name` whose function is async: each call runs on
/// `runtime` to completion, and the whole call is timed, as in tango.
pub fn async_benchmark_fn<R, F>(name: impl Into<String>, runtime: R, factory: F) -> Benchmark
where
    R: AsyncRuntime + 'static,
    F: FnMut(AsyncBencher<R>) -> Box<dyn ErasedSampler> + 'static,
{
    Benchmark::new(name, Box::new(AsyncSampleFactory(factory, runtime)))
}

/// The factory of an async benchmark, and its runtime.
pub struct AsyncSampleFactory<F, R>(pub F, pub R);

impl<R, F> SamplerFactory for AsyncSampleFactory<F, R>
where
    R: AsyncRuntime,
    F: FnMut(AsyncBencher<R>) -> Box<dyn ErasedSampler>,
{
    fn create_sampler(&mut self, params: BenchmarkParams) -> Box<dyn ErasedSampler> {
        (self.0)(AsyncBencher {
            params,
            runtime: self.1,
        })
    }
}

/// Given to an async benchmark's factory.
pub struct AsyncBencher<R> {
    params: BenchmarkParams,
    runtime: R,
}

impl<R: AsyncRuntime + 'static> AsyncBencher<R> {
    /// Measures the future `func` returns, run to completion on the
    /// runtime at each call.
    pub fn iter<O, Fut, F>(self, func: F) -> Box<dyn ErasedSampler>
    where
        O: 'static,
        Fut: Future<Output = O>,
        F: FnMut() -> Fut + Copy + 'static,
    {
        let runtime = self.runtime;
        Box::new(Sampler::<_, WallClock>::new(move || runtime.block_on(func)))
    }
}

impl<R> Deref for AsyncBencher<R> {
    type Target = BenchmarkParams;

    fn deref(&self) -> &BenchmarkParams {
        &self.params
    }
}

/// Runs a future to completion.
pub trait AsyncRuntime: Copy {
    fn block_on<O, Fut: Future<Output = O>, F: FnMut() -> Fut>(&self, f: F) -> O;
}

/// tokio's current-thread runtime, made for each call as tango makes it.
#[cfg(feature = "async-tokio")]
pub mod tokio {
    use super::AsyncRuntime;
    use std::future::Future;

    /// tokio's current-thread runtime.
    #[derive(Clone, Copy)]
    pub struct TokioRuntime;

    impl AsyncRuntime for TokioRuntime {
        fn block_on<O, Fut: Future<Output = O>, F: FnMut() -> Fut>(&self, mut f: F) -> O {
            let runtime = ::tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("tokio's current-thread runtime");
            runtime.block_on(f())
        }
    }
}

#[cfg(all(test, feature = "async-tokio"))]
mod tests {
    use super::tokio::TokioRuntime;
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn an_async_benchmark_runs_each_call_to_completion_on_its_runtime() {
        static DONE: AtomicU32 = AtomicU32::new(0);
        let benchmark = async_benchmark_fn("sleepless", TokioRuntime, |b| {
            assert_eq!(b.seed, crate::SEED);
            b.iter(|| async {
                ::tokio::task::yield_now().await;
                DONE.fetch_add(1, Ordering::Relaxed);
            })
        });
        let registry = crate::entry::registry(vec![benchmark]);
        let args = ["--test"].map(String::from);
        assert_eq!(nbench::__private::modes::code(&registry, args), 0);
        assert!(DONE.load(Ordering::Relaxed) >= 1);
    }
}
