//! The CPU's own instruction counter through Linux's `perf_event_open`:
//! user-space instructions of this thread, switched on and off around
//! measured iterations. Where the kernel or the CPU gives none (most
//! virtual machines), opening it says why, and `cargo nbench` counts under
//! Valgrind instead.

use std::fmt;

/// One open counter of this thread, off until [`Counter::enable`].
#[derive(Debug)]
pub struct Counter {
    fd: i32,
}

/// What a counter counts: `perf_event_attr`'s `type` and `config`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    kind: u32,
    config: u64,
}

impl Event {
    /// Instructions retired (`PERF_TYPE_HARDWARE`, `PERF_COUNT_HW_INSTRUCTIONS`).
    pub const INSTRUCTIONS: Event = Event { kind: 0, config: 1 };
    /// This task's clock, ns (`PERF_TYPE_SOFTWARE`, `PERF_COUNT_SW_TASK_CLOCK`):
    /// given by the kernel on machines without hardware counters.
    #[cfg_attr(not(test), allow(dead_code))]
    pub const TASK_CLOCK: Event = Event { kind: 1, config: 1 };
}

/// Why a counter could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unavailable(pub String);

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Counter {
    /// Opens a counter of `event` for this thread, user space only, off.
    pub fn open(event: Event) -> Result<Counter, Unavailable> {
        sys::open(event).map(|fd| Counter { fd })
    }

    /// The counter set to zero, on or off as it was.
    pub fn zero(&self) {
        sys::control(self.fd, sys::RESET);
    }

    /// Switched on, its count kept.
    pub fn enable(&self) {
        sys::control(self.fd, sys::ENABLE);
    }

    /// Switched off, its count kept.
    pub fn disable(&self) {
        sys::control(self.fd, sys::DISABLE);
    }

    /// What it counted while on since the last [`Counter::zero`].
    pub fn read(&self) -> Result<u64, Unavailable> {
        sys::read(self.fd)
    }

    /// The file descriptor, for switching it from elsewhere (`counting`).
    pub(crate) fn fd(&self) -> i32 {
        self.fd
    }
}

impl Drop for Counter {
    fn drop(&mut self) {
        sys::close(self.fd);
    }
}

/// Switches the counter behind `fd` on (`true`) or off.
pub(crate) fn switch(fd: i32, on: bool) {
    sys::control(fd, if on { sys::ENABLE } else { sys::DISABLE });
}

