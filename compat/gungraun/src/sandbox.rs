//! gungraun's `Sandbox`: a binary benchmark run in a temporary folder of
//! its own, its fixtures copied in. The bench process moves into it while
//! the benchmark runs, so its `setup`, its command and its `teardown` all
//! run there, and it is removed afterwards. Under nbench one benchmark
//! runs its command many times: the folder lasts for all of them.

use std::path::{Path, PathBuf};

/// Where a binary benchmark runs: in the package's folder, or in a
/// temporary folder (`Sandbox::new(true)`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sandbox {
    pub(crate) enabled: bool,
    pub(crate) fixtures: Vec<PathBuf>,
}

impl Sandbox {
    /// A sandbox, used where `enabled`.
    pub fn new(enabled: bool) -> Self {
        Sandbox {
            enabled,
            fixtures: Vec::new(),
        }
    }
    /// Files and folders copied into the sandbox's root, each under its
    /// own name; their paths relative to the workspace's root.
    pub fn fixtures<I: IntoIterator<Item = T>, T: Into<PathBuf>>(&mut self, paths: I) -> &mut Self {
        self.fixtures.extend(paths.into_iter().map(Into::into));
        self
    }
}

crate::command::from_refs!(Sandbox);

/// A sandbox the process is in: it goes back to its folder, and the
/// sandbox is removed, when this is dropped.
pub(crate) struct Entered {
    back: PathBuf,
    dir: PathBuf,
}

impl Drop for Entered {
    fn drop(&mut self) {
        let _ = std::env::set_current_dir(&self.back);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Moves the process into a new sandbox holding `sandbox`'s fixtures, if
/// it is enabled; why not, where the folder cannot be made or a fixture
/// copied.
pub(crate) fn enter(sandbox: Option<&Sandbox>) -> Result<Option<Entered>, String> {
    let Some(sandbox) = sandbox.filter(|s| s.enabled) else {
        return Ok(None);
    };
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let name = format!("nbench-sandbox-{}-{n}", std::process::id());
    let dir = std::env::temp_dir().join(name);
    let back = std::env::current_dir().map_err(|e| format!("the sandbox: {e}"))?;
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("the sandbox {} cannot be made: {e}", dir.display()))?;
    let entered = Entered { back, dir };
    let root = workspace_root(&entered.back);
    for f in &sandbox.fixtures {
        let from = root.join(f);
        let Some(name) = from.file_name() else {
            return Err(format!("the fixture `{}` names no file", f.display()));
        };
        copy(&from, &entered.dir.join(name)).map_err(|e| {
            format!(
                "the fixture `{}` cannot be copied into the sandbox: {e}",
                from.display()
            )
        })?;
    }
    std::env::set_current_dir(&entered.dir)
        .map_err(|e| format!("the sandbox {}: {e}", entered.dir.display()))?;
    Ok(Some(entered))
}

/// The workspace's root from the package's folder `dir`: the nearest
/// folder, from `dir` up, whose `Cargo.toml` has a `[workspace]`, else `dir`.
fn workspace_root(dir: &Path) -> PathBuf {
    let manifest = |d: &Path| std::fs::read_to_string(d.join("Cargo.toml")).unwrap_or_default();
    (dir.ancestors())
        .find(|d| manifest(d).lines().any(|l| l.trim() == "[workspace]"))
        .unwrap_or(dir)
        .to_path_buf()
}

/// Copies file or folder `from` to `to`.
fn copy(from: &Path, to: &Path) -> std::io::Result<()> {
    if !from.is_dir() {
        return std::fs::copy(from, to).map(|_| ());
    }
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        copy(&entry.path(), &to.join(entry.file_name()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sandbox_holds_its_fixtures_and_is_gone_once_left() {
        let root = std::env::temp_dir().join(format!("nbench-sandbox-test-{}", std::process::id()));
        let fixtures = root.join("benches/fixtures");
        std::fs::create_dir_all(fixtures.join("deep")).unwrap();
        std::fs::write(root.join("Cargo.toml"), "[workspace]\n").unwrap();
        std::fs::write(fixtures.join("one.txt"), "1").unwrap();
        std::fs::write(fixtures.join("deep/two.txt"), "2").unwrap();
        assert_eq!(workspace_root(&fixtures), root);
        let mut sandbox = Sandbox::new(true);
        sandbox.fixtures(["benches/fixtures/one.txt", "benches/fixtures/deep"]);
        let before = std::env::current_dir().unwrap();
        std::env::set_current_dir(&root).unwrap();
        let entered = enter(Some(&sandbox)).unwrap().unwrap();
        let inside = std::env::current_dir().unwrap();
        assert_ne!(inside, root);
        assert_eq!(std::fs::read_to_string("one.txt").unwrap(), "1");
        assert_eq!(std::fs::read_to_string("deep/two.txt").unwrap(), "2");
        drop(entered);
        assert_eq!(std::env::current_dir().unwrap(), root);
        assert!(!inside.exists());
        let missing = Sandbox::new(true).fixtures(["nowhere.txt"]).clone();
        let why = enter(Some(&missing)).err().unwrap();
        assert!(why.contains("nowhere.txt"), "{why}");
        assert_eq!(std::env::current_dir().unwrap(), root);
        assert!(enter(Some(&Sandbox::new(false))).unwrap().is_none());
        std::env::set_current_dir(before).unwrap();
        let _ = std::fs::remove_dir_all(&root);
    }
}
