//! A compared row's figures as the tables and cards show them, one rule for
//! every format: a row whose both sides lie below the smallest change that
//! counts ([`Row::below_counting`]) reads `< 1.54 ps` with no change.

use crate::compare::words::{interval_end, percent_change};
use crate::model::comparison::Row;

/// Baseline, current, and the change with its interval's ends.
pub struct Shown {
    pub baseline: String,
    pub current: String,
    /// `None` for a row below the smallest change that counts.
    pub change: Option<(String, String, String)>,
}

impl Shown {
    /// The change and its interval as `interval` joins its ends, or `—`
    /// for both where the row shows none.
    pub fn change_cells(&self, interval: impl Fn(&str, &str) -> String) -> (String, String) {
        match &self.change {
            Some((change, low, high)) => (change.clone(), interval(low, high)),
            None => ("—".to_owned(), "—".to_owned()),
        }
    }
}

/// `r`'s figures at the run's noise `threshold`.
pub fn shown(r: &Row, threshold: f64) -> Shown {
    match r.below_counting(threshold) {
        Some(step) => {
            let below = format!("< {}", r.metric.format(step));
            Shown {
                baseline: below.clone(),
                current: below,
                change: None,
            }
        }
        None => Shown {
            baseline: r.metric.format(r.baseline),
            current: r.metric.format(r.current),
            change: Some((
                percent_change(r.change),
                interval_end(r.change_ci[0]),
                interval_end(r.change_ci[1]),
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use crate::model::comparison::{Row, Verdict};

    /// An empty body: 0.0001 ps past a 308.5 ps loop, read 40 % lower.
    fn empty() -> Row {
        Row {
            overhead: 0.3085,
            ..Row::example("empty", 1e-7, -0.4, Verdict::Unchanged)
        }
    }

    #[test]
    fn a_row_below_the_smallest_change_that_counts_reads_so_with_no_change() {
        let shown = super::shown(&empty(), 0.005);
        assert_eq!(shown.baseline, "< 1.543 ps");
        assert_eq!(shown.current, "< 1.543 ps");
        assert!(shown.change.is_none());
        // A body of 5 ps past the same loop is past it: its change shows.
        let five = Row {
            overhead: 0.3085,
            ..Row::example("five", 0.005, -0.4, Verdict::Improved)
        };
        let shown = super::shown(&five, 0.005);
        assert_eq!(shown.baseline, "5.000 ps");
        assert_eq!(shown.change.unwrap().0, "-40.00%");
    }

    #[test]
    fn every_table_shows_it_alike() {
        use crate::model::comparison::{Comparison, TargetComparison};
        let mut t = TargetComparison::empty("demo/bench");
        t.rows.push(empty());
        let c = Comparison {
            baseline: "main".into(),
            noise_threshold: 0.005,
            warnings: Vec::new(),
            notes: Vec::new(),
            targets: vec![t],
        };
        let console = crate::report::compare::render(&c, &|_, _| None);
        let line = console.lines().find(|l| l.starts_with("empty")).unwrap();
        assert!(line.contains("< 1.543 ps  < 1.543 ps         —"), "{line}");
        assert!(!line.contains('%'), "{line}");
        let mut md = String::new();
        crate::report::markdown::comparison(&mut md, &c, &|_, _| None);
        let line = md.lines().find(|l| l.starts_with("| `empty`")).unwrap();
        assert!(
            line.contains("| < 1.543 ps | < 1.543 ps | — | — |"),
            "{line}"
        );
    }
}
