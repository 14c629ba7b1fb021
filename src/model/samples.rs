//! What a paired measurement hands the comparison: both sides' samples,
//! round by round, and each epoch's (fresh process pair's) figures.

/// The samples of all epochs so far; per-iteration ns, loop overhead removed.
#[derive(Debug, Clone, Default)]
pub struct Taken {
    /// Baseline sample i was taken next to current sample i.
    pub base: Vec<f64>,
    /// Current samples.
    pub cur: Vec<f64>,
    /// Per epoch (process pair): current / baseline over its rounds
    /// (the balanced median of its rounds, `run::paired`).
    pub epoch_ratios: Vec<f64>,
    /// Per epoch: the median of its baseline samples.
    pub epoch_base_medians: Vec<f64>,
    /// Per epoch: the median of its current samples.
    pub epoch_cur_medians: Vec<f64>,
    /// Per epoch: the copies of its process pair it sampled in (at most `run::paired::COPIES`;
    /// 0 where it sampled in the pair itself).
    pub epoch_copies: Vec<usize>,
    /// Per epoch: iterations per sample (the calibrated count or a multiple).
    pub epoch_iters: Vec<u64>,
}

impl Taken {
    /// current / baseline for each round with a non-zero baseline sample.
    pub fn round_ratios(&self) -> Vec<f64> {
        (self.base.iter())
            .zip(&self.cur)
            .filter(|(b, _)| **b > 0.0)
            .map(|(b, c)| c / b)
            .collect()
    }

    /// Its epochs.
    pub fn epochs(&self) -> Epochs<'_> {
        Epochs {
            ratios: &self.epoch_ratios,
            base_medians: &self.epoch_base_medians,
            cur_medians: &self.epoch_cur_medians,
            copies: &self.epoch_copies,
            iters: &self.epoch_iters,
        }
    }
}

/// The epochs so far (fresh process pairs), what `settled` judges.
#[derive(Debug, Clone, Copy)]
pub struct Epochs<'a> {
    /// Per epoch: current / baseline over its rounds (the balanced median of its rounds, `run::paired`).
    pub ratios: &'a [f64],
    /// Per epoch: the median of its baseline samples.
    pub base_medians: &'a [f64],
    /// Per epoch: the median of its current samples.
    pub cur_medians: &'a [f64],
    /// Per epoch: the copies of its process pair it sampled in (0: none).
    pub copies: &'a [usize],
    /// Per epoch: iterations per sample.
    pub iters: &'a [u64],
}
