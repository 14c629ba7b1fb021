//! Named baselines: a run's results plus copies of the executables that produced them, saved atomically.

use super::bins::Keeper;
use super::{encode, write_atomic};
use crate::error::{Error, Result};
use crate::model::record::{RunRecord, SCHEMA_VERSION};
use crate::model::target::Built;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

/// The file beside a baseline's `results.json` whose time is when a
/// comparison last used it.
pub(super) const USED: &str = "used";

/// What `baselines/<name>/results.json` holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// [`SCHEMA_VERSION`] of the writer.
    pub schema: u32,
    /// The baseline's name.
    pub name: String,
    /// The results (merged over the runs that saved into it).
    pub run: RunRecord,
    /// `package/target` → executable file under `bin/`.
    pub executables: BTreeMap<String, String>,
    /// `package/target` → its link layouts' files under `bin/` (none for a
    /// baseline saved with one layout).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub layouts: BTreeMap<String, Vec<String>>,
    /// `package/target` → the package's folder it was built in, which its
    /// executables run in, as cargo runs a bench (a revision's: its kept
    /// checkout). Empty in a baseline older than this field.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dirs: BTreeMap<String, PathBuf>,
    /// `package/target` → the kept copies of package binaries its saved
    /// executables name (`store/bins.rs`); a target saved before this field
    /// has no entry, and its executables are read to tell which they name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kept_bins: BTreeMap<String, Vec<PathBuf>>,
}

impl Baseline {
    /// The kept copies of package binaries the saved executables of target
    /// `label` name (none for a target saved before they were listed).
    pub fn kept_of(&self, label: &str) -> Vec<PathBuf> {
        self.kept_bins.get(label).cloned().unwrap_or_default()
    }

    /// Every kept copy of a package binary its executables name.
    pub fn all_kept(self) -> Vec<PathBuf> {
        self.kept_bins.into_values().flatten().collect()
    }

    /// Whether a bench target of it was saved in one link layout (its
    /// layouts were not asked for, or could not be built).
    pub fn in_one_layout(&self) -> bool {
        (self.executables.keys()).any(|t| self.layouts.get(t).is_none_or(|l| l.len() < 2))
    }
}

/// The baselines directory of a store, and a lock on one baseline while it is written.
pub struct Baselines {
    dir: PathBuf,
}

/// Held while a baseline is being written: an exclusive lock of the
/// operating system on `.NAME.lock`, which ends with the process holding it
/// (a crashed or killed run never wedges a baseline). The file stays: removing
/// it would let a process that opened it just before take a lock no one else sees.
pub struct Lock {
    _file: std::fs::File,
}

impl Baselines {
    /// The `baselines/` directory under `store_root`.
    pub fn new(store_root: &Path) -> Baselines {
        Baselines {
            dir: store_root.join("baselines"),
        }
    }

    /// The `baselines/` directory.
    pub(super) fn dir(&self) -> &Path {
        &self.dir
    }

    fn results_path(&self, name: &str) -> PathBuf {
        self.dir.join(name).join("results.json")
    }

    /// The executable saved for `target` in baseline `b`, if it is still there.
    pub fn executable(&self, b: &Baseline, target: &str) -> Option<PathBuf> {
        let file = b.executables.get(target)?;
        let path = self.dir.join(&b.name).join("bin").join(file);
        path.is_file().then_some(path)
    }

    /// The executables a comparison with `target` of baseline `b` samples:
    /// its saved layouts, or its one executable; or why the comparison must
    /// use its stored samples instead (`stored_asked`: `--compare-stored`).
    pub fn executables_for(
        &self,
        b: &Baseline,
        target: &str,
        stored_asked: bool,
    ) -> std::result::Result<Vec<PathBuf>, String> {
        if stored_asked {
            return Err("asked for with --compare-stored".to_owned());
        }
        let bin = self.dir.join(&b.name).join("bin");
        let layouts: Vec<PathBuf> = b
            .layouts
            .get(target)
            .into_iter()
            .flatten()
            .map(|f| bin.join(f))
            .collect();
        if !layouts.is_empty() && layouts.iter().all(|p| p.is_file()) {
            return Ok(layouts);
        }
        match self.executable(b, target) {
            Some(exe) => Ok(vec![exe]),
            None => Err(format!(
                "baseline `{}` has no saved executable for this target",
                b.name
            )),
        }
    }

