//! The stored and `--format json` form of a run: schema-versioned, with summaries and raw samples.

use super::comparison::Comparison;
use super::context::Context;
use super::float;
use super::outcome::{Failure, Measured, NextRun, Outcome, TargetRun};
use super::partition::Partition;
pub use super::percentiles::Percentiles;
pub use super::work::ThroughputRecord;
use nbench::__private::metric::Metric;
use serde::{Deserialize, Serialize};

/// Bumped whenever a stored field changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 1;

/// One run of `cargo nbench`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// [`SCHEMA_VERSION`] of the writer.
    pub schema: u32,
    /// Where and how the run was made.
    pub context: Context,
    /// Wall time of measuring (building not included), s.
    #[serde(deserialize_with = "float::lenient")]
    pub duration_s: f64,
    /// Per bench target.
    pub targets: Vec<TargetRecord>,
    /// Bench targets left out, and why.
    pub skipped: Vec<SkippedRecord>,
    /// The comparison with a baseline, with `--compare`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Comparison>,
    /// With `--partition`: the shard of the suite this run measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<Partition>,
}

/// One bench target's part of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetRecord {
    /// `package/target`.
    pub target: String,
    /// Measured benchmarks.
    pub benchmarks: Vec<BenchRecord>,
    /// Failed benchmarks.
    pub failures: Vec<FailureRecord>,
    /// Ids skipped as ignored.
    pub ignored: Vec<String>,
    /// Benchmarks that skipped themselves when run, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<SkippedBenchRecord>,
    /// How many the filters left out.
    pub filtered_out: usize,
    /// Selected, but measured by other shards (`--partition`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub other_shards: usize,
    /// Complexities fitted to the target's families.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fits: Vec<FitRecord>,
    /// The executable's content hash: runs of the same build share it, and
    /// a plain run's interval draws on them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<String>,
    /// Ids its executable registers, held without samples: a revision's
    /// baseline is listed, not measured (a comparison runs its executables).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub listed: Vec<String>,
}

/// A family's fitted complexity (`Group::complexity`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FitRecord {
    /// The family: ids without the parameter.
    pub family: String,
    /// The shape: `1`, `log N`, `N`, `N log N`, `N²`, `N³`, or a custom name.
    pub complexity: String,
    /// `c` in `time ≈ c · f(N)`, ns.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "coefficient_ns")]
    pub coefficient: f64,
    /// Root mean square of the residuals over the mean time.
    #[serde(deserialize_with = "float::lenient")]
    pub rms: f64,
    /// `[N, median ns]` of each member, by N.
    #[serde(deserialize_with = "float::lenient")]
    pub points: Vec<[f64; 2]>,
    /// The fitted curve `c · f(N)` at each member's N, ns.
    #[serde(default)]
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "fitted_ns")]
    pub fitted: Vec<f64>,
    /// What the members' values measure (left out for wall time).
    #[serde(
        default,
        with = "crate::model::metric",
        skip_serializing_if = "crate::model::metric::is_wall_time"
    )]
    pub metric: Metric,
}

/// A bench target that was not run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkippedRecord {
    /// `package/target`.
    pub target: String,
    /// Why.
    pub reason: String,
}

/// A benchmark that skipped itself (`Bencher::skip`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkippedBenchRecord {
    /// The benchmark.
    pub id: String,
    /// Why, in its words.
    pub reason: String,
}

/// A user counter (`Bencher::counter`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CounterRecord {
    /// Its name.
    pub name: String,
    /// `value`, `per_iteration`, `rate` or `time`.
    pub kind: String,
    /// The declared value (per iteration for `per_iteration` and `rate`).
    #[serde(deserialize_with = "float::lenient")]
    pub value: f64,
    /// The number the report shows: per second of the median for a rate.
    #[serde(deserialize_with = "float::lenient")]
    pub shown: f64,
    /// Whether "k" means 1024.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub binary: bool,
}

impl CounterRecord {
    /// Its column's header (`name`, `name/iter`, `name/s`).
    pub fn header(&self) -> String {
        self.to_counter()
            .map_or_else(|| self.name.clone(), |c| c.header())
    }

