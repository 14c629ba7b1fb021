//! Snapshots of every output format for one fixed run (insta; `INSTA_UPDATE=always cargo test` rewrites them).

use super::Format;
use super::render;
use crate::model::comparison::{Comparison, NotCompared, Row, TargetComparison, Verdict};
use crate::model::context::{Context, SettingsRecord};
use crate::model::outcome::{Failure, Measured, Outcome, TargetRun};
use crate::model::record::{RunRecord, SCHEMA_VERSION, TargetRecord};
use crate::model::work::ThroughputRecord;
use nbench::__private::LoopKind;
use nbench::__private::engine::{Measurement, Stop};
use nbench::__private::family::Scaling;
use nbench::__private::format::TimeUnit;
use nbench::__private::result::BenchResult;
use nbench::__private::stats::{Complexity, OutlierMode};
use nbench::Throughput;

fn measured(id: &str, median: f64, throughput: Option<Throughput>) -> Outcome {
    // Eleven samples spread ±2 % around the median, one slow outlier.
    let mut per_iter: Vec<f64> = (0..10)
        .map(|i| median * (0.98 + 0.004 * i as f64))
        .collect();
    per_iter.push(median * 1.5);
    let m = Measurement {
        iters: 64,
        per_iter,
        cold: median * 3.0,
        stop: Stop::Precise,
        sampling_ns: 1,
    };
    let result = BenchResult::new(
        id.into(),
        m,
        LoopKind::Iter,
        0.0,
        throughput,
        OutlierMode::None,
    )
    .unwrap();
    Outcome::Measured(Box::new(Measured::of(result, 0.5)))
}

fn runs() -> Vec<TargetRun> {
    let sizes = [100.0, 1000.0, 10_000.0];
    let sort = |n: f64| n * n.log2() * 1.5;
    let mut outcomes = vec![
        measured("parse, \"quoted\"", 812.5, Some(Throughput::Bytes(4096))),
        measured("hash/fnv", 2.25, Some(Throughput::Items(1))),
    ];
    if let Outcome::Measured(m) = &mut outcomes[0] {
        m.result.is_baseline = true;
    }
    if let Outcome::Measured(m) = &mut outcomes[1] {
        m.result.counters = vec![
            nbench::Counter::rate("probes", 1.5),
            nbench::Counter::value("table", 65536.0).binary(),
        ];
        // Pooled from three measurements, and compared with its group's baseline.
        m.result.repeat_medians = vec![2.24, 2.25, 2.27];
        m.result.versus = Some(nbench::__private::result::Versus {
            baseline: "parse, \"quoted\"".into(),
            ratio: 0.00277,
            ci: [0.00275, 0.00279],
        });
    }
    outcomes.extend(
        sizes
            .iter()
            .map(|&n| measured(&format!("sort/std/{n}"), sort(n), None)),
    );
    outcomes.push(Outcome::Failed(Failure {
        id: "panics".into(),
        reason: "panicked at benches/demo.rs:9:5: boom".into(),
        output: "thread 'main' panicked".into(),
    }));
    outcomes.push(Outcome::Ignored("slow".into()));
    outcomes.push(Outcome::Skipped {
        id: "simd".into(),
        reason: "no AVX2 on this CPU".into(),
    });
    vec![TargetRun {
        label: "demo/bench".into(),
        outcomes,
        filtered_out: 2,
        elsewhere: Vec::new(),
        scalings: sizes
            .iter()
            .map(|&n| {
                let family = "sort/std".to_owned();
                (
                    format!("sort/std/{n}"),
                    Scaling::new(family, n, Complexity::Auto),
                )
            })
            .collect(),
    }]
}

/// A run of `runs` on an example machine, with `comparison` if any.
pub(super) fn record(runs: &[TargetRun], comparison: Option<Comparison>) -> RunRecord {
    RunRecord {
        partition: None,
        schema: SCHEMA_VERSION,
        context: Context {
            date: "2026-11-22T12:00:00Z".into(),
            git_commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
            git_no_commits: false,
            git_dirty: Some(false),
            rustc: Some("rustc 1.95.0".into()),
            profile: "bench".into(),
            host: Some("x86_64-unknown-linux-gnu".into()),
            cpu_model: Some("Example CPU".into()),
            cores: 2,
            hostname: None,
            governor: None,
            turbo: Some(false),
            nbench_version: "0.1.0".into(),
            settings: SettingsRecord {
                warm_up_s: 0.1,
                min_time_s: 0.4,
                max_time_s: 0.8,
                precision: 0.01,
                min_samples: 10,
                max_samples: 100_000,
                timeout_s: 120.0,
                outliers: "none".into(),
                repetitions: 1,
                launches: 1,
                slices: 1,
                epochs: 1,
            },
            user: [("runner".to_owned(), "ci-large".to_owned())].into(),
            build: None,
        },
        duration_s: 12.5,
        targets: runs.iter().map(TargetRecord::from_run).collect(),
        skipped: vec![],
        comparison,
    }
}

