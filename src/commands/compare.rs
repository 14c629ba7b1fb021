//! `cargo nbench compare A B`: two saved baselines compared, their executables in lockstep; nothing is built.

use super::publish::emit;
use crate::compare::stored::{self, Current, Scope, against_stored};
use crate::compare::{context_warnings, finish};
use crate::config::{Settings, settings_record};
use crate::error::{Error, Result};
use crate::model::comparison::TargetComparison;
use crate::model::context::Context;
use crate::model::record::{RunRecord, SCHEMA_VERSION, TargetRecord};
use crate::model::target::{BenchTarget, Built};
use crate::report::progress::Progress;
use crate::run::Plan;
use crate::run::affinity;
use crate::run::compare::{Against, compare_target};
use crate::store::Store;
use crate::store::baselines::Baseline;
use nbench::__private::protocol::Listed;
use nbench::__private::select::Selected;
use std::path::PathBuf;
use std::time::Instant;

/// Compares baseline `b` with baseline `a` (or, with `revisions`, the
/// baselines of two git revisions, made first where missing), reports it,
/// and returns the exit code.
pub fn run(s: &Settings, a: &str, b: &str, revisions: bool, filters: &[String]) -> Result<u8> {
    let (a, b) = if revisions {
        let store = Store::new(&s.target_dir());
        let root = s.meta.workspace_root.as_std_path();
        (
            super::revision::baseline_for(s, a, &store, root)?,
            super::revision::baseline_for(s, b, &store, root)?,
        )
    } else {
        (a.to_owned(), b.to_owned())
    };
    let record = measure(s, &a, &b, filters)?;
    emit(
        &s.output,
        s.compare.fail_on_regression,
        &record,
        None,
        false,
    )
}

/// Compares baseline `b` (the "current" side) with baseline `a`: the run
/// record, with its comparison.
fn measure(s: &Settings, a: &str, b: &str, filters: &[String]) -> Result<RunRecord> {
    let started = Instant::now();
    let store = Store::new(&s.target_dir());
    let baselines = store.baselines();
    let load = |name: &str| {
        baselines
            .load(name)?
            .ok_or_else(|| Error::NoBaseline(name.to_owned()))
    };
    let (base, cur) = (load(a)?, load(b)?);
    let mut plan = s.plan.clone();
    plan.filter.filters = filters.to_vec();
    check_selection(s, &plan, [(a, &base), (b, &cur)])?;
    let threshold = s.compare.noise_threshold;
    // Before the driver is pinned to one CPU, which would make the cores look like one.
    let context = Context::gather(
        s.meta.workspace_root.as_std_path(),
        &cur.run.context.profile,
        settings_record(&plan),
        &s.output.context,
    );
    affinity::pin_driver();
    let mut progress = Progress::new(s.output.chatty());
    let (mut records, mut targets) = (Vec::new(), Vec::new());
    let mut before = 0;
    let picked = |t: &&TargetRecord| s.selection.picks(&t.target);
    for stored in cur.run.targets.iter().filter(picked) {
        // With --partition slice, shards count the benchmarks B holds.
        plan.selected_before = before;
        before += stored
            .benchmarks
            .iter()
            .filter(|x| plan.filter.verdict(&x.id, false) != Selected::FilteredOut)
            .count();
        // Baseline B's executable may register more than B holds.
        plan.held = Some(stored.benchmarks.iter().map(|x| x.id.clone()).collect());
        let Ok(cur_exes) = baselines.executables_for(&cur, &stored.target, false) else {
            let (record, cmp) = stored_only(&base, stored, b, &plan, threshold);
            records.push(record);
            targets.push(cmp);
            continue;
        };
        let built = saved_target(&s.meta, &stored.target, cur_exes);
        let against = Against {
            stored: base.run.targets.iter().find(|t| t.target == stored.target),
            exes: baselines.executables_for(&base, &stored.target, s.compare.stored),
            threshold,
        };
        let (run, cmp) = compare_target(&built, against, &plan, &mut progress);
        records.push(TargetRecord::from_run(&run));
        targets.push(cmp);
    }
    targets.extend(
        gone_targets(&base, &cur, &plan)
            .into_iter()
            .filter(|t| s.selection.picks(&t.target)),
    );
    let comparison = finish(
        a.to_owned(),
        threshold,
        context_warnings(&base.run.context, &cur.run.context),
        targets,
    );
    let record = RunRecord {
        partition: s.plan.partition,
        schema: SCHEMA_VERSION,
        context,
        duration_s: started.elapsed().as_secs_f64(),
        targets: records,
        skipped: Vec::new(),
        comparison: Some(comparison),
    };
    Ok(record)
}

