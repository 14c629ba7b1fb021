//! Whether a paired row's change follows how many iterations a sample ran.
//!
//! A comparison's epochs take the calibrated iterations per sample and its
//! multiples in turns (`run::paired::pace::ITERS_STEPS`). Where a benchmark's
//! time per iteration follows the count differently on the two sides
//! (something done once a sample, inputs made that many at once and landing
//! elsewhere on the heap), the epochs at one count agree with each other
//! and not with those at another: the row has no one change to report, and
//! says so.

use crate::model::comparison::Row;
use crate::model::samples::Epochs;
use nbench::__private::stats::{mean, median_sorted, variance};
use std::collections::BTreeMap;

/// Epochs a count needs before it is compared with the others.
const LEAST_EPOCHS: usize = 3;

/// Welch's t past which two counts' epochs disagree ([`by_iterations`]):
/// the classical standard deviation, not a robust one, so that placement's
/// steps between layouts (which the counts' epochs split between them)
/// widen it rather than pass for a count's doing. On this project's own
/// suite compared with itself, a robust three standard errors flagged two
/// rows of 54 in one run (`sort/stable/8192` -1.1 % against +0.8 %, Welch's
/// t under 3); toml's `serde_json::manifest::1-medium` reads t = 8–9.
pub(super) const APART: f64 = 4.0;

/// The change at each count of iterations per sample the row's epochs
/// took, where two counts disagree: the medians of the counts furthest
/// apart lie more than `threshold` apart, and their epochs' means more
/// than [`APART`] by Welch's t. None where the counts agree, or the row has
/// too few epochs at each ([`LEAST_EPOCHS`]) to tell.
pub fn by_iterations(row: &Row, threshold: f64) -> Option<Vec<(u64, f64)>> {
    let ratios = row.epoch_medians.iter().map(|m| m[1] / m[0]);
    let mut groups = logs_by_count(ratios, &row.epoch_iters);
    groups.retain(|_, logs| logs.len() >= LEAST_EPOCHS);
    if groups.len() < 2 {
        return None;
    }
    let counts: Vec<(u64, f64, &Vec<f64>)> = (groups.iter_mut())
        .map(|(n, logs)| {
            logs.sort_by(f64::total_cmp);
            (*n, median_sorted(logs), &*logs)
        })
        .collect();
    let by_centre = |a: &&(u64, f64, &Vec<f64>), b: &&(u64, f64, &Vec<f64>)| a.1.total_cmp(&b.1);
    let low = counts.iter().min_by(by_centre)?;
    let high = counts.iter().max_by(by_centre)?;
    let apart = high.1 - low.1 > threshold.ln_1p() && welch_t(low.2, high.2) >= APART;
    apart.then(|| counts.iter().map(|(n, c, _)| (*n, c.exp_m1())).collect())
}

/// Welch's t of the difference between the means of `a` and `b` (at least
/// two values each), as a magnitude; infinite where neither varies.
fn welch_t(a: &[f64], b: &[f64]) -> f64 {
    let (ma, mb) = (mean(a), mean(b));
    let error = |x: &[f64], m: f64| variance(x, m) / x.len() as f64;
    (ma - mb).abs() / (error(a, ma) + error(b, mb)).sqrt()
}

/// Whether the counts disagree ([`by_iterations`]) about the change's very
/// direction: one reads it beyond `threshold` faster, another beyond it
/// slower. Such a row gets no verdict, whatever its change over the counts
/// together says.
pub fn opposed(row: &Row, threshold: f64) -> bool {
    by_iterations(row, threshold).is_some_and(|changes| {
        let beyond = |sign: f64| changes.iter().any(|(_, c)| c * sign > threshold);
        beyond(1.0) && beyond(-1.0)
    })
}

/// The epochs' ratios with each count of iterations per sample's own
/// level taken out: every epoch's log ratio moved by the median of its
/// count's epochs less the mean of the counts' medians. The counts are a
/// factor the comparison sets (`run::paired::pace::ITERS_STEPS`), like a
/// block of an experiment, so a change that differs a little between them
/// is the mean over them and does not widen its interval; a count with
/// fewer than [`LEAST_EPOCHS`] epochs, or one count alone, leaves the
/// ratios as they are.
pub fn evened(e: Epochs<'_>) -> Vec<f64> {
    let groups = logs_by_count(e.ratios.iter().copied(), e.iters);
    let whole = groups.len() >= 2 && groups.values().all(|g| g.len() >= LEAST_EPOCHS);
    if !whole || e.iters.len() != e.ratios.len() {
        return e.ratios.to_vec();
    }
    let centres: BTreeMap<u64, f64> = (groups.into_iter())
        .map(|(n, mut logs)| {
            logs.sort_by(f64::total_cmp);
            (n, median_sorted(&logs))
        })
        .collect();
    let mean = centres.values().sum::<f64>() / centres.len() as f64;
    (e.ratios.iter().zip(e.iters))
        .map(|(r, n)| match *r > 0.0 && r.is_finite() {
            true => (r.ln() - centres[n] + mean).exp(),
            false => *r,
        })
        .collect()
}

