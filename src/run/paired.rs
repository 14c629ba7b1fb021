//! Measuring one benchmark in two processes in lockstep: shared calibration, samples alternating between them.

use super::session::{Session, SessionError};
use nbench::engine::{Stop, next_iters};
use nbench::protocol::{Command, Event};
use nbench::stats::{median_ci_sorted, median_sorted};
use nbench::{Settings, Throughput};
use std::time::{Duration, Instant};

/// Which process a failure came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The saved baseline executable.
    Baseline,
    /// The freshly built one.
    Current,
}

/// Samples of both sides, taken in alternation; per-iteration ns, loop overhead removed.
#[derive(Debug, Clone)]
pub struct PairedSamples {
    /// Iterations per sample, the same for both.
    pub iters: u64,
    /// Baseline sample i was taken next to current sample i.
    pub base_ns: Vec<f64>,
    /// Current samples.
    pub cur_ns: Vec<f64>,
    /// Work per iteration declared by the current side.
    pub throughput: Option<Throughput>,
    /// Why sampling stopped.
    pub stop: Stop,
    /// The current side's first call, ns.
    pub cold_ns: f64,
    /// The current side's loop overhead, ns.
    pub overhead_ns: f64,
}

impl PairedSamples {
    /// current / baseline for each pair with a non-zero baseline sample.
    pub fn ratios(&self) -> Vec<f64> {
        self.base_ns
            .iter()
            .zip(&self.cur_ns)
            .filter(|(b, _)| **b > 0.0)
            .map(|(b, c)| c / b)
            .collect()
    }
}

struct Pair<'s> {
    base: &'s mut Session,
    cur: &'s mut Session,
    deadline: Instant,
}

impl Pair<'_> {
    fn ask(&mut self, side: Side, cmd: &Command) -> Result<Event, (Side, SessionError)> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        let s = match side {
            Side::Baseline => &mut *self.base,
            Side::Current => &mut *self.cur,
        };
        s.send(cmd).map_err(|e| (side, e))?;
        s.receive(left).map_err(|e| (side, e))
    }

    fn sample(&mut self, side: Side, iters: u64) -> Result<f64, (Side, SessionError)> {
        match self.ask(side, &Command::Sample { iters })? {
            Event::Sampled { ns } => Ok(ns),
            other => Err((side, unexpected(other))),
        }
    }

    /// One sample from each side; which goes first alternates with `round`.
    fn round(&mut self, iters: u64, round: u64) -> Result<(f64, f64), (Side, SessionError)> {
        if round % 2 == 0 {
            let b = self.sample(Side::Baseline, iters)?;
            Ok((b, self.sample(Side::Current, iters)?))
        } else {
            let c = self.sample(Side::Current, iters)?;
            Ok((self.sample(Side::Baseline, iters)?, c))
        }
    }
}

fn unexpected(e: Event) -> SessionError {
    match e {
        Event::Failed { message, .. } | Event::Error { message } => SessionError::Protocol(message),
        other => SessionError::Protocol(format!("unexpected answer {other:?}")),
    }
}

/// Measures benchmark `id` in both processes, sample by sample in
/// alternation, until the 95 % CI of the median ratio is within the
/// precision target (after `min_time`) or `max_time` runs out.
pub fn measure(
    base: &mut Session,
    cur: &mut Session,
    id: &str,
    s: &Settings,
    timeout: Duration,
) -> Result<PairedSamples, (Side, SessionError)> {
    let mut p = Pair {
        base,
        cur,
        deadline: Instant::now() + timeout,
    };
    let mut ready = Vec::new();
    for side in [Side::Baseline, Side::Current] {
        match p.ask(side, &Command::Paired { id: id.to_owned() })? {
            Event::Ready {
                cold_ns,
                min_sample_ns,
                overhead_ns,
                throughput,
                ..
            } => ready.push((cold_ns, min_sample_ns, overhead_ns, throughput)),
            other => return Err((side, unexpected(other))),
        }
    }
    let (b_over, (cold_ns, _, c_over, throughput)) = (ready[0].2, ready[1]);
    let target = ready[0].1.max(ready[1].1);

    // One calibration for both: the iteration count at which both samples reach the target.
    let start = Instant::now();
    let mut iters = 1;
    loop {
        let (b, c) = p.round(iters, 0)?;
        let shorter = b.min(c);
        if shorter >= target || start.elapsed() >= s.max_time {
            break;
        }
        iters = next_iters(iters, shorter, target);
    }
    let warm = Instant::now();
    let mut round = 0;
    while warm.elapsed() < s.warm_up {
        p.round(iters, round)?;
        round += 1;
    }

    let sampling = Instant::now();
    let (mut base_ns, mut cur_ns) = (Vec::new(), Vec::new());
    let mut next_check = s.min_samples.max(1);
    let per_iter = |ns: f64, over: f64| (ns / iters as f64 - over).max(0.0);
    let stop = loop {
        let (b, c) = p.round(iters, round)?;
        round += 1;
        base_ns.push(per_iter(b, b_over));
        cur_ns.push(per_iter(c, c_over));
        let n = base_ns.len();
        let elapsed = sampling.elapsed();
        if n < s.min_samples {
            continue;
        }
        if n >= next_check && elapsed >= s.min_time {
            if ratio_precise(&base_ns, &cur_ns, s.precision) {
                break Stop::Precise;
            }
            next_check = n + (n / 10).max(1);
        }
        if elapsed >= s.max_time {
            break Stop::TimeLimit;
        }
        if n >= s.max_samples {
            break Stop::SampleLimit;
        }
    };
    for side in [Side::Baseline, Side::Current] {
        match p.ask(side, &Command::Finish)? {
            Event::Done { .. } => {}
            other => return Err((side, unexpected(other))),
        }
    }
    Ok(PairedSamples {
        iters,
        base_ns,
        cur_ns,
        throughput,
        stop,
        cold_ns,
        overhead_ns: c_over,
    })
}

fn ratio_precise(base: &[f64], cur: &[f64], precision: f64) -> bool {
    let mut r: Vec<f64> = base
        .iter()
        .zip(cur)
        .filter(|(b, _)| **b > 0.0)
        .map(|(b, c)| c / b)
        .collect();
    if r.is_empty() {
        return false;
    }
    r.sort_by(f64::total_cmp);
    let ci = median_ci_sorted(&r, 0.95);
    (ci.hi - ci.lo) / 2.0 <= precision * median_sorted(&r).max(f64::MIN_POSITIVE)
}
