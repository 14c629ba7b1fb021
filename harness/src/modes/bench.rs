//! `--bench`: measure each selected benchmark with the engine and print the table.

use super::args::Args;
use crate::drive::engine::{Taken, loop_overhead, measure_one};
use crate::family::fit_families;
use crate::format;
use crate::registry::{Benchmark, baseline_of};
use crate::result::BenchResult;
use crate::select::Selected;
use crate::table::Table;
use crate::timer::{TimerInfo, WallClock};
use std::io::Write;
use std::time::Instant;

/// [`measure_one`] `args.repetitions` times, pooled; the first failure or skip ends it.
fn measure_repeated(
    bench: &Benchmark,
    all: &[Benchmark],
    args: &Args,
    timer: TimerInfo,
    overhead_ns: f64,
) -> Result<Taken, String> {
    let mut parts = Vec::new();
    for _ in 0..args.repetitions {
        match measure_one(bench, all, &args.settings, timer, overhead_ns)? {
            Taken::Result(r) => parts.push(*r),
            skipped => return Ok(skipped),
        }
    }
    let pooled = BenchResult::pool(parts).map_err(|e| e.to_string())?;
    Ok(Taken::Result(Box::new(pooled)))
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
        if args.filter.verdict(&bench.id, bench.ignored) == Selected::Ignored {
            ignored += 1;
            let _ = writeln!(stdout, "{}", table.status_row(&bench.id, "ignored", ""));
            continue;
        }
        let line = match measure_repeated(bench, all, args, timer, overhead) {
            Ok(Taken::Skipped(reason)) => {
                skipped += 1;
                table.status_row(&bench.id, "skipped", &reason)
            }
            Ok(Taken::Result(r)) => {
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
