//! Student's t distribution (and the special functions behind it) for confidence intervals.

use std::f64::consts::PI;

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; about 15 significant digits).
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection keeps the series in its accurate range.
        return (PI / (PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised incomplete beta function I_x(a, b).
pub fn inc_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    // The continued fraction converges fast only on this side of the mean.
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_cf(x, a, b) / a
    } else {
        1.0 - ln_front.exp() * beta_cf(1.0 - x, b, a) / b
    }
}

/// Continued fraction for the incomplete beta (modified Lentz).
fn beta_cf(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    let mut c = 1.0;
    let mut d = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0));
    let mut h = d;
    for m in 1..=10_000 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        // Even step.
        let num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 / guard(1.0 + num * d);
        c = guard(1.0 + num / c);
        h *= d * c;
        // Odd step.
        let num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 / guard(1.0 + num * d);
        c = guard(1.0 + num / c);
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

/// The CDF of Student's t distribution with `df` degrees of freedom.
///
/// ```
/// assert_eq!(nbench::__private::stats::t_cdf(0.0, 5.0), 0.5);
/// ```
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * inc_beta(df / (df + t * t), df / 2.0, 0.5);
    if t >= 0.0 { 1.0 - tail } else { tail }
}

/// The `p` quantile (0 < p < 1) of Student's t with `df` degrees of freedom:
/// ±∞ at p = 0 or 1, NaN outside [0, 1] or for `df` not above 0.
///
/// ```
/// let t = nbench::__private::stats::t_quantile(0.975, 9.0);
/// assert!((t - 2.262_157).abs() < 1e-6);
/// ```
pub fn t_quantile(p: f64, df: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if p == 0.0 || p == 1.0 {
        return if p == 0.0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    if p == 0.5 {
        return 0.0;
    }
    if p < 0.5 {
        return -t_quantile(1.0 - p, df);
    }
    // Bracket, then Newton steps kept inside the bracket (bisecting when a
    // step would leave it): converges in a handful of CDF evaluations and
    // cannot diverge.
    let mut lo = 0.0;
    let mut hi = 1.0;
    while t_cdf(hi, df) < p {
        lo = hi;
        hi *= 2.0;
        if hi > 1e300 {
            return f64::INFINITY;
        }
    }
    let mut x = 0.5 * (lo + hi);
    for _ in 0..200 {
        let f = t_cdf(x, df) - p;
        if f == 0.0 {
            return x;
        }
        if f < 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = x - f / t_pdf(x, df);
        let next = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if (next - x).abs() <= 1e-15 * x.abs() || next == lo || next == hi {
            return next;
        }
        x = next;
    }
    x
}

/// The density of Student's t with `df` degrees of freedom.
///
/// ```
/// // With one degree of freedom it is the Cauchy density, 1/π at 0.
/// assert!((nbench::__private::stats::t_pdf(0.0, 1.0) - std::f64::consts::FRAC_1_PI).abs() < 1e-12);
/// ```
pub fn t_pdf(t: f64, df: f64) -> f64 {
    let ln = ln_gamma((df + 1.0) / 2.0)
        - ln_gamma(df / 2.0)
        - 0.5 * (df * PI).ln()
        - (df + 1.0) / 2.0 * (t * t / df).ln_1p();
    ln.exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-300)
    }

    #[test]
    fn gamma_of_integers_is_factorial() {
        assert!(close(ln_gamma(1.0), 0.0_f64, 1e-12) || ln_gamma(1.0).abs() < 1e-13);
        assert!(close(ln_gamma(5.0), 24.0_f64.ln(), 1e-13));
        assert!(close(ln_gamma(0.5), PI.sqrt().ln(), 1e-13));
    }

    #[test]
    fn t_quantiles_from_tables() {
        // Classic two-sided 95 % critical values.
        assert!(close(t_quantile(0.975, 1.0), 12.706_204_736_174_7, 1e-9));
        assert!(close(t_quantile(0.975, 9.0), 2.262_157_162_798_2, 1e-9));
        assert!(close(t_quantile(0.975, 30.0), 2.042_272_456_301_2, 1e-9));
        assert!(close(t_quantile(0.975, 1e6), 1.959_966_4, 1e-6));
        assert!(close(t_quantile(0.025, 9.0), -2.262_157_162_798_2, 1e-9));
    }

    #[test]
    fn t_pdf_integrates_to_the_cdf() {
        // Trapezoid rule over [-1, 2] against the CDF difference.
        let (a, b, n) = (-1.0, 2.0, 20_000);
        let h = (b - a) / f64::from(n);
        let integral: f64 = (0..n)
            .map(|i| {
                let x = a + h * f64::from(i);
                0.5 * h * (t_pdf(x, 7.0) + t_pdf(x + h, 7.0))
            })
            .sum();
        assert!(close(integral, t_cdf(b, 7.0) - t_cdf(a, 7.0), 1e-8));
    }

    #[test]
    fn t_cdf_is_symmetric() {
        assert!((t_cdf(0.0, 5.0) - 0.5).abs() < 1e-15);
        assert!((t_cdf(1.3, 5.0) + t_cdf(-1.3, 5.0) - 1.0).abs() < 1e-14);
    }
}
