//! The verdict rule: when a change is regressed, improved, unchanged or
//! inconclusive, and when measuring more could no longer move it. Every
//! row's verdict is given here once, by [`decide_rows`], after its interval is final.

use super::speeds::{TwoStates, two_states};
use super::words::why_inconclusive;
use crate::model::comparison::{Comparison, Kind, Row, SIGNIFICANCE, Verdict};

/// The estimate of current / baseline − 1 with its 95 % CI, and the
/// verdict it alone would give (what early stopping and the time left
/// over go by; a row's own is given by [`decide_rows`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// Relative change (0.05 = 5 % slower).
    pub change: f64,
    /// 95 % CI of the change.
    pub ci: [f64; 2],
    /// Two-sided p-value of the test used, where there is one.
    pub p_value: Option<f64>,
    /// The conclusion.
    pub verdict: Verdict,
    /// Epochs pulled in as far from the rest; see `far::pull_in_far`.
    pub pulled_in: usize,
    /// Layouts left out as far from the rest; see `layouts::far_layouts`.
    pub layouts_left_out: usize,
    /// Units at full speed the change was taken from ([`Fast`]), where
    /// some epoch's two processes ran in different speed states; 0 otherwise.
    pub full_speed_units: usize,
    /// How many times wider the interval was made for the layouts its
    /// units share (see `widened_by_layouts`); 1 where it was not.
    pub layout_widening: f64,
}

/// Regressed or improved: significant, the interval on one side of 0 and
/// the change beyond the threshold. Unchanged only when the whole interval
/// lies within ±threshold; anything else is inconclusive, never "unchanged".
pub fn decide(change: f64, ci: [f64; 2], significant: bool, threshold: f64) -> Verdict {
    if significant && ci[0] > 0.0 && change > threshold {
        Verdict::Regressed
    } else if significant && ci[1] < 0.0 && change < -threshold {
        Verdict::Improved
    } else if ci[0] >= -threshold && ci[1] <= threshold {
        Verdict::Unchanged
    } else {
        Verdict::Inconclusive
    }
}

/// When a comparison asks whether its epochs settle it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// After an epoch, to stop before the time limit: one of many looks.
    Early,
    /// At the time limit, once: whether the time its target's other
    /// benchmarks left over should buy it more epochs.
    Final,
}

/// How many times wider the interval of a claim must be to stop a
/// comparison early ([`Look::Early`]). A comparison asks after every epoch
/// from its 16th unit on, and stopping on the first interval past the
/// threshold claims more often than the interval says (an interval that
/// holds 95 % at one look is outside at one of many looks far more often):
/// 60 comparisons of the same executables on a row whose inputs each
/// process draws at random (`random/insert/256` of the verdicts fixture,
/// its epochs spreading ±2.3 %) called 7 of 120 rows changed: 5 stopped
/// early on the claim, 3 of them at the first look (16 or 17 units), 4
/// with an epoch the machine had stalled 3–8×. 1.5 times the interval is
/// about the 99.5 % interval at one look; a claim short of it measures on
/// to the time limit, where its interval is read once, at 95 %.
pub const EARLY_CLAIM_WIDENING: f64 = 1.5;

/// Whether more measuring could no longer change the verdict much: the CI
/// lies wholly beyond the noise threshold on one side (at an early look,
/// the CI widened by [`EARLY_CLAIM_WIDENING`] about the change), or
/// wholly within it.
pub fn settled(c: &Change, threshold: f64, look: Look) -> bool {
    let [lo, hi] = c.ci;
    let [claim_lo, claim_hi] = match look {
        Look::Early => [
            c.change - EARLY_CLAIM_WIDENING * (c.change - lo),
            c.change + EARLY_CLAIM_WIDENING * (hi - c.change),
        ],
        Look::Final => c.ci,
    };
    claim_lo > threshold || claim_hi < -threshold || (lo >= -threshold && hi <= threshold)
}

