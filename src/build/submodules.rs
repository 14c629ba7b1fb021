//! A revision's git submodules in its checkout: `git worktree add` leaves
//! their folders empty, and a workspace with a member in one (glam's
//! `tools/codegen`) cannot then be read. Each is filled with the files of
//! the commit the revision records, read from the user's repository of
//! that submodule (no network, and nothing of it changed): the one checked
//! out at the same path, else the one git keeps under the submodule's name
//! (`.git/modules/NAME`: glam's `codegen` moved to `tools/codegen`). One
//! the user has no repository of stays empty, as it is in their checkout.

use super::worktree::git;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Fills the submodules of the revision checked out at `checkout` from
/// the user's repositories of them, the repository at `repo` being the
/// superproject (see the module's notes); the paths filled.
pub fn fill(repo: &Path, checkout: &Path) -> Result<Vec<String>> {
    let listed = git(checkout, &["ls-tree", "-r", "-z", "HEAD"]).unwrap_or_default();
    let links = gitlinks(&listed);
    if links.is_empty() {
        return Ok(Vec::new());
    }
    let names = std::fs::read_to_string(checkout.join(".gitmodules")).unwrap_or_default();
    let common = git(
        repo,
        &["rev-parse", "--path-format=absolute", "--git-common-dir"],
    );
    let mut filled = Vec::new();
    for (commit, path) in links {
        let by_name = |name: &str| {
            common
                .as_ref()
                .ok()
                .map(|c| Path::new(c).join("modules").join(name))
        };
        let Some(git_dir) = checked_out(&repo.join(path)).or_else(|| {
            name_of(&names, path)
                .and_then(by_name)
                .filter(|d| d.is_dir())
        }) else {
            continue;
        };
        fill_one(&git_dir, &checkout.join(path), commit).map_err(|why| Error::Revision {
            message: format!("could not check out submodule `{path}` at {commit}: {why}"),
            hint: "fetch that commit into your repository of it (`git fetch` in the \
                 submodule's folder), or save a baseline of the revision from its own \
                 checkout with --save-baseline NAME"
                .to_owned(),
        })?;
        filled.push(path.to_owned());
    }
    Ok(filled)
}

/// The git folder of the repository checked out at `folder`, if one is.
fn checked_out(folder: &Path) -> Option<PathBuf> {
    if !folder.join(".git").exists() {
        return None;
    }
    git(folder, &["rev-parse", "--absolute-git-dir"])
        .ok()
        .map(PathBuf::from)
}

/// The name a `.gitmodules` file gives the submodule at `path`.
fn name_of<'a>(gitmodules: &'a str, path: &str) -> Option<&'a str> {
    let mut name = None;
    for line in gitmodules.lines().map(str::trim) {
        if let Some(section) = line.strip_prefix("[submodule \"") {
            name = section.strip_suffix("\"]");
        } else if let Some((key, value)) = line.split_once('=')
            && key.trim() == "path"
            && value.trim() == path
        {
            return name;
        }
    }
    None
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

/// Writes the files of `commit` of the repository whose git folder is
/// `git_dir` into `into`, through an index of its own (the repository's
/// index and working tree are not touched).
fn fill_one(git_dir: &Path, into: &Path, commit: &str) -> std::result::Result<(), String> {
    let index = into.with_extension("nbench-index");
    let run = |args: &[&str]| -> std::result::Result<(), String> {
        let out = Command::new("git")
            .arg(format!("--git-dir={}", git_dir.display()))
            .arg(format!("--work-tree={}", into.display()))
            .args(args)
            .env("GIT_INDEX_FILE", &index)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| e.to_string())?;
        match out.status.success() {
            true => Ok(()),
            false => Err(String::from_utf8_lossy(&out.stderr).trim().to_owned()),
        }
    };
    run(&["cat-file", "-e", &format!("{commit}^{{commit}}")])
        .map_err(|_| "your repository of it does not have that commit".to_owned())?;
    std::fs::create_dir_all(into).map_err(|e| e.to_string())?;
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

    #[test]
    fn a_submodule_is_named_by_its_section() {
        let modules = "[submodule \"codegen\"]\n\tpath = codegen\n\turl = https://x/y.git\n\
                       [submodule \"data\"]\n\tpath = tests/data\n";
        assert_eq!(name_of(modules, "codegen"), Some("codegen"));
        assert_eq!(name_of(modules, "tests/data"), Some("data"));
        assert_eq!(name_of(modules, "tools/codegen"), None);
    }
}
