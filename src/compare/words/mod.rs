//! Every sentence written about a comparison row: why it is inconclusive
//! and what would narrow it ([`reasons`]), and the notes under a target's
//! table (placement, the timer floor, work that differs: [`row_notes`]).

mod reasons;
mod work;

pub use reasons::{counts_note, placement_notes, why_inconclusive};

use crate::compare::iterations;
use crate::model::comparison::{Row, Verdict};

/// A relative change as a signed percentage; a rounding of zero shows as
/// `+0.00%`, not `-0.00%`; NaN or infinite as `n/a`.
pub fn percent_change(x: f64) -> String {
    if !x.is_finite() {
        return nbench::__private::format::NOT_A_NUMBER.to_owned();
    }
    let x = if (x * 100.0).abs() < 0.005 { 0.0 } else { x };
    format!("{:+.2}%", x * 100.0)
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
        let whole = r.baseline + r.overhead.max(0.0);
        RowNote::about(
            &r.id,
            format!(
                " takes {} past its loop's overhead of {}: a change counts from ±{} \
                 ({:.1}% of the two together)",
                r.metric.format(r.baseline),
                r.metric.format(r.overhead),
                r.metric.format(whole * threshold),
                threshold * 100.0
            ),
        )
    })
}

/// What the two signals of a row with instruction counts said, where the
/// one that did not decide has something to add: counts that decided for
/// time, time that decided against still counts (a change outside the
/// instruction stream), counts too spread or untelling to decide.
pub fn signal_note(r: &Row, threshold: f64) -> Option<RowNote> {
    use crate::compare::joint::{counts_moved, counts_still, goes_against, goes_with, time_agrees};
    use crate::model::comparison::Signal;
    let c = r.instructions.as_ref()?;
    let text = match r.decided_by {
        _ if c.note.is_some() => format!(
            ": instructions are not compared: {}",
            c.note.as_deref().unwrap_or_default()
        ),
        _ if let Some(other) = &c.contrary => overruled(c, other),
        // Its reason says what both signals saw.
        _ if crate::compare::joint::held_back(r) => return None,
        // Still counts and time's interval, both in the row: nothing to add
        // (on quick-xml's suite, 48 of 67 rows).
        Some(Signal::Instructions) if r.verdict == Verdict::Unchanged => return None,
        Some(Signal::Instructions) => decided_by_counts(r, c),
        _ if matches!(r.verdict, Verdict::Regressed | Verdict::Improved)
            && counts_still(r, threshold) =>
        {
            format!(
                ": time {}, instructions {}: the change lies outside the instruction stream \
                 (memory, caches, branch prediction, system calls or code placement)",
                percent_change(r.change),
                percent_change(c.change)
            )
        }
        Some(Signal::Time) if goes_against(r, threshold) => format!(
            ": time {}, instructions {}: they moved opposite ways and time decides; with this \
             change, counts that {} decide no row of this comparison",
            percent_change(r.change),
            percent_change(c.change),
            if c.change < 0.0 { "fell" } else { "rose" }
        ),
        // Both decided the same way, by different amounts (chrono's
        // ebc808e8: RFC 3339 parsing timed −66 % and counted −54 %): no
        // disagreement worth a note.
        Some(Signal::Time)
            if counts_moved(r, threshold) && !time_agrees(r, threshold) && !goes_with(r) =>
        {
            format!(
                ": instructions {}, further than time's interval ({} … {}) reaches: time \
                 decides (an instruction need not cost the time of another, and some cost \
                 none)",
                percent_change(c.change),
                percent_change(r.change_ci[0]),
                percent_change(r.change_ci[1])
            )
        }
        Some(Signal::Time)
            if r.verdict == Verdict::Inconclusive
                && counts_still(r, threshold)
                && !crate::compare::joint::time_within_reach(r, threshold) =>
        {
            too_unsure_for_still_counts(r, c, threshold)
        }
        Some(Signal::Time)
            if counts_moved(r, threshold)
                && !crate::compare::joint::time_bounds_counts(r, threshold)
                && !goes_with(r) =>
        {
            too_unsure_for_moved_counts(r, c, threshold)
        }
        _ if c.change.abs() > threshold && !counts_moved(r, threshold) => format!(
            ": instructions {}, but from process to process the change lay {:.1}% apart \
             (code that allocates meets the allocator in another state, or inputs drawn at \
             random): they do not decide",
            percent_change(c.change),
            c.spread * 100.0
        ),
        _ => return None,
    };
    Some(RowNote::about(&r.id, text))
}

