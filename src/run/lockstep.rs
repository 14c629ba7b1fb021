//! One benchmark compared in lockstep with the baseline over both sides'
//! link layouts: the pairing of layouts and memory placements, when the
//! comparison may stop, and its outcome and row.
//!
//! A comparison the time limit ended with an interval still wider than the
//! threshold is kept as a [`Doubt`]: once the target's other benchmarks are
//! measured, it gets more epochs from the time they left unused (see
//! `compare::compare_target`).

use super::Plan;
use super::epochs::{at_least, half_step_ns};
use super::layouts::{self, Assignment};
use super::paired::{self, Epochs, Paired, PairedSamples, Side};
use super::session::{Session, SessionError};
use crate::compare::{row_threshold, verdict};
use crate::model::comparison::{Kind, NotCompared, Row, TargetComparison, Verdict};
use crate::model::outcome::{Failure, Measured, Outcome};
use nbench::__private::engine::Settings;
use nbench::__private::engine::Stop;
use nbench::__private::result::BenchResult;
use nbench::__private::stats::{OutlierMode, Summary};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What comparing one benchmark in lockstep gave the comparison.
pub enum Compared {
    /// Its row.
    Row(Box<Row>),
    /// Nothing to compare, and why.
    Not(NotCompared),
    /// Nothing: it failed or skipped (the outcome says so).
    Nothing,
}

impl Compared {
    /// Puts it into the target's comparison.
    pub fn add_to(self, cmp: &mut TargetComparison) {
        match self {
            Compared::Row(row) => cmp.rows.push(*row),
            Compared::Not(why) => cmp.not_compared.push(why),
            Compared::Nothing => {}
        }
    }
}

/// Units (distinct pairs of layouts) a comparison over layouts runs before
/// it may stop early: 16 independent draws of placement, as many as 8
/// layouts a side each run twice give.
const EARLY_UNITS: usize = 16;

/// Units a comparison over `layouts` layouts a side (the side with more)
/// runs before it may stop early: [`EARLY_UNITS`] or every layout twice,
/// whichever is fewer, and every layout once up to [`EARLY_UNITS`] (past
/// that many, the first units each draw a layout of each side not drawn
/// before, as many independent draws as 16 layouts give).
fn early_units(layouts: usize) -> usize {
    EARLY_UNITS.min(2 * layouts).max(layouts.min(EARLY_UNITS))
}

/// Starts an executable with a memory placement ([`Session::start_placed`]).
pub type StartPlaced<'a> = dyn Fn(&Path, Option<u64>) -> Result<Session, SessionError> + 'a;

/// One benchmark's pairing: which layout of each side runs in each epoch
/// (a new pairing for every benchmark), and the memory placement both
/// processes of an epoch get (each epoch another).
pub struct Lockstep<'a> {
    start_placed: &'a StartPlaced<'a>,
    base_exes: &'a [PathBuf],
    cur_exes: &'a [PathBuf],
    layouts: Assignment,
    seed: u64,
}

