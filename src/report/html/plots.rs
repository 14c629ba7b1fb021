//! The report's plots: a distribution, two distributions compared, a family's
//! time against its parameter, a benchmark's history (one-line plots are in `strips`).

use super::history::Point;
use super::svg::{Axis, Plot};
use crate::model::record::FitRecord;
use nbench::__private::metric::Metric;
use nbench::__private::stats::{Complexity, bandwidth, density, percentile_sorted};

/// Points at which a density curve is drawn.
const GRID: usize = 120;

/// A label for an axis tick of `t` ns, in a unit chosen for the axis's
/// largest value `hi`, with as many decimals as the tick step needs.
pub(super) fn time_tick(hi: f64) -> impl Fn(f64, f64) -> String {
    let (scale, unit) = [(1e9, "s"), (1e6, "ms"), (1e3, "µs"), (1.0, "ns")]
        .into_iter()
        .find(|&(s, _)| hi >= s)
        .unwrap_or((1e-3, "ps"));
    move |t, step| {
        let decimals = (-(step / scale).log10().floor()).clamp(0.0, 6.0) as usize;
        format!("{:.decimals$} {unit}", t / scale)
    }
}

/// The tick labels of an axis of `metric`'s values up to `hi`.
pub(super) fn value_tick(metric: Metric, hi: f64) -> impl Fn(f64, f64) -> String {
    let time = time_tick(hi);
    move |t, step| match metric {
        Metric::WallTime | Metric::CpuTime => time(t, step),
        Metric::Instructions => nbench::__private::format::count(t),
    }
}

/// What an axis of one iteration's values shows.
fn per_iteration(metric: Metric) -> &'static str {
    match metric {
        Metric::WallTime => "time per iteration",
        Metric::CpuTime => "cpu time per iteration",
        Metric::Instructions => "instructions per iteration",
    }
}

/// Points of a line, (x, y).
type Curve = Vec<(f64, f64)>;

/// A benchmark's finite samples, sorted, with their density's bandwidth.
struct Samples {
    sorted: Vec<f64>,
    h: f64,
}

impl Samples {
    /// `None` when no sample is a finite number.
    fn new(samples: &[f64]) -> Option<Samples> {
        let mut sorted: Vec<f64> = samples.iter().copied().filter(|x| x.is_finite()).collect();
        sorted.sort_by(f64::total_cmp);
        let h = bandwidth(&sorted);
        (!sorted.is_empty()).then_some(Samples { sorted, h })
    }
}

/// A smoothed density of the samples on `[lo, hi]`; `None` when they have no spread.
/// The bandwidth is at least a grid step and a half: a spike narrower than
/// that would fall between the points the curve is drawn at and show as a
/// flat box, or not at all.
fn curve(s: &Samples, lo: f64, hi: f64) -> Option<Curve> {
    let sorted = &s.sorted;
    if s.h <= 0.0 {
        return None;
    }
    let step = (hi - lo) / (GRID - 1) as f64;
    let h = s.h.max(1.5 * step);
    let at: Vec<f64> = (0..GRID).map(|i| lo + step * i as f64).collect();
    let d = density(sorted, h, &at);
    Some(at.into_iter().zip(d).collect())
}

/// The range a distribution plot shows: the body of the samples, out to
/// Tukey's far fences (three interquartile ranges past the quartiles, at
/// least 2 % of the median), and on the slow side to the 95th percentile if
/// that is within 3× the median, so that a far tail never squashes the rest
/// into a sliver. Returns the range and how many samples lie beyond it.
fn shown_range(s: &Samples) -> (f64, f64, usize) {
    let sorted = &s.sorted;
    let (min, max) = (sorted[0], sorted[sorted.len() - 1]);
    let q = |p| percentile_sorted(sorted, p);
    let (p25, median, p75, p95) = (q(25.0), q(50.0), q(75.0), q(95.0));
    let reach = (3.0 * (p75 - p25)).max(median.abs() * 0.02);
    let left = min.max(p25 - reach);
    let right = max.min((p75 + reach).max(p95.min(3.0 * median)));
    // Two bandwidths beyond the outermost samples shown, so that the
    // curve comes down to the axis inside the plot.
    let pad = ((right - left) * 0.04)
        .max(2.0 * s.h)
        .max(median.abs() * 1e-3);
    let beyond = sorted
        .iter()
        .filter(|&&x| x > right + pad || x < left - pad)
        .count();
    (left - pad, right + pad, beyond)
}

