//! A revision's baseline saved: its bench targets built in the checkout
//! and listed (a comparison runs their executables), or, where it has
//! none, nothing, against which every benchmark is new.

use super::measure;
use super::targets::{build, discover_quietly, gather_context, plans, selected};
use crate::config::Settings;
use crate::discover;
use crate::error::Result;
use crate::model::context::{Context, CopiedFile, SwapRecord};
use crate::model::record::RunRecord;
use crate::store::Store;
use std::time::Instant;

/// Builds and lists what `s` selects and saves it as baseline `name`,
/// reporting nothing: a revision's side of a comparison (see
/// [`Settings::for_revision`]), recording its `swap` and the hash of the
/// working tree's lock file it was built with (`lock`, empty for none). Of
/// its bench targets, those named in `benches` are built, where it has any
/// of them; else all. The baseline goes to the store of the target
/// directory `s` builds in.
pub(super) fn save_baseline(
    s: &Settings,
    name: &str,
    record: (Option<SwapRecord>, String, Vec<CopiedFile>),
    benches: &[String],
) -> Result<Saved> {
    let found = discover_quietly(s)?;
    // No bench target there at all (none left out either): the commit
    // before a suite's first benchmarks. Saved with nothing in it, every
    // benchmark of the working tree is new against it.
    if found.targets.is_empty() && found.skipped.is_empty() {
        save_empty(s, name, &found, record)?;
        return Ok(Saved::Empty);
    }
    let (mut found, mut skipped) = selected(found)?;
    let named = |t: &crate::model::target::BenchTarget| benches.contains(&t.name);
    let narrowed = found.targets.iter().any(named);
    if narrowed {
        found.targets.retain(named);
        skipped.retain(|k| benches.iter().any(|b| k.target.ends_with(&format!("/{b}"))));
    }
    let store = Store::new(&found.target_dir);
    let lock = store.baselines().lock(name)?;
    let targets = build(s, &found, &mut skipped)?;
    let plans = plans(s, &targets);
    let narrowed = narrowed.then_some(benches);
    let context = revision_context(s, &found, record, narrowed);
    let started = Instant::now();
    let records = measure::list_each(&targets, &plans);
    let duration_s = started.elapsed().as_secs_f64();
    let record = RunRecord::new(context, duration_s, records, skipped, (None, None));
    let uncopied = store.baselines().save(name, &record, &targets, &lock)?;
    super::warn_uncopied(name, &uncopied);
    Ok(Saved::Targets)
}

/// Saves baseline `name` holding no bench target, in the store of the
/// target directory `found` names: a revision that has none, or lacks the
/// manifest or every package the command names. Every benchmark of the
/// other side is new against it.
pub(super) fn save_empty(
    s: &Settings,
    name: &str,
    found: &discover::Discovery,
    record: (Option<SwapRecord>, String, Vec<CopiedFile>),
) -> Result<()> {
    let context = revision_context(s, found, record, None);
    let record = RunRecord::new(context, 0.0, Vec::new(), Vec::new(), (None, None));
    let baselines = Store::new(&found.target_dir).baselines();
    baselines.save(name, &record, &[], &baselines.lock(name)?)?;
    Ok(())
}

/// The context of a revision's baseline, built as `s` and `found` say:
/// its `swap`, the lock file it took and the files copied in, and the
/// bench targets it was `narrowed` to, if it was.
fn revision_context(
    s: &Settings,
    found: &discover::Discovery,
    (swap, lock_file, copied): (Option<SwapRecord>, String, Vec<CopiedFile>),
    narrowed: Option<&[String]>,
) -> Context {
    let mut context = gather_context(s, found);
    // The worktree holds the commit; what else it holds is cargo nbench's
    // (the swap, recorded below) or cargo's (a lock file it wrote).
    context.git_dirty = context.git_commit.as_ref().map(|_| false);
    if let Some(build) = context.build.as_mut() {
        build.swap = swap;
        build.lock = lock_file;
        build.copied = copied;
        if let Some(benches) = narrowed {
            build.benches = benches.to_vec();
            build.benches.sort();
            build.benches.dedup();
        }
    }
    context
}

/// What a revision's baseline holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Saved {
    /// Its bench targets, listed.
    Targets,
    /// Nothing: the revision has no bench target.
    Empty,
}
