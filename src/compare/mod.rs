//! `--compare NAME`: the current build against a saved baseline, paired where the baseline's executables still run.

pub mod saved;
pub mod verdict;

use crate::build::Built;
use crate::report::progress::Progress;
use crate::report::record::{BenchRecord, TargetRecord};
use crate::run::paired::{self, Paired, Side};
use crate::run::session::{Session, SessionError};
use crate::run::{Failure, Measured, Outcome, Plan, TargetRun};
use crate::store::baseline::{Baseline, Baselines};
use nbench::__private::protocol::Event;
use nbench::__private::result::BenchResult;
use nbench::__private::select::Verdict as Selected;
use nbench::stats::Summary;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;
use verdict::{Kind, Verdict};

/// One benchmark compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The benchmark's id.
    pub id: String,
    /// Paired or against stored samples.
    pub kind: Kind,
    /// Baseline median, ns per iteration.
    pub baseline_ns: f64,
    /// Current median, ns per iteration.
    pub current_ns: f64,
    /// current / baseline − 1.
    pub change: f64,
    /// 95 % CI of the change.
    pub change_ci: [f64; 2],
    /// Two-sided p-value (paired: t test across epochs; stored: Mann–Whitney U).
    pub p_value: Option<f64>,
    /// `p_value` adjusted (Benjamini–Hochberg) over all comparisons of the run: the one the verdict uses.
    #[serde(default)]
    pub p_adjusted: Option<f64>,
    /// The conclusion.
    pub verdict: Verdict,
    /// The baseline side's per-iteration samples (paired: measured in this
    /// run; stored: the baseline's), for plots; the current side's are in the run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub baseline_per_iter_ns: Vec<f64>,
    /// The loop overhead per iteration taken off both sides' times, ns.
    #[serde(default)]
    pub overhead_ns: f64,
}

impl Row {
    /// The noise threshold that applies to this row (see [`row_threshold`]).
    pub fn threshold(&self, threshold: f64) -> f64 {
        row_threshold(threshold, self.baseline_ns, self.overhead_ns)
    }
}

/// The noise threshold as a share of the time actually measured, the
/// median plus the loop overhead taken off it, expressed relative to the
/// median: near the timer floor (an empty body: 0.1 ps left of a 350 ps
/// loop) a difference of 0.1 ps is not a 100 % regression.
pub fn row_threshold(threshold: f64, baseline_ns: f64, overhead_ns: f64) -> f64 {
    if baseline_ns > 0.0 {
        threshold * (baseline_ns + overhead_ns.max(0.0)) / baseline_ns
    } else {
        f64::INFINITY
    }
}

/// One bench target's comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetComparison {
    /// `package/target`.
    pub target: String,
    /// Benchmarks in both.
    pub rows: Vec<Row>,
    /// Only in the current build.
    pub new: Vec<String>,
    /// Only in the baseline.
    pub gone: Vec<String>,
    /// Why the comparison is against stored samples, when it is.
    pub unpaired_because: Option<String>,
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The baseline's name.
    pub baseline: String,
    /// Changes smaller than this are "unchanged" (0.01 = 1 %).
    pub noise_threshold: f64,
    /// Differences between the baseline's context and this run's.
    pub warnings: Vec<String>,
    /// Per target.
    pub targets: Vec<TargetComparison>,
}

impl Comparison {
    /// The comparison of a run, its p-values adjusted over all its rows
    /// (see [`Comparison::control_false_discoveries`]).
    pub fn new(
        baseline: String,
        noise_threshold: f64,
        warnings: Vec<String>,
        targets: Vec<TargetComparison>,
    ) -> Comparison {
        let mut c = Comparison {
            baseline,
            noise_threshold,
            warnings,
            targets,
        };
        c.control_false_discoveries();
        c
    }

    /// Whether any benchmark regressed.
    pub fn any_regressed(&self) -> bool {
        self.counts().0 > 0
    }

