//! `--compare NAME`: the current build against a saved baseline, paired where the baseline's executables still run.

pub mod verdict;

use crate::build::Built;
use crate::report::progress::Progress;
use crate::report::record::TargetRecord;
use crate::run::paired::{self, Side};
use crate::run::session::Session;
use crate::run::{Failure, Measured, Outcome, Plan, TargetRun};
use crate::store::baseline::Baseline;
use nbench::modes::select::Verdict as Selected;
use nbench::protocol::Event;
use nbench::result::BenchResult;
use nbench::stats::Summary;
use serde::{Deserialize, Serialize};
use std::path::Path;
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
    /// Two-sided p-value (stored comparisons: Mann–Whitney U).
    pub p_value: Option<f64>,
    /// The conclusion.
    pub verdict: Verdict,
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
    /// Whether any benchmark regressed.
    pub fn any_regressed(&self) -> bool {
        self.targets
            .iter()
            .flat_map(|t| &t.rows)
            .any(|r| r.verdict == Verdict::Regressed)
    }
}

/// Compares one built target with the baseline: paired if the baseline's
/// executable starts and speaks this protocol, otherwise against its stored samples.
pub fn compare_target(
    built: &Built,
    baseline: &Baseline,
    base_exe: Option<&Path>,
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
    let base_session = match base_exe {
        None => Err("the baseline has no saved executable for this target".to_owned()),
        Some(exe) => start(exe).map_err(|e| {
            format!(
                "the baseline executable did not start: {}",
                crate::run::describe(&e)
            )
        }),
    };
    let mut base = match base_session {
        Ok(s) => s,
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
    let mut cur = match start(&built.exe) {
        Ok(s) => s,
        Err(e) => return (crate::run::target_failed(&label, &e), empty(&label)),
    };
    let listed = match cur.list(plan.timeout) {
        Ok(l) => l,
        Err(e) => return (crate::run::target_failed(&label, &e), empty(&label)),
    };
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
    let (mut base, mut cur) = (Some(base), Some(cur));
    let to_measure = chosen.iter().filter(|(_, v)| *v == Selected::Run).count();
    for (n, (id, verdict)) in chosen.into_iter().enumerate() {
        if verdict == Selected::Ignored {
            outcomes.push(Outcome::Ignored(id));
            continue;
        }
        progress.start(&label, &id, n + 1, to_measure);
        for (slot, exe) in [(&mut base, base_exe), (&mut cur, Some(built.exe.as_path()))] {
            if slot.is_none() {
                *slot = exe.and_then(|e| start(e).ok());
            }
        }
        let (Some(b), Some(c)) = (base.as_mut(), cur.as_mut()) else {
            outcomes.push(Outcome::Failed(Failure {
                id,
                reason: "a bench process could not be restarted".into(),
                output: String::new(),
            }));
            continue;
        };
        let began = Instant::now();
        if !base_ids.contains(&id) {
            cmp.new.push(id.clone());
            outcomes.push(match c.run(&id, &plan.settings, plan.timeout) {
                Ok(Event::Result(r)) => Outcome::Measured(Box::new(Measured {
                    result: *r,
                    elapsed_s: began.elapsed().as_secs_f64(),
                })),
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
        let _ = (b.output.take(), c.output.take());
        match paired::measure(b, c, &id, &plan.settings, plan.timeout) {
            Ok(p) => {
                let ratios = p.ratios();
                let median = |x: &[f64]| Summary::new(x).map(|s| s.median).unwrap_or(0.0);
                if let Some(ch) = verdict::paired(&ratios, threshold) {
                    cmp.rows.push(Row {
                        id: id.clone(),
                        kind: Kind::Paired,
                        baseline_ns: median(&p.base_ns),
                        current_ns: median(&p.cur_ns),
                        change: ch.change,
                        change_ci: ch.ci,
                        p_value: ch.p_value,
                        verdict: ch.verdict,
                    });
                }
                match Summary::new(&p.cur_ns) {
                    Ok(summary) => outcomes.push(Outcome::Measured(Box::new(Measured {
                        result: BenchResult {
                            id,
                            summary,
                            per_iter_ns: p.cur_ns,
                            iters: p.iters,
                            cold_ns: p.cold_ns,
                            overhead_ns: p.overhead_ns,
                            near_floor: false,
                            stop: p.stop,
                            throughput: p.throughput,
                        },
                        elapsed_s: began.elapsed().as_secs_f64(),
                    }))),
                    Err(e) => outcomes.push(failure(id, e.to_string())),
                }
            }
            Err((side, e)) => {
                let who = match side {
                    Side::Baseline => "baseline",
                    Side::Current => "current",
                };
                let s = if side == Side::Baseline {
                    base.take()
                } else {
                    cur.take()
                };
                let output = s.map(|s| s.output.take()).unwrap_or_default();
                // Either process may be mid-benchmark: start both afresh for the next one.
                base = None;
                cur = None;
                outcomes.push(Outcome::Failed(Failure {
                    id,
                    reason: format!("{who} side: {}", crate::run::describe(&e)),
                    output,
                }));
            }
        }
    }
    progress.clear();
    for s in [base, cur].into_iter().flatten() {
        s.finish();
    }
    (
        TargetRun {
            label,
            outcomes,
            filtered_out,
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

fn empty(label: &str) -> TargetComparison {
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
            Some(b) => {
                if let Some(ch) = verdict::stored(&b.per_iter_ns, &r.per_iter_ns, threshold) {
                    cmp.rows.push(Row {
                        id: r.id.clone(),
                        kind: Kind::Stored,
                        baseline_ns: b.median_ns,
                        current_ns: r.summary.median,
                        change: ch.change,
                        change_ci: ch.ci,
                        p_value: ch.p_value,
                        verdict: ch.verdict,
                    });
                }
            }
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
