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
    /// The target's name (`--bench NAME`).
    pub name: String,
    /// The directory holding the package's Cargo.toml: the benchmark's working directory.
    pub package_root: PathBuf,
    /// The package's dependencies by path (dev-dependencies too): each by
    /// the name its features are turned on by, and its folder.
    pub path_deps: Vec<(String, PathBuf)>,
}

impl BenchTarget {
    /// `package/target`, how reports name it.
    pub fn label(&self) -> String {
        format!("{}/{}", self.package, self.name)
    }
}

/// A bench target left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// `package/target`.
    pub label: String,
    /// Why, as a lowercase fragment.
    pub reason: String,
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
