//! A benchmark measured in several processes: each one's median, compared alike.

use crate::model::outcome::Measured;

/// Each measurement's median with the same loop overhead taken off: the
/// least any process measured. Each process times the `iter` loop's own
/// cost once, in 40 ms; caught in a slow moment of the machine (one process
/// in 8–20 on a shared VM reads 0.42–0.52 ns for a 0.27 ns loop), it takes
/// too much off every benchmark it measures, and that process's medians
/// would be the fastest, so the estimate. (A comparison's two sides share
/// the lower of their estimates for the same reason: `shared_overhead`.)
/// A median of 0 (the body cost no more than the overhead) stays 0.
pub(super) fn even_overhead(parts: &[(usize, Measured)]) -> Vec<f64> {
    let least = (parts.iter())
        .map(|(_, m)| m.result.overhead)
        .fold(f64::INFINITY, f64::min);
    (parts.iter())
        .map(|(_, m)| match m.result.summary.median {
            median if median > 0.0 => median + (m.result.overhead - least).max(0.0),
            median => median,
        })
        .collect()
}

/// Each process's median of a benchmark: the geometric mean of the medians
/// it measured (several with `--repetitions` or `--interleave`), in order;
/// their arithmetic mean where one is 0 (nothing left once the loop
/// overhead was taken off), which has no logarithm.
pub(super) fn process_medians(parts: &[(usize, Measured)], medians: &[f64]) -> Vec<f64> {
    let mut by_process: Vec<(usize, Vec<f64>)> = Vec::new();
    for ((launch, _), &median) in parts.iter().zip(medians) {
        match by_process.iter_mut().find(|(l, _)| l == launch) {
            Some((_, medians)) => medians.push(median),
            None => by_process.push((*launch, vec![median])),
        }
    }
    by_process
        .into_iter()
        .map(|(_, medians)| {
            let n = medians.len() as f64;
            if medians.iter().all(|m| *m > 0.0) {
                (medians.iter().map(|m| m.ln()).sum::<f64>() / n).exp()
            } else {
                medians.iter().sum::<f64>() / n
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbench::__private::result::BenchResult;

    /// One process's measurement of an `iter` body: raw per-iteration times, and the loop overhead it measured.
    fn measured(raw: &[f64], overhead: f64) -> Measured {
        use nbench::__private::LoopKind;
        use nbench::__private::engine::{Measurement, Stop};
        use nbench::__private::stats::OutlierMode;
        let m = Measurement {
            iters: 1000,
            per_iter: raw.to_vec(),
            cold: 50.0,
            stop: Stop::Precise,
            sampling_ns: 1,
        };
        let result = BenchResult::new(
            "x".into(),
            m,
            LoopKind::Iter,
            overhead,
            None,
            OutlierMode::None,
        )
        .unwrap();
        Measured::of(result, 0.1)
    }

    #[test]
    fn a_process_that_overstated_the_loop_overhead_is_not_the_fastest() {
        // The body costs 1.354 ns with a 0.271 ns loop; the second process
        // measured the loop at 0.507 ns, in a slow moment of the machine.
        let body = [1.625, 1.625, 1.625];
        let parts = vec![
            (0, measured(&body, 0.271)),
            (1, measured(&body, 0.507)),
            (2, measured(&body, 0.271)),
        ];
        let evened = even_overhead(&parts);
        assert!(
            evened.iter().all(|m| (m - 1.354).abs() < 1e-9),
            "{evened:?}"
        );
        assert_eq!(process_medians(&parts, &evened).len(), 3);
        // A body no dearer than the overhead stays at 0.
        let empty = vec![(0, measured(&[0.3], 0.271)), (1, measured(&[0.3], 0.507))];
        let evened = even_overhead(&empty);
        assert!(
            (evened[0] - 0.029).abs() < 1e-9 && evened[1] == 0.0,
            "{evened:?}"
        );
    }
}
