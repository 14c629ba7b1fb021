//! Writing the HTML report: after every run, and again from the stored runs with `cargo nbench report`.

use super::history;
use crate::error::{Error, Result};
use crate::report::record::RunRecord;
use crate::store::{Store, write_atomic};
use std::path::PathBuf;

/// Writes the report of `run`, with the history of every stored run, to
/// `target/nbench/report/index.html`. Returns the file and a note for each
/// stored run that could not be read (left out of the history).
pub fn write(store: &Store, run: &RunRecord) -> Result<(PathBuf, Vec<String>)> {
    let (past, notes) = history::load(&store.run_files()?);
    let path = store.report_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io("could not create", dir, e))?;
    }
    write_atomic(&path, super::render(run, &past).as_bytes())?;
    Ok((path, notes))
}

/// The newest stored run that can be read ([`write`] names the ones that cannot).
pub fn newest_run(store: &Store) -> Result<RunRecord> {
    store
        .run_files()?
        .iter()
        .rev()
        .find_map(|f| serde_json::from_slice(&std::fs::read(f).ok()?).ok())
        .ok_or_else(|| Error::NoRuns(store.runs_dir()))
}
