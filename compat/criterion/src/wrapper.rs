//! criterion2's `iter_with_setup_wrapper`: a closure that makes its own
//! input each iteration and hands the routine to be timed to a runner.

use crate::Bencher;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// What the closure of [`Bencher::iter_with_setup_wrapper`] receives:
/// [`run`](Self::run) times the routine it is given; what the closure
/// does around it is not timed.
pub struct WrapperRunner {
    elapsed: Duration,
}

impl WrapperRunner {
    /// Times `routine`, called once; returns its output, which goes
    /// through `black_box` and is dropped outside the timing.
    pub fn run<O, R: FnOnce() -> O>(&mut self, routine: R) -> O {
        let start = Instant::now();
        let out = black_box(routine());
        self.elapsed += start.elapsed();
        out
    }
}

impl<M> Bencher<'_, M> {
    /// Calls `setup` once an iteration with a [`WrapperRunner`], whose
    /// `run` times the routine `setup` hands it (criterion2's, for set-up
    /// that borrows what the routine uses). The clock times the routine
    /// alone; instruction counts take the whole closure, set-up too.
    pub fn iter_with_setup_wrapper<S: FnMut(&mut WrapperRunner)>(&mut self, mut setup: S) {
        self.count_call();
        self.inner.iter_custom(|iters| {
            let mut runner = WrapperRunner {
                elapsed: Duration::ZERO,
            };
            for _ in 0..iters {
                setup(&mut runner);
            }
            runner.elapsed
        });
    }
}
