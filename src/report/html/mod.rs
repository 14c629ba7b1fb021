//! The HTML report, `target/nbench/report/index.html`: one self-contained
//! page of inline SVG plots (no script, no network) for a run and its history.

mod card;
pub mod history;
mod plots;
mod strips;
mod svg;

use crate::compare::words::percent_change;
use crate::model::comparison::{Comparison, Row};
use crate::model::record::{RunRecord, TargetRecord};
use crate::report::p_value;
use history::PastRun;
use nbench::__private::format::one_line;
use std::fmt::Write;

const STYLE: &str = include_str!("style.css");

/// `text` safe inside HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page for `run`, with each of its benchmarks' history across `past`
/// (stored runs, oldest first, normally including `run` itself).
pub fn render(run: &RunRecord, past: &[PastRun]) -> String {
    let mut body = header(run);
    if let Some(c) = &run.comparison {
        body += &comparison(run, c);
    }
    for t in &run.targets {
        body += &target(t, past);
    }
    if run.targets.iter().all(|t| t.benchmarks.is_empty()) {
        body += "<p class=\"empty\">No benchmark was measured in this run.</p>";
    }
    for sk in &run.skipped {
        let _ = write!(
            body,
            "<p class=\"note\">Bench target <code>{}</code> skipped: {}</p>",
            escape(&sk.target),
            escape(&sk.reason)
        );
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>cargo nbench report, {}</title><style>{STYLE}</style></head>\
         <body>{body}</body></html>\n",
        escape(&run.context.date)
    )
}

fn header(run: &RunRecord) -> String {
    let c = &run.context;
    let commit = c
        .commit_label()
        .unwrap_or_else(|| run.context.no_commit_label());
    let facts = [
        ("date", c.date.clone()),
        ("commit", commit),
        (
            "CPU",
            c.cpu_model.clone().unwrap_or_else(|| "unknown".into()),
        ),
        ("cores", c.cores.to_string()),
        (
            "governor",
            c.governor.clone().unwrap_or_else(|| "unknown".into()),
        ),
        ("turbo", c.turbo_label().to_owned()),
        ("rustc", c.rustc.clone().unwrap_or_else(|| "unknown".into())),
        ("profile", c.profile.clone()),
        ("nbench", c.nbench_version.clone()),
    ];
    let mut s = String::from("<header><h1>cargo nbench report</h1><dl class=\"context\">");
    let user = c.user.iter().map(|(k, v)| (k.as_str(), v.clone()));
    for (k, v) in facts.into_iter().chain(user) {
        let _ = write!(
            s,
            "<div><dt>{}</dt><dd>{}</dd></div>",
            escape(k),
            escape(&v)
        );
    }
    s += "</dl>";
    for w in c.warnings() {
        let _ = write!(s, "<p class=\"warning\">{}</p>", escape(&w));
    }
    s + "</header>"
}

fn comparison(run: &RunRecord, c: &Comparison) -> String {
    let mut s = format!(
        "<section class=\"comparison\"><h2>Compared with baseline <code>{}</code></h2>\
         <p class=\"note\">Changes within ±{}% count as unchanged; p-values are adjusted over all rows (Benjamini–Hochberg).</p>",
        escape(&c.baseline),
        c.noise_threshold * 100.0
    );
    for w in &c.warnings {
        let _ = write!(s, "<p class=\"warning\">{}</p>", escape(w));
    }
    for n in &c.notes {
        let _ = write!(s, "<p class=\"note\">{}</p>", escape(n));
    }
    for t in &c.targets {
        let _ = write!(s, "<h3>{}</h3>", escape(&t.target));
        if let Some(why) = &t.unpaired_because {
            let _ = write!(
                s,
                "<p class=\"note\">Against stored samples: {}</p>",
                escape(why)
            );
        }
        let current = run.targets.iter().find(|r| r.target == t.target);
        s += "<div class=\"grid\">";
        for row in &t.rows {
            s += &compared_row(row, current, c.noise_threshold);
        }
        s += "</div>";
        for note in crate::compare::words::row_notes(&t.rows, c.noise_threshold) {
            let _ = write!(s, "<p class=\"note\">{}</p>", escape(&note.to_string()));
        }
        for n in &t.not_compared {
            let what = format!("{}: not compared: {}", one_line(&n.id), n.reason);
            let _ = write!(s, "<p class=\"note\">{}</p>", escape(&what));
        }
        for (ids, what) in [
            (&t.new, "new, not in the baseline"),
            (&t.gone, "in the baseline only"),
        ] {
            if !ids.is_empty() {
                let list: Vec<String> = ids.iter().map(|i| escape(i)).collect();
                let _ = write!(s, "<p class=\"note\">{what}: {}</p>", list.join(", "));
            }
        }
    }
    s + "</section>"
}

