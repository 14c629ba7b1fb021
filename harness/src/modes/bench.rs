//! `--bench`: measure each selected benchmark with the engine and print the table.

use super::args::Args;
use super::guard::Finish;
use super::guard::run_guarded;
use super::select::Verdict;
use super::table::Table;
use crate::bencher::{Declared, Driver, LoopKind};
use crate::counter::Counter;
use crate::engine::{self, Measure, Measurement, Settings};
use crate::family::fit_families;
use crate::format;
use crate::loops::empty_loop;
use crate::registry::{Benchmark, baseline_of};
use crate::result::{BenchResult, Versus};
use crate::timer::{TimerInfo, WallClock};
use std::io::Write;
use std::time::{Duration, Instant};

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
pub enum Measured {
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
    overhead_ns: f64,
) -> Result<Measured, String> {
    let mut driver = EngineDriver::new(settings, timer);
    driver.baseline = baseline_of(benches, bench).map(|b| (b, overhead_ns));
    let declared = match run_guarded(bench, &mut driver)? {
        Finish::Timed(declared) => declared,
        Finish::Skipped(reason) => return Ok(Measured::Skipped(reason)),
    };
    let mut d = driver.take().expect("a timing call records a measurement");
    let mut r = BenchResult::new(
        bench.id.clone(),
        d.measurement,
        d.kind,
        overhead_ns,
        declared.throughput,
        settings.outliers,
    )
    .map_err(|e| e.to_string())?;
    r.counters = declared.counters;
    r.counters.append(&mut d.allocs);
    r.versus = d.versus;
    r.is_baseline = bench.baseline;
    Ok(Measured::Result(Box::new(r)))
}

/// [`measure_one`] `args.repetitions` times, pooled; the first failure or skip ends it.
fn measure_repeated(
    bench: &Benchmark,
    all: &[Benchmark],
    args: &Args,
    timer: TimerInfo,
    overhead_ns: f64,
) -> Result<Measured, String> {
    let mut parts = Vec::new();
    for _ in 0..args.repetitions {
        match measure_one(bench, all, &args.settings, timer, overhead_ns)? {
            Measured::Result(r) => parts.push(*r),
            skipped => return Ok(skipped),
        }
    }
    let pooled = BenchResult::pool(parts).map_err(|e| e.to_string())?;
    Ok(Measured::Result(Box::new(pooled)))
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
    let mut t = m.per_iter_ns;
    t.sort_by(f64::total_cmp);
    crate::stats::median_sorted(&t)
}

/// Runs `--bench`; returns whether every benchmark succeeded.
/// `all` is every registered benchmark (a member's baseline may be filtered out).
pub fn run(all: &[Benchmark], selected: &[&Benchmark], filtered_out: usize, args: &Args) -> bool {
    let started = Instant::now();
    let timer = TimerInfo::measure(&WallClock::new(), 10_000);
    let overhead = loop_overhead(&timer);
    let ratio = selected
        .iter()
        .any(|b| b.baseline || baseline_of(all, b).is_some());
    let table = Table::new(selected.iter().map(|b| b.id.as_str())).with_ratio(ratio);
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(
        stdout,
        "timer: {} resolution, {} per reading; loop overhead {} per iteration\n",
        format::time(timer.resolution_ns),
        format::time(timer.cost_ns),
        format::time(overhead),
    );
    let _ = writeln!(stdout, "{}", table.header());
    let (mut measured, mut failed, mut ignored, mut skipped) = (0, Vec::new(), 0, 0);
    let mut scaled = Vec::new();
    for bench in selected {
        if args.filter.verdict(&bench.id, bench.ignored) == Verdict::Ignored {
            ignored += 1;
            let _ = writeln!(stdout, "{}", table.status_row(&bench.id, "ignored", ""));
            continue;
        }
        let line = match measure_repeated(bench, all, args, timer, overhead) {
            Ok(Measured::Skipped(reason)) => {
                skipped += 1;
                table.status_row(&bench.id, "skipped", &reason)
            }
            Ok(Measured::Result(r)) => {
                measured += 1;
                if let Some(sc) = &bench.scaling {
                    scaled.push((sc, r.summary.median));
                }
                table.row(&r)
            }
            Err(why) => {
                failed.push(bench.id.as_str());
                table.status_row(&bench.id, "FAILED", &why)
            }
        };
        let _ = writeln!(stdout, "{line}");
        let _ = stdout.flush();
    }
    let fits = fit_families(scaled);
    if !fits.is_empty() {
        let _ = writeln!(stdout, "\n{}", crate::family::HEADING);
        for f in &fits {
            let _ = writeln!(stdout, "  {}", f.line());
        }
    }
    let verdict = if failed.is_empty() { "ok" } else { "FAILED" };
    // As cargo nbench's summary: skipped benchmarks are named only when there are some.
    let skipped = match skipped {
        0 => String::new(),
        n => format!(" {n} skipped;"),
    };
    let _ = writeln!(
        stdout,
        "\nbench result: {verdict}. {measured} measured; {} failed;{skipped} {ignored} ignored; {filtered_out} filtered out; finished in {:.2}s",
        failed.len(),
        started.elapsed().as_secs_f64()
    );
    if !failed.is_empty() {
        let _ = writeln!(stdout, "failed: {}", failed.join(", "));
    }
    failed.is_empty()
}
