//! The change and its interval: from paired epochs (winsorized mean or
//! median unit, widened for layouts), from one epoch's rounds (no verdict), or from two
//! stored sample sets.

use super::far::{FAR_MIN_UNITS, pull_in_far, winsorized_t_test};
use super::layouts::{Clusters, far_layouts, widened_by_layouts};
use super::median::{by_median, on_side};
use super::rule::{Change, decide};
use crate::model::comparison::{SIGNIFICANCE, Verdict};
use nbench::__private::stats::{
    RESAMPLES, RatioTest, median_ci_sorted, median_ratio_ci, median_sorted,
};

/// The change over epochs, its interval and p-value, and how many epochs
/// lay far from the rest.
///
/// Where `fast` is given (some epoch's processes did not both run at full
/// speed) and usable, from those units alone, as below; else from all.
/// Usually the t test of [`ratio_t_test`] on the epochs with the far ones
/// pulled in ([`pull_in_far`]), its interval and p-value widened by the
/// factor that keeps them at 95 %. When more than a third lie far
/// ([`FAR_MOST`]), the far ones are no stray epochs but as many processes in
/// other speed states as in the same, and mostly on one side (measured,
/// A/A: 18 far epochs below and 2 above out of 47): pulled in, they still
/// drag the mean their way and the t interval, narrowed by the pulling in,
/// called a 0.7 % "improvement" that was not there. Then the change is the
/// median epoch, with the sign test's distribution-free interval and
/// p-value ([`by_median`]), which no share of far epochs below a half moves
/// past the rest.
fn over_epochs(units: &[f64], clusters: Clusters<'_>, fast: Option<Fast<'_>>) -> Option<Over> {
    // Where some epoch's processes ran in different speed states: from
    // those that did, if they are units enough and not themselves a mix.
    if let Some(f) = fast.filter(|f| f.usable(clusters)) {
        let (near, far) = pull_in_far(f.units);
        let labels = valid_labels(f.units, f.clusters);
        let labels = labels.as_ref().map(|(b, c)| (b.as_slice(), c.as_slice()));
        if far as f64 <= FAR_MOST * near.len() as f64 {
            let over = over_near(&near, labels, far)?;
            return Some(Over {
                full_speed: near.len(),
                ..over
            });
        }
    }
    let (clipped, pulled) = pull_in_far(units);
    let layouts = valid_labels(units, clusters);
    let layouts = layouts.as_ref().map(|(b, c)| (b.as_slice(), c.as_slice()));
    if pulled as f64 <= FAR_MOST * clipped.len() as f64 {
        return over_near(&clipped, layouts, pulled);
    }
    // Most units far: the median unit; its interval too widens for the
    // layouts the units share (a benchmark that placement moves ±11 % also
    // has most of its units far from each other).
    let (test, widening) = widened_by_layouts(by_median(units)?, &clipped, layouts);
    Some(Over {
        test,
        pulled,
        left_out: 0,
        full_speed: 0,
        widening,
    })
}

/// The layouts of the units that are positive numbers (the same order).
fn valid_labels(units: &[f64], clusters: Clusters<'_>) -> Option<(Vec<usize>, Vec<usize>)> {
    let valid = |labels: &[usize]| -> Vec<usize> {
        (units.iter().zip(labels))
            .filter(|(r, _)| **r > 0.0 && r.is_finite())
            .map(|(_, l)| *l)
            .collect()
    };
    clusters.map(|(b, c)| (valid(b), valid(c)))
}

/// The winsorized t test over units `clipped` (`pulled` of them pulled in),
/// any far layout left out, widened for the layouts they share.
fn over_near(clipped: &[f64], layouts: Clusters<'_>, pulled: usize) -> Option<Over> {
    let (keep, left_out) = far_layouts(clipped, layouts);
    fn kept<T: Copy>(v: &[T], keep: &[bool]) -> Vec<T> {
        (v.iter().zip(keep))
            .filter(|(_, k)| **k)
            .map(|(x, _)| *x)
            .collect()
    }
    let clipped = kept(clipped, &keep);
    let labels = layouts.map(|(b, c)| (kept(b, &keep), kept(c, &keep)));
    let layouts = labels.as_ref().map(|(b, c)| (b.as_slice(), c.as_slice()));
    let t = winsorized_t_test(&clipped, pulled)?.0;
    let (test, widening) = widened_by_layouts(t, &clipped, layouts);
    Some(Over {
        test,
        pulled,
        left_out,
        full_speed: 0,
        widening,
    })
}

