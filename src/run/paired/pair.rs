//! One epoch's pair of processes, baseline and current: asked in turn,
//! calibrated once for both, sampled in alternation.

use super::pace::{COPY_MOST_SHARE, Copies, Pace};
use super::turns::{PairedError, Side, by_side, first_in, first_round, in_turn, starts_first};
use crate::model::samples::Taken;
use crate::run::session::{Session, SessionError};
use nbench::__private::engine::next_iters;
use nbench::__private::metric::Metric;
use nbench::__private::protocol::{Command, Event};
use nbench::__private::stats::{even_orders, log_median_sorted, median_sorted};
use nbench::{Counter, Throughput};
use std::time::{Duration, Instant};

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
pub(super) fn balanced_ratio(by_order: [Vec<f64>; 2]) -> Option<f64> {
    let mut ratios = even_orders(by_order);
    if ratios.is_empty() {
        return None;
    }
    ratios.sort_by(f64::total_cmp);
    Some(log_median_sorted(&ratios))
}

/// What one side's `ready` said.
#[derive(Debug, Clone)]
pub(super) struct Ready {
    pub(super) cold: f64,
    pub(super) min_sample_ns: f64,
    pub(super) overhead: f64,
    pub(super) throughput: Option<Throughput>,
    pub(super) counters: Vec<Counter>,
    pub(super) metric: Metric,
    pub(super) times_itself: bool,
}

/// A side's answer to `paired`.
pub(super) enum Answer {
    Ready(Ready),
    Skipped(String),
}

pub(super) struct Pair {
    pub(super) base: Session,
    pub(super) cur: Session,
    pub(super) deadline: Deadline,
    /// The longer of the sides' first calls, ns, once they answered `ready`.
    pub(super) first_call: Option<f64>,
    /// Whether each side is held while the other samples: threads of its
    /// benchmark run while it is idle ([`super::hold`]).
    pub(super) hold: bool,
    /// The side held now.
    pub(super) held: Option<Side>,
}

/// The share of `--timeout` past which a benchmark's first call makes a
/// timeout its slowness, not a hang: a comparison runs five calls a
/// side in its first pair of processes at the least (bnf's 11 s
/// iterations timed out at 120 s).
const SLOW_SHARE: f64 = 1.0 / 20.0;

/// A paired measurement that timed out: after the whole measurement's
/// `limit`, not what was left of it; slowly, where the first call (ns)
/// took a large share of it.
fn timed_out(limit: Duration, first_call: Option<f64>) -> SessionError {
    let took = first_call.map(|ns| Duration::from_secs_f64(ns.max(0.0) / 1e9));
    match took.filter(|t| t.as_secs_f64() >= SLOW_SHARE * limit.as_secs_f64()) {
        Some(first_call) => SessionError::TooSlow { limit, first_call },
        None => SessionError::TimedOut(limit),
    }
}

/// When a paired measurement must be over: `timeout` (`--timeout`) after
/// it began.
#[derive(Debug, Clone, Copy)]
pub(super) struct Deadline {
    at: Instant,
    timeout: Duration,
}

impl Deadline {
    /// The deadline `timeout` from now.
    pub(super) fn after(timeout: Duration) -> Deadline {
        Deadline {
            at: Instant::now() + timeout,
            timeout,
        }
    }
}

impl Pair {
    pub(super) fn ask(&mut self, side: Side, cmd: &Command) -> Result<Event, PairedError> {
        self.hold_for(side, matches!(cmd, Command::Sample { .. }));
        let left = self.deadline.at.saturating_duration_since(Instant::now());
        let s = match side {
            Side::Baseline => &mut self.base,
            Side::Current => &mut self.cur,
        };
        let (limit, first_call) = (self.deadline.timeout, self.first_call);
        let answer = (s.send(cmd).and_then(|()| s.receive(left))).map_err(|e| match e {
            SessionError::TimedOut(_) => timed_out(limit, first_call),
            e => e,
        });
        answer.map_err(|error| {
            s.output.settle();
            PairedError {
                side,
                error,
                output: s.output.take(),
            }
        })
    }

