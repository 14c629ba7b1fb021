//! Building the bench targets with cargo and collecting their executables from its JSON messages.

mod alias;
mod artifacts;
mod dependencies;
mod features;
mod fingerprint;
pub mod flags;
mod layouts;
pub mod libtest;
pub mod lockfile;
mod manifest_swap;
mod marked;
mod relink;
pub mod revision;
pub mod snapshot;
pub mod standalone;
pub mod submodules;
pub mod swap;
pub mod swap_failure;
pub mod swapped;
pub mod unified;
mod units;
pub mod untracked;
pub mod worktree;
pub mod wrap;

pub use artifacts::build_benches;
pub use layouts::build_layouts;

use crate::discover::Manifest;
use crate::error::{Error, Result};
use crate::model::context::BuildRecord;
use crate::model::target::{BenchTarget, Kind};
use std::path::PathBuf;
use std::process::Command;

/// Where code lands in a bench build (`--placement`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Placement {
    /// Placement-stable: functions, loops and jump targets aligned to 64
    /// bytes, and on x86 no branch crossing a 32-byte boundary, so that
    /// where the linker puts a loop no longer decides its speed; built in a
    /// folder of its own.
    #[default]
    Stable,
    /// Code where the compiler and linker put it, in cargo's own target folder.
    Linker,
}

/// The LLVM options of a placement-stable build for `target` (a triple):
/// on x86, branches kept within 32-byte boundaries (on Intel CPUs with the
/// jump-conditional-code erratum fix a branch that crosses one costs dearly,
/// so where a hot loop lands decides its speed); everywhere, functions,
/// loops and blocks that are not fallen into aligned to 64 bytes. Loops are
/// the part that counts here: on this project's AMD VM, with the other three
/// only, a 2 k-element sum still moved ±2.5 % between identical builds in
/// other function orders; with loops aligned too, ±0.02 % (`cargo xtask
/// verdicts`, README).
pub fn stable_flags(target: &str) -> Vec<String> {
    let x86 = ["x86_64", "i386", "i586", "i686"]
        .iter()
        .any(|a| target.starts_with(a));
    let mut flags = Vec::new();
    if x86 {
        flags.push("-Cllvm-args=-x86-branches-within-32B-boundaries".to_owned());
    }
    flags.push("-Cllvm-args=-align-all-functions=6".to_owned());
    flags.push("-Cllvm-args=-align-all-nofallthru-blocks=6".to_owned());
    flags.push("-Cllvm-args=-align-loops=64".to_owned());
    flags
}

/// A linker script (lld and GNU ld) that puts every input code section on a
/// 64-byte boundary, inserted into the linker's own layout. rustc gives
/// each function a section of its own, and so does the precompiled std, so
/// this aligns the functions the LLVM options of [`stable_flags`] cannot
/// reach: std's (`Vec`'s growth, hashing, formatting). Only link layouts
/// get it (`--shuffle-sections` is lld's; a linker that takes neither
/// leaves the comparison at one layout).
const ALIGN_SECTIONS: &str = "SECTIONS {
  .text : SUBALIGN(64) {
    *(.text.unlikely .text.*_unlikely .text.unlikely.*)
    *(.text.exit .text.exit.*)
    *(.text.startup .text.startup.*)
    *(.text.hot .text.hot.*)
    *(.text .stub .text.*)
  }
} INSERT AFTER .init;
";

/// The name of [`ALIGN_SECTIONS`]' file in the placement-stable build folder.
const ALIGN_SECTIONS_FILE: &str = "align-sections.ld";

/// The link arguments that align every function of a layout (see
/// [`ALIGN_SECTIONS`]), for the script at `path`: `-T PATH` to the C
/// compiler driver, as two arguments, so that a path with a comma is not
/// split the way `-Wl,…` would split it.
fn align_sections_args(path: &std::path::Path) -> [String; 2] {
    [
        "-Clink-arg=-T".to_owned(),
        format!("-Clink-arg={}", path.display()),
    ]
}

/// Whether `target` (a triple) links ELF executables, where
/// [`ALIGN_SECTIONS`] applies.
fn links_elf(target: &str) -> bool {
    ["linux", "freebsd", "netbsd", "openbsd", "android"]
        .iter()
        .any(|os| target.contains(os))
}

