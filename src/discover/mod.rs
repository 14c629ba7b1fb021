//! Finding the bench targets to run: `cargo metadata` for packages and targets, the manifests for `harness = false`.

use crate::error::{Error, Result};
use crate::model::target::{BenchTarget, Kind, Skipped};
use cargo_metadata::{Metadata, MetadataCommand, Package};
use std::path::{Path, PathBuf};

mod cargo_said;
mod features;
pub mod front_ends;
mod inherited;
mod manifests;
mod outside;
pub mod pattern;
mod source;
mod submodule;
mod unit_benches;

use features::features_off;
pub use features::{Features, each_feature, present_and_absent};
pub use front_ends::{FRONT_ENDS, FrontEnd, LIBTEST, LIBTEST_PACKAGE, Unified, crate_name};
pub use manifests::manifests;
use source::{a_program_of_its_own, first_binary_benchmarks, foreign_library, library_of};

/// Where the workspace is and how cargo may read it (cargo's manifest options).
#[derive(Debug, Clone, Default)]
pub struct Manifest {
    /// `--manifest-path`.
    pub manifest_path: Option<PathBuf>,
    /// `--target-dir`.
    pub target_dir: Option<PathBuf>,
    /// `--locked`.
    pub locked: bool,
    /// `--offline`.
    pub offline: bool,
    /// `--frozen`: both of the above.
    pub frozen: bool,
}

/// Which packages and bench targets (cargo's selection flags).
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// `-p SPEC`.
    pub packages: Vec<String>,
    /// `--workspace`.
    pub workspace: bool,
    /// `--exclude SPEC`.
    pub exclude: Vec<String>,
    /// `--bench NAME` (a name, or a pattern of names: [`pattern`]);
    /// [`LIB`] for `--lib`.
    pub benches: Vec<String>,
}

impl Selection {
    /// Whether `--bench` names the bench target `name`: it names none (all
    /// are), or one of its values is `name` or a pattern `name` fits.
    pub fn names(&self, name: &str) -> bool {
        self.benches.is_empty() || self.benches.iter().any(|b| pattern::names(b, name))
    }

    /// Whether the bench target `label` (`package/target`) is one this
    /// selection names, for commands that pick from saved targets instead
    /// of the workspace (`compare A B`): `-p`, `--exclude` and `--bench`.
    pub fn picks(&self, label: &str) -> bool {
        let (package, name) = label.split_once('/').unwrap_or((label, ""));
        let named = |specs: &[String]| specs.iter().any(|s| spec_name(s) == package);
        (self.packages.is_empty() || named(&self.packages))
            && !named(&self.exclude)
            && self.names(name)
    }
}

/// The package name in a package spec (`name`, `name@1.2`).
pub fn spec_name(spec: &str) -> &str {
    spec.split('@').next().unwrap_or(spec)
}

/// What discovery found.
#[derive(Debug)]
pub struct Discovery {
    /// Targets to build and run.
    pub targets: Vec<BenchTarget>,
    /// Every package selected, as cargo's `--package` names it: cargo
    /// turns features on over all of them, as `cargo bench` would (another
    /// member may turn on the feature a bench target needs).
    pub packages: Vec<String>,
    /// Targets left out.
    pub skipped: Vec<Skipped>,
    /// cargo's target directory (`--target-dir` or the workspace's).
    pub target_dir: PathBuf,
    /// The workspace root.
    pub workspace_root: PathBuf,
    /// The nbench packages the targets' packages depend on (`nbench`,
    /// `nbench-criterion`, `nbench-divan`), sorted: the front ends they run on.
    pub front_ends: Vec<String>,
}

/// `cargo metadata --no-deps` for the workspace these flags name.
pub fn metadata(cli: &Manifest) -> Result<Metadata> {
    let mut cmd = MetadataCommand::new();
    cmd.no_deps();
    if let Some(path) = &cli.manifest_path {
        cmd.manifest_path(path);
    }
    if let Ok(cargo) = std::env::var("CARGO") {
        cmd.cargo_path(cargo);
    }
    let mut other = Vec::new();
    if cli.locked || cli.frozen {
        other.push("--locked".to_owned());
    }
    if cli.offline || cli.frozen {
        other.push("--offline".to_owned());
    }
    cmd.other_options(other);
    cmd.exec().map_err(|e| {
        let (text, advice) = cargo_said::cargo_said(&e.to_string());
        if text.contains("could not find `Cargo.toml`") {
            Error::Usage(format!(
                "{text}: run cargo nbench in a cargo project, or point --manifest-path at one"
            ))
        } else if let Some(member) = submodule::unfilled_member(&text) {
            Error::Submodule(member)
        } else {
            Error::Metadata { said: text, advice }
        }
    })
}

