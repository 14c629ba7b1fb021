//! Why a row is inconclusive and what would narrow it; what the reader
//! should know when a side was compared in one link layout.

use crate::compare::rule::decide;
use crate::model::comparison::{Kind, Row, SIGNIFICANCE, TargetComparison, Verdict};

/// Why an inconclusive row's interval stayed wider than the threshold, in
/// words: the interval, then the cause the row's figures point to and what
/// would narrow it.
pub fn why_inconclusive(row: &Row, threshold: f64) -> String {
    if let Some(why) = no_one_change(row, threshold) {
        return why;
    }
    let span = span(row, threshold);
    let half = (row.change_ci[1] - row.change_ci[0]) / 2.0;
    let cause = match row.kind {
        Kind::Stored => {
            "compared with stored samples, taken at another time (run it paired)".to_owned()
        }
        _ if row
            .layout_spread
            .is_some_and(|s| s >= threshold && s * 2.0 >= half) =>
        {
            let s = row.layout_spread.unwrap_or_default() * 100.0;
            let wider = match row.placement_spread {
                Some(_) => format!(" ({})", remedy(row)),
                None => String::new(),
            };
            match (row.placement_spread, row.placement_part()) {
                // Too few epochs to part placement from the machine's noise
                // (each side's layouts did not run twice): that is the cause.
                (None, _) => format!(
                    "fresh processes in other link layouts differ by ±{s:.1}% from pair to \
                     pair, code placement and the machine's noise together ({} are too few to \
                     tell them apart: raise --max-time)",
                    judged_epochs(row)
                ),
                (Some(_), Some(part)) => {
                    format!("fresh processes differ by ±{s:.1}% from pair to pair, {part}{wider}")
                }
                // Placement's part past the rest's by the layouts' means,
                // but not by the interval, which more process pairs narrow
                // (the two estimates, over 16 layouts a side, can differ):
                // the hint follows the interval, and so do these words.
                (Some(_), None) if widened_most(row).is_none() => format!(
                    "fresh processes in other link layouts differ by ±{s:.1}% from pair to \
                     pair{wider}"
                ),
                (Some(_), None) => format!("code placement alone moves it ±{s:.1}%{wider}"),
            }
        }
        _ if row.epochs.is_some_and(|e| e < 4) => format!(
            "only {} epochs fit in the time limit (raise --max-time)",
            row.epochs.unwrap_or_default()
        ),
        _ if row.time_limited => {
            "the machine's noise, over the whole time limit (raise --max-time)".to_owned()
        }
        _ => "the machine's noise".to_owned(),
    };
    let cause = match work_that_varies(row, threshold) {
        Some(work) if row.kind != Kind::Stored => format!("{cause}; {work}"),
        _ => cause,
    };
    match (row.epochs_pulled_in, row.unit_ratios.len()) {
        (0, _) => format!("{span}: {cause}"),
        (k, n) => format!("{span}: {cause} ({k} of {n} epochs ran far from the rest)"),
    }
}

/// Where the row's instruction counts lay apart from process to process
/// (half the threshold or more, where one executable's processes count
/// alike to the instruction): the words saying that the work itself
/// differs between processes, which widens time's interval beside
/// placement and noise. A benchmark whose inputs, or whose hasher's
/// seed, come from what the two processes of a pair cannot be given alike
/// (what `getrandom` gives, they are) counts so: quick-cache's
/// `Reads N=1000000` rows counted 0.7–1.0 % apart and timed ±6–9 % apart
/// between processes.
fn work_that_varies(row: &Row, threshold: f64) -> Option<String> {
    let counts = row.instructions.as_ref().filter(|c| c.note.is_none())?;
    (counts.spread >= threshold / 2.0).then(|| {
        format!(
            "its instruction counts too lay {:.1}% apart from process to process: the work \
             itself differs between processes ({})",
            counts.spread * 100.0,
            super::WORK_DIFFERS
        )
    })
}

/// The interval of an inconclusive row, and that it is wider than the
/// threshold, or (narrower) lies on both sides of one of its edges.
fn span(row: &Row, threshold: f64) -> String {
    let [lo, hi] = row.change_ci;
    let within = format!("the change lies somewhere in {} … {}", pct(lo), pct(hi));
    let edge = [-threshold, threshold]
        .into_iter()
        .find(|e| lo < *e && *e < hi);
    match edge {
        Some(edge) if hi - lo < 2.0 * threshold => {
            format!("{within}, on both sides of {}", pct(edge))
        }
        _ => format!("{within}, wider than ±{:.1}%", threshold * 100.0),
    }
}

