//! A benchmark measured in lockstep becomes a row: its change taken from
//! the epochs that can tell it (those in copies, else those whose two
//! processes ran in one speed state), the spreads its reason speaks of,
//! and its interval no narrower than the clock resolves.

use super::estimate::{at_least, half_step_ns};
use super::estimators::{self, Fast};
use super::far::{FAR_MIN_UNITS, pull_in_far, robust_sd};
use super::iterations;
use super::layouts;
use super::row_threshold;
use super::rule::Change;
use super::units::{Assignment, placement_spread};
use crate::model::comparison::{Kind, Row};
use crate::model::samples::{Epochs, Taken};
use nbench::__private::metric::Metric;
use nbench::__private::stats::{Summary, median_sorted};
use nbench::Throughput;

/// What a lockstep measurement of one benchmark hands the comparison.
#[derive(Debug, Clone, Copy)]
pub struct Measured<'a> {
    /// Both sides' samples and each epoch's figures.
    pub taken: &'a Taken,
    /// Iterations per sample, the same for both sides.
    pub iters: u64,
    /// The loop overhead taken off the samples, ns.
    pub overhead: f64,
    /// Whether the time limit ended it.
    pub time_limited: bool,
    /// What both sides' samples measure.
    pub metric: Metric,
    /// Work per iteration each side declared, (baseline's, current's).
    pub throughput: (Option<Throughput>, Option<Throughput>),
}

/// Which epochs a row's change counts, and their ratios with each
/// iteration count's own level evened out ([`iterations::evened`]):
/// decided once for the change, its spreads and the units a report lists.
#[derive(Debug, Clone, PartialEq)]
pub struct Basis {
    /// The epochs' ratios, evened over iteration counts.
    ratios: Vec<f64>,
    /// Epochs counted at all: every one, but where enough sampled in
    /// copies of their processes and the copies disagree with the fresh
    /// processes ([`copies_agree`]), the fresh ones alone: fresh
    /// processes are how the program runs, so they decide.
    counted: Vec<bool>,
    /// Of those, the ones the change is taken from where they are units
    /// enough: those that sampled in copies, where enough did and they
    /// agree; else those whose processes ran in one speed state
    /// ([`one_state`]).
    judged: Vec<bool>,
}

impl Basis {
    /// The basis of epochs `e` paired by `layouts`.
    pub fn of(layouts: &Assignment, e: Epochs<'_>, threshold: f64) -> Basis {
        let ratios = iterations::evened(e);
        let e = Epochs {
            ratios: &ratios,
            ..e
        };
        let n = e.ratios.len();
        let copy = |i: usize| e.copies.get(i).is_some_and(|c| *c > 0);
        let (counted, judged) = if copied_epochs(e) < FAR_MIN_UNITS {
            (vec![true; n], one_state(layouts, e))
        } else if copies_agree(e, threshold) {
            (vec![true; n], (0..n).map(copy).collect())
        } else {
            let fresh: Vec<bool> = (0..n).map(|i| !copy(i)).collect();
            let judged = (one_state(layouts, e).into_iter().zip(&fresh))
                .map(|(one, fresh)| one && *fresh)
                .collect();
            (fresh, judged)
        };
        Basis {
            ratios,
            counted,
            judged,
        }
    }

    /// The units ([`Assignment::units_of`]) of the epochs counted.
    pub fn units(&self, layouts: &Assignment) -> Vec<f64> {
        layouts.units_of(&self.ratios, &self.counted).0
    }
}

/// The change over the epochs of `basis`, paired by `layouts` (see
/// [`estimators::paired_with`]): from the units of the epochs it judges by
/// where some epoch is not among them, else from all counted units. Where
/// enough epochs ([`FAR_MIN_UNITS`]) sampled in copies of their processes
/// (`run::paired::COPIES`), from those: each one's ratio is already the
/// median over several processes' states (its pooled median is no
/// process's speed to judge it by), and the epochs before them, in fresh
/// processes alone, spread two to three times as far (measured,
/// `vec_push/1000`: ±5–9 % against ±2–2.5 %). Fewer copied epochs (copies
/// that stopped for their cost, or have only begun) are too few to judge
/// by, and the rest are judged at full speed as if none had copied: judged
/// over all units instead, an A/A comparison whose copies stopped after two
/// epochs was called 3.9 % slower, [+0.8 %, +7.1 %].
pub fn change(
    layouts: &Assignment,
    basis: &Basis,
    rounds: &[f64],
    threshold: f64,
) -> Option<Change> {
    let (fast, fast_clusters) = layouts.units_of(&basis.ratios, &basis.judged);
    let fast = basis.judged.contains(&false).then_some(Fast {
        units: &fast,
        clusters: layouts::clusters(&fast_clusters),
    });
    let (units, clusters) = layouts.units_of(&basis.ratios, &basis.counted);
    let all = layouts::clusters(&clusters);
    estimators::paired_with(&units, all, fast, rounds, threshold)
}

