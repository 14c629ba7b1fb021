//! The comparison table: baseline, current, change with its CI, verdict, and how it was measured.

use crate::compare::words::percent_change as pct;
use crate::model::comparison::{Comparison, Kind, Row, TargetComparison, Verdict};
use console::style;
use nbench::__private::format;
use std::fmt::Write;

/// The comparison as text; `current` gives the time a new row shows.
pub fn render(c: &Comparison, current: super::CurrentTime) -> String {
    let mut out = String::new();
    for w in &c.warnings {
        let _ = writeln!(out, "{}: {w}", style("warning").yellow().bold());
    }
    for n in &c.notes {
        let _ = writeln!(out, "{} {n}", style("note:").cyan());
    }
    for t in &c.targets {
        if t.rows.is_empty() && t.new.is_empty() && t.gone.is_empty() && t.not_compared.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "{} vs baseline `{}`",
            style(&t.target).bold(),
            c.baseline
        );
        if let Some(why) = &t.unpaired_because {
            let _ = writeln!(
                out,
                "  {} compared with stored samples (less certain): {why}",
                style("note:").cyan()
            );
        }
        table(&mut out, t, c.noise_threshold, current);
        out.push('\n');
    }
    out.push_str(&summary(c));
    out
}

/// A target's table: its rows, the notes and reasons under them, then the
/// rows not compared, new (with their time now) and gone.
fn table(
    out: &mut String,
    t: &TargetComparison,
    noise_threshold: f64,
    current: super::CurrentTime,
) {
    // Every id of the table, new, gone and not compared too, sets its first
    // column, up to its widest ([`format::id_column`]).
    let widest = (t.rows.iter().map(|r| r.id.as_str()))
        .chain(t.new.iter().chain(&t.gone).map(String::as_str))
        .chain(t.not_compared.iter().map(|n| n.id.as_str()))
        .map(|id| format::width(&format::one_line(id)))
        .max()
        .unwrap_or(0);
    let w = format::id_column(widest);
    // Where instructions were counted, their change beside time's.
    let counted = t.rows.iter().any(|r| r.instructions.is_some());
    let _ = writeln!(out, "{}", style(header(w, counted)).dim());
    for r in &t.rows {
        out.push_str(&row_line(r, (w, noise_threshold), counted));
    }
    // Notes and reasons may name other rows: on one line, as the table shows their ids.
    for note in crate::compare::words::row_notes(&t.rows, noise_threshold) {
        let note = format::one_line(&note.to_string()).into_owned();
        let _ = writeln!(out, "  {} {note}", style("note:").cyan());
    }
    for r in &t.rows {
        if let Some(why) = &r.inconclusive {
            let _ = writeln!(
                out,
                "  {} {}: {}",
                style("inconclusive:").yellow(),
                format::one_line(&r.id),
                format::one_line(why)
            );
        }
    }
    for n in &t.not_compared {
        let what = format!("not compared: {}", n.reason);
        let _ = writeln!(out, "{}  {}", first_column(&n.id, w), style(what).yellow());
    }
    for id in &t.new {
        let now = current(&t.target, id).unwrap_or_default();
        let _ = writeln!(
            out,
            "{}  {:>10}  {now:>10}  {}",
            first_column(id, w),
            "",
            style("new (not in the baseline)").cyan()
        );
    }
    for id in &t.gone {
        let _ = writeln!(
            out,
            "{}  {}",
            first_column(id, w),
            style("gone (only in the baseline)").yellow()
        );
    }
}

/// The table's header, `w` the width of the id column, with a column for
/// the instructions' change where they were `counted`.
fn header(w: usize, counted: bool) -> String {
    format!(
        "{:<w$}  {:>10}  {:>10}  {:>8}  {:>20}  {}{:<12}  {}",
        "benchmark",
        "baseline",
        "current",
        "change",
        "95% CI",
        if counted { "instructions  " } else { "" },
        "verdict",
        "measured"
    )
}

/// The lines under the tables: how p was adjusted, and the counts.
fn summary(c: &Comparison) -> String {
    let mut out = String::new();
    let rows = || c.targets.iter().flat_map(|t| &t.rows);
    if rows().any(|r| r.p_adjusted.is_some()) {
        let adjusted = "p: adjusted over this run's comparisons (Benjamini–Hochberg)";
        let _ = writeln!(out, "{}", style(adjusted).dim());
    }
    if super::any_paired(c) {
        let _ = writeln!(out, "{}", style(super::PAIRED_COLUMNS).dim());
    }
    let _ = writeln!(
        out,
        "compared with `{}`: {} (noise threshold {:.1}%)",
        c.baseline,
        c.counts().sentence(),
        c.noise_threshold * 100.0
    );
    out
}

