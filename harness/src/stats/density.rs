//! Gaussian kernel density estimates: the smooth distribution plots of the HTML report.

use super::quantile::percentile_sorted;

/// A bandwidth for [`density`] by Silverman's rule of thumb,
/// `0.9 · min(s, IQR / 1.34) · n^(−1/5)` (`s`: sample standard deviation,
/// IQR from linearly interpolated percentiles). The robust spread keeps a few
/// far outliers from smoothing the bulk of the samples away. Falls back to
/// `s` where the IQR is zero (more than half the samples equal); `0.0` for
/// fewer than two samples or no spread at all.
///
/// ```
/// let h = nbench::__private::stats::bandwidth(&[1.0, 2.0, 3.0, 4.0, 100.0]);
/// assert!(h > 0.5 && h < 2.0, "the outlier barely widens it: {h}");
/// ```
pub fn bandwidth(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n < 2 {
        return 0.0;
    }
    let mean = sorted.iter().sum::<f64>() / n as f64;
    let s = super::variance(sorted, mean).sqrt();
    let iqr = percentile_sorted(sorted, 75.0) - percentile_sorted(sorted, 25.0);
    let spread = if iqr > 0.0 { s.min(iqr / 1.34) } else { s };
    let h = 0.9 * spread * (n as f64).powf(-0.2);
    if h.is_finite() { h } else { 0.0 }
}

/// The Gaussian kernel density estimate of `samples` with `bandwidth`,
/// evaluated at each point of `at` (it integrates to 1 over the real line).
/// Empty or NaN when there are no samples or the bandwidth is not positive.
///
/// ```
/// let d = nbench::__private::stats::density(&[0.0], 1.0, &[0.0]);
/// assert!((d[0] - 1.0 / (2.0 * std::f64::consts::PI).sqrt()).abs() < 1e-15);
/// ```
pub fn density(samples: &[f64], bandwidth: f64, at: &[f64]) -> Vec<f64> {
    if samples.is_empty() || bandwidth.is_nan() || bandwidth <= 0.0 {
        return vec![f64::NAN; at.len()];
    }
    let norm = 1.0 / (samples.len() as f64 * bandwidth * (2.0 * std::f64::consts::PI).sqrt());
    at.iter()
        .map(|&x| {
            let sum: f64 = samples
                .iter()
                .map(|&s| {
                    let z = (x - s) / bandwidth;
                    (-0.5 * z * z).exp()
                })
                .sum();
            sum * norm
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degenerate_inputs_give_no_curve() {
        assert_eq!(bandwidth(&[]), 0.0);
        assert_eq!(bandwidth(&[3.0]), 0.0);
        assert_eq!(bandwidth(&[2.0, 2.0, 2.0]), 0.0);
        assert!(density(&[], 1.0, &[0.0])[0].is_nan());
        assert!(density(&[1.0], 0.0, &[0.0])[0].is_nan());
    }

    #[test]
    fn mostly_equal_samples_still_get_a_bandwidth() {
        let h = bandwidth(&[5.0, 5.0, 5.0, 5.0, 5.0, 6.0]);
        assert!(h > 0.0, "IQR is 0, the standard deviation is not: {h}");
    }
}
