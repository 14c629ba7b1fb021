//! A fresh run's estimate from its epochs, and intervals never narrower than the clock resolves.
//!
//! One process measured for a fraction of a second is one draw of the
//! machine's drift and of the process's own bias (where its memory and code
//! landed): however many samples it takes, the next run lands elsewhere. So a
//! fresh run measures each benchmark in several epochs, fresh processes at
//! different moments. The estimate is the fastest epoch's median: a shared
//! machine's noise only ever adds time (another tenant's slow spell lasts a
//! second or two and slowed a whole epoch by 37 % here, several epochs in
//! a row now and then), so the least disturbed epoch is the one that says
//! what the code costs. Measured with `cargo xtask stability` (README): over
//! 10 runs, the fastest of 5 epochs moved 0.6 % from run to run (median
//! over workloads) where their geometric mean moved 21 % and their median
//! 33 %. Its interval comes from the spread of the faster half of the
//! epochs, those a slow spell spared: where a rerun's estimate should land,
//! not how precisely one process saw itself.

use nbench::__private::stats::{Interval, log_mean_sd};
use nbench::__private::timer::{TimerInfo, WallClock};
use std::sync::OnceLock;

/// Epochs a fresh run measures each benchmark in, by default (`--epochs`).
/// Eight rather than five: a slow spell of the host can last long enough
/// to catch all five epochs of a benchmark, and `cargo xtask stability`
/// found the fastest of eight steady where the fastest of five was not,
/// for 0.2 s more a run.
/// The figures' record: `docs/notes/2026-11-27-measuring-and-comparing.md`.
pub const DEFAULT_EPOCHS: usize = 8;

/// The estimate over epochs and its 95 % interval, ns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The fastest epoch's median.
    pub ns: f64,
    /// Its 95 % interval.
    pub ci: [f64; 2],
}

/// `F_n` for n = 2, 3, …, 16 epochs: the next run's fastest epoch lands
/// within `F_n · s` of this run's 95 % of the time, `s` the standard
/// deviation of this run's faster half (on the logarithms, for normal
/// epochs). Computed by NumPy (`xtask/refdata.py`, `fastest_epoch`; checked
/// against `harness/tests/data/reference.json` below). More epochs use the
/// last, a little wider than theirs.
const FASTEST_FACTOR: [f64; 15] = [
    15.193159098187433,
    20.245003410950893,
    23.01319994951842,
    6.763773517354178,
    7.283221349131001,
    4.8053621183657125,
    5.05825276666595,
    4.024868299712597,
    4.183226315174669,
    3.604669442323754,
    3.709855978110605,
    3.3242739558855106,
    3.401826174657639,
    3.1139108832712283,
    3.1865907524867607,
];

