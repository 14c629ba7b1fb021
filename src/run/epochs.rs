//! A fresh run's estimate from its epochs, and intervals never narrower than the clock resolves.
//!
//! One process measured for a fraction of a second is one draw of the
//! machine's drift and of the process's own bias (where its memory and code
//! landed): however many samples it takes, the next run lands elsewhere. So a
//! fresh run measures each benchmark in several epochs, fresh processes at
//! different moments, and the estimate is the median of the epochs' medians
//! with a Student t prediction interval from their spread: where a rerun's
//! estimate should land, not how precisely one process saw itself. The
//! median, not the mean: slow spells of a shared machine (another tenant,
//! lasting a second or two) slow one or two epochs by 30 % and more, and
//! drag a mean with them; measured with `cargo xtask stability`, the median
//! of 5 epochs moved a fraction as much from run to run (see the README).

use nbench::__private::timer::{TimerInfo, WallClock};
use nbench::stats::{Interval, log_mean_sd, t_quantile};
use std::sync::OnceLock;

/// Epochs a fresh run measures each benchmark in, by default (`--epochs`).
pub const DEFAULT_EPOCHS: usize = 5;

/// The estimate over epochs and its 95 % interval, ns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The median of the epochs' medians.
    pub ns: f64,
    /// Its 95 % interval.
    pub ci_ns: [f64; 2],
}

/// How much more a median of normal draws varies than their mean, as a
/// factor on the standard deviation: √(π/2). Exact for many draws; for the
/// 3–8 epochs of a run the median varies a little less, so the interval
/// errs on the wide side.
const MEDIAN_SPREAD: f64 = 1.253_314_137_315_500_3;

/// The estimate from each epoch's median (at least two, all positive): their
/// median, with the interval a rerun's estimate should fall in 95 % of the
/// time: on the logarithms, `median ± t · s · √(π/2) · √(1/n + 1/n)` (the
/// spread of this run's median and of the next run's, each over n epochs),
/// never narrower than `floor_ns` either side.
pub fn estimate(epoch_medians: &[f64], floor_ns: f64) -> Option<Estimate> {
    let (_, sd, n) = log_mean_sd(epoch_medians)?;
    let mut logs: Vec<f64> = epoch_medians
        .iter()
        .filter(|x| **x > 0.0 && x.is_finite())
        .map(|x| x.ln())
        .collect();
    logs.sort_by(f64::total_cmp);
    let center = (logs[(n - 1) / 2] + logs[n / 2]) / 2.0;
    let n = n as f64;
    let half = t_quantile(0.975, n - 1.0) * sd * MEDIAN_SPREAD * (2.0 / n).sqrt();
    let ns = center.exp();
    Some(Estimate {
        ns,
        ci_ns: at_least(ns, [(center - half).exp(), (center + half).exp()], floor_ns),
    })
}

/// `ci` widened, where needed, to reach at least `half` either side of
/// `center` (the harness's [`Interval::at_least`], for the `[lo, hi]` pairs records hold).
pub fn at_least(center: f64, ci: [f64; 2], half: f64) -> [f64; 2] {
    let i = Interval {
        lo: ci[0],
        hi: ci[1],
        level: 0.95,
    }
    .at_least(center, half);
    [i.lo, i.hi]
}

/// Half the smallest step a per-iteration time can take: a sample lasts a
/// whole number of clock steps, shared by `iters` iterations, so medians
/// closer than this cannot be told apart.
pub fn half_step_ns(iters: u64) -> f64 {
    resolution_ns() / (2.0 * iters.max(1) as f64)
}

