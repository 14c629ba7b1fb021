//! Big-O fitting: time against a family's size parameter, least squares as Google Benchmark does it.
//!
//! Each candidate shape `f` is fitted as `time ≈ c · f(N)` (no intercept):
//! `c = Σ t·f(N) / Σ f(N)²`. Its quality is the root mean square of the
//! residuals divided by the mean time, so fits of different shapes and
//! families compare; the automatic choice is the shape with the lowest.

use std::fmt;

/// The growth of a benchmark family's time with its size parameter `N`.
///
/// ```
/// use nbench::__private::stats::{Complexity, fit};
/// let n = [1024.0, 2048.0, 4096.0, 8192.0];
/// let t: Vec<f64> = n.iter().map(|n| 3.0 * n * n).collect();
/// let f = fit(&n, &t, Complexity::Auto).unwrap();
/// assert_eq!(f.complexity, Complexity::NSquared);
/// assert!((f.coefficient - 3.0).abs() < 1e-9 && f.rms < 1e-12);
/// ```
#[derive(Debug, Clone, Copy)]
pub enum Complexity {
    /// Fit every shape below except [`Custom`](Complexity::Custom) and keep the best.
    Auto,
    /// O(1).
    Constant,
    /// O(log N), base 2.
    LogN,
    /// O(N).
    N,
    /// O(N log N), base 2.
    NLogN,
    /// O(N²).
    NSquared,
    /// O(N³).
    NCubed,
    /// A shape of the user's: its name (shown as `O(name)`) and `f(N)`.
    Custom(&'static str, fn(f64) -> f64),
}

impl Complexity {
    /// The shapes `Auto` chooses from, simplest first (a tie keeps the simpler).
    pub const SHAPES: [Complexity; 6] = [
        Self::Constant,
        Self::LogN,
        Self::N,
        Self::NLogN,
        Self::NSquared,
        Self::NCubed,
    ];

    /// `f(N)` for a fixed shape; `None` for `Auto`.
    pub fn eval(self, n: f64) -> Option<f64> {
        Some(match self {
            Complexity::Auto => return None,
            Complexity::Constant => 1.0,
            Complexity::LogN => n.log2(),
            Complexity::N => n,
            Complexity::NLogN => n * n.log2(),
            Complexity::NSquared => n * n,
            Complexity::NCubed => n * n * n,
            Complexity::Custom(_, f) => f(n),
        })
    }

    /// The name without `O(…)`: `1`, `log N`, `N`, `N log N`, `N²`, `N³`, a custom name, or `auto`.
    pub fn name(self) -> &'static str {
        match self {
            Complexity::Auto => "auto",
            Complexity::Constant => "1",
            Complexity::LogN => "log N",
            Complexity::N => "N",
            Complexity::NLogN => "N log N",
            Complexity::NSquared => "N²",
            Complexity::NCubed => "N³",
            Complexity::Custom(name, _) => name,
        }
    }

    /// The fixed shape or `auto` named by `name` (as [`name`](Self::name) gives it); never `Custom`.
    pub fn parse(name: &str) -> Option<Complexity> {
        std::iter::once(Complexity::Auto)
            .chain(Self::SHAPES)
            .find(|c| c.name() == name)
    }
}

/// Shapes are equal when their names are: two custom shapes are told apart
/// by name, since function addresses are not a reliable identity.
impl PartialEq for Complexity {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl fmt::Display for Complexity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "O({})", self.name())
    }
}

/// A fitted complexity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// The shape (never `Auto`).
    pub complexity: Complexity,
    /// `c` in `time ≈ c · f(N)`, in the times' unit.
    pub coefficient: f64,
    /// Root mean square of the residuals over the mean time (0.05 = 5 %).
    pub rms: f64,
}

/// Fits `times` (one per size in `n`) to `complexity`, or to the best shape
/// for `Auto`. `None` with fewer than two points, mismatched lengths, a
/// non-finite or non-positive value, or a shape that is zero at every size.
pub fn fit(n: &[f64], times: &[f64], complexity: Complexity) -> Option<Fit> {
    // The times are checked by `fit_values`; sizes must be positive for the logarithms.
    if !n.iter().all(|v| v.is_finite() && *v > 0.0) {
        return None;
    }
    match complexity {
        Complexity::Auto => Complexity::SHAPES
            .into_iter()
            .filter_map(|c| fit_shape(n, times, c))
            .fold(None, |best: Option<Fit>, f| match best {
                Some(b) if b.rms <= f.rms => Some(b),
                _ => Some(f),
            }),
        fixed => fit_shape(n, times, fixed),
    }
}

