//! Epochs far from the rest: how far counts as far, pulling them in
//! (winsorizing), and the t test that keeps its 95 % over pulled-in epochs.

use nbench::__private::stats::{RatioTest, mad_sorted, median_sorted, ratio_t_test, t_cdf};

/// An epoch's log ratio further from the median than this many robust
/// standard deviations (1.4826 × the median absolute deviation) is pulled
/// in to that distance before the interval is computed.
pub const FAR: f64 = 3.0;
/// The least robust standard deviation distances are measured in (of the
/// log ratio, 0.1 %): epochs within ±0.3 % of the median are never moved.
pub const FAR_FLOOR: f64 = 0.001;
/// Fewest epochs among which any is pulled in. With fewer, a majority of
/// three epochs whose processes sat in different states passed for the
/// rest (measured: a 5 % slower build called 16 % faster from 5 epochs).
/// The figures' record: `docs/notes/2026-11-27-measuring-and-comparing.md`.
pub const FAR_MIN_UNITS: usize = 8;
/// The median absolute deviation of normal data times this is its standard deviation.
const NORMAL_MAD: f64 = 1.482_602_218_505_602;

/// The robust standard deviation of sorted values: 1.4826 × their median
/// absolute deviation.
pub fn robust_sd(sorted: &[f64]) -> f64 {
    NORMAL_MAD * mad_sorted(sorted)
}

/// `F_n` for n = 8, 9, …, 24 epochs: the factor on the winsorized t
/// interval's half-width that makes it hold the true change 95 % of the
/// time on normal epochs (without it, 93.6 % at n = 8). Computed by NumPy
/// (`xtask/refdata.py`, `winsor_factor`; checked against
/// `harness/tests/data/reference.json` below). More epochs use the last.
pub(super) const WINSOR_FACTOR: [f64; 17] = [
    1.089961389364203,
    1.090801798160066,
    1.0604375834848467,
    1.0614061639121855,
    1.04462110257395,
    1.0457714091014658,
    1.0365693284217625,
    1.0350382219274268,
    1.028929890731927,
    1.0317125779163594,
    1.025337712618003,
    1.02483498487396,
    1.0212993278092766,
    1.0205929239126423,
    1.0195673761693544,
    1.018011644637735,
    1.015196793778737,
];

/// The epochs' ratios with those far from the rest pulled in, and how many were.
///
/// A process can run a small loop in one of a few speed states for a while
/// (measured: a 16-element sum at 169, 206 or 229 ns in fresh processes of
/// one executable, each process in its own state for tens of milliseconds).
/// Most epochs find both processes in the same state and agree to within
/// 0.1 %; an epoch whose processes sat in different states reads ±20 %. A
/// mean over epochs and the t interval around it would be that one
/// epoch's. So with at least [`FAR_MIN_UNITS`] epochs, each log ratio is
/// clipped to the median ± [`FAR`] robust standard deviations (at least
/// [`FAR_FLOOR`]): winsorized, the far epoch still counts, as one at the
/// edge of the rest, and the interval is widened by [`WINSOR_FACTOR`] to
/// keep its 95 %.
/// The figures' record: `docs/notes/2026-11-27-measuring-and-comparing.md`.
pub fn pull_in_far(units: &[f64]) -> (Vec<f64>, usize) {
    let valid: Vec<f64> = units
        .iter()
        .copied()
        .filter(|r| *r > 0.0 && r.is_finite())
        .collect();
    if valid.len() < FAR_MIN_UNITS {
        return (valid, 0);
    }
    let mut logs: Vec<f64> = valid.iter().map(|r| r.ln()).collect();
    logs.sort_by(f64::total_cmp);
    let m = median_sorted(&logs);
    let reach = FAR * robust_sd(&logs).max(FAR_FLOOR);
    let pulled = logs.iter().filter(|x| (*x - m).abs() > reach).count();
    let clipped = valid
        .iter()
        .map(|r| r.ln().clamp(m - reach, m + reach).exp());
    (clipped.collect(), pulled)
}

/// The t test of [`ratio_t_test`] on epochs with the far ones (`pulled`
/// of them) pulled in, its interval and p-value widened by the factor
/// that keeps them at 95 %.
pub fn winsorized_t_test(units: &[f64], pulled: usize) -> Option<(RatioTest, usize)> {
    let t = ratio_t_test(units, 0.95)?;
    let n = units.len();
    if n < FAR_MIN_UNITS {
        return Some((t, pulled));
    }
    let f = WINSOR_FACTOR[(n - FAR_MIN_UNITS).min(WINSOR_FACTOR.len() - 1)];
    let mean = t.change.ln_1p();
    let widen = |edge: f64| (mean + f * (edge.ln_1p() - mean)).exp_m1();
    let p = if t.t.is_finite() {
        2.0 * t_cdf(-(t.t / f).abs(), n as f64 - 1.0)
    } else {
        t.p
    };
    let ci = [widen(t.ci[0]), widen(t.ci[1])];
    Some((
        RatioTest {
            ci,
            p,
            t: t.t / f,
            ..t
        },
        pulled,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::compare::{estimators::*, far::*, layouts::*, rule::*};
    #[allow(unused_imports)]
    use crate::model::comparison::{Kind, Row, Verdict};

    #[test]
    fn epochs_far_from_the_rest_are_pulled_in() {
        // Measured (A/A, one executable): most epochs agree to 0.1 %, two
        // had their processes in different speed states.
        let units = [
            1.0, 1.2565, 1.0, 1.0, 0.9996, 1.0, 1.0, 1.0004, 1.0, 1.0, 0.9998, 1.0, 0.7951,
        ];
        let plain = ratio_t_test(&units, 0.95).unwrap();
        assert!(plain.ci[0] < -0.02 && plain.ci[1] > 0.02, "{plain:?}");
        let (pulled, k) = pull_in_far(&units);
        assert_eq!(k, 2);
        assert!(
            pulled.iter().all(|r| r.ln().abs() <= 0.003 + 1e-12),
            "{pulled:?}"
        );
        let c = paired(&units, None, &[], 0.005).unwrap();
        assert_eq!((c.verdict, c.pulled_in), (Verdict::Unchanged, 2), "{c:?}");
        // The same epochs 1 % slower: regressed.
        let slower: Vec<f64> = units.iter().map(|r| r * 1.01).collect();
        let c = paired(&slower, None, &[], 0.005).unwrap();
        assert_eq!(c.verdict, Verdict::Regressed, "{c:?}");
        assert!((c.change - 0.01).abs() < 0.002, "{c:?}");
        // Fewer than eight epochs: nothing is pulled in.
        assert_eq!(pull_in_far(&units[..7]).1, 0);
        // Epochs spread evenly stay as they are.
        let even = [0.99, 0.995, 1.0, 1.005, 1.01, 1.0, 0.998];
        assert_eq!(pull_in_far(&even), (even.to_vec(), 0));
    }
}
