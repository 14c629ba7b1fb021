//! Many comparisons at once: Benjamini–Hochberg adjusted p-values, controlling the false-discovery rate.

/// Benjamini–Hochberg adjusted p-values, in the order given: for the i-th
/// smallest of m p-values, min over j ≥ i of p₍ⱼ₎ · m / j, capped at 1.
/// Rejecting where the adjusted value is below q keeps the expected share
/// of false discoveries at most q.
///
/// ```
/// let adj = nbench::stats::benjamini_hochberg(&[0.01, 0.04, 0.03, 0.005]);
/// assert_eq!(adj, [0.02, 0.04, 0.04, 0.02]);
/// ```
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running = 1.0_f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        running = running.min(p[i] * m as f64 / (rank + 1) as f64);
        // Never below the raw p: p · m / m can round one ulp down.
        adjusted[i] = running.max(p[i]).min(1.0);
    }
    adjusted
}
