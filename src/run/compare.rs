//! A built target against a baseline: each benchmark measured in lockstep with the baseline's
//! executable where it starts and speaks this protocol, else measured alone and compared with
//! the baseline's stored samples.

use super::epochs::{at_least, half_step_ns};
use super::layouts::Assignment;
use super::paired::{self, Paired, PairedSamples, Side};
use super::session::{Session, SessionError};
use super::{Plan, measure, open, run_target};
use crate::compare::stored::{Current, Scope, against_stored, gone};
use crate::compare::{row_threshold, verdict};
use crate::model::comparison::{Kind, NotCompared, Row, TargetComparison};
use crate::model::observer::Observer;
use crate::model::outcome::{Failure, Measured, Outcome, TargetRun};
use crate::model::record::TargetRecord;
use crate::model::target::Built;
use crate::store::baselines::Baseline;
use nbench::__private::engine::Settings;
use nbench::__private::engine::Stop;
use nbench::__private::protocol::Listed;
use nbench::__private::result::BenchResult;
use nbench::__private::select::Selected;
use nbench::__private::stats::{OutlierMode, Summary};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What the comparison of one target has to go on.
pub struct Against<'a> {
    /// The baseline's stored results for this target, if it has any.
    pub stored: Option<&'a TargetRecord>,
    /// The baseline's executables (one per link layout), or why there is none to run.
    pub exes: Result<Vec<PathBuf>, String>,
    /// Changes smaller than this are "unchanged" (0.01 = 1 %).
    pub threshold: f64,
}

/// Compares one built target with the baseline: paired if the baseline's
/// executable starts and speaks this protocol, otherwise against its stored samples.
pub fn compare_target(
    built: &Built,
    against: Against<'_>,
    plan: &Plan,
    observer: &mut dyn Observer,
) -> (TargetRun, TargetComparison) {
    let label = built.target.label();
    let start_placed = |exe: &Path, place: Option<u64>| {
        Session::start_placed(
            exe,
            &built.target.package_root,
            &plan.extra_args,
            plan.nocapture,
            plan.timeout,
            place,
        )
    };
    let start = |exe: &Path| start_placed(exe, None);
    let listed = against
        .exes
        .clone()
        .and_then(|e| list_baseline(&start, e, plan))
        .map(|(exes, ids)| (exes, held(ids, against.stored)));
    let (base_exes, base_ids) = match listed {
        Ok(found) => found,
        Err(why) => return unpaired(built, &against, plan, observer, why),
    };
    let cur_exes = built.comparison_exes();
    let start_cur = || start(&built.exe);
    let opened = match open(&label, &start_cur, plan) {
        Ok(o) => o,
        Err(failed) => return (failed, TargetComparison::empty(&label)),
    };
    let chosen = opened.picked.chosen;
    let mut cmp = TargetComparison::empty(&label);
    cmp.gone = gone_here(&label, &base_ids, &chosen, &opened.picked.elsewhere, plan);
    cmp.layouts = Some([base_exes.len(), cur_exes.len()]);
    let mut outcomes = Vec::new();
    // Kept for benchmarks the baseline does not have, measured on their own.
    let mut cur = Some(opened.session);
    let to_measure = chosen.iter().filter(|(_, v)| *v == Selected::Run).count();
    // Sampling time benchmarks that settled early left for those in doubt.
    let mut spare = std::time::Duration::ZERO;
    for (n, (id, verdict)) in chosen.into_iter().enumerate() {
        if verdict == Selected::Ignored {
            outcomes.push(Outcome::Ignored(id));
            continue;
        }
        observer.observe(&label, &outcomes);
        observer.start(&label, &id, n + 1, to_measure);
        let settings = opened.hints.settings(plan, &id);
        if !base_ids.contains(&id) {
            cmp.new.push(id.clone());
            let one = measure(&mut cur, &start_cur, &id, &settings, plan.timeout);
            outcomes.push(one.map_or_else(|o| o, |m| Outcome::Measured(Box::new(m))));
            continue;
        }
        let exes = (base_exes.as_slice(), cur_exes.as_slice());
        let judging = (against.threshold, &mut spare);
        let how = (plan, &settings);
        let (outcome, compared) = compare_over_layouts(&start_placed, exes, id, how, judging);
        compared.add_to(&mut cmp);
        outcomes.push(outcome);
    }
    observer.observe(&label, &outcomes);
    observer.clear();
    if let Some(c) = cur {
        c.finish();
    }
    let run = TargetRun {
        label,
        outcomes,
        filtered_out: opened.picked.filtered_out,
        elsewhere: opened.picked.elsewhere,
        scalings: opened.scalings,
    };
    (run, cmp)
}