    /// Before side `side` is asked something: the other side held where
    /// this is a `sample` and the pair holds, else neither.
    fn hold_for(&mut self, side: Side, sample: bool) {
        let wanted = (self.hold && sample).then_some(side.other());
        if self.held == wanted {
            return;
        }
        let pid = |p: &Pair, side| match side {
            Side::Baseline => p.base.pid(),
            Side::Current => p.cur.pid(),
        };
        if let Some(held) = self.held.take() {
            super::hold::resume(pid(self, held));
        }
        if let Some(idle) = wanted {
            super::hold::stop(pid(self, idle));
            self.held = Some(idle);
        }
    }

    pub(super) fn ready(
        &mut self,
        side: Side,
        id: &str,
        known: Option<f64>,
    ) -> Result<Answer, PairedError> {
        let cmd = Command::Paired {
            id: id.to_owned(),
            overhead: known,
        };
        match self.ask(side, &cmd)? {
            Event::Ready {
                cold,
                min_sample_ns,
                overhead,
                throughput,
                counters,
                metric,
                times_itself,
                ..
            } => Ok(Answer::Ready(Ready {
                cold,
                min_sample_ns,
                overhead,
                throughput,
                counters,
                metric,
                times_itself,
            })),
            Event::Skipped { reason, .. } => Ok(Answer::Skipped(reason)),
            other => Err(PairedError::new(side, unexpected(other))),
        }
    }

    /// Both sides' answers to `paired` for benchmark `id`, (baseline,
    /// current), side `first` asked first: the sides set the benchmark up
    /// in the order they started, each first in turn. The side that sets
    /// up last starts sampling with its inputs freshest, and with the
    /// current side always first the same executables read the second
    /// side +0.1 … +1.7 % slower in 6 comparisons of 6 (ropey's
    /// `index_convert/byte_to_line`). `overheads`: each side's loop
    /// overhead, once known.
    pub(super) fn ready_in_turn(
        &mut self,
        first: Side,
        id: &str,
        overheads: Option<(f64, f64)>,
    ) -> Result<(Answer, Answer), PairedError> {
        let overhead_of = |side: Side| {
            overheads.map(|(b, c)| match side {
                Side::Baseline => b,
                Side::Current => c,
            })
        };
        in_turn(self, first, |p, side| p.ready(side, id, overhead_of(side)))
    }

    pub(super) fn sample(&mut self, side: Side, iters: u64) -> Result<f64, PairedError> {
        match self.ask(side, &Command::Sample { iters })? {
            Event::Sampled { ns } => Ok(ns),
            other => Err(PairedError::new(side, unexpected(other))),
        }
    }

    /// One sample from each side; which goes first alternates with `round`
    /// ([`first_in`]).
    pub(super) fn round(&mut self, iters: u64, round: u64) -> Result<(f64, f64), PairedError> {
        in_turn(self, first_in(round), |p, side| p.sample(side, iters))
    }