/// The wall clock's resolution on this machine, ns (the bench processes read the same clock).
pub fn resolution_ns() -> f64 {
    static RESOLUTION: OnceLock<f64> = OnceLock::new();
    *RESOLUTION.get_or_init(|| TimerInfo::measure(&WallClock::new(), 10_000).resolution_ns)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic normal draws (Box–Muller over a xorshift stream).
    struct Normal(u64);

    impl Normal {
        fn uniform(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }

        fn next(&mut self) -> f64 {
            let (u, v) = (self.uniform().max(1e-300), self.uniform());
            (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
        }
    }

    /// One run's epoch medians: lognormal (σ = 8 %) around a true 1 µs, the
    /// machine's drift between processes that no epoch sees alone.
    fn epochs(z: &mut Normal, n: usize) -> Vec<f64> {
        (0..n).map(|_| 1000.0 * (0.08 * z.next()).exp()).collect()
    }

    #[test]
    fn a_rerun_lands_in_the_interval_95_percent_of_the_time() {
        for n in [3, 5, 8] {
            let mut z = Normal(0x2545_F491_4F6C_DD1D + n as u64);
            let (trials, mut inside, mut truth) = (4000, 0, 0);
            for _ in 0..trials {
                let this = estimate(&epochs(&mut z, n), 0.0).unwrap();
                let next = estimate(&epochs(&mut z, n), 0.0).unwrap();
                inside += usize::from(this.ci_ns[0] <= next.ns && next.ns <= this.ci_ns[1]);
                truth += usize::from(this.ci_ns[0] <= 1000.0 && 1000.0 <= this.ci_ns[1]);
            }
            let share = inside as f64 / trials as f64;
            // √(π/2) is the many-draw factor; a few draws' median varies less.
            assert!(
                (0.94..0.985).contains(&share),
                "{n} epochs: next run inside {share}"
            );
            // A prediction interval is wider than the mean's: it holds the true time nearly always.
            assert!(truth as f64 / trials as f64 > 0.97, "{n} epochs");
        }
    }

    #[test]
    fn the_estimate_is_the_median_of_the_epochs() {
        // Two: the geometric mean of both. t(0.975, 1) = 12.7062; s of the logs = ln 4 / √2.
        let e = estimate(&[100.0, 400.0], 0.0).unwrap();
        assert!((e.ns - 200.0).abs() < 1e-9);
        let half = 12.706_204_736 * 4f64.ln() / 2f64.sqrt() * MEDIAN_SPREAD;
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-9;
        assert!(close(e.ci_ns[0], 200.0 * (-half).exp()), "{e:?}");
        assert!(close(e.ci_ns[1], 200.0 * half.exp()), "{e:?}");
        // A slow spell in one epoch of five moves the mean, not the median;
        // it widens the interval instead.
        let spell = estimate(&[393.0, 395.0, 552.0, 394.0, 392.0], 0.0).unwrap();
        assert!((spell.ns - 394.0).abs() < 1e-9, "{spell:?}");
        assert!(spell.ci_ns[1] > 450.0, "{spell:?}");
        // Four: between the middle two.
        let four = estimate(&[1.0, 4.0, 16.0, 1000.0], 0.0).unwrap();
        assert!((four.ns - 8.0).abs() < 1e-9, "{four:?}");
    }

    #[test]
    fn identical_epochs_still_get_the_clock_step() {
        let e = estimate(&[250.0, 250.0, 250.0], 0.5).unwrap();
        assert!((e.ns - 250.0).abs() < 1e-9);
        assert!((e.ci_ns[0] - 249.5).abs() < 1e-9 && (e.ci_ns[1] - 250.5).abs() < 1e-9);
        // A wide interval is left as it is.
        assert_eq!(at_least(10.0, [8.0, 12.0], 0.5), [8.0, 12.0]);
        assert_eq!(at_least(10.0, [9.9, 12.0], 0.5), [9.5, 12.0]);
        assert!(estimate(&[250.0], 0.5).is_none());
    }

    #[test]
    fn the_clock_step_shrinks_with_iterations() {
        assert!(resolution_ns() > 0.0);
        assert!((half_step_ns(10) * 10.0 - resolution_ns() / 2.0).abs() < 1e-9);
        assert_eq!(half_step_ns(0), resolution_ns() / 2.0);
    }
}
