//! The sign test: whether values fall above and below a point as often as chance allows, as SciPy's `binomtest(k, n, 0.5)`.

/// The two-sided p-value of the sign test: `above` values lay above the
/// point tested and `below` below it (values equal to it are left out
/// beforehand). Under the null hypothesis each side is as likely, so the
/// count above is binomial(n, ½), and the p-value is the chance of a split
/// at least as uneven: `min(1, 2 · P(B ≤ min(above, below)))`. 1 when
/// nothing is left to count.
///
/// ```
/// // 9 of 10 above: 2 · (1 + 10) / 1024.
/// let p = nbench::__private::stats::sign_test(9, 1);
/// assert!((p - 22.0 / 1024.0).abs() < 1e-15);
/// assert_eq!(nbench::__private::stats::sign_test(5, 5), 1.0);
/// ```
pub fn sign_test(above: usize, below: usize) -> f64 {
    let n = above + below;
    if n == 0 {
        return 1.0;
    }
    let k = above.min(below);
    // P(B ≤ k) summed from the log pmf: ln C(n, i) − n ln 2, term by term.
    let mut ln_pmf = -(n as f64) * std::f64::consts::LN_2;
    let mut cdf = 0.0;
    for i in 0..=k {
        cdf += ln_pmf.exp();
        ln_pmf += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
    }
    (2.0 * cdf).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_splits_by_hand() {
        // n = 4: P(B ≤ 0) = 1/16, P(B ≤ 1) = 5/16.
        assert!((sign_test(4, 0) - 2.0 / 16.0).abs() < 1e-15);
        assert!((sign_test(1, 3) - 10.0 / 16.0).abs() < 1e-15);
        assert_eq!(sign_test(2, 2), 1.0);
        assert_eq!(sign_test(0, 0), 1.0);
        // Symmetric in its arguments.
        assert_eq!(sign_test(30, 17), sign_test(17, 30));
    }
}