    /// Adjusts the p-values over all rows (Benjamini–Hochberg) and gives
    /// the verdicts again from the adjusted ones: with many benchmarks,
    /// per-benchmark p < 0.05 would raise false alarms in most runs, while
    /// this keeps the expected share of false "changed" verdicts at 5 %.
    pub fn control_false_discoveries(&mut self) {
        let rows: Vec<&mut Row> = self
            .targets
            .iter_mut()
            .flat_map(|t| t.rows.iter_mut())
            .filter(|r| r.p_value.is_some())
            .collect();
        let p: Vec<f64> = rows.iter().filter_map(|r| r.p_value).collect();
        let adjusted = nbench::stats::benjamini_hochberg(&p);
        for (row, q) in rows.into_iter().zip(adjusted) {
            row.p_adjusted = Some(q);
            let threshold = row.threshold(self.noise_threshold);
            row.verdict = verdict::redecide(row.change, row.change_ci, q, threshold);
        }
    }

    /// How many benchmarks regressed, improved, and stayed unchanged.
    pub fn counts(&self) -> (usize, usize, usize) {
        let rows = || self.targets.iter().flat_map(|t| &t.rows);
        let count = |v: Verdict| rows().filter(|r| r.verdict == v).count();
        (
            count(Verdict::Regressed),
            count(Verdict::Improved),
            count(Verdict::Unchanged),
        )
    }
}

/// The baseline's saved executable for `target`, or why the comparison must use stored samples.
pub fn baseline_exe(
    baselines: &Baselines,
    base: &Baseline,
    target: &str,
    stored_asked: bool,
) -> Result<PathBuf, String> {
    if stored_asked {
        return Err("asked for with --compare-stored".to_owned());
    }
    baselines.executable(base, target).ok_or_else(|| {
        format!(
            "baseline `{}` has no saved executable for this target",
            base.name
        )
    })
}

