//! Every sentence written about a comparison row: why it is inconclusive
//! and what would narrow it ([`reasons`]), and the notes under a target's
//! table (placement, the timer floor, work that differs: [`row_notes`]).

mod reasons;
mod work;

pub use reasons::{counts_note, placement_notes, why_inconclusive};

use crate::compare::iterations;
use crate::model::comparison::{Row, Verdict};
use crate::model::few::first_few;

/// A relative change as a signed percentage; a rounding of zero shows as
/// `+0.00%`, not `-0.00%`; NaN or infinite as `n/a`.
pub fn percent_change(x: f64) -> String {
    if !x.is_finite() {
        return nbench::__private::format::NOT_A_NUMBER.to_owned();
    }
    let x = if (x * 100.0).abs() < 0.005 { 0.0 } else { x };
    format!("{:+.2}%", x * 100.0)
}

/// An end of a change's interval as the tables show it: as
/// [`percent_change`], but past +999 % only `>+999%` (bnf's two-epoch
/// `parse_polish_calculator` read `+175908225.78%`, a width, not a figure).
pub fn interval_end(x: f64) -> String {
    match x * 100.0 {
        pct if pct.is_finite() && pct > 999.0 => ">+999%".to_owned(),
        _ => percent_change(x),
    }
}

/// From this spread between link layouts on, a comparison's report says how
/// much the benchmark moves between fresh processes, and placement's part.
pub const LARGE_LAYOUT_SPREAD: f64 = 0.02;

/// A note under a target's comparison table: about one benchmark, whose id
/// each format shows as it shows ids elsewhere (Markdown in backticks), or
/// about several, named in its text.
#[derive(Debug, Clone, PartialEq)]
pub struct RowNote {
    /// The benchmark it is about, if one.
    pub id: Option<String>,
    /// What follows the id (` moves ±4.4% …`, `: one link layout …`), or
    /// the whole note.
    pub text: String,
}

impl RowNote {
    pub fn about(id: &str, text: String) -> RowNote {
        RowNote {
            id: Some(id.to_owned()),
            text,
        }
    }

    pub fn plain(text: String) -> RowNote {
        RowNote { id: None, text }
    }
}

impl std::fmt::Display for RowNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.id.as_deref().unwrap_or(""), self.text)
    }
}

/// `sum moves ±14% with code placement alone: …` for a row whose layout
/// spread is at least [`LARGE_LAYOUT_SPREAD`], and `… left out` for one
/// whose change leaves out a link layout far from the others.
pub fn placement_note(r: &Row) -> Option<RowNote> {
    // An inconclusive row says why in its own line.
    if r.inconclusive.is_some() {
        return None;
    }
    let left_out = match r.layouts_left_out {
        0 => String::new(),
        1 => "one link layout ran far from the others and is left out of the change".to_owned(),
        n => format!("{n} link layouts ran far from the others and are left out of the change"),
    };
    let spread = r.layout_spread.filter(|s| *s >= LARGE_LAYOUT_SPREAD);
    match spread {
        Some(s) => {
            let cause = match (r.placement_spread, r.placement_part()) {
                (None, _) => "between fresh processes in other link layouts".to_owned(),
                (Some(_), Some(part)) => format!("between fresh processes, {part}"),
                (Some(_), None) => "with code placement alone".to_owned(),
            };
            let moves = format!(
                " moves ±{:.1}% {cause}: a smaller change is hard to tell from it",
                s * 100.0
            );
            Some(RowNote::about(
                &r.id,
                match left_out.is_empty() {
                    true => moves,
                    false => format!("{moves}; {left_out}"),
                },
            ))
        }
        None if !left_out.is_empty() => Some(RowNote::about(&r.id, format!(": {left_out}"))),
        None => None,
    }
}

/// For a decided row whose epochs at one count of iterations per sample
/// disagree with those at another ([`iterations::by_iterations`]): the
/// change at each, so that a verdict taken over the counts together does
/// not read as the benchmark's at every count. (An inconclusive row says
/// it in its reason.)
pub fn iterations_note(r: &Row, threshold: f64) -> Option<RowNote> {
    if r.inconclusive.is_some() {
        return None;
    }
    let changes = iterations::by_iterations(r, r.threshold(threshold))?;
    Some(RowNote::about(
        &r.id,
        format!(
            " reads {}: {FOLLOWS_COUNT}; its verdict is over the counts together",
            iterations::describe(&changes)
        ),
    ))
}

