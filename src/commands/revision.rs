//! `--compare-rev REV`: the baseline for a git revision, made once and reused.
//!
//! The revision is checked out in a git worktree under `target/nbench/`
//! (the user's working tree, index and branch are never touched), built
//! there with a target directory that every revision shares (dependencies
//! compile once) and saved, by this same program, as baseline `rev-HASH`.
//! A second comparison with the same commit finds the baseline and builds
//! nothing for it.

use super::note;
use crate::config::Settings;
use crate::error::{Error, Result};
use crate::store::Store;
use console::style;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The name of the baseline holding revision `rev`, made now if it is not
/// saved with its executables yet.
pub fn baseline_for(s: &Settings, rev: &str, store: &Store, root: &Path) -> Result<String> {
    let top = git(root, &["rev-parse", "--show-toplevel"]).map_err(|_| Error::Revision {
        message: format!(
            "`{}` is not in a git repository, so --compare-rev has no revision to check out",
            root.display()
        ),
        hint: "save a baseline with --save-baseline NAME and compare with --compare NAME".into(),
    })?;
    let commit = git(
        root,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|_| Error::Revision {
        message: format!("git revision `{rev}` not found"),
        hint: format!(
            "fetch it first (`git fetch origin {rev}`); a shallow CI clone needs the history \
                 (actions/checkout with `fetch-depth: 0`)"
        ),
    })?;
    let short = &commit[..commit.len().min(12)];
    let name = format!("rev-{short}");
    let saved = store.baselines().load(&name)?;
    if saved.is_some_and(|b| !b.executables.is_empty()) {
        if !s.output.quiet() {
            note(&format!(
                "comparing with `{rev}` ({short}): baseline `{name}`, already built"
            ));
        }
        return Ok(name);
    }
    if !s.output.quiet() {
        let what = format!("building `{rev}` ({short}) in a worktree, saved as baseline `{name}`");
        eprintln!("{}", style(what).dim());
    }
    let worktree = Worktree::add(Path::new(&top), &store.root().join("worktrees"), &commit)?;
    let manifest = worktree_manifest(s, root, Path::new(&top), &worktree.path);
    let shared = store.root().join("rev-target");
    save_in_worktree(s, rev, short, &name, &manifest, &shared)?;
    let made = shared.join("nbench/baselines").join(&name);
    let dest = store.root().join("baselines").join(&name);
    std::fs::create_dir_all(store.root().join("baselines"))
        .map_err(|e| Error::io("could not create", &dest, e))?;
    let _ = std::fs::remove_dir_all(&dest);
    // Another run may have finished the same revision first: theirs is as good.
    if std::fs::rename(&made, &dest).is_err() && !dest.is_dir() {
        return Err(Error::io(
            "could not move the baseline into",
            &dest,
            std::io::Error::other("rename failed"),
        ));
    }
    let _ = std::fs::remove_dir_all(&made);
    Ok(name)
}

/// `git ARGS` in `dir`: its trimmed output, or its error output.
fn git(dir: &Path, args: &[&str]) -> std::result::Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
    }
}

/// A detached checkout of one commit, removed again when dropped (after a
/// failure too).
struct Worktree {
    repo: PathBuf,
    path: PathBuf,
}

impl Worktree {
    fn add(repo: &Path, under: &Path, commit: &str) -> Result<Worktree> {
        // One per process: two runs at once never share a checkout.
        let path = under.join(format!("{}-{}", &commit[..12], std::process::id()));
        std::fs::create_dir_all(under).map_err(|e| Error::io("could not create", under, e))?;
        let target = path.to_string_lossy().into_owned();
        git(
            repo,
            &["worktree", "add", "--detach", "--quiet", &target, commit],
        )
        .map_err(|e| Error::Revision {
            message: format!("could not check out {commit} in a worktree: {e}"),
            hint: "`git worktree prune` clears worktrees left by a crash".into(),
        })?;
        Ok(Worktree {
            repo: repo.to_path_buf(),
            path,
        })
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let path = self.path.to_string_lossy().into_owned();
        let _ = git(&self.repo, &["worktree", "remove", "--force", &path]);
        let _ = std::fs::remove_dir_all(&self.path);
        let _ = git(&self.repo, &["worktree", "prune"]);
    }
}

