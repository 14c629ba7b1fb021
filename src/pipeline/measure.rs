//! A suite measured: every target in turn, on its own or against a saved
//! baseline (its executables in lockstep, else its stored samples), into
//! the run record's targets and comparison. Every command that measures
//! goes through here.

use crate::build::flags::for_this_cpu;
use crate::compare::{context_warnings, finish};
use crate::discover::Selection;
use crate::error::{Error, Result};
use crate::model::comparison::{Comparison, TargetComparison};
use crate::model::context::Context;
use crate::model::few::first_few;
use crate::model::observer::Observer;
use crate::model::outcome::TargetRun;
use crate::model::record::TargetRecord;
use crate::model::target::{BenchTarget, Built, Kind};
use crate::run::Plan;
use crate::run::compare::{Against, compare_target, stored_only};
use crate::run::counting::UNKNOWN_TO_VALGRIND;
use crate::store::baselines::{Baseline, Baselines};
use nbench::__private::select::Selected;
use std::path::PathBuf;

/// A saved baseline to compare with, and how.
pub struct Versus<'a> {
    /// The baseline.
    pub baseline: &'a Baseline,
    /// Where its executables are.
    pub baselines: &'a Baselines,
    /// `--compare-stored`: its stored samples even where its executables run.
    pub stored: bool,
    /// Changes smaller than this are "unchanged".
    pub threshold: f64,
}

/// Measures every target (each with its plan), against `versus` when
/// given: the targets' records, and the comparison, its warnings from the
/// baseline's context and `context` (this run's).
pub fn measure(
    targets: &[Built],
    plans: &[Plan],
    versus: Option<Versus<'_>>,
    context: &Context,
    observer: &mut dyn Observer,
) -> (Vec<TargetRecord>, Option<Comparison>) {
    let flags = rustflags(context);
    let Some(v) = versus else {
        return (measure_each(targets, plans, flags, observer), None);
    };
    let (mut runs, mut compared) = (Vec::new(), Vec::new());
    for (b, plan) in targets.iter().zip(in_turn(plans)) {
        let label = b.target.label();
        let against = Against {
            stored: v.baseline.run.targets.iter().find(|t| t.target == label),
            exes: v.baselines.executables_for(v.baseline, &label, v.stored),
            threshold: v.threshold,
            dir: Baselines::dir_for(v.baseline, &label),
            bins: v.baseline.kept_of(&label),
        };
        let (run, cmp) = compare_target(b, against, &plan(&runs), observer);
        runs.push(run);
        compared.push(cmp);
    }
    let mut warnings = context_warnings(&v.baseline.run.context, context);
    warnings.extend(runs.iter().flat_map(|r| uncounted(r, flags)));
    let name = v.baseline.name.clone();
    let counted = plans.iter().any(|p| p.instructions);
    let comparison = finish(name, v.threshold, warnings, compared, counted);
    (records(&runs), Some(comparison))
}

/// Measures every target on its own (nothing compared): their records.
/// Where instructions were asked for and some were not counted, says why
/// on stderr (a table shows `n/a` in their place).
pub fn measure_each(
    targets: &[Built],
    plans: &[Plan],
    rustflags: &[String],
    observer: &mut dyn Observer,
) -> Vec<TargetRecord> {
    let mut runs = Vec::new();
    for (b, plan) in targets.iter().zip(in_turn(plans)) {
        runs.push(crate::run::run_target(b, &plan(&runs), false, observer));
    }
    runs.iter()
        .flat_map(|r| uncounted(r, rustflags))
        .for_each(|w| super::warn(&w));
    records(&runs)
}

/// Each of `targets` listed, not measured, with its plan: the record of a
/// revision's baseline, whose executables a comparison runs.
pub fn list_each(targets: &[Built], plans: &[Plan]) -> Vec<TargetRecord> {
    let mut quiet = crate::report::progress::Progress::new(false);
    let runs: Vec<TargetRun> = (targets.iter().zip(plans))
        .map(|(b, plan)| crate::run::run_target(b, plan, true, &mut quiet))
        .collect();
    records(&runs)
}

fn records(runs: &[TargetRun]) -> Vec<TargetRecord> {
    runs.iter().map(TargetRecord::from_run).collect()
}

