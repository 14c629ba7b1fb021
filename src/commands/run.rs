//! `cargo nbench [--save-baseline NAME] [--compare NAME]`: build and measure the bench targets,
//! in phases: prepare → build → measure → record → publish.

use super::publish::{emit, write_html};
use super::{note, warn};
use crate::config::{Settings, settings_record};
use crate::discover;
use crate::error::{Error, Result, exit};
use crate::model::comparison::Comparison;
use crate::model::context::Context;
use crate::model::outcome::{Outcome, TargetRun};
use crate::model::record::{RunRecord, SkippedRecord, TargetRecord};
use crate::model::target::Built;
use crate::report::Format;
use crate::report::progress::Progress;
use crate::run::suite::{self, Versus};
use crate::run::{self, Plan};
use crate::store::Store;
use crate::store::baselines::{Baseline, Lock};
use console::style;
use std::path::PathBuf;
use std::time::Instant;

/// What the run works with before anything is built.
struct Prepared {
    store: Store,
    workspace_root: PathBuf,
    /// `--save-baseline`: the name, held locked for the whole run.
    save: Option<(String, Lock)>,
    /// `--compare`: the baseline.
    compare_with: Option<Baseline>,
}

/// Builds, measures, stores and reports.
pub fn run(s: &Settings) -> Result<u8> {
    check_flags(s)?;
    let (found, mut skipped) = discover_targets(s)?;
    for name in s.unknown_bench_tables() {
        warn(&format!(
            "the settings file has a [bench.{name}] table, but the workspace has no bench target `{name}`"
        ));
    }
    let prepared = prepare(s, &found)?;
    let targets = build(s, &found.targets, &mut skipped)?;
    // `[bench.NAME]` tables of the settings file give a target settings of its own.
    let plans = targets
        .iter()
        .map(|b| s.plan_for(&b.target))
        .collect::<Result<Vec<Plan>>>()?;
    let mut progress = Progress::new(s.output.chatty());
    if s.list {
        let mut runs = Vec::new();
        for (b, plan) in targets.iter().zip(suite::in_turn(&plans)) {
            runs.push(run::run_target(b, &plan(&runs), true, &mut progress));
        }
        return Ok(print_list(&runs));
    }
    // Before a revision's side is measured, which pins the driver.
    let context = gather_context(s, &prepared.workspace_root);
    let prepared = with_revision(s, prepared)?;
    run::affinity::pin_driver();
    if s.output.format == Format::Jsonl {
        progress = progress.stream_events();
    }
    // Measuring only, as libtest's "finished in": the build has its own lines.
    let started = Instant::now();
    let (records, comparison) = measure(s, &prepared, &targets, &plans, &context, &mut progress);
    let partition = s.plan.partition;
    let duration_s = started.elapsed().as_secs_f64();
    let record = RunRecord::new(
        context,
        duration_s,
        records,
        skipped,
        (comparison, partition),
    );
    publish(s, &prepared, &record, &targets)
}

/// What is stored with the run of `s`: gathered before the driver is
/// pinned to one CPU, which would make the cores available look like one,
/// and when the run starts.
fn gather_context(s: &Settings, workspace_root: &std::path::Path) -> Context {
    let mut context = Context::gather(
        workspace_root,
        &s.build.profile,
        settings_record(&s.plan),
        &s.output.context,
    );
    context.build = Some(s.build.record(&std::env::current_dir().unwrap_or_default()));
    context
}

