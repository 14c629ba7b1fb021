//! The clock the engine reads, behind a trait so engine logic runs on a fake clock in tests.

use std::time::Instant;

/// A monotonic clock in nanoseconds.
///
/// ```
/// use nbench::__private::timer::{Clock, WallClock};
/// let clock = WallClock::new();
/// let (a, b) = (clock.now_ns(), clock.now_ns());
/// assert!(b >= a);
/// ```
///
/// The engine reads time only through this trait: the real one is
/// [`WallClock`]; tests drive the pilot and the stopping rules with a fake
/// whose time advances only when a fake sample says so.
pub trait Clock {
    /// Nanoseconds since an arbitrary, fixed origin.
    fn now_ns(&self) -> u64;
}

/// The wall clock ([`std::time::Instant`]).
#[derive(Debug, Clone, Copy)]
pub struct WallClock {
    origin: Instant,
}

impl WallClock {
    /// A clock whose origin is now.
    pub fn new() -> Self {
        WallClock {
            origin: Instant::now(),
        }
    }
}

impl Default for WallClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for WallClock {
    fn now_ns(&self) -> u64 {
        self.origin.elapsed().as_nanos() as u64
    }
}

/// What reading the clock costs and how finely it ticks, measured at start-up.
///
/// ```
/// use nbench::__private::timer::{TimerInfo, WallClock};
/// let info = TimerInfo::measure(&WallClock::new(), 1000);
/// assert!(info.resolution_ns >= 1.0);
/// assert!(info.min_sample_ns(1000.0) >= 1000.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimerInfo {
    /// The smallest non-zero step seen between two consecutive readings, ns.
    pub resolution_ns: f64,
    /// The cost of one reading, ns: the median of batch means.
    pub cost_ns: f64,
}

/// Readings per batch whose mean is one estimate of the cost of a reading.
pub const COST_BATCH: u32 = 100;

impl TimerInfo {
    /// Reads `clock` back to back `reads` times and derives resolution and cost.
    ///
    /// The cost is the median over batches of [`COST_BATCH`] readings: a
    /// reading interrupted by the scheduler (another process starting on the
    /// same CPU, as both sides of a comparison do) lengthens one batch, not
    /// the figure. With a plain mean, such a pause of 2 ms in 10 000 readings
    /// of 26 ns made the cost ~190 ns and every sample 7 × longer than it had
    /// to be.
    ///
    /// A clock that never moved during the readings gets a resolution of the
    /// whole span (at least 1 ns), so the pilot still has a floor to aim above.
    pub fn measure(clock: &dyn Clock, reads: u32) -> TimerInfo {
        let reads = reads.max(2);
        let first = clock.now_ns();
        let mut prev = first;
        let mut resolution = u64::MAX;
        let mut batches = Vec::new();
        let mut batch = (first, 0u32);
        for _ in 1..reads {
            let now = clock.now_ns();
            let step = now.saturating_sub(prev);
            if step > 0 && step < resolution {
                resolution = step;
            }
            prev = now;
            batch.1 += 1;
            if batch.1 == COST_BATCH {
                batches.push(now.saturating_sub(batch.0) as f64 / f64::from(batch.1));
                batch = (now, 0);
            }
        }
        if batches.is_empty() {
            batches.push(prev.saturating_sub(first) as f64 / f64::from(batch.1));
        }
        if resolution == u64::MAX {
            resolution = prev.saturating_sub(first).max(1);
        }
        batches.sort_by(f64::total_cmp);
        TimerInfo {
            resolution_ns: resolution as f64,
            cost_ns: batches[batches.len() / 2],
        }
    }

    /// The shortest sample for which the timer's resolution and cost are at
    /// most `1 / factor` of it (factor 1000 gives the 0.1 % rule).
    pub fn min_sample_ns(&self, factor: f64) -> f64 {
        self.resolution_ns.max(self.cost_ns) * factor
    }
}

#[cfg(test)]
pub(crate) mod fake {
    //! A deterministic clock for engine tests.
    use super::Clock;
    use std::cell::Cell;

    /// Time moves only when a test (or a fake sample) advances it.
    #[derive(Debug, Default)]
    pub struct FakeClock {
        now: Cell<u64>,
        /// Added on every read, to model the cost of reading a clock.
        pub tick: u64,
    }

    impl FakeClock {
        pub fn with_tick(tick: u64) -> Self {
            FakeClock {
                now: Cell::new(0),
                tick,
            }
        }
        pub fn advance(&self, ns: u64) {
            self.now.set(self.now.get() + ns);
        }
    }

    impl Clock for FakeClock {
        fn now_ns(&self) -> u64 {
            self.advance(self.tick);
            self.now.get()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fake::FakeClock;
    use super::*;

    #[test]
    fn fake_clock_cost_and_resolution() {
        let clock = FakeClock::with_tick(25);
        let info = TimerInfo::measure(&clock, 1000);
        assert_eq!(info.resolution_ns, 25.0);
        assert_eq!(info.cost_ns, 25.0);
        assert_eq!(info.min_sample_ns(1000.0), 25_000.0);
    }

    /// Ticks `tick` ns per reading, and once, at reading `at`, jumps by `pause`.
    struct Paused {
        clock: FakeClock,
        reads: std::cell::Cell<u64>,
        at: u64,
        pause: u64,
    }

    impl Clock for Paused {
        fn now_ns(&self) -> u64 {
            self.reads.set(self.reads.get() + 1);
            if self.reads.get() == self.at {
                self.clock.advance(self.pause);
            }
            self.clock.now_ns()
        }
    }

    #[test]
    fn a_pause_of_the_scheduler_does_not_count_as_the_cost_of_reading() {
        let clock = Paused {
            clock: FakeClock::with_tick(26),
            reads: Default::default(),
            at: 5_000,
            pause: 2_000_000,
        };
        let info = TimerInfo::measure(&clock, 10_000);
        // A plain mean over the span would be (10 000 × 26 + 2 ms) / 9 999 ≈ 226 ns.
        assert_eq!(info.cost_ns, 26.0);
        assert_eq!(info.resolution_ns, 26.0);
        assert_eq!(info.min_sample_ns(1000.0), 26_000.0);
    }

    #[test]
    fn frozen_clock_still_gives_a_floor() {
        let clock = FakeClock::with_tick(0);
        let info = TimerInfo::measure(&clock, 10);
        assert_eq!(info.resolution_ns, 1.0);
        assert_eq!(info.cost_ns, 0.0);
    }

    #[test]
    fn wall_clock_is_monotonic_and_fine() {
        let clock = WallClock::new();
        let info = TimerInfo::measure(&clock, 10_000);
        assert!(info.resolution_ns >= 1.0);
        // Any clock a benchmark can use ticks finer than a millisecond.
        assert!(info.resolution_ns < 1e6, "{info:?}");
    }
}
