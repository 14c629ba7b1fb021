//! The standard normal tail, to full double precision (the error function by series and continued fraction).

use std::f64::consts::PI;

/// The complementary error function erfc(x), relative error about 1e-15.
///
/// ```
/// assert!((nbench::__private::stats::erfc(0.0) - 1.0).abs() < 1e-15);
/// assert!((nbench::__private::stats::erfc(1.0) - 0.157_299_207_050_285_13).abs() < 1e-15);
/// ```
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 1.25 {
        return 1.0 - erf_series(x);
    }
    if x > 27.3 {
        // Below the smallest subnormal double.
        return 0.0;
    }
    erfc_fraction(x)
}

/// P(Z > z) for a standard normal Z.
///
/// ```
/// assert!((nbench::__private::stats::normal_sf(1.959_963_984_540_054) - 0.025).abs() < 1e-15);
/// ```
pub fn normal_sf(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// erf(x) = 2/√π Σ (−1)ⁿ x²ⁿ⁺¹ / (n! (2n+1)), for small x.
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let (mut term, mut sum) = (x, x);
    for n in 1..100 {
        term *= -x2 / n as f64;
        let add = term / (2 * n + 1) as f64;
        sum += add;
        if add.abs() < 1e-17 * sum.abs() {
            break;
        }
    }
    sum * 2.0 / PI.sqrt()
}

/// erfc(x) = Q(½, x²), the regularised upper incomplete gamma function, by
/// its continued fraction (modified Lentz), for x ≥ 1.25.
fn erfc_fraction(x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (a, z) = (0.5, x * x);
    let mut b = z + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..300 {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    // e^{−z} z^a / Γ(a) with Γ(½) = √π.
    (-z + a * z.ln()).exp() / PI.sqrt() * h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // erfc(2), erfc(5), erfc(10) (Abramowitz & Stegun / mpmath).
        let cases = [
            (0.5, 0.479_500_122_186_953_5),
            (1.2, 0.089_686_021_770_364_62),
            (1.3, 0.065_992_055_059_347_58),
            (2.0, 0.004_677_734_981_047_266),
            (5.0, 1.537_459_794_428_034_8e-12),
            (10.0, 2.088_487_583_762_545e-45),
        ];
        for (x, want) in cases {
            let got = erfc(x);
            assert!(
                ((got - want) / want).abs() < 1e-13,
                "erfc({x}) = {got}, want {want}"
            );
            assert!(((2.0 - erfc(-x)) - want).abs() < 1e-15);
        }
        assert!(erfc(f64::NAN).is_nan());
        assert_eq!(erfc(f64::INFINITY), 0.0);
    }
}
