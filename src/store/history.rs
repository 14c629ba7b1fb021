//! `target/nbench/history.jsonl`: each plain run's estimates, a line per
//! bench target, kept small so that the next run's intervals can draw on
//! the runs before it without reading their full records.

use super::Store;
use super::write::{append, write_atomic};
use crate::error::Result;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Lines kept: past this many, the oldest go.
pub const KEEP_LINES: usize = 400;

/// One bench target's estimates in one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// `package/target`.
    pub target: String,
    /// The executable's content hash.
    pub build: String,
    /// Epochs each benchmark was measured in.
    pub epochs: usize,
    /// Each benchmark's estimate, ns, by id.
    pub estimates: BTreeMap<String, f64>,
}

impl Store {
    fn history_path(&self) -> PathBuf {
        self.root.join("history.jsonl")
    }

    /// The stored lines, oldest first. A line that cannot be read (a run cut
    /// off while writing, an older format) is passed over: the history only
    /// informs intervals, and the runs' own records are kept apart.
    pub fn history(&self) -> Vec<Line> {
        parse(&std::fs::read_to_string(self.history_path()).unwrap_or_default())
    }

    /// Adds `lines`, then keeps the newest [`KEEP_LINES`] once there are
    /// twice as many: the file is read once, appended to, or rewritten
    /// whole when it is pruned.
    pub fn add_history(&self, lines: &[Line]) -> Result<()> {
        if lines.is_empty() {
            return Ok(());
        }
        std::fs::create_dir_all(&self.root)
            .map_err(|e| crate::error::Error::io("could not create", &self.root, e))?;
        let path = self.history_path();
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        if old.lines().count() + lines.len() > 2 * KEEP_LINES {
            let mut all = parse(&old);
            all.extend_from_slice(lines);
            return write_atomic(
                &path,
                encode(&all[all.len().saturating_sub(KEEP_LINES)..]).as_bytes(),
            );
        }
        // A line cut off (a run killed while writing) ends without a
        // newline: this run's lines start on one of their own.
        let cut = !old.is_empty() && !old.ends_with('\n');
        let text = if cut { "\n" } else { "" }.to_owned() + &encode(lines);
        append(&path, text.as_bytes())
    }
}

/// The lines of `text` that can be read.
fn parse(text: &str) -> Vec<Line> {
    (text.lines())
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Lines as the file holds them, each ending in a newline.
fn encode(lines: &[Line]) -> String {
    lines
        .iter()
        .map(|l| serde_json::to_string(l).expect("a history line serialises") + "\n")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(build: &str, ns: f64) -> Line {
        Line {
            target: "p/t".into(),
            build: build.into(),
            epochs: 8,
            estimates: [("a".to_owned(), ns)].into(),
        }
    }

    #[test]
    fn lines_come_back_in_order_past_a_broken_one_and_the_oldest_go() {
        let dir = std::env::temp_dir().join(format!("nbench-history-{}", std::process::id()));
        let store = Store::new(&dir);
        assert!(store.history().is_empty(), "no file yet");
        store.add_history(&[line("b1", 1.0)]).unwrap();
        append(&store.history_path(), b"{\"target\": \"cut off").unwrap();
        store.add_history(&[line("b1", 2.0)]).unwrap();
        assert_eq!(store.history(), [line("b1", 1.0), line("b1", 2.0)]);
        let many: Vec<Line> = (0..2 * KEEP_LINES).map(|i| line("b2", i as f64)).collect();
        store.add_history(&many).unwrap();
        let kept = store.history();
        assert_eq!(kept.len(), KEEP_LINES);
        assert_eq!(kept.last(), many.last());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
