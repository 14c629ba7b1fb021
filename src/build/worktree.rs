//! Git worktrees of a revision, checked out beside the user's checkout under
//! `target/nbench/worktrees/` (the user's working tree, index and branch are
//! never touched). A revision's checkout stays, out of git's list, as long
//! as the baseline built from it: its executables may read files by the
//! path they were built at (`env!("CARGO_MANIFEST_DIR")`). A checkout whose
//! build failed is removed at once, one left by a killed run or by a deleted
//! baseline by the next run.

use crate::discover::manifests;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A commit's hash as it is shown and named: its first 12 digits.
pub fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

/// `git ARGS` in `dir`: its trimmed output, or its error output.
pub fn git(dir: &Path, args: &[&str]) -> std::result::Result<String, String> {
    run_git(Command::new("git").args(args).current_dir(dir))
}

/// `cmd`, a git command made ready: its trimmed output, or its error output.
pub fn run_git(cmd: &mut Command) -> std::result::Result<String, String> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
    }
}

/// A detached checkout of one commit, removed again when dropped unless
/// [`Worktree::keep`] kept it.
///
/// Each lives in a folder of its own named after the baseline it is built
/// for, beside a lock file `NAME.lock` that its run holds: the operating
/// system lets go of the lock when the run ends, killed or not, so the next
/// run removes the folders of runs that are gone and never a live run's.
/// The checkout sits as deep in that folder as the repository's
/// dependencies by relative path reach above it (`path = "../other/crate"`),
/// and each such place outside the checkout is a link to the real one, so
/// those paths resolve as they do in the user's checkout.
pub struct Worktree {
    repo: PathBuf,
    /// The folder that holds the checkout and the links.
    folder: PathBuf,
    /// The checkout.
    pub path: PathBuf,
    lock: PathBuf,
    _held: std::fs::File,
    kept: bool,
}

impl Worktree {
    /// Checks `commit` of the repository at `repo` out in folder `stem`
    /// under `under`, in place of any checkout there. The caller holds the
    /// lock of baseline `stem`, so no other run builds in that folder.
    pub fn add(repo: &Path, under: &Path, stem: &str, commit: &str) -> Result<Worktree> {
        // Worktrees of runs that are gone were removed by `revision::prepare` already.
        std::fs::create_dir_all(under).map_err(|e| Error::io("could not create", under, e))?;
        let folder = under.join(stem);
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
        remove_folder(repo, &folder);
        let target = path.to_string_lossy().into_owned();
        let worktree = Worktree {
            repo: repo.to_path_buf(),
            folder,
            path: path.clone(),
            lock,
            _held: held,
            kept: false,
        };
        git(
            repo,
            &["worktree", "add", "--detach", "--quiet", &target, commit],
        )
        .map_err(|said| checkout_failed(commit, &said))?;
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

    /// Keeps the checkout, with the baseline built from it, as a folder git
    /// no longer lists (its `.git` file removed, git's record pruned).
    pub fn keep(mut self) {
        let _ = std::fs::remove_file(self.path.join(".git"));
        let _ = git(&self.repo, &["worktree", "prune"]);
        self.kept = true;
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        if !self.kept {
            remove_folder(&self.repo, &self.folder);
            let _ = std::fs::remove_file(&self.lock);
        }
    }
}

/// Removes a worktree folder: its checkout from git's list (twice forced: a
/// run killed while git was adding it leaves it locked) and its files.
fn remove_folder(repo: &Path, folder: &Path) {
    if let Some(checkout) = checkout_in(folder) {
        let checkout = checkout.to_string_lossy().into_owned();
        let _ = git(
            repo,
            &["worktree", "remove", "--force", "--force", &checkout],
        );
    }
    if folder.exists() {
        let _ = std::fs::remove_dir_all(folder);
        let _ = git(repo, &["worktree", "prune"]);
    }
}

/// Removes the worktree folders under `under` whose run is gone (their lock
/// file is not held, or, left by an older cargo nbench, there is none),
/// except a kept checkout whose baseline is still saved in `baselines`.
pub fn remove_abandoned(repo: &Path, under: &Path, baselines: &Path) {
    let Ok(entries) = std::fs::read_dir(under) else {
        return;
    };
    for folder in entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
        let name = folder.file_name().unwrap_or_default().to_string_lossy();
        let lock = under.join(format!("{name}.lock"));
        let abandoned = match std::fs::OpenOptions::new().write(true).open(&lock) {
            Ok(f) => f.try_lock().is_ok(),
            Err(e) => e.kind() == std::io::ErrorKind::NotFound && !pid_alive(&folder),
        };
        let kept =
            checkout_in(&folder).is_none() && baselines.join(&*name).join("results.json").is_file();
        if abandoned && !kept {
            remove_folder(repo, &folder);
            let _ = std::fs::remove_file(&lock);
        }
    }
}

/// Removes the checkout kept under `under` for baseline `name`, if any
/// (git lists it no more: its files are all there is).
pub fn remove_kept(under: &Path, name: &str) {
    if kept(under, name) {
        let _ = std::fs::remove_dir_all(under.join(name));
        let _ = std::fs::remove_file(under.join(format!("{name}.lock")));
    }
}

