//! Which baselines no comparison has used for a while (`baseline prune`).

use super::baselines::{Baselines, USED};
use crate::error::{Error, Result};
use std::time::{Duration, SystemTime};

/// The prefix of the names `--compare-rev` and `compare --rev` give the
/// baselines they make.
const REVISION: &str = "rev-";

impl Baselines {
    /// Each baseline last saved or compared with longer than `older_than`
    /// ago, with how long ago: revisions' only (`rev-…`), unless `all`.
    /// Its files' times say it, so one that cannot be read is listed too.
    pub fn unused_for(&self, older_than: Duration, all: bool) -> Result<Vec<(String, Duration)>> {
        let entries = match std::fs::read_dir(self.dir()) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io("could not read", self.dir(), e)),
        };
        let now = SystemTime::now();
        let mut unused: Vec<(String, Duration)> = (entries.flatten())
            .filter_map(|e| {
                let name = e.file_name().to_str()?.to_owned();
                crate::model::names::validate_baseline_name(&name).ok()?;
                if !all && !name.starts_with(REVISION) {
                    return None;
                }
                let used = self.last_used(&name)?;
                let unused_for = now.duration_since(used).unwrap_or_default();
                (unused_for > older_than).then_some((name, unused_for))
            })
            .collect();
        unused.sort();
        Ok(unused)
    }

    /// When baseline `name` was last saved or compared with; `None` where
    /// it has no results (none of that name, or one being made).
    fn last_used(&self, name: &str) -> Option<SystemTime> {
        let dir = self.dir().join(name);
        let time = |file: &str| std::fs::metadata(dir.join(file)).and_then(|m| m.modified());
        let saved = time("results.json").ok()?;
        Some(time(USED).map_or(saved, |used| used.max(saved)))
    }
}
