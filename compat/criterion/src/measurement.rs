//! `measurement`: criterion's `Measurement` trait and its wall-clock one.
//!
//! nbench measures wall time. A program may still name another
//! [`Measurement`] (`Criterion::default().with_measurement(…)`): it
//! compiles, and its values count only where the program times itself
//! ([`Bencher::iter_custom`](crate::Bencher::iter_custom)), read as
//! nanoseconds through [`Measurement::to_f64`].

use crate::Throughput;
use std::time::{Duration, Instant};

/// Formats measured values for display (criterion's trait, kept so that
/// custom measurements compile; nbench formats times itself).
pub trait ValueFormatter {
    /// One value with its unit.
    fn format_value(&self, value: f64) -> String {
        let mut values = [value];
        let unit = self.scale_values(value, &mut values);
        format!("{:>6.2} {unit}", values[0])
    }

    /// A throughput rate with its unit.
    fn format_throughput(&self, throughput: &Throughput, value: f64) -> String {
        let mut values = [value];
        let unit = self.scale_throughputs(value, throughput, &mut values);
        format!("{:>6.2} {unit}", values[0])
    }

    /// Scales `values` to a unit fit for `typical_value` and names it.
    fn scale_values(&self, typical_value: f64, values: &mut [f64]) -> &'static str;

    /// Turns `values` into rates of `throughput` and names their unit.
    fn scale_throughputs(
        &self,
        typical_value: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str;

    /// Scales `values` to the unit machine-readable output uses and names it.
    fn scale_for_machines(&self, values: &mut [f64]) -> &'static str;
}

/// A quantity measured over a run of iterations (criterion's trait).
pub trait Measurement {
    /// What [`start`](Self::start) returns and [`end`](Self::end) takes.
    type Intermediate;
    /// A measured value.
    type Value;
    /// Starts measuring.
    fn start(&self) -> Self::Intermediate;
    /// Ends measuring and returns the value.
    fn end(&self, i: Self::Intermediate) -> Self::Value;
    /// The sum of two values.
    fn add(&self, v1: &Self::Value, v2: &Self::Value) -> Self::Value;
    /// The value of nothing.
    fn zero(&self) -> Self::Value;
    /// The value as a number (nanoseconds, for nbench).
    fn to_f64(&self, value: &Self::Value) -> f64;
    /// How its values are shown.
    fn formatter(&self) -> &dyn ValueFormatter;
}

/// Wall-clock time: what nbench measures.
#[derive(Debug, Clone, Copy, Default)]
pub struct WallTime;

impl Measurement for WallTime {
    type Intermediate = Instant;
    type Value = Duration;

    fn start(&self) -> Instant {
        Instant::now()
    }

    fn end(&self, i: Instant) -> Duration {
        i.elapsed()
    }

    fn add(&self, v1: &Duration, v2: &Duration) -> Duration {
        *v1 + *v2
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &Nanoseconds
    }
}

/// Formats nanoseconds as ns, µs, ms or s.
struct Nanoseconds;

impl ValueFormatter for Nanoseconds {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match typical.abs() {
            t if t < 1e3 => (1.0, "ns"),
            t if t < 1e6 => (1e-3, "µs"),
            t if t < 1e9 => (1e-6, "ms"),
            _ => (1e-9, "s"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }

    fn scale_throughputs(
        &self,
        _: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let (amount, unit) = match *throughput {
            Throughput::Bits(n) => (n as f64, "bit/s"),
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) => (n as f64, "B/s"),
            Throughput::Elements(n) => (n as f64, "elem/s"),
            Throughput::ElementsAndBytes { elements, .. } => (elements as f64, "elem/s"),
        };
        values.iter_mut().for_each(|v| *v = amount * 1e9 / *v);
        unit
    }

    fn scale_for_machines(&self, _: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// A value a program's own timing returned, as the time nbench records:
/// nanoseconds (see the module's text); nothing when it is not a number of them.
pub(crate) fn as_duration<M: Measurement>(m: &M, value: &M::Value) -> Duration {
    let ns = m.to_f64(value);
    if ns.is_finite() && ns > 0.0 {
        Duration::from_secs_f64(ns / 1e9)
    } else {
        Duration::ZERO
    }
}
