//! Writing files so that a reader never sees half of one and two writers
//! never replace each other's: a whole file is written aside, then moved into place.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

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
pub(super) fn write_new(bytes: &[u8], name: impl Fn(u32) -> PathBuf) -> Result<PathBuf> {
    let first = name(0);
    let tmp = temp_beside(&first);
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
            "could not find a free name beside",
            &first,
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

/// `value` as pretty JSON, checked to read back as `T` before anything is
/// written: the store never writes a file it could not load again.
pub fn encode<T: serde::Serialize + serde::de::DeserializeOwned>(
    value: &T,
    path: &Path,
) -> Result<Vec<u8>> {
    let unreadable = |reason: String| Error::Unreadable {
        path: path.to_path_buf(),
        reason,
    };
    let json = serde_json::to_vec_pretty(value).map_err(|e| unreadable(e.to_string()))?;
    serde_json::from_slice::<T>(&json).map_err(|e| unreadable(e.to_string()))?;
    Ok(json)
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
    fn writers_racing_for_one_name_each_keep_a_file_of_their_own() {
        let dir = std::env::temp_dir().join(format!("nbench-race-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dir = dir.as_path();
        let name = move |i: u32| dir.join(format!("{i}.json"));
        let paths: Vec<PathBuf> = std::thread::scope(|s| {
            let writers: Vec<_> = (0..8u8)
                .map(|w| s.spawn(move || write_new(&[b'0' + w], name).unwrap()))
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
    fn what_would_not_read_back_is_refused_before_writing() {
        #[derive(serde::Serialize, serde::Deserialize)]
        struct Strict {
            x: f64,
        }
        let path = Path::new("never-written.json");
        // NaN is written as null, which a plain f64 does not read back.
        let e = encode(&Strict { x: f64::NAN }, path)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("never-written.json") && e.contains("would not read back"),
            "{e}"
        );
        assert!(encode(&Strict { x: 1.5 }, path).is_ok());
        assert!(!path.exists());
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
