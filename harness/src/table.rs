//! The human table `--bench` prints, one row per benchmark as it finishes.

use crate::engine::Stop;
use crate::format;
use crate::result::BenchResult;

/// The narrowest counter column (`123.4Mi`).
const COUNTER_WIDTH: usize = 7;
/// The ratio column (`0.620 [0.610, 0.630] *`).
const RATIO_WIDTH: usize = 22;

/// Column layout, sized once for the ids that will be shown.
pub struct Table {
    id_width: usize,
    unit: Option<format::TimeUnit>,
    /// Counter columns, by header; counters without a column go to the notes.
    counters: Vec<String>,
    /// Whether there is a column for ratios to group baselines.
    ratio: bool,
    /// The clock's resolution, ns: a fresh result's median below what it
    /// resolves per iteration reads as such ([`Figures::resolved`]).
    resolution: Option<f64>,
    /// The interval column's header.
    interval: &'static str,
}

impl Table {
    /// A table wide enough for every id in `ids`.
    pub fn new<'a>(ids: impl IntoIterator<Item = &'a str>) -> Table {
        let widest = (ids.into_iter())
            .map(|id| crate::format::width(&crate::format::one_line(id)))
            .max()
            .unwrap_or(0);
        let id_width = crate::format::id_column(widest);
        Table {
            id_width,
            unit: None,
            counters: Vec::new(),
            ratio: false,
            resolution: None,
            interval: "±CI",
        }
    }

    /// Heads the interval column with `header` (six characters at most)
    /// instead of `±CI`: `cargo nbench`'s intervals say where the next run lands.
    pub fn with_interval_header(mut self, header: &'static str) -> Table {
        self.interval = header;
        self
    }

    /// Gives each counter header a column of its own, after the harness's
    /// columns (a table printed row by row, before every counter is known,
    /// shows counters in the notes instead).
    pub fn with_counters(mut self, headers: Vec<String>) -> Table {
        self.counters = headers;
        self
    }

    /// Adds a `ratio` column: each group member's time relative to its
    /// group's baseline (else ratios go to the notes).
    pub fn with_ratio(mut self, ratio: bool) -> Table {
        self.ratio = ratio;
        self
    }

    /// The clock's resolution, ns, that fresh results' rows are read by.
    pub fn with_resolution(mut self, resolution: f64) -> Table {
        self.resolution = Some(resolution);
        self
    }

    /// Shows every time in `unit` (`None`: a unit per value).
    pub fn with_unit(mut self, unit: Option<format::TimeUnit>) -> Table {
        self.unit = unit;
        self
    }

    /// The header line.
    pub fn header(&self) -> String {
        self.line(
            "benchmark",
            [
                "median",
                self.interval,
                "throughput",
                "samples × iters",
                "set aside",
            ],
            &self.counters.iter().map(String::as_str).collect::<Vec<_>>(),
            "ratio",
            "notes",
        )
    }

    /// A measured benchmark's row.
    pub fn row(&self, r: &BenchResult) -> String {
        let f = Figures::of(r);
        self.figures_row(&match self.resolution {
            Some(resolution) => f.resolved(resolution),
            None => f,
        })
    }

    /// The row of a measured benchmark's figures (a fresh result's, or a stored one's).
    pub fn figures_row(&self, f: &Figures<'_>) -> String {
        let [lo, hi] = f.median_ci;
        let ci = crate::stats::Interval { lo, hi, level: 0.0 }.rel_half_width(f.median);
        // Six characters at most, so that the columns after it stay aligned.
        let ci = match ci * 100.0 {
            // Below what the clock resolves: no relative width to speak of.
            _ if f.floor.is_some() => "—".to_owned(),
            _ if a_point(f.samples, f.median_ci) => format::NOT_A_NUMBER.to_owned(),
            pct if pct.is_nan() => format::NOT_A_NUMBER.to_owned(),
            pct if !pct.is_finite() => "±∞".to_owned(),
            pct if pct >= 1000.0 => "±>999%".to_owned(),
            pct if pct >= 100.0 => format!("±{pct:.0}%"),
            pct if pct < 0.1 => format!("±{pct:.2}%"),
            pct => format!("±{pct:.1}%"),
        };
        let rate = f
            .throughput
            .map(|t| format::rate_at(t, f.median, f.floor))
            .unwrap_or_default();
        let samples = format!("{} × {}", f.samples, f.iters);
        let outliers = f.set_aside.to_string();
        let mut cells = vec![String::new(); self.counters.len()];
        let mut notes = Vec::new();
        for (header, value) in &f.counters {
            match self.counters.iter().position(|h| h == header) {
                Some(i) => cells[i] = value.clone(),
                None => notes.push(format!("{header} {value}")),
            }
        }
        if !self.ratio && !f.ratio.is_empty() {
            notes.push(format!("ratio {}", f.ratio));
        }
        if !f.metric.label().is_empty() {
            notes.push(f.metric.label().to_owned());
        }
        notes.extend(self::notes(f));
        self.line(
            f.id,
            [&f.median_text(self.unit), &ci, &rate, &samples, &outliers],
            &cells.iter().map(String::as_str).collect::<Vec<_>>(),
            &f.ratio,
            &notes.join(", "),
        )
    }

    /// A row for a benchmark that was not measured (failed, ignored).
    pub fn status_row(&self, id: &str, status: &str, detail: &str) -> String {
        let blank = vec![""; self.counters.len()];
        self.line(id, [status, "", "", "", ""], &blank, "", detail)
    }

    fn line(
        &self,
        id: &str,
        cols: [&str; 5],
        counters: &[&str],
        ratio: &str,
        notes: &str,
    ) -> String {
        let [median, ci, rate, samples, outliers] = cols;
        let w = self.id_width;
        let mut line = format!(
            "{}  {median:>10}  {ci:>6}  {rate:>14}  {samples:>17}  {outliers:>9}",
            crate::format::id_cell(id, w)
        );
        for (cell, header) in counters.iter().zip(&self.counters) {
            let w = header.chars().count().max(COUNTER_WIDTH);
            line.push_str(&format!("  {cell:>w$}"));
        }
        if self.ratio {
            line.push_str(&format!("  {ratio:>RATIO_WIDTH$}"));
        }
        line.push_str("  ");
        line.push_str(notes);
        line.trim_end().to_owned()
    }
}