fn comparison() -> Comparison {
    let row = |id: &str, base: f64, change: f64, verdict| Row {
        p_adjusted: Some(0.0004),
        ..Row::example(id, base, change, verdict)
    };
    // Placement moves this one more than the threshold: no verdict.
    let mut fnv = row("hash/fnv", 2.25, 0.01, Verdict::Inconclusive);
    fnv.change_ci = [-0.03, 0.05];
    fnv.p_adjusted = Some(0.62);
    fnv.layout_spread = Some(0.04);
    fnv.epochs = Some(8);
    fnv.inconclusive = Some(crate::compare::words::why_inconclusive(&fnv, 0.005));
    Comparison {
        baseline: "main".into(),
        noise_threshold: 0.005,
        warnings: vec![],
        notes: Vec::new(),
        targets: vec![TargetComparison {
            target: "demo/bench".into(),
            rows: vec![
                // Its input grew from 4000 to 4096 bytes: 2.4 % more work.
                row("parse, \"quoted\"", 780.0, 0.0417, Verdict::Regressed).with_work(
                    Some(ThroughputRecord::Bytes(4000)),
                    Some(ThroughputRecord::Bytes(4096)),
                ),
                fnv,
            ],
            new: vec!["sort/std/100".into()],
            gone: vec![],
            unpaired_because: None,
            layouts: None,
            not_compared: vec![NotCompared::unfound("format/2026-11-29 12:03:40", None)],
        }],
    }
}

fn snapshot(format: Format, unit: Option<TimeUnit>, with_comparison: bool) -> String {
    console::set_colors_enabled(false);
    let runs = runs();
    let rec = record(&runs, with_comparison.then(comparison));
    render(
        format,
        &rec,
        unit,
        Some(std::path::Path::new("target/nbench/runs/x.json")),
        super::Verbosity::Normal,
    )
}

#[test]
fn console() {
    insta::assert_snapshot!(snapshot(Format::Console, None, false));
}

#[test]
fn console_in_microseconds() {
    insta::assert_snapshot!(snapshot(Format::Console, Some(TimeUnit::Us), false));
}

#[test]
fn markdown() {
    insta::assert_snapshot!(snapshot(Format::Markdown, None, false));
}

#[test]
fn console_with_a_comparison() {
    insta::assert_snapshot!(snapshot(Format::Console, None, true));
}

#[test]
fn markdown_with_a_comparison() {
    insta::assert_snapshot!(snapshot(Format::Markdown, None, true));
}

#[test]
fn csv() {
    insta::assert_snapshot!(snapshot(Format::Csv, None, false));
}

#[test]
fn csv_with_a_comparison_in_microseconds() {
    insta::assert_snapshot!(snapshot(Format::Csv, Some(TimeUnit::Us), true));
}

#[test]
fn bencher() {
    insta::assert_snapshot!(snapshot(Format::Bencher, None, false));
}

#[test]
fn jsonl() {
    let text = snapshot(Format::Jsonl, None, true);
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        assert!(v["event"].is_string(), "{line}");
    }
    insta::assert_snapshot!(text);
}

#[test]
fn json() {
    let text = snapshot(Format::Json, None, false);
    let back: RunRecord = serde_json::from_str(&text).expect("the document reads back");
    assert_eq!(back.targets[0].benchmarks.len(), 5);
    insta::assert_snapshot!(text);
}

#[test]
fn a_comparison_in_json_carries_the_notes_beside_their_rows() {
    let text = snapshot(Format::Json, None, true);
    let back: RunRecord = serde_json::from_str(&text).expect("the document reads back");
    assert!(back.comparison.is_some());
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let rows = &json["comparison"]["targets"][0]["rows"];
    // The note the console prints under the table, on the row it is about.
    let parse = &rows[0]["notes"][0];
    assert!(
        parse
            .as_str()
            .unwrap_or_default()
            .starts_with("parse, \"quoted\" does 2.4% more work per iteration than the baseline"),
        "{rows}"
    );
    assert!(rows[1]["notes"].is_null(), "{rows}");
}

#[test]
fn values_of_another_metric_say_so_in_csv_and_plots() {
    let runs = runs();
    let mut rec = record(&runs, None);
    let wall = render(Format::Csv, &rec, None, None, super::Verbosity::Normal);
    assert!(!wall.lines().next().unwrap().contains("metric"), "{wall}");
    rec.targets[0].benchmarks[0].metric = nbench::__private::metric::Metric::CpuTime;
    let csv = render(Format::Csv, &rec, None, None, super::Verbosity::Normal);
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(",metric"), "{csv}");
    assert!(lines.next().unwrap().ends_with(",cpu_time"), "{csv}");
    assert!(lines.next().unwrap().ends_with(",wall_time"), "{csv}");
    let page = super::html::render(&rec, &[]);
    assert_eq!(page.matches("cpu time per iteration").count(), 1);
}