/// cargo's target directory for these flags.
pub fn target_dir(cli: &Manifest, meta: &Metadata) -> PathBuf {
    match &cli.target_dir {
        Some(dir) => std::env::current_dir()
            .map(|cwd| cwd.join(dir))
            .unwrap_or_else(|_| dir.clone()),
        None => meta.target_directory.as_std_path().to_path_buf(),
    }
}

/// The packages a change to the workspace can touch: its members and the
/// path dependencies they name (a crate beside them, in the same
/// repository), each once.
pub fn own_packages(meta: &Metadata) -> Vec<String> {
    let members = meta.workspace_packages();
    let paths = (members.iter())
        .flat_map(|p| &p.dependencies)
        .filter(|d| d.path.is_some())
        .map(|d| d.name.clone());
    let mut names: Vec<String> = (members.iter().map(|p| p.name.to_string()))
        .chain(paths)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// `pkg`'s dependencies by path, each by the name its features are turned
/// on by (its rename, if it has one) and its folder; not itself.
fn path_deps(pkg: &Package) -> Vec<(String, PathBuf)> {
    let own = pkg.manifest_path.parent();
    (pkg.dependencies.iter())
        .filter_map(|d| Some((d, d.path.as_ref()?)))
        .filter(|(_, path)| Some(path.as_path()) != own)
        .map(|(d, path)| {
            let name = d.rename.clone().unwrap_or_else(|| d.name.clone());
            (name, path.as_std_path().to_path_buf())
        })
        .collect()
}

/// Reads the workspace and picks bench targets as `cargo bench` would for these flags.
pub fn discover(
    cli: &Selection,
    features: Features,
    manifest: &Manifest,
    meta: &Metadata,
) -> Result<Discovery> {
    let packages = select_packages(meta, cli, manifest)?;
    let specs: Vec<String> = packages.iter().map(|p| p.id.repr.clone()).collect();

    let mut targets = Vec::new();
    let mut skipped = Vec::new();
    let mut unmatched: Vec<&String> = cli.benches.iter().collect();
    for pkg in packages {
        let tables = bench_tables(pkg.manifest_path.as_std_path())?;
        for t in pkg.targets.iter().filter(|t| t.is_bench()) {
            if !cli.names(&t.name) {
                continue;
            }
            // `bench = false`: `cargo bench` runs it only where named.
            if cli.benches.is_empty() && tables.unbenched.contains(&t.name) {
                continue;
            }
            unmatched.retain(|b| !pattern::names(b, &t.name));
            let label = format!("{}/{}", pkg.name, t.name);
            let source = std::fs::read_to_string(&t.src_path).unwrap_or_default();
            let libtest = libtest_suite(t, &tables, &source);
            match left_out(pkg, t, (&tables, &source, libtest), features) {
                Some((reason, library)) => skipped.push(Skipped {
                    label,
                    reason,
                    library,
                }),
                None => targets.push(BenchTarget {
                    package: pkg.name.to_string(),
                    spec: pkg.id.repr.clone(),
                    name: t.name.clone(),
                    kind: Kind::Bench,
                    source: t.src_path.clone().into_std_path_buf(),
                    package_root: package_root(pkg),
                    path_deps: path_deps(pkg),
                    front_ends: match libtest {
                        true => vec![LIBTEST_PACKAGE.to_owned()],
                        false => front_ends_of(pkg).map(str::to_owned).collect(),
                    },
                }),
            }
        }
        let built = (tables.lib_benched, tables.unbenched_bins.as_slice());
        for (name, unit) in unit_benches::unit_targets(pkg, &cli.benches, built, features) {
            unmatched.retain(|b| !pattern::names(b, name));
            match unit {
                Ok(t) => targets.push(t),
                Err(s) => skipped.push(s),
            }
        }
    }
    if let Some(name) = unmatched.first() {
        return Err(Error::Usage(unit_benches::unmatched(name)));
    }
    if targets.is_empty() && skipped.is_empty() {
        benches_elsewhere(meta, cli, &specs)?;
        benches_outside(meta)?;
    }
    // The run's front ends: those of the targets it builds.
    let mut front_ends: Vec<String> = (targets.iter())
        .flat_map(|t: &BenchTarget| t.front_ends.iter().cloned())
        .collect();
    front_ends.sort();
    front_ends.dedup();
    Ok(Discovery {
        targets,
        packages: specs,
        skipped,
        front_ends,
        target_dir: target_dir(manifest, meta),
        workspace_root: meta.workspace_root.as_std_path().to_path_buf(),
    })
}

/// The folder of `pkg`'s manifest.
fn package_root(pkg: &Package) -> PathBuf {
    (pkg.manifest_path.parent())
        .map(|p| p.as_std_path().to_path_buf())
        .unwrap_or_default()
}

/// Where cargo's own choice of packages (no `-p`, no `--workspace`) has no
/// bench target and other members of its workspace do: the error naming
/// them (a root package whose suite lives in a member, as bstr's in
/// `bench/`, run from the root). Else nothing to say.
fn benches_elsewhere(meta: &Metadata, cli: &Selection, selected: &[String]) -> Result<()> {
    if !cli.packages.is_empty() || cli.workspace {
        return Ok(());
    }
    let elsewhere: Vec<String> = (meta.workspace_packages().into_iter())
        .filter(|p| !selected.contains(&p.id.repr))
        .filter(|p| p.targets.iter().any(|t| t.is_bench()))
        .map(|p| p.name.to_string())
        .collect();
    if elsewhere.is_empty() {
        return Ok(());
    }
    let names = (meta.workspace_packages().into_iter())
        .filter(|p| selected.contains(&p.id.repr))
        .map(|p| p.name.to_string())
        .collect();
    Err(Error::BenchesElsewhere {
        selected: names,
        elsewhere,
    })
}

/// Where no member of the workspace has a bench target and packages below
/// its root, outside it, do: the error naming their manifests (a suite
/// kept out of the workspace, as hex-conservative's `benches/`, run from
/// the root). Else nothing to say.
fn benches_outside(meta: &Metadata) -> Result<()> {
    let members = meta.workspace_packages();
    if members
        .iter()
        .any(|p| p.targets.iter().any(|t| t.is_bench()))
    {
        return Ok(());
    }
    let manifests = outside::suites_outside(meta);
    if manifests.is_empty() {
        return Ok(());
    }
    Err(Error::BenchesOutside {
        manifests,
        at_root: at_root(meta),
    })
}

/// The error of `-p spec` where no member is named so: it names the
/// package of that name kept out of the workspace below its root, if one
/// has bench targets, or else the members that have.
fn not_member(meta: &Metadata, spec: &str) -> Error {
    let root = meta.workspace_root.as_std_path();
    let outside = (outside::suites_outside(meta).into_iter())
        .find(|m| outside::package_name(&root.join(m)).is_some_and(|n| n == spec_name(spec)));
    let members = (meta.workspace_packages().into_iter())
        .filter(|p| p.targets.iter().any(|t| t.is_bench()))
        .map(|p| p.name.to_string())
        .collect();
    Error::NotMember {
        spec: spec.to_owned(),
        outside: outside.map(|m| (m, at_root(meta))),
        members,
    }
}

/// Whether the command runs at the workspace root.
fn at_root(meta: &Metadata) -> bool {
    let here = std::env::current_dir().and_then(std::fs::canonicalize).ok();
    here.is_some() && here == std::fs::canonicalize(&meta.workspace_root).ok()
}

/// Whether `pkg` depends on the package `name`.
fn depends(pkg: &Package, name: &str) -> bool {
    pkg.dependencies.iter().any(|d| d.name == name)
}

/// The nbench packages `pkg` depends on: the front ends its suites run on.
fn front_ends_of(pkg: &Package) -> impl Iterator<Item = &'static str> + '_ {
    std::iter::once("nbench")
        .chain(FRONT_ENDS.iter().map(|f| f.package))
        .filter(|n| depends(pkg, n))
}

/// Why a target of iai-callgrind's first binary benchmarks is left out:
/// nbench-gungraun would not build it, and a revision swapped for
/// iai-callgrind would fail to build as a whole.
const FIRST_BINARY_BENCHMARKS: &str = "it runs iai-callgrind's first binary benchmarks \
     (`benchmark = |group| …` with `Run` and `Arg`), which nbench-gungraun does not read: \
     write them with `#[binary_benchmark]`, or keep the target on iai-callgrind";

/// Why bench target `t` of `pkg` is left out, if it is, by what cargo
/// says of it, its package's manifest (`tables`), its source file and
/// whether that is a suite of libtest's `#[bench]` ([`libtest_suite`]);
/// with the library it uses where that is why.
fn left_out(
    pkg: &Package,
    t: &cargo_metadata::Target,
    (tables, source, libtest): (&BenchTables, &str, bool),
    features: Features,
) -> Option<(String, Option<&'static str>)> {
    let uses_nbench = front_ends_of(pkg).next().is_some();
    let library = library_of(pkg, source);
    let off = features_off(pkg, t, source, features);
    let off = off.map(|why| (why, None));
    let why = |why: String| Some((why, None));
    if libtest {
        // nbench-libtest takes `test`'s place: the package needs nothing.
        off
    } else if !tables.harness_off.contains(&t.name) {
        why("uses libtest's bench harness (no `harness = false`) and no `#[bench]`".to_owned())
    } else if a_program_of_its_own(pkg, source) {
        why(format!(
            "its `main` is its own and uses no benchmark library: a program, which \
             `cargo bench --bench {}` runs as it is",
            t.name
        ))
    } else if first_binary_benchmarks(pkg, source) {
        why(FIRST_BINARY_BENCHMARKS.to_owned())
    } else if let Some(foreign) = foreign_library(pkg, source) {
        why(format!(
            "it uses {foreign}, a benchmark library nbench has no front end for"
        ))
    } else if let Some((front, key)) = library.filter(|_| !uses_nbench) {
        // Where the package inherits the entry, the workspace's is the one.
        let place = match inherited::inherits(&tables.manifest, key) {
            true => format!(
                " in `[workspace.dependencies]` of the workspace's Cargo.toml (`{}` takes it \
                 from there)",
                pkg.name
            ),
            false => String::new(),
        };
        let said = match crate_name(key) {
            // Put in its place under the name its code uses.
            Some(code) => format!(
                "it uses {key}, whose crate is `{code}`; to run it unchanged, put {} in \
                 {key}'s place{place}, under that name: `{}` (and `{code}/…` for `{key}/…` in \
                 its features)",
                front.package,
                front.line_as(code)
            ),
            None => format!(
                "it uses {key}; to run it unchanged, put {} in {key}'s place{place}: `{}`",
                front.package,
                front.line_as(key)
            ),
        };
        Some((said, Some(front.library)))
    } else if !uses_nbench {
        why("its package does not depend on nbench".to_owned())
    } else {
        off
    }
}

/// Whether bench target `t` is a suite of libtest's own `#[bench]`
/// functions (`#![feature(test)]`, libtest's harness): nbench-libtest
/// takes `test`'s place in its build ([`crate::build::libtest`]). Its
/// `#[bench]` may be written by a macro (RustCrypto's
/// `digest::bench_update!`) or in a module: a crate root that takes
/// libtest says so too.
fn libtest_suite(t: &cargo_metadata::Target, tables: &BenchTables, source: &str) -> bool {
    let takes = || source.lines().any(unit_benches::takes_libtest);
    !tables.harness_off.contains(&t.name) && (source.contains("#[bench]") || takes())
}

/// The packages cargo would build for `-p` / `--workspace` / `--exclude`, or by default.
fn select_packages<'m>(
    meta: &'m Metadata,
    cli: &Selection,
    manifest: &Manifest,
) -> Result<Vec<&'m Package>> {
    let members = meta.workspace_packages();
    if !cli.packages.is_empty() {
        return cli
            .packages
            .iter()
            .map(|spec| {
                let name = spec_name(spec);
                members
                    .iter()
                    .copied()
                    .find(|p| p.name.as_str() == name)
                    .ok_or_else(|| not_member(meta, spec))
            })
            .collect();
    }
    if cli.workspace {
        return Ok(members
            .into_iter()
            .filter(|p| !cli.exclude.iter().any(|x| spec_name(x) == p.name.as_str()))
            .collect());
    }
    // Like cargo: the package whose manifest was named (or found from the
    // current directory), else the workspace's default members.
    let manifest = match &manifest.manifest_path {
        Some(p) => std::fs::canonicalize(p).ok(),
        None => std::env::current_dir()
            .ok()
            .and_then(|d| nearest_manifest(&d)),
    };
    if let Some(m) = manifest
        && let Some(p) = members
            .iter()
            .find(|p| std::fs::canonicalize(&p.manifest_path).ok().as_ref() == Some(&m))
    {
        return Ok(vec![*p]);
    }
    let defaults: Vec<&Package> = members
        .iter()
        .copied()
        .filter(|p| meta.workspace_default_members.contains(&p.id))
        .collect();
    Ok(if defaults.is_empty() {
        members
    } else {
        defaults
    })
}

