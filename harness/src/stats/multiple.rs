//! Many comparisons at once: Benjamini–Hochberg adjusted p-values, controlling the false-discovery rate.

/// Benjamini–Hochberg adjusted p-values, in the order given: for the i-th
/// smallest of m p-values, min over j ≥ i of p₍ⱼ₎ · m / j, capped at 1.
/// Rejecting where the adjusted value is below q keeps the expected share
/// of false discoveries at most q. Values above 1 or below 0 are clamped;
/// a NaN stays NaN and is not counted among the m tests.
///
/// ```
/// let adj = nbench::__private::stats::benjamini_hochberg(&[0.01, 0.04, 0.03, 0.005]);
/// assert_eq!(adj, [0.02, 0.04, 0.04, 0.02]);
/// ```
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let mut adjusted = vec![f64::NAN; p.len()];
    let p: Vec<f64> = p.iter().map(|v| v.clamp(0.0, 1.0)).collect();
    let mut order: Vec<usize> = (0..p.len()).filter(|&i| !p[i].is_nan()).collect();
    let m = order.len();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut running = 1.0_f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        running = running.min(p[i] * m as f64 / (rank + 1) as f64);
        // Never below the raw p: p · m / m can round one ulp down.
        adjusted[i] = running.max(p[i]).min(1.0);
    }
    adjusted
}
