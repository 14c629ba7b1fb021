//! A fresh run's estimate from its epochs, and the interval where the next run's estimate lands.
//!
//! One process measured for a fraction of a second is one draw of the
//! machine's drift and of the process's own bias (where its memory and code
//! landed): however many samples it takes, the next run lands elsewhere. So a
//! fresh run measures each benchmark in several epochs, fresh processes at
//! different moments. The estimate is the fastest epoch's median: a shared
//! machine's noise only ever adds time, so the least disturbed epoch is the
//! one that says what the code costs.
//!
//! Its interval is a prediction interval for the next run of the same build
//! on this machine ([`NEXT_RUN_LEVEL`]): one run's epochs alone cannot see
//! how the machine moves from run to run (all of them may fall in one of its
//! speed states), but the runs before it can. So the interval draws on the
//! estimates of earlier runs of the same executable (`target/nbench`
//! keeps them), on how other builds of the benchmark scattered from run to
//! run, and on this run's fastest epochs. The record of how the rule was
//! chosen: `docs/notes/2026-11-28-plain-run-intervals.md`.

use nbench::__private::stats::{Interval, median_sorted, t_quantile};
use nbench::__private::timer::{TimerInfo, WallClock};
use std::sync::OnceLock;

/// Epochs a fresh run measures each benchmark in, by default (`--epochs`).
/// Eight rather than five: a slow spell of the host can last long enough
/// to catch all five epochs of a benchmark, and `cargo xtask stability`
/// found the fastest of eight steady where the fastest of five was not,
/// for 0.2 s more a run.
/// The figures' record: `docs/notes/2026-11-27-measuring-and-comparing.md`.
pub const DEFAULT_EPOCHS: usize = 8;

/// How often the next run's estimate should land inside a plain run's interval.
pub const NEXT_RUN_LEVEL: f64 = 0.90;

/// Earlier runs of the same build an interval draws on, at most (the newest).
pub const HISTORY_RUNS: usize = 16;

/// Epochs within this share of the fastest ran in its speed state: their
/// spread is this run's own say on how far the next run's fastest may lie.
pub const FAST_BAND: f64 = 0.08;

/// The fastest epochs of that band whose range is taken (the third-fastest
/// at most: more would reach into the noise above the fastest). The range
/// of 2 or 3 normal draws is k/√π standard deviations on average.
pub const FAST_EPOCHS: usize = 3;

/// Where a first run's interval reaches when one epoch alone ran in the
/// fastest state: up to the epoch this far down the order (the third
/// fastest), where the next run lands if it catches that state in none of
/// its epochs, and half of [`FAST_BAND`] below the fastest. (The gap to the
/// second epoch read as a standard deviation, with t at 2 degrees of
/// freedom, made such a row's ± 100–600 % on httparse's first run.)
pub const SLOWER_REACH: usize = 2;

/// Degrees of freedom this run's fastest epochs count for beside the runs'.
pub const EPOCH_DOF: f64 = 2.0;

/// A run further than this many robust standard deviations from the others
/// of its build ran in another state of the machine (a slow spell caught
/// every epoch): it is set aside from the spread, which it would swell for
/// the next 16 runs, though never from the interval of the run it is.
pub const SET_ASIDE_SDS: f64 = 4.0;

/// Runs within this share of their build's median are never set aside: an
/// estimate may move between two states of the code's placement (a
/// `sum/u64/16` read 5.98 or 6.18 ns from run to run), which the next run
/// may land in either of.
pub const KEPT_WITHIN: f64 = 0.10;

/// The normal distribution's MAD as a share of its standard deviation, inverted.
const MAD_NORMAL: f64 = 1.482_602_218_505_602;

/// The estimate over epochs and its interval, ns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The fastest epoch's median.
    pub ns: f64,
    /// Where the next run's estimate lands, [`NEXT_RUN_LEVEL`] of the time.
    pub ci: [f64; 2],
    /// Earlier runs of the same build it drew on.
    pub earlier_runs: usize,
    /// Runs of other builds whose scatter it drew on.
    pub other_runs: usize,
}