/// Whether this machine's instruction counter counts as it should: opened,
/// it counts a loop of a known shape at 1 000 and 2 000 iterations, twice,
/// and the per-iteration figures must be plausible (1 to 64 instructions)
/// and agree. A counter that opens but counts nothing (some virtual
/// machines) fails here. Why not, where it does not.
pub fn probe() -> Result<(), Unavailable> {
    let counter = Counter::open(Event::INSTRUCTIONS)?;
    let count = |n: u64| -> Result<u64, Unavailable> {
        counter.zero();
        counter.enable();
        let mut x = 0u64;
        for i in 0..n {
            x = std::hint::black_box(x.wrapping_add(i));
        }
        counter.disable();
        std::hint::black_box(x);
        counter.read()
    };
    let per_iter = || -> Result<f64, Unavailable> {
        let (a, b) = (count(1000)?, count(2000)?);
        Ok(b.saturating_sub(a) as f64 / 1000.0)
    };
    let (first, second) = (per_iter()?, per_iter()?);
    let plausible = (1.0..=64.0).contains(&first) && (first - second).abs() <= 0.01 * first;
    match plausible {
        true => Ok(()),
        false => Err(Unavailable(format!(
            "the instruction counter counts implausibly here ({first} and {second} \
             instructions for one round of a loop)"
        ))),
    }
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod sys {
    use super::{Event, Unavailable};

    mod ffi {
        unsafe extern "C" {
            pub fn syscall(number: i64, ...) -> i64;
            pub fn ioctl(fd: i32, request: u64, ...) -> i32;
            pub fn read(fd: i32, buf: *mut u8, count: usize) -> isize;
            pub fn close(fd: i32) -> i32;
        }
    }

    #[cfg(target_arch = "x86_64")]
    const PERF_EVENT_OPEN: i64 = 298;
    #[cfg(target_arch = "aarch64")]
    const PERF_EVENT_OPEN: i64 = 241;

    /// `PERF_EVENT_IOC_ENABLE`, `_DISABLE`, `_RESET`.
    pub const ENABLE: u64 = 0x2400;
    pub const DISABLE: u64 = 0x2401;
    pub const RESET: u64 = 0x2403;

    /// `perf_event_attr` as its first version laid it out (64 bytes, which
    /// every kernel since takes).
    #[repr(C)]
    struct Attr {
        kind: u32,
        size: u32,
        config: u64,
        sample_period: u64,
        sample_type: u64,
        read_format: u64,
        /// Bit 0 `disabled`, 5 `exclude_kernel`, 6 `exclude_hv`.
        flags: u64,
        wakeup_events: u32,
        bp_type: u32,
        config1: u64,
    }

    pub fn open(event: Event) -> Result<i32, Unavailable> {
        let attr = Attr {
            kind: event.kind,
            size: std::mem::size_of::<Attr>() as u32,
            config: event.config,
            sample_period: 0,
            sample_type: 0,
            read_format: 0,
            flags: 1 | (1 << 5) | (1 << 6),
            wakeup_events: 0,
            bp_type: 0,
            config1: 0,
        };
        const FD_CLOEXEC: u64 = 1 << 3;
        // SAFETY: `attr` is a valid `perf_event_attr` of the size it
        // states and lives across the call; pid 0 and cpu -1 are this
        // thread on any CPU, with no group.
        let fd = unsafe {
            ffi::syscall(
                PERF_EVENT_OPEN,
                &attr as *const Attr,
                0i64,
                -1i64,
                -1i64,
                FD_CLOEXEC,
            )
        };
        match fd {
            fd if fd >= 0 => Ok(fd as i32),
            _ => Err(Unavailable(refused(std::io::Error::last_os_error()))),
        }
    }

    /// Why `perf_event_open` refused, in words: the kernel's error alone
    /// ("No such file or directory" for an event the CPU lacks) says little.
    pub(super) fn refused(e: std::io::Error) -> String {
        let paranoid = || {
            let level = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid");
            match level {
                Ok(l) => format!("kernel.perf_event_paranoid is {}", l.trim()),
                Err(_) => "kernel.perf_event_paranoid".to_owned(),
            }
        };
        // ENOENT, ENODEV, EOPNOTSUPP; EPERM, EACCES; ENOSYS.
        match e.raw_os_error() {
            Some(2 | 19 | 95) => {
                "this CPU (or the virtual machine around it) gives no instruction counter"
                    .to_owned()
            }
            Some(1 | 13) => format!(
                "the kernel does not let this user count ({}; 2 or lower allows it)",
                paranoid()
            ),
            Some(38) => "this kernel has no performance counters".to_owned(),
            _ => format!("perf_event_open: {e}"),
        }
    }

    pub fn control(fd: i32, request: u64) {
        // SAFETY: `fd` is a perf event this process opened; the request takes no argument.
        unsafe { ffi::ioctl(fd, request, 0u64) };
    }

    pub fn read(fd: i32) -> Result<u64, Unavailable> {
        let mut value = [0u8; 8];
        // SAFETY: eight bytes are writable at `value`.
        let got = unsafe { ffi::read(fd, value.as_mut_ptr(), value.len()) };
        match got {
            8 => Ok(u64::from_ne_bytes(value)),
            _ => Err(Unavailable(format!(
                "reading the counter: {}",
                std::io::Error::last_os_error()
            ))),
        }
    }

    pub fn close(fd: i32) {
        // SAFETY: `fd` was opened by `open` and is closed once, on drop.
        unsafe { ffi::close(fd) };
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod sys {
    use super::{Event, Unavailable};

    pub const ENABLE: u64 = 0;
    pub const DISABLE: u64 = 0;
    pub const RESET: u64 = 0;

    pub fn open(_: Event) -> Result<i32, Unavailable> {
        Err(Unavailable(
            "perf_event_open is Linux's (on x86_64 and aarch64)".to_owned(),
        ))
    }

    pub fn control(_: i32, _: u64) {}

    pub fn read(_: i32) -> Result<u64, Unavailable> {
        Err(Unavailable("no counter".to_owned()))
    }

    pub fn close(_: i32) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernels_task_clock_counts_while_on_and_not_while_off() {
        // Software events need no hardware counter; where even they are
        // refused (perf_event_paranoid 3, a sandbox), there is nothing to test.
        let Ok(clock) = Counter::open(Event::TASK_CLOCK) else {
            return;
        };
        let spin = |d: std::time::Duration| {
            let t = std::time::Instant::now();
            while t.elapsed() < d {}
        };
        clock.zero();
        clock.enable();
        spin(std::time::Duration::from_millis(20));
        clock.disable();
        let on = clock.read().unwrap();
        spin(std::time::Duration::from_millis(20));
        assert_eq!(clock.read().unwrap(), on, "counted while off");
        assert!(on >= 10_000_000, "{on} ns for 20 ms of spinning");
        clock.zero();
        assert_eq!(clock.read().unwrap(), 0);
    }

    #[test]
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    fn a_refused_counter_says_why_in_words() {
        let why = |errno: i32| sys::refused(std::io::Error::from_raw_os_error(errno));
        assert!(
            why(2).contains("gives no instruction counter"),
            "{}",
            why(2)
        );
        assert!(
            why(13).contains("kernel.perf_event_paranoid"),
            "{}",
            why(13)
        );
        assert!(why(38).contains("no performance counters"), "{}", why(38));
        // Others as the kernel says them.
        assert!(why(24).starts_with("perf_event_open: "), "{}", why(24));
    }

    #[test]
    fn the_probe_passes_only_a_counter_that_counts() {
        match (Counter::open(Event::INSTRUCTIONS), probe()) {
            // No counter here (a virtual machine): the probe says so.
            (Err(_), Err(why)) => assert!(!why.0.is_empty()),
            (Ok(_), Ok(())) => {}
            // Opens but counts nothing plausible: refused, with the figures.
            (Ok(_), Err(why)) => assert!(why.0.contains("implausibly"), "{why}"),
            (Err(e), Ok(())) => panic!("probe passed where opening failed: {e}"),
        }
    }
}
