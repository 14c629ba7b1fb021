//! One-line plots: a change or a group ratio with its CI beside the point of
//! no difference, and the medians of the runs a result pools.

use super::plots::value_tick;
use super::svg::{Axis, Plot};
use nbench::__private::metric::Metric;

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
    let tip = format!(
        "{:+.2}% [{:+.2}%, {:+.2}%]",
        pct(change),
        pct(ci[0]),
        pct(ci[1])
    );
    let (value, ci) = (pct(change), [pct(ci[0]), pct(ci[1])]);
    interval(
        p,
        value,
        ci,
        (0.0, "no change"),
        &tip,
        "change, % (95% CI)",
        |v, step| format!("{v:+.d$}", d = decimals(step, 3.0)),
    )
}

/// A ratio to the group's baseline and its CI, beside 1 (the baseline's time).
pub fn ratio(ratio: f64, ci: [f64; 2]) -> String {
    let Some((x, _)) = padded_axis(&[ci[0], ci[1], ratio, 1.0], 0.01) else {
        return String::new();
    };
    let p = Plot::new("ratio", WIDTH, HEIGHT, x, Axis::linear(0.0, 1.0));
    let tip = format!("{ratio:.3} [{:.3}, {:.3}]", ci[0], ci[1]);
    let reference = (1.0, "as fast as the baseline");
    interval(
        p,
        ratio,
        ci,
        reference,
        &tip,
        "time ÷ baseline's time (95% CI)",
        |v, step| format!("{v:.d$}", d = decimals(step, 4.0)),
    )
}

/// The median of each pooled run, beside the pooled median.
pub fn runs(medians: &[f64], pooled: f64, metric: Metric) -> String {
    // Each run keeps its number when a bad value beside it is left out.
    let runs: Vec<(usize, f64)> = (1..)
        .zip(medians.iter().copied())
        .filter(|(_, m)| m.is_finite())
        .collect();
    if runs.is_empty() || !pooled.is_finite() {
        return String::new();
    }
    let values: Vec<f64> = runs.iter().map(|r| r.1).chain([pooled]).collect();
    let Some((x, hi)) = padded_axis(&values, 0.005) else {
        return String::new();
    };
    let mut p = Plot::new("runs", WIDTH, HEIGHT, x, Axis::linear(0.0, 1.0));
    p.vline(
        pooled,
        "median",
        &format!("pooled median {}", metric.format(pooled)),
    );
    let points: Vec<(f64, f64)> = runs.iter().map(|&(_, m)| (m, 0.5)).collect();
    p.dots(&points, "point", |i| {
        format!("run {}: {}", runs[i].0, metric.format(runs[i].1))
    });
    p.finish("each run's median", value_tick(metric, hi), None)
}

/// An axis over the finite `values`, padded by 15 % of their span (at least
/// `min_share` of the largest), never below 0; with its upper end.
fn padded_axis(values: &[f64], min_share: f64) -> Option<(Axis, f64)> {
    let finite = values.iter().copied().filter(|x| x.is_finite());
    let lo = finite.clone().fold(f64::INFINITY, f64::min);
    let hi = finite.fold(f64::NEG_INFINITY, f64::max);
    if lo > hi {
        return None;
    }
    let pad = ((hi - lo) * 0.15).max(hi.abs() * min_share);
    Some((Axis::linear((lo - pad).max(0.0), hi + pad), hi + pad))
}

/// Finishes a strip showing `value` with its CI beside the `reference` line
/// (where the value means "no difference", and that line's hover text).
fn interval(
    mut p: Plot,
    value: f64,
    ci: [f64; 2],
    reference: (f64, &str),
    tip: &str,
    label: &str,
    tick: impl Fn(f64, f64) -> String,
) -> String {
    p.vline(reference.0, "zero", reference.1);
    p.line(&[(ci[0], 0.5), (ci[1], 0.5)], "ci-bar");
    p.dots(&[(value, 0.5)], "change", |_| tip.to_owned());
    p.finish(label, tick, None)
}

/// Decimals a tick label needs to show a tick `step`, at most `max`.
fn decimals(step: f64, max: f64) -> usize {
    (-step.log10().floor()).clamp(0.0, max) as usize
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
        let svg = runs(&[100.0, 102.0, f64::NAN, 99.0], 100.5, Metric::WallTime);
        assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
        assert!(svg.contains("run 4: 99.00 ns"), "{svg}");
        assert!(!svg.contains("NaN"), "{svg}");
        assert!(runs(&[f64::NAN], 1.0, Metric::WallTime).is_empty());
    }
}
