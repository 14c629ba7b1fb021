//! The median unit of a paired comparison: its change, and the sign
//! test's interval, which a few epochs far from the rest do not move. A
//! claimed change must be held by it ([`on_side`]).

use nbench::__private::stats::{RatioTest, median_ci_sorted, median_sorted, sign_test};

/// The median of the units as a change, the interval of the median from
/// the order statistics ([`median_ci_sorted`]), and the sign test's
/// p-value; `t` is not a t statistic here (NaN).
pub fn by_median(units: &[f64]) -> Option<RatioTest> {
    let mut logs: Vec<f64> = units
        .iter()
        .filter(|r| **r > 0.0 && r.is_finite())
        .map(|r| r.ln())
        .collect();
    if logs.is_empty() {
        return None;
    }
    logs.sort_by(f64::total_cmp);
    let ci = median_ci_sorted(&logs, 0.95);
    let above = logs.iter().filter(|x| **x > 0.0).count();
    let below = logs.iter().filter(|x| **x < 0.0).count();
    Some(RatioTest {
        change: median_sorted(&logs).exp_m1(),
        ci: [ci.lo.exp_m1(), ci.hi.exp_m1()],
        t: f64::NAN,
        p: sign_test(above, below),
    })
}

/// Whether the interval `ci` lies wholly on the side of 0 a change
/// `upward` (a regression) or downward says.
pub fn on_side([lo, hi]: [f64; 2], upward: bool) -> bool {
    if upward { lo > 0.0 } else { hi < 0.0 }
}
