//! `--format csv`: RFC 4180, one row per measured benchmark, the unit in each time column's name.

use super::cells::counter_headers;
use crate::model::comparison::Row;
use crate::model::record::{BenchRecord, RunRecord, ThroughputRecord};
use nbench::__private::format::TimeUnit;
use nbench::__private::metric::Metric;

/// The run as CSV: a header line, then a row per benchmark; comparison
/// columns are added when the run has a comparison. Lines end in CRLF, as
/// RFC 4180 has it.
pub fn render(run: &RunRecord, unit: Option<TimeUnit>) -> String {
    let cols = Columns::of(run, unit.unwrap_or(TimeUnit::Ns));
    let mut out = line(&cols.header());
    for t in &run.targets {
        for b in &t.benchmarks {
            let row = run.comparison.as_ref().map(|c| {
                c.targets
                    .iter()
                    .filter(|tc| tc.target == t.target)
                    .flat_map(|tc| &tc.rows)
                    .find(|r| r.id == b.id)
            });
            out.push_str(&line(&cols.cells(&t.target, b, row)));
        }
    }
    out
}

const TIME_COLUMNS: [&str; 13] = [
    "median",
    "median_ci_low",
    "median_ci_high",
    "mean",
    "stddev",
    "mad",
    "min",
    "max",
    "p5",
    "p25",
    "p75",
    "p95",
    "p99",
];

/// Which columns a run's CSV has: the fixed ones, then optional columns
/// present when some benchmark has them: counters (a time counter in the
/// time unit), the ratio to a group baseline, pooled runs, the comparison.
struct Columns {
    unit: TimeUnit,
    /// Each counter header, and whether it is a time.
    counters: Vec<(String, bool)>,
    ratio: bool,
    runs: bool,
    /// Whether some row's interval says where the next run lands (then
    /// `median_ci_*` are that, at `next_run_level`).
    next_run: bool,
    comparison: bool,
    /// Whether some row says how much it moves with code placement.
    layout_spread: bool,
    /// Whether some row's sides declared other work per iteration: then
    /// the baseline's work and the change per unit of work follow.
    work: bool,
    /// Whether some benchmark's median lies below what the clock resolves:
    /// then a column gives that floor (empty for the others).
    floor: bool,
    /// Whether some benchmark measures another metric than wall time: then
    /// a last column names each one's (the time columns hold its values).
    metric: bool,
}

impl Columns {
    fn of(run: &RunRecord, unit: TimeUnit) -> Columns {
        let all = || run.targets.iter().flat_map(|t| &t.benchmarks);
        let is_time = |h: &str| {
            all()
                .flat_map(|b| &b.counters)
                .any(|c| c.header() == h && c.kind == "time")
        };
        Columns {
            unit,
            counters: counter_headers(all())
                .into_iter()
                .map(|h| {
                    let time = is_time(&h);
                    (h, time)
                })
                .collect(),
            ratio: all().any(|b| b.in_ratio_group()),
            runs: all().any(|b| b.repeats.is_some()),
            next_run: all().any(|b| b.interval.is_some()),
            comparison: run.comparison.is_some(),
            layout_spread: run.comparison.iter().any(|c| {
                c.targets
                    .iter()
                    .flat_map(|t| &t.rows)
                    .any(|r| r.layout_spread.is_some())
            }),
            work: run.comparison.iter().any(|c| {
                c.targets
                    .iter()
                    .flat_map(|t| &t.rows)
                    .any(|r| r.work_per_iter.is_some())
            }),
            metric: all().any(|b| b.metric != Metric::WallTime),
            floor: all().any(|b| b.floor.is_some()),
        }
    }

    fn header(&self) -> Vec<String> {
        let u = self.unit.ascii();
        let mut header: Vec<String> = vec!["target".into(), "id".into()];
        header.extend(TIME_COLUMNS.iter().map(|c| format!("{c}_{u}")));
        let fixed = [
            "samples",
            "set_aside",
            "outlier_mode",
            "iters_per_sample",
            "throughput_bytes",
            "throughput_items",
            "near_floor",
            "stop",
        ];
        header.extend(fixed.map(String::from));
        for (h, time) in &self.counters {
            header.push(if *time { format!("{h}_{u}") } else { h.clone() });
        }
        if self.floor {
            header.push(format!("floor_{u}"));
        }
        let ratio = [
            "ratio",
            "ratio_ci_low",
            "ratio_ci_high",
            "ratio_significant",
            "group_baseline",
        ];
        if self.ratio {
            header.extend(ratio.map(String::from));
        }
        if self.runs {
            header.extend(["runs", "runs_cv"].map(String::from));
        }
        if self.next_run {
            header.extend(["next_run_level", "earlier_runs", "other_runs"].map(String::from));
        }
        if self.comparison {
            header.push(format!("baseline_{u}"));
            let change = [
                "change_pct",
                "change_ci_low_pct",
                "change_ci_high_pct",
                "p_adjusted",
                "verdict",
                "compared",
                "inconclusive_because",
            ];
            header.extend(change.map(String::from));
        }
        if self.layout_spread {
            header.push("layout_spread_pct".to_owned());
        }
        if self.work {
            let work = [
                "baseline_throughput_bytes",
                "baseline_throughput_items",
                "change_per_unit_pct",
                "change_per_unit_ci_low_pct",
                "change_per_unit_ci_high_pct",
            ];
            header.extend(work.map(String::from));
        }
        if self.metric {
            header.push("metric".to_owned());
        }
        header
    }