/// How to build: cargo's feature and compilation options.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Where the workspace is, `--locked`, `--offline`, `--frozen`.
    pub manifest: Manifest,
    /// `-F/--features`.
    pub features: Vec<String>,
    /// `--all-features`.
    pub all_features: bool,
    /// `--no-default-features`.
    pub no_default_features: bool,
    /// `--profile`.
    pub profile: String,
    /// `-j`.
    pub jobs: Option<String>,
    /// cargo's own `--quiet`.
    pub quiet: bool,
    /// Link layouts to build of each target for comparisons (1: the linker's own order only).
    pub layouts: usize,
    /// Link layouts of a build kept for comparisons to come, whatever this
    /// command compares: `--layouts`, else the default for comparisons (a
    /// working tree built as a revision for a plain run, whose build a
    /// later `--save-baseline` or `--compare` reuses).
    pub kept_layouts: usize,
    /// Layout `i` (from 1) shuffles the function order with seed `layout_seed + i`
    /// (0 when not given); given with one layout, that layout is shuffled too.
    pub layout_seed: Option<u64>,
    /// Where code lands.
    pub placement: Placement,
    /// Where a placement-stable build goes (`target/nbench/build`), so
    /// that the user's own build, with other flags, is not rebuilt by it.
    pub stable_dir: Option<PathBuf>,
    /// A revision's build, named as every line of cargo's output is marked
    /// (`[main]`). Its lints are silenced ([`CAP_LINTS`]).
    pub revision: Option<String>,
    /// The root of the workspace built, whose manifest holds its profiles.
    pub workspace_root: PathBuf,
    /// The packages a change to the workspace can touch, built in one
    /// codegen unit where placement is stable ([`units`]).
    pub own_packages: Vec<String>,
    /// Where nbench-libtest is built (`target/nbench/libtest`), for the
    /// working tree and every revision alike.
    pub libtest_dir: PathBuf,
    /// nbench-libtest, built, where a target is a suite of libtest's
    /// `#[bench]` functions: given to the compiler in `test`'s place.
    pub libtest: Option<libtest::Shim>,
}

impl BuildOptions {
    /// How a build with these options is made, in `cwd` (where cargo reads
    /// its configuration), as baselines record it.
    pub fn record(&self, cwd: &std::path::Path) -> BuildRecord {
        let user = flags::user_flags(cwd);
        let mut added = self.added_flags(&user);
        if self.one_unit(&user, cwd) {
            added.push(units::RECORDED.to_owned());
        }
        let mut features: Vec<String> = (crate::discover::each_feature(&self.features))
            .map(str::to_owned)
            .collect();
        features.sort();
        features.dedup();
        if self.aligns_layouts(&user) {
            added.extend(align_sections_args(ALIGN_SECTIONS_FILE.as_ref()));
        }
        BuildRecord {
            rustflags: user.flags,
            added,
            target: user.target,
            features,
            all_features: self.all_features,
            no_default_features: self.no_default_features,
            layouts: self.layouts.max(1),
            swap: None,
            front_ends: Vec::new(),
            benches: Vec::new(),
            shuffle: match self.layouts > 1 || self.layout_seed.is_some() {
                true => layouts::shuffle("SEED"),
                false => String::new(),
            },
            lock: String::new(),
            copied: Vec::new(),
            bins_kept: true,
        }
    }
}

impl BuildOptions {
    /// The rustflags nbench adds to the user's: those of a placement-stable
    /// build that the user does not give already (an LLVM option given
    /// twice stops the build).
    fn added_flags(&self, user: &flags::UserFlags) -> Vec<String> {
        if self.placement != Placement::Stable {
            return Vec::new();
        }
        let target = user.target_or_host();
        // An LLVM option's name: `-align-loops` of `-Cllvm-args=-align-loops=64`
        // (or of `llvm-args=…` after a separate `-C`).
        let name = |f: &str| {
            let option = f
                .trim_start_matches("-C")
                .trim_start()
                .trim_start_matches("llvm-args=");
            option.split('=').next().unwrap_or(option).to_owned()
        };
        let given: Vec<String> = user.flags.iter().map(|f| name(f)).collect();
        stable_flags(&target)
            .into_iter()
            .filter(|f| !given.contains(&name(f)))
            .collect()
    }