/// Why the same executable counts other instructions from process to
/// process: what the two processes of a pair cannot be given alike (what
/// `getrandom` gives, they are).
pub const WORK_DIFFERS: &str = "code that allocates meets the allocator in another state, or \
     inputs or a hasher's seed drawn from the clock, an address or `/dev/urandom`";

/// What a change that follows the iterations per sample means.
pub const FOLLOWS_COUNT: &str = "its time per iteration follows how many iterations a sample \
     runs (work done once a sample, or inputs made that many at once, landing elsewhere in \
     memory)";

/// How many times the noise threshold a row's own threshold
/// ([`crate::model::comparison::row_threshold`]) must exceed before a note
/// says what it is: past it, the loop's overhead is longer than the time
/// measured past the overhead.
const FLOOR_NOTE_FACTOR: f64 = 2.0;

/// For a row whose time past its loop's overhead is so small that the
/// noise threshold counts against the time with the overhead (see
/// [`crate::model::comparison::row_threshold`]): what a change must exceed
/// to count, so that a wide percentage beside "unchanged" reads as what it
/// is (an empty body: −20 % of 0.1 ps).
pub fn floor_note(r: &Row, threshold: f64) -> Option<RowNote> {
    let own = r.threshold(threshold);
    (own > FLOOR_NOTE_FACTOR * threshold).then(|| {
        RowNote::about(
            &r.id,
            format!(
                " takes {} past its loop's overhead of {}: a change counts from ±{} \
                 ({:.1}% of the two together)",
                r.metric.format(r.baseline),
                r.metric.format(r.overhead),
                r.metric.format(r.counting_step(threshold)),
                threshold * 100.0
            ),
        )
    })
}

/// What the two signals of a row with instruction counts said, where the
/// one that did not decide has something to add: counts that decided for
/// time, time that decided against still counts (a change outside the
/// instruction stream), counts too spread or untelling to decide. And
/// where the reason holds no figure the table does not show, that reason
/// alone, for one note over every row it holds for.
fn signal_said(r: &Row, threshold: f64) -> Option<(RowNote, Option<String>)> {
    use crate::compare::joint::{counts_moved, counts_still, goes_against, goes_with, time_agrees};
    use crate::model::comparison::Signal;
    let c = r.instructions.as_ref()?;
    let (text, shared) = match r.decided_by {
        _ if let Some(why) = &c.note => (
            format!(": instructions are not compared: {why}"),
            Some(format!("instructions are not compared: {why}")),
        ),
        _ if let Some(other) = &c.contrary => overruled(c, other),
        // Its reason says what both signals saw.
        _ if crate::compare::joint::held_back(r) => return None,
        // Still counts and time's interval, both in the row: nothing to add
        // (on quick-xml's suite, 48 of 67 rows).
        Some(Signal::Instructions) if r.verdict == Verdict::Unchanged => return None,
        Some(Signal::Instructions) => (decided_by_counts(r, c), None),
        _ if matches!(r.verdict, Verdict::Regressed | Verdict::Improved)
            && counts_still(r, threshold) =>
        {
            (outside_the_stream(r, c), None)
        }
        Some(Signal::Time) if goes_against(r, threshold) => opposite_ways(r, c),
        // Both decided the same way, by different amounts (chrono's
        // ebc808e8: RFC 3339 parsing timed −66 % and counted −54 %): no
        // disagreement worth a note.
        Some(Signal::Time)
            if counts_moved(r, threshold) && !time_agrees(r, threshold) && !goes_with(r) =>
        {
            past_times_interval(r, c)
        }
        Some(Signal::Time)
            if r.verdict == Verdict::Inconclusive
                && counts_still(r, threshold)
                && !crate::compare::joint::time_within_reach(r, threshold) =>
        {
            (too_unsure_for_still_counts(r, c, threshold), None)
        }
        Some(Signal::Time)
            if counts_moved(r, threshold)
                && !crate::compare::joint::time_bounds_counts(r, threshold)
                && !goes_with(r) =>
        {
            (too_unsure_for_moved_counts(r, c, threshold), None)
        }
        _ if c.change.abs() > threshold && !counts_moved(r, threshold) => (
            format!(
                ": instructions {}, but from process to process the change lay {:.1}% apart \
                 ({WORK_DIFFERS}): they do not decide",
                percent_change(c.change),
                c.spread * 100.0
            ),
            None,
        ),
        _ => return None,
    };
    Some((RowNote::about(&r.id, text), shared))
}

