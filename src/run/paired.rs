//! Measuring one benchmark in two executables in lockstep: shared calibration, samples alternating between them, over several fresh process pairs.
//!
//! Two processes running the very same file differ by up to ~1 % (where their
//! memory landed, code alignment): a bias that alternating samples cannot
//! cancel, because it lasts as long as the process. So the comparison is
//! split into epochs, each with a fresh pair of processes, and the change's
//! CI comes from the spread between epochs, which holds that bias.

use super::session::{Session, SessionError};
use crate::compare::far::robust_sd;
use crate::compare::paired::Measured as Lockstepped;
use crate::model::samples::{Epochs, Taken};
use nbench::__private::engine::Settings;
use nbench::__private::engine::{Stop, next_iters};
use nbench::__private::metric::Metric;
use nbench::__private::protocol::{Command, Event};
use nbench::__private::stats::{even_orders, log_median_sorted, median_sorted};
use nbench::{Counter, Throughput};
use std::time::{Duration, Instant};

/// Epochs before the comparison may stop early.
pub const MIN_EPOCHS: u32 = 3;

/// A comparison in doubt takes at most this many times [`epochs_for`]
/// epochs in all (160 at the default), however much time the target's
/// other benchmarks left: the time they leave bounds it first. An
/// allocation loop whose epochs spread ±2–3 % from pair to pair narrows
/// to ±0.5 % only past some 100 epochs.
pub const MOST_EPOCHS_FACTOR: u32 = 5;

/// Each epoch's share of the sampling time (a comparison with time limit
/// `max_time` is split into `max_time / EPOCH` epochs: 32 at the default
/// 800 ms). A process pair's own bias, not the noise within an epoch,
/// sets a comparison's interval (measured: `vec_push/1000` epoch ratios
/// spread ±1.4 % between pairs where an epoch's median of 100 ms of rounds
/// was known to ±0.3 %), so more, shorter epochs narrow it for the same
/// time: 24 epochs of 33 ms left 5 of 80 A/A rows inconclusive where 8 of
/// 100 ms left 17, in the same rounds and measuring time. Shorter still
/// buys nothing: 64 epochs of 12.5 ms left `vec_push/1000`'s interval as
/// wide as 32 of 25 ms (±1.0 %), at a larger share of time spent starting
/// and warming processes. A longer `--max-time` therefore buys more epochs
/// of this length, not longer ones.
pub const EPOCH: Duration = Duration::from_millis(25);

/// Copies of its two processes an epoch samples in, one after another
/// (`fork`; see [`Pair::epoch`]), once a comparison's epochs spread more
/// than [`COPY_FROM`], where both harnesses make copies and the epoch's
/// rounds allow [`COPY_ROUNDS`] a copy. A process's speed at an allocation
/// loop follows where its stack landed, for the process's life: such a
/// benchmark's epochs spread ±3–6 % from pair to pair on this project's VM,
/// and more epochs (fresh processes, each some 10 ms to start and warm up)
/// were the only way to narrow its interval. A copy is a new draw of that
/// placement for about a millisecond, so an epoch's ratio becomes the
/// median of its copies' ratios.
pub const COPIES: usize = 5;

/// The spread of a comparison's epochs (1.4826 × the median absolute
/// deviation of their log ratios) past which its further epochs sample in
/// copies ([`COPIES`]), judged from [`COPY_AFTER`] epochs on. Below it a
/// process's placement hardly moves the benchmark, and copies only cost:
/// a copy's pages come from anywhere, a fresh process's mostly in order,
/// and a sort of 1000 values moved ±0.28 % from copy to copy where fresh
/// processes moved ±0.13 % (its epochs spread ±0.14–0.22 % without
/// copies, ±0.4–1.2 % with two).
pub const COPY_FROM: f64 = 0.01;

/// Epochs a comparison runs in fresh processes alone before its spread
/// can turn copies on ([`COPY_FROM`]): every layout of a side once.
pub const COPY_AFTER: usize = 16;

