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
/// let s = nbench::Settings { max_time: Duration::from_secs(2), ..Default::default() };
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
