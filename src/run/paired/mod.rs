//! Measuring one benchmark in two executables in lockstep: shared calibration, samples alternating between them, over several fresh process pairs.
//!
//! Two processes running the very same file differ by up to ~1 % (where their
//! memory landed, code alignment): a bias that alternating samples cannot
//! cancel, because it lasts as long as the process. So the comparison is
//! split into epochs, each with a fresh pair of processes, and the change's
//! CI comes from the spread between epochs, which holds that bias.

mod hold;
pub mod pace;
mod pair;
mod turns;

pub use pace::{epochs_for, most_epochs};
pub use turns::{PairedError, Side};

use super::session::{Session, SessionError};
use crate::compare::paired::Measured as Lockstepped;
use crate::model::samples::{Epochs, Taken};
use nbench::__private::engine::Settings;
use nbench::__private::engine::Stop;
use nbench::__private::metric::Metric;
use nbench::{Counter, Throughput};
use pace::{MIN_EPOCHS, Pace, START_ALLOWANCE};
use pair::{Answer, Deadline, Pair, Ready, calibrate, shared_overhead};
use std::time::{Duration, Instant};
use turns::{by_side, starts_first};

/// Samples of both sides, taken in alternation; per-iteration ns, loop overhead removed.
#[derive(Debug, Clone)]
pub struct PairedSamples {
    /// Iterations per sample, the same for both: the calibrated count, the
    /// fewest any epoch took (`taken.epoch_iters` has each epoch's).
    pub iters: u64,
    /// The samples, and each epoch's figures.
    pub taken: Taken,
    /// Time charged against the time limit: sampling, and what epochs
    /// spent starting and warming up beyond [`START_ALLOWANCE`] and
    /// their warm-up's length.
    pub charged: Duration,
    /// Work per iteration declared by the current side.
    pub throughput: Option<Throughput>,
    /// Counters declared by the current side.
    pub counters: Vec<Counter>,
    /// Why sampling stopped.
    pub stop: Stop,
    /// The current side's first call, ns (first epoch).
    pub cold: f64,
    /// The current side's loop overhead, ns.
    pub overhead: f64,
    /// What both sides' samples measure.
    pub metric: Metric,
    /// Either side's routine times itself (`iter_custom`): its counts
    /// would not tell.
    pub times_itself: bool,
    /// What [`more`] needs to go on.
    resume: Box<Resume>,
}

/// What a paired measurement needs to take more epochs.
#[derive(Debug, Clone)]
struct Resume {
    pace: Pace,
    /// Both sides' `ready`, (baseline, current).
    known: (Ready, Ready),
    /// Epochs run.
    epochs: u32,
}

impl PairedSamples {
    /// Its epochs.
    pub fn epochs(&self) -> Epochs<'_> {
        self.taken.epochs()
    }

    /// What the comparison takes of it.
    pub fn lockstepped(&self) -> Lockstepped<'_> {
        Lockstepped {
            taken: &self.taken,
            iters: self.iters,
            overhead: self.overhead,
            time_limited: self.stop == Stop::TimeLimit,
            metric: self.metric,
            throughput: (self.base_throughput(), self.throughput),
        }
    }

    /// Work per iteration declared by the baseline.
    pub fn base_throughput(&self) -> Option<Throughput> {
        self.resume.known.0.throughput
    }
}

/// How a paired measurement ended, when neither side failed.
#[derive(Debug, Clone)]
pub enum Paired {
    /// Both sides were sampled.
    Samples(Box<PairedSamples>),
    /// A side skipped the benchmark (`Bencher::skip`), for this reason.
    Skipped(Side, String),
    /// The sides' values measure different metrics, (baseline, current):
    /// nothing was sampled.
    Metrics(Metric, Metric),
}

