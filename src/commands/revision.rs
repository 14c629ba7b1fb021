//! `--compare-rev REV`: the baseline for a git revision, made once and reused.
//!
//! The revision is checked out in a git worktree under `target/nbench/`
//! (the user's working tree, index and branch are never touched), built
//! there with a target directory that every revision shares (dependencies
//! compile once) and saved, by the same functions that save any baseline,
//! as baseline `rev-HASH`.
//! A second comparison with the same commit finds the baseline and builds
//! nothing for it.

use super::note;
use crate::build::worktree::{Worktree, git, remove_abandoned, short};
use crate::config::Settings;
use crate::error::{Error, Result};
use crate::model::context::Context;
use crate::model::stable_hash::fnv1a;
use crate::store::Store;
use crate::store::baselines::Baseline;
use console::style;
use std::path::{Path, PathBuf};

/// The name of the baseline holding revision `rev`, made now if it is not
/// saved with its executables yet.
pub fn baseline_for(s: &Settings, rev: &str, store: &Store, root: &Path) -> Result<String> {
    let (top, commit) = commit_of(root, rev)?;
    remove_abandoned(Path::new(&top), &store.root().join("worktrees"));
    let short = short(&commit);
    let relative = relative_manifest(s, root, Path::new(&top));
    let name = baseline_name(s, &commit, &relative);
    let baselines = store.baselines();
    // Held while the revision is made: a second run for the same commit
    // waits, then finds it made.
    let _lock = match baselines.lock(&name) {
        Err(Error::InUse { .. }) => {
            if !s.output.quiet() {
                note(&format!(
                    "waiting for another cargo nbench that is building `{rev}` ({short})"
                ));
            }
            baselines.lock_waiting(&name)?
        }
        other => other?,
    };
    let saved = baselines.load(&name)?;
    match saved.as_ref().map(|b| built_as_now(s, b)) {
        Some(Ok(())) => {
            if !s.output.quiet() {
                note(&format!(
                    "comparing with `{rev}` ({short}): baseline `{name}`, already built"
                ));
            }
            return Ok(name);
        }
        Some(Err(why)) if !s.output.quiet() => {
            note(&format!("`{rev}` ({short}) is built again: {why}"));
        }
        _ => {}
    }
    if !s.output.quiet() {
        let what = format!("building `{rev}` ({short}) in a worktree, saved as baseline `{name}`");
        eprintln!("{}", style(what).dim());
    }
    let made = make(s, rev, &commit, &name, store, (Path::new(&top), &relative))?;
    let dest = baselines.dir().join(&name);
    let _ = std::fs::remove_dir_all(&dest);
    std::fs::rename(&made, &dest)
        .map_err(|e| Error::io("could not move the baseline into", &dest, e))?;
    Ok(name)
}

/// Whether a saved revision baseline was built as this command would build
/// it now (compiler, rustflags, target, features, enough link layouts);
/// else what differs.
fn built_as_now(s: &Settings, saved: &Baseline) -> std::result::Result<(), String> {
    if saved.executables.is_empty() {
        return Err("its baseline has no executables".to_owned());
    }
    let context = &saved.run.context;
    let Some(build) = &context.build else {
        return Err("its baseline does not record how it was built".to_owned());
    };
    let now = s.build.record(&std::env::current_dir().unwrap_or_default());
    if build.layouts < now.layouts {
        return Err(format!(
            "it has {} link layouts, {} are asked for",
            build.layouts, now.layouts
        ));
    }
    let rustc = Context::rustc();
    if context.rustc != rustc {
        return Err(format!(
            "it was built by {} (now {})",
            context.rustc.as_deref().unwrap_or("another rustc"),
            rustc.as_deref().unwrap_or("unknown")
        ));
    }
    let differ = build.differences(&now);
    match differ.is_empty() {
        true => Ok(()),
        false => Err(format!("it was built with {}", differ.join(", "))),
    }
}

/// The repository's top directory and the commit `rev` names.
fn commit_of(root: &Path, rev: &str) -> Result<(String, String)> {
    let top = git(root, &["rev-parse", "--show-toplevel"]).map_err(|_| Error::Revision {
        message: format!(
            "`{}` is not in a git repository, so --compare-rev has no revision to check out",
            root.display()
        ),
        hint: "save a baseline with --save-baseline NAME and compare with --compare NAME".into(),
    })?;
    let not_found = || Error::Revision {
        message: format!("git revision `{}` not found", rev.escape_debug()),
        hint: format!(
            "fetch it first (`git fetch origin {rev}`); a shallow CI clone needs the history \
                 (actions/checkout with `fetch-depth: 0`)"
        ),
    };
    // Never an option to git.
    if rev.starts_with('-') {
        return Err(not_found());
    }
    let spec = format!("{rev}^{{commit}}");
    let commit =
        git(root, &["rev-parse", "--verify", "--quiet", &spec]).map_err(|_| not_found())?;
    Ok((top, commit))
}

