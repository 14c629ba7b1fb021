//! Whether callgrind counts this process's instructions right now: on
//! around a counted sample ([`start`], [`stop`]), and paused around what a
//! sample does outside its timing (a batch's setup, dropping its outputs),
//! as the clock is. Switching does nothing outside Valgrind.

use crate::valgrind;
use std::sync::atomic::{AtomicBool, Ordering};

static ON: AtomicBool = AtomicBool::new(false);

/// Counting on (from off).
pub fn start() {
    if !ON.swap(true, Ordering::SeqCst) {
        valgrind::toggle_collect();
    }
}

/// Counting off (from on).
pub fn stop() {
    if ON.swap(false, Ordering::SeqCst) {
        valgrind::toggle_collect();
    }
}

/// Counting off for a moment; whether it was on, for [`resume`].
pub fn pause() -> bool {
    let was = ON.load(Ordering::SeqCst);
    stop();
    was
}

/// Counting on again if [`pause`] found it on.
pub fn resume(was: bool) {
    if was {
        start();
    }
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