/// The manifest the user's command names, at the same place in the worktree.
fn worktree_manifest(s: &Settings, root: &Path, top: &Path, worktree: &Path) -> PathBuf {
    let manifest = s
        .manifest
        .manifest_path
        .clone()
        .unwrap_or_else(|| root.join("Cargo.toml"));
    let manifest = std::fs::canonicalize(&manifest).unwrap_or(manifest);
    let top = std::fs::canonicalize(top).unwrap_or_else(|_| top.to_path_buf());
    worktree.join(
        manifest
            .strip_prefix(&top)
            .unwrap_or(Path::new("Cargo.toml")),
    )
}

/// Runs this program in the worktree to build the revision and save it as
/// baseline `name` in the shared target directory's store. Its messages are
/// shown marked with the revision.
fn save_in_worktree(
    s: &Settings,
    rev: &str,
    short: &str,
    name: &str,
    manifest: &Path,
    shared: &Path,
) -> Result<()> {
    let exe = std::env::current_exe()
        .map_err(|e| Error::io("could not find", Path::new("cargo-nbench"), e))?;
    let mut cmd = Command::new(&exe);
    cmd.arg("nbench")
        .arg("--manifest-path")
        .arg(manifest)
        .arg("--target-dir")
        .arg(shared)
        .args(["--save-baseline", name, "--epochs", "1", "--color", "never"])
        .args(child_args(s))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // Settings come from here: the revision's run must not read this run's
    // variables (--compare-rev, --out and --summary among them).
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("NBENCH_") {
            cmd.env_remove(key);
        }
    }
    let mut child = cmd.spawn().map_err(|source| Error::Spawn {
        program: exe.display().to_string(),
        source,
    })?;
    let mut last = String::new();
    if let Some(err) = child.stderr.take() {
        for line in BufReader::new(err).lines().map_while(|l| l.ok()) {
            eprintln!("{} {line}", style(format!("[{rev}]")).dim());
            if !line.trim().is_empty() {
                last = line;
            }
        }
    }
    let status = child.wait().map_err(|source| Error::Spawn {
        program: exe.display().to_string(),
        source,
    })?;
    if status.success() {
        return Ok(());
    }
    Err(Error::Revision {
        message: format!(
            "revision `{rev}` ({short}) could not be built and saved: {}",
            last.trim()
        ),
        hint: format!("its output is above, each line marked [{rev}]"),
    })
}

/// What the revision's run takes from this one: selection, features,
/// profile, layouts and the measurement limits.
fn child_args(s: &Settings) -> Vec<String> {
    let mut a: Vec<String> = Vec::new();
    let sel = &s.selection;
    for p in &sel.packages {
        a.extend(["-p".into(), p.clone()]);
    }
    if sel.workspace {
        a.push("--workspace".into());
    }
    for x in &sel.exclude {
        a.extend(["--exclude".into(), x.clone()]);
    }
    for b in &sel.benches {
        a.extend(["--bench".into(), b.clone()]);
    }
    let b = &s.build;
    if !b.features.is_empty() {
        a.extend(["--features".into(), b.features.join(",")]);
    }
    for (on, flag) in [
        (b.all_features, "--all-features"),
        (b.no_default_features, "--no-default-features"),
        (b.quiet, "--quiet"),
    ] {
        if on {
            a.push(flag.into());
        }
    }
    a.extend(["--profile".into(), b.profile.clone()]);
    a.extend(["--layouts".into(), b.layouts.to_string()]);
    let m = &s.plan.settings;
    let secs = |d: std::time::Duration| d.as_secs_f64().to_string();
    a.extend(["--warm-up".into(), secs(m.warm_up)]);
    a.extend(["--min-time".into(), secs(m.min_time)]);
    a.extend(["--max-time".into(), secs(m.max_time)]);
    a.extend(["--timeout".into(), secs(s.plan.timeout)]);
    // No filters: the baseline holds every benchmark, so that a later
    // comparison with other filters reuses it whole.
    a
}
