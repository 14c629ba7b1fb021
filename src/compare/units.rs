//! Which link layout each side of a paired comparison runs in each epoch, and how epochs that
//! share layouts are combined so that the change's CI stays honest.
//!
//! The same source linked with another function order moves some benchmarks
//! by more than 10 %, and any change to a program relinks all of it. So each
//! side is built in several layouts, and each epoch (a fresh process pair)
//! runs a layout of each side drawn from its own random permutation: over
//! the epochs the change is averaged over layouts, and the spread between
//! epochs, which sets the CI, holds the layout effect. Epochs that ran the
//! same pair of layouts are not independent draws; they are merged into one
//! unit before the interval is computed.

/// The layouts each unit ran: (baseline's, current's), in the units' order.
pub type UnitLayouts = (Vec<usize>, Vec<usize>);

use super::layouts::means_by_label;
use crate::model::shuffle::shuffle;
use nbench::__private::stats;

/// The layout of each side in each epoch.
#[derive(Debug, Clone)]
pub struct Assignment {
    base: Vec<usize>,
    cur: Vec<usize>,
}

impl Assignment {
    /// Independent random orders of `base_layouts` and `cur_layouts` (at
    /// least one each), from `seed`; epoch `e` runs the `e`th of each,
    /// starting over when a side's layouts are used up (see [`Self::cur`]).
    pub fn new(base_layouts: usize, cur_layouts: usize, seed: u64) -> Assignment {
        let mut state = seed | 1;
        let mut order = |n: usize| {
            let mut v: Vec<usize> = (0..n.max(1)).collect();
            shuffle(&mut v, &mut state);
            v
        };
        Assignment {
            base: order(base_layouts),
            cur: order(cur_layouts),
        }
    }

    /// The baseline's layout in epoch `epoch`.
    pub fn base(&self, epoch: usize) -> usize {
        self.base[epoch % self.base.len()]
    }

    /// The current side's layout in epoch `epoch`. Past a round of the
    /// current side's layouts its order is rotated by one more, so that the
    /// epochs after it pair layouts no epoch paired yet (new units).
    pub fn cur(&self, epoch: usize) -> usize {
        let n = self.cur.len();
        self.cur[(epoch + epoch / n) % n]
    }

    /// The (baseline, current) layouts of the first `epochs` epochs, in order.
    pub fn epoch_pairs(&self, epochs: usize) -> Vec<[usize; 2]> {
        (0..epochs).map(|e| [self.base(e), self.cur(e)]).collect()
    }

    /// The layouts of the side that has more.
    pub fn most(&self) -> usize {
        self.base.len().max(self.cur.len())
    }

    /// Whether both sides vary their layout: only then do the change and its
    /// CI cover code placement.
    pub fn controlled(&self) -> bool {
        self.base.len() > 1 && self.cur.len() > 1
    }

    /// [`Self::units_of`] all epochs.
    #[cfg(test)]
    pub fn units(&self, epoch_ratios: &[f64]) -> Vec<f64> {
        self.units_of(epoch_ratios, &vec![true; epoch_ratios.len()])
            .0
    }

    /// The ratios of the epochs `keep` marks (the others left out as if
    /// they had not run) as independent units: the geometric mean of the
    /// epochs that ran the same pair of layouts, in order of first
    /// appearance. With one layout on each side the epochs themselves are
    /// the units (fresh process pairs of the same executables). With them,
    /// the layouts each unit ran, (baseline's, current's), `None` unless
    /// both sides vary their layout.
    pub fn units_of(&self, epoch_ratios: &[f64], keep: &[bool]) -> (Vec<f64>, Option<UnitLayouts>) {
        let kept = (0..epoch_ratios.len()).filter(|e| keep.get(*e).copied().unwrap_or(false));
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut groups: Vec<Vec<f64>> = Vec::new();
        for e in kept {
            let key = self.unit_key(e);
            let unit = pairs.iter().position(|p| *p == key).unwrap_or_else(|| {
                pairs.push(key);
                groups.push(Vec::new());
                pairs.len() - 1
            });
            groups[unit].push(epoch_ratios[e].ln());
        }
        let units = (groups.into_iter())
            .map(|logs| (logs.iter().sum::<f64>() / logs.len() as f64).exp())
            .collect();
        let labels = self.controlled().then(|| pairs.into_iter().unzip());
        (units, labels)
    }

