//! `cargo nbench compare A B`: two saved baselines compared, their executables in lockstep; nothing is built.

use super::publish::emit;
use crate::config::{Settings, settings_record};
use crate::error::{Error, Result};
use crate::model::context::Context;
use crate::model::record::RunRecord;
use crate::report::progress::Progress;
use crate::run::Plan;
use crate::run::affinity;
use crate::run::suite;
use crate::store::Store;
use crate::store::baselines::Baseline;
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
    let (records, comparison) = suite::compare_saved(
        (&base, &cur),
        &baselines,
        (&plan, &s.selection),
        (&s.meta, s.compare.stored, threshold),
        &mut progress,
    );
    let duration_s = started.elapsed().as_secs_f64();
    let record = RunRecord::new(
        context,
        duration_s,
        records,
        Vec::new(),
        (Some(comparison), s.plan.partition),
    );
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