    /// Whether the workspace's own packages are built in one codegen unit
    /// ([`units`]): placement-stable, and the user chose no number, for a
    /// cargo command run in `cwd`.
    fn one_unit(&self, user: &flags::UserFlags, cwd: &std::path::Path) -> bool {
        self.placement == Placement::Stable
            && !units::chosen(&self.profile, cwd, &self.workspace_root, &user.flags)
    }

    /// Whether link layouts get every function aligned ([`ALIGN_SECTIONS`]):
    /// placement-stable, several layouts, an ELF target.
    fn aligns_layouts(&self, user: &flags::UserFlags) -> bool {
        let target = user.target_or_host();
        self.placement == Placement::Stable
            && self.stable_dir.is_some()
            && (self.layouts > 1 || self.layout_seed.is_some())
            && links_elf(&target)
    }

    /// The script of [`ALIGN_SECTIONS`], written to the placement-stable
    /// build folder, where layouts get it; `None` where they do not.
    fn align_sections_script(&self) -> Result<Option<PathBuf>> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let (true, Some(dir)) = (
            self.aligns_layouts(&flags::user_flags(&cwd)),
            &self.stable_dir,
        ) else {
            return Ok(None);
        };
        let path = dir.join(ALIGN_SECTIONS_FILE);
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(dir)?;
            if std::fs::read_to_string(&path).ok().as_deref() != Some(ALIGN_SECTIONS) {
                std::fs::write(&path, ALIGN_SECTIONS)?;
            }
            Ok(())
        };
        write().map_err(|e| Error::Build(format!(": cannot write {}: {e}", path.display())))?;
        Ok(Some(path))
    }

    /// A cargo command with the environment this build needs: with
    /// placement-stable code, the user's rustflags and nbench's, joined
    /// (cargo would take either, never both), and the own packages in one
    /// codegen unit. A revision's build also caps lints ([`CAP_LINTS`]).
    fn cargo(&self) -> (Command, String) {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut cmd = Command::new(&cargo);
        let capped = self.revision.is_some();
        let cwd = std::env::current_dir().unwrap_or_default();
        let user = flags::user_flags(&cwd);
        if self.one_unit(&user, &cwd) {
            cmd.args(units::config_args(&self.profile, &self.own_packages));
        }
        // Every build in nbench's own folder names it, each member then
        // built once; it passes every compile to rustc unless told
        // otherwise. A build in cargo's folder (`--placement linker`) is
        // left as cargo's own.
        if self.stable_dir.is_some()
            && !user.wrapper
            && let Ok(me) = std::env::current_exe()
        {
            cmd.env("RUSTC_WORKSPACE_WRAPPER", me)
                .env(wrap::WRAP_ENV, "");
        }
        if self.placement == Placement::Stable || capped || self.libtest.is_some() {
            let added = self.added_flags(&user);
            let cap = capped.then(|| CAP_LINTS.to_owned());
            let shim = self.libtest.iter().flat_map(libtest::Shim::flags);
            let all: Vec<String> = (user.flags.into_iter().chain(added).chain(cap))
                .chain(shim)
                .collect();
            cmd.env("CARGO_ENCODED_RUSTFLAGS", all.join("\x1f"));
        }
        (cmd, cargo)
    }

    /// What cargo nbench, as cargo's rustc wrapper, is to do in the build
    /// of `targets`: link their first layouts, where layouts are built.
    fn wrap_for(&self, targets: &[BenchTarget]) -> Result<Option<wrap::Wrap>> {
        if !layouts::wanted(self) {
            return Ok(None);
        }
        let script = self.align_sections_script()?;
        Ok(Some(wrap::Wrap {
            link: layouts::layout_link(layouts::first_seed(self), script.as_deref()),
            failed: self.stable_dir.as_deref().map(wrap::failed_file),
            targets: (targets.iter())
                .map(|t| (canonical(&t.source), t.kind.unit_tests()))
                .collect(),
        }))
    }

    /// nbench-libtest built in [`BuildOptions::libtest_dir`] from the
    /// source cargo nbench finds for `checkout`, with the target and code
    /// flags the bench targets get; what cargo said where it failed.
    pub fn build_libtest(
        &self,
        checkout: &std::path::Path,
    ) -> Result<std::result::Result<libtest::Shim, String>> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let user = flags::user_flags(&cwd);
        let added = self.added_flags(&user);
        let all: Vec<String> = user.flags.iter().cloned().chain(added).collect();
        let offline = self.manifest.offline || self.manifest.frozen;
        let dir = &self.libtest_dir;
        libtest::build(dir, checkout, user.target.as_deref(), &all, offline)
    }
}

