//! What a suite's configuration says of how long its benchmarks take, and
//! what nbench makes of it.
//!
//! A group that asks criterion for more time than its defaults (5 s of
//! measurement, 3 s of warm-up) or fewer samples (100) is saying that its
//! benchmarks are slow. nbench scales its own limits by the same factors:
//! `measurement_time(20s)` is 4 × criterion's default, so nbench's sampling
//! times (`--min-time`, `--max-time`) are 4 × theirs; `warm_up_time(6s)`
//! doubles nbench's warm-up; `sample_size(10)` cuts nbench's minimum
//! sample count to a tenth (at least 3). Asking for less time than
//! criterion's default changes nothing (nbench's limits are shorter
//! already). A limit set by a flag, an `NBENCH_*` variable or nbench.toml
//! is never scaled.

use nbench::__private::engine::Hint;
use std::time::Duration;

/// criterion's defaults the factors are taken against.
const MEASUREMENT: Duration = Duration::from_secs(5);
const WARM_UP: Duration = Duration::from_secs(3);
const SAMPLES: usize = 100;

/// criterion's time-related settings as the program gave them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Limits {
    pub sample_size: Option<usize>,
    pub measurement_time: Option<Duration>,
    pub warm_up_time: Option<Duration>,
}

/// criterion's setters of how long benchmarks take (read as [`Limits`])
/// and of its statistics (ignored, with a note), as a `Criterion`, a group
/// and a criterion 0.3 definition take them: by value (`[mut] self ->
/// Self`) or by reference (`[&mut] self -> &mut Self`); with `plots`, also
/// `plot_config` and `sampling_mode`. (The receiver's `self` is the
/// caller's token, so that the bodies may name it.)
macro_rules! settings {
    ([$($m:tt)+] $s:ident -> $ret:ty) => {
        /// Samples criterion would take: read as how slow the benchmarks are.
        pub fn sample_size($($m)+ $s, n: usize) -> $ret {
            $s.limits.sample_size = Some(n);
            $s
        }

        /// criterion's warm-up time: read as how slow the benchmarks are.
        pub fn warm_up_time($($m)+ $s, dur: std::time::Duration) -> $ret {
            $s.limits.warm_up_time = Some(dur);
            $s
        }

        /// criterion's measurement time: read as how slow the benchmarks are.
        pub fn measurement_time($($m)+ $s, dur: std::time::Duration) -> $ret {
            $s.limits.measurement_time = Some(dur);
            $s
        }

        /// Accepted and ignored: nbench's intervals do not resample this way.
        #[allow(unused_mut)]
        pub fn nresamples($($m)+ $s, _: usize) -> $ret {
            crate::notice::once(crate::notice::NRESAMPLES);
            $s
        }

        /// Accepted and ignored: `cargo nbench --threshold` (or `nbench.toml`) sets it.
        #[allow(unused_mut)]
        pub fn noise_threshold($($m)+ $s, _: f64) -> $ret {
            crate::notice::once(crate::notice::NOISE_THRESHOLD);
            $s
        }

        /// Accepted and ignored: nbench's intervals are 95 %.
        #[allow(unused_mut)]
        pub fn confidence_level($($m)+ $s, _: f64) -> $ret {
            crate::notice::once(crate::notice::CONFIDENCE_LEVEL);
            $s
        }

        /// Accepted and ignored: `cargo nbench` decides significance over the whole run.
        #[allow(unused_mut)]
        pub fn significance_level($($m)+ $s, _: f64) -> $ret {
            crate::notice::once(crate::notice::SIGNIFICANCE_LEVEL);
            $s
        }
    };
    ([$($m:tt)+] $s:ident -> $ret:ty, plots) => {
        $crate::limits::settings!([$($m)+] $s -> $ret);

        /// Accepted and ignored: nbench draws no plots.
        #[allow(unused_mut)]
        pub fn plot_config($($m)+ $s, _: crate::PlotConfiguration) -> $ret {
            $s
        }

        /// Accepted and ignored: nbench chooses iteration counts itself.
        #[allow(unused_mut)]
        pub fn sampling_mode($($m)+ $s, _: crate::SamplingMode) -> $ret {
            crate::notice::once(crate::notice::SAMPLING_MODE);
            $s
        }
    };
}
pub(crate) use settings;

impl Limits {
    /// These limits where set, `base`'s elsewhere.
    pub fn over(self, base: Limits) -> Limits {
        Limits {
            sample_size: self.sample_size.or(base.sample_size),
            measurement_time: self.measurement_time.or(base.measurement_time),
            warm_up_time: self.warm_up_time.or(base.warm_up_time),
        }
    }

    /// The factors on nbench's limits; `None` when the program set none of these.
    pub fn hint(&self) -> Option<Hint> {
        if *self == Limits::default() {
            return None;
        }
        let ratio = |d: Option<Duration>, of: Duration| d.map_or(1.0, |d| d.div_duration_f64(of));
        let hint = Hint {
            time: ratio(self.measurement_time, MEASUREMENT),
            warm_up: ratio(self.warm_up_time, WARM_UP),
            samples: self.sample_size.map_or(1.0, |n| n as f64 / SAMPLES as f64),
        };
        Some(hint.clamped())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_settings_become_factors_on_nbench_limits() {
        assert_eq!(Limits::default().hint(), None);
        let slow = Limits {
            sample_size: Some(10),
            measurement_time: Some(Duration::from_secs(20)),
            warm_up_time: Some(Duration::from_secs(1)),
        };
        let h = slow.hint().unwrap();
        assert_eq!((h.time, h.warm_up, h.samples), (4.0, 1.0, 0.1));
    }
}
