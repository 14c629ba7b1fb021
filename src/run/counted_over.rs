//! How many iterations a benchmark is counted over, from how long one
//! takes natively, which benchmarks are too slow to count at all, and
//! which counts account for too little of their time to tell.

use super::counting::Over;
use crate::model::metric::SideCounts;
use crate::model::outcome::Measured;
use nbench::__private::count::SETUP_BOUND;
use std::collections::BTreeMap;

/// How long a counted sample should take natively: under callgrind, some
/// 50 times as long (10 ms), long enough that what an iteration does now
/// and then (an allocator growing its pool) is shared by many.
const COUNTED_NATIVE_NS: f64 = 200_000.0;

/// The iterations a benchmark taking `ns_per_iter` natively is counted
/// over: a power of two, so that two sides a little apart in time are
/// counted alike, and each process of an executable the same (left to the
/// clock, a benchmark's earlier samples leave the allocator in another
/// state from run to run).
pub fn iterations_for(ns_per_iter: f64) -> u64 {
    let wanted = (COUNTED_NATIVE_NS / ns_per_iter.max(0.1)).ceil();
    (wanted.clamp(1.0, (1u64 << 24) as f64) as u64).next_power_of_two()
}

/// How much slower callgrind runs code it does not instrument than code
/// it does, as a share: inputs made outside the timing of a benchmark they
/// dwarf run so (the harness switches instrumentation off around them).
/// Valgrind runs uninstrumented code some 7 times slower than natively
/// (png's 7.2 s listing walk took 45 s), instrumented some 50.
const UNINSTRUMENTED: f64 = 0.15;

/// The slowest iteration, ns natively, a benchmark is counted at. Under
/// callgrind it runs some 50 times as long (2.5 s), and a side counts at
/// least 3 of them (`n` and `2n` iterations in its first two processes, `n`
/// again in a third where they leave it open): 7.5–10 s a side. png's decoder suite, whose 12288×12288 decodes take 0.3–1.5 s,
/// was counted for over half an hour with nothing on the screen. A
/// benchmark that long is timed to a small share of itself; time decides
/// it alone.
pub const COUNTED_AT_MOST_NS: f64 = 50e6;

/// Of benchmarks `native` (each id with what an iteration takes
/// natively), those counted, each over the iterations [`iterations_for`]
/// gives, its inputs made uninstrumented where they dwarf its routine; and
/// the ids of those too slow to count ([`COUNTED_AT_MOST_NS`]).
pub fn to_count(native: Vec<(String, Native)>) -> (Vec<(String, Over)>, Vec<String>) {
    let (slow, counted): (Vec<_>, Vec<_>) =
        (native.into_iter()).partition(|(_, n)| n.counted_ns() > COUNTED_AT_MOST_NS);
    let counted = (counted.into_iter())
        .map(|(id, n)| {
            let iters = iterations_for(n.ns());
            let apart = n.setup_bound().is_some();
            (id, Over { iters, apart })
        })
        .collect();
    (counted, slow.into_iter().map(|(id, _)| id).collect())
}

/// What one iteration of a benchmark takes natively, as counting runs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Native {
    /// Its timed part and the loop's, ns.
    pub timed: f64,
    /// The wall time per iteration its measurement took, ns, where it
    /// timed any.
    pub wall: Option<f64>,
}

impl Native {
    /// The wall time, where it is far more than the timed part
    /// ([`SETUP_BOUND`]): making the inputs is what an iteration costs.
    fn setup_bound(&self) -> Option<f64> {
        (self.wall).filter(|w| w.is_finite() && *w > SETUP_BOUND * self.timed)
    }

    /// ns an iteration takes, inputs and all, for [`iterations_for`]:
    /// counted iterations make their inputs too. A benchmark whose 20 ns
    /// routine takes a 20 µs input was counted over 16 384 iterations, a
    /// minute of setups, from its timed part.
    pub fn ns(&self) -> f64 {
        self.setup_bound().unwrap_or(self.timed)
    }

    /// ns an iteration costs counted, at the instrumented pace: its timed
    /// part, and where its inputs dwarf it, [`UNINSTRUMENTED`] of their
    /// making.
    pub fn counted_ns(&self) -> f64 {
        match self.setup_bound() {
            Some(w) => self.timed + (w - self.timed) * UNINSTRUMENTED,
            None => self.timed,
        }
    }
}

/// The wall time per iteration `m`'s measurement took, ns, where it
/// timed any.
pub fn wall_ns(m: &Measured) -> Option<f64> {
    let iterations = m.result.summary.count as f64 * m.result.iters as f64;
    (iterations > 0.0).then(|| m.elapsed_s * 1e9 / iterations)
}

/// The fewest instructions a nanosecond of a benchmark's time may count
/// for its count to tell what the time does. Code runs some 1 to 10 a ns;
/// a walk of pointers that misses every cache, some 0.05. An iteration
/// that sleeps or waits on another process counts far less; so does one
/// whose work runs on other threads where they are not counted (an older
/// nbench's executables, a CPU's counter): paralight's work-stealing sums
/// counted 606 an iteration of 50 µs to 50 ms (0.012 to 0.000 012 a ns),
/// the calling thread's wait.
const FEWEST_PER_NS: f64 = 0.02;

