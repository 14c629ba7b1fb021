//! A revision whose commit keeps no `Cargo.lock` (a library that leaves it
//! out of version control, or a bench package with a workspace of its own)
//! is built with the working tree's: cargo would otherwise take the newest
//! versions of its dependencies that day, and the comparison would measure
//! their updates as the change. Where the commit keeps one, it is built
//! with its own, as `cargo bench` there would.

use super::canonical;
use super::worktree::git;
use crate::error::{Error, Result};
use crate::model::stable_hash::fnv1a;
use std::path::{Path, PathBuf};

/// The working tree's lock file, to be put in a checkout.
#[derive(Debug, Clone, PartialEq)]
pub struct Carried {
    /// The working tree's lock file.
    from: PathBuf,
    /// Its place relative to the repository's top.
    relative: PathBuf,
    /// The hash of what it holds, for the baseline's record.
    pub hash: String,
}

/// The lock file of the workspace at `root` that a checkout of `commit`
/// of the repository at `top` takes: where the working tree has one and
/// the commit keeps none at that place.
pub fn to_carry(root: &Path, top: &Path, commit: &str) -> Option<Carried> {
    let from = root.join("Cargo.lock");
    let bytes = std::fs::read(&from).ok()?;
    let relative = canonical(root)
        .strip_prefix(canonical(top))
        .ok()?
        .join("Cargo.lock");
    let spec = format!("{commit}:{}", in_git(&relative));
    if git(top, &["cat-file", "-e", &spec]).is_ok() {
        return None;
    }
    Some(Carried {
        from,
        relative,
        hash: format!("{:016x}", fnv1a(bytes)),
    })
}

impl Carried {
    /// Puts the lock file in `checkout`, at its place there; nothing where
    /// the checkout has no folder for it (the workspace moved since).
    pub fn put_in(&self, checkout: &Path) -> Result<()> {
        let to = checkout.join(&self.relative);
        if !to.parent().is_some_and(Path::is_dir) {
            return Ok(());
        }
        std::fs::copy(&self.from, &to)
            .map(|_| ())
            .map_err(|e| Error::io("could not copy the lock file to", &to, e))
    }

    /// Whether crate `krate` (as code names it: `_` for `-`) is a package
    /// the lock file in `checkout` took from a source (a registry, git),
    /// as cargo left it after the revision's build.
    pub fn sourced(&self, checkout: &Path, krate: &str) -> bool {
        let text = std::fs::read_to_string(checkout.join(&self.relative)).unwrap_or_default();
        sourced_in(&text, krate)
    }
}

/// Whether lock file `text` takes crate `krate` from a source.
fn sourced_in(text: &str, krate: &str) -> bool {
    let Ok(lock) = text.parse::<toml::Table>() else {
        return false;
    };
    let packages = lock.get("package").and_then(|p| p.as_array());
    (packages.into_iter().flatten()).any(|p| {
        let name = p.get("name").and_then(|n| n.as_str()).unwrap_or_default();
        name.replace('-', "_") == krate && p.get("source").is_some()
    })
}

/// A path as git names it in a tree: `/` between its parts.
fn in_git(path: &Path) -> String {
    let parts: Vec<String> = (path.components())
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(dir: &Path, args: &[&str]) {
        let mut all = vec!["-c", "user.name=n", "-c", "user.email=e@x", "-c"];
        all.extend(["commit.gpgsign=false"]);
        all.extend(args);
        git(dir, &all).unwrap();
    }

    #[test]
    fn a_crate_is_sourced_where_the_lock_file_takes_it_from_a_registry_or_git() {
        let lock = "version = 4\n\n[[package]]\nname = \"rand_core\"\nversion = \"0.10.0\"\n\
                    source = \"registry+https://github.com/rust-lang/crates.io-index\"\n\n\
                    [[package]]\nname = \"curve25519-dalek\"\nversion = \"5.0.0\"\n";
        assert!(sourced_in(lock, "rand_core"));
        // The workspace's own package, and a crate it does not hold.
        assert!(!sourced_in(lock, "curve25519_dalek"));
        assert!(!sourced_in(lock, "std"));
        assert!(!sourced_in("not a lock file [", "rand_core"));
    }

    #[test]
    fn the_working_trees_lock_file_is_carried_only_where_the_commit_keeps_none() {
        let top = std::env::temp_dir().join(format!("nbench-lockfile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&top);
        let bench = top.join("benches");
        std::fs::create_dir_all(&bench).unwrap();
        std::fs::write(bench.join("Cargo.toml"), "[package]\n").unwrap();
        run(&top, &["init", "-q"]);
        run(&top, &["add", "-A"]);
        run(&top, &["commit", "-qm", "without"]);
        let without = git(&top, &["rev-parse", "HEAD"]).unwrap();

        // Nothing to carry where the working tree has none either.
        assert_eq!(to_carry(&bench, &top, &without), None);
        std::fs::write(bench.join("Cargo.lock"), "version = 4\n").unwrap();
        let carried = to_carry(&bench, &top, &without).expect("the commit keeps none");
        assert_eq!(carried.relative, Path::new("benches/Cargo.lock"));
        let checkout = top.join("checkout");
        std::fs::create_dir_all(checkout.join("benches")).unwrap();
        carried.put_in(&checkout).unwrap();
        let put = std::fs::read_to_string(checkout.join("benches/Cargo.lock")).unwrap();
        assert_eq!(put, "version = 4\n");
        // A checkout without the folder is left as it is.
        carried.put_in(&top.join("elsewhere")).unwrap();

        run(&top, &["add", "-A", "benches"]);
        run(&top, &["commit", "-qm", "with"]);
        let with = git(&top, &["rev-parse", "HEAD"]).unwrap();
        assert_eq!(
            to_carry(&bench, &top, &with),
            None,
            "the commit keeps its own"
        );
        let _ = std::fs::remove_dir_all(&top);
    }
}
