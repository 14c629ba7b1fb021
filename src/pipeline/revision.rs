//! `--compare-rev REV`: the baseline for a git revision, made once and reused.
//!
//! The revision is checked out in a git worktree under `target/nbench/`
//! (the user's working tree, index and branch are never touched), built
//! there with a target directory that every revision shares (dependencies
//! compile once) and saved, by the same functions that save any baseline,
//! as baseline `rev-HASH`.
//! A second comparison with the same commit finds the baseline and builds
//! nothing for it. The revision is checked out before the working tree is
//! built ([`prepare`]) and built after it ([`Pending::finish`]), so what
//! can go wrong with the checkout is said at once.

use super::build_failed::build_failed;
use super::measure;
use super::note;
use super::rev_baseline::{Saved, save_baseline, save_empty};
use super::revision_said::{all_left_out, not_a_member, nothing_there, reused, swap_note};
use crate::build::lockfile::{Carried, to_carry};
use crate::build::revision::{
    baseline_name, built_as_now, commit_of, missing_at, relative_manifest,
};
use crate::build::snapshot::{self, Snapshot};
use crate::build::standalone::make_own_workspace;
use crate::build::submodules;
use crate::build::swap::swap_in;
use crate::build::swapped::swapped_as_now;
use crate::build::untracked::{copied_as_now, copy_beside, copy_in, unreadable};
use crate::build::worktree::{Worktree, kept, remove_abandoned, short};
use crate::config::Settings;
use crate::discover;
use crate::error::{Error, Result};
use crate::model::context::{CopiedFile, SwapRecord};
use crate::store::Store;
use crate::store::baselines::{Baseline, Baselines, Lock};
use console::style;
use std::path::{Path, PathBuf};

/// The name of the baseline holding revision `rev`, made now if it is not
/// saved with its executables yet.
pub fn baseline_for(s: &Settings, rev: &str, store: &Store, root: &Path) -> Result<String> {
    prepare(s, rev, store, root)?.finish(s, store)
}

/// A revision's baseline on its way: saved already, or checked out (and
/// its front end swapped in) with its build still to come.
pub struct Pending {
    name: String,
    checkout: Option<Checkout>,
}

/// A revision checked out in a worktree, held until it is built and saved.
struct Checkout {
    rev: String,
    commit: String,
    manifest: PathBuf,
    /// The manifest's path in the repository, where the checkout lacks it.
    absent: Option<PathBuf>,
    swap: Option<SwapRecord>,
    /// Whether its package, in no workspace of its checkout, was given an
    /// empty `[workspace]` of its own in the worktree ([`make_own_workspace`]).
    alone: bool,
    /// The working tree's workspace folder and the repository's top: where
    /// a lock file for a commit that keeps none is taken from, once the
    /// working tree is built (its build may write it).
    lock_from: (PathBuf, PathBuf),
    /// Removed when dropped, unless kept with the baseline built from it.
    worktree: Worktree,
    lock: Lock,
}

/// Everything about revision `rev` that can fail before it is built: it
/// is found, its baseline reused where it was built as now, or else
/// checked out (a missing object, a manifest it lacks, a front end that
/// cannot be swapped in are said now, not after the working tree's build).
pub fn prepare(s: &Settings, rev: &str, store: &Store, root: &Path) -> Result<Pending> {
    let (top, commit) = commit_of(root, rev)?;
    prepare_commit(s, (rev, top, commit), store, root)
}

/// The name of the baseline holding the working tree as the commit `tree`
/// ([`crate::build::snapshot`]), made now if it is not saved yet; its
/// notes and build output call it `working tree`.
pub fn baseline_of_working_tree(
    s: &Settings,
    tree: &Snapshot,
    store: &Store,
    root: &Path,
) -> Result<String> {
    let (top, commit) = commit_of(root, &tree.commit)?;
    prepare_commit(s, (snapshot::CALLED, top, commit), store, root)?.finish(s, store)
}

