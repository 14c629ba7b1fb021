//! One verdict from two signals: time, and instructions where they were
//! counted (`--metrics time,instructions`).
//!
//! Time decides where it is conclusive (regressed or improved), whatever
//! the counts say: memory, caches, branch prediction and system calls are
//! invisible to them. Counts decide where time cannot:
//! - time `inconclusive` or `unchanged`, the instructions moved by half the
//!   threshold or more ([`COUNT_SHARE`]: they carry no noise) and past
//!   twice their spread between processes
//!   ([`MOVED_PAST_SPREAD`]), and time's interval, reaching a threshold
//!   further either way, holds their change, or lies wholly past the
//!   threshold the way they moved ([`time_agrees`]), and rules out a
//!   change past [`STILL_TIME_REACH`] thresholds the other way
//!   ([`time_bounds_counts`]): `regressed` or `improved`.
//!   Where time's interval neither holds the counted change nor lies past
//!   the threshold its way, time's verdict stands (measured,
//!   the same build twice: `vec_push/1000` counted +7.8 % when each side's
//!   three processes found the allocator in another state, time
//!   −0.56 … +0.35 %). Nor do counts decide where another row of the
//!   comparison shows that, with this change, counts that move their way
//!   go with time that moves the other ([`Against`]);
//! - time `inconclusive` with no significant change (as its verdict judges
//!   significance: adjusted over the run's rows), an interval that rules out
//!   changes past [`STILL_TIME_REACH`] times the threshold (±3 % at the
//!   default), and the instructions still (less than half the threshold
//!   apart, in each pair of processes within half of it of each other):
//!   `unchanged`. Counts cannot see memory, so time must at least rule out
//!   a large change: a build reading memory 512 values apart, 111 % slower
//!   with the same instructions, measured over two link layouts a side,
//!   had a time interval of −16 … +430 %. The same builds' sorts, whose
//!   processes' placement moves them ±1–2 %, had intervals of ±2–2.5 %.
//!
//! - time `regressed` or `improved`, its interval not wholly past
//!   ±[`STILL_TIME_REACH`] thresholds ([`time_past_reach`]), and the
//!   instructions the same ([`counts_same`]): `inconclusive`. The two
//!   builds run the same code there, and a change within that reach is
//!   what relinking the same code moves, in code and data placement
//!   (measured: ordsearch's 8eb3b2e, which changes only its own
//!   construction, read 1 or 2 of its 28 untouched rows changed a run,
//!   −1.2 … +1.3 %, a different row each time and `btreeset/256` both
//!   ways; base64's a8a60f4, which changes only its decoders, read its
//!   untouched `encode_slice/31457280` +1.2 … +4.2 %). A change time
//!   places wholly past that reach is claimed by time, and so is one where
//!   the counts moved at all: the code changed.
//!
//! Counts a benchmark's own kind makes untelling (several threads) leave
//! the verdict to time. The row says which signal decided
//! (`decided_by`), and `words` says what the other one saw.

use crate::model::comparison::{Contrary, Row, Signal, Verdict};

/// How many times their spread between processes the counts must move
/// before they decide: a change that reads 1.6 % more in one pair of
/// processes than in the other (an allocator in another state) cannot tell
/// a 1 % change.
pub const MOVED_PAST_SPREAD: f64 = 2.0;

/// The share of the noise threshold counts are held to. Time carries the
/// machine's noise and needs the whole threshold; one executable counts
/// the same in every process, so a counted change of half of it is
/// already a change in the work done (a 0.5 % slower build counts
/// +0.49 % where each iteration also runs a few fixed instructions).
pub const COUNT_SHARE: f64 = 0.5;

/// How far, in thresholds, time's interval may reach either side of 0
/// for still counts to call a row unchanged.
pub const STILL_TIME_REACH: f64 = 6.0;

/// Whether the counts of `row` moved: by [`COUNT_SHARE`] of `threshold`
/// or more, and past [`MOVED_PAST_SPREAD`] times their spread.
pub fn counts_moved(row: &Row, threshold: f64) -> bool {
    row.instructions.as_ref().is_some_and(|c| {
        c.note.is_none()
            && c.change.abs() >= COUNT_SHARE * threshold
            && c.change.abs() > MOVED_PAST_SPREAD * c.spread
    })
}

