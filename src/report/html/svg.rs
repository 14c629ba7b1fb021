//! Small inline-SVG plots: two axes with ticks, and the marks drawn on them.

use super::escape;
use std::fmt::Write;

/// One axis: a range of values, linear or logarithmic.
#[derive(Debug, Clone, Copy)]
pub struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Axis {
    /// A linear axis over `[lo, hi]`, widened where the range is empty.
    pub fn linear(lo: f64, hi: f64) -> Axis {
        let (lo, hi) = if hi > lo {
            (lo, hi)
        } else {
            let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.05 };
            (lo - pad, lo + pad)
        };
        Axis { lo, hi, log: false }
    }

    /// A logarithmic axis over `[lo, hi]` (both positive).
    pub fn log(lo: f64, hi: f64) -> Axis {
        let lo = lo.max(f64::MIN_POSITIVE);
        let hi = if hi > lo { hi } else { lo * 10.0 };
        Axis { lo, hi, log: true }
    }

    /// Where `v` falls, 0 at `lo` and 1 at `hi`.
    fn frac(&self, v: f64) -> f64 {
        if self.log {
            (v.max(f64::MIN_POSITIVE).ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }

    /// About four round values inside the range, and the step between them
    /// (for a log axis: powers of ten, or 1-2-5 steps when they are too few).
    pub fn ticks(&self) -> (Vec<f64>, f64) {
        if self.log {
            let (a, b) = (
                self.lo.log10().ceil() as i32,
                self.hi.log10().floor() as i32,
            );
            let powers: Vec<f64> = (a..=b).map(|e| 10f64.powi(e)).collect();
            if powers.len() >= 2 {
                // The step a label's decimals follow: the smallest tick.
                return (powers.clone(), powers[0]);
            }
            let start = 10f64.powi(self.lo.log10().floor() as i32);
            let ticks = (0..4)
                .flat_map(|k| [1.0, 2.0, 5.0].map(|m| m * start * 10f64.powi(k)))
                .filter(|&t| t >= self.lo && t <= self.hi)
                .collect::<Vec<f64>>();
            return (ticks.clone(), ticks.first().copied().unwrap_or(1.0));
        }
        let raw = (self.hi - self.lo) / 4.0;
        let mag = 10f64.powf(raw.log10().floor());
        // The round step nearest the raw one: three to six ticks.
        let step = match raw / mag {
            r if r < 1.5 => mag,
            r if r < 3.0 => 2.0 * mag,
            r if r < 7.0 => 5.0 * mag,
            _ => 10.0 * mag,
        };
        let first = (self.lo / step).ceil() as i64;
        let last = (self.hi / step).floor() as i64;
        ((first..=last).map(|k| k as f64 * step).collect(), step)
    }
}

const LEFT: f64 = 64.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 34.0;

/// A plot being drawn; [`Plot::finish`] adds the axes and closes it.
pub struct Plot {
    w: f64,
    h: f64,
    x: Axis,
    y: Axis,
    kind: &'static str,
    marks: String,
    x_ticks: Option<Vec<f64>>,
}

impl Plot {
    /// A `w` × `h` plot of `kind` (a `data-kind` the page's readers and tests use).
    pub fn new(kind: &'static str, w: f64, h: f64, x: Axis, y: Axis) -> Plot {
        Plot {
            w,
            h,
            x,
            y,
            kind,
            marks: String::new(),
            x_ticks: None,
        }
    }

    /// Puts the x axis's ticks at `ticks` instead of at round values.
    pub fn x_ticks_at(&mut self, ticks: Vec<f64>) {
        self.x_ticks = Some(ticks);
    }

    fn px(&self, v: f64) -> f64 {
        LEFT + self.x.frac(v).clamp(-0.02, 1.02) * (self.w - LEFT - RIGHT)
    }

    fn py(&self, v: f64) -> f64 {
        self.h - BOTTOM - self.y.frac(v).clamp(-0.02, 1.02) * (self.h - TOP - BOTTOM)
    }

    fn path(&self, points: &[(f64, f64)]) -> String {
        let mut d = String::new();
        for (i, &(x, y)) in points.iter().enumerate() {
            let cmd = if i == 0 { 'M' } else { 'L' };
            let _ = write!(d, "{cmd}{:.1},{:.1}", self.px(x), self.py(y));
        }
        d
    }

    /// A line through `points`.
    pub fn line(&mut self, points: &[(f64, f64)], class: &str) {
        if points.len() >= 2 {
            let d = self.path(points);
            let _ = write!(self.marks, r#"<path class="{class}" d="{d}"/>"#);
        }
    }

    /// The area between the x axis and a curve through `points`.
    pub fn area(&mut self, points: &[(f64, f64)], class: &str, title: &str) {
        if let (Some(first), Some(last)) = (points.first(), points.last()) {
            let base = self.y.lo;
            let d = self.path(points);
            let _ = write!(
                self.marks,
                r#"<path class="{class}" d="{d}L{:.1},{:.1}L{:.1},{:.1}Z"><title>{}</title></path>"#,
                self.px(last.0),
                self.py(base),
                self.px(first.0),
                self.py(base),
                escape(title)
            );
        }
    }

    /// A dot at each point, each with its own hover text.
    pub fn dots(&mut self, points: &[(f64, f64)], class: &str, title: impl Fn(usize) -> String) {
        for (i, &(x, y)) in points.iter().enumerate() {
            let _ = write!(
                self.marks,
                r#"<circle class="{class}" cx="{:.1}" cy="{:.1}" r="3.5"><title>{}</title></circle>"#,
                self.px(x),
                self.py(y),
                escape(&title(i))
            );
        }
    }

    /// A vertical line across the plot at `x`.
    pub fn vline(&mut self, x: f64, class: &str, title: &str) {
        let px = self.px(x);
        let _ = write!(
            self.marks,
            r#"<line class="{class}" x1="{px:.1}" x2="{px:.1}" y1="{TOP}" y2="{:.1}"><title>{}</title></line>"#,
            self.h - BOTTOM,
            escape(title)
        );
    }

    /// A band across the plot's height from `x0` to `x1`.
    pub fn band(&mut self, x0: f64, x1: f64, class: &str, title: &str) {
        let (a, b) = (self.px(x0), self.px(x1));
        let _ = write!(
            self.marks,
            r#"<rect class="{class}" x="{:.1}" y="{TOP}" width="{:.1}" height="{:.1}"><title>{}</title></rect>"#,
            a.min(b),
            (b - a).abs().max(1.0),
            self.h - TOP - BOTTOM,
            escape(title)
        );
    }

    /// A vertical bar from `lo` to `hi` at `x` (a confidence interval).
    pub fn error_bar(&mut self, x: f64, lo: f64, hi: f64, class: &str) {
        let px = self.px(x);
        let _ = write!(
            self.marks,
            r#"<line class="{class}" x1="{px:.1}" x2="{px:.1}" y1="{:.1}" y2="{:.1}"/>"#,
            self.py(lo),
            self.py(hi)
        );
    }

    /// The finished `<svg>`: marks, both axes with their tick labels, and the x axis's label.
    pub fn finish(
        self,
        x_label: &str,
        x_tick: impl Fn(f64, f64) -> String,
        y_tick: Option<&dyn Fn(f64, f64) -> String>,
    ) -> String {
        let (w, h) = (self.w, self.h);
        let mut s = format!(
            r#"<svg class="plot" data-kind="{}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img">"#,
            self.kind
        );
        let (bottom, right) = (h - BOTTOM, w - RIGHT);
        let _ = write!(
            s,
            r#"<path class="axis" d="M{LEFT},{TOP}L{LEFT},{bottom}L{right},{bottom}"/>"#
        );
        let (xt, xstep) = match &self.x_ticks {
            Some(t) => (t.clone(), 1.0),
            None => self.x.ticks(),
        };
        for t in xt {
            let px = self.px(t);
            let _ = write!(
                s,
                r#"<line class="tick" x1="{px:.1}" x2="{px:.1}" y1="{bottom}" y2="{:.1}"/><text class="tick" x="{px:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                bottom + 4.0,
                bottom + 15.0,
                escape(&x_tick(t, xstep))
            );
        }
        if let Some(y_tick) = y_tick {
            let (yt, ystep) = self.y.ticks();
            for t in yt {
                let py = self.py(t);
                let _ = write!(
                    s,
                    r#"<line class="grid" x1="{LEFT}" x2="{right}" y1="{py:.1}" y2="{py:.1}"/><text class="tick" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                    LEFT - 5.0,
                    py + 4.0,
                    escape(&y_tick(t, ystep))
                );
            }
        }
        let _ = write!(
            s,
            r#"{}<text class="label" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text></svg>"#,
            self.marks,
            (LEFT + right) / 2.0,
            h - 4.0,
            escape(x_label)
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_are_round_and_inside() {
        let (t, step) = Axis::linear(103.0, 197.0).ticks();
        assert_eq!(step, 20.0);
        assert_eq!(t, [120.0, 140.0, 160.0, 180.0]);
        let (t, _) = Axis::linear(5.0, 5.0).ticks();
        assert!(!t.is_empty(), "an empty range is widened");
    }

    #[test]
    fn log_ticks_are_powers_of_ten_or_one_two_five() {
        assert_eq!(Axis::log(3.0, 2000.0).ticks().0, [10.0, 100.0, 1000.0]);
        assert_eq!(Axis::log(150.0, 900.0).ticks().0, [200.0, 500.0]);
    }

    #[test]
    fn marks_land_inside_the_frame() {
        let mut p = Plot::new(
            "t",
            200.0,
            100.0,
            Axis::linear(0.0, 10.0),
            Axis::linear(0.0, 1.0),
        );
        p.dots(&[(0.0, 0.0), (10.0, 1.0)], "d", |i| format!("<{i}>"));
        let svg = p.finish("x & y", |t, _| t.to_string(), None);
        assert!(svg.contains(r#"cx="64.0" cy="66.0""#), "{svg}");
        assert!(svg.contains(r#"cx="188.0" cy="10.0""#), "{svg}");
        assert!(svg.contains("&lt;1&gt;") && svg.contains("x &amp; y"));
    }
}
