//! `cargo nbench merge FILE...`: the JSON of a suite's shards (`--partition`) read and
//! reported as one run ([`crate::compare::merge`] puts them together).

use crate::compare::merge::{Shard, check, fail, merge};
use crate::config::Settings;
use crate::error::Result;
use crate::model::record::RunRecord;
use crate::pipeline::publish::emit_unstored;
use crate::pipeline::{note, warn};
use std::path::{Path, PathBuf};

/// Reads the shards in `files`, merges them, reports the whole, and returns the exit code.
pub fn run(s: &Settings, files: &[PathBuf]) -> Result<u8> {
    let mut shards = files.iter().map(|f| read(f)).collect::<Result<Vec<_>>>()?;
    shards.sort_by_key(|s| s.partition.shard);
    let (warnings, notes) = check(&shards)?;
    for w in &warnings {
        warn(w);
    }
    if !s.output.quiet() {
        notes.iter().for_each(|n| note(n));
    }
    let record = merge(&shards);
    emit_unstored(s, &record)
}

/// One shard's JSON, read and parsed; it must have been made with `--partition`.
fn read(path: &Path) -> Result<Shard> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        fail(
            format!("could not read `{}`: {e}", path.display()),
            "give the path of each shard's JSON, e.g. the artifacts of the shard jobs",
        )
    })?;
    let record: RunRecord = serde_json::from_str(&text).map_err(|e| {
        fail(
            format!(
                "`{}` is not the JSON of a cargo nbench run: {e}",
                path.display()
            ),
            "give each shard's `--format json` output or `--out FILE.json`",
        )
    })?;
    let partition = record.partition.ok_or_else(|| {
        fail(
            format!("`{}` was not made with --partition", path.display()),
            "run each shard with --partition KIND:M/N (the same KIND and N for all)",
        )
    })?;
    Ok(Shard {
        path: path.to_owned(),
        record,
        partition,
    })
}
