//! Reporting a run: the console table, Markdown, the JSON document, and the progress line.

pub mod compare;
pub mod console;
pub mod markdown;
pub mod progress;
pub mod record;

/// A relative change as a signed percentage; a rounding of zero shows as `+0.00%`, not `-0.00%`.
pub fn percent_change(x: f64) -> String {
    let x = if (x * 100.0).abs() < 0.005 { 0.0 } else { x };
    format!("{:+.2}%", x * 100.0)
}

/// A p-value to three decimals, or `<0.001`.
pub fn p_value(p: f64) -> String {
    if p < 0.001 {
        "<0.001".to_owned()
    } else {
        format!("{p:.3}")
    }
}