/// Compares one built target with the baseline: paired if the baseline's
/// executable starts and speaks this protocol, otherwise against its stored samples.
pub fn compare_target(
    built: &Built,
    baseline: &Baseline,
    base_exe: Result<PathBuf, String>,
    plan: &Plan,
    threshold: f64,
    progress: &mut Progress,
) -> (TargetRun, TargetComparison) {
    let label = built.target.label();
    let stored = baseline.run.targets.iter().find(|t| t.target == label);
    let start = |exe: &Path| {
        Session::start(
            exe,
            &built.target.package_root,
            &plan.extra_args,
            plan.nocapture,
        )
    };
    let started = base_exe.and_then(|exe| match start(&exe) {
        Ok(session) => Ok((session, exe)),
        Err(e) => Err(format!(
            "the baseline executable did not start: {}",
            crate::run::describe(&e)
        )),
    });
    let (mut base, base_exe) = match started {
        Ok(started) => started,
        Err(why) => return unpaired(built, stored, plan, threshold, progress, why),
    };
    let base_ids: Vec<String> = match base.list(plan.timeout) {
        Ok(l) => l.into_iter().map(|b| b.id).collect(),
        Err(e) => {
            let why = format!(
                "the baseline executable failed: {}",
                crate::run::describe(&e)
            );
            return unpaired(built, stored, plan, threshold, progress, why);
        }
    };
    base.finish();
    let mut cur = match start(&built.exe) {
        Ok(s) => s,
        Err(e) => return (crate::run::target_failed(&label, &e), empty(&label)),
    };
    let listed = match cur.list(plan.timeout) {
        Ok(l) => l,
        Err(e) => return (crate::run::target_failed(&label, &e), empty(&label)),
    };
    let scalings = crate::run::scalings(&listed);
    let (chosen, filtered_out) = plan.select(listed);
    let mut cmp = empty(&label);
    cmp.gone = base_ids
        .iter()
        .filter(|id| {
            plan.filter.verdict(id, false) != Selected::FilteredOut
                && !chosen.iter().any(|(c, _)| c == *id)
        })
        .cloned()
        .collect();
    let mut outcomes = Vec::new();
    // Kept for benchmarks the baseline does not have, measured on their own.
    let mut cur = Some(cur);
    let to_measure = chosen.iter().filter(|(_, v)| *v == Selected::Run).count();
    let mut start_side = |side: Side| match side {
        Side::Baseline => start(&base_exe),
        Side::Current => start(&built.exe),
    };
    for (n, (id, verdict)) in chosen.into_iter().enumerate() {
        if verdict == Selected::Ignored {
            outcomes.push(Outcome::Ignored(id));
            continue;
        }
        progress.observe(&label, &outcomes);
        progress.start(&label, &id, n + 1, to_measure);
        let began = Instant::now();
        if !base_ids.contains(&id) {
            cmp.new.push(id.clone());
            if cur.is_none() {
                cur = start(&built.exe).ok();
            }
            let Some(c) = cur.as_mut() else {
                outcomes.push(failure(
                    id,
                    "the bench process could not be restarted".into(),
                ));
                continue;
            };
            outcomes.push(match c.run(&id, &plan.settings, plan.timeout) {
                Ok(Event::Result(r)) => Outcome::Measured(Box::new(Measured {
                    result: *r,
                    elapsed_s: began.elapsed().as_secs_f64(),
                })),
                Ok(Event::Skipped { id, reason }) => Outcome::Skipped { id, reason },
                Ok(Event::Failed { message, .. } | Event::Error { message }) => {
                    failure(id, message)
                }
                Ok(other) => failure(id, format!("unexpected answer {other:?}")),
                Err(e) => {
                    cur = None;
                    failure(id, crate::run::describe(&e))
                }
            });
            continue;
        }
        let settled = |r: &[f64]| {
            verdict::paired(r, &[], threshold).is_some_and(|c| verdict::settled(&c, threshold))
        };
        match paired::measure(&mut start_side, &id, &plan.settings, plan.timeout, &settled) {
            Ok(Paired::Skipped(side, reason)) => {
                let reason = match side {
                    Side::Current => reason,
                    Side::Baseline => format!("the baseline skips it: {reason}"),
                };
                outcomes.push(Outcome::Skipped { id, reason });
            }
            Ok(Paired::Samples(p)) => {
                let median = |x: &[f64]| Summary::new(x).map(|s| s.median).unwrap_or(0.0);
                let base_median = median(&p.base_ns);
                let t = row_threshold(threshold, base_median, p.overhead_ns);
                if let Some(ch) = verdict::paired(&p.epoch_ratios, &p.round_ratios(), t) {
                    cmp.rows.push(Row {
                        id: id.clone(),
                        kind: Kind::Paired,
                        baseline_ns: base_median,
                        current_ns: median(&p.cur_ns),
                        change: ch.change,
                        change_ci: ch.ci,
                        p_value: ch.p_value,
                        p_adjusted: None,
                        verdict: ch.verdict,
                        baseline_per_iter_ns: p.base_ns.clone(),
                        overhead_ns: p.overhead_ns,
                    });
                }
                let mode = plan.settings.outliers;
                outcomes.push(match Summary::with_outliers(&p.cur_ns, mode) {
                    Ok(summary) => Outcome::Measured(Box::new(Measured {
                        result: BenchResult {
                            id,
                            summary,
                            per_iter_ns: p.cur_ns,
                            iters: p.iters,
                            cold_ns: p.cold_ns,
                            overhead_ns: p.overhead_ns,
                            near_floor: false,
                            stop: p.stop,
                            outlier_mode: mode,
                            throughput: p.throughput,
                            counters: p.counters,
                            // A run against stored executables compares versions, not group members.
                            versus: None,
                            is_baseline: false,
                            repeat_medians: Vec::new(),
                        },
                        elapsed_s: began.elapsed().as_secs_f64(),
                    })),
                    Err(e) => failure(id, e.to_string()),
                });
            }
            Err(e) => {
                let why = crate::run::describe(&e.error);
                // The current side's own failure is the benchmark's, as in a run without a baseline.
                let reason = match (e.side, &e.error) {
                    (Side::Current, SessionError::Benchmark(_)) => why,
                    (Side::Current, _) => format!("current side: {why}"),
                    (Side::Baseline, _) => format!("baseline side: {why}"),
                };
                outcomes.push(Outcome::Failed(Failure {
                    id,
                    reason,
                    output: e.output,
                }));
            }
        }
    }
    progress.observe(&label, &outcomes);
    progress.clear();
    if let Some(c) = cur {
        c.finish();
    }
    (
        TargetRun {
            label,
            outcomes,
            filtered_out,
            scalings,
        },
        cmp,
    )
}

