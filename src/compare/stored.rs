//! Comparing with a baseline's stored samples, and which of the baseline's
//! benchmarks a comparison reports as gone: one rule for every command.

use super::stored_row;
use crate::model::comparison::TargetComparison;
use crate::model::record::BenchRecord;

/// One current benchmark as the stored comparison needs it.
pub struct Current<'a> {
    /// Its id.
    pub id: &'a str,
    /// Its median, ns.
    pub median_ns: f64,
    /// Its samples, ns per iteration.
    pub per_iter_ns: &'a [f64],
}

/// What a comparison reports of the baseline's benchmarks.
pub struct Scope<'a> {
    /// The current side's benchmarks held elsewhere (another shard's, or
    /// left out here): not gone.
    pub elsewhere: &'a [String],
    /// Whether the filters and the shard report benchmark `id`.
    pub reported: &'a dyn Fn(&str) -> bool,
}

/// Compares `current` with the baseline's stored `base` benchmarks into
/// `cmp`: a row for each that the baseline has, "new" for the others, and
/// "gone" for the baseline's that `scope` reports and neither `current`
/// nor `scope.elsewhere` holds.
pub fn against_stored<'a>(
    cmp: &mut TargetComparison,
    current: impl IntoIterator<Item = Current<'a>>,
    base: &[BenchRecord],
    scope: Scope<'_>,
    threshold: f64,
) {
    let mut present = Vec::new();
    for c in current {
        present.push(c.id.to_owned());
        match base.iter().find(|b| b.id == c.id) {
            None => cmp.new.push(c.id.to_owned()),
            Some(b) => cmp
                .rows
                .extend(stored_row(c.id, b, c.median_ns, c.per_iter_ns, threshold)),
        }
    }
    present.extend(scope.elsewhere.iter().cloned());
    cmp.gone = gone(base.iter().map(|b| b.id.as_str()), &present, scope.reported);
    // Nothing compared with stored samples: nothing to say they were.
    if cmp.rows.is_empty() {
        cmp.unpaired_because = None;
    }
}

/// The baseline's benchmarks (`base_ids`) that `reported` says this
/// comparison reports (filters, shard) and that are not `present` (run
/// here, or by another shard).
pub fn gone<'a>(
    base_ids: impl IntoIterator<Item = &'a str>,
    present: &[String],
    reported: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    base_ids
        .into_iter()
        .filter(|id| reported(id) && !present.iter().any(|p| p == id))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gone_is_what_the_baseline_has_that_nothing_here_or_elsewhere_holds() {
        let present = ["a".to_owned(), "c".to_owned()];
        let all = |_: &str| true;
        assert_eq!(gone(["a", "b", "c", "d"], &present, &all), ["b", "d"]);
        let not_d = |id: &str| id != "d";
        assert_eq!(gone(["a", "b", "c", "d"], &present, &not_d), ["b"]);
    }
}