/// Whether time's interval of `row`, reaching `threshold` further either
/// way, holds its counted change: the two signals agree on how far it
/// moved. The reach is there because a change in instructions need not be
/// the same share of the time (a 0.5 % slower `chain/short` counted
/// +0.98 % and timed +0.37 … +0.54 %), and an interval misses now and then
/// (1 % slower `sort/2000`: −0.59 … +0.89 %).
pub fn time_holds_counts(row: &Row, threshold: f64) -> bool {
    let [lo, hi] = row.change_ci;
    (row.instructions.as_ref())
        .is_some_and(|c| lo - threshold <= c.change && c.change <= hi + threshold)
}

/// Whether time agrees with the counts of `row`: its interval holds their
/// change ([`time_holds_counts`]), or lies wholly past `threshold` on the
/// side they moved to. The second because an instruction need not cost the
/// time of an average one: unicode-segmentation's ASCII fast path
/// (af87c8d) added 6.2–8.9 % instructions to `unicode_words` on
/// non-ASCII text, which timed +1.7 … +5.0 %; on Arabic time read
/// +0.6 … +4.6 %, past the threshold but not significant once adjusted
/// over the comparison's rows.
pub fn time_agrees(row: &Row, threshold: f64) -> bool {
    let [lo, hi] = row.change_ci;
    time_holds_counts(row, threshold)
        || (row.instructions.as_ref()).is_some_and(|c| match c.change > 0.0 {
            true => lo > threshold,
            false => hi < -threshold,
        })
}

/// Whether time's interval of `row` rules out a change past
/// [`STILL_TIME_REACH`] thresholds against its counts: no further than
/// that slower where they fell, or faster where they rose. Counts cannot
/// see memory or branches, so, as for still counts, time must at least
/// rule out a large change the other way. Measured on coreutils' cut,
/// 8d48201 ("speed up the multibyte character path") against its parent:
/// `cut_characters_long_lines` counted −1.05 % and timed +11 … +23 %; where
/// its time read −19.5 … +23.8 % (its output timed through a pipe) the
/// counts alone had called it improved.
pub fn time_bounds_counts(row: &Row, threshold: f64) -> bool {
    let reach = STILL_TIME_REACH * threshold;
    let [lo, hi] = row.change_ci;
    (row.instructions.as_ref()).is_some_and(|c| match c.change < 0.0 {
        true => hi <= reach,
        false => lo >= -reach,
    })
}

/// Whether time's interval of `row` lies within [`STILL_TIME_REACH`]
/// thresholds either side of 0: as far as still counts may vouch for it.
pub fn time_within_reach(row: &Row, threshold: f64) -> bool {
    let reach = STILL_TIME_REACH * threshold;
    let [lo, hi] = row.change_ci;
    lo >= -reach && hi <= reach
}

/// Whether time's interval of `row` lies wholly past [`STILL_TIME_REACH`]
/// thresholds on one side of 0: further than relinking the same code
/// moves it.
pub fn time_past_reach(row: &Row, threshold: f64) -> bool {
    let reach = STILL_TIME_REACH * threshold;
    let [lo, hi] = row.change_ci;
    lo > reach || hi < -reach
}

/// Whether the counts of `row` stayed still: less than [`COUNT_SHARE`] of
/// `threshold` apart, in each pair of processes within that of each other.
pub fn counts_still(row: &Row, threshold: f64) -> bool {
    let within = COUNT_SHARE * threshold;
    row.instructions
        .as_ref()
        .is_some_and(|c| c.note.is_none() && c.change.abs() < within && c.spread <= within)
}

/// How far apart counts may lie and still be the same work: a change
/// to the code a benchmark runs moves its count by some instructions an
/// iteration (the smallest measured on real commits: +0.06 %, httparse's
/// 47853d7; +0.075 %, base64's f70bad2), where the same code counts the
/// same to the last instruction (ordsearch's 8eb3b2e on the rows it does
/// not touch: +0.000 %).
pub const SAME_COUNT: f64 = 1e-4;