/// Fewest rounds a copy samples: with fewer, an epoch is one copy (a
/// benchmark with long samples).
pub const COPY_ROUNDS: usize = 8;

/// The share of an epoch's sampling time its copies may cost (making and
/// ending them: 0.4–0.6 ms and 0.4 ms a pair for the verdicts fixture's
/// processes, a fifth of an epoch at five copies); past it a comparison
/// stops copying (a process with much memory to copy).
pub const COPY_MOST_SHARE: f64 = 0.4;

/// What starting a fresh pair may take before the rest counts against the
/// time limit: both processes started, and in each the benchmark's own
/// setup and first call. The verdicts fixture's pairs start in 4–8 ms;
/// base64's decoders of 30 MiB take 134 ms (each process fills and encodes
/// its input first), which at 36 epochs made a comparison of 0.8 s of
/// sampling take 6.7 s. Past this allowance the start is charged as
/// sampling time, and so is a warm-up that ran past its length (one round
/// of long samples), so that such a benchmark runs fewer epochs, not
/// many times its limit. The first epoch's start (where each side also
/// times its loop overhead) is not charged.
pub const START_ALLOWANCE: Duration = Duration::from_millis(10);

/// Into how many epochs a comparison with time limit `max_time` is split:
/// as many as [`EPOCH`] fits, never fewer than 8.
pub fn epochs_for(max_time: Duration) -> u32 {
    let fit = max_time.as_nanos() / EPOCH.as_nanos();
    u32::try_from(fit).unwrap_or(u32::MAX).max(8)
}

/// The most epochs a comparison takes, in doubt: [`MOST_EPOCHS_FACTOR`]
/// times [`epochs_for`].
pub(super) fn most_epochs(max_time: Duration) -> u32 {
    MOST_EPOCHS_FACTOR.saturating_mul(epochs_for(max_time))
}

/// Which process a failure came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The saved baseline executable.
    Baseline,
    /// The freshly built one.
    Current,
}

/// A side that failed, how, and what it printed.
#[derive(Debug)]
pub struct PairedError {
    /// Which side.
    pub side: Side,
    /// What went wrong.
    pub error: SessionError,
    /// The side's output since the benchmark began.
    pub output: String,
}

impl PairedError {
    fn new(side: Side, error: SessionError) -> PairedError {
        PairedError {
            side,
            error,
            output: String::new(),
        }
    }
}

