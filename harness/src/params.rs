//! Parameter lists for families: powers of a multiplier between two bounds, and evenly spaced values.

/// `lo`, then every power of `multiplier` strictly between `lo` and `hi`, then
/// `hi`: Google Benchmark's `Range`. With multiplier 8, `range(8, 8192, 8)` is
/// 8, 64, 512, 4096, 8192.
///
/// ```
/// use nbench::params::range;
/// assert_eq!(range(8, 8 << 10, 8), [8, 64, 512, 4096, 8192]);
/// assert_eq!(range(1, 100, 10), [1, 10, 100]);
/// assert_eq!(range(5, 5, 8), [5]);
/// ```
///
/// # Panics
/// If `lo > hi` or `multiplier < 2`: a family's definition is wrong, and the
/// bench binary says so when it starts.
pub fn range(lo: u64, hi: u64, multiplier: u64) -> Vec<u64> {
    assert!(
        lo <= hi,
        "range({lo}, {hi}): the low bound is above the high one"
    );
    assert!(
        multiplier >= 2,
        "range(…, multiplier {multiplier}): the multiplier must be at least 2"
    );
    let mut out = vec![lo];
    let mut power: u64 = 1;
    while let Some(next) = power.checked_mul(multiplier) {
        power = next;
        if power >= hi {
            break;
        }
        if power > lo {
            out.push(power);
        }
    }
    if hi != lo {
        out.push(hi);
    }
    out
}

/// `lo`, `lo + step`, … up to and including `hi` if a step lands on it:
/// Google Benchmark's `DenseRange`.
///
/// ```
/// use nbench::params::dense_range;
/// assert_eq!(dense_range(0, 10, 5), [0, 5, 10]);
/// assert_eq!(dense_range(1, 10, 4), [1, 5, 9]);
/// ```
///
/// # Panics
/// If `lo > hi` or `step` is 0.
pub fn dense_range(lo: u64, hi: u64, step: u64) -> Vec<u64> {
    assert!(
        lo <= hi,
        "dense_range({lo}, {hi}): the low bound is above the high one"
    );
    assert!(
        step > 0,
        "dense_range(…, step 0): the step must be positive"
    );
    (lo..=hi)
        .step_by(usize::try_from(step).unwrap_or(usize::MAX))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_at_the_edges() {
        assert_eq!(range(0, 1, 8), [0, 1]);
        assert_eq!(range(10, 1000, 8), [10, 64, 512, 1000]);
        assert_eq!(range(1, u64::MAX, 1 << 32), [1, 1 << 32, u64::MAX]);
        assert_eq!(dense_range(3, 3, 7), [3]);
        assert_eq!(
            dense_range(u64::MAX - 1, u64::MAX, 1),
            [u64::MAX - 1, u64::MAX]
        );
    }

    #[test]
    #[should_panic(expected = "the multiplier must be at least 2")]
    fn a_multiplier_of_one_is_refused() {
        range(1, 10, 1);
    }
}
