//! Executables read from disk afresh, so that both sides of a comparison
//! come to be in memory the same way.
//!
//! How a file's pages came into the page cache outlives the write: the
//! same bytes, copied into a baseline's folder, ran clap's `startup`
//! benchmarks 2–5 % faster than as the linker had written them, in every
//! epoch, until the cache was dropped. On Linux 6.18 (ext4) a file
//! written with `write` is cached in large folios (412 of a 1.7 MB
//! executable's 413 pages, `/proc/kpageflags`), one read back by a
//! process's page faults in single 4 KiB pages (code over fewer, larger
//! pages likely costs fewer address translations). A baseline is always a
//! copy and the current side never is, so a comparison of one build with
//! itself read "regressed" on 6 of 31 rows. Dropping both sides' cached
//! pages before they run makes each read back by the same path, the
//! first process's page faults. The package binaries a benchmark runs as
//! its command too: the fixture's `steps` started 0.4–0.8 % slower as
//! linked than as copied.

use std::path::PathBuf;

/// Drops the page cache of each of `exes` (written to disk first), so the
/// next process to run one reads it afresh. Where the system cannot, the
/// file stays as it is cached: nothing fails for it.
pub fn read_afresh(exes: &[PathBuf]) {
    for exe in exes {
        let _ = drop_cached(exe);
    }
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn drop_cached(exe: &std::path::Path) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    unsafe extern "C" {
        fn posix_fadvise(fd: i32, offset: i64, len: i64, advice: i32) -> i32;
    }
    const POSIX_FADV_DONTNEED: i32 = 4;
    let file = std::fs::File::open(exe)?;
    // Pages not yet written to disk are kept whatever the advice.
    file.sync_data()?;
    // SAFETY: advice on an open descriptor of our own, over the whole file.
    match unsafe { posix_fadvise(file.as_raw_fd(), 0, 0, POSIX_FADV_DONTNEED) } {
        0 => Ok(()),
        errno => Err(std::io::Error::from_raw_os_error(errno)),
    }
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn drop_cached(_exe: &std::path::Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(all(test, target_os = "linux", target_pointer_width = "64"))]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    unsafe extern "C" {
        fn mmap(addr: *mut u8, len: usize, prot: i32, flags: i32, fd: i32, off: i64) -> *mut u8;
        fn munmap(addr: *mut u8, len: usize) -> i32;
        fn mincore(addr: *mut u8, len: usize, vec: *mut u8) -> i32;
    }

    /// How many of the file's 4 KiB pages are in the page cache.
    fn resident(path: &std::path::Path, len: usize) -> usize {
        const PROT_READ: i32 = 1;
        const MAP_SHARED: i32 = 1;
        let file = std::fs::File::open(path).unwrap();
        let pages = len.div_ceil(4096);
        let mut vec = vec![0u8; pages];
        // SAFETY: a read-only shared mapping of a file we hold open, asked
        // which pages are resident (which touches none) and unmapped.
        unsafe {
            let at = mmap(
                std::ptr::null_mut(),
                len,
                PROT_READ,
                MAP_SHARED,
                file.as_raw_fd(),
                0,
            );
            assert!(!at.is_null() && at as isize != -1, "mmap failed");
            assert_eq!(mincore(at, len, vec.as_mut_ptr()), 0, "mincore failed");
            munmap(at, len);
        }
        vec.iter().filter(|v| **v & 1 == 1).count()
    }

    #[test]
    fn an_executable_written_and_read_is_read_from_disk_again() {
        // Under the workspace's target folder: a disk, where a temporary
        // folder may be memory that no advice drops.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("target/tmp")
            .join(format!("page-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("bench");
        let len = 64 * 4096;
        std::fs::write(&exe, vec![7u8; len]).unwrap();
        assert_eq!(std::fs::read(&exe).unwrap().len(), len);
        assert_eq!(resident(&exe, len), len / 4096, "written and read: cached");
        read_afresh(std::slice::from_ref(&exe));
        let left = resident(&exe, len);
        assert_eq!(left, 0, "{left} pages still cached");
        // What is gone is read back as it was.
        assert_eq!(std::fs::read(&exe).unwrap(), vec![7u8; len]);
        read_afresh(&[dir.join("missing")]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
