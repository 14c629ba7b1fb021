//! The console report: a table per bench target with the harness's columns, then failures and a summary.

use crate::model::outcome::{Outcome, TargetRun};
use crate::model::record::RunRecord;
use console::style;
use nbench::__private::format::time;
use nbench::__private::table::Table;
use std::fmt::Write;

/// Lines of a failed benchmark's output shown (the last ones).
const OUTPUT_LINES: usize = 20;

/// The tables of a fresh run as text (styled if colours are enabled), rows
/// in each binary's order; `details`: each benchmark's cold time, loop
/// overhead and sampling under its target's table.
pub fn render(
    runs: &[TargetRun],
    unit: Option<nbench::__private::format::TimeUnit>,
    details: bool,
) -> String {
    let mut out = String::new();
    for t in runs {
        if t.outcomes.is_empty() {
            // Left out by the filters: nothing to say; registering none is worth a line.
            if t.filtered_out == 0 {
                let _ = writeln!(out, "{}", style(&t.label).bold());
                let _ = writeln!(out, "  {}\n", style("registers no benchmarks").yellow());
            }
            continue;
        }
        if let [Outcome::Failed(f)] = t.outcomes.as_slice()
            && f.id.is_empty()
        {
            let _ = writeln!(out, "{}", style(&t.label).bold());
            let line = format!("  FAILED  the whole bench target: {}", f.reason);
            let _ = writeln!(out, "{}\n", style(line).red());
            continue;
        }
        let table = Table::new(t.outcomes.iter().map(Outcome::id))
            .with_unit(unit)
            .with_counters(counter_headers(t))
            .with_ratio(t.outcomes.iter().any(|o| match o {
                Outcome::Measured(m) => m.result.versus.is_some() || m.result.is_baseline,
                _ => false,
            }));
        let _ = writeln!(out, "{}", style(&t.label).bold());
        let _ = writeln!(out, "{}", style(table.header()).dim());
        for o in &t.outcomes {
            let line = match o {
                Outcome::Measured(m) => table.row(&m.result),
                Outcome::Failed(f) if f.id.is_empty() => continue,
                Outcome::Failed(f) => style(table.status_row(&f.id, "FAILED", &f.reason))
                    .red()
                    .to_string(),
                Outcome::Ignored(id) => style(table.status_row(id, "ignored", ""))
                    .yellow()
                    .to_string(),
                Outcome::Skipped { id, reason } => style(table.status_row(id, "skipped", reason))
                    .yellow()
                    .to_string(),
                Outcome::Listed(_) => continue,
            };
            let _ = writeln!(out, "{line}");
        }
        if details {
            for o in &t.outcomes {
                if let Outcome::Measured(m) = o {
                    let r = &m.result;
                    let line = format!(
                        "  {}: first call {}, loop overhead {}/iter, {} samples × {} iterations, {:.2}s",
                        r.id,
                        time(r.cold_ns),
                        time(r.overhead_ns),
                        r.per_iter_ns.len(),
                        r.iters,
                        m.elapsed_s
                    );
                    let _ = writeln!(out, "{}", style(line).dim());
                }
            }
        }
        let fits = t.fits();
        if !fits.is_empty() {
            let _ = writeln!(out, "{}", style(nbench::__private::family::HEADING).dim());
            for f in &fits {
                let _ = writeln!(out, "  {}", f.line());
            }
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

/// The counter columns of a target's table: every header its measured
/// benchmarks declared, in order of first appearance.
fn counter_headers(t: &TargetRun) -> Vec<String> {
    let measured = t.outcomes.iter().filter_map(|o| match o {
        Outcome::Measured(m) => Some(&m.result.counters),
        _ => None,
    });
    super::cells::first_appearances(measured.flatten().map(|c| c.header()))
}

/// The closing line.
pub fn summary(run: &RunRecord) -> String {
    let crate::model::record::Counts {
        measured,
        failed,
        ignored,
        skipped,
        filtered_out: filtered,
        other_shards,
    } = run.counts();
    // Skipped benchmarks are rare; the line names them only when there are some.
    let skipped = match skipped {
        0 => String::new(),
        n => format!(" {n} skipped;"),
    };
    let verdict = if failed == 0 {
        style("ok").green().bold()
    } else {
        style("FAILED").red().bold()
    };
    let shard = match &run.partition {
        Some(p) => format!(" {other_shards} in other shards ({p});"),
        None => String::new(),
    };
    format!(
        "{verdict}. {measured} measured; {failed} failed;{skipped} {ignored} ignored; {filtered} filtered out;{shard} finished in {:.2}s",
        run.duration_s
    )
}