/// A filter that matches no benchmark of `targets` is refused before
/// layouts are built or anything is measured (a typo would otherwise pass
/// a CI gate silently).
pub fn check_filters(plan: &Plan, targets: &[Built]) -> Result<()> {
    if plan.filter.filters.is_empty() {
        return Ok(());
    }
    let mut ids = Vec::new();
    for b in targets {
        match crate::run::list_ids(b, plan) {
            Ok(listed) => ids.extend(listed),
            // A target that cannot even list is reported by the run itself.
            Err(_) => return Ok(()),
        }
    }
    match plan.filter.unmatched(&ids).as_slice() {
        [] => Ok(()),
        missing => Err(Error::Usage(format!(
            "no benchmark matches the filter{} `{}` (`cargo nbench --list` shows their ids)",
            if missing.len() == 1 { "" } else { "s" },
            missing.join("`, `")
        ))),
    }
}

/// A filter or `--bench` that names nothing either saved baseline holds
/// (`compare A B`) is a usage error, before anything is measured.
pub fn check_saved_selection(
    plan: &Plan,
    selection: &Selection,
    sides: [(&str, &Baseline); 2],
) -> Result<()> {
    let [(a, _), (b, _)] = sides;
    let targets = || sides.iter().flat_map(|(_, x)| &x.run.targets);
    let ids: Vec<String> = targets()
        .flat_map(|t| t.held_ids().map(str::to_owned))
        .collect();
    if let [first, ..] = plan.filter.unmatched(&ids).as_slice() {
        return Err(Error::Usage(format!(
            "no benchmark of baseline `{a}` or `{b}` matches the filter `{first}` (`cargo \
             nbench compare {a} {b} --list` shows their ids)"
        )));
    }
    let held = |name: &str| {
        let named = |(_, n): (&str, &str)| crate::discover::pattern::names(name, n);
        targets().any(|t| t.target.rsplit_once('/').is_some_and(named))
    };
    match selection.benches.iter().find(|name| !held(name)) {
        Some(missing) => Err(Error::Usage(format!(
            "no bench target named `{missing}` in baseline `{a}` or `{b}`"
        ))),
        None => Ok(()),
    }
}

/// Each target's plan as a function of the targets run before it: with
/// `--partition slice:M/N` the benchmarks are dealt out across targets, so
/// a target's share depends on how many the earlier ones selected.
pub fn in_turn(plans: &[Plan]) -> impl Iterator<Item = impl Fn(&[TargetRun]) -> Plan> {
    plans.iter().map(|plan| {
        move |before: &[TargetRun]| Plan {
            selected_before: before
                .iter()
                .map(|r| r.outcomes.len() + r.elsewhere.len())
                .sum(),
            ..plan.clone()
        }
    })
}

/// Two saved baselines compared, `cur` against `base`: `cur`'s
/// executables run as the current side, or, where it has none, its stored
/// samples stand in. The selected targets' records, and the comparison
/// (targets only `base` has among them).
pub fn compare_saved(
    (base, cur): (&Baseline, &Baseline),
    baselines: &Baselines,
    (plan, selection): (&Plan, &Selection),
    (meta, stored, threshold): (&cargo_metadata::Metadata, bool, f64),
    observer: &mut dyn Observer,
) -> (Vec<TargetRecord>, Comparison) {
    let mut plan = plan.clone();
    let (mut records, mut targets) = (Vec::new(), Vec::new());
    let mut uncounted_targets = Vec::new();
    let mut before = 0;
    for held in cur
        .run
        .targets
        .iter()
        .filter(|t| selection.picks(&t.target))
    {
        // With --partition slice, shards count the benchmarks the current side holds.
        plan.selected_before = before;
        before += held
            .held_ids()
            .filter(|id| plan.filter.verdict(id, false) != Selected::FilteredOut)
            .count();
        // Its executable may register more than it holds.
        plan.held = Some(held.held_ids().map(str::to_owned).collect());
        let Ok(cur_exes) = baselines.executables_for(cur, &held.target, false) else {
            let why = format!(
                "baseline `{}` has no saved executable for this target",
                cur.name
            );
            let (record, cmp) = stored_only(base, held, why, &plan, threshold);
            records.push(record);
            targets.push(cmp);
            continue;
        };
        let built = saved_target(meta, (cur, &held.target), cur_exes);
        let against = Against {
            stored: base.run.targets.iter().find(|t| t.target == held.target),
            exes: baselines.executables_for(base, &held.target, stored),
            threshold,
            dir: Baselines::dir_for(base, &held.target),
            bins: base.kept_of(&held.target),
        };
        let (run, cmp) = compare_target(&built, against, &plan, observer);
        records.push(TargetRecord::from_run(&run));
        uncounted_targets.extend(uncounted(&run, rustflags(&cur.run.context)));
        targets.push(cmp);
    }
    let gone = gone_targets(base, cur, &plan);
    targets.extend(gone.into_iter().filter(|t| selection.picks(&t.target)));
    let mut warnings = context_warnings(&base.run.context, &cur.run.context);
    warnings.extend(uncounted_targets);
    let name = base.name.clone();
    let comparison = finish(name, threshold, warnings, targets, plan.instructions);
    (records, comparison)
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
            let ids = gone.held_ids();
            cmp.gone = crate::compare::stored::gone(ids, &[], &reported);
            cmp
        })
        .collect()
}

