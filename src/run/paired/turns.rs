//! Which side of a pair goes first, and whose failure a failed step is.

use crate::run::session::SessionError;

/// Which process a failure came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The saved baseline executable.
    Baseline,
    /// The freshly built one.
    Current,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Baseline => Side::Current,
            Side::Current => Side::Baseline,
        }
    }
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
    /// Whether the benchmark itself failed (a panic or failed check, or its
    /// process crashed), as against a timeout or a broken channel.
    pub fn benchmarks_own(&self) -> bool {
        matches!(
            self.error,
            SessionError::Benchmark(_) | SessionError::Crashed(_)
        )
    }

    pub(super) fn new(side: Side, error: SessionError) -> PairedError {
        PairedError {
            side,
            error,
            output: String::new(),
        }
    }
}

/// Which side takes its sample first in `round`: the two take turns.
pub(super) fn first_in(round: u64) -> Side {
    if round.is_multiple_of(2) {
        Side::Baseline
    } else {
        Side::Current
    }
}

/// Which side's process starts first in epoch `epoch`, and sets the
/// benchmark up first (and copies first in its first copy; the sides then
/// take turns): each side in every other
/// pair of epochs, so that each count of iterations per sample, which
/// epochs take in turns ([`super::pace::ITERS_STEPS`]), has as many
/// epochs of each order.
pub(super) fn starts_first(epoch: u32) -> Side {
    first_in(first_round(epoch))
}

/// The number of epoch `epoch`'s first round ([`first_in`]): the side that
/// started first ([`starts_first`]) samples first too.
pub(super) fn first_round(epoch: u32) -> u64 {
    u64::from(epoch / 2)
}

/// Two values taken from side `first` and then the other, as (the
/// baseline's, the current side's).
pub(super) fn by_side<T>(first: Side, one: T, two: T) -> (T, T) {
    match first {
        Side::Baseline => (one, two),
        Side::Current => (two, one),
    }
}

/// `step` taken on side `first`, then on the other, as (the baseline's,
/// the current side's). Where the baseline fails by the benchmark's own
/// doing ([`PairedError::benchmarks_own`]), the current side still takes
/// the step, and a failure both builds share is told as the current
/// side's: "the baseline fails it" is kept for what this build mends (a
/// benchmark that fails in copies of its process fails on whichever side
/// samples first).
pub(super) fn in_turn<P, T>(
    pair: &mut P,
    first: Side,
    mut step: impl FnMut(&mut P, Side) -> Result<T, PairedError>,
) -> Result<(T, T), PairedError> {
    let one = match step(pair, first) {
        Ok(one) => one,
        Err(e) if e.side == Side::Baseline && e.benchmarks_own() => {
            return Err(step(pair, Side::Current).err().unwrap_or(e));
        }
        Err(e) => return Err(e),
    };
    let two = step(pair, first.other())?;
    Ok(by_side(first, one, two))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn each_count_of_iterations_has_both_orders_of_start() {
        let firsts: Vec<Side> = (0..8).map(starts_first).collect();
        for count in 0..2 {
            let of_count: Vec<Side> = firsts.iter().skip(count).step_by(2).copied().collect();
            let base = of_count.iter().filter(|s| **s == Side::Baseline).count();
            assert_eq!(base * 2, of_count.len(), "{firsts:?}");
        }
    }

    #[test]
    fn a_failure_both_sides_share_is_the_current_sides_whichever_went_first() {
        let panicked = || SessionError::Benchmark("panicked".into());
        // Each side's step fails where `fails` holds its side; the sides asked, in order.
        let run = |first: Side, fails: &[Side]| {
            let mut asked = Vec::new();
            let got = in_turn(&mut asked, first, |asked, side| {
                asked.push(side);
                match fails.contains(&side) {
                    true => Err(PairedError::new(side, panicked())),
                    false => Ok(side),
                }
            });
            (got.map_err(|e| e.side), asked)
        };
        let (b, c) = (Side::Baseline, Side::Current);
        assert_eq!(run(b, &[]), (Ok((b, c)), vec![b, c]));
        assert_eq!(run(c, &[]), (Ok((b, c)), vec![c, b]));
        // Both fail: the current side's failure, whoever went first.
        assert_eq!(run(b, &[b, c]), (Err(c), vec![b, c]));
        assert_eq!(run(c, &[b, c]), (Err(c), vec![c]));
        // The baseline alone fails: its failure, after the current side took the step.
        assert_eq!(run(b, &[b]), (Err(b), vec![b, c]));
        assert_eq!(run(c, &[b]), (Err(b), vec![c, b]));
        // A timeout on the baseline is not asked of the current side.
        let timed_out = |asked: &mut Vec<Side>, side: Side| -> Result<(), PairedError> {
            asked.push(side);
            Err(PairedError::new(
                side,
                SessionError::TimedOut(Duration::from_secs(1)),
            ))
        };
        let mut asked = Vec::new();
        assert!(in_turn(&mut asked, b, timed_out).is_err());
        assert_eq!(asked, [b]);
    }
}
