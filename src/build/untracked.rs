//! Files a revision reads that git does not track: an input that
//! `include_str!` takes and `.gitignore` keeps out (Advent of Code suites
//! keep their puzzle input so), or that its benchmarks read as they run
//! (`read_to_string("input")`, from the package's folder, where cargo runs
//! a bench). A checkout of the revision lacks them, so the working tree's
//! are copied into it, and both sides read the same bytes.

use super::worktree::git;
use crate::model::context::CopiedFile;
use crate::model::stable_hash::fnv1a;
use std::path::{Component, Path, PathBuf};

/// The file a compiler error says it could not read (rustc: "couldn't
/// read `day-05/src/./input.txt`: No such file or directory").
pub fn unreadable(why: &str) -> Option<&str> {
    const SAID: &str = "couldn't read `";
    let start = why.find(SAID)? + SAID.len();
    let len = why[start..].find('`')?;
    Some(&why[start..start + len])
}

/// Copies into `checkout`, a worktree of the repository whose top is
/// `top`, the file `said` that a build of the manifest `manifest` in it
/// could not read, where the working tree has that file and git does not
/// track it. `said` is as the compiler gave it: absolute, or relative to
/// the workspace folder cargo ran it in (the manifest's folder or one
/// above it). Returns what it copied; `None` where there is nothing to copy.
pub fn copy_in(top: &Path, checkout: &Path, manifest: &Path, said: &str) -> Option<CopiedFile> {
    let said = Path::new(said);
    let candidates: Vec<PathBuf> = match said.is_absolute() {
        true => vec![said.to_path_buf()],
        false => (manifest.ancestors().skip(1))
            .take_while(|d| d.starts_with(checkout))
            .map(|d| d.join(said))
            .collect(),
    };
    candidates.iter().find_map(|path| {
        let relative = tidy(path.strip_prefix(checkout).ok()?)?;
        let from = top.join(&relative);
        if !from.is_file() || tracked(top, &relative) {
            return None;
        }
        let bytes = std::fs::read(&from).ok()?;
        let to = checkout.join(&relative);
        std::fs::create_dir_all(to.parent()?).ok()?;
        std::fs::write(&to, &bytes).ok()?;
        Some(CopiedFile {
            path: relative.display().to_string(),
            hash: hash_bytes(&bytes),
        })
    })
}

/// Files git does not track copied beside a revision's benchmarks, at
/// most: an Advent of Code year's inputs and examples (25 days, a few
/// files a day) fit.
const MOST_BESIDE: usize = 256;
/// The largest such file copied.
const BESIDE_BYTES: u64 = 4 << 20;
/// The list, in a package folder of a revision's checkout, of the files
/// [`copy_beside`] keeps there: those it may copy again.
const BESIDE_LIST: &str = ".nbench-untracked";

/// Copies into `to`, a package's folder in a revision's checkout, the
/// files of `from`, the package's folder in the working tree, that git
/// does not track, of at most [`BESIDE_BYTES`], where `to` lacks them or
/// holds an older copy of this one's; a file of the revision's own is left
/// as it is. A folder git knows nothing of is copied where it holds inputs
/// ([`inputs_in`]). Returns the paths it wrote.
pub fn copy_beside(from: &Path, to: &Path) -> Vec<String> {
    let Ok(listed) = git(
        from,
        &[
            "ls-files",
            "-z",
            "--others",
            "--directory",
            "--no-empty-directory",
        ],
    ) else {
        return Vec::new();
    };
    let list = to.join(BESIDE_LIST);
    let before = std::fs::read_to_string(&list).unwrap_or_default();
    let ours = |name: &str| before.lines().any(|l| l == name);
    let (mut kept, mut wrote) = (Vec::new(), Vec::new());
    let names = (listed.split('\0'))
        .filter(|n| !n.is_empty() && *n != "Cargo.lock" && *n != BESIDE_LIST)
        .flat_map(|n| match n.strip_suffix('/') {
            Some(folder) => inputs_in(from, folder),
            None => vec![n.to_owned()],
        });
    for name in names.take(MOST_BESIDE) {
        let name = name.as_str();
        let (src, dst) = (from.join(name), to.join(name));
        let small = std::fs::metadata(&src).is_ok_and(|m| m.is_file() && m.len() <= BESIDE_BYTES);
        if !small || dst.exists() && !ours(name) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&src) else {
            continue;
        };
        kept.push(name.to_owned());
        if std::fs::read(&dst).is_ok_and(|b| b == bytes) {
            continue;
        }
        let written = dst
            .parent()
            .is_some_and(|p| std::fs::create_dir_all(p).is_ok())
            && std::fs::write(&dst, &bytes).is_ok();
        if written {
            wrote.push(name.to_owned());
        }
    }
    if !kept.is_empty() {
        let _ = std::fs::write(&list, kept.join("\n") + "\n");
    }
    wrote
}

