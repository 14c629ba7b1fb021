//! A benchmark both sides of a comparison have and that is not compared, with why.

use nbench::__private::metric::Metric;
use serde::{Deserialize, Serialize};

/// A benchmark both sides have whose values say nothing of each other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NotCompared {
    /// The benchmark's id.
    pub id: String,
    /// Why, in words.
    pub reason: String,
}

impl NotCompared {
    /// The benchmark `id` that a saved side holds and its executable no
    /// longer registers: an id made of a time or a random value, which
    /// no two runs share (chrono's `delayed_format/with_display/<the
    /// time the suite started>`).
    /// `was`: the baseline's own id of it, which differs in digits alone.
    pub fn unfound(id: &str, was: Option<&str>) -> NotCompared {
        let reason = match was {
            Some(was) => format!(
                "its id changes from run to run (the baseline saved `{was}`): is it made from a \
                 time or a random value? no two runs share such an id"
            ),
            None => "its saved executable registers it no more: is the id made from a time or \
                     a random value? no two runs share such an id"
                .to_owned(),
        };
        NotCompared {
            id: id.to_owned(),
            reason,
        }
    }

    /// The benchmark `id` a baseline lists without samples, whose
    /// executable cannot run it (`why`).
    pub fn unsampled(id: &str, why: &str) -> NotCompared {
        NotCompared {
            id: id.to_owned(),
            reason: format!("its baseline holds no samples of it, only its executable, and {why}"),
        }
    }

    /// The benchmark `id` that skipped itself on a side, for `reason`
    /// (the baseline's said as such).
    pub fn skipped(id: &str, reason: &str) -> NotCompared {
        NotCompared {
            id: id.to_owned(),
            reason: format!("skipped: {reason}"),
        }
    }

    /// The benchmark `id` that the baseline's code fails (`why`: a panic,
    /// a crash) and this build's measures.
    pub fn baseline_failed(id: &str, why: &str) -> NotCompared {
        // A panic's message may run over lines (`assert_eq!`'s left and right).
        let why: Vec<&str> = why
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        NotCompared {
            id: id.to_owned(),
            reason: format!(
                "the baseline fails it ({}); this build measures it",
                why.join("; ")
            ),
        }
    }

    /// The benchmark `id` whose baseline measures `base` and current side `cur`.
    pub fn metrics(id: &str, base: Metric, cur: Metric) -> NotCompared {
        NotCompared {
            id: id.to_owned(),
            reason: format!(
                "the baseline measures {}, this build {}: save the baseline again",
                base.name(),
                cur.name()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NotCompared;

    #[test]
    fn a_baseline_s_panic_over_lines_reads_on_one() {
        let why =
            "panicked at benches/a.rs:3: assertion `left == right` failed\n  left: 1\n right: 2\n";
        let not = NotCompared::baseline_failed("a", why);
        assert_eq!(
            not.reason,
            "the baseline fails it (panicked at benches/a.rs:3: assertion `left == right` failed; \
             left: 1; right: 2); this build measures it"
        );
    }
}
