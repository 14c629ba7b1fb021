//! What link layouts do to a comparison's interval: a layout far from the
//! rest left out, and the interval widened for the layouts its units share
//! (cluster-robust variance, two ways).

use super::far::{FAR_FLOOR, robust_sd};
use nbench::__private::stats::{RatioTest, median_sorted, t_cdf, t_quantile};

/// A layout whose units lie, on average, further from the other layouts'
/// of its side than this many robust standard deviations (1.4826 × the
/// median absolute deviation of the layouts' means) is left out; see
/// [`far_layouts`].
pub const LAYOUT_FAR: f64 = 5.0;

/// Units per layout, on average, before any layout is left out: with
/// fewer a layout's mean is two epochs' noise.
pub const LAYOUT_MIN_UNITS: usize = 3;

/// Which units to keep, and how many layouts were left out. A layout is
/// far when its units' mean lies further than [`LAYOUT_FAR`] robust
/// standard deviations (at least [`FAR_FLOOR`]) from the median layout's
/// of its side. The farthest of either side is left out, the means are
/// taken again without its units (which moved the other side's layouts
/// they ran with), and the farthest of the other side, if any, is left out
/// too: at most one layout a side. Only with [`LAYOUT_MIN_UNITS`] units per
/// layout, and only where the mean over epochs decides (not the median
/// epoch).
///
/// Placement moves most benchmarks little, and now and then one layout a
/// lot; kept, such a layout moves the mean and widens the layout-clustered
/// interval ([`widened_by_layouts`]) for every row it ran in. The change is
/// then the one the other layouts agree on, and the record says how many
/// were left out. The interval still holds the true change about 95 % of
/// the time over simulated layout effects; the trials are in
/// `docs/notes/2026-11-27-measuring-and-comparing.md`.
pub fn far_layouts(ratios: &[f64], clusters: Clusters<'_>) -> (Vec<bool>, usize) {
    let n = ratios.len();
    let mut keep = vec![true; n];
    let Some((base, cur)) = clusters else {
        return (keep, 0);
    };
    let layouts = |labels: &[usize]| {
        let mut v = labels.to_vec();
        v.sort_unstable();
        v.dedup();
        v.len()
    };
    let most = layouts(base).max(layouts(cur));
    let usable = base.len() == n && cur.len() == n && layouts(base) > 1 && layouts(cur) > 1;
    if !usable || n < LAYOUT_MIN_UNITS * most {
        return (keep, 0);
    }
    let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
    let mut sides = vec![base, cur];
    let mut left_out = 0;
    while let Some((side, layout)) = farthest_layout(&logs, &keep, &sides) {
        let labels = sides.remove(side);
        for (k, l) in keep.iter_mut().zip(labels) {
            *k &= *l != layout;
        }
        left_out += 1;
    }
    (keep, left_out)
}

/// Of the layouts of the sides `sides` (each unit's label), over the kept
/// units, the one whose mean lies furthest beyond [`LAYOUT_FAR`] robust
/// standard deviations from its side's median layout: (side, layout).
fn farthest_layout(logs: &[f64], keep: &[bool], sides: &[&[usize]]) -> Option<(usize, usize)> {
    let mut farthest: Option<(f64, usize, usize)> = None;
    for (side, labels) in sides.iter().enumerate() {
        let kept = (logs.iter().zip(*labels).zip(keep))
            .filter(|(_, k)| **k)
            .map(|(xl, _)| xl);
        let means = means_by_label(kept);
        let mut sorted: Vec<f64> = means.iter().map(|(_, m)| *m).collect();
        sorted.sort_by(f64::total_cmp);
        let m = median_sorted(&sorted);
        let reach = LAYOUT_FAR * robust_sd(&sorted).max(FAR_FLOOR);
        for (g, mean) in means {
            let excess = (mean - m).abs() / reach;
            if excess > 1.0 && farthest.is_none_or(|(e, _, _)| excess > e) {
                farthest = Some((excess, side, g));
            }
        }
    }
    farthest.map(|(_, side, g)| (side, g))
}