/// A change as a signed percentage with one decimal: `+1.2%`.
fn pct(x: f64) -> String {
    format!("{:+.1}%", x * 100.0)
}

/// Why a row has no verdict whatever its interval: its change follows
/// the machine's speed, it was significant only before the adjustment for
/// the other rows, its work differs between processes, or its change
/// follows the iterations per sample. None where the interval's width is
/// the reason.
fn no_one_change(row: &Row, threshold: f64) -> Option<String> {
    let [lo, hi] = row.change_ci.map(pct);
    if crate::compare::joint::held_back(row) {
        let counted = (row.instructions.as_ref()).map_or(0.0, |c| c.change);
        let ways = match counted.abs() < crate::compare::joint::SAME_COUNT {
            true => "",
            false => ", both ways between pairs of processes",
        };
        let reach = crate::compare::joint::STILL_TIME_REACH * threshold * 100.0;
        let partly = match crate::compare::joint::time_within_reach(row, threshold) {
            true => String::new(),
            false => format!(", not wholly past ±{reach:.0}%"),
        };
        return Some(format!(
            "time reads {lo} … {hi}{partly}, but both builds run the same instructions \
             ({:+.3}%{ways}), and a change within ±{reach:.0}% in the same code is what \
             relinking it moves (code and data placement): it is not claimed",
            counted * 100.0,
        ));
    }
    if let Some(s) = crate::compare::speeds::split(row, threshold) {
        return Some(format!(
            "over all epochs the change lies in {lo} … {hi}, but it {}: its change follows \
             the machine's speed (memory traffic weighs more on a slowed machine), so no one \
             verdict holds; measure again on a quieter machine",
            s.describe()
        ));
    }
    if let Some(why) = lost_to_adjustment(row, threshold) {
        return Some(format!("the change lies in {lo} … {hi}, {why}"));
    }
    if crate::compare::rule::one_epoch(row) {
        return Some(format!(
            "one process a side fit in the time limit: its samples read {lo} … {hi}, but \
             how far another pair of processes reads from this one is unknown, so one epoch \
             decides nothing (raise --max-time)"
        ));
    }
    let span = span(row, threshold);
    if let Some(times) = crate::compare::rule::unsteady(row) {
        return Some(format!(
            "{span}: its time varies {times:.0} times over between processes of the same \
             build, so it does different work in each (random or stateful inputs?) and no \
             comparison can tell: give each iteration the same work"
        ));
    }
    if let Some(changes) = crate::compare::iterations::by_iterations(row, threshold) {
        return Some(format!(
            "{span}: it reads {}: {}, so it has no one change",
            crate::compare::iterations::describe(&changes),
            super::FOLLOWS_COUNT
        ));
    }
    let claimed = crate::compare::rule::decide(
        row.change,
        row.change_ci,
        row.significant(),
        row.threshold(threshold),
    );
    if let Some([mlo, mhi]) = crate::compare::rule::median_against(row, claimed) {
        return Some(format!(
            "the mean of its epochs reads {lo} … {hi}, but their median lies in {} … {}: \
             a few epochs carry the change, which the others do not show (raise --max-time)",
            pct(mlo),
            pct(mhi)
        ));
    }
    if let Some(why) = in_two_states(row, claimed, threshold) {
        return Some(why);
    }
    None
}

/// Why a claim is withheld from a row whose processes ran in two states
/// both ways ([`crate::compare::rule::states_against`]).
fn in_two_states(row: &Row, claimed: Verdict, threshold: f64) -> Option<String> {
    let s = crate::compare::rule::states_against(row, claimed, threshold)?;
    let [lo, hi] = row.change_ci.map(pct);
    let (_, [plo, phi], _) = s.plain;
    Some(format!(
        "its epochs read {lo} … {hi}, but its processes {}: a pair often compares one \
         state with the other, and over every epoch as it ran the change lies in {} … {}; \
         which side drew the slow state decides it, not the builds (threads passing work \
         between CPUs?)",
        s.describe(),
        pct(plo),
        pct(phi)
    ))
}

/// The epochs a row's change was taken from, in words: `32 epochs`, or
/// `the 27 of 32 epochs its change is taken from` where it was taken from
/// some (those whose processes ran in one speed state, or in copies).
fn judged_epochs(row: &Row) -> String {
    let n = row.epochs.unwrap_or_default();
    match row.full_speed_units {
        k if k > 0 && k < n => format!("the {k} of {n} epochs its change is taken from"),
        _ => format!("{n} epochs"),
    }
}

