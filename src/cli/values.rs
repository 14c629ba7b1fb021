//! The flags' values: the enums `--format`, `--placement`, `--time-unit`
//! and `--color` take, and the parsers of durations, percentages, metric
//! lists, baseline names and `KEY=VALUE` pairs (also used by `nbench.toml`).

use crate::build::Placement;
use crate::report::Format;
use clap::ValueEnum;
use nbench::__private::stats::OutlierMode;
use std::time::Duration;

pub(crate) fn baseline_name(text: &str) -> Result<String, String> {
    crate::model::names::validate_baseline_name(text).map(|()| text.to_owned())
}

/// `--time-unit` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TimeUnitArg {
    /// Nanoseconds.
    Ns,
    /// Microseconds.
    Us,
    /// Milliseconds.
    Ms,
    /// Seconds.
    S,
}

impl From<TimeUnitArg> for nbench::__private::format::TimeUnit {
    fn from(u: TimeUnitArg) -> Self {
        match u {
            TimeUnitArg::Ns => Self::Ns,
            TimeUnitArg::Us => Self::Us,
            TimeUnitArg::Ms => Self::Ms,
            TimeUnitArg::S => Self::S,
        }
    }
}

/// When to use colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

pub(crate) fn context_pair(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.to_owned())),
        _ => Err("expected KEY=VALUE, such as runner=ci-large".to_owned()),
    }
}

pub(crate) fn duration(text: &str) -> Result<Duration, String> {
    nbench::__private::modes::args::duration("", text)
        .map_err(|_| nbench::__private::modes::args::DURATION_EXPECTED.to_owned())
}

/// `--timeout`: a duration above zero (at zero every benchmark would time out).
pub(crate) fn timeout(text: &str) -> Result<Duration, String> {
    match duration(text)? {
        d if d.is_zero() => Err("expected a time above 0, such as 30s or 10m".to_owned()),
        d => Ok(d),
    }
}

pub(crate) fn percent(text: &str) -> Result<f64, String> {
    nbench::__private::modes::args::percent("", text)
        .map_err(|_| nbench::__private::modes::args::PERCENT_EXPECTED.to_owned())
}

/// `--metrics`: whether the list asks for instructions beside time.
pub(crate) fn metrics(text: &str) -> Result<bool, String> {
    let mut time = false;
    let mut instructions = false;
    for name in text.split(',').map(str::trim) {
        match name {
            "time" => time = true,
            "instructions" => instructions = true,
            other => {
                return Err(format!(
                    "unknown metric `{other}`: expected time or instructions (as in time,instructions)"
                ));
            }
        }
    }
    match time {
        true => Ok(instructions),
        false => Err("time is always measured: list it too (time,instructions)".to_owned()),
    }
}

pub(crate) fn outlier_mode(text: &str) -> Result<OutlierMode, String> {
    nbench::__private::modes::args::outlier_mode(text)
        .map_err(|_| nbench::__private::modes::args::OUTLIERS_EXPECTED.to_owned())
}

/// `--format` and `--out-format`: what a report is written as ([`Format`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
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
    /// One self-contained HTML page with plots, of this run alone (no stored history).
    Html,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Console => Format::Console,
            FormatArg::Json => Format::Json,
            FormatArg::Jsonl => Format::Jsonl,
            FormatArg::Csv => Format::Csv,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Bencher => Format::Bencher,
            FormatArg::Html => Format::Html,
        }
    }
}

/// `--placement`: where code lands in a bench build ([`Placement`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum PlacementArg {
    /// Placement-stable: functions, loops and jump targets aligned to 64
    /// bytes, and on x86 no branch crossing a 32-byte boundary, so that
    /// where the linker puts a loop no longer decides its speed; built in a
    /// folder of its own.
    #[default]
    Stable,
    /// Code where the compiler and linker put it, in cargo's own target folder.
    Linker,
}

impl From<PlacementArg> for Placement {
    fn from(p: PlacementArg) -> Placement {
        match p {
            PlacementArg::Stable => Placement::Stable,
            PlacementArg::Linker => Placement::Linker,
        }
    }
}
