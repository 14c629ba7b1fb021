//! What a bench target's source file says it uses: which of its
//! package's benchmark libraries, one no front end runs, or none (a
//! program of its own).

use super::front_ends::{self, FRONT_ENDS, FrontEnd};
use cargo_metadata::{Dependency, Package};

/// The benchmark library a bench target of `pkg` whose source file is
/// `source` uses, and the name the package gives it: of those the package
/// depends on, the one whose name the source uses (`use gungraun::…`,
/// `criterion::black_box`), else the first. glam's package takes criterion
/// and gungraun, and its `gungraun` target was said to use criterion.
pub(super) fn library_of<'p>(
    pkg: &'p Package,
    source: &str,
) -> Option<(&'static FrontEnd, &'p str)> {
    let libraries: Vec<(&'static FrontEnd, &str)> = (pkg.dependencies.iter())
        .filter_map(|d| {
            let front = (FRONT_ENDS.iter()).find(|f| f.named(&d.name).is_some())?;
            Some((front, key(d)))
        })
        .collect();
    let named = libraries.iter().find(|(_, key)| names(source, key));
    named.or(libraries.first()).copied()
}

/// The library of [`FOREIGN`] a bench target of `pkg` whose source file is
/// `source` uses: one the package depends on whose name the source uses,
/// where it uses the name of none of the package's libraries nbench runs
/// (nor nbench's own).
pub(super) fn foreign_library<'p>(pkg: &'p Package, source: &str) -> Option<&'p str> {
    if (pkg.dependencies.iter()).any(|d| runnable(d) && names(source, key(d))) {
        return None;
    }
    (pkg.dependencies.iter())
        .filter(|d| foreign(d))
        .map(key)
        .find(|k| names(source, k))
}

/// Whether dependency `d` is a benchmark library nbench runs: nbench, a
/// front end, or a library a front end stands in for.
fn runnable(d: &Dependency) -> bool {
    d.name == "nbench"
        || (FRONT_ENDS.iter()).any(|f| f.package == d.name || f.named(&d.name).is_some())
}

/// Whether dependency `d` is a benchmark library no front end stands in for.
fn foreign(d: &Dependency) -> bool {
    front_ends::FOREIGN.contains(&d.name.as_str())
}

/// Whether a bench target of `pkg` whose source file is `source` is a
/// program of its own: it defines `main`, keeps no code in other files
/// (`mod`, `include!`), and names neither nbench nor any benchmark library
/// its package depends on, but for the library's `black_box`. papaya's
/// `latency` target prints percentiles from hdrhistogram; it was said to
/// use criterion, and once criterion was swapped, to not reach it.
/// arc-swap's `int-access` takes `criterion::black_box` alone.
pub(super) fn a_program_of_its_own(pkg: &Package, source: &str) -> bool {
    let elsewhere = source.contains("mod ") || source.contains("include!");
    source.contains("fn main(")
        && !elsewhere
        && !source.contains("nbench")
        && !(pkg.dependencies.iter())
            .filter(|d| runnable(d) || foreign(d))
            .any(|d| {
                let key = key(d).replace('-', "_");
                (source.replace(&format!("{key}::black_box"), "")).contains(&key)
            })
}

/// Whether a bench target of `pkg` whose source file is `source` runs
/// iai-callgrind's first binary benchmarks (`benchmark = |group| …`,
/// with `Run` and `Arg`), which nbench-gungraun does not read: its
/// package takes gungraun (or iai-callgrind, or nbench-gungraun).
pub(super) fn first_binary_benchmarks(pkg: &Package, source: &str) -> bool {
    let gungraun = (FRONT_ENDS.iter()).find(|f| f.library == "gungraun");
    let compact: String = source.split_whitespace().collect();
    compact.contains("binary_benchmark_group!")
        && compact.contains("benchmark=|")
        && gungraun.is_some_and(|f| {
            (pkg.dependencies.iter()).any(|d| d.name == f.package || f.named(&d.name).is_some())
        })
}

/// The name a package gives dependency `d` (its `package = …` entry's key).
fn key(d: &Dependency) -> &str {
    d.rename.as_deref().unwrap_or(&d.name)
}

/// Whether `source` names the crate a package calls `key` (`key::…`).
fn names(source: &str, key: &str) -> bool {
    source.contains(&format!("{}::", key.replace('-', "_")))
}
