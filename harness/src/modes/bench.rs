//! `--bench`: measure each selected benchmark with the engine and print the table.

use super::alone;
use super::args::{Args, Output};
use crate::drive::engine::{Taken, loop_overhead, measure_one};
use crate::family::fit_families;
use crate::format;
use crate::libtest::{self, json};
use crate::registry::{Benchmark, baseline_of};
use crate::result::BenchResult;
use crate::select::Selected;
use crate::table::Table;
use crate::timer::{TimerInfo, WallClock};
use std::io::Write;
use std::time::Instant;

/// [`measure_one`] `args.repetitions` times, pooled; the first failure or
/// skip ends it. `shared` says whether a benchmark was measured in this
/// process before: a measurement that fails after one is taken again in a
/// fresh process ([`alone`]), and so are the ones after it.
fn measure_repeated(
    bench: &Benchmark,
    all: &[Benchmark],
    args: &Args,
    (timer, overhead): (TimerInfo, f64),
    shared: &mut bool,
) -> Result<Taken, String> {
    let mut parts = Vec::new();
    let settings = match bench.hint {
        Some(hint) => hint.apply(&args.settings, args.open),
        None => args.settings.clone(),
    };
    // One the program reaches only in a process aimed at it is measured there.
    let mut apart = bench.elsewhere;
    for _ in 0..args.repetitions {
        let mut taken = apart
            .then(|| alone::measured(&bench.id, &settings))
            .flatten()
            .unwrap_or_else(|| measure_one(bench, all, &settings, timer, overhead));
        if taken.is_err() && *shared && !apart {
            if let Some(again) = alone::measured(&bench.id, &settings) {
                apart = true;
                taken = again;
            }
        }
        *shared = true;
        match taken? {
            Taken::Result(r) => parts.push(*r),
            skipped => return Ok(skipped),
        }
    }
    let pooled = BenchResult::pool(parts).map_err(|e| e.to_string())?;
    Ok(Taken::Result(Box::new(pooled)))
}

/// Where `--bench` writes: stdout, and the `--logfile` when there is one.
struct Sink {
    stdout: std::io::StdoutLock<'static>,
    log: Option<std::fs::File>,
}

impl Sink {
    fn open(args: &Args) -> Result<Sink, String> {
        let log = match &args.logfile {
            Some(path) => Some(
                std::fs::File::create(path)
                    .map_err(|e| format!("could not create --logfile '{path}': {e}"))?,
            ),
            None => None,
        };
        Ok(Sink {
            stdout: std::io::stdout().lock(),
            log,
        })
    }

    fn line(&mut self, text: &str) {
        let _ = writeln!(self.stdout, "{text}");
        let _ = self.stdout.flush();
        if let Some(log) = &mut self.log {
            let _ = writeln!(log, "{text}");
        }
    }
}