/// Whether change `c`, [`settled`], also holds as what it settles to among
/// `rows` benchmarks compared: an unchanged always, a claim only where its
/// p-value would survive the adjustment over them (Bonferroni's bound,
/// which Benjamini–Hochberg's never asks more than). blart's
/// `bench_from_iter::skewed`, 78 ms → 9.5 ms, read −88.0 % [−89.0, −86.6]
/// from its few epochs, p = 0.002 alone, and stopped there; adjusted over
/// its 43 rows (p = 0.099) it was inconclusive, with spare time unused.
pub fn survives(c: &Change, threshold: f64, rows: usize) -> bool {
    let unchanged = c.ci[0] >= -threshold && c.ci[1] <= threshold;
    unchanged || c.p_value.is_none_or(|p| p <= bar(rows))
}

/// The p-value a claim must reach to survive the adjustment over `rows`
/// benchmarks whatever their p-values: Bonferroni's 0.05 / `rows`.
fn bar(rows: usize) -> f64 {
    SIGNIFICANCE / rows.max(1) as f64
}

/// How a comparison the time limit left unsettled stands, for the time
/// spent on it further: how far it is from a verdict ([`units_to_decide`]
/// where alone it is inconclusive, [`units_to_survive`] where it claims a
/// change the adjustment over `rows` benchmarks would not keep; infinite
/// where its verdict is made, as more epochs only narrow it), and whether
/// it reads a change its epochs are too few to claim.
///
/// That is a row whose interval lies past its threshold one way, or every
/// epoch does (two epochs give a t interval 12.7 standard errors wide:
/// blart's `split_off::skewed`, 38 → 24 ms, read −37 % [−65, +14]), whose
/// verdict alone claims nothing (one epoch, or no significance at 0.05)
/// or would not survive the adjustment, and which has fewer epochs than
/// [`epochs_to_claim`]. Such a row may take its own time limit once more
/// (`run::compare`): blart's `bulk_insert::skewed`, 78 ms → 9 ms an
/// iteration, read −87.7 % [−93.0, −79.1] from the 2 epochs that fit
/// 800 ms, p = 0.013 (a t test of one degree of freedom), and was left
/// inconclusive among 43 rows; with a third epoch, p = 0.00003. A row with
/// more epochs than that falls short for its spread, which a run's own
/// bias can set: more of its epochs would narrow the interval around that
/// bias (blart's `retain::all`, the same instructions on both sides, read
/// +1.3, +4.7 and −3.3 % in three runs, and +4.7 % claimed at 27 epochs).
pub fn in_doubt(row: &Row, threshold: f64, rows: usize) -> InDoubt {
    let alone = verdict_of(row, threshold);
    let kept = claims(alone) && (row.p_value).is_none_or(|p| p <= bar(rows));
    let need = match alone {
        Verdict::Inconclusive => units_to_decide(row.change_ci, threshold),
        _ => Some(units_to_survive(row.p_value, rows))
            .filter(|n| *n > 1.0)
            .unwrap_or(f64::INFINITY),
    };
    let t = row.threshold(threshold);
    let [lo, hi] = row.change_ci;
    let changes = || row.unit_ratios.iter().map(|u| u - 1.0);
    let every =
        !row.unit_ratios.is_empty() && (changes().all(|c| c > t) || changes().all(|c| c < -t));
    let past = lo > t || hi < -t || every;
    let few = row.epochs.is_some_and(|e| e < epochs_to_claim(rows));
    InDoubt {
        need,
        short_of_epochs: past && !kept && few,
    }
}

/// What [`in_doubt`] finds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InDoubt {
    /// How many times the units it has it needs for a verdict.
    pub need: f64,
    /// Whether it reads a change its epochs are too few to claim.
    pub short_of_epochs: bool,
}

impl InDoubt {
    /// A comparison with no row to judge: nothing more to buy.
    pub const DECIDED: InDoubt = InDoubt {
        need: f64::INFINITY,
        short_of_epochs: false,
    };
}