/// [`prepare`] for `commit` of the repository whose top is `top`, which
/// its notes call `rev`.
fn prepare_commit(
    s: &Settings,
    (rev, top, commit): (&str, String, String),
    store: &Store,
    root: &Path,
) -> Result<Pending> {
    let worktrees = store.root().join("worktrees");
    remove_abandoned(Path::new(&top), &worktrees, &store.root().join("baselines"));
    let short = short(&commit);
    let relative = relative_manifest(&s.manifest, root, Path::new(&top));
    let name = baseline_name((&s.selection, &s.build), &commit, &relative);
    let baselines = store.baselines();
    let lock = held(s, &baselines, &name, (rev, short))?;
    let saved = baselines.load(&name)?;
    let as_now = |b: &crate::store::baselines::Baseline| {
        built_as_now(&s.build, &s.selection.benches, b)?;
        if !kept(&worktrees, &name) {
            return Err("its checkout, which its executables may read files from, is gone".into());
        }
        let record = b.run.context.build.as_ref();
        let carried = to_carry(root, Path::new(&top), &commit);
        locked_as_now(record.map(|r| r.lock.as_str()), carried.as_ref())?;
        copied_as_now(Path::new(&top), record.map_or(&[], |r| r.copied.as_slice()))?;
        swapped_as_now(
            record.and_then(|r| r.swap.as_ref()),
            Path::new(&top),
            &commit,
        )
    };
    match saved.as_ref().map(as_now) {
        Some(Ok(())) => {
            if !s.output.quiet() {
                let one = s.build.layouts > 1 && saved.as_ref().is_some_and(|b| b.in_one_layout());
                note(&reused(rev, short, &name, one));
                if saved.as_ref().is_some_and(|b| b.run.targets.is_empty()) {
                    note(&nothing_there(rev, short));
                }
            }
            return Ok(Pending {
                name,
                checkout: None,
            });
        }
        Some(Err(why)) if !s.output.quiet() => {
            note(&format!(
                "{} is built again: {why}",
                snapshot::named(rev, short)
            ));
        }
        _ => {}
    }
    let top = PathBuf::from(top);
    let worktree = Worktree::add(&top, &worktrees, &name, &commit)?;
    submodules::fill(&top, &worktree.path)?;
    let manifest = worktree.path.join(&relative);
    // Not there: the commit before its package was added (a pull request
    // that adds a bench package), whose baseline holds nothing.
    let absent = (!manifest.is_file()).then(|| relative.clone());
    let swap = swap_in(&top, &worktree.path)?;
    let alone = absent.is_none() && make_own_workspace(&worktree.path, &manifest)?;
    let checkout = Checkout {
        rev: rev.to_owned(),
        commit,
        manifest,
        absent,
        swap,
        alone,
        lock_from: (root.to_path_buf(), top),
        worktree,
        lock,
    };
    Ok(Pending {
        name,
        checkout: Some(checkout),
    })
}

/// Baseline `name`'s lock, held until revision `rev` is made: a second
/// run for the same commit waits, saying so, then finds it made.
fn held(
    s: &Settings,
    baselines: &Baselines,
    name: &str,
    (rev, short): (&str, &str),
) -> Result<Lock> {
    let who = snapshot::named(rev, short);
    match baselines.lock(name) {
        Err(Error::InUse { .. }) => {
            if !s.output.quiet() {
                note(&format!(
                    "waiting for another cargo nbench that is building {who}"
                ));
            }
            baselines.lock_waiting(name)
        }
        other => other,
    }
}

impl Pending {
    /// The baseline's name, built and saved first where it is not yet.
    pub fn finish(self, s: &Settings, store: &Store) -> Result<String> {
        let Some(checkout) = self.checkout else {
            return Ok(self.name);
        };
        let made = checkout.make(s, &self.name, store)?;
        store.baselines().adopt(&made, &self.name, &checkout.lock)?;
        checkout.worktree.keep();
        Ok(self.name)
    }
}

impl Checkout {
    /// A package `-p` names whose manifest the checkout holds where the
    /// working tree's workspace holds it: its name and that manifest,
    /// relative to the workspace's root.
    fn outside_its_workspace(&self, s: &Settings) -> Option<(String, PathBuf)> {
        (s.selection.packages.iter()).find_map(|spec| {
            let name = discover::spec_name(spec);
            Some((name.to_owned(), self.holds_manifest_of(s, name)?))
        })
    }

