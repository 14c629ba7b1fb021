//! Measurement settings and their defaults.

use crate::stats::OutlierMode;
use std::time::Duration;

/// How long and how precisely to measure each benchmark.
///
/// The defaults measure the eight reference workloads of nbench's own
/// benches in well under 8 s in total; raise `max_time` for noisy code.
///
/// ```
/// use std::time::Duration;
/// let s = nbench::__private::engine::Settings { max_time: Duration::from_secs(2), ..Default::default() };
/// assert_eq!(s.min_samples, 10);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Time spent running the routine before samples count.
    pub warm_up: Duration,
    /// Sampling time before the precision target may stop sampling. A shared
    /// machine's speed drifts on a scale of milliseconds to seconds, so
    /// samples from a shorter stretch look more precise than they are.
    pub min_time: Duration,
    /// Time limit of the sampling phase (reached only when the precision target is not).
    pub max_time: Duration,
    /// Precision target: the relative half-width of the median's 95 % CI (0.01 = ±1 %).
    pub precision: f64,
    /// Samples taken at least, whatever the time limit.
    pub min_samples: usize,
    /// Samples taken at most.
    pub max_samples: usize,
    /// A sample lasts at least this many times the timer's cost or resolution
    /// (1000: they are at most 0.1 % of it).
    pub timer_factor: f64,
    /// Which samples the summary sets aside (the samples themselves are all kept).
    pub outliers: OutlierMode,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            warm_up: Duration::from_millis(100),
            min_time: Duration::from_millis(400),
            max_time: Duration::from_millis(800),
            precision: 0.01,
            min_samples: 10,
            max_samples: 100_000,
            timer_factor: 1000.0,
            outliers: OutlierMode::default(),
        }
    }
}

impl Settings {
    pub(crate) fn warm_up_ns(&self) -> u64 {
        self.warm_up.as_nanos() as u64
    }

    pub(crate) fn min_time_ns(&self) -> u64 {
        self.min_time.as_nanos() as u64
    }

    pub(crate) fn max_time_ns(&self) -> u64 {
        self.max_time.as_nanos() as u64
    }
}

/// What a benchmark's own configuration says of how long it takes, as
/// factors on the measuring limits: criterion's group settings
/// (`measurement_time`, `warm_up_time`, `sample_size`), passed on by
/// nbench-criterion. Applied only to the limits nobody set ([`Open`]):
/// command-line flags, `NBENCH_*` variables and settings files win.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hint {
    /// Factor on the sampling times (`min_time`, `max_time`), at least 1.
    pub time: f64,
    /// Factor on the warm-up, at least 1.
    pub warm_up: f64,
    /// Factor on the minimum sample count, at most 1.
    pub samples: f64,
}

/// Which limits a [`Hint`] may change: those left at their defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Open {
    /// `min_time` and `max_time` (neither was set).
    pub time: bool,
    /// `warm_up`.
    pub warm_up: bool,
    /// `min_samples`.
    pub min_samples: bool,
}

impl Open {
    /// Every limit open.
    pub const ALL: Open = Open {
        time: true,
        warm_up: true,
        min_samples: true,
    };
}

impl Hint {
    /// The hint that changes nothing.
    pub const NONE: Hint = Hint {
        time: 1.0,
        warm_up: 1.0,
        samples: 1.0,
    };

    /// A hint with its factors brought into range (a longer time, a
    /// smaller sample count; anything not a number is 1).
    pub fn clamped(self) -> Hint {
        let at_least_1 = |f: f64| {
            if f.is_finite() {
                f.clamp(1.0, 1e3)
            } else {
                1.0
            }
        };
        Hint {
            time: at_least_1(self.time),
            warm_up: at_least_1(self.warm_up),
            samples: if self.samples.is_finite() {
                self.samples.clamp(0.0, 1.0)
            } else {
                1.0
            },
        }
    }

    /// `s` with the open limits scaled by this hint; the minimum sample
    /// count stays at least 3 (or what it was, if less).
    pub fn apply(&self, s: &Settings, open: Open) -> Settings {
        let h = self.clamped();
        let mut out = s.clone();
        if open.time {
            out.min_time = s.min_time.mul_f64(h.time);
            out.max_time = s.max_time.mul_f64(h.time);
        }
        if open.warm_up {
            out.warm_up = s.warm_up.mul_f64(h.warm_up);
        }
        if open.min_samples {
            let scaled = (s.min_samples as f64 * h.samples).ceil() as usize;
            out.min_samples = scaled.max(s.min_samples.min(3));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_scales_only_the_open_limits() {
        let s = Settings::default();
        let slow = Hint {
            time: 4.0,
            warm_up: 2.0,
            samples: 0.1,
        };
        let all = slow.apply(&s, Open::ALL);
        assert_eq!(all.max_time, Duration::from_millis(3200));
        assert_eq!(all.min_time, Duration::from_millis(1600));
        assert_eq!(all.warm_up, Duration::from_millis(200));
        assert_eq!(all.min_samples, 3, "never below 3");
        let set = Open {
            time: false,
            warm_up: true,
            min_samples: false,
        };
        let flags_win = slow.apply(&s, set);
        assert_eq!(
            (flags_win.max_time, flags_win.min_samples),
            (s.max_time, 10)
        );
        assert_eq!(Hint::NONE.apply(&s, Open::ALL), s);
        let wild = Hint {
            time: f64::NAN,
            warm_up: 0.5,
            samples: 7.0,
        };
        assert_eq!(wild.apply(&s, Open::ALL), s, "out of range means no change");
    }
}
