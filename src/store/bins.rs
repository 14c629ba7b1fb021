//! A package's own binaries that a bench executable runs by the path cargo
//! gave it (`env!("CARGO_BIN_EXE_<name>")`, compiled into the executable).
//!
//! The next build writes a new binary to that path, so a baseline's saved
//! executable would run the new build's binary, and a comparison would
//! read the same program on both sides. A baseline keeps a copy of each
//! binary its executables name, content-addressed at a path of the same
//! length beside the build's (`<dir>/release/work` → `<dir>/r/1x9ase/work`),
//! and its saved executables name the copy instead.
//!
//! The copy's path ends in the same [`SAME_END`] bytes as the binary's. An
//! optimised build copies a constant path by 16-byte loads from the string
//! (which the copy's path overwrites) and, where its length is 3 to 8 past
//! a multiple of 16, its last 4 or 8 bytes as a constant inside the code,
//! which no search for the path finds: rustc 1.95, paths of 20 to 130
//! bytes, at opt-level 3 (also for the CPU itself, with AVX-512, where it
//! is 5 to 8 past a multiple of 32), 1, `s` and `z`, never more than 8. A test's `steps` at 87 bytes,
//! `…/build/release/steps`, ran as `…/build/r/v5xse/steps`, which does
//! not exist, and the baseline failed its benchmark.

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

    /// The binaries the executables given so far name and have no copy
    /// of: their path leaves no room for one ([`kept_path`]).
    pub fn uncopied(&self) -> Vec<PathBuf> {
        (self.bins.iter().zip(&self.kept))
            .filter(|(_, kept)| matches!(kept, Some(None)))
            .map(|(bin, _)| bin.to_path_buf())
            .collect()
    }
}

/// How many bytes at the end of a kept copy's path are the binary's.
const SAME_END: usize = 8;

/// `bin` copied to its kept path, and what names the copy in its place.
/// A path another binary's copy holds (the key is a few characters) is
/// passed over for the next key.
fn replacement(bin: &Path) -> Result<Option<Replacement>> {
    let bytes = std::fs::read(bin).map_err(|e| Error::io("could not read", bin, e))?;
    let first = hash(&bytes);
    for probe in 0..PROBES {
        let Some(kept) = kept_path(bin, first.wrapping_add(probe)) else {
            return Ok(None);
        };
        // Another binary's copy is passed over by its length where it can
        // be: read whole only where it is as long as this one.
        match std::fs::metadata(&kept).map(|m| m.len()) {
            Err(_) => write_copy(bin, &kept)?,
            Ok(len) if len != bytes.len() as u64 => continue,
            Ok(_) if std::fs::read(&kept).is_ok_and(|theirs| theirs == bytes) => {}
            Ok(_) => continue,
        }
        return Ok(kept.to_str().map(|to| Replacement {
            to: to.as_bytes().to_vec(),
            longer: longer_names(bin),
            path: kept.clone(),
        }));
    }
    Ok(None)
}

/// How many keys [`replacement`] tries.
const PROBES: u64 = 64;

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
/// `hash` is kept: `<dir>/r/<key><end>/<name>`, as long as `bin`'s path,
/// `<end>` the profile folder's last characters where `/<name>` is under
/// [`SAME_END`] bytes (`se` of `release` before `/steps`), and the key the
/// characters left, at least one. A name too short for `r/` (`fd`) has
/// its copy in a hidden folder beside the profile's, `<dir>/.<key><end>`
/// (`.klease/fd`); one shorter still (`x`), none.
fn kept_path(bin: &Path, hash: u64) -> Option<PathBuf> {
    let name = bin.file_name()?;
    let profile = bin.parent()?;
    let dir = profile.parent()?;
    let profile = profile.file_name()?.to_str()?;
    let end = SAME_END.saturating_sub(1 + name.len());
    let end = profile.get(profile.len().checked_sub(end)?..)?;
    let room = |taken: usize| {
        profile
            .len()
            .checked_sub(taken + end.len())
            .filter(|w| *w > 0)
    };
    let (group, width) = match room(2) {
        Some(width) => ("r/", width),
        None => (".", room(1)?),
    };
    let key: String = (0..width)
        .scan(hash, |h, _| {
            let digit = char::from_digit((*h % 36) as u32, 36);
            *h /= 36;
            digit
        })
        .collect();
    Some(dir.join(format!("{group}{key}{end}")).join(name))
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
    fn a_kept_copy_s_path_is_as_long_as_the_binary_s_ends_alike_and_follows_its_bytes() {
        let same = |bin: &Path, kept: &Path| {
            let (b, k) = (
                bin.as_os_str().as_encoded_bytes(),
                kept.as_os_str().as_encoded_bytes(),
            );
            b.len() == k.len() && b[b.len() - SAME_END..] == k[k.len() - SAME_END..]
        };
        let bin = Path::new("/w/target/nbench/build/release/work");
        let kept = kept_path(bin, 12345).unwrap();
        assert!(same(bin, &kept), "{kept:?}");
        assert!(kept.starts_with("/w/target/nbench/build/r/"), "{kept:?}");
        assert!(kept.to_str().unwrap().ends_with("ase/work"), "{kept:?}");
        assert_ne!(kept_path(bin, 12346), Some(kept.clone()));
        for bin in [
            "/w/target/debug/toolbox",
            "/w/target/a-long-custom-profile/x",
        ] {
            let bin = Path::new(bin);
            let kept = kept_path(bin, 7).unwrap();
            assert!(same(bin, &kept), "{kept:?}");
        }
        // A name too short for `r/` beside the profile's end: a hidden
        // folder; shorter still, or a profile folder of one character, none.
        let short = Path::new("/w/target/release/fd");
        let kept = kept_path(short, 7).unwrap();
        assert!(same(short, &kept), "{kept:?}");
        assert!(kept.starts_with("/w/target/"), "{kept:?}");
        assert!(kept.to_str().unwrap().ends_with("lease/fd"), "{kept:?}");
        assert!(kept.parent().unwrap().to_str().unwrap().contains("/."));
        assert_eq!(kept_path(Path::new("/w/target/release/x"), 7), None);
        assert_eq!(kept_path(Path::new("/w/target/c/tool"), 7), None);
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
        // Its copy goes past a path another binary's copy holds.
        let taken = kept_path(&bin, hash(b"second build")).unwrap();
        std::fs::create_dir_all(taken.parent().unwrap()).unwrap();
        std::fs::write(&taken, b"another binary").unwrap();
        let mut exe = [&b"head "[..], &path].concat();
        Keeper::new(&bins).name_kept_copies(&mut exe).unwrap();
        let second = Path::new(std::str::from_utf8(&exe[5..]).unwrap());
        assert_ne!(second, taken);
        assert_eq!(std::fs::read(second).unwrap(), b"second build");
        assert_eq!(std::fs::read(&taken).unwrap(), b"another binary");
        // A binary whose name leaves no room has no copy, and is said.
        let short = dir.join("release").join("x");
        std::fs::write(&short, b"tool").unwrap();
        let bins = [short.clone()];
        let mut keeper = Keeper::new(&bins);
        let mut exe = [&b"head "[..], short.to_str().unwrap().as_bytes()].concat();
        let before = exe.clone();
        keeper.name_kept_copies(&mut exe).unwrap();
        assert_eq!(exe, before);
        assert_eq!(keeper.uncopied(), [short]);
        assert!(keeper.kept().is_empty());
        // An executable that names no binary is untouched.
        let mut other = b"no path here".to_vec();
        Keeper::new(&bins).name_kept_copies(&mut other).unwrap();
        assert_eq!(other, b"no path here");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
