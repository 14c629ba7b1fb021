//! Running one benchmark function so that a panic costs only that benchmark.

use crate::bencher::{Bencher, Driver, Throughput};
use crate::registry::Benchmark;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// Set while this thread runs a benchmark function under [`run_guarded`].
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the panic hook once: a panic inside a guarded benchmark is
/// recorded for the report instead of printed; any other panic (another
/// thread, code outside a benchmark) keeps the usual message.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CAPTURING.get() {
                return default(info);
            }
            let payload = info.payload();
            let msg = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("(a panic without a message)");
            let text = match info.location() {
                Some(l) => format!("panicked at {}:{}: {msg}", l.file(), l.line()),
                None => format!("panicked: {msg}"),
            };
            LAST_PANIC.set(Some(text));
        }));
    });
}

/// Calls the benchmark function with `driver` behind its `Bencher`. Returns
/// the throughput it declared, or why it failed.
pub fn run_guarded(
    bench: &Benchmark,
    driver: &mut dyn Driver,
) -> Result<Option<Throughput>, String> {
    install_hook();
    let mut b = Bencher::new(driver);
    CAPTURING.set(true);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| (bench.func)(&mut b)));
    CAPTURING.set(false);
    if outcome.is_err() {
        return Err(LAST_PANIC.take().unwrap_or_else(|| "panicked".to_owned()));
    }
    match b.timed {
        1 => Ok(b.throughput),
        0 => Err("never called a timing method (iter, iter_batched or iter_custom)".to_owned()),
        n => Err(format!(
            "called timing methods {n} times; call exactly one, once"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Registry;
    use crate::engine::Measure;

    struct Once1;
    impl Driver for Once1 {
        fn drive(
            &mut self,
            _: crate::bencher::LoopKind,
            _: Option<Throughput>,
            m: &mut dyn Measure,
        ) {
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
        assert_eq!(out[3], Ok(Some(Throughput::Items(3))));
    }
}
