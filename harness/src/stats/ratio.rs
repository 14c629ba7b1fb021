//! The change shown by a set of ratios (current / baseline): a one-sample t test on their logarithms.

use super::dist::{t_cdf, t_quantile};
use super::quantile::median_sorted;

/// The estimated relative change with its CI and the t test behind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatioTest {
    /// exp(mean of ln r) − 1: the geometric mean ratio as a change (0.05 = 5 % slower).
    pub change: f64,
    /// CI of the change at the level asked for.
    pub ci: [f64; 2],
    /// The t statistic, mean / standard error of ln r.
    pub t: f64,
    /// Two-sided p-value of "no change".
    pub p: f64,
}

/// Rounds' ratios with as many of each order in them: `by_order` holds
/// the ratios of the rounds one side sampled first in and of those the
/// other did, each in the order they ran; the longer list loses its
/// latest surplus (with one list empty, the other is kept whole).
///
/// Where two routines take turns going first, each runs twice in a row
/// once every two rounds, and a routine whose data is still in cache from
/// its own last sample reads faster then: the ratios of one order lean
/// one way, the other's the other way (a decoder of 10 MiB: 1.085 and
/// 0.924). A median over more rounds of one order takes that order's lean;
/// with the orders even, the two leans sit on either side of it.
///
/// ```
/// let r = nbench::__private::stats::even_orders([vec![1.1, 1.1, 1.2], vec![0.9]]);
/// assert_eq!(r, [1.1, 0.9]);
/// ```
pub fn even_orders(by_order: [Vec<f64>; 2]) -> Vec<f64> {
    let [mut first, mut second] = by_order;
    let even = first.len().min(second.len());
    if even > 0 {
        first.truncate(even);
        second.truncate(even);
    }
    first.extend(second);
    first
}

/// The median of sorted ratios taken in log space: of an even count, the
/// geometric mean of the middle two, so that two orders of rounds leaning
/// ×1.1 and ÷1.1 meet at 1 ([`even_orders`]). With a ratio of 0 or less
/// among them (a routine that took no time), the plain median.
///
/// ```
/// let m = nbench::__private::stats::log_median_sorted(&[0.9, 1.0 / 0.9]);
/// assert!((m - 1.0).abs() < 1e-12);
/// ```
pub fn log_median_sorted(sorted: &[f64]) -> f64 {
    if sorted.first().is_some_and(|r| *r <= 0.0) {
        return median_sorted(sorted);
    }
    let logs: Vec<f64> = sorted.iter().map(|r| r.ln()).collect();
    median_sorted(&logs).exp()
}

/// The one-sample t test of ln r = 0, as SciPy's `ttest_1samp(log(r), 0)`,
/// with the CI mapped back to a relative change. `None` with fewer than two
/// positive, finite ratios. Identical ratios give a zero-width CI and p = 1
/// (no change) or 0 (a change without spread).
///
/// ```
/// let r = nbench::__private::stats::ratio_t_test(&[1.01, 1.03], 0.95).unwrap();
/// assert!((r.p - 0.293_281_199_180_558_6).abs() < 1e-12);
/// ```
pub fn ratio_t_test(ratios: &[f64], level: f64) -> Option<RatioTest> {
    let (mean, sd, k) = log_mean_sd(ratios)?;
    let k = k as f64;
    let se = sd / k.sqrt();
    let q = t_quantile(1.0 - (1.0 - level) / 2.0, k - 1.0);
    let (t, p) = if se > 0.0 {
        let t = mean / se;
        (t, 2.0 * t_cdf(-t.abs(), k - 1.0))
    } else if mean == 0.0 {
        (0.0, 1.0)
    } else {
        (mean.signum() * f64::INFINITY, 0.0)
    };
    Some(RatioTest {
        change: mean.exp_m1(),
        ci: [(mean - q * se).exp_m1(), (mean + q * se).exp_m1()],
        t,
        p,
    })
}

/// The mean and sample standard deviation of `ln x` over the positive,
/// finite values of `xs`, and how many there were; `None` with fewer than two.
///
/// ```
/// let (mean, sd, n) = nbench::__private::stats::log_mean_sd(&[1.0, std::f64::consts::E, -3.0]).unwrap();
/// assert_eq!(n, 2);
/// assert!((mean - 0.5).abs() < 1e-12 && (sd - 0.5f64.sqrt()).abs() < 1e-12);
/// ```
pub fn log_mean_sd(xs: &[f64]) -> Option<(f64, f64, usize)> {
    let logs: Vec<f64> = xs
        .iter()
        .filter(|x| **x > 0.0 && x.is_finite())
        .map(|x| x.ln())
        .collect();
    if logs.len() < 2 {
        return None;
    }
    let n = logs.len() as f64;
    let mean = logs.iter().sum::<f64>() / n;
    let sd = (logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    Some((mean, sd, logs.len()))
}
