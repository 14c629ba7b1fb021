//! libtest's `#[bench]` functions written in a library's or a binary's
//! own source (`src/`), among its unit tests, which `cargo bench` builds
//! with libtest's harness and runs on a nightly toolchain (rayon's
//! `rayon-demo` holds its suite in its `src/main.rs`).

use super::{Features, LIBTEST_PACKAGE, features_off, package_root, path_deps};
use crate::model::target::{BenchTarget, Kind, LIB, Skipped};
use cargo_metadata::{Package, Target};
use std::path::Path;

/// The library and binaries of `pkg` whose source holds `#[bench]`
/// functions, as bench targets, each with its name, or why it is left
/// out; those `benches` names (all, where it names none) and that cargo
/// builds unit tests of (`built`: whether the library's, and the binaries
/// whose `[[bin]]` says `bench = false`, run only where named).
pub(super) fn unit_targets<'p>(
    pkg: &'p Package,
    benches: &[String],
    (lib_benched, unbenched_bins): (bool, &[String]),
    features: Features,
) -> Vec<(&'p str, Result<BenchTarget, Skipped>)> {
    let named = |name: &str| benches.iter().any(|b| super::pattern::names(b, name));
    // `--lib` alone names the library: no pattern does.
    let lib = (benches.is_empty() || benches.iter().any(|b| b == LIB)) && lib_benched;
    let lib = lib.then(|| lib_target(pkg, features)).flatten();
    let bins = (pkg.targets.iter().filter(|t| t.is_bin()))
        .filter(|t| !unbenched_bins.contains(&t.name) || named(&t.name))
        .filter(|t| benches.is_empty() || named(&t.name))
        .filter_map(|t| Some((t.name.as_str(), bin_target(pkg, t, features)?)));
    lib.map(|l| (LIB, l)).into_iter().chain(bins).collect()
}

/// `pkg`'s library as a bench target ([`LIB`]), where its source holds
/// libtest's `#[bench]` functions ([`unit_benches`]); left out, with why,
/// where the feature its benchmarks are built under is off.
fn lib_target(pkg: &Package, features: Features) -> Option<Result<BenchTarget, Skipped>> {
    let lib = pkg.targets.iter().find(|t| t.is_lib() || t.is_rlib())?;
    unit_target(pkg, lib, (Kind::Lib, LIB), features)
}

/// `pkg`'s binary `bin` as a bench target ([`Kind::Bin`], named as the
/// binary), where its source holds libtest's `#[bench]` functions; left
/// out, with why, where features it is built under are off.
fn bin_target(
    pkg: &Package,
    bin: &Target,
    features: Features,
) -> Option<Result<BenchTarget, Skipped>> {
    unit_target(pkg, bin, (Kind::Bin, &bin.name), features)
}

/// `pkg`'s target `t` as the bench target of its unit tests, of `kind`
/// and `name`, where its source holds `#[bench]` functions.
fn unit_target(
    pkg: &Package,
    t: &Target,
    (kind, name): (Kind, &str),
    features: Features,
) -> Option<Result<BenchTarget, Skipped>> {
    let root = package_root(pkg);
    let found = unit_benches(&root, t.src_path.as_std_path())?;
    let label = format!("{}/{name}", pkg.name);
    let whose = match kind {
        Kind::Bin => "its binary's",
        _ => "its library's",
    };
    let missing = features.missing(pkg, found.gate.as_slice());
    if let Some(gate) = missing.first() {
        let reason = format!(
            "{whose} `#[bench]` functions are built under feature `{gate}` only: add \
             `--features {gate}`"
        );
        return Some(Err(Skipped {
            label,
            reason,
            library: None,
        }));
    }
    // A binary cargo builds only with its required features.
    if let Some(reason) = features_off(pkg, t, "", features) {
        return Some(Err(Skipped {
            label,
            reason,
            library: None,
        }));
    }
    Some(Ok(BenchTarget {
        package: pkg.name.to_string(),
        spec: pkg.id.repr.clone(),
        name: name.to_owned(),
        kind,
        source: t.src_path.clone().into_std_path_buf(),
        package_root: root,
        path_deps: path_deps(pkg),
        front_ends: vec![LIBTEST_PACKAGE.to_owned()],
    }))
}