/// Measures benchmark `id` in both executables, sample by sample in
/// alternation, over up to [`epochs_for`] fresh process pairs started by `start`
/// (which is told the epoch, to pick each side's layout).
/// Sampling time is `max_time` split evenly over the epochs; after
/// `min_time` (and [`MIN_EPOCHS`]) it stops early once `settled` says the
/// epochs so far decide the verdict. `timeout` bounds each answer
/// (a hung side).
///
/// A comparison the time limit ended unsettled can be given more epochs
/// afterwards with [`more`], from the time the target's other benchmarks
/// left unused.
pub fn measure(
    start: &mut dyn FnMut(Side, usize) -> Result<Session, SessionError>,
    id: &str,
    s: &Settings,
    timeout: Duration,
    settled: &dyn Fn(Epochs<'_>) -> bool,
) -> Result<Paired, PairedError> {
    let mut run = Progress {
        pace: Pace::new(s),
        known: None,
        taken: Taken::default(),
        charged: Duration::ZERO,
        stop: Stop::TimeLimit,
        epochs: 0,
    };
    let deadline = Deadline::after(timeout);
    if let Some(early) = run_epochs(start, id, s, (deadline, s.max_time), &mut run, settled)? {
        return Ok(early);
    }
    Ok(Paired::Samples(Box::new(run.into_samples())))
}

/// More epochs for a comparison [`measure`] (or an earlier `more`) left
/// unsettled at its time limit: up to `extra` more sampling time, in epochs
/// numbered on from the last (so `start` picks layout pairs not yet run),
/// at most [`MOST_EPOCHS_FACTOR`] times [`epochs_for`] in all. Stops early
/// as `measure` does.
pub fn more(
    start: &mut dyn FnMut(Side, usize) -> Result<Session, SessionError>,
    id: &str,
    s: &Settings,
    (timeout, extra): (Duration, Duration),
    so_far: PairedSamples,
    settled: &dyn Fn(Epochs<'_>) -> bool,
) -> Result<Paired, PairedError> {
    let mut run = so_far.progress_from();
    if extra < run.pace.per_epoch || run.epochs >= most_epochs(s.max_time) {
        return Ok(Paired::Samples(Box::new(run.into_samples())));
    }
    let limit = run.charged + extra;
    let deadline = Deadline::after(timeout);
    if let Some(early) = run_epochs(start, id, s, (deadline, limit), &mut run, settled)? {
        return Ok(early);
    }
    Ok(Paired::Samples(Box::new(run.into_samples())))
}

/// A paired measurement so far: what each epoch needs, what was taken.
struct Progress {
    pace: Pace,
    /// Both sides' `ready`, (baseline, current), once read.
    known: Option<(Ready, Ready)>,
    taken: Taken,
    charged: Duration,
    stop: Stop,
    /// Epochs run.
    epochs: u32,
}

impl Progress {
    fn into_samples(self) -> PairedSamples {
        let (b, c) = self.known.expect("the first epoch reads both sides' ready");
        PairedSamples {
            iters: self.pace.iters,
            taken: self.taken,
            charged: self.charged,
            throughput: c.throughput,
            counters: c.counters.clone(),
            stop: self.stop,
            cold: c.cold,
            overhead: shared_overhead(b.overhead, c.overhead).1,
            metric: c.metric,
            times_itself: b.times_itself || c.times_itself,
            resume: Box::new(Resume {
                pace: self.pace,
                known: (b, c),
                epochs: self.epochs,
            }),
        }
    }
}

impl PairedSamples {
    fn progress_from(self) -> Progress {
        let Resume {
            pace,
            known,
            epochs,
        } = *self.resume;
        Progress {
            pace,
            known: Some(known),
            taken: self.taken,
            charged: self.charged,
            stop: Stop::TimeLimit,
            epochs,
        }
    }
}

/// Runs epochs from `run.epochs` on until the comparison settles, a limit
/// is reached, or a side skips or measures another metric (returned).
/// `limit`: the sampling time, in all, past which no epoch starts (the
/// usual [`epochs_for`] run regardless, unless their time ran out).
fn run_epochs(
    start: &mut dyn FnMut(Side, usize) -> Result<Session, SessionError>,
    id: &str,
    s: &Settings,
    (deadline, limit): (Deadline, Duration),
    run: &mut Progress,
    settled: &dyn Fn(Epochs<'_>) -> bool,
) -> Result<Option<Paired>, PairedError> {
    let epochs = epochs_for(s.max_time);
    while run.epochs < most_epochs(s.max_time) {
        let epoch = run.epochs;
        let starting = Instant::now();
        // The sides take turns starting first (`starts_first`): the process
        // started second finds the machine (its free memory, its caches) as
        // the first one left it, and a fixed order was a fixed bias
        // (measured: the same executables on both sides read one side
        // +2.4 … +4.3 % slower in 3 of 4 comparisons of `channel/encode/run`).
        let mut started =
            |side: Side| start(side, epoch as usize).map_err(|e| PairedError::new(side, e));
        let first = starts_first(epoch);
        let (one, two) = (started(first)?, started(first.other())?);
        let (base, cur) = by_side(first, one, two);
        let mut p = Pair {
            base,
            cur,
            deadline,
            first_call: (run.known.as_ref()).map(|(b, c)| b.cold.max(c.cold)),
            hold: false,
            held: None,
        };
        let overheads = (run.known.as_ref()).map(|k| (k.0.overhead, k.1.overhead));
        let (b, c) = p.ready_in_turn(first, id, overheads)?;
        // When both skip, the current side's reason is the one shown.
        let (b, c) = match (b, c) {
            (Answer::Ready(b), Answer::Ready(c)) => {
                p.first_call = Some(b.cold.max(c.cold));
                (b, c)
            }
            (_, Answer::Skipped(why)) => return Ok(Some(Paired::Skipped(Side::Current, why))),
            (Answer::Skipped(why), _) => return Ok(Some(Paired::Skipped(Side::Baseline, why))),
        };
        if !b.metric.comparable(c.metric) {
            return Ok(Some(Paired::Metrics(b.metric, c.metric)));
        }
        p.hold = [&p.base, &p.cur]
            .iter()
            .any(|s| hold::busy_while_idle(s.pid()));
        if epoch > 0 {
            run.charged += starting.elapsed().saturating_sub(START_ALLOWANCE);
        }
        let (b, c) = run.known.get_or_insert((b, c)).clone();
        if epoch == 0 {
            let target = b.min_sample_ns.max(c.min_sample_ns);
            run.pace.iters = calibrate(&mut p, target, s.max_time)?;
        }
        let overheads = shared_overhead(b.overhead, c.overhead);
        run.charged += p.epoch(&mut run.pace, epoch, overheads, &mut run.taken)?;
        run.pace.judge_copies(&run.taken.epoch_ratios);
        p.finish(first)?;
        run.epochs += 1;
        if run.taken.base.len() >= s.max_samples {
            run.stop = Stop::SampleLimit;
            break;
        }
        let may_stop = run.epochs >= MIN_EPOCHS && run.charged >= s.min_time;
        if may_stop && settled(run.taken.epochs()) {
            run.stop = Stop::Precise;
            break;
        }
        // The time limit bounds the whole comparison: an epoch that had to
        // run past its share (samples longer than it) leaves no room for
        // more, and past the usual epochs only spare time buys another.
        let more = run.epochs < epochs || run.charged + run.pace.per_epoch <= limit;
        if run.charged >= s.max_time.max(limit) || !more {
            break;
        }
    }
    Ok(None)
}
