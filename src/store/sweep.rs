//! Kept copies of package binaries (`store/bins.rs`) that no baseline names
//! any more, removed when a baseline is deleted or saved again.
//!
//! Copies are content-addressed, so baselines share them: a copy goes only
//! when no baseline lists it. A target saved before baselines listed their
//! copies has its saved executables read for the copy's path instead; and
//! where a baseline cannot be read, or another run holds a baseline (it may
//! be saving one that names a copy), nothing is removed.

use super::baselines::{Baseline, Baselines};
use std::path::{Path, PathBuf};

impl Baselines {
    /// Removes each of `candidates` (kept copies that baseline `holding`,
    /// whose lock this run holds, named until now) that no baseline names.
    pub(super) fn sweep(&self, holding: &str, mut candidates: Vec<PathBuf>) {
        candidates.sort();
        candidates.dedup();
        if candidates.is_empty() || self.another_run_holds_one(holding) {
            return;
        }
        let Ok(all) = self.list() else {
            return;
        };
        let Ok(all) = all
            .into_iter()
            .collect::<crate::error::Result<Vec<Baseline>>>()
        else {
            return;
        };
        candidates.retain(|c| {
            !all.iter()
                .any(|b| b.kept_bins.values().flatten().any(|k| k == c))
        });
        // Targets saved before their copies were listed: read their executables.
        let unlisted: Vec<PathBuf> = (all.iter())
            .flat_map(|b| self.unlisted_executables(b))
            .collect();
        for exe in unlisted {
            if candidates.is_empty() {
                return;
            }
            let Ok(bytes) = std::fs::read(&exe) else {
                return;
            };
            candidates.retain(|c| !names(&bytes, c));
        }
        for copy in candidates {
            remove(&copy);
        }
    }

    /// Whether another run holds the lock of a baseline other than `holding`.
    fn another_run_holds_one(&self, holding: &str) -> bool {
        let ours = format!(".{holding}.lock");
        let Ok(entries) = std::fs::read_dir(self.dir()) else {
            return true;
        };
        (entries.flatten()).any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let lock = name.starts_with('.') && name.ends_with(".lock") && name != ours;
            lock && std::fs::File::open(e.path())
                .is_ok_and(|f| matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock)))
        })
    }

    /// The saved executables (every layout) of `b`'s targets that have no
    /// list of kept copies.
    fn unlisted_executables(&self, b: &Baseline) -> Vec<PathBuf> {
        let unlisted = |t: &&String| !b.kept_bins.contains_key(*t);
        let mut exes: Vec<PathBuf> = (b.executables.keys().filter(unlisted))
            .flat_map(|t| {
                let one = self.executable(b, t);
                let layouts = self.executables_for(b, t, false).unwrap_or_default();
                one.into_iter().chain(layouts)
            })
            .collect();
        // Without layouts, `executables_for` gives the one executable again.
        exes.sort();
        exes.dedup();
        exes
    }
}

/// Whether an executable's `bytes` name the file at `path`.
fn names(bytes: &[u8], path: &Path) -> bool {
    let needle = path.as_os_str().as_encoded_bytes();
    memchr::memmem::find(bytes, needle).is_some()
}

/// Removes a kept copy, and its folder (`r/<key>/`, `.<key>/`) once empty.
fn remove(copy: &Path) {
    if std::fs::remove_file(copy).is_ok()
        && let Some(folder) = copy.parent()
    {
        let _ = std::fs::remove_dir(folder);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_executable_names_a_copy_by_its_whole_path() {
        let bytes = b"\0/t/nbench/build/r/abcde/work\0";
        assert!(names(bytes, Path::new("/t/nbench/build/r/abcde/work")));
        assert!(!names(bytes, Path::new("/t/nbench/build/r/abcdf/work")));
    }

    #[test]
    fn nothing_is_swept_while_another_run_holds_a_baseline() {
        let root = std::env::temp_dir().join(format!("nbench-sweep-{}", std::process::id()));
        let baselines = Baselines::new(&root);
        let copy = root.join("build/r/abcde/work");
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        std::fs::write(&copy, b"bin").unwrap();
        let ours = baselines.lock("old").unwrap();
        let theirs = baselines.lock("new").unwrap();
        assert!(baselines.another_run_holds_one("old"));
        baselines.sweep("old", vec![copy.clone()]);
        assert!(
            copy.exists(),
            "`new` may be saving a baseline that names it"
        );
        drop(theirs);
        assert!(!baselines.another_run_holds_one("old"));
        baselines.sweep("old", vec![copy.clone()]);
        assert!(!copy.exists() && !copy.parent().unwrap().exists());
        drop(ours);
        let _ = std::fs::remove_dir_all(&root);
    }
}
