//! The benchmark API through its public face: a `Registry` run by
//! `nbench::__private::modes::run`, as a bench target's `main` runs it.

use nbench::{BatchSize, Registry};
use std::cell::{Cell, RefCell};
use std::process::ExitCode;
use std::rc::Rc;

const QUICK: [&str; 7] = [
    "--bench",
    "--warm-up",
    "1ms",
    "--min-time",
    "1ms",
    "--max-time",
    "5ms",
];

fn run(r: &Registry, args: &[&str]) -> ExitCode {
    nbench::__private::modes::run(r, args.iter().map(|a| a.to_string()))
}

#[test]
fn setup_and_teardown_run_once_per_parameter_value_around_all_timing() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut r = Registry::new();
    let l = Rc::clone(&log);
    r.group("g").args([1, 2]).bench("b", move |b, &n| {
        l.borrow_mut().push(format!("setup {n}"));
        let calls = Cell::new(0u64);
        b.iter(|| calls.set(calls.get() + 1));
        l.borrow_mut()
            .push(format!("teardown {n} after {}", calls.get()));
    });
    assert_eq!(run(&r, &QUICK), ExitCode::SUCCESS);
    let log = log.take();
    assert_eq!(log.len(), 4, "{log:?}");
    assert_eq!(log[0], "setup 1");
    assert_eq!(log[2], "setup 2");
    for (i, n) in [(1, 1), (3, 2)] {
        let calls: u64 = log[i]
            .strip_prefix(&format!("teardown {n} after "))
            .unwrap()
            .parse()
            .unwrap();
        // The pilot, warm-up and samples all ran between setup and teardown.
        assert!(calls > 1000, "{}", log[i]);
    }
}

#[test]
fn batch_sizes_bound_the_inputs_held_at_once() {
    for (size, most) in [
        (BatchSize::Small, 256),
        (BatchSize::Large, 16),
        (BatchSize::PerIteration, 1),
        (BatchSize::Inputs(3), 3),
    ] {
        // Inputs made and not yet consumed, and the most there ever were.
        let held = Rc::new((Cell::new(0u64), Cell::new(0u64)));
        let h = Rc::clone(&held);
        let mut r = Registry::new();
        r.bench("batched", move |b| {
            let h = Rc::clone(&h);
            let h2 = Rc::clone(&h);
            b.batch_size(size).iter_batched(
                move || {
                    h.0.set(h.0.get() + 1);
                    h.1.set(h.1.get().max(h.0.get()));
                },
                move |()| h2.0.set(h2.0.get() - 1),
            );
        });
        assert_eq!(run(&r, &QUICK), ExitCode::SUCCESS);
        assert_eq!(held.1.get(), most, "{size:?}");
    }
}

#[test]
fn checks_and_skips_decide_the_exit_code() {
    let mut r = Registry::new();
    r.bench("skips", |b| b.skip("not here"));
    r.bench("right", |b| {
        b.iter_checked(|| 2 + 2, |v| if v == 4 { Ok(()) } else { Err(v) })
    });
    // A skip is not a failure, in test mode or measured.
    assert_eq!(run(&r, &[]), ExitCode::SUCCESS);
    assert_eq!(run(&r, &QUICK), ExitCode::SUCCESS);
    r.bench("wrong", |b| {
        b.iter_checked(|| 2 + 3, |v| if v == 4 { Ok(()) } else { Err(v) })
    });
    assert_eq!(
        run(&r, &[]),
        ExitCode::from(nbench::__private::modes::EXIT_FAILED)
    );
    assert_eq!(
        run(&r, &QUICK),
        ExitCode::from(nbench::__private::modes::EXIT_FAILED)
    );
}
