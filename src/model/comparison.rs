//! A comparison's data: each benchmark's change, CI, p-values and verdict, per target, with the baseline's name.

pub use super::not_compared::NotCompared;

use super::float;
use super::work::ThroughputRecord;
use nbench::__private::metric::Metric;
use serde::{Deserialize, Serialize};

/// What a comparison concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Slower, beyond noise and the threshold.
    Regressed,
    /// Faster, beyond noise and the threshold.
    Improved,
    /// The change's interval lies within the noise threshold on both sides.
    Unchanged,
    /// Neither: the interval is wider than the threshold and holds no
    /// verdict, so the tool cannot tell (see [`Row::inconclusive`]).
    Inconclusive,
}

impl Verdict {
    /// The name as JSON and CSV spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Regressed => "regressed",
            Verdict::Improved => "improved",
            Verdict::Unchanged => "unchanged",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

/// How the two sides were compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Both executables sampled in lockstep.
    Paired,
    /// The current run against the baseline's stored samples (less certain).
    Stored,
}

impl Kind {
    /// The name as JSON and CSV spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Paired => "paired",
            Kind::Stored => "stored",
        }
    }
}

/// One benchmark compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The benchmark's id.
    pub id: String,
    /// Paired or against stored samples.
    pub kind: Kind,
    /// What both sides' values measure (left out for wall time).
    #[serde(
        default,
        with = "super::metric",
        skip_serializing_if = "super::metric::is_wall_time"
    )]
    pub metric: Metric,
    /// Baseline median, ns per iteration.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "baseline_ns")]
    pub baseline: f64,
    /// Current median, ns per iteration.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "current_ns")]
    pub current: f64,
    /// current / baseline − 1.
    #[serde(deserialize_with = "float::lenient")]
    pub change: f64,
    /// 95 % CI of the change.
    #[serde(deserialize_with = "float::lenient")]
    pub change_ci: [f64; 2],
    /// Two-sided p-value (paired: t test across epochs; stored: Mann–Whitney U).
    pub p_value: Option<f64>,
    /// `p_value` adjusted (Benjamini–Hochberg) over all comparisons of the run: the one the verdict uses.
    #[serde(default)]
    pub p_adjusted: Option<f64>,
    /// The conclusion, given once its interval and adjusted p-value are
    /// final (`compare::rule::decide_rows`).
    pub verdict: Verdict,
    /// The baseline side's per-iteration samples (paired: measured in this
    /// run; stored: the baseline's), for plots; the current side's are in the run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "baseline_per_iter_ns")]
    pub baseline_per_iter: Vec<f64>,
    /// The loop overhead per iteration taken off both sides' times, ns.
    #[serde(default)]
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "overhead_ns")]
    pub overhead: f64,
    /// How much the benchmark moves from one fresh process pair in other
    /// link layouts to the next (0.14 = ±14 %): code placement and the
    /// machine's process-to-process noise together; when both sides ran
    /// several layouts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout_spread: Option<f64>,
    /// The part of `layout_spread` that code placement makes (the layouts'
    /// own effects); once each side ran its layouts twice on average.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement_spread: Option<f64>,
    /// How many times wider the change's interval was made for the link
    /// layouts its units share (2 = twice as wide as over the units
    /// alone): code placement's weight in it; where it was widened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout_widening: Option<f64>,
    /// Epochs (fresh process pairs) the paired change was measured over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epochs: Option<usize>,
    /// Paired: the change measured by each independent unit (an epoch, or
    /// the epochs that ran the same pair of layouts), current / baseline;
    /// the interval is computed from these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "float::lenient")]
    pub unit_ratios: Vec<f64>,
    /// Paired: copies of its process pairs (`fork`) the epochs sampled in,
    /// where its epochs spread enough for copies to pay (0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub copies: usize,
    /// Paired: units (of `unit_ratios`) so far from the rest that they were
    /// pulled in to the edge of the rest before the interval was computed
    /// (the two processes ran at different speeds, not different code).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub epochs_pulled_in: usize,
    /// Paired: link layouts (of either side) whose units lay so far from
    /// the other layouts' that they were left out of the change and its
    /// interval (one placement moving the benchmark far more than the rest).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub layouts_left_out: usize,
    /// Paired: each epoch's median time of the baseline's and the current
    /// side's samples, ns per iteration, in the epochs' order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[serde(rename = "epoch_medians_ns")]
    pub epoch_medians: Vec<[f64; 2]>,
    /// Paired, where both sides ran several link layouts: the layout each epoch ran of the
    /// baseline's and of the current side (numbered from 0 per side), in
    /// the epochs' order, so that the change can be recomputed by layout.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub epoch_layouts: Vec<[usize; 2]>,
    /// Paired: iterations per sample in each epoch, in the epochs' order
    /// (the calibrated count and its multiples, taken in turns).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub epoch_iters: Vec<u64>,
    /// Paired, where some epoch's two processes ran in different speed
    /// states: the units of the epochs whose two ran in one (at full speed
    /// for their state), which the change was taken
    /// from (see `estimators::Fast`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub full_speed_units: usize,
    /// Whether the time limit ended the measuring before the interval settled.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub time_limited: bool,
    /// With an inconclusive verdict: why the interval stayed that wide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inconclusive: Option<String>,
    /// The work per iteration each side declared (baseline, current), where
    /// both declared it and the two differ: the change and verdict are of
    /// the time per iteration, see [`Row::per_unit`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work_per_iter: Option<[ThroughputRecord; 2]>,
    /// Instructions per iteration on each side and their change, where
    /// both were counted (`--metrics time,instructions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<CountChange>,
    /// Which signal gave the verdict, where instructions were counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<Signal>,
    /// The verdict time alone gave, where instructions were counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_verdict: Option<Verdict>,
}

