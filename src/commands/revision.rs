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
use crate::config::Settings;
use crate::error::{Error, Result};
use crate::model::context::Context;
use crate::model::stable_hash::fnv1a;
use crate::store::Store;
use crate::store::baselines::Baseline;
use console::style;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

/// A commit's hash as it is shown and named: its first 12 digits.
fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
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
///
/// Each lives in a folder of its own, `HASH-PID/`, beside a lock file
/// `HASH-PID.lock` that its run holds: the operating system lets go of the
/// lock when the run ends, killed or not, so the next run removes the
/// folders of runs that are gone and never a live run's. The checkout sits
/// as deep in that folder as the repository's dependencies by relative path
/// reach above it (`path = "../other/crate"`), and each such place outside
/// the checkout is a link to the real one, so those paths resolve as they do
/// in the user's checkout.
struct Worktree {
    repo: PathBuf,
    /// The folder that holds the checkout and the links.
    folder: PathBuf,
    /// The checkout.
    path: PathBuf,
    lock: PathBuf,
    _held: std::fs::File,
}

impl Worktree {
    fn add(repo: &Path, under: &Path, commit: &str) -> Result<Worktree> {
        // Worktrees of runs that are gone were removed by `baseline_for` already.
        std::fs::create_dir_all(under).map_err(|e| Error::io("could not create", under, e))?;
        // One per process: two runs at once never share a checkout.
        let stem = format!("{}-{}", short(commit), std::process::id());
        let folder = under.join(&stem);
        let lock = under.join(format!("{stem}.lock"));
        let held = std::fs::File::create(&lock)
            .and_then(|f| f.try_lock().map_err(std::io::Error::from).map(|()| f))
            .map_err(|e| Error::io("could not lock", &lock, e))?;
        let outside = outside_paths(repo);
        let depth = outside.iter().map(|(up, _)| *up).max().unwrap_or(0);
        let name = repo
            .file_name()
            .map_or_else(|| "tree".into(), |n| n.to_owned());
        let mut path = folder.clone();
        for level in 0..depth {
            path.push(format!("up{}", depth - level));
        }
        path.push(name);
        let _ = std::fs::remove_dir_all(&folder);
        let target = path.to_string_lossy().into_owned();
        let worktree = Worktree {
            repo: repo.to_path_buf(),
            folder,
            path: path.clone(),
            lock,
            _held: held,
        };
        git(
            repo,
            &["worktree", "add", "--detach", "--quiet", &target, commit],
        )
        .map_err(|e| Error::Revision {
            message: format!("could not check out {commit} in a worktree: {e}"),
            hint: "`git worktree prune` clears worktrees left by a crash".into(),
        })?;
        for (up, first) in outside {
            let mut link = path.clone();
            let mut real = repo.to_path_buf();
            for _ in 0..up {
                link.pop();
                real.pop();
            }
            let (link, real) = (link.join(&first), real.join(&first));
            if !link.exists() {
                symlink_dir(&real, &link).map_err(|e| Error::Revision {
                    message: format!(
                        "could not link `{}` beside the worktree, where the revision's \
                         dependencies by relative path look for it: {e}",
                        real.display()
                    ),
                    hint: "save a baseline of the revision from its own checkout with \
                           --save-baseline NAME, then compare with --compare NAME"
                        .into(),
                })?;
            }
        }
        Ok(worktree)
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let path = self.path.to_string_lossy().into_owned();
        let _ = git(&self.repo, &["worktree", "remove", "--force", &path]);
        let _ = std::fs::remove_dir_all(&self.folder);
        let _ = git(&self.repo, &["worktree", "prune"]);
        let _ = std::fs::remove_file(&self.lock);
    }
}

