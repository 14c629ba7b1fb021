//! `async_executor`: the executors [`Bencher::to_async`](crate::Bencher::to_async)
//! runs futures on, as criterion names them (each behind its feature).

use std::future::Future;

/// Runs a future to completion (criterion's trait): implement it for an
/// executor of your own, or use one of the features' executors.
pub trait AsyncExecutor {
    /// Runs `future` on this executor, blocking until it is complete.
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T;
}

/// The `futures` crate's executor (feature `async_futures`).
#[cfg(feature = "async_futures")]
#[derive(Debug, Clone, Copy, Default)]
pub struct FuturesExecutor;

#[cfg(feature = "async_futures")]
impl AsyncExecutor for FuturesExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        futures::executor::block_on(future)
    }
}

/// The `smol` crate's executor (feature `async_smol`).
#[cfg(feature = "async_smol")]
#[derive(Debug, Clone, Copy, Default)]
pub struct SmolExecutor;

#[cfg(feature = "async_smol")]
impl AsyncExecutor for SmolExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        smol::block_on(future)
    }
}

/// criterion's async-std executor (feature `async_std`, criterion 0.3 to
/// 0.7): runs the future with smol's `block_on`, the reactor loop
/// async-std's own `block_on` is built on (async-std is no longer
/// maintained). Its tasks and I/O run as under async-std; its task-locals
/// are not set up.
#[cfg(feature = "async_std")]
#[derive(Debug, Clone, Copy, Default)]
pub struct AsyncStdExecutor;

#[cfg(feature = "async_std")]
impl AsyncExecutor for AsyncStdExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        smol::block_on(future)
    }
}

#[cfg(feature = "async_tokio")]
impl AsyncExecutor for tokio::runtime::Runtime {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        self.block_on(future)
    }
}

#[cfg(feature = "async_tokio")]
impl AsyncExecutor for &tokio::runtime::Runtime {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        (*self).block_on(future)
    }
}

#[cfg(feature = "async_tokio")]
impl AsyncExecutor for tokio::runtime::Handle {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        self.block_on(future)
    }
}

#[cfg(feature = "async_tokio")]
impl AsyncExecutor for &tokio::runtime::Handle {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        (*self).block_on(future)
    }
}

#[cfg(all(test, feature = "async_std"))]
mod tests {
    use super::*;

    #[test]
    fn the_async_std_executor_runs_a_future_to_its_end() {
        let ready = async { 6 * 7 };
        assert_eq!(AsyncStdExecutor.block_on(ready), 42);
        let yielding = async {
            let mut n = 0;
            for _ in 0..3 {
                n += 1;
                smol::future::yield_now().await;
            }
            n
        };
        assert_eq!(AsyncStdExecutor.block_on(yielding), 3);
    }
}
