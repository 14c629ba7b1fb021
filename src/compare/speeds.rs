//! Whether a paired row's change follows the machine's speed.
//!
//! A shared host runs some stretches of a comparison slowed throughout,
//! both processes of an epoch alike (measured on this project's 2-vCPU VM:
//! 25–67 % past the fastest epochs, for seconds at a time). Each epoch
//! still compares the two builds in one state, so mostly the ratio holds.
//! Where the work is bound by memory, it does not: the slowed state weighs
//! the memory traffic more, and a change in it reads larger or smaller
//! there than at full speed (toml's 26eb1571, which reserves less and
//! reallocates more: `toml_parser::events::0-new` +0.5 % in the 5 epochs
//! at full speed, +4.2 % in the 10 slowed 46 %). The change over all
//! epochs is then a mix whose share of slowed epochs differs from run to
//! run: the row says the two and claims neither where they disagree.

use super::iterations::{APART, welch_t};
use crate::model::comparison::Row;
use nbench::__private::stats::median_sorted;

/// How far past its side's fastest epoch each process of an epoch runs
/// for the epoch to count as slowed by the machine.
const SLOWED: f64 = 0.15;
/// How close to its side's fastest epoch each process of an epoch runs
/// for the epoch to count as at full speed (a state's own drift is 0.3–3 %).
const FULL_SPEED: f64 = 0.05;
/// Epochs each state needs before the two are compared.
const LEAST_EPOCHS: usize = 2;

/// A change that differs with the machine's speed.
#[derive(Debug, Clone, PartialEq)]
pub struct BySpeed {
    /// The median change over the epochs at full speed.
    pub full: f64,
    /// The median change over the slowed epochs.
    pub slowed: f64,
    /// How many epochs ran slowed, of how many.
    pub slowed_epochs: (usize, usize),
    /// How much slower the slowed epochs ran, their median (0.4 = 40 %).
    pub by: f64,
}

impl BySpeed {
    /// In words, after a row's id: what each state reads.
    pub fn describe(&self) -> String {
        let (k, n) = self.slowed_epochs;
        format!(
            "reads {:+.1}% at full speed and {:+.1}% in the {k} of {n} epochs the machine ran \
             {:.0}% slower",
            self.full * 100.0,
            self.slowed * 100.0,
            self.by * 100.0
        )
    }
}

/// The change at full speed and slowed, where the row's verdict would not
/// be the one its full-speed epochs give (the change past `threshold` one
/// way, or within it) and the two states disagree: their medians more than
/// `threshold` apart and their means more than [`APART`] by Welch's t.
/// None where they agree, or either state has too few epochs to tell.
pub fn split(row: &Row, threshold: f64) -> Option<BySpeed> {
    let epochs: Vec<[f64; 2]> = (row.epoch_medians.iter())
        .map(|m| [m[0] + row.overhead, m[1] + row.overhead])
        .filter(|m| m[0] > 0.0 && m[1] > 0.0 && m[0].is_finite() && m[1].is_finite())
        .collect();
    let fastest = |side: usize| (epochs.iter().map(|m| m[side])).fold(f64::INFINITY, f64::min);
    let (fb, fc) = (fastest(0), fastest(1));
    let (mut full, mut slowed, mut past) = (Vec::new(), Vec::new(), Vec::new());
    for m in &epochs {
        let (b, c) = (m[0] / fb - 1.0, m[1] / fc - 1.0);
        let log = (m[1] / m[0]).ln();
        if b <= FULL_SPEED && c <= FULL_SPEED {
            full.push(log);
        } else if b >= SLOWED && c >= SLOWED {
            slowed.push(log);
            past.push(b.min(c));
        }
    }
    if full.len() < LEAST_EPOCHS || slowed.len() < LEAST_EPOCHS {
        return None;
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        median_sorted(v)
    };
    let apart = welch_t(&full, &slowed) >= APART;
    let (f, s) = (median(&mut full), median(&mut slowed));
    let side = |x: f64| (x > threshold) as i8 - (x < -threshold) as i8;
    let differs = (f - s).abs() > threshold.ln_1p() && apart;
    (differs && side(f.exp_m1()) != side(row.change)).then(|| BySpeed {
        full: f.exp_m1(),
        slowed: s.exp_m1(),
        slowed_epochs: (slowed.len(), epochs.len()),
        by: median(&mut past),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::comparison::{Kind, Row};

    /// A row over epochs (baseline, current) ns, its change as given.
    fn row(epochs: &[[f64; 2]], change: f64) -> Row {
        let found = (change, [change - 0.002, change + 0.002], Some(0.001));
        let mut row = Row::new("r", Kind::Paired, Default::default(), [1e4, 1e4], found);
        row.epoch_medians = epochs.to_vec();
        row
    }

    /// Measured: toml 26eb1571, `toml_parser::events::0-new` (16 epochs;
    /// its row read +2.76 %, regressed).
    const TOML_EVENTS: [[f64; 2]; 16] = [
        [500.77, 525.82],
        [499.26, 515.34],
        [509.27, 526.71],
        [498.96, 522.86],
        [493.80, 512.61],
        [501.08, 524.37],
        [339.18, 340.85],
        [344.17, 344.34],
        [381.43, 362.47],
        [461.10, 478.84],
        [461.85, 484.15],
        [418.38, 421.04],
        [343.12, 349.35],
        [339.94, 342.37],
        [467.40, 488.34],
        [340.84, 341.29],
    ];

    #[test]
    fn a_change_that_only_the_slowed_epochs_show_is_no_verdict() {
        let s = split(&row(&TOML_EVENTS, 0.0276), 0.005).unwrap();
        assert!((s.full - 0.0049).abs() < 0.001, "{s:?}");
        assert!((s.slowed - 0.0416).abs() < 0.001, "{s:?}");
        assert_eq!(s.slowed_epochs, (10, 16));
        assert!((s.by - 0.46).abs() < 0.03, "{s:?}");
        assert_eq!(
            s.describe(),
            "reads +0.5% at full speed and +4.2% in the 10 of 16 epochs the machine ran 46% slower"
        );
        // The row gets no verdict, and its reason says both.
        let r = row(&TOML_EVENTS, 0.0276);
        let verdict = crate::compare::rule::verdict_of(&r, 0.005);
        assert_eq!(verdict, crate::model::comparison::Verdict::Inconclusive);
        let why = crate::compare::words::why_inconclusive(&r, 0.005);
        assert!(
            why.starts_with(
                "over all epochs the change lies in +2.6% … +3.0%, but it reads +0.5% at full speed"
            ),
            "{why}"
        );
        // A verdict the full-speed epochs give too stands: a threshold
        // the full-speed change is past.
        assert_eq!(split(&row(&TOML_EVENTS, 0.0276), 0.003), None);
    }

    #[test]
    fn states_that_agree_or_a_state_too_thin_leave_the_row_alone() {
        // Both states read the same change, the slowed ones 40 % slower.
        let agree: Vec<[f64; 2]> = (0..16)
            .map(|i| {
                let t = if i % 3 == 0 { 1000.0 } else { 1400.0 } + i as f64;
                [t, t * 1.02]
            })
            .collect();
        assert_eq!(split(&row(&agree, 0.02), 0.005), None);
        // One epoch at full speed: too few to set against the rest.
        let mut one = TOML_EVENTS.to_vec();
        one.retain(|m| m[0] > 345.0 || m[0] == 339.18);
        assert_eq!(split(&row(&one, 0.0276), 0.005), None);
        // Without per-epoch medians (a stored comparison): nothing to tell.
        assert_eq!(split(&row(&[], 0.0276), 0.005), None);
    }
}
