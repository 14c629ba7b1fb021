//! libtest's output formats, as the tools that read `cargo bench` output parse them.
//!
//! Bench lines (`test NAME ... bench: N ns/iter (+/- D)`) are read by
//! Bencher's `rust_bench` adapter, github-action-benchmark's `cargo` tool and
//! others; the JSON lines (`-Z unstable-options --format json`) by tools that
//! follow libtest's unstable JSON. Both the bench binary and `cargo nbench
//! --format bencher` print them from here, so they agree.

use std::fmt::Write;

/// The smallest time a bench line prints. A median under it (an empty
/// benchmark, after the loop overhead) prints as this, because readers
/// divide by it and `0.00` makes their ratios infinite.
pub const MIN_NS: f64 = 0.01;

/// A benchmark's name as a bench line can carry it: Bencher's adapter ends
/// a name at its first space, so whitespace becomes `_`.
pub fn name(id: &str) -> String {
    id.chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// libtest's `(+/- D)`: the spread of the samples after winsorising 5 % at
/// each end, i.e. the 95th percentile minus the 5th. Never more than the
/// median, so that a reader's lower bound `median − D` stays at or above 0.
pub fn deviation(median: f64, p5: f64, p95: f64) -> f64 {
    (p95 - p5).clamp(0.0, median.max(MIN_NS))
}

/// `test NAME ... bench:      1,234.56 ns/iter (+/- 12.34)`, as current
/// libtest prints it: two decimals, thousands separated by commas.
pub fn bench_line(id: &str, median: f64, p5: f64, p95: f64) -> String {
    let median = if median.is_finite() {
        median.max(MIN_NS)
    } else {
        MIN_NS
    };
    format!(
        "test {} ... bench: {:>14} ns/iter (+/- {})",
        name(id),
        number(median),
        number(deviation(median, p5, p95))
    )
}

/// `running N tests`, libtest's first line for a binary.
pub fn running(count: usize) -> String {
    let plural = if count == 1 { "" } else { "s" };
    format!("running {count} test{plural}")
}

/// What a binary's last line counts (libtest counts skipped benchmarks as ignored).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    /// Benchmarks that failed.
    pub failed: usize,
    /// Benchmarks ignored or skipped.
    pub ignored: usize,
    /// Benchmarks measured.
    pub measured: usize,
    /// Benchmarks the filters left out.
    pub filtered_out: usize,
    /// Seconds the whole took.
    pub secs: f64,
}

/// libtest's last line for a binary.
pub fn result_line(t: &Tally) -> String {
    let verdict = if t.failed == 0 { "ok" } else { "FAILED" };
    format!(
        "test result: {verdict}. 0 passed; {} failed; {} ignored; {} measured; {} filtered out; finished in {:.2}s",
        t.failed, t.ignored, t.measured, t.filtered_out, t.secs
    )
}

/// A number as libtest prints times: `49,954.34`, `0.46`.
pub fn number(x: f64) -> String {
    let x = if x.is_finite() { x.max(0.0) } else { 0.0 };
    let text = format!("{x:.2}");
    let (int, frac) = text.split_once('.').unwrap_or((&text, "00"));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    let _ = write!(out, ".{frac}");
    out
}

/// libtest's JSON events (`--format json`), one object per line.
pub mod json {
    /// A string as a JSON string literal.
    pub fn string(text: &str) -> String {
        let mut out = String::from("\"");
        for c in text.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    /// `{ "type": "suite", "event": "started", "test_count": N }`
    pub fn suite_started(count: usize) -> String {
        format!(r#"{{ "type": "suite", "event": "started", "test_count": {count} }}"#)
    }

    /// `{ "type": "test", "event": "started", "name": … }`
    pub fn test_started(id: &str) -> String {
        format!(
            r#"{{ "type": "test", "event": "started", "name": {} }}"#,
            string(id)
        )
    }

    /// `{ "type": "test", "event": "ignored" | "failed", "name": …, … }`
    pub fn test_event(id: &str, event: &str, message: Option<&str>) -> String {
        let message = message
            .map(|m| format!(r#", "message": {}"#, string(m)))
            .unwrap_or_default();
        format!(
            r#"{{ "type": "test", "event": "{event}", "name": {}{message} }}"#,
            string(id)
        )
    }

    /// `{ "type": "bench", "name": …, "median": N, "deviation": D }`, whole
    /// nanoseconds as libtest gives them.
    pub fn bench(id: &str, median: f64, p5: f64, p95: f64) -> String {
        let median = median.max(0.0);
        let deviation = super::deviation(median, p5, p95);
        format!(
            r#"{{ "type": "bench", "name": {}, "median": {:.0}, "deviation": {:.0} }}"#,
            string(id),
            median,
            deviation
        )
    }

    /// `{ "type": "suite", "event": "ok" | "failed", … }`
    pub fn suite_finished(t: &super::Tally) -> String {
        let event = if t.failed == 0 { "ok" } else { "failed" };
        format!(
            r#"{{ "type": "suite", "event": "{event}", "passed": 0, "failed": {}, "ignored": {}, "measured": {}, "filtered_out": {}, "exec_time": {:.6} }}"#,
            t.failed, t.ignored, t.measured, t.filtered_out, t.secs
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_current_libtest_prints_them() {
        assert_eq!(number(49_954.344), "49,954.34");
        assert_eq!(number(1_234_567.4), "1,234,567.40");
        assert_eq!(number(999.999), "1,000.00");
        assert_eq!(number(12.0), "12.00");
        assert_eq!(number(0.456), "0.46");
        assert_eq!(number(f64::NAN), "0.00");
    }

    #[test]
    fn bench_lines_keep_readers_sane() {
        // Spaces leave the name; an empty benchmark is not 0; the spread is
        // the winsorised one, capped at the median.
        let line = bench_line("parse a line", 0.0, 0.0, 0.0);
        assert_eq!(
            line,
            "test parse_a_line ... bench:           0.01 ns/iter (+/- 0.00)"
        );
        let line = bench_line("x", 221.0, 200.0, 260.0);
        assert!(line.ends_with("221.00 ns/iter (+/- 60.00)"), "{line}");
        let line = bench_line("x", 221.0, 200.0, 99_741.0);
        assert!(line.ends_with("(+/- 221.00)"), "{line}");
    }

    #[test]
    fn json_events_are_json() {
        assert_eq!(
            json::bench("a \"b\"", 12.4, 10.0, 15.0),
            r#"{ "type": "bench", "name": "a \"b\"", "median": 12, "deviation": 5 }"#
        );
        assert_eq!(json::string("a\nb\u{1}"), r#""a\nb\u0001""#);
    }
}
