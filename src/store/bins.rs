//! A package's own binaries that a bench executable runs by the path cargo
//! gave it (`env!("CARGO_BIN_EXE_<name>")`, compiled into the executable).
//!
//! The next build writes a new binary to that path, so a baseline's saved
//! executable would run the new build's binary, and a comparison would
//! read the same program on both sides. A baseline keeps a copy of each
//! binary its executables name, content-addressed at a path of the same
//! length beside the build's (`<dir>/release/work` → `<dir>/r/1x9ak/work`),
//! and its saved executables name the copy instead.

use crate::error::{Error, Result};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

/// A built target's package binaries, each copied and its replacement
/// worked out once, however many of the target's executables name it.
pub struct Keeper<'a> {
    /// The binaries, the longest path first: `work2`'s path is `work`'s and more.
    bins: Vec<&'a PathBuf>,
    /// Each binary's replacement, once worked out: its kept copy's path
    /// and the [`longer_names`] beside it (`None`: it has no room for one).
    kept: Vec<Option<Option<Replacement>>>,
}

struct Replacement {
    /// The kept copy.
    path: PathBuf,
    to: Vec<u8>,
    longer: Vec<Vec<u8>>,
}

impl<'a> Keeper<'a> {
    pub fn new(bins: &'a [PathBuf]) -> Keeper<'a> {
        let mut bins: Vec<&PathBuf> = bins.iter().collect();
        bins.sort_by_key(|b| std::cmp::Reverse(b.as_os_str().len()));
        let kept = bins.iter().map(|_| None).collect();
        Keeper { bins, kept }
    }

    /// `exe` (an executable's bytes) with each binary it names made to
    /// name a kept copy of it instead. A binary whose path leaves no room
    /// for a copy's (a profile folder under 3 characters) is left as it
    /// is, and so is every executable on Apple's systems, where changing a
    /// signed executable's bytes stops it from running.
    pub fn name_kept_copies(&mut self, exe: &mut [u8]) -> Result<()> {
        if cfg!(target_vendor = "apple") {
            return Ok(());
        }
        for (bin, kept) in self.bins.iter().zip(&mut self.kept) {
            let Some(from) = bin.to_str().map(str::as_bytes) else {
                continue;
            };
            let finder = memchr::memmem::Finder::new(from);
            if finder.find(exe).is_none() {
                continue;
            }
            if kept.is_none() {
                *kept = Some(replacement(bin)?);
            }
            if let Some(Some(r)) = kept {
                replace_all(exe, &finder, &r.to, &r.longer);
            }
        }
        Ok(())
    }

    /// The kept copies the executables given so far name.
    pub fn kept(&self) -> Vec<PathBuf> {
        let kept = self.kept.iter().flatten().flatten();
        kept.map(|r| r.path.clone()).collect()
    }
}

/// `bin` copied to its kept path, and what names the copy in its place.
fn replacement(bin: &Path) -> Result<Option<Replacement>> {
    let bytes = std::fs::read(bin).map_err(|e| Error::io("could not read", bin, e))?;
    let Some(kept) = kept_path(bin, hash(&bytes)) else {
        return Ok(None);
    };
    if !kept.exists() {
        write_copy(bin, &kept)?;
    }
    Ok(kept.to_str().map(|to| Replacement {
        to: to.as_bytes().to_vec(),
        longer: longer_names(bin),
        path: kept.clone(),
    }))
}

/// What follows `bin`'s name in the names of the other files and folders
/// beside it (`uild` for a binary `b` beside `build/`): a path of theirs
/// starts with `bin`'s and is not to be changed.
fn longer_names(bin: &Path) -> Vec<Vec<u8>> {
    let (Some(name), Some(dir)) = (bin.file_name(), bin.parent()) else {
        return Vec::new();
    };
    let name = name.as_encoded_bytes();
    let entries = std::fs::read_dir(dir).into_iter().flatten().flatten();
    entries
        .filter_map(|e| {
            let other = e.file_name().as_encoded_bytes().to_vec();
            let rest = other.strip_prefix(name)?;
            (!rest.is_empty()).then(|| rest.to_vec())
        })
        .collect()
}

/// Where a copy of `bin` (`<dir>/<profile>/<name>`) whose bytes hash to
/// `hash` is kept: `<dir>/r/<key>/<name>`, the key as long as the profile
/// folder's name less two, so the path is as long as `bin`'s.
fn kept_path(bin: &Path, hash: u64) -> Option<PathBuf> {
    let name = bin.file_name()?;
    let profile = bin.parent()?;
    let dir = profile.parent()?;
    let width = profile.file_name()?.to_str()?.len().checked_sub(2)?;
    if width == 0 {
        return None;
    }
    let key: String = (0..width)
        .scan(hash, |h, _| {
            let digit = char::from_digit((*h % 36) as u32, 36);
            *h /= 36;
            digit
        })
        .collect();
    Some(dir.join("r").join(key).join(name))
}

fn write_copy(bin: &Path, kept: &Path) -> Result<()> {
    let folder = kept.parent().unwrap_or(kept);
    std::fs::create_dir_all(folder).map_err(|e| Error::io("could not create", folder, e))?;
    let tmp = folder.join(format!(".{}.tmp", std::process::id()));
    let copied = std::fs::copy(bin, &tmp).and_then(|_| std::fs::rename(&tmp, kept));
    copied.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io("could not write", kept, e)
    })
}