/// What earlier runs on this machine say: the estimates of the same build
/// (oldest first), and those of other builds of the benchmark, each build's
/// together, for how far runs scatter.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// This build's earlier estimates, oldest first.
    pub same: Vec<f64>,
    /// Other builds' estimates, a list per build.
    pub others: Vec<Vec<f64>>,
}

/// The estimate from each epoch's median (at least two finite ones): the
/// smallest, with the interval the next run's estimate should fall in
/// [`NEXT_RUN_LEVEL`] of the time. On the logarithms:
///
/// - centre: the median of this build's estimates (this run's and up to
///   [`HISTORY_RUNS`] earlier ones), or this run's alone with fewer than 3;
/// - spread `s`: pooled over this build's runs, other builds' runs (each
///   about its own mean), and the range of this run's fastest epochs
///   (those within [`FAST_BAND`] of the fastest, the first [`FAST_EPOCHS`])
///   counting for [`EPOCH_DOF`] degrees of freedom; runs further than
///   [`SET_ASIDE_SDS`] robust standard deviations and [`KEPT_WITHIN`] from
///   their build's median are set aside;
/// - half-width: Student's t at that many degrees of freedom, times
///   `s · √(1 + 1/m)`, `m` this build's runs: a prediction interval for one
///   more run.
///
/// A run with one epoch alone in the fastest state and no history has no
/// spread to go by: its interval reaches from half the band below the
/// fastest epoch up to the [`SLOWER_REACH`]-th.
///
/// It always holds this run's estimate, and is never narrower than
/// `floor_ns` either side, never below 0. A median below what the clock
/// resolves (`floor_ns`, half a clock step per iteration) counts as
/// `floor_ns`: it is known only to lie below it.
pub fn estimate(epoch_medians: &[f64], floor_ns: f64, history: &History) -> Option<Estimate> {
    let mut medians: Vec<f64> = epoch_medians
        .iter()
        .copied()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .collect();
    if medians.len() < 2 {
        return None;
    }
    medians.sort_by(f64::total_cmp);
    let ns = medians[0];
    let logs: Option<Vec<f64>> = medians.iter().map(|x| log(x.max(floor_ns))).collect();
    let logs_of =
        |runs: &[f64]| -> Vec<f64> { (runs.iter()).filter_map(|x| log(x.max(floor_ns))).collect() };
    let same = logs_of(&history.same[history.same.len().saturating_sub(HISTORY_RUNS)..]);
    let others: Vec<Vec<f64>> = history.others.iter().map(|b| logs_of(b)).collect();
    let ci = match logs {
        Some(logs) => {
            let [lo, hi] = next_run(&logs, &same, &others);
            [lo.exp(), hi.exp()]
        }
        // Every median is 0 and the clock step unknown: the point itself.
        None => [ns, ns],
    };
    let ci = at_least(ns, [ci[0].min(ns), ci[1].max(ns)], floor_ns);
    Some(Estimate {
        ns,
        ci: [ci[0].max(0.0), ci[1]],
        earlier_runs: same.len(),
        other_runs: others.iter().map(Vec::len).sum(),
    })
}

fn log(x: f64) -> Option<f64> {
    (x > 0.0 && x.is_finite()).then(|| x.ln())
}

