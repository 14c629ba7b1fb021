//! Why a revision's build failed where nbench's front end was swapped in
//! ([`super::swap`]): cargo could not get the front end, or a feature of
//! it; the suite uses something it lacks; or the failure lies in code that
//! does not use it at all.

use crate::discover::{FRONT_ENDS, FrontEnd};
use crate::model::context::SwapRecord;

/// The front end a swapped build's first error names as its item: cargo
/// could not get nbench's crate itself (no network for the published
/// line, a folder that is not there), rather than the suite needing what
/// the crate lacks.
pub fn front_end_not_got(error: &str, swap: &SwapRecord) -> Option<&'static FrontEnd> {
    let item = missing_item(error)?;
    (FRONT_ENDS.iter()).find(|f| f.package == item && swap.libraries.iter().any(|l| l == f.library))
}

/// The front end and the feature of it a swapped build's manifests ask for
/// that it does not have (cargo: "depends on `nbench-divan` with feature
/// `internal_benches` but `nbench-divan` does not have that feature").
pub fn feature_not_had<'a>(error: &'a str, swap: &SwapRecord) -> Option<(&'static str, &'a str)> {
    let start = error.find("with feature `")? + "with feature `".len();
    let feature = &error[start..start + error[start..].find('`')?];
    let rest = &error[start..];
    let front = (FRONT_ENDS.iter()).find(|f| {
        swap.libraries.iter().any(|l| l == f.library)
            && rest.contains(&format!("`{}` does not have that feature", f.package))
    })?;
    Some((front.package, feature))
}

/// Whether a swapped build failed in code that does not use the front end:
/// a library, binary or build script of a package not nbench's own (cargo
/// builds those without dev-dependencies). A revision whose own code no
/// longer builds is not the front end's doing.
pub fn failed_without_front_end(error: &str) -> bool {
    let Some((package, kind)) = super::marked::failed_unit(error) else {
        return false;
    };
    let dev = ["test", "bench", "example"]
        .iter()
        .any(|k| kind.contains(k));
    let ours = package == "nbench" || FRONT_ENDS.iter().any(|f| f.package == package);
    !dev && !ours
}

/// Whether a swapped build's first error names an item by a path from a
/// crate that is neither a front end's library nor nbench's
/// (`rand::RngCore`, gone from the version cargo resolved today): the
/// suite's own dependency failed it, not the front end. A path from the
/// suite itself (`crate::`, `self::`, `super::`) says nothing either way.
pub fn names_another_crate(error: &str, swap: &SwapRecord) -> bool {
    let Some(root) = item_crate(error) else {
        return false;
    };
    let crate_name = |n: &str| n.replace('-', "_");
    let front_end = (FRONT_ENDS.iter())
        .flat_map(|f| f.names().chain([f.package]))
        .map(crate_name)
        .chain((swap.libraries.iter().chain(&swap.declared)).map(|n| crate_name(n)))
        .chain([
            "nbench".to_owned(),
            "crate".into(),
            "self".into(),
            "super".into(),
        ])
        .any(|n| n == root);
    !root.is_empty() && !front_end
}

/// The package whose build script a build failed in (compiling it, or
/// running it).
pub fn failed_build_script(error: &str) -> Option<&str> {
    let (package, kind) = super::marked::failed_unit(error)?;
    (kind == "build script").then_some(package)
}

/// The dependency whose code a failed build's first error lies in (its
/// crate's folder, `compact_str-0.9.1`), where it lies in one's.
pub fn failed_dependency(error: &str) -> Option<&str> {
    super::marked::dependency(error)
}

/// The package cargo could not get, where that is what a build failed on
/// (cargo: "failed to get `mozjs` as a dependency of package `…`", or of
/// a git source in `[patch]`: "failed to load source for dependency
/// `bytecheck`"): the network, or a source that is gone, not the code.
pub fn dependency_not_got(error: &str) -> Option<&str> {
    const SAID: [&str; 2] = ["failed to get `", "failed to load source for dependency `"];
    let start = SAID.iter().find_map(|s| Some(error.find(s)? + s.len()))?;
    let len = error[start..].find('`')?;
    Some(&error[start..start + len])
}

/// The crate whose path the item a compiler error names first starts
/// with (`rand` of `rand::RngCore`), if it is a path.
pub fn item_crate(error: &str) -> Option<&str> {
    // A type, as the compiler writes it: `(dyn nbench::bencher::Driver + 'static)`.
    let path = missing_item(error)?.trim_start_matches(['(', '&']);
    let path = ["mut ", "dyn ", "impl "]
        .iter()
        .fold(path, |p, word| p.strip_prefix(word).unwrap_or(p));
    path.split_once("::").map(|(root, _)| root)
}

