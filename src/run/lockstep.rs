//! One benchmark compared in lockstep with the baseline over both sides'
//! link layouts: the pairing of layouts and memory placements, when the
//! comparison may stop, and its outcome and row.
//!
//! A comparison the time limit ended with an interval still wider than the
//! threshold is kept as a [`Doubt`]: once the target's other benchmarks are
//! measured, it gets more epochs from the time they left unused (see
//! `compare::compare_target`).
use super::Plan;
use super::paired::{self, Paired, PairedSamples, Side};
use super::session::{Session, SessionError};
use crate::compare::estimators;
use crate::compare::paired::{Basis, change, row};
use crate::compare::rule::{self, Look};
use crate::compare::units::Assignment;
use crate::model::comparison::{NotCompared, Row, TargetComparison};
use crate::model::outcome::{Failure, Measured, Outcome};
use crate::model::samples::Epochs;
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
    /// Nothing yet: the baseline's own code failed it (a panic, a
    /// crash), in these words; the current side is measured alone to tell
    /// whether this build fails it too.
    BaselineFailed(String),
    /// Nothing: it failed or skipped (the outcome says so).
    Nothing,
}

impl Compared {
    /// Puts it into the target's comparison.
    pub fn add_to(self, cmp: &mut TargetComparison) {
        match self {
            Compared::Row(row) => cmp.rows.push(*row),
            Compared::Not(why) => cmp.not_compared.push(why),
            Compared::BaselineFailed(_) | Compared::Nothing => {}
        }
    }
}

/// Units (distinct pairs of layouts) a comparison over layouts runs before
/// it may stop early: 16 independent draws of placement, as many as 8
/// layouts a side each run twice give.
pub const EARLY_UNITS: usize = 16;

/// Units a comparison over `layouts` layouts a side (the side with more)
/// runs before it may stop early: [`EARLY_UNITS`] or every layout twice,
/// whichever is fewer, and every layout once up to [`EARLY_UNITS`] (past
/// that many, the first units each draw a layout of each side not drawn
/// before, as many independent draws as 16 layouts give).
fn early_units(layouts: usize) -> usize {
    EARLY_UNITS.min(2 * layouts).max(layouts.min(EARLY_UNITS))
}

/// Starts an executable of one side with a memory placement
/// ([`Session::start_placed`]).
pub type StartPlaced<'a> = dyn Fn(Side, &Path, Option<u64>) -> Result<Session, SessionError> + 'a;

/// One benchmark's pairing: which layout of each side runs in each epoch
/// (a new pairing for every benchmark), and the memory placement both
/// processes of an epoch get (each epoch another).
pub struct Lockstep<'a> {
    start_placed: &'a StartPlaced<'a>,
    base_exes: &'a [PathBuf],
    cur_exes: &'a [PathBuf],
    layouts: Assignment,
    seed: u64,
    /// Benchmarks the run compares, as far as it knows: a claim settles
    /// only where it would survive the adjustment over them.
    rows: usize,
}