impl<'a> Lockstep<'a> {
    /// A new pairing for benchmark `id` of the sides' layouts.
    pub fn new(
        start_placed: &'a StartPlaced<'a>,
        (base_exes, cur_exes): (&'a [PathBuf], &'a [PathBuf]),
        id: &str,
    ) -> Lockstep<'a> {
        let seed = seed(id);
        Lockstep {
            start_placed,
            base_exes,
            cur_exes,
            layouts: Assignment::new(base_exes.len(), cur_exes.len(), seed),
            seed,
        }
    }

    fn start(&self, side: Side, epoch: usize) -> Result<Session, SessionError> {
        let place = Some(self.seed.rotate_left(17) ^ (epoch as u64).wrapping_mul(0x9E37_79B9));
        match side {
            Side::Baseline => (self.start_placed)(&self.base_exes[self.layouts.base(epoch)], place),
            Side::Current => (self.start_placed)(&self.cur_exes[self.layouts.cur(epoch)], place),
        }
    }

    /// Whether the epochs so far decide the verdict at `threshold`.
    fn settled(&self, e: Epochs<'_>, threshold: f64) -> bool {
        let layouts = &self.layouts;
        // Over layouts, stop early only once every layout of each side ran,
        // and [`EARLY_UNITS`] units at least (or every layout twice, where
        // that is fewer): placement effects come in steps, and a few layouts
        // can agree by chance (measured: relinked code called 1.3 % faster,
        // and a 1 % slower build "unchanged", after 12 epochs over 8 layouts).
        // A claim stops it only where the median unit holds it too
        // ([`verdict::median_agrees`]).
        let count = layouts.unit_count(e.ratios.len());
        if layouts.controlled() && count < early_units(layouts.most()) {
            return false;
        }
        let units = layouts.units(e.ratios);
        change(layouts, (e, &units), &[], threshold).is_some_and(|c| {
            verdict::settled(&c, threshold) && verdict::median_agrees(&units, &c, threshold)
        })
    }

    /// Measures benchmark `id` in lockstep with the baseline (sampling for
    /// at most `settings.max_time`).
    pub fn compare(
        self,
        id: String,
        (plan, settings): (&Plan, &Settings),
        threshold: f64,
    ) -> Judged<'a> {
        let began = Instant::now();
        let settled = |e: Epochs<'_>| self.settled(e, threshold);
        let mut start = |side: Side, epoch: usize| self.start(side, epoch);
        let measured = paired::measure(&mut start, &id, settings, plan.timeout, &settled);
        self.judge(id, measured, (settings, threshold), began.elapsed())
    }

    /// The outcome and row of a measurement that took `elapsed`, and the
    /// doubt it leaves if the time limit ended it unsettled.
    fn judge(
        self,
        id: String,
        measured: Result<Paired, paired::PairedError>,
        (settings, threshold): (&Settings, f64),
        elapsed: Duration,
    ) -> Judged<'a> {
        let judged = |outcome, compared| Judged {
            outcome,
            compared,
            unused: Duration::ZERO,
            doubt: None,
        };
        let p = match measured {
            Ok(Paired::Samples(p)) => *p,
            Ok(Paired::Skipped(side, reason)) => {
                let reason = match side {
                    Side::Current => reason,
                    Side::Baseline => format!("the baseline skips it: {reason}"),
                };
                return judged(Outcome::Skipped { id, reason }, Compared::Nothing);
            }
            Ok(Paired::Metrics(base, cur)) => {
                let not = NotCompared::metrics(&id, base, cur);
                let reason = format!("not compared: {}", not.reason);
                return judged(Outcome::Skipped { id, reason }, Compared::Not(not));
            }
            Err(e) => return judged(Outcome::Failed(failure(id, e)), Compared::Nothing),
        };
        let row = paired_row(&id, &p, &self.layouts, threshold);
        // How far an inconclusive row is from a verdict; a decided row has
        // its verdict (more epochs only narrow it), so it is served last.
        let need = (row.as_ref())
            .filter(|r| r.verdict == Verdict::Inconclusive)
            .map_or(f64::INFINITY, |r| {
                verdict::units_to_decide(r.change_ci, threshold)
            });
        let compared = row.map_or(Compared::Nothing, |r| Compared::Row(Box::new(r)));
        let unused = settings.max_time.saturating_sub(p.charged);
        let in_doubt = p.stop == Stop::TimeLimit && !self.settled(p.epochs(), threshold);
        // The samples go to the outcome, and a copy to the doubt, if any.
        let (outcome, doubt) = if in_doubt {
            let outcome = paired_outcome(id.clone(), p.clone(), settings.outliers, elapsed);
            let doubt = Doubt {
                lockstep: self,
                id,
                samples: p,
                elapsed,
                need,
            };
            (outcome, Some(doubt))
        } else {
            (paired_outcome(id, p, settings.outliers, elapsed), None)
        };
        Judged {
            outcome,
            compared,
            unused,
            doubt,
        }
    }
}

/// One benchmark compared: its outcome and what it gives the comparison.
pub struct Judged<'a> {
    /// The benchmark's outcome (the current side's samples).
    pub outcome: Outcome,
    /// Its row, if both sides measured it.
    pub compared: Compared,
    /// Sampling time of its limit it did not use (it settled early).
    pub unused: Duration,
    /// Set when the time limit ended it unsettled.
    pub doubt: Option<Doubt<'a>>,
}

/// A comparison the time limit ended with an interval still wider than
/// the threshold: what [`Doubt::resolve`] needs to measure it further.
pub struct Doubt<'a> {
    lockstep: Lockstep<'a>,
    id: String,
    samples: PairedSamples,
    elapsed: Duration,
    /// [`verdict::units_to_decide`] of an inconclusive row; infinite for a
    /// row whose verdict is made.
    need: f64,
}