/// The units of the epochs whose two processes both ran at their side's
/// fastest speed, and their layouts, where some epoch's did not: the
/// change is taken from these when they suffice ([`Fast::usable`]).
///
/// A process can run a small loop in one of a few speed states for its
/// whole life, which neither where its code or data lie nor the length of
/// a sample explains. An epoch whose two processes sat in different states
/// reads far from the rest; the median unit then lands wherever
/// the mix of states puts it, and one side drawing the slow states more
/// often moves it past the change. The epochs whose two processes ran in
/// one state (each process's epoch median as a multiple of the fastest of
/// its side's epochs that ran its layout, the side's own figure of its own
/// code, which neither the change nor placement moves, within a band of
/// the other's) compare the code in the same state; a host that slows both
/// processes alike leaves their epoch in.
/// The figures' record: `docs/notes/2026-11-27-measuring-and-comparing.md`.
#[derive(Debug, Clone, Copy)]
pub struct Fast<'a> {
    /// The units (as [`paired`]'s).
    pub units: &'a [f64],
    /// Their layouts.
    pub clusters: Clusters<'a>,
}

impl Fast<'_> {
    /// Enough of them ([`FAR_MIN_UNITS`]), with layouts where all units have them.
    fn usable(&self, all: Clusters<'_>) -> bool {
        self.units.len() >= FAR_MIN_UNITS && all.is_some() == self.clusters.is_some()
    }
}

/// What [`over_epochs`] found.
struct Over {
    /// The change, its interval and p-value.
    test: RatioTest,
    /// Units pulled in ([`pull_in_far`]).
    pulled: usize,
    /// Layouts left out ([`far_layouts`]).
    left_out: usize,
    /// Units at full speed the change was taken from ([`Fast`]), or 0.
    full_speed: usize,
    /// How many times wider the interval was made for the layouts.
    widening: f64,
}

/// The share of epochs far from the rest beyond which [`over_epochs`] takes
/// the median epoch instead of the winsorized mean.
pub const FAR_MOST: f64 = 1.0 / 3.0;

/// From a paired measurement: one ratio (current / baseline, the median of
/// its rounds) per epoch, each epoch a fresh pair of processes. The change is
/// the geometric mean of the epoch ratios (those far from the rest pulled
/// in, [`pull_in_far`]), its CI and p-value those of a one-sample t test on
/// their logarithms: the spread between process pairs, which holds
/// each process's own bias, sets the CI's width. Where more than a third
/// lie far, the median epoch and the sign test ([`over_epochs`]).
///
/// With a single epoch there is no such spread; `rounds` (all the rounds'
/// ratios) then give the median ratio's distribution-free CI.
#[cfg(test)]
pub fn paired(
    epoch_ratios: &[f64],
    clusters: Clusters<'_>,
    rounds: &[f64],
    threshold: f64,
) -> Option<Change> {
    paired_with(epoch_ratios, clusters, None, rounds, threshold)
}

/// [`paired`], from the units at full speed (`fast`) when they suffice.
pub fn paired_with(
    epoch_ratios: &[f64],
    clusters: Clusters<'_>,
    fast: Option<Fast<'_>>,
    rounds: &[f64],
    threshold: f64,
) -> Option<Change> {
    let Some(over) = over_epochs(epoch_ratios, clusters, fast) else {
        return within_one_epoch(rounds);
    };
    let t = over.test;
    Some(Change {
        change: t.change,
        ci: t.ci,
        p_value: Some(t.p),
        verdict: decide(t.change, t.ci, t.p < SIGNIFICANCE, threshold),
        pulled_in: over.pulled,
        layouts_left_out: over.left_out,
        full_speed_units: over.full_speed,
        layout_widening: over.widening,
    })
}

