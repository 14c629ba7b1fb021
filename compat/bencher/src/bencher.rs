//! The `Bencher` a benchmark function is given.

/// Given to each benchmark function: [`Bencher::iter`] times its
/// closure; `bytes`, set before or after, is the work of one iteration.
pub struct Bencher<'a, 'b> {
    /// Bytes one iteration handles: shown as a rate beside the time.
    pub bytes: u64,
    nbench: &'a mut nbench::Bencher<'b>,
}

impl<'a, 'b> Bencher<'a, 'b> {
    pub(crate) fn new(nbench: &'a mut nbench::Bencher<'b>) -> Self {
        Bencher { bytes: 0, nbench }
    }

    /// Times `inner`, called repeatedly; what it returns is kept from the
    /// optimizer (and dropped inside the timing, as in bencher).
    pub fn iter<T, F: FnMut() -> T>(&mut self, inner: F) {
        self.nbench.iter(inner);
    }

    /// Declares what the function set in `bytes`.
    pub(crate) fn finish(self) {
        if self.bytes > 0 {
            self.nbench
                .throughput(nbench::Throughput::Bytes(self.bytes));
        }
    }
}
