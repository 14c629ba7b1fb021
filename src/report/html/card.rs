//! One benchmark's card: its numbers, counters, ratio to its group's
//! baseline, pooled runs, the distribution of its samples and its history.

use super::history::{self, PastRun};
use super::{escape, plots, strips};
use crate::model::record::BenchRecord;
use nbench::__private::format::one_line;
use std::fmt::Write;

/// The card of `target`'s benchmark `b`, with its history across `past`.
pub fn bench(target: &str, b: &BenchRecord, past: &[PastRun]) -> String {
    let set_aside = match b.set_aside {
        0 => String::new(),
        k => format!(", {k} set aside ({})", escape(&b.outlier_mode)),
    };
    let throughput = match b.throughput_text() {
        t if t.is_empty() => t,
        t => format!(" · {t}"),
    };
    let mut s = format!(
        "<article class=\"card\" id=\"{}\"><h4>{}</h4><p>median {} · mean {} · {} samples{set_aside}{throughput}</p>",
        escape(&format!("{target}::{}", b.id)),
        escape(&one_line(&b.id)),
        escape(&match b.floor {
            Some(_) => format!(
                "{} (below what the clock resolves)",
                b.figures().median_text(None)
            ),
            None => format!(
                "{} [{}{}]",
                b.metric.format(b.median),
                b.interval.map_or_else(String::new, |n| format!(
                    "next run, {:.0} %: ",
                    n.level * 100.0
                )),
                b.ci_text().replace(" … ", ", ")
            ),
        }),
        b.metric.format(b.mean),
        b.samples,
    );
    s += &counters(b);
    s += &ratio(b);
    s += &runs(b);
    let what = b.interval_words();
    s += &plots::distribution(&b.per_iter, b.median, (b.median_ci, &what), b.metric);
    let series = history::series(past, target, &b.id);
    if series.len() >= 2 {
        let _ = write!(
            s,
            "<details open><summary>history ({} runs)</summary>{}</details>",
            series.len(),
            plots::history(&series, b.metric)
        );
    }
    s + "</article>"
}

/// Its counters as the console's columns show them, header then value.
fn counters(b: &BenchRecord) -> String {
    if b.counters.is_empty() && b.metrics.is_empty() {
        return String::new();
    }
    let mut s = String::from("<dl class=\"counters\">");
    let headers = crate::report::cells::counter_headers([b]);
    for h in headers {
        let _ = write!(
            s,
            "<div><dt>{}</dt><dd>{}</dd></div>",
            escape(&h),
            escape(&b.counter_text(&h))
        );
    }
    s + "</dl>"
}

/// Its time relative to its group's baseline, measured interleaved with it.
fn ratio(b: &BenchRecord) -> String {
    if b.is_baseline {
        return "<p class=\"ratio\">the baseline of its group: the other members' ratios are to it</p>".to_owned();
    }
    let Some(v) = &b.versus else {
        return String::new();
    };
    let verdict = if v.significant {
        "the CI leaves out 1"
    } else {
        "the CI holds 1: no difference shown"
    };
    format!(
        "<p class=\"ratio\">ratio to <code>{}</code>: {} ({verdict})</p>{}",
        escape(&v.baseline),
        escape(&b.ratio_label()),
        strips::ratio(v.ratio, v.ci)
    )
}

/// The measurements it pools (`--repetitions`, `--launches`, `--interleave`).
fn runs(b: &BenchRecord) -> String {
    let Some(r) = &b.repeats else {
        return String::new();
    };
    format!(
        "<p class=\"runs\">{} runs pooled: their medians have mean {}, median {}, std dev {}, cv {:.2}%</p>{}",
        r.medians.len(),
        b.metric.format(r.mean),
        b.metric.format(r.median),
        b.metric.format(r.stddev),
        r.cv * 100.0,
        strips::runs(&r.medians, b.median, b.metric)
    )
}
