//! Notes on stderr about what this crate accepts but does not do, each said once per process.

use std::sync::Mutex;

static SAID: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// Prints `note: {what}` on stderr, unless a note with this `what` was printed already.
pub(crate) fn once(what: &'static str) {
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    if !said.contains(&what) {
        said.push(what);
        eprintln!("note: {what}");
    }
}

/// Said by both `Criterion`'s and a group's setter.
pub(crate) const NRESAMPLES: &str = "nresamples is ignored: nbench chooses its own statistics";
/// Said by both `Criterion`'s and a group's setter.
pub(crate) const NOISE_THRESHOLD: &str =
    "noise_threshold is ignored: set it with `cargo nbench --threshold` or nbench.toml";
/// Said by both `Criterion`'s and a group's setter.
pub(crate) const CONFIDENCE_LEVEL: &str =
    "confidence_level is ignored: nbench's intervals are 95 %";
/// Said by both `Criterion`'s and a group's setter.
pub(crate) const SIGNIFICANCE_LEVEL: &str = "significance_level is ignored: cargo nbench decides significance over the whole run (false-discovery control)";
/// Said by a group's setter and a criterion 0.3 definition's.
pub(crate) const SAMPLING_MODE: &str =
    "sampling_mode is ignored: nbench chooses iteration counts itself";