    /// The counter as the harness reports it.
    pub fn to_counter(&self) -> Option<nbench::Counter> {
        Some(nbench::Counter {
            name: self.name.clone(),
            value: self.value,
            kind: nbench::CounterKind::parse(&self.kind)?,
            binary: self.binary,
            averaged: false,
        })
    }
}

/// A group member's time relative to the group's baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersusRecord {
    /// The baseline's id.
    pub baseline: String,
    /// This benchmark's time / the baseline's: the median of the ratios of samples taken in alternation.
    #[serde(deserialize_with = "float::lenient")]
    pub ratio: f64,
    /// 95 % CI of the ratio.
    #[serde(deserialize_with = "float::lenient")]
    pub ci: [f64; 2],
    /// Whether the CI leaves out 1.
    pub significant: bool,
}

/// A benchmark's median and interval from its pooled samples alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WithinRecord {
    /// The pooled samples' median, ns.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "median_ns")]
    pub median: f64,
    /// Its distribution-free 95 % interval, ns.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "median_ci_ns")]
    pub median_ci: [f64; 2],
}

/// The medians of the measurements a result pools, and their spread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepeatsRecord {
    /// Each measurement's median, in the order taken.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "medians_ns")]
    pub medians: Vec<f64>,
    /// Their mean.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "mean_ns")]
    pub mean: f64,
    /// Their median.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "median_ns")]
    pub median: f64,
    /// Their standard deviation.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "stddev_ns")]
    pub stddev: f64,
    /// `stddev / mean`.
    #[serde(deserialize_with = "float::lenient")]
    pub cv: f64,
}

impl VersusRecord {
    /// The ratio as the harness reports it.
    pub fn to_versus(&self) -> nbench::__private::result::Versus {
        nbench::__private::result::Versus {
            baseline: self.baseline.clone(),
            ratio: self.ratio,
            ci: self.ci,
        }
    }
}

/// A failed benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailureRecord {
    /// The benchmark (empty when the whole target failed).
    pub id: String,
    /// Why.
    pub reason: String,
    /// What it printed.
    pub output: String,
}

/// One measured benchmark: what the table shows, plus everything behind it. Times in ns per iteration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchRecord {
    /// `group/name/arg`.
    pub id: String,
    /// What its values measure: the `_ns` fields hold that metric's amounts
    /// (left out for wall time, which older files mean).
    #[serde(
        default,
        with = "super::metric",
        skip_serializing_if = "super::metric::is_wall_time"
    )]
    pub metric: Metric,
    /// Median.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "median_ns")]
    pub median: f64,
    /// 95 % CI of the median, [low, high]; measured over epochs, where the
    /// next run's estimate lands instead (`interval` says so).
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "median_ci_ns")]
    pub median_ci: [f64; 2],
    /// Measured over epochs: `median_ci` is where the next run's estimate
    /// of the same build lands, this share of the time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<NextRun>,
    /// Mean.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "mean_ns")]
    pub mean: f64,
    /// 95 % CI of the mean, [low, high].
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "mean_ci_ns")]
    pub mean_ci: [f64; 2],
    /// Sample standard deviation.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "stddev_ns")]
    pub stddev: f64,
    /// Median absolute deviation.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "mad_ns")]
    pub mad: f64,
    /// Coefficient of variation.
    #[serde(deserialize_with = "float::lenient")]
    pub cv: f64,
    /// Smallest sample.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "min_ns")]
    pub min: f64,
    /// Largest sample.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "max_ns")]
    pub max: f64,
    /// Percentiles 5, 25, 75, 95 and 99, named (`{"p5": …, "p25": …}`).
    #[serde(rename = "percentiles_ns")]
    pub percentiles: Percentiles,
    /// Tukey outliers: low severe, low mild, high mild, high severe.
    pub outliers: [usize; 4],
    /// Which samples the summary set aside (`--outliers`).
    #[serde(default = "default_outlier_mode")]
    pub outlier_mode: String,
    /// Samples set aside; the statistics above leave them out.
    #[serde(default)]
    pub set_aside: usize,
    /// Number of samples summarised (set-aside ones excluded).
    pub samples: usize,
    /// Iterations per sample.
    pub iters_per_sample: u64,
    /// The first call's time.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "cold_ns")]
    pub cold: f64,
    /// Loop overhead subtracted per iteration.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "overhead_ns")]
    pub overhead: f64,
    /// Within a few times the loop overhead.
    pub near_floor: bool,
    /// Whether the precision target was met (`precise`) or a limit stopped sampling.
    pub stop: String,
    /// Work per iteration, if declared.
    pub throughput: Option<ThroughputRecord>,
    /// User counters, if declared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<CounterRecord>,
    /// Its time relative to its group's baseline, measured interleaved
    /// with it (members of a group with a baseline, in runs without `--compare`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versus: Option<VersusRecord>,
    /// Whether it is its group's baseline.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_baseline: bool,
    /// When it pools several measurements (`--repetitions`, `--launches`,
    /// `--interleave`): their medians and how they spread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeats: Option<RepeatsRecord>,
    /// Measured in several processes (epochs), whose estimate `median`
    /// and `median_ci` are: the median of the pooled samples and its
    /// interval from the samples alone, as within one process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within_process: Option<WithinRecord>,
    /// When the time limit left room for fewer measurements (epochs) than
    /// planned: how many were planned (`repeats` has those taken).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_short: Option<usize>,
    /// Wall time spent on this benchmark, including warm-up, s.
    #[serde(deserialize_with = "float::lenient")]
    pub elapsed_s: f64,
    /// Every sample's per-iteration time.
    #[serde(deserialize_with = "float::lenient")]
    #[serde(rename = "per_iter_ns")]
    pub per_iter: Vec<f64>,
    /// Metrics measured beside its time, each under its name
    /// (`instructions`): per iteration, the loop's own taken off.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub metrics: crate::model::metric::Besides,
    /// What the clock resolves per iteration, where the median lies below
    /// it: the median is known only to be under this.
    #[serde(rename = "floor_ns", default, skip_serializing_if = "Option::is_none")]
    pub floor: Option<f64>,
}