/// A smoothed curve of each sample set (`None` for one without spread), and
/// a plot on `[lo, hi]` tall enough for the highest of them.
fn density_plot(
    kind: &'static str,
    sets: &[&Samples],
    lo: f64,
    hi: f64,
) -> (Plot, Vec<Option<Curve>>) {
    let curves: Vec<Option<Curve>> = sets.iter().map(|s| curve(s, lo, hi)).collect();
    let peak = curves
        .iter()
        .flatten()
        .flat_map(|c| c.iter().map(|&(_, y)| y))
        .fold(0.0, f64::max);
    let y = Axis::linear(0.0, peak * 1.08);
    (
        Plot::new(kind, 420.0, 150.0, Axis::linear(lo, hi), y),
        curves,
    )
}

/// A set's curve, or a line at its value when all samples are equal.
fn draw_density(p: &mut Plot, s: &Samples, curve: Option<&Curve>, class: &str, what: &str) {
    let title = format!("{what}: {} samples", s.sorted.len());
    match curve {
        Some(c) => p.area(c, class, &title),
        None => p.vline(s.sorted[0], class, &title),
    }
}

/// One benchmark's samples: their density, the median and its CI.
pub fn distribution(
    samples: &[f64],
    median: f64,
    (ci, what): ([f64; 2], &str),
    metric: Metric,
) -> String {
    let Some(s) = Samples::new(samples) else {
        return String::new();
    };
    let (lo, hi, beyond) = shown_range(&s);
    let (mut p, curves) = density_plot("distribution", &[&s], lo, hi);
    p.band(
        ci[0],
        ci[1],
        "ci",
        &format!(
            "{what}: {} to {}",
            metric.format(ci[0]),
            metric.format(ci[1])
        ),
    );
    draw_density(&mut p, &s, curves[0].as_ref(), "current", "samples");
    p.vline(
        median,
        "median",
        &format!("median {}", metric.format(median)),
    );
    let what = per_iteration(metric);
    let label = match beyond {
        0 => what.to_owned(),
        k => format!("{what} ({k} outlying samples beyond the edges)"),
    };
    p.finish(&label, value_tick(metric, hi), None)
}

/// The baseline's and the current samples of one benchmark, on one axis.
pub fn compared(base: &[f64], cur: &[f64], metric: Metric) -> String {
    let (Some(b), Some(c)) = (Samples::new(base), Samples::new(cur)) else {
        return String::new();
    };
    let (blo, bhi, _) = shown_range(&b);
    let (clo, chi, _) = shown_range(&c);
    let (lo, hi) = (blo.min(clo), bhi.max(chi));
    let (mut p, curves) = density_plot("compared", &[&b, &c], lo, hi);
    draw_density(&mut p, &b, curves[0].as_ref(), "baseline", "baseline");
    draw_density(&mut p, &c, curves[1].as_ref(), "current", "current");
    p.finish(
        &format!("{}: baseline (grey), current (blue)", per_iteration(metric)),
        value_tick(metric, hi),
        None,
    )
}

