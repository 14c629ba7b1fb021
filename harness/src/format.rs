//! Human units: times from ps to s, and throughput rates.

use crate::throughput::Throughput;

/// A time in ns written with a unit chosen for its size and 4 significant
/// digits; `n/a` for a value that is not a number or infinite.
///
/// ```
/// assert_eq!(nbench::__private::format::time(0.25), "250.0 ps");
/// assert_eq!(nbench::__private::format::time(1234.5), "1.234 µs");
/// assert_eq!(nbench::__private::format::time(2.5e9), "2.500 s");
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
/// use nbench::__private::format::{TimeUnit, time_in};
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
/// assert_eq!(nbench::__private::format::rate(Throughput::Bytes(1024), 1000.0), "976.6 MiB/s");
/// assert_eq!(nbench::__private::format::rate(Throughput::Items(1000), 1000.0), "1.000 Gelem/s");
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

/// [`rate`] at a median, or where the median lies below what the clock
/// resolves (`floor`: one clock step shared by each iteration), the rate
/// it surely exceeds: `> 5.682 Telem/s`, not `∞`.
///
/// ```
/// use nbench::Throughput;
/// use nbench::__private::format::rate_at;
/// assert_eq!(rate_at(Throughput::Items(1), 0.0, Some(0.5)), "> 2.000 Gelem/s");
/// assert_eq!(rate_at(Throughput::Items(1), 1.0, None), "1.000 Gelem/s");
/// ```
pub fn rate_at(throughput: Throughput, median: f64, floor: Option<f64>) -> String {
    match floor {
        Some(step) => format!("> {}", rate(throughput, step)),
        None => rate(throughput, median),
    }
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

/// A count for people, four significant figures with an SI prefix from a
/// thousand on (`12.00`, `4.006 k`, `1.234 M`); NaN or infinite as `n/a`.
pub fn count(value: f64) -> String {
    if !value.is_finite() {
        return NOT_A_NUMBER.to_owned();
    }
    let (scaled, prefix) = match value.abs() {
        v if v >= 1e12 => (value / 1e12, " T"),
        v if v >= 1e9 => (value / 1e9, " G"),
        v if v >= 1e6 => (value / 1e6, " M"),
        v if v >= 1e3 => (value / 1e3, " k"),
        _ => (value, ""),
    };
    let decimals = match scaled.abs() {
        v if v >= 100.0 => 1,
        v if v >= 10.0 => 2,
        _ => 3,
    };
    let decimals = if prefix.is_empty() { 2 } else { decimals };
    format!("{scaled:.decimals$}{prefix}")
}

/// The columns `text` takes in a terminal: East Asian wide characters and
/// emoji take two, combining marks and joiners none, everything else one.
///
/// ```
/// assert_eq!(nbench::__private::format::width("sort/10"), 7);
/// assert_eq!(nbench::__private::format::width("排序/10"), 7);
/// assert_eq!(nbench::__private::format::width("🚀/1"), 4);
/// ```
pub fn width(text: &str) -> usize {
    text.chars().map(char_width).sum()
}

/// `text` on one line, for a terminal or a Markdown cell: control
/// characters (newlines in an id a group made from a multi-line string
/// literal, tabs) written as Rust writes them in a string, the rest as it
/// is.
///
/// ```
/// use nbench::__private::format::one_line;
/// assert_eq!(one_line("fill\n    /19"), "fill\\n    /19");
/// assert_eq!(one_line("a\tb\u{1b}"), "a\\tb\\u{1b}");
/// assert_eq!(one_line("排序/10 \"x\""), "排序/10 \"x\"");
/// ```
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `text` followed by spaces up to `columns` terminal columns (as [`width`] counts them).
///
/// ```
/// assert_eq!(nbench::__private::format::pad("排序", 6), "排序  ");
/// ```
pub fn pad(text: &str, columns: usize) -> String {
    let fill = columns.saturating_sub(width(text));
    format!("{text}{}", " ".repeat(fill))
}

/// The widest a table's id column grows. A longer id (a float parameter
/// printed whole: half's `f16::from_f64/0.000…` ran to 363 characters, and
/// every row of its table with it) takes a line of its own above its row.
pub const ID_COLUMN_MOST: usize = 60;

/// The width of a table's id column for ids as wide as `widest`: at least
/// the header's `benchmark`, at most [`ID_COLUMN_MOST`].
pub fn id_column(widest: usize) -> usize {
    widest.min(ID_COLUMN_MOST).max("benchmark".len())
}

/// `id` on one line in a table's id column `w` wide: padded to it, or,
/// where it is wider, on a line of its own with the row going on under it.
pub fn id_cell(id: &str, w: usize) -> String {
    let id = one_line(id);
    match width(&id) > w {
        true => format!("{id}\n{}", " ".repeat(w)),
        false => pad(&id, w),
    }
}

fn char_width(c: char) -> usize {
    let u = c as u32;
    let zero = matches!(u,
        0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05BD | 0x0610..=0x061A
        | 0x064B..=0x065F | 0x0E31 | 0x0E34..=0x0E3A | 0x1AB0..=0x1AFF
        | 0x1DC0..=0x1DFF | 0x200B..=0x200F | 0x20D0..=0x20FF | 0xFE00..=0xFE0F
        | 0xFE20..=0xFE2F | 0xE0100..=0xE01EF);
    let wide = matches!(u,
        0x1100..=0x115F | 0x231A..=0x231B | 0x2329..=0x232A | 0x23E9..=0x23EC
        | 0x23F0 | 0x23F3 | 0x25FD..=0x25FE | 0x2614..=0x2615 | 0x2648..=0x2653
        | 0x267F | 0x2693 | 0x26A1 | 0x26AA..=0x26AB | 0x26BD..=0x26BE
        | 0x26C4..=0x26C5 | 0x26CE | 0x26D4 | 0x26EA | 0x26F2..=0x26F3 | 0x26F5
        | 0x26FA | 0x26FD | 0x2705 | 0x270A..=0x270B | 0x2728 | 0x274C | 0x274E
        | 0x2753..=0x2755 | 0x2757 | 0x2795..=0x2797 | 0x27B0 | 0x27BF
        | 0x2B1B..=0x2B1C | 0x2B50 | 0x2B55 | 0x2E80..=0x303E | 0x3041..=0x33FF
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xA000..=0xA4CF | 0xA960..=0xA97F
        | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE10..=0xFE19 | 0xFE30..=0xFE6F
        | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x16FE0..=0x18CFF | 0x1B000..=0x1B2FF
        | 0x1F004 | 0x1F0CF | 0x1F18E | 0x1F191..=0x1F19A | 0x1F200..=0x1F251
        | 0x1F300..=0x1F320 | 0x1F32D..=0x1F335 | 0x1F337..=0x1F37C
        | 0x1F37E..=0x1F393 | 0x1F3A0..=0x1F3CA | 0x1F3CF..=0x1F3D3
        | 0x1F3E0..=0x1F3F0 | 0x1F3F4 | 0x1F3F8..=0x1F43E | 0x1F440
        | 0x1F442..=0x1F4FC | 0x1F4FF..=0x1F53D | 0x1F54B..=0x1F54E
        | 0x1F550..=0x1F567 | 0x1F57A | 0x1F595..=0x1F596 | 0x1F5A4
        | 0x1F5FB..=0x1F64F | 0x1F680..=0x1F6C5 | 0x1F6CC | 0x1F6D0..=0x1F6D2
        | 0x1F6D5..=0x1F6D7 | 0x1F6DC..=0x1F6DF | 0x1F6EB..=0x1F6EC
        | 0x1F6F4..=0x1F6FC | 0x1F7E0..=0x1F7EB | 0x1F7F0 | 0x1F90C..=0x1F93A
        | 0x1F93C..=0x1F945 | 0x1F947..=0x1F9FF | 0x1FA70..=0x1FAFF
        | 0x20000..=0x2FFFD | 0x30000..=0x3FFFD);
    match (zero || c == '\u{200D}', wide) {
        (true, _) => 0,
        (false, true) => 2,
        (false, false) => 1,
    }
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