    /// Which unit epoch `e` belongs to: its (baseline, current) pair of
    /// layouts, or, with one layout a side, the epoch itself (`(e, e)`).
    fn unit_key(&self, e: usize) -> (usize, usize) {
        if self.base.len() == 1 && self.cur.len() == 1 {
            (e, e)
        } else {
            (self.base(e), self.cur(e))
        }
    }

    /// The distinct unit keys ([`Self::unit_key`]) of the first `epochs`
    /// epochs, in order of first appearance: one per unit.
    fn pairs(&self, epochs: usize) -> Vec<(usize, usize)> {
        let mut seen: Vec<(usize, usize)> = Vec::new();
        for key in (0..epochs).map(|e| self.unit_key(e)) {
            if !seen.contains(&key) {
                seen.push(key);
            }
        }
        seen
    }

    /// How many units ([`Self::units_of`]) the first `epochs` epochs make:
    /// the distinct pairs of layouts they ran, or the epochs themselves
    /// with one layout a side.
    pub fn unit_count(&self, epochs: usize) -> usize {
        self.pairs(epochs).len()
    }

    /// The layouts each unit of [`Self::units_of`] all epochs ran,
    /// (baseline's, current's) in the same order: the clusters a layout's
    /// effect is shared within. `None` unless both sides vary their layout.
    #[cfg(test)]
    pub fn unit_layouts(&self, epochs: usize) -> Option<(Vec<usize>, Vec<usize>)> {
        if !self.controlled() {
            return None;
        }
        Some(self.pairs(epochs).into_iter().unzip())
    }

    /// How much a benchmark moves from one fresh process pair in other
    /// layouts to the next, as a share: the standard deviation of the
    /// units' log ratios (see [`Self::units_of`]) over √2 (each ratio holds a
    /// layout of each side). Code placement and the machine's
    /// process-to-process noise together; [`placement_spread`] tells
    /// them apart. `None` unless both sides vary their layout over at
    /// least three units.
    pub fn spread(&self, units: &[f64]) -> Option<f64> {
        if !self.controlled() || units.len() < 3 {
            return None;
        }
        let logs: Vec<f64> = units.iter().map(|r| r.ln()).collect();
        Some((variance(&logs) / 2.0).sqrt().exp_m1())
    }
}

/// The part of [`Assignment::spread`] that code placement makes: each
/// side's layouts' own effect on `units`, whose layouts were `labels`
/// ([`Assignment::units_of`]), estimated from how far apart the means of
/// the units that share a layout lie beyond what the rest of the spread
/// alone puts between them (a layout's mean over m units holds 1/m of the
/// rest). `None` without layouts, or until each side ran its layouts twice
/// on average, where a layout's own effect cannot be told from the process
/// pair's.
pub fn placement_spread(units: &[f64], labels: Option<&UnitLayouts>) -> Option<f64> {
    let (base, cur) = labels?;
    placement_of(units, base, cur)
}

/// [`placement_spread`] of `units` whose layouts were `base` and `cur`.
fn placement_of(units: &[f64], base: &[usize], cur: &[usize]) -> Option<f64> {
    if units.len() != base.len() || units.len() != cur.len() || units.len() < 3 {
        return None;
    }
    let logs: Vec<f64> = units.iter().map(|r| r.ln()).collect();
    let total = variance(&logs);
    let own = layout_variance(&logs, base, total)? + layout_variance(&logs, cur, total)?;
    let spread = (own / 2.0).sqrt().exp_m1();
    spread.is_finite().then_some(spread)
}

/// The sample variance of `x` (n − 1).
fn variance(x: &[f64]) -> f64 {
    stats::variance(x, stats::mean(x))
}