/// Instructions per iteration on each side, as each side's processes
/// counted them (the median where there were several), and their change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CountChange {
    /// The baseline's instructions per iteration.
    pub baseline: f64,
    /// The current side's.
    pub current: f64,
    /// current / baseline − 1.
    pub change: f64,
    /// How far the change lay apart between the sides' paired processes
    /// (the range of their ratios; each pair ran the same iterations), or,
    /// where they cannot be paired, how far one side's counts lay apart as
    /// a share of their median (the larger side's); at least as far as one
    /// side's processes that ran the same iterations lay apart (random
    /// inputs). 0 where each counted once or alike.
    pub spread: f64,
    /// Whether the paired processes' changes lie on both sides of none
    /// (one pair counted more, another fewer or alike): the counts moved
    /// only with where each layout put code and data, not all one way as
    /// changed code moves them.
    #[serde(default, skip_serializing_if = "is_false")]
    pub both_ways: bool,
    /// Why the counts do not tell what the time does, where they do not
    /// (a benchmark on several threads): then only time decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Where counts that moved this way cannot decide: a row of the same
    /// comparison whose counts moved this way too and whose time, decided,
    /// moved the other way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contrary: Option<Contrary>,
}

/// A row whose time went against its counts: decided by time, the other
/// way from where its instructions moved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contrary {
    /// The row's benchmark.
    pub id: String,
    /// Its instructions' change.
    pub counted: f64,
    /// Its time's change.
    pub timed: f64,
}

/// A signal a verdict can come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Signal {
    /// The paired (or stored) time.
    Time,
    /// The instruction counts.
    Instructions,
}

/// The p-value below which a change is significant, once adjusted over
/// a run's rows (Benjamini–Hochberg).
pub const SIGNIFICANCE: f64 = 0.05;

impl Row {
    /// Whether the change is significant: its p-value, adjusted for the
    /// run's other rows once that is done, below [`SIGNIFICANCE`]; without
    /// a test behind it (one epoch's rounds), its interval leaving out 0.
    pub fn significant(&self) -> bool {
        match self.p_adjusted.or(self.p_value) {
            Some(p) => p < SIGNIFICANCE,
            None => self.change_ci[0] > 0.0 || self.change_ci[1] < 0.0,
        }
    }

    /// The noise threshold that applies to this row (see [`row_threshold`]).
    pub fn threshold(&self, threshold: f64) -> f64 {
        row_threshold(threshold, self.baseline, self.overhead)
    }

