//! What became of each benchmark of a bench target: measured, failed, ignored, skipped, listed.

use nbench::__private::family::{FamilyFit, Scaling, fit_families};
use nbench::__private::metric::Metric;
use nbench::__private::protocol::Listed;
use nbench::__private::result::BenchResult;

/// A benchmark measured by `cargo nbench`.
#[derive(Debug, Clone)]
pub struct Measured {
    /// The harness's result.
    pub result: BenchResult,
    /// Wall time from the run command to the result, s.
    pub elapsed_s: f64,
    /// Measured in several processes: the figures of their pooled samples,
    /// which the estimate over processes replaced in `result`.
    pub within: Option<Within>,
    /// Metrics measured beside its time (`--metrics time,instructions`).
    pub besides: crate::model::metric::Besides,
    /// What the clock resolves per iteration, where its median lies below.
    pub floor: Option<f64>,
    /// Measured in several processes: what its interval is, a prediction
    /// of where the next run's estimate lands.
    pub next_run: Option<NextRun>,
}

impl Measured {
    /// The harness's result as one measurement gave it: nothing measured
    /// beside it, no epochs' figures yet.
    pub fn of(result: BenchResult, elapsed_s: f64) -> Measured {
        Measured {
            result,
            elapsed_s,
            within: None,
            besides: Default::default(),
            floor: None,
            next_run: None,
        }
    }
}

/// A plain run's interval: where the next run's estimate of the same build
/// lands, `level` of the time, drawn from this run's epochs,
/// `earlier_runs` earlier runs of the same build on this machine and the
/// scatter of `other_runs` runs of other builds.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NextRun {
    /// How often the next run should land inside.
    pub level: f64,
    /// Earlier runs of the same build it drew on.
    pub earlier_runs: usize,
    /// Runs of other builds of the benchmark whose scatter it drew on.
    #[serde(default)]
    pub other_runs: usize,
}

/// A benchmark's median and its interval from the samples alone, as one
/// process (or several pooled) saw them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Within {
    /// The pooled samples' median, ns.
    pub median: f64,
    /// Its distribution-free 95 % interval, at least the clock's step wide.
    pub median_ci: [f64; 2],
}

/// A benchmark that failed, and what its process printed meanwhile.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The benchmark's id (empty when the whole target failed to start).
    pub id: String,
    /// Why, in words.
    pub reason: String,
    /// The benchmark's stdout and stderr.
    pub output: String,
}

/// How the failure of a bench binary that did not connect in time
/// begins: a `--timeout` too short for the code before its benchmarks.
pub const NOT_CONNECTED: &str = "the bench binary did not connect within";

/// Everything one bench target produced.
#[derive(Debug, Clone)]
pub struct TargetRun {
    /// `package/target`.
    pub label: String,
    /// Benchmarks in the binary's order, each with what became of it.
    pub outcomes: Vec<Outcome>,
    /// How many benchmarks the filters left out.
    pub filtered_out: usize,
    /// Selected by the filters, but measured by another shard (`--partition`).
    pub elsewhere: Vec<String>,
    /// Members of families marked with a complexity, by id.
    pub scalings: Vec<(String, Scaling)>,
}

impl TargetRun {
    /// Why its measured benchmarks have no figure of `metric` beside their
    /// time: one reason for the target (no ids) where one holds for all
    /// (the counting run failed), else each reason with the benchmarks it
    /// holds for, in listed order (one's counting ended its process; some
    /// were too slow to count).
    pub fn uncounted(&self, metric: Metric) -> Vec<(Vec<&str>, &str)> {
        let measured: Vec<&Measured> = (self.outcomes.iter())
            .filter_map(|o| match o {
                Outcome::Measured(m) => Some(&**m),
                _ => None,
            })
            .collect();
        let mut reasons: Vec<(Vec<&str>, &str)> = Vec::new();
        let mut rows = 0;
        for m in &measured {
            let Some(b) = m.besides.get(metric.as_str()) else {
                continue;
            };
            let Some(why) = b.note.as_deref().filter(|_| b.per_iter.is_none()) else {
                continue;
            };
            rows += 1;
            match reasons.iter_mut().find(|(_, w)| *w == why) {
                Some((ids, _)) => ids.push(m.result.id.as_str()),
                None => reasons.push((vec![m.result.id.as_str()], why)),
            }
        }
        if rows == measured.len() && reasons.len() == 1 {
            reasons[0].0.clear();
        }
        reasons
    }