/// Builds and measures what `s` selects and saves it as baseline `name`,
/// reporting nothing: a revision's side of a comparison (see
/// [`Settings::for_revision`]). The baseline goes to the store of the
/// target directory `s` builds in.
pub(super) fn save_baseline(s: &Settings, name: &str) -> Result<()> {
    let (found, mut skipped) = discover_targets(s)?;
    let store = Store::new(&found.target_dir);
    let lock = store.baselines().lock(name)?;
    let targets = build(s, &found.targets, &mut skipped)?;
    let plans = targets
        .iter()
        .map(|b| s.plan_for(&b.target))
        .collect::<Result<Vec<Plan>>>()?;
    let context = gather_context(s, &found.workspace_root);
    run::affinity::pin_driver();
    let started = Instant::now();
    let records = suite::measure_each(&targets, &plans, &mut Progress::new(false));
    let duration_s = started.elapsed().as_secs_f64();
    let record = RunRecord::new(context, duration_s, records, skipped, (None, None));
    store.baselines().save(name, &record, &targets, &lock)?;
    Ok(())
}

/// Flags that need another one are refused before any work.
fn check_flags(s: &Settings) -> Result<()> {
    let c = &s.compare;
    if c.baseline.is_none() && c.rev.is_none() {
        for (set, flag) in [
            (c.fail_on_regression, "--fail-on-regression"),
            (c.stored, "--compare-stored"),
        ] {
            if set {
                return Err(Error::Usage(format!(
                    "{flag} needs a comparison: add --compare NAME, or use `cargo nbench compare A B`"
                )));
            }
        }
    }
    if c.baseline.is_some() && !c.stored && !s.plan.schedule.is_single() {
        warn(
            "--repetitions, --launches and --interleave shape fresh measurements; \
             --compare samples both versions in lockstep over fresh process pairs instead \
             (they still apply where a baseline executable cannot run)",
        );
    }
    Ok(())
}

/// The bench targets to build, and those left out.
fn discover_targets(s: &Settings) -> Result<(discover::Discovery, Vec<SkippedRecord>)> {
    let features = discover::Features {
        list: &s.build.features,
        all: s.build.all_features,
        no_default: s.build.no_default_features,
    };
    let found = discover::discover(&s.selection, features, &s.manifest, &s.meta)?;
    let skipped: Vec<SkippedRecord> = found
        .skipped
        .iter()
        .map(|s| SkippedRecord {
            target: s.label.clone(),
            reason: s.reason.clone(),
        })
        .collect();
    if found.targets.is_empty() {
        note_skipped(&skipped);
        return Err(Error::NoTargets);
    }
    Ok((found, skipped))
}

fn note_skipped(skipped: &[SkippedRecord]) {
    for s in skipped {
        note(&format!(
            "skipped bench target `{}`: {}",
            s.target, s.reason
        ));
    }
}

/// The store, and the baselines this run saves or compares with.
fn prepare(s: &Settings, found: &discover::Discovery) -> Result<Prepared> {
    let store = Store::new(&found.target_dir);
    // Taken before anything runs: a second run saving the same baseline is
    // refused at once, and a corrupt baseline is reported before any work.
    let save = match &s.compare.save_baseline {
        Some(name) => Some((name.clone(), store.baselines().claim(name)?)),
        None => None,
    };
    let compare_with = match &s.compare.baseline {
        Some(name) => Some(store.baselines().get(name)?),
        None => None,
    };
    // A revision that cannot be had is said before anything is built.
    if let Some(rev) = s.compare.rev.as_ref().filter(|_| !s.list) {
        crate::build::revision::check(&s.manifest, rev, &found.workspace_root)?;
    }
    Ok(Prepared {
        store,
        workspace_root: found.workspace_root.clone(),
        save,
        compare_with,
    })
}

/// `--compare-rev`: the revision's baseline, built now unless it was before.
/// Listing compares nothing: the revision is not built for it.
fn with_revision(s: &Settings, mut prepared: Prepared) -> Result<Prepared> {
    if let Some(rev) = s.compare.rev.as_ref().filter(|_| !s.list) {
        let root = &prepared.workspace_root;
        let name = super::revision::baseline_for(s, rev, &prepared.store, root)?;
        prepared.compare_with = Some(prepared.store.baselines().get(&name)?);
    }
    Ok(prepared)
}

