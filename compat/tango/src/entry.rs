//! The bench binary's `main`: tango's benchmarks registered with nbench.

use crate::benchmark::{Benchmark, BenchmarkParams};
use std::cell::RefCell;
use std::process::ExitCode;

/// The seed every benchmark's sampler is made with. tango draws a new one
/// for each run; a fixed one gives both sides of a comparison the same
/// input, and the same instruction count from process to process.
pub const SEED: u64 = 0x6e62_656e_6368;

/// Registers the benchmarks `benchmarks` makes, each under its name, and
/// runs them as the command line asks; the exit code.
pub fn run(benchmarks: impl FnOnce() -> Vec<Benchmark>) -> ExitCode {
    let registry = registry(benchmarks());
    registry.run()
}

pub(crate) fn registry(benchmarks: Vec<Benchmark>) -> nbench::Registry {
    let mut registry = nbench::Registry::new();
    for Benchmark { name, factory } in benchmarks {
        let factory = RefCell::new(factory);
        registry.bench(&name, move |b| {
            let params = BenchmarkParams { seed: SEED };
            let mut sampler = factory.borrow_mut().create_sampler(params);
            sampler.__time(b);
        });
    }
    registry
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ErasedSampler, benchmark_fn, metrics::CpuTime};
    use std::cell::Cell;
    use std::rc::Rc;

    fn code(registry: &nbench::Registry, args: &[&str]) -> u8 {
        nbench::__private::modes::code(registry, args.iter().map(|a| a.to_string()))
    }

    #[test]
    fn each_benchmark_is_registered_under_its_name_and_runs_with_the_fixed_seed() {
        let seeds = Rc::new(RefCell::new(Vec::new()));
        let calls = Rc::new(Cell::new(0u64));
        let (s, c) = (Rc::clone(&seeds), Rc::clone(&calls));
        let registry = registry(vec![
            benchmark_fn("sum/random", move |b| {
                s.borrow_mut().push(b.seed);
                let c = Rc::clone(&c);
                b.iter(move || c.set(c.get() + 1))
            }),
            benchmark_fn("cpu", |b| b.metric::<CpuTime>().iter(|| 2 + 2)),
        ]);
        assert_eq!(registry.ids(), ["sum/random", "cpu"]);
        // Test mode runs each benchmark once.
        assert_eq!(code(&registry, &["--test"]), 0);
        assert_eq!(*seeds.borrow(), [SEED]);
        assert!(calls.get() >= 1);
    }

    struct ByHand(Rc<Cell<usize>>);

    impl ErasedSampler for ByHand {
        fn measure(&mut self, iterations: usize) -> u64 {
            self.0.set(self.0.get() + iterations);
            iterations as u64 * 10
        }
    }

    #[test]
    fn a_sampler_written_by_hand_is_timed_by_its_own_measure() {
        let iterations = Rc::new(Cell::new(0));
        let seen = Rc::clone(&iterations);
        let registry = registry(vec![benchmark_fn("by_hand", move |_| {
            Box::new(ByHand(Rc::clone(&seen)))
        })]);
        assert_eq!(code(&registry, &["--test"]), 0);
        assert!(iterations.get() >= 1);
    }
}
