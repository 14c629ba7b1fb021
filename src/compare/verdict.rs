//! Deciding regressed / improved / unchanged: from paired ratios, or from stored samples when pairing is impossible.

pub use crate::model::comparison::{Kind, Verdict};
use nbench::__private::stats::{RESAMPLES, median_ci_sorted, median_ratio_ci, median_sorted};

/// The estimate of current / baseline − 1 with its 95 % CI, and the verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// Relative change (0.05 = 5 % slower).
    pub change: f64,
    /// 95 % CI of the change.
    pub ci: [f64; 2],
    /// Two-sided p-value of the test used, where there is one.
    pub p_value: Option<f64>,
    /// The conclusion.
    pub verdict: Verdict,
}

/// Regressed or improved: significant, the interval on one side of 0 and
/// the change beyond the threshold. Unchanged only when the whole interval
/// lies within ±threshold; anything else is inconclusive, never "unchanged".
fn decide(change: f64, ci: [f64; 2], significant: bool, threshold: f64) -> Verdict {
    if significant && ci[0] > 0.0 && change > threshold {
        Verdict::Regressed
    } else if significant && ci[1] < 0.0 && change < -threshold {
        Verdict::Improved
    } else if ci[0] >= -threshold && ci[1] <= threshold {
        Verdict::Unchanged
    } else {
        Verdict::Inconclusive
    }
}

/// Why an inconclusive row's interval stayed wider than the threshold, in
/// words: the interval, then the cause the row's figures point to.
pub fn why_inconclusive(row: &crate::model::comparison::Row, threshold: f64) -> String {
    let pct = |x: f64| format!("{:+.1}%", x * 100.0);
    let span = format!(
        "the change lies somewhere in {} … {}, wider than ±{:.1}%",
        pct(row.change_ci[0]),
        pct(row.change_ci[1]),
        threshold * 100.0
    );
    let half = (row.change_ci[1] - row.change_ci[0]) / 2.0;
    let cause = match row.kind {
        Kind::Stored => {
            "compared with stored samples, taken at another time (run it paired)".to_owned()
        }
        _ if row
            .layout_spread
            .is_some_and(|s| s >= threshold && s * 2.0 >= half) =>
        {
            format!(
                "code placement alone moves it ±{:.1}%",
                row.layout_spread.unwrap_or_default() * 100.0
            )
        }
        _ if row.epochs.is_some_and(|e| e < 4) => format!(
            "only {} epochs fit in the time limit (raise --max-time)",
            row.epochs.unwrap_or_default()
        ),
        _ if row.time_limited => {
            "the machine's noise, over the whole time limit (raise --max-time)".to_owned()
        }
        _ => "the machine's noise".to_owned(),
    };
    format!("{span}: {cause}")
}

/// From a paired measurement: one ratio (current / baseline, the median of
/// its rounds) per epoch, each epoch a fresh pair of processes. The change is
/// the geometric mean of the epoch ratios, its CI and p-value those of a
/// one-sample t test on their logarithms: the spread between process pairs,
/// which holds each process's own bias, sets the CI's width.
///
/// With a single epoch there is no such spread; `rounds` (all the rounds'
/// ratios) then give the median ratio's distribution-free CI.
pub fn paired(epoch_ratios: &[f64], rounds: &[f64], threshold: f64) -> Option<Change> {
    let Some(t) = nbench::__private::stats::ratio_t_test(epoch_ratios, 0.95) else {
        return within_one_epoch(rounds, threshold);
    };
    Some(Change {
        change: t.change,
        ci: t.ci,
        p_value: Some(t.p),
        verdict: decide(t.change, t.ci, t.p < 0.05, threshold),
    })
}

/// The median of per-round ratios and its CI from the inversion of the sign test.
fn within_one_epoch(rounds: &[f64], threshold: f64) -> Option<Change> {
    if rounds.is_empty() {
        return None;
    }
    let mut r = rounds.to_vec();
    r.sort_by(f64::total_cmp);
    let m = median_sorted(&r) - 1.0;
    let ci = median_ci_sorted(&r, 0.95);
    let ci = [ci.lo - 1.0, ci.hi - 1.0];
    let significant = ci[0] > 0.0 || ci[1] < 0.0;
    Some(Change {
        change: m,
        ci,
        p_value: None,
        verdict: decide(m, ci, significant, threshold),
    })
}

/// Whether more measuring could no longer change the verdict much: the CI
/// lies wholly beyond the noise threshold on one side, or wholly within it.
pub fn settled(c: &Change, threshold: f64) -> bool {
    let [lo, hi] = c.ci;
    lo > threshold || hi < -threshold || (lo >= -threshold && hi <= threshold)
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
        verdict: decide(change, ci, p < 0.05, threshold),
    })
}

