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

use super::far::{FAR, FAR_FLOOR, robust_sd};
use super::iterations::APART;
use crate::model::comparison::Row;
use crate::model::samples::Epochs;
use nbench::__private::stats::{mean, median_sorted, ratio_t_test, variance};

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
/// `threshold` apart and their means more than [`APART`] standard errors
/// ([`apart_t`]). None where they agree, or either state has too few
/// epochs to tell.
pub fn split(row: &Row, threshold: f64) -> Option<BySpeed> {
    let States {
        mut full,
        mut slowed,
        mut past,
        epochs,
        ..
    } = States::of(&epochs_of(row));
    if full.len() < LEAST_EPOCHS || slowed.len() < LEAST_EPOCHS {
        return None;
    }
    let apart = apart_t(&full, &slowed) >= APART;
    let (f, s) = (median(&mut full), median(&mut slowed));
    let side = |x: f64| (x > threshold) as i8 - (x < -threshold) as i8;
    let differs = (f - s).abs() > threshold.ln_1p() && apart;
    (differs && side(f.exp_m1()) != side(row.change)).then(|| BySpeed {
        full: f.exp_m1(),
        slowed: s.exp_m1(),
        slowed_epochs: (slowed.len(), epochs),
        by: median(&mut past),
    })
}

/// Whether a comparison under way should measure on: most of its epochs
/// so far ran slowed, and one at full speed or more lies far from them
/// (further than [`FAR`] robust standard deviations of theirs, and than
/// `threshold`). Stopped there, the slowed epochs would give the verdict,
/// and the full-speed ones would be pulled in as far (measured: crc's
/// 9995d9b, `checksum/crc40` −1.5 % in its one epoch at full speed, the 15
/// slowed 38–43 % reading −0.05 %, "unchanged"). Measuring on, the
/// machine may come back to full speed.
pub fn outvoted(e: Epochs<'_>, threshold: f64) -> bool {
    let epochs: Vec<[f64; 2]> = (e.base_medians.iter().zip(e.cur_medians))
        .map(|(b, c)| [*b, *c])
        .collect();
    let States {
        full,
        mut slowed,
        epochs,
        ..
    } = States::of(&epochs);
    if full.is_empty() || slowed.len() < LEAST_SLOWED || slowed.len() * 2 <= epochs {
        return false;
    }
    slowed.sort_by(f64::total_cmp);
    let centre = median_sorted(&slowed);
    let reach = (FAR * robust_sd(&slowed).max(FAR_FLOOR)).max(threshold.ln_1p());
    full.iter().any(|l| (l - centre).abs() > reach)
}

/// A benchmark whose own processes run in two states, a pair's two
/// processes often in different ones, both ways: how many epochs had one
/// process slowed past [`SLOWED`] (the other within a third of that of its
/// side's fastest), the baseline's and the current side's, of how many,
/// and the change over all epochs as they are, with its plain t interval.
///
/// Threads passing work between them, spread over two CPUs, take one of a
/// few arrangements per process and keep it: flume's
/// `hydra-1t-1000m-crossbeam` read one process of the pair 30–60 % slower
/// than the other in every epoch at one iteration a sample, which one a
/// toss. The interval over epochs pulls such epochs in as strays, and the
/// change follows whichever side drew the slow state more often: in two
/// comparisons of the same executables, 4 of the 6 `hydra-1t-1000m` and
/// `kitsune-1t-1000m` rows were called changed, -12 … +20 %. Where the
/// states show both ways, a claim must hold over every epoch as it ran:
/// in 3 more such comparisons (33 rows) that held back 6 claims of -9 …
/// -14 %, and let 1 through (-14 %, its slow draws one-sided).
#[derive(Debug, Clone, PartialEq)]
pub struct TwoStates {
    /// Epochs with the baseline's process alone slowed, the current side's.
    pub slowed: (usize, usize),
    /// Epochs with both times measured.
    pub epochs: usize,
    /// The change over all epochs, none pulled in, its interval, p-value.
    pub plain: (f64, [f64; 2], f64),
}

/// Epochs of each side with its process alone slowed for [`two_states`].
const SPLIT_LEAST: usize = 2;
/// The share of epochs with one process alone slowed for [`two_states`].
const SPLIT_SHARE: f64 = 0.25;

impl TwoStates {
    /// In words, after "its processes": how often each side ran slowed.
    pub fn describe(&self) -> String {
        let (b, c) = self.slowed;
        format!(
            "ran in states over {:.0}% apart: in {b} of {n} pairs the baseline's process alone \
             ran slowed, in {c} the current side's",
            SLOWED * 100.0,
            n = self.epochs
        )
    }
}

