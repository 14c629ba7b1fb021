//! The console report: a table per bench target with the harness's columns, then failures and a summary.

use super::cells::{counter_headers, interval_header, interval_note};
use crate::model::few::{by_reason, first_few};
use crate::model::record::{BenchRecord, FailureRecord, FitRecord, RunRecord, TargetRecord};
use console::style;
use nbench::__private::family::FamilyFit;
use nbench::__private::format::{TimeUnit, one_line, time};
use nbench::__private::table::Table;
use std::fmt::Write;

/// Lines of a failed benchmark's output shown (the last ones).
const OUTPUT_LINES: usize = 20;

/// The tables of a run as text (styled if colours are enabled): each
/// target's measured benchmarks in its binary's order, then those that
/// failed, were ignored or skipped themselves; `details`: each benchmark's cold time,
/// loop overhead and sampling under its target's table.
pub fn render(run: &RunRecord, unit: Option<TimeUnit>, details: bool) -> String {
    let mut out = String::new();
    for t in &run.targets {
        let ids = (t.benchmarks.iter().map(|b| b.id.as_str()))
            .chain(t.failures.iter().map(|f| f.id.as_str()))
            .chain(t.ignored.iter().map(String::as_str))
            .chain(t.skipped.iter().map(|s| s.id.as_str()));
        if ids.clone().next().is_none() {
            if let Some(said) = nothing_measured(t) {
                let _ = writeln!(out, "{}\n  {said}\n", style(&t.target).bold());
            }
            continue;
        }
        let _ = writeln!(out, "{}", style(&t.target).bold());
        let alone = t.benchmarks.is_empty() && t.skipped.is_empty() && t.ignored.is_empty();
        if let (true, [f]) = (alone, t.failures.as_slice())
            && f.id.is_empty()
        {
            let line = format!("  FAILED  the whole bench target: {}", f.reason);
            let _ = writeln!(out, "{}\n", style(line).red());
            continue;
        }
        let table = Table::new(ids)
            .with_unit(unit)
            .with_counters(counter_headers(&t.benchmarks))
            .with_ratio(t.benchmarks.iter().any(BenchRecord::in_ratio_group))
            .with_interval_header(interval_header(&t.benchmarks));
        let _ = writeln!(out, "{}", style(table.header()).dim());
        for b in &t.benchmarks {
            let _ = writeln!(out, "{}", table.figures_row(&b.figures()));
        }
        for f in t.failures.iter().filter(|f| !f.id.is_empty()) {
            let row = table.status_row(&f.id, "FAILED", &f.reason);
            let _ = writeln!(out, "{}", style(row).red());
        }
        for id in &t.ignored {
            let row = table.status_row(id, "ignored", "");
            let _ = writeln!(out, "{}", style(row).yellow());
        }
        for s in &t.skipped {
            let row = table.status_row(&s.id, "skipped", &s.reason);
            let _ = writeln!(out, "{}", style(row).yellow());
        }
        if let Some(note) = interval_note(&t.benchmarks) {
            let _ = writeln!(out, "{}", style(note).dim());
        }
        if details {
            for b in &t.benchmarks {
                let line = format!(
                    "  {}: first call {}, loop overhead {}/iter, {} samples × {} iterations, {:.2}s",
                    one_line(&b.id),
                    time(b.cold),
                    time(b.overhead),
                    b.per_iter.len(),
                    b.iters_per_sample,
                    b.elapsed_s
                );
                let _ = writeln!(out, "{}", style(line).dim());
            }
        }
        if !t.fits.is_empty() {
            let _ = writeln!(out, "{}", style(nbench::__private::family::HEADING).dim());
            for f in &t.fits {
                let _ = writeln!(out, "  {}", fit(f).line());
            }
        }
        out.push('\n');
    }
    out
}

/// A stored family fit as the harness words it.
fn fit(f: &FitRecord) -> FamilyFit {
    FamilyFit {
        family: f.family.clone(),
        complexity: f.complexity.clone(),
        coefficient: f.coefficient,
        rms: f.rms,
        points: f.points.iter().map(|&[n, t]| (n, t)).collect(),
        fitted: f.fitted.clone(),
    }
}

