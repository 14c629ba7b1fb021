//! The `Bencher` a benchmark function is given.

use std::marker::PhantomData;

/// Given to each benchmark function: [`Bencher::iter`] times its closure;
/// `bytes`, set before or after, is the work of one iteration. Like
/// bencher's (and libtest's), it has no lifetime to write (`&mut
/// Bencher`), so a suite that warns of hidden lifetimes
/// (`rust_2018_idioms`) stays quiet.
pub struct Bencher {
    /// Bytes one iteration handles: shown as a rate beside the time.
    pub bytes: u64,
    /// The harness's bencher for this call of the function.
    nbench: *mut nbench::Bencher<'static>,
    /// Not to be sent away from the call it was made for.
    _here: PhantomData<*mut ()>,
}

impl Bencher {
    /// Runs `function` with a `Bencher` over `nbench`, then declares the
    /// throughput it set. (For the front ends built on this one.)
    #[doc(hidden)]
    pub fn with<R>(
        nbench: &mut nbench::Bencher<'_>,
        function: impl FnOnce(&mut Bencher) -> R,
    ) -> R {
        let pointer: *mut nbench::Bencher<'_> = nbench;
        let mut b = Bencher {
            bytes: 0,
            // The lifetime is forgotten here and the pointer used only
            // while `nbench` is borrowed: the `Bencher` is lent to
            // `function` by `&mut` (it cannot be moved out, made, or sent
            // to another thread) and dropped before this returns.
            nbench: pointer.cast(),
            _here: PhantomData,
        };
        let out = function(&mut b);
        if b.bytes > 0 {
            nbench.throughput(nbench::Throughput::Bytes(b.bytes));
        }
        out
    }

    /// Times `inner`, called repeatedly; what it returns is kept from the
    /// optimizer (and dropped inside the timing, as in bencher).
    pub fn iter<T, F: FnMut() -> T>(&mut self, inner: F) {
        // SAFETY: `self.nbench` points at the harness's bencher, borrowed
        // mutably for as long as this `Bencher` lives (see `with`).
        let nbench = unsafe { &mut *self.nbench };
        nbench.iter(inner);
    }
}
