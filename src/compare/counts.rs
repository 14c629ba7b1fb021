//! Instruction counts of two sides as a row's second signal: each side's
//! median over the processes it was counted in, their change, and how far
//! a side's own processes lay apart.
//!
//! A count is the executable's, but not always the same in every link
//! layout: code that allocates meets the allocator in another state where
//! the heap starts elsewhere, while code that does not counts the same in
//! every layout. So each side is counted in several of its layouts and the
//! spread is kept beside the change.
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
    let spread = |x: &[f64], m: f64| {
        let (lo, hi) = (x.iter().copied()).fold((m, m), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if m > 0.0 { (hi - lo) / m } else { 0.0 }
    };
    Some(CountChange {
        baseline: b,
        current: c,
        change: c / b - 1.0,
        spread: spread(base, b).max(spread(cur, c)),
        note: None,
        contrary: None,
    })
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
        let (Some(b), Some(c)) = (base.get(&row.id), cur.get(&row.id)) else {
            continue;
        };
        let (b, c, why) = (per_iter(b), per_iter(c), note(c).or_else(|| note(b)));
        // Counts that do not tell are kept with why, even where there is
        // nothing to divide by (the waiting thread of a team counts 0).
        let untelling = || {
            why.as_ref().map(|_| CountChange {
                baseline: median(&b).unwrap_or(0.0),
                current: median(&c).unwrap_or(0.0),
                change: 0.0,
                spread: 0.0,
                note: None,
                contrary: None,
            })
        };
        row.instructions = change(&b, &c).or_else(untelling).map(|mut ch| {
            ch.note = why.clone();
            ch
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_change_is_between_medians_and_the_spread_the_wider_sides() {
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
}