/// The row's [`TwoStates`], where its epochs show them: at least
/// [`SPLIT_LEAST`] epochs each way, and [`SPLIT_SHARE`] of all, with one
/// process alone slowed.
pub fn two_states(row: &Row) -> Option<TwoStates> {
    let s = States::of(&epochs_of(row));
    let (b, c) = s.alone;
    if b.min(c) < SPLIT_LEAST || ((b + c) as f64) < SPLIT_SHARE * s.epochs as f64 {
        return None;
    }
    let t = ratio_t_test(&s.ratios, 0.95)?;
    Some(TwoStates {
        slowed: (b, c),
        epochs: s.epochs,
        plain: (t.change, t.ci, t.p),
    })
}

/// A row's epoch medians (baseline, current), its loop overhead put back.
fn epochs_of(row: &Row) -> Vec<[f64; 2]> {
    (row.epoch_medians.iter())
        .map(|m| [m[0] + row.overhead, m[1] + row.overhead])
        .collect()
}

/// Slowed epochs [`outvoted`] needs to judge the full-speed ones by.
const LEAST_SLOWED: usize = 3;

/// An epoch's two processes each measured against its side's fastest
/// epoch: at full speed, slowed by the machine, or neither.
struct States {
    /// The log ratios of the epochs at full speed.
    full: Vec<f64>,
    /// The log ratios of the slowed epochs.
    slowed: Vec<f64>,
    /// How far past their side's fastest the slowed epochs ran (the
    /// lesser of the two sides').
    past: Vec<f64>,
    /// Epochs with both times measured.
    epochs: usize,
    /// Their ratios, current / baseline.
    ratios: Vec<f64>,
    /// Epochs with the baseline's process alone slowed (past [`SLOWED`],
    /// the other within a third of that), and the current side's.
    alone: (usize, usize),
}

impl States {
    /// The states of epochs given as (baseline, current) times.
    fn of(epochs: &[[f64; 2]]) -> States {
        let epochs: Vec<[f64; 2]> = (epochs.iter().copied())
            .filter(|m| m[0] > 0.0 && m[1] > 0.0 && m[0].is_finite() && m[1].is_finite())
            .collect();
        let fastest = |side: usize| (epochs.iter().map(|m| m[side])).fold(f64::INFINITY, f64::min);
        let (fb, fc) = (fastest(0), fastest(1));
        let mut s = States {
            full: Vec::new(),
            slowed: Vec::new(),
            past: Vec::new(),
            epochs: epochs.len(),
            ratios: epochs.iter().map(|m| m[1] / m[0]).collect(),
            alone: (0, 0),
        };
        let alone = |x: f64, y: f64| usize::from(x >= SLOWED && y <= x / 3.0);
        for m in &epochs {
            let (b, c) = (m[0] / fb - 1.0, m[1] / fc - 1.0);
            s.alone.0 += alone(b, c);
            s.alone.1 += alone(c, b);
            let log = (m[1] / m[0]).ln();
            if b <= FULL_SPEED && c <= FULL_SPEED {
                s.full.push(log);
            } else if b >= SLOWED && c >= SLOWED {
                s.slowed.push(log);
                s.past.push(b.min(c));
            }
        }
        s
    }
}