    /// The manifest of the working tree's member `name`, relative to the
    /// workspace's root, where the checkout holds it at the same path.
    fn holds_manifest_of(&self, s: &Settings, name: &str) -> Option<PathBuf> {
        let (root, there) = (s.meta.workspace_root.as_std_path(), self.manifest.parent()?);
        let members = s.meta.workspace_packages();
        let p = members.iter().find(|p| p.name.as_str() == name)?;
        let at = p.manifest_path.as_std_path().strip_prefix(root).ok()?;
        there.join(at).is_file().then(|| at.to_owned())
    }

    /// Builds and saves the checkout as baseline `name` (in the target
    /// directory every revision shares); returns where the baseline was made.
    fn make(&self, s: &Settings, name: &str, store: &Store) -> Result<PathBuf> {
        let (rev, short) = (self.rev.as_str(), short(&self.commit));
        let who = snapshot::named(rev, short);
        if !s.output.quiet() {
            self.say_building(name);
        }
        let (root, top) = &self.lock_from;
        let carried = to_carry(root, top, &self.commit);
        if let Some(lock) = &carried {
            lock.put_in(&self.worktree.path)?;
        }
        if carried.is_some() && !s.output.quiet() {
            note(&format!(
                "{who} keeps no Cargo.lock: building it with the working tree's, \
                 so that both sides take the same versions of their dependencies"
            ));
        }
        let shared = store.root().join("rev-target");
        let made = shared.join("nbench/baselines").join(name);
        // Left by a run that was killed: start clean.
        let _ = std::fs::remove_dir_all(&made);
        let swap = self.swap.as_ref();
        let lock = carried.as_ref().map(|c| c.hash.clone());
        let record = (swap.cloned(), lock.unwrap_or_default());
        if self.absent.is_some() {
            self.save_nothing(s, name, &shared, record)?;
            return Ok(made);
        }
        let mut revision = s.for_revision(&self.manifest, &shared, rev)?;
        without_absent_features(s, &mut revision, (rev, short));
        if self.without_absent_packages(s, &mut revision) {
            self.save_nothing(s, name, &shared, record)?;
            return Ok(made);
        }
        match self.save_copying(s, &revision, name, record) {
            Ok(saved) => {
                if saved == Saved::Empty && !s.output.quiet() {
                    note(&nothing_there(rev, short));
                }
                Ok(made)
            }
            Err(Error::Build(why)) => {
                let at = (self.worktree.path.as_path(), carried.as_ref());
                Err(build_failed(rev, short, &why, swap, at))
            }
            // The suite is a package the command did not name: said as it
            // would be in the working tree.
            Err(e @ Error::BenchesOutside { .. }) => Err(e),
            // Bench targets there, each left out with a note saying why.
            Err(Error::NoTargets { skipped: 1.. }) => Err(all_left_out(rev, short)),
            // The selected packages or bench targets are not there, or a
            // selected package is, and its workspace there does not take it.
            Err(e @ (Error::Usage(_) | Error::NotMember { .. } | Error::NoTargets { .. })) => {
                let usage = !matches!(e, Error::NoTargets { .. });
                Err(
                    match usage.then(|| self.outside_its_workspace(s)).flatten() {
                        Some((package, at)) => not_a_member(&package, &at, (rev, short)),
                        None => missing_at(&format!("what this command selects ({e})"), rev, short),
                    },
                )
            }
            Err(e) => Err(Error::Revision {
                message: format!(
                    "{} could not be measured and saved: {e}",
                    snapshot::named_revision(rev, short)
                ),
                hint: e
                    .hint()
                    .unwrap_or_else(|| "run again with -v to see more".to_owned()),
            }),
        }
    }

