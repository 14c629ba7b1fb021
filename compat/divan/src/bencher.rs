//! divan's `Bencher`: the timing loops, on nbench's.

use crate::counter::Counter;

/// What a `#[divan::bench]` function taking a `Bencher` times with.
pub struct Bencher<'a, 'b> {
    inner: &'a mut nbench::Bencher<'b>,
}

impl<'a, 'b> Bencher<'a, 'b> {
    #[doc(hidden)]
    pub fn __new(inner: &'a mut nbench::Bencher<'b>) -> Self {
        Bencher { inner }
    }

    /// Declares the work one iteration does.
    pub fn counter<C: Into<Counter>>(self, counter: C) -> Self {
        counter.into().declare(self.inner);
        self
    }

    /// Times `routine` on the benchmark's threads (all at once where it
    /// has several), its output dropped outside the timing.
    pub fn bench<O, R: Fn() -> O + Sync>(self, routine: R) {
        crate::threads::time(self.inner, routine);
    }

    /// Times `routine` on the current thread (it need not be `Sync`).
    pub fn bench_local<O, R: FnMut() -> O>(self, routine: R) {
        if crate::threads::on_one(self.inner, "bench_local") {
            self.inner.iter(routine);
        }
    }

    /// Gives each iteration an input made by `make`, outside the timing.
    /// Unbounded here, as in divan: a bound would make every closure
    /// `FnMut` only, and the loops on several threads take an `Fn`.
    pub fn with_inputs<G>(self, make: G) -> BencherWithInputs<'a, 'b, G> {
        BencherWithInputs {
            inner: self.inner,
            make,
        }
    }
}

/// A `Bencher` whose iterations each take an input.
pub struct BencherWithInputs<'a, 'b, G> {
    inner: &'a mut nbench::Bencher<'b>,
    make: G,
}

impl<I, G: FnMut() -> I> BencherWithInputs<'_, '_, G> {
    /// Declares the work one iteration does.
    pub fn counter<C: Into<Counter>>(self, counter: C) -> Self {
        counter.into().declare(self.inner);
        self
    }

    /// Declares the work an iteration does from a sample input.
    pub fn input_counter<C: Into<Counter>, F: Fn(&I) -> C>(mut self, count: F) -> Self {
        let input = (self.make)();
        count(&input).into().declare(self.inner);
        self
    }

    /// Declares each input itself as the count (`count_inputs_as::<ItemsCount>()`
    /// where inputs are sizes): nbench declares one amount per benchmark,
    /// that of a sample input.
    pub fn count_inputs_as<C>(mut self) -> Self
    where
        C: From<I> + Into<Counter>,
    {
        let input = (self.make)();
        C::from(input).into().declare(self.inner);
        self
    }

    /// Times `routine` on each input, taken by value, on one thread.
    pub fn bench_local_values<O, R: FnMut(I) -> O>(self, routine: R) {
        self.each("bench_local_values", routine);
    }

    /// Times `routine` on each input, by mutable reference, on one thread.
    pub fn bench_local_refs<O, R: FnMut(&mut I) -> O>(self, mut routine: R) {
        self.each("bench_local_refs", move |mut i| (routine(&mut i), i));
    }

    /// Times `routine` on each input, on one thread (see `threads::on_one`).
    fn each<O, R: FnMut(I) -> O>(self, what: &str, routine: R) {
        if crate::threads::on_one(self.inner, what) {
            self.inner.iter_batched(self.make, routine);
        }
    }
}

/// The loops divan runs on the benchmark's threads, each thread making
/// its own inputs (so the maker is `Fn + Sync`, as in divan).
impl<I, G: Fn() -> I + Sync> BencherWithInputs<'_, '_, G> {
    /// Times `routine` on each input, taken by value.
    pub fn bench_values<O, R: Fn(I) -> O + Sync>(self, routine: R) {
        if self.inner.threads() > 1 {
            self.inner.iter_threads_batched(self.make, routine);
        } else {
            self.inner.iter_batched(self.make, routine);
        }
    }

    /// Times `routine` on each input, by mutable reference; the input is
    /// dropped outside the timing.
    pub fn bench_refs<O, R: Fn(&mut I) -> O + Sync>(self, routine: R) {
        self.bench_values(move |mut i| (routine(&mut i), i));
    }
}