/// Why git could not check `commit` out, from what it `said`: its first
/// line, and what to do about that cause. A clone that lacks the
/// revision's files (partial, or damaged) was told to prune worktrees.
fn checkout_failed(commit: &str, said: &str) -> Error {
    let first = (said.lines().map(str::trim))
        .find(|l| !l.is_empty())
        .unwrap_or("git said nothing");
    let first = ["error: ", "fatal: "]
        .iter()
        .fold(first, |l, p| l.strip_prefix(p).unwrap_or(l));
    let lacking = [
        "unable to read sha1 file",
        "invalid object",
        "missing blob",
        "promisor",
    ];
    let hint = if lacking.iter().any(|l| said.contains(l)) {
        "this clone lacks files of the revision (a partial clone away from its remote, or \
         a damaged one): `git fetch` them, or save a baseline from a full checkout of it \
         with --save-baseline NAME and compare with --compare NAME"
    } else if said.contains("git-lfs") {
        "the revision keeps files in Git LFS: install git-lfs and run `git lfs install`"
    } else {
        "`git worktree prune` clears worktrees left by a crash"
    };
    Error::Revision {
        message: format!("could not check out {commit} in a worktree: {first}"),
        hint: hint.into(),
    }
}

/// Whether the checkout built for baseline `name` is kept under `under`.
pub fn kept(under: &Path, name: &str) -> bool {
    let folder = under.join(name);
    folder.is_dir() && checkout_in(&folder).is_none()
}

/// The checkout git lists inside a worktree folder: the folder holding a
/// `.git` file, found down the `upN` folders it sits in (never inside a
/// kept checkout's own files).
fn checkout_in(folder: &Path) -> Option<PathBuf> {
    let mut dir = folder.to_path_buf();
    loop {
        let children: Vec<PathBuf> = (std::fs::read_dir(&dir).ok()?.flatten())
            .map(|e| e.path())
            .filter(|p| p.is_dir() && !p.is_symlink())
            .collect();
        if let Some(checkout) = children.iter().find(|c| c.join(".git").is_file()) {
            return Some(checkout.clone());
        }
        let up = |c: &PathBuf| {
            c.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("up"))
        };
        dir = children.into_iter().find(up)?;
    }
}

/// Whether the run named in a folder `HASH-PID` (an older cargo nbench's)
/// may still be running: on Linux, whether that process exists; elsewhere,
/// assumed so.
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
    for manifest in manifests(top, usize::MAX) {
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

/// Repositories for tests, made with git itself.
#[cfg(test)]
pub(super) mod made {
    use super::git;
    use std::path::{Path, PathBuf};

    /// Runs git in `dir`; it must succeed.
    pub fn run(dir: &Path, args: &[&str]) -> String {
        git(dir, args).unwrap_or_else(|e| panic!("git {args:?}: {e}"))
    }

    /// A fresh folder `nbench-NAME-PID` under the temporary one, holding a
    /// repository `repo` with one commit for each of `texts`, each writing
    /// it to `file`: (the folder, the repository).
    pub fn repository(name: &str, file: &str, texts: &[&str]) -> (PathBuf, PathBuf) {
        let top = std::env::temp_dir().join(format!("nbench-{name}-{}", std::process::id()));
        let repo = top.join("repo");
        let _ = std::fs::remove_dir_all(&top);
        std::fs::create_dir_all(&repo).unwrap();
        run(&repo, &["init", "--quiet"]);
        let who = ["-c", "user.name=n", "-c", "user.email=n@n"];
        for text in texts {
            std::fs::write(repo.join(file), text).unwrap();
            run(&repo, &["add", file]);
            run(
                &repo,
                &[&who[..], &["commit", "--quiet", "-m", text]].concat(),
            );
        }
        (top, repo)
    }
}

#[cfg(test)]
mod tests {
    use super::made::{repository, run};
    use super::*;

    /// A repository whose one commit's file has lost its object, as a
    /// partial clone away from its remote has.
    #[test]
    fn a_clone_lacking_the_revisions_files_is_told_so_in_one_line() {
        let (top, repo) = repository("worktree", "data.txt", &["kept"]);
        let blob = run(&repo, &["rev-parse", "HEAD:data.txt"]);
        let commit = run(&repo, &["rev-parse", "HEAD"]);
        let object = repo.join(".git/objects").join(&blob[..2]).join(&blob[2..]);
        std::fs::remove_file(object).unwrap();
        let failed = Worktree::add(&repo, &top.join("trees"), "rev", &commit);
        let _ = std::fs::remove_dir_all(&top);
        let Err(Error::Revision { message, hint }) = failed else {
            panic!("checked out a commit whose file is gone");
        };
        assert!(!message.contains('\n'), "{message}");
        assert!(message.contains(&blob), "{message}");
        assert!(hint.contains("lacks files of the revision"), "{hint}");
    }
}