/// Samples of both sides, taken in alternation; per-iteration ns, loop overhead removed.
#[derive(Debug, Clone)]
pub struct PairedSamples {
    /// Iterations per sample, the same for both.
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
    pub cold_ns: f64,
    /// The current side's loop overhead, ns.
    pub overhead_ns: f64,
    /// What both sides' samples measure.
    pub metric: Metric,
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
            overhead_ns: self.overhead_ns,
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

/// Which side takes its sample first in `round`: the two take turns.
fn first_in(round: u64) -> Side {
    if round.is_multiple_of(2) {
        Side::Baseline
    } else {
        Side::Current
    }
}

/// An epoch's ratio (current / baseline): the median of its rounds' ratios,
/// with as many rounds of each order (see [`first_in`]) in it
/// ([`even_orders`]: a surplus round of one order is left out), the
/// median of an even count being the geometric mean of the middle two.
/// `by_order`: the ratios of the rounds the baseline went first in, and of
/// those the current side went first in.
///
/// Taking turns means that in one round the baseline follows its own
/// sample and in the next the current side does, and a routine that finds
/// its data still in cache after itself reads faster so: one order's
/// ratios lean one way, the other's the other way (base64 decoding 10 MiB,
/// the same executable on both sides: 1.085 and 0.924). The median of all
/// rounds took the lean of whichever order came up more often, which over
/// an epoch of a few long rounds was a bias of its own: that benchmark read
/// 1.1–7.6 % slower on the current side in 8 comparisons of 8, 5 of them
/// "regressed". With the orders even, the lean sits once on each side of
/// the median. Still a median of single rounds, so a slow spell in one
/// sample moves one ratio: the geometric mean of each order's median, or
/// ratios over pairs of rounds (one of each order), cancelled the lean as
/// well but spread `sort/1000`'s epochs 2–5 × as far on a noisy machine
/// (its lean is ±0.1–0.3 %; the epochs' spread, same rounds: 0.24 % this
/// way, 0.55 % and 1.15 % those).
fn balanced_ratio(by_order: [Vec<f64>; 2]) -> Option<f64> {
    let mut ratios = even_orders(by_order);
    if ratios.is_empty() {
        return None;
    }
    ratios.sort_by(f64::total_cmp);
    Some(log_median_sorted(&ratios))
}

/// What one side's `ready` said.
#[derive(Debug, Clone)]
struct Ready {
    cold_ns: f64,
    min_sample_ns: f64,
    overhead_ns: f64,
    throughput: Option<Throughput>,
    counters: Vec<Counter>,
    metric: Metric,
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

/// A side's answer to `paired`.
enum Answer {
    Ready(Ready),
    Skipped(String),
}

/// How each epoch of one comparison samples.
#[derive(Debug, Clone)]
struct Pace {
    /// Iterations per sample, set by the first epoch's calibration.
    iters: u64,
    warm_up: Duration,
    per_epoch: Duration,
    /// Rounds an epoch takes even past its time.
    min_rounds: usize,
    max_samples: usize,
    /// Whether epochs sample in copies of their pair.
    copies: Copies,
    /// Rounds the last epoch took, if one ran.
    rounds: Option<usize>,
}

impl Pace {
    /// Before calibration (no iterations yet), for the settings `s`.
    fn new(s: &Settings) -> Pace {
        Pace {
            iters: 0,
            // Each fresh pair warms up again: a sixteenth of --warm-up
            // (6.25 ms at the default). Measured against an eighth, 8 rounds
            // of `cargo xtask verdicts --paired` each, same hour: the same
            // verdicts (A/A inconclusive 49 vs 46 of 400, claimed 1 vs 1;
            // 1 % caught 153 vs 150 of 160; 5 % 160 vs 160), 0.2 s less a
            // benchmark (A/A cases 1.20-1.33 s vs 1.43-1.51 s).
            warm_up: s.warm_up / 16,
            per_epoch: s.max_time / epochs_for(s.max_time),
            min_rounds: s
                .min_samples
                .div_ceil(epochs_for(s.max_time) as usize)
                .max(2),
            max_samples: s.max_samples,
            copies: Copies::NotYet,
            rounds: None,
        }
    }

    /// Copies the next epoch samples in: where they are on, as many as
    /// [`COPY_ROUNDS`] each fit in the last epoch's rounds, at most
    /// [`COPIES`]; else one (the pair itself).
    fn copies_next(&self) -> usize {
        match (self.copies, self.rounds) {
            (Copies::On, Some(rounds)) => (rounds / COPY_ROUNDS).clamp(1, COPIES),
            _ => 1,
        }
    }

