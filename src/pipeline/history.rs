//! A plain run's intervals drawn on the runs before it: each target's
//! executable is identified by its content, the stored estimates of the
//! same build (and how other builds' scattered) widen or narrow each
//! interval to where the next run lands, and this run's estimates join them.

use crate::compare::estimate::{self, History};
use crate::model::record::TargetRecord;
use crate::model::stable_hash::fnv1a;
use crate::model::target::Built;
use crate::store::history::Line;
use std::collections::BTreeMap;
use std::path::Path;

/// The executable's content hash, hex; `None` where it cannot be read.
pub fn build_id(exe: &Path) -> Option<String> {
    let bytes = std::fs::read(exe).ok()?;
    Some(format!("{:016x}", fnv1a(bytes)))
}

/// Names each record's build, then gives every benchmark measured over
/// epochs its interval from this run and the stored runs of `history`.
pub fn apply(targets: &[Built], history: &[Line], records: &mut [TargetRecord]) {
    for rec in records.iter_mut() {
        let Some(built) = targets.iter().find(|b| b.target.label() == rec.target) else {
            continue;
        };
        rec.build = build_id(&built.exe);
        let Some(build) = rec.build.clone() else {
            continue;
        };
        for bench in &mut rec.benchmarks {
            let (Some(interval), Some(repeats)) = (bench.interval.as_mut(), &bench.repeats) else {
                continue;
            };
            let earlier = earlier(
                history,
                &rec.target,
                &build,
                repeats.medians.len(),
                &bench.id,
            );
            let floor = estimate::half_step_ns(bench.iters_per_sample);
            if let Some(e) = estimate::estimate(&repeats.medians, floor, &earlier) {
                bench.median_ci = e.ci;
                interval.earlier_runs = e.earlier_runs;
            }
        }
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

/// This run's estimates, as history lines: benchmarks measured over epochs,
/// of targets whose build is known.
pub fn lines(records: &[TargetRecord]) -> Vec<Line> {
    let mut lines = Vec::new();
    for rec in records {
        let Some(build) = &rec.build else { continue };
        let mut by_epochs: BTreeMap<usize, BTreeMap<String, f64>> = BTreeMap::new();
        for b in rec.benchmarks.iter().filter(|b| b.interval.is_some()) {
            let epochs = b.repeats.as_ref().map_or(0, |r| r.medians.len());
            by_epochs
                .entry(epochs)
                .or_default()
                .insert(b.id.clone(), b.median);
        }
        for (epochs, estimates) in by_epochs {
            lines.push(Line {
                target: rec.target.clone(),
                build: build.clone(),
                epochs,
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
