//! The Mann–Whitney U test of two independent samples, as SciPy's `mannwhitneyu(method="auto")`.

use super::StatsError;
use super::normal::normal_sf;

/// The outcome of [`mann_whitney`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannWhitney {
    /// U of the first sample: the number of pairs (x, y) with x > y, ties counting ½.
    pub u: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// Whether `p` is from the exact null distribution (else the normal approximation).
    pub exact: bool,
}

/// The two-sided Mann–Whitney U test. Like SciPy's `auto` method the p-value
/// is exact when one sample has at most 8 values and there are no ties, and
/// otherwise from the normal approximation with tie and continuity
/// corrections.
///
/// ```
/// let r = nbench::__private::stats::mann_whitney(&[1.2, 3.4, 5.6], &[2.3, 4.5, 6.7, 8.9]).unwrap();
/// assert_eq!((r.u, r.exact), (3.0, true));
/// assert!((r.p - 0.4).abs() < 1e-12);
/// ```
pub fn mann_whitney(x: &[f64], y: &[f64]) -> Result<MannWhitney, StatsError> {
    for s in [x, y] {
        if s.is_empty() {
            return Err(StatsError::Empty);
        }
        if let Some(i) = s.iter().position(|v| !v.is_finite()) {
            return Err(StatsError::NotFinite(i));
        }
    }
    let (n1, n2) = (x.len(), y.len());
    let mut all: Vec<(f64, bool)> = x
        .iter()
        .map(|&v| (v, true))
        .chain(y.iter().map(|&v| (v, false)))
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut rank_sum, mut tie_term, mut ties) = (0.0, 0.0, false);
    let mut i = 0;
    while i < all.len() {
        let j = i + all[i..].iter().take_while(|v| v.0 == all[i].0).count();
        let t = (j - i) as f64;
        ties |= j - i > 1;
        tie_term += t * t * t - t;
        let rank = (i + 1 + j) as f64 / 2.0;
        rank_sum += rank * all[i..j].iter().filter(|v| v.1).count() as f64;
        i = j;
    }
    let (f1, f2) = (n1 as f64, n2 as f64);
    let u1 = rank_sum - f1 * (f1 + 1.0) / 2.0;
    let u = u1.max(f1 * f2 - u1);
    let exact = !(ties || n1 > 8 && n2 > 8);
    let p = if exact {
        2.0 * exact_sf(u as usize, n1, n2)
    } else {
        let n = f1 + f2;
        let sd = (f1 * f2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)))).sqrt();
        let z = (u - f1 * f2 / 2.0 - 0.5) / sd;
        // sd = 0 (all values equal): z = −∞, p = 1.
        2.0 * if z.is_nan() { 0.5 } else { normal_sf(z) }
    };
    Ok(MannWhitney {
        u: u1,
        p: p.clamp(0.0, 1.0),
        exact,
    })
}

/// P(U ≥ u) under the null for sample sizes m, n: the U counts are the
/// coefficients of the Gaussian binomial ∏ᵢ (1 − q^{n+i}) / (1 − q^i), i = 1..m,
/// with m the smaller size (so at most 8 factors here).
fn exact_sf(u: usize, m: usize, n: usize) -> f64 {
    let (m, n) = (m.min(n), m.max(n));
    let top = m * n;
    let mut c = vec![0.0_f64; top + 1];
    c[0] = 1.0;
    for i in 1..=m {
        // Multiply by (1 − q^{n+i}), then divide by (1 − q^i).
        for k in (n + i..=top).rev() {
            c[k] -= c[k - n - i];
        }
        for k in i..=top {
            c[k] += c[k - i];
        }
    }
    let total: f64 = c.iter().sum();
    c[u.min(top + 1)..].iter().sum::<f64>() / total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_distribution_of_two_by_two() {
        // U for m = n = 2 takes 0,1,2,2,3,4 over the 6 arrangements.
        assert_eq!(exact_sf(0, 2, 2), 1.0);
        assert!((exact_sf(2, 2, 2) - 4.0 / 6.0).abs() < 1e-15);
        assert!((exact_sf(4, 2, 2) - 1.0 / 6.0).abs() < 1e-15);
    }

    #[test]
    fn u_statistics_add_up() {
        let a = [3.0, 1.0, 4.0, 1.0, 5.0];
        let b = [9.0, 2.0, 6.0, 5.0];
        let ab = mann_whitney(&a, &b).unwrap();
        let ba = mann_whitney(&b, &a).unwrap();
        assert_eq!(ab.u + ba.u, 20.0);
        assert!((ab.p - ba.p).abs() < 1e-15);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(mann_whitney(&[], &[1.0]), Err(StatsError::Empty));
        assert_eq!(
            mann_whitney(&[1.0], &[2.0, f64::NAN]),
            Err(StatsError::NotFinite(1))
        );
    }
}