    /// Turns copies on once the epochs `ratios` are [`COPY_AFTER`] and
    /// spread past [`COPY_FROM`].
    fn judge_copies(&mut self, ratios: &[f64]) {
        if self.copies != Copies::NotYet || ratios.len() < COPY_AFTER {
            return;
        }
        let mut logs: Vec<f64> = (ratios.iter())
            .filter(|r| **r > 0.0 && r.is_finite())
            .map(|r| r.ln())
            .collect();
        logs.sort_by(f64::total_cmp);
        if robust_sd(&logs) > COPY_FROM {
            self.copies = Copies::On;
        }
    }
}

/// Whether a comparison's epochs sample in copies of their process pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Copies {
    /// Not yet: its epochs have not been judged to spread enough.
    NotYet,
    /// Its epochs spread past [`COPY_FROM`].
    On,
    /// Never again: a side could not copy itself, or copying cost too much.
    Off,
}

struct Pair {
    base: Session,
    cur: Session,
    deadline: Instant,
}

impl Pair {
    fn ask(&mut self, side: Side, cmd: &Command) -> Result<Event, PairedError> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        let s = match side {
            Side::Baseline => &mut self.base,
            Side::Current => &mut self.cur,
        };
        let answer = s.send(cmd).and_then(|()| s.receive(left));
        answer.map_err(|error| {
            s.output.settle();
            PairedError {
                side,
                error,
                output: s.output.take(),
            }
        })
    }

    fn ready(&mut self, side: Side, id: &str, known: Option<f64>) -> Result<Answer, PairedError> {
        let cmd = Command::Paired {
            id: id.to_owned(),
            overhead_ns: known,
        };
        match self.ask(side, &cmd)? {
            Event::Ready {
                cold_ns,
                min_sample_ns,
                overhead_ns,
                throughput,
                counters,
                metric,
                ..
            } => Ok(Answer::Ready(Ready {
                cold_ns,
                min_sample_ns,
                overhead_ns,
                throughput,
                counters,
                metric,
            })),
            Event::Skipped { reason, .. } => Ok(Answer::Skipped(reason)),
            other => Err(PairedError::new(side, unexpected(other))),
        }
    }

    fn sample(&mut self, side: Side, iters: u64) -> Result<f64, PairedError> {
        match self.ask(side, &Command::Sample { iters })? {
            Event::Sampled { ns } => Ok(ns),
            other => Err(PairedError::new(side, unexpected(other))),
        }
    }

    /// One sample from each side; which goes first alternates with `round`
    /// ([`first_in`]).
    fn round(&mut self, iters: u64, round: u64) -> Result<(f64, f64), PairedError> {
        if first_in(round) == Side::Baseline {
            let b = self.sample(Side::Baseline, iters)?;
            Ok((b, self.sample(Side::Current, iters)?))
        } else {
            let c = self.sample(Side::Current, iters)?;
            Ok((self.sample(Side::Baseline, iters)?, c))
        }
    }

    /// One epoch's samples, after a warm-up: rounds in lockstep until the
    /// epoch's time is up and it holds `min_rounds`, or `max_samples` are
    /// held in all. Where both sides copy themselves, the epoch's time is
    /// split among [`Pace::copies_next`] copies of the pair, one after
    /// another, each with its own ratio (whose median sets aside the first
    /// round, slower where its writes copy pages); the epoch's ratio is
    /// the copies' median. Returns the time spent sampling, with the
    /// warm-up's overrun of its length (its one round of long samples) and
    /// the copies' cost.
    fn epoch(
        &mut self,
        pace: &mut Pace,
        overheads: (f64, f64),
        taken: &mut Taken,
    ) -> Result<Duration, PairedError> {
        let warm = Instant::now();
        let mut round = 0;
        while warm.elapsed() < pace.warm_up {
            self.round(pace.iters, round)?;
            round += 1;
        }
        let overrun = warm.elapsed().saturating_sub(pace.warm_up);
        let began = Instant::now();
        let first = taken.base_ns.len();
        let copies = match self.base.forks && self.cur.forks {
            true => pace.copies_next(),
            false => 1,
        };
        let mut ratios = Vec::with_capacity(copies);
        let mut copying = Duration::ZERO;
        let mut made_copies = 0;
        for copy in 0..copies {
            let made = Instant::now();
            let copied = copies > 1 && pace.copies == Copies::On && self.copy_both()?;
            if copies > 1 && !copied {
                pace.copies = Copies::Off;
            }
            copying += made.elapsed();
            let last = copy + 1 == copies;
            let until = pace.per_epoch.mul_f64((copy + 1) as f64 / copies as f64);
            let stretch = (began, until, last, first);
            let (ratio, full) = self.rounds(pace, overheads, taken, stretch, &mut round)?;
            if copied {
                let ending = Instant::now();
                self.join_both()?;
                copying += ending.elapsed();
                made_copies += 1;
            }
            ratios.extend(ratio);
            if full {
                break;
            }
        }
        pace.rounds = Some(taken.base_ns.len() - first);
        if copies > 1 && copying.as_secs_f64() > COPY_MOST_SHARE * began.elapsed().as_secs_f64() {
            pace.copies = Copies::Off;
        }
        ratios.sort_by(f64::total_cmp);
        if !ratios.is_empty() {
            taken.epoch_ratios.push(log_median_sorted(&ratios));
            let median_from = |all: &[f64]| {
                let mut v = all[first..].to_vec();
                v.sort_by(f64::total_cmp);
                median_sorted(&v)
            };
            taken.epoch_base_medians.push(median_from(&taken.base_ns));
            taken.epoch_cur_medians.push(median_from(&taken.cur_ns));
            taken.epoch_copies.push(made_copies);
        }
        Ok(began.elapsed() + overrun)
    }

