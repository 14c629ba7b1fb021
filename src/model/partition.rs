//! `--partition KIND:M/N`: which benchmarks one of N CI jobs measures, with cargo-nextest's
//! spellings, so that a suite can be spread over a CI matrix and merged again.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How benchmarks are dealt out to shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Round-robin within each bench target, in its listed order.
    Count,
    /// A stable hash of package, target and benchmark id: adding a
    /// benchmark moves no other.
    Hash,
    /// Round-robin across all bench targets, in order.
    Slice,
}

/// Shard `shard` (1-based) of `total`, dealt out by `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partition {
    /// How benchmarks are dealt out.
    pub kind: Kind,
    /// This shard, 1 ≤ shard ≤ total.
    pub shard: usize,
    /// How many shards.
    pub total: usize,
}

impl Partition {
    /// `count:M/N`, `hash:M/N` or `slice:M/N`. An error says what is wrong
    /// and what is expected; the value and the flag are clap's to name.
    pub fn parse(text: &str) -> Result<Partition, String> {
        let bad = |why: &str| format!("{why} (count:M/N, hash:M/N or slice:M/N, 1 ≤ M ≤ N)");
        let (kind, shards) = text
            .split_once(':')
            .ok_or_else(|| bad("no kind before ':'"))?;
        let kind = match kind {
            "count" => Kind::Count,
            "hash" => Kind::Hash,
            "slice" => Kind::Slice,
            _ => return Err(bad(&format!("unknown kind `{}`", kind.escape_debug()))),
        };
        let (m, n) = shards
            .split_once('/')
            .ok_or_else(|| bad("expected M/N after the kind"))?;
        let number = |s: &str| {
            s.parse::<usize>()
                .map_err(|_| bad("M and N are whole numbers"))
        };
        let (shard, total) = (number(m)?, number(n)?);
        if shard == 0 || total == 0 || shard > total {
            return Err(bad("M must be between 1 and N"));
        }
        Ok(Partition { kind, shard, total })
    }

    /// Whether this shard measures benchmark `id` of `label`, the `index`th
    /// (from 0) the filters select in its target, after `before` selected in
    /// the targets measured before it.
    pub fn keeps(&self, label: &str, id: &str, index: usize, before: usize) -> bool {
        let n = match self.kind {
            Kind::Count => index,
            Kind::Slice => before + index,
            Kind::Hash => hash(label, id),
        };
        n % self.total == self.shard - 1
    }

    /// Whether this shard reports benchmark `id` of `label` as gone (only
    /// in the baseline). It has no place in the current listing, so every
    /// kind but `hash` leaves it to shard 1: each is reported once.
    pub fn reports_gone(&self, label: &str, id: &str) -> bool {
        match self.kind {
            Kind::Hash => hash(label, id) % self.total == self.shard - 1,
            Kind::Count | Kind::Slice => self.shard == 1,
        }
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            Kind::Count => "count",
            Kind::Hash => "hash",
            Kind::Slice => "slice",
        };
        write!(f, "{kind}:{}/{}", self.shard, self.total)
    }
}

/// FNV-1a of `package/target/id`: the same number on every machine and
/// with every build of cargo nbench.
fn hash(label: &str, id: &str) -> usize {
    let h = super::stable_hash::fnv1a(label.bytes().chain([b'/']).chain(id.bytes()));
    (h % (1 << 31)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Of each target's selected benchmarks (`(label, ids)`, in the order a
    /// run measures targets), the ones shard `p` measures, as a run decides
    /// it target by target.
    fn assign(p: &Partition, targets: &[(String, Vec<String>)]) -> Vec<Vec<String>> {
        let mut before = 0;
        targets
            .iter()
            .map(|(label, ids)| {
                let kept = ids
                    .iter()
                    .enumerate()
                    .filter(|&(i, id)| p.keeps(label, id, i, before))
                    .map(|(_, id)| id.clone())
                    .collect();
                before += ids.len();
                kept
            })
            .collect()
    }

    fn suite() -> Vec<(String, Vec<String>)> {
        [("a/x", 7), ("a/y", 1), ("b/z", 12)]
            .iter()
            .map(|&(label, n)| {
                let ids = (0..n).map(|i| format!("bench/{i}")).collect();
                (label.to_owned(), ids)
            })
            .collect()
    }

    fn flat(targets: &[(String, Vec<String>)], kept: &[Vec<String>]) -> Vec<String> {
        targets
            .iter()
            .zip(kept)
            .flat_map(|((label, _), ids)| ids.iter().map(move |id| format!("{label}::{id}")))
            .collect()
    }

    #[test]
    fn shards_cover_the_suite_once_for_every_kind_and_count() {
        let targets = suite();
        let mut all = flat(
            &targets,
            &targets.iter().map(|t| t.1.clone()).collect::<Vec<_>>(),
        );
        all.sort();
        for kind in ["count", "hash", "slice"] {
            for total in 1..=5 {
                let mut union = Vec::new();
                for shard in 1..=total {
                    let p = Partition::parse(&format!("{kind}:{shard}/{total}")).unwrap();
                    union.extend(flat(&targets, &assign(&p, &targets)));
                }
                union.sort();
                assert_eq!(union, all, "{kind} over {total}: every benchmark once");
            }
        }
    }

    #[test]
    fn count_deals_within_a_target_and_slice_across_them() {
        let targets = suite();
        let count = assign(&Partition::parse("count:2/2").unwrap(), &targets);
        assert_eq!(
            count[1],
            Vec::<String>::new(),
            "a/y's only benchmark is shard 1's"
        );
        let slice = assign(&Partition::parse("slice:2/2").unwrap(), &targets);
        assert_eq!(slice[1], ["bench/0"], "a/y continues after a/x's seven");
    }

    #[test]
    fn hash_keeps_every_shard_when_a_benchmark_is_added() {
        let before = suite();
        let mut after = suite();
        after[0].1.insert(3, "bench/new".into());
        for shard in 1..=3 {
            let p = Partition::parse(&format!("hash:{shard}/3")).unwrap();
            let mut then = flat(&before, &assign(&p, &before));
            let mut now = flat(&after, &assign(&p, &after));
            now.retain(|id| !id.ends_with("bench/new"));
            then.sort();
            now.sort();
            assert_eq!(then, now, "shard {shard}");
        }
    }

    #[test]
    fn gone_benchmarks_are_reported_by_one_shard() {
        for kind in ["count", "hash", "slice"] {
            let reporting = (1..=4)
                .filter(|m| {
                    Partition::parse(&format!("{kind}:{m}/4"))
                        .unwrap()
                        .reports_gone("a/x", "old")
                })
                .count();
            assert_eq!(reporting, 1, "{kind}");
        }
    }

    #[test]
    fn bad_values_say_what_is_expected() {
        for bad in [
            "count",
            "count:0/3",
            "count:4/3",
            "hash:1/0",
            "rr:1/2",
            "slice:a/b",
            "hash:1",
        ] {
            let e = Partition::parse(bad).unwrap_err();
            assert!(
                e.ends_with("(count:M/N, hash:M/N or slice:M/N, 1 ≤ M ≤ N)")
                    && !e.contains("--partition"),
                "{bad}: {e}"
            );
        }
        let p = Partition::parse("hash:2/3").unwrap();
        assert_eq!(p.to_string(), "hash:2/3");
    }
}