/// Builds the targets; those whose executable does not link nbench join
/// `skipped`. Then the filters are checked and the link layouts built.
fn build(
    s: &Settings,
    targets: &[crate::model::target::BenchTarget],
    skipped: &mut Vec<SkippedRecord>,
) -> Result<Vec<Built>> {
    let (mut nbench_targets, others) = crate::build::build_benches(&s.build, targets)?;
    skipped.extend(others);
    note_skipped(skipped);
    if nbench_targets.is_empty() {
        return Err(Error::NoTargets);
    }
    if !s.list {
        suite::check_filters(&s.plan, &nbench_targets)?;
    }
    let k = s.build.layouts;
    if k > 1 && !s.output.quiet() {
        let what = format!(
            "building {k} link layouts of {} bench target{}",
            nbench_targets.len(),
            if nbench_targets.len() == 1 { "" } else { "s" }
        );
        match &s.build.mark {
            Some(mark) => eprintln!("{}", style(format!("[{mark}] {what}")).dim()),
            None => eprintln!("{}", style(what).dim()),
        }
    }
    if let Some(why) = crate::build::build_layouts(&s.build, &mut nbench_targets)? {
        warn(&format!(
            "the linker cannot reorder functions ({why}): comparing in one link layout"
        ));
    }
    Ok(nbench_targets)
}

/// Measures every target, against the baseline when there is one.
fn measure(
    s: &Settings,
    prepared: &Prepared,
    targets: &[Built],
    plans: &[Plan],
    context: &Context,
    progress: &mut Progress,
) -> (Vec<TargetRecord>, Option<Comparison>) {
    let baselines = prepared.store.baselines();
    let versus = prepared.compare_with.as_ref().map(|baseline| Versus {
        baseline,
        baselines: &baselines,
        stored: s.compare.stored,
        threshold: s.compare.noise_threshold,
    });
    suite::measure(targets, plans, versus, context, progress)
}

/// Stores the run (and the baseline), reports it, writes the HTML report.
fn publish(s: &Settings, prepared: &Prepared, record: &RunRecord, targets: &[Built]) -> Result<u8> {
    let store = &prepared.store;
    let save = prepared.save.as_ref();
    let kept = store.keep(
        record,
        save.map(|(name, lock)| (name.as_str(), lock, targets)),
    );
    if !s.output.quiet() {
        if kept.run.is_none() && kept.error.is_none() {
            note("nothing was measured, so the run is not stored");
        }
        if let Some(name) = &kept.baseline {
            eprintln!("{}", style(format!("saved baseline `{name}`")).dim());
        }
    }
    let root = &prepared.workspace_root;
    let shown = kept.run.as_ref().map(|p| p.strip_prefix(root).unwrap_or(p));
    let fail = s.compare.fail_on_regression;
    // A store that cannot be written must not cost what was measured: the
    // report is shown and written first, the error comes after it.
    let code = emit(&s.output, fail, record, shown, true)?;
    // The run is saved and reported already: a report that cannot be
    // written is worth a warning, not a different outcome.
    match write_html(store, record, s.output.quiet()) {
        Ok(path) if s.output.chatty() => {
            let shown = path.strip_prefix(root).unwrap_or(&path);
            eprintln!("{}", style(format!("report {}", shown.display())).dim());
        }
        Ok(_) => {}
        Err(e) => warn(&format!("the HTML report was not written: {e}")),
    }
    kept.error.map_or(Ok(code), Err)
}

/// `--list`: each selected benchmark as `target: id`.
fn print_list(runs: &[TargetRun]) -> u8 {
    let mut failed = false;
    for r in runs {
        for o in &r.outcomes {
            match o {
                Outcome::Listed(id) => println!("{}: {id}", r.label),
                Outcome::Failed(f) => {
                    failed = true;
                    eprintln!(
                        "{}: bench target {}: {}",
                        style("failed").red().bold(),
                        r.label,
                        f.reason
                    );
                }
                _ => {}
            }
        }
    }
    if failed {
        exit::BENCH_FAILED
    } else {
        exit::SUCCESS
    }
}