fn compared_row(row: &Row, current: Option<&TargetRecord>, threshold: f64) -> String {
    let cur = current
        .and_then(|t| t.benchmarks.iter().find(|b| b.id == row.id))
        .map(|b| b.per_iter.as_slice())
        .unwrap_or_default();
    let verdict = row.verdict.as_str();
    // Where instructions were counted: their change, and which signal decided.
    let counted = match (&row.instructions, row.decided_by) {
        (Some(c), by) if c.note.is_none() => format!(
            " · instructions {}{}",
            percent_change(c.change),
            match by {
                Some(crate::model::comparison::Signal::Instructions) => " (decided by them)",
                _ => "",
            }
        ),
        _ => String::new(),
    };
    let shown = crate::report::compared::shown(row, threshold);
    // A row below the smallest change that counts has no change to draw.
    let (change, strip) = match &shown.change {
        Some((change, low, high)) => (
            format!("{change} [{low}, {high}] · "),
            strips::change(row.change, row.change_ci, threshold),
        ),
        None => (String::new(), String::new()),
    };
    format!(
        "<article class=\"card {verdict}\"><h4>{}</h4><p><span class=\"verdict\">{verdict}</span> \
         {change}{} → {} · p (BH) {}{counted}</p>{}{strip}{}</article>",
        escape(&one_line(&row.id)),
        escape(&shown.baseline),
        escape(&shown.current),
        escape(&row.p_adjusted.or(row.p_value).map_or("n/a".into(), p_value)),
        row.inconclusive
            .as_ref()
            .map_or(String::new(), |why| format!(
                "<p class=\"note\">inconclusive: {}</p>",
                escape(why)
            )),
        plots::compared(&row.baseline_per_iter, cur, row.metric),
    )
}

fn target(t: &TargetRecord, past: &[PastRun]) -> String {
    let mut s = format!("<section class=\"target\"><h2>{}</h2>", escape(&t.target));
    for f in &t.failures {
        let id = if f.id.is_empty() {
            "the bench target".into()
        } else {
            one_line(&f.id)
        };
        let _ = write!(
            s,
            "<p class=\"failure\">{} failed: {}</p>",
            escape(&id),
            escape(&f.reason)
        );
    }
    for sk in &t.skipped {
        let _ = write!(
            s,
            "<p class=\"note\">{} skipped: {}</p>",
            escape(&one_line(&sk.id)),
            escape(&sk.reason)
        );
    }
    if !t.ignored.is_empty() {
        let list: Vec<String> = t.ignored.iter().map(|i| escape(i)).collect();
        let _ = write!(s, "<p class=\"note\">ignored: {}</p>", list.join(", "));
    }
    if !t.fits.is_empty() {
        s += "<h3>Scaling</h3><div class=\"grid\">";
        for f in &t.fits {
            let _ = write!(
                s,
                "<article class=\"card\"><h4>{}</h4><p>O({}), RMS {:.1}%</p>{}</article>",
                escape(&f.family),
                escape(&f.complexity),
                f.rms * 100.0,
                plots::family(f)
            );
        }
        s += "</div>";
    }
    s += "<div class=\"grid\">";
    for b in &t.benchmarks {
        s += &card::bench(&t.target, b, past);
    }
    s + "</div></section>"
}
