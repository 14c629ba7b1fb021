//! A group member measured interleaved with its group's baseline, sample by sample, for the ratio between them.
//!
//! The member's timing call hands over its routine; the baseline's function
//! then runs with a driver that samples both routines in alternation through
//! the ordinary engine (pilot, warm-up, sampling), so drift of the machine's
//! speed falls on both alike and cancels in each round's ratio.

use super::guard::{Finish, run_guarded};
use crate::bencher::{Declared, Driver, LoopKind};
use crate::engine::{self, Measure, Measurement, Settings};
use crate::registry::Benchmark;
use crate::result::Versus;
use crate::stats::{even_orders, log_median_sorted, median_ci_sorted, median_sorted};
use crate::timer::{TimerInfo, WallClock};

/// Two routines as one [`Measure`]: each sample runs both, in alternating
/// order, and records both times. It reports the shorter of the two, so the
/// pilot sizes samples for the faster routine to reach the timer's target.
struct Alternating<'a, 'b> {
    member: &'a mut dyn Measure,
    baseline: &'b mut dyn Measure,
    /// (member ns, baseline ns, iterations) per sample, in order.
    rounds: Vec<(f64, f64, u64)>,
}

impl Measure for Alternating<'_, '_> {
    fn sample(&mut self, iters: u64) -> f64 {
        let (m, b) = if self.rounds.len() % 2 == 0 {
            let m = self.member.sample(iters);
            (m, self.baseline.sample(iters))
        } else {
            let b = self.baseline.sample(iters);
            (self.member.sample(iters), b)
        };
        self.rounds.push((m, b, iters));
        m.min(b)
    }
}

/// Runs the baseline's function with the member's routine in hand.
struct VersusDriver<'a> {
    member: &'a mut dyn Measure,
    member_kind: LoopKind,
    settings: &'a Settings,
    timer: TimerInfo,
    overhead: f64,
    out: Option<(Measurement, Versus)>,
    baseline_id: &'a str,
}

impl Driver for VersusDriver<'_> {
    fn drive(&mut self, kind: LoopKind, _: &Declared, m: &mut dyn Measure) {
        if self.out.is_some() {
            return; // a second timing call: misuse, reported by the guard
        }
        let mut pair = Alternating {
            member: &mut *self.member,
            baseline: m,
            rounds: Vec::new(),
        };
        let both = engine::measure(self.settings, &self.timer, &WallClock::new(), &mut pair);
        let sampled = &pair.rounds[pair.rounds.len() - both.per_iter.len()..];
        let over = |k: LoopKind| {
            if k == LoopKind::Iter {
                self.overhead
            } else {
                0.0
            }
        };
        let (om, ob) = (over(self.member_kind), over(kind));
        let per_iter = |ns: f64, iters: u64, o: f64| (ns / iters as f64 - o).max(0.0);
        let mut bases: Vec<f64> = sampled
            .iter()
            .map(|&(_, b, n)| per_iter(b, n, ob))
            .collect();
        let mut members: Vec<f64> = sampled
            .iter()
            .map(|&(m, _, n)| per_iter(m, n, om))
            .collect();
        let first = pair.rounds.len() - sampled.len();
        let mut ratios = round_ratios(&members, &bases, first);
        if ratios.is_empty() {
            return; // the baseline took no time: no ratio to give
        }
        ratios.sort_by(f64::total_cmp);
        let ratio = log_median_sorted(&ratios);
        // A ratio of two clock-stepped times moves in steps of both.
        let step = |x: &mut Vec<f64>| {
            x.sort_by(f64::total_cmp);
            match median_sorted(x) {
                m if m > 0.0 => self.timer.resolution_ns / (2.0 * both.iters.max(1) as f64 * m),
                _ => 0.0,
            }
        };
        let half = ratio * (step(&mut bases) + step(&mut members));
        let ci = median_ci_sorted(&ratios, 0.95).at_least(ratio, half);
        let versus = Versus {
            baseline: self.baseline_id.to_owned(),
            ratio,
            ci: [ci.lo, ci.hi],
        };
        let member = Measurement {
            iters: both.iters,
            per_iter: sampled.iter().map(|&(m, _, n)| m / n as f64).collect(),
            cold: pair.rounds[0].0,
            stop: both.stop,
            sampling_ns: both.sampling_ns,
        };
        self.out = Some((member, versus));
    }
}