impl<'a> Lockstep<'a> {
    /// A new pairing for benchmark `id` of the sides' layouts.
    /// `rows`: the benchmarks the run compares, as far as it knows.
    pub fn new(
        start_placed: &'a StartPlaced<'a>,
        (base_exes, cur_exes): (&'a [PathBuf], &'a [PathBuf]),
        (id, rows): (&str, usize),
    ) -> Lockstep<'a> {
        let seed = seed(id);
        Lockstep {
            start_placed,
            base_exes,
            cur_exes,
            layouts: Assignment::new(base_exes.len(), cur_exes.len(), seed),
            seed,
            rows,
        }
    }

    fn start(&self, side: Side, epoch: usize) -> Result<Session, SessionError> {
        let place = Some(self.seed.rotate_left(17) ^ (epoch as u64).wrapping_mul(0x9E37_79B9));
        match side {
            Side::Baseline => {
                (self.start_placed)(side, &self.base_exes[self.layouts.base(epoch)], place)
            }
            Side::Current => {
                (self.start_placed)(side, &self.cur_exes[self.layouts.cur(epoch)], place)
            }
        }
    }

    /// Whether the epochs so far decide the verdict at `threshold`, at
    /// `look` ([`Look`]).
    fn settled(&self, e: Epochs<'_>, threshold: f64, look: Look) -> bool {
        let layouts = &self.layouts;
        // Over layouts, stop early only once every layout of each side ran,
        // and [`EARLY_UNITS`] units at least (or every layout twice, where
        // that is fewer): placement effects come in steps, and a few layouts
        // can agree by chance (measured: relinked code called 1.3 % faster,
        // and a 1 % slower build "unchanged", after 12 epochs over 8 layouts).
        // A claim stops it only where the median unit holds it too
        // ([`estimators::median_agrees`]).
        let count = layouts.unit_count(e.ratios.len());
        if layouts.controlled() && count < early_units(layouts.most()) {
            return false;
        }
        // Most epochs slowed by the machine, outvoting those at full speed:
        // measure on while the time allows.
        if crate::compare::speeds::outvoted(e, threshold) {
            return false;
        }
        let basis = Basis::of(layouts, e, threshold);
        let units = basis.units(layouts);
        change(layouts, &basis, &[], threshold).is_some_and(|c| {
            rule::settled(&c, threshold, look)
                && rule::survives(&c, threshold, self.rows)
                && estimators::median_agrees(&units, &c, threshold)
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
        let settled = |e: Epochs<'_>| self.settled(e, threshold, Look::Early);
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
            self_timed: None,
        };
        let p = match measured {
            Ok(Paired::Samples(p)) => *p,
            Ok(Paired::Skipped(side, reason)) => {
                let reason = match side {
                    Side::Current => reason,
                    Side::Baseline => format!("the baseline skips it: {reason}"),
                };
                let not = NotCompared::skipped(&id, &reason);
                return judged(Outcome::Skipped { id, reason }, Compared::Not(not));
            }
            Ok(Paired::Metrics(base, cur)) => {
                let not = NotCompared::metrics(&id, base, cur);
                let reason = format!("not compared: {}", not.reason);
                return judged(Outcome::Skipped { id, reason }, Compared::Not(not));
            }
            Err(e) => {
                let baselines_own = e.side == Side::Baseline && e.benchmarks_own();
                let compared = match baselines_own {
                    true => Compared::BaselineFailed(e.error.to_string()),
                    false => Compared::Nothing,
                };
                return judged(Outcome::Failed(failure(id, e)), compared);
            }
        };
        let row = row(&id, &p.lockstepped(), &self.layouts, threshold);
        let stands = (row.as_ref()).map_or(rule::InDoubt::DECIDED, |r| {
            rule::in_doubt(r, threshold, self.rows)
        });
        let compared = row.map_or(Compared::Nothing, |r| Compared::Row(Box::new(r)));
        let unused = settings.max_time.saturating_sub(p.charged);
        let self_timed = p.times_itself.then(|| id.clone());
        let in_doubt =
            p.stop == Stop::TimeLimit && !self.settled(p.epochs(), threshold, Look::Final);
        // The samples go to the outcome, and a copy to the doubt, if any.
        let (outcome, doubt) = if in_doubt {
            let outcome = paired_outcome(id.clone(), p.clone(), settings.outliers, elapsed);
            let doubt = Doubt {
                lockstep: self,
                id,
                samples: p,
                elapsed,
                stands,
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
            self_timed,
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
    /// Its id, where its routine times itself on either side
    /// (`iter_custom`): its instructions would not tell.
    pub self_timed: Option<String>,
}

/// A comparison the time limit ended with an interval still wider than
/// the threshold: what [`Doubt::resolve`] needs to measure it further.
pub struct Doubt<'a> {
    lockstep: Lockstep<'a>,
    id: String,
    samples: PairedSamples,
    elapsed: Duration,
    /// How far it is from a verdict, and whether it reads a change its
    /// epochs are too few to claim.
    stands: rule::InDoubt,
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

    /// How far its row is from a verdict: [`rule::units_to_decide`] (the
    /// nearest first when doubts share the time left).
    pub fn need(&self) -> f64 {
        self.stands.need
    }

    /// The sampling time an inconclusive comparison would need to be
    /// decided ([`NEED_MARGIN`] over the estimate), where that fits within
    /// the most epochs its time limit allows ([`paired::most_epochs`]);
    /// `None` where it does not.
    pub fn wants(&self, settings: &Settings) -> Option<Duration> {
        let most = paired::most_epochs(settings.max_time);
        let epochs = self.samples.epochs().ratios.len() as f64;
        let more = (self.stands.need - 1.0) * NEED_MARGIN;
        (self.stands.need.is_finite() && epochs * self.stands.need <= f64::from(most))
            .then(|| self.samples.charged.mul_f64(more))
    }

    /// The sampling time it may take beyond the spare time: its own time
    /// limit once more where it reads a change its epochs are too few to
    /// claim (as much as it [`wants`](Self::wants), where that is less, but
    /// an epoch at least); none otherwise.
    pub fn own_time(&self, settings: &Settings) -> Duration {
        if !self.stands.short_of_epochs {
            return Duration::ZERO;
        }
        let epochs = self.samples.epochs().ratios.len().max(1) as u32;
        let epoch = self.samples.charged / epochs;
        (self.wants(settings)).map_or(settings.max_time, |w| w.max(epoch).min(settings.max_time))
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
            let settled = |e: Epochs<'_>| lockstep.settled(e, threshold, Look::Early);
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

/// A seed for the pairing of layouts: new every run, different per benchmark.
fn seed(id: &str) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write(id.as_bytes());
    h.finish()
}

/// The current side's samples of a lockstep measurement as its result.
fn paired_outcome(id: String, p: PairedSamples, mode: OutlierMode, elapsed: Duration) -> Outcome {
    let summary = match Summary::with_outliers(&p.taken.cur, mode) {
        Ok(s) => s,
        Err(e) => {
            return Outcome::Failed(Failure {
                id,
                reason: e.to_string(),
                output: String::new(),
            });
        }
    };
    Outcome::Measured(Box::new(Measured::of(
        BenchResult {
            id,
            metric: p.metric,
            summary,
            per_iter: p.taken.cur,
            iters: p.iters,
            cold: p.cold,
            overhead: p.overhead,
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
        elapsed.as_secs_f64(),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_early_stop_waits_for_sixteen_units_and_each_of_up_to_sixteen_layouts() {
        // 8 layouts: each twice; 16: each once; 32: half of them; 2: each twice.
        let waits: Vec<usize> = [2, 4, 8, 12, 16, 32].map(early_units).to_vec();
        assert_eq!(waits, [4, 8, 16, 16, 16, 16]);
    }
}
