//! The note under a comparison whose benchmarks declared other work per iteration on the two sides.

use super::{RowNote, percent_change};
use crate::model::comparison::Row;
use crate::model::work::ThroughputRecord;

/// `decode/hex does 8.6% more work per iteration than the baseline …`: for
/// rows whose sides declared other work per iteration (a benchmark reading
/// a file that the change made longer), whose verdicts are of the time per
/// iteration. One note for all rows whose work changed alike (a suite's
/// benchmarks often share one input), with each one's change per byte or
/// item where the work kept its unit.
pub fn notes(rows: &[Row]) -> Vec<RowNote> {
    let mut changes: Vec<[ThroughputRecord; 2]> = Vec::new();
    for w in rows.iter().filter_map(|r| r.work_per_iter) {
        if !changes.contains(&w) {
            changes.push(w);
        }
    }
    changes
        .into_iter()
        .map(|w| {
            let alike: Vec<_> = rows.iter().filter(|r| r.work_per_iter == Some(w)).collect();
            work_note(w, &alike)
        })
        .collect()
}

/// The note for `rows`, whose work per iteration changed from `b` to `c`.
fn work_note([b, c]: [ThroughputRecord; 2], rows: &[&Row]) -> RowNote {
    // About one benchmark the note follows its id; about several it begins
    // with `who`.
    let note = |who: String, text: String| match rows {
        [one] => RowNote::about(&one.id, format!(" {text}")),
        _ => RowNote::plain(format!("{who} {text}")),
    };
    let (does, its) = match rows {
        [_] => ("does", "its change is"),
        _ => ("do", "their changes are"),
    };
    let amounts = format!(
        "{} {}, was {} {}",
        c.amount(),
        c.unit(),
        b.amount(),
        b.unit()
    );
    if b.unit() != c.unit() || b.amount() == 0 || c.amount() == 0 {
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        let declare = if rows.len() == 1 {
            "declares"
        } else {
            "declare"
        };
        return note(
            ids.join(", "),
            format!(
                "{declare} other work per iteration than the baseline ({amounts}): {its} in \
                 time per iteration"
            ),
        );
    }
    let more = c.amount() as f64 / b.amount() as f64 - 1.0;
    let how = if more > 0.0 { "more" } else { "less" };
    let per: Vec<String> = (rows.iter())
        .filter_map(|r| {
            let (x, ci) = r.per_unit()?;
            let ci = format!("[{}, {}]", percent_change(ci[0]), percent_change(ci[1]));
            Some(match rows {
                [_] => format!("{} {ci}", percent_change(x)),
                _ => format!("{} {} {ci}", r.id, percent_change(x)),
            })
        })
        .collect();
    let unit = c.unit().trim_end_matches('s');
    let per = match rows {
        [_] => format!("per {unit} it is {}", per.join("")),
        _ => format!("per {unit}: {}", per.join(", ")),
    };
    note(
        format!("{} benchmarks", rows.len()),
        format!(
            "{does} {:.1}% {how} work per iteration than the baseline ({amounts}): {its} in \
             time per iteration; {per}",
            more.abs() * 100.0
        ),
    )
}