/// Each benchmark's native time per iteration, ns, by id.
pub fn timed_of(native: &[(String, Native)]) -> BTreeMap<String, f64> {
    (native.iter())
        .map(|(id, n)| (id.clone(), n.timed))
        .collect()
}

/// Marks each count of `side` that accounts for too little of its
/// benchmark's time (`timed`, ns an iteration) to tell what the time does
/// ([`FEWEST_PER_NS`]): its work runs where the count does not reach.
pub fn mark_unaccounted(side: &mut SideCounts, timed: &BTreeMap<String, f64>) {
    for (id, counts) in side.iter_mut() {
        let Some(&ns) = timed.get(id) else { continue };
        for c in counts.iter_mut().filter(|c| c.not_telling.is_none()) {
            if ns > 0.0 && c.per_iter + c.overhead < FEWEST_PER_NS * ns {
                c.not_telling = Some(format!(
                    "it counts {:.0} instructions an iteration that takes {}: most of its \
                     time is spent where the count does not reach (waiting, sleeping, or on \
                     threads it does not count)",
                    c.per_iter,
                    nbench::__private::format::time(ns)
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::metric::Counted;

    #[test]
    fn a_count_that_accounts_for_little_of_the_time_tells_nothing() {
        let counted = |per_iter| Counted {
            per_iter,
            overhead: 2.0,
            not_telling: None,
            iters: 64,
        };
        // paralight's sum on a one-thread pool: 606 instructions for
        // 494 µs; a serial sum of as many numbers: 175 027 for 50 µs.
        let mut side: SideCounts = [("pool", 606.0), ("serial", 175_027.0), ("unknown", 1.0)]
            .into_iter()
            .map(|(id, n)| (id.to_owned(), vec![counted(n)]))
            .collect();
        let timed = [("pool", 494_500.0), ("serial", 50_000.0)]
            .map(|(id, ns)| (id.to_owned(), ns))
            .into();
        mark_unaccounted(&mut side, &timed);
        let why = side["pool"][0].not_telling.as_deref().unwrap();
        assert!(
            why.contains("606 instructions an iteration that takes 494.5 µs"),
            "{why}"
        );
        assert!(side["serial"][0].not_telling.is_none());
        assert!(
            side["unknown"][0].not_telling.is_none(),
            "no time, no judgement"
        );
    }

    #[test]
    fn iterations_are_a_power_of_two_near_a_fixed_native_time() {
        // 80 µs an iteration: 200 µs wanted, 2.5 iterations, 4.
        assert_eq!(iterations_for(80_000.0), 4);
        // A setup-bound row: from its wall time; a measured one: its own.
        let n = |timed, wall| Native { timed, wall }.ns();
        assert_eq!(iterations_for(n(19.0, Some(21_600.0))), 16);
        assert_eq!(iterations_for(n(19.0, Some(300.0))), 16_384);
        assert_eq!(n(19.0, None), 19.0);
        assert_eq!(n(19.0, Some(f64::INFINITY)), 19.0);
        // Two sides 1 % apart are counted alike.
        assert_eq!(iterations_for(80_800.0), 4);
        assert_eq!(iterations_for(1.0), 262_144);
        assert_eq!(iterations_for(5e9), 1);
        assert_eq!(iterations_for(0.0), 1 << 21);
        assert_eq!(iterations_for(f64::NAN), 1 << 21);
    }

    #[test]
    fn a_benchmark_too_slow_for_callgrind_is_left_to_time() {
        let timed = |ns| Native {
            timed: ns,
            wall: None,
        };
        // A 1.6 µs insert into a tree made for it in 100 ms: the tree is
        // made uninstrumented, 15 ms at the instrumented pace.
        let setup = Native {
            timed: 1_600.0,
            wall: Some(100e6),
        };
        let native = vec![
            ("decode/12288x12288".to_owned(), timed(1.2e9)),
            ("decode/128x128".to_owned(), timed(80_000.0)),
            ("at_the_limit".to_owned(), timed(COUNTED_AT_MOST_NS)),
            ("insert/last_key".to_owned(), setup),
            (
                "insert/slow_setup".to_owned(),
                Native {
                    wall: Some(1e9),
                    ..setup
                },
            ),
        ];
        let (counted, slow) = to_count(native);
        assert_eq!(
            counted,
            [
                ("decode/128x128".to_owned(), Over::iters(4)),
                ("at_the_limit".to_owned(), Over::iters(1)),
                // Its inputs dwarf its routine: made uninstrumented.
                (
                    "insert/last_key".to_owned(),
                    Over {
                        iters: 1,
                        apart: true
                    }
                )
            ]
        );
        assert_eq!(slow, ["decode/12288x12288", "insert/slow_setup"]);
    }
}