/// How much more than its estimate of what it needs a comparison in doubt
/// that can be decided is given: the estimate takes the interval's present
/// width and centre, and both move as epochs come.
const NEED_MARGIN: f64 = 1.5;

impl<'a> Doubt<'a> {
    /// The benchmark's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// How far its row is from a verdict: [`verdict::units_to_decide`] (the
    /// nearest first when doubts share the time left).
    pub fn need(&self) -> f64 {
        self.need
    }

    /// The sampling time an inconclusive comparison would need to be
    /// decided ([`NEED_MARGIN`] over the estimate), where that fits within
    /// the most epochs its time limit allows ([`paired::most_epochs`]);
    /// `None` where it does not.
    pub fn wants(&self, settings: &Settings) -> Option<Duration> {
        let most = paired::most_epochs(settings.max_time);
        let epochs = self.samples.epochs().ratios.len() as f64;
        let more = (self.need - 1.0) * NEED_MARGIN;
        (self.need.is_finite() && epochs * self.need <= f64::from(most))
            .then(|| self.samples.charged.mul_f64(more))
    }

    /// Measures it in more epochs, for up to `extra` more sampling time;
    /// the new judgement, and the sampling time that took.
    pub fn resolve(
        self,
        (plan, settings): (&Plan, &Settings),
        threshold: f64,
        extra: Duration,
    ) -> (Judged<'a>, Duration) {
        let began = Instant::now();
        let before = self.samples.charged;
        let lockstep = self.lockstep;
        let measured = {
            let settled = |e: Epochs<'_>| lockstep.settled(e, threshold);
            let mut start = |side: Side, epoch: usize| lockstep.start(side, epoch);
            let times = (plan.timeout, extra);
            paired::more(
                &mut start,
                &self.id,
                settings,
                times,
                self.samples,
                &settled,
            )
        };
        let took = match &measured {
            Ok(Paired::Samples(p)) => p.charged.saturating_sub(before),
            _ => extra,
        };
        let elapsed = self.elapsed + began.elapsed();
        let mut judged = lockstep.judge(self.id, measured, (settings, threshold), elapsed);
        judged.unused = Duration::ZERO;
        (judged, took)
    }
}