fn failure(id: String, reason: String) -> Outcome {
    Outcome::Failed(Failure {
        id,
        reason,
        output: String::new(),
    })
}

pub(crate) fn empty(label: &str) -> TargetComparison {
    TargetComparison {
        target: label.to_owned(),
        rows: Vec::new(),
        new: Vec::new(),
        gone: Vec::new(),
        unpaired_because: None,
    }
}

/// Measures the current build on its own and compares with the stored samples.
fn unpaired(
    built: &Built,
    stored: Option<&TargetRecord>,
    plan: &Plan,
    threshold: f64,
    progress: &mut Progress,
    why: String,
) -> (TargetRun, TargetComparison) {
    let run = crate::run::run_target(built, plan, false, progress);
    let mut cmp = empty(&run.label);
    cmp.unpaired_because = Some(why);
    let stored_benches = stored.map(|t| t.benchmarks.as_slice()).unwrap_or_default();
    for o in &run.outcomes {
        let Outcome::Measured(m) = o else { continue };
        let r = &m.result;
        match stored_benches.iter().find(|b| b.id == r.id) {
            None => cmp.new.push(r.id.clone()),
            Some(b) => cmp.rows.extend(stored_row(
                &r.id,
                b,
                r.summary.median,
                &r.per_iter_ns,
                threshold,
            )),
        }
    }
    cmp.gone = stored_benches
        .iter()
        .filter(|b| plan.filter.verdict(&b.id, false) != Selected::FilteredOut)
        .filter(|b| {
            !run.outcomes
                .iter()
                .any(|o| matches!(o, Outcome::Measured(m) if m.result.id == b.id))
        })
        .map(|b| b.id.clone())
        .collect();
    (run, cmp)
}

/// A row from the baseline's stored samples and the current side's samples.
pub(crate) fn stored_row(
    id: &str,
    base: &BenchRecord,
    cur_median: f64,
    cur_samples: &[f64],
    threshold: f64,
) -> Option<Row> {
    let t = row_threshold(threshold, base.median_ns, base.overhead_ns);
    let ch = verdict::stored(&base.per_iter_ns, cur_samples, t)?;
    Some(Row {
        id: id.to_owned(),
        kind: Kind::Stored,
        baseline_ns: base.median_ns,
        current_ns: cur_median,
        change: ch.change,
        change_ci: ch.ci,
        p_value: ch.p_value,
        p_adjusted: None,
        verdict: ch.verdict,
        baseline_per_iter_ns: base.per_iter_ns.clone(),
        overhead_ns: base.overhead_ns,
    })
}

/// Differences between where the baseline was made and where this run is, worth a warning.
pub fn context_warnings(
    base: &crate::context::Context,
    now: &crate::context::Context,
) -> Vec<String> {
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
    check("rustc", &base.rustc, &now.rustc);
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, change: f64, p: f64) -> Row {
        Row {
            id: id.into(),
            kind: Kind::Paired,
            baseline_ns: 100.0,
            current_ns: 100.0 * (1.0 + change),
            change,
            change_ci: [change - 0.005, change + 0.005],
            p_value: Some(p),
            p_adjusted: None,
            verdict: Verdict::Regressed,
            baseline_per_iter_ns: Vec::new(),
            overhead_ns: 0.0,
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
            targets: vec![TargetComparison {
                rows: vec![near_floor],
                ..empty("t")
            }],
        };
        c.control_false_discoveries();
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
            targets: vec![TargetComparison {
                target: "p/t".into(),
                rows,
                new: vec![],
                gone: vec![],
                unpaired_because: None,
            }],
        };
        c.control_false_discoveries();
        let rows = &c.targets[0].rows;
        assert_eq!(rows[0].verdict, Verdict::Regressed);
        assert!((rows[0].p_adjusted.unwrap() - 1e-5).abs() < 1e-15);
        // 0.04 · 10 / 2 = 0.2: no longer significant.
        assert!((rows[1].p_adjusted.unwrap() - 0.2).abs() < 1e-12);
        assert_eq!(rows[1].verdict, Verdict::Unchanged);
        assert!(rows[2..].iter().all(|r| r.verdict == Verdict::Unchanged));
        assert_eq!(c.counts(), (1, 0, 9));
    }
}
