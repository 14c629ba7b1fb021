//! The JSON of a suite's shards (`--partition`) as one run, with the
//! false-discovery control redone over all of their comparisons.
//!
//! Each shard compared baseline and current on its own machine, so its
//! verdicts stand wherever it ran; only the suite-level statistics are put
//! back together: an adjustment per shard would let a suite of ten shards
//! raise ten times the false alarms.

use super::rule::decide_rows;
use crate::error::{Error, Result};
use crate::model::comparison::{Comparison, TargetComparison};
use crate::model::partition::Partition;
use crate::model::record::{RunRecord, TargetRecord};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One shard's run, read from its JSON.
pub struct Shard {
    /// Where it was read from.
    pub path: PathBuf,
    /// The run.
    pub record: RunRecord,
    /// Which shard it is.
    pub partition: Partition,
}

/// A refusal to merge: what is wrong, and what to do.
pub fn fail(message: String, hint: &str) -> Error {
    Error::Merge {
        message,
        hint: hint.to_owned(),
    }
}

/// Refuses shards that do not belong together; returns the warnings (shards
/// missing) and notes (several machines) worth printing.
pub fn check(shards: &[Shard]) -> Result<(Vec<String>, Vec<String>)> {
    let name = |s: &Shard| format!("`{}`", s.path.display());
    let first = &shards[0];
    let baseline = |s: &Shard| s.record.comparison.as_ref().map(|c| c.baseline.clone());
    let mut seen: BTreeMap<(String, String), &Shard> = BTreeMap::new();
    for (i, s) in shards.iter().enumerate() {
        let (p, q) = (s.partition, first.partition);
        if p.kind != q.kind || p.total != q.total {
            return Err(fail(
                format!("{} is shard {p} but {} is shard {q}", name(s), name(first)),
                "the shards of one suite are made with one --partition KIND and N",
            ));
        }
        if let Some(twin) = shards[..i].iter().find(|o| o.partition.shard == p.shard) {
            return Err(fail(
                format!("{} and {} are both shard {p}", name(twin), name(s)),
                "give each shard's file once",
            ));
        }
        if baseline(s) != baseline(first) {
            let shown =
                |b: Option<String>| b.map_or("no baseline".into(), |b| format!("baseline `{b}`"));
            return Err(fail(
                format!(
                    "{} compares with {} but {} with {}",
                    name(s),
                    shown(baseline(s)),
                    name(first),
                    shown(baseline(first))
                ),
                "merge the shards of one comparison: the same --compare, --compare-rev or `compare A B`",
            ));
        }
        for t in &s.record.targets {
            for id in ids(t) {
                if let Some(other) = seen.insert((t.target.clone(), id.clone()), s) {
                    return Err(fail(
                        format!(
                            "`{}::{id}` is in both {} and {}",
                            t.target,
                            name(other),
                            name(s)
                        ),
                        "shards must not overlap: run them with the same filters and --partition KIND",
                    ));
                }
            }
        }
    }
    Ok((missing(shards), machines(shards)))
}

/// A warning naming the shards 1..=N that were not given, if any.
fn missing(shards: &[Shard]) -> Vec<String> {
    let total = shards[0].partition.total;
    let missing: Vec<String> = (1..=total)
        .filter(|m| !shards.iter().any(|s| s.partition.shard == *m))
        .map(|m| m.to_string())
        .collect();
    if missing.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "shard{} {} of {total} missing: the merged report leaves out the benchmarks {} measured",
        if missing.len() == 1 { "" } else { "s" },
        missing.join(", "),
        if missing.len() == 1 { "it" } else { "they" },
    )]
}

/// A note when the shards ran on more than one machine.
fn machines(shards: &[Shard]) -> Vec<String> {
    let mut machines: Vec<String> = shards
        .iter()
        .map(|s| {
            let c = &s.record.context;
            format!(
                "{} ({})",
                c.hostname.as_deref().unwrap_or("unknown host"),
                c.cpu_model.as_deref().unwrap_or("unknown CPU")
            )
        })
        .collect();
    machines.sort();
    machines.dedup();
    if machines.len() < 2 {
        return Vec::new();
    }
    vec![format!(
        "the shards ran on {} machines ({}); each shard compared both sides on its own machine, so its verdicts stand",
        machines.len(),
        machines.join(", ")
    )]
}