/// `: time +2.1%, instructions +0.00%: the change lies outside …`.
fn outside_the_stream(r: &Row, c: &crate::model::comparison::CountChange) -> String {
    format!(
        ": time {}, instructions {}: the change lies outside the instruction stream (memory, \
         caches, branch prediction, system calls or code placement)",
        percent_change(r.change),
        percent_change(c.change)
    )
}

/// Time and counts that moved opposite ways, time deciding: the row's
/// note, and its reason without the row's figures.
fn opposite_ways(r: &Row, c: &crate::model::comparison::CountChange) -> (String, Option<String>) {
    let fell_or_rose = if c.change < 0.0 { "fell" } else { "rose" };
    let why = format!("counts that {fell_or_rose} decide no row of this comparison");
    (
        format!(
            ": time {}, instructions {}: they moved opposite ways and time decides; with this \
             change, {why}",
            percent_change(r.change),
            percent_change(c.change),
        ),
        Some(format!(
            "time and instructions moved opposite ways, and time decides; with this change, \
             {why}"
        )),
    )
}

/// Counts that moved further than time's interval reaches, time deciding:
/// the row's note, and its reason without the row's figures.
fn past_times_interval(
    r: &Row,
    c: &crate::model::comparison::CountChange,
) -> (String, Option<String>) {
    let why = "time decides (an instruction need not cost the time of another, and some cost \
               none)";
    (
        format!(
            ": instructions {}, further than time's interval ({} … {}) reaches: {why}",
            percent_change(c.change),
            percent_change(r.change_ci[0]),
            percent_change(r.change_ci[1])
        ),
        Some(format!(
            "instructions moved further than time's interval reaches: {why}"
        )),
    )
}

/// `… decided by instructions: …; time alone could not tell (…)`: its
/// interval, and where that leaves out no change, that the adjustment
/// for the run's other rows took it.
fn decided_by_counts(r: &Row, c: &crate::model::comparison::CountChange) -> String {
    let counted = |x: f64| nbench::__private::format::count(x);
    let off_zero = r.change_ci[0] > 0.0 || r.change_ci[1] < 0.0;
    let adjusted = match (off_zero && !r.significant(), r.p_adjusted) {
        (true, Some(p)) => {
            format!(": not significant once adjusted for the other benchmarks compared, p = {p:.3}")
        }
        _ => String::new(),
    };
    format!(
        " decided by instructions: {} ({} → {} an iteration); time alone could not tell \
         ({} … {}{adjusted})",
        percent_change(c.change),
        counted(c.baseline),
        counted(c.current),
        percent_change(r.change_ci[0]),
        percent_change(r.change_ci[1])
    )
}

/// Why counts that moved did not decide `r`: its time interval reaches
/// past where they may, the other way ([`crate::compare::joint::time_bounds_counts`]).
fn too_unsure_for_moved_counts(
    r: &Row,
    c: &crate::model::comparison::CountChange,
    threshold: f64,
) -> String {
    format!(
        ": instructions {}, but time reads {} … {}, reaching past the {:.0}% {} within \
         which it must lie for counts to decide: counts cannot see memory, caches or \
         branches",
        percent_change(c.change),
        percent_change(r.change_ci[0]),
        percent_change(r.change_ci[1]),
        crate::compare::joint::STILL_TIME_REACH * threshold * 100.0,
        if c.change < 0.0 { "slower" } else { "faster" }
    )
}

