//! The percentile bootstrap: a CI of the ratio of two samples' medians, reproducible from a seed.

use super::{Interval, median_sorted, percentile_sorted};

/// Resamples used by [`median_ratio_ci`] unless told otherwise.
pub const RESAMPLES: usize = 1000;

/// The `level` percentile-bootstrap CI of `median(cur) / median(base)`:
/// both samples are resampled with replacement `resamples` times from a
/// generator seeded with `seed`, so the same input always gives the same
/// interval. `None` when a sample is empty, holds a non-finite value, or
/// the baseline median is not positive.
///
/// ```
/// let base: Vec<f64> = (0..50).map(|i| 100.0 + (i % 7) as f64).collect();
/// let cur: Vec<f64> = base.iter().map(|x| x * 1.1).collect();
/// let ci = nbench::__private::stats::median_ratio_ci(&base, &cur, 1000, 0.95, 1).unwrap();
/// assert!(ci.lo <= 1.1 && 1.1 <= ci.hi);
/// ```
pub fn median_ratio_ci(
    base: &[f64],
    cur: &[f64],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<Interval> {
    let finite = |x: &[f64]| !x.is_empty() && x.iter().all(|v| v.is_finite());
    if !(finite(base) && finite(cur)) || resamples == 0 {
        return None;
    }
    let mut rng = XorShift::new(seed);
    let mut scratch = Vec::with_capacity(base.len().max(cur.len()));
    let mut ratios: Vec<f64> = (0..resamples)
        .filter_map(|_| {
            let b = rng.resampled_median(base, &mut scratch);
            let c = rng.resampled_median(cur, &mut scratch);
            (b > 0.0).then(|| c / b)
        })
        .collect();
    if ratios.is_empty() {
        return None;
    }
    ratios.sort_by(f64::total_cmp);
    let tail = (1.0 - level) / 2.0 * 100.0;
    Some(Interval {
        lo: percentile_sorted(&ratios, tail),
        hi: percentile_sorted(&ratios, 100.0 - tail),
        level,
    })
}

/// xorshift64: tiny, fast, and more than random enough for resampling.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> Self {
        // Zero is xorshift's one fixed point.
        XorShift(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn resampled_median(&mut self, x: &[f64], scratch: &mut Vec<f64>) -> f64 {
        scratch.clear();
        let n = x.len() as u64;
        scratch.extend((0..n).map(|_| x[(self.next() % n) as usize]));
        scratch.sort_by(f64::total_cmp);
        median_sorted(scratch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_interval_and_bad_input_is_none() {
        let x: Vec<f64> = (1..=30).map(f64::from).collect();
        let a = median_ratio_ci(&x, &x, 200, 0.95, 7).unwrap();
        assert_eq!(Some(a), median_ratio_ci(&x, &x, 200, 0.95, 7));
        assert!(a.lo <= 1.0 && 1.0 <= a.hi && a.lo < a.hi);
        assert_eq!(median_ratio_ci(&[], &x, 200, 0.95, 7), None);
        assert_eq!(median_ratio_ci(&x, &[1.0, f64::NAN], 200, 0.95, 7), None);
        assert_eq!(median_ratio_ci(&[0.0; 5], &x, 200, 0.95, 7), None);
        assert_eq!(median_ratio_ci(&x, &x, 0, 0.95, 7), None);
    }
}