/// Every benchmark id a target's record names.
fn ids(t: &TargetRecord) -> impl Iterator<Item = &String> {
    t.benchmarks
        .iter()
        .map(|b| &b.id)
        .chain(t.failures.iter().map(|f| &f.id))
        .chain(&t.ignored)
        .chain(t.skipped.iter().map(|s| &s.id))
}

/// The shards (sorted by shard number) as one run.
pub fn merge(shards: &[Shard]) -> RunRecord {
    let first = &shards[0].record;
    let mut targets: Vec<TargetRecord> = Vec::new();
    for s in shards {
        for t in &s.record.targets {
            join_by(
                &mut targets,
                t,
                |x| &x.target,
                |m, t| {
                    m.benchmarks.extend(t.benchmarks.iter().cloned());
                    m.failures.extend(t.failures.iter().cloned());
                    m.ignored.extend(t.ignored.iter().cloned());
                    m.skipped.extend(t.skipped.iter().cloned());
                    m.filtered_out = m.filtered_out.max(t.filtered_out);
                    add_new(&mut m.fits, &t.fits, |f| f.family.clone());
                },
            );
        }
    }
    // What no shard given measured: the selected count one shard saw, less
    // what the shards here measured.
    for m in &mut targets {
        let selected = shards
            .iter()
            .flat_map(|s| &s.record.targets)
            .find(|t| t.target == m.target)
            .map_or(0, |t| ids(t).count() + t.other_shards);
        m.other_shards = selected.saturating_sub(ids(m).count());
    }
    let mut skipped = Vec::new();
    for s in shards {
        add_new(&mut skipped, &s.record.skipped, |k| k.target.clone());
    }
    RunRecord {
        schema: first.schema,
        context: first.context.clone(),
        // The shards ran side by side: the suite took as long as the longest.
        duration_s: shards
            .iter()
            .map(|s| s.record.duration_s)
            .fold(0.0, f64::max),
        targets,
        skipped,
        comparison: first
            .comparison
            .as_ref()
            .map(|c| merge_comparisons(c, shards)),
        partition: None,
    }
}

/// The shards' comparisons as one, its p-values adjusted over all rows.
fn merge_comparisons(first: &Comparison, shards: &[Shard]) -> Comparison {
    let mut targets: Vec<TargetComparison> = Vec::new();
    let (mut warnings, mut notes) = (Vec::new(), Vec::new());
    for c in shards.iter().filter_map(|s| s.record.comparison.as_ref()) {
        add_new(&mut warnings, &c.warnings, String::clone);
        add_new(&mut notes, &c.notes, String::clone);
        for t in &c.targets {
            join_by(
                &mut targets,
                t,
                |x| &x.target,
                |m, t| {
                    m.rows.extend(t.rows.iter().cloned());
                    m.new.extend(t.new.iter().cloned());
                    m.not_compared.extend(t.not_compared.iter().cloned());
                    add_new(&mut m.gone, &t.gone, String::clone);
                    m.unpaired_because = m.unpaired_because.take().or(t.unpaired_because.clone());
                    m.layouts = m.layouts.or(t.layouts);
                },
            );
        }
    }
    let mut merged = Comparison {
        baseline: first.baseline.clone(),
        noise_threshold: first.noise_threshold,
        warnings,
        notes,
        targets,
    };
    decide_rows(&mut merged);
    merged
}

/// Puts `item` into `all`: joined (`join`) into the one of the same `key`
/// (a bench target's part from an earlier shard), else added as it is.
fn join_by<T: Clone, K: PartialEq + ?Sized>(
    all: &mut Vec<T>,
    item: &T,
    key: impl Fn(&T) -> &K,
    join: impl FnOnce(&mut T, &T),
) {
    match all.iter_mut().find(|x| key(x) == key(item)) {
        Some(m) => join(m, item),
        None => all.push(item.clone()),
    }
}

/// Appends the items of `from` whose `key` no item of `to` has yet: what
/// every shard repeats (a note, a skipped target) is shown once.
fn add_new<T: Clone, K: PartialEq>(to: &mut Vec<T>, from: &[T], key: impl Fn(&T) -> K) {
    for item in from {
        let k = key(item);
        if !to.iter().any(|x| key(x) == k) {
            to.push(item.clone());
        }
    }
}
