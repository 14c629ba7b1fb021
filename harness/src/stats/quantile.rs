//! Order statistics: percentiles (NumPy's default linear method), median, MAD.

/// The `p`-th percentile (0 ≤ p ≤ 100) of `sorted`, interpolated linearly
/// between the two nearest ranks, as `numpy.percentile(x, p)` does.
///
/// `sorted` must be in ascending order; NaN when it is empty or `p` is NaN.
///
/// ```
/// use nbench::__private::stats::percentile_sorted;
/// assert_eq!(percentile_sorted(&[1.0, 2.0, 3.0, 4.0], 25.0), 1.75);
/// ```
pub fn percentile_sorted(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() || p.is_nan() {
        return f64::NAN;
    }
    let p = p.clamp(0.0, 100.0);
    let rank = p / 100.0 * (sorted.len() - 1) as f64;
    let lo = rank.floor() as usize;
    let hi = rank.ceil() as usize;
    let frac = rank - lo as f64;
    if lo == hi || frac == 0.0 {
        sorted[lo]
    } else {
        // NumPy's form, exact when both neighbours are equal.
        sorted[lo] + (sorted[hi] - sorted[lo]) * frac
    }
}

/// The median of `sorted` (the mean of the two middle values for even n); NaN when empty.
///
/// ```
/// assert_eq!(nbench::__private::stats::median_sorted(&[1.0, 2.0, 10.0, 11.0]), 6.0);
/// ```
pub fn median_sorted(sorted: &[f64]) -> f64 {
    percentile_sorted(sorted, 50.0)
}

/// The median absolute deviation from the median, unscaled
/// (`scipy.stats.median_abs_deviation(x)` with its default `scale=1.0`); NaN when empty.
///
/// ```
/// assert_eq!(nbench::__private::stats::mad_sorted(&[1.0, 2.0, 3.0, 4.0, 9.0]), 1.0);
/// ```
pub fn mad_sorted(sorted: &[f64]) -> f64 {
    let m = median_sorted(sorted);
    let mut dev: Vec<f64> = sorted.iter().map(|x| (x - m).abs()).collect();
    dev.sort_by(f64::total_cmp);
    median_sorted(&dev)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_linear_percentiles() {
        // numpy.percentile([1, 2, 3, 4], [0, 25, 50, 75, 95, 100])
        let x = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile_sorted(&x, 0.0), 1.0);
        assert_eq!(percentile_sorted(&x, 25.0), 1.75);
        assert_eq!(percentile_sorted(&x, 50.0), 2.5);
        assert_eq!(percentile_sorted(&x, 75.0), 3.25);
        assert!((percentile_sorted(&x, 95.0) - 3.85).abs() < 1e-12);
        assert_eq!(percentile_sorted(&x, 100.0), 4.0);
    }

    #[test]
    fn single_value() {
        assert_eq!(percentile_sorted(&[7.0], 5.0), 7.0);
        assert_eq!(mad_sorted(&[7.0]), 0.0);
    }

    #[test]
    fn mad_by_hand() {
        // median 3; |x - 3| = 2 1 0 1 6 → sorted 0 1 1 2 6 → 1
        assert_eq!(mad_sorted(&[1.0, 2.0, 3.0, 4.0, 9.0]), 1.0);
    }
}
