//! A temporary folder for each side of a paired comparison. Both processes
//! of an epoch draw the same random bytes (`Session::start_placed`), so
//! the files they name from them (a UUID, a `tempfile` name) would meet in
//! one folder while both run.

use super::paired::Side;
use std::path::{Path, PathBuf};

/// The two sides' folders, under the system's temporary folder, their
/// paths of one length, so the environment takes the same room on both
/// sides; removed with what they hold when dropped. Neither where one
/// could not be made.
pub struct SideTemps {
    dirs: Option<[PathBuf; 2]>,
}

impl SideTemps {
    /// Makes both folders, named for this process and a number of its own.
    pub fn new() -> SideTemps {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let name = |side: char| format!("nbench-sides-{}-{n:06}-{side}", std::process::id());
        let dirs = [name('b'), name('c')].map(|n| std::env::temp_dir().join(n));
        let made = dirs
            .iter()
            .filter(|d| std::fs::create_dir(d).is_ok())
            .count();
        let temps = SideTemps { dirs: Some(dirs) };
        match made {
            2 => temps,
            _ => SideTemps { dirs: None },
        }
    }

    /// `side`'s folder, where both were made.
    pub fn of(&self, side: Side) -> Option<&Path> {
        let [base, cur] = self.dirs.as_ref()?;
        Some(match side {
            Side::Baseline => base,
            Side::Current => cur,
        })
    }
}

impl Drop for SideTemps {
    fn drop(&mut self) {
        for dir in self.dirs.iter().flatten() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_has_a_folder_of_its_own_as_long_as_the_others_until_dropped() {
        let temps = SideTemps::new();
        let (base, cur) = (temps.of(Side::Baseline), temps.of(Side::Current));
        let (base, cur) = (base.unwrap().to_owned(), cur.unwrap().to_owned());
        assert_ne!(base, cur);
        assert_eq!(base.as_os_str().len(), cur.as_os_str().len());
        assert!(base.is_dir() && cur.is_dir());
        std::fs::write(base.join("left"), "x").unwrap();
        let other = SideTemps::new();
        assert_ne!(other.of(Side::Baseline), Some(base.as_path()));
        drop(temps);
        assert!(!base.exists() && !cur.exists());
    }
}
