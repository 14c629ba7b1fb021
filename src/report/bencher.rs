//! `--format bencher`: libtest's bench lines, which continuous-benchmarking tools already read.

use crate::model::record::RunRecord;

/// `test TARGET::ID ... bench: N ns/iter (+/- D)` per measured benchmark, N
/// the median and D the spread (max − min) of the samples summarised, as
/// libtest prints them: whole nanoseconds with thousands separators (two
/// decimals below 10 ns, where whole numbers would say nothing).
pub fn render(run: &RunRecord) -> String {
    let mut out = String::new();
    for t in &run.targets {
        for b in &t.benchmarks {
            out.push_str(&format!(
                "test {}::{} ... bench: {:>11} ns/iter (+/- {})\n",
                t.target,
                b.id,
                ns(b.median_ns),
                ns(b.max_ns - b.min_ns)
            ));
        }
    }
    out
}

fn ns(x: f64) -> String {
    if !x.is_finite() {
        return "0".to_owned();
    }
    if x < 10.0 {
        return format!("{x:.2}");
    }
    let digits = format!("{:.0}", x);
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::ns;

    #[test]
    fn numbers_as_libtest_prints_them() {
        assert_eq!(ns(1_234_567.4), "1,234,567");
        assert_eq!(ns(999.5), "1,000");
        assert_eq!(ns(12.0), "12");
        assert_eq!(ns(0.456), "0.46");
    }
}
