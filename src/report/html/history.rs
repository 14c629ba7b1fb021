//! The stored runs as the report's history: each benchmark's median run by run.

use crate::model::float;
use serde::Deserialize;
use std::path::PathBuf;

/// A stored run, read without its samples.
#[derive(Debug, Clone, Deserialize)]
pub struct PastRun {
    /// When and on what commit.
    pub context: PastContext,
    /// Per bench target.
    pub targets: Vec<PastTarget>,
}

/// The part of a stored run's context the history shows.
#[derive(Debug, Clone, Deserialize)]
pub struct PastContext {
    /// RFC 3339 start time.
    pub date: String,
    /// The commit, if known.
    #[serde(default)]
    pub git_commit: Option<String>,
    /// Uncommitted changes.
    #[serde(default)]
    pub git_dirty: Option<bool>,
}

/// One target of a stored run.
#[derive(Debug, Clone, Deserialize)]
pub struct PastTarget {
    /// `package/target`.
    pub target: String,
    /// Its measured benchmarks.
    pub benchmarks: Vec<PastBench>,
}

/// One benchmark of a stored run.
#[derive(Debug, Clone, Deserialize)]
pub struct PastBench {
    /// The id.
    pub id: String,
    /// Median, ns.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "median_ns")]
    pub median: f64,
    /// Its interval: where the next run lands (measured over epochs), else
    /// the 95 % CI of the median.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "median_ci_ns")]
    pub median_ci: [f64; 2],
}

impl PastContext {
    /// `2026-11-22 12:35 a1b2c3d+`: when, and the commit (`+` when dirty).
    pub fn label(&self) -> String {
        let when = self.date.get(..16).unwrap_or(&self.date).replace('T', " ");
        match &self.git_commit {
            Some(c) => {
                let dirty = if self.git_dirty == Some(true) {
                    "+"
                } else {
                    ""
                };
                format!("{when} {}{dirty}", c.get(..7).unwrap_or(c))
            }
            None => when,
        }
    }
}

/// The stored runs in `files` (oldest first), and a message for each file
/// that could not be read (the report leaves it out rather than failing).
pub fn load(files: &[PathBuf]) -> (Vec<PastRun>, Vec<String>) {
    let mut runs = Vec::new();
    let mut problems = Vec::new();
    for f in files {
        let parsed = std::fs::read(f)
            .map_err(|e| e.to_string())
            .and_then(|bytes| serde_json::from_slice(&bytes).map_err(|e| e.to_string()));
        match parsed {
            Ok(run) => runs.push(run),
            Err(e) => problems.push(format!(
                "left stored run {} out of the report's history: {e}",
                f.display()
            )),
        }
    }
    (runs, problems)
}

/// One point of a benchmark's history.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// Which run (see [`PastContext::label`]).
    pub label: String,
    /// When it ran (RFC 3339, UTC).
    pub date: String,
    /// Median, ns.
    pub median: f64,
    /// Its CI.
    pub ci: [f64; 2],
}

/// `target`'s benchmark `id` in every run that measured it, oldest first.
pub fn series(runs: &[PastRun], target: &str, id: &str) -> Vec<Point> {
    runs.iter()
        .filter_map(|r| {
            let b = r
                .targets
                .iter()
                .filter(|t| t.target == target)
                .flat_map(|t| &t.benchmarks)
                .find(|b| b.id == id)?;
            Some(Point {
                label: r.context.label(),
                date: r.context.date.clone(),
                median: b.median,
                ci: b.median_ci,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupt_runs_are_left_out_with_a_message_and_the_rest_read_in_order() {
        let dir = std::env::temp_dir().join(format!("nbench-history-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let run = |date: &str, median: f64| {
            format!(
                r#"{{"context":{{"date":"{date}","git_commit":"0123456789abcdef","git_dirty":true}},
                "targets":[{{"target":"p/t","benchmarks":[{{"id":"a","median_ns":{median},
                "median_ci_ns":[1,3],"per_iter_ns":[1,2,3]}}]}}]}}"#
            )
        };
        std::fs::write(dir.join("2.json"), run("2026-11-22T10:00:00Z", 20.0)).unwrap();
        std::fs::write(dir.join("1.json"), run("2026-11-21T09:30:00Z", 10.0)).unwrap();
        std::fs::write(dir.join("3.json"), "{ not json").unwrap();
        let files: Vec<PathBuf> = ["1", "2", "3"]
            .map(|n| dir.join(format!("{n}.json")))
            .into();
        let (runs, problems) = load(&files);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("3.json"), "{problems:?}");
        let s = series(&runs, "p/t", "a");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].label, "2026-11-21 09:30 0123456+");
        assert_eq!((s[0].median, s[1].median), (10.0, 20.0));
        assert!(series(&runs, "p/t", "b").is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
