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
