//! Copies of a bench process in lockstep (`fork`), so that one started process gives many draws of where its memory lies.
//!
//! A process's speed at a small allocation loop follows the physical pages
//! its stack got (its heap's and other data's, moved, made no difference:
//! see the README), and keeps it for its life: fresh processes of one
//! executable differ by several percent, one process from itself over time
//! by a fraction of that. A copy made by `fork` writes its heap and stack
//! onto pages of its own (copy on write), so each copy is a new draw of
//! that placement, for a fraction of a millisecond instead of a whole
//! process start and warm-up. Measured with two processes of one executable
//! in turns (an 8 KiB `Vec` grown by pushes, 24 pairs): copies of one pair
//! spread ±5.5–6 % from each other, and 20 copies' means spread ±0.9–1.5 %
//! from pair to pair, as independent copies would (±1.2–1.4 %); a copy of
//! both processes took 0.19–0.23 ms.
//!
//! Only on Linux, only from a process with a single thread (a copy has that
//! thread alone, and a lock another thread held would stay locked), and
//! only where nothing outside the process is shared with it but the channel
//! to `cargo nbench` (see `shared_outside`): such a benchmark is measured
//! in fresh processes alone, as before.

/// What [`fork`] did.
pub enum Fork {
    /// This is the copy.
    Copy,
    /// This is the process copied; the copy's id.
    Original(i32),
    /// No copy was made, and why.
    Refused(String),
}

/// Whether this platform can make copies at all (see [`fork`] for when a
/// process cannot).
pub fn available() -> bool {
    cfg!(target_os = "linux")
}

#[cfg(target_os = "linux")]
mod imp {
    use super::Fork;
    use std::io::Write;

    unsafe extern "C" {
        fn fork() -> i32;
        fn waitpid(pid: i32, status: *mut i32, options: i32) -> i32;
        fn getppid() -> i32;
        fn getpid() -> i32;
        fn prctl(option: i32, ...) -> i32;
        fn _exit(code: i32) -> !;
    }
    const PR_SET_PDEATHSIG: i32 = 1;
    const SIGKILL: std::ffi::c_ulong = 9;

    /// Why a copy of this process could behave otherwise than the process
    /// itself, if it could: it holds a connection or a device besides the
    /// channel to `cargo nbench` (a copy would talk on it in the process's
    /// name, with its own idea of the conversation's state), an event or
    /// ring descriptor, or shared or device memory.
    fn shared_outside() -> Option<String> {
        let unknown = || Some("what it holds cannot be listed".to_owned());
        let Ok(fds) = std::fs::read_dir("/proc/self/fd") else {
            return unknown();
        };
        let mut sockets = 0;
        for entry in fds.flatten() {
            let Ok(target) = std::fs::read_link(entry.path()) else {
                continue;
            };
            let target = target.to_string_lossy();
            if target.starts_with("socket:") {
                sockets += 1;
            } else if target.starts_with("anon_inode:") {
                return Some(format!("it holds a descriptor of kind {target}"));
            }
        }
        // The channel: its stream and the stream's clone for reading.
        if sockets > 2 {
            return Some(format!(
                "it holds {} connections besides cargo nbench's",
                sockets - 2
            ));
        }
        // Shared memory (written by a copy, seen by the process), devices.
        let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else {
            return unknown();
        };
        let shared = |l: &&str| {
            let perms = l.split_whitespace().nth(1).unwrap_or("");
            perms.ends_with('s') || l.contains(" /dev/") || l.contains("anon_inode:")
        };
        let line = maps.lines().find(shared)?;
        let what = line.split_whitespace().nth(5).unwrap_or("memory");
        Some(format!("it maps shared or device memory ({what})"))
    }

    pub fn fork_process() -> Fork {
        match crate::spread::threads() {
            Some(1) => {}
            Some(n) => return Fork::Refused(format!("the process has {n} threads")),
            None => return Fork::Refused("its threads cannot be counted".into()),
        }
        // Connections and devices are made in a benchmark's setup: looked
        // at once, before the first copy.
        static OUTSIDE: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
        if let Some(why) = OUTSIDE.get_or_init(shared_outside) {
            return Fork::Refused(why.clone());
        }
        // Output still buffered would be written twice, once by each.
        let _ = std::io::stdout().flush();
        // SAFETY: getpid and fork take no arguments; with one thread, the
        // copy's memory is consistent (no lock held elsewhere).
        let (parent, pid) = unsafe { (getpid(), fork()) };
        match pid {
            0 => {
                // SAFETY: prctl with PR_SET_PDEATHSIG and a signal number,
                // getppid without arguments. The copy dies with the process
                // it was copied from, as that one dies with cargo nbench.
                let orphaned = unsafe {
                    prctl(PR_SET_PDEATHSIG, SIGKILL);
                    getppid() != parent
                };
                if orphaned {
                    exit(1);
                }
                Fork::Copy
            }
            p if p > 0 => Fork::Original(p),
            _ => Fork::Refused(format!("fork: {}", std::io::Error::last_os_error())),
        }
    }

    pub fn wait(pid: i32) -> Result<(), String> {
        let mut status = 0;
        loop {
            // SAFETY: waits for our own child, writing its status into `status`.
            let r = unsafe { waitpid(pid, &mut status, 0) };
            if r == pid {
                break;
            }
            let e = std::io::Error::last_os_error();
            if r < 0 && e.kind() != std::io::ErrorKind::Interrupted {
                return Err(format!("could not be waited for: {e}"));
            }
        }
        let (signal, code) = (status & 0x7f, (status >> 8) & 0xff);
        match (signal, code) {
            (0, 0) => Ok(()),
            (0, code) => Err(format!("exited with code {code}")),
            (signal, _) => Err(format!("was killed by signal {signal}")),
        }
    }

    pub fn exit(code: i32) -> ! {
        let _ = std::io::stdout().flush();
        // SAFETY: ends this process at once: no destructor or exit handler
        // of the original's state runs twice.
        unsafe { _exit(code) }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::Fork;

    pub fn fork_process() -> Fork {
        Fork::Refused("copies are made on Linux only".into())
    }

    pub fn wait(_: i32) -> Result<(), String> {
        Ok(())
    }

    pub fn exit(code: i32) -> ! {
        std::process::exit(code)
    }
}

/// Copies this process, where it has one thread and the platform allows;
/// the copy dies with the process it was copied from.
pub fn fork() -> Fork {
    imp::fork_process()
}

/// Waits for the copy `pid` to end: `Err` says how it ended, if not cleanly.
pub fn wait(pid: i32) -> Result<(), String> {
    imp::wait(pid)
}

/// Ends a copy at once, with exit code `code` (nothing of the original's
/// state is torn down twice).
pub fn exit_copy(code: i32) -> ! {
    imp::exit(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_with_threads_is_not_copied() {
        // Another thread, alive until the answer is in.
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let other = std::thread::spawn(move || rx.recv());
        let answer = fork();
        drop(tx);
        let _ = other.join();
        match answer {
            Fork::Refused(why) => assert!(why.contains("threads") || !available(), "{why}"),
            Fork::Copy => exit_copy(0),
            Fork::Original(pid) => {
                let _ = wait(pid);
                panic!("copied with two threads");
            }
        }
    }
}