/// The working tree's package of target `label` (`package/target`).
fn member<'m>(
    meta: &'m cargo_metadata::Metadata,
    label: &str,
) -> Option<&'m cargo_metadata::Package> {
    let package = label.split_once('/').map_or(label, |(p, _)| p);
    (meta.workspace_packages().into_iter()).find(|p| p.name.as_str() == package)
}

/// The folder of target `label`'s package in the working tree; `None`
/// where no member has that name.
pub fn working_dir(meta: &cargo_metadata::Metadata, label: &str) -> Option<PathBuf> {
    let folder = member(meta, label)?.manifest_path.parent()?;
    Some(folder.as_std_path().to_path_buf())
}

/// Baseline `b`'s saved executables for `label` (`package/target`, one per
/// link layout) as a built target, run from the package's folder it was
/// built in, as cargo would, or else the workspace's.
pub fn saved_target(
    meta: &cargo_metadata::Metadata,
    (b, label): (&Baseline, &str),
    mut exes: Vec<PathBuf>,
) -> Built {
    let (package, name) = label.split_once('/').unwrap_or((label, ""));
    let member = member(meta, label);
    let package_root = (Baselines::dir_for(b, label))
        .or_else(|| working_dir(meta, label))
        .unwrap_or_else(|| meta.workspace_root.as_std_path().to_path_buf());
    Built {
        target: BenchTarget {
            package: package.to_owned(),
            spec: member.map_or_else(|| package.to_owned(), |p| p.id.repr.clone()),
            name: name.to_owned(),
            kind: Kind::default(),
            source: PathBuf::new(),
            package_root,
            path_deps: Vec::new(),
            front_ends: Vec::new(),
        },
        exe: exes[0].clone(),
        features: Vec::new(),
        layouts: if exes.len() > 1 {
            std::mem::take(&mut exes)
        } else {
            Vec::new()
        },
        // Its copies of the package binaries its executables run.
        bins: b.kept_of(label),
    }
}

/// The user's rustflags the run of `context` was built with.
fn rustflags(context: &Context) -> &[String] {
    context
        .build
        .as_ref()
        .map_or(&[], |b| b.rustflags.as_slice())
}

/// Where `run`'s instructions were asked for and some or all were not
/// counted: why, once for the target where one reason holds for all; and
/// where Valgrind did not know an instruction of a build for this CPU
/// (`rustflags` holding `-C target-cpu=native`), what to do.
fn uncounted(run: &TargetRun, rustflags: &[String]) -> Vec<String> {
    let metric = nbench::__private::metric::Metric::Instructions;
    let native = for_this_cpu(rustflags);
    (run.uncounted(metric).into_iter())
        .map(|(ids, why)| {
            let why = match &native {
                Some(flag) if why.contains(UNKNOWN_TO_VALGRIND) => format!(
                    "{why}: the build may use every instruction of this CPU (`{flag}` in its \
                     rustflags), and Valgrind knows none of AVX-512; to count, build for an \
                     older CPU (`RUSTFLAGS=\"-C target-cpu=x86-64-v3\" cargo nbench …`)"
                ),
                _ => why.to_owned(),
            };
            let named: Vec<String> = ids.iter().map(|id| format!("`{id}`")).collect();
            let label = &run.label;
            match ids.len() {
                0 => format!("`{label}` has no instruction counts: {why}"),
                1 => format!("`{label}`: {} has no instruction count: {why}", named[0]),
                _ => format!(
                    "`{label}`: {} have no instruction counts: {why}",
                    first_few(&named)
                ),
            }
        })
        .collect()
}