/// The logarithms of the positive, finite `ratios`, by the count of
/// iterations per sample each epoch took (`iters`, in the same order).
fn logs_by_count(ratios: impl Iterator<Item = f64>, iters: &[u64]) -> BTreeMap<u64, Vec<f64>> {
    let mut groups: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    for (r, n) in ratios.zip(iters) {
        if r > 0.0 && r.is_finite() {
            groups.entry(*n).or_default().push(r.ln());
        }
    }
    groups
}

/// `+6.0% at 1 iteration a sample, -4.0% at 2 and -4.1% at 4`.
pub fn describe(changes: &[(u64, f64)]) -> String {
    let at = |(n, c): &(u64, f64)| format!("{:+.1}% at {n}", c * 100.0);
    let mut parts: Vec<String> = changes.iter().map(at).collect();
    if let Some(first) = parts.first_mut() {
        let unit = match changes[0].0 {
            1 => "iteration",
            _ => "iterations",
        };
        first.push_str(&format!(" {unit} a sample"));
    }
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.join(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::comparison::{Kind, Row};

    fn row(ratios: &[(u64, f64)]) -> Row {
        let found = (0.0, [-0.05, 0.05], Some(0.5));
        let mut row = Row::new("r", Kind::Paired, Default::default(), [1e4, 1e4], found);
        row.epoch_medians = ratios.iter().map(|(_, r)| [1e4, 1e4 * r]).collect();
        row.epoch_iters = ratios.iter().map(|(n, _)| *n).collect();
        row
    }

    #[test]
    fn each_counts_level_is_taken_out_and_their_mean_kept() {
        let ratios = [1.01, 1.03, 1.012, 1.028, 1.008, 1.032];
        let evened = evened_of(&ratios, &[4, 8, 4, 8, 4, 8]);
        let ln = |x: f64| x.ln();
        // The counts' medians: 1.01 and 1.03; their mean level is kept.
        let mean = (ln(1.01) + ln(1.03)) / 2.0;
        for (i, r) in evened.iter().enumerate() {
            let own = if i % 2 == 0 { ln(1.01) } else { ln(1.03) };
            assert!(
                (r.ln() - (ln(ratios[i]) - own + mean)).abs() < 1e-12,
                "{evened:?}"
            );
        }
        // One count alone, or too few epochs at one: as they were.
        assert_eq!(evened_of(&ratios, &[4; 6]), ratios);
        assert_eq!(evened_of(&ratios, &[4, 8, 4, 4, 4, 4]), ratios);
    }

    fn evened_of(ratios: &[f64], iters: &[u64]) -> Vec<f64> {
        evened(Epochs {
            ratios,
            base_medians: &[],
            cur_medians: &[],
            copies: &[],
            iters,
        })
    }

    #[test]
    fn counts_that_disagree_are_told_apart_from_counts_that_scatter() {
        // toml's `serde_json::manifest::1-medium`: +6 % at one iteration a
        // sample, -4 % at two and four, each epoch within about 2 %.
        let wobble = [0.99, 1.01, 1.0, 0.985, 1.015];
        let epochs: Vec<(u64, f64)> = (0..12)
            .map(|e| {
                let (n, r) = [(1, 1.06), (2, 0.96), (4, 0.96)][e % 3];
                (n, r * wobble[e % wobble.len()])
            })
            .collect();
        let found = by_iterations(&row(&epochs), 0.005).expect("the counts disagree");
        assert_eq!(found.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [1, 2, 4]);
        assert!((found[0].1 - 0.06).abs() < 0.01, "{found:?}");
        assert!((found[1].1 + 0.04).abs() < 0.01, "{found:?}");
        assert_eq!(
            describe(&[(1, 0.06), (2, -0.04), (4, -0.041)]),
            "+6.0% at 1 iteration a sample, -4.0% at 2 and -4.1% at 4"
        );
        assert_eq!(
            describe(&[(8, 0.01), (16, 0.0)]),
            "+1.0% at 8 iterations a sample and +0.0% at 16"
        );
        assert!(opposed(&row(&epochs), 0.005));
        // Counts that disagree on the size, not the direction.
        let sizes: Vec<(u64, f64)> = epochs.iter().map(|(n, r)| (*n, r + 0.1)).collect();
        assert!(by_iterations(&row(&sizes), 0.005).is_some());
        assert!(!opposed(&row(&sizes), 0.005));
        // The same spread with no pattern by count: nothing to say.
        let mixed: Vec<(u64, f64)> = (0..12)
            .map(|e| ([1, 2, 4][e % 3], [1.06, 0.96][e % 2]))
            .collect();
        assert_eq!(by_iterations(&row(&mixed), 0.005), None);
        // Counts apart by less than the threshold: nothing to say either.
        let close: Vec<(u64, f64)> = (0..12)
            .map(|e| ([1, 2, 4][e % 3], [1.003, 1.0, 1.0][e % 3]))
            .collect();
        assert_eq!(by_iterations(&row(&close), 0.005), None);
        // Too few epochs at each count.
        assert_eq!(by_iterations(&row(&epochs[..5]), 0.005), None);
    }
}
