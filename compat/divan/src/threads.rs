//! divan's `threads`: the thread counts a benchmark runs on, and timing a
//! routine on them with nbench's `iter_threads`.

use crate::entry::{Entry, GROUPS};
use std::borrow::Borrow;

/// A `threads = …` list as the attribute wrote it (`[1, 4]`, `0..=8`, a
/// slice), as counts; 0 stands for the available parallelism.
pub fn threads_of<I>(counts: I) -> Vec<usize>
where
    I: IntoIterator,
    I::Item: Borrow<usize>,
{
    counts.into_iter().map(|n| *n.borrow()).collect()
}

/// The thread counts `entry` runs on: the runner's (`runner`) where it
/// has some, else its own `threads`, else those of the nearest
/// `#[bench_group]` around it that has some, else one thread; 0 made the
/// available parallelism, sorted, each once (as divan does).
pub fn counts_for(entry: &Entry, runner: Option<&[usize]>) -> Vec<usize> {
    let enclosing = GROUPS
        .iter()
        .filter(|g| g.threads.is_some() && within(entry.module, g.module))
        .max_by_key(|g| g.module.len());
    let own = entry.threads.or_else(|| enclosing.and_then(|g| g.threads));
    let wanted = match runner {
        Some(counts) => counts.to_vec(),
        None => own.map_or_else(Vec::new, |f| f()),
    };
    resolve(wanted, || {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    })
}

/// Whether `module` is `group` or lies inside it.
pub(crate) fn within(module: &str, group: &str) -> bool {
    module == group || (module.strip_prefix(group)).is_some_and(|rest| rest.starts_with("::"))
}

/// `wanted` with 0 made `available()`, sorted, each once; one thread when empty.
fn resolve(wanted: Vec<usize>, available: impl Fn() -> usize) -> Vec<usize> {
    let mut counts: Vec<usize> = (wanted.into_iter())
        .map(|n| if n == 0 { available() } else { n })
        .collect();
    counts.sort_unstable();
    counts.dedup();
    if counts.is_empty() {
        counts.push(1);
    }
    counts
}

/// Times `routine` on the benchmark's threads: every thread runs it at
/// once where there are several.
pub fn time<O, R: Fn() -> O + Sync>(b: &mut nbench::Bencher<'_>, routine: R) {
    if b.threads() > 1 {
        let routine = &routine;
        b.iter_threads(|_| routine);
    } else {
        b.iter(routine);
    }
}

/// Whether a timing loop divan runs on one thread (`bench_local`, inputs)
/// may run: on a benchmark of several threads it is skipped, and says why.
pub fn on_one(b: &mut nbench::Bencher<'_>, what: &str) -> bool {
    let threads = b.threads();
    if threads > 1 {
        // `bench_local_values` → `bench_values`: the same loop, `Sync`.
        let shared = what.replace("_local", "");
        b.skip(format!(
            "`{what}` on {threads} threads: nbench-divan times it on one thread only; give this \
             benchmark `threads = 1` or time it with `{shared}`"
        ));
    }
    threads == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_divans_sorted_and_each_once() {
        assert_eq!(resolve(vec![], || 8), [1]);
        assert_eq!(resolve(vec![0], || 8), [8]);
        assert_eq!(resolve(vec![4, 0, 1, 8, 1], || 8), [1, 4, 8]);
        assert_eq!(threads_of(0..=2), [0, 1, 2]);
        assert_eq!(threads_of(&[1usize, 4][..]), [1, 4]);
        assert!(within("a::b::c", "a::b") && within("a::b", "a::b"));
        assert!(!within("a::bc", "a::b"));
    }
}
