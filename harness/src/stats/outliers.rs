//! Outliers: Tukey's counts beyond 1.5 (mild) and 3 (severe) IQRs, and the modes that set samples aside.

use super::percentile_sorted;
use std::fmt;
use std::ops::Range;

/// Samples beyond Tukey's fences, counted on each side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outliers {
    /// Below `q1 - 3·IQR`.
    pub low_severe: usize,
    /// Between `q1 - 3·IQR` and `q1 - 1.5·IQR`.
    pub low_mild: usize,
    /// Between `q3 + 1.5·IQR` and `q3 + 3·IQR`.
    pub high_mild: usize,
    /// Above `q3 + 3·IQR`.
    pub high_severe: usize,
}

impl Outliers {
    /// Counts the samples of `sorted` outside the fences set by its quartiles.
    ///
    /// ```
    /// // Quartiles 2 and 4: anything above 4 + 3 × 2 = 10 is a severe outlier.
    /// let o = nbench::__private::stats::Outliers::tukey(&[1.0, 2.0, 3.0, 4.0, 100.0], 2.0, 4.0);
    /// assert_eq!(o.high_severe, 1);
    /// ```
    pub fn tukey(sorted: &[f64], q1: f64, q3: f64) -> Outliers {
        let iqr = q3 - q1;
        let mut o = Outliers::default();
        for &x in sorted {
            if x < q1 - 3.0 * iqr {
                o.low_severe += 1;
            } else if x < q1 - 1.5 * iqr {
                o.low_mild += 1;
            } else if x > q3 + 3.0 * iqr {
                o.high_severe += 1;
            } else if x > q3 + 1.5 * iqr {
                o.high_mild += 1;
            }
        }
        o
    }

    /// All outliers, mild and severe, on both sides.
    pub fn total(&self) -> usize {
        self.low_severe + self.low_mild + self.high_mild + self.high_severe
    }
}

/// Which samples are set aside before a benchmark's samples are summarised.
///
/// The default is [`None`](OutlierMode::None). The headline figures (the
/// median and its order-statistics CI) are hardly moved by a few slow
/// samples, while setting samples aside can hide real behaviour: timings are
/// often bimodal (cache and frequency states), and Tukey's fences then cut a
/// whole mode off — on nbench's own sorting benchmarks `iqr` set aside up to a
/// third of the samples. Choose `top5` or `iqr` when the mean and standard
/// deviation should leave out interruptions (preemption, page faults).
/// Reports always say how many samples were set aside.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OutlierMode {
    /// Keep every sample.
    #[default]
    None,
    /// Set aside the slowest 5 % (`⌊n/20⌋` samples).
    Top5,
    /// Set aside the slowest and the fastest 5 % (`⌊n/20⌋` each).
    Both5,
    /// Set aside samples beyond Tukey's 1.5 × IQR fences, on either side.
    Iqr,
}

impl OutlierMode {
    /// Every mode, in the order `--help` lists them.
    pub const ALL: [OutlierMode; 4] = [Self::None, Self::Top5, Self::Both5, Self::Iqr];

    /// The mode's name on the command line: `none`, `top5`, `both5`, `iqr`.
    pub fn as_str(self) -> &'static str {
        match self {
            OutlierMode::None => "none",
            OutlierMode::Top5 => "top5",
            OutlierMode::Both5 => "both5",
            OutlierMode::Iqr => "iqr",
        }
    }

    /// The mode named `name`, if there is one.
    ///
    /// ```
    /// use nbench::__private::stats::OutlierMode;
    /// assert_eq!(OutlierMode::parse("both5"), Some(OutlierMode::Both5));
    /// assert_eq!(OutlierMode::parse("5%"), None);
    /// ```
    pub fn parse(name: &str) -> Option<OutlierMode> {
        Self::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// The samples of `sorted` (ascending) this mode keeps, as an index
    /// range: they are always a contiguous run, and never empty when
    /// `sorted` is not.
    ///
    /// ```
    /// use nbench::__private::stats::OutlierMode;
    /// let x: Vec<f64> = (1..=40).map(f64::from).collect();
    /// assert_eq!(OutlierMode::Top5.kept(&x), 0..38);
    /// assert_eq!(OutlierMode::Both5.kept(&x), 2..38);
    /// let spike = [1.0, 1.1, 1.2, 1.3, 9.0];
    /// assert_eq!(OutlierMode::Iqr.kept(&spike), 0..4);
    /// ```
    pub fn kept(self, sorted: &[f64]) -> Range<usize> {
        let n = sorted.len();
        let tail = n / 20;
        match self {
            OutlierMode::None => 0..n,
            OutlierMode::Top5 => 0..n - tail,
            OutlierMode::Both5 => tail..n - tail,
            OutlierMode::Iqr if n == 0 => 0..0,
            OutlierMode::Iqr => {
                let q1 = percentile_sorted(sorted, 25.0);
                let q3 = percentile_sorted(sorted, 75.0);
                let (lo, hi) = (q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1));
                // The quartiles lie inside the fences, so both ends stay inside the slice.
                sorted.partition_point(|&x| x < lo)..sorted.partition_point(|&x| x <= hi)
            }
        }
    }
}

impl fmt::Display for OutlierMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_by_hand() {
        // q1 = 10, q3 = 20, IQR = 10: mild beyond 35 / below -5, severe beyond 50 / below -20.
        let x = [-30.0, -10.0, 10.0, 15.0, 20.0, 40.0, 60.0];
        let o = Outliers::tukey(&x, 10.0, 20.0);
        assert_eq!(
            o,
            Outliers {
                low_severe: 1,
                low_mild: 1,
                high_mild: 1,
                high_severe: 1
            }
        );
        assert_eq!(o.total(), 4);
    }

    #[test]
    fn modes_keep_a_nonempty_run() {
        for n in [1usize, 2, 19, 20, 21, 100] {
            let x: Vec<f64> = (0..n).map(|i| i as f64).collect();
            for m in OutlierMode::ALL {
                let r = m.kept(&x);
                assert!(!r.is_empty() && r.end <= n, "{m} n={n}: {r:?}");
            }
        }
        assert_eq!(OutlierMode::Top5.kept(&[1.0; 100]), 0..95);
        assert_eq!(OutlierMode::Iqr.kept(&[3.0; 7]), 0..7);
        assert_eq!(OutlierMode::Iqr.kept(&[]), 0..0);
        for m in OutlierMode::ALL {
            assert_eq!(OutlierMode::parse(m.as_str()), Some(m));
        }
    }

    #[test]
    fn constant_data_has_none() {
        let x = [3.0; 8];
        assert_eq!(Outliers::tukey(&x, 3.0, 3.0).total(), 0);
    }
}