impl TargetRecord {
    /// The record of one target's run.
    pub fn from_run(run: &TargetRun) -> TargetRecord {
        let mut rec = TargetRecord {
            target: run.label.clone(),
            benchmarks: Vec::new(),
            failures: Vec::new(),
            ignored: Vec::new(),
            skipped: Vec::new(),
            filtered_out: run.filtered_out,
            other_shards: run.elsewhere.len(),
            fits: run
                .fits()
                .into_iter()
                .map(|f| FitRecord {
                    metric: run.family_metric(&f.family),
                    family: f.family,
                    complexity: f.complexity,
                    coefficient: f.coefficient,
                    rms: f.rms,
                    points: f.points.into_iter().map(|(n, t)| [n, t]).collect(),
                    fitted: f.fitted,
                })
                .collect(),
            build: None,
            listed: Vec::new(),
        };
        for outcome in &run.outcomes {
            match outcome {
                Outcome::Measured(m) => rec.benchmarks.push(BenchRecord::from_measured(m)),
                Outcome::Failed(f) => rec.failures.push(FailureRecord::from(f)),
                Outcome::Ignored(id) => rec.ignored.push(id.clone()),
                Outcome::Skipped { id, reason } => rec.skipped.push(SkippedBenchRecord {
                    id: id.clone(),
                    reason: reason.clone(),
                }),
                Outcome::Listed(id) => rec.listed.push(id.clone()),
            }
        }
        rec
    }

    /// The ids it holds: measured, or listed without samples.
    pub fn held_ids(&self) -> impl Iterator<Item = &str> {
        (self.benchmarks.iter().map(|b| b.id.as_str()))
            .chain(self.listed.iter().map(String::as_str))
    }

    /// The ids it holds ([`Self::held_ids`]) and those that skipped
    /// themselves when it was saved: every benchmark its executable ran.
    pub fn ran_ids(&self) -> impl Iterator<Item = &str> {
        (self.held_ids()).chain(self.skipped.iter().map(|s| s.id.as_str()))
    }
}