/// Why still counts did not call `r` unchanged: its time interval reaches
/// past where they may vouch for it (base64's decoders of 3–30 MiB:
/// +0.00 % counted, time ±5 … ±260 %).
fn too_unsure_for_still_counts(
    r: &Row,
    c: &crate::model::comparison::CountChange,
    threshold: f64,
) -> String {
    format!(
        ": instructions {}, but time reads {} … {}, past the ±{:.0}% within which the same \
         instructions say unchanged: counts cannot see memory or caches",
        percent_change(c.change),
        percent_change(r.change_ci[0]),
        percent_change(r.change_ci[1]),
        crate::compare::joint::STILL_TIME_REACH * threshold * 100.0
    )
}

/// Why counts that moved decide nothing: `other`, a row of the same
/// comparison, timed the other way from counts moving this way; and that
/// reason without this row's figures.
fn overruled(
    c: &crate::model::comparison::CountChange,
    other: &crate::model::comparison::Contrary,
) -> (String, Option<String>) {
    let counted = |x: f64| nbench::__private::format::count(x);
    let (fewer, less) = match c.change < 0.0 {
        true => ("fewer", "less"),
        false => ("more", "more"),
    };
    let why = format!(
        "in this comparison `{}` counted {} and timed {}, {}: with this change, {fewer} \
         instructions need not mean {less} time",
        other.id,
        percent_change(other.counted),
        percent_change(other.timed),
        if other.timed > 0.0 {
            "slower"
        } else {
            "faster"
        },
    );
    (
        format!(
            ": instructions {} ({} → {} an iteration), but they do not decide: {why}",
            percent_change(c.change),
            counted(c.baseline),
            counted(c.current),
        ),
        Some(format!("instructions do not decide: {why}")),
    )
}

/// The notes under a target's comparison table, at noise threshold
/// `threshold`: each row's placement, iterations, timer floor
/// ([`floor_note`]) and signal notes ([`signal_said`]), those of several
/// rows for one reason said once ([`gather`]), then one note for each
/// change of declared work per iteration ([`work::notes`]).
pub fn row_notes(rows: &[Row], threshold: f64) -> Vec<RowNote> {
    let mut said: Vec<Said> = Vec::new();
    for r in rows {
        let own = [
            placement_note(r),
            iterations_note(r, threshold),
            floor_note(r, threshold),
        ];
        said.extend(own.into_iter().flatten().map(Said::Own));
        said.extend(
            signal_said(r, threshold).map(|(note, shared)| match shared {
                Some(why) => Said::Shared(note, why),
                None => Said::Own(note),
            }),
        );
    }
    let mut notes = gather(said, rows.len());
    notes.extend(work::notes(rows));
    notes
}

/// A row's note, or one whose reason (without the row's figures) may be
/// said once for several rows.
enum Said {
    Own(RowNote),
    Shared(RowNote, String),
}

/// `said` as notes, over `rows` rows in all: a reason several rows share
/// once, where it first came, naming the first few (foldhash's 84 rows that
/// time themselves, bytecount's 9 rows whose counts one other row overruled).
fn gather(said: Vec<Said>, rows: usize) -> Vec<RowNote> {
    // Each shared reason not yet said, with the rows it holds for.
    let mut unsaid: Vec<(String, Vec<String>)> = Vec::new();
    for s in &said {
        if let Said::Shared(note, why) = s {
            let id = note.id.clone().unwrap_or_default();
            match unsaid.iter_mut().find(|(w, _)| w == why) {
                Some((_, of)) => of.push(id),
                None => unsaid.push((why.clone(), vec![id])),
            }
        }
    }
    let mut notes = Vec::new();
    for s in said {
        match s {
            Said::Own(note) => notes.push(note),
            Said::Shared(note, why) => {
                let Some(at) = unsaid.iter().position(|(w, _)| *w == why) else {
                    continue;
                };
                match unsaid.remove(at).1.as_slice() {
                    [_] => notes.push(note),
                    of => notes.push(RowNote::plain(format!("{}: {why}", who(of, rows)))),
                }
            }
        }
    }
    notes
}

/// `every benchmark here (84)`, `2 benchmarks (a, b)`, `9 benchmarks (a,
/// b, c and 6 more)`: the rows `ids` of `rows` in all.
fn who(ids: &[String], rows: usize) -> String {
    if ids.len() == rows {
        return format!("every benchmark here ({rows})");
    }
    format!("{} benchmarks ({})", ids.len(), first_few(ids))
}

#[cfg(test)]
mod tests;
