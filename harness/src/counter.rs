//! User counters: numbers a benchmark reports beside its time (a value, per iteration, or a rate).

/// How a counter's value is read and shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterKind {
    /// A number about the benchmark (a table's size, a tree's depth), shown as is.
    Value,
    /// How many of something one iteration does, shown as is under `name/iter`.
    PerIteration,
    /// How many of something one iteration does, shown per second of the
    /// median time under `name/s`.
    Rate,
    /// A time per iteration in ns, shown as a duration (`1.23 µs`): the
    /// `cpu` column of [`Bencher::cpu_time`](crate::Bencher::cpu_time).
    Time,
}

impl CounterKind {
    /// The kind as stored and sent: `value`, `per_iteration`, `rate`.
    pub fn as_str(self) -> &'static str {
        match self {
            CounterKind::Value => "value",
            CounterKind::PerIteration => "per_iteration",
            CounterKind::Rate => "rate",
            CounterKind::Time => "time",
        }
    }

    /// The kind named by [`as_str`](Self::as_str).
    pub fn parse(text: &str) -> Option<CounterKind> {
        [Self::Value, Self::PerIteration, Self::Rate, Self::Time]
            .into_iter()
            .find(|k| k.as_str() == text)
    }
}

/// A number reported beside a benchmark's time, declared with
/// [`Bencher::counter`](crate::Bencher::counter) before the timing call; each
/// becomes a column of its own in `cargo nbench`'s table and a field of the
/// JSON output.
///
/// ```
/// use nbench::Counter;
/// let hits = Counter::rate("hits", 4.0);
/// // Four hits per iteration at 2 ns an iteration: two billion a second.
/// assert_eq!(hits.shown(2.0), 2e9);
/// assert_eq!((hits.header(), hits.format(2.0)), ("hits/s".to_owned(), "2.00G".to_owned()));
/// let table = Counter::value("table", 3.0 * 1024.0 * 1024.0).binary();
/// assert_eq!(table.format(2.0), "3.00Mi");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Counter {
    /// The column's name.
    pub name: String,
    /// The declared value: per iteration for [`CounterKind::PerIteration`]
    /// and [`CounterKind::Rate`].
    pub value: f64,
    /// How it is shown.
    pub kind: CounterKind,
    /// Whether "k" means 1024 (`Ki`, `Mi`, …) instead of 1000.
    pub binary: bool,
    /// Whether a benchmark on several threads shows the value as declared
    /// (the mean over threads) instead of summed across them.
    pub averaged: bool,
}

impl Counter {
    fn new(name: &str, value: f64, kind: CounterKind) -> Counter {
        Counter {
            name: name.to_owned(),
            value,
            kind,
            binary: false,
            averaged: false,
        }
    }

    /// A plain value, shown as is.
    pub fn value(name: &str, value: f64) -> Counter {
        Counter::new(name, value, CounterKind::Value)
    }

    /// A count per iteration, shown as is.
    pub fn per_iteration(name: &str, per_iter: f64) -> Counter {
        Counter::new(name, per_iter, CounterKind::PerIteration)
    }

    /// A count per iteration, shown per second.
    pub fn rate(name: &str, per_iter: f64) -> Counter {
        Counter::new(name, per_iter, CounterKind::Rate)
    }

    /// A time per iteration, ns, shown as a duration.
    pub fn time(name: &str, ns_per_iter: f64) -> Counter {
        Counter::new(name, ns_per_iter, CounterKind::Time)
    }

    /// Shows the counter with 1024 as "k" (`Ki`, `Mi`, `Gi`): for bytes and
    /// other powers of two.
    pub fn binary(mut self) -> Counter {
        self.binary = true;
        self
    }

