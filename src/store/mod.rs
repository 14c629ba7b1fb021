//! `target/nbench/`: every run stored as JSON, written atomically, the last 50 kept; baselines beside them.

pub mod baseline;

use crate::error::{Error, Result};
use crate::report::record::RunRecord;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// How many stored runs are kept.
pub const KEEP_RUNS: usize = 50;

/// The `target/nbench` directory of a workspace.
pub struct Store {
    root: PathBuf,
}

impl Store {
    /// The store under cargo's target directory.
    pub fn new(target_dir: &Path) -> Store {
        Store {
            root: target_dir.join("nbench"),
        }
    }

    /// The named baselines.
    pub fn baselines(&self) -> baseline::Baselines {
        baseline::Baselines::new(&self.root)
    }

    /// Where runs go.
    pub fn runs_dir(&self) -> PathBuf {
        self.root.join("runs")
    }

    /// Stores `run` as `runs/<timestamp>.json` and prunes old runs; returns the file.
    pub fn save_run(&self, run: &RunRecord) -> Result<PathBuf> {
        let dir = self.runs_dir();
        std::fs::create_dir_all(&dir).map_err(|e| Error::io("could not create", &dir, e))?;
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        let json = serde_json::to_vec_pretty(run).expect("run records serialise");
        // Two runs may finish in the same millisecond (two `cargo nbench` in
        // one target directory): each claims a name no one holds yet, so
        // neither overwrites the other.
        let path = write_new(&dir, &json, |attempt| {
            dir.join(format!("{}.json", file_stamp(ms + attempt as u128)))
        })?;
        self.prune_runs()?;
        Ok(path)
    }

    /// Where the HTML report goes.
    pub fn report_path(&self) -> PathBuf {
        self.root.join("report").join("index.html")
    }

    /// The stored runs' files, oldest first (none when nothing was stored yet).
    pub fn run_files(&self) -> Result<Vec<PathBuf>> {
        let dir = self.runs_dir();
        let entries = match std::fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io("could not read", &dir, e)),
        };
        let mut runs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        runs.sort();
        Ok(runs)
    }

    fn prune_runs(&self) -> Result<()> {
        let runs = self.run_files()?;
        let excess = runs.len().saturating_sub(KEEP_RUNS);
        for old in &runs[..excess] {
            match std::fs::remove_file(old) {
                // Another run pruning at the same time got there first.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                r => r.map_err(|e| Error::io("could not remove", old, e))?,
            }
        }
        Ok(())
    }
}

/// `2026-11-22T12-55-06.123Z`: sorts by time, valid on every file system.
fn file_stamp(ms: u128) -> String {
    let t = UNIX_EPOCH + std::time::Duration::from_millis(ms as u64);
    let base = crate::context::rfc3339(t).replace(':', "-");
    format!("{}.{:03}Z", base.trim_end_matches('Z'), ms % 1000)
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, then renames
/// it over `path`: readers see the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = temp_beside(path);
    let write = || -> std::io::Result<()> {
        write_synced(&tmp, bytes)?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io("could not write", path, e)
    })
}

/// Writes `bytes` whole under the first of `name(0)`, `name(1)`, … that does
/// not exist yet, and returns it. The complete file is hard-linked into place,
/// which fails rather than replaces when the name is taken, so concurrent
/// writers never overwrite each other and readers never see half a file.
fn write_new(dir: &Path, bytes: &[u8], name: impl Fn(u32) -> PathBuf) -> Result<PathBuf> {
    let tmp = temp_beside(&name(0));
    let result = (|| {
        write_synced(&tmp, bytes).map_err(|e| Error::io("could not write", &tmp, e))?;
        for attempt in 0..10_000 {
            let path = name(attempt);
            match std::fs::hard_link(&tmp, &path) {
                Ok(()) => return Ok(path),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                // A file system without hard links: reserve the name, then
                // rename the complete file over the (empty) reservation.
                Err(_) => match std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&path)
                {
                    Ok(_) => {
                        return std::fs::rename(&tmp, &path)
                            .map(|()| path.clone())
                            .map_err(|e| Error::io("could not write", &path, e));
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                    Err(e) => return Err(Error::io("could not write", &path, e)),
                },
            }
        }
        Err(Error::io(
            "could not find a free name in",
            dir,
            std::io::Error::from(std::io::ErrorKind::AlreadyExists),
        ))
    })();
    let _ = std::fs::remove_file(&tmp);
    result
}

/// A temporary name beside `path`, unique to this process and call.
fn temp_beside(path: &Path) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = std::fs::File::create(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// Appends `bytes` to `path`, creating it if needed (a Markdown summary
/// joins what earlier steps wrote to `$GITHUB_STEP_SUMMARY`).
pub fn append(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| Error::io("could not write", path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_sort_by_time() {
        let a = file_stamp(1_795_350_906_005);
        let b = file_stamp(1_795_350_906_010);
        assert_eq!(a, "2026-11-22T12-35-06.005Z");
        assert!(a < b);
    }

    #[test]
    fn only_the_newest_runs_are_kept() {
        let dir = std::env::temp_dir().join(format!("nbench-prune-{}", std::process::id()));
        let store = Store::new(&dir);
        std::fs::create_dir_all(store.runs_dir()).unwrap();
        for ms in 0..(KEEP_RUNS as u128 + 3) {
            std::fs::write(
                store.runs_dir().join(format!("{}.json", file_stamp(ms))),
                "{}",
            )
            .unwrap();
        }
        store.prune_runs().unwrap();
        let mut left: Vec<String> = std::fs::read_dir(store.runs_dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left.len(), KEEP_RUNS);
        assert_eq!(
            left[0],
            format!("{}.json", file_stamp(3)),
            "the three oldest went"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn runs_saved_in_the_same_millisecond_keep_their_own_files() {
        let dir = std::env::temp_dir().join(format!("nbench-race-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dir = dir.as_path();
        let name = move |i: u32| dir.join(format!("{i}.json"));
        let paths: Vec<PathBuf> = std::thread::scope(|s| {
            let writers: Vec<_> = (0..8u8)
                .map(|w| s.spawn(move || write_new(dir, &[b'0' + w], name).unwrap()))
                .collect();
            writers.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut contents: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
        contents.sort();
        let expected: Vec<Vec<u8>> = (0..8u8).map(|w| vec![b'0' + w]).collect();
        assert_eq!(
            contents, expected,
            "every writer's bytes under a name of its own"
        );
        assert_eq!(
            std::fs::read_dir(dir).unwrap().count(),
            8,
            "no temp files left"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn atomic_write_replaces_whole_files() {
        let dir = std::env::temp_dir().join(format!("nbench-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("x.json");
        write_atomic(&p, b"old").unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temp files left"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
