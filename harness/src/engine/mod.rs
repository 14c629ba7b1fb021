//! The measurement engine: first call, pilot, warm-up, then sampling to a precision target.
//!
//! The engine never touches a routine directly: it asks a [`Measure`] for
//! samples of `iters` iterations and reads time through a [`Clock`], so the
//! whole schedule is tested with fakes (see `tests` below).

mod pilot;
mod sampling;
mod settings;

pub use pilot::{MAX_ITERS, next_iters};
pub use settings::{Hint, Open, Settings};

use crate::timer::{Clock, TimerInfo};

/// A source of samples: runs the routine `iters` times back to back and
/// returns how long that took, in nanoseconds.
pub trait Measure {
    /// One sample of `iters` iterations.
    fn sample(&mut self, iters: u64) -> f64;
}

/// Why sampling stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The 95 % CI of the median reached the precision target.
    Precise,
    /// The time limit ran out first.
    TimeLimit,
    /// The sample cap was reached first.
    SampleLimit,
    /// The time limit ran out before the minimum number of samples.
    TooFewSamples,
}

impl Stop {
    /// The reason as stored and sent: `precise`, `time_limit`, `sample_limit`.
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::Precise => "precise",
            Stop::TimeLimit => "time_limit",
            Stop::SampleLimit => "sample_limit",
            Stop::TooFewSamples => "too_few_samples",
        }
    }

    /// The reason [`Stop::as_str`] names.
    pub fn parse(text: &str) -> Option<Stop> {
        [
            Stop::Precise,
            Stop::TimeLimit,
            Stop::SampleLimit,
            Stop::TooFewSamples,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}

/// What the engine measured for one benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    /// Iterations in each sample, chosen by the pilot.
    pub iters: u64,
    /// Per-iteration time of each sample, ns (the raw loop, overhead included).
    pub per_iter: Vec<f64>,
    /// The first call's time, ns: cold caches, lazy initialisation and all.
    pub cold: f64,
    /// Why sampling stopped.
    pub stop: Stop,
    /// Time spent in the sampling phase, ns.
    pub sampling_ns: u64,
}

/// Runs the whole schedule for one routine.
pub fn measure(
    settings: &Settings,
    timer: &TimerInfo,
    clock: &dyn Clock,
    m: &mut dyn Measure,
) -> Measurement {
    let cold = m.sample(1);
    let target_ns = timer.min_sample_ns(settings.timer_factor);
    let mut iters = pilot::choose_iters(target_ns, settings.max_time_ns(), clock, m);
    iters = pilot::warm_up(iters, target_ns, settings.warm_up_ns(), clock, m);
    let (per_iter, stop, sampling_ns) = sampling::sample(settings, iters, clock, m);
    Measurement {
        iters,
        per_iter,
        cold,
        stop,
        sampling_ns,
    }
}

#[cfg(test)]
pub(crate) mod fake {
    //! A routine whose cost is known exactly, advancing a fake clock.
    use super::Measure;
    use crate::timer::fake::FakeClock;

