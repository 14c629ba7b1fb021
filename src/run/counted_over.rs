//! How many iterations a benchmark is counted over, from how long one
//! takes natively, and which benchmarks are too slow to count at all.

use crate::model::outcome::Measured;

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

/// Where a benchmark's wall time per iteration is this many times its
/// timed part, making its inputs (a batch's setup, outside the timing) is
/// what an iteration costs. Measured on the gungraun fixture: rows without
/// a costly setup take 1.7–6.5 times their timed part in a plain run
/// (warm-up, calibration, processes) and 7.6–15.5 times in a comparison
/// (both sides' processes); rows whose 20 µs setup dwarfs the routine 158
/// to 4 028 times.
const SETUP_BOUND: f64 = 64.0;

/// The slowest iteration, ns natively, a benchmark is counted at. Under
/// callgrind it runs some 50 times as long (2.5 s), and a side counts at
/// least 3 of them (`n` and `2n` iterations in its first two processes, `n`
/// again in a third where they leave it open): 7.5–10 s a side. png's decoder suite, whose 12288×12288 decodes take 0.3–1.5 s,
/// was counted for over half an hour with nothing on the screen. A
/// benchmark that long is timed to a small share of itself; time decides
/// it alone.
pub const COUNTED_AT_MOST_NS: f64 = 50e6;

/// Of benchmarks `native` (each id with an iteration's native ns, as
/// [`native_ns`] gives it), those counted, each over the iterations
/// [`iterations_for`] gives; and the ids of those too slow to count
/// ([`COUNTED_AT_MOST_NS`]).
pub fn to_count(native: Vec<(String, f64)>) -> (Vec<(String, u64)>, Vec<String>) {
    let (slow, counted): (Vec<_>, Vec<_>) =
        (native.into_iter()).partition(|(_, ns)| *ns > COUNTED_AT_MOST_NS);
    let counted = (counted.into_iter())
        .map(|(id, ns)| (id, iterations_for(ns)))
        .collect();
    (counted, slow.into_iter().map(|(id, _)| id).collect())
}

/// The native time, ns, of one iteration as counting runs it, for
/// [`iterations_for`]: `timed` (its timed part and the loop's), or where
/// `wall` (the wall time per iteration its measurement took) is far more,
/// `wall`. Counted iterations make their inputs too, under Valgrind: a
/// benchmark whose 20 ns routine takes a 20 µs input was counted over
/// 16 384 iterations, a minute of setups.
pub fn native_ns(timed: f64, wall: Option<f64>) -> f64 {
    match wall {
        Some(w) if w.is_finite() && w > SETUP_BOUND * timed => w,
        _ => timed,
    }
}

/// The wall time per iteration `m`'s measurement took, ns, where it
/// timed any.
pub fn wall_ns(m: &Measured) -> Option<f64> {
    let iterations = m.result.summary.count as f64 * m.result.iters as f64;
    (iterations > 0.0).then(|| m.elapsed_s * 1e9 / iterations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterations_are_a_power_of_two_near_a_fixed_native_time() {
        // 80 µs an iteration: 200 µs wanted, 2.5 iterations, 4.
        assert_eq!(iterations_for(80_000.0), 4);
        // A setup-bound row: from its wall time; a measured one: its own.
        assert_eq!(iterations_for(native_ns(19.0, Some(21_600.0))), 16);
        assert_eq!(iterations_for(native_ns(19.0, Some(300.0))), 16_384);
        assert_eq!(native_ns(19.0, None), 19.0);
        assert_eq!(native_ns(19.0, Some(f64::INFINITY)), 19.0);
        // Two sides 1 % apart are counted alike.
        assert_eq!(iterations_for(80_800.0), 4);
        assert_eq!(iterations_for(1.0), 262_144);
        assert_eq!(iterations_for(5e9), 1);
        assert_eq!(iterations_for(0.0), 1 << 21);
        assert_eq!(iterations_for(f64::NAN), 1 << 21);
    }

    #[test]
    fn a_benchmark_too_slow_for_callgrind_is_left_to_time() {
        let native = vec![
            ("decode/12288x12288".to_owned(), 1.2e9),
            ("decode/128x128".to_owned(), 80_000.0),
            ("at_the_limit".to_owned(), COUNTED_AT_MOST_NS),
        ];
        let (counted, slow) = to_count(native);
        assert_eq!(
            counted,
            [
                ("decode/128x128".to_owned(), 4),
                ("at_the_limit".to_owned(), 1)
            ]
        );
        assert_eq!(slow, ["decode/12288x12288"]);
    }
}