/// A family's medians against N on log–log axes, with the fitted curve.
pub fn family(fit: &FitRecord) -> String {
    let pts: Vec<(f64, f64)> = fit.points.iter().map(|&[n, t]| (n, t)).collect();
    if pts.len() < 2 {
        return String::new();
    }
    let nmin = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let nmax = pts.iter().map(|p| p.0).fold(0.0, f64::max);
    let curve: Vec<(f64, f64)> = match Complexity::parse(&fit.complexity) {
        Some(c) => (0..48)
            .map(|i| nmin * (nmax / nmin).powf(i as f64 / 47.0))
            .filter_map(|n| Some((n, fit.coefficient * c.eval(n)?)))
            .collect(),
        None => pts
            .iter()
            .map(|p| p.0)
            .zip(fit.fitted.iter().copied())
            .collect(),
    };
    let times = pts.iter().map(|p| p.1).chain(curve.iter().map(|c| c.1));
    let tmin = times
        .clone()
        .filter(|&t| t > 0.0)
        .fold(f64::INFINITY, f64::min);
    let tmax = times.fold(0.0, f64::max);
    let mut p = Plot::new(
        "family",
        480.0,
        260.0,
        Axis::log(nmin / 1.3, nmax * 1.3),
        Axis::log(tmin / 1.5, tmax * 1.5),
    );
    p.line(&curve, "fit");
    p.dots(&pts, "point", |i| {
        format!("N = {}: {}", pts[i].0, fit.metric.format(pts[i].1))
    });
    let y = value_tick(fit.metric, tmax);
    p.finish(
        &format!("N (fitted: O({}))", fit.complexity),
        |n, _| short_number(n),
        Some(&y),
    )
}

/// `1k`, `64k`, `1M`: a parameter value on an axis.
fn short_number(n: f64) -> String {
    match n {
        n if n >= 1e6 && n % 1e5 == 0.0 => format!("{}M", n / 1e6),
        n if n >= 1e3 && n % 100.0 == 0.0 => format!("{}k", n / 1e3),
        n => format!("{n}"),
    }
}

/// A benchmark's median (and its interval) in each stored run that measured it.
pub fn history(points: &[Point], metric: Metric) -> String {
    let n = points.len();
    let lo = points
        .iter()
        .map(|p| p.ci[0].min(p.median))
        .fold(f64::INFINITY, f64::min);
    let hi = points
        .iter()
        .map(|p| p.ci[1].max(p.median))
        .fold(0.0, f64::max);
    let pad = (hi - lo).max(hi * 0.02) * 0.1;
    let x = Axis::linear(-0.5, n as f64 - 0.5);
    let mut p = Plot::new(
        "history",
        480.0,
        180.0,
        x,
        Axis::linear((lo - pad).max(0.0), hi + pad),
    );
    let step = n.div_ceil(5).max(1);
    p.x_ticks_at((0..n).step_by(step).map(|i| i as f64).collect());
    let xy: Vec<(f64, f64)> = points
        .iter()
        .enumerate()
        .map(|(i, q)| (i as f64, q.median))
        .collect();
    for (i, q) in points.iter().enumerate() {
        p.error_bar(i as f64, q.ci[0], q.ci[1], "ci-bar");
    }
    p.line(&xy, "trend");
    p.dots(&xy, "point", |i| {
        format!("{}: {}", points[i].label, metric.format(points[i].median))
    });
    let y = value_tick(metric, hi + pad);
    let labels = tick_labels(points, step);
    let label = |t: f64, _| labels[(t as usize).min(n - 1)].clone();
    p.finish("stored runs, oldest first", label, Some(&y))
}

