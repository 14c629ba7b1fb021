//! Reporting a run: the console table, Markdown, the JSON document, and the progress line.

pub mod bencher;
pub mod cells;
pub mod compare;
pub mod compared;
pub mod console;
pub mod csv;
pub mod header;
pub mod html;
pub mod json;
pub mod jsonl;
pub mod markdown;
pub mod progress;
#[cfg(test)]
mod snapshots;

use crate::model::record::RunRecord;
use nbench::__private::format::TimeUnit;
use std::path::Path;

/// What stdout gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A table for people.
    Console,
    /// One JSON document: everything the table shows, the raw samples and the context.
    Json,
    /// The run as a stream of JSON events, one per line, written as it happens.
    Jsonl,
    /// RFC 4180 CSV, one row per benchmark, units in the header.
    Csv,
    /// GitHub-flavoured Markdown tables, with the comparison when there is one.
    Markdown,
    /// libtest's `test ID ... bench: N ns/iter (+/- D)` lines.
    Bencher,
    /// One self-contained HTML page with plots: the report page of this run
    /// alone (`target/nbench/report/index.html` adds the stored runs' history).
    Html,
}

impl Format {
    /// The format an output file's extension names, if it names one.
    pub fn from_extension(path: &std::path::Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "json" => Format::Json,
            "jsonl" | "ndjson" => Format::Jsonl,
            "csv" => Format::Csv,
            "md" | "markdown" => Format::Markdown,
            "txt" | "log" => Format::Console,
            "bencher" => Format::Bencher,
            "html" | "htm" => Format::Html,
            _ => return None,
        })
    }
}

/// How much the console report says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    /// The tables only (`-q`).
    Quiet,
    /// The context, the tables and the summary.
    Normal,
    /// Also settings, timer, cold times and overheads (`-v`).
    Verbose,
}

/// The whole report of a run in `format`. `saved`: where the run was stored,
/// if it was; `verbosity`: how much the console report says around its tables.
pub fn render(
    format: Format,
    record: &RunRecord,
    unit: Option<TimeUnit>,
    saved: Option<&Path>,
    verbosity: Verbosity,
) -> String {
    match format {
        Format::Console => {
            let body = match &record.comparison {
                Some(c) => compare::render(c, &current_time(record)),
                None => console::render(record, unit, verbosity == Verbosity::Verbose),
            };
            match verbosity {
                Verbosity::Quiet => body,
                Verbosity::Normal => format!(
                    "{}{body}{}\n",
                    header::context(&record.context),
                    console::summary(record)
                ),
                Verbosity::Verbose => format!(
                    "{}{}{body}{}\n",
                    header::context(&record.context),
                    header::settings(&record.context),
                    console::summary(record)
                ),
            }
        }
        Format::Json => json::render(record),
        Format::Jsonl => jsonl::render(record, saved),
        Format::Csv => csv::render(record, unit),
        Format::Markdown => markdown::render(record),
        Format::Bencher => bencher::render(record),
        Format::Html => html::render(record, &[]),
    }
}

/// What a paired row's time columns are, said under every comparison that has one.
pub const PAIRED_COLUMNS: &str = "paired rows: baseline is the baseline's fastest epoch (its median) in this run, current is baseline × (1 + change)";

/// Whether any row of `c` was measured in lockstep.
/// What a comparison's row that is new shows as its current time: the
/// run's own measurement of benchmark `id` of target `target`, formatted.
pub type CurrentTime<'a> = &'a dyn Fn(&str, &str) -> Option<String>;

/// [`CurrentTime`] from the run the comparison is part of.
fn current_time(run: &RunRecord) -> impl Fn(&str, &str) -> Option<String> + '_ {
    move |target, id| {
        let t = run.targets.iter().find(|t| t.target == target)?;
        let b = t.benchmarks.iter().find(|b| b.id == id)?;
        Some(b.metric.format(b.median))
    }
}

fn any_paired(c: &crate::model::comparison::Comparison) -> bool {
    c.targets
        .iter()
        .flat_map(|t| &t.rows)
        .any(|r| r.kind == crate::model::comparison::Kind::Paired)
}

/// A p-value to three decimals, or `<0.001`.
pub fn p_value(p: f64) -> String {
    if p.is_nan() {
        nbench::__private::format::NOT_A_NUMBER.to_owned()
    } else if p < 0.001 {
        "<0.001".to_owned()
    } else {
        format!("{p:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::words::percent_change;

    #[test]
    fn figures_that_are_not_numbers_never_print_as_nan() {
        assert_eq!(percent_change(-0.00001), "+0.00%");
        assert_eq!(percent_change(0.0512), "+5.12%");
        assert_eq!(percent_change(f64::NAN), "n/a");
        assert_eq!(percent_change(f64::INFINITY), "n/a");
        assert_eq!(p_value(f64::NAN), "n/a");
        assert_eq!(p_value(0.0004), "<0.001");
        assert_eq!(p_value(0.25), "0.250");
    }
}