/// One epoch: the median of its per-round ratios and their sign-test
/// interval, with no verdict ([`super::rule::one_epoch`]).
fn within_one_epoch(rounds: &[f64]) -> Option<Change> {
    if rounds.is_empty() {
        return None;
    }
    let mut r = rounds.to_vec();
    r.sort_by(f64::total_cmp);
    let m = median_sorted(&r) - 1.0;
    let ci = median_ci_sorted(&r, 0.95);
    let ci = [ci.lo - 1.0, ci.hi - 1.0];
    Some(Change {
        change: m,
        ci,
        p_value: None,
        verdict: Verdict::Inconclusive,
        pulled_in: 0,
        layouts_left_out: 0,
        full_speed_units: 0,
        layout_widening: 1.0,
    })
}

/// Whether a change `c` that claims a regression or an improvement (its
/// interval beyond the threshold, as [`settled`] judges it) is held by the
/// median of `units` too: the sign test's interval of the median unit
/// ([`by_median`]) on the same side of 0. The mean can be carried by a few
/// epochs in a slowed spell of the host (an A/A comparison once stopped
/// "regressed" that way), and until every
/// layout has run twice no process can be judged by another run of its
/// layout (whether its pair ran in one speed state); the median is not
/// moved by them. A change that claims nothing agrees.
/// The figures' record: `docs/notes/2026-11-27-measuring-and-comparing.md`.
pub fn median_agrees(units: &[f64], c: &Change, threshold: f64) -> bool {
    let [lo, hi] = c.ci;
    let median = |upward| by_median(units).is_some_and(|m| on_side(m.ci, upward));
    match (lo > threshold, hi < -threshold) {
        (true, _) => median(true),
        (_, true) => median(false),
        _ => true,
    }
}