    /// Leaves out of `revision`'s selection the packages `-p` names that
    /// the checkout does not hold at all, neither as a member of its
    /// workspace nor as a manifest where the working tree has one (a pull
    /// request adds them): their benchmarks are new against it, and a note
    /// says so. Whether none is left.
    fn without_absent_packages(&self, s: &Settings, revision: &mut Settings) -> bool {
        let there = revision.meta.workspace_packages();
        let held = |spec: &String| {
            let name = discover::spec_name(spec);
            there.iter().any(|p| p.name.as_str() == name)
                || self.holds_manifest_of(s, name).is_some()
        };
        let absent: Vec<String> = (s.selection.packages.iter())
            .filter(|spec| !held(spec))
            .cloned()
            .collect();
        if absent.is_empty() {
            return false;
        }
        revision.selection.packages.retain(|p| !absent.contains(p));
        let none = revision.selection.packages.is_empty();
        if !s.output.quiet() {
            let (rev, short) = (self.rev.as_str(), short(&self.commit));
            let who = snapshot::named(rev, short);
            let plural = if absent.len() == 1 { "" } else { "s" };
            let new = if none {
                "every benchmark is"
            } else {
                "their benchmarks are"
            };
            note(&format!(
                "{who} has no package{plural} `{}`: {new} new against it",
                absent.join("`, `")
            ));
        }
        none
    }

    /// What is said as the checkout is built as baseline `name`: that it
    /// is, with the swap it takes and whether it is a workspace of its own.
    fn say_building(&self, name: &str) {
        let (rev, short) = (self.rev.as_str(), short(&self.commit));
        let who = snapshot::named(rev, short);
        let what = format!("building {who} in a worktree, saved as baseline `{name}`");
        errln!("{}", style(what).dim());
        if let Some(swap) = self.swap.as_ref() {
            note(&swap_note(rev, short, swap));
        }
        if self.alone {
            let at = self.manifest.strip_prefix(&self.worktree.path);
            note(&format!(
                "{who}: `{}` is in no workspace of its checkout: building it as a \
                 workspace of its own, as cargo does there",
                at.unwrap_or(&self.manifest).display()
            ));
        }
    }
}

/// Leaves out of `revision`'s build the features `-F` names that none of
/// its packages has, which cargo would refuse (a commit from before they
/// were added), with a note saying so.
fn without_absent_features(s: &Settings, revision: &mut Settings, (rev, short): (&str, &str)) {
    let members = revision.meta.workspace_packages();
    let (present, absent) = discover::present_and_absent(&s.build.features, &members);
    if absent.is_empty() {
        return;
    }
    revision.build.features = present;
    if !s.output.quiet() {
        let plural = if absent.len() == 1 { "" } else { "s" };
        note(&format!(
            "{} has no feature{plural} `{}`: building it without (its bench \
             targets that require {} are not there to compare)",
            snapshot::named(rev, short),
            absent.join("`, `"),
            if absent.len() == 1 { "it" } else { "them" }
        ));
    }
}

/// Gives the benchmarks of `baseline`'s targets `labels` that run in a
/// revision's kept checkout the files git does not track in their
/// package's folder in the working tree, where it has that package
/// ([`copy_beside`]): an input read as it runs (`read_to_string("input")`)
/// that `.gitignore` keeps out. Says what it copied.
pub fn untracked_beside(s: &Settings, baseline: &Baseline, labels: &[String]) {
    for label in labels {
        let dirs = Baselines::dir_for(baseline, label).zip(measure::working_dir(&s.meta, label));
        let Some((to, from)) = dirs else {
            continue;
        };
        let wrote = copy_beside(&from, &to);
        if wrote.is_empty() || s.output.quiet() {
            continue;
        }
        let more = match wrote.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        note(&format!(
            "`{label}` of baseline `{}` runs in its revision's checkout, which lacks `{}`{more}: \
             git does not track it; copied the working tree's",
            baseline.name, wrote[0]
        ));
    }
}

/// Files git does not track copied into one revision's checkout, at most:
/// each build says only the first it could not read.
const MOST_COPIED: usize = 16;

