//! Invariants of `nbench::__private::stats` on random finite inputs (proptest).

use nbench::__private::stats::{Summary, benjamini_hochberg, mann_whitney, ratio_t_test};
use proptest::prelude::*;

fn samples(max: usize) -> impl Strategy<Value = Vec<f64>> {
    // Timing-like magnitudes, with repeats so ties occur.
    prop::collection::vec(
        prop_oneof![(-1e6..1e9f64), (0u8..5).prop_map(f64::from)],
        1..max,
    )
}

proptest! {
    #[test]
    fn order_statistics_are_ordered(x in samples(300)) {
        let s = Summary::new(&x).unwrap();
        let chain = [s.min, s.p5, s.p25, s.median, s.p75, s.p95, s.p99, s.max];
        prop_assert!(chain.windows(2).all(|w| w[0] <= w[1]), "{:?}", chain);
        prop_assert!(s.median_ci.lo <= s.median && s.median <= s.median_ci.hi);
        prop_assert!(s.mean_ci.lo <= s.mean && s.mean <= s.mean_ci.hi);
        prop_assert!(s.min <= s.mean && s.mean <= s.max);
        prop_assert!(s.stddev >= 0.0 && s.mad >= 0.0);
    }

    #[test]
    fn u_statistics_add_up_and_p_is_a_probability(a in samples(30), b in samples(30)) {
        let ab = mann_whitney(&a, &b).unwrap();
        let ba = mann_whitney(&b, &a).unwrap();
        prop_assert_eq!(ab.u + ba.u, (a.len() * b.len()) as f64);
        prop_assert!((0.0..=1.0).contains(&ab.p));
        prop_assert!((ab.p - ba.p).abs() < 1e-12);
    }

    #[test]
    fn ratio_ci_contains_its_estimate(r in prop::collection::vec(0.5..2.0f64, 2..40)) {
        let t = ratio_t_test(&r, 0.95).unwrap();
        prop_assert!(t.ci[0] <= t.change && t.change <= t.ci[1], "{:?}", t);
        prop_assert!((0.0..=1.0).contains(&t.p));
    }

    #[test]
    fn adjusted_p_values_are_at_least_the_raw_ones(p in prop::collection::vec(0.0..=1.0f64, 1..60)) {
        let adj = benjamini_hochberg(&p);
        for (raw, a) in p.iter().zip(&adj) {
            prop_assert!(a >= raw && *a <= 1.0);
        }
        // The adjustment keeps the order of the p-values.
        for i in 0..p.len() {
            for j in 0..p.len() {
                if p[i] < p[j] {
                    prop_assert!(adj[i] <= adj[j]);
                }
            }
        }
    }
}