/// A filter or `--bench` that names nothing either baseline holds is a
/// usage error, before anything is measured.
fn check_selection(s: &Settings, plan: &Plan, sides: [(&str, &Baseline); 2]) -> Result<()> {
    let [(a, _), (b, _)] = sides;
    let targets = || sides.iter().flat_map(|(_, x)| &x.run.targets);
    let ids: Vec<String> = targets()
        .flat_map(|t| t.benchmarks.iter().map(|x| x.id.clone()))
        .collect();
    if let [first, ..] = plan.filter.unmatched(&ids).as_slice() {
        return Err(Error::Usage(format!(
            "no benchmark of baseline `{a}` or `{b}` matches the filter `{first}`"
        )));
    }
    let held =
        |name: &str| targets().any(|t| t.target.rsplit_once('/').is_some_and(|(_, n)| n == name));
    match s.selection.benches.iter().find(|name| !held(name)) {
        Some(missing) => Err(Error::Usage(format!(
            "no bench target named `{missing}` in baseline `{a}` or `{b}`"
        ))),
        None => Ok(()),
    }
}

/// The targets only `base` has, each with its gone benchmarks.
fn gone_targets(base: &Baseline, cur: &Baseline, plan: &Plan) -> Vec<TargetComparison> {
    base.run
        .targets
        .iter()
        .filter(|t| !cur.run.targets.iter().any(|c| c.target == t.target))
        .map(|gone| {
            let mut cmp = TargetComparison::empty(&gone.target);
            let reported = |id: &str| plan.reports_gone(&gone.target, id);
            let ids = gone.benchmarks.iter().map(|x| x.id.as_str());
            cmp.gone = stored::gone(ids, &[], &reported);
            cmp
        })
        .collect()
}

/// A baseline's saved executables for `label` (`package/target`, one per
/// link layout) as a built target, run from its package's directory as cargo would.
fn saved_target(meta: &cargo_metadata::Metadata, label: &str, mut exes: Vec<PathBuf>) -> Built {
    let (package, name) = label.split_once('/').unwrap_or((label, ""));
    let root = meta.workspace_root.as_std_path();
    let member = meta
        .workspace_packages()
        .into_iter()
        .find(|p| p.name.as_str() == package);
    let package_root = member
        .and_then(|p| p.manifest_path.parent())
        .map_or_else(|| root.to_path_buf(), |d| d.as_std_path().to_path_buf());
    Built {
        target: BenchTarget {
            package: package.to_owned(),
            spec: member.map_or_else(|| package.to_owned(), |p| p.id.repr.clone()),
            name: name.to_owned(),
            package_root,
        },
        exe: exes[0].clone(),
        layouts: if exes.len() > 1 {
            std::mem::take(&mut exes)
        } else {
            Vec::new()
        },
    }
}

/// Neither side can run: the stored samples of both are compared.
fn stored_only(
    base: &Baseline,
    cur: &TargetRecord,
    cur_name: &str,
    plan: &Plan,
    threshold: f64,
) -> (TargetRecord, TargetComparison) {
    let mut cmp = TargetComparison::empty(&cur.target);
    cmp.unpaired_because = Some(format!(
        "baseline `{cur_name}` has no saved executable for this target"
    ));
    let base_target = base.run.targets.iter().find(|t| t.target == cur.target);
    let base_benches = base_target
        .map(|t| t.benchmarks.as_slice())
        .unwrap_or_default();
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
    });
    let reported = |id: &str| plan.reports_gone(&cur.target, id);
    // Benchmarks of `cur` that the filters or shard left out are not gone.
    let present: Vec<String> = cur.benchmarks.iter().map(|c| c.id.clone()).collect();
    let scope = Scope {
        elsewhere: &present,
        reported: &reported,
    };
    against_stored(&mut cmp, current, base_benches, scope, threshold);
    (record, cmp)
}
