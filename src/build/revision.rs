//! What is known of a git revision before it is built: its commit, where
//! the manifest sits in it, the name its baseline is saved under, and
//! whether a baseline saved for it was built as it would be built now.

use super::BuildOptions;
use super::worktree::{git, short};
use crate::discover::{Manifest, Selection};
use crate::error::{Error, Result};
use crate::model::context::{BuildRecord, Context};
use crate::model::outcome::NOT_CONNECTED;
use crate::model::record::FailureRecord;
use crate::model::stable_hash::fnv1a;
use crate::store::baselines::Baseline;
use std::path::{Path, PathBuf};

/// The repository's top directory and the commit `rev` names.
pub fn commit_of(root: &Path, rev: &str) -> Result<(String, String)> {
    let top = git(root, &["rev-parse", "--show-toplevel"]).map_err(|_| Error::Revision {
        message: format!(
            "`{}` is not in a git repository, so there is no revision `{}` to check out",
            root.display(),
            rev.escape_debug()
        ),
        hint: "save a baseline with --save-baseline NAME and compare with --compare NAME".into(),
    })?;
    let not_found = || Error::Revision {
        message: format!("git revision `{}` not found", rev.escape_debug()),
        hint: fetch_hint(root, rev),
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

/// What to do about revision `rev`, which the repository at `root` does
/// not hold: deepen a shallow clone (CI's usual checkout), fetch a
/// remote's branch, or check the name. `git fetch origin HEAD~1` and
/// `git fetch origin origin/main`, which it said before, fetch nothing.
fn fetch_hint(root: &Path, rev: &str) -> String {
    let shallow = git(root, &["rev-parse", "--is-shallow-repository"]);
    if shallow.is_ok_and(|s| s == "true") {
        return "this clone is shallow, its history cut short: `git fetch --unshallow` \
                (in GitHub Actions, check out with `fetch-depth: 0`; in GitLab, \
                `GIT_DEPTH: 0`)"
            .into();
    }
    let remotes = git(root, &["remote"]).unwrap_or_default();
    let remotes: Vec<&str> = remotes.lines().collect();
    let check = "check the name (`git branch -a`, `git tag`, `git log --oneline`)";
    if let Some((remote, branch)) = rev.split_once('/')
        && remotes.contains(&remote)
    {
        return format!("fetch it first (`git fetch {remote} {branch}`), or {check}");
    }
    let remote = remotes.iter().find(|r| **r == "origin").or(remotes.first());
    match remote {
        Some(remote) if !rev.contains(['~', '^', '@', ':']) => {
            format!("fetch it first (`git fetch {remote} {rev}`), or {check}")
        }
        _ => check.to_owned(),
    }
}

/// The manifest the user's command names, relative to the repository's top.
pub fn relative_manifest(manifest: &Manifest, root: &Path, top: &Path) -> PathBuf {
    let manifest = manifest
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
pub fn baseline_name(
    (sel, b): (&Selection, &BuildOptions),
    commit: &str,
    manifest: &Path,
) -> String {
    let short = short(commit);
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

/// Whether a saved revision baseline was built as `build` builds it now
/// (compiler, rustflags, target, features, enough link layouts) and holds
/// the bench targets named now (`benches`, empty for all); else what differs.
pub fn built_as_now(
    build: &BuildOptions,
    benches: &[String],
    saved: &Baseline,
) -> std::result::Result<(), String> {
    // A revision with no bench target has none to keep.
    if saved.executables.is_empty() && !saved.run.targets.is_empty() {
        return Err("its baseline has no executables".to_owned());
    }
    // Listed again where it did not connect in time: a longer --timeout
    // may list it now, and filters are checked against the list. (Other
    // failures stand: a suite that reads an untracked file as it lists
    // has it copied beside it only when it is compared.)
    let failed = (saved.run.targets.iter()).find_map(|t| {
        let timed_out = |f: &&FailureRecord| f.id.is_empty() && f.reason.starts_with(NOT_CONNECTED);
        Some((t, t.failures.iter().find(timed_out)?))
    });
    if let Some((t, f)) = failed {
        return Err(format!(
            "bench target {} did not connect in time to be listed when it was built ({})",
            t.target, f.reason
        ));
    }
    let context = &saved.run.context;
    let Some(then) = &context.build else {
        return Err("its baseline does not record how it was built".to_owned());
    };
    let held = &then.benches;
    if !held.is_empty() && (benches.is_empty() || benches.iter().any(|b| !held.contains(b))) {
        let names: Vec<String> = held.iter().map(|b| format!("`{b}`")).collect();
        return Err(format!("it holds bench target {} only", names.join(", ")));
    }
    if !then.bins_kept {
        return Err(
            "it was saved before baselines kept the package binaries a benchmark \
                    runs"
                .to_owned(),
        );
    }
    let rustc = Context::rustc();
    if context.rustc != rustc {
        return Err(format!(
            "it was built by {} (now {})",
            context.rustc.as_deref().unwrap_or("another rustc"),
            rustc.as_deref().unwrap_or("unknown")
        ));
    }
    stands_in(
        then,
        &build.record(&std::env::current_dir().unwrap_or_default()),
    )
}

/// Whether executables built as `then` stand in for a build made as `now`:
/// as many link layouts or more, ordered the same way, with the same flags
/// and target ([`BuildRecord::differences`]); else what differs.
fn stands_in(then: &BuildRecord, now: &BuildRecord) -> std::result::Result<(), String> {
    if then.layouts < now.layouts {
        return Err(format!(
            "it has {} link layouts, {} are asked for",
            then.layouts, now.layouts
        ));
    }
    if then.shuffle != now.shuffle && now.layouts > 1 {
        return Err("its link layouts were ordered another way".to_owned());
    }
    let differ = then.differences(now);
    match differ.is_empty() {
        true => Ok(()),
        false => Err(format!("it was built with {}", differ.join(", "))),
    }
}

/// What can be told of revision `rev` before anything is built: that it
/// names a commit. (One that lacks the manifest this command reads, from
/// before its package was added, is a baseline holding nothing.)
pub fn check(rev: &str, root: &Path) -> Result<()> {
    commit_of(root, rev).map(|_| ())
}

/// The revision lacks `what` (a manifest, a package, a bench target).
pub fn missing_at(what: &str, rev: &str, short: &str) -> Error {
    let who = super::snapshot::named(rev, short);
    Error::Revision {
        message: format!("{what} does not exist at {who}"),
        hint: "the revision predates it: compare with a later revision, or save a baseline \
               with --save-baseline and compare with --compare"
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::worktree::made::{repository, run};
    use super::*;

    /// The hint for `rev` in a repository of two commits, its full clone
    /// and its shallow clone, each with the first as its `origin`.
    #[test]
    fn a_build_with_fewer_layouts_or_other_flags_does_not_stand_in() {
        let then = BuildRecord {
            layouts: 2,
            shuffle: "SEED".into(),
            ..BuildRecord::default()
        };
        assert_eq!(stands_in(&then, &then), Ok(()));
        let one = BuildRecord {
            layouts: 1,
            shuffle: String::new(),
            ..then.clone()
        };
        assert_eq!(stands_in(&then, &one), Ok(()), "fewer layouts are held");
        let three = BuildRecord {
            layouts: 3,
            ..then.clone()
        };
        let said = stands_in(&then, &three).unwrap_err();
        assert_eq!(said, "it has 2 link layouts, 3 are asked for");
        let other = BuildRecord {
            shuffle: "OTHER".into(),
            ..then.clone()
        };
        let said = stands_in(&then, &other).unwrap_err();
        assert_eq!(said, "its link layouts were ordered another way");
        let flags = BuildRecord {
            rustflags: vec!["-Coverflow-checks=on".into()],
            ..then.clone()
        };
        let said = stands_in(&then, &flags).unwrap_err();
        assert_eq!(
            said,
            "it was built with rustflags none (now `-Coverflow-checks=on`)"
        );
    }

    #[test]
    fn a_missing_revision_is_told_how_to_fetch_it_where_it_is_missing() {
        let (top, repo) = repository("revision", "n.txt", &["1", "2"]);
        let url = format!("file://{}", repo.display());
        run(&top, &["clone", "--quiet", &url, "full"]);
        run(&top, &["clone", "--quiet", "--depth", "1", &url, "shallow"]);
        let hint = |dir: &str, rev: &str| match commit_of(&top.join(dir), rev) {
            Err(Error::Revision { hint, .. }) => hint,
            other => panic!("{dir} {rev}: {other:?}"),
        };
        let shallow = hint("shallow", "HEAD~1");
        let branch = hint("full", "origin/no-such");
        let name = hint("full", "no-such");
        let relative = hint("full", "HEAD~5");
        let local = hint("repo", "no-such");
        let _ = std::fs::remove_dir_all(&top);
        assert!(shallow.contains("`git fetch --unshallow`"), "{shallow}");
        assert!(branch.contains("`git fetch origin no-such`"), "{branch}");
        assert!(name.contains("`git fetch origin no-such`"), "{name}");
        assert!(!relative.contains("fetch"), "{relative}");
        assert!(local.starts_with("check the name"), "{local}");
    }
}