/// What a measured benchmark's row shows: a fresh [`BenchResult`]'s
/// figures, or those a stored run kept of one.
#[derive(Debug, Clone)]
pub struct Figures<'a> {
    /// The benchmark's id.
    pub id: &'a str,
    /// What its values measure.
    pub metric: crate::metric::Metric,
    /// The value shown (its metric's amount per iteration: ns for times).
    pub median: f64,
    /// Its confidence interval, ns.
    pub median_ci: [f64; 2],
    /// Work per iteration, for the throughput column.
    pub throughput: Option<crate::Throughput>,
    /// Samples kept.
    pub samples: usize,
    /// Iterations per sample.
    pub iters: u64,
    /// Samples the summary set aside.
    pub set_aside: usize,
    /// Each counter's header and value as shown.
    pub counters: Vec<(String, String)>,
    /// The ratio to its group's baseline (`0.620 [0.610, 0.630] *`,
    /// `baseline`), or empty.
    pub ratio: String,
    /// Measured near the timer's floor.
    pub near_floor: bool,
    /// Pooled measurements: how many, and the cv of their medians.
    pub repeats: Option<(usize, f64)>,
    /// A time limit cut the measurements short: (taken, planned).
    pub cut_short: Option<(usize, usize)>,
    /// Why sampling stopped.
    pub stop: Stop,
    /// The first call's time, ns.
    pub cold: f64,
    /// What the clock resolves per iteration, where the median lies below
    /// it: the row reads `< FLOOR`, not a number the clock cannot tell.
    pub floor: Option<f64>,
}

impl Figures<'_> {
    /// A fresh result's figures.
    pub fn of(r: &BenchResult) -> Figures<'_> {
        let s = &r.summary;
        Figures {
            id: &r.id,
            metric: r.metric,
            median: s.median,
            median_ci: [s.median_ci.lo, s.median_ci.hi],
            throughput: r.throughput,
            samples: s.count,
            iters: r.iters,
            set_aside: s.set_aside,
            counters: r
                .counters
                .iter()
                .map(|c| (c.header(), c.format(s.median)))
                .collect(),
            ratio: crate::result::ratio_label(r.versus.as_ref(), r.is_baseline),
            near_floor: r.near_floor,
            repeats: r.repeats().map(|rep| (rep.count, rep.cv)),
            cut_short: r
                .cut_short
                .map(|planned| (r.repeat_medians.len().max(1), planned)),
            stop: r.stop,
            cold: r.cold,
            floor: None,
        }
    }

    /// These figures read by a clock of `resolution` ns: where the median
    /// lies below what it resolves per iteration (`resolution / iters`),
    /// that is the floor the row names.
    pub fn resolved(mut self, resolution: f64) -> Self {
        self.floor = floor(self.median, resolution, self.iters);
        self
    }

    /// The median as the table shows it: `< 0.460 ps` below the floor.
    pub fn median_text(&self, unit: Option<format::TimeUnit>) -> String {
        match self.floor {
            Some(floor) => format!("< {}", self.metric.format_in(floor, unit)),
            None => self.metric.format_in(self.median, unit),
        }
    }
}

