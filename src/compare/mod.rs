//! Every statistic of a comparison, and the one place a row's verdict is
//! given ([`rule::decide_rows`]). Pure: nothing here measures.
//!
//! [`estimate`] a fresh run's estimate; [`units`] epochs paired by
//! layouts into units; [`far`] and [`layouts`] what is left out or
//! widened for; [`estimators`] the change and its interval; [`paired`] and
//! [`stored`] a row from each kind of measurement; [`rule`] the verdict;
//! [`words`] every sentence about a row; [`merge`] shards into one run.

pub mod counts;
pub mod estimate;
pub mod estimators;
pub mod far;
pub mod iterations;
pub mod joint;
pub mod layouts;
pub mod median;
pub mod merge;
pub mod paired;
pub mod rule;
pub mod speeds;
pub mod stored;
pub mod units;
pub mod words;

use crate::model::comparison::{Comparison, TargetComparison};
use crate::model::context::Context;

pub use crate::model::comparison::row_threshold;

/// The comparison of a run, each row decided once its p-value is adjusted
/// over all its rows ([`rule::decide_rows`]); `counted`: whether
/// instructions were asked for.
pub fn finish(
    baseline: String,
    noise_threshold: f64,
    warnings: Vec<String>,
    targets: Vec<TargetComparison>,
    counted: bool,
) -> Comparison {
    let notes = words::placement_notes(&baseline, &targets);
    let mut c = Comparison {
        baseline,
        noise_threshold,
        warnings,
        notes,
        targets,
    };
    rule::decide_rows(&mut c);
    if !counted {
        c.notes.extend(words::counts_note(&c.targets));
    }
    c
}

/// Differences between where the baseline was made and where this run is, worth a warning.
pub fn context_warnings(base: &Context, now: &Context) -> Vec<String> {
    let mut w = Vec::new();
    let mut check = |what: &str, a: &Option<String>, b: &Option<String>| {
        if a != b {
            w.push(format!(
                "the baseline was made with another {what}: {} (now {})",
                a.as_deref().unwrap_or("unknown"),
                b.as_deref().unwrap_or("unknown")
            ));
        }
    };
    check("CPU model", &base.cpu_model, &now.cpu_model);
    check("host", &base.host, &now.host);
    check("host name", &base.hostname, &now.hostname);
    check("rustc", &base.rustc, &now.rustc);
    let (a, b) = (base.build.as_ref(), now.build.as_ref());
    if let Some(said) = crate::model::context::SwapRecord::say(a, b) {
        w.push(said);
    }
    match (&base.build, &now.build) {
        (Some(a), Some(b)) => {
            let differ = a.differences(b);
            if !differ.is_empty() {
                w.push(format!(
                    "the baseline was built differently: {}; save it again built as now",
                    differ.join(", ")
                ));
            }
        }
        (None, Some(_)) => w.push(
            "the baseline does not record how it was built (saved by an older cargo nbench); \
             save it again so that both sides are built the same way"
                .to_owned(),
        ),
        _ => {}
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::comparison::{Row, Verdict};

    fn row(id: &str, change: f64, p: f64) -> Row {
        Row {
            change_ci: [change - 0.005, change + 0.005],
            p_value: Some(p),
            ..Row::example(id, 100.0, change, Verdict::Regressed)
        }
    }

    #[test]
    fn the_threshold_is_a_share_of_the_time_actually_measured() {
        assert_eq!(row_threshold(0.005, 10.0, 0.0), 0.005);
        assert!((row_threshold(0.005, 10.0, 0.35) - 0.005175).abs() < 1e-12);
        // The empty body: 0.1 ps left of a 349 ps loop needs a change of
        // over 1700 % before it counts, which is to say a real one of 0.5 %.
        let floor = row_threshold(0.005, 1e-4, 0.349);
        assert!(floor > 17.0, "{floor}");
        assert_eq!(row_threshold(0.005, 0.0, 0.349), f64::INFINITY);
        // After the false-discovery control too.
        let mut near_floor = row("empty", 1.2, 1e-9);
        near_floor.baseline = 1e-4;
        near_floor.overhead = 0.349;
        let mut c = Comparison {
            baseline: "b".into(),
            noise_threshold: 0.005,
            warnings: Vec::new(),
            notes: Vec::new(),
            targets: vec![TargetComparison {
                rows: vec![near_floor],
                ..TargetComparison::empty("t")
            }],
        };
        rule::decide_rows(&mut c);
        assert_eq!(c.targets[0].rows[0].verdict, Verdict::Unchanged);
    }

    #[test]
    fn a_lone_small_p_among_many_is_not_a_discovery() {
        let mut rows = vec![row("clear", 0.05, 1e-6), row("borderline", 0.02, 0.04)];
        rows.extend((0..8).map(|i| row(&format!("flat{i}"), 0.02, 0.5)));
        let mut c = Comparison {
            baseline: "b".into(),
            noise_threshold: 0.005,
            warnings: vec![],
            notes: vec![],
            targets: vec![TargetComparison {
                target: "p/t".into(),
                rows,
                new: vec![],
                gone: vec![],
                unpaired_because: None,
                layouts: None,
                not_compared: Vec::new(),
            }],
        };
        rule::decide_rows(&mut c);
        let rows = &c.targets[0].rows;
        assert_eq!(rows[0].verdict, Verdict::Regressed);
        assert!((rows[0].p_adjusted.unwrap() - 1e-5).abs() < 1e-15);
        // 0.04 · 10 / 2 = 0.2: no longer significant.
        assert!((rows[1].p_adjusted.unwrap() - 0.2).abs() < 1e-12);
        // A 2 % change that is no longer significant holds no verdict: inconclusive, with why.
        assert_eq!(rows[1].verdict, Verdict::Inconclusive);
        assert!(rows[2..].iter().all(|r| r.verdict == Verdict::Inconclusive));
        let why = rows[1].inconclusive.as_deref().unwrap_or_default();
        assert!(why.contains("+1.5% … +2.5%"), "{why}");
        assert!(rows[0].inconclusive.is_none());
        let counts = c.counts();
        assert_eq!(
            (
                counts.regressed,
                counts.improved,
                counts.unchanged,
                counts.inconclusive
            ),
            (1, 0, 0, 9)
        );
        assert_eq!(
            counts.sentence(),
            "1 regressed, 0 improved, 0 unchanged, 9 inconclusive"
        );
    }
}