/// Fewest epochs whose claim can survive the adjustment over `rows`
/// benchmarks however far its change: as many as the sign test needs for
/// a p-value of 0.05 / `rows` (1 + log₂(`rows` / 0.05): 11 for 43 rows),
/// and never fewer than [`FAR_MIN_UNITS`](super::far::FAR_MIN_UNITS)
/// (below which the t test's few degrees of freedom bound its p-value
/// instead).
pub fn epochs_to_claim(rows: usize) -> usize {
    let sign = 1.0 - bar(rows).log2();
    (sign.ceil() as usize).max(super::far::FAR_MIN_UNITS)
}

/// How many times the units it has a claim of p-value `p` needs to
/// survive the adjustment over `rows` benchmarks ([`survives`]), as its
/// t statistic grows with √units (read on the normal curve); 1 where it
/// survives, infinite without a p-value.
pub fn units_to_survive(p: Option<f64>, rows: usize) -> f64 {
    let Some(p) = p.filter(|p| *p > 0.0) else {
        return f64::INFINITY;
    };
    let z = |p: f64| nbench::__private::stats::t_quantile(1.0 - p / 2.0, 1e9);
    let bar = bar(rows);
    match p <= bar {
        true => 1.0,
        false => (z(bar) / z(p)).powi(2),
    }
}

/// How many times the units it has a comparison needs for its interval
/// (narrowing as 1/√units at the spread it has) to decide it: to lie
/// beyond 0 where its change is beyond `threshold` (regressed or
/// improved), within ±`threshold` where it is within (unchanged).
/// Infinite where its change sits on the threshold; at least 1.
pub fn units_to_decide(ci: [f64; 2], threshold: f64) -> f64 {
    let half = (ci[1] - ci[0]) / 2.0;
    let centre = ((ci[1] + ci[0]) / 2.0).abs();
    let room = if centre > threshold {
        centre
    } else {
        threshold - centre
    };
    if room > 0.0 && half.is_finite() {
        (half / room).powi(2).max(1.0)
    } else {
        f64::INFINITY
    }
}

/// A row's verdict at its own threshold (`threshold`, the run's noise
/// threshold, made a share of the time measured: [`Row::threshold`]):
/// none where the benchmark's time varies manyfold within a side
/// ([`unsteady`]), its change changes direction with the iterations per
/// sample ([`super::iterations::opposed`]), or the epochs at full speed
/// would not give the verdict the slowed ones carry
/// ([`super::speeds::split`]), or it was measured in one epoch
/// ([`one_epoch`]); else significant where its p-value, adjusted for the
/// run's other rows once that is done, is below 0.05, or, without a test
/// behind it, where its interval leaves out 0. A claim stands only where
/// the median epoch holds it ([`median_against`]) and, where its
/// processes ran in two states both ways ([`super::speeds::two_states`]),
/// where every epoch as it ran holds it too.
pub fn verdict_of(row: &Row, threshold: f64) -> Verdict {
    let t = row.threshold(threshold);
    if one_epoch(row)
        || unsteady(row).is_some()
        || super::iterations::opposed(row, t)
        || super::speeds::split(row, t).is_some()
    {
        return Verdict::Inconclusive;
    }
    let verdict = decide(
        row.change,
        row.change_ci,
        row.significant(),
        row.threshold(threshold),
    );
    match median_against(row, verdict) {
        Some(_) => Verdict::Inconclusive,
        None if states_against(row, verdict, t).is_some() => Verdict::Inconclusive,
        None => verdict,
    }
}

/// Where `verdict` claims a change, the row's processes ran in two states
/// both ways ([`TwoStates`]) and the change over every epoch as it ran,
/// with its plain t interval, does not give the claim: those states.
pub fn states_against(row: &Row, verdict: Verdict, threshold: f64) -> Option<TwoStates> {
    let s = two_states(row).filter(|_| claims(verdict))?;
    let (change, ci, p) = s.plain;
    (decide(change, ci, p < SIGNIFICANCE, threshold) != verdict).then_some(s)
}

/// Whether `verdict` claims a change.
fn claims(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::Regressed | Verdict::Improved)
}

