//! The benchmark libraries a suite may use, and nbench's crate that takes
//! each one's place.

/// The package a criterion suite runs on, under criterion's name.
pub const COMPAT_PACKAGE: &str = "nbench-criterion";

/// The package a divan suite runs on, under divan's name.
pub const DIVAN_PACKAGE: &str = "nbench-divan";

/// The package a gungraun (or iai-callgrind) suite runs on, under its name.
pub const GUNGRAUN_PACKAGE: &str = "nbench-gungraun";

/// The package a tango suite runs on, under tango-bench's name.
pub const TANGO_PACKAGE: &str = "nbench-tango";

/// The package a bencher suite runs on, under bencher's name.
pub const BENCHER_PACKAGE: &str = "nbench-bencher";

/// The package an iai suite runs on, under iai's name.
pub const IAI_PACKAGE: &str = "nbench-iai";

/// The package cargo nbench gives a suite of libtest's own `#[bench]`
/// functions in `test`'s place (it builds it itself: the suite's manifest
/// does not name it).
pub const LIBTEST_PACKAGE: &str = "nbench-libtest";

/// libtest, the library nbench-libtest takes the place of: not among
/// [`FRONT_ENDS`], which a revision's manifests are swapped for, since no
/// manifest names it.
pub static LIBTEST: FrontEnd = FrontEnd {
    library: "test",
    also: &[],
    package: LIBTEST_PACKAGE,
    env: "NBENCH_LIBTEST",
    published: crate::error::LIBTEST_DEPENDENCY,
    folder: "compat/libtest",
    unifies: &[],
};

/// A benchmark library and nbench's crate that takes its place.
#[derive(Debug, PartialEq)]
pub struct FrontEnd {
    /// The library's package name (`criterion`).
    pub library: &'static str,
    /// Other packages with the library's API that a suite may use (under
    /// the library's name, as CodSpeed's compatibility crates, or under
    /// their own, as iai-callgrind, gungraun's earlier name).
    pub also: &'static [&'static str],
    /// nbench's crate with its API (`nbench-criterion`).
    pub package: &'static str,
    /// The variable naming a folder to take nbench's crate from (for a
    /// fork, or to build without the network).
    pub env: &'static str,
    /// The published dependency line.
    pub published: &'static str,
    /// Its folder in cargo nbench's repository.
    pub folder: &'static str,
    /// Dependencies of the library whose features it turns on for the
    /// whole build, which a suite may lean on without asking for them.
    pub unifies: &'static [Unified],
}

/// A dependency of a benchmark library whose features the library turns
/// on for every package of the build that takes the same package: a
/// suite's own entry of it may ask for no default features and still
/// build with them (bincode's benches ask serde_json for none; criterion's
/// serde_json has `std`, without which serde_json stops the build).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unified {
    /// The package (`serde_json`).
    pub package: &'static str,
    /// The line of versions the library takes (`1`, `0.2`): an entry on
    /// another line is another package to cargo and shares nothing.
    pub line: &'static str,
    /// The features it turns on, each among the package's defaults.
    pub features: &'static [&'static str],
}

/// num-traits' `std`: criterion and tango-bench take num-traits 0.2 with it.
const NUM_TRAITS_STD: Unified = Unified {
    package: "num-traits",
    line: "0.2",
    features: &["std"],
};

/// What criterion (0.3 to 0.8) turns on for the build: the `std` of the
/// crates it takes that a `no_std` suite may take without it.
const CRITERION_UNIFIES: [Unified; 4] = [
    Unified {
        package: "serde",
        line: "1",
        features: &["std"],
    },
    Unified {
        package: "serde_json",
        line: "1",
        features: &["std"],
    },
    NUM_TRAITS_STD,
    Unified {
        package: "regex",
        line: "1",
        features: &["std"],
    },
];

impl FrontEnd {
    /// The library's names: its own, then those it had or goes by
    /// (`iai-callgrind` for gungraun).
    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.library).chain(self.also.iter().copied())
    }

    /// The library's name `name` is, if it is one of [`FrontEnd::names`].
    pub fn named(&self, name: &str) -> Option<&'static str> {
        self.names().find(|n| *n == name)
    }

    /// The published line, under the name `key` a suite gives the library
    /// (`iai-callgrind = { package = "nbench-gungraun", … }`).
    pub fn line_as(&self, key: &str) -> String {
        let rest = self
            .published
            .strip_prefix(self.library)
            .unwrap_or(self.published);
        format!("{key}{rest}")
    }
}

/// Packages of [`FRONT_ENDS`]' names whose library goes by another name:
/// the crate name a suite's code uses where its entry does not rename it
/// (criterion2's library is `criterion`: `use criterion::…`).
const CRATE_NAMES: [(&str, &str); 1] = [("criterion2", "criterion")];

/// The crate name a suite's code uses for package `package` where its
/// dependency entry does not rename it, if that is not the package's own.
pub fn crate_name(package: &str) -> Option<&'static str> {
    (CRATE_NAMES.iter()).find_map(|(p, c)| (*p == package).then_some(*c))
}

/// The libraries a suite may use, and what takes their place.
pub const FRONT_ENDS: [FrontEnd; 6] = [
    FrontEnd {
        library: "criterion",
        also: &["codspeed-criterion-compat", "criterion2"],
        package: COMPAT_PACKAGE,
        env: "NBENCH_CRITERION",
        published: crate::error::COMPAT_DEPENDENCY,
        folder: "compat/criterion",
        unifies: &CRITERION_UNIFIES,
    },
    FrontEnd {
        library: "divan",
        also: &["codspeed-divan-compat"],
        package: DIVAN_PACKAGE,
        env: "NBENCH_DIVAN",
        published: crate::error::DIVAN_DEPENDENCY,
        folder: "compat/divan",
        unifies: &[],
    },
    FrontEnd {
        library: "gungraun",
        also: &["iai-callgrind"],
        package: GUNGRAUN_PACKAGE,
        env: "NBENCH_GUNGRAUN",
        published: crate::error::GUNGRAUN_DEPENDENCY,
        folder: "compat/gungraun",
        unifies: &[],
    },
    FrontEnd {
        library: "tango-bench",
        also: &[],
        package: TANGO_PACKAGE,
        env: "NBENCH_TANGO",
        published: crate::error::TANGO_DEPENDENCY,
        folder: "compat/tango",
        unifies: &[NUM_TRAITS_STD],
    },
    FrontEnd {
        library: "bencher",
        also: &[],
        package: BENCHER_PACKAGE,
        env: "NBENCH_BENCHER",
        published: crate::error::BENCHER_DEPENDENCY,
        folder: "compat/bencher",
        unifies: &[],
    },
    FrontEnd {
        library: "iai",
        also: &[],
        package: IAI_PACKAGE,
        env: "NBENCH_IAI",
        published: crate::error::IAI_DEPENDENCY,
        folder: "compat/iai",
        unifies: &[],
    },
];

/// Benchmark libraries no front end takes the place of: a target whose
/// source uses one of them is left out as using it (lz4_flex's
/// `binggan_bench`, whose own `main` drives binggan, in a package that also
/// takes criterion).
pub const FOREIGN: [&str; 6] = [
    "binggan",
    "criterion2",
    "glassbench",
    "brunch",
    "easybench",
    "microbench",
];
