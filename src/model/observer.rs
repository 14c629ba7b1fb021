//! What a measuring stage tells whoever shows its progress, without knowing who that is.

use super::outcome::Outcome;

/// Told as benchmarks start and finish; the console's progress line and the
/// JSON-lines event stream implement it, tests can record it.
pub trait Observer {
    /// A benchmark starts: the `n`th of `of` in `target`.
    fn start(&mut self, target: &str, id: &str, n: usize, of: usize);
    /// A comparison its first pass left undecided is measured further, with
    /// the time others left unused: the `k`th of the `of` such in `target`.
    fn further(&mut self, target: &str, id: &str, k: usize, of: usize);
    /// The instructions of `benchmarks` of `target` are counted under
    /// callgrind, in the `n`th of `of` processes a side.
    fn counting(&mut self, target: &str, benchmarks: usize, n: usize, of: usize);
    /// The outcomes of `target` so far, in listed order (each call repeats the earlier ones).
    fn observe(&mut self, target: &str, outcomes: &[Outcome]);
    /// The target is done: anything drawn in place is removed.
    fn clear(&mut self);
}