/// The variance of one side's layout effects among `logs` labelled
/// `labels`, whose total variance is `total`: the variance of the layouts'
/// means, less the share `total / m` the other sources leave in a mean of
/// m units, over `1 − 1 / m` (it counts the layout's own effect in
/// `total` too); at least 0. `None` with fewer than two layouts or two
/// units a layout.
fn layout_variance(logs: &[f64], labels: &[usize], total: f64) -> Option<f64> {
    let means: Vec<f64> = (means_by_label(logs.iter().zip(labels)).into_iter())
        .map(|(_, mean)| mean)
        .collect();
    let m = logs.len() as f64 / means.len() as f64;
    if means.len() < 2 || m < 2.0 {
        return None;
    }
    Some(((variance(&means) - total / m) / (1.0 - 1.0 / m)).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_of_some_epochs_are_those_epochs_units() {
        let a = Assignment::new(8, 8, 42);
        let ratios: Vec<f64> = (0..80).map(|e| 1.0 + e as f64 / 1000.0).collect();
        let all = vec![true; 80];
        let (units, labels) = a.units_of(&ratios, &all);
        assert_eq!(units, a.units(&ratios));
        assert_eq!(labels, a.unit_layouts(80));
        // Every other epoch of the first 64 (each a pair of its own): the
        // units of those epochs alone, with their layouts.
        let even: Vec<bool> = (0..64).map(|e| e % 2 == 0).collect();
        let (units, labels) = a.units_of(&ratios[..64], &even);
        let (base, cur) = labels.unwrap();
        assert_eq!((units.len(), base.len(), cur.len()), (32, 32, 32));
        assert_eq!((base[0], cur[0]), (a.base(0), a.cur(0)));
        assert_eq!((base[1], cur[1]), (a.base(2), a.cur(2)));
        assert!((units[1] - 1.002).abs() < 1e-12);
        // One layout a side: the kept epochs are the units.
        let one = Assignment::new(1, 1, 7);
        let (units, labels) = one.units_of(&ratios[..4], &[true, false, true, true]);
        assert_eq!((units, labels), (vec![1.0, 1.002, 1.003], None));
    }

    #[test]
    fn every_layout_once_before_any_twice() {
        let a = Assignment::new(8, 8, 42);
        let mut base: Vec<usize> = (0..8).map(|e| a.base(e)).collect();
        let mut cur: Vec<usize> = (0..8).map(|e| a.cur(e)).collect();
        base.sort_unstable();
        cur.sort_unstable();
        assert_eq!(base, (0..8).collect::<Vec<_>>());
        assert_eq!(cur, (0..8).collect::<Vec<_>>());
        assert!(a.controlled());
        // Another seed, another pairing.
        let b = Assignment::new(8, 8, 7);
        assert!((0..8).any(|e| (a.base(e), a.cur(e)) != (b.base(e), b.cur(e))));
    }

    #[test]
    fn epochs_past_the_first_round_pair_layouts_anew() {
        let a = Assignment::new(8, 8, 42);
        let mut pairs: Vec<(usize, usize)> = (0..24).map(|e| (a.base(e), a.cur(e))).collect();
        pairs.sort_unstable();
        pairs.dedup();
        assert_eq!(pairs.len(), 24, "24 epochs, 24 units");
        assert_eq!(a.unit_count(24), 24);
        // 8 × 8 pairs at most; one layout a side: every epoch a unit.
        assert_eq!(a.unit_count(100), 64);
        assert_eq!(Assignment::new(1, 1, 42).unit_count(100), 100);
        assert_eq!(Assignment::new(2, 2, 3).unit_count(6), 4);
    }

    #[test]
    fn epochs_that_share_a_pair_of_layouts_are_one_unit() {
        let a = Assignment::new(2, 2, 3);
        // Epochs 2 and 3 pair the layouts the other way round; 4 and 5 run
        // the pairs of 0 and 1 again (two layouts a side make four pairs).
        let units = a.units(&[1.1, 0.9, 1.3, 0.7, 1.2, 0.8]);
        assert_eq!(units.len(), 4);
        assert!((units[0] - (1.1f64 * 1.2).sqrt()).abs() < 1e-12);
        assert!((units[1] - (0.9f64 * 0.8).sqrt()).abs() < 1e-12);
        assert_eq!(units[2..], [1.3, 0.7]);
        // One layout each: the epochs are the units, and nothing says how
        // much layout matters.
        let one = Assignment::new(1, 1, 3);
        assert_eq!(one.units(&[1.1, 0.9, 1.3]), [1.1, 0.9, 1.3]);
        assert!(!one.controlled() && one.spread(&[1.1, 0.9, 1.3]).is_none());
        // One side varies: units by the pair, still not controlled.
        let half = Assignment::new(4, 1, 3);
        assert_eq!(half.units(&[1.0, 1.0, 1.0, 1.0, 1.2]).len(), 4);
        assert_eq!(half.unit_count(5), 4);
        assert!(!half.controlled());
    }

    #[test]
    fn spread_is_the_layout_effect_of_one_side() {
        // Each side's layouts move the time by a factor e^±0.1 at random:
        // ratios hold two such draws, so their log sd is 0.1·√2.
        let a = Assignment::new(8, 8, 11);
        let effect = |i: usize| if i.is_multiple_of(2) { 0.1f64 } else { -0.1 };
        let ratios: Vec<f64> = (0..8)
            .map(|e| (effect(a.cur(e)) - effect(a.base(e))).exp())
            .collect();
        let s = a.spread(&a.units(&ratios)).unwrap();
        assert!(s > 0.05 && s < 0.2, "{s}");
        let flat = vec![1.0; 8];
        assert!(a.spread(&a.units(&flat)).unwrap().abs() < 1e-12);
    }

    #[test]
    fn placement_is_told_from_the_noise_of_process_pairs() {
        let a = Assignment::new(8, 8, 11);
        let epochs = 64;
        let effect = |i: usize| (i as f64 - 3.5) * 0.01;
        // Noise of each process pair, ±3 % (a fixed pseudo-random draw).
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut noise = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 0.06 - 0.03
        };
        let placed: Vec<f64> = (0..epochs)
            .map(|e| (effect(a.cur(e)) - effect(a.base(e))).exp())
            .collect();
        let noisy: Vec<f64> = (0..epochs).map(|_| noise().exp()).collect();
        let units = |r: &[f64]| a.units(r);
        let placement = |r: &[f64]| placement_spread(&units(r), a.unit_layouts(r.len()).as_ref());
        // Placement alone: all of the spread is placement's.
        let (s, p) = (a.spread(&units(&placed)), placement(&placed));
        let (s, p) = (s.unwrap(), p.unwrap());
        assert!(s > 0.01 && (p - s).abs() < 0.2 * s, "{s} {p}");
        // The process pairs alone: little of it is.
        let (s, p) = (a.spread(&units(&noisy)), placement(&noisy));
        let (s, p) = (s.unwrap(), p.unwrap());
        assert!(s > 0.01 && p < 0.5 * s, "{s} {p}");
        // One epoch a layout: the two cannot be told apart.
        assert_eq!(placement(&placed[..8]), None);
        // Without layouts, no part of it is placement's to tell.
        assert_eq!(placement_spread(&units(&placed), None), None);
    }

    #[test]
    fn spread_and_placement_are_numpys() {
        let doc: serde_json::Value =
            serde_json::from_str(include_str!("../../harness/tests/data/reference.json")).unwrap();
        let cases = doc["placement"].as_object().unwrap();
        assert_eq!(cases.len(), 3);
        let a = Assignment::new(16, 16, 1);
        for (name, case) in cases {
            let list = |key: &str| case[key].as_array().unwrap().clone();
            let units: Vec<f64> = list("units").iter().map(|v| v.as_f64().unwrap()).collect();
            let labels = |key: &str| -> Vec<usize> {
                list(key)
                    .iter()
                    .map(|v| v.as_u64().unwrap() as usize)
                    .collect()
            };
            let close = |ours: f64, key: &str| {
                let numpy = case[key].as_f64().unwrap();
                assert!(
                    (ours / numpy - 1.0).abs() < 1e-12,
                    "{name} {key}: {ours} {numpy}"
                );
            };
            close(a.spread(&units).unwrap(), "spread");
            close(
                placement_of(&units, &labels("base"), &labels("cur")).unwrap(),
                "placement",
            );
        }
    }
}
