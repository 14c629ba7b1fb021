//! `cargo nbench compare A B`: two saved baselines compared, their executables in lockstep; nothing is built.

use crate::build::snapshot::Snapshot;
use crate::config::{Settings, settings_record};
use crate::error::Result;
use crate::model::context::Context;
use crate::model::record::{RunRecord, TargetRecord};
use crate::pipeline::publish::emit_unstored;
use crate::pipeline::{measure, revision, working_tree};
use crate::report::progress::Progress;
use crate::run::affinity;
use crate::store::Store;
use crate::store::baselines::Baseline;
use nbench::__private::select::Selected;
use std::time::Instant;

/// Compares baseline `b` with baseline `a` (or, with `revisions`, the
/// baselines of two git revisions, made first where missing), reports it,
/// and returns the exit code.
pub fn run(s: &Settings, a: &str, b: &str, revisions: bool, filters: &[String]) -> Result<u8> {
    crate::pipeline::targets::check_counting(s)?;
    let (a, b) = if revisions {
        let store = Store::new(&s.target_dir());
        let root = s.meta.workspace_root.as_std_path();
        // Both revisions are checked before either is built: a typo in the
        // second must not cost the first one's build.
        for rev in [a, b] {
            crate::build::revision::check(rev, root)?;
        }
        (
            revision::baseline_for(s, a, &store, root)?,
            revision::baseline_for(s, b, &store, root)?,
        )
    } else {
        (a.to_owned(), b.to_owned())
    };
    compared(s, (&a, &b), filters, None)
}

/// `cargo nbench --compare-rev REV` from a working tree whose suite cannot
/// run as it stands: `tree`, the working tree as a commit, compared with
/// `REV` as two revisions are (the revision and counting were checked
/// before `tree` was made).
pub fn working_tree(s: &Settings, tree: &Snapshot) -> Result<u8> {
    let rev = s.compare.rev.as_deref().unwrap_or("HEAD");
    let store = Store::new(&s.target_dir());
    let root = s.meta.workspace_root.as_std_path();
    let a = revision::baseline_for(s, rev, &store, root)?;
    let b = revision::baseline_of_working_tree(s, tree, &store, root)?;
    working_tree::keep_only(&store, &b, tree);
    compared(s, (&a, &b), &s.plan().filter.filters, Some(tree))
}

/// Baseline `b` compared with baseline `a` and reported (listed, with
/// `--list`): the exit code. Where `b` is the working tree made a commit,
/// the report names the commit it was made on, with uncommitted changes,
/// as a run of that working tree would.
fn compared(
    s: &Settings,
    (a, b): (&str, &str),
    filters: &[String],
    tree: Option<&Snapshot>,
) -> Result<u8> {
    if s.list {
        return list(s, a, b, filters);
    }
    let mut record = measure(s, a, b, filters)?;
    if let Some(tree) = tree.filter(|t| t.made) {
        record.context.git_commit = tree.parent.clone();
        record.context.git_dirty = Some(true);
    }
    emit_unstored(s, &record)
}

/// `--list`: each benchmark the comparison of `b` with `a` would take,
/// as `target: id` (as `cargo nbench --list` lists a build's): `b`'s, then
/// those only `a` holds. How many each side alone holds is said on stderr.
fn list(s: &Settings, a: &str, b: &str, filters: &[String]) -> Result<u8> {
    let baselines = Store::new(&s.target_dir()).baselines();
    let (base, cur) = (baselines.get(a)?, baselines.get(b)?);
    let mut plan = s.plan().clone();
    plan.filter.filters = filters.to_vec();
    measure::check_saved_selection(&plan, &s.selection, [(a, &base), (b, &cur)])?;
    let picked_target = |t: &TargetRecord| {
        let name = t
            .target
            .rsplit_once('/')
            .map_or(t.target.as_str(), |(_, n)| n);
        s.selection.names(name)
    };
    let picked = |t: &TargetRecord, id: &str| {
        picked_target(t) && plan.filter.verdict(id, false) == Selected::Run
    };
    let held = |side: &Baseline, label: &str, id: &str| {
        (side.run.targets.iter()).any(|t| t.target == label && t.held_ids().any(|h| h == id))
    };
    // `b`'s benchmarks, then those only `a` holds: how many each alone holds.
    let mut only = [0, 0];
    for (side, other, is_a) in [(&cur, &base, false), (&base, &cur, true)] {
        for t in &side.run.targets {
            for id in t.held_ids().filter(|id| picked(t, id)) {
                let in_other = held(other, &t.target, id);
                if is_a && in_other {
                    continue;
                }
                only[usize::from(is_a)] += usize::from(!in_other);
                outln!("{}: {}", t.target, nbench::__private::format::one_line(id));
            }
        }
    }
    if !s.output.quiet() && only != [0, 0] {
        let [new, gone] = only;
        let said = format!("{gone} only in `{a}` (gone), {new} only in `{b}` (new)");
        errln!("{}", console::style(said).dim());
    }
    // A target that could not list when its side was saved, as `--list`
    // says it of a build.
    let mut failed = Vec::new();
    for (name, side) in [(a, &base), (b, &cur)] {
        let targets = side.run.targets.iter().filter(|t| picked_target(t));
        for (t, f) in targets.flat_map(|t| t.failures.iter().map(move |f| (t, f))) {
            let what = match f.id.as_str() {
                "" => String::new(),
                id => format!(" › {}", nbench::__private::format::one_line(id)),
            };
            let line = format!("bench target {}{what} in `{name}`: {}", t.target, f.reason);
            // Said once where both sides are one baseline.
            if !failed.contains(&line) {
                failed.push(line);
            }
        }
    }
    for line in &failed {
        errln!("{}: {line}", console::style("failed").red().bold());
    }
    Ok(match failed.is_empty() {
        true => crate::error::exit::SUCCESS,
        false => crate::error::exit::BENCH_FAILED,
    })
}

/// Compares baseline `b` (the "current" side) with baseline `a`: the run
/// record, with its comparison.
fn measure(s: &Settings, a: &str, b: &str, filters: &[String]) -> Result<RunRecord> {
    let started = Instant::now();
    let store = Store::new(&s.target_dir());
    let baselines = store.baselines();
    let (base, cur) = (baselines.get_to_compare(a)?, baselines.get_to_compare(b)?);
    let mut plan = s.plan().clone();
    plan.filter.filters = filters.to_vec();
    measure::check_saved_selection(&plan, &s.selection, [(a, &base), (b, &cur)])?;
    for side in [&base, &cur] {
        let labels: Vec<String> = side.run.targets.iter().map(|t| t.target.clone()).collect();
        crate::pipeline::revision::untracked_beside(s, side, &labels);
    }
    let threshold = s.compare.noise_threshold;
    let context = Context::gather(
        s.meta.workspace_root.as_std_path(),
        &cur.run.context.profile,
        settings_record(&plan),
        &s.output.context,
    )
    // The current side's code is the baseline's, not the working tree's.
    .code_of(&cur.run.context);
    affinity::pin_driver();
    let mut progress = Progress::new(s.output.chatty()).every_line(s.output.verbose());
    let (records, comparison) = measure::compare_saved(
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
        (Some(comparison), s.plan().partition),
    );
    Ok(record)
}