/// A label for each run on the history's x axis: its date and time
/// (`11-23 08:05`), with seconds or its number in the history where the
/// runs at the ticks (every `step`th) would otherwise share a label.
fn tick_labels(points: &[Point], step: usize) -> Vec<String> {
    let when = |p: &Point, end: usize| {
        let date = p.date.get(5..end).unwrap_or(&p.date);
        date.replace('T', " ")
    };
    let unique = |labels: &[String]| {
        let shown: Vec<&String> = labels.iter().step_by(step).collect();
        let mut sorted = shown.clone();
        sorted.sort();
        sorted.dedup();
        sorted.len() == shown.len()
    };
    for end in [16, 19] {
        let labels: Vec<String> = points.iter().map(|p| when(p, end)).collect();
        if unique(&labels) {
            return labels;
        }
    }
    (1..=points.len()).map(|i| format!("#{i}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_share_a_unit_and_show_the_step() {
        let f = time_tick(2500.0);
        assert_eq!(f(1500.0, 500.0), "1.5 µs");
        assert_eq!(f(2000.0, 1000.0), "2 µs");
        assert_eq!(time_tick(0.5)(0.25, 0.05), "250 ps");
    }

    #[test]
    fn a_far_tail_is_cut_and_counted() {
        let mut s: Vec<f64> = (0..1000).map(|i| 100.0 + (i % 10) as f64).collect();
        s.push(1e6);
        let (lo, hi, beyond) = shown_range(&Samples::new(&s).unwrap());
        assert!(lo < 100.0 && hi < 200.0, "{lo} {hi}");
        assert_eq!(beyond, 1);
    }

    #[test]
    fn a_heavy_far_tail_does_not_squash_the_body() {
        // 2.8 µs samples, 6 % of them near 300 µs: the 99th percentile is in the tail.
        let mut s: Vec<f64> = (0..940).map(|i| 2800.0 + (i % 7) as f64).collect();
        s.extend((0..60).map(|i| 300_000.0 + i as f64));
        let (lo, hi, beyond) = shown_range(&Samples::new(&s).unwrap());
        assert!(lo > 2000.0 && hi < 3.0 * 2800.0 * 1.1, "{lo} {hi}");
        assert_eq!(beyond, 60);
    }

    #[test]
    fn a_spike_narrower_than_the_grid_still_has_a_shape() {
        // Quantised samples: a few values a hair apart, and a slow tail that
        // widens the axis far beyond the bandwidth.
        let mut s: Vec<f64> = (0..980).map(|i| 100.0 + (i % 3) as f64 * 0.001).collect();
        s.extend((0..20).map(|i| 150.0 + i as f64));
        let samples = Samples::new(&s).unwrap();
        let (lo, hi, _) = shown_range(&samples);
        let c = curve(&samples, lo, hi).unwrap();
        let peak = c.iter().map(|p| p.1).fold(0.0, f64::max);
        let raised = c.iter().filter(|p| p.1 > 0.05 * peak).count();
        let top = c.iter().filter(|p| p.1 > 0.9 * peak).count();
        assert!(raised >= 4, "a bump, not a needle: {raised} points");
        assert!(top <= raised / 2, "a peak, not a box: {top} of {raised}");
    }

    #[test]
    fn history_ticks_never_repeat_a_label() {
        let point = |date: &str| Point {
            label: String::new(),
            date: date.into(),
            median: 1.0,
            ci: [1.0, 1.0],
        };
        let day = ["2026-11-22T10:00:00Z", "2026-11-23T09:30:00Z"].map(point);
        assert_eq!(tick_labels(&day, 1), ["11-22 10:00", "11-23 09:30"]);
        let minute = ["2026-11-23T09:30:01Z", "2026-11-23T09:30:07Z"].map(point);
        assert_eq!(
            tick_labels(&minute, 1),
            ["11-23 09:30:01", "11-23 09:30:07"]
        );
        let second = ["2026-11-23T09:30:01.1Z", "2026-11-23T09:30:01.5Z"].map(point);
        assert_eq!(tick_labels(&second, 1), ["#1", "#2"]);
    }

    #[test]
    fn samples_without_spread_draw_a_line_not_a_curve() {
        let svg = distribution(
            &[5.0, 5.0, 5.0],
            5.0,
            ([5.0, 5.0], "95% CI of the median"),
            Metric::WallTime,
        );
        assert!(svg.contains(r#"<line class="current""#), "{svg}");
        assert!(!svg.contains("NaN"), "{svg}");
    }
}
