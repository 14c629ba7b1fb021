//! Bad numeric input at every public entry point of `nbench::__private::stats`: an
//! error, `None`, or the documented value (NaN for the plain `f64` helpers,
//! which the summary never feeds bad data) — never a panic.

use nbench::__private::stats::*;

const BAD: [f64; 3] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY];

#[test]
fn summaries_reject_empty_and_non_finite_samples() {
    for mode in OutlierMode::ALL {
        assert_eq!(Summary::with_outliers(&[], mode), Err(StatsError::Empty));
        for bad in BAD {
            let e = Summary::with_outliers(&[1.0, bad], mode);
            assert_eq!(e, Err(StatsError::NotFinite(1)));
        }
    }
}

#[test]
fn order_statistics_of_nothing_are_nan() {
    assert!(percentile_sorted(&[], 50.0).is_nan());
    assert!(median_sorted(&[]).is_nan());
    assert!(mad_sorted(&[]).is_nan());
    assert!(mean(&[]).is_nan());
    assert_eq!(variance(&[], f64::NAN), 0.0);
    let ci = median_ci_sorted(&[], 0.95);
    assert!(ci.lo.is_nan() && ci.hi.is_nan());
    // A NaN percentile asks for nothing meaningful.
    assert!(percentile_sorted(&[1.0, 2.0], f64::NAN).is_nan());
    assert_eq!(OutlierMode::Iqr.kept(&[]), 0..0);
    assert_eq!(Outliers::tukey(&[], f64::NAN, f64::NAN).total(), 0);
}

#[test]
fn distributions_outside_their_domain() {
    assert_eq!(t_quantile(0.0, 5.0), f64::NEG_INFINITY);
    assert_eq!(t_quantile(1.0, 5.0), f64::INFINITY);
    for (p, df) in [
        (f64::NAN, 5.0),
        (0.9, f64::NAN),
        (0.9, 0.0),
        (0.9, -1.0),
        (1.5, 5.0),
    ] {
        assert!(t_quantile(p, df).is_nan(), "t_quantile({p}, {df})");
    }
    for bad in BAD {
        assert!(!t_cdf(bad, 5.0).is_finite() || (0.0..=1.0).contains(&t_cdf(bad, 5.0)));
        assert!(t_cdf(1.0, bad).is_nan() || (0.0..=1.0).contains(&t_cdf(1.0, bad)));
        let _ = (
            t_pdf(bad, 3.0),
            ln_gamma(bad),
            inc_beta(bad, 1.0, 1.0),
            erfc(bad),
        );
    }
    assert!(t_cdf(f64::NAN, 5.0).is_nan());
    assert_eq!(t_cdf(f64::INFINITY, 5.0), 1.0);
    assert_eq!(t_cdf(f64::NEG_INFINITY, 5.0), 0.0);
    assert!(normal_sf(f64::NAN).is_nan());
    assert_eq!(
        (normal_sf(f64::INFINITY), normal_sf(f64::NEG_INFINITY)),
        (0.0, 1.0)
    );
}

#[test]
fn tests_and_fits_return_errors_or_nothing() {
    assert!(mann_whitney(&[], &[1.0]).is_err());
    assert!(mann_whitney(&[1.0, f64::NAN], &[1.0]).is_err());
    assert!(ratio_t_test(&[], 0.95).is_none());
    assert!(ratio_t_test(&[1.0], 0.95).is_none());
    // Documented: ratios that are not positive and finite are left out.
    let good = ratio_t_test(&[1.0, 1.1], 0.95);
    for bad in [f64::NAN, f64::INFINITY, 0.0, -1.0] {
        assert_eq!(ratio_t_test(&[1.0, bad, 1.1], 0.95), good, "{bad}");
    }
    for bad in BAD {
        assert!(median_ratio_ci(&[1.0, bad], &[1.0], 100, 0.95, 1).is_none());
        assert!(fit(&[1.0, 2.0], &[1.0, bad], Complexity::Auto).is_none());
        assert!(fit_values(&[1.0, bad], &[1.0, 2.0]).is_none());
    }
    assert!(benjamini_hochberg(&[]).is_empty());
    // p-values outside [0, 1] are clamped; NaN stays NaN (no verdict can come of it).
    let adj = benjamini_hochberg(&[0.01, f64::NAN, 2.0]);
    assert_eq!(adj.len(), 3);
    assert!(adj[1].is_nan() && adj[2] == 1.0, "{adj:?}");
    assert_eq!(adj[0], 0.02, "two tests counted, not three");
}
