//! Where one `cargo nbench` run's bench processes keep what they listed
//! ([`LISTINGS_ENV`]): a front end that must run the whole program to list
//! its benchmarks (nbench-criterion) lists once per build, not once per
//! process. The directory is this run's own, and removed as it ends.
//!
//! Each process is told the name of its build's listing
//! ([`LISTING_KEY_ENV`]): an executable's own, or, for the executables a
//! comparison runs of one side ([`alike`]: its link layouts, each the same
//! code in another order), the one that listed first. png's decoder suite makes
//! every input to list its benchmarks (7.5 s): listed once per layout (16
//! a side), its 24 rows took 377 s to compare by time, 16 of them given
//! only 2 epochs; listed once a side, 175 s, and 7.

use nbench::__private::protocol::{LISTING_KEY_ENV, LISTINGS_ENV};
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

static DIR: OnceLock<PathBuf> = OnceLock::new();

/// A run's directory is this followed by its process id.
const PREFIX: &str = "nbench-listings-";

/// The executables given another's listing name, while their [`Alike`] lives.
static NAMED: Mutex<BTreeMap<PathBuf, String>> = Mutex::new(BTreeMap::new());

/// Gives a bench process of `exe` the run's directory, and the name of the
/// listing it shares.
pub fn share(cmd: &mut Command, exe: &Path) {
    let dir = DIR.get_or_init(|| {
        let tmp = std::env::temp_dir();
        remove_abandoned(&tmp, Path::new("/proc"));
        tmp.join(format!("{PREFIX}{}", std::process::id()))
    });
    cmd.env(LISTINGS_ENV, dir);
    let named = NAMED.lock().ok().and_then(|n| n.get(exe).cloned());
    if let Some(key) = named.or_else(|| name_of(exe)) {
        cmd.env(LISTING_KEY_ENV, key);
    }
}

/// Executables that share `first`'s listing, until dropped.
pub struct Alike {
    exes: Vec<PathBuf>,
}

/// Names `exes`, builds of `first`'s code (its link layouts, the links a
/// comparison runs them through), with `first`'s listing until the
/// [`Alike`] is dropped.
pub fn alike(first: &Path, exes: &[PathBuf]) -> Alike {
    let (Some(key), Ok(mut named)) = (name_of(first), NAMED.lock()) else {
        return Alike { exes: Vec::new() };
    };
    for exe in exes {
        named.insert(exe.clone(), key.clone());
    }
    Alike {
        exes: exes.to_vec(),
    }
}

impl Drop for Alike {
    fn drop(&mut self) {
        if let Ok(mut named) = NAMED.lock() {
            for exe in &self.exes {
                named.remove(exe);
            }
        }
    }
}

/// The name of `exe`'s own listing: from its path, size and time of
/// writing (another build in its place is another listing).
fn name_of(exe: &Path) -> Option<String> {
    let meta = std::fs::metadata(exe).ok()?;
    let mut hash = DefaultHasher::new();
    (exe, meta.len(), meta.modified().ok()).hash(&mut hash);
    Some(format!("{:016x}", hash.finish()))
}

/// Removes the run's directory, if a process was given it.
pub fn remove() {
    if let Some(dir) = DIR.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Removes the directories in `tmp` of runs that ended without removing
/// theirs (interrupted, killed), where `procs` (`/proc`) tells which
/// processes live; where it does not exist, none is removed. A directory
/// written in the last day stays whatever its number: another container
/// sharing `/tmp` numbers its processes apart.
fn remove_abandoned(tmp: &Path, procs: &Path) {
    remove_abandoned_since(tmp, procs, std::time::Duration::from_secs(24 * 3600));
}

/// [`remove_abandoned`], of directories last written at least `age` ago.
fn remove_abandoned_since(tmp: &Path, procs: &Path, age: std::time::Duration) {
    let (true, Ok(entries)) = (procs.is_dir(), std::fs::read_dir(tmp)) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let pid = name
            .strip_prefix(PREFIX)
            .and_then(|p| p.parse::<u32>().ok());
        let old = (e.metadata().and_then(|m| m.modified()).ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|t| t >= age);
        if old && pid.is_some_and(|pid| !procs.join(pid.to_string()).exists()) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_ended_runs_directory_goes_and_a_live_ones_stays() {
        let root = std::env::temp_dir().join(format!("nbench-abandoned-{}", std::process::id()));
        let (tmp, procs) = (root.join("tmp"), root.join("proc"));
        for d in ["nbench-listings-11", "nbench-listings-12", "other-13"] {
            std::fs::create_dir_all(tmp.join(d)).unwrap();
        }
        std::fs::create_dir_all(procs.join("12")).unwrap();
        // Written in the last day: kept, its process alive or not.
        super::remove_abandoned(&tmp, &procs);
        assert!(tmp.join("nbench-listings-11").exists());
        super::remove_abandoned_since(&tmp, &procs, std::time::Duration::ZERO);
        assert!(!tmp.join("nbench-listings-11").exists());
        assert!(tmp.join("nbench-listings-12").exists());
        assert!(tmp.join("other-13").exists());
        // No `/proc` to tell: nothing goes.
        super::remove_abandoned_since(&tmp, &root.join("none"), std::time::Duration::ZERO);
        assert!(tmp.join("nbench-listings-12").exists());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
