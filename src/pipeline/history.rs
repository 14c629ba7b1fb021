//! A plain run's intervals drawn on the runs before it: each target's
//! executable is identified by its content, its plan carries each
//! benchmark's stored estimates (this build's, and how other builds'
//! scattered) for the run stage's interval, and this run's estimates join
//! the history after it.

use crate::compare::estimate::History;
use crate::model::record::TargetRecord;
use crate::model::stable_hash::fnv1a;
use crate::model::target::Built;
use crate::run::Plan;
use crate::store::history::Line;
use std::collections::BTreeMap;
use std::path::Path;

/// A target's build, as the history knows it.
pub struct Build {
    /// `package/target`.
    pub label: String,
    /// The executable's content hash.
    pub id: String,
    /// Epochs its benchmarks are measured in.
    pub epochs: usize,
}

/// The executable's content hash, hex; `None` where it cannot be read.
pub fn build_id(exe: &Path) -> Option<String> {
    let bytes = std::fs::read(exe).ok()?;
    Some(format!("{:016x}", fnv1a(bytes)))
}

/// Gives each plan measuring in epochs its benchmarks' earlier estimates
/// from `history`; the targets' builds (those whose executable was read).
pub fn attach(plans: &mut [Plan], targets: &[Built], history: &[Line]) -> Vec<Build> {
    let mut builds = Vec::new();
    for (plan, built) in plans.iter_mut().zip(targets) {
        let epochs = plan.schedule.epochs;
        let Some(id) = build_id(&built.exe).filter(|_| epochs >= 2) else {
            continue;
        };
        let label = built.target.label();
        let ids = (history.iter())
            .filter(|l| l.target == label)
            .flat_map(|l| l.estimates.keys());
        for bench in ids {
            if !plan.earlier.contains_key(bench) {
                let known = earlier(history, &label, &id, epochs, bench);
                plan.earlier.insert(bench.clone(), known);
            }
        }
        builds.push(Build { label, id, epochs });
    }
    builds
}

/// Names each record's build.
pub fn name_builds(records: &mut [TargetRecord], builds: &[Build]) {
    for rec in records {
        rec.build = (builds.iter())
            .find(|b| b.label == rec.target)
            .map(|b| b.id.clone());
    }
}

/// One benchmark's earlier estimates with as many epochs: this build's,
/// oldest first, and each other build's.
fn earlier(history: &[Line], target: &str, build: &str, epochs: usize, id: &str) -> History {
    let mut same = Vec::new();
    let mut others: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for line in history
        .iter()
        .filter(|l| l.target == target && l.epochs == epochs)
    {
        let Some(ns) = line.estimates.get(id) else {
            continue;
        };
        match line.build == build {
            true => same.push(*ns),
            false => others.entry(&line.build).or_default().push(*ns),
        }
    }
    History {
        same,
        others: others.into_values().collect(),
    }
}

/// This run's estimates, as history lines: benchmarks measured over
/// epochs, of targets whose build is known.
pub fn lines(records: &[TargetRecord], builds: &[Build]) -> Vec<Line> {
    let mut lines = Vec::new();
    for rec in records {
        let Some(build) = builds.iter().find(|b| b.label == rec.target) else {
            continue;
        };
        let estimates: BTreeMap<String, f64> = (rec.benchmarks.iter())
            .filter(|b| b.interval.is_some())
            .map(|b| (b.id.clone(), b.median))
            .collect();
        if !estimates.is_empty() {
            lines.push(Line {
                target: rec.target.clone(),
                build: build.id.clone(),
                epochs: build.epochs,
                estimates,
            });
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(build: &str, epochs: usize, ns: f64) -> Line {
        Line {
            target: "p/t".into(),
            build: build.into(),
            epochs,
            estimates: [("a".to_owned(), ns)].into(),
        }
    }

    #[test]
    fn earlier_runs_are_sorted_by_build_and_epochs() {
        let history = [
            line("x", 8, 1.0),
            line("y", 8, 5.0),
            line("x", 8, 2.0),
            line("x", 4, 9.0),
            line("y", 8, 6.0),
            line("z", 8, 7.0),
        ];
        let h = earlier(&history, "p/t", "x", 8, "a");
        assert_eq!(h.same, [1.0, 2.0]);
        assert_eq!(h.others, [vec![5.0, 6.0], vec![7.0]]);
        assert!(earlier(&history, "p/t", "x", 8, "b").same.is_empty());
        assert!(earlier(&history, "q/t", "x", 8, "a").same.is_empty());
    }

    #[test]
    fn a_build_is_named_by_its_content() {
        let dir = std::env::temp_dir().join(format!("nbench-build-id-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::fs::write(&a, b"one").unwrap();
        std::fs::write(&b, b"one").unwrap();
        assert_eq!(build_id(&a), build_id(&b));
        std::fs::write(&b, b"two").unwrap();
        assert_ne!(build_id(&a), build_id(&b));
        assert_eq!(build_id(&dir.join("missing")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