/// What comparing one benchmark in lockstep gave the comparison.
enum Compared {
    /// Its row.
    Row(Box<Row>),
    /// Nothing to compare, and why.
    Not(NotCompared),
    /// Nothing: it failed or skipped (the outcome says so).
    Nothing,
}

impl Compared {
    /// Puts it into the target's comparison.
    fn add_to(self, cmp: &mut TargetComparison) {
        match self {
            Compared::Row(row) => cmp.rows.push(*row),
            Compared::Not(why) => cmp.not_compared.push(why),
            Compared::Nothing => {}
        }
    }
}

/// Starts an executable with a memory placement ([`Session::start_placed`]).
type StartPlaced<'a> = dyn Fn(&Path, Option<u64>) -> Result<Session, SessionError> + 'a;

/// [`compare_one`] over the sides' layouts: a new pairing of layouts for
/// every benchmark; both processes of an epoch get the same memory
/// placement, each epoch another.
fn compare_over_layouts(
    start_placed: &StartPlaced<'_>,
    (base_exes, cur_exes): (&[PathBuf], &[PathBuf]),
    id: String,
    how: (&Plan, &Settings),
    judging: (f64, &mut std::time::Duration),
) -> (Outcome, Compared) {
    let seed = seed(&id);
    let layouts = Assignment::new(base_exes.len(), cur_exes.len(), seed);
    let mut start_side = |side: Side, epoch: usize| {
        let place = Some(seed.rotate_left(17) ^ (epoch as u64).wrapping_mul(0x9E37_79B9));
        match side {
            Side::Baseline => start_placed(&base_exes[layouts.base(epoch)], place),
            Side::Current => start_placed(&cur_exes[layouts.cur(epoch)], place),
        }
    };
    compare_one(&mut start_side, &layouts, id, how, judging)
}

/// Measures benchmark `id` in lockstep with the baseline: its outcome, and
/// its comparison row when both sides measured it.
/// `spare`: sampling time earlier benchmarks of the target left unused,
/// which `*spare` is then updated by (what this one left, or took of it).
fn compare_one(
    start_side: &mut dyn FnMut(Side, usize) -> Result<Session, SessionError>,
    layouts: &Assignment,
    id: String,
    (plan, settings): (&Plan, &Settings),
    (threshold, spare): (f64, &mut std::time::Duration),
) -> (Outcome, Compared) {
    let began = Instant::now();
    let settled = |r: &[f64]| {
        let units = layouts.units(r);
        // Over layouts, stop early only once every layout of each side ran
        // twice: placement effects come in steps, a few layouts can agree by
        // chance, and with each layout run once what it adds cannot be told
        // from noise, so the interval cannot hold it (measured: relinked
        // code called 1.3 % faster, and a 1 % slower build "unchanged",
        // after 12 epochs).
        let enough = !layouts.controlled() || units.len() >= 2 * layouts.most();
        let clusters = layouts.unit_layouts(r.len());
        enough
            && verdict::paired(&units, verdict::clusters(&clusters), &[], threshold)
                .is_some_and(|c| verdict::settled(&c, threshold))
    };
    let times = (plan.timeout, *spare);
    let measured = paired::measure(start_side, &id, settings, times, &settled);
    if let Ok(Paired::Samples(p)) = &measured {
        *spare = (*spare + settings.max_time).saturating_sub(p.sampled);
    }
    match measured {
        Ok(Paired::Skipped(side, reason)) => {
            let reason = match side {
                Side::Current => reason,
                Side::Baseline => format!("the baseline skips it: {reason}"),
            };
            (Outcome::Skipped { id, reason }, Compared::Nothing)
        }
        Ok(Paired::Metrics(base, cur)) => {
            let not = NotCompared::metrics(&id, base, cur);
            let reason = format!("not compared: {}", not.reason);
            (Outcome::Skipped { id, reason }, Compared::Not(not))
        }
        Ok(Paired::Samples(p)) => {
            let row = paired_row(&id, &p, layouts, threshold);
            let compared = row.map_or(Compared::Nothing, |r| Compared::Row(Box::new(r)));
            (paired_outcome(id, p, settings.outliers, began), compared)
        }
        Err(e) => {
            let why = e.error.to_string();
            // The current side's own failure is the benchmark's, as in a run without a baseline.
            let reason = match (e.side, &e.error) {
                (Side::Current, SessionError::Benchmark(_)) => why,
                (Side::Current, _) => format!("current side: {why}"),
                (Side::Baseline, _) => format!("baseline side: {why}"),
            };
            let failure = Failure {
                id,
                reason,
                output: e.output,
            };
            (Outcome::Failed(failure), Compared::Nothing)
        }
    }
}