fn fit_shape(n: &[f64], times: &[f64], complexity: Complexity) -> Option<Fit> {
    let f: Vec<f64> = n
        .iter()
        .map(|&n| complexity.eval(n))
        .collect::<Option<_>>()?;
    let (coefficient, rms) = fit_values(&f, times)?;
    Some(Fit {
        complexity,
        coefficient,
        rms,
    })
}

/// Fits `times ≈ c · f` for values `f(N)` already computed (a shape known
/// only by its values): `(c, normalised RMS)`, or `None` as for [`fit`].
///
/// ```
/// let (c, rms) = nbench::__private::stats::fit_values(&[1.0, 2.0, 4.0], &[3.0, 6.0, 12.0]).unwrap();
/// assert_eq!((c, rms), (3.0, 0.0));
/// ```
pub fn fit_values(f: &[f64], times: &[f64]) -> Option<(f64, f64)> {
    let usable = f.len() >= 2
        && f.len() == times.len()
        && f.iter().all(|v| v.is_finite())
        && times.iter().all(|v| v.is_finite() && *v > 0.0);
    if !usable {
        return None;
    }
    let ff: f64 = f.iter().map(|v| v * v).sum();
    if !(ff.is_finite() && ff > 0.0) {
        return None;
    }
    let coefficient = f.iter().zip(times).map(|(f, t)| f * t).sum::<f64>() / ff;
    let count = times.len() as f64;
    let sq: f64 = f
        .iter()
        .zip(times)
        .map(|(f, t)| (t - coefficient * f).powi(2))
        .sum();
    let mean = times.iter().sum::<f64>() / count;
    let rms = (sq / count).sqrt() / mean;
    rms.is_finite().then_some((coefficient, rms))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes() -> Vec<f64> {
        (10..=16).map(|k| f64::powi(2.0, k)).collect()
    }

    /// Times of a known shape with ±3 % alternating noise.
    fn times(c: Complexity, coef: f64) -> Vec<f64> {
        sizes()
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let noise = if i % 2 == 0 { 1.03 } else { 0.97 };
                coef * c.eval(n).unwrap() * noise
            })
            .collect()
    }

    #[test]
    fn auto_recovers_every_shape_from_noisy_times() {
        for c in Complexity::SHAPES {
            let f = fit(&sizes(), &times(c, 2.5), Complexity::Auto).unwrap();
            assert_eq!(f.complexity, c, "{f:?}");
            assert!((f.coefficient / 2.5 - 1.0).abs() < 0.03, "{f:?}");
            assert!(f.rms > 0.0 && f.rms < 0.05, "{f:?}");
        }
    }

    #[test]
    fn a_fixed_or_custom_shape_is_fitted_as_asked() {
        let t = times(Complexity::N, 1.0);
        let f = fit(&sizes(), &t, Complexity::NSquared).unwrap();
        assert_eq!(f.complexity, Complexity::NSquared);
        assert!(f.rms > 0.3, "a poor fit shows in the RMS: {f:?}");
        let sqrt = Complexity::Custom("√N", f64::sqrt);
        let t: Vec<f64> = sizes().iter().map(|n| 7.0 * n.sqrt()).collect();
        let f = fit(&sizes(), &t, sqrt).unwrap();
        assert!((f.coefficient - 7.0).abs() < 1e-9 && f.rms < 1e-12);
        assert_eq!(f.complexity.to_string(), "O(√N)");
    }

    #[test]
    fn unusable_input_gives_no_fit() {
        assert_eq!(fit(&[8.0], &[1.0], Complexity::Auto), None);
        assert_eq!(fit(&[8.0, 16.0], &[1.0], Complexity::N), None);
        assert_eq!(fit(&[8.0, 16.0], &[1.0, f64::NAN], Complexity::N), None);
        assert_eq!(fit(&[0.0, 16.0], &[1.0, 2.0], Complexity::N), None);
        // log2(1) = 0: O(log N) has nothing to fit at N = 1 alone, but others do.
        assert_eq!(fit(&[1.0, 1.0], &[1.0, 2.0], Complexity::LogN), None);
        assert!(fit(&[1.0, 1.0], &[1.0, 2.0], Complexity::Auto).is_some());
    }

    #[test]
    fn names_round_trip() {
        for c in std::iter::once(Complexity::Auto).chain(Complexity::SHAPES) {
            assert_eq!(Complexity::parse(c.name()), Some(c));
        }
        assert_eq!(Complexity::NLogN.to_string(), "O(N log N)");
    }
}