/// Where `verdict` claims a change that the median epoch does not hold (the
/// sign test's interval of a paired row's median unit reaches 0 or past
/// it): that interval. The claim is then carried by a few epochs, which
/// the median is not moved by; as an early stop waits for the median
/// (`estimators::median_agrees`), so does the final verdict. In a
/// comparison of tracing's suite with itself, two rows of 8 threads each
/// were called changed by 15–16 % from 17 and 29 epochs whose ratios ran
/// 0.06 to 1.6; their medians' intervals held 0.
pub fn median_against(row: &Row, verdict: Verdict) -> Option<[f64; 2]> {
    if row.kind != Kind::Paired || row.unit_ratios.is_empty() {
        return None;
    }
    let upward = match verdict {
        Verdict::Regressed => true,
        Verdict::Improved => false,
        _ => return None,
    };
    let ci = super::median::by_median(&row.unit_ratios)?.ci;
    (!super::median::on_side(ci, upward)).then_some(ci)
}

/// Whether a paired row was measured in one epoch (a benchmark so slow
/// that one fit its time limit): its interval is its rounds', one process a
/// side, and how far another pair of processes reads from this one is not
/// in them. tokio's `contention_resubscribe/1000`, 260 ms an iteration,
/// read identical executables 12 % faster, [−24 %, −1 %], from one epoch of
/// two rounds; `copy_mem_to_slow_hdd` "unchanged" from one.
pub fn one_epoch(row: &Row) -> bool {
    row.kind == Kind::Paired && row.epochs == Some(1)
}

/// How many times over a benchmark's time, its loop overhead included, may
/// vary between the epochs of one side before the row is no comparison: a
/// shared host's slow states reach some 1.6 times; beyond 3, the benchmark
/// does different work in different processes (random or stateful inputs),
/// and a change between the sides says nothing about the code.
pub const UNSTEADY: f64 = 3.0;

/// How many times over a side's epoch medians spread among the epochs that
/// ran the same link layout of it (placement, which moves a benchmark
/// between layouts, is left out), where that is past [`UNSTEADY`] and the
/// epochs' changes (current over baseline) spread past it too. A host that
/// slows both processes of an epoch alike (a build running beside them)
/// moves each side's time manyfold and leaves the change where it was: the
/// comparison still tells.
pub fn unsteady(row: &Row) -> Option<f64> {
    let changes = (row.epoch_medians.iter())
        .map(|e| (e[1] + row.overhead) / (e[0] + row.overhead))
        .filter(|c| c.is_finite() && *c > 0.0);
    let (lo, hi) = changes.fold((f64::INFINITY, 0.0_f64), |(lo, hi), c| {
        (lo.min(c), hi.max(c))
    });
    if hi / lo <= UNSTEADY {
        return None;
    }
    let mut most = 1.0_f64;
    for side in 0..2 {
        let layout = |i: usize| row.epoch_layouts.get(i).map_or(0, |l| l[side]);
        let mut groups: std::collections::BTreeMap<usize, (f64, f64)> = Default::default();
        for (i, e) in row.epoch_medians.iter().enumerate() {
            let t = e[side] + row.overhead;
            let g = groups.entry(layout(i)).or_insert((f64::INFINITY, 0.0));
            *g = (g.0.min(t), g.1.max(t));
        }
        for (lo, hi) in groups.into_values() {
            if lo > 0.0 {
                most = most.max(hi / lo);
            }
        }
    }
    (most > UNSTEADY).then_some(most)
}