/// `path` as the file system names it, where it can (else as given).
pub(crate) fn canonical(path: &std::path::Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// What a revision's build adds to the rustflags: its lints are silenced,
/// as cargo silences a registry dependency's. An older revision that denied
/// warnings meets lints a newer compiler added (`#![deny(warnings)]` under
/// rustc 1.95: base64's 2023 code stops at `unexpected_cfgs`), and its
/// warnings (hundreds of lines on unicode-segmentation's 2025 code) are not
/// the user's to fix. Lints change no code, so both sides of a comparison
/// still run what the compiler makes of the same flags; nor does the
/// build's record take it, which would set a revision apart from the
/// working tree's build it is checked against.
pub const CAP_LINTS: &str = "--cap-lints=allow";

/// The `cargo bench --no-run` command line for `targets` under the user's
/// flags, with every package selected (`packages`, which hold the
/// targets') named, so that cargo turns on the features `cargo bench` would.
/// A library's unit tests are asked for with `--lib`, which builds those of
/// every package named; only those of [`Kind::Lib`] targets are kept. A
/// binary's are asked for with `--bin NAME` ([`Kind::Bin`]).
pub fn cargo_args(cli: &BuildOptions, targets: &[BenchTarget], packages: &[String]) -> Vec<String> {
    let mut args: Vec<String> = [
        "bench",
        "--no-run",
        "--message-format",
        "json-render-diagnostics",
    ]
    .map(str::to_owned)
    .to_vec();
    let mut packages: Vec<&str> = (packages.iter().map(String::as_str))
        .chain(targets.iter().map(|t| t.spec.as_str()))
        .collect();
    packages.sort_unstable();
    packages.dedup();
    // Each bench target and binary named once.
    let named = |kind: Kind| {
        let mut names: Vec<&str> = (targets.iter())
            .filter(|t| t.kind == kind)
            .map(|t| t.name.as_str())
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    };
    for p in packages {
        args.extend(["--package".to_owned(), p.to_owned()]);
    }
    if targets.iter().any(|t| t.kind == Kind::Lib) {
        args.push("--lib".to_owned());
    }
    for (kind, flag) in [(Kind::Bench, "--bench"), (Kind::Bin, "--bin")] {
        for n in named(kind) {
            args.extend([flag.to_owned(), n.to_owned()]);
        }
    }
    args.extend(common_args(cli));
    args
}

/// The feature, manifest and compilation flags every cargo command gets.
fn common_args(cli: &BuildOptions) -> Vec<String> {
    let mut args = Vec::new();
    if !cli.features.is_empty() {
        args.extend(["--features".to_owned(), cli.features.join(",")]);
    }
    let flags = [
        (cli.all_features, "--all-features"),
        (cli.no_default_features, "--no-default-features"),
        (cli.manifest.locked, "--locked"),
        (cli.manifest.offline, "--offline"),
        (cli.manifest.frozen, "--frozen"),
    ];
    args.extend(
        flags
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, f)| (*f).to_owned()),
    );
    args.extend(["--profile".to_owned(), cli.profile.clone()]);
    let target_dir = cli.stable_dir.as_ref().or(cli.manifest.target_dir.as_ref());
    let paths = [
        ("--manifest-path", cli.manifest.manifest_path.as_ref()),
        ("--target-dir", target_dir),
    ];
    for (flag, value) in paths {
        if let Some(v) = value {
            args.extend([flag.to_owned(), v.display().to_string()]);
        }
    }
    if cli.quiet {
        args.push("--quiet".to_owned());
    }
    if let Some(j) = &cli.jobs {
        args.extend(["--jobs".to_owned(), j.clone()]);
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn placement_stable_flags_per_architecture() {
        let x86 = stable_flags("x86_64-unknown-linux-gnu");
        assert_eq!(x86.len(), 4);
        assert!(x86[0].contains("x86-branches-within-32B-boundaries"));
        let arm = stable_flags("aarch64-apple-darwin");
        assert_eq!(arm, x86[1..], "the branch option is x86's alone");
        // An option the user gives already is not given twice (LLVM stops on that).
        let opts = BuildOptions::default();
        let user = flags::UserFlags {
            flags: [
                "-C",
                "llvm-args=-align-loops=32",
                "-Cllvm-args=-align-all-functions=4",
            ]
            .map(String::from)
            .to_vec(),
            source: flags::Source::Env,
            target: Some("x86_64-unknown-linux-gnu".into()),
            wrapper: false,
        };
        let added = opts.added_flags(&user);
        assert_eq!(added.len(), 2, "{added:?}");
        assert!(
            added
                .iter()
                .all(|f| !f.contains("align-loops") && !f.contains("functions")),
            "{added:?}"
        );
        let linker = BuildOptions {
            placement: Placement::Linker,
            ..BuildOptions::default()
        };
        assert!(linker.added_flags(&user).is_empty());
        let nowhere = std::path::Path::new("/");
        assert!(
            opts.one_unit(&user, nowhere),
            "no profile here chose a number"
        );
        assert!(!linker.one_unit(&user, nowhere));
    }

    #[test]
    fn layouts_of_elf_targets_align_every_function() {
        let user = |target: &str| flags::UserFlags {
            flags: Vec::new(),
            source: flags::Source::None,
            target: Some(target.into()),
            wrapper: false,
        };
        let stable = BuildOptions {
            layouts: 8,
            stable_dir: Some(PathBuf::from("target/nbench/build")),
            ..BuildOptions::default()
        };
        assert!(stable.aligns_layouts(&user("x86_64-unknown-linux-gnu")));
        assert!(stable.aligns_layouts(&user("aarch64-unknown-linux-musl")));
        assert!(!stable.aligns_layouts(&user("aarch64-apple-darwin")));
        assert!(!stable.aligns_layouts(&user("x86_64-pc-windows-msvc")));
        let one = BuildOptions {
            layouts: 1,
            ..stable.clone()
        };
        assert!(!one.aligns_layouts(&user("x86_64-unknown-linux-gnu")));
        let seeded = BuildOptions {
            layout_seed: Some(3),
            ..one
        };
        assert!(seeded.aligns_layouts(&user("x86_64-unknown-linux-gnu")));
        let linker = BuildOptions {
            placement: Placement::Linker,
            stable_dir: None,
            ..stable
        };
        assert!(!linker.aligns_layouts(&user("x86_64-unknown-linux-gnu")));
        assert!(ALIGN_SECTIONS.contains("SUBALIGN(64)") && ALIGN_SECTIONS.contains("INSERT"));
        assert_eq!(
            align_sections_args("a,b/align-sections.ld".as_ref()),
            ["-Clink-arg=-T", "-Clink-arg=a,b/align-sections.ld"]
        );
    }

    #[test]
    fn passes_cargo_flags_through() {
        let cli = BuildOptions {
            manifest: Manifest {
                target_dir: Some(PathBuf::from("t")),
                locked: true,
                ..Manifest::default()
            },
            features: vec!["a".into(), "b".into()],
            all_features: true,
            profile: "bench".into(),
            jobs: Some("3".into()),
            ..BuildOptions::default()
        };
        let t = |p: &str, n: &str| BenchTarget {
            package: p.into(),
            spec: p.into(),
            name: n.into(),
            kind: crate::model::target::Kind::Bench,
            source: PathBuf::new(),
            package_root: PathBuf::from(p),
            path_deps: Vec::new(),
            front_ends: Vec::new(),
        };
        let targets = [t("x", "b1"), t("x", "b2"), t("y", "b1")];
        // `z`, selected too, has no bench target: it is named all the same.
        let packages = ["x", "y", "z"].map(String::from);
        let args = cargo_args(&cli, &targets, &packages).join(" ");
        assert_eq!(
            args,
            "bench --no-run --message-format json-render-diagnostics --package x --package y \
             --package z --bench b1 --bench b2 --features a,b --all-features --locked \
             --profile bench --target-dir t --jobs 3"
        );
        // A library's own `#[bench]` functions: its unit tests, by `--lib`.
        let lib = BenchTarget {
            kind: Kind::Lib,
            ..t("y", crate::model::target::LIB)
        };
        let args = cargo_args(&BuildOptions::default(), &[t("x", "b1"), lib], &[]).join(" ");
        assert!(args.contains("--package y --lib --bench b1 "), "{args}");
        assert!(!args.contains("--bench lib"), "{args}");
    }
}