/// The failures, each with the end of what it printed, for stderr.
pub fn render_failures(run: &RunRecord) -> String {
    let mut out = String::new();
    // Whole targets that failed alike, with nothing printed (every binary
    // refusing a flag given after `--`): one line.
    let whole = |f: &&FailureRecord| f.id.is_empty() && f.output.is_empty();
    let alike = by_reason((run.targets.iter()).flat_map(|t| {
        (t.failures.iter().filter(whole)).map(|f| (f.reason.as_str(), t.target.as_str()))
    }));
    let failed = style("failed").red().bold();
    for t in &run.targets {
        for f in &t.failures {
            let group = (alike.iter()).find(|(r, ts)| whole(&f) && *r == f.reason && ts.len() > 1);
            let what = match group {
                Some((_, targets)) if targets[0] != t.target => continue,
                Some((_, targets)) => format!("bench targets {}", first_few(targets)),
                None if f.id.is_empty() => format!("bench target {}", t.target),
                None => format!("{} › {}", t.target, one_line(&f.id)),
            };
            let _ = writeln!(out, "{failed}: {what}: {}", f.reason);
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

/// What a target with no row says: registering none, or listed only (a
/// revision's baseline). One left out by the filters or measured by other
/// shards has nothing to say.
fn nothing_measured(t: &TargetRecord) -> Option<console::StyledObject<String>> {
    Some(match t.listed.len() {
        0 if t.filtered_out == 0 && t.other_shards == 0 => {
            style("registers no benchmarks".to_owned()).yellow()
        }
        0 => return None,
        n => style(format!(
            "{n} benchmark{} listed, not measured: a comparison measures its executable",
            if n == 1 { "" } else { "s" }
        ))
        .dim(),
    })
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

#[cfg(test)]
mod tests {
    use crate::model::outcome::{Failure, Outcome, TargetRun};
    use crate::report::snapshots::record;

    #[test]
    fn a_target_listed_not_measured_says_so_and_one_that_registers_none_too() {
        console::set_colors_enabled(false);
        let target = |label: &str, ids: &[&str]| TargetRun {
            label: label.into(),
            outcomes: ids.iter().map(|id| Outcome::Listed((*id).into())).collect(),
            filtered_out: 0,
            elsewhere: Vec::new(),
            scalings: Vec::new(),
        };
        let runs = [
            target("demo/listed", &["a", "b"]),
            target("demo/one", &["a"]),
            target("demo/none", &[]),
        ];
        let text = super::render(&record(&runs, None), None, false);
        let said: Vec<&str> = text.lines().filter(|l| l.starts_with("  ")).collect();
        assert_eq!(
            said,
            [
                "  2 benchmarks listed, not measured: a comparison measures its executable",
                "  1 benchmark listed, not measured: a comparison measures its executable",
                "  registers no benchmarks",
            ],
            "{text}"
        );
    }

    #[test]
    fn whole_targets_that_failed_alike_are_said_in_one_line() {
        console::set_colors_enabled(false);
        let failed = |label: &str, reason: &str, output: &str| TargetRun {
            label: label.into(),
            outcomes: vec![Outcome::Failed(Failure {
                id: String::new(),
                reason: reason.into(),
                output: output.into(),
            })],
            filtered_out: 0,
            elsewhere: Vec::new(),
            scalings: Vec::new(),
        };
        let refused = "exited with code 2: error: unknown option '--bogus'";
        let mut runs: Vec<TargetRun> = ["p/a", "p/b", "p/c", "p/d"]
            .iter()
            .map(|l| failed(l, refused, ""))
            .collect();
        runs.insert(1, failed("p/own", "panicked at benches/own.rs:3:5", ""));
        runs.push(failed("p/loud", refused, "it printed this"));
        let text = super::render_failures(&record(&runs, None));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                format!("failed: bench targets p/a, p/b, p/c, p/d: {refused}"),
                "failed: bench target p/own: panicked at benches/own.rs:3:5".to_owned(),
                format!("failed: bench target p/loud: {refused}"),
                "  --- output ---".to_owned(),
                "  it printed this".to_owned(),
            ],
            "{text}"
        );
        // More are counted, as every note that names a few of many.
        runs.extend(["p/e", "p/f"].map(|l| failed(l, refused, "")));
        let text = super::render_failures(&record(&runs, None));
        assert!(
            text.starts_with(&format!(
                "failed: bench targets p/a, p/b, p/c and 3 more: {refused}\n"
            )),
            "{text}"
        );
    }
}