    /// Shows the counter as declared on a benchmark with several threads
    /// (the mean over threads; Google Benchmark's `kAvgThreads`) instead of
    /// summed across them, e.g. for a table size every thread shares.
    ///
    /// ```
    /// # fn bench(b: &mut nbench::Bencher) {
    /// let table = std::collections::HashSet::<u64>::from_iter(0..100);
    /// // On 4 threads: `keys` stays 100, `lookups/iter` is summed to 4.
    /// b.counter(nbench::Counter::value("keys", table.len() as f64).averaged_over_threads());
    /// b.counter(nbench::Counter::per_iteration("lookups", 1.0));
    /// b.iter_threads(|_| { let t = &table; move || t.contains(&42) });
    /// # }
    /// ```
    pub fn averaged_over_threads(mut self) -> Counter {
        self.averaged = true;
        self
    }

    /// The column's header: `name`, `name/iter` or `name/s`.
    pub fn header(&self) -> String {
        match self.kind {
            CounterKind::Value | CounterKind::Time => self.name.clone(),
            CounterKind::PerIteration => format!("{}/iter", self.name),
            CounterKind::Rate => format!("{}/s", self.name),
        }
    }

    /// The number shown, given the benchmark's median time per iteration.
    pub fn shown(&self, median: f64) -> f64 {
        match self.kind {
            CounterKind::Value | CounterKind::PerIteration | CounterKind::Time => self.value,
            CounterKind::Rate => self.value * 1e9 / median,
        }
    }

    /// [`shown`](Self::shown) with three significant digits and a suffix
    /// (`k`, `M`, `G`, `T`, or `Ki`, `Mi`, … when [`binary`](Self::binary)).
    /// A [`Time`](CounterKind::Time) counter is shown as a duration instead.
    pub fn format(&self, median: f64) -> String {
        if self.kind == CounterKind::Time {
            return crate::format::time(self.value);
        }
        scaled(self.shown(median), self.binary)
    }
}

/// `v` with three significant digits and a k/M/G/T (or Ki/Mi/Gi/Ti) suffix.
fn scaled(v: f64, binary: bool) -> String {
    if !v.is_finite() {
        return crate::format::NOT_A_NUMBER.to_owned();
    }
    let (k, suffixes) = if binary {
        (1024.0, ["", "Ki", "Mi", "Gi", "Ti"])
    } else {
        (1000.0, ["", "k", "M", "G", "T"])
    };
    let (x, i) = crate::format::prefixed(v, k, suffixes.len() - 1, 3);
    let a = x.abs();
    let digits = if a == 0.0 || (i == 0 && v == v.trunc()) {
        0
    } else {
        (2 - a.log10().floor() as i32).clamp(0, 9) as usize
    };
    format!("{x:.digits$}{}", suffixes[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_numbers_keep_three_digits() {
        let cases = [
            (0.0, false, "0"),
            (17.0, false, "17"),
            (0.125, false, "0.125"),
            (0.0012345, false, "0.00123"),
            (9.999, false, "10.0"),
            (2.5, false, "2.50"),
            (999.7, false, "1.00k"),
            (12_345.0, false, "12.3k"),
            (123_456_789.0, false, "123M"),
            (-4_500.0, false, "-4.50k"),
            (1536.0, true, "1.50Ki"),
            (1000.0, true, "1000"),
            (5e15, false, "5000T"),
            (f64::NAN, false, "n/a"),
        ];
        for (v, binary, want) in cases {
            assert_eq!(scaled(v, binary), want, "{v}");
        }
    }

    #[test]
    fn kinds_round_trip_and_headers() {
        for k in [
            CounterKind::Value,
            CounterKind::PerIteration,
            CounterKind::Rate,
        ] {
            assert_eq!(CounterKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(CounterKind::parse("total"), None);
        assert_eq!(Counter::per_iteration("nodes", 3.0).header(), "nodes/iter");
        assert_eq!(Counter::per_iteration("nodes", 3.0).format(1e9), "3");
        assert_eq!(Counter::rate("ops", 1.0).format(1e9), "1");
        assert_eq!(Counter::rate("ops", 1.0).format(0.0), "n/a");
    }
}