fn hash(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// Each of `finder`'s needle in `bytes` overwritten by `to`, of the same
/// length, except where the bytes after it go on as one of `longer`.
fn replace_all(
    bytes: &mut [u8],
    finder: &memchr::memmem::Finder<'_>,
    to: &[u8],
    longer: &[Vec<u8>],
) {
    let from = finder.needle();
    if from.len() != to.len() || from.is_empty() {
        return;
    }
    let mut at = 0;
    while let Some(i) = finder.find(&bytes[at..]) {
        let (start, end) = (at + i, at + i + to.len());
        if !longer.iter().any(|rest| bytes[end..].starts_with(rest)) {
            bytes[start..end].copy_from_slice(to);
        }
        at = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_copy_s_path_is_as_long_as_the_binary_s_and_follows_its_bytes() {
        let bin = Path::new("/w/target/nbench/build/release/work");
        let kept = kept_path(bin, 12345).unwrap();
        assert_eq!(kept.as_os_str().len(), bin.as_os_str().len());
        assert!(kept.starts_with("/w/target/nbench/build/r/"), "{kept:?}");
        assert!(kept.ends_with("work"));
        assert_ne!(kept_path(bin, 12346), Some(kept.clone()));
        let debug = Path::new("/w/target/debug/x");
        assert_eq!(
            kept_path(debug, 7).unwrap().as_os_str().len(),
            debug.as_os_str().len()
        );
        let long = Path::new("/w/target/a-long-custom-profile/x");
        assert_eq!(
            kept_path(long, 7).unwrap().as_os_str().len(),
            long.as_os_str().len()
        );
        // No room in a profile folder of two characters.
        assert_eq!(kept_path(Path::new("/w/target/ci/x"), 7), None);
    }

    #[test]
    fn every_mention_of_the_path_is_replaced_and_nothing_else() {
        let finder = |s: &'static str| memchr::memmem::Finder::new(s);
        let mut bytes = b"..abc..xabcx..abc".to_vec();
        replace_all(&mut bytes, &finder("abc"), b"XYZ", &[]);
        assert_eq!(bytes, b"..XYZ..xXYZx..XYZ");
        replace_all(&mut bytes, &finder("XYZ"), b"toolong", &[]);
        assert_eq!(bytes, b"..XYZ..xXYZx..XYZ");
        // `/t/release/b` inside `/t/release/build/…` is another path.
        let mut bytes = b"/t/release/b /t/release/build/out".to_vec();
        replace_all(
            &mut bytes,
            &finder("/t/release/b"),
            b"/t/r/xyzab/b",
            &[b"uild".to_vec()],
        );
        assert_eq!(bytes, b"/t/r/xyzab/b /t/release/build/out");
    }

    #[cfg(not(target_vendor = "apple"))]
    #[test]
    fn an_executable_naming_a_binary_names_its_kept_copy_which_holds_its_bytes() {
        let dir = std::env::temp_dir().join(format!("nbench-bins-{}", std::process::id()));
        let bin = dir.join("release").join("work");
        std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
        std::fs::write(&bin, b"first build").unwrap();
        std::fs::create_dir_all(dir.join("release").join("workspace")).unwrap();
        let path = bin.to_str().unwrap().as_bytes().to_vec();
        let beside = [&path[..], b"space/out"].concat();
        let mut exe = [&b"head "[..], &path, b" tail", &beside].concat();
        let bins = [bin.clone()];
        Keeper::new(&bins).name_kept_copies(&mut exe).unwrap();
        assert!(exe.ends_with(&beside), "a folder beside it keeps its path");
        let named = String::from_utf8(exe[5..5 + path.len()].to_vec()).unwrap();
        assert_ne!(named.as_bytes(), path.as_slice());
        assert_eq!(std::fs::read(&named).unwrap(), b"first build");
        // The next build's binary leaves the copy as it was.
        std::fs::write(&bin, b"second build").unwrap();
        assert_eq!(std::fs::read(&named).unwrap(), b"first build");
        // An executable that names no binary is untouched.
        let mut other = b"no path here".to_vec();
        Keeper::new(&bins).name_kept_copies(&mut other).unwrap();
        assert_eq!(other, b"no path here");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
