//! `--compare-rev REV` from a working tree whose suite cannot run as it
//! stands: no bench target it selects uses nbench, and some use criterion
//! (or another library a revision's build swaps). Such a working tree is
//! compared as a revision is built: as a commit of its own
//! ([`crate::build::snapshot`]), checked out in a worktree with nbench's
//! front end in the library's place. The user's files are never edited.
//!
//! Each state of the working tree is a commit, and its baseline is built
//! once. Only the last one made is kept: a comparison that makes another
//! deletes the one before, so editing and comparing again does not pile
//! up a baseline for every edit.

use super::note;
use super::targets::discover_quietly;
use crate::build::snapshot::{Snapshot, snapshot};
use crate::build::worktree::{git, remove_kept, short};
use crate::config::Settings;
use crate::error::{Error, Result};
use crate::store::Store;
use std::path::Path;

/// The working tree as a commit to compare with `--compare-rev`'s revision,
/// where these settings compare with one and the working tree's suite
/// cannot run as it stands; else nothing (the run goes on as usual, and
/// says what it finds).
pub fn as_revision(s: &Settings) -> Result<Option<Snapshot>> {
    let c = &s.compare;
    if c.rev.is_none() || c.baseline.is_some() || c.save_baseline.is_some() {
        return Ok(None);
    }
    let found = discover_quietly(s)?;
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
    // What would stop the comparison stops it before the note says what it
    // would compare.
    super::targets::check_counting(s)?;
    let rev = c.rev.as_deref().unwrap_or("HEAD");
    crate::build::revision::check(rev, &found.workspace_root)?;
    let store = Store::new(&found.target_dir);
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
            false => format!("`HEAD` ({}), which it is", short(&tree.commit)),
        };
        let libraries = libraries.join(" and ");
        note(&format!(
            "the working tree's bench targets use {libraries}: it is compared as a revision, \
             {which}, built in a worktree with nbench's front end in {libraries}'s place (your \
             files, index and branch are not touched)"
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
