//! Which benchmarks a command line selects, as libtest selects tests.

use super::args::{Args, Ignored};
use crate::registry::Benchmark;

/// The benchmarks that pass the filters (ignored ones included, marked), and
/// how many the filters left out.
pub fn select<'b>(benches: &'b [Benchmark], args: &Args) -> (Vec<&'b Benchmark>, usize) {
    let matches = |id: &str, pattern: &str| {
        if args.exact {
            id == pattern
        } else {
            id.contains(pattern)
        }
    };
    let chosen: Vec<&Benchmark> = benches
        .iter()
        .filter(|b| args.filters.is_empty() || args.filters.iter().any(|f| matches(&b.id, f)))
        .filter(|b| !args.skip.iter().any(|s| matches(&b.id, s)))
        .filter(|b| args.ignored != Ignored::Only || b.ignored)
        .collect();
    let filtered_out = benches.len() - chosen.len();
    (chosen, filtered_out)
}

/// Whether a selected benchmark is to be skipped as ignored.
pub fn skipped_as_ignored(b: &Benchmark, args: &Args) -> bool {
    b.ignored && args.ignored == Ignored::Skip
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Registry;

    fn ids(line: &str) -> (Vec<String>, usize) {
        let mut r = Registry::new();
        r.bench("fib", |b| b.iter(|| ()));
        r.group("sort")
            .args([10, 100])
            .bench("std", |b, _| b.iter(|| ()));
        r.bench("slow", |b| b.iter(|| ())).ignore();
        let args = Args::parse(line.split_whitespace().map(str::to_owned)).unwrap();
        let (chosen, out) = select(&r.benches, &args);
        (chosen.iter().map(|b| b.id.clone()).collect(), out)
    }

    #[test]
    fn filters_like_libtest() {
        assert_eq!(ids("sort").0, ["sort/std/10", "sort/std/100"]);
        assert_eq!(ids("sort --skip 100"), (vec!["sort/std/10".to_owned()], 3));
        assert_eq!(ids("sort/std/10 --exact").0, ["sort/std/10"]);
        assert_eq!(ids("sort/std --exact").0, Vec::<String>::new());
        assert_eq!(ids("--ignored").0, ["slow"]);
        assert_eq!(ids("").1, 0);
    }
}
