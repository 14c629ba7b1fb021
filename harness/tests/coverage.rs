//! The bootstrap CI's coverage: SciPy's resampling cannot be matched draw for
//! draw, so instead of reference values this checks that the 95 % interval of
//! a median ratio contains the true ratio about 95 % of the time.

use nbench::__private::stats::median_ratio_ci;

/// A seeded normal generator (xorshift64 + Box–Muller), independent of the one under test.
struct Normal(u64);

impl Normal {
    fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    fn sample(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// Lognormal timings whose median is `median`.
    fn timings(&mut self, n: usize, median: f64, sigma: f64) -> Vec<f64> {
        (0..n)
            .map(|_| median * (sigma * self.sample()).exp())
            .collect()
    }
}

fn coverage(n: usize, sigma: f64, trials: u64) -> f64 {
    let true_ratio = 1.05;
    let mut rng = Normal(0x1234_5678_9abc_def1);
    let covered = (0..trials)
        .filter(|&trial| {
            let base = rng.timings(n, 100.0, sigma);
            let cur = rng.timings(n, 100.0 * true_ratio, sigma);
            let ci = median_ratio_ci(&base, &cur, 1000, 0.95, trial).unwrap();
            ci.lo <= true_ratio && true_ratio <= ci.hi
        })
        .count();
    covered as f64 / trials as f64
}

#[test]
fn bootstrap_ci_of_a_median_ratio_covers_about_95_percent() {
    // 300 trials: the binomial standard error of a true 95 % is 1.3 points,
    // so the bounds are 4–5 of them away; the seeds are fixed, so the result
    // is the same on every run.
    for (n, sigma) in [(40, 0.05), (100, 0.3)] {
        let c = coverage(n, sigma, 300);
        eprintln!("n={n} σ={sigma}: coverage {c}");
        assert!((0.89..=0.995).contains(&c), "n={n} σ={sigma}: coverage {c}");
    }
}
