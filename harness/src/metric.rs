//! What a benchmark's values measure, and how they read (times in ns,
//! instructions as a count): one place that reports, comparisons and the
//! channel ask, so that a new metric is a new variant here rather than new
//! field names everywhere.

use crate::format;

/// What a benchmark's values (its samples, median, interval) measure.
///
/// ```
/// use nbench::__private::metric::Metric;
/// assert_eq!(Metric::default(), Metric::WallTime);
/// assert_eq!(Metric::parse("cpu_time"), Some(Metric::CpuTime));
/// assert_eq!(Metric::CpuTime.name(), "cpu time");
/// assert_eq!(Metric::WallTime.format(1234.0), "1.234 µs");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Metric {
    /// Wall-clock time per iteration, ns.
    #[default]
    WallTime,
    /// CPU time per iteration ([`Bencher::time_by_cpu`](crate::Bencher::time_by_cpu)), ns.
    CpuTime,
    /// Instructions executed per iteration, counted under Valgrind's
    /// callgrind (`--nbench-count`), the loop's own taken off.
    Instructions,
}

impl Metric {
    /// Every metric, in the order reports list them.
    pub const ALL: [Metric; 3] = [Metric::WallTime, Metric::CpuTime, Metric::Instructions];

    /// Its name as stored and sent: `wall_time`, `cpu_time`.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::WallTime => "wall_time",
            Metric::CpuTime => "cpu_time",
            Metric::Instructions => "instructions",
        }
    }

    /// The metric [`Metric::as_str`] names.
    pub fn parse(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// Its name in a sentence: `wall time`, `cpu time`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::WallTime => "wall time",
            Metric::CpuTime => "cpu time",
            Metric::Instructions => "instructions",
        }
    }

    /// What a report says of its values where they are not wall time
    /// (`cpu time`); empty for wall time, which every report assumes.
    pub fn label(self) -> &'static str {
        match self {
            Metric::WallTime => "",
            other => other.name(),
        }
    }

    /// A value for people, in the unit that suits it (`1.234 µs`).
    pub fn format(self, value: f64) -> String {
        self.format_in(value, None)
    }

    /// A value for people, in `unit` when one is asked for (times).
    pub fn format_in(self, value: f64, unit: Option<format::TimeUnit>) -> String {
        match self {
            Metric::WallTime | Metric::CpuTime => format::time_in(value, unit),
            Metric::Instructions => format::count(value),
        }
    }

    /// Whether values of `self` and `other` can be compared with each other.
    pub fn comparable(self, other: Metric) -> bool {
        self == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for m in Metric::ALL {
            assert_eq!(Metric::parse(m.as_str()), Some(m));
        }
        assert_eq!(Metric::parse("joules"), None);
        assert_eq!(Metric::Instructions.format(4006.0), "4.006 k");
        assert_eq!(Metric::Instructions.format(12.0), "12.00");
    }
}