/// What happened to one benchmark.
enum Event<'a> {
    Ignored,
    Skipped(&'a str),
    Measured(&'a BenchResult),
    Failed(&'a str),
}

/// The lines for one benchmark's `event`, in the chosen output.
fn event_lines(output: Output, table: &Table, id: &str, event: &Event<'_>) -> Vec<String> {
    match output {
        Output::Pretty | Output::Terse => vec![match event {
            Event::Ignored => table.status_row(id, "ignored", ""),
            Event::Skipped(reason) => table.status_row(id, "skipped", reason),
            Event::Measured(r) => table.row(r),
            Event::Failed(why) => table.status_row(id, "FAILED", why),
        }],
        Output::Bencher => vec![match event {
            Event::Ignored => format!("test {} ... ignored", libtest::name(id)),
            Event::Skipped(reason) => format!("test {} ... ignored, {reason}", libtest::name(id)),
            Event::Measured(r) => {
                let s = &r.summary;
                libtest::bench_line(id, s.median, s.p5, s.p95)
            }
            Event::Failed(_) => format!("test {} ... FAILED", libtest::name(id)),
        }],
        Output::Json => {
            let mut lines = vec![json::test_started(id)];
            lines.push(match event {
                Event::Ignored => json::test_event(id, "ignored", None),
                Event::Skipped(reason) => json::test_event(id, "ignored", Some(reason)),
                Event::Measured(r) => {
                    json::bench(id, r.summary.median, r.summary.p5, r.summary.p95)
                }
                Event::Failed(why) => json::test_event(id, "failed", Some(why)),
            });
            lines
        }
    }
}

/// Runs `--bench`; returns whether every benchmark succeeded.
/// `all` is every registered benchmark (a member's baseline may be filtered out).
pub fn run(all: &[Benchmark], selected: &[&Benchmark], filtered_out: usize, args: &Args) -> bool {
    let started = Instant::now();
    let mut out = match Sink::open(args) {
        Ok(out) => out,
        Err(e) => {
            eprintln!("error: {e}");
            return false;
        }
    };
    let timer = TimerInfo::measure(&WallClock::new(), 10_000);
    let overhead = loop_overhead(&timer);
    let ratio = selected
        .iter()
        .any(|b| b.baseline || baseline_of(all, b).is_some());
    let table = (Table::new(selected.iter().map(|b| b.id.as_str())))
        .with_ratio(ratio)
        .with_resolution(timer.resolution_ns);
    let first = match args.output {
        Output::Pretty | Output::Terse => format!(
            "timer: {} resolution, {} per reading; loop overhead {} per iteration\n\n{}",
            format::time(timer.resolution_ns),
            format::time(timer.cost_ns),
            format::time(overhead),
            table.header()
        ),
        Output::Bencher => format!("\n{}", libtest::running(selected.len())),
        Output::Json => json::suite_started(selected.len()),
    };
    out.line(&first);
    let (mut measured, mut failed, mut ignored, mut skipped) = (0, Vec::new(), 0, 0);
    let mut scaled = Vec::new();
    let mut shared = false;
    for bench in selected {
        let id = bench.id.as_str();
        let taken = if args.filter.verdict(id, bench.ignored) == Selected::Ignored {
            None
        } else {
            Some(measure_repeated(
                bench,
                all,
                args,
                (timer, overhead),
                &mut shared,
            ))
        };
        let event = match &taken {
            None => Event::Ignored,
            Some(Ok(Taken::Skipped(reason))) => Event::Skipped(reason),
            Some(Ok(Taken::Result(r))) => Event::Measured(r),
            Some(Err(why)) => Event::Failed(why),
        };
        match &event {
            Event::Ignored => ignored += 1,
            Event::Skipped(_) => skipped += 1,
            Event::Measured(r) => {
                measured += 1;
                scaled.extend(bench.scaling.as_ref().map(|sc| (sc, r.summary.median)));
            }
            Event::Failed(_) => failed.push(id),
        }
        for line in event_lines(args.output, &table, id, &event) {
            out.line(&line);
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let counts = [measured, skipped, ignored, filtered_out];
    last_lines(&mut out, args.output, scaled, &failed, counts, secs);
    failed.is_empty()
}

/// The closing lines in the chosen output: `counts` are measured, skipped,
/// ignored and filtered out.
fn last_lines(
    out: &mut Sink,
    output: Output,
    scaled: Vec<(&crate::family::Scaling, f64)>,
    failed: &[&str],
    counts: [usize; 4],
    secs: f64,
) {
    let [measured, skipped, ignored, filtered_out] = counts;
    // libtest counts skipped benchmarks as ignored.
    let tally = libtest::Tally {
        failed: failed.len(),
        ignored: ignored + skipped,
        measured,
        filtered_out,
        secs,
    };
    match output {
        Output::Pretty | Output::Terse => summary(out, scaled, failed, counts, secs),
        Output::Bencher => out.line(&format!("\n{}\n", libtest::result_line(&tally))),
        Output::Json => out.line(&json::suite_finished(&tally)),
    }
}

/// The table's closing lines: complexity fits and the counts.
fn summary(
    out: &mut Sink,
    scaled: Vec<(&crate::family::Scaling, f64)>,
    failed: &[&str],
    [measured, skipped, ignored, filtered_out]: [usize; 4],
    secs: f64,
) {
    let fits = fit_families(scaled);
    if !fits.is_empty() {
        out.line(&format!("\n{}", crate::family::HEADING));
        for f in &fits {
            out.line(&format!("  {}", f.line()));
        }
    }
    let verdict = if failed.is_empty() { "ok" } else { "FAILED" };
    // As cargo nbench's summary: skipped benchmarks are named only when there are some.
    let skipped = match skipped {
        0 => String::new(),
        n => format!(" {n} skipped;"),
    };
    out.line(&format!(
        "\nbench result: {verdict}. {measured} measured; {} failed;{skipped} {ignored} ignored; {filtered_out} filtered out; finished in {secs:.2}s",
        failed.len(),
    ));
    if !failed.is_empty() {
        out.line(&format!("failed: {}", failed.join(", ")));
    }
}