/// `… decided by instructions: …; time alone could not tell (…)`.
fn decided_by_counts(r: &Row, c: &crate::model::comparison::CountChange) -> String {
    let counted = |x: f64| nbench::__private::format::count(x);
    format!(
        " decided by instructions: {} ({} → {} an iteration); time alone could not tell \
         ({} … {})",
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
/// comparison, timed the other way from counts moving this way.
fn overruled(
    c: &crate::model::comparison::CountChange,
    other: &crate::model::comparison::Contrary,
) -> String {
    let counted = |x: f64| nbench::__private::format::count(x);
    let (fewer, less) = match c.change < 0.0 {
        true => ("fewer", "less"),
        false => ("more", "more"),
    };
    format!(
        ": instructions {} ({} → {} an iteration), but they do not decide: in this comparison \
         `{}` counted {} and timed {}, {}: with this change, {fewer} instructions need not \
         mean {less} time",
        percent_change(c.change),
        counted(c.baseline),
        counted(c.current),
        other.id,
        percent_change(other.counted),
        percent_change(other.timed),
        if other.timed > 0.0 {
            "slower"
        } else {
            "faster"
        },
    )
}

/// The notes under a target's comparison table, at noise threshold
/// `threshold`: each row's placement note ([`placement_note`]) and timer
/// floor note ([`floor_note`]), then one note for each change of declared
/// work per iteration ([`work::notes`]).
pub fn row_notes(rows: &[Row], threshold: f64) -> Vec<RowNote> {
    let mut notes: Vec<RowNote> = (rows.iter())
        .flat_map(|r| {
            [
                placement_note(r),
                iterations_note(r, threshold),
                floor_note(r, threshold),
                signal_note(r, threshold),
            ]
        })
        .flatten()
        .collect();
    notes.extend(work::notes(rows));
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(notes: Vec<RowNote>) -> Vec<String> {
        notes.iter().map(RowNote::to_string).collect()
    }

    #[test]
    fn a_row_whose_work_differs_says_so_with_the_change_per_unit() {
        use crate::model::comparison::{Row, Verdict};
        use crate::model::work::ThroughputRecord::{Bytes, Items};
        // hex's own suite encodes its src/lib.rs, which a change made 8.6 %
        // longer: 8.9 % more time per iteration, 0.3 % more per byte.
        let r = Row::example("encode/hex", 9_000.0, 0.0886, Verdict::Regressed);
        assert!(
            row_notes(std::slice::from_ref(&r), 0.005).is_empty(),
            "no work declared"
        );
        let same = r
            .clone()
            .with_work(Some(Bytes(16_274)), Some(Bytes(16_274)));
        assert_eq!(same.work_per_iter, None, "the same work is no news");
        let r = r.with_work(Some(Bytes(16_274)), Some(Bytes(17_671)));
        let (per, ci) = r.per_unit().unwrap();
        let expected = 1.0886 * 16_274.0 / 17_671.0 - 1.0;
        assert!((per - expected).abs() < 1e-12, "{per}");
        assert!(ci[0] < per && per < ci[1], "{ci:?}");
        assert_eq!(
            texts(row_notes(std::slice::from_ref(&r), 0.005)),
            [
                "encode/hex does 8.6% more work per iteration than the baseline (17671 bytes, \
              was 16274 bytes): its change is in time per iteration; per byte it is +0.25% \
              [+0.07%, +0.44%]"
            ]
        );
        // Rows whose work changed alike share one note, each with its own figure.
        let decode = Row::example("decode/hex", 17_840.0, 0.1524, Verdict::Regressed)
            .with_work(Some(Bytes(16_274)), Some(Bytes(17_671)));
        let plain = Row::example("len", 1.0, 0.0, Verdict::Unchanged);
        let notes = texts(row_notes(&[r.clone(), plain, decode], 0.005));
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].starts_with("2 benchmarks do 8.6% more work per iteration")
                && notes[0].contains(
                    "their changes are in time per iteration; per byte: \
                     encode/hex +0.25% [+0.07%, +0.44%], decode/hex +6.13%"
                ),
            "{notes:?}"
        );
        // Less work, in items.
        let fewer = Row::example("sort", 100.0, -0.5, Verdict::Improved)
            .with_work(Some(Items(1000)), Some(Items(500)));
        let note = &texts(row_notes(&[fewer], 0.005))[0];
        assert!(
            note.contains("does 50.0% less work") && note.contains("per item it is +0.00%"),
            "{note}"
        );
        // Work of another kind has no per-unit figure.
        let other = Row::example("sort", 100.0, 0.1, Verdict::Regressed)
            .with_work(Some(Items(1000)), Some(Bytes(4000)));
        assert_eq!(other.per_unit(), None);
        assert_eq!(
            texts(row_notes(&[other], 0.005)),
            [
                "sort declares other work per iteration than the baseline (4000 bytes, was 1000 \
              items): its change is in time per iteration"
            ]
        );
    }

    #[test]
    fn a_row_near_the_timer_floor_says_what_change_counts() {
        use crate::model::comparison::{Row, Verdict};
        // This project's own `front_end/empty`: 0.1 ps past a 349 ps loop,
        // read 20 % faster and unchanged; a 5 ns body is not near it.
        let mut empty = Row::example("empty", 1e-4, -0.2, Verdict::Unchanged);
        empty.overhead = 0.349;
        let mut body = Row::example("5ns", 8.859, 0.0, Verdict::Unchanged);
        body.overhead = 0.349;
        assert_eq!(
            texts(row_notes(&[empty, body.clone()], 0.005)),
            [
                "empty takes 0.100 ps past its loop's overhead of 349.0 ps: a change counts \
              from ±1.745 ps (0.5% of the two together)"
            ]
        );
        // Overhead as long as the time past it: the threshold is twice the
        // noise threshold, and only past that is the note given.
        body.overhead = body.baseline;
        assert!(floor_note(&body, 0.005).is_none());
        body.overhead *= 1.01;
        assert!(floor_note(&body, 0.005).is_some());
    }

    #[test]
    fn a_row_says_when_a_layout_was_left_out() {
        use crate::model::comparison::{Row, Verdict};
        let mut r = Row::example("vec_push", 100.0, 0.01, Verdict::Regressed);
        assert_eq!(placement_note(&r), None);
        r.layouts_left_out = 1;
        assert_eq!(
            placement_note(&r).map(|n| n.to_string()).as_deref(),
            Some("vec_push: one link layout ran far from the others and is left out of the change")
        );
        r.layout_spread = Some(0.05);
        // Too few epochs to part placement from the machine's noise.
        let note = placement_note(&r).unwrap().to_string();
        assert!(
            note.starts_with("vec_push moves ±5.0% between fresh processes in other link layouts"),
            "{note}"
        );
        r.placement_spread = Some(0.04);
        let note = placement_note(&r).unwrap().to_string();
        assert!(
            note.starts_with("vec_push moves ±5.0% with code placement alone"),
            "{note}"
        );
        assert!(note.ends_with("is left out of the change"), "{note}");
        // Where the layouts' own effects make little of it, the note says so.
        r.placement_spread = Some(0.01);
        let note = placement_note(&r).unwrap().to_string();
        assert!(
            note.starts_with(
                "vec_push moves ±5.0% between fresh processes, code placement ±1.0% of it"
            ),
            "{note}"
        );
        r.placement_spread = Some(0.04);
        assert!(
            placement_note(&r)
                .unwrap()
                .to_string()
                .starts_with("vec_push moves ±5.0% with code placement alone")
        );
    }

    #[test]
    fn a_counted_row_says_what_the_signal_that_did_not_decide_saw() {
        use crate::model::comparison::{CountChange, Signal};
        let counted = |change: f64, spread: f64| CountChange {
            baseline: 1000.0,
            current: 1000.0 * (1.0 + change),
            change,
            spread,
            both_ways: false,
            note: None,
            contrary: None,
        };
        let mut r = Row::example("stride", 100.0, 1.1, Verdict::Regressed);
        r.instructions = Some(counted(0.0, 0.0));
        r.decided_by = Some(Signal::Time);
        let note = signal_note(&r, 0.005).unwrap().to_string();
        assert!(note.contains("outside the instruction stream"), "{note}");
        // A change so small that relinking moves it: held back, its reason
        // says both, and no note repeats it.
        let mut small = Row::example("btreeset/256", 2576.0, -0.0094, Verdict::Improved);
        (small.change_ci, small.p_value) = ([-0.0134, -0.0056], Some(0.0001));
        small.instructions = Some(counted(0.0, 0.0008));
        crate::compare::joint::decide(&mut small, 0.005, &Default::default());
        assert_eq!(small.verdict, Verdict::Inconclusive);
        assert_eq!(signal_note(&small, 0.005), None);
        assert_eq!(
            why_inconclusive(&small, 0.005),
            "time reads -1.3% … -0.6%, but both builds run the same instructions (+0.000%), and \
             a change within ±3% in the same code is what relinking it moves (code and data \
             placement): it is not claimed"
        );
        // One reaching past ±3 % but not wholly past it says so.
        (small.verdict, small.change_ci) = (Verdict::Regressed, [0.0118, 0.0415]);
        crate::compare::joint::decide(&mut small, 0.005, &Default::default());
        let why = why_inconclusive(&small, 0.005);
        assert!(why.contains("+4.2%, not wholly past ±3%, but"), "{why}");
        r.verdict = Verdict::Unchanged;
        r.change_ci = [-0.0056, 0.0035];
        r.instructions = Some(counted(0.078, 0.0008));
        let note = signal_note(&r, 0.005).unwrap().to_string();
        assert!(
            note.contains("+7.80%") && note.contains("further than time's interval"),
            "{note}"
        );
        // Decided the way the counts moved, by another amount: no note.
        let mut parse = Row::example("parse_from_rfc3339", 81.5, -0.66, Verdict::Improved);
        parse.change_ci = [-0.6685, -0.6505];
        parse.instructions = Some(counted(-0.5443, 0.0));
        parse.decided_by = Some(Signal::Time);
        assert_eq!(signal_note(&parse, 0.005), None);
        r.instructions = Some(counted(0.01, 0.034));
        let note = signal_note(&r, 0.005).unwrap().to_string();
        assert!(note.contains("3.4% apart"), "{note}");
        r.decided_by = Some(Signal::Instructions);
        r.instructions = Some(counted(0.01, 0.0));
        r.verdict = Verdict::Regressed;
        let note = signal_note(&r, 0.005).unwrap().to_string();
        assert!(
            note.starts_with("stride decided by instructions: +1.00%"),
            "{note}"
        );
        // Unchanged by still counts: the row's columns say all of it.
        let mut still = Row::example("stride", 100.0, 0.001, Verdict::Unchanged);
        still.change_ci = [-0.009, 0.011];
        still.instructions = Some(counted(0.0, 0.0));
        still.decided_by = Some(Signal::Instructions);
        assert_eq!(signal_note(&still, 0.005), None);
        // Still counts, time too unsure for them to vouch for (base64's
        // `decode/30000000`): the note says why the counts did not decide.
        let mut wide = Row::example("decode/30000000", 9e6, 0.02, Verdict::Inconclusive);
        wide.change_ci = [-0.05, 0.09];
        wide.instructions = Some(counted(0.0, 0.0));
        crate::compare::joint::decide(&mut wide, 0.005, &Default::default());
        assert_eq!(wide.verdict, Verdict::Inconclusive);
        assert_eq!(
            signal_note(&wide, 0.005).unwrap().to_string(),
            "decode/30000000: instructions +0.00%, but time reads -5.00% … +9.00%, past the ±3% \
             within which the same instructions say unchanged: counts cannot see memory or caches"
        );
        // Counts that moved, time reaching far the other way (cut's
        // `cut_characters_long_lines`): the note says why they did not decide.
        let mut long = Row::example("long_lines", 1e7, 0.0, Verdict::Inconclusive);
        long.change_ci = [-0.195, 0.238];
        long.instructions = Some(counted(-0.0105, 0.0));
        crate::compare::joint::decide(&mut long, 0.005, &Default::default());
        assert_eq!(long.verdict, Verdict::Inconclusive);
        assert_eq!(
            signal_note(&long, 0.005).unwrap().to_string(),
            "long_lines: instructions -1.05%, but time reads -19.50% … +23.80%, reaching past \
             the 3% slower within which it must lie for counts to decide: counts cannot see \
             memory, caches or branches"
        );
        // Within that reach they say unchanged, and the row needs no note.
        (wide.change_ci, wide.p_value) = ([-0.02, 0.029], Some(0.5));
        wide.verdict = Verdict::Inconclusive;
        crate::compare::joint::decide(&mut wide, 0.005, &Default::default());
        assert_eq!(wide.verdict, Verdict::Unchanged);
        assert_eq!(signal_note(&wide, 0.005), None);
        // A row whose time went against its counts says what that costs the others.
        r.verdict = Verdict::Regressed;
        r.change_ci = [0.009, 0.0128];
        r.decided_by = Some(Signal::Time);
        r.instructions = Some(counted(-0.0071, 0.0));
        let note = signal_note(&r, 0.005).unwrap().to_string();
        assert!(
            note.contains("moved opposite ways")
                && note.contains("counts that fell decide no row of this comparison"),
            "{note}"
        );
        // Counts that another row timed against decide nothing, and say why.
        r.decided_by = Some(Signal::Time);
        r.verdict = Verdict::Inconclusive;
        r.instructions = Some(CountChange {
            contrary: Some(crate::model::comparison::Contrary {
                id: "decode/3072".into(),
                counted: -0.0099,
                timed: 0.0092,
            }),
            ..counted(-0.0108, 0.0)
        });
        let note = signal_note(&r, 0.005).unwrap().to_string();
        assert!(
            note.contains("-1.08%")
                && note.contains("`decode/3072` counted -0.99% and timed +0.92%, slower")
                && note.contains("fewer instructions need not mean less time"),
            "{note}"
        );
        r.instructions.as_mut().unwrap().note = Some("threads".into());
        assert!(
            signal_note(&r, 0.005)
                .unwrap()
                .to_string()
                .contains("not compared: threads")
        );
    }
}