/// Each round's ratio (member / baseline, per iteration), as many of each
/// order ([`even_orders`]): the member went first in the even rounds,
/// counted over all rounds with these starting at round `first`.
fn round_ratios(members: &[f64], bases: &[f64], first: usize) -> Vec<f64> {
    let mut by_order: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for (i, (m, b)) in members.iter().zip(bases).enumerate() {
        let r = m / b;
        if r.is_finite() {
            by_order[(first + i) % 2].push(r);
        }
    }
    even_orders(by_order)
}

/// Measures `member` (the routine of a member's timing call, of loop `kind`)
/// interleaved with `baseline`'s routine. `None` when the baseline fails,
/// skips or takes no time: the member is then measured on its own.
pub(crate) fn measure(
    member: &mut dyn Measure,
    kind: LoopKind,
    baseline: &Benchmark,
    settings: &Settings,
    timer: TimerInfo,
    overhead: f64,
) -> Option<(Measurement, Versus)> {
    let mut driver = VersusDriver {
        member,
        member_kind: kind,
        settings,
        timer,
        overhead,
        out: None,
        baseline_id: &baseline.id,
    };
    match run_guarded(baseline, &mut driver) {
        Ok(Finish::Timed(_)) => driver.out,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A routine costing `ns` per iteration on a machine whose speed drifts:
    /// the shared factor grows with every sample either routine takes.
    struct Drifting<'c> {
        ns: f64,
        speed: &'c std::cell::Cell<f64>,
    }
    impl Measure for Drifting<'_> {
        fn sample(&mut self, iters: u64) -> f64 {
            self.speed.set(self.speed.get() * 1.001);
            iters as f64 * self.ns * self.speed.get()
        }
    }

    #[test]
    fn a_lean_from_who_went_first_cancels_with_the_orders_even() {
        // Whichever routine ran last reads 10 % faster: the member-first
        // rounds read 0.9, the others 1 / 0.9. Seven rounds sampled after
        // three of warm-up: four of one order, three of the other.
        let (members, bases): (Vec<f64>, Vec<f64>) = (3..10)
            .map(|i| match i % 2 {
                0 => (90.0, 100.0),
                _ => (100.0, 90.0),
            })
            .unzip();
        let mut all: Vec<f64> = members.iter().zip(&bases).map(|(m, b)| m / b).collect();
        all.sort_by(f64::total_cmp);
        assert!(median_sorted(&all) > 1.1, "the median of all rounds leans");
        let mut even = round_ratios(&members, &bases, 3);
        assert_eq!(even.len(), 6);
        even.sort_by(f64::total_cmp);
        assert!((log_median_sorted(&even) - 1.0).abs() < 1e-12, "{even:?}");
        // A real ratio of 1.5 comes out as 1.5, whatever the lean.
        let slower: Vec<f64> = members.iter().map(|m| m * 1.5).collect();
        let mut even = round_ratios(&slower, &bases, 3);
        even.sort_by(f64::total_cmp);
        assert!((log_median_sorted(&even) - 1.5).abs() < 1e-12);
        // A member that took no time: a ratio of 0, not NaN.
        assert_eq!(log_median_sorted(&[0.0, 0.0, 1.0, 1.0]), 0.5);
    }

    #[test]
    fn alternating_samples_cancel_drift_in_the_ratio() {
        let speed = std::cell::Cell::new(1.0);
        let mut member = Drifting {
            ns: 150.0,
            speed: &speed,
        };
        let mut baseline = Drifting {
            ns: 100.0,
            speed: &speed,
        };
        let mut pair = Alternating {
            member: &mut member,
            baseline: &mut baseline,
            rounds: Vec::new(),
        };
        for _ in 0..50 {
            pair.sample(10);
        }
        // The machine slowed by 10 % over the run; each round's ratio stays within 0.1 % of 1.5.
        assert!(speed.get() > 1.1);
        for &(m, b, _) in &pair.rounds {
            assert!((m / b - 1.5).abs() < 1.5 * 0.0011, "{}", m / b);
        }
        // The order alternates: round 0 member first, round 1 baseline first.
        assert!(pair.rounds[0].0 < pair.rounds[0].1 * 1.5);
        assert!(pair.rounds[1].0 > pair.rounds[1].1 * 1.5);
    }
}
