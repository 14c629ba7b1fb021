//! Descriptive statistics of a benchmark's samples, shared by the harness and `cargo nbench`.
//!
//! Every function here works on plain `f64` slices (per-iteration times in
//! nanoseconds, as the engine records them) so the two halves of nbench and
//! its tests compute exactly the same numbers.

mod bootstrap;
mod ci;
mod complexity;
mod density;
mod dist;
mod multiple;
mod normal;
mod outliers;
mod quantile;
mod rank;
mod ratio;
mod sign;

pub use bootstrap::{RESAMPLES, median_ratio_ci};
pub use ci::{Interval, mean_ci, median_ci_sorted};
pub use complexity::{Complexity, fit, fit_values};
pub use density::{bandwidth, density};
pub use dist::{inc_beta, ln_gamma, t_cdf, t_pdf, t_quantile};
pub use multiple::benjamini_hochberg;
pub use normal::{erfc, normal_sf};
pub use outliers::{OutlierMode, Outliers};
pub use quantile::{mad_sorted, median_sorted, percentile_sorted};
pub use rank::mann_whitney;
pub use ratio::{RatioTest, even_orders, log_mean_sd, log_median_sorted, ratio_t_test};
pub use sign::sign_test;

use std::fmt;

/// Why a sample set has no summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatsError {
    /// No samples at all.
    Empty,
    /// A sample is NaN or infinite (sample index given).
    NotFinite(usize),
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::Empty => write!(f, "no samples to summarise"),
            StatsError::NotFinite(i) => write!(f, "sample {i} is not a finite number"),
        }
    }
}

impl std::error::Error for StatsError {}

/// The summary of one benchmark's per-iteration times.
///
/// ```
/// let s = nbench::__private::stats::Summary::new(&[3.0, 1.0, 2.0, 4.0]).unwrap();
/// assert_eq!(s.median, 2.5);
/// assert_eq!(s.min, 1.0);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Number of samples.
    pub count: usize,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Median (NumPy's linear percentile 50).
    pub median: f64,
    /// Sample standard deviation (n − 1 in the denominator; 0 for n = 1).
    pub stddev: f64,
    /// Median absolute deviation from the median, unscaled.
    pub mad: f64,
    /// Coefficient of variation, `stddev / mean` (0 when the mean is 0).
    pub cv: f64,
    /// 5th percentile.
    pub p5: f64,
    /// 25th percentile (first quartile).
    pub p25: f64,
    /// 75th percentile (third quartile).
    pub p75: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
    /// 95 % CI of the mean (Student t).
    pub mean_ci: Interval,
    /// Distribution-free 95 % CI of the median (order statistics).
    pub median_ci: Interval,
    /// Tukey outlier counts, over every sample (set aside or not).
    pub outliers: Outliers,
    /// Samples set aside by the [`OutlierMode`] before the other fields were
    /// computed (`count` excludes them).
    pub set_aside: usize,
}

impl Summary {
    /// Summarises `samples` (any order). Errors on an empty slice or a
    /// non-finite value rather than letting NaN reach a report.
    pub fn new(samples: &[f64]) -> Result<Summary, StatsError> {
        Self::with_outliers(samples, OutlierMode::None)
    }

    /// Summarises the samples `mode` keeps; the Tukey counts still cover all.
    ///
    /// ```
    /// use nbench::__private::stats::{OutlierMode, Summary};
    /// let s = Summary::with_outliers(&[1.0, 1.1, 1.2, 1.3, 9.0], OutlierMode::Iqr).unwrap();
    /// assert_eq!((s.count, s.set_aside, s.max), (4, 1, 1.3));
    /// ```
    pub fn with_outliers(samples: &[f64], mode: OutlierMode) -> Result<Summary, StatsError> {
        if samples.is_empty() {
            return Err(StatsError::Empty);
        }
        if let Some(i) = samples.iter().position(|x| !x.is_finite()) {
            return Err(StatsError::NotFinite(i));
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let kept = mode.kept(&sorted);
        if kept.len() == sorted.len() {
            return Ok(Self::from_sorted(&sorted));
        }
        let mut s = Self::from_sorted(&sorted[kept]);
        s.set_aside = samples.len() - s.count;
        // The Tukey counts describe every sample, not only those kept.
        s.outliers = Outliers::tukey(
            &sorted,
            percentile_sorted(&sorted, 25.0),
            percentile_sorted(&sorted, 75.0),
        );
        Ok(s)
    }

    /// Summarises samples already sorted ascending, known to be finite and non-empty.
    fn from_sorted(sorted: &[f64]) -> Summary {
        let n = sorted.len();
        let mean = mean(sorted);
        let stddev = variance(sorted, mean).sqrt();
        let p = |q| percentile_sorted(sorted, q);
        let (p25, p75) = (p(25.0), p(75.0));
        Summary {
            count: n,
            min: sorted[0],
            max: sorted[n - 1],
            mean,
            median: p(50.0),
            stddev,
            mad: mad_sorted(sorted),
            cv: if mean == 0.0 { 0.0 } else { stddev / mean },
            p5: p(5.0),
            p25,
            p75,
            p95: p(95.0),
            p99: p(99.0),
            mean_ci: mean_ci(mean, stddev, n, 0.95),
            median_ci: median_ci_sorted(sorted, 0.95),
            outliers: Outliers::tukey(sorted, p25, p75),
            set_aside: 0,
        }
    }
}

/// The arithmetic mean.
pub fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The sample variance (n − 1), two-pass around `mean`; 0 for n < 2.
pub fn variance(xs: &[f64], mean: f64) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len() - 1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_by_hand() {
        let s = Summary::new(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!(s.count, 8);
        assert_eq!(s.mean, 5.0);
        assert_eq!(s.median, 4.5);
        // Σ(x-5)² = 32, /7
        assert!((s.stddev - (32.0_f64 / 7.0).sqrt()).abs() < 1e-12);
        assert!((s.cv - s.stddev / 5.0).abs() < 1e-15);
        assert_eq!(s.mad, 0.5);
        assert_eq!((s.p25, s.p75), (4.0, 5.5));
        assert!(s.mean_ci.lo < 5.0 && 5.0 < s.mean_ci.hi);
        assert!(s.median_ci.lo <= s.median && s.median <= s.median_ci.hi);
    }

    #[test]
    fn one_sample() {
        let s = Summary::new(&[42.0]).unwrap();
        assert_eq!(
            (s.min, s.max, s.median, s.stddev, s.cv),
            (42.0, 42.0, 42.0, 0.0, 0.0)
        );
        assert_eq!((s.mean_ci.lo, s.mean_ci.hi), (42.0, 42.0));
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(Summary::new(&[]), Err(StatsError::Empty));
        assert_eq!(
            Summary::new(&[1.0, f64::NAN]),
            Err(StatsError::NotFinite(1))
        );
        assert_eq!(
            Summary::new(&[f64::INFINITY]),
            Err(StatsError::NotFinite(0))
        );
    }

    #[test]
    fn order_invariants_hold() {
        let mut x = 1.0_f64;
        let samples: Vec<f64> = (0..257)
            .map(|_| {
                x = (x * 69_069.0 + 1.0) % 4_096.0;
                x
            })
            .collect();
        let s = Summary::new(&samples).unwrap();
        let chain = [s.min, s.p5, s.p25, s.median, s.p75, s.p95, s.p99, s.max];
        assert!(chain.windows(2).all(|w| w[0] <= w[1]), "{chain:?}");
        assert!(s.median_ci.lo <= s.median && s.median <= s.median_ci.hi);
    }
}
