//! The run as GitHub-flavoured Markdown: for a PR comment or `$GITHUB_STEP_SUMMARY`.

use super::cells::{counter_headers, interval_header, interval_note};
use crate::compare::words::percent_change as pct;
use crate::model::comparison::Comparison;
use crate::model::comparison::{Kind, Row, Verdict};
use crate::model::record::RunRecord;
use std::fmt::Write;

/// The whole report: the comparison when there is one, otherwise the results.
pub fn render(run: &RunRecord) -> String {
    let mut out = String::new();
    match &run.comparison {
        Some(c) => comparison(&mut out, c, &super::current_time(run)),
        None => results(&mut out, run),
    }
    let failures: Vec<String> = run
        .targets
        .iter()
        .flat_map(|t| {
            t.failures.iter().map(move |f| match f.id.as_str() {
                "" => format!("- `{}`: {}", t.target, f.reason),
                id => format!("- `{}` `{}`: {}", t.target, id_cell(id), f.reason),
            })
        })
        .collect();
    if !failures.is_empty() {
        let _ = writeln!(out, "**Failed**\n\n{}\n", failures.join("\n"));
    }
    let skipped: Vec<String> = run
        .targets
        .iter()
        .flat_map(|t| {
            let target = cell(&t.target);
            t.skipped
                .iter()
                .map(move |s| format!("- `{target}` `{}`: {}", id_cell(&s.id), cell(&s.reason)))
        })
        .collect();
    if !skipped.is_empty() {
        let _ = writeln!(out, "**Skipped**\n\n{}\n", skipped.join("\n"));
    }
    out
}

/// Escapes what would break a table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// A benchmark's id, or a sentence that names some, in a cell: on one
/// line, as the console shows ids.
fn id_cell(id: &str) -> String {
    cell(&nbench::__private::format::one_line(id))
}

fn results(out: &mut String, run: &RunRecord) {
    let _ = writeln!(out, "### nbench results\n");
    for t in run.targets.iter().filter(|t| !t.benchmarks.is_empty()) {
        let _ = writeln!(out, "**{}**\n", cell(&t.target));
        // Optional columns, as the console has them: throughput, counters, the ratio to a group baseline, pooled runs.
        let throughput = t.benchmarks.iter().any(|b| b.throughput.is_some());
        let headers = counter_headers(&t.benchmarks);
        let ratio = t.benchmarks.iter().any(|b| b.in_ratio_group());
        let runs = t.benchmarks.iter().any(|b| b.repeats.is_some());
        let mut extra: Vec<String> = throughput
            .then(|| "throughput".to_owned())
            .into_iter()
            .collect();
        extra.extend(headers.iter().map(|h| cell(h)));
        extra.extend(ratio.then(|| "ratio to baseline".to_owned()));
        extra.extend(runs.then(|| "runs".to_owned()));
        let interval = match interval_header(&t.benchmarks) {
            "±CI" => "95% CI",
            _ => "next run",
        };
        let _ = writeln!(
            out,
            "| benchmark | median | {interval} | mean | std dev | samples | set aside |{}\n|:--|--:|--:|--:|--:|--:|--:|{}",
            extra.iter().map(|h| format!(" {h} |")).collect::<String>(),
            "--:|".repeat(extra.len())
        );
        for b in &t.benchmarks {
            let mut cells: Vec<String> = throughput
                .then(|| b.throughput_text())
                .into_iter()
                .collect();
            cells.extend(headers.iter().map(|h| b.counter_text(h)));
            if ratio {
                cells.push(b.ratio_label());
            }
            if let Some(r) = runs.then_some(b.repeats.as_ref()) {
                cells.push(r.map_or_else(String::new, |r| {
                    format!("{} (cv {:.2}%)", r.medians.len(), r.cv * 100.0)
                }));
            }
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {} | {} | {} ({}) |{}",
                id_cell(&b.id),
                b.figures().median_text(None),
                b.ci_text(),
                b.metric.format(b.mean),
                b.metric.format(b.stddev),
                b.samples,
                b.set_aside,
                b.outlier_mode,
                cells
                    .iter()
                    .map(|c| format!(" {} |", cell(c)))
                    .collect::<String>()
            );
        }
        if let Some(note) = interval_note(&t.benchmarks) {
            let _ = writeln!(out, "\n{note}");
        }
        if !t.fits.is_empty() {
            let _ = writeln!(
                out,
                "\n| family | complexity | coefficient | RMS |\n|:--|:--|--:|--:|"
            );
            for f in &t.fits {
                let _ = writeln!(
                    out,
                    "| `{}` | O({}) | {} | {:.1}% |",
                    cell(&f.family),
                    cell(&f.complexity),
                    f.metric.format(f.coefficient),
                    f.rms * 100.0
                );
            }
        }
        out.push('\n');
    }
}

