//! A stored benchmark's cells as the tables show them: throughput, counters, the ratio to its group's baseline.

use crate::model::record::{BenchRecord, CounterRecord, ThroughputRecord, VersusRecord};
use nbench::__private::engine::Stop;
use nbench::__private::table::Figures;
use nbench::Throughput;

impl BenchRecord {
    /// Its row's figures, as the console table shows them.
    pub fn figures(&self) -> Figures<'_> {
        Figures {
            id: &self.id,
            metric: self.metric,
            median: self.median,
            median_ci: self.median_ci,
            throughput: self.work(),
            samples: self.samples,
            iters: self.iters_per_sample,
            set_aside: self.set_aside,
            counters: (self.counters.iter())
                .filter_map(|c| Some((c.header(), c.to_counter()?.format(self.median))))
                .chain(self.beside_cells())
                .collect(),
            ratio: self.ratio_label(),
            near_floor: self.near_floor,
            repeats: self.repeats.as_ref().map(|r| (r.medians.len(), r.cv)),
            cut_short: self.cut_short.map(|planned| {
                (
                    self.repeats.as_ref().map_or(1, |r| r.medians.len().max(1)),
                    planned,
                )
            }),
            // A reason this build does not know shows no note.
            stop: Stop::parse(&self.stop).unwrap_or(Stop::Precise),
            cold: self.cold,
            floor: self.floor,
        }
    }

    /// Its metrics measured beside time as (header, cell): `instructions`
    /// and `4.006 k`, `n/a` where there is no figure, `4.006 k?` where it
    /// does not tell what the time does.
    pub fn beside_cells(&self) -> impl Iterator<Item = (String, String)> + '_ {
        self.metrics.iter().map(|(name, b)| {
            let metric = nbench::__private::metric::Metric::parse(name);
            let shown = match (b.per_iter, metric) {
                (Some(v), Some(m)) => m.format(v),
                (Some(v), None) => nbench::__private::format::count(v),
                (None, _) => nbench::__private::format::NOT_A_NUMBER.to_owned(),
            };
            let doubt = if b.note.is_some() && b.per_iter.is_some() {
                "?"
            } else {
                ""
            };
            (name.clone(), format!("{shown}{doubt}"))
        })
    }

    /// Its median's interval as the files show it (`1.2 ns … 1.3 ns`), or
    /// `—` where the median lies below what the clock resolves, `n/a`
    /// where one sample made it a point.
    pub fn ci_text(&self) -> String {
        match self.floor {
            Some(_) => "—".to_owned(),
            None if nbench::__private::table::a_point(self.samples, self.median_ci) => {
                nbench::__private::format::NOT_A_NUMBER.to_owned()
            }
            None => format!(
                "{} … {}",
                self.metric.format(self.median_ci[0]),
                self.metric.format(self.median_ci[1])
            ),
        }
    }

    /// What its interval is, in words: where the next run lands (measured
    /// over epochs), else the interval of its median.
    pub fn interval_words(&self) -> String {
        match self.interval {
            Some(n) => next_run_words(
                n.level,
                self.repeats.as_ref().map_or(0, |r| r.medians.len()),
                (n.earlier_runs, n.earlier_runs),
                n.other_runs,
            ),
            None => "95% CI of the median".to_owned(),
        }
    }

    /// Whether it belongs to a group with a baseline (the ratio column).
    pub fn in_ratio_group(&self) -> bool {
        self.versus.is_some() || self.is_baseline
    }

    /// The ratio column's text, as the console shows it.
    pub fn ratio_label(&self) -> String {
        let versus = self.versus.as_ref().map(VersusRecord::to_versus);
        nbench::__private::result::ratio_label(versus.as_ref(), self.is_baseline)
    }

    /// Its throughput at the median (`4.695 GiB/s`; `> 5.682 Telem/s`
    /// below what the clock resolves), empty when none is declared.
    pub fn throughput_text(&self) -> String {
        self.work().map_or_else(String::new, |t| {
            nbench::__private::format::rate_at(t, self.median, self.floor)
        })
    }

    /// Its declared work per iteration.
    fn work(&self) -> Option<Throughput> {
        self.throughput.map(|t| match t {
            ThroughputRecord::Bytes(n) => Throughput::Bytes(n),
            ThroughputRecord::Items(n) => Throughput::Items(n),
        })
    }

    /// The counter shown under `header`, formatted as the console shows it.
    pub fn counter_text(&self, header: &str) -> String {
        let counter = (self.counters.iter())
            .filter(|c| c.header() == header)
            .find_map(|c| c.to_counter())
            .map(|c| c.format(self.median));
        let beside = || {
            (self.beside_cells())
                .find(|(h, _)| h == header)
                .map(|(_, cell)| cell)
        };
        counter.or_else(beside).unwrap_or_default()
    }
}

