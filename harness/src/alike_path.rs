//! One of the package's own binaries, run by a benchmark as its command
//! (gungraun's binary benchmarks), started from a path as long on both
//! sides of a comparison.
//!
//! A baseline's copy of such a binary lies at another path than the
//! working tree's build (`…/rev-target/nbench/build/r/4tcse/steps` against
//! `…/build/release/steps`), and what a process's start counts follows the
//! path it runs from: the map of its memory, which Rust's runtime reads as
//! it starts, names it. The same bytes counted 340 969 instructions a
//! start from the copy and 336 223 from the build. Where `cargo nbench`
//! gives the process a temporary folder of its own ([`OWN_TMP_ENV`]), such
//! a binary starts from a link in it, made once a process, at a path as
//! long on both sides.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The environment variable `cargo nbench` sets where this process's
/// temporary folder is its own, of one length on both sides, and removed
/// after it.
pub const OWN_TMP_ENV: &str = "NBENCH_OWN_TMP";

/// The programs looked at so far, each with what starts it: the first
/// look decides, as it runs in the timed routine (finding a program's
/// folder takes a few system calls a folder on `PATH`).
static STARTED_AS: Mutex<Vec<(OsString, OsString)>> = Mutex::new(Vec::new());

/// `program`, or where this process's temporary folder is its own and
/// `program` is named by a path outside every folder on `PATH` (a
/// package's binary: one on `PATH` is the same on both sides, and may
/// look for what lies beside it), a link to it (a copy, across file
/// systems) in that folder: the same one each time.
pub fn alike(program: OsString) -> OsString {
    // Read once: this runs inside the timed routine.
    static OWN_TMP: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let own = *OWN_TMP.get_or_init(|| std::env::var_os(OWN_TMP_ENV).is_some());
    let path = Path::new(&program);
    if !own || !path.is_absolute() {
        return program;
    }
    let mut started_as = STARTED_AS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, as_)) = started_as.iter().find(|(p, _)| *p == program) {
        return as_.clone();
    }
    let folder = format!(
        "nbench-bins-{:010}-{:04}",
        std::process::id(),
        started_as.len()
    );
    let linked = match in_path_folder(path) {
        true => None,
        false => link_in(path, &std::env::temp_dir().join(folder)),
    };
    let as_ = linked.map_or_else(|| program.clone(), PathBuf::into_os_string);
    started_as.push((program, as_.clone()));
    as_
}

/// `program` linked (or else copied) into `folder`, made for it, under
/// its own name.
fn link_in(program: &Path, folder: &Path) -> Option<PathBuf> {
    let to = folder.join(program.file_name()?);
    std::fs::create_dir_all(folder).ok()?;
    let made = std::fs::hard_link(program, &to).or_else(|_| std::fs::copy(program, &to).map(drop));
    made.ok().map(|()| to)
}

/// Whether `program` lies in a folder on `PATH` (or cannot be found).
fn in_path_folder(program: &Path) -> bool {
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    let Some(folder) = real(program).and_then(|p| Some(p.parent()?.to_path_buf())) else {
        return true;
    };
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|d| real(&d).is_some_and(|d| d == folder))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_off_path_is_linked_into_a_folder_and_one_on_path_is_not() {
        let dir = std::env::temp_dir().join(format!("nbench-alike-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let own = dir.join("steps");
        std::fs::write(&own, "a binary").unwrap();
        let folder = dir.join("linked");
        let to = link_in(&own, &folder).unwrap();
        assert_eq!(to, folder.join("steps"));
        assert_eq!(std::fs::read(&to).unwrap(), b"a binary");
        assert!(!in_path_folder(&own));
        assert!(in_path_folder(&dir.join("missing")));
        let sh = crate::command::on_path("sh".into());
        assert!(in_path_folder(Path::new(&sh)));
        // Without a temporary folder of its own (as `cargo bench` runs it),
        // every program as it is.
        assert!(std::env::var_os(OWN_TMP_ENV).is_none());
        assert_eq!(alike(own.clone().into()), own.into_os_string());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