/// The baseline's benchmarks ([`gone`]) that neither `chosen` here nor
/// another shard (`elsewhere`) measures.
fn gone_here(
    label: &str,
    base_ids: &[String],
    chosen: &[(String, Selected)],
    elsewhere: &[String],
    plan: &Plan,
) -> Vec<String> {
    let present: Vec<String> = (chosen.iter().map(|(id, _)| id.clone()))
        .chain(elsewhere.iter().cloned())
        .collect();
    let reported = |id: &str| plan.reports_gone(label, id);
    gone(base_ids.iter().map(String::as_str), &present, &reported)
}

/// The listed ids the baseline's stored results hold: a baseline saved
/// with filters holds only those, whatever its executable registers.
fn held(listed: Vec<String>, stored: Option<&TargetRecord>) -> Vec<String> {
    match stored {
        Some(t) => listed
            .into_iter()
            .filter(|id| t.benchmarks.iter().any(|b| &b.id == id))
            .collect(),
        None => listed,
    }
}

/// The baseline executable's benchmark ids, or why it cannot be compared with.
fn list_baseline(
    start: &dyn Fn(&Path) -> Result<Session, SessionError>,
    exes: Vec<PathBuf>,
    plan: &Plan,
) -> Result<(Vec<PathBuf>, Vec<String>), String> {
    let mut base =
        start(&exes[0]).map_err(|e| format!("the baseline executable did not start: {e}"))?;
    let ids = base
        .list(plan.timeout)
        .map_err(|e| format!("the baseline executable failed: {e}"))?;
    base.finish();
    Ok((exes, ids.into_iter().map(|b| b.id).collect()))
}

/// The comparison row of one benchmark measured in lockstep.
fn paired_row(id: &str, p: &PairedSamples, layouts: &Assignment, threshold: f64) -> Option<Row> {
    // The baseline column as a fresh run estimates a time: the fastest
    // epoch's median (a slow spell only adds time), so that it reads what a
    // plain run of the same executable reads; the current column is it
    // moved by the change the verdict is made from.
    let base_median = p
        .epoch_base_medians
        .iter()
        .copied()
        .filter(|m| m.is_finite())
        .min_by(f64::total_cmp)
        .unwrap_or_else(|| median(&p.base_ns));
    let t = row_threshold(threshold, base_median, p.overhead_ns);
    let units = layouts.units(&p.epoch_ratios);
    let clusters = layouts.unit_layouts(p.epoch_ratios.len());
    let mut ch = verdict::paired(&units, verdict::clusters(&clusters), &p.round_ratios(), t)?;
    // No narrower than the clock's step in either side's median.
    let cur_median = median(&p.cur_ns);
    let rel = |m: f64| {
        if m > 0.0 {
            half_step_ns(p.iters) / m
        } else {
            0.0
        }
    };
    let half = (1.0 + ch.change) * (rel(base_median) + rel(cur_median));
    ch.ci = at_least(ch.change, ch.ci, half);
    // The current column: the estimate the verdict is made from, so that
    // the row's numbers tell one story.
    let times = [base_median, base_median * (1.0 + ch.change)];
    let found = (ch.change, ch.ci, ch.p_value, ch.verdict);
    Some(Row {
        baseline_per_iter_ns: p.base_ns.clone(),
        overhead_ns: p.overhead_ns,
        // Placement's share of the spread, without the epochs far from the rest.
        layout_spread: layouts.spread(&verdict::pull_in_far(&units).0),
        epochs: Some(p.epoch_ratios.len()),
        epochs_pulled_in: ch.pulled_in,
        layouts_left_out: ch.layouts_left_out,
        unit_ratios: units,
        time_limited: p.stop == Stop::TimeLimit,
        ..Row::new(id, Kind::Paired, p.metric, times, found)
    })
}