    /// The smallest change that counts, in the row's unit, where both
    /// sides' figures lie below it: an empty body's 0.0001 ps past a 300 ps
    /// loop, whose change in percent (−40 % of nothing) says nothing.
    /// `None` for every row whose figures are larger.
    pub fn below_counting(&self, threshold: f64) -> Option<f64> {
        let step = self.counting_step(threshold);
        (self.baseline.abs() < step && self.current.abs() < step).then_some(step)
    }

    /// The smallest change that counts, in the row's unit: `threshold` of
    /// the time measured, the median plus the loop overhead taken off it
    /// ([`row_threshold`] gives it as a share of the median).
    pub fn counting_step(&self, threshold: f64) -> f64 {
        threshold * (self.baseline + self.overhead.max(0.0))
    }

    /// Placement's part of its `layout_spread`, where that is less than
    /// half its variance: the rest is the machine's process-to-process
    /// noise. `None` where placement makes most of it, or the two could
    /// not be told apart.
    pub fn placement_minor(&self) -> Option<f64> {
        let (s, p) = (self.layout_spread?, self.placement_spread?);
        (2.0 * p * p < s * s).then_some(p)
    }

    /// [`Self::placement_minor`] in words: `code placement ±1.1% of it`,
    /// or `none of it code placement` where that rounds to nothing.
    pub fn placement_part(&self) -> Option<String> {
        self.placement_minor().map(|p| match p < 0.0005 {
            true => "none of it code placement".to_owned(),
            false => format!("code placement ±{:.1}% of it", p * 100.0),
        })
    }
}

/// The noise threshold as a share of the time actually measured, the
/// median plus the loop overhead taken off it, expressed relative to the
/// median: near the timer floor (an empty body: 0.1 ps left of a 350 ps
/// loop) a difference of 0.1 ps is not a 100 % regression.
pub fn row_threshold(threshold: f64, baseline: f64, overhead: f64) -> f64 {
    if baseline > 0.0 {
        threshold * (baseline + overhead.max(0.0)) / baseline
    } else {
        f64::INFINITY
    }
}

/// One bench target's comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetComparison {
    /// `package/target`.
    pub target: String,
    /// Benchmarks in both.
    pub rows: Vec<Row>,
    /// Only in the current build.
    pub new: Vec<String>,
    /// Only in the baseline.
    pub gone: Vec<String>,
    /// Why the comparison is against stored samples, when it is.
    pub unpaired_because: Option<String>,
    /// Link layouts sampled, (baseline, current), when paired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layouts: Option<[usize; 2]>,
    /// Benchmarks in both that could not be compared (their values measure
    /// different metrics), each with the reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_compared: Vec<NotCompared>,
}

/// What a comparison estimated of one benchmark: the change (0.05 = 5 %
/// slower), its 95 % interval, the p-value of the test behind it.
pub type Finding = (f64, [f64; 2], Option<f64>);

impl Row {
    /// A row of `kind` with its sides' times (`[baseline, current]`) and
    /// what the comparison found; no samples, epochs or layouts yet, and
    /// no verdict until `compare::rule::decide_rows` gives it one.
    pub fn new(id: &str, kind: Kind, metric: Metric, times: [f64; 2], found: Finding) -> Row {
        let (change, change_ci, p_value) = found;
        Row {
            id: id.to_owned(),
            kind,
            metric,
            baseline: times[0],
            current: times[1],
            change,
            change_ci,
            p_value,
            p_adjusted: None,
            verdict: Verdict::Inconclusive,
            baseline_per_iter: Vec::new(),
            overhead: 0.0,
            layout_spread: None,
            placement_spread: None,
            layout_widening: None,
            epochs: None,
            copies: 0,
            time_limited: false,
            unit_ratios: Vec::new(),
            epochs_pulled_in: 0,
            layouts_left_out: 0,
            full_speed_units: 0,
            epoch_medians: Vec::new(),
            epoch_layouts: Vec::new(),
            epoch_iters: Vec::new(),
            inconclusive: None,
            work_per_iter: None,
            instructions: None,
            decided_by: None,
            time_verdict: None,
        }
    }

    /// The row with the sides' declared work per iteration kept where both
    /// declared it and it differs.
    pub fn with_work(self, base: Option<ThroughputRecord>, cur: Option<ThroughputRecord>) -> Row {
        let work_per_iter = match (base, cur) {
            (Some(b), Some(c)) if b != c => Some([b, c]),
            _ => None,
        };
        Row {
            work_per_iter,
            ..self
        }
    }

