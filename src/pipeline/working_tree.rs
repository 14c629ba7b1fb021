//! A working tree whose suite cannot run as it stands: no bench target it
//! selects uses nbench, and some use criterion (or another library a
//! revision's build swaps). Such a working tree is built as a revision is:
//! as a commit of its own ([`crate::build::snapshot`]), checked out in a
//! worktree with nbench's front end in the library's place. `--compare-rev`
//! compares it with the revision; a plain run, `--save-baseline` and
//! `--compare NAME` run its executables ([`built`]). The user's files are
//! never edited.
//!
//! Each state of the working tree is a commit, and its baseline is built
//! once. Only the last one made is kept: a run that makes another deletes
//! the one before, so editing and running again does not pile up a
//! baseline for every edit.

use super::note;
use super::targets::discover_quietly;
use crate::build::snapshot::{Snapshot, snapshot};
use crate::build::worktree::{git, remove_kept, short};
use crate::config::Settings;
use crate::discover::Discovery;
use crate::error::{Error, Result};
use crate::model::target::Built;
use crate::store::Store;
use crate::store::baselines::Baseline;
use std::path::Path;

/// The bench targets these settings select in the working tree, and the
/// working tree as a commit where its suite cannot run as it stands and
/// it is in a git repository; else nothing (the run goes on as usual, and
/// says what it finds). `--compare-rev` compares it with its revision;
/// other runs run its build ([`built`]).
pub fn as_revision(s: &Settings) -> Result<(Discovery, Option<Snapshot>)> {
    let found = discover_quietly(s)?;
    let tree = snapshot_of(s, &found)?;
    Ok((found, tree))
}

/// The working tree as a commit, where none of the bench targets `found`
/// runs as it stands and some use a library a revision's build swaps.
fn snapshot_of(s: &Settings, found: &Discovery) -> Result<Option<Snapshot>> {
    let c = &s.compare;
    // Refused by the run, which says why.
    if c.rev.is_some() && (c.baseline.is_some() || c.save_baseline.is_some()) {
        return Ok(None);
    }
    let mut libraries: Vec<&str> = found.skipped.iter().filter_map(|k| k.library).collect();
    libraries.sort_unstable();
    libraries.dedup();
    if !found.targets.is_empty() || libraries.is_empty() {
        return Ok(None);
    }
    // Outside a repository the run says so, as it does for any revision.
    let Ok(top) = git(&found.workspace_root, &["rev-parse", "--show-toplevel"]) else {
        return Ok(None);
    };
    // A project its repository ignores is none of its commits.
    let root = found.workspace_root.to_string_lossy();
    if git(Path::new(&top), &["check-ignore", "--quiet", root.as_ref()]).is_ok() {
        return Ok(None);
    }
    // What would stop the run stops it before the note says what it would
    // build.
    super::targets::check_counting(s)?;
    if let Some(rev) = c.rev.as_deref() {
        crate::build::revision::check(rev, &found.workspace_root)?;
    }
    let store = Store::new(&found.target_dir);
    if let Some(name) = c.baseline.as_deref() {
        store.baselines().must_exist(name)?;
    }
    std::fs::create_dir_all(store.root())
        .map_err(|e| Error::io("could not create", store.root(), e))?;
    // One a process: two runs at once each write their own.
    let index = (store.root()).join(format!("working-tree.{}.index", std::process::id()));
    let tree = snapshot(Path::new(&top), &found.target_dir, &index)?;
    if !s.output.quiet() {
        let which = match tree.made {
            true => format!(
                "commit {} made from it (what `git add --all` would stage)",
                short(&tree.commit)
            ),
            false => format!(
                "`HEAD` ({}), as nothing in it has changed",
                short(&tree.commit)
            ),
        };
        let libraries = libraries.join(" and ");
        let how = match c.rev {
            Some(_) => "it is compared as a revision",
            None => "it is run as a revision",
        };
        note(&format!(
            "the working tree's bench targets use {libraries}: {how}, {which}, built in a \
             worktree with nbench's front end in {libraries}'s place (your files, index and \
             branch are not touched)"
        ));
    }
    Ok(Some(tree))
}

/// Keeps baseline `name` of the working tree `tree` as the one working
/// tree baseline kept, deleting the one kept before (unless another run is
/// using it). A tree that is `HEAD`'s own is a revision like any other,
/// and its baseline is left to `cargo nbench baseline`.
pub fn keep_only(store: &Store, name: &str, tree: &Snapshot) {
    if !tree.made {
        return;
    }
    let file = store.root().join("working-tree");
    let before = std::fs::read_to_string(&file).unwrap_or_default();
    let before = before.trim();
    if !before.is_empty() && before != name {
        let baselines = store.baselines();
        if let Ok(lock) = baselines.lock(before)
            && baselines.delete(before, &lock).is_ok()
        {
            remove_kept(&store.root().join("worktrees"), before);
        }
    }
    let _ = std::fs::write(&file, name);
}

/// The bench targets of the working tree `tree`, for a run that measures
/// it alone or with a saved baseline: its baseline's executables (built
/// now where they are not saved yet), each run from its checkout; and that
/// baseline, whose context says how they were built.
pub fn built(s: &Settings, tree: &Snapshot, store: &Store) -> Result<(Baseline, Vec<Built>)> {
    let root = s.meta.workspace_root.as_std_path();
    // In the layouts a comparison takes, whatever this command is: a plain
    // run and `--save-baseline` or `--compare NAME` of one tree then share
    // one build (one layout's flags differ, and would build it again).
    let mut kept = s.clone();
    kept.build.layouts = s.build.kept_layouts;
    let name = super::revision::baseline_of_working_tree(&kept, tree, store, root)?;
    keep_only(store, &name, tree);
    let baselines = store.baselines();
    let saved = baselines.get_to_compare(&name)?;
    let mut targets = Vec::new();
    for t in (saved.run.targets.iter()).filter(|t| s.selection.picks(&t.target)) {
        let exes = baselines
            .executables_for(&saved, &t.target, false)
            .map_err(|why| Error::Revision {
                message: format!("bench target {} of the working tree: {why}", t.target),
                hint: format!("`cargo nbench baseline delete {name}` builds it again"),
            })?;
        targets.push(super::measure::saved_target(
            &s.meta,
            (&saved, &t.target),
            exes,
        ));
    }
    Ok((saved, targets))
}
