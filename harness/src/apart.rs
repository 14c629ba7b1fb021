//! Work done in a copy of the process (`fork`), so that what it does to
//! the process stays in the copy: a front end that must run the program's
//! own functions to list its benchmarks (nbench-criterion) lists so, and
//! what those functions do once per process (a global set, which panics
//! when set twice) is left for the benchmarks.

/// Runs `work` in a copy of this process and returns what it returned;
/// `None` where no copy is made (another platform than Linux, more than one
/// thread, under Valgrind) or the copy did not end cleanly (`work`
/// panicked): the caller then does the work itself. The copy writes
/// nothing to stdout or stderr, and dies with this process.
pub fn in_copy(work: impl FnOnce() -> Vec<u8>) -> Option<Vec<u8>> {
    if crate::spread::threads() != Some(1) || crate::valgrind::running() {
        return None;
    }
    imp::in_copy(work)
}

#[cfg(target_os = "linux")]
mod imp {
    use std::io::{Read, Write};
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

    unsafe extern "C" {
        fn pipe(fds: *mut i32) -> i32;
        fn fork() -> i32;
        fn dup2(old: i32, new: i32) -> i32;
        fn prctl(option: i32, ...) -> i32;
    }
    const PR_SET_PDEATHSIG: i32 = 1;
    const SIGKILL: std::ffi::c_ulong = 9;

    pub fn in_copy(work: impl FnOnce() -> Vec<u8>) -> Option<Vec<u8>> {
        let mut fds = [0i32; 2];
        // SAFETY: `fds` has room for the two descriptors pipe writes.
        if unsafe { pipe(fds.as_mut_ptr()) } != 0 {
            return None;
        }
        // SAFETY: both were just opened by pipe and are owned here alone.
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        // Output still buffered would be written twice, once by each.
        let _ = std::io::stdout().flush();
        // SAFETY: fork takes no arguments; with one thread, the copy's
        // memory is consistent (no lock held elsewhere).
        match unsafe { fork() } {
            0 => {
                drop(read);
                copy(work, write)
            }
            pid if pid > 0 => {
                drop(write);
                let mut out = Vec::new();
                let read_all = std::fs::File::from(read).read_to_end(&mut out);
                let ended = crate::fork::wait(pid);
                (read_all.is_ok() && ended.is_ok()).then_some(out)
            }
            _ => None,
        }
    }

    /// The copy: does `work` with its output silenced, writes what it
    /// returned to `to`, and ends at once (exit code 1 if `work` panicked).
    fn copy(work: impl FnOnce() -> Vec<u8>, to: OwnedFd) -> ! {
        // SAFETY: prctl with PR_SET_PDEATHSIG and a signal number.
        unsafe { prctl(PR_SET_PDEATHSIG, SIGKILL) };
        if let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") {
            // SAFETY: both descriptors are open; 1 and 2 are replaced.
            unsafe {
                dup2(null.as_raw_fd(), 1);
                dup2(null.as_raw_fd(), 2);
            }
        }
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        let code = match done {
            Ok(bytes) => match std::fs::File::from(to).write_all(&bytes) {
                Ok(()) => 0,
                Err(_) => 1,
            },
            Err(_) => 1,
        };
        crate::fork::exit_copy(code)
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub fn in_copy(_: impl FnOnce() -> Vec<u8>) -> Option<Vec<u8>> {
        None
    }
}
