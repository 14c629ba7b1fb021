//! A revision's git submodules in its checkout: `git worktree add` leaves
//! their folders empty, and a workspace with a member in one (glam's
//! `tools/codegen`) cannot then be read. Each submodule the user's own
//! checkout has is filled with the files of the commit the revision
//! records, read from the user's copy of it (no network, and nothing of
//! that copy changed); one the user's checkout lacks stays empty, as it is
//! there.

use super::worktree::git;
use crate::error::{Error, Result};
use std::path::Path;
use std::process::{Command, Stdio};

/// Fills the submodules of the revision checked out at `checkout` from
/// those of the user's checkout at `repo` (see the module's notes); the
/// paths filled.
pub fn fill(repo: &Path, checkout: &Path) -> Result<Vec<String>> {
    let listed = git(checkout, &["ls-tree", "-r", "-z", "HEAD"]).unwrap_or_default();
    let mut filled = Vec::new();
    for (commit, path) in gitlinks(&listed) {
        let own = repo.join(path);
        if !own.join(".git").exists() {
            continue;
        }
        fill_one(&own, &checkout.join(path), commit).map_err(|why| Error::Revision {
            message: format!("could not check out submodule `{path}` at {commit}: {why}"),
            hint: format!(
                "fetch that commit into your copy of it (`git -C {path} fetch`), or save a \
                 baseline of the revision from its own checkout with --save-baseline NAME"
            ),
        })?;
        filled.push(path.to_owned());
    }
    Ok(filled)
}

/// The submodules in `git ls-tree -r -z` output: (commit, path) of each
/// entry of mode 160000.
fn gitlinks(listed: &str) -> Vec<(&str, &str)> {
    (listed.split('\0'))
        .filter_map(|line| {
            let (head, path) = line.split_once('\t')?;
            let mut fields = head.split_whitespace();
            let (mode, kind, commit) = (fields.next()?, fields.next()?, fields.next()?);
            (mode == "160000" && kind == "commit").then_some((commit, path))
        })
        .collect()
}

/// Writes the files of `commit` of the repository checked out at `own`
/// into `into`, through an index of its own (the repository's index and
/// working tree are not touched).
fn fill_one(own: &Path, into: &Path, commit: &str) -> std::result::Result<(), String> {
    let git_dir = git(own, &["rev-parse", "--absolute-git-dir"])?;
    git(own, &["cat-file", "-e", &format!("{commit}^{{commit}}")])
        .map_err(|_| "your copy of it does not have that commit".to_owned())?;
    std::fs::create_dir_all(into).map_err(|e| e.to_string())?;
    let index = into.with_extension("nbench-index");
    let run = |args: &[&str]| -> std::result::Result<(), String> {
        let out = Command::new("git")
            .arg(format!("--git-dir={git_dir}"))
            .arg(format!("--work-tree={}", into.display()))
            .args(args)
            .env("GIT_INDEX_FILE", &index)
            .current_dir(into)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| e.to_string())?;
        match out.status.success() {
            true => Ok(()),
            false => Err(String::from_utf8_lossy(&out.stderr).trim().to_owned()),
        }
    };
    let done = run(&["read-tree", commit]).and_then(|()| run(&["checkout-index", "-a", "-f"]));
    let _ = std::fs::remove_file(&index);
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn submodules_are_the_commit_entries_of_a_tree() {
        let listed = "100644 blob 1111111111111111111111111111111111111111\tCargo.toml\0\
                      160000 commit 673ed2c712d0c2db35fed00a21da7f132ab3cd7f\ttools/codegen\0\
                      100644 blob 2222222222222222222222222222222222222222\ttools/ci/a\nb.rs\0";
        assert_eq!(
            gitlinks(listed),
            [("673ed2c712d0c2db35fed00a21da7f132ab3cd7f", "tools/codegen")]
        );
    }
}