/// From two independent sample sets: ratio of medians with a bootstrap CI
/// (fixed seed), and the Mann–Whitney U test's two-sided p-value.
pub fn stored(base: &[f64], cur: &[f64], threshold: f64) -> Option<Change> {
    if base.is_empty() || cur.is_empty() {
        return None;
    }
    let med = |x: &[f64]| {
        let mut v = x.to_vec();
        v.sort_by(f64::total_cmp);
        median_sorted(&v)
    };
    let (mb, mc) = (med(base), med(cur));
    if mb <= 0.0 {
        return None;
    }
    let change = mc / mb - 1.0;
    let ratio = median_ratio_ci(base, cur, RESAMPLES, 0.95, 0)?;
    let ci = [ratio.lo - 1.0, ratio.hi - 1.0];
    let p = nbench::__private::stats::mann_whitney(base, cur).map_or(1.0, |r| r.p);
    Some(Change {
        change,
        ci,
        p_value: Some(p),
        verdict: decide(change, ci, p < SIGNIFICANCE, threshold),
        pulled_in: 0,
        layouts_left_out: 0,
        full_speed_units: 0,
        layout_widening: 1.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::compare::{estimators::*, far::*, layouts::*, rule::*};
    #[allow(unused_imports)]
    use crate::model::comparison::{Kind, Row, Verdict};

    #[test]
    fn paired_verdicts_from_epochs() {
        let same = [1.002, 0.997, 1.001, 0.999, 1.004, 0.996, 1.0, 1.001];
        let c = paired(&same, None, &[], 0.005).unwrap();
        assert_eq!(c.verdict, Verdict::Unchanged);
        assert!(
            c.ci[0] < 0.0 && c.ci[1] > 0.0 && settled(&c, 0.005, Look::Final),
            "{c:?}"
        );
        let slower: Vec<f64> = same.iter().map(|r| r * 1.05).collect();
        let c = paired(&slower, None, &[], 0.005).unwrap();
        assert_eq!(c.verdict, Verdict::Regressed);
        assert!((c.change - 0.05).abs() < 0.005 && c.ci[0] > 0.04, "{c:?}");
        assert!(c.p_value.unwrap() < 1e-6 && settled(&c, 0.005, Look::Final));
        let faster: Vec<f64> = same.iter().map(|r| r * 0.9).collect();
        assert_eq!(
            paired(&faster, None, &[], 0.005).unwrap().verdict,
            Verdict::Improved
        );
        // Significant, smaller than the threshold, but its interval reaches
        // past it: the tool cannot say it is unchanged.
        let tiny: Vec<f64> = same.iter().map(|r| r * 1.004).collect();
        let c = paired(&tiny, None, &[], 0.005).unwrap();
        assert!(c.ci[1] > 0.005, "{c:?}");
        assert_eq!(c.verdict, Verdict::Inconclusive);
        // Within it on both sides: unchanged.
        let c = paired(&tiny, None, &[], 0.01).unwrap();
        assert!(c.ci[1] < 0.01, "{c:?}");
        assert_eq!(c.verdict, Verdict::Unchanged);
        // Epochs that disagree: a wide CI, no verdict, not settled.
        let spread = [1.03, 0.99, 1.02, 1.0];
        let c = paired(&spread, None, &[], 0.005).unwrap();
        assert_eq!(c.verdict, Verdict::Inconclusive);
        assert!(!settled(&c, 0.005, Look::Final), "{c:?}");
    }

    #[test]
    fn when_a_third_of_the_epochs_lie_far_the_median_epoch_decides() {
        // Measured (A/A): 20 of 47 epochs far, 18 of them below. Pulled in,
        // they made a 0.7 % "improvement"; the median epoch does not.
        let mut units = vec![1.0; 27];
        units.extend([0.8; 18]);
        units.extend([1.2; 2]);
        let (_, k) = pull_in_far(&units);
        assert_eq!(k, 20);
        let c = paired(&units, None, &[], 0.005).unwrap();
        assert_eq!(c.change, 0.0, "{c:?}");
        assert!(c.ci[0] < -0.1 && c.ci[1] == 0.0, "{c:?}");
        assert_eq!(c.verdict, Verdict::Inconclusive, "{c:?}");
        // A clear majority of epochs agreeing on 2 % slower is still found.
        let mut slower = vec![1.02; 40];
        slower.extend([0.8; 13]);
        slower.extend([1.2; 8]);
        let c = paired(&slower, None, &[], 0.005).unwrap();
        assert_eq!((c.verdict, c.pulled_in), (Verdict::Regressed, 21), "{c:?}");
        assert!((c.change - 0.02).abs() < 1e-12, "{c:?}");
        // At most a third far: the winsorized mean, as before.
        let mut few = vec![1.0; 20];
        few.extend([0.8; 5]);
        let c = paired(&few, None, &[], 0.005).unwrap();
        assert_eq!((c.verdict, c.pulled_in), (Verdict::Unchanged, 5), "{c:?}");
    }

    #[test]
    fn paired_t_interval_by_hand() {
        // logs of [1.01, 1.03]: mean 0.019852, sd 0.014001, se 0.0099,
        // t(0.975, 1) = 12.7062, so the CI is exp(0.019852 ± 0.125794) − 1.
        let c = paired(&[1.01, 1.03], None, &[], 0.005).unwrap();
        let m = (1.01f64.ln() + 1.03f64.ln()) / 2.0;
        let half = 12.706_204_736 * (1.03f64.ln() - 1.01f64.ln()) / 2.0;
        assert!((c.change - m.exp_m1()).abs() < 1e-12);
        assert!((c.ci[0] - (m - half).exp_m1()).abs() < 1e-6, "{c:?}");
        assert!((c.ci[1] - (m + half).exp_m1()).abs() < 1e-6, "{c:?}");
    }

    #[test]
    fn one_epoch_reads_its_rounds_and_decides_nothing() {
        let rounds: Vec<f64> = (0..200)
            .map(|i| 1.05 + ((i % 7) as f64 - 3.0) * 0.002)
            .collect();
        let c = paired(&[1.05], None, &rounds, 0.005).unwrap();
        assert!((c.change - 0.05).abs() < 1e-9, "{c:?}");
        assert!(c.ci[0] > 0.04 && c.ci[1] < 0.06, "{c:?}");
        // However narrow its rounds, one process a side is no verdict.
        assert_eq!(c.verdict, Verdict::Inconclusive);
        assert!(c.p_value.is_none());
        assert!(paired(&[], None, &[], 0.005).is_none());
    }

    #[test]
    fn stored_verdicts() {
        let base: Vec<f64> = (0..100).map(|i| 100.0 + (i % 10) as f64).collect();
        let cur: Vec<f64> = base.iter().map(|x| x * 1.2).collect();
        let c = stored(&base, &cur, 0.01).unwrap();
        assert_eq!(c.verdict, Verdict::Regressed);
        assert!(c.ci[0] > 0.1 && c.ci[1] < 0.3, "{c:?}");
        assert_eq!(
            stored(&base, &base, 0.01).unwrap().verdict,
            Verdict::Unchanged
        );
    }

    #[test]
    fn the_winsorized_test_is_numpys() {
        let doc: serde_json::Value =
            serde_json::from_str(include_str!("../../harness/tests/data/reference.json")).unwrap();
        let w = &doc["winsorized"];
        for (i, f) in WINSOR_FACTOR.iter().enumerate() {
            let n = (i + FAR_MIN_UNITS).to_string();
            let numpy = w["factors"][&n].as_f64().unwrap();
            assert!((numpy / f - 1.0).abs() < 1e-14, "{n} epochs: {numpy} {f}");
        }
        let cases = w["cases"].as_object().unwrap();
        assert!(cases.len() >= 5);
        for (name, case) in cases {
            let ratios: Vec<f64> = case["ratios"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let labels = |side: &str| -> Option<Vec<usize>> {
                let a = case.get(side)?.as_array()?;
                Some(a.iter().map(|v| v.as_u64().unwrap() as usize).collect())
            };
            let owned = labels("base").zip(labels("cur"));
            let over = over_epochs(&ratios, clusters(&owned), None).unwrap();
            let (t, pulled) = (over.test, over.pulled);
            if let Some(left_out) = case.get("left_out") {
                assert_eq!(over.left_out as u64, left_out.as_u64().unwrap(), "{name}");
            }
            let close = |what: &str, got: f64, want: &serde_json::Value| {
                let want = want.as_f64().unwrap();
                let ok = (got - want).abs() <= 1e-9 * want.abs().max(1e-3);
                assert!(ok, "{name}.{what}: {got} vs NumPy {want}");
            };
            assert_eq!(pulled as u64, case["pulled"].as_u64().unwrap(), "{name}");
            close("change", t.change, &case["change"]);
            close("ci.lo", t.ci[0], &case["change_ci"][0]);
            close("ci.hi", t.ci[1], &case["change_ci"][1]);
            close("p", t.p, &case["p"]);
        }
    }

    #[test]
    fn a_claim_stops_early_only_where_the_median_unit_holds_it() {
        // A/A over 16 layouts: 10 epochs within ±1.2 % of 1.0 (placement),
        // 6 on a slowed host, read +4 … +16 %. Their mean claims a
        // regression (as measured once: +2.6 % [+0.9 %, +4.4 %]), the
        // median epoch holds none.
        let near: [f64; 10] = [
            0.997, 1.002, 0.999, 1.003, 1.0, 0.998, 1.001, 1.002, 0.997, 1.0,
        ];
        let spread = |r: &f64| (r.ln() * 4.0).exp();
        let slowed = [1.04, 1.06, 1.08, 1.10, 1.12, 1.16];
        let units: Vec<f64> = near.iter().map(spread).chain(slowed).collect();
        let c = paired(&units, None, &[], 0.005).unwrap();
        assert!(
            settled(&c, 0.005, Look::Final) && c.verdict == Verdict::Regressed,
            "{c:?}"
        );
        assert!(!median_agrees(&units, &c, 0.005));
        // A real 2 % change, every epoch within ±1.2 % of it: both hold it.
        let slower: Vec<f64> = (near.iter().chain(&near[..6]))
            .map(|r| spread(r) * 1.02)
            .collect();
        let c = paired(&slower, None, &[], 0.005).unwrap();
        assert!(
            settled(&c, 0.005, Look::Final) && median_agrees(&slower, &c, 0.005),
            "{c:?}"
        );
        let faster: Vec<f64> = slower.iter().map(|r| 1.0 / r).collect();
        let c = paired(&faster, None, &[], 0.005).unwrap();
        assert!(c.verdict == Verdict::Improved && median_agrees(&faster, &c, 0.005));
        // "Unchanged" claims nothing: it agrees whatever the median.
        let c = paired(&near, None, &[], 0.005).unwrap();
        assert!(c.verdict == Verdict::Unchanged && median_agrees(&units, &c, 0.005));
    }
}