    /// Rounds in lockstep, from round number `round` on, until `until` has
    /// passed since `began` and they are two at least (and, in the `last`
    /// stretch of the epoch whose first sample is `epoch_first`, the epoch
    /// holds `min_rounds`), or `max_samples` are held in all. Their ratio
    /// ([`balanced_ratio`]), and whether `max_samples` ended them.
    fn rounds(
        &mut self,
        pace: &Pace,
        (base_over, cur_over): (f64, f64),
        taken: &mut Taken,
        (began, until, last, epoch_first): (Instant, Duration, bool, usize),
        round: &mut u64,
    ) -> Result<(Option<f64>, bool), PairedError> {
        let per_iter = |ns: f64, over: f64| (ns / pace.iters as f64 - over).max(0.0);
        let first = taken.base_ns.len();
        // The rounds' ratios by who went first: the baseline, the current side.
        let mut by_order: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        // Two rounds at least (one of each order), and the epoch's minimum by its end.
        let short =
            |held: usize| held - first < 2 || (last && held - epoch_first < pace.min_rounds);
        let mut full = false;
        while began.elapsed() < until || short(taken.base_ns.len()) {
            let (bs, cs) = self.round(pace.iters, *round)?;
            let (bs, cs) = (per_iter(bs, base_over), per_iter(cs, cur_over));
            taken.base_ns.push(bs);
            taken.cur_ns.push(cs);
            if bs > 0.0 {
                by_order[usize::from(first_in(*round) == Side::Current)].push(cs / bs);
            }
            *round += 1;
            if taken.base_ns.len() >= pace.max_samples {
                full = true;
                break;
            }
        }
        Ok((balanced_ratio(by_order), full))
    }

    /// Has both sides go on in copies of themselves ([`Command::Fork`]):
    /// true if both did; false if either could not (none is left running).
    fn copy_both(&mut self) -> Result<bool, PairedError> {
        let copy = |p: &mut Pair, side| match p.ask(side, &Command::Fork)? {
            Event::Forked => Ok(true),
            Event::Unforked { .. } => Ok(false),
            other => Err(PairedError::new(side, unexpected(other))),
        };
        if !copy(self, Side::Baseline)? {
            return Ok(false);
        }
        if !copy(self, Side::Current)? {
            self.join(Side::Baseline)?;
            return Ok(false);
        }
        Ok(true)
    }

    /// Ends both sides' copies ([`Command::Join`]).
    fn join_both(&mut self) -> Result<(), PairedError> {
        self.join(Side::Baseline)?;
        self.join(Side::Current)
    }

