//! The sampling phase and its stopping rule.

use super::{Measure, Settings, Stop};
use crate::stats::{median_ci_sorted, median_sorted};
use crate::timer::Clock;

/// Takes samples of `iters` iterations until the 95 % CI of the median is
/// within the precision target (checked once `min_time` has passed), or the
/// time limit or sample cap is reached; fewer than `min_samples` only when
/// the time limit runs out first.
/// Returns per-iteration times.
pub fn sample(
    s: &Settings,
    iters: u64,
    clock: &dyn Clock,
    m: &mut dyn Measure,
) -> (Vec<f64>, Stop, u64) {
    let start = clock.now_ns();
    let min = s.min_samples.max(1);
    let cap = s.max_samples.max(min);
    let mut per_iter = Vec::with_capacity(min.max(64));
    // The precision check sorts, so it runs at geometrically spaced counts.
    let mut next_check = min;
    loop {
        per_iter.push(m.sample(iters) / iters as f64);
        let n = per_iter.len();
        let elapsed = clock.now_ns().saturating_sub(start);
        if n < min {
            // The time limit wins over the minimum sample count.
            if elapsed >= s.max_time_ns() {
                return (per_iter, Stop::TooFewSamples, elapsed);
            }
            continue;
        }
        if n >= next_check && elapsed >= s.min_time_ns() {
            if is_precise(&per_iter, s.precision) {
                return (per_iter, Stop::Precise, elapsed);
            }
            next_check = n + (n / 10).max(1);
        }
        if elapsed >= s.max_time_ns() {
            return (per_iter, Stop::TimeLimit, elapsed);
        }
        if n >= cap {
            return (per_iter, Stop::SampleLimit, elapsed);
        }
    }
}

/// Whether the median's 95 % CI is within ±`precision` (relative) of it.
fn is_precise(per_iter: &[f64], precision: f64) -> bool {
    let mut sorted = per_iter.to_vec();
    sorted.sort_by(f64::total_cmp);
    let ci = median_ci_sorted(&sorted, 0.95);
    ci.rel_half_width(median_sorted(&sorted)) <= precision
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_rule() {
        let tight: Vec<f64> = (0..50).map(|i| 100.0 + f64::from(i % 3) * 0.1).collect();
        assert!(is_precise(&tight, 0.01));
        let wide: Vec<f64> = (0..50).map(|i| 100.0 + f64::from(i % 2) * 30.0).collect();
        assert!(!is_precise(&wide, 0.01));
    }
}
