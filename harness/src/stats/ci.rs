//! Confidence intervals: of the mean (Student t) and of the median (order statistics).

use super::dist::t_quantile;

/// A two-sided confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// The coverage actually achieved (order statistics can only reach some
    /// levels; for n < 6 the median's interval is the whole range and covers less than 95 %).
    pub level: f64,
}

impl Interval {
    /// The interval widened, where needed, to reach at least `half` either
    /// side of `centre`: no narrower than what the samples can resolve (a
    /// sample lasts whole clock steps, so per-iteration times come in steps
    /// and many are equal, and an order-statistic interval can collapse to a
    /// single value).
    ///
    /// ```
    /// let ci = nbench::__private::stats::Interval { lo: 10.0, hi: 10.0, level: 0.95 };
    /// let w = ci.at_least(10.0, 0.5);
    /// assert_eq!((w.lo, w.hi), (9.5, 10.5));
    /// ```
    pub fn at_least(&self, centre: f64, half: f64) -> Interval {
        Interval {
            lo: self.lo.min(centre - half),
            hi: self.hi.max(centre + half),
            level: self.level,
        }
    }

    /// Half the width relative to `centre` (the ± in "±1 %"); 0 for a point,
    /// infinite when the centre is 0 but the interval is not.
    pub fn rel_half_width(&self, centre: f64) -> f64 {
        let half = (self.hi - self.lo) / 2.0;
        if half == 0.0 {
            0.0
        } else if centre == 0.0 {
            f64::INFINITY
        } else {
            half / centre.abs()
        }
    }
}

/// The `level` CI of the mean, `mean ± t(1-α/2, n-1) · s / √n`.
/// For n = 1 the interval is the point itself (no spread can be estimated).
///
/// ```
/// let ci = nbench::__private::stats::mean_ci(5.0, 1.0, 10, 0.95);
/// assert!(ci.lo < 5.0 && 5.0 < ci.hi);
/// ```
pub fn mean_ci(mean: f64, stddev: f64, n: usize, level: f64) -> Interval {
    if n < 2 {
        return Interval {
            lo: mean,
            hi: mean,
            level,
        };
    }
    let t = t_quantile(1.0 - (1.0 - level) / 2.0, (n - 1) as f64);
    let half = t * stddev / (n as f64).sqrt();
    Interval {
        lo: mean - half,
        hi: mean + half,
        level,
    }
}

/// A distribution-free CI of the median from `sorted`: the symmetric pair of
/// order statistics `x(j), x(n+1-j)` with the largest `j` whose coverage
/// `1 - 2·P(B ≤ j-1)`, B ~ Binomial(n, ½), is still at least `level`.
/// Of an empty slice: NaN bounds, level 0.
///
/// ```
/// let x: Vec<f64> = (1..=10).map(f64::from).collect();
/// let ci = nbench::__private::stats::median_ci_sorted(&x, 0.95);
/// assert_eq!((ci.lo, ci.hi), (2.0, 9.0));
/// ```
pub fn median_ci_sorted(sorted: &[f64], level: f64) -> Interval {
    let n = sorted.len();
    if n == 0 {
        return Interval {
            lo: f64::NAN,
            hi: f64::NAN,
            level: 0.0,
        };
    }
    let alpha_half = (1.0 - level) / 2.0;
    // One pass over the binomial CDF: `tail` is P(B ≤ j-1) for the chosen j.
    let mut ln_pmf = -(n as f64) * std::f64::consts::LN_2;
    let mut cdf = 0.0;
    let mut j = 1;
    let mut tail = ln_pmf.exp();
    for i in 0..n.div_ceil(2) {
        cdf += ln_pmf.exp();
        if cdf > alpha_half {
            break;
        }
        j = i + 1;
        tail = cdf;
        ln_pmf += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
    }
    // j is 1-based; the pair is x(j), x(n+1-j).
    let j = j.clamp(1, n.div_ceil(2));
    Interval {
        lo: sorted[j - 1],
        hi: sorted[n - j],
        level: 1.0 - 2.0 * tail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_ci_by_hand() {
        // n = 10, s = 1: half width = 2.262157 / √10 = 0.715357
        let ci = mean_ci(5.0, 1.0, 10, 0.95);
        assert!((ci.hi - 5.715_357_2).abs() < 1e-6);
        assert!((ci.lo - 4.284_642_8).abs() < 1e-6);
    }

    #[test]
    fn median_ci_n10_uses_second_and_ninth() {
        let x: Vec<f64> = (1..=10).map(f64::from).collect();
        let ci = median_ci_sorted(&x, 0.95);
        assert_eq!((ci.lo, ci.hi), (2.0, 9.0));
        assert!((ci.level - (1.0 - 22.0 / 1024.0)).abs() < 1e-12);
    }

    #[test]
    fn median_ci_small_n_is_the_range() {
        let ci = median_ci_sorted(&[1.0, 2.0, 3.0], 0.95);
        assert_eq!((ci.lo, ci.hi), (1.0, 3.0));
        assert!(ci.level < 0.95);
    }

    #[test]
    fn median_ci_large_n_is_near_normal_theory() {
        // For n = 1000 the ranks are about n/2 ± 1.96·√n/2 = 500 ± 31.
        let x: Vec<f64> = (1..=1000).map(f64::from).collect();
        let ci = median_ci_sorted(&x, 0.95);
        assert!((468.0..=471.0).contains(&ci.lo), "{ci:?}");
        assert!((530.0..=533.0).contains(&ci.hi), "{ci:?}");
        assert!(ci.level >= 0.95);
    }

    #[test]
    fn relative_half_width() {
        let ci = Interval {
            lo: 99.0,
            hi: 101.0,
            level: 0.95,
        };
        assert!((ci.rel_half_width(100.0) - 0.01).abs() < 1e-12);
        assert_eq!(ci.rel_half_width(0.0), f64::INFINITY);
    }
}