    /// The folder `target` of baseline `b` was built in, where it is still
    /// there: its executables run in it, so they read the files beside
    /// them that they were built with.
    pub fn dir_for(b: &Baseline, target: &str) -> Option<PathBuf> {
        b.dirs.get(target).filter(|d| d.is_dir()).cloned()
    }

    /// Loads a baseline; `Ok(None)` if there is none of that name.
    pub fn load(&self, name: &str) -> Result<Option<Baseline>> {
        let path = self.results_path(name);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io("could not read", &path, e)),
        };
        let b: Baseline = serde_json::from_slice(&bytes).map_err(|e| Error::Corrupt {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        if b.schema != SCHEMA_VERSION {
            return Err(Error::Corrupt {
                path,
                reason: format!(
                    "schema version {} (this cargo nbench reads {SCHEMA_VERSION})",
                    b.schema
                ),
            });
        }
        Ok(Some(b))
    }

    /// Whether baseline `name` exists, without reading it: an error where
    /// it does not, as [`Self::get`] says it.
    pub fn must_exist(&self, name: &str) -> Result<()> {
        if self.results_path(name).is_file() {
            Ok(())
        } else {
            Err(Error::NoBaseline(name.to_owned()))
        }
    }

    /// Loads baseline `name`, which must exist.
    pub fn get(&self, name: &str) -> Result<Baseline> {
        self.load(name)?
            .ok_or_else(|| Error::NoBaseline(name.to_owned()))
    }

    /// Loads baseline `name`, which must exist, for a comparison: it is
    /// marked used now (`baseline prune` goes by when it was last used).
    pub fn get_to_compare(&self, name: &str) -> Result<Baseline> {
        let b = self.get(name)?;
        let _ = std::fs::write(self.dir.join(name).join(USED), b"");
        Ok(b)
    }

    /// Takes baseline `name` for saving: its lock, held until the new one
    /// is saved, so a second run saving the same name is refused at once;
    /// and a baseline already there that cannot be read is reported now,
    /// before any work, not after it.
    pub fn claim(&self, name: &str) -> Result<Lock> {
        let lock = self.lock(name)?;
        self.load(name)?;
        Ok(lock)
    }

    /// Makes the baseline saved in another store's baselines folder at
    /// `made` (a revision's, built in a target directory of its own) this
    /// store's baseline `name`, in place of any there.
    pub fn adopt(&self, made: &Path, name: &str, _lock: &Lock) -> Result<()> {
        let dest = self.dir.join(name);
        let replaced = self.load(name).ok().flatten();
        let _ = std::fs::remove_dir_all(&dest);
        std::fs::rename(made, &dest)
            .map_err(|e| Error::io("could not move the baseline into", &dest, e))?;
        self.sweep(name, replaced.map(Baseline::all_kept).unwrap_or_default());
        Ok(())
    }

    /// Every baseline, by name; unreadable ones are reported as errors.
    pub fn list(&self) -> Result<Vec<Result<Baseline>>> {
        let mut names: Vec<String> = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries
                .filter_map(|e| e.ok())
                .filter(|e| e.path().is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| crate::model::names::validate_baseline_name(n).is_ok())
                .collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(Error::io("could not read", &self.dir, e)),
        };
        names.sort();
        Ok(names
            .iter()
            .filter_map(|n| match self.load(n) {
                Ok(Some(b)) => Some(Ok(b)),
                Ok(None) => None,
                Err(e) => Some(Err(e)),
            })
            .collect())
    }

    /// Takes the lock on baseline `name`, or says who holds it.
    pub fn lock(&self, name: &str) -> Result<Lock> {
        self.take_lock(name, false)
    }

    /// Takes the lock on baseline `name`, waiting for another run that
    /// holds it (one making the same revision's baseline) to finish.
    pub fn lock_waiting(&self, name: &str) -> Result<Lock> {
        self.take_lock(name, true)
    }

    fn take_lock(&self, name: &str, wait: bool) -> Result<Lock> {
        use std::io::{Read, Seek, Write};
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| Error::io("could not create", &self.dir, e))?;
        let path = self.dir.join(format!(".{name}.lock"));
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| Error::io("could not create", &path, e))?;
        let taken = match file.try_lock() {
            Err(std::fs::TryLockError::WouldBlock) if wait => {
                file.lock().map_err(std::fs::TryLockError::Error)
            }
            other => other,
        };
        match taken {
            Ok(()) => {
                // Who holds it, for the message another run gives.
                let _ = file.set_len(0);
                let _ = write!(file, "{}", std::process::id());
                Ok(Lock { _file: file })
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut pid = String::new();
                let _ = file.rewind().and_then(|()| file.read_to_string(&mut pid));
                Err(Error::InUse {
                    name: name.to_owned(),
                    pid: pid.trim().to_owned(),
                    lock: path,
                })
            }
            Err(std::fs::TryLockError::Error(e)) => Err(Error::io("could not lock", &path, e)),
        }
    }

    /// Saves `run` into baseline `name` with copies of `built`'s executables.
    /// Benchmarks already in the baseline but not in `run` are kept, and so
    /// is the executable of a target `run` measured nothing of. The
    /// executables are copied under new names first and `results.json` is
    /// replaced last, atomically, so an interruption leaves the previous
    /// baseline whole. Call with the lock held. Returns the package
    /// binaries the executables name that have no copy of their own
    /// ([`Keeper::uncopied`]): the baseline runs the next build's.
    pub fn save(
        &self,
        name: &str,
        run: &RunRecord,
        built: &[Built],
        _lock: &Lock,
    ) -> Result<Vec<PathBuf>> {
        let previous = self.load(name)?;
        let bin = self.dir.join(name).join("bin");
        std::fs::create_dir_all(&bin).map_err(|e| Error::io("could not create", &bin, e))?;
        let mut executables = previous
            .as_ref()
            .map(|b| b.executables.clone())
            .unwrap_or_default();
        let mut layouts = previous
            .as_ref()
            .map(|b| b.layouts.clone())
            .unwrap_or_default();
        let mut dirs = previous
            .as_ref()
            .map(|b| b.dirs.clone())
            .unwrap_or_default();
        let mut kept_bins = previous
            .as_ref()
            .map(|b| b.kept_bins.clone())
            .unwrap_or_default();
        // Copies the targets saved again named before: unused, unless another names them.
        let mut unnamed = Vec::new();
        let mut uncopied = Vec::new();
        // A target this run measured none of keeps the executable that made
        // its saved benchmarks (a build whose every benchmark failed does not
        // replace the one that worked).
        let replaces = |label: &str| {
            (run.targets.iter().find(|t| t.target == label))
                .is_some_and(|t| !t.benchmarks.is_empty() || !executables.contains_key(label))
        };
        let saving: Vec<&Built> = (built.iter())
            .filter(|b| replaces(&b.target.label()))
            .collect();
        for b in saving {
            let label = b.target.label();
            let mut keeper = Keeper::new(&b.bins);
            executables.insert(label.clone(), copy_in(&bin, &label, &b.exe, &mut keeper)?);
            dirs.insert(label.clone(), b.target.package_root.clone());
            let files = b
                .layouts
                .iter()
                .map(|exe| copy_in(&bin, &label, exe, &mut keeper))
                .collect::<Result<Vec<_>>>()?;
            let kept = keeper.kept();
            uncopied.extend(keeper.uncopied());
            let before = kept_bins.insert(label.clone(), kept.clone());
            unnamed.extend(before.into_iter().flatten().filter(|k| !kept.contains(k)));
            if files.is_empty() {
                layouts.remove(&label);
            } else {
                layouts.insert(label, files);
            }
        }
        let merged = match previous {
            Some(old) => merge(old.run, run),
            None => run.clone(),
        };
        let baseline = Baseline {
            schema: SCHEMA_VERSION,
            name: name.to_owned(),
            run: merged,
            executables,
            layouts,
            dirs,
            kept_bins,
        };
        let path = self.results_path(name);
        write_atomic(&path, &encode(&baseline, &path)?)?;
        self.sweep(name, unnamed);
        remove_unnamed(&bin, &baseline);
        uncopied.sort();
        uncopied.dedup();
        Ok(uncopied)
    }

    /// Deletes baseline `name`; false if there was none.
    pub fn delete(&self, name: &str, _lock: &Lock) -> Result<bool> {
        let dir = self.dir.join(name);
        if !dir.is_dir() {
            return Ok(false);
        }
        let deleted = self.load(name).ok().flatten();
        std::fs::remove_dir_all(&dir).map_err(|e| Error::io("could not remove", &dir, e))?;
        self.sweep(name, deleted.map(Baseline::all_kept).unwrap_or_default());
        Ok(true)
    }
}