/// How many standard errors apart the means of `a` and `b` lie (at least
/// two values each), each group's variance taken as the larger of the
/// two: a few epochs at full speed that agree by chance (two `vec_push`
/// epochs of an A/A comparison at −3.8 and −4.2 %, the slowed ones
/// spreading ±3 %) do not pass for a state of their own. Infinite where
/// neither varies.
fn apart_t(a: &[f64], b: &[f64]) -> f64 {
    let (ma, mb) = (mean(a), mean(b));
    let var = variance(a, ma).max(variance(b, mb));
    let (na, nb) = (a.len() as f64, b.len() as f64);
    (ma - mb).abs() / (var * (1.0 / na + 1.0 / nb)).sqrt()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    median_sorted(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::comparison::{Kind, Row, Verdict};

    /// A row over epochs (baseline, current) ns, its change as given.
    fn row(epochs: &[[f64; 2]], change: f64) -> Row {
        let found = (change, [change - 0.002, change + 0.002], Some(0.001));
        let mut row = Row::new("r", Kind::Paired, Default::default(), [1e4, 1e4], found);
        row.epoch_medians = epochs.to_vec();
        row
    }

    /// Measured: flume's `hydra-1t-1000m-crossbeam`, the same executables
    /// on both sides (epoch medians, µs), called +16.7 % [+11.2, +22.5].
    const FLUME_ONE_THREAD: [[f64; 2]; 17] = [
        [80.2, 59.3],
        [58.1, 62.5],
        [59.1, 88.1],
        [58.4, 61.7],
        [59.3, 88.9],
        [61.3, 58.2],
        [59.1, 82.7],
        [57.9, 58.4],
        [58.9, 86.8],
        [58.0, 55.1],
        [59.0, 90.7],
        [58.2, 58.3],
        [82.3, 59.0],
        [57.4, 57.7],
        [59.1, 75.5],
        [70.5, 61.3],
        [59.0, 80.2],
    ];

    #[test]
    fn processes_in_two_states_both_ways_hold_a_claim_to_every_epoch() {
        let mut r = row(&FLUME_ONE_THREAD, 0.167);
        r.change_ci = [0.1119, 0.2252];
        let s = two_states(&r).expect("one process of a pair slowed, both ways");
        assert_eq!((s.slowed, s.epochs), ((2, 7), 17));
        // Over every epoch as it ran: +11 %, [-2.2 %, +26 %].
        let (change, ci, _) = s.plain;
        assert!(
            (change - 0.110).abs() < 0.002 && ci[0] < 0.0 && ci[1] > 0.25,
            "{s:?}"
        );
        assert!(super::super::rule::states_against(&r, Verdict::Regressed, 0.005).is_some());
        assert_eq!(
            super::super::rule::verdict_of(&r, 0.005),
            Verdict::Inconclusive
        );
        let why = super::super::words::why_inconclusive(&r, 0.005);
        assert!(
            why.contains("in 2 of 17 pairs the baseline's process alone"),
            "{why}"
        );
        // A change every epoch holds stands: the current side 40 % slower.
        let slower: Vec<[f64; 2]> = FLUME_ONE_THREAD
            .iter()
            .map(|e| [e[0], e[1] * 1.4])
            .collect();
        let mut r = row(&slower, 0.63);
        r.change_ci = [0.55, 0.71];
        assert!(two_states(&r).is_some());
        assert_eq!(
            super::super::rule::states_against(&r, Verdict::Regressed, 0.005),
            None
        );
        assert_eq!(
            super::super::rule::verdict_of(&r, 0.005),
            Verdict::Regressed
        );
        // Two slowed processes in 17 epochs are strays, not a state.
        let mut strays = vec![[59.0, 59.2]; 17];
        (strays[3], strays[9]) = ([80.0, 59.1], [59.3, 82.0]);
        assert_eq!(two_states(&row(&strays, 0.0)), None);
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

    /// Measured: crc 9995d9b, `checksum/crc40`, the run that read it
    /// unchanged (ns; the other 7 runs: −1.6 %, improved).
    const CRC40: [[f64; 2]; 16] = [
        [8338.96, 8339.96],
        [8342.96, 8355.96],
        [8335.96, 8333.96],
        [8368.96, 8333.96],
        [8339.96, 8341.96],
        [8330.96, 8325.96],
        [8344.96, 8339.96],
        [8330.96, 8324.96],
        [8339.96, 8333.96],
        [8330.46, 8325.96],
        [8339.96, 8341.96],
        [8327.96, 8325.96],
        [8365.96, 8362.16],
        [8317.86, 8315.96],
        [6020.56, 5932.36],
        [8601.36, 8540.76],
    ];

    fn epochs(medians: &[[f64; 2]]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let base = medians.iter().map(|m| m[0]).collect();
        let cur = medians.iter().map(|m| m[1]).collect();
        let ratios = medians.iter().map(|m| m[1] / m[0]).collect();
        (ratios, base, cur)
    }

    #[test]
    fn a_slowed_majority_outvoting_full_speed_measures_on() {
        let at = |medians: &[[f64; 2]]| {
            let (ratios, base, cur) = epochs(medians);
            let n = ratios.len();
            let e = Epochs {
                ratios: &ratios,
                base_medians: &base,
                cur_medians: &cur,
                copies: &vec![0; n],
                iters: &vec![1; n],
            };
            outvoted(e, 0.005)
        };
        assert!(at(&CRC40));
        assert!(at(&TOML_EVENTS));
        // The one full-speed epoch reading what the slowed ones read.
        let mut agree = CRC40;
        agree[14] = [6020.56, 6020.0];
        assert!(!at(&agree));
        // Most epochs at full speed: the slowed ones are the far ones.
        let most_full: Vec<[f64; 2]> = (0..16)
            .map(|i| match i % 4 {
                0 => [8300.0 + i as f64, 8300.0],
                _ => [6000.0 + i as f64, 5910.0],
            })
            .collect();
        assert!(!at(&most_full));
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
        // Two epochs at full speed agreeing by chance, the slowed ones
        // spreading ±3 % around no change (an A/A comparison).
        let mut chance: Vec<[f64; 2]> = (0..24)
            .map(|i| {
                let t = 170_000.0 + 500.0 * i as f64;
                [t, t * (1.0 + 0.03 * ((i * 7 % 5) as f64 - 2.0) / 2.0)]
            })
            .collect();
        chance.extend([[142_161.2, 136_717.7], [146_597.7, 140_488.7]]);
        assert_eq!(split(&row(&chance, -0.002), 0.005), None);
        // Without per-epoch medians (a stored comparison): nothing to tell.
        assert_eq!(split(&row(&[], 0.0276), 0.005), None);
    }
}