    pub struct FakeRoutine<'c> {
        pub clock: &'c FakeClock,
        pub per_iter: f64,
        /// Relative jitter applied as +j, -j, +j, … to successive samples.
        pub jitter: f64,
        pub calls: u64,
        pub iters_seen: Vec<u64>,
    }

    impl<'c> FakeRoutine<'c> {
        pub fn new(clock: &'c FakeClock, per_iter: f64) -> Self {
            FakeRoutine {
                clock,
                per_iter,
                jitter: 0.0,
                calls: 0,
                iters_seen: Vec::new(),
            }
        }
    }

    impl Measure for FakeRoutine<'_> {
        fn sample(&mut self, iters: u64) -> f64 {
            let sign = if self.calls % 2 == 0 { 1.0 } else { -1.0 };
            self.calls += 1;
            self.iters_seen.push(iters);
            let t = iters as f64 * self.per_iter * (1.0 + sign * self.jitter);
            self.clock.advance(t as u64);
            t
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fake::FakeRoutine;
    use super::*;
    use crate::timer::fake::FakeClock;
    use std::time::Duration;

    const TIMER: TimerInfo = TimerInfo {
        resolution_ns: 1.0,
        cost_ns: 25.0,
    };

    #[test]
    fn steady_routine_stops_precise_at_min_samples() {
        let clock = FakeClock::default();
        let mut r = FakeRoutine::new(&clock, 2.0);
        let s = Settings::default();
        let m = measure(&s, &TIMER, &clock, &mut r);
        assert_eq!(m.stop, Stop::Precise);
        // It stops at the first check after the minimum time, not later.
        let min = s.min_time.as_nanos() as u64;
        assert!(m.sampling_ns >= min && m.sampling_ns < min + 2 * m.iters * 2);
        assert!(m.per_iter.iter().all(|&t| t == 2.0));
        // 25 ns timer cost × 1000 = 25 µs per sample at least, not wastefully more.
        let sample_ns = m.iters as f64 * 2.0;
        assert!(
            (25_000.0..=2.0 * 25_000.0).contains(&sample_ns),
            "{}",
            m.iters
        );
        assert_eq!(r.iters_seen[0], 1, "the first call is the cold one");
    }

    #[test]
    fn noisy_routine_runs_to_the_time_limit() {
        let clock = FakeClock::default();
        let mut r = FakeRoutine::new(&clock, 10.0);
        r.jitter = 0.2;
        let s = Settings {
            max_time: Duration::from_millis(50),
            ..Settings::default()
        };
        let m = measure(&s, &TIMER, &clock, &mut r);
        assert_eq!(m.stop, Stop::TimeLimit);
        assert!(m.sampling_ns >= 50_000_000);
        // Overshoot is at most one sample.
        assert!(m.sampling_ns <= 50_000_000 + 2 * m.iters * 12);
    }

    #[test]
    fn slow_routine_gets_one_iteration_per_sample_and_the_time_limit_wins() {
        let clock = FakeClock::default();
        let mut r = FakeRoutine::new(&clock, 300e6); // 0.3 s per call
        r.jitter = 0.1;
        let s = Settings::default();
        let m = measure(&s, &TIMER, &clock, &mut r);
        assert_eq!(m.iters, 1);
        // Ten samples would take 3 s: the time limit (0.8 s) cuts them short,
        // at the first sample that reaches it, and says so.
        assert_eq!(m.stop, Stop::TooFewSamples);
        assert_eq!(m.per_iter.len(), 3);
        assert!(m.sampling_ns >= 800_000_000 && m.sampling_ns < 1_200_000_000);
        // A routine fast enough for the minimum gets it.
        let mut fast = FakeRoutine::new(&clock, 50e6);
        fast.jitter = 0.1;
        let m = measure(&s, &TIMER, &clock, &mut fast);
        assert!(m.per_iter.len() >= s.min_samples, "{}", m.per_iter.len());
    }

    #[test]
    fn sample_cap_is_respected() {
        let clock = FakeClock::default();
        let mut r = FakeRoutine::new(&clock, 1.0);
        r.jitter = 0.5;
        let s = Settings {
            max_samples: 40,
            max_time: Duration::from_secs(100),
            ..Settings::default()
        };
        let m = measure(&s, &TIMER, &clock, &mut r);
        assert_eq!(m.stop, Stop::SampleLimit);
        assert_eq!(m.per_iter.len(), 40);
    }

    #[test]
    fn zero_time_routine_does_not_loop_forever() {
        let clock = FakeClock::with_tick(1000);
        let mut r = FakeRoutine::new(&clock, 0.0);
        let s = Settings::default();
        let m = measure(&s, &TIMER, &clock, &mut r);
        assert!(m.per_iter.iter().all(|&t| t == 0.0));
        assert!(m.iters <= pilot::MAX_ITERS);
        assert!(m.per_iter.len() <= s.max_samples);
    }
}