    /// The complexity fitted to each family whose members were measured.
    pub fn fits(&self) -> Vec<FamilyFit> {
        let measured = self.outcomes.iter().filter_map(|o| match o {
            Outcome::Measured(m) => {
                let sc = self.scalings.iter().find(|(id, _)| *id == m.result.id)?;
                Some((&sc.1, m.result.summary.median))
            }
            _ => None,
        });
        fit_families(measured)
    }

    /// What the members of `family` measure: the first measured member's
    /// metric (wall time when none was measured).
    pub fn family_metric(&self, family: &str) -> Metric {
        let member = |id: &str| {
            self.scalings
                .iter()
                .any(|(m, sc)| m == id && sc.family == family)
        };
        self.outcomes
            .iter()
            .find_map(|o| match o {
                Outcome::Measured(m) if member(&m.result.id) => Some(m.result.metric),
                _ => None,
            })
            .unwrap_or_default()
    }
}

/// The family members among `listed`, by id.
pub fn scalings(listed: &[Listed]) -> Vec<(String, Scaling)> {
    listed
        .iter()
        .filter_map(|l| Some((l.id.clone(), l.scaling.clone()?)))
        .collect()
}

/// What became of one benchmark.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// It was measured.
    Measured(Box<Measured>),
    /// It failed.
    Failed(Failure),
    /// It is marked ignored and was not run.
    Ignored(String),
    /// It skipped itself when run (`Bencher::skip`).
    Skipped {
        /// The benchmark's id.
        id: String,
        /// Why, in its words.
        reason: String,
    },
    /// Only listed (`--list`).
    Listed(String),
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::metric::Beside;
    use nbench::__private::LoopKind;
    use nbench::__private::engine::{Measurement, Stop};
    use nbench::__private::stats::OutlierMode;

    /// A measured benchmark `id` of 10 ns an iteration, its instructions
    /// `count` (none where `None`, with `note`).
    pub(crate) fn measured(id: &str, count: Option<f64>, note: Option<&str>) -> Outcome {
        let m = Measurement {
            iters: 8,
            per_iter: vec![10.0; 5],
            cold: 10.0,
            stop: Stop::Precise,
            sampling_ns: 1,
        };
        let r = BenchResult::new(id.into(), m, LoopKind::Iter, 0.0, None, OutlierMode::None);
        let mut m = Measured::of(r.unwrap(), 0.5);
        let beside = Beside {
            per_iter: count,
            overhead: 0.0,
            note: note.map(str::to_owned),
            every_thread: false,
        };
        m.besides
            .insert(Metric::Instructions.as_str().to_owned(), beside);
        Outcome::Measured(Box::new(m))
    }

    #[test]
    fn a_count_that_failed_for_the_whole_target_is_said_once_one_row_s_for_the_row() {
        let run = |outcomes: Vec<Outcome>| TargetRun {
            label: "p/b".into(),
            outcomes,
            filtered_out: 0,
            elsewhere: Vec::new(),
            scalings: Vec::new(),
        };
        let why = "the counting run was killed by signal 9 (SIGKILL)";
        let killed = Some(why);
        let all = run(vec![
            measured("a", None, killed),
            measured("b", None, killed),
        ]);
        assert_eq!(all.uncounted(Metric::Instructions), [(vec![], why)]);
        // One row's own reason is said for that row.
        let one = run(vec![
            measured("a", None, killed),
            measured("b", Some(9.0), None),
        ]);
        assert_eq!(one.uncounted(Metric::Instructions), [(vec!["a"], why)]);
        // Rows with one reason are said together.
        let slow = "too slow";
        let some = run(vec![
            measured("a", None, Some(slow)),
            measured("b", None, killed),
            measured("c", None, Some(slow)),
            measured("d", Some(9.0), None),
        ]);
        let said = some.uncounted(Metric::Instructions);
        assert_eq!(said, [(vec!["a", "c"], slow), (vec!["b"], why)]);
        let counted = run(vec![measured("b", Some(9.0), None)]);
        assert!(counted.uncounted(Metric::Instructions).is_empty());
        assert!(run(Vec::new()).uncounted(Metric::Instructions).is_empty());
    }
}