    fn join(&mut self, side: Side) -> Result<(), PairedError> {
        match self.ask(side, &Command::Join)? {
            Event::Joined => Ok(()),
            other => Err(PairedError::new(side, unexpected(other))),
        }
    }

    /// Ends the benchmark on both sides, the current one first: when both
    /// fail after sampling (a result check), the current side's failure is
    /// the one to report.
    fn finish(mut self) -> Result<(), PairedError> {
        for side in [Side::Current, Side::Baseline] {
            match self.ask(side, &Command::Finish)? {
                Event::Done { .. } => {}
                other => return Err(PairedError::new(side, unexpected(other))),
            }
        }
        // Both told first: they exit side by side.
        self.base.quit();
        self.cur.quit();
        self.base.ended();
        self.cur.ended();
        Ok(())
    }
}

fn unexpected(e: Event) -> SessionError {
    match e {
        Event::Failed { message, .. } => SessionError::Benchmark(message),
        Event::Error { message } => SessionError::Protocol(message),
        other => SessionError::Protocol(format!("unexpected answer {other:?}")),
    }
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
    let deadline = Instant::now() + timeout;
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
    let deadline = Instant::now() + timeout;
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
            cold_ns: c.cold_ns,
            overhead_ns: shared_overhead(b.overhead_ns, c.overhead_ns).1,
            metric: c.metric,
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
    (deadline, limit): (Instant, Duration),
    run: &mut Progress,
    settled: &dyn Fn(Epochs<'_>) -> bool,
) -> Result<Option<Paired>, PairedError> {
    let epochs = epochs_for(s.max_time);
    while run.epochs < most_epochs(s.max_time) {
        let epoch = run.epochs;
        let starting = Instant::now();
        let mut p = Pair {
            base: start(Side::Baseline, epoch as usize)
                .map_err(|e| PairedError::new(Side::Baseline, e))?,
            cur: start(Side::Current, epoch as usize)
                .map_err(|e| PairedError::new(Side::Current, e))?,
            deadline,
        };
        let known = run.known.as_ref();
        // The current side first: when both skip, its reason is the one to show.
        let c = match p.ready(Side::Current, id, known.map(|k| k.1.overhead_ns))? {
            Answer::Ready(c) => c,
            Answer::Skipped(why) => return Ok(Some(Paired::Skipped(Side::Current, why))),
        };
        let b = match p.ready(Side::Baseline, id, known.map(|k| k.0.overhead_ns))? {
            Answer::Ready(b) => b,
            Answer::Skipped(why) => return Ok(Some(Paired::Skipped(Side::Baseline, why))),
        };
        if !b.metric.comparable(c.metric) {
            return Ok(Some(Paired::Metrics(b.metric, c.metric)));
        }
        if epoch > 0 {
            run.charged += starting.elapsed().saturating_sub(START_ALLOWANCE);
        }
        let (b, c) = run.known.get_or_insert((b, c)).clone();
        if epoch == 0 {
            let target = b.min_sample_ns.max(c.min_sample_ns);
            run.pace.iters = calibrate(&mut p, target, s.max_time)?;
        }
        let overheads = shared_overhead(b.overhead_ns, c.overhead_ns);
        run.charged += p.epoch(&mut run.pace, overheads, &mut run.taken)?;
        run.pace.judge_copies(&run.taken.epoch_ratios);
        p.finish()?;
        run.epochs += 1;
        if run.taken.base_ns.len() >= s.max_samples {
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

/// The loop overhead taken off each side's samples, (baseline, current).
/// Each side estimates it in its own process at its own moment, and on a
/// machine whose speed drifts two estimates of the same loop differ by a
/// third of a nanosecond (0.35 to 0.64 ns over six launches of one
/// executable), which taken off separately would become part of a small
/// benchmark's change. Where both time the `iter` loop, the lower estimate
/// is taken off both, so the difference between the sides is the one
/// measured in lockstep. (A side timing its own loop has no overhead to take off.)
fn shared_overhead(base: f64, cur: f64) -> (f64, f64) {
    if base > 0.0 && cur > 0.0 {
        let o = base.min(cur);
        (o, o)
    } else {
        (base, cur)
    }
}

/// One calibration for both sides: the iteration count at which both samples reach `target` ns.
fn calibrate(p: &mut Pair, target: f64, limit: Duration) -> Result<u64, PairedError> {
    let start = Instant::now();
    let mut iters = 1;
    loop {
        let (b, c) = p.round(iters, 0)?;
        let shorter = b.min(c);
        if shorter >= target || start.elapsed() >= limit {
            return Ok(iters);
        }
        iters = next_iters(iters, shorter, target);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lean_from_who_went_first_cancels_with_the_orders_even() {
        // The same executable on both sides, 8 % faster after its own
        // sample: three rounds, two with the baseline first.
        let lean = 1.0 / 0.92;
        let mut all = vec![lean, 1.0 / lean, lean];
        all.sort_by(f64::total_cmp);
        assert!(median_sorted(&all) > 1.08, "the median of all rounds leans");
        let r = balanced_ratio([vec![lean, lean], vec![1.0 / lean]]).unwrap();
        assert!((r - 1.0).abs() < 1e-12, "{r}");
        // A real 2 % change comes out as 2 %, whatever the lean.
        let r = balanced_ratio([vec![1.02 * lean; 5], vec![1.02 / lean; 2]]).unwrap();
        assert!((r - 1.02).abs() < 1e-12, "{r}");
    }

    #[test]
    fn a_slow_sample_moves_one_ratio_not_the_epoch() {
        let mut first = vec![1.0; 8];
        let mut second = vec![1.0; 8];
        first[2] = 1.4;
        second[5] = 1.3;
        second[6] = 0.7;
        assert_eq!(balanced_ratio([first, second]), Some(1.0));
    }

    #[test]
    fn the_surplus_left_out_is_the_last_to_run() {
        let r = balanced_ratio([vec![1.0, 1.0, 9.0, 9.0], vec![1.0, 1.0]]).unwrap();
        assert!((r - 1.0).abs() < 1e-12, "{r}");
        // One order alone (a single round) is its median.
        assert_eq!(balanced_ratio([vec![1.2], vec![]]), Some(1.2));
        assert_eq!(balanced_ratio([vec![], vec![]]), None);
    }

    #[test]
    fn epochs_are_many_and_short_but_not_shorter_than_a_pair_is_worth() {
        let ms = Duration::from_millis;
        // The default 800 ms: 32 epochs of 25 ms.
        assert_eq!(epochs_for(ms(800)), 32);
        // A longer limit buys more process pairs, not longer ones.
        assert_eq!(epochs_for(ms(3_000)), 120);
        assert_eq!(most_epochs(ms(3_000)), 600);
        assert_eq!(epochs_for(Duration::from_secs(u64::MAX)), u32::MAX);
        // 400 ms: 16 of 25 ms; 20 ms: the 8 every comparison has at least.
        assert_eq!(epochs_for(ms(400)), 16);
        assert_eq!(epochs_for(ms(20)), 8);
        assert_eq!(epochs_for(Duration::ZERO), 8);
    }

    #[test]
    fn both_sides_lose_the_same_overhead_so_their_difference_is_the_measured_one() {
        let (b, c) = shared_overhead(0.64, 0.35);
        assert_eq!((b, c), (0.35, 0.35));
        // 10.64 ns and 10.70 ns taken in lockstep stay 0.06 ns apart.
        assert!(((10.70 - c) - (10.64 - b) - 0.06).abs() < 1e-12);
        // A side timing its own loop (iter_custom, iter_batched) keeps none.
        assert_eq!(shared_overhead(0.0, 0.5), (0.0, 0.5));
        assert_eq!(shared_overhead(0.5, 0.0), (0.5, 0.0));
    }
}
