//! What rustc's harness hands over (`#[test]` and `#[bench]` functions,
//! described by libtest's `TestDesc`), and its run under nbench.

use crate::{Bencher, TestDesc};
use nbench_bencher::{TDynBenchFn, TestFn as Registered};

/// A function of the harness: rustc writes `StaticTestFn(|| …)` for a
/// `#[test]` and `StaticBenchFn(|b| …)` for a `#[bench]`.
pub enum TestFn {
    StaticTestFn(fn() -> Result<(), String>),
    StaticBenchFn(fn(&mut Bencher) -> Result<(), String>),
}

/// One function of the harness and libtest's description of it.
pub struct TestDescAndFn {
    pub desc: TestDesc,
    pub testfn: TestFn,
}

/// A `#[bench]` function, whose `Err` (a `Result` it returned) fails its
/// benchmark as a panic does.
struct Bench(fn(&mut Bencher) -> Result<(), String>);

impl TDynBenchFn for Bench {
    fn run(&self, harness: &mut Bencher) {
        if let Err(why) = (self.0)(harness) {
            panic!("{why}");
        }
    }
}

/// The harness's `main`: runs the `#[bench]` functions as the command line
/// asks, and exits with the run's code.
pub fn test_main_static(tests: &[&TestDescAndFn]) {
    std::process::exit(run(tests));
}

/// The harness's `main` where tests abort on panic: as [`test_main_static`].
pub fn test_main_static_abort(tests: &[&TestDescAndFn]) {
    test_main_static(tests)
}

/// Registers each `#[bench]` function under libtest's name for it (ignored
/// where it is `#[ignore]`), leaves the `#[test]` functions out, runs them;
/// the exit code.
fn run(tests: &[&TestDescAndFn]) -> i32 {
    let benches = (tests.iter())
        .filter_map(|t| match t.testfn {
            TestFn::StaticBenchFn(f) => Some(nbench_bencher::TestDescAndFn {
                desc: nbench_bencher::TestDesc {
                    name: t.desc.name.as_slice().to_owned().into(),
                    ignore: t.desc.ignore,
                },
                testfn: Registered::DynBenchFn(Box::new(Bench(f))),
            }),
            TestFn::StaticTestFn(_) => None,
        })
        .collect();
    nbench_bencher::__private::run(benches)
}
