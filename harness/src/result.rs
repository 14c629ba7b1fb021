//! One benchmark's result: the engine's measurement, corrected for loop overhead and summarised.

use crate::bencher::LoopKind;
use crate::counter::Counter;
use crate::engine::{Measurement, Stop};
use crate::metric::Metric;
use crate::stats::{OutlierMode, StatsError, Summary};
use crate::throughput::Throughput;

/// Results whose raw time is at most this many times the loop overhead are
/// flagged as near the timer floor: the overhead's own noise is a large
/// part of what they show.
pub const FLOOR_FACTOR: f64 = 4.0;

/// The outcome of measuring one benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchResult {
    /// The benchmark's id (`group/name/arg`).
    pub id: String,
    /// What its values measure (the `_ns` fields hold that metric's amounts).
    pub metric: Metric,
    /// Statistics of the per-iteration times, ns, overhead removed, of the
    /// samples `outlier_mode` keeps.
    pub summary: Summary,
    /// Per-iteration time of every sample, ns, overhead removed (none set aside).
    pub per_iter: Vec<f64>,
    /// Iterations per sample.
    pub iters: u64,
    /// The first call's time, ns.
    pub cold: f64,
    /// The loop overhead per iteration subtracted from every sample, ns.
    pub overhead: f64,
    /// Whether the result is within [`FLOOR_FACTOR`] × the loop overhead.
    pub near_floor: bool,
    /// Why sampling stopped.
    pub stop: Stop,
    /// Which samples the summary set aside.
    pub outlier_mode: OutlierMode,
    /// Work per iteration, if declared.
    pub throughput: Option<Throughput>,
    /// User counters, as declared.
    pub counters: Vec<Counter>,
    /// For a member of a group with a baseline: its time relative to the
    /// baseline's, measured interleaved with it.
    pub versus: Option<Versus>,
    /// Whether it is its group's baseline.
    pub is_baseline: bool,
    /// When the result pools several independent measurements
    /// (repetitions, launches, interleaved slices): each one's median, ns.
    pub repeat_medians: Vec<f64>,
    /// When the time limit left no time for every planned measurement
    /// (epochs, slices, repetitions, launches): how many were planned.
    pub cut_short: Option<usize>,
}

/// Aggregates across the independent measurements a result pools (Google
/// Benchmark's `_mean`, `_median`, `_stddev`, `_cv` rows).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Repeats {
    /// How many measurements.
    pub count: usize,
    /// Mean of their medians, ns.
    pub mean: f64,
    /// Median of their medians, ns.
    pub median: f64,
    /// Standard deviation of their medians, ns.
    pub stddev: f64,
    /// `stddev / mean`.
    pub cv: f64,
}

/// A benchmark's time relative to its group's baseline, from samples of the
/// two taken in alternation: the median of the per-round ratios, with its
/// distribution-free 95 % CI (order statistics), so a round disturbed by
/// the machine moves neither much.
///
/// ```
/// let v = nbench::__private::result::Versus { baseline: "sort/std".into(), ratio: 0.62, ci: [0.61, 0.63] };
/// assert!(v.significant());
/// assert_eq!(v.format(), "0.620 [0.610, 0.630] *");
/// let tiny = nbench::__private::result::Versus { ratio: 0.00277, ci: [0.00275, 0.00279], ..v };
/// assert_eq!(tiny.format(), "0.00277 [0.00275, 0.00279] *");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Versus {
    /// The baseline's id.
    pub baseline: String,
    /// This benchmark's time / the baseline's (below 1: faster).
    pub ratio: f64,
    /// 95 % CI of the ratio.
    pub ci: [f64; 2],
}

/// The ratio column's text: the ratio to the group's baseline, `baseline`
/// on the baseline itself, or nothing outside such groups.
pub fn ratio_label(versus: Option<&Versus>, is_baseline: bool) -> String {
    match (versus, is_baseline) {
        (Some(v), _) => v.format(),
        (None, true) => "baseline".to_owned(),
        (None, false) => String::new(),
    }
}

impl Versus {
    /// Whether the CI leaves out 1: the two differ.
    pub fn significant(&self) -> bool {
        self.ci[0] > 1.0 || self.ci[1] < 1.0
    }

    /// `0.620 [0.610, 0.630] *`: the ratio, its CI, and `*` when significant;
    /// three decimals, more for ratios below 0.1 (three significant digits).
    pub fn format(&self) -> String {
        let mark = if self.significant() { " *" } else { "" };
        let d = match self.ratio {
            r if r > 0.0 && r.is_finite() => (2 - r.log10().floor() as i32).clamp(3, 9) as usize,
            _ => 3,
        };
        let [lo, hi] = self.ci;
        format!("{:.d$} [{lo:.d$}, {hi:.d$}]{mark}", self.ratio)
    }
}

