//! Instruction counts of two sides as a row's second signal: each side's
//! median over the processes it was counted in, their change, and how far
//! the change lay apart from process to process.
//!
//! A count is the executable's, but not always the same in every process:
//! what an iteration of code that allocates counts may depend on how many
//! ran before it, and the second process of each side runs twice the
//! iterations of the others (`run/counts.rs`). So the `k`-th processes of the two sides
//! are paired, and the spread kept beside the change is how far their
//! changes lie apart: counts that differ only with the iterations, alike
//! on both sides, are the same work. The `k`-th processes also draw the
//! same random seeds, each pair its own: a count that follows its seeds
//! (a hash map's order) reads alike in each pair where the work is the
//! same, and otherwise spreads as far as the seeds move it, where an
//! earlier benchmark made one hash map more and moved the seeds of those
//! after it.
//! The figures: `docs/instructions.md`.

use crate::model::comparison::{CountChange, TargetComparison};
use crate::model::metric::{Counted, SideCounts};
use nbench::__private::stats::median_sorted;

/// The change from `base` to `cur`, each a side's counts of one benchmark;
/// `None` where a side has none or its median is 0.
pub fn change(base: &[f64], cur: &[f64]) -> Option<CountChange> {
    let (b, c) = (median(base)?, median(cur)?);
    if b <= 0.0 {
        return None;
    }
    Some(CountChange {
        baseline: b,
        current: c,
        change: c / b - 1.0,
        spread: paired_spread(base, cur)
            .unwrap_or_else(|| relative_range(base).max(relative_range(cur))),
        both_ways: paired_both_ways(base, cur),
        note: None,
        contrary: None,
    })
}