/// Removes the executables in `bin` that `baseline` no longer names:
/// older saves'.
fn remove_unnamed(bin: &Path, baseline: &Baseline) {
    let Ok(entries) = std::fs::read_dir(bin) else {
        return;
    };
    for e in entries.flatten() {
        let f = e.file_name().to_string_lossy().into_owned();
        let layout = baseline.layouts.values().flatten().any(|v| *v == f);
        if !layout && !baseline.executables.values().any(|v| *v == f) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Copies `exe` into `bin`, naming kept copies of the package's binaries
/// it names ([`Keeper`]), under its [`saved_name`] (unless a
/// file of that name, the same bytes, is there already); returns the
/// file's name.
fn copy_in(bin: &Path, label: &str, exe: &Path, keeper: &mut Keeper) -> Result<String> {
    let mut bytes = std::fs::read(exe).map_err(|e| Error::io("could not read", exe, e))?;
    keeper.name_kept_copies(&mut bytes)?;
    let file = saved_name(label, exe, &bytes);
    let dest = bin.join(&file);
    if !dest.exists() {
        let tmp = bin.join(format!(".{file}.tmp"));
        let copied = std::fs::write(&tmp, &bytes)
            .and_then(|()| std::fs::metadata(exe))
            .and_then(|m| std::fs::set_permissions(&tmp, m.permissions()))
            .and_then(|()| std::fs::rename(&tmp, &dest));
        if let Err(e) = copied {
            // A full disk leaves no partial copy behind.
            let _ = std::fs::remove_file(&tmp);
            return Err(Error::io("could not write", &dest, e));
        }
    }
    Ok(file)
}

/// `package-target-<hash of the saved bytes>`: a new build never overwrites the file an older save refers to.
fn saved_name(label: &str, exe: &Path, bytes: &[u8]) -> String {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    let ext = exe
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    format!("{}-{:016x}{ext}", label.replace('/', "-"), h.finish())
}

/// `old` with every benchmark of `new` put in (replacing the same id of the same target).
fn merge(mut old: RunRecord, new: &RunRecord) -> RunRecord {
    for t in &new.targets {
        match old.targets.iter_mut().find(|o| o.target == t.target) {
            None => old.targets.push(t.clone()),
            Some(o) => {
                for b in &t.benchmarks {
                    o.benchmarks.retain(|x| x.id != b.id);
                    o.benchmarks.push(b.clone());
                }
                o.failures
                    .retain(|f| !t.benchmarks.iter().any(|b| b.id == f.id));
            }
        }
    }
    old.context = new.context.clone();
    old.duration_s = new.duration_s;
    old
}