/// The paragraphs under a target's table: each row's notes at noise
/// threshold `threshold` ([`crate::compare::words::row_notes`]), then why each inconclusive row is so; ids in
/// backticks, as in the table.
fn notes(out: &mut String, rows: &[Row], threshold: f64) {
    for note in crate::compare::words::row_notes(rows, threshold) {
        let _ = match &note.id {
            // Its text may name other rows: their ids as the table shows them.
            Some(id) => writeln!(out, "`{}`{}\n", id_cell(id), id_cell(&note.text)),
            None => writeln!(out, "{}\n", id_cell(&note.text)),
        };
    }
    for r in rows {
        if let Some(why) = &r.inconclusive {
            let _ = writeln!(
                out,
                "`{}` is inconclusive: {}\n",
                id_cell(&r.id),
                id_cell(why)
            );
        }
    }
}

pub(super) fn comparison(out: &mut String, c: &Comparison, current: super::CurrentTime) {
    let _ = writeln!(out, "### nbench: compared with `{}`\n", cell(&c.baseline));
    for w in &c.warnings {
        let _ = writeln!(out, "> [!WARNING]\n> {}\n", cell(w));
    }
    for n in &c.notes {
        let _ = writeln!(out, "> [!NOTE]\n> {}\n", cell(n));
    }
    for t in &c.targets {
        if t.rows.is_empty() && t.new.is_empty() && t.gone.is_empty() && t.not_compared.is_empty() {
            continue;
        }
        let _ = writeln!(out, "**{}**\n", cell(&t.target));
        if let Some(why) = &t.unpaired_because {
            let _ = writeln!(
                out,
                "Compared with stored samples (less certain): {}\n",
                cell(why)
            );
        }
        // Where instructions were counted, their change beside time's.
        let counted = t.rows.iter().any(|r| r.instructions.is_some());
        let (head, align, blank) = match counted {
            true => (" instructions |", "--:|", " |"),
            false => ("", "", ""),
        };
        let _ = writeln!(
            out,
            "| benchmark | baseline | current | change | 95% CI | p (BH) |{head} verdict |\n|:--|--:|--:|--:|--:|--:|{align}:--|"
        );
        for r in &t.rows {
            let _ = writeln!(out, "{}", row_line(r, c.noise_threshold, counted));
        }
        for n in &t.not_compared {
            let what = format!("not compared: {}", cell(&n.reason));
            let _ = writeln!(out, "| `{}` | | | | | |{blank} {what} |", id_cell(&n.id));
        }
        for id in &t.new {
            let now = current(&t.target, id).unwrap_or_default();
            let _ = writeln!(out, "| `{}` | | {now} | | | |{blank} new |", cell(id));
        }
        for id in &t.gone {
            let _ = writeln!(out, "| `{}` | | | | | |{blank} gone |", cell(id));
        }
        out.push('\n');
        notes(out, &t.rows, c.noise_threshold);
    }
    if super::any_paired(c) {
        let _ = writeln!(out, "_{}_\n", super::PAIRED_COLUMNS);
    }
    let _ = writeln!(
        out,
        "{} (noise threshold {:.1}%)\n",
        c.counts().sentence(),
        c.noise_threshold * 100.0
    );
}