/// The interval's ends on the logarithms, from this run's sorted epoch
/// logs, this build's earlier estimates and other builds'.
fn next_run(logs: &[f64], same: &[f64], others: &[Vec<f64>]) -> [f64; 2] {
    let fast: Vec<f64> = logs
        .iter()
        .copied()
        .take_while(|l| l - logs[0] <= FAST_BAND.ln_1p())
        .collect();
    // One epoch alone in the fastest state, and no earlier runs that
    // scatter (other builds run once each tell nothing): the next run
    // catches that state again, or catches it in none of its epochs and
    // lands among this run's slower ones.
    if fast.len() == 1 && same.is_empty() && others.iter().all(|b| b.len() < 2) {
        let slower = logs[SLOWER_REACH.min(logs.len() - 1)];
        return [logs[0] - FAST_BAND.ln_1p() / 2.0, slower];
    }
    let (range, dof) = match fast.len() {
        // With history, the runs say how far the next one lands.
        1 => (0.0, 0.0),
        // Their range over its expectation for normal draws (k/√π for 2 and
        // 3 of them): a standard deviation's worth.
        k => {
            let k = k.min(FAST_EPOCHS);
            let expected_range = k as f64 / std::f64::consts::PI.sqrt();
            ((fast[k - 1] - fast[0]) / expected_range, EPOCH_DOF)
        }
    };
    let mut this_build = same.to_vec();
    this_build.push(logs[0]);
    let center = match this_build.len() {
        n if n >= 3 => median_of(&this_build),
        _ => logs[0],
    };
    let (mut squares, mut dof) = (dof * range * range, dof);
    for build in std::iter::once(&this_build).chain(others) {
        let (sq, d) = scatter(build, range / 2.0);
        squares += sq;
        dof += d;
    }
    let s = match dof > 0.0 {
        true => (squares / dof).sqrt(),
        false => 0.0,
    };
    let m = this_build.len() as f64;
    let t = t_quantile(0.5 + NEXT_RUN_LEVEL / 2.0, dof.max(1.0));
    let half = t * s * (1.0 + 1.0 / m).sqrt();
    [center - half, center + half]
}

/// One build's runs: the sum of squares about their mean and its degrees
/// of freedom, runs further than [`SET_ASIDE_SDS`] robust standard
/// deviations (at least `least`) and [`KEPT_WITHIN`] from their median set aside.
fn scatter(logs: &[f64], least: f64) -> (f64, f64) {
    if logs.len() < 2 {
        return (0.0, 0.0);
    }
    let kept: Vec<f64> = match logs.len() {
        n if n >= 3 => {
            let c = median_of(logs);
            let mut dev: Vec<f64> = logs.iter().map(|l| (l - c).abs()).collect();
            dev.sort_by(f64::total_cmp);
            let robust = SET_ASIDE_SDS * (MAD_NORMAL * median_sorted(&dev)).max(least);
            let limit = robust.max(KEPT_WITHIN.ln_1p());
            logs.iter()
                .copied()
                .filter(|l| (l - c).abs() <= limit)
                .collect()
        }
        _ => logs.to_vec(),
    };
    let mean = kept.iter().sum::<f64>() / kept.len() as f64;
    let squares = kept.iter().map(|l| (l - mean).powi(2)).sum();
    (squares, kept.len() as f64 - 1.0)
}