/// The item a compiler error names first (`` `with_plots` ``), if any.
pub fn missing_item(error: &str) -> Option<&str> {
    let start = error.find('`')? + 1;
    let len = error[start..].find('`')?;
    Some(&error[start..start + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_outside_the_suite_is_not_the_front_ends() {
        let said = |unit: &str| format!("error: unexpected `cfg` (compiling {unit})");
        assert!(failed_without_front_end(&said("`base64` (lib)")));
        assert!(failed_without_front_end(&said("`x` (build script)")));
        assert!(failed_without_front_end(&said("`x` (bin \"x\")")));
        assert!(!failed_without_front_end(&said("`x` (bench \"b\")")));
        assert!(!failed_without_front_end(&said("`x` (lib test)")));
        assert!(!failed_without_front_end(&said("`x` (example \"e\")")));
        assert!(!failed_without_front_end(&said("`nbench-criterion` (lib)")));
        assert!(!failed_without_front_end("error[E0432]: unresolved import"));
    }

    /// A swap of `library` alone.
    fn swapped(library: &str) -> SwapRecord {
        SwapRecord {
            libraries: vec![library.into()],
            ..SwapRecord::default()
        }
    }

    #[test]
    fn an_item_of_another_crate_is_not_the_front_ends() {
        let swap = swapped("criterion");
        // As rustc said it of curve25519-dalek's bench, rand having changed.
        let rand = "error[E0432]: unresolved imports `rand::RngCore`, `rand::TryRngCore`";
        assert!(names_another_crate(rand, &swap));
        let criterion = "error[E0432]: unresolved import `criterion::async_executor`";
        assert!(!names_another_crate(criterion, &swap));
        let renamed = "error[E0433]: failed to resolve: could not find `x` in `iai_callgrind`";
        assert!(!names_another_crate(renamed, &swap));
        let method = "error[E0599]: no method named `with_foo` found for struct `Criterion`";
        assert!(!names_another_crate(method, &swap));
        let own = "error[E0432]: unresolved import `crate::helpers`";
        assert!(!names_another_crate(own, &swap));
        // As rustc said it of paralight's suite, which takes criterion's
        // `Bencher` to a rayon thread.
        let send = "error[E0277]: `(dyn nbench::bencher::Driver + 'static)` cannot be sent \
                    between threads safely";
        assert_eq!(item_crate(send), Some("nbench"));
        assert!(!names_another_crate(send, &swap));
        let boxed = "error[E0277]: `&mut dyn rand::RngCore` cannot be shared";
        assert_eq!(item_crate(boxed), Some("rand"));
    }

    #[test]
    fn a_dependency_cargo_could_not_get_is_named() {
        // As cargo said it of pulldown-cmark's fuzz member, with no network.
        let said = ": error: failed to get `mozjs` as a dependency of package \
                    `pulldown-cmark-fuzz v0.0.0 (/tmp/pdc/fuzz)`";
        assert_eq!(dependency_not_got(said), Some("mozjs"));
        // As cargo said it of rkyv's `[patch.crates-io]` git sources, with no network.
        let patched = ": error: failed to load source for dependency `bytecheck`";
        assert_eq!(dependency_not_got(patched), Some("bytecheck"));
        assert_eq!(
            dependency_not_got(": error[E0599]: no `Regex` in `x`"),
            None
        );
    }

    #[test]
    fn the_missing_item_is_the_first_one_the_error_names() {
        let e = "error[E0599]: no method named `with_foo` found for struct `Criterion` in the current scope";
        assert_eq!(missing_item(e), Some("with_foo"));
        assert_eq!(missing_item("error: linking failed"), None);
    }

    #[test]
    fn a_first_error_naming_the_front_end_itself_says_it_was_not_got() {
        let swap = swapped("divan");
        let fetch = ": error: failed to get `nbench-divan` as a dependency of package `b v0.0.0`";
        assert_eq!(front_end_not_got(fetch, &swap), Some(&FRONT_ENDS[1]));
        // The suite needing what the front end lacks; a library not swapped.
        let lacks = ": error[E0599]: no method named `with_foo` found for struct `Divan`";
        assert_eq!(front_end_not_got(lacks, &swap), None);
        let other = ": error: failed to get `nbench-criterion` as a dependency of package `b`";
        assert_eq!(front_end_not_got(other, &swap), None);
    }

    #[test]
    fn a_feature_the_front_end_lacks_is_named() {
        let swap = swapped("divan");
        // What cargo said building divan's own repository with nbench-divan.
        let error = "error: failed to select a version for `nbench-divan`.\n    ... required by \
                     package `internal_benches v0.0.0`\npackage `internal_benches` depends on \
                     `nbench-divan` with feature `internal_benches` but `nbench-divan` does not \
                     have that feature.";
        assert_eq!(
            feature_not_had(error, &swap),
            Some(("nbench-divan", "internal_benches"))
        );
        let criterion = swapped("criterion");
        assert_eq!(feature_not_had(error, &criterion), None);
        assert_eq!(
            feature_not_had("error: failed to get `nbench-divan`", &swap),
            None
        );
    }
}