/// A seed for the pairing of layouts: new every run, different per benchmark.
fn seed(id: &str) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write(id.as_bytes());
    h.finish()
}

fn median(x: &[f64]) -> f64 {
    Summary::new(x).map(|s| s.median).unwrap_or(0.0)
}

/// The current side's samples of a lockstep measurement as its result.
fn paired_outcome(id: String, p: PairedSamples, mode: OutlierMode, began: Instant) -> Outcome {
    let summary = match Summary::with_outliers(&p.cur_ns, mode) {
        Ok(s) => s,
        Err(e) => {
            return Outcome::Failed(Failure {
                id,
                reason: e.to_string(),
                output: String::new(),
            });
        }
    };
    Outcome::Measured(Box::new(Measured {
        result: BenchResult {
            id,
            metric: p.metric,
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
            cut_short: None,
        },
        elapsed_s: began.elapsed().as_secs_f64(),
        within: None,
    }))
}

/// Measures the current build on its own and compares with the stored samples.
fn unpaired(
    built: &Built,
    against: &Against<'_>,
    plan: &Plan,
    observer: &mut dyn Observer,
    why: String,
) -> (TargetRun, TargetComparison) {
    let run = run_target(built, plan, false, observer);
    let current = run.outcomes.iter().filter_map(|o| match o {
        Outcome::Measured(m) => Some(Current {
            id: &m.result.id,
            median_ns: m.result.summary.median,
            per_iter_ns: &m.result.per_iter_ns,
            metric: m.result.metric,
        }),
        _ => None,
    });
    let cmp = with_stored(
        &run.label,
        why,
        current,
        against.stored,
        &run.elsewhere,
        plan,
        against.threshold,
    );
    (run, cmp)
}

/// Neither side can run (`why`): the stored samples of `cur` are compared
/// with the baseline's, those `plan` picks of them.
pub fn stored_only(
    base: &Baseline,
    cur: &TargetRecord,
    why: String,
    plan: &Plan,
    threshold: f64,
) -> (TargetRecord, TargetComparison) {
    // Picked as a run picks from a listing: filters, then this shard's share.
    let listed = cur.benchmarks.iter().map(|x| Listed {
        id: x.id.clone(),
        ignored: false,
        scaling: None,
        hint: None,
    });
    let picked = plan.select(&cur.target, listed.collect());
    let mut record = cur.clone();
    record
        .benchmarks
        .retain(|x| picked.chosen.iter().any(|(id, _)| *id == x.id));
    record.other_shards = picked.elsewhere.len();
    let current = record.benchmarks.iter().map(|c| Current {
        id: &c.id,
        median_ns: c.median_ns,
        per_iter_ns: &c.per_iter_ns,
        metric: c.metric,
    });
    let stored = base.run.targets.iter().find(|t| t.target == cur.target);
    // Benchmarks of `cur` that the filters or shard left out are not gone.
    let present: Vec<String> = cur.benchmarks.iter().map(|c| c.id.clone()).collect();
    let cmp = with_stored(&cur.target, why, current, stored, &present, plan, threshold);
    (record, cmp)
}

/// Target `label`'s `current` benchmarks compared with the baseline's
/// `stored` samples (no executable to pair with, because `why`); those the
/// current side holds `elsewhere` are not gone.
fn with_stored<'a>(
    label: &str,
    why: String,
    current: impl IntoIterator<Item = Current<'a>>,
    stored: Option<&TargetRecord>,
    elsewhere: &[String],
    plan: &Plan,
    threshold: f64,
) -> TargetComparison {
    let mut cmp = TargetComparison::empty(label);
    cmp.unpaired_because = Some(why);
    let base = stored.map(|t| t.benchmarks.as_slice()).unwrap_or_default();
    let reported = |id: &str| plan.reports_gone(label, id);
    let scope = Scope {
        elsewhere,
        reported: &reported,
    };
    against_stored(&mut cmp, current, base, scope, threshold);
    cmp
}
