//! A fresh run's estimate from its epochs, and intervals never narrower than the clock resolves.
//!
//! One process measured for a fraction of a second is one draw of the
//! machine's drift and of the process's own bias (where its memory and code
//! landed): however many samples it takes, the next run lands elsewhere. So a
//! fresh run measures each benchmark in several epochs, fresh processes at
//! different moments, and the estimate is the geometric mean of the epochs'
//! medians with a Student t interval from their spread: an interval that says
//! what a rerun would see, not how precisely one process saw itself.

use nbench::__private::timer::{TimerInfo, WallClock};
use nbench::stats::ratio_t_test;
use std::sync::OnceLock;

/// Epochs a fresh run measures each benchmark in, by default (`--epochs`).
pub const DEFAULT_EPOCHS: usize = 5;

/// The estimate over epochs and its 95 % interval, ns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The geometric mean of the epochs' medians.
    pub ns: f64,
    /// Its 95 % interval.
    pub ci_ns: [f64; 2],
}

/// The estimate from each epoch's median (at least two, all positive),
/// its interval at least `floor_ns` either side of it.
pub fn estimate(epoch_medians: &[f64], floor_ns: f64) -> Option<Estimate> {
    let t = ratio_t_test(epoch_medians, 0.95)?;
    let ns = 1.0 + t.change;
    Some(Estimate {
        ns,
        ci_ns: at_least(ns, [1.0 + t.ci[0], 1.0 + t.ci[1]], floor_ns),
    })
}

/// `ci` widened, where needed, to reach at least `half` either side of `center`.
pub fn at_least(center: f64, ci: [f64; 2], half: f64) -> [f64; 2] {
    [ci[0].min(center - half), ci[1].max(center + half)]
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

    #[test]
    fn the_interval_over_epochs_covers_the_true_time_95_percent_of_the_time() {
        // Epoch medians spread lognormally (σ = 8 %) around a true 1 µs:
        // the machine's drift between processes, which no epoch sees alone.
        let mut z = Normal(0x2545_F491_4F6C_DD1D);
        let (trials, mut covered) = (4000, 0);
        for _ in 0..trials {
            let medians: Vec<f64> = (0..5).map(|_| 1000.0 * (0.08 * z.next()).exp()).collect();
            let e = estimate(&medians, 0.0).unwrap();
            covered += usize::from(e.ci_ns[0] <= 1000.0 && 1000.0 <= e.ci_ns[1]);
        }
        let share = covered as f64 / trials as f64;
        assert!((0.935..0.965).contains(&share), "coverage {share}");
    }

    #[test]
    fn the_next_run_lands_in_the_interval_most_of_the_time() {
        // What a user sees: run k + 1's estimate inside run k's interval.
        // For a t interval over 5 epochs that is about 87 %.
        let mut z = Normal(7);
        let run = |z: &mut Normal| {
            let m: Vec<f64> = (0..5).map(|_| 1000.0 * (0.08 * z.next()).exp()).collect();
            estimate(&m, 0.0).unwrap()
        };
        let (trials, mut inside) = (4000, 0);
        let mut last = run(&mut z);
        for _ in 0..trials {
            let next = run(&mut z);
            inside += usize::from(last.ci_ns[0] <= next.ns && next.ns <= last.ci_ns[1]);
            last = next;
        }
        let share = inside as f64 / trials as f64;
        assert!((0.83..0.91).contains(&share), "{share}");
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
