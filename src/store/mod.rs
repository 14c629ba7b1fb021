//! `target/nbench/`: every run stored as JSON, written atomically, the last 50 kept; baselines beside them.

pub mod baselines;
mod bins;
pub mod history;
mod prune;
mod sweep;
mod write;

use crate::error::{Error, Result};
use crate::model::record::RunRecord;
use crate::model::target::Built;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use write::write_new;
pub use write::{append, encode, write_atomic};

/// What [`Store::keep`] stored.
#[derive(Debug, Default)]
pub struct Kept {
    /// The run's file; `None` when nothing was measured or it could not be written.
    pub run: Option<PathBuf>,
    /// The baseline saved, by name.
    pub baseline: Option<String>,
    /// Package binaries the baseline's executables run that it could keep
    /// no copy of ([`baselines::Baselines::save`]).
    pub uncopied: Vec<PathBuf>,
    /// What could not be written: the run, or else the baseline.
    pub error: Option<Error>,
}

impl Kept {
    fn failed(e: Error) -> Kept {
        Kept {
            error: Some(e),
            ..Kept::default()
        }
    }
}

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

    /// `target/nbench` itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The named baselines.
    pub fn baselines(&self) -> baselines::Baselines {
        baselines::Baselines::new(&self.root)
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
        let json = encode(run, &dir)?;
        // Two runs may finish in the same millisecond (two `cargo nbench` in
        // one target directory): each claims a name no one holds yet, so
        // neither overwrites the other.
        let path = write_new(&json, |attempt| {
            dir.join(format!("{}.json", file_stamp(ms + attempt as u128)))
        })?;
        self.prune_runs()?;
        Ok(path)
    }

    /// Stores `record` as a run and, with `baseline` (its name, the lock
    /// from [`baselines::Baselines::claim`] and the executables), as that
    /// baseline too, once the run is stored. A record that measured nothing
    /// (every benchmark skipped or ignored) is not kept as a run: it would
    /// push a real run out of the kept history.
    pub fn keep(
        &self,
        record: &RunRecord,
        baseline: Option<(&str, &baselines::Lock, &[Built])>,
    ) -> Kept {
        let counts = record.counts();
        let run = if counts.measured + counts.failed == 0 {
            None
        } else {
            match self.save_run(record) {
                Ok(path) => Some(path),
                Err(e) => return Kept::failed(e),
            }
        };
        let saved = baseline.map(|(name, lock, targets)| {
            self.baselines()
                .save(name, record, targets, lock)
                .map(|uncopied| (name.to_owned(), uncopied))
        });
        match saved.transpose() {
            Ok(saved) => {
                let (baseline, uncopied) = saved.unzip();
                Kept {
                    run,
                    baseline,
                    uncopied: uncopied.unwrap_or_default(),
                    error: None,
                }
            }
            Err(e) => Kept {
                run,
                baseline: None,
                error: Some(e),
                ..Kept::default()
            },
        }
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

    /// The newest stored run that can be read.
    pub fn newest_run(&self) -> Result<RunRecord> {
        let files = self.run_files()?;
        let read = |f: &PathBuf| -> std::result::Result<RunRecord, String> {
            let bytes = std::fs::read(f).map_err(|e| e.to_string())?;
            serde_json::from_slice(&bytes).map_err(|e| e.to_string())
        };
        let mut newest_failure = None;
        for f in files.iter().rev() {
            match read(f) {
                Ok(run) => return Ok(run),
                Err(why) => newest_failure = newest_failure.or(Some((f, why))),
            }
        }
        Err(match newest_failure {
            Some((newest, why)) => Error::RunsUnreadable {
                dir: self.runs_dir(),
                newest: newest
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                why,
            },
            None => Error::NoRuns(self.runs_dir()),
        })
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
    let base = crate::model::context::rfc3339(t).replace(':', "-");
    format!("{}.{:03}Z", base.trim_end_matches('Z'), ms % 1000)
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
}