    /// One epoch's samples, after a warm-up: rounds in lockstep until the
    /// epoch's time is up and it holds `min_rounds`, or `max_samples` are
    /// held in all. Where both sides copy themselves, the epoch's time is
    /// split among [`Pace::copies_in`] copies of the pair, one after
    /// another, each with its own ratio (whose median sets aside the first
    /// round, slower where its writes copy pages); the epoch's ratio is
    /// the copies' median. Returns the time spent sampling, with the
    /// warm-up's overrun of its length (its one round of long samples) and
    /// the copies' cost.
    pub(super) fn epoch(
        &mut self,
        pace: &mut Pace,
        epoch: u32,
        overheads: (f64, f64),
        taken: &mut Taken,
    ) -> Result<Duration, PairedError> {
        let iters = pace.iters_in(epoch);
        let warm = Instant::now();
        // The sides take turns at the first sample as at starting. With the
        // baseline always first there, the same executables on both sides
        // read the current side 8–27 % faster in 8 comparisons of 8 (flume's
        // `hydra-256t-1m-std`, 256 threads its setup starts, which spread
        // over the CPUs after the first sample, `nbench::spread`); taking
        // turns, -6 … -10 %, none claimed, in 3.
        let mut round = first_round(epoch);
        while warm.elapsed() < pace.warm_up {
            self.round(iters, round)?;
            round += 1;
        }
        let overrun = warm.elapsed().saturating_sub(pace.warm_up);
        let began = Instant::now();
        let first = taken.base.len();
        let copies = match self.base.forks && self.cur.forks {
            true => pace.copies_in(epoch),
            false => 1,
        };
        let mut ratios = Vec::with_capacity(copies);
        let mut copying = Duration::ZERO;
        let mut made_copies = 0;
        for copy in 0..copies {
            let made = Instant::now();
            let leading = match copy % 2 {
                0 => starts_first(epoch),
                _ => starts_first(epoch).other(),
            };
            let copied = copies > 1 && pace.copies == Copies::On && self.copy_both(leading)?;
            if copies > 1 && !copied {
                pace.copies = Copies::Off;
            }
            copying += made.elapsed();
            let last = copy + 1 == copies;
            let until = pace.per_epoch.mul_f64((copy + 1) as f64 / copies as f64);
            let stretch = (began, until, last, first);
            let (ratio, full) =
                self.rounds((pace, iters), overheads, taken, stretch, &mut round)?;
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
        pace.took(epoch, taken.base.len() - first);
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
            taken.epoch_base_medians.push(median_from(&taken.base));
            taken.epoch_cur_medians.push(median_from(&taken.cur));
            taken.epoch_copies.push(made_copies);
            taken.epoch_iters.push(iters);
        }
        Ok(began.elapsed() + overrun)
    }

    /// Rounds in lockstep, from round number `round` on, until `until` has
    /// passed since `began` and they are two at least (and, in the `last`
    /// stretch of the epoch whose first sample is `epoch_first`, the epoch
    /// holds `min_rounds`), or `max_samples` are held in all. Their ratio
    /// ([`balanced_ratio`]), and whether `max_samples` ended them.
    pub(super) fn rounds(
        &mut self,
        (pace, iters): (&Pace, u64),
        (base_over, cur_over): (f64, f64),
        taken: &mut Taken,
        (began, until, last, epoch_first): (Instant, Duration, bool, usize),
        round: &mut u64,
    ) -> Result<(Option<f64>, bool), PairedError> {
        let per_iter = |ns: f64, over: f64| (ns / iters as f64 - over).max(0.0);
        let first = taken.base.len();
        // The rounds' ratios by who went first: the baseline, the current side.
        let mut by_order: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        // Two rounds at least (one of each order), and the epoch's minimum by its end.
        let short =
            |held: usize| held - first < 2 || (last && held - epoch_first < pace.min_rounds);
        let mut full = false;
        while began.elapsed() < until || short(taken.base.len()) {
            let (bs, cs) = self.round(iters, *round)?;
            let (bs, cs) = (per_iter(bs, base_over), per_iter(cs, cur_over));
            taken.base.push(bs);
            taken.cur.push(cs);
            if bs > 0.0 {
                by_order[usize::from(first_in(*round) == Side::Current)].push(cs / bs);
            }
            *round += 1;
            if taken.base.len() >= pace.max_samples {
                full = true;
                break;
            }
        }
        Ok((balanced_ratio(by_order), full))
    }

    /// Has both sides go on in copies of themselves ([`Command::Fork`]),
    /// side `first` copied first (the sides take turns, as in starting):
    /// true if both did; false if either could not (none is left running).
    pub(super) fn copy_both(&mut self, first: Side) -> Result<bool, PairedError> {
        let copy = |p: &mut Pair, side| match p.ask(side, &Command::Fork)? {
            Event::Forked => Ok(true),
            Event::Unforked { .. } => Ok(false),
            other => Err(PairedError::new(side, unexpected(other))),
        };
        if !copy(self, first)? {
            return Ok(false);
        }
        if !copy(self, first.other())? {
            self.join(first)?;
            return Ok(false);
        }
        Ok(true)
    }

    /// Ends both sides' copies ([`Command::Join`]).
    pub(super) fn join_both(&mut self) -> Result<(), PairedError> {
        self.join(Side::Baseline)?;
        self.join(Side::Current)
    }