/// What a `--bench NAME` (or `--lib`, [`LIB`]) that names nothing is told.
pub(super) fn unmatched(name: &str) -> String {
    match name {
        LIB => "no library of the selected packages holds `#[bench]` functions (`--lib`)".into(),
        _ if name.contains(['*', '?']) => format!(
            "no bench target of the selected packages matches `{name}` (nor a binary holding \
             `#[bench]` functions)"
        ),
        _ => format!(
            "no bench target named `{name}` in the selected packages (nor a binary of that \
             name holding `#[bench]` functions)"
        ),
    }
}

/// Folders of a package that hold other targets, or no source.
const NOT_LIBRARY: [&str; 4] = ["target", "benches", "tests", "examples"];

/// What a library's or a binary's source says of its `#[bench]` functions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitBenches {
    /// The feature its crate root takes libtest under
    /// (`#![cfg_attr(all(test, feature = "nightly"), feature(test))]`):
    /// without it, its benchmarks are not built.
    pub gate: Option<String>,
}

/// Whether the library or binary of the package in `package` whose crate
/// root is `root` (`src/lib.rs`, `src/main.rs`) holds `#[bench]`
/// functions: its root takes libtest (`feature(test)`, which no `#[bench]`
/// builds without), and a Rust file of its folder, outside the folders of
/// the package's other targets (`benches/`, `src/bin/`, …), holds
/// `#[bench]`.
pub fn unit_benches(package: &Path, root: &Path) -> Option<UnitBenches> {
    let text = std::fs::read_to_string(root).ok()?;
    let takes = text.lines().find(|l| takes_libtest(l))?;
    let gate = gate(takes);
    if text.contains("#[bench]") {
        return Some(UnitBenches { gate });
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
            return Some(UnitBenches { gate });
        }
    }
    None
}

/// Whether a line of a crate root turns on libtest: `#![feature(test)]`,
/// or `#![cfg_attr(…, feature(test))]`.
pub(super) fn takes_libtest(line: &str) -> bool {
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
    /// [`unit_benches`] says of it.
    fn said(files: &[(&str, &str)]) -> Option<UnitBenches> {
        said_of("src/lib.rs", files)
    }

    /// What [`unit_benches`] says of the crate whose root is `root`, in a
    /// package of `files`.
    fn said_of(root: &str, files: &[(&str, &str)]) -> Option<UnitBenches> {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("nbench-unit-{}-{n}", std::process::id()));
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let found = unit_benches(&dir, &dir.join(root));
        std::fs::remove_dir_all(&dir).unwrap();
        found
    }

    #[test]
    fn a_library_whose_root_takes_libtest_and_whose_source_has_a_bench_has_benchmarks() {
        let plain = UnitBenches { gate: None };
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
        let nightly = UnitBenches {
            gate: Some("nightly".to_owned()),
        };
        assert_eq!(said(&[("src/lib.rs", root)]), Some(nightly));
    }

    #[test]
    fn a_binary_whose_root_takes_libtest_holds_the_benches_of_its_modules() {
        // rayon-demo's: `src/main.rs` takes libtest; its modules hold the benches.
        let root = "#![cfg_attr(test, feature(test))]\nmod sort;\nfn main() {}";
        let module = "#[bench]\nfn f(b: &mut test::Bencher) {}";
        let found = |files: &[(&str, &str)]| said_of("src/main.rs", files);
        let plain = Some(UnitBenches { gate: None });
        assert_eq!(
            found(&[("src/main.rs", root), ("src/sort.rs", module)]),
            plain
        );
        // Another binary's benches are not its own.
        assert_eq!(
            found(&[("src/main.rs", root), ("src/bin/x.rs", module)]),
            None
        );
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