fn nearest_manifest(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join("Cargo.toml"))
        .find(|m| m.is_file())
        .and_then(|m| std::fs::canonicalize(m).ok())
}

/// What a manifest's `[[bench]]` tables say of their targets, and its text.
#[derive(Debug)]
struct BenchTables {
    /// The manifest as written.
    manifest: String,
    /// Those declared with `harness = false`.
    harness_off: Vec<String>,
    /// Those declared with `bench = false`: `cargo bench` runs them only
    /// where `--bench` names them (glam's `support`, a module of helpers).
    unbenched: Vec<String>,
    /// Whether `cargo bench` builds the library's unit tests with libtest's
    /// harness: its `[lib]` says neither `bench = false` nor `harness = false`.
    lib_benched: bool,
    /// The `[[bin]]` tables that say `bench = false` or `harness = false`:
    /// `cargo bench` builds no unit tests of theirs unless named.
    unbenched_bins: Vec<String>,
}

/// The `[[bench]]`, `[lib]` and `[[bin]]` tables of a manifest ([`BenchTables`]).
fn bench_tables(manifest: &Path) -> Result<BenchTables> {
    let text =
        std::fs::read_to_string(manifest).map_err(|e| Error::io("could not read", manifest, e))?;
    let table: toml::Table = toml::from_str(&text).map_err(|e| Error::Metadata {
        said: format!("{}: {}", manifest.display(), first_line(&e.to_string())),
        advice: None,
    })?;
    let benches = table
        .get("bench")
        .and_then(|b| b.as_array())
        .cloned()
        .unwrap_or_default();
    let off = |key: &str| -> Vec<String> {
        (benches.iter())
            .filter(|b| b.get(key).and_then(|h| h.as_bool()) == Some(false))
            .filter_map(|b| b.get("name").and_then(|n| n.as_str()).map(str::to_owned))
            .collect()
    };
    // A binary's unit tests: `bench = false`, or no harness to build them.
    let bins = table.get("bin").and_then(|b| b.as_array());
    let unbenched_bins = (bins.into_iter().flatten())
        .filter(|b| {
            ["bench", "harness"]
                .iter()
                .any(|k| b.get(k).and_then(|v| v.as_bool()) == Some(false))
        })
        .filter_map(|b| b.get("name").and_then(|n| n.as_str()).map(str::to_owned))
        .collect();
    let lib = table.get("lib");
    let lib_off = |key: &str| lib.and_then(|l| l.get(key)).and_then(|v| v.as_bool()) == Some(false);
    Ok(BenchTables {
        harness_off: off("harness"),
        unbenched: off("bench"),
        lib_benched: !lib_off("bench") && !lib_off("harness"),
        unbenched_bins,
        manifest: text,
    })
}

fn first_line(s: &str) -> String {
    s.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn harness_false_from_manifest() {
        let dir = std::env::temp_dir().join(format!("nbench-discover-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let manifest = dir.join("Cargo.toml");
        std::fs::write(
            &manifest,
            "[package]\nname = \"x\"\n\n[lib]\nbench = false\n\n\
             [[bench]]\nname = \"a\"\nharness = false\n\n\
             [[bench]]\nname = \"b\"\n\n[[bench]]\nname = \"c\"\nbench = false\n",
        )
        .unwrap();
        let tables = bench_tables(&manifest).unwrap();
        assert_eq!(
            (tables.harness_off, tables.unbenched, tables.lib_benched),
            (vec!["a".to_owned()], vec!["c".to_owned()], false)
        );
        std::fs::write(&manifest, "[package\n").unwrap();
        let e = bench_tables(&manifest).unwrap_err().to_string();
        assert!(e.contains("Cargo.toml"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