/// Every counter header of `benches`, in order of first appearance.
pub fn counter_headers<'a>(benches: impl IntoIterator<Item = &'a BenchRecord>) -> Vec<String> {
    first_appearances(benches.into_iter().flat_map(|b| {
        b.counters
            .iter()
            .map(CounterRecord::header)
            .chain(b.metrics.keys().cloned())
    }))
}

/// `items` without repeats, each where it first appeared: the counter
/// columns of a table, which the console builds from results and the files from records.
pub fn first_appearances(items: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for h in items {
        if !out.contains(&h) {
            out.push(h);
        }
    }
    out
}

/// The interval column's header for a target's rows: `±next` where they
/// say where the next run lands, else `±CI`.
pub fn interval_header(benchmarks: &[BenchRecord]) -> &'static str {
    match benchmarks.iter().any(|b| b.interval.is_some()) {
        true => "±next",
        false => "±CI",
    }
}

/// What a target's `±next` column is, in one line (`None` when no row has
/// one): the level, the epochs, and how many earlier runs of this build
/// and of other builds it drew on.
pub fn interval_note(benchmarks: &[BenchRecord]) -> Option<String> {
    let with: Vec<&BenchRecord> = benchmarks.iter().filter(|b| b.interval.is_some()).collect();
    let level = with.first()?.interval?.level;
    let runs = with
        .iter()
        .filter_map(|b| b.interval.map(|n| n.earlier_runs));
    let (least, most) = (runs.clone().min()?, runs.max()?);
    let others = (with.iter().filter_map(|b| b.interval.map(|n| n.other_runs)))
        .max()
        .unwrap_or(0);
    let epochs = (with.iter())
        .filter_map(|b| b.repeats.as_ref().map(|r| r.medians.len()))
        .max()
        .unwrap_or(0);
    Some(format!(
        "±next: {}",
        next_run_words(level, epochs, (least, most), others)
    ))
}

/// `where the next run lands 90 % of the time, from 8 epochs and 4 earlier
/// runs of this build`, and how many runs of other builds (at most) lent
/// their scatter.
fn next_run_words(
    level: f64,
    epochs: usize,
    (least, most): (usize, usize),
    others: usize,
) -> String {
    let runs = match (least, most, others) {
        (0, 0, 0) => " alone: the first run of this build".to_owned(),
        (0, 0, _) => String::new(),
        (1, 1, _) => " and 1 earlier run of this build".to_owned(),
        (l, m, _) if l == m => format!(" and {m} earlier runs of this build"),
        (_, m, _) => format!(" and up to {m} earlier runs of this build"),
    };
    let others = match (others, most) {
        (0, _) => String::new(),
        (k, 0) => {
            format!(" and how {k} runs of other builds scattered (the first run of this build)")
        }
        (k, _) => format!(", and how {k} runs of other builds scattered"),
    };
    format!(
        "where the next run's median lands {:.0} % of the time, from {epochs} epochs{runs}{others}",
        level * 100.0
    )
}

#[cfg(test)]
mod tests {
    use super::next_run_words;

    #[test]
    fn the_next_run_words_name_what_the_interval_drew_on() {
        let said = |runs, others| next_run_words(0.9, 8, runs, others);
        let start = "where the next run's median lands 90 % of the time, from 8 epochs";
        assert_eq!(
            said((0, 0), 0),
            format!("{start} alone: the first run of this build")
        );
        assert_eq!(
            said((0, 0), 20),
            format!(
                "{start} and how 20 runs of other builds scattered (the first run of this build)"
            )
        );
        assert_eq!(
            said((1, 1), 0),
            format!("{start} and 1 earlier run of this build")
        );
        assert_eq!(
            said((2, 5), 7),
            format!(
                "{start} and up to 5 earlier runs of this build, and how 7 runs of other builds scattered"
            )
        );
    }
}