/// Removes the worktree folders under `under` whose run is gone: their lock
/// file is not held (or, left by an older cargo nbench, there is none).
fn remove_abandoned(repo: &Path, under: &Path) {
    let Ok(entries) = std::fs::read_dir(under) else {
        return;
    };
    let mut removed = false;
    for folder in entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
        let name = folder.file_name().unwrap_or_default().to_string_lossy();
        let lock = under.join(format!("{name}.lock"));
        let abandoned = match std::fs::OpenOptions::new().write(true).open(&lock) {
            Ok(f) => f.try_lock().is_ok(),
            Err(e) => e.kind() == std::io::ErrorKind::NotFound && !pid_alive(&folder),
        };
        if abandoned {
            if let Some(checkout) = checkout_in(&folder) {
                // Twice forced: a run killed while git was adding it leaves it locked.
                let checkout = checkout.to_string_lossy().into_owned();
                let _ = git(
                    repo,
                    &["worktree", "remove", "--force", "--force", &checkout],
                );
            }
            let _ = std::fs::remove_dir_all(&folder);
            let _ = std::fs::remove_file(&lock);
            removed = true;
        }
    }
    if removed {
        let _ = git(repo, &["worktree", "prune"]);
    }
}

/// The checkout inside a worktree folder: the folder holding a `.git` file.
fn checkout_in(folder: &Path) -> Option<PathBuf> {
    if folder.join(".git").is_file() {
        return Some(folder.to_path_buf());
    }
    std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .find_map(|e| checkout_in(&e.path()))
}

/// Whether the run named in a folder `HASH-PID` may still be running: on
/// Linux, whether that process exists; elsewhere, assumed so.
fn pid_alive(folder: &Path) -> bool {
    let name = folder.file_name().unwrap_or_default().to_string_lossy();
    let Some(pid) = name.rsplit('-').next().and_then(|p| p.parse::<u32>().ok()) else {
        return true;
    };
    !cfg!(target_os = "linux") || Path::new(&format!("/proc/{pid}")).exists()
}

#[cfg(unix)]
fn symlink_dir(real: &Path, link: &Path) -> std::io::Result<()> {
    if let Some(parent) = link.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::os::unix::fs::symlink(real, link)
}

#[cfg(windows)]
fn symlink_dir(real: &Path, link: &Path) -> std::io::Result<()> {
    if let Some(parent) = link.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::os::windows::fs::symlink_dir(real, link)
}

/// The places above the repository's top that its manifests' dependencies
/// by relative path reach: how many levels up, and the first folder below
/// that level (`../other/crate` from the top: `(1, "other")`).
fn outside_paths(top: &Path) -> Vec<(usize, std::ffi::OsString)> {
    let mut found = Vec::new();
    for manifest in manifests(top) {
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let Ok(table) = toml::from_str::<toml::Table>(&text) else {
            continue;
        };
        let dir = manifest.parent().unwrap_or(top);
        let depth = dir.strip_prefix(top).map_or(0, |r| r.components().count());
        for path in dependency_paths(&toml::Value::Table(table), false) {
            let mut level = depth as isize;
            let mut first = None;
            for c in Path::new(&path).components() {
                match c {
                    std::path::Component::ParentDir => level -= 1,
                    std::path::Component::Normal(n) if level < 0 && first.is_none() => {
                        first = Some(n.to_owned());
                        break;
                    }
                    std::path::Component::Normal(_) => level += 1,
                    _ => {}
                }
            }
            if let Some(first) = first.filter(|_| level < 0) {
                let up = level.unsigned_abs();
                if !found.contains(&(up, first.clone())) {
                    found.push((up, first));
                }
            }
        }
    }
    found
}

/// The `path` values of dependency and patch entries anywhere in a manifest.
fn dependency_paths(value: &toml::Value, in_dependencies: bool) -> Vec<String> {
    let Some(table) = value.as_table() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if in_dependencies && let Some(p) = table.get("path").and_then(|p| p.as_str()) {
        out.push(p.to_owned());
    }
    for (key, v) in table {
        let deps = in_dependencies || key.ends_with("dependencies") || key == "patch";
        out.extend(dependency_paths(v, deps));
    }
    out
}

/// The `Cargo.toml` files of a checkout, outside target directories and hidden folders.
fn manifests(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name();
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            // Not hidden folders, nor target directories (cargo tags them).
            let hidden = name.to_string_lossy().starts_with('.');
            if name != "target" && !hidden && !path.join("CACHEDIR.TAG").exists() {
                out.extend(manifests(&path));
            }
        } else if name == "Cargo.toml" {
            out.push(path);
        }
    }
    out
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
