//! Human units: times from ps to s, and throughput rates.

use crate::throughput::Throughput;

/// A time in ns written with a unit chosen for its size and 4 significant
/// digits; `n/a` for a value that is not a number or infinite.
///
/// ```
/// assert_eq!(nbench::format::time(0.25), "250.0 ps");
/// assert_eq!(nbench::format::time(1234.5), "1.234 µs");
/// assert_eq!(nbench::format::time(2.5e9), "2.500 s");
/// ```
pub fn time(ns: f64) -> String {
    if !ns.is_finite() {
        return NOT_A_NUMBER.to_owned();
    }
    const UNITS: [(f64, &str); 5] = [
        (1e-3, "ps"),
        (1.0, "ns"),
        (1e3, "µs"),
        (1e6, "ms"),
        (1e9, "s"),
    ];
    // The unit is chosen for the value as shown: 999.99 ns is "1.000 µs".
    let shown = round_sig(ns, 4);
    let (scale, unit) = UNITS
        .iter()
        .rev()
        .copied()
        .find(|&(scale, _)| shown.abs() >= scale)
        .unwrap_or(UNITS[0]);
    format!("{} {unit}", sig4(ns / scale))
}

/// A fixed unit for times, instead of one chosen per value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// Nanoseconds.
    Ns,
    /// Microseconds.
    Us,
    /// Milliseconds.
    Ms,
    /// Seconds.
    S,
}

impl TimeUnit {
    /// Nanoseconds in one of this unit.
    pub fn ns(self) -> f64 {
        match self {
            TimeUnit::Ns => 1.0,
            TimeUnit::Us => 1e3,
            TimeUnit::Ms => 1e6,
            TimeUnit::S => 1e9,
        }
    }

    /// The unit's symbol as reports print it: `ns`, `µs`, `ms`, `s`.
    pub fn symbol(self) -> &'static str {
        match self {
            TimeUnit::Ns => "ns",
            TimeUnit::Us => "µs",
            TimeUnit::Ms => "ms",
            TimeUnit::S => "s",
        }
    }

    /// The unit's name in ASCII, for column names: `ns`, `us`, `ms`, `s`.
    pub fn ascii(self) -> &'static str {
        match self {
            TimeUnit::Us => "us",
            other => other.symbol(),
        }
    }
}

/// A time in ns written in `unit` when one is given (4 significant digits,
/// however small the value is in that unit), else as [`time`] chooses.
///
/// ```
/// use nbench::format::{TimeUnit, time_in};
/// assert_eq!(time_in(1234.6, Some(TimeUnit::Ns)), "1235 ns");
/// assert_eq!(time_in(1234.5, Some(TimeUnit::Ms)), "0.001234 ms");
/// assert_eq!(time_in(1234.5, None), "1.234 µs");
/// ```
pub fn time_in(ns: f64, unit: Option<TimeUnit>) -> String {
    match unit {
        None => time(ns),
        Some(_) if !ns.is_finite() => NOT_A_NUMBER.to_owned(),
        Some(u) => {
            let x = ns / u.ns();
            let text = if x != 0.0 && x.abs() < 1.0 {
                // Below 1, keep four significant digits rather than three decimals.
                let decimals = (3 - x.abs().log10().floor() as i32).clamp(3, 12) as usize;
                format!("{x:.decimals$}")
            } else {
                sig4(x)
            };
            format!("{text} {}", u.symbol())
        }
    }
}

/// What a report shows in place of a NaN or infinite figure.
pub const NOT_A_NUMBER: &str = "n/a";

/// The rate at which `throughput` is done when one iteration takes `ns`
/// (`∞` at zero time, `n/a` for NaN).
///
/// ```
/// use nbench::Throughput;
/// assert_eq!(nbench::format::rate(Throughput::Bytes(1024), 1000.0), "976.6 MiB/s");
/// assert_eq!(nbench::format::rate(Throughput::Items(1000), 1000.0), "1.000 Gelem/s");
/// ```
pub fn rate(throughput: Throughput, ns: f64) -> String {
    let (amount, base, units): (u64, f64, [&str; 5]) = match throughput {
        Throughput::Bytes(n) => (n, 1024.0, ["B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"]),
        Throughput::Items(n) => (
            n,
            1000.0,
            ["elem/s", "Kelem/s", "Melem/s", "Gelem/s", "Telem/s"],
        ),
    };
    if ns.is_nan() {
        return NOT_A_NUMBER.to_owned();
    }
    if ns <= 0.0 {
        return "∞".to_owned();
    }
    let (per_sec, i) = prefixed(amount as f64 * 1e9 / ns, base, units.len() - 1, 4);
    format!("{} {}", sig4(per_sec), units[i])
}

/// `x` divided by `base` for each prefix step (k, M, …, at most `steps`)
/// that its value rounded to `digits` significant digits reaches, and the
/// number of steps: 999.97 with 4 digits is 1.000 k, not 1000.
pub(crate) fn prefixed(x: f64, base: f64, steps: usize, digits: i32) -> (f64, usize) {
    let (mut x, mut i) = (round_sig(x, digits), 0);
    while i < steps && x.abs() >= base {
        x /= base;
        i += 1;
    }
    (x, i)
}

/// `x` rounded to `digits` significant digits.
pub(crate) fn round_sig(x: f64, digits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let factor = 10f64.powi(x.abs().log10().floor() as i32 - (digits - 1));
    (x / factor).round() * factor
}

/// Four significant digits without an exponent (`1.234`, `12.34`, `123.4`, `1234`).
fn sig4(x: f64) -> String {
    let a = x.abs();
    let decimals = if a >= 1000.0 {
        0
    } else if a >= 100.0 {
        1
    } else if a >= 10.0 {
        2
    } else {
        3
    };
    format!("{x:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_per_size() {
        assert_eq!(time(0.0), "0.000 ps");
        assert_eq!(time(5.12), "5.120 ns");
        assert_eq!(time(999.9), "999.9 ns");
        assert_eq!(time(999.99), "1.000 µs", "the unit of the rounded value");
        assert_eq!(time(0.99996), "1.000 ns");
        assert_eq!(time(12_345_678.0), "12.35 ms");
        assert_eq!(time(3_600e9), "3600 s");
        assert_eq!(time(f64::NAN), "n/a");
        assert_eq!(time(f64::INFINITY), "n/a");
    }

    #[test]
    fn rates() {
        assert_eq!(rate(Throughput::Bytes(4096), 1e9), "4.000 KiB/s");
        assert_eq!(rate(Throughput::Items(1), 2.0), "500.0 Melem/s");
        assert_eq!(rate(Throughput::Items(3), 1e9), "3.000 elem/s");
        assert_eq!(rate(Throughput::Items(3), 0.0), "∞");
        assert_eq!(rate(Throughput::Items(3), f64::NAN), "n/a");
        assert_eq!(rate(Throughput::Items(99_999), 1e5), "1.000 Gelem/s");
    }
}
