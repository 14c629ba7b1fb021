//! Parameter families marked with a complexity: each member's size, and the curve fitted over their medians.

use crate::format;
use crate::stats::{Complexity, fit, fit_values};

/// The heading reports print above the fits.
pub const HEADING: &str = "complexity (median time fitted by least squares):";

/// Where one benchmark sits in a family marked with
/// [`Group::complexity`](crate::Group::complexity): sent to `cargo nbench`
/// with the benchmark list, so either side can fit the family.
#[derive(Debug, Clone, PartialEq)]
pub struct Scaling {
    /// The family: the id without its parameter (`sort/std` for `sort/std/1024`).
    pub family: String,
    /// The member's size `N`.
    pub n: f64,
    /// The shape asked for: `auto`, a shape's [`name`](Complexity::name),
    /// or a custom shape's name.
    pub complexity: String,
    /// For a custom shape, `f(N)` (the function itself stays in the binary).
    pub custom: Option<f64>,
}

impl Scaling {
    /// A member of `family` at size `n`, to be fitted to `complexity`.
    pub fn new(family: String, n: f64, complexity: Complexity) -> Scaling {
        let custom = match complexity {
            Complexity::Custom(_, f) => Some(f(n)),
            _ => None,
        };
        Scaling {
            family,
            n,
            complexity: complexity.name().to_owned(),
            custom,
        }
    }
}

/// A family's fitted complexity.
#[derive(Debug, Clone, PartialEq)]
pub struct FamilyFit {
    /// The family (`sort/std`).
    pub family: String,
    /// The fitted shape's name (`N log N`, or a custom name).
    pub complexity: String,
    /// `c` in `time ≈ c · f(N)`, ns.
    pub coefficient: f64,
    /// Root mean square of the residuals over the mean time.
    pub rms: f64,
    /// The sizes fitted, ascending, with each member's median time, ns.
    pub points: Vec<(f64, f64)>,
    /// The fitted curve at each size, `c · f(N)`, ns (a custom shape's f is
    /// only known there).
    pub fitted: Vec<f64>,
}

impl FamilyFit {
    /// One line for a report: `sort/std: O(N log N), 1.234 ns · N log N, RMS 2.1%`.
    ///
    /// ```
    /// let f = nbench::__private::family::FamilyFit {
    ///     family: "sum".into(),
    ///     complexity: "N".into(),
    ///     coefficient: 0.25,
    ///     rms: 0.013,
    ///     points: vec![],
    ///     fitted: vec![],
    /// };
    /// assert_eq!(f.line(), "sum: O(N), 250.0 ps · N, RMS 1.3%");
    /// ```
    pub fn line(&self) -> String {
        let shape = if self.complexity == "1" {
            String::new()
        } else {
            format!(" · {}", self.complexity)
        };
        format!(
            "{}: O({}), {}{shape}, RMS {:.1}%",
            self.family,
            self.complexity,
            format::time(self.coefficient),
            self.rms * 100.0
        )
    }
}

/// Fits every family present in `members` (a member's scaling and its median
/// time, ns), in order of first appearance. A family with fewer than two
/// measured members, or mixed shapes, gets no fit.
pub fn fit_families<'a>(members: impl IntoIterator<Item = (&'a Scaling, f64)>) -> Vec<FamilyFit> {
    let mut families: Vec<(&Scaling, Vec<(&Scaling, f64)>)> = Vec::new();
    for (s, median) in members {
        match families
            .iter_mut()
            .find(|(first, _)| first.family == s.family)
        {
            Some((_, list)) => list.push((s, median)),
            None => families.push((s, vec![(s, median)])),
        }
    }
    families
        .into_iter()
        .filter_map(|(first, mut list)| {
            if list.iter().any(|(s, _)| s.complexity != first.complexity) {
                return None;
            }
            list.sort_by(|a, b| a.0.n.total_cmp(&b.0.n));
            let n: Vec<f64> = list.iter().map(|(s, _)| s.n).collect();
            let t: Vec<f64> = list.iter().map(|&(_, t)| t).collect();
            let (complexity, coefficient, rms, shape) = match Complexity::parse(&first.complexity) {
                Some(c) => {
                    let f = fit(&n, &t, c)?;
                    let shape = n.iter().filter_map(|&x| f.complexity.eval(x)).collect();
                    (f.complexity.name().to_owned(), f.coefficient, f.rms, shape)
                }
                None => {
                    let f: Vec<f64> = list.iter().map(|(s, _)| s.custom).collect::<Option<_>>()?;
                    let (c, rms) = fit_values(&f, &t)?;
                    (first.complexity.clone(), c, rms, f)
                }
            };
            Some(FamilyFit {
                family: first.family.clone(),
                complexity,
                coefficient,
                rms,
                points: n.into_iter().zip(t).collect(),
                fitted: shape.into_iter().map(|f: f64| coefficient * f).collect(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_are_fitted_separately_and_custom_shapes_use_their_values() {
        let quad = |n: f64| Scaling::new("q".into(), n, Complexity::Auto);
        let root = |n: f64| Scaling::new("r".into(), n, Complexity::Custom("√N", f64::sqrt));
        let members = [
            (quad(100.0), 2e4),
            (root(100.0), 30.0),
            (quad(10.0), 200.0),
            (root(400.0), 60.0),
            (quad(1000.0), 2e6),
            (Scaling::new("lone".into(), 5.0, Complexity::N), 1.0),
        ];
        let fits = fit_families(members.iter().map(|(s, t)| (s, *t)));
        assert_eq!(fits.len(), 2, "{fits:?}");
        assert_eq!(
            (fits[0].family.as_str(), fits[0].complexity.as_str()),
            ("q", "N²")
        );
        assert!((fits[0].coefficient - 2.0).abs() < 1e-9);
        assert_eq!(fits[0].points, [(10.0, 200.0), (100.0, 2e4), (1000.0, 2e6)]);
        assert_eq!(
            (fits[1].family.as_str(), fits[1].complexity.as_str()),
            ("r", "√N")
        );
        assert!((fits[1].coefficient - 3.0).abs() < 1e-9 && fits[1].rms < 1e-12);
        assert!(
            (fits[0].fitted[2] - 2e6).abs() < 1e-3,
            "{:?}",
            fits[0].fitted
        );
        assert!(
            (fits[1].fitted[1] - 60.0).abs() < 1e-9,
            "{:?}",
            fits[1].fitted
        );
    }
}