/// A metric beside time that no code names (bytes allocated, say, here a
/// dummy): put on an outcome, it reaches the record, the JSON, the CSV,
/// the console, Markdown and the HTML by its name, and reads back.
#[test]
fn a_metric_beside_time_reaches_every_format_by_its_name() {
    use crate::model::metric::Beside;
    console::set_colors_enabled(false);
    let mut runs = runs();
    if let Outcome::Measured(m) = &mut runs[0].outcomes[1] {
        let beside = Beside {
            per_iter: Some(48.0),
            overhead: 0.0,
            note: None,
            every_thread: false,
        };
        m.besides.insert("bytes_allocated".into(), beside);
    }
    let rec = record(&runs, None);
    let out = |f: Format| render(f, &rec, None, None, super::Verbosity::Normal);
    let json: serde_json::Value = serde_json::from_str(&out(Format::Json)).unwrap();
    let hash = &json["targets"][0]["benchmarks"][1];
    assert_eq!(
        hash["metrics"]["bytes_allocated"]["per_iter"], 48.0,
        "{hash}"
    );
    let back: RunRecord = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(
        back.targets[0].benchmarks[1].metrics,
        rec.targets[0].benchmarks[1].metrics
    );
    let csv = out(Format::Csv);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let column = header
        .iter()
        .position(|h| *h == "bytes_allocated")
        .expect("a column");
    let hash_line: Vec<&str> = csv
        .lines()
        .find(|l| l.contains("hash/fnv"))
        .unwrap()
        .split(',')
        .collect();
    assert_eq!(hash_line[column], "48", "{csv}");
    let console = out(Format::Console);
    assert!(console.contains("bytes_allocated"), "{console}");
    assert!(
        console
            .lines()
            .any(|l| l.starts_with("hash/fnv") && l.contains("48.00")),
        "{console}"
    );
    assert!(
        out(Format::Markdown).contains("| bytes_allocated |"),
        "{}",
        out(Format::Markdown)
    );
    assert!(super::html::render(&rec, &[]).contains("bytes_allocated"));
}

/// A plain run's interval says in every format that it is where the next
/// run lands, at what level, and from how many earlier runs.
#[test]
fn a_next_run_interval_is_named_as_one_in_every_format() {
    use crate::model::outcome::NextRun;
    console::set_colors_enabled(false);
    let mut runs = runs();
    for o in &mut runs[0].outcomes {
        if let Outcome::Measured(m) = o {
            m.result.repeat_medians = vec![2.25, 2.3, 2.4];
            m.next_run = Some(NextRun {
                level: 0.9,
                earlier_runs: 3,
                other_runs: 20,
            });
        }
    }
    let rec = record(&runs, None);
    let out = |f: Format| render(f, &rec, None, None, super::Verbosity::Normal);
    let said = "where the next run's median lands 90 % of the time, from 3 epochs and 3 earlier runs \
                of this build, and how 20 runs of other builds scattered";
    let console = out(Format::Console);
    assert!(
        console.contains("±next") && !console.contains("±CI"),
        "{console}"
    );
    assert!(console.contains(&format!("±next: {said}")), "{console}");
    let markdown = out(Format::Markdown);
    assert!(
        markdown.contains("| next run |") && markdown.contains(said),
        "{markdown}"
    );
    let json: serde_json::Value = serde_json::from_str(&out(Format::Json)).unwrap();
    let interval = &json["targets"][0]["benchmarks"][0]["interval"];
    assert_eq!(
        (
            interval["level"].as_f64(),
            interval["earlier_runs"].as_u64(),
            interval["other_runs"].as_u64()
        ),
        (Some(0.9), Some(3), Some(20))
    );
    let csv = out(Format::Csv);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let level = header
        .iter()
        .position(|h| *h == "next_run_level")
        .expect("a column");
    let column = |name: &str| header.iter().position(|h| *h == name).expect("a column");
    let fnv = csv.lines().find(|l| l.contains("hash/fnv")).unwrap();
    let row: Vec<&str> = fnv.split(',').collect();
    assert_eq!(
        (
            row[level],
            row[column("earlier_runs")],
            row[column("other_runs")]
        ),
        ("0.9", "3", "20"),
        "{csv}"
    );
    let html = super::html::render(&rec, &[]);
    assert!(html.contains(&super::html::escape(said)) && html.contains("next run, 90 %"));
}