/// The estimate from each epoch's median (at least two finite ones): the
/// smallest, with the interval a rerun's estimate should fall in 95 % of
/// the time: on the logarithms, `min ± F_n · s`, `s` the standard deviation
/// of the faster half of the epochs (the k = max(2, ⌈n/2⌉) smallest, those a
/// slow spell spared) and `F_n` from [`FASTEST_FACTOR`]; never narrower than
/// `floor_ns` either side, and never below 0.
///
/// A median below what the clock resolves (`floor_ns`, half a clock step per
/// iteration; an empty body's median is 0 once the loop overhead is taken
/// off) is not known any better than "below `floor_ns`": such epochs count as
/// `floor_ns` in the spread, so the interval stays finite and honest
/// (`[0, min + floor_ns]` at least) instead of spanning dozens of decades.
pub fn estimate(epoch_medians: &[f64], floor_ns: f64) -> Option<Estimate> {
    let mut medians: Vec<f64> = epoch_medians
        .iter()
        .copied()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .collect();
    let n = medians.len();
    if n < 2 {
        return None;
    }
    medians.sort_by(f64::total_cmp);
    let ns = medians[0];
    let resolved = |x: f64| x.max(floor_ns);
    let k = n.div_ceil(2).max(2);
    let faster: Vec<f64> = medians[..k].iter().map(|x| resolved(*x)).collect();
    let ci = match log_mean_sd(&faster) {
        Some((_, sd, _)) if resolved(ns) > 0.0 => {
            let half = FASTEST_FACTOR[(n - 2).min(FASTEST_FACTOR.len() - 1)] * sd;
            let center = resolved(ns).ln();
            [(center - half).exp(), (center + half).exp()]
        }
        // Every median is 0 and the clock step unknown: the point itself.
        _ => [ns, ns],
    };
    let ci = at_least(ns, ci, floor_ns);
    Some(Estimate {
        ns,
        ci: [ci[0].max(0.0), ci[1]],
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
pub(crate) mod tests {
    use super::*;

    /// Deterministic normal draws (Box–Muller over a xorshift stream).
    pub(crate) struct Normal(pub(crate) u64);

    impl Normal {
        pub(crate) fn uniform(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }

        pub(crate) fn next(&mut self) -> f64 {
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
            let (trials, mut inside) = (4000, 0);
            for _ in 0..trials {
                let this = estimate(&epochs(&mut z, n), 0.0).unwrap();
                let next = estimate(&epochs(&mut z, n), 0.0).unwrap();
                inside += usize::from(this.ci[0] <= next.ns && next.ns <= this.ci[1]);
            }
            let share = inside as f64 / trials as f64;
            assert!(
                (0.935..0.985).contains(&share),
                "{n} epochs: next run inside {share}"
            );
        }
    }

    #[test]
    fn the_estimate_is_the_fastest_epoch() {
        // Two: the faster, with both setting the interval: s of the logs = ln 4 / √2.
        let e = estimate(&[400.0, 100.0], 0.0).unwrap();
        assert!((e.ns - 100.0).abs() < 1e-9);
        let half = FASTEST_FACTOR[0] * 4f64.ln() / 2f64.sqrt();
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-9;
        assert!(close(e.ci[0], 100.0 * (-half).exp()), "{e:?}");
        assert!(close(e.ci[1], 100.0 * half.exp()), "{e:?}");
        // Slow spells in two epochs of five move neither the estimate nor,
        // beyond the spared three, the interval.
        let spell = estimate(&[393.0, 395.0, 552.0, 394.0, 540.0], 0.0).unwrap();
        let spared = estimate(&[393.0, 395.0, 394.0, 400.0, 410.0], 0.0).unwrap();
        assert!((spell.ns - 393.0).abs() < 1e-9, "{spell:?}");
        assert_eq!(spell.ci, spared.ci);
        assert!(spell.ci[1] < 400.0, "{spell:?}");
    }

    #[test]
    fn the_factors_are_numpys() {
        let doc: serde_json::Value =
            serde_json::from_str(include_str!("../../harness/tests/data/reference.json")).unwrap();
        for (i, f) in FASTEST_FACTOR.iter().enumerate() {
            let n = (i + 2).to_string();
            let numpy = doc["fastest_epoch"][&n].as_f64().unwrap();
            assert!((numpy / f - 1.0).abs() < 1e-14, "{n} epochs: {numpy} {f}");
        }
    }

    #[test]
    fn identical_epochs_still_get_the_clock_step() {
        let e = estimate(&[250.0, 250.0, 250.0], 0.5).unwrap();
        assert!((e.ns - 250.0).abs() < 1e-9);
        assert!((e.ci[0] - 249.5).abs() < 1e-9 && (e.ci[1] - 250.5).abs() < 1e-9);
        // A wide interval is left as it is.
        assert_eq!(at_least(10.0, [8.0, 12.0], 0.5), [8.0, 12.0]);
        assert_eq!(at_least(10.0, [9.9, 12.0], 0.5), [9.5, 12.0]);
        assert!(estimate(&[250.0], 0.5).is_none());
    }

    #[test]
    fn medians_below_the_clock_step_get_a_finite_interval() {
        // An empty body: most epochs resolve nothing, one a few picoseconds.
        let e = estimate(&[0.0, 0.0, 0.004, 0.0, 0.0, 0.0, 0.0, 0.0], 0.02).unwrap();
        assert_eq!(e.ns, 0.0);
        assert_eq!(e.ci, [0.0, 0.02], "{e:?}");
        let e = estimate(&[0.0, 0.3, 0.0], 0.02).unwrap();
        assert!(e.ci.iter().all(|x| x.is_finite()), "{e:?}");
        assert!(e.ci[0] == 0.0 && e.ci[1] >= 0.02, "{e:?}");
        // Every median 0 and no clock step known: still finite.
        let e = estimate(&[0.0, 0.0], 0.0).unwrap();
        assert_eq!((e.ns, e.ci), (0.0, [0.0, 0.0]));
        // Not a number is left out, as a missing epoch.
        assert!(estimate(&[f64::NAN, 1.0], 0.0).is_none());
    }

    #[test]
    fn the_clock_step_shrinks_with_iterations() {
        assert!(resolution_ns() > 0.0);
        assert!((half_step_ns(10) * 10.0 - resolution_ns() / 2.0).abs() < 1e-9);
        assert_eq!(half_step_ns(0), resolution_ns() / 2.0);
    }
}
