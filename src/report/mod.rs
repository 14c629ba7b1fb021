//! Reporting a run: the console table, Markdown, the JSON document, and the progress line.

pub mod bencher;
pub mod compare;
pub mod console;
pub mod csv;
pub mod header;
pub mod html;
pub mod jsonl;
pub mod markdown;
pub mod progress;
pub mod record;
#[cfg(test)]
mod snapshots;

use crate::cli::{Format, Verbosity};
use crate::run::TargetRun;
use nbench::format::TimeUnit;
use record::RunRecord;
use std::path::Path;

/// The whole report of a run in `format`. `saved`: where the run was stored,
/// if it was; `verbosity`: how much the console report says around its tables.
pub fn render(
    format: Format,
    record: &RunRecord,
    runs: &[TargetRun],
    unit: Option<TimeUnit>,
    saved: Option<&Path>,
    verbosity: Verbosity,
) -> String {
    match format {
        Format::Console => {
            let body = match &record.comparison {
                Some(c) => compare::render(c),
                None => console::render(runs, unit, verbosity == Verbosity::Verbose),
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
        Format::Json => serde_json::to_string_pretty(record).expect("run records serialise") + "\n",
        Format::Jsonl => jsonl::render(record, saved),
        Format::Csv => csv::render(record, unit),
        Format::Markdown => markdown::render(record),
        Format::Bencher => bencher::render(record),
    }
}

/// A relative change as a signed percentage; a rounding of zero shows as
/// `+0.00%`, not `-0.00%`; NaN or infinite as `n/a`.
pub fn percent_change(x: f64) -> String {
    if !x.is_finite() {
        return nbench::format::NOT_A_NUMBER.to_owned();
    }
    let x = if (x * 100.0).abs() < 0.005 { 0.0 } else { x };
    format!("{:+.2}%", x * 100.0)
}

/// A p-value to three decimals, or `<0.001`.
pub fn p_value(p: f64) -> String {
    if p.is_nan() {
        nbench::format::NOT_A_NUMBER.to_owned()
    } else if p < 0.001 {
        "<0.001".to_owned()
    } else {
        format!("{p:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
