//! The working tree as a commit, for `--compare-rev` where the working
//! tree cannot be built as it stands (its suite uses criterion or another
//! library nbench takes the place of in a revision's build).
//!
//! The commit holds what `git add --all` would stage, on top of `HEAD`:
//! tracked files as they are now, and files git does not ignore. It is
//! written with an index of its own, so the user's index, `HEAD` and
//! branches are never touched, and no branch holds it. Its author, dates
//! and message are fixed: one state of the working tree is always the same
//! commit, so its baseline is built once.

use super::worktree::{git, run_git};
use crate::error::{Error, Result};
use std::path::Path;
use std::process::Command;

/// What notes and build output call the working tree built as a commit.
pub const CALLED: &str = "working tree";

/// How notes and errors name revision `rev` at commit `short`: the
/// working tree as what it is, a revision by the name it was given.
pub fn named(rev: &str, short: &str) -> String {
    match rev == CALLED {
        true => format!("the working tree (as commit {short})"),
        false => format!("`{rev}` ({short})"),
    }
}

/// [`named`] where a revision is called one ("revision `main` (…)").
pub fn named_revision(rev: &str, short: &str) -> String {
    match rev == CALLED {
        true => named(rev, short),
        false => format!("revision {}", named(rev, short)),
    }
}

/// The working tree as a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The commit.
    pub commit: String,
    /// Whether it was made now: false where the working tree is `HEAD`'s
    /// own (nothing changed), whose commit is `HEAD`.
    pub made: bool,
    /// `HEAD`, which it was made on; none in a repository without commits.
    pub parent: Option<String>,
}