impl BenchResult {
    /// Builds the result. Only the `iter` loop has its overhead subtracted:
    /// `iter_batched` and `iter_custom` time something else, but are still
    /// flagged when they come near the floor. Times never go below zero.
    pub fn new(
        id: String,
        m: Measurement,
        kind: LoopKind,
        loop_overhead: f64,
        throughput: Option<Throughput>,
        outlier_mode: OutlierMode,
    ) -> Result<BenchResult, StatsError> {
        let raw = Summary::new(&m.per_iter)?;
        let overhead = match kind {
            LoopKind::Iter => loop_overhead.max(0.0),
            LoopKind::Batched | LoopKind::Custom | LoopKind::Future | LoopKind::Threads => 0.0,
        };
        let near_floor = kind != LoopKind::Custom && raw.median <= FLOOR_FACTOR * loop_overhead;
        let per_iter: Vec<f64> = m.per_iter.iter().map(|t| (t - overhead).max(0.0)).collect();
        Ok(BenchResult {
            id,
            metric: Metric::WallTime,
            summary: Summary::with_outliers(&per_iter, outlier_mode)?,
            per_iter,
            iters: m.iters,
            cold: m.cold,
            overhead,
            near_floor,
            stop: m.stop,
            outlier_mode,
            throughput,
            counters: Vec::new(),
            versus: None,
            is_baseline: false,
            repeat_medians: Vec::new(),
            cut_short: None,
        })
    }

    /// Several independent measurements of one benchmark as one result:
    /// the samples of all, summarised together, with each one's median kept
    /// for [`repeats`](Self::repeats). Iterations per sample, first-call time,
    /// counters and the ratio to a group baseline are the first one's;
    /// a time limit reached by any is reported.
    ///
    /// ```
    /// use nbench::__private::engine::{Measurement, Stop};
    /// use nbench::__private::{LoopKind, result::BenchResult, stats::OutlierMode};
    /// let part = |t: f64| {
    ///     let m = Measurement { iters: 10, per_iter: vec![t, t + 1.0, t + 2.0], cold: 50.0, stop: Stop::Precise, sampling_ns: 1 };
    ///     BenchResult::new("x".into(), m, LoopKind::Custom, 0.0, None, OutlierMode::None).unwrap()
    /// };
    /// let pooled = BenchResult::pool(vec![part(10.0), part(20.0)]).unwrap();
    /// assert_eq!(pooled.per_iter.len(), 6);
    /// let r = pooled.repeats().unwrap();
    /// assert_eq!((r.count, r.mean, r.median), (2, 16.0, 16.0));
    /// ```
    ///
    /// # Panics
    /// If `parts` is empty.
    pub fn pool(parts: Vec<BenchResult>) -> Result<BenchResult, StatsError> {
        let medians: Vec<f64> = parts.iter().map(|p| p.summary.median).collect();
        let mut parts = parts.into_iter();
        let mut first = parts.next().expect("pooling at least one result");
        if medians.len() == 1 {
            return Ok(first);
        }
        for p in parts {
            first.per_iter.extend(p.per_iter);
            first.near_floor |= p.near_floor;
            // The stop that says most about the pooled result: too few samples, then the time limit.
            if p.stop == Stop::TooFewSamples
                || (p.stop == Stop::TimeLimit && first.stop != Stop::TooFewSamples)
            {
                first.stop = p.stop;
            }
        }
        first.summary = Summary::with_outliers(&first.per_iter, first.outlier_mode)?;
        first.repeat_medians = medians;
        Ok(first)
    }

    /// Aggregates across pooled measurements; `None` for a single one.
    pub fn repeats(&self) -> Option<Repeats> {
        let m = &self.repeat_medians;
        if m.len() < 2 {
            return None;
        }
        let mean = crate::stats::mean(m);
        let stddev = crate::stats::variance(m, mean).sqrt();
        let mut sorted = m.clone();
        sorted.sort_by(f64::total_cmp);
        Some(Repeats {
            count: m.len(),
            mean,
            median: crate::stats::median_sorted(&sorted),
            stddev,
            // Medians of an empty body can all be 0: nothing varies then.
            cv: if mean == 0.0 { 0.0 } else { stddev / mean },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: OutlierMode = OutlierMode::None;

    fn measurement(per_iter: &[f64]) -> Measurement {
        Measurement {
            iters: 100,
            per_iter: per_iter.to_vec(),
            cold: 50.0,
            stop: Stop::Precise,
            sampling_ns: 1,
        }
    }

    #[test]
    fn overhead_is_subtracted_for_iter_only_and_never_below_zero() {
        let m = measurement(&[0.2, 0.3, 0.5]);
        let r = BenchResult::new("e".into(), m.clone(), LoopKind::Iter, 0.3, None, NONE).unwrap();
        assert_eq!(r.per_iter, [0.0, 0.0, 0.2]);
        assert!(r.near_floor);
        let r = BenchResult::new("e".into(), m, LoopKind::Custom, 0.3, None, NONE).unwrap();
        assert_eq!(r.per_iter, [0.2, 0.3, 0.5]);
        assert!(!r.near_floor);
    }

    #[test]
    fn well_above_the_floor_is_not_flagged() {
        let m = measurement(&[10.0, 10.5, 11.0]);
        let r = BenchResult::new("s".into(), m, LoopKind::Iter, 0.3, None, NONE).unwrap();
        assert!(!r.near_floor);
        assert!((r.summary.median - 10.2).abs() < 1e-12);
    }

    #[test]
    fn empty_bodies_pooled_have_no_spread_not_nan() {
        let empty = || {
            let m = measurement(&[0.2, 0.3, 0.3]);
            BenchResult::new("e".into(), m, LoopKind::Iter, 0.4, None, NONE).unwrap()
        };
        let pooled = BenchResult::pool(vec![empty(), empty(), empty()]).unwrap();
        let r = pooled.repeats().unwrap();
        assert_eq!((r.count, r.mean, r.cv), (3, 0.0, 0.0));
        let line = crate::table::notes(&crate::table::Figures::of(&pooled)).join(", ");
        assert!(line.contains("3 runs: cv 0.00%"), "{line}");
    }
}