/// A comparison row with counts shows them, and which signal decided, on its HTML card.
#[test]
fn the_html_card_of_a_counted_row_names_its_instructions() {
    use crate::model::comparison::{CountChange, Signal};
    let runs = runs();
    let mut c = comparison();
    let row = &mut c.targets[0].rows[0];
    row.instructions = Some(CountChange::example(0.01, 0.0));
    row.decided_by = Some(Signal::Instructions);
    let rec = record(&runs, Some(c));
    let page = super::html::render(&rec, &[]);
    assert!(
        page.contains("instructions +1.00% (decided by them)"),
        "{page}"
    );
}

/// An empty body's median, below what the clock resolves per iteration,
/// reads as such in every format: no `±∞`, no cv in the hundreds.
#[test]
fn a_median_below_the_clock_reads_as_such_in_every_format() {
    console::set_colors_enabled(false);
    let runs = runs();
    let mut rec = record(&runs, None);
    let b = &mut rec.targets[0].benchmarks[1];
    (b.median, b.median_ci, b.floor) = (1e-4, [0.0, 0.5], Some(0.46e-3));
    if let Some(r) = b.repeats.as_mut() {
        r.cv = 2.8;
    }
    let out = |f: Format| render(f, &rec, None, None, super::Verbosity::Normal);
    let console = out(Format::Console);
    let row = console.lines().find(|l| l.starts_with("hash/fnv")).unwrap();
    assert!(
        row.contains("< 0.460 ps") && row.contains("below what the clock resolves"),
        "{row}"
    );
    assert!(!row.contains('∞') && !row.contains("cv 280"), "{row}");
    // Its throughput: at least what one clock step an iteration makes.
    assert!(row.contains("> 2.174 Telem/s"), "{row}");
    let md = out(Format::Markdown);
    assert!(
        md.lines()
            .any(|l| l.starts_with("| `hash/fnv` | < 0.460 ps | — |")),
        "{md}"
    );
    let csv = out(Format::Csv);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let at = header
        .iter()
        .position(|h| *h == "floor_ns")
        .expect("a floor column");
    let line: Vec<&str> = csv
        .lines()
        .find(|l| l.contains("hash/fnv"))
        .unwrap()
        .split(',')
        .collect();
    assert_eq!(line[at], "0.00046", "{csv}");
    let json: serde_json::Value = serde_json::from_str(&out(Format::Json)).unwrap();
    assert_eq!(json["targets"][0]["benchmarks"][1]["floor_ns"], 0.00046);
    let page = super::html::render(&rec, &[]);
    assert!(page.contains("&lt; 0.460 ps (below what the clock resolves)"));
}

/// The page's words, with each plot as `[kind plot]`: what a reader sees, without coordinates.
fn page_text(html: &str) -> String {
    let body = html.split_once("<body>").map_or(html, |(_, b)| b);
    let mut out = String::new();
    let mut rest = body;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find('>')
            .map_or(rest.len(), |e| start + e + 1);
        let tag = &rest[start..end];
        if tag.starts_with("<svg") {
            let kind = tag
                .split("data-kind=\"")
                .nth(1)
                .and_then(|k| k.split('"').next());
            out.push_str(&format!("[{} plot]\n", kind.unwrap_or("?")));
            rest = rest[end..].split_once("</svg>").map_or("", |(_, r)| r);
            continue;
        }
        if [
            "</h1",
            "</h2",
            "</h3",
            "</h4",
            "</p",
            "</summary",
            "</dd",
            "</article",
        ]
        .iter()
        .any(|t| tag.starts_with(t))
        {
            out.push('\n');
        } else if tag.starts_with("</dt") {
            out.push_str(": ");
        }
        rest = &rest[end..];
    }
    out.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn html() {
    let runs = runs();
    let mut cmp = comparison();
    for row in &mut cmp.targets[0].rows {
        row.baseline_per_iter = vec![row.baseline * 0.99, row.baseline, row.baseline * 1.02];
    }
    let mut rec = record(&runs, Some(cmp));
    rec.skipped.push(crate::model::record::SkippedRecord {
        target: "demo/criterion".into(),
        reason: "its executable does not link the nbench harness".into(),
    });
    // Two stored runs: this one twice, as the history reads them.
    let stored = serde_json::to_string(&rec).unwrap();
    let past: Vec<crate::report::html::history::PastRun> =
        vec![serde_json::from_str(&stored).unwrap(); 2];
    let page = crate::report::html::render(&rec, &past);
    assert!(
        page.contains("parse, &quot;quoted&quot;"),
        "ids are escaped"
    );
    assert!(!page.contains("NaN") && !page.contains("<script"));
    insta::assert_snapshot!(page_text(&page));
}
