//! Deciding regressed / improved / unchanged: from paired ratios, or from stored samples when pairing is impossible.

use nbench::stats::{median_ci_sorted, median_sorted};
use serde::{Deserialize, Serialize};

/// What a comparison concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Slower, beyond noise and the threshold.
    Regressed,
    /// Faster, beyond noise and the threshold.
    Improved,
    /// No change shown.
    Unchanged,
}

/// How the two sides were compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Both executables sampled in lockstep.
    Paired,
    /// The current run against the baseline's stored samples (less certain).
    Stored,
}

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

fn decide(change: f64, ci: [f64; 2], significant: bool, threshold: f64) -> Verdict {
    if significant && ci[0] > 0.0 && change > threshold {
        Verdict::Regressed
    } else if significant && ci[1] < 0.0 && change < -threshold {
        Verdict::Improved
    } else {
        Verdict::Unchanged
    }
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
    let logs: Vec<f64> = epoch_ratios
        .iter()
        .filter(|r| **r > 0.0 && r.is_finite())
        .map(|r| r.ln())
        .collect();
    if logs.len() < 2 {
        return within_one_epoch(rounds, threshold);
    }
    let k = logs.len() as f64;
    let mean = logs.iter().sum::<f64>() / k;
    let sd = (logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0)).sqrt();
    let se = sd / k.sqrt();
    let q = nbench::stats::t_quantile(0.975, k - 1.0);
    let ci = [(mean - q * se).exp_m1(), (mean + q * se).exp_m1()];
    let p = if se > 0.0 {
        2.0 * (1.0 - nbench::stats::t_cdf((mean / se).abs(), k - 1.0))
    } else if mean == 0.0 {
        1.0
    } else {
        0.0
    };
    let change = mean.exp_m1();
    Some(Change {
        change,
        ci,
        p_value: Some(p),
        verdict: decide(change, ci, p < 0.05, threshold),
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
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut boot: Vec<f64> = (0..1000)
        .filter_map(|_| {
            let b = med(&rng.resample(base));
            (b > 0.0).then(|| med(&rng.resample(cur)) / b - 1.0)
        })
        .collect();
    boot.sort_by(f64::total_cmp);
    let ci = [
        nbench::stats::percentile_sorted(&boot, 2.5),
        nbench::stats::percentile_sorted(&boot, 97.5),
    ];
    let p = mann_whitney_p(base, cur);
    Some(Change {
        change,
        ci,
        p_value: Some(p),
        verdict: decide(change, ci, p < 0.05, threshold),
    })
}

/// Two-sided p-value of the Mann–Whitney U test, normal approximation with
/// tie and continuity corrections.
pub fn mann_whitney_p(a: &[f64], b: &[f64]) -> f64 {
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    let mut all: Vec<(f64, bool)> = a
        .iter()
        .map(|&x| (x, true))
        .chain(b.iter().map(|&x| (x, false)))
        .collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    let n = all.len();
    let (mut rank_sum_a, mut tie_term) = (0.0, 0.0);
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && all[j + 1].0 == all[i].0 {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        let t = (j - i + 1) as f64;
        tie_term += t * t * t - t;
        rank_sum_a += rank * all[i..=j].iter().filter(|x| x.1).count() as f64;
        i = j + 1;
    }
    let u = rank_sum_a - n1 * (n1 + 1.0) / 2.0;
    let mean = n1 * n2 / 2.0;
    let nn = n1 + n2;
    let var = n1 * n2 / 12.0 * ((nn + 1.0) - tie_term / (nn * (nn - 1.0)));
    if var <= 0.0 {
        return 1.0;
    }
    let z = ((u - mean).abs() - 0.5).max(0.0) / var.sqrt();
    erfc(z / std::f64::consts::SQRT_2).min(1.0)
}

/// The complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn resample(&mut self, x: &[f64]) -> Vec<f64> {
        (0..x.len())
            .map(|_| x[(self.next() % x.len() as u64) as usize])
            .collect()
    }
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
        // Significant but below the noise threshold: unchanged.
        let tiny: Vec<f64> = same.iter().map(|r| r * 1.004).collect();
        assert_eq!(
            paired(&tiny, &[], 0.005).unwrap().verdict,
            Verdict::Unchanged
        );
        // Epochs that disagree: a wide CI, no verdict, not settled.
        let spread = [1.03, 0.99, 1.02, 1.0];
        let c = paired(&spread, &[], 0.005).unwrap();
        assert_eq!(c.verdict, Verdict::Unchanged);
        assert!(!settled(&c, 0.005), "{c:?}");
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
    fn mann_whitney_by_hand() {
        // Fully separated samples of 10 and 10: U = 0, z = (50 - 0.5) / √175 = 3.742, p ≈ 1.83e-4.
        let a: Vec<f64> = (0..10).map(f64::from).collect();
        let b: Vec<f64> = (10..20).map(f64::from).collect();
        let p = mann_whitney_p(&a, &b);
        assert!((p - 1.826e-4).abs() < 2e-6, "{p}");
        // Identical samples: no evidence at all.
        assert!(mann_whitney_p(&a, &a) > 0.9);
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