/// How many epochs sampled in copies of their processes.
fn copied_epochs(e: Epochs<'_>) -> usize {
    e.copies.iter().filter(|c| **c > 0).count()
}

/// Standard errors of the fresh processes' median change past which the
/// copied epochs' median lies where they disagree ([`copies_agree`]).
const COPIES_APART: f64 = 4.0;

/// Whether the epochs that sampled in copies of their processes tell the
/// change the epochs of fresh processes tell: their median log ratios lie
/// within `threshold` of each other, or the copies' within [`COPIES_APART`]
/// standard errors of the fresh processes' (not of their own: copies that
/// split between two readings would otherwise pass for uncertain). A copy
/// stands in for a fresh process (its pages its own), but its pages are
/// scattered where a fresh process's come mostly in order,
/// and where the two sides use memory differently that is not the same
/// draw: toml's `serde_json::document::1-medium`, whose timed code a
/// compared commit does not touch, read +0.0 … +0.4 % in fresh processes
/// and +13 % in copies (the current side 20–60 % slower in whole copies),
/// and was called 14 % slower in every run whose epochs turned copies on.
/// Where they disagree, fresh processes decide.
fn copies_agree(e: Epochs<'_>, threshold: f64) -> bool {
    let (mut copied, mut fresh) = (Vec::new(), Vec::new());
    for (r, c) in e.ratios.iter().zip(e.copies) {
        if *r > 0.0 && r.is_finite() {
            match *c > 0 {
                true => copied.push(r.ln()),
                false => fresh.push(r.ln()),
            }
        }
    }
    if fresh.len() < FAR_MIN_UNITS || copied.len() < FAR_MIN_UNITS {
        return true;
    }
    copied.sort_by(f64::total_cmp);
    fresh.sort_by(f64::total_cmp);
    let centre = median_sorted(&fresh);
    let mut off: Vec<f64> = fresh.iter().map(|l| l - centre).collect();
    off.sort_by(f64::total_cmp);
    // The median's standard error: 1.2533 × sd / √n on normal draws.
    let error = 1.2533 * robust_sd(&off) / (fresh.len() as f64).sqrt();
    let gap = (median_sorted(&copied) - centre).abs();
    gap <= threshold.ln_1p() || gap <= COPIES_APART * error
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
/// The figures' record: `docs/notes/2026-11-27-measuring-and-comparing.md`.
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

/// The comparison row of one benchmark measured in lockstep.
pub fn row(id: &str, p: &Measured<'_>, layouts: &Assignment, threshold: f64) -> Option<Row> {
    // The baseline column as a fresh run estimates a time: the fastest
    // epoch's median (a slow spell only adds time), so that it reads what a
    // plain run of the same executable reads; the current column is it
    // moved by the change the verdict is made from.
    let taken = p.taken;
    let base_median = (taken.epoch_base_medians.iter())
        .copied()
        .filter(|m| m.is_finite())
        .min_by(f64::total_cmp)
        .unwrap_or_else(|| median(&taken.base));
    let t = row_threshold(threshold, base_median, p.overhead);
    let basis = Basis::of(layouts, taken.epochs(), t);
    let mut ch = change(layouts, &basis, &taken.round_ratios(), t)?;
    let (layout_spread, placement_spread) = spreads(layouts, &ch, &basis);
    // No narrower than the clock's step in either side's median.
    let cur_median = median(&taken.cur);
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
    let found = (ch.change, ch.ci, ch.p_value);
    Some(
        Row {
            baseline_per_iter: taken.base.clone(),
            overhead: p.overhead,
            layout_spread,
            placement_spread,
            layout_widening: (ch.layout_widening > 1.0).then_some(ch.layout_widening),
            epochs: Some(taken.epoch_ratios.len()),
            copies: taken.epoch_copies.iter().sum(),
            epochs_pulled_in: ch.pulled_in,
            layouts_left_out: ch.layouts_left_out,
            full_speed_units: ch.full_speed_units,
            epoch_medians: epoch_medians(taken),
            // Each epoch's pair of layouts, where both sides ran several.
            epoch_layouts: if layouts.controlled() {
                layouts.epoch_pairs(taken.epoch_ratios.len())
            } else {
                Vec::new()
            },
            epoch_iters: taken.epoch_iters.clone(),
            unit_ratios: basis.units(layouts),
            time_limited: p.time_limited,
            ..Row::new(id, Kind::Paired, p.metric, times, found)
        }
        .with_work(
            p.throughput.0.map(Into::into),
            p.throughput.1.map(Into::into),
        ),
    )
}

/// The spread between process pairs and placement's part of it
/// ([`Assignment::spread`], [`layouts::placement_spread`]) over the units
/// change `ch` was taken from ([`change`]: those `basis` counts, or those
/// it judges by), without the ones far from the rest: so that a row's
/// cause and its interval speak of the same epochs.
fn spreads(layouts: &Assignment, ch: &Change, basis: &Basis) -> (Option<f64>, Option<f64>) {
    let keep = match ch.full_speed_units {
        0 => &basis.counted,
        _ => &basis.judged,
    };
    let (units, labels) = layouts.units_of(&basis.ratios, keep);
    let clipped = pull_in_far(&units).0;
    (
        layouts.spread(&clipped),
        placement_spread(&clipped, labels.as_ref()),
    )
}

/// Each epoch's (baseline, current) medians; never NaN, which JSON cannot
/// hold (an epoch has samples).
fn epoch_medians(taken: &Taken) -> Vec<[f64; 2]> {
    let finite = |x: &f64| if x.is_finite() { *x } else { 0.0 };
    (taken.epoch_base_medians.iter())
        .zip(&taken.epoch_cur_medians)
        .map(|(b, c)| [finite(b), finite(c)])
        .collect()
}

fn median(x: &[f64]) -> f64 {
    Summary::new(x).map(|s| s.median).unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::estimate::tests::Normal;
    use crate::compare::{far, rule};
    use crate::model::comparison::Verdict;

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
                iters: &[],
            }
        }
    }

    fn judge(layouts: &Assignment, e: &[[f64; 3]]) -> rule::Change {
        let columns = Columns::of(e);
        at_half_percent(layouts, columns.epochs())
    }

    /// The change of epochs `e` at a threshold of 0.5 %.
    fn at_half_percent(layouts: &Assignment, e: Epochs<'_>) -> rule::Change {
        change(layouts, &Basis::of(layouts, e, 0.005), &[], 0.005).unwrap()
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
        let (spread, placement) = spreads(&layouts, &ch, &Basis::of(&layouts, epochs, 0.005));
        // Its epochs spread as the drift within a state does (±0.1–0.3 %),
        // not as all epochs do, far ones pulled in.
        let all = layouts.spread(&far::pull_in_far(&layouts.units(epochs.ratios)).0);
        let (spread, all) = (spread.unwrap(), all.unwrap());
        assert!(spread < 0.005 && all > 0.02, "{spread} {all}");
        assert!(placement.is_some_and(|p| p <= spread), "{placement:?}");
        // A change taken from all epochs has all epochs' spread.
        let from_all = rule::Change {
            full_speed_units: 0,
            ..ch
        };
        assert_eq!(
            spreads(&layouts, &from_all, &Basis::of(&layouts, epochs, 0.005)).0,
            Some(all)
        );
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
            iters: &[],
        };
        let c = at_half_percent(&one, e);
        assert_eq!(c.verdict, Verdict::Regressed, "{c:?}");
        assert!(
            c.ci[1] - c.ci[0] < 0.004 && c.full_speed_units == 48,
            "{c:?}"
        );
        // Judged by full speed instead, the copied epochs would all be
        // left out, and the 16 fresh ones set a wide interval.
        let e = Epochs { copies: &[], ..e };
        let judged = at_half_percent(&one, e);
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
        let stopped = at_half_percent(&one, e);
        assert_eq!(stopped.full_speed_units, 16, "{stopped:?}");
        // Copies that tell another change than fresh processes (toml's
        // `serde_json::document::1-medium`: +0 % fresh, +13 % in copies,
        // each side in one state): the fresh processes decide.
        let apart: Vec<f64> = (0..64)
            .map(|i| match i < 16 {
                true => (0.002 * z.next()).exp(),
                false => 1.13 * (0.003 * z.next()).exp(),
            })
            .collect();
        let same = medians(170.0);
        let e = Epochs {
            ratios: &apart,
            base_medians: &same,
            cur_medians: &same,
            copies: &copies,
            iters: &[],
        };
        let fresh = at_half_percent(&one, e);
        assert_eq!(fresh.full_speed_units, 16, "{fresh:?}");
        // ... and the units a report lists are theirs alone.
        let basis = Basis::of(&one, e, 0.005);
        assert_eq!(basis.units(&one).len(), 16);
        assert!(fresh.change.abs() < 0.02, "{fresh:?}");
        assert_eq!(fresh.verdict, Verdict::Unchanged, "{fresh:?}");
        // Copies within the threshold of the fresh processes still decide.
        let near: Vec<f64> = apart
            .iter()
            .enumerate()
            .map(|(i, r)| match i < 16 {
                true => *r,
                false => r / 1.13 * 1.004,
            })
            .collect();
        let e = Epochs { ratios: &near, ..e };
        let copied = at_half_percent(&one, e);
        assert_eq!(copied.full_speed_units, 48, "{copied:?}");
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
            iters: &[],
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
            iters: &[],
        };
        assert!(one_state(&two, e).iter().all(|k| *k));
    }
}
