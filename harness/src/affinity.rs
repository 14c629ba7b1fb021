//! Which CPUs a thread may run on: the one place the harness and
//! `cargo nbench` read and set them (Linux's `sched_{get,set}affinity`;
//! elsewhere nothing is read and nothing set).

/// A set of CPUs, room for 1024 as glibc's `cpu_set_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mask([u64; WORDS]);

const WORDS: usize = 16;

impl Mask {
    /// The set of `cpus` (those past 1023 left out).
    pub fn of(cpus: impl IntoIterator<Item = usize>) -> Mask {
        let mut words = [0u64; WORDS];
        for cpu in cpus.into_iter().filter(|&c| c < WORDS * 64) {
            words[cpu / 64] |= 1 << (cpu % 64);
        }
        Mask(words)
    }

    /// Its CPUs, in order.
    pub fn cpus(&self) -> Vec<usize> {
        (0..WORDS * 64)
            .filter(|&cpu| self.0[cpu / 64] & (1 << (cpu % 64)) != 0)
            .collect()
    }

    /// The CPUs the calling thread may run on, where the platform says.
    pub fn current() -> Option<Mask> {
        imp::get()
    }

    /// Lets thread `tid` (0: the calling one) run only on these CPUs;
    /// whether the platform did.
    pub fn set(&self, tid: u32) -> bool {
        imp::set(tid, self)
    }

    /// Lets every thread of this process run only on these CPUs.
    pub fn set_all(&self) {
        for tid in imp::tasks() {
            self.set(tid);
        }
    }

    /// Lets the process `cmd` starts run only on these CPUs from its first
    /// instruction, where the platform can.
    pub fn set_at_start(self, cmd: &mut std::process::Command) {
        imp::set_at_start(cmd, self);
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use super::{Mask, WORDS};
    use std::os::raw::c_int;

    unsafe extern "C" {
        fn sched_getaffinity(pid: c_int, size: usize, mask: *mut u64) -> c_int;
        fn sched_setaffinity(pid: c_int, size: usize, mask: *const u64) -> c_int;
    }

    pub fn get() -> Option<Mask> {
        let mut words = [0u64; WORDS];
        // SAFETY: the kernel writes at most `size` bytes into `words`, which has that many.
        let ok = unsafe { sched_getaffinity(0, size_of_val(&words), words.as_mut_ptr()) } == 0;
        ok.then_some(Mask(words))
    }

    pub fn set(tid: u32, mask: &Mask) -> bool {
        let Ok(tid) = c_int::try_from(tid) else {
            return false;
        };
        // SAFETY: the kernel reads `size` bytes from the mask, which has that many.
        unsafe { sched_setaffinity(tid, size_of_val(&mask.0), mask.0.as_ptr()) == 0 }
    }

    /// The ids of this process's threads.
    pub fn tasks() -> Vec<u32> {
        let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
            return Vec::new();
        };
        (tasks.flatten())
            .filter_map(|t| t.file_name().to_str()?.parse().ok())
            .collect()
    }

    pub fn set_at_start(cmd: &mut std::process::Command, mask: Mask) {
        use std::os::unix::process::CommandExt;
        // SAFETY: runs in the child between fork and exec, calling only an
        // async-signal-safe system call on a mask made before the fork; a
        // refusal leaves the child where it was, as a refused `set` does.
        unsafe {
            cmd.pre_exec(move || {
                sched_setaffinity(0, size_of_val(&mask.0), mask.0.as_ptr());
                Ok(())
            });
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::Mask;

    pub fn get() -> Option<Mask> {
        None
    }

    pub fn set(_: u32, _: &Mask) -> bool {
        false
    }

    pub fn tasks() -> Vec<u32> {
        Vec::new()
    }

    pub fn set_at_start(_: &mut std::process::Command, _: Mask) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_holds_the_cpus_it_was_made_of() {
        assert_eq!(Mask::of([0, 1, 65, 1023, 1024]).cpus(), [0, 1, 65, 1023]);
        assert!(Mask::of([]).cpus().is_empty());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_thread_runs_where_it_is_set_and_can_be_set_back() {
        std::thread::spawn(|| {
            let home = Mask::current().expect("Linux says");
            let first = home.cpus()[0];
            assert!(Mask::of([first]).set(0));
            assert_eq!(Mask::current().unwrap().cpus(), [first]);
            assert!(home.set(0));
            assert_eq!(Mask::current(), Some(home));
        })
        .join()
        .unwrap();
    }
}
