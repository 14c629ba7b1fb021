//! libtest's `#[bench]` API on the nbench harness, for suites written for
//! libtest itself (`#![feature(test)]`, `extern crate test`, `#[bench]`,
//! on a nightly toolchain).
//!
//! Nothing in the suite changes. cargo nbench builds this crate and gives
//! it to the bench target's compiler as `test` (`--extern
//! noprelude:test=…`, reached only through `extern crate test`, as libtest
//! is), so that both the suite's `extern crate test` and the harness rustc
//! makes of its `#[bench]` functions reach it: `test::Bencher` becomes
//! nbench-bencher's (as libtest's, with no lifetime to write), and
//! `test_main_static`, which the harness's `main` calls, registers each
//! `#[bench]` function with nbench under libtest's name for it (its path
//! in the file, `module::function`). Everything else is
//! libtest's own, re-exported: `black_box`, the descriptions rustc writes,
//! `assert_test_result`. `#[test]` functions in a bench file are not run.
//! `cargo bench` still runs the suite under libtest.

#![feature(test)]

extern crate test as libtest;

pub use TestFn::{StaticBenchFn, StaticTestFn};
pub use libtest::*;

mod suite;

pub use nbench_bencher::Bencher;
pub use suite::{TestDescAndFn, TestFn, test_main_static, test_main_static_abort};
