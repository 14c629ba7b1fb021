//! The executables of one comparison, run from paths of one length.
//!
//! A process's path lands on its heap (its first argument, which the
//! harness reads, and its own path, which nbench-criterion reads), and
//! with address-space randomisation off (`Session::start_placed`) a few
//! bytes more there move every later allocation. The same executable
//! saved under baselines named `rev-e1eff20bee47-ef54478e` and `t` (24
//! bytes apart) read bumpalo's `extend 331 bytes/extend_from_slice_copy`
//! −48 % and `alloc-try-with-err/big, small` +9.9 %, in every epoch;
//! under two names of one length, −0.06 % and −0.15 %. So both sides run
//! through links of one length in one folder, and are read into memory
//! alike (`page_cache`).

use std::path::{Path, PathBuf};

/// Links to both sides' executables, `b000`, `c000`, … in a folder of
/// their own beside the current side's first; removed when dropped.
pub struct Staged {
    dir: Option<PathBuf>,
    /// The baseline's executables, as run.
    pub base: Vec<PathBuf>,
    /// The current side's.
    pub cur: Vec<PathBuf>,
}

impl Staged {
    /// Links `base` and `cur` (hard links, so that a process's own path is
    /// the link's; symbolic ones where the two lie on other file systems).
    /// Where no folder can be made, the executables as they are. Both
    /// sides are read from disk afresh when they next run
    /// ([`read_afresh`](super::page_cache::read_afresh)).
    pub fn new(base: &[PathBuf], cur: &[PathBuf]) -> Staged {
        super::page_cache::read_afresh(&[base, cur].concat());
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let unstaged = || Staged {
            dir: None,
            base: base.to_vec(),
            cur: cur.to_vec(),
        };
        let Some(parent) = cur.first().and_then(|e| e.parent()) else {
            return unstaged();
        };
        remove_abandoned(parent);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = parent.join(format!("{PREFIX}{}-{n:04}", std::process::id()));
        if std::fs::create_dir_all(&dir).is_err() {
            return unstaged();
        }
        let side = |exes: &[PathBuf], tag: char| -> Vec<PathBuf> {
            (exes.iter().enumerate())
                .map(|(k, exe)| link(exe, &dir.join(format!("{tag}{k:03}"))))
                .collect()
        };
        Staged {
            base: side(base, 'b'),
            cur: side(cur, 'c'),
            dir: Some(dir),
        }
    }
}

/// How a comparison's folder of links begins; the run's process id follows.
const PREFIX: &str = ".nbench-run-";

/// Removes the folders of links in `parent` whose run is gone (killed
/// before it could remove them): hard links keep nothing else alive, but
/// they are litter.
fn remove_abandoned(parent: &Path) {
    #[cfg(target_os = "linux")]
    for entry in std::fs::read_dir(parent).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let pid = (name.strip_prefix(PREFIX)).and_then(|rest| rest.split('-').next());
        if pid.is_some_and(|pid| !Path::new("/proc").join(pid).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = parent;
}

/// `exe` linked at `at`, or `exe` itself where it cannot be.
fn link(exe: &Path, at: &Path) -> PathBuf {
    let exe = std::fs::canonicalize(exe).unwrap_or_else(|_| exe.to_path_buf());
    if std::fs::hard_link(&exe, at).is_ok() {
        return at.to_path_buf();
    }
    #[cfg(unix)]
    if std::os::unix::fs::symlink(&exe, at).is_ok() {
        return at.to_path_buf();
    }
    exe
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_run_from_paths_of_one_length_until_dropped() {
        let root = std::env::temp_dir().join(format!("nbench-staged-test-{}", std::process::id()));
        let (b, c) = (root.join("baselines/a-long-name/bin"), root.join("deps"));
        std::fs::create_dir_all(&b).unwrap();
        std::fs::create_dir_all(&c).unwrap();
        let base = vec![b.join("pkg-bench-0123.layout-2"), b.join("pkg-bench-4567")];
        let cur = vec![c.join("bench-89ab")];
        for (k, exe) in base.iter().chain(&cur).enumerate() {
            std::fs::write(exe, format!("exe {k}")).unwrap();
        }
        let staged = Staged::new(&base, &cur);
        let all: Vec<&PathBuf> = staged.base.iter().chain(&staged.cur).collect();
        let len = all[0].as_os_str().len();
        assert!(all.iter().all(|p| p.as_os_str().len() == len), "{all:?}");
        assert_eq!(std::fs::read_to_string(&staged.base[1]).unwrap(), "exe 1");
        assert_eq!(std::fs::read_to_string(&staged.cur[0]).unwrap(), "exe 2");
        let dir = staged.base[0].parent().unwrap().to_path_buf();
        drop(staged);
        assert!(!dir.exists());
        // A folder a killed run left is removed by the next.
        #[cfg(target_os = "linux")]
        {
            let left = c.join(format!("{PREFIX}{}-0000", u32::MAX));
            std::fs::create_dir_all(&left).unwrap();
            let staged = Staged::new(&base, &cur);
            assert!(!left.exists());
            drop(staged);
        }
        assert!(
            base.iter().chain(&cur).all(|e| e.exists()),
            "the executables stay"
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
