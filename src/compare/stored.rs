//! Comparing with a baseline's stored samples, and which of the baseline's
//! benchmarks a comparison reports as gone: one rule for every command.

use super::estimators;
use super::row_threshold;
use crate::model::comparison::{CountChange, Kind, Row};
use crate::model::comparison::{NotCompared, TargetComparison};
use crate::model::metric::Beside;
use crate::model::record::BenchRecord;
use crate::model::work::ThroughputRecord;
use nbench::__private::metric::Metric;

/// One current benchmark as the stored comparison needs it.
pub struct Current<'a> {
    /// Its id.
    pub id: &'a str,
    /// Its median, ns.
    pub median: f64,
    /// Its samples, ns per iteration.
    pub per_iter: &'a [f64],
    /// What they measure.
    pub metric: nbench::__private::metric::Metric,
    /// Its declared work per iteration.
    pub throughput: Option<ThroughputRecord>,
    /// Its instructions per iteration, where they were counted.
    pub instructions: Option<&'a Beside>,
}

/// What a comparison reports of the baseline's benchmarks.
pub struct Scope<'a> {
    /// The current side's benchmarks held elsewhere (another shard's, or
    /// left out here): not gone.
    pub elsewhere: &'a [String],
    /// Whether the filters and the shard report benchmark `id`.
    pub reported: &'a dyn Fn(&str) -> bool,
    /// Ids the baseline lists without samples (a revision's), and why its
    /// executable does not run them: neither new nor compared.
    pub listed: (&'a [String], &'a str),
}

/// Compares `current` with the baseline's stored `base` benchmarks into
/// `cmp`: a row for each that the baseline has, "not compared" for those
/// it only lists (`scope.listed`), "new" for the others, and "gone" for
/// the baseline's (stored or listed) that `scope` reports and neither
/// `current` nor `scope.elsewhere` holds.
pub fn against_stored<'a>(
    cmp: &mut TargetComparison,
    current: impl IntoIterator<Item = Current<'a>>,
    base: &[BenchRecord],
    scope: Scope<'_>,
    threshold: f64,
) {
    let (listed, why) = scope.listed;
    let mut present = Vec::new();
    for c in current {
        present.push(c.id.to_owned());
        match base.iter().find(|b| b.id == c.id) {
            None if listed.iter().any(|l| l == c.id) => {
                cmp.not_compared.push(NotCompared::unsampled(c.id, why))
            }
            None => cmp.new.push(c.id.to_owned()),
            Some(b) if !b.metric.comparable(c.metric) => cmp
                .not_compared
                .push(NotCompared::metrics(c.id, b.metric, c.metric)),
            Some(b) => cmp.rows.extend(
                stored_row(c.id, b, (c.median, c.per_iter, c.metric), threshold).map(|r| Row {
                    instructions: stored_counts(b, c.instructions),
                    ..r.with_work(b.throughput, c.throughput)
                }),
            ),
        }
    }
    present.extend(scope.elsewhere.iter().cloned());
    let held = (base.iter().map(|b| b.id.as_str())).chain(listed.iter().map(String::as_str));
    cmp.gone = gone(held, &present, scope.reported);
    // Nothing compared with stored samples: nothing to say they were.
    if cmp.rows.is_empty() {
        cmp.unpaired_because = None;
    }
}

/// The change in instructions from a stored benchmark's count to the
/// current one's, where both were counted (each side's one count).
fn stored_counts(base: &BenchRecord, current: Option<&Beside>) -> Option<CountChange> {
    let name = Metric::Instructions.as_str();
    let b = base.metrics.get(name)?;
    let c = current?;
    let mut change = super::counts::change(&[b.per_iter?], &[c.per_iter?])?;
    change.note = c.note.clone().or_else(|| b.note.clone());
    if b.every_thread != c.every_thread && change.note.is_none() {
        let (every, one) = match c.every_thread {
            true => ("this run", "the baseline"),
            false => ("the baseline", "this run"),
        };
        change.note = Some(format!(
            "{every} counted every thread's instructions, {one} those of the thread that times \
             it alone (an older nbench, or a CPU's counter): the counts do not decide"
        ));
    }
    Some(change)
}

/// The baseline's benchmarks (`base_ids`) that `reported` says this
/// comparison reports (filters, shard) and that are not `present` (run
/// here, or by another shard).
pub fn gone<'a>(
    base_ids: impl IntoIterator<Item = &'a str>,
    present: &[String],
    reported: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    base_ids
        .into_iter()
        .filter(|id| reported(id) && !present.iter().any(|p| p == id))
        .map(str::to_owned)
        .collect()
}