/// The mean of the values of each label, from (value, label) pairs, in
/// order of the labels' first appearance: (label, mean).
pub fn means_by_label<'a>(pairs: impl Iterator<Item = (&'a f64, &'a usize)>) -> Vec<(usize, f64)> {
    let mut sums: Vec<(usize, f64, usize)> = Vec::new();
    for (x, l) in pairs {
        match sums.iter_mut().find(|(g, _, _)| g == l) {
            Some((_, sum, count)) => {
                *sum += x;
                *count += 1;
            }
            None => sums.push((*l, *x, 1)),
        }
    }
    (sums.into_iter())
        .map(|(g, sum, count)| (g, sum / count as f64))
        .collect()
}

/// The layouts each unit ran, (baseline's, current's), where both sides
/// ran several; see [`widened_by_layouts`].
pub type Clusters<'a> = Option<(&'a [usize], &'a [usize])>;

/// [`Clusters`] of owned labels, as `Assignment::unit_layouts` gives them.
pub fn clusters(labels: &Option<(Vec<usize>, Vec<usize>)>) -> Clusters<'_> {
    labels.as_ref().map(|(b, c)| (b.as_slice(), c.as_slice()))
}

/// The test `t` on the units `ratios` with its interval and p-value
/// widened for the layouts the units share.
///
/// Each side runs a fixed set of layouts (16 by default), and every unit
/// reuses one of each: however many epochs there are, the change is
/// averaged over those placements of each side, not over fresh ones, so the t test's
/// standard error, which shrinks with the units, would claim more than
/// the layouts tell (a recursion that placement moves by ±11 % would be
/// called faster or slower by relinking alone). The
/// variance of the mean is taken clustered two ways, by the baseline's
/// layout and by the current's (`V = V_base + V_cur − V_unit`, each the
/// cluster-robust variance of the mean with the small-sample factor
/// G / (G − 1)). Where it exceeds the plain one, the interval and p-value
/// are widened by the ratio of the standard errors and taken from the t
/// distribution with one degree of freedom fewer than the side with fewer
/// layouts has layouts. Where placement moves the benchmark little, the
/// two agree and nothing changes. Also returns how many times wider the
/// interval came out (1 where it was not widened).
pub fn widened_by_layouts(
    t: RatioTest,
    ratios: &[f64],
    clusters: Clusters<'_>,
) -> (RatioTest, f64) {
    let Some((base, cur)) = clusters else {
        return (t, 1.0);
    };
    let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
    let n = logs.len();
    if n < 3 || base.len() != n || cur.len() != n {
        return (t, 1.0);
    }
    let mean = logs.iter().sum::<f64>() / n as f64;
    let resid: Vec<f64> = logs.iter().map(|x| x - mean).collect();
    let by = |labels: &[usize]| clustered_variance(&resid, labels);
    let own: Vec<usize> = (0..n).collect();
    let plain = by(&own);
    let (Some(b), Some(c), Some(plain)) = (by(base), by(cur), plain) else {
        return (t, 1.0);
    };
    if plain.0 <= 0.0 {
        return (t, 1.0);
    }
    let ((b, gb), (c, gc)) = (b, c);
    let var = b + c - plain.0;
    if var <= plain.0 {
        return (t, 1.0);
    }
    // As many independent draws of placement as the side with fewer layouts has.
    let df = (gb.min(gc) - 1) as f64;
    let (q, q_units) = (t_quantile(0.975, df), t_quantile(0.975, n as f64 - 1.0));
    let se_scale = (var / plain.0).sqrt();
    let scale = se_scale * q / q_units;
    // Around the estimate: the mean, or the median epoch.
    let centre = t.change.ln_1p();
    let widen = |edge: f64| (centre + scale * (edge.ln_1p() - centre)).exp_m1();
    let p = if t.t.is_finite() {
        2.0 * t_cdf(-(t.t / se_scale).abs(), df)
    } else {
        t.p
    };
    let test = RatioTest {
        ci: [widen(t.ci[0]), widen(t.ci[1])],
        p,
        t: t.t / se_scale,
        ..t
    };
    (test, scale)
}

