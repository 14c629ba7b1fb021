//! The engine driver: a benchmark measured fully (with its group's baseline interleaved, when it has one).

use super::guard::{Finish, run_guarded};
use crate::bencher::{Declared, Driver, LoopKind};
use crate::counter::Counter;
use crate::engine::{self, Measure, Measurement, Settings};
use crate::loops::empty_loop;
use crate::registry::{Benchmark, baseline_of};
use crate::result::{BenchResult, Versus};
use crate::timer::{TimerInfo, WallClock};
use std::time::Duration;

/// Measures fully: the driver behind `Bencher` in `--bench` mode.
pub struct EngineDriver<'s> {
    settings: &'s Settings,
    timer: TimerInfo,
    clock: WallClock,
    /// The group's baseline to measure interleaved with, and the loop overhead.
    baseline: Option<(&'s Benchmark, f64)>,
    out: Option<Driven>,
}

/// What the timing call of one benchmark gave the engine driver.
pub struct Driven {
    /// The loop used.
    pub kind: LoopKind,
    /// The measurement.
    pub measurement: Measurement,
    /// Allocation counts, when a counting allocator is installed.
    pub allocs: Vec<Counter>,
    /// The ratio to the group's baseline, for a member of a group with one.
    pub versus: Option<Versus>,
}

impl<'s> EngineDriver<'s> {
    /// A driver measuring with `settings` on the wall clock.
    pub fn new(settings: &'s Settings, timer: TimerInfo) -> Self {
        EngineDriver {
            settings,
            timer,
            clock: WallClock::new(),
            baseline: None,
            out: None,
        }
    }
}

impl EngineDriver<'_> {
    /// What the timing call gave, if it made one.
    pub fn take(&mut self) -> Option<Driven> {
        self.out.take()
    }
}

impl Driver for EngineDriver<'_> {
    fn drive(&mut self, kind: LoopKind, _: &Declared, m: &mut dyn Measure) {
        // A second timing call is reported as misuse by the guard; skip its work.
        if self.out.is_none() {
            let paired = self.baseline.and_then(|(base, overhead)| {
                super::versus::measure(m, kind, base, self.settings, self.timer, overhead)
            });
            let (measurement, versus) = match paired {
                Some((measured, versus)) => (measured, Some(versus)),
                None => (
                    engine::measure(self.settings, &self.timer, &self.clock, m),
                    None,
                ),
            };
            let allocs = crate::alloc::measure(measurement.iters, |n| {
                m.sample(n);
            });
            self.out = Some(Driven {
                kind,
                measurement,
                allocs,
                versus,
            });
        }
    }
}

/// What measuring one benchmark gave, when it did not fail.
pub enum Taken {
    /// Its result.
    Result(Box<BenchResult>),
    /// It skipped itself, for this reason.
    Skipped(String),
}

/// Measures one benchmark fully; `Err` says why it failed (panic, misuse, a failed check).
/// A member of a group with a baseline is measured interleaved with it.
pub fn measure_one(
    bench: &Benchmark,
    benches: &[Benchmark],
    settings: &Settings,
    timer: TimerInfo,
    overhead: f64,
) -> Result<Taken, String> {
    let mut driver = EngineDriver::new(settings, timer);
    driver.baseline = baseline_of(benches, bench).map(|b| (b, overhead));
    let declared = match run_guarded(bench, &mut driver)? {
        Finish::Timed(declared) => declared,
        Finish::Skipped(reason) => return Ok(Taken::Skipped(reason)),
    };
    let mut d = driver.take().expect("a timing call records a measurement");
    let mut r = BenchResult::new(
        bench.id.clone(),
        d.measurement,
        d.kind,
        overhead,
        declared.throughput,
        settings.outliers,
    )
    .map_err(|e| e.to_string())?;
    // No narrower than a clock step shared by the sample's iterations.
    let half_step = timer.resolution_ns / (2.0 * r.iters.max(1) as f64);
    r.summary.median_ci = r.summary.median_ci.at_least(r.summary.median, half_step);
    r.counters = declared.counters;
    r.metric = declared.metric;
    r.counters.append(&mut d.allocs);
    r.versus = d.versus;
    r.is_baseline = bench.baseline;
    Ok(Taken::Result(Box::new(r)))
}

/// The `iter` loop's own cost per iteration, ns, measured with a short schedule.
pub fn loop_overhead(timer: &TimerInfo) -> f64 {
    let settings = Settings {
        warm_up: Duration::from_millis(20),
        min_time: Duration::from_millis(20),
        max_time: Duration::from_millis(50),
        ..Settings::default()
    };
    let m = engine::measure(&settings, timer, &WallClock::new(), &mut empty_loop());
    let mut t = m.per_iter;
    t.sort_by(f64::total_cmp);
    crate::stats::median_sorted(&t)
}