    /// One benchmark's cells; `row`: its comparison row, when the run has a comparison.
    fn cells(&self, target: &str, b: &BenchRecord, row: Option<Option<&Row>>) -> Vec<String> {
        let u = self.unit;
        let mut cells = vec![target.to_owned(), b.id.clone()];
        cells.extend(times(b).iter().map(|ns| num(ns / u.ns())));
        let [bytes, items] = work_cells(b.throughput);
        cells.extend([
            b.samples.to_string(),
            b.set_aside.to_string(),
            b.outlier_mode.clone(),
            b.iters_per_sample.to_string(),
            bytes,
            items,
            b.near_floor.to_string(),
            b.stop.clone(),
        ]);
        for (h, _) in &self.counters {
            let c = b.counters.iter().find(|c| c.header() == *h);
            let beside = || b.metrics.get(h).and_then(|m| m.per_iter).map(num);
            cells.push(match c {
                Some(c) if c.kind == "time" => num(c.shown / u.ns()),
                Some(c) => num(c.shown),
                None => beside().unwrap_or_default(),
            });
        }
        if self.floor {
            cells.push(b.floor.map_or_else(String::new, |f| num(f / u.ns())));
        }
        if self.ratio {
            match &b.versus {
                Some(v) => cells.extend([
                    num(v.ratio),
                    num(v.ci[0]),
                    num(v.ci[1]),
                    v.significant.to_string(),
                ]),
                None => cells.extend([String::new(), String::new(), String::new(), String::new()]),
            }
            cells.push(b.is_baseline.to_string());
        }
        if self.runs {
            match &b.repeats {
                Some(r) => cells.extend([r.medians.len().to_string(), num(r.cv)]),
                None => cells.extend([String::new(), String::new()]),
            }
        }
        if self.next_run {
            match b.interval {
                Some(n) => cells.extend([
                    num(n.level),
                    n.earlier_runs.to_string(),
                    n.other_runs.to_string(),
                ]),
                None => cells.extend([String::new(), String::new(), String::new()]),
            }
        }
        if let Some(row) = row {
            cells.extend(comparison_cells(row, u));
            if self.layout_spread {
                let spread = row.and_then(|r| r.layout_spread);
                cells.push(spread.map(|s| num(s * 100.0)).unwrap_or_default());
            }
            if self.work {
                let work = row.and_then(|r| r.work_per_iter);
                cells.extend(work_cells(work.map(|[b, _]| b)));
                let per = row.and_then(Row::per_unit);
                let pct = |x: f64| num(x * 100.0);
                cells.extend(match per {
                    Some((c, ci)) => [pct(c), pct(ci[0]), pct(ci[1])],
                    None => [String::new(), String::new(), String::new()],
                });
            }
        }
        if self.metric {
            cells.push(b.metric.as_str().to_owned());
        }
        cells
    }
}

/// Declared work per iteration as the cells (bytes, items).
fn work_cells(t: Option<ThroughputRecord>) -> [String; 2] {
    match t {
        Some(ThroughputRecord::Bytes(n)) => [n.to_string(), String::new()],
        Some(ThroughputRecord::Items(n)) => [String::new(), n.to_string()],
        None => [String::new(), String::new()],
    }
}

fn times(b: &BenchRecord) -> [f64; 13] {
    let p = b.percentiles;
    [
        b.median,
        b.median_ci[0],
        b.median_ci[1],
        b.mean,
        b.stddev,
        b.mad,
        b.min,
        b.max,
        p.p5,
        p.p25,
        p.p75,
        p.p95,
        p.p99,
    ]
}

fn comparison_cells(row: Option<&Row>, u: TimeUnit) -> Vec<String> {
    let Some(r) = row else {
        // Not in the baseline: the comparison columns stay empty.
        return vec![String::new(); 8];
    };
    let pct = |x: f64| num(x * 100.0);
    vec![
        num(r.baseline / u.ns()),
        pct(r.change),
        pct(r.change_ci[0]),
        pct(r.change_ci[1]),
        r.p_adjusted.or(r.p_value).map(num).unwrap_or_default(),
        r.verdict.as_str().to_owned(),
        r.kind.as_str().to_owned(),
        r.inconclusive.clone().unwrap_or_default(),
    ]
}

/// A number as the shortest text that reads back to the same `f64`; empty for NaN or ∞.
fn num(x: f64) -> String {
    if x.is_finite() {
        x.to_string()
    } else {
        String::new()
    }
}

/// One record: fields quoted when they hold a comma, a quote or a line break.
fn line(cells: &[String]) -> String {
    let quoted: Vec<String> = cells
        .iter()
        .map(|c| {
            if c.contains([',', '"', '\r', '\n']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.clone()
            }
        })
        .collect();
    format!("{}\r\n", quoted.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_only_when_they_must_be() {
        let cells = ["plain", "a,b", "say \"hi\"", "two\nlines"].map(String::from);
        assert_eq!(
            line(&cells),
            "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n"
        );
        assert_eq!(num(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(num(f64::NAN), "");
    }
}