/// The files of `folder` (relative to `from`, which git knows nothing of)
/// as paths relative to `from`, where it looks like a folder of inputs
/// (Advent of Code suites keep theirs in `inputs/`, gitignored): none where
/// it is hidden, a build's (`target/`, or any holding cargo's
/// `CACHEDIR.TAG`), a package or repository of its own, or holds more than
/// [`MOST_BESIDE`] files.
fn inputs_in(from: &Path, folder: &str) -> Vec<String> {
    let root = from.join(folder);
    let name = Path::new(folder).file_name().and_then(|n| n.to_str());
    let hidden = name.is_none_or(|n| n.starts_with('.') || n == "target");
    let own = ["CACHEDIR.TAG", "Cargo.toml", ".git"];
    if hidden || own.iter().any(|f| root.join(f).exists()) {
        return Vec::new();
    }
    let files: Vec<String> = walkdir::WalkDir::new(&root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .take(MOST_BESIDE + 1)
        .filter_map(|e| {
            let relative = e.path().strip_prefix(from).ok()?;
            Some(relative.to_str()?.to_owned())
        })
        .collect();
    match files.len() > MOST_BESIDE {
        true => Vec::new(),
        false => files,
    }
}

/// Whether each copied file is in the working tree as it was copied; `Err`
/// names the first that is not.
pub fn copied_as_now(top: &Path, copied: &[CopiedFile]) -> Result<(), String> {
    match copied
        .iter()
        .find(|c| hash_of(&top.join(&c.path)).as_ref() != Some(&c.hash))
    {
        Some(c) => Err(format!(
            "`{}` (which git does not track, copied from the working tree) has changed since",
            c.path
        )),
        None => Ok(()),
    }
}

/// The hash of what the file at `path` holds.
fn hash_of(path: &Path) -> Option<String> {
    Some(hash_bytes(&std::fs::read(path).ok()?))
}

/// The hash of `bytes`, as a copied file records it.
fn hash_bytes(bytes: &[u8]) -> String {
    format!("{:016x}", fnv1a(bytes.iter().copied()))
}

/// Whether git tracks the file at `relative` in the repository at `top`.
fn tracked(top: &Path, relative: &Path) -> bool {
    // Literally, not as a pattern (a name may hold `*` or `?`).
    let path = format!(":(literal){}", relative.display());
    git(top, &["ls-files", "--error-unmatch", "--", &path]).is_ok()
}

/// `relative` without `.` and with `..` taken back; `None` where it climbs
/// out of where it starts.
fn tidy(relative: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in relative.components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir if out.pop() => {}
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_a_compiler_could_not_read_is_named() {
        let why = "error: couldn't read `day-05/src/./input.txt`: No such file or directory \
                   (os error 2) (compiling `day-05` (lib))";
        assert_eq!(unreadable(why), Some("day-05/src/./input.txt"));
        assert_eq!(unreadable("error[E0432]: unresolved import `x`"), None);
    }

    #[test]
    fn files_git_does_not_track_are_copied_beside_never_over_the_revisions() {
        let root = std::env::temp_dir().join(format!("nbench-beside-{}", std::process::id()));
        let (from, to) = (root.join("tree"), root.join("checkout"));
        std::fs::create_dir_all(from.join("data")).unwrap();
        std::fs::create_dir_all(&to).unwrap();
        git(&from, &["init", "--quiet"]).unwrap();
        for (name, text) in [("input", "1"), ("own.txt", "mine"), ("data/big.txt", "x")] {
            std::fs::write(from.join(name), text).unwrap();
        }
        // The revision has a file of that name of its own.
        std::fs::write(to.join("own.txt"), "the revision's").unwrap();
        // A build's folder, and one of many files: not inputs.
        for (folder, files) in [("target", 1), ("debug", 1), ("many", MOST_BESIDE + 1)] {
            std::fs::create_dir_all(from.join(folder)).unwrap();
            for k in 0..files {
                std::fs::write(from.join(folder).join(k.to_string()), "x").unwrap();
            }
        }
        std::fs::write(from.join("debug/CACHEDIR.TAG"), "cargo").unwrap();
        let mut copied = copy_beside(&from, &to);
        copied.sort();
        assert_eq!(copied, ["data/big.txt", "input"]);
        assert!(!to.join("many").exists() && !to.join("target").exists());
        assert_eq!(
            std::fs::read_to_string(to.join("own.txt")).unwrap(),
            "the revision's"
        );
        // As it is now: nothing written; changed: written again.
        assert!(copy_beside(&from, &to).is_empty());
        std::fs::write(from.join("input"), "2").unwrap();
        assert_eq!(copy_beside(&from, &to), ["input"]);
        assert_eq!(std::fs::read_to_string(to.join("input")).unwrap(), "2");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_path_is_tidied_within_where_it_starts() {
        assert_eq!(tidy(Path::new("a/./b/../c")), Some(PathBuf::from("a/c")));
        assert_eq!(tidy(Path::new("../x")), None);
    }
}