/// How far apart the changes of paired processes lie (the `k`-th of each
/// side ran the same iterations), as the range of `cur[k] / base[k]`;
/// `None` unless both sides counted in the same processes, every count
/// finite and the baseline's above 0.
fn paired_spread(base: &[f64], cur: &[f64]) -> Option<f64> {
    if base.len() != cur.len() || base.is_empty() {
        return None;
    }
    let good = |v: f64| v.is_finite() && v > 0.0;
    let ratios: Option<Vec<f64>> = (base.iter().zip(cur))
        .map(|(&b, &c)| (good(b) && c.is_finite()).then(|| c / b))
        .collect();
    let ratios = ratios?;
    let (lo, hi) =
        (ratios.iter()).fold((f64::MAX, f64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    Some(hi - lo)
}

/// Whether the paired processes' changes (as [`paired_spread`] pairs them)
/// lie on both sides of none: some pair counted more and another fewer,
/// or one alike. False where they cannot be paired.
fn paired_both_ways(base: &[f64], cur: &[f64]) -> bool {
    let paired = base.len() == cur.len() && !base.is_empty();
    let (more, fewer) =
        (base.iter().zip(cur)).fold((false, false), |(m, f), (b, c)| (m || c >= b, f || c <= b));
    paired && more && fewer
}

/// How far apart one side's processes that ran the same iterations
/// counted (the range over the median, the widest such group): a
/// benchmark that does the same work in every process counts it alike
/// to the last instruction, and one that draws its inputs at random in
/// each counts other work in each (ropey's `get/char`: 0.3–0.9 % apart),
/// which two pairs of processes can agree on by chance. 0 where no two
/// ran the same iterations.
fn same_iters_spread(side: &[Counted]) -> f64 {
    let mut iters: Vec<u64> = side.iter().map(|c| c.iters).collect();
    iters.sort_unstable();
    iters.dedup();
    (iters.into_iter())
        .map(|n| {
            let alike: Vec<f64> = (side.iter())
                .filter(|c| c.iters == n)
                .map(|c| c.per_iter)
                .collect();
            relative_range(&alike)
        })
        .fold(0.0, f64::max)
}

/// How far apart the finite counts `x` lie, as a share of their median;
/// 0 where the median is not above 0.
fn relative_range(x: &[f64]) -> f64 {
    let Some(m) = median(x).filter(|m| *m > 0.0) else {
        return 0.0;
    };
    let (lo, hi) = (x.iter().copied())
        .filter(|v| v.is_finite())
        .fold((m, m), |(lo, hi), v| (lo.min(v), hi.max(v)));
    (hi - lo) / m
}

fn median(x: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = x.iter().copied().filter(|v| v.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    (!v.is_empty()).then(|| median_sorted(&v))
}

/// Gives each row of `cmp` both sides' counts, where both have some.
pub fn attach(cmp: &mut TargetComparison, base: &SideCounts, cur: &SideCounts) {
    let per_iter = |c: &[Counted]| c.iter().map(|c| c.per_iter).collect::<Vec<f64>>();
    let note = |c: &[Counted]| c.iter().find_map(|c| c.not_telling.clone());
    for row in &mut cmp.rows {
        let (Some(bc), Some(cc)) = (base.get(&row.id), cur.get(&row.id)) else {
            continue;
        };
        let (b, c, why) = (per_iter(bc), per_iter(cc), note(cc).or_else(|| note(bc)));
        // Counts that do not tell are kept with why, even where there is
        // nothing to divide by (the waiting thread of a team counts 0).
        let untelling = || {
            why.as_ref().map(|_| CountChange {
                baseline: median(&b).unwrap_or(0.0),
                current: median(&c).unwrap_or(0.0),
                change: 0.0,
                spread: 0.0,
                both_ways: false,
                note: None,
                contrary: None,
            })
        };
        // Each pair counted alike to the last instruction: the same work,
        // however far a side's own processes lie apart (each drew other
        // random seeds).
        let own = match !b.is_empty() && b == c {
            true => 0.0,
            false => same_iters_spread(bc).max(same_iters_spread(cc)),
        };
        row.instructions = change(&b, &c).or_else(untelling).map(|mut ch| {
            ch.note = why.clone();
            ch.spread = ch.spread.max(own);
            ch
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_change_is_between_medians_and_the_spread_the_wider_sides_unpaired() {
        let c = change(&[1000.0, 1000.0, 1000.0], &[1010.0]).unwrap();
        assert_eq!((c.baseline, c.current, c.spread), (1000.0, 1010.0, 0.0));
        assert!((c.change - 0.01).abs() < 1e-12);
        // Measured in one executable's processes: 1.06 M or 1.09 M.
        let c = change(&[1_055_961.0, 1_091_761.0, 1_055_961.0], &[1_091_797.0]).unwrap();
        assert_eq!(c.baseline, 1_055_961.0);
        assert!((c.spread - 0.0339).abs() < 0.0001, "{c:?}");
        assert!(change(&[], &[1.0]).is_none());
        assert!(change(&[0.0], &[1.0]).is_none());
        assert_eq!(median(&[3.0, 1.0]), Some(2.0));
    }

    #[test]
    fn a_side_whose_processes_count_other_work_at_the_same_iterations_is_spread() {
        use crate::model::comparison::{Row, Verdict};
        let counted = |per_iter: f64, iters: u64| Counted {
            per_iter,
            overhead: 2.0,
            not_telling: None,
            iters,
        };
        let side = |v: [f64; 3]| vec![counted(v[0], 64), counted(v[1], 128), counted(v[2], 64)];
        let compared = |b: [f64; 3], c: [f64; 3]| {
            let mut cmp = TargetComparison::empty("t");
            cmp.rows
                .push(Row::example("get/char", 229.0, 0.0, Verdict::Inconclusive));
            let one = |v| SideCounts::from([("get/char".to_owned(), side(v))]);
            attach(&mut cmp, &one(b), &one(c));
            cmp.rows[0].instructions.clone().unwrap()
        };
        // Random inputs (ropey's `get/char`, the same build on both sides):
        // each pair of processes reads about +0.7 %, but a side's processes
        // of the same iterations lay 1.1 % apart.
        let c = compared([436.0, 440.0, 441.0], [439.0, 443.0, 444.0]);
        assert!((c.change - 0.0068).abs() < 0.0001, "{c:?}");
        assert!((c.spread - 5.0 / 438.5).abs() < 1e-9, "{c:?}");
        // The same work in every process: the pairs' range alone.
        let c = compared([436.0, 441.0, 436.0], [439.0, 444.0, 439.0]);
        assert!(c.spread < 0.0001, "{c:?}");
        // A count that follows its seeds, each pair of processes drawing
        // its own: alike in each pair, the same work.
        let c = compared([431.0, 446.0, 439.0], [431.0, 446.0, 439.0]);
        assert_eq!((c.change, c.spread), (0.0, 0.0));
        // The seeds moved on one side (an earlier benchmark made one hash
        // map more): the pairs' changes lie as far apart as the seeds move it.
        let c = compared([431.0, 446.0, 439.0], [445.0, 433.0, 430.0]);
        assert!(c.spread > 0.05 && c.change.abs() < 2.0 * c.spread, "{c:?}");
        assert!(c.both_ways, "{c:?}");
        // Changed code moves every pair the same way.
        assert!(!compared([436.0, 441.0, 436.0], [439.0, 441.5, 436.1]).both_ways);
        assert!(compared([436.0, 441.0, 436.0], [436.0, 441.0, 436.0]).both_ways);
        assert_eq!(same_iters_spread(&side([1.0, 5.0, 1.0])), 0.0);
        assert_eq!(same_iters_spread(&[counted(1.0, 64)]), 0.0);
    }

    #[test]
    fn processes_that_ran_the_same_iterations_are_paired() {
        // Measured: toml's `serde_json::document::0-new` counted 6 298 an
        // iteration over 512 of them and 5 607 over 1 024, on both sides
        // alike: the same work, not a spread of 11 %.
        let c = change(&[6298.0, 5607.0], &[6298.0, 5607.0]).unwrap();
        assert_eq!((c.change, c.spread), (0.0, 0.0));
        // quick-xml's `escape_text/escaped_chars_short` at c7e740d, which
        // leaves it alone: medians equal, each side's processes 1.6 % apart.
        let c = change(&[2712.727, 2755.334], &[2712.727, 2755.334]).unwrap();
        assert_eq!(c.spread, 0.0);
        // Both processes 0.8 % more: the change holds from process to process.
        let c = change(&[6298.0, 5607.0], &[6348.4, 5651.9]).unwrap();
        assert!(c.spread < 0.0001, "{c:?}");
        // Processes that changed otherwise: their changes' range.
        let c = change(&[1000.0, 1030.0], &[1030.0, 1000.0]).unwrap();
        assert!((c.spread - (1.03 - 1000.0 / 1030.0)).abs() < 1e-12, "{c:?}");
        // A process that counted nothing: the sides' own spreads.
        let c = change(&[1000.0, 1030.0], &[1000.0, f64::NAN]).unwrap();
        assert!((c.spread - 0.03 / 1.015).abs() < 1e-9, "{c:?}");
    }
}
