//! The last phase of a command that measured: the report on stdout and in every `--out` and
//! `--summary` file, the HTML report, and the exit code.

use super::note;
use crate::config::Output;
use crate::error::{Result, exit};
use crate::model::record::RunRecord;
use crate::report::{self, Format};
use crate::store::{self, Store};
use console::style;
use std::path::Path;

/// Writes the report (stdout, every `--out`, `--summary`) and picks the exit
/// code. `saved`: where the run was stored, if it was; `streamed`: the
/// benchmarks' JSON-lines events are already on stdout.
pub fn emit(
    out: &Output,
    fail_on_regression: bool,
    record: &RunRecord,
    saved: Option<&Path>,
    streamed: bool,
) -> Result<u8> {
    for (path, format) in &out.files {
        let normal = report::Verbosity::Normal;
        let text = report::render(*format, record, out.time_unit, None, normal);
        // A file gets plain text, whatever colours the terminal gets.
        let text = console::strip_ansi_codes(&text);
        store::write_atomic(path, text.as_bytes())?;
    }
    if let Some(path) = &out.summary {
        store::append(path, report::markdown::render(record).as_bytes())?;
    }
    match out.format {
        Format::Jsonl if streamed => out!("{}", report::jsonl::tail(record, saved)),
        format => out!(
            "{}",
            report::render(format, record, out.time_unit, saved, out.verbosity)
        ),
    }
    err!("{}", report::console::render_failures(record));
    if let (Format::Console, Some(saved), false) = (out.format, saved, out.quiet()) {
        errln!("{}", style(format!("saved {}", saved.display())).dim());
    }
    let regressed = record
        .comparison
        .as_ref()
        .is_some_and(|c| c.any_regressed());
    Ok(if fail_on_regression && regressed {
        exit::REGRESSION
    } else if record.any_failed() {
        exit::BENCH_FAILED
    } else {
        exit::SUCCESS
    })
}

/// Reports a record no run stores (`compare A B`, `merge`); the exit code.
pub fn emit_unstored(s: &crate::config::Settings, record: &RunRecord) -> Result<u8> {
    emit(&s.output, s.compare.fail_on_regression, record, None, false)
}

/// Writes the HTML report of `run`, with the history of every stored run, to
/// `target/nbench/report/index.html`; names each stored run that could not be
/// read (left out of the history) unless `quiet`. Returns the file.
pub fn write_html(store: &Store, run: &RunRecord, quiet: bool) -> Result<std::path::PathBuf> {
    let (past, notes) = report::html::history::load(&store.run_files()?);
    if !quiet {
        notes.iter().for_each(|n| note(n));
    }
    let path = store.report_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| crate::error::Error::io("could not create", dir, e))?;
    }
    store::write_atomic(&path, report::html::render(run, &past).as_bytes())?;
    Ok(path)
}
