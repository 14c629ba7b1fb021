//! Where one `cargo nbench` run's bench processes keep what they listed
//! ([`LISTINGS_ENV`]): a front end that must run the whole program to list
//! its benchmarks (nbench-criterion) lists once per executable, not once
//! per process. The directory is this run's own, and removed as it ends.

use nbench::__private::protocol::LISTINGS_ENV;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

static DIR: OnceLock<PathBuf> = OnceLock::new();

/// Gives a bench process the run's directory.
pub fn share(cmd: &mut Command) {
    let dir = DIR.get_or_init(|| {
        std::env::temp_dir().join(format!("nbench-listings-{}", std::process::id()))
    });
    cmd.env(LISTINGS_ENV, dir);
}

/// Removes the run's directory, if a process was given it.
pub fn remove() {
    if let Some(dir) = DIR.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
}