impl Checkout {
    /// Saves baseline `name` holding nothing, in the store of the target
    /// directory `shared`: the checkout lacks the manifest (said here) or
    /// every package `-p` names.
    fn save_nothing(
        &self,
        s: &Settings,
        name: &str,
        shared: &Path,
        (swap, lock): (Option<SwapRecord>, String),
    ) -> Result<()> {
        let found = discover::Discovery {
            targets: Vec::new(),
            packages: Vec::new(),
            skipped: Vec::new(),
            target_dir: shared.to_path_buf(),
            workspace_root: self.worktree.path.clone(),
            front_ends: Vec::new(),
        };
        save_empty(s, name, &found, (swap, lock, Vec::new()))?;
        if let Some(absent) = self.absent.as_ref().filter(|_| !s.output.quiet()) {
            let (rev, short) = (self.rev.as_str(), short(&self.commit));
            let who = snapshot::named(rev, short);
            note(&format!(
                "{who} has no `{}`: every benchmark is new against it",
                absent.display()
            ));
        }
        Ok(())
    }

    /// [`save_baseline`] with `revision`'s settings; where the build could
    /// not read a file that the working tree has and git does not track,
    /// that file is copied into the checkout ([`copy_in`]), said in a note,
    /// and the revision built again.
    fn save_copying(
        &self,
        s: &Settings,
        revision: &Settings,
        name: &str,
        (swap, lock): (Option<SwapRecord>, String),
    ) -> Result<Saved> {
        let (rev, short) = (self.rev.as_str(), short(&self.commit));
        let who = snapshot::named(rev, short);
        let top = &self.lock_from.1;
        let mut copied: Vec<CopiedFile> = Vec::new();
        loop {
            let record = (swap.clone(), lock.clone(), copied.clone());
            let why = match save_baseline(revision, name, record, &s.selection.benches) {
                Err(Error::Build(why)) if copied.len() < MOST_COPIED => why,
                other => return other,
            };
            let file = unreadable(&why)
                .and_then(|said| copy_in(top, &self.worktree.path, &self.manifest, said))
                .filter(|f| copied.iter().all(|c| c.path != f.path));
            let Some(file) = file else {
                return Err(Error::Build(why));
            };
            if !s.output.quiet() {
                note(&format!(
                    "{who} reads `{}`, which git does not track: copied the \
                     working tree's into its checkout, building it again",
                    file.path
                ));
            }
            copied.push(file);
        }
    }
}

/// Whether a revision's baseline, built with the lock file whose hash is
/// `then` (empty: its own), was built with the one it would take now;
/// `Err` says how it differs.
fn locked_as_now(then: Option<&str>, now: Option<&Carried>) -> std::result::Result<(), String> {
    match (then.unwrap_or_default(), now.map(|c| c.hash.as_str())) {
        ("", None) => Ok(()),
        (then, Some(now)) if then == now => Ok(()),
        ("", Some(_)) => Err("the working tree's Cargo.lock is to hold its dependencies".into()),
        (_, None) => Err("it was built with a Cargo.lock the working tree no longer has".into()),
        _ => Err("the working tree's Cargo.lock, which it was built with, changed".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revision_is_built_again_when_the_lock_file_it_takes_is_another() {
        let root = std::env::temp_dir().join(format!("nbench-locked-{}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        // Two lock files the working tree had, as a revision would carry them.
        let carried = |text: &str| {
            std::fs::write(root.join("Cargo.lock"), text).unwrap();
            to_carry(&root, &root, "HEAD").expect("no repository here: no lock kept")
        };
        let (one, two) = (carried("version = 4\n"), carried("version = 3\n"));
        assert_eq!(locked_as_now(None, None), Ok(()));
        assert_eq!(locked_as_now(Some(""), None), Ok(()));
        assert_eq!(locked_as_now(Some(&one.hash), Some(&one)), Ok(()));
        for (then, now) in [
            (Some(one.hash.as_str()), Some(&two)),
            (Some(""), Some(&one)),
            (None, Some(&one)),
            (Some(one.hash.as_str()), None),
        ] {
            assert!(locked_as_now(then, now).is_err(), "{then:?} {now:?}");
        }
        let _ = std::fs::remove_dir_all(&root);
    }
}