/// Whether a median's interval from `samples` samples is a point, not an
/// interval: one sample (bnf's 11 s iteration filled its time limit).
pub fn a_point(samples: usize, [lo, hi]: [f64; 2]) -> bool {
    samples < 2 && lo == hi
}

/// What a clock of `resolution` ns resolves per iteration over `iters`
/// iterations, where `median` lies below it; `None` where it does not, or
/// the resolution is unknown.
pub fn floor(median: f64, resolution: f64, iters: u64) -> Option<f64> {
    let step = resolution / iters.max(1) as f64;
    (resolution > 0.0 && step.is_finite() && median < step).then_some(step)
}

/// Remarks worth a reader's attention.
pub(crate) fn notes(f: &Figures<'_>) -> Vec<String> {
    let mut notes = Vec::new();
    match f.floor {
        Some(_) => notes.push("below what the clock resolves".to_owned()),
        None if f.near_floor => notes.push("near the timer floor".to_owned()),
        None => {}
    }
    // Medians below the floor are the clock's steps, not the code's spread.
    if let (Some((count, cv)), None) = (f.repeats, f.floor) {
        notes.push(format!("{count} runs: cv {:.2}%", cv * 100.0));
    }
    if let Some((taken, planned)) = f.cut_short {
        notes.push(format!("time limit after {taken} of {planned} runs"));
    }
    match f.stop {
        Stop::TimeLimit => notes.push("time limit before precision target".to_owned()),
        Stop::TooFewSamples => notes.push(format!(
            "time limit after {} samples: fewer than asked for",
            f.samples + f.set_aside
        )),
        _ => {}
    }
    // A first call far slower than the rest points to lazy set-up worth knowing about.
    if f.cold >= 1_000.0 && f.cold >= 10.0 * f.median {
        notes.push(format!("first call {}", format::time(f.cold)));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bencher::LoopKind;
    use crate::engine::Measurement;

    #[test]
    fn wide_characters_and_ids_over_two_lines_keep_the_columns_aligned() {
        let ids = ["排序/10", "🚀/launch", "plain", "two\n  lines/1"];
        let t = Table::new(ids);
        let row = t.status_row(ids[3], "FAILED", "");
        assert!(
            row.starts_with("two\\n  lines/1  ") && !row.contains('\n'),
            "{row}"
        );
        let columns: Vec<usize> = ids
            .iter()
            .map(|id| {
                let line = t.status_row(id, "FAILED", "");
                crate::format::width(&line[..line.find("FAILED").unwrap()])
            })
            .collect();
        assert_eq!(columns, vec![columns[0]; 4], "{columns:?}");
        let header = t.header();
        let median = crate::format::width(&header[..header.find("median").unwrap()]);
        assert_eq!(median + "median".len(), columns[0] + "FAILED".len());
    }

    #[test]
    fn an_empty_body_reads_as_below_the_clock_not_as_infinite_spread() {
        let m = Measurement {
            iters: 63_297,
            per_iter: vec![0.35, 0.3501, 0.3499, 0.35, 0.3502],
            cold: 20.0,
            stop: Stop::Precise,
            sampling_ns: 1,
        };
        let none = crate::stats::OutlierMode::None;
        let r = BenchResult::new("empty".into(), m, LoopKind::Iter, 0.35, None, none).unwrap();
        let plain = Table::new(["empty"]).row(&r);
        assert!(
            plain.contains('∞'),
            "without the clock's resolution: {plain}"
        );
        let row = Table::new(["empty"]).with_resolution(29.0).row(&r);
        assert!(
            row.contains("< 0.458 ps") && row.contains("below what the clock resolves"),
            "{row}"
        );
        assert!(
            !row.contains('∞') && !row.contains("near the timer floor"),
            "{row}"
        );
        // Its throughput is a bound, not infinite.
        let mut r = r;
        r.throughput = Some(crate::Throughput::Items(1));
        let row = Table::new(["empty"]).with_resolution(29.0).row(&r);
        assert!(
            row.contains("> 2.183 Telem/s") && !row.contains('∞'),
            "{row}"
        );
        assert_eq!(floor(5.0, 29.0, 10), None);
        assert_eq!(floor(1.0, 29.0, 10), Some(2.9));
        assert_eq!(floor(1.0, 0.0, 10), None);
    }

    #[test]
    fn row_shows_every_column() {
        let m = Measurement {
            iters: 4096,
            per_iter: vec![10.0, 10.1, 9.9, 10.0, 10.0, 10.2, 9.8, 10.0, 10.0, 30.0],
            cold: 5_000.0,
            stop: Stop::TimeLimit,
            sampling_ns: 1,
        };
        let tp = Some(crate::Throughput::Items(16));
        let iqr = crate::stats::OutlierMode::Iqr;
        let r = BenchResult::new("sum/u64/16".into(), m, LoopKind::Custom, 0.0, tp, iqr).unwrap();
        let t = Table::new(["sum/u64/16"]);
        let row = t.row(&r);
        for part in [
            "sum/u64/16",
            "10.00 ns",
            "1.600 Gelem/s",
            // Quartiles 10 and 10.075: 9.8, 9.9 and 30 lie beyond the fences.
            "7 × 4096          3  ",
            "time limit",
            "first call 5.000 µs",
        ] {
            assert!(row.contains(part), "{part} missing in {row}");
        }
        // Right-aligned under its header.
        let end = |s: &str, part: &str| s.find(part).map(|i| i + part.len());
        assert_eq!(end(&t.header(), "median"), end(&row, "10.00 ns"));
    }

    #[test]
    fn a_wide_interval_keeps_the_columns_aligned() {
        let t = Table::new(["wide"]);
        let end = |s: &str, part: &str| s.find(part).map(|i| i + part.len());
        // Five samples: the median's interval is their whole range.
        let cases: [([f64; 5], &str); 3] = [
            ([10.0, 10.0, 10.0, 10.0, 10.1], "±0.5%"),
            ([1.0, 1.0, 2.0, 20.0, 20.0], "±475%"),
            ([1.0, 1.0, 1.0, 1000.0, 1000.0], "±>999%"),
        ];
        for (samples, shown) in cases {
            let m = Measurement {
                iters: 1,
                per_iter: samples.to_vec(),
                cold: 1.0,
                stop: Stop::Precise,
                sampling_ns: 1,
            };
            let none = crate::stats::OutlierMode::None;
            let r = BenchResult::new("wide".into(), m, LoopKind::Custom, 0.0, None, none).unwrap();
            let row = t.row(&r);
            assert!(row.contains(shown), "{row}");
            // The samples column ends under its header, whatever the interval's width.
            let samples = format!("{} × 1", r.summary.count);
            assert_eq!(
                end(&t.header(), "samples × iters"),
                end(&row, &samples),
                "{row}"
            );
        }
    }

    #[test]
    fn an_id_wider_than_the_column_takes_a_line_of_its_own() {
        // As half's `f16::from_f64/0.000…0` (363 characters).
        let long = format!("from_f64/0.{}", "0".repeat(300));
        let ids = ["short", long.as_str()];
        let t = Table::new(ids);
        let header = t.header();
        assert!(header.find("median").unwrap() < 80, "{header}");
        let row = t.status_row(&long, "FAILED", "");
        let (first, second) = row.split_once('\n').unwrap();
        assert_eq!(first, long);
        // The row goes on under the header's columns, as a short id's does.
        let short = t.status_row("short", "FAILED", "");
        assert_eq!(second.find("FAILED"), short.find("FAILED"), "{row}");
    }

    #[test]
    fn one_sample_shows_no_interval() {
        // bnf's `per_input_100`: one iteration of 11 s fills the time limit.
        let m = Measurement {
            iters: 1,
            per_iter: vec![14.62e9],
            cold: 14.62e9,
            stop: Stop::TimeLimit,
            sampling_ns: 1,
        };
        let none = crate::stats::OutlierMode::None;
        let r = BenchResult::new("slow".into(), m, LoopKind::Custom, 0.0, None, none).unwrap();
        let row = Table::new(["slow"]).row(&r);
        assert!(row.contains("14.62 s") && row.contains(" n/a "), "{row}");
        assert!(!row.contains("±0.00%"), "{row}");
    }

    #[test]
    fn counters_get_columns_when_known_and_notes_otherwise() {
        let m = Measurement {
            iters: 10,
            per_iter: vec![2.0, 2.0, 2.0],
            cold: 2.0,
            stop: Stop::Precise,
            sampling_ns: 1,
        };
        let none = crate::stats::OutlierMode::None;
        let mut r = BenchResult::new("c".into(), m, LoopKind::Custom, 0.0, None, none).unwrap();
        r.counters = vec![
            crate::Counter::rate("hits", 4.0),
            crate::Counter::value("depth", 12.0),
        ];
        let streamed = Table::new(["c"]).row(&r);
        assert!(streamed.ends_with("  hits/s 2.00G, depth 12"), "{streamed}");
        let t = Table::new(["c"]).with_counters(vec!["depth".into(), "hits/s".into()]);
        let (header, row) = (t.header(), t.row(&r));
        let end = |s: &str, part: &str| s.find(part).map(|i| i + part.len());
        assert_eq!(
            end(&header, "hits/s"),
            end(&row, "2.00G"),
            "{header}\n{row}"
        );
        assert_eq!(end(&header, "depth"), end(&row, "12"));
        assert!(header.ends_with("notes") && !row.contains("hits/s"));
        // A row without counters keeps the columns blank.
        assert!(t.status_row("x", "skipped", "why").ends_with("  why"));
    }
}
