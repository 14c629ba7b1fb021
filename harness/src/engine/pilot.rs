//! Choosing iterations per sample: long enough that the timer's cost and
//! resolution vanish in it, then warming up at that size.

use super::Measure;
use crate::timer::Clock;

/// Grows the iteration count until one sample takes at least `target_ns`
/// (or `budget_ns` of piloting has passed), and returns it.
pub fn choose_iters(target_ns: f64, budget_ns: u64, clock: &dyn Clock, m: &mut dyn Measure) -> u64 {
    let start = clock.now_ns();
    let mut iters = 1;
    loop {
        let t = m.sample(iters);
        let out_of_time = clock.now_ns().saturating_sub(start) >= budget_ns;
        if t >= target_ns || out_of_time || iters >= MAX_ITERS {
            return iters;
        }
        iters = next_iters(iters, t, target_ns);
    }
}

/// Runs samples for `warm_up_ns`, discarding them; if the routine sped up
/// (caches, branch predictors, CPU clock) so that samples fall short of the
/// target, grows the iteration count again. Returns the count to sample with.
pub fn warm_up(
    mut iters: u64,
    target_ns: f64,
    warm_up_ns: u64,
    clock: &dyn Clock,
    m: &mut dyn Measure,
) -> u64 {
    let start = clock.now_ns();
    while clock.now_ns().saturating_sub(start) < warm_up_ns {
        let t = m.sample(iters);
        if t < target_ns {
            iters = next_iters(iters, t, target_ns);
        }
    }
    iters
}

/// No sample runs more iterations than this: a routine that reports no
/// time (an `iter_custom` returning zero) must not make the pilot ask for
/// an endless loop.
pub const MAX_ITERS: u64 = 1 << 32;

/// The next count to try: aim 10 % past the target from the rate just seen,
/// growing at least by one and at most tenfold per step, up to 2³² (`MAX_ITERS`).
pub fn next_iters(iters: u64, t: f64, target_ns: f64) -> u64 {
    let most = iters.saturating_mul(10).min(MAX_ITERS);
    if t <= 0.0 {
        return most;
    }
    let want = (iters as f64 * target_ns / t * 1.1).ceil();
    if want >= most as f64 {
        most
    } else {
        (want as u64).max(iters + 1).min(MAX_ITERS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_is_bounded() {
        assert_eq!(next_iters(1, 0.0, 1000.0), 10);
        assert_eq!(next_iters(1, 1.0, 1e9), 10);
        assert!((220..=221).contains(&next_iters(100, 500.0, 1000.0)));
        assert_eq!(next_iters(100, 999.9, 1000.0), 111);
        assert_eq!(next_iters(MAX_ITERS / 2, 1.0, 1e9), MAX_ITERS);
    }
}