impl BenchRecord {
    /// The record of one measured benchmark.
    pub fn from_measured(m: &Measured) -> BenchRecord {
        let r = &m.result;
        let s = &r.summary;
        BenchRecord {
            id: r.id.clone(),
            metric: r.metric,
            median: s.median,
            median_ci: [s.median_ci.lo, s.median_ci.hi],
            interval: m.next_run,
            mean: s.mean,
            mean_ci: [s.mean_ci.lo, s.mean_ci.hi],
            stddev: s.stddev,
            mad: s.mad,
            cv: s.cv,
            min: s.min,
            max: s.max,
            percentiles: Percentiles {
                p5: s.p5,
                p25: s.p25,
                p75: s.p75,
                p95: s.p95,
                p99: s.p99,
            },
            outliers: [
                s.outliers.low_severe,
                s.outliers.low_mild,
                s.outliers.high_mild,
                s.outliers.high_severe,
            ],
            outlier_mode: r.outlier_mode.as_str().to_owned(),
            set_aside: s.set_aside,
            samples: s.count,
            iters_per_sample: r.iters,
            cold: r.cold,
            overhead: r.overhead,
            near_floor: r.near_floor,
            stop: r.stop.as_str().to_owned(),
            throughput: r.throughput.map(ThroughputRecord::from),
            counters: r
                .counters
                .iter()
                .map(|c| CounterRecord {
                    name: c.name.clone(),
                    kind: c.kind.as_str().to_owned(),
                    value: c.value,
                    shown: c.shown(s.median),
                    binary: c.binary,
                })
                .collect(),
            versus: r.versus.as_ref().map(|v| VersusRecord {
                baseline: v.baseline.clone(),
                ratio: v.ratio,
                ci: v.ci,
                significant: v.significant(),
            }),
            is_baseline: r.is_baseline,
            repeats: r.repeats().map(|a| RepeatsRecord {
                medians: r.repeat_medians.clone(),
                mean: a.mean,
                median: a.median,
                stddev: a.stddev,
                cv: a.cv,
            }),
            cut_short: r.cut_short,
            metrics: m.besides.clone(),
            floor: m.floor,
            within_process: m.within.map(|w| WithinRecord {
                median: w.median,
                median_ci: w.median_ci,
            }),
            elapsed_s: m.elapsed_s,
            per_iter: r.per_iter.clone(),
        }
    }
}

/// Records written before outlier modes existed summarised every sample.
fn default_outlier_mode() -> String {
    nbench::__private::stats::OutlierMode::None
        .as_str()
        .to_owned()
}

impl From<&Failure> for FailureRecord {
    fn from(f: &Failure) -> Self {
        FailureRecord {
            id: f.id.clone(),
            reason: f.reason.clone(),
            output: f.output.clone(),
        }
    }
}

/// How many benchmarks of a run came to what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Measured.
    pub measured: usize,
    /// Failed (a whole target counts once).
    pub failed: usize,
    /// Skipped as ignored.
    pub ignored: usize,
    /// Skipped by the benchmark itself.
    pub skipped: usize,
    /// Left out by the filters.
    pub filtered_out: usize,
    /// Measured by other shards (`--partition`).
    pub other_shards: usize,
}

impl RunRecord {
    /// A run of this schema: what measuring produced, with the context it
    /// ran in, the bench targets left out, and its comparison.
    pub fn new(
        context: Context,
        duration_s: f64,
        targets: Vec<TargetRecord>,
        skipped: Vec<SkippedRecord>,
        (comparison, partition): (Option<Comparison>, Option<Partition>),
    ) -> RunRecord {
        RunRecord {
            schema: SCHEMA_VERSION,
            context,
            duration_s,
            targets,
            skipped,
            comparison,
            partition,
        }
    }

    /// The run's totals over all targets.
    pub fn counts(&self) -> Counts {
        let sum = |f: fn(&TargetRecord) -> usize| self.targets.iter().map(f).sum();
        Counts {
            measured: sum(|t| t.benchmarks.len()),
            failed: sum(|t| t.failures.len()),
            ignored: sum(|t| t.ignored.len()),
            skipped: sum(|t| t.skipped.len()),
            filtered_out: sum(|t| t.filtered_out),
            other_shards: sum(|t| t.other_shards),
        }
    }

    /// Whether any benchmark (or target) failed.
    pub fn any_failed(&self) -> bool {
        self.targets.iter().any(|t| !t.failures.is_empty())
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