/// The change over epochs `e` paired by `layouts` (see [`verdict::paired_with`]):
/// from the units whose processes ran in one speed state ([`one_state`])
/// where some epoch's did not, else from all
/// `units` (`layouts.units` of the epochs' ratios). Where enough epochs
/// ([`verdict::FAR_MIN_UNITS`]) sampled in copies of their processes
/// ([`paired::COPIES`]), from those: each one's ratio is already the
/// median over several processes' states (its pooled median is no
/// process's speed to judge it by), and the epochs before them, in fresh
/// processes alone, spread two to three times as far (measured,
/// `vec_push/1000`: ±5–9 % against ±2–2.5 %). Fewer copied epochs (copies
/// that stopped for their cost, or have only begun) are too few to judge
/// by, and the rest are judged at full speed as if none had copied: judged
/// over all units instead, an A/A comparison whose copies stopped after two
/// epochs was called 3.9 % slower, [+0.8 %, +7.1 %].
fn change(
    layouts: &Assignment,
    (e, units): (Epochs<'_>, &[f64]),
    rounds: &[f64],
    threshold: f64,
) -> Option<verdict::Change> {
    let clusters = layouts.unit_layouts(e.ratios.len());
    let keep = judged_by(layouts, e);
    let (fast, fast_clusters) = layouts.units_of(e.ratios, &keep);
    let fast = keep.contains(&false).then_some(verdict::Fast {
        units: &fast,
        clusters: verdict::clusters(&fast_clusters),
    });
    let all = verdict::clusters(&clusters);
    verdict::paired_with(units, all, fast, rounds, threshold)
}

/// The epochs [`change`] takes the change from where they are units
/// enough: those that sampled in copies, where enough did; else those
/// whose processes ran in one speed state ([`one_state`]).
fn judged_by(layouts: &Assignment, e: Epochs<'_>) -> Vec<bool> {
    let copied = e.copies.iter().filter(|c| **c > 0).count();
    match copied >= verdict::FAR_MIN_UNITS {
        true => e.copies.iter().map(|c| *c > 0).collect(),
        false => one_state(layouts, e),
    }
}

/// How far apart the two processes of an epoch may run, each measured
/// from the fastest epoch median of its own layout, and still count as
/// running in one speed state: well below the steps between the speed
/// states of a process (17 % and more, measured) and well above a
/// comparison's drift within one state (0.3–3 %).
const ONE_STATE_BAND: f64 = 0.08;

/// The epochs whose two processes ran in one speed state: each side's
/// epoch median, as a multiple of the fastest of the epochs that ran the
/// same layout of that side, within [`ONE_STATE_BAND`] of the other
/// side's. Each process is judged by its own side's times of its own code
/// (its layout), which neither the change nor placement moves between
/// them. A machine that slows both alike (a shared host out of its boost
/// clock: measured, a sort's epochs 45–55 % past their layout's fastest
/// for seconds at a time, both sides alike) keeps the epoch: only a pair
/// whose processes sat in different states is left out.
fn one_state(layouts: &Assignment, e: Epochs<'_>) -> Vec<bool> {
    let n = e
        .ratios
        .len()
        .min(e.base_medians.len())
        .min(e.cur_medians.len());
    let (base, cur): (Vec<usize>, Vec<usize>) = (layouts.epoch_pairs(n).into_iter())
        .map(|[b, c]| (b, c))
        .unzip();
    // Each epoch median over the fastest of its layout, as a log.
    let past_fastest = |medians: &[f64], layout: &[usize]| -> Vec<f64> {
        let mut fastest = vec![f64::INFINITY; layout.iter().max().map_or(0, |l| l + 1)];
        for (x, l) in medians.iter().zip(layout) {
            if x.is_finite() && *x > 0.0 {
                fastest[*l] = fastest[*l].min(*x);
            }
        }
        (medians.iter().zip(layout))
            .map(|(x, l)| (x / fastest[*l]).ln())
            .collect()
    };
    let (b, c) = (
        past_fastest(&e.base_medians[..n], &base),
        past_fastest(&e.cur_medians[..n], &cur),
    );
    let band = ONE_STATE_BAND.ln_1p();
    b.iter()
        .zip(c)
        .map(|(b, c)| (b - c).abs() <= band)
        .collect()
}

/// A failure of either side as the benchmark's failure.
fn failure(id: String, e: paired::PairedError) -> Failure {
    let why = e.error.to_string();
    // The current side's own failure is the benchmark's, as in a run without a baseline.
    let reason = match (e.side, &e.error) {
        (Side::Current, SessionError::Benchmark(_)) => why,
        (Side::Current, _) => format!("current side: {why}"),
        (Side::Baseline, _) => format!("baseline side: {why}"),
    };
    Failure {
        id,
        reason,
        output: e.output,
    }
}

/// The comparison row of one benchmark measured in lockstep.
fn paired_row(id: &str, p: &PairedSamples, layouts: &Assignment, threshold: f64) -> Option<Row> {
    // The baseline column as a fresh run estimates a time: the fastest
    // epoch's median (a slow spell only adds time), so that it reads what a
    // plain run of the same executable reads; the current column is it
    // moved by the change the verdict is made from.
    let taken = &p.taken;
    let base_median = (taken.epoch_base_medians.iter())
        .copied()
        .filter(|m| m.is_finite())
        .min_by(f64::total_cmp)
        .unwrap_or_else(|| median(&taken.base_ns));
    let t = row_threshold(threshold, base_median, p.overhead_ns);
    let units = layouts.units(&taken.epoch_ratios);
    let mut ch = change(layouts, (p.epochs(), &units), &p.round_ratios(), t)?;
    let (layout_spread, placement_spread) = spreads(layouts, p.epochs(), &ch);
    // No narrower than the clock's step in either side's median.
    let cur_median = median(&taken.cur_ns);
    let rel = |m: f64| {
        if m > 0.0 {
            half_step_ns(p.iters) / m
        } else {
            0.0
        }
    };
    let half = (1.0 + ch.change) * (rel(base_median) + rel(cur_median));
    ch.ci = at_least(ch.change, ch.ci, half);
    // The current column: the estimate the verdict is made from, so that
    // the row's numbers tell one story.
    let times = [base_median, base_median * (1.0 + ch.change)];
    let found = (ch.change, ch.ci, ch.p_value, ch.verdict);
    Some(
        Row {
            baseline_per_iter_ns: taken.base_ns.clone(),
            overhead_ns: p.overhead_ns,
            layout_spread,
            placement_spread,
            layout_widening: (ch.layout_widening > 1.0).then_some(ch.layout_widening),
            epochs: Some(taken.epoch_ratios.len()),
            copies: taken.epoch_copies.iter().sum(),
            epochs_pulled_in: ch.pulled_in,
            layouts_left_out: ch.layouts_left_out,
            full_speed_units: ch.full_speed_units,
            epoch_medians_ns: epoch_medians(taken),
            // Each epoch's pair of layouts, where both sides ran several.
            epoch_layouts: if layouts.controlled() {
                layouts.epoch_pairs(taken.epoch_ratios.len())
            } else {
                Vec::new()
            },
            unit_ratios: units,
            time_limited: p.stop == Stop::TimeLimit,
            ..Row::new(id, Kind::Paired, p.metric, times, found)
        }
        .with_work(
            p.base_throughput().map(Into::into),
            p.throughput.map(Into::into),
        ),
    )
}

/// The spread between process pairs and placement's part of it
/// ([`Assignment::spread`], [`layouts::placement_spread`]) over the units
/// change `ch` was taken from ([`change`]: all, or those of the epochs
/// [`judged_by`] picks), without the ones far from the rest: so that a
/// row's cause and its interval speak of the same epochs.
fn spreads(
    layouts: &Assignment,
    e: Epochs<'_>,
    ch: &verdict::Change,
) -> (Option<f64>, Option<f64>) {
    let keep = match ch.full_speed_units {
        0 => vec![true; e.ratios.len()],
        _ => judged_by(layouts, e),
    };
    let (units, labels) = layouts.units_of(e.ratios, &keep);
    let clipped = verdict::pull_in_far(&units).0;
    (
        layouts.spread(&clipped),
        layouts::placement_spread(&clipped, labels.as_ref()),
    )
}

/// Each epoch's (baseline, current) medians; never NaN, which JSON cannot
/// hold (an epoch has samples).
fn epoch_medians(taken: &paired::Taken) -> Vec<[f64; 2]> {
    let finite = |x: &f64| if x.is_finite() { *x } else { 0.0 };
    (taken.epoch_base_medians.iter())
        .zip(&taken.epoch_cur_medians)
        .map(|(b, c)| [finite(b), finite(c)])
        .collect()
}

/// A seed for the pairing of layouts: new every run, different per benchmark.
fn seed(id: &str) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write(id.as_bytes());
    h.finish()
}

