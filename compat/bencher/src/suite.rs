//! bencher's descriptions of benchmarks, and its runner: each registered
//! with nbench under its name.

use crate::Bencher;
use std::borrow::Cow;

/// A benchmark's name.
pub type TestName = Cow<'static, str>;

/// A benchmark written as a value rather than a function.
pub trait TDynBenchFn: Send {
    fn run(&self, harness: &mut Bencher);
}

/// A benchmark's code.
pub enum TestFn {
    StaticBenchFn(fn(&mut Bencher)),
    DynBenchFn(Box<dyn TDynBenchFn + 'static>),
}

/// A benchmark's name, and whether it is left out unless asked for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TestDesc {
    pub name: TestName,
    pub ignore: bool,
}

/// A benchmark: what `benchmark_group!` lists.
pub struct TestDescAndFn {
    pub desc: TestDesc,
    pub testfn: TestFn,
}

/// bencher's runner options: accepted; the bench binary's command line
/// (nbench's) decides what runs.
#[derive(Default)]
pub struct TestOpts {
    pub filter: Option<String>,
    pub run_ignored: bool,
    pub logfile: Option<std::path::PathBuf>,
    pub quiet: bool,
    pub test_threads: Option<usize>,
}

/// Runs `tests` as the command line asks; whether none failed.
pub fn run_tests_console(_opts: &TestOpts, tests: Vec<TestDescAndFn>) -> std::io::Result<bool> {
    Ok(run(tests) == 0)
}

/// Registers each benchmark under its name, runs them as the command line
/// asks; the exit code.
pub fn run(tests: Vec<TestDescAndFn>) -> i32 {
    let registry = registry(tests);
    let args = std::env::args().skip(1);
    i32::from(nbench::__private::modes::code(&registry, args))
}

/// Why a function that never called `iter` is skipped rather than failed.
const NOT_TIMED: &str = "its function timed nothing (it called no `iter`): bencher reports 0 \
                         ns/iter for it";

fn registry(tests: Vec<TestDescAndFn>) -> nbench::Registry {
    let mut registry = nbench::Registry::new();
    for TestDescAndFn { desc, testfn } in tests {
        let marks = registry.bench(&desc.name, move |nb| {
            Bencher::with(nb, |b| match &testfn {
                TestFn::StaticBenchFn(f) => f(b),
                TestFn::DynBenchFn(f) => f.run(b),
            });
            nbench::__private::skip_if_untimed(nb, NOT_TIMED);
        });
        if desc.ignore {
            marks.ignore();
        }
    }
    registry
}

#[cfg(test)]
mod unit {
    use super::TestFn::{DynBenchFn, StaticBenchFn};
    use super::*;

    fn sum(b: &mut Bencher) {
        b.iter(|| (0..100u64).sum::<u64>());
        b.bytes = 800;
    }

    struct Fill(usize);

    impl TDynBenchFn for Fill {
        fn run(&self, harness: &mut Bencher) {
            harness.iter(|| vec![0u8; self.0]);
        }
    }

    fn described(name: &'static str, ignore: bool, testfn: TestFn) -> TestDescAndFn {
        let name = Cow::from(name);
        TestDescAndFn {
            desc: TestDesc { name, ignore },
            testfn,
        }
    }

    fn nothing(_: &mut Bencher) {}

    #[test]
    fn each_benchmark_is_registered_under_its_name_and_runs() {
        let registry = registry(vec![
            described("sum", false, StaticBenchFn(sum)),
            described("fill", false, DynBenchFn(Box::new(Fill(64)))),
            described("slow", true, StaticBenchFn(sum)),
            // Skipped, not failed: bencher reports 0 ns/iter.
            described("nothing", false, StaticBenchFn(nothing)),
        ]);
        assert_eq!(registry.ids(), ["sum", "fill", "slow", "nothing"]);
        let args = ["--test"].map(String::from);
        assert_eq!(nbench::__private::modes::code(&registry, args), 0);
    }
}
