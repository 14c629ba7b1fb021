//! Tukey's fences: how many samples lie beyond 1.5 (mild) and 3 (severe) IQRs.

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
    /// let o = nbench::stats::Outliers::tukey(&[1.0, 2.0, 3.0, 4.0, 100.0], 2.0, 4.0);
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
    fn constant_data_has_none() {
        let x = [3.0; 8];
        assert_eq!(Outliers::tukey(&x, 3.0, 3.0).total(), 0);
    }
}
