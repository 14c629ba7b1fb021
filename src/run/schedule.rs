//! The order benchmarks are measured in: repetitions in a row, interleaved slices in random order, launches of fresh processes.

use crate::model::shuffle::shuffle;
use nbench::__private::engine::Settings;
use std::time::Duration;

/// How often, and in what order, each benchmark of a target is measured;
/// every measurement of one benchmark is pooled into its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// Measurements of a benchmark one after the other (`--repetitions`).
    pub repetitions: usize,
    /// Rounds over all benchmarks, each in a fresh random order with a
    /// share of the time limits (`--interleave`); 1 is the listed order.
    pub slices: usize,
    /// Fresh processes of the binary, one after the other (`--launches`).
    pub launches: usize,
    /// Epochs of every launch (`--epochs`): fresh processes, each measuring
    /// every benchmark in a new random order with 1/epochs of the time
    /// limits, so that a benchmark's epochs fall at different moments.
    pub epochs: usize,
    /// Seeds the random orders.
    pub seed: u64,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule {
            repetitions: 1,
            slices: 1,
            launches: 1,
            epochs: 1,
            seed: 0,
        }
    }
}

/// One measurement: of benchmark `slot` (an index into the benchmarks to
/// measure), in launch `launch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Task {
    /// Which process of the binary (0-based).
    pub launch: usize,
    /// Which benchmark.
    pub slot: usize,
}

impl Schedule {
    /// Whether no repetition, slice or launch was asked for (epochs aside):
    /// what `--compare`'s own schedule replaces.
    pub fn is_single(&self) -> bool {
        self.repetitions * self.slices * self.launches == 1
    }

    /// Into how many parts each measurement's time limits are split.
    fn share(&self) -> usize {
        (self.slices * self.epochs).max(1)
    }

    /// Every measurement of `n` benchmarks, in the order to take them.
    pub fn tasks(&self, n: usize) -> Vec<Task> {
        let mut rng = self.seed | 1;
        let processes = self.launches * self.epochs.max(1);
        let mut tasks = Vec::with_capacity(n * self.repetitions * self.slices * processes);
        for launch in 0..processes {
            for _ in 0..self.slices {
                let mut order: Vec<usize> = (0..n).collect();
                if self.share() > 1 {
                    shuffle(&mut order, &mut rng);
                }
                for slot in order {
                    tasks.extend((0..self.repetitions).map(|_| Task { launch, slot }));
                }
            }
        }
        tasks
    }

    /// How long all of one benchmark's sampling may take together: its
    /// time limit once per repetition and launch (each asks for whole
    /// measurements), however many epochs and slices share it.
    pub fn budget(&self, s: &Settings) -> Duration {
        s.max_time * (self.repetitions * self.launches).max(1) as u32
    }

    /// The settings of one measurement: with slices, each takes its share
    /// of the time limits and sample counts (at least two samples).
    pub fn settings(&self, s: &Settings) -> Settings {
        let k = self.share();
        let share = |d: Duration| d / k as u32;
        let min_samples = (s.min_samples / k).max(2).min(s.min_samples);
        Settings {
            warm_up: share(s.warm_up),
            min_time: share(s.min_time),
            max_time: share(s.max_time),
            min_samples,
            max_samples: (s.max_samples / k).max(min_samples),
            ..s.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetitions_run_in_a_row_and_launches_repeat_the_whole() {
        let s = Schedule {
            repetitions: 2,
            launches: 2,
            ..Schedule::default()
        };
        let t: Vec<(usize, usize)> = s.tasks(2).iter().map(|t| (t.launch, t.slot)).collect();
        assert_eq!(
            t,
            [
                (0, 0),
                (0, 0),
                (0, 1),
                (0, 1),
                (1, 0),
                (1, 0),
                (1, 1),
                (1, 1)
            ]
        );
    }

    #[test]
    fn slices_visit_every_benchmark_once_each_in_new_orders() {
        let s = Schedule {
            slices: 4,
            seed: 12345,
            ..Schedule::default()
        };
        let tasks = s.tasks(6);
        assert_eq!(tasks.len(), 24);
        let rounds: Vec<Vec<usize>> = tasks
            .chunks(6)
            .map(|c| c.iter().map(|t| t.slot).collect())
            .collect();
        for r in &rounds {
            let mut sorted = r.clone();
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2, 3, 4, 5]);
        }
        assert!(rounds.windows(2).any(|w| w[0] != w[1]), "{rounds:?}");
        assert!(!s.is_single());
    }

    #[test]
    fn slices_share_the_time_limits() {
        let s = Schedule {
            slices: 4,
            ..Schedule::default()
        };
        let base = Settings::default();
        let sliced = s.settings(&base);
        assert_eq!(sliced.max_time, base.max_time / 4);
        assert_eq!(sliced.min_time, base.min_time / 4);
        assert!(sliced.min_samples >= 2 && sliced.min_samples <= base.min_samples);
        assert_eq!(Schedule::default().settings(&base), base);
    }
}