/// Checks `commit` out in a worktree, builds and saves it there as baseline
/// `name` (in the target directory every revision shares); returns where
/// the baseline was made. The last argument: the repository's top and the manifest's
/// path below it.
fn make(
    s: &Settings,
    rev: &str,
    commit: &str,
    name: &str,
    store: &Store,
    (top, relative): (&Path, &Path),
) -> Result<PathBuf> {
    let short = short(commit);
    let worktree = Worktree::add(top, &store.root().join("worktrees"), commit)?;
    let manifest = worktree.path.join(relative);
    let at = |what: String| missing_at(&what, rev, short);
    if !manifest.is_file() {
        return Err(at(format!("`{}`", relative.display())));
    }
    let shared = store.root().join("rev-target");
    let made = shared.join("nbench/baselines").join(name);
    // Left by a run that was killed: start clean.
    let _ = std::fs::remove_dir_all(&made);
    let revision = s.for_revision(&manifest, &shared, rev)?;
    match super::run::save_baseline(&revision, name) {
        Ok(()) => Ok(made),
        Err(Error::Build(why)) => Err(Error::Revision {
            message: format!("revision `{rev}` ({short}) failed to build{why}"),
            hint: format!("its build output is above, each line marked [{rev}]"),
        }),
        // The selected packages or bench targets are not there.
        Err(e @ (Error::Usage(_) | Error::NoTargets)) => {
            Err(at(format!("what this command selects ({e})")))
        }
        Err(e) => Err(Error::Revision {
            message: format!("revision `{rev}` ({short}) could not be measured and saved: {e}"),
            hint: e
                .hint()
                .unwrap_or_else(|| "run again with -v to see more".to_owned()),
        }),
    }
}

fn missing_at(what: &str, rev: &str, short: &str) -> Error {
    Error::Revision {
        message: format!("{what} does not exist at `{rev}` ({short})"),
        hint: "the revision predates it: compare with a later revision, or save a baseline \
               with --save-baseline and compare with --compare"
            .into(),
    }
}

/// What can be told of revision `rev` before anything is built: that it
/// names a commit, and that the manifest this command reads exists there.
pub fn check(s: &Settings, rev: &str, root: &Path) -> Result<()> {
    let (top, commit) = commit_of(root, rev)?;
    let relative = relative_manifest(s, root, Path::new(&top));
    let path = relative.to_string_lossy().replace('\\', "/");
    match git(
        Path::new(&top),
        &["cat-file", "-e", &format!("{commit}:{path}")],
    ) {
        Ok(_) => Ok(()),
        Err(_) => Err(missing_at(&format!("`{path}`"), rev, short(&commit))),
    }
}

/// The manifest the user's command names, relative to the repository's top.
fn relative_manifest(s: &Settings, root: &Path, top: &Path) -> PathBuf {
    let manifest = s
        .manifest
        .manifest_path
        .clone()
        .unwrap_or_else(|| root.join("Cargo.toml"));
    let manifest = std::fs::canonicalize(&manifest).unwrap_or(manifest);
    let top = std::fs::canonicalize(top).unwrap_or_else(|_| top.to_path_buf());
    manifest
        .strip_prefix(&top)
        .map_or_else(|_| PathBuf::from("Cargo.toml"), Path::to_path_buf)
}

/// The baseline name for `commit` built as this command builds: `rev-HASH`,
/// with a suffix when the manifest, packages, features or profile are not
/// the defaults, so that a revision built one way is never reused for another.
fn baseline_name(s: &Settings, commit: &str, manifest: &Path) -> String {
    let short = short(commit);
    let (sel, b) = (&s.selection, &s.build);
    let mut packages = sel.packages.clone();
    packages.sort();
    let mut exclude = sel.exclude.clone();
    exclude.sort();
    let mut features = b.features.clone();
    features.sort();
    let how = format!(
        "{}|{packages:?}|{}|{exclude:?}|{features:?}|{}|{}|{}",
        manifest.display(),
        sel.workspace,
        b.all_features,
        b.no_default_features,
        b.profile
    );
    let plain = "Cargo.toml|[]|false|[]|[]|false|false|bench";
    if how == plain {
        return format!("rev-{short}");
    }
    // The same name from every build of cargo nbench.
    let hash = fnv1a(how.bytes());
    format!("rev-{short}-{:08x}", hash >> 32)
}
