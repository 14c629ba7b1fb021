//! What rustc's harness hands over (`#[test]` and `#[bench]` functions,
//! described by libtest's `TestDesc`), and its run under nbench.

use crate::{Bencher, TestDesc};

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

/// The harness's `main`: runs the `#[bench]` functions as the command line
/// asks, and exits with the run's code.
pub fn test_main_static(tests: &[&TestDescAndFn]) {
    let args = std::env::args().skip(1);
    let code = nbench::__private::modes::code(&registry(tests), args);
    std::process::exit(i32::from(code));
}

/// The harness's `main` where tests abort on panic: as [`test_main_static`].
pub fn test_main_static_abort(tests: &[&TestDescAndFn]) {
    test_main_static(tests)
}

/// Why a function that never called `iter` is skipped rather than failed.
const NOT_TIMED: &str = "its function timed nothing (it called no `iter`): libtest reports 0 \
                         ns/iter for it";

/// Each `#[bench]` function registered under libtest's name for it
/// (ignored where it is `#[ignore]`); the `#[test]` functions left out. A
/// function's `Err` (a `Result` it returned) fails its benchmark as a
/// panic does.
fn registry(tests: &[&TestDescAndFn]) -> nbench::Registry {
    let mut registry = nbench::Registry::new();
    for t in tests {
        let TestFn::StaticBenchFn(function) = t.testfn else {
            continue;
        };
        let marks = registry.bench(t.desc.name.as_slice(), move |nb| {
            if let Err(why) = Bencher::with(nb, function) {
                panic!("{why}");
            }
            nbench::__private::skip_if_untimed(nb, NOT_TIMED);
        });
        if t.desc.ignore {
            marks.ignore();
        }
    }
    registry
}
