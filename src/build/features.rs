//! The features a bench target's package takes when built alone (a link
//! layout, by `cargo rustc`) to be built as in the main build, where cargo
//! turned features on over every package selected: its own, and
//! `dep?/feature` for its dependencies by path (tracing-log's bench needs
//! tracing-subscriber's `env-filter`, which another member turns on).

use super::canonical;
use crate::model::target::BenchTarget;
use cargo_metadata::Artifact;
use std::path::PathBuf;

/// A library's folder and the features it was built with.
pub fn of_lib(a: &Artifact) -> Option<(PathBuf, Vec<String>)> {
    let t = &a.target;
    // A library's unit tests are built with the library's features.
    let lib = (t.is_lib() || t.is_rlib() || t.is_proc_macro()) && !a.profile.test;
    let dir = a.manifest_path.parent()?.as_std_path();
    lib.then(|| (canonical(dir), a.features.clone()))
}

/// `dep?/feature` for each feature `libs` (as built) gave each of
/// `target`'s dependencies by path.
pub fn of_dependencies(target: &BenchTarget, libs: &[(PathBuf, Vec<String>)]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, dir) in &target.path_deps {
        let dir = canonical(dir);
        let built = libs.iter().filter(|(d, _)| *d == dir);
        for f in built.flat_map(|(_, f)| f) {
            out.push(format!("{name}?/{f}"));
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dependency_by_path_takes_the_features_it_was_built_with_where_it_is_on() {
        let dep = |name: &str, dir: &str| (name.to_owned(), PathBuf::from(dir));
        let target = BenchTarget {
            package: "p".into(),
            spec: "p".into(),
            name: "b".into(),
            kind: crate::model::target::Kind::Bench,
            source: PathBuf::new(),
            package_root: PathBuf::from("/nonexistent-ws/p"),
            // `twice` renamed `renamed`; `absent` was not built.
            path_deps: vec![
                dep("core", "/nonexistent-ws/core"),
                dep("renamed", "/nonexistent-ws/twice"),
                dep("absent", "/nonexistent-ws/none"),
            ],
            front_ends: Vec::new(),
        };
        let lib = |dir: &str, f: &[&str]| {
            (
                PathBuf::from(dir),
                f.iter().map(|f| f.to_string()).collect(),
            )
        };
        let libs = vec![
            lib("/nonexistent-ws/core", &["std", "extra"]),
            lib("/nonexistent-ws/twice", &["a"]),
            lib("/nonexistent-ws/unrelated", &["z"]),
        ];
        assert_eq!(
            of_dependencies(&target, &libs),
            ["core?/extra", "core?/std", "renamed?/a"]
        );
    }
}