/// A row from the baseline's stored samples and the current side's samples.
pub fn stored_row(
    id: &str,
    base: &BenchRecord,
    (cur_median, cur_samples, metric): (f64, &[f64], Metric),
    threshold: f64,
) -> Option<Row> {
    let t = row_threshold(threshold, base.median, base.overhead);
    let ch = estimators::stored(&base.per_iter, cur_samples, t)?;
    let found = (ch.change, ch.ci, ch.p_value);
    let times = [base.median, cur_median];
    Some(Row {
        baseline_per_iter: base.per_iter.clone(),
        overhead: base.overhead,
        ..Row::new(id, Kind::Stored, metric, times, found)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gone_is_what_the_baseline_has_that_nothing_here_or_elsewhere_holds() {
        let present = ["a".to_owned(), "c".to_owned()];
        let all = |_: &str| true;
        assert_eq!(gone(["a", "b", "c", "d"], &present, &all), ["b", "d"]);
        let not_d = |id: &str| id != "d";
        assert_eq!(gone(["a", "b", "c", "d"], &present, &not_d), ["b"]);
    }

    #[test]
    fn values_of_another_metric_are_not_compared_but_said_so() {
        use crate::model::outcome::Measured;
        use nbench::__private::LoopKind;
        use nbench::__private::engine::{Measurement, Stop};
        use nbench::__private::metric::Metric;
        use nbench::__private::result::BenchResult;
        use nbench::__private::stats::OutlierMode;
        let samples: Vec<f64> = (0..40).map(|i| 100.0 + f64::from(i % 5)).collect();
        let record = |id: &str, metric| {
            let m = Measurement {
                iters: 10,
                per_iter: samples.clone(),
                cold: 100.0,
                stop: Stop::Precise,
                sampling_ns: 1,
            };
            let mut result =
                BenchResult::new(id.into(), m, LoopKind::Custom, 0.0, None, OutlierMode::None)
                    .unwrap();
            result.metric = metric;
            BenchRecord::from_measured(&Measured::of(result, 0.1))
        };
        let base = [
            record("wall", Metric::WallTime),
            record("cpu", Metric::WallTime),
        ];
        let current = |id, metric| Current {
            id,
            median: 102.0,
            per_iter: &samples,
            metric,
            throughput: None,
            instructions: None,
        };
        let mut cmp = TargetComparison::empty("t");
        let all = |_: &str| true;
        let scope = Scope {
            elsewhere: &[],
            reported: &all,
            listed: (&[], ""),
        };
        let now = [
            current("wall", Metric::WallTime),
            current("cpu", Metric::CpuTime),
        ];
        against_stored(&mut cmp, now, &base, scope, 0.005);
        assert_eq!(cmp.rows.len(), 1);
        assert_eq!(cmp.rows[0].id, "wall");
        assert_eq!(cmp.not_compared.len(), 1, "{cmp:?}");
        assert_eq!(cmp.not_compared[0].id, "cpu");
        assert!(
            cmp.not_compared[0]
                .reason
                .contains("wall time, this build cpu time")
        );
        assert!(cmp.new.is_empty() && cmp.gone.is_empty(), "{cmp:?}");
        let whole = crate::compare::finish("b".into(), 0.005, Vec::new(), vec![cmp], true);
        assert!(
            whole.counts().sentence().ends_with(", 1 not compared"),
            "{}",
            whole.counts().sentence()
        );
    }

    #[test]
    fn counts_taken_on_every_thread_and_on_one_do_not_decide() {
        use crate::model::metric::Beside;
        use crate::model::outcome::Outcome;
        let Outcome::Measured(m) = crate::model::outcome::tests::measured("a", None, None) else {
            unreachable!()
        };
        let mut base = BenchRecord::from_measured(&m);
        let counted = |n: f64, every_thread| Beside {
            per_iter: Some(n),
            overhead: 0.0,
            note: None,
            every_thread,
        };
        let name = Metric::Instructions.as_str().to_owned();
        base.metrics.insert(name, counted(606.0, false));
        let alike = stored_counts(&base, Some(&counted(660.0, false))).unwrap();
        assert!(alike.note.is_none() && alike.change > 0.08, "{alike:?}");
        let other = stored_counts(&base, Some(&counted(175_000.0, true))).unwrap();
        let note = other.note.unwrap_or_default();
        assert!(
            note.starts_with("this run counted every thread's"),
            "{note}"
        );
    }
}
