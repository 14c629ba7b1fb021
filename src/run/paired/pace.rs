//! How the epochs of one comparison sample: how many and how long, and
//! when they sample in copies of their process pair.

use crate::compare::far::robust_sd;
use nbench::__private::engine::{MAX_ITERS, Settings};
use std::time::Duration;

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
/// sets a comparison's interval, so more, shorter epochs narrow it for the
/// same time, down to this length: shorter ones spend more of it starting
/// and warming processes and narrow nothing. A longer `--max-time`
/// therefore buys more epochs of this length, not longer ones.
/// The figures' record: `docs/notes/2026-11-27-measuring-and-comparing.md`.
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

/// Iterations per sample, as multiples of the calibrated count, that a
/// comparison's epochs take in turn ([`Pace::iters_in`]). A benchmark's
/// time per iteration can follow how many iterations a sample runs (divan's
/// `with_inputs` makes that many inputs at once, and they land elsewhere on
/// the heap): toml's `serde_json::manifest::1-medium`, whose timed code a
/// compared commit does not touch, read the new build 6 % slower at one
/// iteration a sample and 4–6 % faster at two. Calibration picks the count
/// from the clock once a comparison, so every epoch of a run leaned the
/// same way: 66 runs of the same executables, every one significant, 20
/// regressed and 46 improved. In turns (with `compare::iterations`, which
/// gives no verdict where the counts disagree on the direction): of 16
/// runs, 0 regressed, 7 improved (calibrated at two), 9 inconclusive.
/// 1 and 2 rather than 1, 2 and 4: a sample four times as long leaves an
/// epoch a quarter of the rounds, and copies ([`COPIES`]) need rounds.
/// The record: `docs/notes/2026-11-29-toml-real-commit.md`.
pub const ITERS_STEPS: [u64; 2] = [1, 2];

/// Epoch `epoch`'s turn of [`ITERS_STEPS`].
fn step(epoch: u32) -> u64 {
    ITERS_STEPS[epoch as usize % ITERS_STEPS.len()]
}

/// Into how many epochs a comparison with time limit `max_time` is split:
/// as many as [`EPOCH`] fits, never fewer than 8.
pub fn epochs_for(max_time: Duration) -> u32 {
    let fit = max_time.as_nanos() / EPOCH.as_nanos();
    u32::try_from(fit).unwrap_or(u32::MAX).max(8)
}

/// The most epochs a comparison takes, in doubt: [`MOST_EPOCHS_FACTOR`]
/// times [`epochs_for`].
pub fn most_epochs(max_time: Duration) -> u32 {
    MOST_EPOCHS_FACTOR.saturating_mul(epochs_for(max_time))
}

/// How each epoch of one comparison samples.
#[derive(Debug, Clone)]
pub(super) struct Pace {
    /// Iterations per sample, set by the first epoch's calibration.
    pub(super) iters: u64,
    pub(super) warm_up: Duration,
    pub(super) per_epoch: Duration,
    /// Rounds an epoch takes even past its time.
    pub(super) min_rounds: usize,
    pub(super) max_samples: usize,
    /// Whether epochs sample in copies of their pair.
    pub(super) copies: Copies,
    /// Rounds the last epoch took, if one ran, as rounds of the calibrated
    /// count (an epoch at twice the count that took 10 rounds: 20).
    pub(super) rounds: Option<usize>,
}

impl Pace {
    /// Before calibration (no iterations yet), for the settings `s`.
    pub(super) fn new(s: &Settings) -> Pace {
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

    /// Iterations per sample in epoch `epoch`: the calibrated count times
    /// the epoch's turn of [`ITERS_STEPS`].
    pub(super) fn iters_in(&self, epoch: u32) -> u64 {
        self.iters.saturating_mul(step(epoch)).min(MAX_ITERS)
    }

    /// Copies epoch `epoch` samples in: where they are on, as many as
    /// [`COPY_ROUNDS`] each fit in the last epoch's rounds (at this epoch's
    /// iterations per sample), at most [`COPIES`]; else one (the pair itself).
    pub(super) fn copies_in(&self, epoch: u32) -> usize {
        match (self.copies, self.rounds) {
            (Copies::On, Some(rounds)) => {
                (rounds / step(epoch) as usize / COPY_ROUNDS).clamp(1, COPIES)
            }
            _ => 1,
        }
    }

    /// Notes that epoch `epoch` took `rounds` rounds.
    pub(super) fn took(&mut self, epoch: u32, rounds: usize) {
        self.rounds = Some(rounds * step(epoch) as usize);
    }

    /// Turns copies on once the epochs `ratios` are [`COPY_AFTER`] and
    /// spread past [`COPY_FROM`].
    pub(super) fn judge_copies(&mut self, ratios: &[f64]) {
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
pub(super) enum Copies {
    /// Not yet: its epochs have not been judged to spread enough.
    NotYet,
    /// Its epochs spread past [`COPY_FROM`].
    On,
    /// Never again: a side could not copy itself, or copying cost too much.
    Off,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epochs_take_the_calibrated_count_and_its_multiple_in_turns() {
        let s = Settings::default();
        let mut pace = Pace::new(&s);
        pace.iters = 3;
        let counts: Vec<u64> = (0..6).map(|e| pace.iters_in(e)).collect();
        assert_eq!(counts, [3, 6, 3, 6, 3, 6]);
        // Never past what a sample may take.
        pace.iters = MAX_ITERS;
        assert_eq!(pace.iters_in(1), MAX_ITERS);
    }

    #[test]
    pub(super) fn epochs_are_many_and_short_but_not_shorter_than_a_pair_is_worth() {
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
}