/// Whether both sides of `row` ran the same instructions: their counts
/// within [`SAME_COUNT`] of each other, or their pairs of processes
/// moving both ways (`both_ways`: code changed in what the row runs moves
/// every layout's count the same way), and in each pair of processes
/// within [`COUNT_SHARE`] of `threshold`. Both ways because constant data
/// placed anew in each layout moves some counts a little (measured,
/// minijinja's 2472799b, on the other engines it cannot touch: tera's
/// `render` −0.013 %, its pairs 0.042 % apart, and time −1.65 … −0.39 %,
/// called improved).
pub fn counts_same(row: &Row, threshold: f64) -> bool {
    counts_still(row, threshold)
        && (row.instructions.as_ref()).is_some_and(|c| c.change.abs() < SAME_COUNT || c.both_ways)
}

/// Whether `row`'s time, decided, went the other way from its counts,
/// which moved ([`counts_moved`]): slower with fewer instructions, or
/// faster with more.
pub fn goes_against(row: &Row, threshold: f64) -> bool {
    let fell = row.instructions.as_ref().is_some_and(|c| c.change < 0.0);
    counts_moved(row, threshold)
        && match row.verdict {
            Verdict::Regressed => fell,
            Verdict::Improved => !fell,
            _ => false,
        }
}

/// Whether `row`'s time verdict claims the change its counts moved:
/// regressed with more instructions, improved with fewer.
pub fn goes_with(row: &Row) -> bool {
    let counted = row.instructions.as_ref().map_or(0.0, |c| c.change);
    match row.verdict {
        Verdict::Regressed => counted > 0.0,
        Verdict::Improved => counted < 0.0,
        _ => false,
    }
}

/// The rows of a comparison whose time, decided, went the other way from
/// their counts: slower with fewer instructions (`fell`), or faster with
/// more (`rose`). One such row shows that, with the change compared, counts
/// that move that way say nothing of the time, and they decide no other
/// row. Measured, base64's commit f70bad2 (padding symbols configurable):
/// its decoders counted 0.9–1.2 % fewer instructions; those on 500 B to
/// 3 KiB timed +0.8 … +1.4 %, regressed; the same decoders on 3–30 MiB,
/// whose time could not tell (−1.4 … +3.9 %), were called improved by
/// their counts, and timed +0.4 … +1.7 % with 25 times the sampling.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Against {
    /// A row that timed slower where its instructions fell.
    pub fell: Option<Contrary>,
    /// A row that timed faster where its instructions rose.
    pub rose: Option<Contrary>,
}

impl Against {
    /// Of `rows`, whose time verdicts are made, the first that went against
    /// its counts each way.
    pub fn of<'a>(rows: impl IntoIterator<Item = &'a Row>, threshold: f64) -> Against {
        let mut against = Against::default();
        for row in rows.into_iter().filter(|r| goes_against(r, threshold)) {
            let Some(c) = row.instructions.as_ref() else {
                continue;
            };
            let slot = match c.change < 0.0 {
                true => &mut against.fell,
                false => &mut against.rose,
            };
            slot.get_or_insert_with(|| Contrary {
                id: row.id.clone(),
                counted: c.change,
                timed: row.change,
            });
        }
        against
    }

    /// The row that went against counts moving by `change`, if any.
    fn of_change(&self, change: f64) -> Option<&Contrary> {
        match change < 0.0 {
            true => self.fell.as_ref(),
            false => self.rose.as_ref(),
        }
    }
}

/// Whether the counts of `row` held back the change its time claimed:
/// the same instructions, and a change in time so small that relinking
/// the same code moves it ([`decide`]).
pub fn held_back(row: &Row) -> bool {
    row.verdict == Verdict::Inconclusive && row.decided_by == Some(Signal::Instructions)
}