    pub(super) fn join(&mut self, side: Side) -> Result<(), PairedError> {
        match self.ask(side, &Command::Join)? {
            Event::Joined => Ok(()),
            other => Err(PairedError::new(side, unexpected(other))),
        }
    }

    /// Ends the benchmark on both sides, side `first` first, as the sides
    /// take turns starting (`starts_first`): with the current side always
    /// first, the same executables on both sides read flume's
    /// `hydra-1t-1000m-crossbeam` and `kitsune-1t-1000m-crossbeam` (two
    /// threads passing messages, spread over two CPUs) 9–14 % faster on the
    /// current side in 6 row-runs of 6, and with the baseline always first
    /// 13–15 % slower in 4 of 6. When both fail after sampling (a result
    /// check), the current side's failure is the one to report.
    pub(super) fn finish(mut self, first: Side) -> Result<(), PairedError> {
        let mut done = |side: Side| match self.ask(side, &Command::Finish)? {
            Event::Done { .. } => Ok(()),
            other => Err(PairedError::new(side, unexpected(other))),
        };
        let one = done(first);
        let two = done(first.other());
        let (base, cur) = by_side(first, one, two);
        cur.and(base)?;
        // Both told first: they exit side by side.
        self.base.quit();
        self.cur.quit();
        self.base.ended();
        self.cur.ended();
        Ok(())
    }
}

pub(super) fn unexpected(e: Event) -> SessionError {
    match e {
        Event::Failed { message, .. } => SessionError::Benchmark(message),
        Event::Error { message } => SessionError::Protocol(message),
        other => SessionError::Protocol(format!("unexpected answer {other:?}")),
    }
}

/// The loop overhead taken off each side's samples, (baseline, current).
/// Each side estimates it in its own process at its own moment, and on a
/// machine whose speed drifts two estimates of the same loop differ by a
/// third of a nanosecond (0.35 to 0.64 ns over six launches of one
/// executable), which taken off separately would become part of a small
/// benchmark's change. Where both time the `iter` loop, the lower estimate
/// is taken off both, so the difference between the sides is the one
/// measured in lockstep. (A side timing its own loop has no overhead to take off.)
pub(super) fn shared_overhead(base: f64, cur: f64) -> (f64, f64) {
    if base > 0.0 && cur > 0.0 {
        let o = base.min(cur);
        (o, o)
    } else {
        (base, cur)
    }
}

/// One calibration for both sides: the iteration count at which both samples reach `target` ns.
pub(super) fn calibrate(p: &mut Pair, target: f64, limit: Duration) -> Result<u64, PairedError> {
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
    pub(super) fn a_lean_from_who_went_first_cancels_with_the_orders_even() {
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
    pub(super) fn a_slow_sample_moves_one_ratio_not_the_epoch() {
        let mut first = vec![1.0; 8];
        let mut second = vec![1.0; 8];
        first[2] = 1.4;
        second[5] = 1.3;
        second[6] = 0.7;
        assert_eq!(balanced_ratio([first, second]), Some(1.0));
    }

    #[test]
    pub(super) fn the_surplus_left_out_is_the_last_to_run() {
        let r = balanced_ratio([vec![1.0, 1.0, 9.0, 9.0], vec![1.0, 1.0]]).unwrap();
        assert!((r - 1.0).abs() < 1e-12, "{r}");
        // One order alone (a single round) is its median.
        assert_eq!(balanced_ratio([vec![1.2], vec![]]), Some(1.2));
        assert_eq!(balanced_ratio([vec![], vec![]]), None);
    }

    #[test]
    pub(super) fn both_sides_lose_the_same_overhead_so_their_difference_is_the_measured_one() {
        let (b, c) = shared_overhead(0.64, 0.35);
        assert_eq!((b, c), (0.35, 0.35));
        // 10.64 ns and 10.70 ns taken in lockstep stay 0.06 ns apart.
        assert!(((10.70 - c) - (10.64 - b) - 0.06).abs() < 1e-12);
        // A side timing its own loop (iter_custom, iter_batched) keeps none.
        assert_eq!(shared_overhead(0.0, 0.5), (0.0, 0.5));
        assert_eq!(shared_overhead(0.5, 0.0), (0.5, 0.0));
    }
}
