//! Judging a comparison: each row's verdict, false-discovery control over a run's rows, and the context differences worth a warning. Pure: nothing here measures.

pub mod merge;
pub mod stored;
pub mod verdict;

use crate::model::comparison::{Comparison, Kind, Row, TargetComparison, Verdict};
use crate::model::context::Context;
use crate::model::record::BenchRecord;
use nbench::__private::metric::Metric;

pub use crate::model::comparison::row_threshold;

/// The comparison of a run, its p-values adjusted over all its rows
/// (see [`control_false_discoveries`]).
pub fn finish(
    baseline: String,
    noise_threshold: f64,
    warnings: Vec<String>,
    targets: Vec<TargetComparison>,
) -> Comparison {
    let notes = placement_notes(&baseline, &targets);
    let mut c = Comparison {
        baseline,
        noise_threshold,
        warnings,
        notes,
        targets,
    };
    control_false_discoveries(&mut c);
    c
}

/// What the reader should know when code placement was not controlled: a
/// side compared with one link layout moves with the layout lottery.
fn placement_notes(baseline: &str, targets: &[TargetComparison]) -> Vec<String> {
    let sides = |i: usize| targets.iter().filter_map(|t| t.layouts).any(|l| l[i] == 1);
    let mut notes = Vec::new();
    if sides(0) {
        notes.push(format!(
            "baseline `{baseline}` was saved with one link layout: code placement is not \
             controlled, so a change may be the layout's; save it again to compare over layouts"
        ));
    }
    if sides(1) {
        notes.push(
            "the current build was compared in one link layout: code placement is not \
             controlled, so a change may be the layout's"
                .to_owned(),
        );
    }
    notes
}

/// Adjusts the p-values over all rows (Benjamini–Hochberg) and gives
/// the verdicts again from the adjusted ones: with many benchmarks,
/// per-benchmark p < 0.05 would raise false alarms in most runs, while
/// this keeps the expected share of false "changed" verdicts at 5 %.
pub fn control_false_discoveries(c: &mut Comparison) {
    let rows: Vec<&mut Row> = c
        .targets
        .iter_mut()
        .flat_map(|t| t.rows.iter_mut())
        .filter(|r| r.p_value.is_some())
        .collect();
    let p: Vec<f64> = rows.iter().filter_map(|r| r.p_value).collect();
    let adjusted = nbench::__private::stats::benjamini_hochberg(&p);
    for (row, q) in rows.into_iter().zip(adjusted) {
        row.p_adjusted = Some(q);
        let threshold = row.threshold(c.noise_threshold);
        row.verdict = verdict::redecide(row.change, row.change_ci, q, threshold);
    }
    explain_inconclusive(c);
}

/// Gives every inconclusive row its reason (and takes it from any other).
fn explain_inconclusive(c: &mut Comparison) {
    let threshold = c.noise_threshold;
    for t in &mut c.targets {
        for row in &mut t.rows {
            row.inconclusive = (row.verdict == Verdict::Inconclusive)
                .then(|| verdict::why_inconclusive(row, row.threshold(threshold)));
        }
    }
}

/// A row from the baseline's stored samples and the current side's samples.
pub fn stored_row(
    id: &str,
    base: &BenchRecord,
    (cur_median, cur_samples, metric): (f64, &[f64], Metric),
    threshold: f64,
) -> Option<Row> {
    let t = row_threshold(threshold, base.median_ns, base.overhead_ns);
    let ch = verdict::stored(&base.per_iter_ns, cur_samples, t)?;
    let found = (ch.change, ch.ci, ch.p_value, ch.verdict);
    let times = [base.median_ns, cur_median];
    Some(Row {
        baseline_per_iter_ns: base.per_iter_ns.clone(),
        overhead_ns: base.overhead_ns,
        ..Row::new(id, Kind::Stored, metric, times, found)
    })
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
    use crate::model::comparison::Verdict;

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
        near_floor.baseline_ns = 1e-4;
        near_floor.overhead_ns = 0.349;
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
        control_false_discoveries(&mut c);
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
        control_false_discoveries(&mut c);
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