/// For a row that alone would be regressed or improved (its interval on
/// one side of 0, the change past the threshold, p < 0.05) but is not once
/// its p-value is adjusted for the other rows compared: what to say.
fn lost_to_adjustment(row: &Row, threshold: f64) -> Option<String> {
    let (p, q) = (row.p_value?, row.p_adjusted?);
    let alone = decide(row.change, row.change_ci, p < SIGNIFICANCE, threshold);
    let decided = matches!(alone, Verdict::Regressed | Verdict::Improved);
    // Few epochs: a t test on them asks much of a change (blart's
    // `bench_from_iter::skewed`, 78 ms → 9 ms an iteration, read −88 %
    // [−94, −74] from its few epochs, p = 0.003 alone, 0.127 adjusted).
    let epochs = row.epochs.unwrap_or_default();
    let more = match epochs < FEW_EPOCHS {
        true => format!(": only {epochs} epochs fit in the time limit (raise --max-time)"),
        false => String::new(),
    };
    (decided && q >= SIGNIFICANCE).then(|| {
        format!(
            "significant alone (p = {p:.3}) but not once adjusted for the other benchmarks \
             compared (p = {q:.3}; Benjamini–Hochberg){more}"
        )
    })
}

/// Below this many epochs, a row that lost its claim to the adjustment is
/// told that more would tell.
const FEW_EPOCHS: usize = 16;

/// What would narrow the interval of a row whose units spread with code
/// placement and the machine's process-to-process noise together, read
/// off the interval itself: where the layouts its units share widened it
/// by [`LAYOUTS_WEIGH_MORE`] or more ([`widened_by_layouts`]: placement's
/// part of its variance at least the rest's), more link layouts; else
/// more process pairs, which a longer time limit buys. More layouts need
/// time too: every layout runs before a comparison may stop, so at the
/// same time limit they leave none for the rows in doubt. On this
/// project's AMD VM (A/A, the same source relinked, 6 rows a setting, the
/// widening recomputed offline from their epochs): at `--max-time 6s`
/// the sorts' intervals over 16 layouts came out widened 1.0–2.0 times
/// (`sort/2000` 1.5–1.8), and 48 layouts narrowed them (±0.57 → ±0.44 %)
/// where more time did not (3 s → 6 s: ±0.59 → ±0.57 %); at 800 ms,
/// `vec_push/1000`'s were widened 1.0–1.34 times, and time alone narrowed
/// it (±0.89 → ±0.36 % at 3 s). Judged instead by the layouts' own spread
/// (`placement_spread`) against the units', as the hint once was, 4 of 6 such
/// `vec_push/1000` rows were told to raise `--layouts`, and 2 of 3 such
/// `sort/2000` rows `--max-time`.
fn remedy(row: &Row) -> String {
    match widened_most(row) {
        Some(w) => format!(
            "the layouts its epochs ran widened its interval {w:.1} times: more link layouts \
             would narrow it, given time to run them all: raise --layouts (the baseline's too) \
             and --max-time with it"
        ),
        None => "raise --max-time".to_owned(),
    }
}

/// How many times the layouts a row's units share widened its interval,
/// where that is [`LAYOUTS_WEIGH_MORE`] or more: placement weighs at least
/// as much in it as the noise between process pairs.
fn widened_most(row: &Row) -> Option<f64> {
    row.layout_widening.filter(|w| *w >= LAYOUTS_WEIGH_MORE)
}

/// The widening of an interval for the layouts its units share
/// ([`widened_by_layouts`]) from which placement weighs at least as much
/// in it as the noise between process pairs does: √2, their variances equal.
const LAYOUTS_WEIGH_MORE: f64 = std::f64::consts::SQRT_2;

/// Where a comparison on time alone left paired rows inconclusive: that
/// instruction counts decide many rows time cannot tell (measured on
/// quick-xml's c7e740d: 47 of 67 inconclusive on time alone, 1 with counts).
pub fn counts_note(targets: &[TargetComparison]) -> Option<String> {
    let rows = || targets.iter().flat_map(|t| &t.rows);
    let paired = || rows().filter(|r| r.kind == Kind::Paired);
    let inconclusive = paired()
        .filter(|r| r.verdict == Verdict::Inconclusive)
        .count();
    (inconclusive > 0).then(|| {
        format!(
            "{inconclusive} of {} rows are inconclusive on time alone: `--metrics \
             time,instructions` also counts each benchmark's instructions (with Valgrind or a \
             CPU counter) and decides many rows that time cannot tell",
            paired().count()
        )
    })
}