/// One row of a target's comparison table at the run's noise `threshold`,
/// with the instructions' change where the table has that column (`counted`).
fn row_line(r: &Row, threshold: f64, counted: bool) -> String {
    let instructions = match (counted, &r.instructions) {
        (false, _) => String::new(),
        (true, Some(c)) if c.note.is_none() => format!(" {} |", pct(c.change)),
        (true, _) => " — |".to_owned(),
    };
    let by = match r.decided_by {
        Some(crate::model::comparison::Signal::Instructions) => " (by instructions)",
        _ => "",
    };
    let verdict = match (r.verdict, r.kind) {
        (Verdict::Regressed, Kind::Paired) => "🔴 **regressed**",
        (Verdict::Improved, Kind::Paired) => "🟢 **improved**",
        (Verdict::Regressed, Kind::Stored) => "🔴 regressed? (stored)",
        (Verdict::Improved, Kind::Stored) => "🟢 improved? (stored)",
        (Verdict::Unchanged, Kind::Paired) => "unchanged",
        (Verdict::Unchanged, Kind::Stored) => "unchanged (stored)",
        (Verdict::Inconclusive, _) => "⚪ inconclusive",
    };
    let p = (r.p_adjusted.or(r.p_value)).map_or(String::new(), super::p_value);
    let shown = super::compared::shown(r, threshold);
    let (change, ci) = shown.change_cells(|low, high| format!("{low} … {high}"));
    format!(
        "| `{}` | {} | {} | {change} | {ci} | {p} |{instructions} {verdict}{by} |",
        id_cell(&r.id),
        shown.baseline,
        shown.current,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::comparison::{Row, TargetComparison};

    fn row(id: &str, kind: Kind, verdict: Verdict, change: f64, p: Option<f64>) -> Row {
        Row {
            kind,
            change_ci: [change - 0.001, change + 0.001],
            p_value: p,
            ..Row::example(id, 1000.0, change, verdict)
        }
    }

    #[test]
    fn a_comparison_as_github_tables() {
        let c = Comparison {
            baseline: "main".into(),
            noise_threshold: 0.005,
            warnings: vec!["the baseline was made with another host: a|b (now c)".into()],
            notes: Vec::new(),
            targets: vec![TargetComparison {
                target: "pkg/bench".into(),
                rows: vec![
                    row(
                        "sort/1000",
                        Kind::Paired,
                        Verdict::Regressed,
                        0.052,
                        Some(1e-5),
                    ),
                    row(
                        "hash",
                        Kind::Paired,
                        Verdict::Unchanged,
                        -0.00001,
                        Some(0.9),
                    ),
                ],
                new: vec!["fresh".into()],
                gone: vec!["old".into()],
                unpaired_because: None,
                layouts: None,
                not_compared: Vec::new(),
            }],
        };
        let mut out = String::new();
        // A new row shows the time it took in this run.
        let now = |target: &str, id: &str| {
            (target == "pkg/bench" && id == "fresh").then(|| "3.000 µs".to_owned())
        };
        comparison(&mut out, &c, &now);
        let expected = "\
### nbench: compared with `main`

> [!WARNING]
> the baseline was made with another host: a\\|b (now c)

**pkg/bench**

| benchmark | baseline | current | change | 95% CI | p (BH) | verdict |
|:--|--:|--:|--:|--:|--:|:--|
| `sort/1000` | 1.000 µs | 1.052 µs | +5.20% | +5.10% … +5.30% | <0.001 | 🔴 **regressed** |
| `hash` | 1.000 µs | 1.000 µs | +0.00% | -0.10% … +0.10% | 0.900 | unchanged |
| `fresh` | | 3.000 µs | | | | new |
| `old` | | | | | | gone |

_paired rows: baseline is the baseline's fastest epoch (its median) in this run, current is baseline × (1 + change)_

1 regressed, 0 improved, 1 unchanged (noise threshold 0.5%)

";
        assert_eq!(out, expected);
    }

    #[test]
    fn notes_show_ids_as_the_table_does() {
        let mut spread = row(
            "vec_push/1000",
            Kind::Paired,
            Verdict::Unchanged,
            0.0,
            Some(0.5),
        );
        spread.layout_spread = Some(0.044);
        let mut unsure = row(
            "sort/2000",
            Kind::Paired,
            Verdict::Inconclusive,
            0.0,
            Some(0.5),
        );
        unsure.inconclusive = Some("the change lies somewhere in -0.9% … +1.1%".into());
        let c = Comparison {
            baseline: "b".into(),
            noise_threshold: 0.005,
            warnings: vec![],
            notes: Vec::new(),
            targets: vec![TargetComparison {
                target: "p/t".into(),
                rows: vec![spread, unsure],
                new: vec![],
                gone: vec![],
                unpaired_because: None,
                layouts: None,
                not_compared: Vec::new(),
            }],
        };
        let mut out = String::new();
        comparison(&mut out, &c, &|_, _| None);
        assert!(
            out.contains("\n`vec_push/1000` moves ±4.4% between fresh processes"),
            "{out}"
        );
        assert!(
            out.contains("\n`sort/2000` is inconclusive: the change lies somewhere in"),
            "{out}"
        );
    }

    #[test]
    fn stored_rows_say_so() {
        let c = Comparison {
            baseline: "b".into(),
            noise_threshold: 0.01,
            warnings: vec![],
            notes: Vec::new(),
            targets: vec![TargetComparison {
                target: "p/t".into(),
                rows: vec![row("x", Kind::Stored, Verdict::Improved, -0.2, Some(0.01))],
                new: vec![],
                gone: vec![],
                unpaired_because: Some("--compare-stored".into()),
                layouts: None,
                not_compared: Vec::new(),
            }],
        };
        let mut out = String::new();
        comparison(&mut out, &c, &|_, _| None);
        assert!(out.contains("Compared with stored samples (less certain): --compare-stored"));
        assert!(out.contains("| `x` | 1.000 µs | 800.0 ns | -20.00% | -20.10% … -19.90% | 0.010 | 🟢 improved? (stored) |"), "{out}");
    }
}
