//! Whether this process's instructions are counted right now: on around
//! a counted sample ([`start`], [`stop`]), and paused around what a sample
//! does outside its timing (a batch's setup, dropping its outputs), as the
//! clock is. Counting is callgrind's collection under Valgrind (in every
//! thread, or in the calling one: [`every_thread`]), and the
//! CPU's counter where one was handed over ([`count_with`]); switching
//! does nothing otherwise.

use crate::valgrind;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

static ON: AtomicBool = AtomicBool::new(false);

/// Instructions counted in other processes while counting was on (the
/// commands a benchmark runs, each under a callgrind of its own:
/// [`crate::command`]), since [`take_elsewhere`] last took them.
static ELSEWHERE: AtomicU64 = AtomicU64::new(0);

/// Adds `instructions` counted in another process to the sample's count.
pub fn add_elsewhere(instructions: u64) {
    ELSEWHERE.fetch_add(instructions, Ordering::SeqCst);
}

/// The instructions counted elsewhere since the last call, set back to 0.
pub fn take_elsewhere() -> u64 {
    ELSEWHERE.swap(0, Ordering::SeqCst)
}

/// Whether a pause also switches callgrind's instrumentation off
/// ([`setups_apart`]).
static APART: AtomicBool = AtomicBool::new(false);

/// From now on, a pause in counting ([`pause`]) also runs uninstrumented
/// under callgrind, some 7 times faster than instrumented, where `apart`:
/// for a benchmark whose inputs cost far more to make than its routine
/// takes. Switching instrumentation discards callgrind's translations,
/// so it is kept for those: once a batch.
pub fn setups_apart(apart: bool) {
    APART.store(apart, Ordering::SeqCst);
}

/// The CPU counter's file descriptor, or -1.
static COUNTER: AtomicI32 = AtomicI32::new(-1);

/// Counting switches `counter` too, from now on.
pub fn count_with(counter: &crate::perf::Counter) {
    COUNTER.store(counter.fd(), Ordering::SeqCst);
}

/// Whether callgrind collects in every thread from the start
/// ([`valgrind::EVERY_THREAD_ENV`]): a count is then what every thread did
/// between zeroing and dumping, and [`pause`] switches off only the
/// thread it is called in, back on at [`resume`]. Callgrind's switch is
/// one thread's: otherwise it is on in the thread that started the
/// sample alone, and a pool's work went uncounted (paralight's sums
/// counted 606 instructions an iteration at every size).
fn every_thread() -> bool {
    static EVERY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *EVERY.get_or_init(|| std::env::var_os(valgrind::EVERY_THREAD_ENV).is_some())
}

/// Switches callgrind's collection, and the counter where there is one.
fn toggle(on: bool) {
    if !every_thread() {
        valgrind::toggle_collect();
    }
    let fd = COUNTER.load(Ordering::SeqCst);
    if fd >= 0 {
        crate::perf::switch(fd, on);
    }
}

/// Counting on (from off).
pub fn start() {
    if !ON.swap(true, Ordering::SeqCst) {
        toggle(true);
    }
}

/// Counting off (from on).
pub fn stop() {
    if ON.swap(false, Ordering::SeqCst) {
        toggle(false);
    }
}

/// Counting off for a moment; whether it was on, for [`resume`].
pub fn pause() -> bool {
    let was = ON.load(Ordering::SeqCst);
    stop();
    // Switching instrumentation sets every thread's collection back to
    // what the process started with; uninstrumented, nothing is counted.
    match (was, APART.load(Ordering::SeqCst)) {
        (true, true) => valgrind::instrument(false),
        (true, false) if every_thread() => valgrind::toggle_collect(),
        _ => {}
    }
    was
}

/// Counting on again if [`pause`] found it on.
pub fn resume(was: bool) {
    if !was {
        return;
    }
    let apart = APART.load(Ordering::SeqCst);
    if apart {
        valgrind::instrument(true);
    } else if every_thread() {
        valgrind::toggle_collect();
    }
    start();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pause_inside_a_counted_sample_resumes_it() {
        start();
        let was = pause();
        assert!(was && !ON.load(Ordering::SeqCst));
        resume(was);
        assert!(ON.load(Ordering::SeqCst));
        stop();
        let was = pause();
        resume(was);
        assert!(!was && !ON.load(Ordering::SeqCst));
    }
}