/// The working tree of the repository whose top is `top` as a commit,
/// leaving out the folder `skip` (cargo's target directory, which a
/// `.gitignore` may not name); `index` is a scratch file for the index the
/// commit is written with, removed afterwards.
pub fn snapshot(top: &Path, skip: &Path, index: &Path) -> Result<Snapshot> {
    let failed = |what: &str, said: String| Error::Revision {
        message: format!("could not {what} the working tree as a commit: {said}"),
        hint: "commit your change and compare the two commits with `cargo nbench compare --rev \
               REV HEAD`"
            .into(),
    };
    // Starting from the user's index spares hashing the files it knows.
    let own = git(top, &["rev-parse", "--git-path", "index"]).map_err(|e| failed("find", e))?;
    let _ = std::fs::remove_file(index);
    if let Err(e) = std::fs::copy(top.join(own), index)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        return Err(Error::io("could not copy git's index to", index, e));
    }
    let mut add = vec!["add", "--all", "--", "."];
    // Named only where no `.gitignore` does: git refuses to be told of a
    // path it ignores.
    let skip = skip
        .strip_prefix(top)
        .ok()
        .filter(|s| !s.as_os_str().is_empty());
    let skip = skip.map(|s| s.display().to_string());
    let ignored = |s: &String| git(top, &["check-ignore", "--quiet", s.as_str()]).is_ok();
    let skip = skip
        .filter(|s| !ignored(s))
        .map(|s| format!(":(exclude){s}"));
    add.extend(skip.as_deref());
    let tree = with_index(top, index, &add)
        .and_then(|_| with_index(top, index, &["write-tree"]))
        .map_err(|e| failed("read", e));
    let _ = std::fs::remove_file(index);
    let tree = tree?;
    let head = git(top, &["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]).ok();
    if let Some(head) = head.as_ref()
        && git(top, &["rev-parse", &format!("{head}^{{tree}}")]).is_ok_and(|t| t == tree)
    {
        return Ok(Snapshot {
            commit: head.clone(),
            made: false,
            parent: Some(head.clone()),
        });
    }
    let mut args = vec!["commit-tree", tree.as_str(), "-m", "the working tree"];
    if let Some(head) = head.as_ref() {
        args.extend(["-p", head.as_str()]);
    }
    let commit = fixed(top, &args).map_err(|e| failed("write", e))?;
    Ok(Snapshot {
        commit,
        made: true,
        parent: head,
    })
}

/// `git ARGS` in `dir` with the index file `index`: its trimmed output, or
/// its error output.
fn with_index(dir: &Path, index: &Path, args: &[&str]) -> std::result::Result<String, String> {
    let mut cmd = Command::new("git");
    cmd.env("GIT_INDEX_FILE", index);
    run_git(cmd.args(args).current_dir(dir))
}

/// `git ARGS` in `dir` as a fixed author at a fixed time, whatever the
/// user's settings: one tree on one parent is one commit.
fn fixed(dir: &Path, args: &[&str]) -> std::result::Result<String, String> {
    let mut cmd = Command::new("git");
    for who in ["AUTHOR", "COMMITTER"] {
        cmd.env(format!("GIT_{who}_NAME"), "cargo nbench")
            .env(format!("GIT_{who}_EMAIL"), "cargo-nbench@localhost")
            .env(format!("GIT_{who}_DATE"), "1970-01-01T00:00:00+0000");
    }
    // Never signed: a signing program could ask for a passphrase.
    cmd.args(["-c", "commit.gpgSign=false"]);
    run_git(cmd.args(args).current_dir(dir))
}

#[cfg(test)]
mod tests {
    use super::super::worktree::made::{repository, run};
    use super::*;

    #[test]
    fn a_working_tree_is_one_commit_for_one_state_and_the_index_is_untouched() {
        let (tmp, repo) = repository("snapshot", "a.txt", &["one\n"]);
        let index = repo.join("target/scratch-index");
        // No `.gitignore` names the target directory: it is left out still.
        std::fs::create_dir_all(repo.join("target")).unwrap();
        let head = run(&repo, &["rev-parse", "HEAD"]);
        let clean = snapshot(&repo, &repo.join("target"), &index).unwrap();
        assert_eq!(
            clean,
            Snapshot {
                commit: head.clone(),
                made: false,
                parent: Some(head.clone()),
            }
        );
        // A tracked file changed, a new one beside it, build output left out.
        std::fs::write(repo.join("a.txt"), "two\n").unwrap();
        std::fs::write(repo.join("new.txt"), "new\n").unwrap();
        std::fs::write(repo.join("target/out"), "built\n").unwrap();
        let status = run(&repo, &["status", "--porcelain"]);
        let first = snapshot(&repo, &repo.join("target"), &index).unwrap();
        assert!(first.made, "{first:?}");
        assert_eq!(first.parent.as_ref(), Some(&head));
        assert_ne!(first.commit, head);
        assert_eq!(
            run(&repo, &["show", &format!("{}:a.txt", first.commit)]),
            "two"
        );
        assert_eq!(
            run(&repo, &["show", &format!("{}:new.txt", first.commit)]),
            "new"
        );
        let files = run(&repo, &["ls-tree", "-r", "--name-only", &first.commit]);
        assert!(!files.contains("target"), "{files}");
        assert_eq!(
            run(&repo, &["rev-parse", &format!("{}^", first.commit)]),
            head
        );
        // The same state again: the same commit. Nothing of the user's moved.
        assert_eq!(
            snapshot(&repo, &repo.join("target"), &index).unwrap(),
            first
        );
        assert_eq!(run(&repo, &["status", "--porcelain"]), status);
        assert_eq!(run(&repo, &["rev-parse", "HEAD"]), head);
        assert!(!index.exists());
        // Another state: another commit.
        std::fs::write(repo.join("a.txt"), "three\n").unwrap();
        let second = snapshot(&repo, &repo.join("target"), &index).unwrap();
        assert_ne!(second.commit, first.commit);
        // Where a `.gitignore` names it, as `cargo new` writes one.
        std::fs::write(repo.join(".gitignore"), "target/\n").unwrap();
        let third = snapshot(&repo, &repo.join("target"), &index).unwrap();
        let files = run(&repo, &["ls-tree", "-r", "--name-only", &third.commit]);
        assert_eq!(files, ".gitignore\na.txt\nnew.txt");
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
