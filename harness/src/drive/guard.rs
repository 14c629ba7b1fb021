//! Running one benchmark function so that a panic costs only that benchmark.

use crate::bencher::{Bencher, Declared, Driver};
use crate::catch::capture;
use crate::registry::Benchmark;

/// How a benchmark function that did not fail ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Finish {
    /// It called one timing method; what it declared beside the routine.
    Timed(Declared),
    /// It called [`Bencher::skip`] instead, for this reason.
    Skipped(String),
}

/// Calls the benchmark function with `driver` behind its `Bencher`. Returns
/// how it finished, or why it failed (a panic, a failed check, misuse).
pub fn run_guarded(bench: &Benchmark, driver: &mut dyn Driver) -> Result<Finish, String> {
    let mut b = Bencher::new(driver);
    b.threads = bench.threads;
    capture(|| (bench.func)(&mut b))?;
    if let Some(failure) = b.failure {
        return Err(failure);
    }
    match (b.timed, b.skipped) {
        (0, Some(reason)) => Ok(Finish::Skipped(reason)),
        (_, Some(_)) => Err("called skip and a timing method; call one of them".to_owned()),
        (1, None) => Ok(Finish::Timed(b.declared)),
        (_, None) if b.timed > 1 && b.later_run_once => Ok(Finish::Timed(b.declared)),
        (0, None) => Err(
            "never called a timing method (iter, iter_batched, iter_custom, …) or skip".to_owned(),
        ),
        (n, None) => Err(format!(
            "called timing methods {n} times; call exactly one, once"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Registry;
    use crate::Throughput;
    use crate::engine::Measure;

    struct Once1;
    impl Driver for Once1 {
        fn drive(&mut self, _: crate::bencher::LoopKind, _: &Declared, m: &mut dyn Measure) {
            m.sample(1);
        }
    }

    #[test]
    fn panics_and_misuse_become_messages() {
        let mut r = Registry::new();
        r.bench("boom", |b| b.iter(|| panic!("kaboom {}", 42)));
        r.bench("none", |_| {});
        r.bench("twice", |b| {
            b.iter(|| ());
            b.iter(|| ());
        });
        r.bench("fine", |b| {
            b.throughput(Throughput::Items(3));
            b.iter(|| ())
        });
        r.bench("skipped", |b| b.skip("not today"));
        r.bench("skip after timing", |b| {
            b.iter(|| ());
            b.skip("too late")
        });
        let out: Vec<_> = r
            .benches
            .iter()
            .map(|b| run_guarded(b, &mut Once1))
            .collect();
        let boom = out[0].clone().unwrap_err();
        assert!(
            boom.contains("kaboom 42") && boom.contains("guard.rs"),
            "{boom}"
        );
        assert!(out[1].clone().unwrap_err().contains("never called"));
        assert!(out[2].clone().unwrap_err().contains("2 times"));
        let declared = Declared {
            throughput: Some(Throughput::Items(3)),
            counters: Vec::new(),
            metric: Default::default(),
        };
        assert_eq!(out[3], Ok(Finish::Timed(declared)));
        assert_eq!(out[4], Ok(Finish::Skipped("not today".into())));
        assert!(
            out[5]
                .clone()
                .unwrap_err()
                .contains("skip and a timing method")
        );
    }

    #[test]
    fn a_front_end_may_skip_a_function_that_timed_nothing() {
        use crate::bencher::skip_if_untimed;
        let mut r = Registry::new();
        r.bench("nothing", |b| skip_if_untimed(b, "timed nothing"));
        r.bench("timed", |b| {
            b.iter(|| ());
            skip_if_untimed(b, "timed nothing")
        });
        r.bench("skipped", |b| {
            b.skip("its own reason");
            skip_if_untimed(b, "timed nothing")
        });
        let out: Vec<_> = (r.benches.iter())
            .map(|b| run_guarded(b, &mut Once1))
            .collect();
        assert_eq!(out[0], Ok(Finish::Skipped("timed nothing".into())));
        assert!(matches!(out[1], Ok(Finish::Timed(_))), "{:?}", out[1]);
        assert_eq!(out[2], Ok(Finish::Skipped("its own reason".into())));
    }

    #[test]
    fn a_front_end_may_let_later_timing_calls_run_once_untimed() {
        use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
        static FIRST: AtomicU32 = AtomicU32::new(0);
        static LATER: AtomicU32 = AtomicU32::new(0);
        let mut r = Registry::new();
        r.bench("each input", |b| {
            crate::bencher::later_calls_run_once(b);
            b.iter(|| FIRST.fetch_add(1, Relaxed));
            b.iter(|| LATER.fetch_add(1, Relaxed));
            b.iter(|| LATER.fetch_add(1, Relaxed));
        });
        struct Samples;
        impl Driver for Samples {
            fn drive(&mut self, _: crate::bencher::LoopKind, _: &Declared, m: &mut dyn Measure) {
                m.sample(10);
                m.sample(10);
            }
        }
        let out = run_guarded(&r.benches[0], &mut Samples);
        assert_eq!(out, Ok(Finish::Timed(Declared::default())));
        assert_eq!(FIRST.load(Relaxed), 20, "the first call is sampled");
        assert_eq!(LATER.load(Relaxed), 2, "each later one runs once");
    }
}
