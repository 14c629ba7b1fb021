//! A library's own `#[bench]` functions: libtest's benchmarks written in
//! its source (`src/`), among its unit tests, which `cargo bench` builds
//! with libtest's harness and runs on a nightly toolchain.

use super::{Features, LIBTEST_PACKAGE, package_root, path_deps};
use crate::model::target::{BenchTarget, Kind, LIB, Skipped};
use cargo_metadata::Package;
use std::path::Path;

/// `pkg`'s library as a bench target ([`LIB`]), where its source holds
/// libtest's `#[bench]` functions ([`lib_benches`]); left out, with why,
/// where the feature its benchmarks are built under is off.
pub(super) fn lib_target(
    pkg: &Package,
    features: Features,
) -> Option<Result<BenchTarget, Skipped>> {
    let lib = pkg.targets.iter().find(|t| t.is_lib() || t.is_rlib())?;
    let root = package_root(pkg);
    let found = lib_benches(&root, lib.src_path.as_std_path())?;
    let missing = features.missing(pkg, found.gate.as_slice());
    if let Some(gate) = missing.first() {
        return Some(Err(Skipped {
            label: format!("{}/{LIB}", pkg.name),
            reason: format!(
                "its library's `#[bench]` functions are built under feature `{gate}` only: add \
                 `--features {gate}`"
            ),
        }));
    }
    Some(Ok(BenchTarget {
        package: pkg.name.to_string(),
        spec: pkg.id.repr.clone(),
        name: LIB.to_owned(),
        kind: Kind::Lib,
        source: lib.src_path.clone().into_std_path_buf(),
        package_root: root,
        path_deps: path_deps(pkg),
        front_ends: vec![LIBTEST_PACKAGE.to_owned()],
    }))
}

/// What a `--bench NAME` (or `--lib`, [`LIB`]) that names nothing is told.
pub(super) fn unmatched(name: &str) -> String {
    match name {
        LIB => "no library of the selected packages holds `#[bench]` functions (`--lib`)".into(),
        _ => format!("no bench target named `{name}` in the selected packages"),
    }
}

/// Folders of a package that hold other targets, or no source.
const NOT_LIBRARY: [&str; 4] = ["target", "benches", "tests", "examples"];

/// What a library's source says of its `#[bench]` functions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibBenches {
    /// The feature its crate root takes libtest under
    /// (`#![cfg_attr(all(test, feature = "nightly"), feature(test))]`):
    /// without it, its benchmarks are not built.
    pub gate: Option<String>,
}

/// Whether the library of the package in `package` whose crate root is
/// `root` (`src/lib.rs`) holds `#[bench]` functions: its root takes
/// libtest (`feature(test)`, which no `#[bench]` builds without), and a
/// Rust file of its folder, outside the folders of the package's other
/// targets (`benches/`, `src/bin/`, …), holds `#[bench]`.
pub fn lib_benches(package: &Path, root: &Path) -> Option<LibBenches> {
    let text = std::fs::read_to_string(root).ok()?;
    let takes = text.lines().find(|l| takes_libtest(l))?;
    let gate = gate(takes);
    if text.contains("#[bench]") {
        return Some(LibBenches { gate });
    }
    let dir = root.parent()?;
    // The root, read above, and the other targets' folders.
    let others: Vec<_> = (NOT_LIBRARY.iter().map(|d| package.join(d)))
        .chain([dir.join("bin"), root.to_path_buf()])
        .collect();
    let files = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| {
            let hidden = e.depth() > 0 && e.file_name().to_string_lossy().starts_with('.');
            !hidden && !others.iter().any(|o| o == e.path())
        })
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && e.path().extension() == Some("rs".as_ref()));
    for f in files {
        let text = std::fs::read_to_string(f.path()).unwrap_or_default();
        if text.contains("#[bench]") {
            return Some(LibBenches { gate });
        }
    }
    None
}

/// Whether a line of a crate root turns on libtest: `#![feature(test)]`,
/// or `#![cfg_attr(…, feature(test))]`.
fn takes_libtest(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("#![") && line.replace(' ', "").contains("feature(test)")
}

/// The feature named in the condition of a crate attribute's line that
/// takes libtest (`feature = "nightly"`), where it names one.
fn gate(line: &str) -> Option<String> {
    let compact = line.replace(' ', "");
    let at = compact.find("feature=\"")? + "feature=\"".len();
    let name = &compact[at..];
    Some(name[..name.find('"')?].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A library in a folder of its own: its files, by path, and what
    /// [`lib_benches`] says of it.
    fn said(files: &[(&str, &str)]) -> Option<LibBenches> {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("nbench-lib-{}-{n}", std::process::id()));
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let found = lib_benches(&dir, &dir.join("src/lib.rs"));
        std::fs::remove_dir_all(&dir).unwrap();
        found
    }

    #[test]
    fn a_library_whose_root_takes_libtest_and_whose_source_has_a_bench_has_benchmarks() {
        let plain = LibBenches { gate: None };
        let root =
            "#![feature(test)]\nextern crate test;\n#[bench]\nfn f(b: &mut test::Bencher) {}";
        assert_eq!(said(&[("src/lib.rs", root)]), Some(plain.clone()));
        // In a module of its own.
        let root = "#![cfg_attr(test, feature(test))]\nmod benches;\n";
        let module = "#[bench]\nfn f(b: &mut test::Bencher) {}";
        let files = [("src/lib.rs", root), ("src/benches/mod.rs", module)];
        assert_eq!(said(&files), Some(plain));
        // Behind a feature.
        let root = "#![cfg_attr(all(test, feature = \"nightly\"), feature(test))]\n#[bench]";
        let nightly = LibBenches {
            gate: Some("nightly".to_owned()),
        };
        assert_eq!(said(&[("src/lib.rs", root)]), Some(nightly));
    }

    #[test]
    fn a_bench_elsewhere_or_a_root_without_libtest_is_no_library_benchmark() {
        // The text `#[bench]` in a library that does not take libtest
        // (a macro crate that reads such attributes, say).
        let root = "//! Reads `#[bench]` attributes.\npub fn f() {}";
        assert_eq!(said(&[("src/lib.rs", root)]), None);
        // Libtest taken, a `#[bench]` only in other targets' folders.
        let root = "#![cfg_attr(test, feature(test))]\n";
        let bench = "#[bench]\nfn f(b: &mut test::Bencher) {}";
        let files = [
            ("src/lib.rs", root),
            ("src/bin/tool.rs", bench),
            ("benches/x.rs", bench),
        ];
        assert_eq!(said(&files), None);
        // A root that only mentions the feature in a comment.
        let root = "// see feature(test)\n#[bench]\nfn f() {}";
        assert_eq!(said(&[("src/lib.rs", root)]), None);
    }
}