/// Gives `row`, whose time verdict is made, the joint verdict at the run's
/// noise `threshold`, and says which signal decided (none without counts).
/// `against`: the comparison's rows whose time went against their counts.
pub fn decide(row: &mut Row, threshold: f64, against: &Against) {
    let Some(counts) = &mut row.instructions else {
        (row.decided_by, row.time_verdict) = (None, None);
        return;
    };
    row.time_verdict = Some(row.verdict);
    let change = counts.change;
    counts.contrary = None;
    let within_reach = time_within_reach(row, threshold);
    let no_change_in_time = !row.significant() && within_reach;
    row.decided_by = Some(Signal::Time);
    match row.verdict {
        Verdict::Inconclusive | Verdict::Unchanged
            if counts_moved(row, threshold)
                && time_agrees(row, threshold)
                && time_bounds_counts(row, threshold) =>
        {
            match (against.of_change(change), row.instructions.as_mut()) {
                (Some(contrary), Some(c)) => c.contrary = Some(contrary.clone()),
                _ => {
                    row.verdict = match change > 0.0 {
                        true => Verdict::Regressed,
                        false => Verdict::Improved,
                    };
                    row.decided_by = Some(Signal::Instructions);
                }
            }
        }
        Verdict::Inconclusive if no_change_in_time && counts_still(row, threshold) => {
            row.verdict = Verdict::Unchanged;
            row.decided_by = Some(Signal::Instructions);
        }
        Verdict::Regressed | Verdict::Improved
            if !time_past_reach(row, threshold) && counts_same(row, threshold) =>
        {
            row.verdict = Verdict::Inconclusive;
            row.decided_by = Some(Signal::Instructions);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::comparison::CountChange;

    fn row(verdict: Verdict, ci: [f64; 2], counts: (f64, f64)) -> Row {
        let (change, spread) = counts;
        Row {
            change_ci: ci,
            instructions: Some(CountChange::example(change, spread)),
            // Significant where the interval leaves out 0.
            p_value: Some(if ci[0] > 0.0 || ci[1] < 0.0 {
                0.01
            } else {
                0.5
            }),
            ..Row::example("x", 100.0, (ci[0] + ci[1]) / 2.0, verdict)
        }
    }

    #[test]
    fn time_decides_where_it_can_and_counts_where_it_cannot() {
        let t = 0.005;
        let decided = |mut r: Row| {
            decide(&mut r, t, &Against::default());
            (r.verdict, r.decided_by)
        };
        use Signal::{Instructions, Time};
        use Verdict::*;
        // Time conclusive: it decides, even against still counts (a change
        // outside the instruction stream),
        let r = row(Improved, [-0.10, -0.08], (0.001, 0.0));
        assert_eq!(decided(r), (Improved, Some(Time)));
        let r = row(Regressed, [0.031, 0.052], (0.0, 0.0));
        assert_eq!(decided(r), (Regressed, Some(Time)));
        // but not by a change relinking the same code moves: the same
        // counts and time within ±3 % (measured: ordsearch 8eb3b2e's
        // untouched `btreeset/256`, −1.34 … −0.55 %, +0.000 % counted).
        let r = row(Improved, [-0.0134, -0.0055], (0.0, 0.0008));
        assert_eq!(decided(r), (Inconclusive, Some(Instructions)));
        let r = row(Regressed, [0.006, 0.03], (0.00009, 0.0));
        assert_eq!(decided(r), (Inconclusive, Some(Instructions)));
        // An interval reaching past ±3 % but not wholly past it is no
        // more (measured: base64 a8a60f4's untouched
        // `encode_slice/31457280`, +1.18 … +4.15 %, +0.000 % counted);
        let r = row(Regressed, [0.0118, 0.0415], (0.0, 0.0));
        assert_eq!(decided(r), (Inconclusive, Some(Instructions)));
        let r = row(Improved, [-0.0415, -0.0118], (0.0, 0.0));
        assert_eq!(decided(r), (Inconclusive, Some(Instructions)));
        // wholly past it, time claims it (measured: its `decode_slice/3`,
        // whose code the commit changed, −7.31 … −7.18 %, +0.000 % counted).
        let r = row(Improved, [-0.0731, -0.0718], (0.0, 0.0));
        assert_eq!(decided(r), (Improved, Some(Time)));
        // Counts that moved at all: the code changed, and time decides
        // (measured: base64 f70bad2's 100-byte decoders, +0.075 % counted,
        // +1.0 … +2.2 % timed in each of two runs).
        let r = row(Regressed, [0.0076, 0.0128], (0.00075, 0.0));
        assert_eq!(decided(r), (Regressed, Some(Time)));
        // Counts that moved a little both ways, as placement moves them:
        // no change of their own (measured: minijinja 2472799b's untouched
        // `cmp_render/tera`, −0.013 % counted, its pairs 0.042 % apart),
        let mut r = row(Improved, [-0.0165, -0.0039], (-0.00013, 0.00042));
        assert_eq!(decided(r.clone()), (Improved, Some(Time)));
        r.instructions.as_mut().unwrap().both_ways = true;
        assert_eq!(decided(r), (Inconclusive, Some(Instructions)));
        // but not where the pairs lie further apart than half the threshold.
        let mut r = row(Regressed, [0.006, 0.03], (0.0012, 0.003));
        r.instructions.as_mut().unwrap().both_ways = true;
        assert_eq!(decided(r), (Regressed, Some(Time)));
        // Time cannot tell; the counts moved 1 %: they decide.
        let r = row(Inconclusive, [-0.003, 0.012], (0.01, 0.0));
        assert_eq!(decided(r), (Regressed, Some(Instructions)));
        let r = row(Inconclusive, [-0.012, 0.004], (-0.008, 0.0));
        assert_eq!(decided(r), (Improved, Some(Instructions)));
        // Half the threshold counted is a change (0.5 % slower: +0.49 % counted),
        let r = row(Inconclusive, [-0.001, 0.011], (0.0049, 0.0));
        assert_eq!(decided(r), (Regressed, Some(Instructions)));
        let r = row(Unchanged, [-0.002, 0.004], (0.0025, 0.0));
        assert_eq!(decided(r), (Regressed, Some(Instructions)));
        // less is not.
        let r = row(Unchanged, [-0.002, 0.004], (0.0024, 0.0));
        assert_eq!(decided(r), (Unchanged, Some(Time)));
        // Time's interval rules the counted change out: they disagree, and
        // time's verdict stands (measured: the same build, +7.8 % counted
        // where each side's processes met the allocator in another state).
        let r = row(Inconclusive, [-0.0056, 0.0035], (0.078, 0.0008));
        assert_eq!(decided(r), (Inconclusive, Some(Time)));
        let r = row(Unchanged, [-0.004, 0.004], (-0.012, 0.0));
        assert_eq!(decided(r), (Unchanged, Some(Time)));
        // Within a threshold of time's interval they agree (measured: 1 %
        // slower, `sort/2000` timed −0.59 … +0.89 %).
        let r = row(Inconclusive, [-0.0059, 0.0089], (0.01, 0.0));
        assert_eq!(decided(r), (Regressed, Some(Instructions)));
        // Time's interval wholly past the threshold the way the counts
        // moved, further than they did: they agree (measured:
        // unicode-segmentation's af87c8d, `words/grapheme/arabic`, not
        // significant once adjusted).
        let r = row(Inconclusive, [0.0061, 0.0458], (0.0621, 0.0));
        assert_eq!(decided(r), (Regressed, Some(Instructions)));
        let r = row(Inconclusive, [-0.0458, -0.0061], (-0.0621, 0.0));
        assert_eq!(decided(r), (Improved, Some(Instructions)));
        // Not where time's interval reaches inside the threshold.
        let r = row(Inconclusive, [0.004, 0.0458], (0.0621, 0.0));
        assert_eq!(decided(r), (Inconclusive, Some(Time)));
        let r = row(Unchanged, [0.001, 0.004], (0.0621, 0.0));
        assert_eq!(decided(r), (Unchanged, Some(Time)));
        // Moved, but the pairs of processes' changes lie further apart: time's verdict stays.
        let r = row(Inconclusive, [-0.003, 0.012], (0.01, 0.034));
        assert_eq!(decided(r), (Inconclusive, Some(Time)));
        // Still counts and a time interval holding no change: unchanged.
        let r = row(Inconclusive, [-0.008, 0.009], (0.0, 0.0));
        assert_eq!(decided(r), (Unchanged, Some(Instructions)));
        // ... but not where time's change is significant,
        let mut r = row(Inconclusive, [0.001, 0.02], (0.0, 0.0));
        r.p_adjusted = Some(0.01);
        assert_eq!(decided(r.clone()), (Inconclusive, Some(Time)));
        // (an interval past 0 that the run's other rows make
        // insignificant, as 5 % of intervals are: measured, 5 of 80 A/A
        // rows with identical counts),
        r.p_adjusted = Some(0.39);
        assert_eq!(decided(r), (Unchanged, Some(Instructions)));
        // nor where it cannot rule out a large change (memory, unseen by counts).
        let r = row(Inconclusive, [-0.16, 4.3], (0.0, 0.0));
        assert_eq!(decided(r), (Inconclusive, Some(Time)));
        let r = row(Inconclusive, [-0.031, 0.021], (0.0, 0.0));
        assert_eq!(decided(r), (Inconclusive, Some(Time)));
        let r = row(Inconclusive, [-0.0256, 0.0235], (0.0, 0.0));
        assert_eq!(decided(r), (Unchanged, Some(Instructions)));
        // Counts that do not tell leave it to time.
        let mut r = row(Inconclusive, [-0.003, 0.012], (0.05, 0.0));
        r.instructions.as_mut().unwrap().note = Some("threads".into());
        assert_eq!(decided(r), (Inconclusive, Some(Time)));
        // No counts: no signal named.
        let mut r = row(Inconclusive, [-0.003, 0.012], (0.05, 0.0));
        r.instructions = None;
        assert_eq!(decided(r), (Inconclusive, None));
    }

    #[test]
    fn counts_decide_only_where_time_rules_out_a_large_change_the_other_way() {
        let t = 0.005;
        use Verdict::*;
        // cut's 8d48201: fewer instructions, time through a pipe that
        // could not tell; timed without it, +11 … +23 %.
        let mut long_lines = row(Inconclusive, [-0.195, 0.238], (-0.0105, 0.0));
        decide(&mut long_lines, t, &Against::default());
        assert_eq!(
            (long_lines.verdict, long_lines.decided_by),
            (Inconclusive, Some(Signal::Time))
        );
        // Far the way they moved is no bar: only the other way.
        let mut faster = row(Inconclusive, [-0.195, 0.029], (-0.0105, 0.0));
        decide(&mut faster, t, &Against::default());
        assert_eq!(faster.verdict, Improved);
        let mut rose = row(Inconclusive, [-0.031, 0.2], (0.0091, 0.0));
        decide(&mut rose, t, &Against::default());
        assert_eq!(rose.verdict, Inconclusive);
        let mut rose = row(Inconclusive, [-0.0083, 0.2], (0.0091, 0.0));
        decide(&mut rose, t, &Against::default());
        assert_eq!(rose.verdict, Regressed);
    }

    #[test]
    fn counts_decide_no_row_where_another_timed_against_them() {
        let t = 0.005;
        use Verdict::*;
        // base64's f70bad2: a small input's decoder, fewer instructions and
        // slower; a large input's, fewer instructions and time that cannot tell.
        let mut small = row(Regressed, [0.0036, 0.0148], (-0.0099, 0.0));
        small.id = "decode/3072".into();
        small.change = 0.0092;
        // Its interval read −1.44 … +3.9 %, past what lets counts decide
        // (below); narrowed here to within it, so that only the other row
        // stops them.
        let large = row(Inconclusive, [-0.0144, 0.029], (-0.0108, 0.0));
        // Alone, the counts would call the large one improved.
        let mut alone = large.clone();
        decide(&mut alone, t, &Against::default());
        assert_eq!(alone.verdict, Improved);
        let against = Against::of([&small, &large], t);
        assert_eq!(
            against.fell.as_ref().map(|c| c.id.as_str()),
            Some("decode/3072")
        );
        assert_eq!(against.rose, None);
        let mut judged = large.clone();
        decide(&mut judged, t, &against);
        assert_eq!(judged.verdict, Inconclusive);
        assert_eq!(judged.decided_by, Some(Signal::Time));
        let contrary = judged
            .instructions
            .as_ref()
            .and_then(|c| c.contrary.clone());
        assert_eq!(
            contrary.map(|c| (c.counted, c.timed)),
            Some((-0.0099, 0.0092))
        );
        // Counts that rose still decide: nothing went against those.
        let mut rose = row(Inconclusive, [-0.003, 0.012], (0.01, 0.0));
        decide(&mut rose, t, &against);
        assert_eq!(
            (rose.verdict, rose.decided_by),
            (Regressed, Some(Signal::Instructions))
        );
        // A row whose time agrees with its counts, or whose counts did not
        // move past their spread, goes against nothing.
        let agrees = row(Regressed, [0.004, 0.015], (0.0099, 0.0));
        let spread = row(Regressed, [0.004, 0.015], (-0.0099, 0.03));
        assert_eq!(Against::of([&agrees, &spread], t), Against::default());
        // Still counts (and time's verdict) are as before.
        let mut still = row(Inconclusive, [-0.008, 0.009], (0.0, 0.0));
        decide(&mut still, t, &against);
        assert_eq!(still.verdict, Unchanged);
    }
}