fn median(x: &[f64]) -> f64 {
    Summary::new(x).map(|s| s.median).unwrap_or(0.0)
}

/// The current side's samples of a lockstep measurement as its result.
fn paired_outcome(id: String, p: PairedSamples, mode: OutlierMode, elapsed: Duration) -> Outcome {
    let summary = match Summary::with_outliers(&p.taken.cur_ns, mode) {
        Ok(s) => s,
        Err(e) => {
            return Outcome::Failed(Failure {
                id,
                reason: e.to_string(),
                output: String::new(),
            });
        }
    };
    Outcome::Measured(Box::new(Measured {
        result: BenchResult {
            id,
            metric: p.metric,
            summary,
            per_iter_ns: p.taken.cur_ns,
            iters: p.iters,
            cold_ns: p.cold_ns,
            overhead_ns: p.overhead_ns,
            near_floor: false,
            stop: p.stop,
            outlier_mode: mode,
            throughput: p.throughput,
            counters: p.counters,
            // A run against stored executables compares versions, not group members.
            versus: None,
            is_baseline: false,
            repeat_medians: Vec::new(),
            cut_short: None,
        },
        elapsed_s: elapsed.as_secs_f64(),
        within: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::epochs::tests::Normal;
    use verdict::Verdict;

    #[test]
    fn an_early_stop_waits_for_sixteen_units_and_each_of_up_to_sixteen_layouts() {
        // 8 layouts: each twice; 16: each once; 32: half of them; 2: each twice.
        let waits: Vec<usize> = [2, 4, 8, 12, 16, 32].map(early_units).to_vec();
        assert_eq!(waits, [4, 8, 16, 16, 16, 16]);
    }

    /// One comparison of `epochs` epochs over 8 layouts a side whose
    /// processes each run in a speed state of their own (×1, ×1.22, ×1.37,
    /// ×1.49, the full speed most likely: `fast_base` and `fast_cur` of the
    /// time on each side), the current side `change` slower.
    fn states(
        z: &mut Normal,
        epochs: usize,
        (fast_base, fast_cur): (f64, f64),
        change: f64,
    ) -> Vec<[f64; 3]> {
        let state = |fast: f64, z: &mut Normal| {
            let u = z.uniform();
            match u {
                u if u < fast => 1.0,
                u if u < fast + (1.0 - fast) / 2.0 => 1.22,
                u if u < fast + 3.0 * (1.0 - fast) / 4.0 => 1.37,
                _ => 1.49,
            }
        };
        (0..epochs)
            .map(|_| {
                let drift = 1.0 + 0.01 * z.next();
                let b = 170.0 * state(fast_base, z) * drift * (1.0 + 0.002 * z.next());
                let c =
                    170.0 * (1.0 + change) * state(fast_cur, z) * drift * (1.0 + 0.002 * z.next());
                [c / b * (1.0 + 0.001 * z.next()), b, c]
            })
            .collect()
    }

    /// The ratio, baseline and current columns of epochs drawn by [`states`].
    struct Columns([Vec<f64>; 3]);

    impl Columns {
        fn of(e: &[[f64; 3]]) -> Columns {
            Columns([0, 1, 2].map(|i| e.iter().map(|x| x[i]).collect()))
        }

        fn epochs(&self) -> Epochs<'_> {
            Epochs {
                ratios: &self.0[0],
                base_medians: &self.0[1],
                cur_medians: &self.0[2],
                copies: &[],
            }
        }
    }

    fn judge(layouts: &Assignment, e: &[[f64; 3]]) -> verdict::Change {
        let columns = Columns::of(e);
        let epochs = columns.epochs();
        change(layouts, (epochs, &layouts.units(epochs.ratios)), &[], 0.005).unwrap()
    }

    #[test]
    fn processes_in_speed_states_are_compared_at_full_speed() {
        // 64 epochs over 8 layouts a side. From all units (the median unit,
        // most lying far) the same draws gave: symmetric odds, 1 % slower
        // regressed 13 of 100 and improved 2, A/A claimed 2; lopsided odds,
        // 1 % slower improved 68 of 100, A/A improved 77.
        let mut z = Normal(0x5EED_0F57_17E5);
        let layouts = Assignment::new(8, 8, 3);
        let (trials, mut found, mut claimed, mut full) = (200, 0, 0, 0);
        for t in 0..trials {
            // Some comparisons draw the slow states more often on one side.
            let odds = if t % 2 == 0 { (0.6, 0.6) } else { (0.45, 0.75) };
            let slower = judge(&layouts, &states(&mut z, 64, odds, 0.01));
            found += usize::from(slower.verdict == Verdict::Regressed);
            full += usize::from(slower.full_speed_units > 0);
            let same = judge(&layouts, &states(&mut z, 64, odds, 0.0));
            let change = matches!(same.verdict, Verdict::Regressed | Verdict::Improved);
            claimed += usize::from(change);
        }
        let share = |k: usize| k as f64 / trials as f64;
        assert!(share(full) > 0.9, "full speed in {}", share(full));
        assert!(share(found) >= 0.95, "1 % slower found in {}", share(found));
        assert!(share(claimed) <= 0.05, "A/A claimed in {}", share(claimed));
    }

    #[test]
    fn a_rows_spreads_are_those_of_the_epochs_it_is_judged_by() {
        // A/A, 64 epochs over 8 layouts a side, processes in speed states:
        // the epochs whose two ran in different states read 20 % and more
        // off, and the change is taken from the others.
        let mut z = Normal(0x5EED_5B2E);
        let layouts = Assignment::new(8, 8, 3);
        let e = states(&mut z, 64, (0.6, 0.6), 0.0);
        let columns = Columns::of(&e);
        let epochs = columns.epochs();
        let ch = judge(&layouts, &e);
        assert!(ch.full_speed_units > 0, "{ch:?}");
        let (spread, placement) = spreads(&layouts, epochs, &ch);
        // Its epochs spread as the drift within a state does (±0.1–0.3 %),
        // not as all epochs do, far ones pulled in.
        let all = layouts.spread(&verdict::pull_in_far(&layouts.units(epochs.ratios)).0);
        let (spread, all) = (spread.unwrap(), all.unwrap());
        assert!(spread < 0.005 && all > 0.02, "{spread} {all}");
        assert!(placement.is_some_and(|p| p <= spread), "{placement:?}");
        // A change taken from all epochs has all epochs' spread.
        let from_all = verdict::Change {
            full_speed_units: 0,
            ..ch
        };
        assert_eq!(spreads(&layouts, epochs, &from_all).0, Some(all));
    }

    #[test]
    fn epochs_in_copies_set_the_change_once_there_are_enough() {
        // 16 epochs of fresh processes spread ±6 %, then 48 in copies
        // spread ±0.3 % around a 1 % change; one layout a side.
        let mut z = Normal(0xC0_91E5);
        let one = Assignment::new(1, 1, 5);
        let ratios: Vec<f64> = (0..64)
            .map(|i| match i < 16 {
                true => 1.01 * (0.06 * z.next()).exp(),
                false => 1.01 * (0.003 * z.next()).exp(),
            })
            .collect();
        let copies: Vec<usize> = (0..64).map(|i| if i < 16 { 0 } else { 5 }).collect();
        // A copied epoch's median pools its copies' states: here the
        // baseline's copies' more of the slow ones than the current's.
        let medians = |copied: f64| -> Vec<f64> {
            (0..64)
                .map(|i| if i < 16 { 170.0 } else { copied })
                .collect()
        };
        let (base, cur) = (medians(195.0), medians(172.0));
        let e = Epochs {
            ratios: &ratios,
            base_medians: &base,
            cur_medians: &cur,
            copies: &copies,
        };
        let c = change(&one, (e, &one.units(e.ratios)), &[], 0.005).unwrap();
        assert_eq!(c.verdict, Verdict::Regressed, "{c:?}");
        assert!(
            c.ci[1] - c.ci[0] < 0.004 && c.full_speed_units == 48,
            "{c:?}"
        );
        // Judged by full speed instead, the copied epochs would all be
        // left out, and the 16 fresh ones set a wide interval.
        let e = Epochs { copies: &[], ..e };
        let judged = change(&one, (e, &one.units(e.ratios)), &[], 0.005).unwrap();
        assert_eq!(judged.full_speed_units, 16, "{judged:?}");
        assert!(
            judged.ci[1] - judged.ci[0] > 4.0 * (c.ci[1] - c.ci[0]),
            "{judged:?}"
        );
        // Copies that stopped after four epochs: too few to judge by; the
        // epochs are judged at full speed as if none had copied.
        let few: Vec<usize> = (0..64)
            .map(|i| usize::from((16..20).contains(&i)) * 5)
            .collect();
        let e = Epochs { copies: &few, ..e };
        let stopped = change(&one, (e, &one.units(e.ratios)), &[], 0.005).unwrap();
        assert_eq!(stopped.full_speed_units, 16, "{stopped:?}");
    }

    #[test]
    fn an_epoch_counts_when_both_processes_ran_in_one_state() {
        // One layout a side: each side's own fastest.
        let one = Assignment::new(1, 1, 5);
        let b = [170.0, 206.0, 171.0, 172.0, 251.0];
        let c = [180.0, 181.0, 220.0, 183.0, 182.0];
        let e = Epochs {
            ratios: &[1.0; 5],
            base_medians: &b,
            cur_medians: &c,
            copies: &[],
        };
        assert_eq!(one_state(&one, e), [true, false, false, true, false]);
        // A side that never ran at the other's speed is judged by its own.
        let slow = [240.0, 241.0, 300.0, 239.0, 242.0];
        let e = Epochs {
            cur_medians: &slow,
            ..e
        };
        assert_eq!(one_state(&one, e), [true, false, false, true, false]);
        // A host that slows both processes alike (here by half) keeps the
        // epoch; a pair whose processes sat in different states does not.
        let b = [170.0, 255.0, 256.0, 171.0, 250.0];
        let c = [180.0, 270.0, 182.0, 181.0, 268.0];
        let e = Epochs {
            base_medians: &b,
            cur_medians: &c,
            ..e
        };
        assert_eq!(one_state(&one, e), [true, true, false, true, true]);
        // Over layouts, by the fastest of its layout: a layout 12 % slower
        // than the others (placement) still runs at its full speed.
        let two = Assignment::new(2, 2, 9);
        let slow_layout = two.base(0);
        let b: Vec<f64> = (0..8)
            .map(|i| {
                if two.base(i) == slow_layout {
                    190.0
                } else {
                    170.0
                }
            })
            .collect();
        let e = Epochs {
            ratios: &[1.0; 8],
            base_medians: &b,
            cur_medians: &[170.0; 8],
            copies: &[],
        };
        assert!(one_state(&two, e).iter().all(|k| *k));
    }
}
