//! A package that belongs to no workspace in its own checkout (the
//! repository's root workspace excludes it, or there is none) is a
//! workspace of its own there. Checked out in a worktree under the user's
//! `target/nbench/worktrees/`, cargo would look on up past the checkout,
//! reach the user's workspace, which does not list it, and refuse
//! ("current package believes it's in a workspace when it's not"): rand's
//! `benches` package, which its root workspace excluded until it was given
//! a `[workspace]` of its own. In the worktree such a package's manifest
//! gets that empty `[workspace]` table, which makes it there what it is in
//! its own checkout.

use crate::error::{Error, Result};
use std::path::Path;

/// Gives the package of `manifest`, in the checkout whose top is `top`, an
/// empty `[workspace]` table where it [stands alone](stands_alone): whether
/// it did.
pub fn make_own_workspace(top: &Path, manifest: &Path) -> Result<bool> {
    if !stands_alone(top, manifest) || !workspace_above(top) {
        return Ok(false);
    }
    let text =
        std::fs::read_to_string(manifest).map_err(|e| Error::io("could not read", manifest, e))?;
    let end = if text.ends_with('\n') { "" } else { "\n" };
    std::fs::write(manifest, format!("{text}{end}\n[workspace]\n"))
        .map_err(|e| Error::io("could not write", manifest, e))?;
    Ok(true)
}

/// Whether the package of `manifest` belongs to no workspace within `top`:
/// it has no `[workspace]` of its own, and every manifest above it up to
/// `top` that has one excludes it (`exclude`). A workspace above that does
/// not exclude it may hold it (as a member, or as its root package's
/// dependency by path): that is cargo's to judge.
pub fn stands_alone(top: &Path, manifest: &Path) -> bool {
    let Some(dir) = manifest.parent() else {
        return false;
    };
    if !matches!(workspace(manifest), Some(None)) {
        return false;
    }
    let above = dir.ancestors().skip(1).take_while(|a| a.starts_with(top));
    for ancestor in above {
        let path = ancestor.join("Cargo.toml");
        if !path.exists() {
            continue;
        }
        let ws = match workspace(&path) {
            None => return false,
            Some(None) => continue,
            Some(Some(ws)) => ws,
        };
        let excluded = (ws.get("exclude").and_then(|e| e.as_array())).is_some_and(|ex| {
            ex.iter().any(|e| {
                e.as_str()
                    .is_some_and(|e| dir.starts_with(ancestor.join(e)))
            })
        });
        if !excluded {
            return false;
        }
    }
    true
}

/// Whether a manifest above the checkout `top` declares a workspace, which
/// cargo would reach from a package standing alone in it (a one-package
/// repository's worktree under a workspace's `target/`). Without one,
/// cargo finds no workspace there either, and the manifest is left as it is.
fn workspace_above(top: &Path) -> bool {
    (top.ancestors().skip(1)).any(|a| matches!(workspace(&a.join("Cargo.toml")), Some(Some(_))))
}

/// The `[workspace]` table of the manifest at `path`, or none; `None`
/// where the manifest cannot be read (cargo says what is wrong with it).
fn workspace(path: &Path) -> Option<Option<toml::Table>> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut table = text.parse::<toml::Table>().ok()?;
    Some(match table.remove("workspace") {
        Some(toml::Value::Table(ws)) => Some(ws),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `files` (path, contents) under a fresh folder: the folder.
    fn tree(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
        let top = std::env::temp_dir().join(format!("nbench-alone-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&top);
        for (path, text) in files {
            let path = top.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        top
    }

    const PACKAGE: &str = "[package]\nname = \"benches\"\nversion = \"0.1.0\"";

    #[test]
    fn a_package_its_root_workspace_excludes_is_given_a_workspace_of_its_own() {
        let root = "[package]\nname = \"rand\"\n\n[workspace]\nmembers = [\"pcg\"]\nexclude = [\"benches\", \"other\"]\n";
        // The checkout `co` lies below the user's workspace, as a worktree
        // under its `target/` does.
        let user = tree(
            "excluded",
            &[
                ("Cargo.toml", "[workspace]\n"),
                ("co/Cargo.toml", root),
                ("co/benches/Cargo.toml", PACKAGE),
            ],
        );
        let top = user.join("co");
        let manifest = top.join("benches/Cargo.toml");
        assert!(stands_alone(&top, &manifest));
        assert!(make_own_workspace(&top, &manifest).unwrap());
        let text = std::fs::read_to_string(&manifest).unwrap();
        assert_eq!(text, format!("{PACKAGE}\n\n[workspace]\n"));
        // Now its own workspace: nothing more to add.
        assert!(!make_own_workspace(&top, &manifest).unwrap());
        // With no workspace above the checkout, cargo reaches none: the
        // manifest is left as it is.
        std::fs::remove_file(user.join("Cargo.toml")).unwrap();
        std::fs::write(&manifest, PACKAGE).unwrap();
        assert!(!make_own_workspace(&top, &manifest).unwrap());
        assert_eq!(std::fs::read_to_string(&manifest).unwrap(), PACKAGE);
        std::fs::remove_dir_all(&user).unwrap();
    }

    #[test]
    fn a_package_a_workspace_above_may_hold_is_left_to_cargo() {
        let member = "[workspace]\nmembers = [\"crates/*\"]\n";
        let top = tree(
            "member",
            &[("Cargo.toml", member), ("crates/b/Cargo.toml", PACKAGE)],
        );
        assert!(!stands_alone(&top, &top.join("crates/b/Cargo.toml")));
        std::fs::remove_dir_all(&top).unwrap();
        // No workspace anywhere in the checkout: alone. What lies above
        // the checkout's top is not looked at.
        let top = tree(
            "none",
            &[("Cargo.toml", PACKAGE), ("x/Cargo.toml", PACKAGE)],
        );
        assert!(stands_alone(&top, &top.join("Cargo.toml")));
        assert!(stands_alone(&top, &top.join("x/Cargo.toml")));
        std::fs::remove_dir_all(&top).unwrap();
        // A manifest cargo cannot read is cargo's to report.
        let top = tree(
            "broken",
            &[("Cargo.toml", "[workspace"), ("b/Cargo.toml", PACKAGE)],
        );
        assert!(!stands_alone(&top, &top.join("b/Cargo.toml")));
        assert!(!stands_alone(&top, &top.join("missing/Cargo.toml")));
        std::fs::remove_dir_all(&top).unwrap();
    }
}