    /// Where both sides declared the same kind of work per iteration in
    /// other amounts: the change per unit of work (byte or item) and its
    /// interval, the time per iteration scaled by the work it did.
    pub fn per_unit(&self) -> Option<(f64, [f64; 2])> {
        let (b, c) = match self.work_per_iter? {
            [ThroughputRecord::Bytes(b), ThroughputRecord::Bytes(c)] => (b, c),
            [ThroughputRecord::Items(b), ThroughputRecord::Items(c)] => (b, c),
            _ => return None,
        };
        if b == 0 || c == 0 {
            return None;
        }
        let scale = b as f64 / c as f64;
        let per = |x: f64| (1.0 + x) * scale - 1.0;
        Some((per(self.change), self.change_ci.map(per)))
    }

    /// A paired row for tests: `base` ns before, `change` after it (a CI
    /// of ±0.2 % around it, p = 0.0001), with `verdict`.
    #[cfg(test)]
    pub fn example(id: &str, base: f64, change: f64, verdict: Verdict) -> Row {
        let ci = [change - 0.002, change + 0.002];
        let times = [base, base * (1.0 + change)];
        let found = (change, ci, Some(0.0001));
        Row {
            verdict,
            ..Row::new(id, Kind::Paired, Metric::WallTime, times, found)
        }
    }
}

impl TargetComparison {
    /// A target's comparison with nothing in it yet.
    pub fn empty(label: &str) -> TargetComparison {
        TargetComparison {
            target: label.to_owned(),
            rows: Vec::new(),
            new: Vec::new(),
            gone: Vec::new(),
            unpaired_because: None,
            layouts: None,
            not_compared: Vec::new(),
        }
    }
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The baseline's name.
    pub baseline: String,
    /// Changes smaller than this are "unchanged" (0.01 = 1 %).
    #[serde(deserialize_with = "float::lenient")]
    pub noise_threshold: f64,
    /// Differences between the baseline's context and this run's.
    pub warnings: Vec<String>,
    /// What the reader should know about how it was compared (code placement not controlled).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Per target.
    pub targets: Vec<TargetComparison>,
}

impl Comparison {
    /// Whether any benchmark regressed.
    pub fn any_regressed(&self) -> bool {
        self.counts().regressed > 0
    }

    /// How many benchmarks came to each verdict.
    pub fn counts(&self) -> Counts {
        let rows = || self.targets.iter().flat_map(|t| &t.rows);
        let count = |v: Verdict| rows().filter(|r| r.verdict == v).count();
        Counts {
            regressed: count(Verdict::Regressed),
            improved: count(Verdict::Improved),
            unchanged: count(Verdict::Unchanged),
            inconclusive: count(Verdict::Inconclusive),
            not_compared: self.targets.iter().map(|t| t.not_compared.len()).sum(),
        }
    }
}

/// How many rows of a comparison came to each verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Regressed.
    pub regressed: usize,
    /// Improved.
    pub improved: usize,
    /// Unchanged.
    pub unchanged: usize,
    /// Inconclusive.
    pub inconclusive: usize,
    /// In both, but measuring different metrics.
    pub not_compared: usize,
}

impl Counts {
    /// `1 regressed, 0 improved, 8 unchanged, 1 inconclusive, 1 not compared`
    /// (the last two only when there are any).
    pub fn sentence(&self) -> String {
        let mut s = format!(
            "{} regressed, {} improved, {} unchanged",
            self.regressed, self.improved, self.unchanged
        );
        if self.inconclusive > 0 {
            s.push_str(&format!(", {} inconclusive", self.inconclusive));
        }
        if self.not_compared > 0 {
            s.push_str(&format!(", {} not compared", self.not_compared));
        }
        s
    }
}

impl CountChange {
    /// Counts for tests: 1 000 instructions before, `change` after them,
    /// the pairs of processes `spread` apart, one way.
    #[cfg(test)]
    pub fn example(change: f64, spread: f64) -> CountChange {
        CountChange {
            baseline: 1000.0,
            current: 1000.0 * (1.0 + change),
            change,
            spread,
            both_ways: false,
            note: None,
            contrary: None,
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}