/// One benchmark's line of the table, `w` the width of the id column, at
/// the run's noise `threshold`, with the instructions' change where `counted`.
fn row_line(r: &Row, (w, threshold): (usize, f64), counted: bool) -> String {
    let shown = super::compared::shown(r, threshold);
    let (change, ci) = shown.change_cells(|low, high| format!("[{low}, {high}]"));
    let kind = match r.kind {
        Kind::Paired => "paired",
        Kind::Stored => "stored",
    };
    let mut kind = match r.p_adjusted.or(r.p_value) {
        Some(p) => format!("{kind}, p={}", super::p_value(p)),
        None => kind.to_owned(),
    };
    if !r.metric.label().is_empty() {
        kind = format!("{kind}, {}", r.metric.label());
    }
    if r.decided_by == Some(crate::model::comparison::Signal::Instructions) {
        kind = format!("{kind}, by instructions");
    }
    let instructions = match (counted, &r.instructions) {
        (false, _) => String::new(),
        (true, Some(c)) if c.note.is_none() => format!("{:>12}  ", pct(c.change)),
        (true, _) => format!("{:>12}  ", "—"),
    };
    let (verdict, styled) = match (r.verdict, r.kind) {
        (Verdict::Regressed, Kind::Paired) => ("regressed", style("regressed").red().bold()),
        (Verdict::Improved, Kind::Paired) => ("improved", style("improved").green().bold()),
        (Verdict::Regressed, Kind::Stored) => ("regressed?", style("regressed?").red()),
        (Verdict::Improved, Kind::Stored) => ("improved?", style("improved?").green()),
        (Verdict::Unchanged, _) => ("unchanged", style("unchanged").dim()),
        (Verdict::Inconclusive, _) => ("inconclusive", style("inconclusive").yellow()),
    };
    let pad = " ".repeat(12usize.saturating_sub(verdict.len()));
    format!(
        "{}  {:>10}  {:>10}  {:>8}  {:>20}  {instructions}{styled}{pad}  {kind}\n",
        first_column(&r.id, w),
        shown.baseline,
        shown.current,
        change,
        ci
    )
}

/// An id in the first column, `w` wide ([`format::id_cell`]).
fn first_column(id: &str, w: usize) -> String {
    format::id_cell(id, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comparison(t: TargetComparison) -> Comparison {
        Comparison {
            baseline: "main".into(),
            noise_threshold: 0.005,
            warnings: Vec::new(),
            notes: Vec::new(),
            targets: vec![t],
        }
    }

    fn row(id: &str) -> Row {
        Row {
            change_ci: [-0.01, 0.01],
            p_value: Some(0.5),
            p_adjusted: Some(0.5),
            ..Row::example(id, 100.0, 0.0, Verdict::Unchanged)
        }
    }

    #[test]
    fn ids_of_every_kind_and_width_share_the_first_column() {
        console::set_colors_enabled(false);
        let (wide, new, gone) = ("排序/10", "a/much/longer/new/benchmark", "🚀/launch");
        let mut t = TargetComparison::empty("demo/bench");
        t.rows = vec![row(wide), row("plain")];
        t.new = vec![new.into()];
        t.gone = vec![gone.into()];
        let c = comparison(t);
        // A new row shows its time now in the current column.
        let text = render(&c, &|_, id| (id == new).then(|| "1.000 ns".to_owned()));
        let w = format::width(new);
        for id in [wide, "plain", gone] {
            let first = format!("{}  ", format::pad(id, w));
            assert!(
                text.lines()
                    .any(|l| l.starts_with(&first)
                        && l[first.len()..].starts_with(' ') != (id == gone)),
                "{id} not in a first column {w} wide:\n{text}"
            );
        }
        let new_line = format!(
            "{new}  {:>10}  {:>10}  new (not in the baseline)",
            "", "1.000 ns"
        );
        assert!(text.lines().any(|l| l == new_line), "{new_line}\n{text}");
        assert_eq!(format::width(wide), 7);
        assert_eq!(format::width(gone), 9);
    }

    #[test]
    fn an_id_over_two_lines_reads_on_one_in_rows_and_reasons() {
        console::set_colors_enabled(false);
        let two = "fill\n    /1";
        let mut t = TargetComparison::empty("demo/bench");
        let mut doubtful = row(two);
        doubtful.verdict = Verdict::Inconclusive;
        doubtful.inconclusive = Some(format!("as `{two}` shows"));
        t.rows = vec![doubtful, row("plain")];
        t.new = vec![format!("{two}/new")];
        let c = comparison(t);
        let text = render(&c, &|_, _| None);
        assert!(!text.contains("\n    /"), "{text}");
        let shown = format::one_line(two);
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{shown}  "))),
            "{text}"
        );
        assert!(text.contains(&format!(": as `{shown}` shows")), "{text}");
        assert!(text.contains(&format!("{shown}/new  ")), "{text}");
    }
}
