//! Bench targets: as discovered, as built, and as left out.

use std::path::PathBuf;

/// A bench target that should be an nbench one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchTarget {
    /// The package's name.
    pub package: String,
    /// The package as cargo's `--package` names it unambiguously: its
    /// package id (a bare name is ambiguous where the package is also a
    /// dependency of its own dev-dependencies, in another version).
    pub spec: String,
    /// The target's name (`--bench NAME`); [`LIB`] for the library's own
    /// unit tests, the binary's for a binary's.
    pub name: String,
    /// Which of its package's targets it is built from.
    pub kind: Kind,
    /// Its source file (`benches/NAME.rs`; the library's `src/lib.rs`, a
    /// binary's `src/main.rs`).
    pub source: PathBuf,
    /// The directory holding the package's Cargo.toml: the benchmark's working directory.
    pub package_root: PathBuf,
    /// The package's dependencies by path (dev-dependencies too): each by
    /// the name its features are turned on by, and its folder.
    pub path_deps: Vec<(String, PathBuf)>,
    /// The nbench packages its package depends on (`nbench`,
    /// `nbench-criterion`, `nbench-divan`): which entry its `main` should call.
    pub front_ends: Vec<String>,
}

/// The name a package's library takes as a bench target (`package/lib`):
/// its unit tests, where they hold libtest's `#[bench]` functions.
pub const LIB: &str = "lib";

/// Which of its package's targets a bench target is built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kind {
    /// A `[[bench]]` target: `cargo bench --bench NAME`.
    #[default]
    Bench,
    /// The library's unit tests, built by libtest's harness with the
    /// `#[bench]` functions of its source (`src/`): `cargo bench --lib`.
    Lib,
    /// A binary's unit tests, built by libtest's harness with the
    /// `#[bench]` functions of its source (rayon's `rayon-demo`, whose
    /// `src/main.rs` holds them): `cargo bench --bin NAME`, named as the
    /// binary is.
    Bin,
}

impl Kind {
    /// Whether it is built as its crate's unit tests (`--test`), from the
    /// source of a target that is built for itself too.
    pub fn unit_tests(self) -> bool {
        matches!(self, Kind::Lib | Kind::Bin)
    }
}

impl BenchTarget {
    /// `package/target`, how reports name it.
    pub fn label(&self) -> String {
        format!("{}/{}", self.package, self.name)
    }

    /// Why its executable, built, did not link the nbench harness: its
    /// `main` does not reach its front end.
    pub fn unlinked(&self) -> String {
        let uses = |p: &str| self.front_ends.iter().any(|f| f == p);
        if uses("nbench-criterion") {
            "it uses nbench-criterion, but nothing in it runs a benchmark through it (end the \
             file with `criterion_group!` and `criterion_main!`, or call `Criterion`'s \
             functions from its `main`)"
                .to_owned()
        } else if uses("nbench-divan") {
            "it uses nbench-divan, but its `main` does not call `divan::main()`".to_owned()
        } else if uses("nbench-gungraun") {
            "it uses nbench-gungraun, but its `main` is its own (end the file with \
             `main!(library_benchmark_groups = ...)`)"
                .to_owned()
        } else if uses("nbench-tango") {
            "it uses nbench-tango, but its `main` is its own (end the file with \
             `tango_benchmarks!(...)`)"
                .to_owned()
        } else if uses("nbench-bencher") {
            "it uses nbench-bencher, but its `main` is its own (end the file with \
             `benchmark_group!` and `benchmark_main!`)"
                .to_owned()
        } else if uses("nbench-iai") {
            "it uses nbench-iai, but its `main` is its own (end the file with `iai::main!(...)`)"
                .to_owned()
        } else if uses("nbench") {
            "it uses nbench, but its `main` is its own (end the file with `nbench::main!(...)`)"
                .to_owned()
        } else {
            "its executable does not link the nbench harness (criterion, divan, gungraun, tango, \
             bencher, iai or a hand-written main?)"
                .to_owned()
        }
    }
}

/// A bench target left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// `package/target`.
    pub label: String,
    /// Why, as a lowercase fragment.
    pub reason: String,
    /// The library it uses where that is why (`criterion`): a revision's
    /// build puts nbench's front end in its place.
    pub library: Option<&'static str>,
}

/// A built bench target.
#[derive(Debug, Clone)]
pub struct Built {
    /// What was built.
    pub target: BenchTarget,
    /// Its executable, as cargo linked it.
    pub exe: PathBuf,
    /// What a build of its package alone takes as `--features` to turn on
    /// what cargo turned on over every package selected: the package's own
    /// features, and `dep?/feature` for those of its dependencies by path.
    /// Its link layouts are built so.
    pub features: Vec<String>,
    /// The same code linked with its functions in other orders, for
    /// comparisons over layouts (empty: only `exe`).
    pub layouts: Vec<PathBuf>,
    /// Its package's binaries where cargo built them, the paths it gives a
    /// benchmark as `CARGO_BIN_EXE_<name>`: a benchmark may run them, and
    /// a baseline keeps copies of those its executables name
    /// (`store/bins.rs`).
    pub bins: Vec<PathBuf>,
}

impl Built {
    /// The executables a comparison samples: the layouts, or `exe` alone.
    pub fn comparison_exes(&self) -> Vec<PathBuf> {
        if self.layouts.is_empty() {
            vec![self.exe.clone()]
        } else {
            self.layouts.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_that_did_not_link_the_harness_is_told_what_its_front_end_needs() {
        let on = |front_ends: &[&str]| BenchTarget {
            package: "p".into(),
            spec: "p".into(),
            name: "b".into(),
            kind: Kind::Bench,
            source: PathBuf::from("p/benches/b.rs"),
            package_root: PathBuf::from("p"),
            path_deps: Vec::new(),
            front_ends: front_ends.iter().map(|f| f.to_string()).collect(),
        };
        let said = |front_ends: &[&str]| on(front_ends).unlinked();
        assert!(said(&["nbench-criterion"]).contains("`criterion_main!`"));
        assert!(said(&["nbench", "nbench-criterion"]).contains("`criterion_main!`"));
        assert!(said(&["nbench-divan"]).contains("`divan::main()`"));
        assert!(said(&["nbench"]).contains("`nbench::main!(...)`"));
        assert!(said(&[]).contains("does not link the nbench harness"));
    }
}
