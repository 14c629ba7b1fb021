//! `cargo nbench [--save-baseline NAME] [--compare NAME]`: build and measure the bench targets,
//! in phases: prepare → build → measure → record → publish.

use crate::build::snapshot::Snapshot;
use crate::config::Settings;
use crate::discover;
use crate::error::{Error, Result, exit};
use crate::model::comparison::Comparison;
use crate::model::context::Context;
use crate::model::outcome::{Outcome, TargetRun};
use crate::model::record::{RunRecord, TargetRecord};
use crate::model::target::Built;
use crate::pipeline::measure::{self, Versus};
use crate::pipeline::publish::{emit, write_html};
use crate::pipeline::targets::{build, check_counting, gather_context, plans, selected, swapped};
use crate::pipeline::{history, note, revision, warn, warn_uncopied, working_tree};
use crate::report::Format;
use crate::report::progress::Progress;
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
    /// `--compare-rev`: its baseline, checked out to be built where it is not saved.
    revision: Option<revision::Pending>,
}

/// Builds the bench targets `found` (or, where the working tree's suite
/// cannot run as it stands, runs `tree`'s: the working tree as a commit,
/// built as a revision is, with nbench's front ends in their libraries'
/// places), measures, stores and reports.
pub fn run(s: &Settings, found: discover::Discovery, tree: Option<&Snapshot>) -> Result<u8> {
    check_flags(s)?;
    check_counting(s)?;
    let (found, mut skipped) = match tree {
        None => selected(found)?,
        Some(_) => swapped(found),
    };
    for name in s.unknown_bench_tables() {
        warn(&format!(
            "the settings file has a [bench.{name}] table, but the workspace has no bench target `{name}`"
        ));
    }
    let prepared = prepare(s, &found)?;
    let (targets, built_as) = match tree {
        None => (build(s, &found, &mut skipped)?, None),
        Some(tree) => {
            let (saved, targets) = working_tree::built(s, tree, &prepared.store)?;
            (targets, Some(saved.run.context))
        }
    };
    let mut plans = plans(s, &targets);
    let mut progress = Progress::new(s.output.chatty()).every_line(s.output.verbose());
    if s.list {
        let mut runs = Vec::new();
        for (b, plan) in targets.iter().zip(measure::in_turn(&plans)) {
            runs.push(run::run_target(b, &plan(&runs), true, &mut progress));
        }
        return Ok(print_list(&runs));
    }
    let builds = history::attach(&mut plans, &targets, &prepared.store.history());
    // Before a revision's side is measured, which pins the driver.
    let mut context = gather_context(s, &found);
    if let Some(then) = &built_as {
        context = built_so(context, then);
    }
    let prepared = with_revision(s, prepared)?;
    run::affinity::pin_driver();
    if s.output.format == Format::Jsonl {
        progress = progress.stream_events();
    }
    // Measuring only, as libtest's "finished in": the build has its own lines.
    let started = Instant::now();
    let (mut records, comparison) =
        measure(s, &prepared, &targets, &plans, &context, &mut progress);
    history::name_builds(&mut records, &builds);
    let partition = s.plan().partition;
    let duration_s = started.elapsed().as_secs_f64();
    let record = RunRecord::new(
        context,
        duration_s,
        records,
        skipped,
        (comparison, partition),
    );
    publish(s, &prepared, &record, (&targets, &builds))
}

/// The context of a run of the working tree whose executables a revision's
/// build made (`then`): its compiler and build are that build's.
fn built_so(now: Context, then: &Context) -> Context {
    let (git_commit, git_dirty) = (now.git_commit.clone(), now.git_dirty);
    let git_no_commits = now.git_no_commits;
    Context {
        git_commit,
        git_dirty,
        git_no_commits,
        ..now.code_of(then)
    }
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
    if c.baseline.is_some() && !c.stored && !s.plan().schedule.is_single() {
        warn(
            "--repetitions, --launches and --interleave shape fresh measurements; \
             --compare samples both versions in lockstep over fresh process pairs instead \
             (they still apply where a baseline executable cannot run)",
        );
    }
    Ok(())
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
        Some(name) => Some(store.baselines().get_to_compare(name)?),
        None => None,
    };
    // A revision that cannot be had, or checked out, is said before
    // anything is built. Listing compares nothing: no revision for it.
    let revision = match s.compare.rev.as_ref().filter(|_| !s.list) {
        // `prepare` finds the commit first: a revision git cannot name stops it.
        Some(rev) => Some(revision::prepare(s, rev, &store, &found.workspace_root)?),
        None => None,
    };
    Ok(Prepared {
        store,
        workspace_root: found.workspace_root.clone(),
        save,
        compare_with,
        revision,
    })
}

/// `--compare-rev`: the revision's baseline, built now unless it was before.
fn with_revision(s: &Settings, mut prepared: Prepared) -> Result<Prepared> {
    if let Some(pending) = prepared.revision.take() {
        let name = pending.finish(s, &prepared.store)?;
        prepared.compare_with = Some(prepared.store.baselines().get_to_compare(&name)?);
    }
    Ok(prepared)
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
    if let Some(baseline) = &prepared.compare_with {
        let labels: Vec<String> = targets.iter().map(|b| b.target.label()).collect();
        crate::pipeline::revision::untracked_beside(s, baseline, &labels);
    }
    let versus = prepared.compare_with.as_ref().map(|baseline| Versus {
        baseline,
        baselines: &baselines,
        stored: s.compare.stored,
        threshold: s.compare.noise_threshold,
    });
    measure::measure(targets, plans, versus, context, progress)
}

/// Stores the run (and the baseline), reports it, writes the HTML report.
fn publish(
    s: &Settings,
    prepared: &Prepared,
    record: &RunRecord,
    (targets, builds): (&[Built], &[history::Build]),
) -> Result<u8> {
    let store = &prepared.store;
    let save = prepared.save.as_ref();
    let kept = store.keep(
        record,
        save.map(|(name, lock)| (name.as_str(), lock, targets)),
    );
    if kept.run.is_some()
        && let Err(e) = store.add_history(&history::lines(&record.targets, builds))
    {
        warn(&format!(
            "the next run's intervals will not know this run: {e}"
        ));
    }
    if let Some(name) = &kept.baseline {
        warn_uncopied(name, &kept.uncopied);
    }
    if !s.output.quiet() {
        if kept.run.is_none() && kept.error.is_none() {
            note("nothing was measured, so the run is not stored");
        }
        if let Some(name) = &kept.baseline {
            errln!("{}", style(format!("saved baseline `{name}`")).dim());
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
            errln!("{}", style(format!("report {}", shown.display())).dim());
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
                Outcome::Listed(id) => {
                    outln!("{}: {}", r.label, nbench::__private::format::one_line(id))
                }
                Outcome::Failed(f) => {
                    failed = true;
                    errln!(
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
