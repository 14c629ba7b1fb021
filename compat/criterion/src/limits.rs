//! What a suite's configuration says of how long its benchmarks take.

use std::time::Duration;

/// criterion's time-related settings as the program gave them (criterion's
/// defaults: 100 samples, 5 s of measurement, 3 s of warm-up).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Limits {
    pub sample_size: Option<usize>,
    pub measurement_time: Option<Duration>,
    pub warm_up_time: Option<Duration>,
}
