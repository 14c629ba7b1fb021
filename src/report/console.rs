//! The console report: a table per bench target with the harness's columns, then failures and a summary.

use super::record::{BenchRecord, RunRecord};
use console::style;
use nbench::engine::Stop;
use nbench::modes::table::Table;
use nbench::result::BenchResult;
use std::fmt::Write;

/// Lines of a failed benchmark's output shown (the last ones).
const OUTPUT_LINES: usize = 20;

/// The whole report as text (styled if colours are enabled).
pub fn render(run: &RunRecord) -> String {
    let mut out = String::new();
    for t in &run.targets {
        if t.benchmarks.is_empty() && t.failures.is_empty() && t.ignored.is_empty() {
            continue;
        }
        let ids = t
            .benchmarks
            .iter()
            .map(|b| b.id.as_str())
            .chain(t.failures.iter().map(|f| f.id.as_str()))
            .chain(t.ignored.iter().map(String::as_str));
        let table = Table::new(ids);
        let _ = writeln!(out, "{}", style(&t.target).bold());
        let _ = writeln!(out, "{}", style(table.header()).dim());
        for b in &t.benchmarks {
            let _ = writeln!(out, "{}", table.row(&as_result(b)));
        }
        for f in t.failures.iter().filter(|f| !f.id.is_empty()) {
            let _ = writeln!(
                out,
                "{}",
                style(table.status_row(&f.id, "FAILED", &f.reason)).red()
            );
        }
        for id in &t.ignored {
            let _ = writeln!(
                out,
                "{}",
                style(table.status_row(id, "ignored", "")).yellow()
            );
        }
        out.push('\n');
    }
    out
}

/// The failures, each with the end of what it printed, for stderr.
pub fn render_failures(run: &RunRecord) -> String {
    let mut out = String::new();
    for t in &run.targets {
        for f in &t.failures {
            let what = if f.id.is_empty() {
                format!("bench target {}", t.target)
            } else {
                format!("{} › {}", t.target, f.id)
            };
            let _ = writeln!(
                out,
                "{}: {what}: {}",
                style("failed").red().bold(),
                f.reason
            );
            let lines: Vec<&str> = f.output.lines().collect();
            if !lines.is_empty() {
                let from = lines.len().saturating_sub(OUTPUT_LINES);
                let _ = writeln!(
                    out,
                    "  --- output{} ---",
                    if from > 0 { " (last lines)" } else { "" }
                );
                for l in &lines[from..] {
                    let _ = writeln!(out, "  {l}");
                }
            }
        }
    }
    out
}

/// The closing line.
pub fn summary(run: &RunRecord) -> String {
    let count =
        |f: fn(&super::record::TargetRecord) -> usize| run.targets.iter().map(f).sum::<usize>();
    let measured = count(|t| t.benchmarks.len());
    let failed = count(|t| t.failures.len());
    let ignored = count(|t| t.ignored.len());
    let filtered = count(|t| t.filtered_out);
    let verdict = if failed == 0 {
        style("ok").green().bold()
    } else {
        style("FAILED").red().bold()
    };
    format!(
        "{verdict}. {measured} measured; {failed} failed; {ignored} ignored; {filtered} filtered out; finished in {:.2}s",
        run.duration_s
    )
}

/// Rebuilds the harness's result type from the stored record, so the
/// table is drawn by the same code in `cargo bench` and `cargo nbench`.
fn as_result(b: &BenchRecord) -> BenchResult {
    let summary = nbench::stats::Summary::new(&b.per_iter_ns)
        .unwrap_or_else(|_| nbench::stats::Summary::from_sorted(&[b.median_ns]));
    BenchResult {
        id: b.id.clone(),
        summary,
        per_iter_ns: Vec::new(),
        iters: b.iters_per_sample,
        cold_ns: b.cold_ns,
        overhead_ns: b.overhead_ns,
        near_floor: b.near_floor,
        stop: match b.stop.as_str() {
            "time_limit" => Stop::TimeLimit,
            "sample_limit" => Stop::SampleLimit,
            _ => Stop::Precise,
        },
        throughput: b.throughput(),
    }
}