/// The cluster-robust variance of a mean from its residuals `resid`, each
/// in cluster `labels[i]`: `G / (G − 1) · Σ_g (Σ_{i ∈ g} resid_i)² / n²`,
/// and the number of clusters G; `None` with fewer than two.
fn clustered_variance(resid: &[f64], labels: &[usize]) -> Option<(f64, usize)> {
    let mut sums: Vec<(usize, f64)> = Vec::new();
    for (r, l) in resid.iter().zip(labels) {
        match sums.iter_mut().find(|(k, _)| k == l) {
            Some((_, s)) => *s += r,
            None => sums.push((*l, *r)),
        }
    }
    let g = sums.len() as f64;
    if g < 2.0 {
        return None;
    }
    let n = resid.len() as f64;
    let total: f64 = sums.iter().map(|(_, s)| s * s).sum();
    Some((g / (g - 1.0) * total / (n * n), sums.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::compare::{estimators::*, far::*, layouts::*, rule::*};
    #[allow(unused_imports)]
    use crate::model::comparison::{Kind, Row, Verdict};

    #[test]
    fn one_far_layout_no_longer_hides_a_one_percent_change() {
        // 64 epochs over 8 layouts a side, epochs ±1.6 %, layouts ±0.3 %,
        // and one baseline layout 9 % slower than the rest (measured: an
        // allocation loop, in 4 of 20 fresh draws of layouts).
        let mut z = crate::compare::estimate::tests::Normal(0x0DDB_1A5E_5BAD_5EED);
        let n = 64;
        let base: Vec<usize> = (0..n).map(|e| e % 8).collect();
        let cur: Vec<usize> = (0..n).map(|e| (e + e / 8) % 8).collect();
        let layouts = Some((base.as_slice(), cur.as_slice()));
        let (trials, mut found, mut claimed, mut left_out) = (300, 0, 0, 0);
        for _ in 0..trials {
            let mut pb: Vec<f64> = (0..8).map(|_| 0.003 * z.next()).collect();
            pb[3] += 0.09;
            let pc: Vec<f64> = (0..8).map(|_| 0.003 * z.next()).collect();
            let mut units = |change: f64| -> Vec<f64> {
                (0..n)
                    .map(|e| (change + pc[cur[e]] - pb[base[e]] + 0.016 * z.next()).exp())
                    .collect()
            };
            let (slower, same) = (units(0.01), units(0.0));
            let slower = paired(&slower, layouts, &[], 0.005).unwrap();
            found += usize::from(slower.verdict == Verdict::Regressed);
            left_out += slower.layouts_left_out;
            let same = paired(&same, layouts, &[], 0.005).unwrap();
            claimed += usize::from(matches!(
                same.verdict,
                Verdict::Regressed | Verdict::Improved
            ));
        }
        let share = |k: usize| k as f64 / trials as f64;
        // Kept, the far layout hid the change in every trial (0 of 300).
        assert!(share(found) >= 0.75, "1 % slower found in {}", share(found));
        assert!(share(claimed) <= 0.06, "A/A claimed in {}", share(claimed));
        assert!(share(left_out) >= 0.95, "left out in {}", share(left_out));
        // Too few units a layout, or no layouts: nothing is left out.
        let units: Vec<f64> = (0..24)
            .map(|e| {
                if e % 8 == 3 {
                    0.92
                } else {
                    1.0 + 0.001 * (e % 3) as f64
                }
            })
            .collect();
        let (b, c): (Vec<usize>, Vec<usize>) = (0..24).map(|e| (e % 8, (e + e / 8) % 8)).unzip();
        let (keep, out) = far_layouts(&units, Some((&b, &c)));
        assert_eq!(out, 1);
        assert!(
            keep.iter().enumerate().all(|(e, k)| *k == (e % 8 != 3)),
            "{keep:?}"
        );
        assert_eq!(far_layouts(&units[..23], Some((&b[..23], &c[..23]))).1, 0);
        assert_eq!(far_layouts(&units, None), (vec![true; 24], 0));
    }

    #[test]
    fn a_fixed_set_of_layouts_widens_the_interval_to_what_it_can_tell() {
        // The same code compared over 8 layouts a side that move it by ±5 %
        // (sd), 24 epochs each pairing one of each: the change is 0, but the
        // 8 layouts of a side average to something else every time.
        let mut z = crate::compare::estimate::tests::Normal(0x9E37_79B9_7F4A_7C15);
        let (trials, mut plain, mut clustered) = (400, 0, 0);
        let base: Vec<usize> = (0..24).map(|e| e % 8).collect();
        let cur: Vec<usize> = (0..24).map(|e| (e + e / 8) % 8).collect();
        for _ in 0..trials {
            let pb: Vec<f64> = (0..8).map(|_| 0.05 * z.next()).collect();
            let pc: Vec<f64> = (0..8).map(|_| 0.05 * z.next()).collect();
            let units: Vec<f64> = (0..24)
                .map(|e| (pc[cur[e]] - pb[base[e]] + 0.002 * z.next()).exp())
                .collect();
            let holds = |c: Change| c.ci[0] <= 0.0 && 0.0 <= c.ci[1];
            plain += usize::from(holds(paired(&units, None, &[], 0.005).unwrap()));
            let layouts = Some((base.as_slice(), cur.as_slice()));
            clustered += usize::from(holds(paired(&units, layouts, &[], 0.005).unwrap()));
        }
        let share = |k: usize| k as f64 / trials as f64;
        assert!(share(plain) < 0.8, "plain t: {}", share(plain));
        assert!(share(clustered) >= 0.93, "clustered: {}", share(clustered));
        // Without a layout effect the interval stays the t test's.
        let flat: Vec<f64> = (0..24).map(|_| (0.004 + 0.002 * z.next()).exp()).collect();
        let layouts = Some((base.as_slice(), cur.as_slice()));
        let (a, b) = (
            paired(&flat, None, &[], 0.005).unwrap(),
            paired(&flat, layouts, &[], 0.005).unwrap(),
        );
        assert!(
            (b.ci[1] - b.ci[0]) / (a.ci[1] - a.ci[0]) < 1.5,
            "{a:?} {b:?}"
        );
    }

    #[test]
    fn the_median_epoch_widens_for_shared_layouts_too() {
        // Placement moves it ±11 % (sd), so most epochs lie far from each
        // other and the median epoch decides; the 8 layouts a side still
        // average to something else than 0.
        let mut z = crate::compare::estimate::tests::Normal(0x2545_F491_4F6C_DD1D);
        let base: Vec<usize> = (0..17).map(|e| e % 8).collect();
        let cur: Vec<usize> = (0..17).map(|e| (e + e / 8) % 8).collect();
        let (mut plain, mut clustered) = (0, 0);
        for _ in 0..200 {
            let pb: Vec<f64> = (0..8).map(|_| 0.11 * z.next()).collect();
            let pc: Vec<f64> = (0..8).map(|_| 0.11 * z.next()).collect();
            let units: Vec<f64> = (0..17)
                .map(|e| (pc[cur[e]] - pb[base[e]] + 0.001 * z.next()).exp())
                .collect();
            let claims = |c: Change| matches!(c.verdict, Verdict::Regressed | Verdict::Improved);
            plain += usize::from(claims(paired(&units, None, &[], 0.005).unwrap()));
            let layouts = Some((base.as_slice(), cur.as_slice()));
            clustered += usize::from(claims(paired(&units, layouts, &[], 0.005).unwrap()));
        }
        // Measured here: 45 of 200 claims without, 17 with; still above 5 %:
        // the median path widens by the t test's ratio, not one of its own.
        assert!(
            clustered <= 20 && 2 * clustered < plain,
            "{clustered} vs {plain} of 200"
        );
    }
}
