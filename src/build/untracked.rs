//! Files a revision's build reads that git does not track: an input that
//! `include_str!` takes and `.gitignore` keeps out (Advent of Code suites
//! keep their puzzle input so). A checkout of the revision lacks them, so
//! the working tree's are copied into it, and both sides read the same
//! bytes.

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
    fn a_path_is_tidied_within_where_it_starts() {
        assert_eq!(tidy(Path::new("a/./b/../c")), Some(PathBuf::from("a/c")));
        assert_eq!(tidy(Path::new("../x")), None);
    }
}