/// What the reader should know when code placement was not controlled: a
/// side compared with one link layout moves with the layout lottery.
pub fn placement_notes(baseline: &str, targets: &[TargetComparison]) -> Vec<String> {
    let sides = |i: usize| targets.iter().filter_map(|t| t.layouts).any(|l| l[i] == 1);
    let mut notes = Vec::new();
    if sides(0) {
        notes.push(format!(
            "baseline `{baseline}` was saved with one link layout: code placement is not \
             controlled, so a change may be the layout's; save it again to compare over layouts"
        ));
    }
    if sides(1) {
        notes.push(
            "the current build was compared in one link layout: code placement is not \
             controlled, so a change may be the layout's"
                .to_owned(),
        );
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::compare::{estimators::*, far::*, layouts::*, rule::*};
    #[allow(unused_imports)]
    use crate::model::comparison::{CountChange, Kind, Row, Verdict};

    #[test]
    fn a_comparison_timed_alone_says_what_counts_would_add() {
        let row = |verdict, kind| Row {
            kind,
            ..Row::example("x", 100.0, 0.0, verdict)
        };
        let mut t = TargetComparison::empty("p/t");
        t.rows = vec![
            row(Verdict::Inconclusive, Kind::Paired),
            row(Verdict::Unchanged, Kind::Paired),
            row(Verdict::Inconclusive, Kind::Stored),
        ];
        let note = counts_note(std::slice::from_ref(&t)).unwrap();
        assert!(
            note.starts_with("1 of 2 rows are inconclusive on time alone"),
            "{note}"
        );
        t.rows.remove(0);
        assert_eq!(counts_note(&[t]), None);
    }

    #[test]
    fn counts_held_back_both_ways_say_so() {
        use crate::model::comparison::CountChange;
        let mut row = Row::example("cmp_render/tera", 6409.0, -0.0103, Verdict::Improved);
        (row.change_ci, row.p_value) = ([-0.0165, -0.0039], Some(0.001));
        row.instructions = Some(CountChange {
            both_ways: true,
            ..CountChange::example(-0.00013, 0.00042)
        });
        crate::compare::joint::decide(&mut row, 0.005, &Default::default());
        let why = no_one_change(&row, 0.005).unwrap();
        assert!(
            why.contains("the same instructions (-0.013%, both ways between pairs of processes)"),
            "{why}"
        );
    }

    #[test]
    fn an_inconclusive_row_says_why() {
        let found = (0.06, [-0.03, 0.16], Some(0.3));
        let mut row = Row {
            p_adjusted: Some(0.3),
            layout_spread: Some(0.14),
            epochs: Some(8),
            time_limited: true,
            ..Row::new(
                "sort",
                Kind::Paired,
                Default::default(),
                [100.0, 106.0],
                found,
            )
        };
        let why = why_inconclusive(&row, 0.005);
        assert!(
            why.starts_with("the change lies somewhere in -3.0% … +16.0%, wider than ±0.5%"),
            "{why}"
        );
        assert!(
            why.ends_with(
                "fresh processes in other link layouts differ by ±14.0% from pair to pair, code \
                 placement and the machine's noise together (8 epochs are too few to tell them \
                 apart: raise --max-time)"
            ),
            "{why}"
        );
        // Counts that differ from process to process: the work does too.
        row.instructions = Some(CountChange::example(-0.0099, 0.007));
        assert!(
            why_inconclusive(&row, 0.005).ends_with(
                "raise --max-time); its instruction counts too lay 0.7% apart from process to \
                 process: the work itself differs between processes (code that allocates \
                 meets the allocator in another state, or inputs or a hasher's seed drawn from \
                 the clock, an address or `/dev/urandom`)"
            ),
            "{}",
            why_inconclusive(&row, 0.005)
        );
        // Counts alike but for a layout's padding say nothing of it.
        row.instructions = Some(CountChange::example(0.0, 0.0004));
        assert_eq!(why_inconclusive(&row, 0.005), why);
        row.instructions = None;
        // Its change taken from the epochs whose processes ran in one
        // speed state: those are the ones too few.
        row.epochs = Some(32);
        row.full_speed_units = 27;
        assert!(
            why_inconclusive(&row, 0.005)
                .contains("(the 27 of 32 epochs its change is taken from are too few to tell"),
            "{why}"
        );
        row.full_speed_units = 0;
        // Once each side's layouts ran twice, placement's part is known;
        // an interval the layouts widened 1.8 times needs more of them.
        row.placement_spread = Some(0.14);
        row.epochs = Some(32);
        row.layout_widening = Some(1.8);
        let why = why_inconclusive(&row, 0.005);
        assert!(
            why.contains("code placement alone moves it ±14.0% (the layouts its epochs ran widened its interval 1.8 times: more link layouts"),
            "{why}"
        );
        // Measured (vec_push/1000, A/A, 160 epochs): units ±3.6 % apart,
        // the layouts' own effects ±1.1 % of it; the rest is the machine's.
        (row.layout_spread, row.placement_spread) = (Some(0.036), Some(0.011));
        row.change_ci = [-0.017, 0.024];
        // Its interval widened 1.2 times for the layouts: the noise
        // between processes weighs more in it; more process pairs narrow it.
        row.layout_widening = Some(1.2);
        let why = why_inconclusive(&row, 0.005);
        assert!(
            why.ends_with(
                "fresh processes differ by ±3.6% from pair to pair, code placement ±1.1% of it (raise --max-time)"
            ),
            "{why}"
        );
        // Widened 1.5 times (placement's part of its variance past the
        // rest's): only more layouts narrow it.
        row.layout_widening = Some(1.5);
        let why = why_inconclusive(&row, 0.005);
        assert!(
            why.ends_with(
                "code placement ±1.1% of it (the layouts its epochs ran widened its interval 1.5 \
                 times: more link layouts would narrow it, given time to run them all: raise \
                 --layouts (the baseline's too) and --max-time with it)"
            ),
            "{why}"
        );
        // Placement with no part in it says so.
        (row.placement_spread, row.layout_widening) = (Some(0.0), None);
        let why = why_inconclusive(&row, 0.005);
        assert!(
            why.ends_with("±3.6% from pair to pair, none of it code placement (raise --max-time)"),
            "{why}"
        );
        row.placement_spread = Some(0.03);
        row.layout_widening = Some(2.0);
        assert!(
            why_inconclusive(&row, 0.005)
                .ends_with("code placement alone moves it ±3.6% (the layouts its epochs ran widened its interval 2.0 times: more link layouts would narrow it, given time to run them all: raise --layouts (the baseline's too) and --max-time with it)")
        );
        // The layouts' means put most of the spread on placement, but the
        // interval was widened little for them: it is the process pairs
        // that set it, and the words say no more than the hint does.
        row.layout_widening = Some(1.1);
        let why = why_inconclusive(&row, 0.005);
        assert!(
            why.ends_with(
                "fresh processes in other link layouts differ by ±3.6% from pair to pair \
                 (raise --max-time)"
            ),
            "{why}"
        );
        row.layout_widening = None;
        assert_eq!(why_inconclusive(&row, 0.005), why);
        row.unit_ratios = Vec::new();
        row.layout_spread = Some(0.001);
        assert!(why_inconclusive(&row, 0.005).ends_with("(raise --max-time)"));
        row.epochs = Some(2);
        assert!(why_inconclusive(&row, 0.005).contains("only 2 epochs"));
        // One epoch: its interval is one pair of processes', however narrow.
        row.epochs = Some(1);
        assert!(
            why_inconclusive(&row, 0.005).starts_with(
                "one process a side fit in the time limit: its samples read -1.7% … +2.4%, but"
            ),
            "{}",
            why_inconclusive(&row, 0.005)
        );
        row.epochs = Some(2);
        row.kind = Kind::Stored;
        assert!(why_inconclusive(&row, 0.005).contains("stored samples"));
        // Measured: sum/16 of a build 1 % slower, 17 epochs, p 0.049
        // alone and 0.052 adjusted over 20 rows; the interval is not what
        // kept it from a verdict.
        row.kind = Kind::Paired;
        row.change = 0.0095;
        row.change_ci = [0.0056, 0.0103];
        row.p_value = Some(0.049);
        row.p_adjusted = Some(0.052);
        row.epochs = Some(17);
        assert_eq!(
            why_inconclusive(&row, 0.005),
            "the change lies in +0.6% … +1.0%, significant alone (p = 0.049) but not once \
             adjusted for the other benchmarks compared (p = 0.052; Benjamini–Hochberg)"
        );
        // From few epochs: more would tell.
        row.epochs = Some(5);
        assert!(why_inconclusive(&row, 0.005).ends_with(
            "(p = 0.052; Benjamini–Hochberg): only 5 epochs fit in the time limit \
                            (raise --max-time)"
        ));
        row.epochs = Some(17);
        row.p_adjusted = Some(0.049);
        assert!(why_inconclusive(&row, 0.005).contains("wider than"));
        // Narrower than the threshold's band, across its edge (measured:
        // curve25519-dalek's multiscalar/16, −0.65 … −0.14 %).
        row.change_ci = [-0.0065, -0.0014];
        assert!(
            why_inconclusive(&row, 0.005)
                .starts_with("the change lies somewhere in -0.7% … -0.1%, on both sides of -0.5%"),
            "{}",
            why_inconclusive(&row, 0.005)
        );
    }
}