fn median_of(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    median_sorted(&v)
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

    /// One run's epoch medians around its estimate `at`: the fastest three
    /// spread as three draws scattered by σ do on average (3/√π σ), the rest
    /// caught by a slow spell.
    fn epochs(at: f64, sigma: f64) -> Vec<f64> {
        let up = |share: f64| at * share.exp();
        let range = 3.0 / std::f64::consts::PI.sqrt() * sigma;
        vec![
            at,
            up(range / 2.0),
            up(range),
            up(0.4),
            up(0.45),
            up(0.5),
            up(0.35),
            up(0.3),
        ]
    }

    fn none() -> History {
        History::default()
    }

    fn just(same: Vec<f64>) -> History {
        History {
            same,
            others: vec![],
        }
    }

    /// Half the interval's width on the logarithms.
    fn width(e: Estimate) -> f64 {
        (e.ci[1] / e.ci[0]).ln() / 2.0
    }

    #[test]
    fn the_next_run_lands_inside_nine_times_in_ten() {
        // Runs scatter lognormally by σ = 1 %; each has 8 epochs.
        for earlier in [2, 4, 16] {
            let mut z = Normal(0x2545_F491_4F6C_DD1D + earlier as u64);
            let run = |z: &mut Normal| 1000.0 * (0.01 * z.next()).exp();
            let (trials, mut inside) = (4000, 0);
            for _ in 0..trials {
                let same: Vec<f64> = (0..earlier).map(|_| run(&mut z)).collect();
                let this = estimate(&epochs(run(&mut z), 0.01), 0.0, &just(same)).unwrap();
                let next = run(&mut z);
                assert_eq!(this.earlier_runs, earlier);
                inside += usize::from(this.ci[0] <= next && next <= this.ci[1]);
            }
            let share = inside as f64 / trials as f64;
            assert!(
                (0.86..0.95).contains(&share),
                "{earlier} earlier runs: next run inside {share}"
            );
        }
    }

    #[test]
    fn the_estimate_is_the_fastest_epoch_and_slow_epochs_do_not_widen_it() {
        let e = estimate(&[400.0, 100.0], 0.0, &none()).unwrap();
        assert!((e.ns - 100.0).abs() < 1e-9);
        // Two epochs in one state, alone: t(2 dof) · their range / (2/√π) · √2 either side.
        let two = estimate(&[103.0, 100.0], 0.0, &none()).unwrap();
        let s = 1.03f64.ln() * std::f64::consts::PI.sqrt() / 2.0;
        let half = t_quantile(0.95, 2.0) * s * 2f64.sqrt();
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-9;
        assert!(close(two.ci[0], 100.0 * (-half).exp()), "{two:?}");
        assert!(close(two.ci[1], 100.0 * half.exp()), "{two:?}");
        // Slow spells in two epochs of five move neither the estimate nor the interval.
        let spell = estimate(&[393.0, 395.0, 552.0, 394.0, 540.0], 0.0, &none()).unwrap();
        let spared = estimate(&[393.0, 395.0, 394.0, 430.0, 440.0], 0.0, &none()).unwrap();
        assert!((spell.ns - 393.0).abs() < 1e-9, "{spell:?}");
        assert_eq!(spell.ci, spared.ci);
        assert!(spell.ci[1] < 410.0, "{spell:?}");
    }

    #[test]
    fn one_fast_epoch_in_a_first_run_reaches_the_slower_ones_not_beyond() {
        // The fastest state caught by one epoch of eight: the next run lands
        // there or among the slower epochs, not six times further.
        let epochs = [8.94, 16.1, 16.2, 16.3, 16.4, 16.6, 17.0, 18.0];
        let e = estimate(&epochs, 0.0, &none()).unwrap();
        assert!((e.ns - 8.94).abs() < 1e-9);
        assert!((e.ci[1] - 16.2).abs() < 1e-9, "{e:?}");
        assert!(
            (e.ci[0] / 8.94 - (-FAST_BAND.ln_1p() / 2.0).exp()).abs() < 1e-9,
            "{e:?}"
        );
        // Two epochs alone: the slower one is the reach.
        let e = estimate(&[400.0, 100.0], 0.0, &none()).unwrap();
        assert!((e.ci[1] - 400.0).abs() < 1e-9, "{e:?}");
        // With runs of the build before it, they say how far the next lands.
        let e = estimate(&epochs, 0.0, &just(vec![8.95, 8.93, 8.96])).unwrap();
        assert!(e.ci[1] < 9.5, "{e:?}");
        // Other builds run once each show no scatter: as tokio's
        // `send/medium_1000` read 369 ns in one epoch and 424–444 ns in
        // seven, on the second plain run of a checkout, and printed ±0.05 %.
        let once = History {
            same: vec![],
            others: vec![vec![376.0], vec![381.0]],
        };
        let tokio = [369.5, 435.4, 432.0, 432.1, 428.8, 425.3, 424.4, 444.2];
        let e = estimate(&tokio, 0.0, &once).unwrap();
        assert!((e.ci[1] - 425.3).abs() < 1e-9, "{e:?}");
        assert_eq!(e.other_runs, 2);
    }

    #[test]
    fn runs_of_the_same_build_steady_the_width() {
        // Epochs that happen to agree closely say little; twelve runs of the
        // build 1 % apart say how far the next one lands.
        let same: Vec<f64> = (0..12)
            .map(|i| 1000.0 * (1.0 + 0.005 * ((i % 5) as f64 - 2.0)))
            .collect();
        let tight = [1000.0, 1000.1, 1000.2, 1400.0];
        let alone = estimate(&tight, 0.0, &none()).unwrap();
        let known = estimate(&tight, 0.0, &just(same.clone())).unwrap();
        assert!(width(alone) < 0.002, "{alone:?}");
        assert!((0.01..0.03).contains(&width(known)), "{known:?}");
        assert_eq!(known.earlier_runs, 12);
        // Other builds scatter as much: a new build's first run knows it too.
        let others = History {
            same: vec![],
            others: vec![same],
        };
        let first = estimate(&tight, 0.0, &others).unwrap();
        assert!((0.01..0.04).contains(&width(first)), "{first:?}");
        assert_eq!((first.earlier_runs, first.other_runs), (0, 12));
        assert_eq!(known.other_runs, 0);
    }

    #[test]
    fn a_run_the_machine_slowed_throughout_is_set_aside_from_the_spread() {
        let steady: Vec<f64> = (0..8).map(|i| 1000.0 + (i % 3) as f64).collect();
        let mut slowed = steady.clone();
        slowed.push(1350.0);
        let tight = [1001.0, 1001.5, 1002.0, 1400.0];
        let after = estimate(&tight, 0.0, &just(slowed)).unwrap();
        assert!(after.ci[1] < 1010.0, "the slow run swelled it: {after:?}");
        // The slowed run itself: its estimate, with the interval reaching
        // down to where this build's runs lie.
        let slow = estimate(&[1350.0, 1352.0, 1360.0, 1500.0], 0.0, &just(steady)).unwrap();
        assert!((slow.ns - 1350.0).abs() < 1e-9);
        assert!(slow.ci[0] < 1001.0 && slow.ci[1] >= 1350.0, "{slow:?}");
    }

    #[test]
    fn identical_epochs_still_get_the_clock_step() {
        let e = estimate(&[250.0, 250.0, 250.0], 0.5, &none()).unwrap();
        assert!((e.ns - 250.0).abs() < 1e-9);
        assert!((e.ci[0] - 249.5).abs() < 1e-9 && (e.ci[1] - 250.5).abs() < 1e-9);
        // A wide interval is left as it is.
        assert_eq!(at_least(10.0, [8.0, 12.0], 0.5), [8.0, 12.0]);
        assert_eq!(at_least(10.0, [9.9, 12.0], 0.5), [9.5, 12.0]);
        assert!(estimate(&[250.0], 0.5, &none()).is_none());
    }

    #[test]
    fn medians_below_the_clock_step_get_a_finite_interval() {
        // An empty body: most epochs resolve nothing, one a few picoseconds.
        let e = estimate(&[0.0, 0.0, 0.004, 0.0, 0.0, 0.0, 0.0, 0.0], 0.02, &none()).unwrap();
        assert_eq!(e.ns, 0.0);
        assert_eq!(e.ci, [0.0, 0.02], "{e:?}");
        let e = estimate(&[0.0, 0.3, 0.0], 0.02, &none()).unwrap();
        assert!(e.ci.iter().all(|x| x.is_finite()), "{e:?}");
        assert!(e.ci[0] == 0.0 && e.ci[1] >= 0.02, "{e:?}");
        // Every median 0 and no clock step known: still finite.
        let e = estimate(&[0.0, 0.0], 0.0, &none()).unwrap();
        assert_eq!((e.ns, e.ci), (0.0, [0.0, 0.0]));
        // Not a number is left out, as a missing epoch.
        assert!(estimate(&[f64::NAN, 1.0], 0.0, &none()).is_none());
    }

    #[test]
    fn the_clock_step_shrinks_with_iterations() {
        assert!(resolution_ns() > 0.0);
        assert!((half_step_ns(10) * 10.0 - resolution_ns() / 2.0).abs() < 1e-9);
        assert_eq!(half_step_ns(0), resolution_ns() / 2.0);
    }
}
