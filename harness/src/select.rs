//! Which benchmarks run, by libtest's rules; shared with `cargo nbench`.

/// How benchmarks marked ignored are treated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Ignored {
    /// Ignored benchmarks are skipped (the default).
    #[default]
    Skip,
    /// Only ignored benchmarks run (`--ignored`).
    Only,
    /// Everything runs (`--include-ignored`).
    Include,
}

/// What a [`Filter`] decides for one benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selected {
    /// Run it.
    Run,
    /// Selected, but skipped as ignored (shown as such).
    Ignored,
    /// Left out by the filters (counted, not shown).
    FilteredOut,
}

/// libtest's selection: positional filters, `--skip`, `--exact`, `--ignored`.
///
/// ```
/// use nbench::__private::select::{Filter, Selected};
/// let f = Filter { filters: vec!["sort".into()], skip: vec!["100".into()], ..Filter::default() };
/// assert_eq!(f.verdict("sort/std/10", false), Selected::Run);
/// assert_eq!(f.verdict("sort/std/100", false), Selected::FilteredOut);
/// assert_eq!(f.verdict("sort/std/10", true), Selected::Ignored);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// A benchmark is selected if its id contains any of these (all, when empty).
    pub filters: Vec<String>,
    /// A benchmark is left out if its id contains any of these.
    pub skip: Vec<String>,
    /// Filters and skips match whole ids instead of substrings.
    pub exact: bool,
    /// Treatment of ignored benchmarks.
    pub ignored: Ignored,
}

impl Filter {
    /// The decision for the benchmark `id`, marked ignored or not.
    pub fn verdict(&self, id: &str, ignored: bool) -> Selected {
        let matches = |pattern: &String| self.matches(id, pattern);
        let selected = (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skip.iter().any(matches)
            && (self.ignored != Ignored::Only || ignored);
        if !selected {
            Selected::FilteredOut
        } else if ignored && self.ignored == Ignored::Skip {
            Selected::Ignored
        } else {
            Selected::Run
        }
    }

    /// Whether `id` matches one filter or skip `pattern` (whole, with
    /// `exact`): as it is, or as a report shows it on one line
    /// ([`one_line`](crate::format::one_line)), `\n` for a newline, so that
    /// an id copied from a report finds its benchmark.
    fn matches(&self, id: &str, pattern: &str) -> bool {
        let shown = crate::format::one_line(id);
        if self.exact {
            id == pattern || shown == pattern
        } else {
            id.contains(pattern) || shown.contains(pattern)
        }
    }

    /// The filters that match none of `ids` (a typo in a CI job's filter).
    pub fn unmatched<'a>(&'a self, ids: &[String]) -> Vec<&'a str> {
        self.filters
            .iter()
            .filter(|f| !ids.iter().any(|id| self.matches(id, f)))
            .map(String::as_str)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modes::args::Args;

    fn ids(line: &str) -> (Vec<&'static str>, usize) {
        let all = [
            ("fib", false),
            ("sort/std/10", false),
            ("sort/std/100", false),
            ("slow", true),
        ];
        let args = Args::parse(line.split_whitespace().map(str::to_owned)).unwrap();
        let chosen: Vec<&str> = all
            .iter()
            .filter(|(id, ig)| args.filter.verdict(id, *ig) != Selected::FilteredOut)
            .map(|(id, _)| *id)
            .collect();
        let out = all.len() - chosen.len();
        (chosen, out)
    }

    #[test]
    fn an_id_over_two_lines_is_found_as_reports_show_it() {
        let args = |line: &str| Args::parse(line.split('|').map(str::to_owned)).unwrap();
        let two = "fill\n  /19";
        for line in ["fill\\n  /19|--exact", "fill\n  /19|--exact", "\\n  /1"] {
            let a = args(line);
            assert_eq!(a.filter.verdict(two, false), Selected::Run, "{line}");
        }
        assert_eq!(
            args("fill\\n  /2").filter.verdict(two, false),
            Selected::FilteredOut
        );
    }

    #[test]
    fn filters_like_libtest() {
        assert_eq!(ids("sort").0, ["sort/std/10", "sort/std/100"]);
        assert_eq!(ids("sort --skip 100"), (vec!["sort/std/10"], 3));
        assert_eq!(ids("sort/std/10 --exact").0, ["sort/std/10"]);
        assert_eq!(ids("sort/std --exact").0, Vec::<&str>::new());
        assert_eq!(ids("--ignored").0, ["slow"]);
        assert_eq!(ids("").1, 0);
    }

    #[test]
    fn ignored_handling() {
        let mut f = Filter::default();
        assert_eq!(f.verdict("slow", true), Selected::Ignored);
        f.ignored = Ignored::Include;
        assert_eq!(f.verdict("slow", true), Selected::Run);
        f.ignored = Ignored::Only;
        assert_eq!(f.verdict("fast", false), Selected::FilteredOut);
    }
}