/// Gives every row of `c` its verdict, once its interval is final: the
/// p-values adjusted over all rows (Benjamini–Hochberg), so that with many
/// benchmarks the expected share of false "changed" verdicts stays at 5 %
/// where per-benchmark p < 0.05 would raise false alarms in most runs;
/// then each row decided ([`verdict_of`]), with its instruction counts
/// where it has some (`joint::decide`), and every inconclusive one given
/// its reason ([`why_inconclusive`]).
pub fn decide_rows(c: &mut Comparison) {
    let rows: Vec<&mut Row> = (c.targets.iter_mut())
        .flat_map(|t| t.rows.iter_mut())
        .filter(|r| r.p_value.is_some())
        .collect();
    let p: Vec<f64> = rows.iter().filter_map(|r| r.p_value).collect();
    let adjusted = nbench::__private::stats::benjamini_hochberg(&p);
    for (row, q) in rows.into_iter().zip(adjusted) {
        row.p_adjusted = Some(q);
    }
    let threshold = c.noise_threshold;
    for row in c.targets.iter_mut().flat_map(|t| t.rows.iter_mut()) {
        row.verdict = verdict_of(row, threshold);
    }
    let rows = c.targets.iter().flat_map(|t| &t.rows);
    let against = super::joint::Against::of(rows, threshold);
    for row in c.targets.iter_mut().flat_map(|t| t.rows.iter_mut()) {
        super::joint::decide(row, threshold, &against);
        row.inconclusive = (row.verdict == Verdict::Inconclusive)
            .then(|| why_inconclusive(row, row.threshold(threshold)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::comparison::{Kind, Verdict};

    #[test]
    fn an_early_look_stops_on_a_claim_only_well_past_the_threshold() {
        let c = |change: f64, ci: [f64; 2]| Change {
            change,
            ci,
            p_value: Some(0.01),
            verdict: decide(change, ci, true, 0.005),
            pulled_in: 0,
            layouts_left_out: 0,
            full_speed_units: 0,
            layout_widening: 1.0,
        };
        // An A/A row stopped at 16 units on a claim: +1.72 % [+0.54, +2.92].
        let near = c(0.0172, [0.0054, 0.0292]);
        assert!(settled(&near, 0.005, Look::Final));
        assert!(!settled(&near, 0.005, Look::Early));
        // A 5 % slowdown known to ±0.5 % settles at any look.
        let far = c(0.05, [0.045, 0.055]);
        assert!(settled(&far, 0.005, Look::Early));
        assert!(settled(&c(-0.05, [-0.055, -0.045]), 0.005, Look::Early));
        // Unchanged settles as before: the whole interval within ±0.5 %.
        let still = c(0.001, [-0.002, 0.004]);
        assert!(settled(&still, 0.005, Look::Early) && settled(&still, 0.005, Look::Final));
        assert!(!settled(&c(0.004, [0.001, 0.007]), 0.005, Look::Early));
        // A claim at p = 0.01 survives the adjustment over 2 rows, not over
        // 43; an unchanged row does, whatever its p-value.
        assert!(survives(&far, 0.005, 2) && !survives(&far, 0.005, 43));
        assert!(survives(&still, 0.005, 43));
        let alone = Change {
            p_value: None,
            ..far
        };
        assert!(survives(&alone, 0.005, 43));
        // p = 0.0023 alone, 43 rows: about a fifth more units (z 3.05 to 3.24).
        let more = units_to_survive(Some(0.0023), 43);
        assert!((1.1..1.2).contains(&more), "{more}");
        assert_eq!(units_to_survive(Some(0.0001), 43), 1.0);
        assert_eq!(units_to_survive(None, 43), f64::INFINITY);
    }

    #[test]
    fn a_change_the_median_epoch_does_not_hold_is_not_claimed() {
        // tracing's `log/dynamic/multithreaded` against the same code: 29
        // epochs, 18 of them faster, the mean −15.6 % [−23.4, −7.0].
        let units = [
            0.884, 1.090, 0.790, 0.904, 1.008, 1.240, 0.862, 0.910, 1.630, 1.242, 0.929, 0.776,
            1.206, 1.477, 0.682, 0.758, 1.098, 1.180, 0.779, 0.864, 1.015, 0.984, 0.612, 0.724,
            1.381, 0.948, 0.867, 0.880, 0.944,
        ];
        let found = (-0.156, [-0.234, -0.070], Some(0.0026));
        let metric = Default::default();
        let mut row = Row::new("threads", Kind::Paired, metric, [65919.0, 55636.0], found);
        row.unit_ratios = units.to_vec();
        row.epochs = Some(29);
        assert_eq!(verdict_of(&row, 0.005), Verdict::Inconclusive);
        let why = crate::compare::words::why_inconclusive(&row, 0.005);
        assert!(why.contains("but their median lies in"), "{why}");
        // A change most epochs show is claimed.
        row.unit_ratios = units.iter().map(|u| u * 0.8).collect();
        assert_eq!(verdict_of(&row, 0.005), Verdict::Improved);
    }

    #[test]
    fn a_row_measured_in_one_epoch_gets_no_verdict() {
        // tokio's `contention_resubscribe/1000`, identical executables: one
        // epoch of two rounds, 12 % faster by them.
        let found = (-0.125, [-0.2375, -0.0123], None);
        let metric = Default::default();
        let mut row = Row::new("slow", Kind::Paired, metric, [2.95e8, 2.58e8], found);
        row.epochs = Some(1);
        assert_eq!(verdict_of(&row, 0.005), Verdict::Inconclusive);
        // Nor "unchanged", however narrow its rounds.
        row.change_ci = [0.0001, 0.0015];
        assert_eq!(verdict_of(&row, 0.005), Verdict::Inconclusive);
        let why = crate::compare::words::why_inconclusive(&row, 0.005);
        assert!(
            why.starts_with("one process a side fit in the time limit"),
            "{why}"
        );
        row.epochs = Some(2);
        assert_eq!(verdict_of(&row, 0.005), Verdict::Unchanged);
    }

    #[test]
    fn a_change_too_few_epochs_claim_may_take_its_time_limit_again() {
        let claim_short_of_epochs =
            |row: &Row, t: f64, rows: usize| in_doubt(row, t, rows).short_of_epochs;
        let metric = Default::default();
        // blart's `bulk_insert::skewed`: 2 epochs, a t test of one degree of freedom.
        let found = (-0.877, [-0.930, -0.791], Some(0.013));
        let mut row = Row::new("skewed", Kind::Paired, metric, [7.37e7, 9.06e6], found);
        row.epochs = Some(2);
        assert!(claim_short_of_epochs(&row, 0.005, 43));
        // Over 2 rows it would survive: nothing to buy.
        assert!(!claim_short_of_epochs(&row, 0.005, 2));
        // One epoch claims nothing, whatever its rounds read.
        row.epochs = Some(1);
        row.p_value = None;
        assert!(claim_short_of_epochs(&row, 0.005, 1));
        // An interval that reaches the threshold is no claim in the making,
        // nor is one within it.
        row.epochs = Some(2);
        row.change_ci = [-0.930, -0.004];
        assert!(!claim_short_of_epochs(&row, 0.005, 43));
        row.change_ci = [-0.004, 0.004];
        assert!(!claim_short_of_epochs(&row, 0.005, 43));
        // Two epochs that both read a change past it, the same way, whose
        // interval reaches past 0: a claim in the making.
        (row.change_ci, row.p_value) = ([-0.65, 0.14], Some(0.06));
        row.unit_ratios = vec![0.70, 0.57];
        assert!(claim_short_of_epochs(&row, 0.005, 43));
        row.unit_ratios = vec![0.70, 1.01];
        assert!(!claim_short_of_epochs(&row, 0.005, 43));
        row.unit_ratios = Vec::new();
        // Epochs enough for the sign test to claim it: its spread, not
        // their number, holds it back.
        (row.change_ci, row.p_value) = ([-0.930, -0.791], Some(0.002));
        row.epochs = Some(10);
        assert!(claim_short_of_epochs(&row, 0.005, 43));
        row.epochs = Some(11);
        assert!(!claim_short_of_epochs(&row, 0.005, 43));
        assert_eq!([1, 43, 600].map(epochs_to_claim), [8, 11, 15]);
    }

    #[test]
    fn a_benchmark_whose_time_varies_manyfold_within_a_side_gets_no_verdict() {
        let found = (0.30, [0.27, 155.0], Some(0.001));
        let metric = Default::default();
        let mut row = Row::new("stateful", Kind::Paired, metric, [6.2e6, 8.1e6], found);
        row.epoch_medians = vec![
            [6.3e6, 6.2e6],
            [6.4e6, 4.9e8],
            [6.2e6, 6.5e6],
            [6.1e6, 6.3e6],
        ];
        assert_eq!(verdict_of(&row, 0.005), Verdict::Inconclusive);
        assert!((unsteady(&row).unwrap() - 4.9e8 / 6.2e6).abs() < 1e-9);
        let why = crate::compare::words::why_inconclusive(&row, 0.005);
        assert!(
            why.contains("its time varies 79 times over between processes"),
            "{why}"
        );
        // Placement is not that: each layout steady, the layouts 36 times apart.
        row.epoch_medians = vec![[1.0, 1.0], [36.0, 1.0], [1.1, 36.0], [35.0, 1.0]];
        row.epoch_layouts = vec![[0, 0], [1, 0], [0, 1], [1, 0]];
        assert_eq!(unsteady(&row), None);
        row.epoch_layouts = Vec::new();
        // A host's slow state (1.6 times) is not that.
        row.epoch_medians = vec![[6.3e6, 6.2e6], [10.0e6, 9.9e6], [6.2e6, 6.5e6]];
        assert_eq!(unsteady(&row), None);
        assert_eq!(verdict_of(&row, 0.005), Verdict::Regressed);
        // Nor is one that slows both sides of an epoch 3.3 times (measured:
        // a benchmark twice as slow, beside the test suite's builds): each
        // side varies manyfold, the change holds.
        let base = [1330.4, 626.9, 443.7, 397.8, 461.3, 518.1, 631.8, 412.0];
        row.epoch_medians = base.iter().map(|b| [*b, b * 2.05]).collect();
        row.epoch_layouts = vec![
            [2, 2],
            [1, 1],
            [0, 3],
            [3, 0],
            [2, 1],
            [1, 3],
            [0, 0],
            [3, 2],
        ];
        assert_eq!(unsteady(&row), None);
    }

    #[test]
    fn units_to_decide_an_interval_by_the_room_its_change_leaves() {
        let t = 0.005;
        // Within the threshold: the half-width (0.6 %) must come down to
        // what the centre (0.2 %) leaves of ±0.5 %: (0.6 / 0.3)² = 4 times.
        let within = units_to_decide([-0.004, 0.008], t);
        assert!((within - 4.0).abs() < 1e-9, "{within}");
        // Beyond it: down to the centre (1 %), so that 0 lies outside.
        let beyond = units_to_decide([-0.005, 0.025], t);
        assert!((beyond - 2.25).abs() < 1e-9, "{beyond}");
        let improved = units_to_decide([-0.025, 0.005], t);
        assert!(
            (improved - 2.25).abs() < 1e-9,
            "improvements alike: {improved}"
        );
        // Already narrow enough: no fewer units than it has.
        assert_eq!(units_to_decide([-0.001, 0.001], t), 1.0);
        // On the threshold no width decides it.
        assert_eq!(units_to_decide([0.0, 0.01], t), f64::INFINITY);
        assert_eq!(units_to_decide([f64::NEG_INFINITY, 0.01], t), f64::INFINITY);
    }

    #[test]
    fn the_verdict_rule() {
        let t = 0.005;
        // (change, interval, significant) → verdict.
        for (change, ci, sig, want) in [
            (0.02, [0.01, 0.03], true, Verdict::Regressed),
            (-0.02, [-0.03, -0.01], true, Verdict::Improved),
            (0.001, [-0.004, 0.005], false, Verdict::Unchanged),
            // Beyond the threshold but not significant (after the adjustment).
            (0.02, [0.01, 0.03], false, Verdict::Inconclusive),
            // Significant, on one side of 0, but smaller than the threshold.
            (0.004, [0.001, 0.007], true, Verdict::Inconclusive),
            // Wide both ways: anything from −3 % to +16 %.
            (0.06, [-0.03, 0.16], false, Verdict::Inconclusive),
            (0.0, [-0.0051, 0.0], false, Verdict::Inconclusive),
        ] {
            assert_eq!(decide(change, ci, sig, t), want, "{change} {ci:?} {sig}");
        }
    }
}