/// The verdict again after the p-value was adjusted for the run's other comparisons.
pub fn redecide(change: f64, ci: [f64; 2], p_adjusted: f64, threshold: f64) -> Verdict {
    decide(change, ci, p_adjusted < 0.05, threshold)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_verdicts_from_epochs() {
        let same = [1.002, 0.997, 1.001, 0.999, 1.004, 0.996, 1.0, 1.001];
        let c = paired(&same, &[], 0.005).unwrap();
        assert_eq!(c.verdict, Verdict::Unchanged);
        assert!(
            c.ci[0] < 0.0 && c.ci[1] > 0.0 && settled(&c, 0.005),
            "{c:?}"
        );
        let slower: Vec<f64> = same.iter().map(|r| r * 1.05).collect();
        let c = paired(&slower, &[], 0.005).unwrap();
        assert_eq!(c.verdict, Verdict::Regressed);
        assert!((c.change - 0.05).abs() < 0.005 && c.ci[0] > 0.04, "{c:?}");
        assert!(c.p_value.unwrap() < 1e-6 && settled(&c, 0.005));
        let faster: Vec<f64> = same.iter().map(|r| r * 0.9).collect();
        assert_eq!(
            paired(&faster, &[], 0.005).unwrap().verdict,
            Verdict::Improved
        );
        // Significant, smaller than the threshold, but its interval reaches
        // past it: the tool cannot say it is unchanged.
        let tiny: Vec<f64> = same.iter().map(|r| r * 1.004).collect();
        let c = paired(&tiny, &[], 0.005).unwrap();
        assert!(c.ci[1] > 0.005, "{c:?}");
        assert_eq!(c.verdict, Verdict::Inconclusive);
        // Within it on both sides: unchanged.
        let c = paired(&tiny, &[], 0.01).unwrap();
        assert!(c.ci[1] < 0.01, "{c:?}");
        assert_eq!(c.verdict, Verdict::Unchanged);
        // Epochs that disagree: a wide CI, no verdict, not settled.
        let spread = [1.03, 0.99, 1.02, 1.0];
        let c = paired(&spread, &[], 0.005).unwrap();
        assert_eq!(c.verdict, Verdict::Inconclusive);
        assert!(!settled(&c, 0.005), "{c:?}");
    }

    #[test]
    fn the_verdict_rule() {
        let t = 0.005;
        // (change, interval, significant) → verdict.
        for (change, ci, sig, want) in [
            (0.02, [0.01, 0.03], true, Verdict::Regressed),
            (-0.02, [-0.03, -0.01], true, Verdict::Improved),
            (0.001, [-0.004, 0.005], false, Verdict::Unchanged),
            // Beyond the threshold but not significant (after the adjustment).
            (0.02, [0.01, 0.03], false, Verdict::Inconclusive),
            // Significant, on one side of 0, but smaller than the threshold.
            (0.004, [0.001, 0.007], true, Verdict::Inconclusive),
            // Wide both ways: anything from −3 % to +16 %.
            (0.06, [-0.03, 0.16], false, Verdict::Inconclusive),
            (0.0, [-0.0051, 0.0], false, Verdict::Inconclusive),
        ] {
            assert_eq!(decide(change, ci, sig, t), want, "{change} {ci:?} {sig}");
        }
    }

    #[test]
    fn an_inconclusive_row_says_why() {
        let mut row = crate::model::comparison::Row {
            id: "sort".into(),
            kind: Kind::Paired,
            baseline_ns: 100.0,
            current_ns: 106.0,
            change: 0.06,
            change_ci: [-0.03, 0.16],
            p_value: Some(0.3),
            p_adjusted: Some(0.3),
            verdict: Verdict::Inconclusive,
            baseline_per_iter_ns: Vec::new(),
            overhead_ns: 0.0,
            layout_spread: Some(0.14),
            epochs: Some(8),
            time_limited: true,
            inconclusive: None,
        };
        let why = why_inconclusive(&row, 0.005);
        assert!(
            why.starts_with("the change lies somewhere in -3.0% … +16.0%, wider than ±0.5%"),
            "{why}"
        );
        assert!(
            why.ends_with("code placement alone moves it ±14.0%"),
            "{why}"
        );
        row.layout_spread = Some(0.001);
        assert!(why_inconclusive(&row, 0.005).ends_with("(raise --max-time)"));
        row.epochs = Some(2);
        assert!(why_inconclusive(&row, 0.005).contains("only 2 epochs"));
        row.kind = Kind::Stored;
        assert!(why_inconclusive(&row, 0.005).contains("stored samples"));
    }

    #[test]
    fn paired_t_interval_by_hand() {
        // logs of [1.01, 1.03]: mean 0.019852, sd 0.014001, se 0.0099,
        // t(0.975, 1) = 12.7062, so the CI is exp(0.019852 ± 0.125794) − 1.
        let c = paired(&[1.01, 1.03], &[], 0.005).unwrap();
        let m = (1.01f64.ln() + 1.03f64.ln()) / 2.0;
        let half = 12.706_204_736 * (1.03f64.ln() - 1.01f64.ln()) / 2.0;
        assert!((c.change - m.exp_m1()).abs() < 1e-12);
        assert!((c.ci[0] - (m - half).exp_m1()).abs() < 1e-6, "{c:?}");
        assert!((c.ci[1] - (m + half).exp_m1()).abs() < 1e-6, "{c:?}");
    }

    #[test]
    fn one_epoch_uses_the_rounds() {
        let rounds: Vec<f64> = (0..200)
            .map(|i| 1.05 + ((i % 7) as f64 - 3.0) * 0.002)
            .collect();
        let c = paired(&[1.05], &rounds, 0.005).unwrap();
        assert_eq!(c.verdict, Verdict::Regressed);
        assert!(c.p_value.is_none());
        assert!(paired(&[], &[], 0.005).is_none());
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
}
