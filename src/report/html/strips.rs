//! One-line plots: a change or a group ratio with its CI beside the point of
//! no difference, and the medians of the runs a result pools.

use super::plots::time_tick;
use super::svg::{Axis, Plot};
use nbench::format::time;

const WIDTH: f64 = 300.0;
const HEIGHT: f64 = 64.0;

/// A change and its CI against the noise threshold, in percent.
pub fn change(change: f64, ci: [f64; 2], threshold: f64) -> String {
    let pct = |x: f64| x * 100.0;
    let reach = [ci[0].abs(), ci[1].abs(), change.abs(), threshold * 2.0]
        .into_iter()
        .filter(|x| x.is_finite())
        .fold(0.0, f64::max);
    let x = Axis::linear(-pct(reach) * 1.15, pct(reach) * 1.15);
    let mut p = Plot::new("change", WIDTH, HEIGHT, x, Axis::linear(0.0, 1.0));
    let t = pct(threshold);
    p.band(-t, t, "noise", &format!("noise threshold ±{t}%"));
    p.vline(0.0, "zero", "no change");
    p.line(&[(pct(ci[0]), 0.5), (pct(ci[1]), 0.5)], "ci-bar");
    p.dots(&[(pct(change), 0.5)], "change", |_| {
        format!(
            "{:+.2}% [{:+.2}%, {:+.2}%]",
            pct(change),
            pct(ci[0]),
            pct(ci[1])
        )
    });
    p.finish(
        "change, % (95% CI)",
        |v, step| {
            let d = (-step.log10().floor()).clamp(0.0, 3.0) as usize;
            format!("{v:+.d$}")
        },
        None,
    )
}

/// A ratio to the group's baseline and its CI, beside 1 (the baseline's time).
pub fn ratio(ratio: f64, ci: [f64; 2]) -> String {
    let values = [ci[0], ci[1], ratio, 1.0];
    let finite = values.iter().copied().filter(|x| x.is_finite());
    let lo = finite.clone().fold(f64::INFINITY, f64::min);
    let hi = finite.fold(f64::NEG_INFINITY, f64::max);
    let pad = ((hi - lo) * 0.15).max(hi * 0.01);
    let x = Axis::linear((lo - pad).max(0.0), hi + pad);
    let mut p = Plot::new("ratio", WIDTH, HEIGHT, x, Axis::linear(0.0, 1.0));
    p.vline(1.0, "zero", "as fast as the baseline");
    p.line(&[(ci[0], 0.5), (ci[1], 0.5)], "ci-bar");
    p.dots(&[(ratio, 0.5)], "change", |_| {
        format!("{ratio:.3} [{:.3}, {:.3}]", ci[0], ci[1])
    });
    p.finish(
        "time ÷ baseline's time (95% CI)",
        |v, step| {
            let d = (-step.log10().floor()).clamp(0.0, 4.0) as usize;
            format!("{v:.d$}")
        },
        None,
    )
}

/// The median of each pooled run, beside the pooled median.
pub fn runs(medians: &[f64], pooled: f64) -> String {
    // Each run keeps its number when a bad value beside it is left out.
    let runs: Vec<(usize, f64)> = (1..)
        .zip(medians.iter().copied())
        .filter(|(_, m)| m.is_finite())
        .collect();
    if runs.is_empty() || !pooled.is_finite() {
        return String::new();
    }
    let lo = runs.iter().map(|r| r.1).fold(pooled, f64::min);
    let hi = runs.iter().map(|r| r.1).fold(pooled, f64::max);
    let pad = ((hi - lo) * 0.15).max(hi * 0.005);
    let x = Axis::linear((lo - pad).max(0.0), hi + pad);
    let mut p = Plot::new("runs", WIDTH, HEIGHT, x, Axis::linear(0.0, 1.0));
    p.vline(pooled, "median", &format!("pooled median {}", time(pooled)));
    let points: Vec<(f64, f64)> = runs.iter().map(|&(_, m)| (m, 0.5)).collect();
    p.dots(&points, "point", |i| {
        format!("run {}: {}", runs[i].0, time(runs[i].1))
    });
    p.finish("each run's median", time_tick(hi + pad), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ratio_far_from_one_still_shows_one() {
        let svg = ratio(0.0028, [0.0027, 0.0029]);
        assert!(svg.contains(">as fast as the baseline</title>"), "{svg}");
        assert!(svg.contains(">0.003 [0.003, 0.003]</title>"), "{svg}");
        assert!(!svg.contains("NaN"), "{svg}");
    }

    #[test]
    fn every_run_is_a_dot_and_bad_values_are_left_out() {
        let svg = runs(&[100.0, 102.0, f64::NAN, 99.0], 100.5);
        assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
        assert!(svg.contains("run 4: 99.00 ns"), "{svg}");
        assert!(!svg.contains("NaN"), "{svg}");
        assert!(runs(&[f64::NAN], 1.0).is_empty());
    }
}
